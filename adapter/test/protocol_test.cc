#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "pinta/adapter/protocol.h"

namespace pinta::adapter {
namespace {

using nlohmann::json;

TEST(Protocol, AgentLabelSelectsFamily) {
  EXPECT_EQ(family_for_agent("gemini"), Family::kGemini);
  for (auto label : {"antigravity", "antigravity1", "antigravity2", "agy", "", "Gemini"}) {
    EXPECT_EQ(family_for_agent(label), Family::kAntigravity) << label;
  }
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

TEST(Protocol, DenyReasonWithInvalidUtf8StillGivesValidJson) {
  std::string bad = "bad \xff\xfe bytes";
  json j = json::parse(deny_reply(Family::kAntigravity, "PreToolUse", bad));
  EXPECT_EQ(j["decision"], "deny");
}

TEST(Protocol, EveryRowHasEvidenceAndParsableAllow) {
  auto t = reply_table();
  ASSERT_EQ(t.size, 17u);
  for (size_t i = 0; i < t.size; ++i) {
    EXPECT_FALSE(t.rows[i].evidence.empty()) << t.rows[i].event;
    json j = json::parse(t.rows[i].allow);
    EXPECT_TRUE(j.is_object());
  }
}

}  // namespace
}  // namespace pinta::adapter
