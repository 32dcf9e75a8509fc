// A scripted headless session (§6 of gemini-cli-0.61-hooks.md): for each scripted host event the
// planned hooks run (parallel or sequential with input chaining, core hookRunner.js), their outputs
// are aggregated (hookAggregator.js) and the event's effect is applied the way the 0.61.0 CLI does
// (scheduler/hook-utils.js evaluateBeforeToolHook, core/coreToolHookTriggers.js, core/client.js,
// bundle nonInteractiveCli.ts / gemini.tsx), with the lines the CLI prints on stderr.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ctime>
#include <future>
#include <regex>

#include "pinta/common/fs.h"
#include "pinta/emulator/gemini/gemini.h"

namespace pinta::emu::gemini {
namespace {

std::string display_name(const LoadedHook& h) {
  return h.spec.name.empty() ? h.spec.command : h.spec.name;
}

// The CLI's own record of one hook run: the gemini_cli.hook_call telemetry event
// (core hooks/hookEventHandler.js executeHooks → telemetry/types.js HookCallEvent, 0.61.0),
// with the attributes a local telemetry outfile carries when prompt logging is on (the default):
// hook_name is the hook's name or else its command, exit_code and hook_output are absent when
// undefined (timeout, spawn error), error is the error message. duration_ms, event.timestamp and
// the session ids are not reproduced (timing, random per run).
// hook_type is the configured type ("command" or "plugin", getHookTypeFromResult) and hook_input
// the event's input object, the same for every hook of the event (logHookExecution spreads the
// event's `input`, not the chained one a sequential hook got).
ojson hook_call_record(std::string_view event, const LoadedHook& h, const ojson& input,
                       const HookRunResult& r) {
  ojson c = ojson::object();
  c["event.name"] = "gemini_cli.hook_call";
  c["hook_event_name"] = std::string(event);
  c["hook_type"] = h.type;
  c["hook_name"] = display_name(h);
  c["hook_input"] = input;
  c["success"] = r.success;
  if (r.exit_code) c["exit_code"] = *r.exit_code;
  if (r.output) c["hook_output"] = *r.output;
  c["stdout"] = r.stdout_text;
  c["stderr"] = r.stderr_text;
  if (r.error) c["error"] = *r.error;
  return c;
}

struct EventRun {
  std::vector<HookRunResult> results;
  std::optional<ojson> final_output;
};

EventRun run_plan(const Plan& plan, std::string_view event, const ojson& input,
                  const RunContext& ctx) {
  EventRun er;
  if (plan.sequential) {
    ojson cur = input;
    for (const auto& h : plan.hooks) {
      auto r = run_hook(h.spec, event, cur, ctx);
      if (r.success && r.output) cur = apply_output_to_input(cur, *r.output, event);
      er.results.push_back(std::move(r));
    }
  } else {
    std::vector<std::future<HookRunResult>> fs;
    for (const auto& h : plan.hooks)
      fs.push_back(std::async(std::launch::async,
                              [&, spec = h.spec] { return run_hook(spec, event, input, ctx); }));
    for (auto& f : fs) er.results.push_back(f.get());  // plan order, not finish order
  }
  std::vector<ojson> outs;
  for (const auto& r : er.results)
    if (r.output) outs.push_back(*r.output);
  er.final_output = aggregate(event, outs);
  return er;
}


// The events one headless `gemini -p` run fires for a scripted model (§6 "Order in one headless
// run", exp e01_payload): SessionStart(startup), then one agent iteration: BeforeAgent, per model
// call PreCompress(auto), BeforeModel, BeforeToolSelection, AfterModel once per streamed chunk,
// and for a function call BeforeTool + AfterTool; a call that answers without a function call ends
// the iteration with AfterAgent. The turns left over form further iterations ("iteration" k), which
// run only when the previous AfterAgent blocks: core client.js sendMessageStream re-enters with the
// block reason as the prompt and stopHookActive (BeforeAgent fires again; session lane u28).
// Finally SessionEnd(exit). The last AfterModel of each call carries the call's response text as
// core turn.js getResponseText builds it: the chunks' non-thought text joined by ' ' (a thought-only
// or function-call chunk gives ''), which AfterAgent's prompt_response accumulates (client.js).
ojson expand_model_turns(const ojson& turns) {
  ojson ev = ojson::array();
  int iteration = 0;
  auto add = [&](const char* name) {
    ojson e = ojson::object();
    e["event"] = name;
    e["iteration"] = iteration;
    ev.push_back(e);
    return ev.size() - 1;
  };
  add("SessionStart");
  size_t t = 0;
  do {
    add("BeforeAgent");
    while (t < turns.size()) {
      const ojson& turn = turns[t++];
      add("PreCompress");
      add("BeforeModel");
      add("BeforeToolSelection");
      int chunks = turn.is_object() ? std::max(turn.value("chunks", 1), 1) : 1;
      const bool has_call = turn.is_object() && turn.contains("function_call") &&
                            turn["function_call"].is_object();
      size_t last = 0;
      for (int i = 0; i < chunks; ++i) {
        last = add("AfterModel");
        // The chunk's part as the hook sees it (hookTranslator toHookLLMResponse): the lane's
        // thought chunks "Thinking (k)." (session_lane fake_responses), then the turn's text; a
        // function-call chunk has no text part.
        if (i + 1 < chunks)
          ev[last]["chunk"] =
              ojson::object({{"text", "Thinking (" + std::to_string(i + 1) + ")."}, {"thought", true}});
        else if (!has_call && turn.is_object())
          ev[last]["chunk"] = ojson::object({{"text", turn.value("text", "Done.")}});
        else
          ev[last]["chunk"] = ojson::object();
      }
      std::string text(static_cast<size_t>(chunks - 1), ' ');
      if (!has_call && turn.is_object()) text += turn.value("text", "Done.");
      ev[last]["response_text"] = text;
      if (!has_call) break;
      const ojson& fc = turn["function_call"];
      for (const char* name : {"BeforeTool", "AfterTool"}) {
        size_t i = add(name);
        ev[i]["tool_name"] = fc.value("name", "write_file");
        ev[i]["tool_input"] = fc.contains("args") ? fc["args"] : ojson::object();
      }
    }
    add("AfterAgent");
    ++iteration;
  } while (t < turns.size());
  iteration = 0;
  add("SessionEnd");
  return ev;
}

struct ToolRun {
  bool ok = false;
  std::string error;  // the tool error the CLI reports ("Error executing tool T: <error>")
  ojson response;     // AfterTool tool_response {llmContent, returnDisplay}
};

// write_file, the built-in tool the differential lane's scenarios call, run for real in the
// workspace. `modified` = the arguments came from a hook's hookSpecificOutput.tool_input: the tool
// is then rebuilt from them and validated (scheduler/hook-utils.js; exp x11: a partial object
// fails with "Tool parameter modification by hook failed validation: params must have required
// property 'file_path'"; lane s15). Other tools are not run: their response is the script's.
ToolRun run_builtin_tool(const std::string& name, const ojson& args, const std::string& workspace,
                         bool modified) {
  ToolRun r;
  if (name == "read_file" && args.is_object() && args.contains("file_path") &&
      args["file_path"].is_string()) {
    // read_file of a small text file: the content as llmContent, an empty returnDisplay (lane
    // u05: the real CLI's AfterTool tool_response {"llmContent":"Original content",
    // "returnDisplay":""}; core tools/read-file.js). Ranges, truncation and binary files are not
    // modelled; a missing file keeps the script's response.
    std::filesystem::path p(args["file_path"].get<std::string>());
    if (p.is_relative()) p = std::filesystem::path(workspace) / p;
    std::ifstream in(p, std::ios::binary);
    r.ok = true;
    if (in)
      r.response = ojson::object(
          {{"llmContent", std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>())},
           {"returnDisplay", ""}});
    return r;
  }
  if (name == "list_directory" && args.is_object() && args.contains("dir_path") &&
      args["dir_path"].is_string()) {
    // list_directory of an empty folder (lane u29 on 0.61.0: AfterTool tool_response
    // {"llmContent":"Directory <abs> is empty.","returnDisplay":"Directory is empty."}; core
    // tools/ls.js). The listing of a folder with entries is not modelled: the script's response.
    std::filesystem::path p(args["dir_path"].get<std::string>());
    if (p.is_relative()) p = std::filesystem::path(workspace) / p;
    p = p.lexically_normal();
    if (!p.empty() && p.native().size() > 1 && p.native().back() == '/') p = p.parent_path();
    std::error_code ec;
    r.ok = true;
    if (std::filesystem::is_directory(p, ec) && std::filesystem::is_empty(p, ec) && !ec)
      r.response = ojson::object({{"llmContent", "Directory " + p.string() + " is empty."},
                                  {"returnDisplay", "Directory is empty."}});
    return r;
  }
  if (name != "write_file") {
    r.ok = true;
    return r;
  }
  const std::string prefix = modified ? "Tool parameter modification by hook failed validation: " : "";
  for (const char* k : {"file_path", "content"}) {
    if (!args.is_object() || !args.contains(k)) {
      r.error = prefix + "params must have required property '" + k + "'";
      return r;
    }
    // Same validator (ajv) wording for a wrong type; not exercised by the lane.
    if (!args[k].is_string()) {
      r.error = prefix + "params/" + k + " must be string";
      return r;
    }
  }
  namespace sfs = std::filesystem;
  sfs::path path(args["file_path"].get<std::string>());
  if (path.is_relative()) path = sfs::path(workspace) / path;
  std::error_code ec;
  const bool existed = sfs::exists(path, ec);
  std::string original;
  if (existed) {
    std::ifstream in(path, std::ios::binary);
    original.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  sfs::create_directories(path.parent_path(), ec);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << args["content"].get<std::string>();
  if (!f) {
    r.error = "cannot write " + path.string();  // emulator's own wording: no lane scenario
    return r;
  }
  // core tools/write-file.js:266-306 (0.61.0): llmContent is the success sentence and "Here is
  // the updated code:\n<snippet>" joined by ' ' (for a new file the snippet is the whole content,
  // tools/diff-utils.js getDiffContextSnippet); returnDisplay is the FileDiff object. For a new
  // file the patch (npm diff createPatch, 'Original' / 'Written') is one hunk adding every line,
  // and diffStat counts those lines and their characters (tools/diffOptions.js getDiffStat; the
  // user side is empty: the content was not edited). An overwrite's patch and snippet need a line
  // diff, which is not modelled: its fileDiff/diffStat are left out (no lane scenario overwrites).
  const std::string content = args["content"].get<std::string>();
  const std::string base = path.filename().string();
  const std::string msg = existed ? "Successfully overwrote file: " + path.string() + "."
                                  : "Successfully created and wrote to new file: " + path.string() + ".";
  ojson display = ojson::object();
  std::string llm = msg;
  if (!existed) {
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t nl; (nl = content.find('\n', start)) != std::string::npos; start = nl + 1)
      lines.push_back(content.substr(start, nl - start));
    const bool final_newline = start == content.size();
    if (!final_newline) lines.push_back(content.substr(start));
    std::string diff = "Index: " + base +
                       "\n===================================================================\n--- " +
                       base + "\tOriginal\n+++ " + base + "\tWritten\n";
    long chars = 0;
    if (!lines.empty()) {
      diff += "@@ -0,0 +1," + std::to_string(lines.size()) + " @@\n";
      for (const auto& l : lines) {
        diff += "+" + l + "\n";
        chars += static_cast<long>(l.size());
      }
      if (!final_newline) diff += "\\ No newline at end of file\n";
    }
    display["fileDiff"] = diff;
    display["fileName"] = base;
    display["filePath"] = path.string();
    display["originalContent"] = original;
    display["newContent"] = args["content"];
    display["diffStat"] = ojson::object({{"model_added_lines", lines.size()},
                                         {"model_removed_lines", 0},
                                         {"model_added_chars", chars},
                                         {"model_removed_chars", 0},
                                         {"user_added_lines", 0},
                                         {"user_removed_lines", 0},
                                         {"user_added_chars", 0},
                                         {"user_removed_chars", 0}});
    display["isNewFile"] = true;
    // utils/buildFileUtils.js isBuildFile: package manifests and build scripts; the lane writes
    // none of them.
    display["isBuildFile"] = false;
    llm += " Here is the updated code:\n" + content;
  } else {
    display = ojson::object({{"fileName", base},
                             {"filePath", path.string()},
                             {"originalContent", original},
                             {"newContent", args["content"]},
                             {"isNewFile", false}});
  }
  r.response = ojson::object({{"llmContent", llm}, {"returnDisplay", display}});
  r.ok = true;
  return r;
}

// The workspace listing of the model's session context (core utils/getFolderStructure.js,
// 0.61.0): per folder its files, then its subfolders, each sorted (String.localeCompare,
// approximated: case-insensitive, lower case first), "├───" / "└───" connectors, "│   " under a
// non-last folder; node_modules, .git, dist and __pycache__ are shown as "name/..." without
// contents. The scenarios' workspaces stay far below its 200-item cap, which is not modelled.
void list_folder(const std::filesystem::path& dir, const std::string& indent,
                 std::vector<std::string>& out) {
  namespace sfs = std::filesystem;
  std::vector<std::string> files, dirs;
  std::error_code ec;
  for (auto it = sfs::directory_iterator(dir, ec); !ec && it != sfs::directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file(ec))
      files.push_back(it->path().filename().string());
    else if (it->is_directory(ec))
      dirs.push_back(it->path().filename().string());
  }
  auto before = [](const std::string& a, const std::string& b) {
    std::string la = a, lb = b;
    for (auto& c : la) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (auto& c : lb) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return la != lb ? la < lb : a > b;
  };
  std::sort(files.begin(), files.end(), before);
  std::sort(dirs.begin(), dirs.end(), before);
  for (size_t i = 0; i < files.size(); ++i)
    out.push_back(indent + (i + 1 == files.size() && dirs.empty() ? "└───" : "├───") + files[i]);
  for (size_t i = 0; i < dirs.size(); ++i) {
    const bool last = i + 1 == dirs.size();
    const bool ignored = dirs[i] == "node_modules" || dirs[i] == ".git" || dirs[i] == "dist" ||
                         dirs[i] == "__pycache__";
    out.push_back(indent + (last ? "└───" : "├───") + dirs[i] + "/" + (ignored ? "..." : ""));
    if (!ignored) list_folder(dir / dirs[i], indent + (last ? "    " : "│   "), out);
  }
}

