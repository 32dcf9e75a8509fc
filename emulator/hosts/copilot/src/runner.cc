// Copilot CLI hosts (every version profile: copilot-1.0, copilot-1.0.73, …) through HostRunner
// (pinta/emulator/runner_family.h).
#include <map>

#include "pinta/emulator/copilot/copilot.h"
#include "pinta/emulator/runner_family.h"

namespace pinta::emu::copilot {
namespace {

using nlohmann::json;

// Copilot CLI 1.0.102 (emu::copilot): the hook as the one handler of the event's plan, in the
// format the host label names (`copilot` native, `copilot-claude` Claude-style), spawned as the
// CLI spawns it (bash -c in the project, its environment, the payload then EOF, a timeout in
// seconds) and read as the CLI reads it (the fail-closed gate included). The effect names what
// Copilot did (hosts/copilot/src/model.cc describe_effect); the outcome is in the detail. Under
// a version profile the run is read by the release's rules (pinta::hosts::copilot::Rules); an
// event the release does not fire (userPromptTransformed before 1.0.73) is still spawned, so what
// the hook itself does is graded, and its effect is not_run.
class CopilotRunner : public HostRunner {
 public:
  CopilotRunner(cp::Format format, cp::Rules rules) : format_(format), rules_(std::move(rules)) {}

  HookOutcome run(const HookCall& call) override {
    HookOutcome out;
    CaseSpawner sp(call);
    cp::HookHandler h;
    h.event = call.event;
    h.canonical = cp::canonical_event(call.event);
    // A PascalCase event is a Claude-style registration whatever the host label (the protocol
    // profile grades both formats of one file on one host).
    const cp::Format format = cp::event_format(call.event).value_or(format_);
    h.format = format;
    h.bash = call.command;
    h.timeout_sec = std::max(1, (call.timeout_ms + 999) / 1000);
    h.file = call.cwd + "/.github/hooks/pinta.json";
    h.source = "repo";
    const auto env = hook_environment(h, call.cwd, {call.env.begin(), call.env.end()}, rules_);
    const json payload = call.input.payload;
    const std::string input = stdin_for(h.canonical, call.input.payload, format, format, rules_);
    out.raw = sp.run(spawn_request(h, input, call.cwd, env));
    out.stdin_sent = sp.sent();
    out.detail["spawn"] = spawn_json(out.raw);
    PlanRun pr;
    pr.runs.push_back(hook_run(h, out.raw));
    const auto rd = read_run(h.canonical, format, pr.runs.front(), rules_);
    pr.readings.push_back(rd);
    // The outcome as run_plan decides it, over the run already made.
    struct Replay : proc::Spawner {
      proc::SpawnResult r;
      proc::SpawnResult run(const proc::SpawnRequest&) override { return r; }
    } replay;
    replay.r = out.raw;
    pr.outcome =
        run_plan({h}, h.canonical, payload, format, input, call.cwd, {}, &replay, rules_).outcome;
    const json report = report_json({h}, pr);
    out.detail["result"] = report["results"][0];
    out.detail["outcome"] = report["outcome"];
    classify(h.canonical, pr.runs.front(), rd, pr.outcome, out);
    if (cp::is_event(call.event) && !cp::fires(rules_, call.event)) {
      out.effect = "not_run";
      out.effect_message = "this release does not fire " + h.canonical;
      out.detail["fired"] = false;
    }
    return out;
  }

