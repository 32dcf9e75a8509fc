// The protocol profile's reading of Copilot CLI 1.0.102 (protocol/reading.h): a hook file, a
// settings file or a repo's .claude/settings.json through the host's own loader
// (pinta::hosts::copilot), its matchers per format, and how Copilot reads a hook's exit status and
// stdout (emulator/hosts/copilot/src/run.cc: every rule with its evidence; CP =
// shared/reference/real-hosts.md, CPM = the real-CLI lane's scenarios). The opposite of Codex on
// the gate: preToolUse is FAIL-CLOSED, so a hook that crashes or exits 1 blocks every call.
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>

#include "pinta/hosts/copilot/copilot.h"
#include "reading.h"

namespace pinta::conformance::protocol {
namespace {
namespace stdfs = std::filesystem;
namespace cp = pinta::hosts::copilot;
using pinta::hosts::Family;

constexpr Family f = Family::kCopilot;

// CPDOC "Tool names for hook matching", CPM c-edit-tools: the runtime names a matcher sees (a
// Claude-style matcher sees their Claude names: Bash, Read, Write, Edit).
constexpr std::array<ToolSample, 4> kTools = {{{"bash", ToolArgs::kShell},
                                              {"create", ToolArgs::kWriteFile},
                                              {"edit", ToolArgs::kEdit},
                                              {"view", ToolArgs::kPath}}};

// docs/hosts/copilot-1.0.md (hook environment; c-baseline, p-baseline).
constexpr std::string_view kVars[] = {"COPILOT_PROJECT_DIR", "COPILOT_HOOK_DIR",
                                      "CLAUDE_PROJECT_DIR", "COPILOT_CLI",
                                      "COPILOT_CLI_BINARY_VERSION"};

// The call's own result on postToolUse: toolResult.textResultForLlm (CP: native payloads), or
// tool_result.text_result_for_llm in a Claude-style registration's payload, is what it printed.
void after_call(const std::string&, const std::string&, const json& args, const std::string&,
                json& p) {
  if (p.contains("toolResult") && p["toolResult"].is_object())
    p["toolResult"]["textResultForLlm"] = sample_output(args);
  if (p.contains("tool_result") && p["tool_result"].is_object())
    p["tool_result"]["text_result_for_llm"] = sample_output(args);
}

// CPDOC `timeoutSec`, 30 s by default (CPM c-pre-timeout-default).
int hook_timeout_ms(const std::string&) { return static_cast<int>(cp::HookHandler{}.timeout_sec * 1000); }

// The matcher rule of the hook's format, chosen by its event key's case (CPM c-matcher-*,
// p-matcher-*). A --hook registration (no file) has no matcher: every tool.
bool selects(const ProtocolHook& h, const std::string& tool) {
  if (h.origin.empty()) return true;
  const auto fmt = cp::event_format(h.event).value_or(cp::Format::kNative);
  return cp::matcher_matches(fmt, h.matcher, tool);
}

// The file read by the host's own loader as the only file of an otherwise empty
// ~/.copilot/hooks/ (a settings file's inline hooks and a Claude settings file read the same way).
Result<std::vector<ProtocolHook>> copilot_hooks(const ProtocolOptions& po, const std::string& host) {
  const std::string path = stdfs::absolute(po.config).lexically_normal().string();
  std::string err;
  const std::string text = read_text(path, err);
  if (!err.empty()) return make_error(ErrorCode::kIo, err);
  std::string tmp = (stdfs::temp_directory_path() / "pinta-proto-load-XXXXXX").string();
  if (!::mkdtemp(tmp.data())) return make_error(ErrorCode::kIo, "cannot create a temp directory");
  stdfs::create_directories(tmp + "/hooks");
  {
    std::ofstream out(tmp + "/hooks/hooks.json", std::ios::binary);
    out << text;
  }
  cp::Sources src;
  src.copilot_home = tmp;
  auto loaded = cp::load_hooks(src);
  std::error_code ec;
  stdfs::remove_all(tmp, ec);
  if (!loaded)
    return make_error(ErrorCode::kInvalidArgument, "--config " + po.config + ": " + loaded.error().message);
  if (!loaded->warnings.empty())
    return make_error(ErrorCode::kInvalidArgument, "--config " + po.config + ": " +
                                                       loaded->warnings.front());
  std::vector<ProtocolHook> out;
  for (const auto& hh : loaded->handlers) {
    if (hh.type != "command") continue;
    ProtocolHook h;
    h.host = host;
    h.event = hh.event;
    // No matcher selects every tool; in the native format "" selects none (CPM c-matcher-empty),
    // so an absent one is carried as the format's match-all.
    h.matcher = hh.has_matcher ? hh.matcher
                               : (hh.format == cp::Format::kNative ? std::string(".*") : std::string("*"));
    h.command = hh.bash.empty() ? hh.command : hh.bash;
    h.timeout_ms = static_cast<int>(std::min<long>(hh.timeout_sec, 24L * 3600) * 1000);
    h.origin = path;
    h.pointer = hh.pointer;
    out.push_back(std::move(h));
  }
  return out;
}

std::string outcome_text(const HookOutcome& o, const char* key) {
  if (!o.detail.contains("outcome") || !o.detail["outcome"].is_object()) return "";
  const json& r = o.detail["outcome"];
  return r.contains(key) && r[key].is_string() ? r[key].get<std::string>() : std::string();
}

void judge(const Run& run, std::vector<Finding>& fs) {
  const auto& [h, o, r, exit0, exit2] = run;
  const std::string ev = cp::canonical_event(h.event);
  const bool gate = ev == "preToolUse";
  const bool native = cp::event_format(h.event) == cp::Format::kNative;
  if (!r.timed_out && !r.hard_limited && !exit0 && !exit2) {
    // CP, CPM c-pre-exit1, c-pre-exit1-allow, c-pre-signal: fail-closed.
    if (gate)
      fs.push_back({"PROTO-3", exit_text(r) + ": Copilot DENIES the call (fail-closed, even with an "
                                   "allow on stdout); the model reads `" +
                                   outcome_text(o, "modelText") +
                                   "`. Allow with exit 0 and no output, deny with a JSON deny"});
    else
      fs.push_back({"PROTO-3", exit_text(r) + " on " + h.event +
                                   ": Copilot logs the error and reads nothing from the hook"});
  }
  // CPM c-post-exit2, c-ups-exit2: exit 2 blocks only on preToolUse; on postToolUse and
  // userPromptSubmitted (and postToolUseFailure, CPDOC) Copilot reads it, as a notice of its
  // stderr, and goes on: a block the event cannot honour. On any other event Copilot gives exit 2
  // no meaning (CPDOC: sessionEnd's, errorOccurred's output is not processed): it is a failed run
  // like exit 1, most often a tool's own error status (jq, grep) under `set -e`.
  const bool reads_exit2 = gate || ev == "postToolUse" || ev == "userPromptSubmitted" ||
                           ev == "postToolUseFailure";
  if (exit2 && !reads_exit2)
    fs.push_back({"PROTO-3", exit_text(r) + " on " + h.event +
                                 ": a failed run (exit 2 means nothing to Copilot here); Copilot "
                                 "logs the error and reads nothing from the hook"});
  else if (exit2 && !gate)
    fs.push_back({"PROTO-5", "exit 2 on " + h.event + ", which cannot block this way: Copilot " +
                                 "prints its stderr as a notice and goes on"});
  // CPM c-pre-exit2-stderr: the stderr of exit 2 is dropped; the model reads a fixed text.
  if (exit2 && gate && nonblank(r.err))
    fs.push_back({"PROTO-6", "exit 2's stderr never reaches the model: it reads `Denied by "
                             "preToolUse hook: hook exited with code 2`; put the reason in a "
                             "JSON deny on stdout", true});
  if (!exit0) return;
  const json reply = json::parse(r.out, nullptr, false);
  if (gate && native && reply.is_object() && reply.contains("hookSpecificOutput") &&
      !reply.contains("permissionDecision")) {
    // CPM c-pre-hso-deny: the Claude shape in a camelCase file is ignored; the call runs.
    fs.push_back({"PROTO-5", "answers in the Claude shape (hookSpecificOutput) from a camelCase "
                             "(native) registration: Copilot ignores it there and the call runs; "
                             "use top-level permissionDecision"});
  } else if (o.effect == "text_ignored") {
    // CPM c-pre-plain, c-pre-badjson, c-pre-two-json, c-pre-deny-trailing-text.
    if (has_json_line(r.out))
      fs.push_back({"PROTO-4", "stdout is not one JSON object: Copilot reads none of it on " +
                                   h.event + (gate ? " and the call runs" : "")});
    else
      fs.push_back({"PROTO-4", "prints text on " + h.event + ": Copilot ignores it", true});
  } else if (o.effect == "asked") {
    // CPM c-pre-ask, p-pre-hso-ask.
    fs.push_back({"PROTO-5", "answers ask: in a prompt-mode run (-p) nobody can be asked and the "
                             "call is denied", true});
  } else if (o.effect == "denied" &&
             outcome_text(o, "modelText") == "Denied by preToolUse hook: No reason provided") {
    fs.push_back({"PROTO-6", "denies without a reason: the model reads `No reason provided`"});
  }
}

// The call after a preToolUse run (emulator/hosts/copilot/src/runner.cc): a deny (exit 2
// included) or an errored run (any other non-zero exit, a crash or a signal: fail-closed, CP)
// keeps it from running; `ask` puts it to the user (in -p: a deny). The cross-host matrix's cell.
const char* gate_call(const HookOutcome& o) {
  if (o.effect == "denied" || o.effect == "errored") return "blocks";
  return o.effect == "asked" ? "asks" : "runs";
}

}  // namespace

// Copilot reads the hook's output when it exits (a Node child process; the timeout kills it): a
// child still holding stdout is not waited for past the timeout. waits_for_pipes true, as the
// Node hosts here read until 'close'. Registered through families.def (reading.cc).
namespace readings::copilot {
// docs/hosts/copilot-1.0.md (c-baseline: a -p run with one bash call; c-post-failure,
// c-error-occurred, c-subagent), in the native names (the Claude-style ones are aliases).
constexpr std::string_view kSession[] = {
    "sessionStart",       "userPromptSubmitted", "userPromptTransformed", "preToolUse",
    "permissionRequest",  "postToolUse",         "postToolUseFailure",    "errorOccurred",
    "subagentStart",      "subagentStop",        "notification",          "preCompact",
    "agentStop",          "sessionEnd"};
extern const FamilyReading kReading = {
    f,         copilot_hooks, ".github", hook_timeout_ms, kTools, selects, true, judge,
    gate_call, kVars, {},            after_call, kSession};
}  // namespace readings::copilot

}  // namespace pinta::conformance::protocol