// The environment context the CLI puts first in the chat history (core
// utils/environmentContext.js getEnvironmentContext, 0.61.0): today's date as the locale writes
// it (en-US here: "Sunday, December 6, 2026"), the platform, the project temp dir, the workspace
// and its listing; no GEMINI.md memory in the scenarios.
std::string session_context(const std::string& workspace, const std::string& project_temp) {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char day_month[64];
  std::strftime(day_month, sizeof day_month, "%A, %B ", &tm);
  const std::string date = std::string(day_month) + std::to_string(tm.tm_mday) + ", " +
                           std::to_string(tm.tm_year + 1900);
  std::vector<std::string> lines;
  list_folder(workspace, "", lines);
  std::string listing = workspace + "/\n";
  for (size_t i = 0; i < lines.size(); ++i) listing += (i ? "\n" : "") + lines[i];
  return "<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n"
         "Today's date is " + date +
         " (formatted according to the user's locale).\nMy operating system is: linux\n"
         "The project's temporary directory is: " + project_temp +
         "\n- **Workspace Directories:**\n  - " + workspace +
         "\n- **Directory Structure:**\n\nShowing up to 200 items (files + folders).\n\n" +
         listing + "\n\n\n</session_context>";
}

// Node's util.inspect of a JSON value on one line, as console.warn prints an object argument:
// { key: 'text', n: 1, list: [ 'a' ] }, {} and [] when empty; a key that is not an identifier is
// quoted; strings single-quoted (double-quoted when they hold a ' and no "), with \n \t \\ escapes.
// util.inspect breaks an object over several lines past 72 characters; the lane's discarded
// values stay shorter (scenario s30), so that is not modelled.
std::string inspect_value(const ojson& v) {
  auto quote = [](const std::string& t) {
    const char q = t.find('\'') != std::string::npos && t.find('"') == std::string::npos ? '"' : '\'';
    std::string o(1, q);
    for (char c : t) {
      if (c == q || c == '\\') o += '\\';
      if (c == '\n') { o += "\\n"; continue; }
      if (c == '\t') { o += "\\t"; continue; }
      o += c;
    }
    return o + q;
  };
  if (v.is_string()) return quote(v.get<std::string>());
  if (v.is_array()) {
    if (v.empty()) return "[]";
    std::string o = "[ ";
    for (size_t i = 0; i < v.size(); ++i) o += (i ? ", " : "") + inspect_value(v[i]);
    return o + " ]";
  }
  if (v.is_object()) {
    if (v.empty()) return "{}";
    static const std::regex ident("^[A-Za-z_$][A-Za-z_$0-9]*$");
    std::string o = "{ ";
    bool first = true;
    for (auto& [k, x] : v.items()) {
      o += (first ? "" : ", ") + (std::regex_match(k, ident) ? k : quote(k)) + ": " + inspect_value(x);
      first = false;
    }
    return o + " }";
  }
  if (v.is_null()) return "null";
  return js_stringify(v);
}

