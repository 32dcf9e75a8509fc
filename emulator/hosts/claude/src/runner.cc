// Claude Code 2.1 through HostRunner (pinta/emulator/runner_family.h).
#include <algorithm>
#include <map>
#include <mutex>
#include <sstream>

#include "pinta/common/fs.h"
#include "pinta/emulator/claude/claude.h"
#include "pinta/emulator/runner_family.h"
#include "pinta/hosts/claude/claude.h"
#include "pinta/hosts/hosts.h"

namespace pinta::emu::claude {
namespace {

using nlohmann::json;
using pinta::hosts::Family;

// Claude Code 2.1.332 (emu::claude, docs/hosts/claude-code-2.1.md): the hook as the one command of
// the event's plan, spawned as the host spawns it (/bin/sh -c, cwd = the project, the payload's bytes as
// the host writes them then EOF, the host's environment additions), read as the host reads it
// (run_plan's reading: the schema and wrong-event rejections, then decide). The effect names what the host
// did with the run; the full outcome (what the model is told) is in the detail.
class ClaudeRunner : public HostRunner {
 public:
  HookOutcome run(const HookCall& call) override {
    namespace cc = pinta::emu::claude;
    HookOutcome out;
    CaseSpawner sp(call);
    pinta::hosts::claude::HookCommand h;
    h.event = call.event;
    h.command = call.command;
    h.timeout_ms = call.timeout_ms;
    h.source = "project";
    const json payload = call.input.payload;
    const auto env = cc::hook_environment(
        call.cwd, payload, std::map<std::string, std::string>(call.env.begin(), call.env.end()));
    out.raw = sp.run(
        cc::spawn_request(h, pinta::hosts::claude::stdin_bytes(call.input.payload), call.cwd, env));
    out.stdin_sent = sp.sent();
    out.detail["spawn"] = spawn_json(out.raw);
    cc::PlanRun pr;
    pr.runs.push_back(cc::hook_run(h, out.raw));
    cc::reject_unreadable(call.event, pr.runs.front());
    const std::vector<pinta::hosts::claude::HookCommand> plan = {h};
    pr.outcome = cc::decide(call.event, payload, plan, pr.runs);
    const json report = cc::report_json(plan, pr);
    out.detail["result"] = report["results"][0];
    out.detail["outcome"] = report["outcome"];
    classify(call.event, pr.runs.front(), pr.outcome, out);
    return out;
  }

  payload_json default_payload(const std::string& event, const json& opts, const std::string& home,
                               const std::string& workspace) override {
    // The stdin 2.1.332 writes (shared/reference/real-hosts.md, "Hook stdin"; captured payloads
    // in fixtures/claude/2.1.332/): the common fields, then the event's own.
    const std::string session = opts.contains("session") && opts["session"].is_string()
                                    ? opts["session"].get<std::string>()
                                    : "25f3598c-343c-49de-add0-f6f92a8537fe";
    std::string project_key = workspace;  // ~/.claude/projects/<cwd with / as ->/<session>.jsonl
    std::replace(project_key.begin(), project_key.end(), '/', '-');
    payload_json p = {
        {"session_id", session},
        {"transcript_path", home + "/.claude/projects/" + project_key + "/" + session + ".jsonl"},
        {"cwd", workspace},
        {"hook_event_name", event}};
    const json tool = opts.contains("tool") ? opts["tool"] : json("Bash");
    const json args = opts.contains("tool_args")
                          ? opts["tool_args"]
                          : json{{"command", "ls -la"}, {"description", "List files"}};
    const bool tool_event = pinta::hosts::is_tool_event(Family::kClaude, event);
    if (event == "UserPromptSubmit" || tool_event) {
      p["prompt_id"] = "feec67ef-60e3-47aa-b3c4-821946073622";
      p["permission_mode"] = "default";
    }
    if (event == "SessionStart") p["source"] = "startup";
    if (event == "SessionEnd") p["reason"] = "other";
    if (event == "UserPromptSubmit") p["prompt"] = "list the files";
    if (tool_event) {
      p["effort"] = {{"level", "medium"}};
      p["tool_name"] = tool;
      p["tool_input"] = args;
      p["tool_use_id"] = "toolu_01A9c4kXb2LmQ7dRtY3vNw8e";
    }
    if (event == "PostToolUse") {
      p["tool_response"] = {{"stdout", "notes.txt\n"},
                            {"stderr", ""},
                            {"interrupted", false},
                            {"isImage", false},
                            {"noOutputExpected", false}};
      p["duration_ms"] = 12;
    }
    if (event == "PostToolUseFailure") {
      p["error"] = "Exit code 3\n";
      p["is_interrupt"] = false;
      p["duration_ms"] = 9;
    }
    if (event == "Stop") {
      p["stop_hook_active"] = false;
      p["last_assistant_message"] = "Done.";
      p["background_tasks"] = payload_json::array();
      p["session_crons"] = payload_json::array();
    }
    return p;
  }

