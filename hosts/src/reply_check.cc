// The reply check (see reply_check.h). Each rule names its evidence:
//   GEM  shared/reference/gemini-cli-0.61-hooks.md (Gemini CLI 0.61.0)
//   AGY  shared/reference/antigravity-hooks.md (agy 1.x / 2.0)
//   DEEL seed 004, deel-local-cli 1.17 package/src/safety/hooks.js, by line
//   SPEC seed 000, the prototype's SPEC
#include "pinta/hosts/reply_check.h"

#include "pinta/hosts/events.h"

#include <algorithm>

namespace pinta::hosts {
namespace {

using nlohmann::json;

// Other spellings of events (deel-local-cli's Korean names, DEEL l.213-218), from the registry.
std::string_view canonical(Family f, std::string_view e) { return canonical_event_name(f, e); }

// Gemini: a reply with fields must carry a decision this event understands. GEM §6: deny is
// meaningful on BeforeTool, AfterTool and BeforeAgent, "ask" on BeforeTool only; SPEC §7.3: a
// deny is sent as decision + reason + systemMessage.
std::string gemini_shape(std::string_view event, const json& j, ReplyKind* kind) {
  if (j.empty()) return "";  // GEM §4.5, §5: `{}` is "no decision"
  if (!known_event(Family::kGemini, event)) return "unknown Gemini event must get {}";
  if (!j.contains("decision") || !j["decision"].is_string())
    return "Gemini reply with fields but no decision";
  const std::string d = j["decision"];
  if (d == "deny") {
    if (!deny_meaningful(Family::kGemini, event))
      return "deny on an event where it has no safe meaning";
    if (j.size() != 3 || !j.contains("reason") || !j["reason"].is_string() ||
        !j.contains("systemMessage") || !j["systemMessage"].is_string())
      return "Gemini deny must be {decision, reason, systemMessage}";
    if (j["reason"].get<std::string>().empty()) return "Gemini deny with an empty reason";
    *kind = ReplyKind::kDeny;
    return "";
  }
  if (d == "ask") {
    if (event != "BeforeTool") return "ask outside BeforeTool";
    if (j.size() != 2 || !j.contains("reason") || !j["reason"].is_string())
      return "Gemini ask must be {decision, reason}";
    *kind = ReplyKind::kAsk;
    return "";
  }
  return "Gemini decision not in {deny, ask}";
}

// Antigravity: replies are protojson-decoded and unknown fields fail the call (AGY §6.2).
// PreToolUse needs a decision (`{}` = deny, AGY §6.2) from allow|deny|ask|force_ask (AGY §7.1)
// with an optional string reason; every other event wants `{}` (AGY §6.3, §7.3: a decision on
// Pre/PostInvocation can make a build exit; §7.4: a decision on Stop re-enters the loop).
std::string antigravity_shape(std::string_view event, const json& j, ReplyKind* kind) {
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

// deel-local-cli speaks by exit status (DEEL l.444-453): 0 passes, 2 blocks at a blocking point
// with stdout as the message (l.452, l.504-511); any other status is a failure, which is
// fail-closed at blocking points (l.444-460). stdout and stderr of any run are shown to the user
// as a note (l.431-434), so an allow must print nothing.
// Written for deel-local-cli, the one exit-code host (ReplyReading::kExitStatus) registered.
void check_exit_status(Family f, std::string_view event, const HookResult& r, ReplyCheck* c) {
  c->reply = json::object();
  if (!r.exit_code) {
    c->framing = "no exit status (killed or still running)";
    return;
  }
  if (*r.exit_code == 0) {
    if (!r.out.empty()) c->framing = "stdout on an allow (shown to the user)";
    return;
  }
  const int block = descriptor(f).block_status;
  if (*r.exit_code != block) {
    c->framing = "exit " + std::to_string(*r.exit_code) + " (only 0 or " + std::to_string(block) +
                 ")";
    return;
  }
  if (r.out.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    c->framing = "exit " + std::to_string(block) + " without a reason on stdout";
    return;
  }
  if (!deny_meaningful(f, event)) {
    c->shape = "exit 2 on an event that is not a blocking point";
    return;
  }
  c->kind = ReplyKind::kDeny;
}

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
std::string claude_shape(std::string_view event, const json& j, ReplyKind* kind) {
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

void check_claude(std::string_view event, const HookResult& r, ReplyCheck* c) {
  if (!r.exit_code) {
    c->framing = "no exit status (killed or still running)";
    return;
  }
  const int block = descriptor(Family::kClaude).block_status;
  if (*r.exit_code == block) {
    c->reply = json::object();
    if (r.err.find_first_not_of(" \t\r\n") == std::string_view::npos) {
      c->framing = "exit " + std::to_string(block) + " without a message on stderr";
      return;
    }
    if (!deny_meaningful(Family::kClaude, event)) {
      c->shape = "exit " + std::to_string(block) + " on an event that cannot block";
      return;
    }
    c->kind = ReplyKind::kDeny;
    return;
  }
  if (*r.exit_code != 0) {
    c->framing = "exit " + std::to_string(*r.exit_code) + " (a non-blocking error, shown)";
    return;
  }
  if (r.out.empty()) {
    c->reply = json::object();
    return;
  }
  c->framing = check_json_line(r.out, &c->reply);
  if (!c->framing.empty()) return;
  c->shape = claude_shape(event, c->reply, &c->kind);
}

}  // namespace

std::optional<Family> family_named(std::string_view name) { return family_by_name(name); }

const char* family_name(Family f) { return descriptor(f).name.data(); }

const std::vector<std::string>& events(Family f) {
  // The lists are pinta/hosts/events.h (with their evidence), through the family registry.
  static const auto lists = [] {
    std::array<std::vector<std::string>, kFamilyCount> v;
    for (const auto& d : families())
      v[static_cast<size_t>(d.id)].assign(d.events.begin(), d.events.end());
    return v;
  }();
  return lists[static_cast<size_t>(f)];
}

bool known_event(Family f, std::string_view event) {
  const auto& e = events(f);
  return std::find(e.begin(), e.end(), canonical(f, event)) != e.end();
}

bool gate_event(Family f, std::string_view event) { return is_gate_event(f, event); }

// The family's blocking events (GEM §6; AGY §7.1; DEEL l.221: 도구전 and 말전; Claude Code: the
// hooks reference's exit-code-2 table), from the registry.
bool deny_meaningful(Family f, std::string_view event) { return blocks_on(f, event); }

json allow_reply(Family f, std::string_view event) {
  // Exit-code hosts and Claude Code: the allow is no output ({} stands for it).
  // AGY §6.2: `{}` on PreToolUse reads as a deny, so the allow is explicit (docs/contract.md FMT-4).
  if (f == Family::kAntigravity && event == "PreToolUse") return {{"decision", "allow"}};
  return json::object();
}

std::string check_json_line(std::string_view out, json* parsed) {
  if (out.empty()) return "stdout is empty";
  if (out.back() != '\n') return "stdout does not end with '\\n'";
  std::string_view body = out.substr(0, out.size() - 1);
  if (body.find('\n') != std::string_view::npos) return "stdout has more than one line";
  if (body.size() >= 3 && body.substr(0, 3) == "\xEF\xBB\xBF") return "stdout starts with a BOM";
  if (body.empty() || body.front() != '{' || body.back() != '}')
    return "stdout line is not exactly one JSON object (bytes around it)";
  json j = json::parse(body, nullptr, false);
  if (j.is_discarded()) return "stdout line is not valid JSON";
  if (!j.is_object()) return "stdout JSON is not an object";
  if (parsed != nullptr) *parsed = std::move(j);
  return "";
}

ReplyCheck check_reply(Family f, std::string_view event, const HookResult& r) {
  ReplyCheck c;
  if (descriptor(f).reads == ReplyReading::kExitStatus) {
    check_exit_status(f, event, r, &c);
    return c;
  }
  if (descriptor(f).reads == ReplyReading::kBoth) {
    check_claude(event, r, &c);
    return c;
  }
  // GEM §4.5 and AGY §6.2: the JSON-line hosts read stdout only on exit 0.
  if (!r.exit_code) {
    c.framing = "no exit status (killed or still running)";
    return c;
  }
  if (*r.exit_code != 0) {
    c.framing = "exit " + std::to_string(*r.exit_code);
    return c;
  }
  c.framing = check_json_line(r.out, &c.reply);
  if (!c.framing.empty()) return c;
  c.shape = f == Family::kGemini ? gemini_shape(event, c.reply, &c.kind)
                                 : antigravity_shape(event, c.reply, &c.kind);
  return c;
}

}  // namespace pinta::hosts
