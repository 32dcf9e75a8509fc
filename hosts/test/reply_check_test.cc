// The reply check: framing before shape, per family, and the bytes no parser may hide.
#include "pinta/hosts/reply_check.h"

#include <gtest/gtest.h>

namespace pinta::hosts {
namespace {

ReplyCheck run(Family f, std::string_view event, std::string_view out, std::optional<int> code = 0) {
  return check_reply(f, event, HookResult{out, code});
}

// nlohmann (and JSON.parse for the space) would read these as `{}`; the hosts' contract does not.
TEST(ReplyCheck, BytesAroundTheObjectAreRejectedForEveryJsonHost) {
  for (Family f : {Family::kGemini, Family::kAntigravity}) {
    const std::string_view ev = "SessionStart";
    EXPECT_TRUE(run(f, ev, "{}\n").ok());
    EXPECT_EQ(run(f, ev, "\xEF\xBB\xBF{}\n").framing, "stdout starts with a BOM");
    EXPECT_NE(run(f, ev, " {}\n").framing, "");
    EXPECT_NE(run(f, ev, "{} \n").framing, "");
    EXPECT_NE(run(f, ev, "\t{}\n").framing, "");
    EXPECT_NE(run(f, ev, "{}\r\n").framing, "");
    EXPECT_EQ(run(f, ev, "{}").framing, "stdout does not end with '\\n'");
    EXPECT_EQ(run(f, ev, "{}\n{}\n").framing, "stdout has more than one line");
    EXPECT_EQ(run(f, ev, "").framing, "stdout is empty");
    EXPECT_EQ(run(f, ev, "[]\n").framing,
              "stdout line is not exactly one JSON object (bytes around it)");
    EXPECT_EQ(run(f, ev, "{x}\n").framing, "stdout line is not valid JSON");
    EXPECT_EQ(run(f, ev, "{}\n", 1).framing, "exit 1");
    EXPECT_EQ(run(f, ev, "{}\n", std::nullopt).framing, "no exit status (killed or still running)");
  }
}

TEST(ReplyCheck, JsonLineFramingAloneFillsTheObject) {
  nlohmann::json j;
  EXPECT_EQ(check_json_line("{\"a\":1}\n", &j), "");
  EXPECT_EQ(j, nlohmann::json({{"a", 1}}));
  EXPECT_NE(check_json_line("\xEF\xBB\xBF{\"a\":1}\n", &j), "");
}

TEST(ReplyCheck, GeminiShape) {
  auto deny = R"({"decision":"deny","reason":"r","systemMessage":"r"})" "\n";
  EXPECT_TRUE(run(Family::kGemini, "BeforeTool", deny).ok());
  EXPECT_EQ(run(Family::kGemini, "BeforeTool", deny).kind, ReplyKind::kDeny);
  EXPECT_EQ(run(Family::kGemini, "SessionStart", deny).shape,
            "deny on an event where it has no safe meaning");
  EXPECT_EQ(run(Family::kGemini, "BeforeTool", R"({"decision":"deny","reason":"r"})" "\n").shape,
            "Gemini deny must be {decision, reason, systemMessage}");
  auto ask = R"({"decision":"ask","reason":"r"})" "\n";
  EXPECT_EQ(run(Family::kGemini, "BeforeTool", ask).kind, ReplyKind::kAsk);
  EXPECT_EQ(run(Family::kGemini, "AfterTool", ask).shape, "ask outside BeforeTool");
  EXPECT_EQ(run(Family::kGemini, "NoSuchEvent", R"({"decision":"deny"})" "\n").shape,
            "unknown Gemini event must get {}");
  EXPECT_TRUE(run(Family::kGemini, "NoSuchEvent", "{}\n").ok());
}

TEST(ReplyCheck, AntigravityShape) {
  EXPECT_EQ(run(Family::kAntigravity, "PreToolUse", "{}\n").shape,
            "Antigravity PreToolUse without decision (= deny)");
  EXPECT_TRUE(run(Family::kAntigravity, "PreToolUse", R"({"decision":"allow"})" "\n").ok());
  EXPECT_EQ(run(Family::kAntigravity, "PreToolUse", R"({"decision":"force_ask"})" "\n").kind,
            ReplyKind::kAsk);
  EXPECT_EQ(run(Family::kAntigravity, "PreToolUse", R"({"decision":"allow","x":1})" "\n").shape,
            "unknown field for protojson: x");
  EXPECT_EQ(run(Family::kAntigravity, "Stop", R"({"decision":"allow"})" "\n").shape,
            "Antigravity non-PreToolUse events must get exactly {}");
}

TEST(ReplyCheck, DeelIsAnExitCodeHost) {
  EXPECT_TRUE(run(Family::kDeel, "PreToolUse", "").ok());
  EXPECT_EQ(run(Family::kDeel, "PreToolUse", "{}\n").framing,
            "stdout on an allow (shown to the user)");
  auto deny = run(Family::kDeel, "도구전", "blocked: rm -rf\n", 2);
  EXPECT_TRUE(deny.ok());
  EXPECT_EQ(deny.kind, ReplyKind::kDeny);
  EXPECT_EQ(run(Family::kDeel, "PreToolUse", " \n", 2).framing,
            "exit 2 without a reason on stdout");
  EXPECT_EQ(run(Family::kDeel, "PreToolUse", "", 1).framing, "exit 1 (only 0 or 2)");
  EXPECT_EQ(run(Family::kDeel, "Stop", "why\n", 2).shape,
            "exit 2 on an event that is not a blocking point");
}

// Claude Code 2.1.x (real-hosts.md "Claude Code 2.1.332"; code.claude.com/docs/en/hooks).
TEST(ReplyCheck, ClaudeCodeReadsBothStdoutJsonAndExitStatus) {
  auto run3 = [](std::string_view event, std::string_view out, std::optional<int> code,
                 std::string_view err) {
    return check_reply(Family::kClaude, event, HookResult{out, code, err});
  };
  EXPECT_TRUE(run3("PreToolUse", "", 0, "").ok());  // no output: no objection
  auto deny = run3("PreToolUse",
                   R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",)"
                   R"("permissionDecisionReason":"no"}})"
                   "\n",
                   0, "");
  EXPECT_TRUE(deny.ok()) << deny.why();
  EXPECT_EQ(deny.kind, ReplyKind::kDeny);
  auto ask = run3("PreToolUse",
                  R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask",)"
                  R"("permissionDecisionReason":"?"}})"
                  "\n",
                  0, "");
  EXPECT_EQ(ask.kind, ReplyKind::kAsk);
  EXPECT_EQ(run3("PreToolUse",
                 R"({"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny",)"
                 R"("permissionDecisionReason":"no"}})"
                 "\n",
                 0, "")
                .shape,
            "hookSpecificOutput.hookEventName differs from the event");
  EXPECT_EQ(run3("PreToolUse", "hello\n", 0, "").framing,
            "stdout line is not exactly one JSON object (bytes around it)");
  EXPECT_EQ(run3("PreToolUse", "{\"decision\":\"allow\"}\n", 0, "").shape,
            "top-level decision other than block");
  EXPECT_EQ(run3("Stop", "{\"continue\":false}\n", 0, "").shape,
            "continue:false stops the session");
  auto blocked = run3("PreToolUse", "", 2, "blocked by hook\n");
  EXPECT_TRUE(blocked.ok());
  EXPECT_EQ(blocked.kind, ReplyKind::kDeny);
  EXPECT_EQ(run3("PreToolUse", "", 2, "").framing, "exit 2 without a message on stderr");
  EXPECT_EQ(run3("SessionEnd", "", 2, "x").shape, "exit 2 on an event that cannot block");
  EXPECT_EQ(run3("Stop", "", 1, "x").framing, "exit 1 (a non-blocking error, shown)");
  EXPECT_FALSE(run3("PreToolUse", "", std::nullopt, "").ok());
}

TEST(ReplyCheck, FamiliesAndEvents) {
  EXPECT_EQ(family_named("agy"), Family::kAntigravity);
  EXPECT_EQ(family_named("claude"), Family::kClaude);
  EXPECT_EQ(family_named("claude-code"), Family::kClaude);
  EXPECT_EQ(family_named("Claude"), std::nullopt);
  EXPECT_EQ(family_named("nope"), std::nullopt);
  for (const auto& d : families()) {
    EXPECT_EQ(family_named(d.name), d.id);
    EXPECT_EQ(family_name(d.id), d.name);
    EXPECT_EQ(events(d.id).size(), d.events.size());
    EXPECT_TRUE(gate_event(d.id, d.gate_event)) << d.name;
  }
  EXPECT_EQ(events(Family::kGemini).size(), 11u);
  EXPECT_TRUE(known_event(Family::kDeel, "말전"));
  EXPECT_TRUE(gate_event(Family::kDeel, "도구전"));
  EXPECT_FALSE(gate_event(Family::kGemini, "PreToolUse"));
  EXPECT_EQ(allow_reply(Family::kAntigravity, "PreToolUse"),
            nlohmann::json({{"decision", "allow"}}));
}

}  // namespace
}  // namespace pinta::hosts
