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

TEST(ClaudeRun, ReplyOutsideTheSchemaIsRejectedUnread) {  // reply-invalid-decision, -types
  auto d = run("PreToolUse", {cmd("PreToolUse", R"(echo '{"decision":"deny","reason":"no","systemMessage":"m"}')")});
  ASSERT_EQ(d.runs.size(), 1u);
  EXPECT_TRUE(d.runs[0].reply_rejected);
  EXPECT_EQ(d.runs[0].exit, 0);
  EXPECT_EQ(ce::hook_outcome(d.runs[0]), "error");
  EXPECT_EQ(d.runs[0].stderr_text.rfind(
                "Hook JSON output validation failed \xE2\x80\x94 decision: Invalid option: expected one "
                "of \"approve\"|\"block\" (top-level decision is the legacy approve|block field; for "
                "\"deny\" use hookSpecificOutput.permissionDecision in a PreToolUse hook, or "
                "hookSpecificOutput.decision: {\"behavior\": \"deny\"} in a PermissionRequest hook)"
                "\n\nThe hook's output was: {\n  \"decision\": \"deny\",\n  \"reason\": \"no\",\n"
                "  \"systemMessage\": \"m\"\n}\n\nExpected schema:\n{\n",
                0),
            0u);
  EXPECT_FALSE(d.outcome.blocked);  // the tool runs
  EXPECT_FALSE(d.outcome.system_message.has_value());
  // Only the first problem, in the schema's order; the hook's own stderr follows at exit 1.
  auto t = run("PreToolUse", {cmd("PreToolUse", R"(echo '{"decision":"deny","continue":"x"}'; echo own >&2; exit 1)")});
  const std::string& e = t.runs[0].stderr_text;
  EXPECT_EQ(e.rfind("Hook JSON output validation failed \xE2\x80\x94 continue: expected boolean, received string\n", 0), 0u);
  EXPECT_EQ(e.substr(e.size() - 33), "}\n\nHook exited 1 with stderr:\nown");
  // Exit 2 is not validated: its own stderr blocks.
  auto b = run("PreToolUse", {cmd("PreToolUse", R"(echo '{"continue":"x"}'; echo own >&2; exit 2)")});
  EXPECT_FALSE(b.runs[0].reply_rejected);
  EXPECT_TRUE(b.outcome.blocked);
  // Unknown hookSpecificOutput names fail the schema; a known other event's is the wrong event.
  auto n = run("PreToolUse", {cmd("PreToolUse", R"(echo '{"hookSpecificOutput":{"hookEventName":"PreCompact"}}')"),
                              cmd("PreToolUse", R"(echo '{"hookSpecificOutput":{"hookEventName":"Stop"}}')")});
  EXPECT_TRUE(n.runs[0].reply_rejected);
  EXPECT_EQ(n.runs[1].exit, 1);
  EXPECT_FALSE(n.runs[1].reply_rejected);
  // A valid reply is untouched.
  auto ok = run("PreToolUse", {cmd("PreToolUse", R"(echo '{"decision":"approve","continue":true}')")});
  EXPECT_FALSE(ok.runs[0].reply_rejected);
  EXPECT_EQ(ce::hook_outcome(ok.runs[0]), "success");
}

TEST(ClaudeRun, SubagentHooks) {  // subagent-start, subagent-stop-exit2, -block, -ctx
  const json start = {{"session_id", "s"}, {"hook_event_name", "SubagentStart"},
                      {"agent_id", "a1"}, {"agent_type", "general-purpose"}};
  auto s = run("SubagentStart",
               {cmd("SubagentStart", R"(echo '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"one"}}')"),
                cmd("SubagentStart", "echo plain")},
               start);
  ASSERT_EQ(s.outcome.model_context.size(), 1u);  // plain stdout is not context here
  EXPECT_EQ(s.outcome.model_context[0], "SubagentStart hook additional context: one");
  json stop = start;
  stop["hook_event_name"] = "SubagentStop";
  auto x = run("SubagentStop", {cmd("SubagentStop", "echo more >&2; exit 2")}, stop);
  EXPECT_TRUE(x.outcome.blocked);
  ASSERT_EQ(x.outcome.model_context.size(), 1u);
  EXPECT_EQ(x.outcome.model_context[0], "Stop hook feedback:\n[echo more >&2; exit 2]: more\n");
  auto c = run("SubagentStop", {cmd("SubagentStop", R"(echo '{"hookSpecificOutput":{"hookEventName":"SubagentStop","additionalContext":"again"}}')")}, stop);
  EXPECT_TRUE(c.outcome.blocked);
  EXPECT_EQ(c.outcome.model_context.at(0), "SubagentStop hook additional context: again");
}