 private:
  // What the host did with the run, in the effect vocabulary of pinta/hosts/effects.h:
  //   timed_out       past its timeout: cancelled, no verdict read (scenario timeout)
  //   blocking_error  exit 2 where the event can block: stderr reaches the model as a hook error
  //                   (PreToolUse: the tool does not run; pre-exit2-*, ups-exit2, stop-exit2)
  //   error_shown     exit 2 where the event cannot block: stderr shown to the user only (ss-exit2)
  //   hook_error      any other status, or a JSON reply outside the host's schema: a non-blocking
  //                   error (post-exit1, ups-exit1, reply-invalid-*)
  //   denied / asked / allowed / deferred   PreToolUse's permission decision, read at any exit
  //                   but 2 (CC: the JSON deny; pre-deny-exit1; pre-defer)
  //   stopped         continue:false: the session ends after this step (pre-continue-false, ...)
  //   blocked         another JSON decision that blocks (post-block, stop-block-json, …)
  //   json_read       any other JSON reply (context, systemMessage)
  //   text_shown      plain text at exit 0: shown, and on UserPromptSubmit/SessionStart given to
  //                   the model (ups-ctx, ss-stdout)
  //   no_opinion      exit 0 and nothing on stdout: the host goes on as without the hook
  static constexpr const char* kSpace = " \t\r\n\f\v";
  static void classify(const std::string& event, const pinta::emu::claude::HookRun& r,
                       const pinta::emu::claude::Outcome& o, HookOutcome& out) {
    auto joined = [](const std::vector<std::string>& v) {
      std::string s;
      for (const auto& x : v) s += (s.empty() ? "" : "\n") + x;
      return s;
    };
    const bool blank = r.stdout_text.find_first_not_of(kSpace) == std::string::npos;
    if (r.timed_out) {
      out.effect = "timed_out";
    } else if (r.exit == 2) {
      const bool blocks = pinta::hosts::blocks_on(Family::kClaude, event);
      out.effect = blocks ? "blocking_error" : "error_shown";
      out.effect_message = o.tool_result                        ? *o.tool_result
                           : blocks && !o.model_context.empty() ? joined(o.model_context)
                                                                : r.stderr_text;
    } else if (r.reply_rejected) {
      // A reply outside the host's schema is a non-blocking error too (reply-invalid-*).
      out.effect = "hook_error";
      out.effect_message = r.stderr_text;
    } else if (o.permission_decision) {
      // Read at any exit code but 2 (pre-deny-exit1, pre-deny-exit127, pre-ask-exit1).
      out.effect = *o.permission_decision == "deny"    ? "denied"
                   : *o.permission_decision == "ask"   ? "asked"
                   : *o.permission_decision == "defer" ? "deferred"
                                                       : "allowed";
      out.effect_message = o.tool_result.value_or("");
    } else if (r.exit != 0 && !(o.blocked && pinta::emu::claude::is_json_reply(r.stdout_text))) {
      // A non-blocking error; a JSON block is still read (post-block-exit1, ups-block-exit1).
      out.effect = "hook_error";
      out.effect_message = r.stderr_text;
    } else if (blank) {
      out.effect = "no_opinion";
    } else if (!pinta::emu::claude::is_json_reply(r.stdout_text)) {
      out.effect = "text_shown";
      out.effect_message = o.model_context.empty() ? r.stdout_text : joined(o.model_context);
    } else if (!o.continue_) {
      out.effect = "stopped";
      out.effect_message = o.stop_reason.value_or("");
    } else if (o.blocked) {
      out.effect = "blocked";
      out.effect_message = joined(o.model_context);
    } else {
      out.effect = "json_read";
      out.effect_message = o.system_message.value_or(joined(o.model_context));
    }
  }
};

// Claude Code (its runner's detail, emulator/hosts/claude): what the host does next, as its
// emulator decides it: blocked, toolResult, permissionDecision, continue, systemMessage, the
// context given to the model, updatedInput (docs/hosts/claude-code-2.1.md, "Replies").
json claude_golden(const HookOutcome& o, const json&) {
  json e = {{"effect", o.effect}};
  if (o.detail.contains("outcome")) e["outcome"] = o.detail["outcome"];
  return e;
}

std::unique_ptr<HostRunner> make_claude(const std::string&, const HostRunnerOptions&, std::string&) {
  return std::make_unique<ClaudeRunner>();
}

}  // namespace

extern const FamilyRunner kRunner{make_claude, claude_golden};

}  // namespace pinta::emu::claude
