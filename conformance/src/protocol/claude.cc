// The protocol profile's reading of Claude Code (protocol/reading.h): a settings file through the
// CLI's own settings loader (pinta::hosts::claude), its matchers, and how Claude Code 2.1.332
// reads a hook's exit status, stdout and stderr (docs/hosts/claude-code-2.1.md "Replies").
#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>

#include "pinta/hosts/claude/claude.h"
#include "pinta/hosts/reply_check.h"
#include "reading.h"
#include "workspace.h"

namespace pinta::conformance::protocol {
namespace {
namespace stdfs = std::filesystem;
namespace cl = pinta::hosts::claude;
using pinta::hosts::Family;

constexpr Family f = Family::kClaude;

// Claude Code 2.1.332's tools (the 12 it offers the model; shared/reference/real-hosts.md).
constexpr std::array<ToolSample, 7> kTools = {{{"Bash", ToolArgs::kShell},
                                              {"Write", ToolArgs::kWriteFile},
                                              {"Edit", ToolArgs::kEdit},
                                              {"Read", ToolArgs::kPath},
                                              {"Grep", ToolArgs::kPath},
                                              {"Glob", ToolArgs::kPath},
                                              {"WebFetch", ToolArgs::kPath}}};

// MCP tools are `mcp__<server>__<tool>` (https://code.claude.com/docs/en/hooks, "Matching MCP
// tools").
constexpr std::array<ToolSample, 1> kMcpTools = {{{"mcp__{server}__{tool}", ToolArgs::kMcpWrite}}};

// The call's own result on PostToolUse: Bash's {stdout, stderr, interrupted, isImage,
// noOutputExpected} (shared/reference/real-hosts.md, "Hook stdin"; fixtures/claude/2.1.332/
// PostToolUse), another tool's {filePath, success} (the docs' PostToolUse input).
void after_call(const std::string&, const std::string& tool, const json& args, const std::string&,
                json& p) {
  if (!p.contains("tool_response")) return;
  auto str = [&](const char* k) { return args.is_object() ? args.value(k, std::string()) : std::string(); };
  if (tool == "Bash")
    p["tool_response"] = {{"stdout", sample_output(args)},
                          {"stderr", ""},
                          {"interrupted", false},
                          {"isImage", false},
                          {"noOutputExpected", false}};
  else
    p["tool_response"] = {{"filePath", args.contains("path") ? str("path") : str("file_path")},
                          {"success", true}};
}

// The CLI's own default for a hook that states no timeout (pinta::hosts::claude::HookCommand).
int hook_timeout_ms(const std::string&) { return static_cast<int>(cl::HookCommand{}.timeout_ms); }

// docs/hosts/claude-code-2.1.md (Replies: the hook environment; scenarios shell, env-vars).
constexpr std::string_view kVars[] = {"CLAUDE_PROJECT_DIR", "CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT",
                                      "CLAUDE_CODE_SESSION_ID"};

bool selects(const ProtocolHook& h, const std::string& tool) {
  return cl::matcher_matches(h.event, h.matcher, tool);
}

// A Claude Code settings file, read by the host's own loader as a `--settings FILE` source (its
// hooks, matchers and timeouts; disableAllHooks honoured) over an empty home and project. A
// plugin (its folder, or the hooks/hooks.json of a folder with .claude-plugin/plugin.json) is
// read the same way, its ${CLAUDE_PLUGIN_ROOT} being the plugin's folder: replaced in the command
// and set in the hook's environment (https://code.claude.com/docs/en/plugins-reference,
// "Environment variables").
Result<std::vector<ProtocolHook>> claude_hooks(const ProtocolOptions& po, const std::string& host) {
  std::string path = stdfs::absolute(po.config).lexically_normal().string();
  std::string plugin = package_root(path);
  if (!plugin.empty() && !stdfs::is_regular_file(plugin + "/.claude-plugin/plugin.json"))
    plugin.clear();
  if (!plugin.empty() && stdfs::is_directory(path)) path = plugin + "/hooks/hooks.json";
  std::string err;
  read_text(path, err);
  if (!err.empty()) return make_error(ErrorCode::kIo, err);
  std::string tmp = (stdfs::temp_directory_path() / "pinta-proto-load-XXXXXX").string();
  if (!::mkdtemp(tmp.data())) return make_error(ErrorCode::kIo, "cannot create a temp directory");
  cl::SettingsSources src;
  src.home = tmp;
  src.project = tmp;
  src.extra = {path};
  src.managed_dir = tmp + "/managed";
  auto loaded = cl::load_settings(src);
  std::error_code ec;
  stdfs::remove_all(tmp, ec);
  if (!loaded)
    return make_error(ErrorCode::kInvalidArgument,
                      "--config " + po.config + ": " + loaded.error().message);
  if (!loaded->warnings.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      "--config " + po.config + ": " + loaded->warnings.front());
  if (loaded->disable_all)
    return make_error(ErrorCode::kInvalidArgument,
                      "--config " + po.config + ": hooks are disabled (disableAllHooks true)");
  std::vector<ProtocolHook> out;
  for (const auto& ch : loaded->hooks) {
    ProtocolHook h;
    h.host = host;
    h.event = ch.event;
    h.matcher = ch.matcher;
    h.command = ch.command;
    if (!plugin.empty()) {
      h.command = substitute(h.command, {{"CLAUDE_PLUGIN_ROOT", plugin}}, false);
      h.env["CLAUDE_PLUGIN_ROOT"] = plugin;
    }
    h.timeout_ms = static_cast<int>(std::min<long>(ch.timeout_ms, 24L * 3600 * 1000));
    h.origin = path;
    h.pointer = ch.pointer;
    out.push_back(std::move(h));
  }
  return out;
}

// The findings on a JSON reply Claude Code read (exit 0): decisions it does not know or honour on
// `ev`, a reply its validation rejects, a block without a reason.
void judge_reply(const json& reply, const std::string& ev, bool blocking, bool schema_rejected,
                 const HookOutcome& o, std::vector<Finding>& fs) {
  auto member = [](const json& j, const char* k) {
    return j.is_object() && j.contains(k) ? j[k] : json();
  };
  auto text = [&](const json& j, const char* k) {
    const json v = member(j, k);
    return v.is_string() ? v.get<std::string>() : std::string();
  };
  const json hso = member(reply, "hookSpecificOutput");
  const json pd = member(hso, "permissionDecision");
  const json d = member(reply, "decision");
  // The real CLI rejects the reply (`Hook JSON output validation failed — decision: Invalid
  // option`), warns that the hook gave no usable answer and runs the tool
  // (conformance/test/protocol-hooks-claude.sh, policy-json.py).
  if (!d.is_null() && d != "block" && !(d == "approve" && ev == "PreToolUse"))
    fs.push_back({"PROTO-5", "decision " + d.dump() + " is not one Claude Code reads here (" +
                                 "block" +
                                 (ev == "PreToolUse" ? " or approve; or "
                                                       "hookSpecificOutput.permissionDecision"
                                                     : "") +
                                 "): the reply fails its validation and no verdict is read"});
  if (d == "block" && !blocking)
    fs.push_back({"PROTO-5", "blocks on " + ev +
                                 ", where Claude Code does not honour a "
                                 "block"});
  if (!pd.is_null() && ev != "PreToolUse")
    fs.push_back({"PROTO-5", "permissionDecision on " + ev +
                                 ": Claude Code reads it on "
                                 "PreToolUse only"});
  else if (!pd.is_null() && pd != "allow" && pd != "deny" && pd != "ask")
    fs.push_back({"PROTO-5", "permissionDecision " + pd.dump() +
                                 " is not allow, deny or ask: "
                                 "ignored"});
  const bool named = (!d.is_null() && d != "block" && d != "approve") ||
                     (!pd.is_null() && pd != "allow" && pd != "deny" && pd != "ask");
  if (schema_rejected && !named) {
    // The CLI's own words: "Hook JSON output validation failed — <field>: <problem>".
    std::string why = o.detail["result"].value("stderr", std::string());
    why = why.substr(0, why.find('\n'));
    const std::string lead = "Hook JSON output validation failed \xE2\x80\x94 ";
    if (why.rfind(lead, 0) == 0) why = why.substr(lead.size());
    fs.push_back({"PROTO-5", "the reply fails Claude Code's validation (" + why +
                                 "): nothing in it is read, a non-blocking hook error"});
  }
  const bool denies = (pd == "deny" && ev == "PreToolUse") || (d == "block" && blocking);
  const std::string why =
      pd == "deny" ? text(hso, "permissionDecisionReason") : text(reply, "reason");
  if (denies && !nonblank(why))
    fs.push_back(
        {"PROTO-6", "blocks without a reason (" +
                        std::string(pd == "deny" ? "permissionDecisionReason" : "reason") +
                        "): the model is told only that a hook blocked it"});
}

void judge(const Run& run, std::vector<Finding>& fs) {
  const auto& [h, o, r, exit0, exit2] = run;
  const std::string& ev = h.event;
  // Claude Code 2.1.332 reads both (docs/hosts/claude-code-2.1.md "Replies"); the effect is the
  // host runner's reading of the run.
  const bool blocking = pinta::hosts::deny_meaningful(f, ev);
  if (!r.timed_out && !r.hard_limited && !exit0 && !exit2)
    fs.push_back({"PROTO-3", exit_text(r) +
                                 ": Claude Code reports a non-blocking hook error to "
                                 "the user and reads no decision from it (" +
                                 o.effect + "); pass with 0, block with 2"});
  // reply-invalid-*: a reply outside the CLI's schema is rejected (a hook error) before it is
  // read; the findings below name the field.
  const bool schema_rejected = o.detail.contains("result") && o.detail["result"].is_object() &&
                               o.detail["result"].value("replyRejected", false);
  if (exit0 && o.effect == "hook_error" && !schema_rejected)  // pre-json-wrong-event
    fs.push_back({"PROTO-4",
                  "hookSpecificOutput.hookEventName names another event: Claude "
                  "Code rejects the reply as a hook error"});
  else if (exit0 && o.effect == "text_shown" && ev != "UserPromptSubmit" && ev != "SessionStart") {
    // Plain text elsewhere is neither read nor shown to the model (the transcript shows it):
    // a log line leaves the host as without the hook (the real CLI, conformance/test/
    // protocol-hooks-claude.sh: stdout-logger.sh on PreToolUse and Stop; scenarios pre-plain,
    // stop-plain, post-plain). A JSON reply among the lines is lost, though.
    if (has_json_line(r.out) || r.out.find_first_not_of(" \t\r\n") == r.out.find('{'))
      fs.push_back({"PROTO-4",
                    "stdout is not one JSON object: Claude Code does not read the reply in it on " +
                        ev + " (only UserPromptSubmit and SessionStart take text, as context)"});
    else
      fs.push_back({"PROTO-4",
                    "prints text on " + ev +
                        ": Claude Code reads no reply from it and does not pass it to the model "
                        "(its transcript shows it); the run counts as no answer",
                    true});
  }
  if (exit2 && !blocking)
    fs.push_back({"PROTO-5", "exit 2 on " + ev +
                                 ", which cannot block: stderr is only shown "
                                 "to the user"});
  if (exit2 && blocking && !nonblank(r.err))
    fs.push_back({"PROTO-6", std::string(nonblank(r.out) ? "exit 2 with its reason on stdout, "
                                                           "which Claude Code does not read on "
                                                           "exit 2"
                                                         : "exit 2 without a message on stderr") +
                                 ": the model is told `No stderr output`; print the reason to "
                                 "stderr"});
  const json reply = exit0 && (o.effect != "text_shown" && o.effect != "no_opinion")
                         ? json::parse(r.out, nullptr, false)
                         : json();
  if (reply.is_object()) judge_reply(reply, ev, blocking, schema_rejected, o, fs);
}

// The call after a PreToolUse run (emulator/hosts/claude/src/runner.cc): a deny, exit 2 (a
// blocking error), a top-level block or `continue: false` keep it from running; an ask is put to
// the user; a hook error, text or no output let it run.
const char* gate_call(const HookOutcome& o) {
  if (o.effect == "denied" || o.effect == "blocking_error" || o.effect == "blocked" ||
      o.effect == "stopped")
    return "blocks";
  return o.effect == "asked" ? "asks" : "runs";
}

}  // namespace

// Claude Code reads a hook's output when the hook exits and does not wait for a child still
// holding the pipes (docs/hosts/claude-code-2.1.md, scenario pre-late-output: a deny printed 1 s
// after the exit was not read; the tool ran): waits_for_pipes false.
// Registered through families.def (reading.cc).
namespace readings::claude {
// docs/hosts/claude-code-2.1.md (scenario events-order): a print-mode session with one tool call;
// the events that session does not fire placed where the docs put them in a turn.
constexpr std::string_view kSession[] = {
    "SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse",
    "PostToolUseFailure", "SubagentStart", "SubagentStop", "Notification", "PreCompact", "Stop",
    "SessionEnd"};
extern const FamilyReading kReading = {
    f,         claude_hooks, ".claude", hook_timeout_ms, kTools, selects, false, judge,
    gate_call, kVars, kMcpTools,    after_call, kSession,
    ".claude-plugin/plugin.json"};  // code.claude.com/docs/en/plugins-reference
}  // namespace readings::claude


}  // namespace pinta::conformance::protocol
