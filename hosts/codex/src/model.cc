// OpenAI Codex CLI's model (pinta/hosts/family_model.h).
#include <algorithm>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "pinta/hosts/family.h"
#include "pinta/hosts/family_model.h"

namespace pinta::hosts::codex {
namespace {

using nlohmann::json;

// The first key of `j` outside `allowed`, or "".
std::string unknown_key(const json& j, std::initializer_list<std::string_view> allowed) {
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end()) return it.key();
  return "";
}

bool nonblank_string(const json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_string()) return false;
  const std::string& s = j[key].get_ref<const std::string&>();
  return s.find_first_not_of(" \t\r\n") != std::string::npos;
}

// Codex CLI 0.171 (ReplyReading::kBoth). CX = shared/reference/real-hosts.md (Codex 0.171.0 hook
// rules, measured); CXSRC = openai/codex codex-rs/hooks/schema/generated/*.schema.json.
//  - Every reply struct rejects unknown fields (CXSRC `deny_unknown_fields`; CX: one extra key and
//    the run is Failed, the command runs). A reply that fails to parse is a failed run: the host
//    goes on as if the hook had not answered.
//  - PreToolUse: hookSpecificOutput {hookEventName, permissionDecision, permissionDecisionReason,
//    updatedInput, additionalContext}; deny needs a non-empty reason; allow needs updatedInput;
//    ask is rejected; continue / stopReason / suppressOutput are rejected there. The legacy
//    {"decision":"block","reason"} blocks (CX).
//  - Elsewhere the common fields, and {"decision":"block","reason"} where the event can block.
std::string shape(std::string_view event, const json& j, ReplyKind* kind) {
  const bool gate = event == "PreToolUse";
  const std::string extra =
      gate ? unknown_key(j, {"systemMessage", "decision", "reason", "hookSpecificOutput"})
           : unknown_key(j, {"continue", "stopReason", "suppressOutput", "systemMessage",
                             "decision", "reason", "hookSpecificOutput"});
  if (!extra.empty()) return "Codex rejects the reply: unknown field " + extra;
  if (j.contains("decision")) {
    if (j["decision"] != "block") return "Codex rejects the reply: decision other than block";
    if (!blocks_on(Family::kCodex, event)) return "block on an event that cannot block";
    if (!nonblank_string(j, "reason")) return "Codex rejects the reply: block without a reason";
    *kind = ReplyKind::kDeny;
  }
  if (!j.contains("hookSpecificOutput")) return "";
  const json& h = j["hookSpecificOutput"];
  if (!h.is_object()) return "Codex rejects the reply: hookSpecificOutput is not an object";
  if (!h.contains("hookEventName") || h["hookEventName"] != event)
    return "Codex rejects the reply: hookSpecificOutput.hookEventName differs from the event";
  if (!gate) return "";
  if (std::string k = unknown_key(h, {"hookEventName", "permissionDecision",
                                      "permissionDecisionReason", "updatedInput",
                                      "additionalContext"});
      !k.empty())
    return "Codex rejects the reply: unknown field hookSpecificOutput." + k;
  if (!h.contains("permissionDecision")) return "";
  const json& d = h["permissionDecision"];
  if (d == "deny") {
    if (!nonblank_string(h, "permissionDecisionReason"))
      return "Codex rejects the reply: deny without a reason (the command runs)";
    *kind = ReplyKind::kDeny;
  } else if (d == "allow") {
    if (!h.contains("updatedInput"))
      return "Codex rejects the reply: allow without updatedInput";
    *kind = ReplyKind::kAllow;
  } else if (d == "ask") {
    return "Codex rejects the reply: ask is not supported (the command runs)";
  } else {
    return "Codex rejects the reply: permissionDecision not deny or allow";
  }
  return "";
}

// CX: exit 0 with no output is the one reply that is never a failed run ({} stands for it).
json allow_reply(std::string_view) { return json::object(); }

// docs/hosts/codex-0.171.md, "Replies" and "What the model is told".
std::string describe_effect(std::string_view, const std::string& k, const std::string& m,
                            const std::string&) {
  if (k == "no_opinion") return "no output: the host goes on as without the hook";
  if (k == "denied") return "denied; the model is told: " + clip_line(m, 120);
  if (k == "blocked") return "blocked; the model is told: " + clip_line(m, 120);
  if (k == "allowed") return "allowed by the hook";
  if (k == "failed")
    return "the hook run Failed (the reply is not one Codex accepts): the call goes on" +
           (m.empty() ? std::string() : ": " + clip_line(m, 80));
  if (k == "stopped") return "the turn stops" + (m.empty() ? "" : ": " + clip_line(m, 80));
  if (k == "json_read") return "JSON reply read: " + clip_line(m, 80);
  if (k == "text_ignored") return "plain text on exit 0: ignored";
  if (k == "timed_out") return "cancelled at its timeout (a failed run): the call goes on";
  return k + (m.empty() ? "" : ": " + m);
}

bool same_failsafe(const std::string& got, const std::string& want) { return got == want; }

}  // namespace

extern const FamilyModel kModel{shape, allow_reply, describe_effect, same_failsafe};

}  // namespace pinta::hosts::codex