  payload_json default_payload(const std::string& event, const json& opts, const std::string& home,
                               const std::string& workspace) override {
    // The native payload 1.0.102 writes (fixtures/copilot/1.0.102/<event>/, CPM c-baseline),
    // converted to the Claude-style shape for a `copilot-claude` host (p-baseline); under an
    // older release's profile its toolArgs as a JSON text, no stop_hook_active, runtime tool
    // names in the Claude-style shape (the profiles' evidence).
    const std::string ev = cp::canonical_event(event).empty() ? event : cp::canonical_event(event);
    const cp::Format fmt = cp::event_format(event).value_or(format_);
    const std::string session = opts.contains("session") && opts["session"].is_string()
                                    ? opts["session"].get<std::string>()
                                    : "bb3e1073-506b-47c4-ab26-74ee1fb83d09";
    const std::string cwd =
        opts.contains("cwd") && opts["cwd"].is_string() ? opts["cwd"].get<std::string>() : workspace;
    payload_json p = {{"sessionId", session}, {"timestamp", 1796659347664LL}, {"cwd", cwd}};
    std::string tool = opts.contains("tool") && opts["tool"].is_string()
                           ? opts["tool"].get<std::string>() : "bash";
    if (fmt == cp::Format::kClaudeStyle) tool = cp::runtime_tool_name(tool);
    const json args = opts.contains("tool_args") ? opts["tool_args"]
                                                 : json{{"command", "ls -la"}, {"description", "list"}};
    if (ev == "preToolUse" || ev == "postToolUse" || ev == "postToolUseFailure") {
      p["toolName"] = tool;
      p["toolArgs"] = rules_.tool_args_text ? json(args.dump()) : args;
    }
    if (ev == "postToolUse")
      p["toolResult"] = {{"resultType", "success"}, {"textResultForLlm", "notes.txt\n"}};
    if (ev == "postToolUseFailure") p["error"] = "Path does not exist";
    if (ev == "permissionRequest") {
      p = {{"hookName", "permissionRequest"}, {"sessionId", session},
           {"timestamp", 1796659347664LL}, {"cwd", cwd}, {"toolName", tool},
           {"toolInput", args}, {"permissionSuggestions", payload_json::array()}};
    }
    if (ev == "sessionStart") {
      p["source"] = "new";
      p["initialPrompt"] = "list the files";
    }
    if (ev == "userPromptSubmitted") p["prompt"] = "list the files";
    if (ev == "agentStop" || ev == "subagentStop") {
      p["transcriptPath"] = home + "/.copilot/session-state/" + session + "/events.jsonl";
      p["stopReason"] = "end_turn";
      if (rules_.stop_hook_active) p["stop_hook_active"] = false;
    }
    if (ev == "sessionEnd") p["reason"] = "complete";
    if (fmt == cp::Format::kNative || ev == "permissionRequest") return p;
    return payload_json::parse(
        stdin_for(ev, p, cp::Format::kNative, cp::Format::kClaudeStyle, rules_));
  }

 private:
  cp::Format format_;
  cp::Rules rules_;

  static void classify(const std::string& ev, const HookRun& r, const Reading& rd,
                       const Outcome& o, HookOutcome& out) {
    if (r.timed_out) {
      out.effect = "timed_out";  // CPM c-pre-timeout: the call goes on
    } else if (ev == "preToolUse" && rd.decision == "errored") {
      out.effect = "errored";  // fail-closed: denied (CP)
      out.effect_message = o.model_text.value_or("");
    } else if (ev == "preToolUse" && rd.decision == "ask") {
      out.effect = "asked";
      out.effect_message = o.model_text.value_or("");
    } else if (ev == "preToolUse" && !o.tool_runs) {
      out.effect = "denied";
      out.effect_message = o.model_text.value_or("");
    } else if (o.blocked) {
      out.effect = "blocked";
      out.effect_message = rd.block_reason.value_or("");
    } else if (rd.decision == "allow") {
      out.effect = "allowed";
    } else if (rd.parsed) {
      out.effect = "json_read";
      out.effect_message = rd.context.value_or("");
    } else if (!r.stdout_text.empty() || r.stdout_dropped) {
      out.effect = "text_ignored";
    } else {
      out.effect = "no_opinion";
    }
  }
};

// Copilot (its runner's detail): whether the tool runs, the text the model reads, contexts.
json copilot_golden(const HookOutcome& o, const json&) {
  json e = {{"effect", o.effect}};
  if (o.detail.contains("outcome")) e["outcome"] = o.detail["outcome"];
  return e;
}

// A Copilot host is its version profile (hosts/copilot/profiles/<host>.json, or the one in
// options.profiles_dir: profile_rules). Native by default; a PascalCase event is a Claude-style
// registration.
std::unique_ptr<HostRunner> make_copilot(const std::string& host, const HostRunnerOptions& options,
                                         std::string& error) {
  auto rules = profile_rules<cp::Rules>(pinta::hosts::Family::kCopilot, host, options,
                                        cp::profile_named, error);
  if (!rules) {
    error = "no Copilot CLI profile for host " + host + ": " + error;
    return nullptr;
  }
  return std::make_unique<CopilotRunner>(cp::Format::kNative, *rules);
}

}  // namespace
extern const FamilyRunner kRunner{make_copilot, copilot_golden};
}  // namespace pinta::emu::copilot
