// GitHub Copilot CLI's model (pinta/hosts/family_model.h).
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "pinta/hosts/family.h"
#include "pinta/hosts/family_model.h"

namespace pinta::hosts::copilot {
namespace {

using nlohmann::json;

// Whether `event` is spelled as the Claude-style (PascalCase) format registers it: the format
// the hook's file was written in decides what Copilot reads (CPDOC "Hook event input payloads").
bool claude_style(std::string_view event) { return canonical_event_name(Family::kCopilot, event) != event; }

bool has_string(const json& j, const char* key) { return j.contains(key) && j[key].is_string(); }

// A permissionDecision value: what it means to Copilot, or why it is not one.
std::string decision(const json& d, ReplyKind* kind) {
  if (d == "deny") {
    *kind = ReplyKind::kDeny;
  } else if (d == "ask") {
    *kind = ReplyKind::kAsk;  // CPDOC: prompts the user; in `-p` it is a deny (CP)
  } else if (d == "allow") {
    *kind = ReplyKind::kAllow;
  } else {
    return "permissionDecision is not allow, deny or ask";
  }
  return "";
}

// Copilot CLI 1.0.102 (ReplyReading::kBoth). CP = shared/reference/real-hosts.md (Copilot
// 1.0.102 hook rules, measured); CPDOC = github/docs content/copilot/reference/hooks-reference.md.
//  - Stdout is one JSON document (CPDOC: what is left after progress lines is parsed with one
//    JSON.parse; output that does not parse is no output). Unknown keys are not rejected.
//  - preToolUse (CPDOC "preToolUse decision control"): a top-level permissionDecision
//    (allow | deny | ask), permissionDecisionReason (required on a deny) and modifiedArgs. CP: the
//    top-level deny blocks under both formats; hookSpecificOutput's deny blocks under the
//    PascalCase format only (under camelCase the call ran: it is ignored).
//  - agentStop / subagentStop: {"decision":"block","reason"} forces another turn (CPDOC; the same
//    field names in both formats). permissionRequest: {"behavior":"allow"|"deny","message"}.
//  - Elsewhere the output is context or ignored: no decision.
std::string shape(std::string_view event, const json& j, ReplyKind* kind) {
  const std::string_view e = canonical_event_name(Family::kCopilot, event);
  if (e == "preToolUse") {
    if (j.contains("permissionDecision")) {
      if (std::string why = decision(j["permissionDecision"], kind); !why.empty()) return why;
      if (*kind == ReplyKind::kDeny && j.contains("permissionDecisionReason") &&
          !j["permissionDecisionReason"].is_string())
        return "permissionDecisionReason is not a string";
      return "";
    }
    if (claude_style(event) && j.contains("hookSpecificOutput") &&
        j["hookSpecificOutput"].is_object()) {
      const json& h = j["hookSpecificOutput"];
      if (h.contains("permissionDecision")) return decision(h["permissionDecision"], kind);
    }
    return "";  // no decision: the default permission flow (CPDOC)
  }
  if (e == "agentStop" || e == "subagentStop") {
    if (!j.contains("decision")) return "";
    if (j["decision"] == "block") {
      if (!has_string(j, "reason")) return "a block without a reason (the next turn's prompt)";
      *kind = ReplyKind::kDeny;
    } else if (j["decision"] != "allow") {
      return "decision is not block or allow";
    }
    return "";
  }
  if (e == "permissionRequest") {
    if (!j.contains("behavior")) return "";
    if (j["behavior"] == "deny") {
      *kind = ReplyKind::kDeny;
    } else if (j["behavior"] != "allow") {
      return "behavior is not allow or deny";
    }
    return "";
  }
  return "";
}

// CPDOC: empty output uses the default behaviour on every event ({} stands for no output).
json allow_reply(std::string_view) { return json::object(); }

// docs/hosts/copilot-1.0.md (the emulator's effects: what Copilot does and what the model reads).
std::string describe_effect(std::string_view, const std::string& k, const std::string& m,
                            const std::string& error) {
  if (k == "no_opinion") return "no output: the host goes on as without the hook";
  if (k == "denied") return "denied; the model is told: " + clip_line(m, 120);
  if (k == "blocked") return "blocked; the model is told: " + clip_line(m, 120);
  if (k == "allowed") return "allowed by the hook";
  if (k == "asked") return "the user is asked (in -p: denied)" + (m.empty() ? "" : ": " + clip_line(m, 80));
  if (k == "errored")
    return "the hook errored: preToolUse denies (fail-closed), elsewhere it is logged" +
           (error.empty() ? std::string() : ": " + clip_line(error, 80));
  if (k == "timed_out") return "killed at its timeout: the call goes on (fail-open)";
  if (k == "text_ignored") return "stdout is not JSON: no output";
  return k + (m.empty() ? "" : ": " + m);
}

bool same_failsafe(const std::string& got, const std::string& want) { return got == want; }

}  // namespace

extern const FamilyModel kModel{shape, allow_reply, describe_effect, same_failsafe};

}  // namespace pinta::hosts::copilot