// The hook-registry warnings as the CLI prints them on stderr at start-up (core
// hooks/hookRegistry.js, 0.61.0: debugLogger.warn / coreEvents feedback, headless both plain
// lines; lane s30): the "Discarding invalid hook …" lines end with ": " and the discarded value
// (util.inspect), read back from the file and place the loader recorded. The folder-trust line is
// printed by its own rule (headless_folder_trust), not here.
std::vector<std::string> registry_warning_lines(const LoadResult& loaded) {
  std::vector<std::string> out;
  std::map<std::string, ojson> files;
  auto value_at = [&](const std::string& origin, std::string ptr) -> std::optional<ojson> {
    if (!files.count(origin)) {
      auto text = pinta::fs::read_file(origin);
      auto j = text ? js_parse(*text) : std::nullopt;
      files[origin] = j ? *j : ojson();
    }
    try {
      return files[origin].at(ojson::json_pointer(ptr));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  };
  const LoadIssue* last = nullptr;
  size_t next_issue = 0;
  for (const auto& w : loaded.warnings) {
    if (w == "Project hooks disabled because the folder is not trusted.") continue;
    const LoadIssue* issue = nullptr;
    if (next_issue < loaded.issues.size() && loaded.issues[next_issue].message == w)
      issue = last = &loaded.issues[next_issue++];
    std::string line = w;
    std::optional<ojson> v;
    if (w.rfind("Discarding invalid hook definition", 0) == 0 && issue) {
      v = value_at(issue->origin, issue->pointer);
    } else if (w.rfind("Discarding invalid hook configuration", 0) == 0 && last) {
      std::string ptr = last->pointer;
      if (ptr.size() > 5 && ptr.compare(ptr.size() - 5, 5, "/type") == 0) ptr.resize(ptr.size() - 5);
      v = value_at(last->origin, ptr);
    }
    if (v) line += ": " + inspect_value(*v);
    out.push_back(line);
  }
  return out;
}

}  // namespace

