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

// DEEL l.213-218 (자리표): the Korean names deel-local-cli uses for its events.
std::string_view deel_event(std::string_view e) {
  if (e == "도구전") return "PreToolUse";
  if (e == "도구후") return "PostToolUse";
  if (e == "말전") return "UserPromptSubmit";
  if (e == "턴끝") return "Stop";
  return e;
}

std::string_view canonical(Family f, std::string_view e) {
  return f == Family::kDeel ? deel_event(e) : e;
}

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
void check_deel(std::string_view event, const HookResult& r, ReplyCheck* c) {
  c->reply = json::object();
  if (!r.exit_code) {
    c->framing = "no exit status (killed or still running)";
    return;
  }
  if (*r.exit_code == 0) {
    if (!r.out.empty()) c->framing = "stdout on an allow (shown to the user)";
    return;
  }
  if (*r.exit_code != 2) {
    c->framing = "exit " + std::to_string(*r.exit_code) + " (only 0 or 2)";
    return;
  }
  if (r.out.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    c->framing = "exit 2 without a reason on stdout";
    return;
  }
  if (!deny_meaningful(Family::kDeel, event)) {
    c->shape = "exit 2 on an event that is not a blocking point";
    return;
  }
  c->kind = ReplyKind::kDeny;
}

}  // namespace

std::optional<Family> family_named(std::string_view name) {
  if (name == "gemini") return Family::kGemini;
  if (name == "antigravity" || name == "agy") return Family::kAntigravity;
  if (name == "deel") return Family::kDeel;
  return std::nullopt;
}

const char* family_name(Family f) {
  switch (f) {
    case Family::kGemini: return "gemini";
    case Family::kAntigravity: return "antigravity";
    case Family::kDeel: return "deel";
  }
  return "?";
}

const std::vector<std::string>& events(Family f) {
  // The lists are pinta/hosts/events.h (with their evidence).
  namespace el = event_lists;
  static const std::vector<std::string> gemini(el::kGemini.begin(), el::kGemini.end());
  static const std::vector<std::string> antigravity(el::kAntigravity.begin(),
                                                    el::kAntigravity.end());
  static const std::vector<std::string> deel(el::kDeel.begin(), el::kDeel.end());
  switch (f) {
    case Family::kGemini: return gemini;
    case Family::kAntigravity: return antigravity;
    case Family::kDeel: return deel;
  }
  return gemini;
}

bool known_event(Family f, std::string_view event) {
  const auto& e = events(f);
  return std::find(e.begin(), e.end(), canonical(f, event)) != e.end();
}

bool gate_event(Family f, std::string_view event) {
  return f == Family::kGemini ? event == "BeforeTool" : canonical(f, event) == "PreToolUse";
}

bool deny_meaningful(Family f, std::string_view event) {
  event = canonical(f, event);
  switch (f) {
    case Family::kGemini:  // GEM §6
      return event == "BeforeTool" || event == "AfterTool" || event == "BeforeAgent";
    case Family::kAntigravity:  // AGY §7.1
      return event == "PreToolUse";
    case Family::kDeel:  // DEEL l.221: the blocking points are 도구전 and 말전
      return event == "PreToolUse" || event == "UserPromptSubmit";
  }
  return false;
}

json allow_reply(Family f, std::string_view event) {
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
  if (f == Family::kDeel) {
    check_deel(event, r, &c);
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
