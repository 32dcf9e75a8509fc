// Antigravity's model (pinta/hosts/family_model.h). AGY = shared/reference/antigravity-hooks.md
// (agy 1.x / 2.0).
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "pinta/hosts/family.h"
#include "pinta/hosts/family_model.h"

namespace pinta::hosts::antigravity {
namespace {

using nlohmann::json;

// Antigravity: replies are protojson-decoded and unknown fields fail the call (AGY §6.2).
// PreToolUse needs a decision (`{}` = deny, AGY §6.2) from allow|deny|ask|force_ask (AGY §7.1)
// with an optional string reason; every other event wants `{}` (AGY §6.3, §7.3: a decision on
// Pre/PostInvocation can make a build exit; §7.4: a decision on Stop re-enters the loop).
std::string shape(std::string_view event, const json& j, ReplyKind* kind) {
  if (event != "PreToolUse") {
    if (!j.empty()) return "Antigravity non-PreToolUse events must get exactly {}";
    return "";
  }
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "decision" && it.key() != "reason")
      return "unknown field for protojson: " + it.key();
  if (!j.contains("decision") || !j["decision"].is_string())
    return "Antigravity PreToolUse without decision (= deny)";
  if (j.contains("reason") && !j["reason"].is_string()) return "reason is not a string";
  const std::string d = j["decision"];
  if (d == "allow") *kind = ReplyKind::kAllow;
  else if (d == "deny") *kind = ReplyKind::kDeny;
  else if (d == "ask" || d == "force_ask") *kind = ReplyKind::kAsk;
  else return "decision not in allow|deny|ask|force_ask";
  return "";
}

// AGY §6.2: `{}` on PreToolUse reads as a deny, so the allow is explicit (docs/contract.md FMT-4).
json allow_reply(std::string_view event) {
  if (event == "PreToolUse") return {{"decision", "allow"}};
  return json::object();
}

// AGY §6-§7: what agy does with each reply.
std::string describe_effect(std::string_view, const std::string& k, const std::string& m,
                            const std::string&) {
  if (k == "allowed") return "allowed";
  if (k == "denied") return "denied: " + m;
  if (k == "asked") return "asks the user";
  if (k == "no_opinion") return "no opinion";
  if (k == "tool_failed") return "tool call failed: " + m;
  if (k == "cli_exited") return "the CLI exits: " + m;
  if (k == "continued") return "agent continues: " + m;
  if (k == "stopped") return "agent stops";
  if (k == "terminated") return "invocation ends";
  if (k == "force_continued") return "invocation forced to continue: " + m;
  if (k == "injected") return "steps injected";
  if (k == "hook_failed") return "hook failed (logged only): " + m;
  return k + (m.empty() ? "" : ": " + m);
}

bool same_failsafe(const std::string& got, const std::string& want) { return got == want; }

}  // namespace

extern const FamilyModel kModel{shape, allow_reply, describe_effect, same_failsafe};

}  // namespace pinta::hosts::antigravity
