#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "pinta/adapter/protocol.h"

namespace pinta::adapter {
namespace {

using nlohmann::json;

TEST(Protocol, AgentLabelSelectsFamily) {
  EXPECT_EQ(family_for_agent("gemini"), Family::kGemini);
  EXPECT_EQ(family_for_agent("deel"), Family::kDeel);
  EXPECT_EQ(family_for_agent("claude-code"), Family::kClaude);
  EXPECT_EQ(family_for_agent("claude"), Family::kClaude);
  for (auto label : {"antigravity", "antigravity1", "antigravity2", "agy"}) {
    EXPECT_EQ(family_for_agent(label), Family::kAntigravity) << label;
  }
  // No silent default family: an unregistered label (exact, case-sensitive) has none.
  for (auto label : {"", "Gemini", "Deel", "Claude", "claude_code", "antigravity3", "x"}) {
    EXPECT_EQ(family_for_agent(label), std::nullopt) << label;
  }
}

TEST(Protocol, EveryRegisteredLabelSelectsItsFamily) {
  for (const auto& d : hosts::families())
    for (auto label : d.agent_labels)
      if (!label.empty()) {
        EXPECT_EQ(family_for_agent(label), d.id) << label;
      }
}

TEST(Protocol, UnknownAgentReplyIsSafeOnPreToolUse) {
  // AGY§6.2: {} would be a deny on Antigravity's PreToolUse; Gemini reads the allow as allow.
  EXPECT_EQ(unknown_agent_reply("PreToolUse"), R"({"decision":"allow"})");
  EXPECT_EQ(unknown_agent_reply("BeforeTool"), "{}");
  EXPECT_EQ(unknown_agent_reply(""), "{}");
}

TEST(Protocol, GeminiAllowIsEmptyObjectOnAllElevenEvents) {
  for (auto ev : {"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "SessionStart", "SessionEnd",
                  "BeforeModel", "AfterModel", "BeforeToolSelection", "PreCompress", "Notification"}) {
    ASSERT_NE(find_reply_row(Family::kGemini, ev), nullptr) << ev;
    EXPECT_EQ(fail_safe_reply(Family::kGemini, ev), "{}") << ev;
  }
}

TEST(Protocol, AntigravityPreToolUseAllowCarriesDecision) {
  // {} on agy PreToolUse is read as deny (antigravity-hooks.md §6.2).
  EXPECT_EQ(fail_safe_reply(Family::kAntigravity, "PreToolUse"), R"({"decision":"allow"})");
  for (auto ev : {"PostToolUse", "PreInvocation", "PostInvocation", "Stop", "SessionStart"}) {
    EXPECT_EQ(fail_safe_reply(Family::kAntigravity, ev), "{}") << ev;
  }
}

TEST(Protocol, UnknownEventsGetEmptyObject) {
  EXPECT_EQ(find_reply_row(Family::kGemini, "PreToolUse"), nullptr);
  EXPECT_EQ(fail_safe_reply(Family::kGemini, "Nope"), "{}");
  EXPECT_EQ(fail_safe_reply(Family::kAntigravity, "BeforeTool"), "{}");
  EXPECT_EQ(fail_safe_reply(Family::kAntigravity, "pretooluse"), "{}");  // case-sensitive
}

TEST(Protocol, GeminiDenyHasReasonAndSystemMessage) {
  json j = json::parse(deny_reply(Family::kGemini, "BeforeTool", "no \"rm\" please"));
  EXPECT_EQ(j, (json{{"decision", "deny"}, {"reason", "no \"rm\" please"}, {"systemMessage", "no \"rm\" please"}}));
}

TEST(Protocol, AntigravityDenyHasOnlyDecisionAndReason) {
  json j = json::parse(deny_reply(Family::kAntigravity, "PreToolUse", "blocked"));
  EXPECT_EQ(j, (json{{"decision", "deny"}, {"reason", "blocked"}}));
}

TEST(Protocol, DenyNeverPutsDecisionOnAntigravityLifecycleEvents) {
  for (auto ev : {"PostToolUse", "PreInvocation", "PostInvocation", "Stop", "SessionStart", "Unknown"}) {
    EXPECT_EQ(deny_reply(Family::kAntigravity, ev, "x"), "{}") << ev;
    EXPECT_EQ(ask_reply(Family::kAntigravity, ev, "x"), "{}") << ev;
  }
}

// A reason that trims to nothing on any host (Unicode White_Space, as Rust's trim; U+FEFF too, as
// JavaScript's trim) is replaced where the family replaces a blank reason: a host that fails a
// deny with an empty reason would run the command. Fuzz regressions:
// fuzz/guard_response/regressions/*_deny_reason_*_whitespace.
TEST(Protocol, AReasonBlankInAnyHostsTrimIsReplaced) {
  for (const auto& d : hosts::families()) {
    const std::string_view if_blank = d.forms.blank_deny_reason;
    if (if_blank.empty() || answers_by_exit_status(d.id)) continue;
    for (const char* r : {" ", " \r ", "\v\f", "\xE3\x80\x80\xC2\xA0", "\xEF\xBB\xBF",
                          "\xE2\x80\xA8\xE2\x80\x8A\xC2\x85"}) {
      const std::string out = deny_reply(d.id, d.gate_event, r);
      EXPECT_NE(out.find(std::string(if_blank)), std::string::npos) << d.name << ": " << out;
    }
    // Not blank: a visible character among the spaces, a zero-width space, invalid UTF-8.
    for (const char* r : {" x ", "\xE2\x80\x8B", "\xFF"})
      EXPECT_EQ(deny_reply(d.id, d.gate_event, r).find(std::string(if_blank)), std::string::npos)
          << d.name << ": " << r;
  }
  // An exit-code host's message is never blank either.
  for (const auto& d : hosts::families()) {
    if (!answers_by_exit_status(d.id)) continue;
    EXPECT_NE(deny_reply(d.id, d.gate_event, "\xE3\x80\x80").find("guard_deny"), std::string::npos)
        << d.name;
  }
}

TEST(Protocol, DenyReasonWithInvalidUtf8StillGivesValidJson) {
  std::string bad = "bad \xff\xfe bytes";
  json j = json::parse(deny_reply(Family::kAntigravity, "PreToolUse", bad));
  EXPECT_EQ(j["decision"], "deny");
}

TEST(Protocol, EveryRowHasEvidenceAndParsableAllow) {
  auto t = reply_table();
  size_t events = 0;
  for (const auto& d : hosts::families()) events += d.events.size();
  ASSERT_EQ(t.size, events);  // one row per event of every registered family
  for (size_t i = 0; i < t.size; ++i) {
    EXPECT_FALSE(t.rows[i].evidence.empty()) << t.rows[i].event;
    // A host that reads JSON and exit statuses both allows with silence (any output is a note).
    if (hosts::descriptor(t.rows[i].family).reads != hosts::ReplyReading::kJsonStdout) {
      EXPECT_EQ(t.rows[i].allow, "") << t.rows[i].event;  // silence: any output is a user note
      continue;
    }
    json j = json::parse(t.rows[i].allow);
    EXPECT_TRUE(j.is_object());
  }
}

}  // namespace
}  // namespace pinta::adapter

