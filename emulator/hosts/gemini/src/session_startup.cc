// The start-up of a scripted headless session (session.cc run_session): the profile switches it
// reads, how it loads the hooks, the lines the 0.61.0 CLI prints on stderr before the first event
// (core hooks/hookRegistry.js, bundle config.ts, gemini.tsx), and the environment context that
// opens the model's chat history (core utils/environmentContext.js).
#include <algorithm>
#include <ctime>
#include <filesystem>
#include <regex>

#include "pinta/common/fs.h"
#include "pinta/common/sha256.h"
#include "session_parts.h"

namespace pinta::emu::gemini::session_detail {
namespace {

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

// < 0.61: each enabled extension logs "Loading extension: NAME" at start-up (drift s06, s07, s11,
// s20, s26, s27): the extensions with a gemini-extension.json, by name, that are enabled here.
void extension_lines(const std::string& home, const std::string& workspace, ojson& stderr_lines) {
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

// §1.5: the project-hooks warning (coreEvents feedback at start-up, printed plain) and the
// record in trusted_hooks.json that keeps it from showing again. True when it was printed.
bool project_hooks_warning(const std::string& workspace, const ojson& script,
                           const LoadResult& loaded, ojson& stderr_lines) {
  if (loaded.untrusted_project_hooks.empty()) return false;
  stderr_lines.push_back(
      "WARNING: The following project-level hooks have been detected in this workspace:");
  for (const auto& h : loaded.untrusted_project_hooks) stderr_lines.push_back("  - " + h);
  stderr_lines.push_back("");
  stderr_lines.push_back(
      "These hooks will be executed. If you did not configure these hooks or do not trust this "
      "project,");
  stderr_lines.push_back(
      "please review the project settings (.gemini/settings.json) and remove them.");
  if (script.value("record_trusted_hooks", true)) record_trusted_project_hooks(loaded, workspace);
  return true;
}

}  // namespace

Switches read_switches(const ojson& script) {
  Switches s;
  if (script.contains("profile") && script["profile"].is_object() &&
      script["profile"].contains("switches") && script["profile"]["switches"].is_object())
    s.raw = script["profile"]["switches"];
  const ojson& sw = s.raw;
  // < 0.61: the headless run fires SessionEnd twice (drift s01..s28: two "SessionEnd:se" lines).
  s.session_end_twice = sw.value("session_end_twice", false);
  // tool_input_rewrite (< 0.36 "merge": drift s15, real wrote test.txt = "MOD") is read from
  // `raw` by rewritten_tool_input (profile.cc), the one rule the session and run-hook share.
  // < 0.61: continue:false on any event first logs "Hook requested to stop execution: R", and the
  // stop line names the bare reason (drift s13, s17, s19, s23).
  s.log_stop_request = sw.value("log_stop_request", false);
  // The BeforeTool stop line names the bare reason ("bare", < 0.36) or the tool's error
  // ("prefixed": "Agent execution stopped: Agent execution stopped by hook: R"). 0.36.0 still logs
  // the stop request but prints the prefixed line (drift s13 on 0.36.0), so the two are separate
  // switches; without stop_line the line follows log_stop_request.
  s.bare_stop_line =
      sw.value("stop_line", std::string(s.log_stop_request ? "bare" : "prefixed")) == "bare";
  // < 0.61: headless runs ignore folder trust: an untrusted or DO_NOT_TRUST folder runs as trusted
  // (drift s04, s05: exit 0, every hook fired).
  const std::string headless_trust = sw.value("headless_folder_trust", std::string("enforced"));
  s.headless_trust_ignored = headless_trust == "ignored";
  // 0.26: an untrusted folder runs headless (no exit 55) with its settings hooks off (core 0.26.0
  // hooks/hookRegistry.js:101-106 "Project hooks disabled because the folder is not trusted.") and,
  // its approval mode forced to "default", without write_file (cli 0.26.0 config/config.js:407-415
  // excludes the tools that need a prompt) — drift s04, s05.
  s.headless_settings_hooks_off = headless_trust == "settings_hooks_off";
  // 0.26: "Hook registry initialized with N hook entries" (core 0.26.0 hooks/hookRegistry.js:25) on
  // stderr at start-up, N = every registered entry (disabled ones too); glued to the end of the
  // project-hooks warning, which is written without a newline (drift s06, s08).
  s.log_registry_size = sw.value("log_registry_size", false);
  // 0.26: a blocked or stopped tool reports the bare reason as its error ("Error executing tool T:
  // R"); 0.30+ prefix it (core 0.26.0 core/coreToolHookTriggers.js:208-231, 296-320: the prefix is
  // only in llmContent, error.message is the reason) — drift s01, s07, s13, s16, s17, s22.
  s.bare_tool_error = sw.value("blocked_tool_error", std::string("prefixed")) == "bare";
  // 0.26: every log line goes through the one patched console (cli 0.26.0 gemini.js:198-206,
  // ui/utils/ConsolePatcher.js), flushed in code order after start-up, so (a) SessionStart's
  // systemMessage, written straight to stderr (gemini.js:445-446), comes before all start-up lines
  // (drift s23). (An event's "Hook system message" / stop-request lines precede its failure
  // warning in every release: 0.26 hooks/hookEventHandler.js:373-375, drift s25; 0.61 lane s31.)
  s.single_log_stream = sw.value("single_log_stream", false);
  // < 0.61: each enabled extension logs "Loading extension: NAME" at start-up, and an unreadable
  // extension-enablement.json is silently treated as {} (drift s06, s07, s11, s20, s26, s27).
  s.log_loading_extensions = sw.value("log_loading_extensions", false);
  s.warn_bad_enablement = sw.value("warn_invalid_enablement", true);
  // AfterTool hookSpecificOutput.tailToolCallRequest runs a replacement tool call (0.61 default).
  s.tail_calls = sw.value("tail_tool_calls", true);
  // < 0.35: an AfterAgent block re-enters the agent loop nested inside the first call (core
  // client.js 0.30.0 sendMessageStream): BeforeAgent is not fired again and the nested call's
  // AfterAgent is skipped (activeCalls is 2), so the continuation runs one more model call without
  // agent hooks (drift u28).
  s.nested_continuation =
      sw.value("after_agent_continuation", std::string("fresh")) == "nested";
  // < 0.39.1: the headless UserFeedback listener writes a start-up feedback warning (the
  // project-hooks warning, "Invalid hook event name: …") without a newline, so the next stderr
  // write continues its line (cli 0.26.0 gemini.js:526-528 writeToStderr(payload.message);
  // 0.41.0 bundle `payload.message + "\n"`; drift s33 on 0.26.0, 0.35.3, 0.38.2, 0.39.0: the
  // "Hook system message" or registry-size line glued). In 0.39.0 … 0.40.x the next write races
  // with the start-up profiler's complaint (which the probe cuts out), so those profiles list the
  // warning in "stderr_unglue" and the probe compares the lines split; 0.41.0 writes the newline.
  s.feedback_newline = sw.value("feedback_newline", true);
  return s;
}

LoadResult load_for_session(const std::string& home, const std::string& workspace,
                            const ojson& script, const RunContext& base, const Switches& sw) {
  LoadOptions lo;
  lo.home = home;
  lo.workspace = workspace;
  if (base.env) {
    std::map<std::string, std::string> m(base.env->begin(), base.env->end());
    lo.cli_env = m;
  }
  if (script.contains("trusted") && script["trusted"].is_boolean())
    lo.trusted = script["trusted"].get<bool>();
  if (sw.headless_trust_ignored) lo.trusted = true;
  if (sw.headless_settings_hooks_off) lo.headless = false;  // no exit 55; the loader drops them
  if (script.contains("system_settings_path"))
    lo.system_settings_path = script["system_settings_path"].get<std::string>();
  else
    lo.system_settings_path = home + "/.no-system-settings.json";
  lo.system_defaults_path = home + "/.no-system-defaults.json";
  return load_hooks(lo);
}

void startup_lines(const std::string& home, const std::string& workspace, const ojson& script,
                   const Switches& sw, const LoadResult& loaded, ojson& stderr_lines) {
  if (sw.log_loading_extensions) extension_lines(home, workspace, stderr_lines);
  for (const auto& l : loaded.startup_stderr)
    if (sw.warn_bad_enablement || l != "Failed to read extension enablement config.")
      stderr_lines.push_back(l);
  // The feedback warnings of the registry (core hooks/hookRegistry.js coreEvents.emitFeedback:
  // an unknown event name, the project-hooks warning) may be written without their newline.
  auto open = [&] {
    if (!sw.feedback_newline)
      stderr_lines.back() = stderr_lines.back().get<std::string>() + kOpenLineMark;
  };
  for (auto& l : registry_warning_lines(loaded)) {
    const bool feedback = l.rfind("Invalid hook event name: ", 0) == 0;
    stderr_lines.push_back(l);
    if (feedback) open();
  }
  if (project_hooks_warning(workspace, script, loaded, stderr_lines)) open();
  // merged settings.hooks is always an object (the settings schema's default {}), so the line is
  // printed whenever hooks are on.
  if (sw.headless_settings_hooks_off && !loaded.trusted && loaded.hooks_enabled)
    stderr_lines.push_back("Project hooks disabled because the folder is not trusted.");
  if (sw.log_registry_size && loaded.hooks_enabled) {
    size_t n = 0;
    for (const auto& [ev, hs] : loaded.by_event) n += hs.size();
    stderr_lines.push_back("Hook registry initialized with " + std::to_string(n) + " hook entries");
  }
}

void join_open_lines(ojson& stderr_lines) {
  ojson out = ojson::array();
  for (auto& l : stderr_lines) {
    const bool glue = !out.empty() && out.back().is_string() && !out.back().get<std::string>().empty() &&
                      out.back().get<std::string>().back() == kOpenLineMark;
    if (glue) {
      std::string head = out.back().get<std::string>();
      head.pop_back();
      out.back() = head + (l.is_string() ? l.get<std::string>() : l.dump());
    } else {
      out.push_back(l);
    }
  }
  if (!out.empty() && out.back().is_string()) {
    std::string last = out.back().get<std::string>();
    if (!last.empty() && last.back() == kOpenLineMark) {
      last.pop_back();
      out.back() = last;
    }
  }
  stderr_lines = std::move(out);
}

// The project slug of the CLI's temp dir (config/projectRegistry.js slugify: lower case, runs of
// other characters as one '-', no '-' at either end, "project" when empty), the first claim in a
// fresh home.
std::string project_slug(const std::string& workspace) {
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
  return slug;
}

// The project's folder under ~/.gemini/tmp (the chat recordings' and the session context's
// "project's temporary directory"): the workspace's slug (0.29+), or with switch project_temp_dir
// "sha256" the SHA-256 of the project root's path (< 0.29: core 0.28.2 config/storage.js:100-104
// getProjectTempDir, 114-116 getFilePathHash; bisect boundary 0.29.0, every scenario's
// transcript_path).
std::string project_temp_folder(const std::string& workspace, const Switches& sw) {
  return sw.raw.value("project_temp_dir", std::string("slug")) == "sha256"
             ? pinta::sha256_hex(workspace)
             : project_slug(workspace);
}

// The environment context the CLI puts first in the chat history (core
// utils/environmentContext.js getEnvironmentContext, 0.61.0): today's date as the locale writes
// it (en-US here: "Sunday, December 6, 2026"), the platform, the project temp dir, the workspace
// and its listing; no GEMINI.md memory in the scenarios. `working_dir_text` (switch
// session_context_text "working_dir", < 0.29): the older text, without <session_context> tags,
// naming the directory in a sentence and ending with the setup lines (core 0.28.2
// utils/environmentContext.js:13-32 getDirectoryContextString, 40-62 getEnvironmentContext with
// its .trim(), 63-79 getInitialChatHistory; bisect boundary 0.29.0, u06/u28 BeforeModel).
std::string session_context(const std::string& workspace, const std::string& project_temp,
                            bool working_dir_text) {
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
  const std::string head =
      "This is the Gemini CLI. We are setting up the context for our chat.\n"
      "Today's date is " +
      date +
      " (formatted according to the user's locale).\nMy operating system is: linux\n"
      "The project's temporary directory is: " +
      project_temp + "\n";
  if (working_dir_text) {
    // `${context}`.trim() drops the listing's trailing newlines (no environment memory here).
    std::string context = head + "I'm currently working in the directory: " + workspace +
                          "\nHere is the folder structure of the current working directories:\n\n"
                          "Showing up to 200 items (files + folders).\n\n" +
                          listing;
    while (!context.empty() && (context.back() == '\n' || context.back() == ' '))
      context.pop_back();
    return context +
           "\n\nReminder: Do not return an empty response when a tool call is required.\n\n"
           "My setup is complete. I will provide my first command in the next turn.";
  }
  return "<session_context>\n" + head + "- **Workspace Directories:**\n  - " + workspace +
         "\n- **Directory Structure:**\n\nShowing up to 200 items (files + folders).\n\n" +
         listing + "\n\n\n</session_context>";
}

}  // namespace pinta::emu::gemini::session_detail
