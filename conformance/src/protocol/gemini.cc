// The protocol profile's reading of Gemini CLI (protocol/reading.h): a settings.json or an
// extension folder through the CLI's own loader (pinta::hosts::gemini), its matchers, and how the
// CLI reads a hook's exit status and stdout (GEM §4.5-§6).
#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>

#include "pinta/common/fs.h"
#include "pinta/hosts/gemini/gemini.h"
#include "pinta/hosts/reply_check.h"
#include "reading.h"
#include "workspace.h"

namespace pinta::conformance::protocol {
namespace {
namespace stdfs = std::filesystem;
namespace gem = pinta::hosts::gemini;
using pinta::hosts::Family;

constexpr Family f = Family::kGemini;

// Gemini CLI 0.61's built-in tools, as its hooks see tool_name (shared/reference/
// gemini-cli-0.61-hooks.md: the matcher experiments x12 on write_file and read_file, the payload
// table of §7).
constexpr std::array<ToolSample, 11> kTools = {{{"write_file", ToolArgs::kWriteFile},
                                               {"run_shell_command", ToolArgs::kShell},
                                               {"replace", ToolArgs::kEdit},
                                               {"read_file", ToolArgs::kPath},
                                               {"glob", ToolArgs::kPath},
                                               {"search_file_content", ToolArgs::kPath},
                                               {"list_directory", ToolArgs::kPath},
                                               {"read_many_files", ToolArgs::kPath},
                                               {"web_fetch", ToolArgs::kPath},
                                               {"google_web_search", ToolArgs::kPath},
                                               {"save_memory", ToolArgs::kPath}}};

// MCP tools are `mcp_<server>_<tool>` (GEM x12 notes, per the CLI's docs; fixtures/gemini/0.61.0/
// BeforeTool/y_mcp_tool.json).
constexpr std::array<ToolSample, 1> kMcpTools = {{{"mcp_{server}_{tool}", ToolArgs::kMcpWrite}}};

int hook_timeout_ms(const std::string&) { return gem::kDefaultTimeoutMs; }

// GEM §4.2 (exp a09, x13b): in every hook's environment, and bare $NAME replaced in the command.
constexpr std::string_view kVars[] = {"GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_PLANS_DIR",
                                      "GEMINI_SESSION_ID", "CLAUDE_PROJECT_DIR"};

// The call's own result on AfterTool (GEM §7: tool_response {llmContent, returnDisplay}), worded
// as the fixtures of fixtures/gemini/0.61.0/AfterTool/ word it (y_write_file, y_read_file,
// y_run_shell_command_error's layout, y_mcp_tool), and an MCP call's mcp_context (y_mcp_tool).
void after_call(const std::string&, const std::string& tool, const json& args,
                const std::string& ws, json& p) {
  auto str = [&](const char* k) { return args.is_object() ? args.value(k, std::string()) : std::string(); };
  const bool mcp = tool.rfind("mcp_", 0) == 0;
  const size_t cut = mcp ? tool.find('_', 4) : std::string::npos;
  if (cut != std::string::npos)
    p["mcp_context"] = {{"server_name", tool.substr(4, cut - 4)},
                        {"tool_name", tool.substr(cut + 1)},
                        {"command", "npx"},
                        {"args", json::array({"-y", "@modelcontextprotocol/server-" + tool.substr(4, cut - 4)})},
                        {"cwd", ws}};
  else
    p.erase("mcp_context");
  if (!p.contains("tool_response")) return;
  json r;
  if (mcp)
    r = {{"llmContent", "Successfully wrote to " + str("path")}, {"returnDisplay", "Successfully wrote to " + str("path")}};
  else if (args.contains("command"))
    r = {{"llmContent", "Command: " + str("command") + "\nDirectory: .\nExit Code: 0"}, {"returnDisplay", ""}};
  else if (args.contains("content"))
    r = {{"llmContent", "Successfully created and wrote to new file: " + str("file_path") + "."},
         {"returnDisplay", "Wrote " + stdfs::path(str("file_path")).filename().string()}};
  else if (args.contains("old_string"))
    r = {{"llmContent", "Successfully modified file: " + str("file_path") + " (1 replacements)."},
         {"returnDisplay", ""}};
  else
    r = {{"llmContent", "hello\n"}, {"returnDisplay", ""}};
  p["tool_response"] = r;
}

bool selects(const ProtocolHook& h, const std::string& tool) {
  gem::PlanContext ctx;
  ctx.tool_name = tool;
  return h.matcher.empty() || gem::matcher_matches(h.event, h.matcher, ctx);
}

Result<std::vector<ProtocolHook>> gemini_hooks(const ProtocolOptions& po, const std::string& host) {
  std::vector<ProtocolHook> out;
  std::string err;
  // The host's own loader on a scratch home: a settings.json as the user's settings, an extension
  // folder as an installed extension (so ${extensionPath} and its hooks/hooks.json resolve as the
  // CLI resolves them).
  std::string tmp = (stdfs::temp_directory_path() / "pinta-proto-load-XXXXXX").string();
  if (!::mkdtemp(tmp.data())) return make_error(ErrorCode::kIo, "cannot create a temp directory");
  struct Rm {
    std::string p;
    ~Rm() {
      std::error_code ec;
      stdfs::remove_all(p, ec);
    }
  } rm{tmp};
  const std::string home = tmp + "/home";
  stdfs::create_directories(home + "/.gemini/extensions");
  stdfs::path cfg = stdfs::absolute(po.config).lexically_normal();
  if (!cfg.has_filename()) cfg = cfg.parent_path();  // "ext/"
  std::error_code ec;
  std::string ext_link;
  if (stdfs::is_directory(cfg, ec)) {
    if (!stdfs::exists(cfg / "gemini-extension.json"))
      return make_error(ErrorCode::kInvalidArgument,
                        "--config " + po.config + ": a folder without gemini-extension.json");
    ext_link = home + "/.gemini/extensions/" + cfg.filename().string();
    stdfs::create_directory_symlink(cfg, ext_link, ec);
  } else {
    std::string text = read_text(cfg.string(), err);
    if (!err.empty()) return make_error(ErrorCode::kIo, err);
    if (auto st = pinta::fs::atomic_write(home + "/.gemini/settings.json", text, 0600); !st)
      return make_error(ErrorCode::kIo, st.error().message);
  }
  if (ec) return make_error(ErrorCode::kIo, "cannot link " + cfg.string() + ": " + ec.message());
  gem::LoadOptions lo;
  lo.home = home;
  lo.workspace = tmp;  // no project settings of its own
  lo.trusted = true;
  lo.system_settings_path = tmp + "/none.json";
  lo.system_defaults_path = tmp + "/none-defaults.json";
  auto loaded = gem::load_hooks(lo);
  if (loaded.fatal_exit)
    return make_error(ErrorCode::kInvalidArgument,
                      "--config " + po.config + ": " + loaded.fatal_message);
  if (!loaded.hooks_enabled)
    return make_error(ErrorCode::kInvalidArgument,
                      "--config " + po.config + ": hooks are disabled (hooksConfig.enabled false)");
  for (const auto& ev : pinta::hosts::events(Family::kGemini)) {
    auto it = loaded.by_event.find(ev);
    if (it == loaded.by_event.end()) continue;
    for (const auto& lh : it->second) {
      if (!lh.enabled || lh.type != "command") continue;
      ProtocolHook h;
      h.host = host;
      h.event = ev;
      h.matcher = lh.has_matcher ? lh.matcher : "";
      // The loader resolved ${extensionPath} to the link in its scratch home (gone before any
      // hook runs) and ${workspacePath} to its scratch workspace: both are the extension's own
      // folder here, which the run points into its workspace (protocol/workspace.h).
      h.command = lh.spec.command;
      if (!ext_link.empty())
        h.command = replace_path(replace_path(h.command, ext_link, cfg.string()), tmp, cfg.string());
      h.timeout_ms = lh.spec.timeout_ms > 0 ? lh.spec.timeout_ms : gem::kDefaultTimeoutMs;
      h.name = lh.spec.name;
      // The user's file, not the scratch copy the loader read.
      h.origin = stdfs::is_directory(cfg) ? (cfg / "hooks" / "hooks.json").string() : cfg.string();
      h.pointer = lh.pointer;
      out.push_back(std::move(h));
    }
  }
  return out;
}

// GEM §6 and summary item 20: the events whose reply is read for its system message only.
constexpr std::string_view kMessageOnly[] = {"SessionStart", "SessionEnd", "PreCompress",
                                             "Notification"};

void judge(const Run& run, std::vector<Finding>& fs) {
  const auto& [h, o, r, exit0, exit2] = run;
  const std::string& ev = h.event;
  // GEM §4.5: any status but 0 and 2 is a failed hook; its text is still read (exit 1: a
  // warning and the tool runs; other statuses: the text becomes a deny reason, if there is one).
  if (!r.timed_out && !r.hard_limited && !exit0 && !exit2)
    fs.push_back({"PROTO-3", exit_text(r) + ": Gemini CLI reads a failed hook" +
                                 (o.effect == "denied" || o.effect == "text_denied"
                                      ? std::string(" and blocks only because it read its "
                                                    "output as a deny")
                                      : std::string(" and goes on as if it had allowed")) +
                                 " (" + o.effect + "); block with exit 2 or a JSON decision "
                                 "on exit 0"});
  // GEM §4.5 step 4: plain text on exit 0 is {decision: allow, systemMessage: text}. On an
  // event whose reply Gemini CLI reads for its message only (§6, summary item 20: SessionStart,
  // SessionEnd, PreCompress, Notification ignore decision and continue) that is the reply the
  // hook would write as JSON: its text shown once as the hook's message, nothing lost. Elsewhere
  // the text stands where the event's reply goes (a log line shown after every call).
  const bool message_only = std::find(std::begin(kMessageOnly), std::end(kMessageOnly), ev) !=
                            std::end(kMessageOnly);
  if (exit0 && o.effect == "text_shown")
    fs.push_back({"PROTO-4",
                  std::string(nonblank(r.out) ? "stdout" : "stderr (stdout empty)") +
                      " is not one JSON object: Gemini CLI shows the text to the user as a " +
                      (message_only ? "system message, as {\"systemMessage\": …} would on " + ev +
                                          " (JSON can also add context)"
                                    : std::string("message")),
                  message_only});
  std::string d;
  if (o.detail.contains("output") && o.detail["output"].is_object() &&
      o.detail.contains("output_format") && o.detail["output_format"] == "json" &&
      o.detail["output"].contains("decision")) {
    const json& dv = o.detail["output"]["decision"];
    if (!dv.is_string())
      fs.push_back({"PROTO-5", "decision " + dv.dump() + " is not a string: ignored"});
    else
      d = dv.get<std::string>();
    if (!d.empty() && d != "allow" && d != "approve" && d != "deny" && d != "block" &&
        d != "ask")
      fs.push_back({"PROTO-5", "decision \"" + d + "\" is not one Gemini CLI knows: ignored"});
  }
  const bool denies = d == "deny" || d == "block" || o.effect == "denied" ||
                      o.effect == "text_denied";
  // GEM §6 AfterAgent (exp e06, u28): a deny is a retry: the reason becomes the next prompt and
  // the agent runs one more turn (stop_hook_active true on the next AfterAgent).
  const bool retry = denies && ev == "AfterAgent";
  if (retry && nonblank(o.effect_message))
    fs.push_back({"PROTO-5", "denies on AfterAgent: Gemini CLI reads it as a retry and sends the "
                             "reason to the model as the next prompt (one more turn; the next "
                             "AfterAgent has stop_hook_active true)",
                  true});
  else if (retry)
    fs.push_back({"PROTO-6", "denies on AfterAgent without a reason: Gemini CLI retries with an "
                             "empty prompt"});
  else if (denies && !pinta::hosts::deny_meaningful(f, ev))
    fs.push_back({"PROTO-5", "blocks on " + ev + ", where Gemini CLI does not honour a block"});
  if (d == "ask" && !pinta::hosts::gate_event(f, ev))
    fs.push_back({"PROTO-5", "asks on " + ev + "; Gemini CLI asks only on BeforeTool"});
  if (denies && !retry && pinta::hosts::deny_meaningful(f, ev) && !nonblank(o.effect_message))
    fs.push_back({"PROTO-6", "blocks without a reason (no reason field, nothing on stderr)"});
}

// The call after a BeforeTool run (emulator/hosts/gemini/src/runner.cc): a deny or block
// decision, also as text output (text_denied); a failed hook is a warning and the call runs.
const char* gate_call(const HookOutcome& o) {
  if (o.effect == "denied" || o.effect == "text_denied") return "blocks";
  return o.effect == "asked" ? "asks" : "runs";
}

}  // namespace

// Registered through families.def (reading.cc).
namespace readings::gemini {
// GEM §6 (exp e01_payload; docs/hosts/gemini-cli-0.61.md s03-all-events-order): one headless run
// with one tool call; Notification fires when a confirmation is asked for, before the tool.
constexpr std::string_view kSession[] = {
    "SessionStart", "BeforeAgent",  "PreCompress", "BeforeModel", "BeforeToolSelection",
    "AfterModel",   "Notification", "BeforeTool",  "AfterTool",   "AfterAgent",
    "SessionEnd"};
extern const FamilyReading kReading = {
    f,         gemini_hooks, ".gemini", hook_timeout_ms, kTools, selects, true, judge,
    gate_call, kVars, kMcpTools,    after_call, kSession,
    "gemini-extension.json"};  // GEM §1.6
}  // namespace readings::gemini


}  // namespace pinta::conformance::protocol