namespace pinta::adapter {
namespace {

// deel-local-cli 1.17 (seed 004 hooks.js l.213-221, l.444-457): exit-code protocol.
TEST(ProtocolDeel, AllowIsNoOutputOnEveryEventKnownOrNot) {
  for (auto ev : {"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"}) {
    ASSERT_NE(find_reply_row(Family::kDeel, ev), nullptr) << ev;
    EXPECT_EQ(fail_safe_reply(Family::kDeel, ev), "") << ev;
  }
  EXPECT_EQ(find_reply_row(Family::kDeel, "BeforeTool"), nullptr);
  EXPECT_EQ(fail_safe_reply(Family::kDeel, "BeforeTool"), "");
  EXPECT_TRUE(answers_by_exit_status(Family::kDeel));
  EXPECT_FALSE(answers_by_exit_status(Family::kGemini));
  EXPECT_FALSE(answers_by_exit_status(Family::kAntigravity));
}

TEST(ProtocolDeel, OnlyPreToolUseGatesAndDenies) {
  EXPECT_TRUE(find_reply_row(Family::kDeel, "PreToolUse")->gate);
  EXPECT_EQ(deny_exit_status(Family::kDeel), 2);
  EXPECT_EQ(deny_exit_status(Family::kGemini), 0);
  EXPECT_EQ(deny_exit_status(Family::kAntigravity), 0);
  EXPECT_EQ(deny_reply(Family::kDeel, "PreToolUse", "no rm please"), "no rm please");
  for (auto ev : {"PostToolUse", "UserPromptSubmit", "Stop", "Unknown"}) {
    EXPECT_FALSE(find_reply_row(Family::kDeel, ev) != nullptr && find_reply_row(Family::kDeel, ev)->gate);
    EXPECT_EQ(deny_reply(Family::kDeel, ev, "x"), "") << ev;
  }
  // No "ask" in an exit-code protocol: a review is an allow.
  EXPECT_EQ(ask_reply(Family::kDeel, "PreToolUse", "look"), "");
}

TEST(ProtocolDeel, DenyReasonIsPlainTextThatIsNeverBlank) {
  // Invalid UTF-8 replaced, control characters (a terminal escape) neutralised, newlines kept.
  EXPECT_EQ(deny_reply(Family::kDeel, "PreToolUse", "a\xff\x1b[2Jb\nline2\t."),
            "a\xEF\xBF\xBD [2Jb\nline2\t.");
  EXPECT_EQ(deny_reply(Family::kDeel, "PreToolUse", ""), "guard_deny");
  EXPECT_EQ(deny_reply(Family::kDeel, "PreToolUse", " \n\t"), "guard_deny");
  EXPECT_EQ(deny_reply(Family::kDeel, "PreToolUse", "\"quoted\" {json}"), "\"quoted\" {json}");
}

TEST(ProtocolDeel, KoreanEventNamesAreAliases) {
  EXPECT_EQ(canonical_event(Family::kDeel, "도구전"), "PreToolUse");
  EXPECT_EQ(canonical_event(Family::kDeel, "도구후"), "PostToolUse");
  EXPECT_EQ(canonical_event(Family::kDeel, "말전"), "UserPromptSubmit");
  EXPECT_EQ(canonical_event(Family::kDeel, "턴끝"), "Stop");
  EXPECT_EQ(canonical_event(Family::kDeel, "Stop"), "Stop");
  EXPECT_EQ(canonical_event(Family::kGemini, "도구전"), "도구전");
  EXPECT_EQ(family_prefix(Family::kDeel), "deel");
  EXPECT_EQ(family_service_name(Family::kDeel), "deel-local-cli");
}

}  // namespace
}  // namespace pinta::adapter