Result<ojson> run_session(const std::string& home, const std::string& workspace,
                          const ojson& script, const RunContext& base) {
  if (!script.is_object())
    return make_error(ErrorCode::kInvalidArgument, "script is not a JSON object");
  const bool has_events = script.contains("events") && script["events"].is_array();
  const bool has_turns = script.contains("model_turns") && script["model_turns"].is_array();
  if (has_events == has_turns)
    return make_error(ErrorCode::kInvalidArgument,
                      "script needs exactly one of an \"events\" or a \"model_turns\" array");
  ojson script_events = has_events ? script["events"] : expand_model_turns(script["model_turns"]);
  // Version profile switches (hosts/gemini/profiles/gemini-0.XX.json, `hostemu gemini
  // session --profile`); absent or {} = the 0.61 behaviour. Each switch's evidence is the
  // `hostemu drift` record cited in its profile (docs/gemini-versions.md).
  const ojson sw = script.contains("profile") && script["profile"].is_object() &&
                           script["profile"].contains("switches") &&
                           script["profile"]["switches"].is_object()
                       ? script["profile"]["switches"]
                       : ojson::object();
  // < 0.61: the headless run fires SessionEnd twice (drift s01..s28: two "SessionEnd:se" lines).
  const bool session_end_twice = sw.value("session_end_twice", false);
  // < 0.61: a partial hookSpecificOutput.tool_input is merged into the call's arguments instead of
  // replacing them (drift s15: real wrote test.txt = "MOD").
  const bool tool_input_merge = sw.value("tool_input_rewrite", std::string("replace")) == "merge";
  // < 0.61: continue:false on any event first logs "Hook requested to stop execution: R", and the
  // stop line names the bare reason (drift s13, s17, s19, s23).
  const bool log_stop_request = sw.value("log_stop_request", false);
  // The BeforeTool stop line names the bare reason ("bare", < 0.36) or the tool's error
  // ("prefixed": "Agent execution stopped: Agent execution stopped by hook: R"). 0.36.0 still logs
  // the stop request but prints the prefixed line (drift s13 on 0.36.0), so the two are separate
  // switches; without stop_line the line follows log_stop_request.
  const bool bare_stop_line =
      sw.value("stop_line", std::string(log_stop_request ? "bare" : "prefixed")) == "bare";
  // < 0.61: headless runs ignore folder trust: an untrusted or DO_NOT_TRUST folder runs as trusted
  // (drift s04, s05: exit 0, every hook fired).
  const std::string headless_trust = sw.value("headless_folder_trust", std::string("enforced"));
  const bool headless_trust_ignored = headless_trust == "ignored";
  // 0.26: an untrusted folder runs headless (no exit 55) with its settings hooks off (core 0.26.0
  // hooks/hookRegistry.js:101-106 "Project hooks disabled because the folder is not trusted.") and,
  // its approval mode forced to "default", without write_file (cli 0.26.0 config/config.js:407-415
  // excludes the tools that need a prompt) — drift s04, s05.
  const bool headless_settings_hooks_off = headless_trust == "settings_hooks_off";
  // 0.26: "Hook registry initialized with N hook entries" (core 0.26.0 hooks/hookRegistry.js:25) on
  // stderr at start-up, N = every registered entry (disabled ones too); glued to the end of the
  // project-hooks warning, which is written without a newline (drift s06, s08).
  const bool log_registry_size = sw.value("log_registry_size", false);
  // 0.26: a blocked or stopped tool reports the bare reason as its error ("Error executing tool T:
  // R"); 0.30+ prefix it (core 0.26.0 core/coreToolHookTriggers.js:208-231, 296-320: the prefix is
  // only in llmContent, error.message is the reason) — drift s01, s07, s13, s16, s17, s22.
  const bool bare_tool_error = sw.value("blocked_tool_error", std::string("prefixed")) == "bare";
  // 0.26: every log line goes through the one patched console (cli 0.26.0 gemini.js:198-206,
  // ui/utils/ConsolePatcher.js), flushed in code order after start-up, so (a) SessionStart's
  // systemMessage, written straight to stderr (gemini.js:445-446), comes before all start-up lines
  // (drift s23). (An event's "Hook system message" / stop-request lines precede its failure
  // warning in every release: 0.26 hooks/hookEventHandler.js:373-375, drift s25; 0.61 lane s31.)
  const bool single_log_stream = sw.value("single_log_stream", false);
  // < 0.61: each enabled extension logs "Loading extension: NAME" at start-up, and an unreadable
  // extension-enablement.json is silently treated as {} (drift s06, s07, s11, s20, s26, s27).
  const bool log_loading_extensions = sw.value("log_loading_extensions", false);
  const bool warn_bad_enablement = sw.value("warn_invalid_enablement", true);
  // AfterTool hookSpecificOutput.tailToolCallRequest runs a replacement tool call (0.61 default).
  const bool tail_calls = sw.value("tail_tool_calls", true);
  // < 0.35: an AfterAgent block re-enters the agent loop nested inside the first call (core
  // client.js 0.30.0 sendMessageStream): BeforeAgent is not fired again and the nested call's
  // AfterAgent is skipped (activeCalls is 2), so the continuation runs one more model call without
  // agent hooks (drift u28).
  const bool nested_continuation =
      sw.value("after_agent_continuation", std::string("fresh")) == "nested";
  if (session_end_twice) {
    ojson doubled = ojson::array();
    for (const auto& e : script_events) {
      doubled.push_back(e);
      if (e.value("event", "") == "SessionEnd") doubled.push_back(e);
    }
    script_events = doubled;
  }
  // Tools run for real only when the script asks for it (the differential lane does).
  const bool run_tools = script.value("run_tools", has_turns);
  LoadOptions lo;
  lo.home = home;
  lo.workspace = workspace;
  if (base.env) {
    std::map<std::string, std::string> m(base.env->begin(), base.env->end());
    lo.cli_env = m;
  }
  if (script.contains("trusted") && script["trusted"].is_boolean())
    lo.trusted = script["trusted"].get<bool>();
  if (headless_trust_ignored) lo.trusted = true;
  if (headless_settings_hooks_off) lo.headless = false;  // no exit 55; the loader drops them
  if (script.contains("system_settings_path"))
    lo.system_settings_path = script["system_settings_path"].get<std::string>();
  else
    lo.system_settings_path = home + "/.no-system-settings.json";
  lo.system_defaults_path = home + "/.no-system-defaults.json";
  LoadResult loaded = load_hooks(lo);

  ojson tr = ojson::object();
  tr["host"] = "gemini-cli";
  tr["version"] = std::string(kHostVersion);
  ojson load = ojson::object();
  load["trusted"] = loaded.trusted;
  load["hooks_enabled"] = loaded.hooks_enabled;
  load["warnings"] = loaded.warnings;
  tr["load"] = load;
  ojson stderr_lines = ojson::array();
  ojson ran_order = ojson::array();
  ojson hook_calls = ojson::array();  // gemini_cli.hook_call records, in the CLI's log order
  // bundle config.ts loadCliConfig (debugLogger.warn, printed headless; the CLI loads its config
  // twice, so the line appears twice — session lane s04/s05): an untrusted folder drops a
  // non-default approval mode.
  const std::string approval_mode = script.value("approval_mode", std::string("default"));
  if (!loaded.trusted && approval_mode != "default")
    for (int i = 0; i < 2; ++i)
      stderr_lines.push_back(
          "Approval mode overridden to \"default\" because the current folder is not trusted.");
  if (loaded.fatal_exit) {
    tr["exit_code"] = *loaded.fatal_exit;
    stderr_lines.push_back(loaded.fatal_message);
    tr["stderr"] = stderr_lines;
    tr["events"] = ojson::array();
    tr["ran"] = ran_order;
    tr["hook_calls"] = hook_calls;
    tr["stopped"] = true;
    return tr;
  }
  if (log_loading_extensions) {
    const std::string ext_dir = home + "/.gemini/extensions";
    auto en = pinta::fs::read_file(ext_dir + "/extension-enablement.json");
    ojson enablement = en ? ojson::parse(*en, nullptr, false) : ojson::object();
    if (enablement.is_discarded() || !enablement.is_object()) enablement = ojson::object();
    std::vector<std::string> names;
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator(ext_dir, ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
      if (it->is_directory() &&
          std::filesystem::exists(it->path() / "gemini-extension.json"))
        names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    for (const auto& n : names)
      if (extension_enabled(enablement, n, workspace))
        stderr_lines.push_back("Loading extension: " + n);
  }
  for (const auto& l : loaded.startup_stderr)
    if (warn_bad_enablement || l != "Failed to read extension enablement config.")
      stderr_lines.push_back(l);
  for (auto& l : registry_warning_lines(loaded)) stderr_lines.push_back(l);
  // §1.5: the project-hooks warning (coreEvents feedback at start-up, printed plain) and the
  // record in trusted_hooks.json that keeps it from showing again.
  bool after_trust_warning = false;
  if (!loaded.untrusted_project_hooks.empty()) {
    stderr_lines.push_back(
        "WARNING: The following project-level hooks have been detected in this workspace:");
    for (const auto& h : loaded.untrusted_project_hooks) stderr_lines.push_back("  - " + h);
    stderr_lines.push_back("");
    stderr_lines.push_back(
        "These hooks will be executed. If you did not configure these hooks or do not trust this "
        "project,");
    stderr_lines.push_back(
        "please review the project settings (.gemini/settings.json) and remove them.");
    after_trust_warning = true;
    if (script.value("record_trusted_hooks", true)) record_trusted_project_hooks(loaded, workspace);
  }
  // merged settings.hooks is always an object (the settings schema's default {}), so the line is
  // printed whenever hooks are on.
  if (headless_settings_hooks_off && !loaded.trusted && loaded.hooks_enabled) {
    stderr_lines.push_back("Project hooks disabled because the folder is not trusted.");
    after_trust_warning = false;
  }
  if (log_registry_size && loaded.hooks_enabled) {
    size_t n = 0;
    for (const auto& [ev, hs] : loaded.by_event) n += hs.size();
    std::string line = "Hook registry initialized with " + std::to_string(n) + " hook entries";
    if (after_trust_warning)
      stderr_lines.back() = stderr_lines.back().get<std::string>() + line;
    else
      stderr_lines.push_back(line);
  }
  const bool write_tool_excluded = headless_settings_hooks_off && !loaded.trusted;
  RunContext ctx = base;
  ctx.rules = hook_rules_from_switches(sw);  // the profile's per-hook switches (run.cc)
  ctx.cwd = workspace;
  ctx.trusted_folder = loaded.trusted;
  const std::string session_id = script.value("session_id", "00000000-0000-4000-8000-000000000001");
  // transcript_path: the chat recording file (core services/chatRecordingService.js:382-407,
  // 0.61.0): <home>/.gemini/tmp/<project slug>/chats/session-<YYYY-MM-DDTHH-MM>-<the session id's
  // first 8 characters>.jsonl; the slug is the workspace's base name slugified
  // (config/projectRegistry.js slugify: lower case, runs of other characters as one '-', no '-'
  // at either end, "project" when empty), the first claim in a fresh home. Profile switch
  // transcript_file "json": releases up to 0.38 name it .json (drift payload on 0.38.2).
  std::string slug;
  for (char c : std::filesystem::path(workspace).filename().string()) {
    char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool keep = (l >= 'a' && l <= 'z') || (l >= '0' && l <= '9');
    if (keep)
      slug += l;
    else if (!slug.empty() && slug.back() != '-')
      slug += '-';
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  if (slug.empty()) slug = "project";
  const std::string transcript_path =
      script.contains("transcript_path") && script["transcript_path"].is_string()
          ? script["transcript_path"].get<std::string>()
          : home + "/.gemini/tmp/" + slug + "/chats/session-" +
                std::regex_replace(now_iso8601().substr(0, 16), std::regex(":"), "-") + "-" +
                session_id.substr(0, 8) +
                (sw.value("transcript_file", std::string("jsonl")) == "json" ? ".json" : ".jsonl");
  if (ctx.plans_dir.empty()) ctx.plans_dir = home + "/.gemini/tmp/session/" + session_id + "/plans";
  std::string prompt = script.value("prompt", "Create test.txt");
  // The request the model hooks see (hookTranslator toHookLLMRequest, 0.61.0): the history's
  // contents with their text parts joined ('' between parts), contents without text (function
  // calls and responses) left out; the model from the settings (the lane's fixed
  // gemini-2.5-flash) and the generation config of that model. The first user content is the
  // session context followed by the prompt and any BeforeAgent <hook_context> (one message;
  // profile switch session_context_message "separate": two user messages, releases up to 0.47).
  const std::string context_text = session_context(workspace, home + "/.gemini/tmp/" + slug);
  const bool separate_context = sw.value("session_context_message", std::string("merged")) == "separate";
  const std::string request_model = sw.value("llm_request_model", std::string("gemini-2.5-flash"));
  ojson history = ojson::array();
  int history_iteration = -1;
  std::string iteration_hook_context;
  std::string last_model_text;
  auto push_message = [&](const char* role, const std::string& content) {
    if (!content.empty()) history.push_back(ojson::object({{"role", role}, {"content", content}}));
  };
  bool clear_history = false;  // an AfterAgent block asked for clearContext
  auto open_iteration = [&](int it, const std::string& user_text) {
    if (history_iteration >= it) return;
    const bool fresh = it == 0 || clear_history;
    if (clear_history) history = ojson::array();
    clear_history = false;
    if (!fresh) push_message("model", last_model_text);
    const std::string text = user_text + iteration_hook_context;
    if (fresh && separate_context) {
      push_message("user", context_text);
      push_message("user", text);
    } else {
      push_message("user", fresh ? context_text + text : text);
    }
    history_iteration = it;
    iteration_hook_context.clear();
  };
  // A BeforeModel answer's hookSpecificOutput.llm_request rewrites the call's request: its
  // messages replace the history's, its model and config fields override (core
  // hooks/hookTranslator.js fromHookLLMRequest); the rest of that call (BeforeToolSelection,
  // AfterModel) sees the rewritten one (lane u06 on the real 0.61.0).
  ojson call_request;
  auto llm_request = [&] {
    return ojson::object(
        {{"model", request_model},
         {"messages", history},
         {"config", ojson::object({{"temperature", 1}, {"topP", 0.95}, {"topK", 64}})}});
  };

  ojson events = ojson::array();
  bool stopped = false;
  bool last_tool_blocked = false;
  ojson last_tool_input;
  ojson last_tool_response;
  // Agent iterations (see expand_model_turns): a later one runs only after the previous
  // AfterAgent blocked; a blocked BeforeModel ends its iteration (no model call: the remaining
  // calls and their events do not happen, AfterAgent still fires — session lane u07, u08).
  int allowed_iteration = 0;
  int model_blocked_iteration = -1;
  std::string continuation_prompt;
  std::string cumulative_response;  // core client.js hookState.cumulativeResponse
  for (size_t idx = 0; idx < script_events.size(); ++idx) {
    const ojson ev = script_events[idx];
    std::string name = ev.value("event", "");
    const int iteration = ev.value("iteration", 0);
    if (!is_event_name(name))
      return make_error(ErrorCode::kInvalidArgument, "unknown event in script: " + name);
    ojson row = ojson::object();
    row["event"] = name;
    if (stopped && name != "SessionEnd") {
      row["skipped"] = "run stopped";
      events.push_back(row);
      continue;
    }
    if (iteration > allowed_iteration) {
      row["skipped"] = "no continuation (the previous AfterAgent did not block)";
      events.push_back(row);
      continue;
    }
    if (nested_continuation && iteration > 0 && (name == "BeforeAgent" || name == "AfterAgent")) {
      row["skipped"] = "nested continuation: agent hooks not fired";
      events.push_back(row);
      continue;
    }
    if (iteration == model_blocked_iteration && name != "AfterAgent") {
      row["skipped"] = "model call blocked by BeforeModel";
      events.push_back(row);
      continue;
    }
    if (ev.contains("response_text") && ev["response_text"].is_string()) {
      const std::string text = ev["response_text"].get<std::string>();
      if (!text.empty())
        cumulative_response += (cumulative_response.empty() ? "" : "\n") + text;
    }
    if (name == "AfterTool" && last_tool_blocked) {
      row["skipped"] = "tool blocked";
      events.push_back(row);
      continue;
    }
    if (name == "BeforeTool") last_tool_response = nullptr;
    if (name == "BeforeTool" && write_tool_excluded &&
        ev.value("tool_name", std::string("write_file")) == "write_file") {
      // The scheduler refuses the call before any hook (core 0.26.0 core/coreToolScheduler.js:324);
      // the suggestions are the nearest registered names, as the drift record shows them.
      std::string err =
          "Tool \"write_file\" not found in registry. Tools must use the exact names that are "
          "registered. Did you mean one of: \"read_file\", \"write_todos\", \"activate_skill\"?";
      stderr_lines.push_back("Error executing tool write_file: " + err);
      row["skipped"] = "tool not registered";
      row["effect"] = ojson::object({{"tool", "failed"}, {"tool_error", err}});
      events.push_back(row);
      last_tool_blocked = true;
      continue;
    }
    PayloadOptions po;
    po.session_id = session_id;
    po.transcript_path = transcript_path;
    po.cwd = workspace;
    po.prompt = prompt;
    po.tool_name = ev.value("tool_name", "write_file");
    if (ev.contains("original_request_name") && ev["original_request_name"].is_string())
      po.original_request_name = ev["original_request_name"].get<std::string>();
    if (ev.contains("tool_input")) po.tool_input = ev["tool_input"];
    if (name == "AfterTool" && !last_tool_input.is_null()) po.tool_input = last_tool_input;
    if (ev.contains("tool_response")) po.tool_response = ev["tool_response"];
    else if (name == "AfterTool" && !last_tool_response.is_null()) po.tool_response = last_tool_response;
    po.prompt_response = ev.value("prompt_response", "");
    po.stop_hook_active = ev.value("stop_hook_active", false);
    if (has_turns && name == "AfterAgent") {
      po.prompt_response = cumulative_response.empty() ? "[no response text]" : cumulative_response;
      po.stop_hook_active = iteration > 0;
    }
    if (has_turns && name == "BeforeAgent" && iteration > 0) po.prompt = continuation_prompt;
    if (has_turns && (name == "BeforeModel" || name == "BeforeToolSelection" || name == "AfterModel")) {
      open_iteration(iteration, iteration > 0 ? continuation_prompt : prompt);
      if (name == "BeforeModel") {
        last_model_text.clear();  // a new model call
        call_request = nullptr;
      }
      po.llm_request = call_request.is_null() ? llm_request() : call_request;
    }
    if (has_turns && name == "AfterModel" && ev.contains("chunk") && ev["chunk"].is_object()) {
      // toHookLLMResponse: text = the chunk's non-thought text, parts = every text part.
      const ojson& c = ev["chunk"];
      ojson parts = ojson::array();
      std::string text;
      if (c.contains("text")) {
        parts.push_back(c["text"]);
        if (!c.value("thought", false)) text = c["text"].get<std::string>();
      }
      if (!text.empty()) last_model_text += text;
      ojson cand = ojson::object({{"content", ojson::object({{"role", "model"}, {"parts", parts}})},
                                  {"finishReason", "STOP"},
                                  {"index", 0}});
      po.llm_response = ojson::object({{"text", text}, {"candidates", ojson::array({cand})}});
    }
    po.source = ev.value("source", "startup");
    po.reason = ev.value("reason", "exit");
    po.trigger = ev.value("trigger", "auto");
    ojson input = make_payload(name, po);
    PlanContext pc;
    if (name == "BeforeTool" || name == "AfterTool") pc.tool_name = po.tool_name;
    if (name == "SessionStart") pc.trigger = po.source;
    if (name == "SessionEnd") pc.trigger = po.reason;
    if (name == "PreCompress") pc.trigger = po.trigger;
    Plan plan = plan_event(loaded, name, pc);
    if (plan.error) stderr_lines.push_back("Hook event bus error for " + name + ": " + *plan.error);
    ojson hooks = ojson::array();
    int order = 0;
    for (const auto& h : plan.hooks) {
      ojson hj = ojson::object();
      hj["order"] = order++;
      hj["source"] = h.source;
      hj["origin"] = h.origin;
      hj["name"] = h.spec.name;
      hj["command"] = h.spec.command;
      hooks.push_back(hj);
      ran_order.push_back(name + ":" + display_name(h));
    }
    row["sequential"] = plan.sequential;
    row["hooks"] = hooks;
    EventRun er = run_plan(plan, name, input, ctx);
    ojson results = ojson::array();
    std::vector<std::string> failed;
    for (size_t i = 0; i < er.results.size(); ++i) {
      auto j = run_result_json(er.results[i]);
      j["stdout"] = er.results[i].stdout_text;
      j["stderr"] = er.results[i].stderr_text;
      results.push_back(j);
      hook_calls.push_back(hook_call_record(name, plan.hooks[i], input, er.results[i]));
      if (!er.results[i].success) failed.push_back(display_name(plan.hooks[i]));
    }
    row["results"] = results;
    // hookEventHandler.js logHookExecution: failure warnings (§4.6).
    std::vector<std::string> fail_lines;
    if (!failed.empty()) {
      std::string names;
      for (size_t i = 0; i < failed.size(); ++i) names += (i ? ", " : "") + failed[i];
      std::string msg = "Hook(s) [" + names + "] failed for event " + name +
                        ". Press F12 to see the debug drawer for more details.";
      // The feedback goes to the CLI's fallback listener (plain) and, while runNonInteractive is
      // listening (BeforeAgent .. AfterAgent, not SessionStart/SessionEnd), to its handler too,
      // which prefixes the severity (bundle nonInteractiveCli.ts handleUserFeedback; lane s22).
      fail_lines.push_back(msg);
      if (name != "SessionStart" && name != "SessionEnd") fail_lines.push_back("[WARNING] " + msg);
      for (const auto& r : er.results)
        if (r.error) fail_lines.push_back("Hook execution error: " + *r.error);
    }
    auto flush_fail_lines = [&] {
      for (auto& l : fail_lines) stderr_lines.push_back(l);
      fail_lines.clear();
    };
    // The event's system message (and an older release's stop-request line) comes first: core
    // hookEventHandler.js runs processCommonHookOutputFields before logHookExecution (0.61.0
    // lines 209-211; lane s31: "Hook system message: Warning: bt text" precedes "Hook(s) [bt]
    // failed …"); the failure lines follow below.
    row["aggregated"] = er.final_output ? *er.final_output : ojson(nullptr);
    ojson effect = ojson::object();
    if (er.final_output) {
      const ojson& out = *er.final_output;
      bool cont_false =
          out.contains("continue") && out["continue"].is_boolean() && !out["continue"].get<bool>();
      std::string sys = out.contains("systemMessage") && out["systemMessage"].is_string()
                            ? out["systemMessage"].get<std::string>()
                            : "";
      bool suppress = out.contains("suppressOutput") && out["suppressOutput"].is_boolean() &&
                      out["suppressOutput"].get<bool>();
      if (name == "SessionStart" && !sys.empty()) {
        if (single_log_stream)
          stderr_lines.insert(stderr_lines.begin(), sys);
        else
          stderr_lines.push_back(sys);
      }
      if (!sys.empty() && !suppress) stderr_lines.push_back("Hook system message: " + sys);
      auto ctxt = additional_context(out);
      if (log_stop_request && cont_false)
        stderr_lines.push_back("Hook requested to stop execution: " + effective_reason(out));
      flush_fail_lines();
      // What the tool's error says: 0.30+ prefix the reason; 0.26 reports it bare.
      auto tool_err = [&](const char* prefix) {
        return bare_tool_error ? effective_reason(out) : prefix + effective_reason(out);
      };
      if (name == "BeforeTool") {
        if (cont_false) {
          std::string msg = tool_err("Agent execution stopped by hook: ");
          effect["tool"] = "stopped";
          effect["tool_error"] = msg;
          stderr_lines.push_back("Error executing tool " + po.tool_name + ": " + msg);
          stderr_lines.push_back("Agent execution stopped: " +
                                 (bare_stop_line ? effective_reason(out) : msg));
          stopped = true;
          last_tool_blocked = true;
        } else if (is_blocking(out)) {
          std::string msg = tool_err("Tool execution blocked: ");
          effect["tool"] = "blocked";
          effect["tool_error"] = msg;
          effect["model_sees"] = ojson::object({{"error", msg}});
          stderr_lines.push_back("Error executing tool " + po.tool_name + ": " + msg);
          last_tool_blocked = true;
        } else {
          last_tool_blocked = false;
          effect["tool"] = "ran";
          const ojson* hso =
              out.contains("hookSpecificOutput") ? &out["hookSpecificOutput"] : nullptr;
          if (hso && hso->is_object() && hso->contains("tool_input") &&
              (*hso)["tool_input"].is_object()) {
            ojson ti = (*hso)["tool_input"];  // 0.61: replaces the arguments entirely
            if (tool_input_merge && po.tool_input.is_object()) {
              ojson merged = po.tool_input;
              for (auto& [k, v] : ti.items()) merged[k] = v;
              ti = merged;
            }
            effect["tool_input"] = ti;
            last_tool_input = ti;
          } else {
            last_tool_input = po.tool_input;
          }
        }
      } else if (name == "AfterTool") {
        if (cont_false) {
          std::string msg = tool_err("Agent execution stopped by hook: ");
          effect["tool_result"] = msg;
          stderr_lines.push_back("Error executing tool " + po.tool_name + ": " + msg);
          stderr_lines.push_back("Agent execution stopped: " + effective_reason(out));
          stopped = true;
        } else if (is_blocking(out)) {
          // exp e05b: headless stderr "Error executing tool read_file: Tool result blocked: R".
          effect["tool_result"] = tool_err("Tool result blocked: ");
          stderr_lines.push_back("Error executing tool " + po.tool_name + ": " +
                                 effect["tool_result"].get<std::string>());
          effect["model_sees"] = ojson::object({{"error", effective_reason(out)}});
        } else {
          if (ctxt)
            effect["model_sees_appended"] = "\n\n<hook_context>" + *ctxt + "</hook_context>";
          // hookSpecificOutput.tailToolCallRequest {name, args}: the scheduler replaces the call
          // with a new one that is validated and run like any other, BeforeTool and AfterTool
          // hooks included, and may chain (core coreToolHookTriggers.js, scheduler/scheduler.js
          // 0.61.0; session lane u05).
          const ojson* hso =
              out.contains("hookSpecificOutput") ? &out["hookSpecificOutput"] : nullptr;
          if (tail_calls && hso && hso->is_object() && hso->contains("tailToolCallRequest") &&
              (*hso)["tailToolCallRequest"].is_object() &&
              (*hso)["tailToolCallRequest"].contains("name") &&
              (*hso)["tailToolCallRequest"]["name"].is_string()) {
            const ojson& req = (*hso)["tailToolCallRequest"];
            effect["tail_call"] = req;
            size_t at = idx + 1;
            for (const char* ev_name : {"BeforeTool", "AfterTool"}) {
              ojson e = ojson::object({{"event", ev_name},
                                       {"iteration", iteration},
                                       {"tool_name", req["name"]},
                                       // the tail call's hooks see the name of the call it
                                       // replaces (original_request_name; lane u05)
                                       {"original_request_name", po.tool_name},
                                       {"tool_input", req.contains("args") && req["args"].is_object()
                                                          ? req["args"]
                                                          : ojson::object()}});
              script_events.insert(script_events.begin() + static_cast<long>(at++), e);
            }
          }
        }
      } else if (name == "BeforeAgent" || name == "AfterAgent" || name == "BeforeModel" ||
                 name == "AfterModel") {
        std::string shown = name == "BeforeModel"  ? effective_reason(out)
                            : js_trim(sys).empty() ? effective_reason(out)
                                                   : js_trim(sys);
        if (cont_false) {
          stderr_lines.push_back("Agent execution stopped: " + shown);
          effect["agent"] = "stopped";
          stopped = true;
        } else if (is_blocking(out)) {
          stderr_lines.push_back("[WARNING] Agent execution blocked: " + shown);
          effect["agent"] = "blocked";
          if (name == "AfterAgent") {
            effect["next_prompt"] = effective_reason(out);
            continuation_prompt = effective_reason(out);
            // hookSpecificOutput.clearContext: the chat history is reset before the
            // continuation, so the next request holds only the session context and the
            // continuation prompt (lane u28 on the real 0.61.0).
            const ojson* hso =
                out.contains("hookSpecificOutput") ? &out["hookSpecificOutput"] : nullptr;
            if (hso && hso->is_object() && hso->contains("clearContext") &&
                (*hso)["clearContext"] == true)
              clear_history = true;
            allowed_iteration = iteration + 1;
          }
          if (name == "BeforeAgent") stopped = true;  // no model call for this prompt
          if (name == "BeforeModel") {
            model_blocked_iteration = iteration;
            // A blocking BeforeModel may answer in the model's place
            // (hookSpecificOutput.llm_response): that synthetic answer is the call's response
            // text, so AfterAgent's prompt_response holds it (its text parts joined; lane s32 on
            // the real 0.61.0: "Synthetic answer.").
            const ojson* hso =
                out.contains("hookSpecificOutput") ? &out["hookSpecificOutput"] : nullptr;
            if (hso && hso->is_object() && hso->contains("llm_response") &&
                (*hso)["llm_response"].is_object()) {
              const ojson& lr = (*hso)["llm_response"];
              std::string text;
              if (lr.contains("candidates") && lr["candidates"].is_array() &&
                  !lr["candidates"].empty() && lr["candidates"][0].is_object() &&
                  lr["candidates"][0].contains("content") &&
                  lr["candidates"][0]["content"].is_object() &&
                  lr["candidates"][0]["content"].contains("parts") &&
                  lr["candidates"][0]["content"]["parts"].is_array())
                for (const auto& part : lr["candidates"][0]["content"]["parts"]) {
                  if (part.is_string())
                    text += part.get<std::string>();
                  else if (part.is_object() && part.contains("text") && part["text"].is_string() &&
                           !(part.contains("thought") && part["thought"] == true))
                    text += part["text"].get<std::string>();
                }
              if (!text.empty())
                cumulative_response += (cumulative_response.empty() ? "" : "\n") + text;
            }
          }
        } else if (name == "BeforeModel" && has_turns && out.contains("hookSpecificOutput") &&
                   out["hookSpecificOutput"].is_object() &&
                   out["hookSpecificOutput"].contains("llm_request") &&
                   out["hookSpecificOutput"]["llm_request"].is_object()) {
          const ojson& mod = out["hookSpecificOutput"]["llm_request"];
          ojson req = po.llm_request;
          if (mod.contains("messages") && mod["messages"].is_array()) req["messages"] = mod["messages"];
          if (mod.contains("model") && mod["model"].is_string()) req["model"] = mod["model"];
          if (mod.contains("config") && mod["config"].is_object())
            for (auto& [k, v] : mod["config"].items()) req["config"][k] = v;
          call_request = req;
          effect["llm_request"] = req;
        } else if (name == "BeforeAgent" && ctxt) {
          effect["model_sees_appended"] = "<hook_context>" + *ctxt + "</hook_context>";
          // client.js: the request gets a part {text: <hook_context>…} after the prompt's.
          iteration_hook_context = "<hook_context>" + *ctxt + "</hook_context>";
        }
      } else if (name == "SessionStart" && ctxt) {
        effect["prompt_prefix"] = "<hook_context>" + *ctxt + "</hook_context>\n\n";
      }
    } else if (name == "BeforeTool") {
      flush_fail_lines();
      effect["tool"] = "ran";
      last_tool_blocked = false;
      last_tool_input = po.tool_input;
    }
    flush_fail_lines();
    if (name == "BeforeTool" && run_tools && effect.value("tool", "") == "ran") {
      ToolRun t = run_builtin_tool(po.tool_name, last_tool_input, workspace,
                                   effect.contains("tool_input"));
      if (!t.ok) {
        // The scheduler reports the error and the call never reaches executeToolWithHooks, so
        // AfterTool does not fire (core scheduler/scheduler.js; exp x11).
        effect["tool"] = "failed";
        effect["tool_error"] = t.error;
        stderr_lines.push_back("Error executing tool " + po.tool_name + ": " + t.error);
        last_tool_blocked = true;
      } else if (!t.response.is_null()) {
        last_tool_response = t.response;
      }
    }
    row["effect"] = effect;
    events.push_back(row);
  }
  tr["events"] = events;
  tr["ran"] = ran_order;
  tr["hook_calls"] = hook_calls;
  tr["stderr"] = stderr_lines;
  tr["stopped"] = stopped;
  tr["exit_code"] = 0;
  return tr;
}

}  // namespace pinta::emu::gemini
