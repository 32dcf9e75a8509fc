// The Claude Code 2.1.332 runner and outcome. Expected texts are the real CLI's, measured by the
// scenarios named beside each case (test/scenarios/, run by claude_real_diff_test).
#include <gtest/gtest.h>

#include "pinta/emulator/claude/claude.h"

namespace cl = pinta::hosts::claude;
namespace ce = pinta::emu::claude;
using json = nlohmann::json;

namespace {
cl::HookCommand cmd(const std::string& event, const std::string& c, long timeout_ms = 10000) {
  cl::HookCommand h;
  h.event = event;
  h.command = c;
  h.source = "project";
  h.timeout_ms = timeout_ms;
  return h;
}
const json kPre = {{"session_id", "s"}, {"hook_event_name", "PreToolUse"}, {"tool_name", "Bash"},
                   {"tool_input", {{"command", "echo ran"}}}};
ce::PlanRun run(const std::string& event, std::vector<cl::HookCommand> plan, const json& payload = kPre) {
  return ce::run_plan(plan, event, payload, "/tmp", ce::hook_environment("/tmp", payload));
}
}  // namespace

TEST(ClaudeRun, Exit2BlocksPreToolUseWithStderr) {  // pre-exit2, pre-exit2-empty
  auto r = run("PreToolUse", {cmd("PreToolUse", "echo no >&2; exit 2")});
  ASSERT_EQ(r.runs.size(), 1u);
  EXPECT_EQ(r.runs[0].exit, 2);
  EXPECT_EQ(r.runs[0].stderr_text, "no\n");
  EXPECT_TRUE(r.outcome.blocked);
  EXPECT_EQ(r.outcome.tool_result.value_or(""), "PreToolUse:Bash hook error: [echo no >&2; exit 2]: no\n");
  auto e = run("PreToolUse", {cmd("PreToolUse", "exit 2")});
  EXPECT_EQ(e.outcome.tool_result.value_or(""), "PreToolUse:Bash hook error: [exit 2]: No stderr output");
}

TEST(ClaudeRun, JsonDecisions) {  // pre-deny-json, pre-deny-noreason, pre-ask-*, pre-allow-upd
  auto d = run("PreToolUse", {cmd("PreToolUse", R"(echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}')")});
  EXPECT_EQ(d.outcome.tool_result.value_or(""), "PreToolUse:Bash hook error: Blocked by hook");
  EXPECT_EQ(d.outcome.permission_decision.value_or(""), "deny");
  auto a = run("PreToolUse", {cmd("PreToolUse", R"(echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}')")});
  EXPECT_EQ(a.outcome.tool_result.value_or(""), "Hook PreToolUse:Bash asked for confirmation for this tool");
  auto u = run("PreToolUse", {cmd("PreToolUse", R"(echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo changed"}}}')")});
  EXPECT_FALSE(u.outcome.blocked);
  EXPECT_FALSE(u.outcome.tool_result.has_value());
  ASSERT_TRUE(u.outcome.updated_input.has_value());
  EXPECT_EQ((*u.outcome.updated_input)["command"], "echo changed");
}

TEST(ClaudeRun, ExitOneAndBadJsonDoNotBlock) {  // t1 exit 1, pre-badjson, pre-json-trailing
  auto r = run("PreToolUse", {cmd("PreToolUse", "echo x; exit 1"),
                              cmd("PreToolUse", R"(echo '{"decision":"block"} extra')")});
  EXPECT_FALSE(r.outcome.blocked);
  EXPECT_TRUE(r.outcome.model_context.empty());
}

TEST(ClaudeRun, ParallelAndTimeout) {  // parallel-dedup, timeout
  auto r = run("PreToolUse", {cmd("PreToolUse", "sleep 0.3; echo a"), cmd("PreToolUse", "echo before; sleep 5", 500)});
  ASSERT_EQ(r.runs.size(), 2u);
  EXPECT_EQ(r.runs[0].stdout_text, "a\n");
  EXPECT_TRUE(r.runs[1].timed_out);
  EXPECT_EQ(r.runs[1].exit, 1);
  EXPECT_EQ(r.runs[1].stdout_text, "before\n");
}

TEST(ClaudeRun, ContextTexts) {  // ups-ctx, ss-ctx, post-block, stop-exit2
  json ups = {{"hook_event_name", "UserPromptSubmit"}, {"prompt", "go"}};
  auto u = run("UserPromptSubmit", {cmd("UserPromptSubmit", "echo plain-ups")}, ups);
  ASSERT_EQ(u.outcome.model_context.size(), 1u);
  EXPECT_EQ(u.outcome.model_context[0], "UserPromptSubmit hook success: plain-ups");
  json ss = {{"hook_event_name", "SessionStart"}, {"source", "startup"}};
  auto s = run("SessionStart", {cmd("SessionStart", R"(echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c"}}')")}, ss);
  ASSERT_EQ(s.outcome.model_context.size(), 1u);
  EXPECT_EQ(s.outcome.model_context[0], "SessionStart hook additional context: c");
  json stop = {{"hook_event_name", "Stop"}};
  auto st = run("Stop", {cmd("Stop", "echo again >&2; exit 2")}, stop);
  EXPECT_TRUE(st.outcome.blocked);
  ASSERT_EQ(st.outcome.model_context.size(), 1u);
  EXPECT_EQ(st.outcome.model_context[0], "Stop hook feedback:\n[echo again >&2; exit 2]: again\n");
}

TEST(ClaudeRun, EnvironmentAndStdin) {  // shell scenario
  auto r = run("PreToolUse", {cmd("PreToolUse", R"(echo "$0|$CLAUDE_PROJECT_DIR|$CLAUDECODE"; cat)")});
  ASSERT_EQ(r.runs.size(), 1u);
  EXPECT_EQ(r.runs[0].stdout_text, "/bin/sh|/tmp|1\n" + kPre.dump());
}

TEST(ClaudeRun, WrongEventNameIsRejectedAsTheHostReportsIt) {  // pre-json-wrong-event
  auto r = run("PreToolUse", {cmd("PreToolUse", R"(echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny","permissionDecisionReason":"we"}}')")});
  ASSERT_EQ(r.runs.size(), 1u);
  EXPECT_EQ(r.runs[0].exit, 1);
  EXPECT_EQ(r.runs[0].stdout_text, "");
  EXPECT_EQ(r.runs[0].stderr_text,
            "Failed to run: Hook returned incorrect event name: expected 'PreToolUse' but got "
            "'PostToolUse'. Full stdout: {\n  \"hookSpecificOutput\": {\n    \"hookEventName\": "
            "\"PostToolUse\"\n  }\n}");
  EXPECT_FALSE(r.outcome.blocked);
}

TEST(ClaudeRun, StopContextSendsTheModelBackAndBadUtf8IsReplaced) {  // stop-ctx
  json stop = {{"hook_event_name", "Stop"}};
  auto s = run("Stop", {cmd("Stop", R"(echo '{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"more"}}'; printf 'a\377b' >&2)")}, stop);
  EXPECT_TRUE(s.outcome.blocked);
  ASSERT_EQ(s.outcome.model_context.size(), 1u);
  EXPECT_EQ(s.outcome.model_context[0], "Stop hook additional context: more");
  EXPECT_EQ(s.runs[0].stderr_text, "a\xEF\xBF\xBD" "b");
}