namespace pinta::adapter {
namespace {

// Claude Code 2.1.x (shared/reference/real-hosts.md "Claude Code 2.1.332"): allow = no output and
// exit 0; deny = hookSpecificOutput JSON and exit 0; never exit 2.
TEST(ProtocolClaude, AllowIsNoOutputOnEveryEventKnownOrNot) {
  for (const auto ev : hosts::descriptor(Family::kClaude).events) {
    ASSERT_NE(find_reply_row(Family::kClaude, ev), nullptr) << ev;
    EXPECT_EQ(fail_safe_reply(Family::kClaude, ev), "") << ev;
  }
  EXPECT_EQ(fail_safe_reply(Family::kClaude, "BeforeTool"), "");
  EXPECT_FALSE(answers_by_exit_status(Family::kClaude));
  EXPECT_EQ(deny_exit_status(Family::kClaude), 0);
  EXPECT_EQ(family_prefix(Family::kClaude), "claude_code");
  EXPECT_EQ(family_service_name(Family::kClaude), "claude-code");
}

TEST(ProtocolClaude, PreToolUseDenyAndAskAreHookSpecificOutput) {
  EXPECT_TRUE(find_reply_row(Family::kClaude, "PreToolUse")->gate);
  EXPECT_EQ(deny_reply(Family::kClaude, "PreToolUse", "no \"rm\""),
            R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",)"
            R"("permissionDecisionReason":"no \"rm\""}})");
  EXPECT_EQ(ask_reply(Family::kClaude, "PreToolUse", "look"),
            R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask",)"
            R"("permissionDecisionReason":"look"}})");
  // A blank reason would read as no reason.
  json j = json::parse(deny_reply(Family::kClaude, "PreToolUse", " "));
  EXPECT_EQ(j["hookSpecificOutput"]["permissionDecisionReason"], "guard_deny");
  json bad = json::parse(deny_reply(Family::kClaude, "PreToolUse", "a\xff"));
  EXPECT_EQ(bad["hookSpecificOutput"]["permissionDecision"], "deny");
}

TEST(ProtocolClaude, EveryOtherEventStaysSilent) {
  for (const auto ev : hosts::descriptor(Family::kClaude).events) {
    if (std::string_view(ev) == "PreToolUse") continue;
    EXPECT_FALSE(find_reply_row(Family::kClaude, ev)->gate) << ev;
    EXPECT_EQ(deny_reply(Family::kClaude, ev, "x"), "") << ev;
    EXPECT_EQ(ask_reply(Family::kClaude, ev, "x"), "") << ev;
  }
  EXPECT_EQ(deny_reply(Family::kClaude, "Unknown", "x"), "");
}

}  // namespace
}  // namespace pinta::adapter
