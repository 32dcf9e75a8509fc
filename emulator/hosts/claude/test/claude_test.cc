// The Claude Code 2.1.332 runner and outcome. Expected texts are the real CLI's, measured by the
// scenarios named beside each case (test/scenarios/, run by claude_real_diff_test).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

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
  // stdin-bytes: the host's key order and a newline.
  EXPECT_EQ(r.runs[0].stdout_text,
            "/bin/sh|/tmp|1\n{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":"
            "\"Bash\",\"tool_input\":{\"command\":\"echo ran\"}}\n");
}

TEST(ClaudeRun, DecisionsAtAnyExitCode) {  // pre-deny-exit1/3/127, pre-ask-exit1, pre-exit2-deny-json
  const std::string deny = R"(echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}')";
  for (int code : {1, 3, 127}) {
    auto r = run("PreToolUse", {cmd("PreToolUse", deny + "; exit " + std::to_string(code))});
    EXPECT_TRUE(r.outcome.blocked) << code;
    EXPECT_EQ(r.outcome.tool_result.value_or(""), "PreToolUse:Bash hook error: r") << code;
    EXPECT_TRUE(r.outcome.warnings.empty()) << code;  // a verdict was given
    EXPECT_EQ(ce::hook_outcome(r.runs[0]), "error");
  }
  auto e2 = run("PreToolUse", {cmd("PreToolUse", deny + "; echo err >&2; exit 2")});
  EXPECT_EQ(e2.outcome.tool_result.value_or(""), "PreToolUse:Bash hook error: r");
  json ups = {{"hook_event_name", "UserPromptSubmit"}, {"prompt", "go"}};
  auto u = run("UserPromptSubmit", {cmd("UserPromptSubmit", R"(echo '{"decision":"block"}'; exit 1)")}, ups);
  EXPECT_TRUE(u.outcome.blocked);
  // Exit 126/127 without a JSON reply: no verdict, a warning; exit 3 alone: none.
  auto nf = run("PreToolUse", {cmd("PreToolUse", "no-such-command-pinta-xyz"), cmd("PreToolUse", "exit 3")});
  EXPECT_EQ(nf.outcome.warnings,
            std::vector<std::string>{"A hook gave no usable answer, so it didn't check this action."});
  auto to = run("PreToolUse", {cmd("PreToolUse", "sleep 5", 300)});
  EXPECT_EQ(to.outcome.warnings,
            std::vector<std::string>{"A hook didn't answer in time, so it didn't check this action."});
}

TEST(ClaudeRun, SeveralHooksLastToFinishWins) {  // pre-two-deny-last-wins(-rev), pre-two-upd-last-wins, pre-two-ctx
  auto d = [](const std::string& r) {
    return R"(echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":")" + r + R"("}}')";
  };
  auto a = run("PreToolUse", {cmd("PreToolUse", "sleep 0.4; " + d("slow")), cmd("PreToolUse", d("fast"))});
  EXPECT_EQ(a.outcome.tool_result.value_or(""), "PreToolUse:Bash hook error: slow");
  auto u = [](const std::string& c) {
    return R"(echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":")" + c + R"("}}}')";
  };
  auto b = run("PreToolUse", {cmd("PreToolUse", "sleep 0.4; " + u("slow")), cmd("PreToolUse", u("fast"))});
  ASSERT_TRUE(b.outcome.updated_input.has_value());  // no permissionDecision needed
  EXPECT_EQ((*b.outcome.updated_input)["command"], "slow");
  auto c = run("PreToolUse", {cmd("PreToolUse", R"(sleep 0.4; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"two"}}')"),
                              cmd("PreToolUse", R"(echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"one"}}')")});
  EXPECT_EQ(c.outcome.model_context, std::vector<std::string>{"PreToolUse:Bash hook additional context: one\ntwo"});
}

