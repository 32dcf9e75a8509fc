// The protocol profile's reading of Codex CLI 0.171 (protocol/reading.h): a hooks.json or a
// config.toml through the host's own loader (pinta::hosts::codex), its matchers, and how Codex
// reads a hook's exit status, stdout and stderr (emulator/hosts/codex/src/run.cc: every rule with
// its evidence; CX = shared/reference/real-hosts.md, measured; CXSRC = openai/codex
// codex-rs/hooks). Codex's reply parser is strict: a reply it cannot read is a Failed run, and on
// PreToolUse the call then runs.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>

#include "pinta/hosts/codex/codex.h"
#include "reading.h"
#include "workspace.h"

namespace pinta::conformance::protocol {
namespace {
namespace stdfs = std::filesystem;
namespace cx = pinta::hosts::codex;
using pinta::hosts::Family;

constexpr Family f = Family::kCodex;

// CX: every shell tool is `Bash` with tool_input.command; apply_patch carries the patch in
// tool_input.command too (matched by `Write` and `Edit` as well); MCP tools `mcp__server__tool`.
constexpr std::array<ToolSample, 3> kTools = {{{"Bash", ToolArgs::kShell},
                                              {"apply_patch", ToolArgs::kShell},
                                              {"mcp__filesystem__read_file", ToolArgs::kPath}}};

// CX (scenario hook-env): CODEX_HOME is the only variable of its own in a hook's environment.
constexpr std::string_view kVars[] = {"CODEX_HOME"};

// The call's own result on PostToolUse: what the command printed, as a string (CX: "tool_response"
// of a Bash call; emulator/hosts/codex/src/runner.cc).
void after_call(const std::string&, const std::string&, const json& args, const std::string&,
                json& p) {
  if (p.contains("tool_response")) p["tool_response"] = sample_output(args);
}

// CX: MCP tools are `mcp__<server>__<tool>` (a matcher of another server's tools gets its calls).
constexpr std::array<ToolSample, 1> kMcpTools = {{{"mcp__{server}__{tool}", ToolArgs::kMcpWrite}}};

// CX: `timeout` in seconds, 600 by default (pinta::hosts::codex::HookHandler).
int hook_timeout_ms(const std::string&) { return static_cast<int>(cx::HookHandler{}.timeout_ms); }

// CXSRC dispatcher.rs select_handlers_for_matcher_inputs: a handler runs once when its matcher
// matches the tool's name or one of its aliases.
bool selects(const ProtocolHook& h, const std::string& tool) {
  for (const auto& name : cx::match_names(tool))
    if (cx::matcher_matches(h.matcher, name)) return true;
  return false;
}

// A Codex hooks.json or config.toml, read by the host's own loader as the user layer of an
// otherwise empty CODEX_HOME (every handler, trusted or not: grading asks what it does, and
// --dangerously-bypass-hook-trust runs them all).
Result<std::vector<ProtocolHook>> codex_hooks(const ProtocolOptions& po, const std::string& host) {
  const std::string path = stdfs::absolute(po.config).lexically_normal().string();
  std::string err;
  const std::string text = read_text(path, err);
  if (!err.empty()) return make_error(ErrorCode::kIo, err);
  const bool toml = stdfs::path(path).extension() == ".toml";
  std::string tmp = (stdfs::temp_directory_path() / "pinta-proto-load-XXXXXX").string();
  if (!::mkdtemp(tmp.data())) return make_error(ErrorCode::kIo, "cannot create a temp directory");
  {
    std::ofstream out(tmp + (toml ? "/config.toml" : "/hooks.json"), std::ios::binary);
    out << text;
  }
  std::error_code ec;
  cx::Sources src;
  src.codex_home = tmp;
  src.project = tmp + "/project";
  src.bypass_trust = true;
  // A plugin's hooks/hooks.json is read as that plugin's, its ${PLUGIN_ROOT} and
  // ${CLAUDE_PLUGIN_ROOT} the plugin's own folder (CXSRC declarations.rs).
  if (const std::string root = package_root(path);
      !root.empty() && stdfs::is_regular_file(root + "/.codex-plugin/plugin.json") &&
      path == root + "/hooks/hooks.json") {
    stdfs::remove(tmp + "/hooks.json", ec);
    src.plugin_dirs = {root};
  }
  auto loaded = cx::load_hooks(src);
  stdfs::remove_all(tmp, ec);
  if (!loaded)
    return make_error(ErrorCode::kInvalidArgument,
                      "--config " + po.config + ": " + loaded.error().message);
  if (!loaded->warnings.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      "--config " + po.config + ": " + loaded->warnings.front());
  std::vector<ProtocolHook> out;
  for (const auto& hh : loaded->handlers) {
    ProtocolHook h;
    h.host = host;
    h.event = hh.event;
    h.matcher = hh.matcher;
    h.command = hh.command;
    if (hh.source == "plugin")  // CXSRC engine/discovery.rs: a plugin handler's environment
      h.env = {{"PLUGIN_ROOT", src.plugin_dirs.front()},
               {"CLAUDE_PLUGIN_ROOT", src.plugin_dirs.front()}};
    h.timeout_ms = static_cast<int>(std::min<long>(hh.timeout_ms, 24L * 3600 * 1000));
    h.origin = path;
    h.pointer = hh.pointer;
    out.push_back(std::move(h));
  }
  return out;
}

// The events whose parser reads exit 2 (CXSRC events/*.rs parse_completed; hosts/codex
// family.h kBlocking): elsewhere exit 2 is one more failing exit code.
bool reads_exit2(const std::string& ev) { return pinta::hosts::blocks_on(f, ev); }

std::string detail_text(const HookOutcome& o, const char* key) {
  if (!o.detail.contains("result") || !o.detail["result"].is_object()) return "";
  const json& r = o.detail["result"];
  return r.contains(key) && r[key].is_string() ? r[key].get<std::string>() : std::string();
}

std::string first_failure(const HookOutcome& o) {
  if (!o.detail.contains("outcome")) return "";
  const json& fs = o.detail["outcome"].value("failures", json::array());
  return fs.is_array() && !fs.empty() && fs[0].is_string() ? fs[0].get<std::string>() : "";
}

void judge(const Run& run, std::vector<Finding>& fs) {
  const auto& [h, o, r, exit0, exit2] = run;
  const std::string& ev = h.event;
  const bool gate = ev == "PreToolUse";
  const std::string goes_on = gate ? "the tool call runs anyway" : "Codex goes on as without it";
  if (!r.timed_out && !r.hard_limited && !exit0 && !exit2)
    fs.push_back({"PROTO-3", exit_text(r) + ": Codex records a Failed hook run (`" +
                                 first_failure(o) + "`) and reads nothing from it; " + goes_on +
                                 ". Pass with exit 0 and no output, block with 2 + stderr"});
  if (exit2 && !reads_exit2(ev))
    fs.push_back({"PROTO-5", "exit 2 on " + ev + ", which cannot block: Codex records a " +
                                 "Failed run (`hook exited with code 2`)"});
  // CX: exit 2 with an empty stderr is not a block but a Failed run: on PreToolUse the call runs.
  // Not a reasonless block (PROTO-6, a should) but no answer at all: PROTO-3.
  if (exit2 && reads_exit2(ev) && !nonblank(r.err))
    fs.push_back({"PROTO-3", std::string("exit 2 without a message on stderr: Codex does not ") +
                                 "block, it records a Failed run (`" + first_failure(o) + "`) and " +
                                 goes_on + "; a block needs its reason on stderr"});
  if (!exit0) return;
  const std::string read = detail_text(o, "stdoutRead");
  const std::string problem = detail_text(o, "problem");
  if (o.effect == "failed" && read == "invalid") {
    // CX: one extra key, a misspelt enum or a JSON that does not parse fails the whole reply.
    fs.push_back({"PROTO-4", "stdout looks like JSON but is not a reply Codex reads on " + ev +
                                 " (" + (problem.empty() ? std::string("unparsable") : problem) +
                                 "; every field outside the reply struct is rejected): a Failed "
                                 "run, " + goes_on});
  } else if (o.effect == "failed" && read == "json") {
    // The reply parsed, but Codex rejects what it says (CX: a deny without a reason, `ask`,
    // allow without updatedInput, continue/stopReason/suppressOutput on PreToolUse; CXSRC: a
    // block without a reason on any event).
    // A reasonless deny is no block at all here (not PROTO-6's weaker "says why"): PROTO-5.
    fs.push_back({"PROTO-5", "Codex rejects the reply (`" + first_failure(o) + "`): a Failed run, " +
                                 goes_on});
  } else if (o.effect == "failed" && read == "text") {
    // CXSRC stop.rs: Stop and SubagentStop read no plain text; it fails the run.
    fs.push_back({"PROTO-4", "prints text on " + ev + ": Codex reads only a JSON reply here and " +
                                 "records a Failed run"});
  } else if (o.effect == "denied" && ev == "PermissionRequest") {
    // CXSRC output_parser.rs permission_request_decision: a deny without a message is honoured,
    // and the model is told only "PermissionRequest hook denied approval".
    const json reply = json::parse(r.out, nullptr, false);
    const json d = reply.is_object() ? reply.value("hookSpecificOutput", json::object()) : json();
    const json dec = d.is_object() ? d.value("decision", json()) : json();
    const std::string msg = dec.is_object() && dec.contains("message") && dec["message"].is_string()
                                ? dec["message"].get<std::string>()
                                : std::string();
    if (reply.is_object() && !nonblank(msg))
      fs.push_back({"PROTO-6", "denies without a message: Codex says only `PermissionRequest hook "
                               "denied approval`"});
  } else if (o.effect == "text_ignored") {
    // CX: plain text at exit 0 is ignored (the run completes). A JSON reply among the lines is
    // lost, though.
    if (has_json_line(r.out))
      fs.push_back({"PROTO-4", "stdout is not one JSON object: Codex does not read the reply in "
                               "it on " + ev + " (the text is ignored)"});
    else
      fs.push_back({"PROTO-4",
                    "prints text on " + ev + ": Codex ignores it; the run counts as no answer",
                    true});
  } else if (read == "text" && (ev == "UserPromptSubmit" || ev == "SessionStart" ||
                                ev == "SubagentStart")) {
    fs.push_back({"PROTO-4",
                  "prints text on " + ev + ": Codex gives it to the model as context", true});
  }
}

// The call after a PreToolUse run (emulator/hosts/codex/src/runner.cc: `denied` is exactly "the
// tool did not run"); a Failed run, a timeout or anything else lets it run (CX).
const char* gate_call(const HookOutcome& o) {
  return o.effect == "denied" || o.effect == "stopped" ? "blocks" : "runs";
}

}  // namespace

// Codex waits for the hook's exit and both pipes to close, within the hook's timeout (CXSRC
// engine/command_runner.rs run_command: timeout over Child::wait_with_output): a child still
// holding stdout keeps the run open until the timeout, which then fails it. waits_for_pipes true.
// Registered through families.def (reading.cc).
namespace readings::codex {
// docs/hosts/codex-0.171.md (an exec session with one tool call: SessionStart, UserPromptSubmit,
// PreToolUse, PostToolUse, Stop; SessionEnd last), the other events where a turn fires them.
constexpr std::string_view kSession[] = {
    "SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse",
    "PreCompact", "PostCompact", "SubagentStart", "SubagentStop", "Stop", "SessionEnd"};
extern const FamilyReading kReading = {
    f,         codex_hooks, ".codex", hook_timeout_ms, kTools, selects, true, judge,
    gate_call, kVars, kMcpTools,   after_call, kSession,
    ".codex-plugin/plugin.json"};  // docs/hosts/codex-0.171.md
}  // namespace readings::codex

}  // namespace pinta::conformance::protocol
