// File: fuzz/common/host_table.h
// An independent statement of what each host accepts on the adapter's stdout, written from the
// host references and NOT from adapter/src/protocol.cc, so fuzzers, properties and the campaign
// judge the adapter against the hosts rather than against itself.
//   Gemini CLI 0.61.0: 11 events (shared/reference/gemini-cli-0.61-hooks.md §2.1); stdout is
//   parsed as one JSON object, `{}` = no decision (§4.5, §5); a deny is meaningful on BeforeTool,
//   AfterTool and BeforeAgent (§6) and is sent as decision+reason+systemMessage (seed SPEC §7.3);
//   "ask" only on BeforeTool (§6 BeforeTool).
//   Antigravity / agy: replies are protojson-decoded, unknown fields fail the call
//   (shared/reference/antigravity-hooks.md §6.2). PreToolUse needs a `decision` (`{}` = deny,
//   §6.2) from allow|deny|ask|force_ask (§7.1) with an optional string `reason`; every other event
//   wants `{}` (§6.3, §7.3: a `decision` on Pre/PostInvocation can make a build exit; §7.4:
//   `decision` on Stop re-enters the loop).
#pragma once

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace pinta::fuzz {

enum class Host { kGemini, kAntigravity };
inline Host host_for_agent(std::string_view agent) {
  return agent == "gemini" ? Host::kGemini : Host::kAntigravity;
}

inline constexpr std::array<std::string_view, 11> kGeminiEvents = {
    "BeforeTool",  "AfterTool",    "BeforeAgent",        "Notification",
    "AfterAgent",  "SessionStart", "SessionEnd",         "PreCompress",
    "BeforeModel", "AfterModel",   "BeforeToolSelection"};
inline constexpr std::array<std::string_view, 6> kAgyEvents = {
    "PreToolUse", "PostToolUse", "PreInvocation", "PostInvocation", "Stop", "SessionStart"};

template <size_t N>
bool contains(const std::array<std::string_view, N>& a, std::string_view s) {
  return std::find(a.begin(), a.end(), s) != a.end();
}

inline bool known_event(Host h, std::string_view event) {
  return h == Host::kGemini ? contains(kGeminiEvents, event) : contains(kAgyEvents, event);
}
// The events where the guard decides (the tool gate of each host).
inline bool gate_event(Host h, std::string_view event) {
  return h == Host::kGemini ? event == "BeforeTool" : event == "PreToolUse";
}
inline bool deny_meaningful(Host h, std::string_view event) {
  if (h == Host::kGemini)
    return event == "BeforeTool" || event == "AfterTool" || event == "BeforeAgent";
  return event == "PreToolUse";
}

enum class ReplyKind { kAllow, kDeny, kAsk };

// The "no objection" reply the host needs on this event (also what every failure must print).
inline nlohmann::json allow_reply(Host h, std::string_view event) {
  if (h == Host::kAntigravity && event == "PreToolUse") return {{"decision", "allow"}};
  return nlohmann::json::object();
}

// Checks one stdout line against the table; returns "" when acceptable, else why not.
// `kind` receives what the reply means to the host.
inline std::string judge_reply(Host h, std::string_view event, std::string_view line,
                               ReplyKind* kind = nullptr) {
  if (line.empty()) return "empty reply";
  if (line.find('\n') != std::string_view::npos) return "reply spans more than one line";
  nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded()) return "reply is not JSON";
  if (!j.is_object()) return "reply is not a JSON object";
  ReplyKind k = ReplyKind::kAllow;
  if (j == allow_reply(h, event)) {
    k = ReplyKind::kAllow;
  } else if (h == Host::kGemini) {
    if (!known_event(h, event)) return "unknown Gemini event must get {}";
    if (!j.contains("decision") || !j["decision"].is_string())
      return "Gemini reply with fields but no decision";
    const std::string d = j["decision"];
    if (d == "deny") {
      if (!deny_meaningful(h, event)) return "deny on an event where it has no safe meaning";
      if (j.size() != 3 || !j.contains("reason") || !j["reason"].is_string() ||
          !j.contains("systemMessage") || !j["systemMessage"].is_string())
        return "Gemini deny must be {decision, reason, systemMessage}";
      if (j["reason"].get<std::string>().empty()) return "Gemini deny with an empty reason";
      k = ReplyKind::kDeny;
    } else if (d == "ask") {
      if (event != "BeforeTool") return "ask outside BeforeTool";
      if (j.size() != 2 || !j.contains("reason") || !j["reason"].is_string())
        return "Gemini ask must be {decision, reason}";
      k = ReplyKind::kAsk;
    } else {
      return "Gemini decision not in {deny, ask}";
    }
  } else {
    if (event != "PreToolUse") return "Antigravity non-PreToolUse events must get exactly {}";
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it.key() != "decision" && it.key() != "reason")
        return "unknown field for protojson: " + it.key();
    }
    if (!j.contains("decision") || !j["decision"].is_string())
      return "Antigravity PreToolUse without decision (= deny)";
    if (j.contains("reason") && !j["reason"].is_string()) return "reason is not a string";
    const std::string d = j["decision"];
    if (d == "allow")
      k = ReplyKind::kAllow;
    else if (d == "deny")
      k = ReplyKind::kDeny;
    else if (d == "ask" || d == "force_ask")
      k = ReplyKind::kAsk;
    else
      return "decision not in allow|deny|ask|force_ask";
  }
  if (kind) *kind = k;
  return "";
}

}  // namespace pinta::fuzz