TEST(ClaudeRun, DeferBomDefaultReasonsAndLegacyBlock) {  // pre-defer, pre-bom-deny, *-noreason, pre-block-beats-allow
  auto f = run("PreToolUse", {cmd("PreToolUse", R"(echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}')")});
  EXPECT_EQ(f.outcome.permission_decision.value_or(""), "defer");
  EXPECT_TRUE(f.outcome.blocked);
  EXPECT_FALSE(f.outcome.continue_);
  EXPECT_FALSE(f.outcome.tool_result.has_value());
  auto bom = run("PreToolUse", {cmd("PreToolUse", R"(printf '\357\273\277{"decision":"block","reason":"b"}')")});
  EXPECT_FALSE(bom.runs[0].reply_rejected);
  EXPECT_EQ(bom.outcome.tool_result.value_or(""), "PreToolUse:Bash hook error: b");
  auto ba = run("PreToolUse", {cmd("PreToolUse", R"(echo '{"decision":"block","reason":"legacy","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}')")});
  EXPECT_EQ(ba.outcome.tool_result.value_or(""), "PreToolUse:Bash hook error: legacy");
  json post = {{"hook_event_name", "PostToolUse"}, {"tool_name", "Bash"}};
  auto p = run("PostToolUse", {cmd("PostToolUse", R"(echo '{"decision":"block"}')")}, post);
  EXPECT_EQ(p.outcome.model_context,
            std::vector<std::string>{R"(PostToolUse:Bash hook blocking error from command: "echo '{"decision":"block"}'": Blocked by hook)"});
  json ups = {{"hook_event_name", "UserPromptSubmit"}, {"prompt", "go"}};
  auto sm = run("UserPromptSubmit", {cmd("UserPromptSubmit", R"(echo '{"continue":false,"stopReason":"s","systemMessage":"m"}')")}, ups);
  EXPECT_FALSE(sm.outcome.continue_);
  EXPECT_FALSE(sm.outcome.system_message.has_value());  // ups-continue-false-sm
}

TEST(ClaudeRun, LargeContextIsPersisted) {  // post-ctx-large, post-ctx-threshold
  json post = {{"hook_event_name", "PostToolUse"}, {"tool_name", "Bash"}, {"tool_use_id", "toolu_1"},
               {"transcript_path", "/h/.claude/projects/-p/s.jsonl"}};
  auto ctx = [](const std::string& py) {
    return "python3 -c 'import json; print(json.dumps({\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":" + py + "}}))'";
  };
  auto kept = run("PostToolUse", {cmd("PostToolUse", ctx("\"x\"*10000")), cmd("PostToolUse", ctx("\"\\u00fc\"*6000"))}, post);
  for (const auto& t : kept.outcome.model_context) EXPECT_EQ(t.find("<persisted-output>"), std::string::npos);
  auto big = run("PostToolUse", {cmd("PostToolUse", ctx("\"x\"*10001"))}, post);
  ASSERT_EQ(big.outcome.model_context.size(), 1u);
  const std::string& t = big.outcome.model_context[0];
  EXPECT_EQ(t.rfind("PostToolUse:Bash hook additional context: <persisted-output>\nOutput too large (9.8KB). "
                    "Full output saved to: /h/.claude/projects/-p/s/tool-results/hook-toolu_1-PostToolUse-", 0), 0u);
  EXPECT_NE(t.find("-additionalContext.txt\n\nPreview (first 2KB):\n" + std::string(2000, 'x') + "\n...\n</persisted-output>"),
            std::string::npos);
  EXPECT_EQ(big.outcome.additional_context.at(0).size(), 10001u);  // the raw value is kept
}

TEST(ClaudeRun, HookEnvironmentAndEnvFile) {  // env-vars, ss-env-file
  const std::string home = (std::filesystem::temp_directory_path() / ("cc-env-" + std::to_string(::getpid()))).string();
  json ss = {{"session_id", "sid"}, {"transcript_path", home + "/.claude/projects/-tmp/sid.jsonl"},
             {"hook_event_name", "SessionStart"}, {"source", "startup"}};
  auto e = ce::hook_environment("/tmp", ss);
  EXPECT_EQ(e["AI_AGENT"], "claude-code_2-1-332_harness");
  EXPECT_EQ(e["CLAUDE_CODE_CHILD_SESSION"], "1");
  EXPECT_EQ(e.count("CLAUDE_EFFORT"), 0u);
  EXPECT_EQ(e["CLAUDE_ENV_FILE"], home + "/.claude/session-env/sid/sessionstart-hook-0.sh");
  auto r = ce::run_plan({cmd("SessionStart", "echo x"), cmd("SessionStart", R"(echo 'export A=1' >> "$CLAUDE_ENV_FILE"; echo "$CLAUDE_ENV_FILE")")},
                        "SessionStart", ss, "/tmp", e);
  EXPECT_EQ(r.runs[1].exit, 0);
  EXPECT_EQ(r.runs[1].stdout_text, home + "/.claude/session-env/sid/sessionstart-hook-1.sh\n");
  auto pre = ce::hook_environment("/tmp", json{{"hook_event_name", "PreToolUse"}, {"effort", {{"level", "medium"}}}});
  EXPECT_EQ(pre["CLAUDE_EFFORT"], "medium");
  EXPECT_EQ(pre.count("CLAUDE_ENV_FILE"), 0u);
  std::filesystem::remove_all(home);
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
