// Codex CLI hosts (every version profile: codex-0.171, …) through HostRunner
// (pinta/emulator/runner_family.h).
#include <map>
#include <mutex>
#include <optional>

#include "pinta/emulator/codex/codex.h"
#include "pinta/emulator/runner_family.h"

namespace pinta::emu::codex {
namespace {

using nlohmann::json;

// Codex CLI 0.171.0 (emu::codex): the hook as the one handler of the event's plan, spawned as
// Codex spawns it (/bin/bash -c, cwd = the project, the payload in Codex's field order then EOF,
// a timeout in whole seconds covering the pipes), read by the event's strict reply parser and
// decided. The effect names what Codex did with the run; the outcome is in the detail.
// Under a version profile the reply is read by the release's rules (pinta::hosts::codex::Rules).
// An event of the family that the release does not fire (SessionEnd before 0.145.0) is still
// spawned, so that what the hook itself does (its bytes, exit, spans) is graded as on any event,
// and its effect is not_run: that release never runs the hook (`hostemu codex run` runs nothing).
class CodexRunner : public HostRunner {
 public:
  explicit CodexRunner(pinta::hosts::codex::Rules rules) : rules_(std::move(rules)) {}

  std::optional<std::string> hooks_not_run() const override {
    if (rules_.hooks_run) return std::nullopt;
    return "no hook of the version bisection ran on these releases (hooks.json with "
           "--dangerously-bypass-hook-trust; docs/hosts/codex-0.171.md \"Releases\")";
  }

  HookOutcome run(const HookCall& call) override {
    HookOutcome out;
    CaseSpawner sp(call);
    const bool fired = !pinta::hosts::codex::is_event(call.event) ||
                       pinta::hosts::codex::fires(rules_, call.event);
    pinta::hosts::codex::HookHandler h;
    h.event = call.event;
    h.command = call.command;
    h.timeout_ms = call.timeout_ms;
    h.source = "project-json";
    const json payload = call.input.payload;
    const auto env = hook_environment(
        h, std::map<std::string, std::string>(call.env.begin(), call.env.end()));
    out.raw = sp.run(spawn_request(h, stdin_json(call.event, call.input.payload), call.cwd, env));
    out.stdin_sent = sp.sent();
    out.detail["spawn"] = spawn_json(out.raw);
    PlanRun pr;
    pr.runs.push_back(hook_run(h, out.raw));
    pr.readings.push_back(read_run(call.event, pr.runs.front(), rules_));
    pr.outcome = decide(call.event, payload, pr.runs, pr.readings);
    const json report = report_json({h}, pr);
    out.detail["result"] = report["results"][0];
    out.detail["outcome"] = report["outcome"];
    classify(call.event, pr.runs.front(), pr.readings.front(), pr.outcome, out);
    if (!fired) {
      out.effect = "not_run";
      out.effect_message = "this release does not fire " + call.event;
      out.detail["fired"] = false;
    }
    return out;
  }

  payload_json default_payload(const std::string& event, const json& opts, const std::string& home,
                               const std::string& workspace) override {
    // The stdin 0.171.0 writes: CX for PreToolUse (session_id, turn_id, transcript_path, cwd,
    // hook_event_name, model, permission_mode, tool_name, tool_input, tool_use_id); the other
    // events from CXSRC schema.rs *CommandInput. Values as measured under `codex exec` with
    // approval_policy never and a local provider (permission_mode bypassPermissions).
    const std::string session = opts.contains("session") && opts["session"].is_string()
                                    ? opts["session"].get<std::string>()
                                    : "019af3c2-5d1e-7a40-9c3b-6e2f1d8a4b70";
    const std::string cwd =
        opts.contains("cwd") && opts["cwd"].is_string() ? opts["cwd"].get<std::string>() : workspace;
    payload_json p = {{"session_id", session},
              {"transcript_path", home + "/.codex/sessions/2026/12/07/rollout-2026-12-07T12-00-00-" +
                                      session + ".jsonl"},
              {"cwd", cwd},
              {"hook_event_name", event},
              {"model", "gpt-5.1-codex"}};
    if (event != "SessionStart" && event != "SessionEnd") p["turn_id"] = "0";
    if (event != "PreCompact" && event != "PostCompact" && event != "SessionEnd")
      p["permission_mode"] = "bypassPermissions";
    const json tool = opts.contains("tool") ? opts["tool"] : json("Bash");
    json args = opts.contains("tool_args") ? opts["tool_args"] : json{{"command", "ls -la"}};
    if (event == "PreToolUse" || event == "PermissionRequest" || event == "PostToolUse") {
      p["tool_name"] = tool;
      p["tool_input"] = args;
    }
    if (event == "PreToolUse" || event == "PostToolUse")
      p["tool_use_id"] = "call_7Qk2mX9vR4tLp8Ns3Wd1Yb6C";
    if (event == "PostToolUse") p["tool_response"] = "notes.txt\n";
    if (event == "SessionStart") p["source"] = "startup";
    if (event == "SessionEnd") p["reason"] = "other";
    if (event == "UserPromptSubmit") p["prompt"] = "list the files";
    if (event == "PreCompact" || event == "PostCompact") p["trigger"] = "auto";
    if (event == "SubagentStart" || event == "SubagentStop") {
      p["agent_id"] = "019af3c2-7b10-7c21-8e4f-2a9d6c3e1f05";
      p["agent_type"] = "default";
    }
    if (event == "SubagentStop") p["agent_transcript_path"] = nullptr;
    if (event == "Stop" || event == "SubagentStop") {
      p["stop_hook_active"] = false;
      p["last_assistant_message"] = "Done.";
    }
    return p;
  }

