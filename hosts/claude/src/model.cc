// Claude Code's model (pinta/hosts/family_model.h).
#include <algorithm>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "pinta/hosts/family.h"
#include "pinta/hosts/family_model.h"

namespace pinta::hosts::claude {
namespace {

using nlohmann::json;

// Claude Code (ReplyReading::kBoth). CC = shared/reference/real-hosts.md "Claude Code 2.1.332";
// CCDOC = https://code.claude.com/docs/en/hooks ("Exit code output", "JSON output").
//  - exit 0: stdout is read; no output at all is "no objection" (CC: the tool ran). A JSON
//    object may carry the common fields and, on PreToolUse, hookSpecificOutput with
//    hookEventName "PreToolUse" and permissionDecision allow|deny|ask (CC: a deny blocked the
//    call with permissionDecisionReason as the tool error). Text that is not a JSON object is
//    shown (on UserPromptSubmit and SessionStart it is added to the model's context), so the
//    adapter must never print it.
//  - exit 2: a block with stderr as the message where the event can block (CC: `PreToolUse:Bash
//    hook error: …<stderr>`); elsewhere stderr is only shown. Other statuses are non-blocking
//    errors shown to the user.
std::string shape(std::string_view event, const json& j, ReplyKind* kind) {
  static constexpr std::string_view kCommon[] = {"continue",      "stopReason", "suppressOutput",
                                                 "systemMessage", "decision",   "reason",
                                                 "hookSpecificOutput"};
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find(std::begin(kCommon), std::end(kCommon), it.key()) == std::end(kCommon))
      return "unknown Claude Code output field: " + it.key();
  // CCDOC: continue:false stops Claude altogether, whatever the decision.
  if (j.contains("continue") && j["continue"] == false) return "continue:false stops the session";
  if (j.contains("decision")) {
    if (j["decision"] != "block") return "top-level decision other than block";
    if (!deny_meaningful(Family::kClaude, event)) return "block on an event that cannot block";
    *kind = ReplyKind::kDeny;
  }
  if (!j.contains("hookSpecificOutput")) return "";
  const json& h = j["hookSpecificOutput"];
  if (!h.is_object()) return "hookSpecificOutput is not an object";
  if (!h.contains("hookEventName") || h["hookEventName"] != event)
    return "hookSpecificOutput.hookEventName differs from the event";
  if (event != "PreToolUse") return "";
  if (!h.contains("permissionDecision")) return "";
  const json& d = h["permissionDecision"];
  if (!d.is_string()) return "permissionDecision is not a string";
  if (h.contains("permissionDecisionReason") && !h["permissionDecisionReason"].is_string())
    return "permissionDecisionReason is not a string";
  const std::string reason = h.value("permissionDecisionReason", std::string());
  if (d == "allow") *kind = ReplyKind::kAllow;
  else if (d == "deny") {
    if (reason.empty()) return "Claude Code deny without a reason";
    *kind = ReplyKind::kDeny;
  } else if (d == "ask") *kind = ReplyKind::kAsk;
  else return "permissionDecision not in allow|deny|ask";
  return "";
}

// CC: exit 0 with no output is "no objection" ({} stands for it).
json allow_reply(std::string_view) { return json::object(); }

// docs/hosts/claude-code-2.1.md, "Replies" and "What the model is told".
std::string describe_effect(std::string_view, const std::string& k, const std::string& m,
                            const std::string&) {
  if (k == "no_opinion") return "no output: the host goes on as without the hook";
  if (k == "denied") return "denied; the model is told: " + clip_line(m, 120);
  if (k == "asked") return "asks (print mode: denied with the reason): " + clip_line(m, 120);
  if (k == "allowed") return "allowed by the hook";
  if (k == "deferred") return "deferred: the tool does not run and the session ends there";
  if (k == "blocking_error") return "blocking error (exit 2); the model is told: " + clip_line(m, 120);
  if (k == "error_shown") return "exit 2 where the event cannot block: stderr shown to the user";
  if (k == "hook_error") return "non-blocking hook error (shown to the user): " + clip_line(m, 80);
  if (k == "stopped")
    return "the session ends after this step" + (m.empty() ? "" : ": " + clip_line(m, 80));
  if (k == "blocked") return "blocked: " + clip_line(m, 120);
  if (k == "json_read") return "JSON reply read (context or message): " + clip_line(m, 80);
  if (k == "text_shown") return "plain text shown" + (m.empty() ? "" : ": " + clip_line(m, 80));
  if (k == "timed_out") return "cancelled at its timeout, no verdict";
  return k + (m.empty() ? "" : ": " + m);
}

bool same_failsafe(const std::string& got, const std::string& want) { return got == want; }

}  // namespace

extern const FamilyModel kModel{shape, allow_reply, describe_effect, same_failsafe};

}  // namespace pinta::hosts::claude