 private:
  pinta::hosts::codex::Rules rules_;

  // What Codex did with the run (hosts/codex/src/model.cc describe_effect words):
  //   timed_out     past its timeout: a Failed run, the call goes on (CX)
  //   failed        any other Failed run: an exit other than 0/2, exit 2 without stderr, a
  //                 reply outside the event's reply struct (CX: extra key, deny without reason,
  //                 ask, …), a signal death; the call goes on
  //   denied        PreToolUse blocked by the run / PermissionRequest deny: the call does not run
  //   blocked       another event's block (UserPromptSubmit, Stop, SubagentStop, PostToolUse)
  //   stopped       continue:false honoured: the turn stops
  //   allowed       PreToolUse allow with updatedInput / PermissionRequest allow
  //   json_read     any other reply Codex read (context, systemMessage)
  //   text_ignored  plain text at exit 0 where Codex ignores it (CX; the context events take it
  //                 as model context: json_read with the context as the message)
  //   no_opinion    exit 0 and nothing on stdout
  static void classify(const std::string& event, const HookRun& r, const Reading& rd,
                       const Outcome& o, HookOutcome& out) {
    auto joined = [](const std::vector<std::string>& v) {
      std::string s;
      for (const auto& x : v) s += (s.empty() ? "" : "\n") + x;
      return s;
    };
    if (r.timed_out) {
      out.effect = "timed_out";
      out.effect_message = r.error.value_or("");
    } else if (rd.status == "failed") {
      out.effect = "failed";
      out.effect_message = joined(o.failures);
    } else if (event == "PreToolUse" && !o.tool_runs) {
      out.effect = "denied";
      out.effect_message = o.model_text.value_or("");
    } else if (event == "PermissionRequest" && o.permission_decision) {
      out.effect = *o.permission_decision == "deny" ? "denied" : "allowed";
      out.effect_message = o.permission_message.value_or("");
    } else if (rd.should_stop && rd.status == "stopped") {
      out.effect = "stopped";
      out.effect_message = o.stop_reason.value_or("");
    } else if (o.blocked) {
      out.effect = "blocked";
      out.effect_message = o.model_text.value_or(o.block_reason.value_or(""));
    } else if (event == "PreToolUse" && o.updated_input) {
      out.effect = "allowed";
      out.effect_message = o.updated_input->dump();
    } else if (rd.stdout_read == "text" && rd.contexts.empty()) {
      out.effect = "text_ignored";
    } else if (rd.stdout_read == "json" || rd.stdout_read == "text" || !rd.feedback.empty()) {
      out.effect = "json_read";
      out.effect_message = !rd.contexts.empty()   ? joined(rd.contexts)
                           : !rd.feedback.empty() ? joined(rd.feedback)
                                                  : rd.entries.empty() ? "" : rd.entries.front().text;
    } else {
      out.effect = "no_opinion";
    }
  }
};

// Codex (its runner's detail, emulator/hosts/codex): what the host does next, as its emulator
// decides it: whether the tool runs, blocked/stopped, the text the model reads, the permission
// decision, context, updated input and the failure texts.
json codex_golden(const HookOutcome& o, const json&) {
  json e = {{"effect", o.effect}};
  if (o.detail.contains("outcome")) e["outcome"] = o.detail["outcome"];
  return e;
}

// A Codex host is its version profile, hosts/codex/profiles/<host>.json of the family's own folder
// (pinta::hosts::codex::default_profile_dir: $PINTA_CODEX_PROFILES, the installed copy or the
// source tree), read once per process. options.profiles_dir is not read: the option is shared by
// every family's runner and is another family's folder where it is set (the conformance tests pass
// Antigravity's); a Codex profile folder of one's own is PINTA_CODEX_PROFILES, per family.
std::unique_ptr<HostRunner> make_codex(const std::string& host, const HostRunnerOptions&,
                                       std::string& error) {
  static std::mutex mu;
  static std::map<std::string, pinta::hosts::codex::Rules> cache;
  const std::string dir = pinta::hosts::codex::default_profile_dir();
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(dir + "\n" + host);
  if (it == cache.end()) {
    auto prof = pinta::hosts::codex::profile_named(dir, host);
    if (!prof) {
      error = "no Codex CLI profile for host " + host + ": " + prof.error().message;
      return nullptr;
    }
    it = cache.emplace(dir + "\n" + host, prof->rules).first;
  }
  return std::make_unique<CodexRunner>(it->second);
}

}  // namespace

extern const FamilyRunner kRunner{make_codex, codex_golden};

}  // namespace pinta::emu::codex
