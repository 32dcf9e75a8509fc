// The Codex CLI 0.171 runner and outcome: every rule of the strict reply parser, the event
// outcomes, concurrency and timeouts, with real hook processes in temp directories. Expected
// texts are CX measurements (PreToolUse block message) or CXSRC's (run.cc cites each).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "pinta/common/process.h"
#include "pinta/common/test_support.h"
#include "pinta/emulator/codex/codex.h"
#include "pinta/hosts/codex/replies.h"
#include "pinta/hosts/family_model.h"

namespace cx = pinta::hosts::codex;
namespace ce = pinta::emu::codex;
using json = nlohmann::json;

namespace {

cx::HookHandler handler(const std::string& event, const std::string& c, long timeout_ms = 10000) {
  cx::HookHandler h;
  h.event = event;
  h.command = c;
  h.source = "user-json";
  h.timeout_ms = timeout_ms;
  return h;
}

json payload(const std::string& event, const std::string& tool = "Bash",
             const json& input = json{{"command", "echo ran"}}) {
  json p = {{"session_id", "s1"}, {"turn_id", "t1"},   {"transcript_path", nullptr},
            {"cwd", "/tmp"},      {"hook_event_name", event}, {"model", "m"},
            {"permission_mode", "bypassPermissions"}};
  if (event == "PreToolUse" || event == "PermissionRequest" || event == "PostToolUse") {
    p["tool_name"] = tool;
    p["tool_input"] = input;
  }
  if (event == "PreToolUse" || event == "PostToolUse") p["tool_use_id"] = "call_1";
  return p;
}

ce::PlanRun run(const std::string& event, const std::vector<cx::HookHandler>& plan,
                const json& p, const std::string& cwd = "/tmp") {
  return ce::run_plan(plan, event, p, cwd, pinta::proc::current_environment());
}
ce::PlanRun run(const std::string& event, const std::vector<cx::HookHandler>& plan) {
  return run(event, plan, payload(event));
}
// One hook printing `reply` on stdout with exit 0.
ce::PlanRun reply(const std::string& event, const std::string& text) {
  return run(event, {handler(event, "printf '%s' '" + text + "'")});
}

// The PreToolUse replies CX measured or CXSRC rejects: each is a Failed run, the command runs.
const std::vector<std::pair<std::string, std::string>> kRejectedPre = {
    {R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"},"extra":1})",
     "hook returned invalid pre-tool-use JSON output"},
    {R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r","why":"x"}})",
     "hook returned invalid pre-tool-use JSON output"},
    {R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}})",
     "PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason"},
    {R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"  "}})",
     "PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason"},
    {R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"r"}})",
     "PreToolUse hook returned unsupported permissionDecision:ask"},
    {R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}})",
     "PreToolUse hook returned unsupported permissionDecision:allow"},
    {R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r","updatedInput":{}}})",
     "PreToolUse hook returned updatedInput without permissionDecision:allow"},
    {R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecisionReason":"r"}})",
     "PreToolUse hook returned permissionDecisionReason without permissionDecision"},
    {R"({"continue":false,"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}})",
     "PreToolUse hook returned unsupported continue:false"},
    {R"({"stopReason":"s","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}})",
     "PreToolUse hook returned unsupported stopReason"},
    {R"({"suppressOutput":true,"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}})",
     "PreToolUse hook returned unsupported suppressOutput"},
    {R"({"decision":"approve"})", "PreToolUse hook returned unsupported decision:approve"},
    {R"({"decision":"block"})", "PreToolUse hook returned decision:block without a non-empty reason"},
    {R"({"reason":"r"})", "PreToolUse hook returned reason without decision"},
    {R"({"decision":"deny","reason":"r"})", "hook returned invalid pre-tool-use JSON output"},
    {R"({"permissionDecision":"deny","permissionDecisionReason":"r"})",
     "hook returned invalid pre-tool-use JSON output"},
    {R"({"hookSpecificOutput":{"hookEventName":"Nope","permissionDecision":"deny","permissionDecisionReason":"r"}})",
     "hook returned invalid pre-tool-use JSON output"},
    {R"({"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r"}})",
     "hook returned invalid pre-tool-use JSON output"},
    {R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"DENY","permissionDecisionReason":"r"}})",
     "hook returned invalid pre-tool-use JSON output"},
    {R"({"continue":null})", "hook returned invalid pre-tool-use JSON output"},
    {R"({"hookSpecificOutput":)", "hook returned invalid pre-tool-use JSON output"},
    {R"([{"decision":"block","reason":"r"}])", "hook returned invalid pre-tool-use JSON output"},
};

}  // namespace

TEST(CodexRun, DenyWithReasonBlocksWithTheMeasuredText) {  // CX
  auto r = reply("PreToolUse",
                 R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"  no rm  "}})");
  EXPECT_EQ(r.readings[0].status, "blocked");
  EXPECT_FALSE(r.outcome.tool_runs);
  EXPECT_TRUE(r.outcome.blocked);
  EXPECT_EQ(r.outcome.block_reason.value_or(""), "no rm");
  EXPECT_EQ(r.outcome.model_text.value_or(""), "Command blocked by PreToolUse hook: no rm. Command: echo ran");
  EXPECT_TRUE(r.outcome.failures.empty());
}

TEST(CodexRun, Exit2BlocksWithStderrAndWithoutItFails) {  // CX
  auto r = run("PreToolUse", {handler("PreToolUse", "echo 'not this' >&2; exit 2")});
  EXPECT_FALSE(r.outcome.tool_runs);
  EXPECT_EQ(r.outcome.model_text.value_or(""),
            "Command blocked by PreToolUse hook: not this. Command: echo ran");
  auto e = run("PreToolUse", {handler("PreToolUse", "echo ignored; exit 2")});
  EXPECT_TRUE(e.outcome.tool_runs);
  EXPECT_EQ(e.readings[0].status, "failed");
  ASSERT_EQ(e.outcome.failures.size(), 1u);
  EXPECT_EQ(e.outcome.failures[0],
            "PreToolUse hook exited with code 2 but did not write a blocking reason to stderr");
}

TEST(CodexRun, EveryRejectedPreToolUseReplyIsAFailedRunAndTheCommandRuns) {  // CX, CXSRC
  for (const auto& [text, failure] : kRejectedPre) {
    SCOPED_TRACE(text);
    auto r = reply("PreToolUse", text);
    EXPECT_EQ(r.readings[0].status, "failed");
    EXPECT_TRUE(r.outcome.tool_runs);
    EXPECT_FALSE(r.outcome.blocked);
    ASSERT_EQ(r.outcome.failures.size(), 1u);
    EXPECT_EQ(r.outcome.failures[0], failure);
  }
}

TEST(CodexRun, OtherExitsAndSignalsFail) {  // CX: exit 1 ran
  auto one = run("PreToolUse", {handler("PreToolUse", "echo no >&2; exit 1")});
  EXPECT_TRUE(one.outcome.tool_runs);
  EXPECT_EQ(one.outcome.failures, std::vector<std::string>{"hook exited with code 1"});
  auto three = run("PreToolUse",
                   {handler("PreToolUse", R"(echo '{"decision":"block","reason":"r"}'; exit 3)")});
  EXPECT_TRUE(three.outcome.tool_runs);
  EXPECT_EQ(three.outcome.failures, std::vector<std::string>{"hook exited with code 3"});
  auto sig = run("PreToolUse", {handler("PreToolUse", "kill -9 $$")});
  EXPECT_TRUE(sig.outcome.tool_runs);
  EXPECT_EQ(sig.outcome.failures, std::vector<std::string>{"hook exited without a status code"});
}

TEST(CodexRun, NeutralUniversalFieldsAndPlainTextAreNotFailures) {  // CXSRC, CX
  auto n = reply("PreToolUse",
                 R"({"continue":true,"suppressOutput":false,"stopReason":null,"systemMessage":"hi"})");
  EXPECT_EQ(n.readings[0].status, "completed");
  EXPECT_EQ(n.readings[0].stdout_read, "json");
  ASSERT_EQ(n.readings[0].entries.size(), 1u);
  EXPECT_EQ(n.readings[0].entries[0].kind, "warning");
  EXPECT_TRUE(n.outcome.tool_runs);
  auto t = run("PreToolUse", {handler("PreToolUse", "echo 'checked: fine'")});
  EXPECT_EQ(t.readings[0].status, "completed");
  EXPECT_EQ(t.readings[0].stdout_read, "text");
  EXPECT_TRUE(t.outcome.failures.empty());
  EXPECT_TRUE(t.outcome.additional_contexts.empty());
  auto blank = run("PreToolUse", {handler("PreToolUse", "printf '  \\n'")});
  EXPECT_EQ(blank.readings[0].stdout_read, "none");
}

TEST(CodexRun, LegacyBlockAllowWithInputAndOtherEventNames) {  // CX, CXSRC
  auto b = reply("PreToolUse", R"({"decision":"block","reason":"legacy"})");
  EXPECT_FALSE(b.outcome.tool_runs);
  EXPECT_EQ(b.outcome.block_reason.value_or(""), "legacy");
  auto a = reply("PreToolUse",
                 R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo changed"},"additionalContext":"note"}})");
  EXPECT_TRUE(a.outcome.tool_runs);
  ASSERT_TRUE(a.outcome.updated_input.has_value());
  EXPECT_EQ((*a.outcome.updated_input)["command"], "echo changed");
  EXPECT_EQ(a.outcome.additional_contexts, std::vector<std::string>{"note"});
  // The parser does not compare hookEventName with the event: a known name passes.
  auto o = reply("PreToolUse",
                 R"({"hookSpecificOutput":{"hookEventName":"Stop","permissionDecision":"deny","permissionDecisionReason":"r"}})");
  EXPECT_FALSE(o.outcome.tool_runs);
  // A legacy decision next to a hookSpecificOutput decision is not read.
  auto both = reply("PreToolUse",
                    R"({"decision":"approve","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}})");
  EXPECT_FALSE(both.outcome.tool_runs);
}

TEST(CodexRun, ModelTextNamesTheCommandOrTheTool) {  // CXSRC core hook_runtime.rs
  const std::string deny =
      R"(printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}')";
  auto patch = run("PreToolUse", {handler("PreToolUse", deny)},
                   payload("PreToolUse", "apply_patch", {{"command", "*** Begin Patch"}}));
  EXPECT_EQ(patch.outcome.model_text.value_or(""),
            "Command blocked by PreToolUse hook: r. Command: *** Begin Patch");
  auto mcp = run("PreToolUse", {handler("PreToolUse", deny)},
                 payload("PreToolUse", "mcp__fs__write", {{"path", "a"}}));
  EXPECT_EQ(mcp.outcome.model_text.value_or(""),
            "Tool call blocked by PreToolUse hook: r. Tool: mcp__fs__write");
}

TEST(CodexRun, ConcurrentHooksFirstReasonInPlanOrderAndLastFinishedRewrite) {
  pinta::testing::TempDir d;
  ASSERT_TRUE(d.ok());
  // Each hook waits for the other's marker (at most 5 s): they only both see it when they run at
  // the same time. The first finishes last; its reason still comes first (plan order).
  const std::string a = d.sub("a"), b = d.sub("b");
  auto waits = [](const std::string& mine, const std::string& other, const std::string& then) {
    return "touch " + mine + "; for i in $(seq 100); do [ -e " + other +
           " ] && break; sleep 0.05; done; [ -e " + other + " ] || exit 1; " + then;
  };
  auto r = run("PreToolUse",
               {handler("PreToolUse", waits(a, b, "sleep 0.2; echo first >&2; exit 2")),
                handler("PreToolUse", waits(b, a, "echo second >&2; exit 2"))});
  ASSERT_EQ(r.runs.size(), 2u);
  EXPECT_EQ(r.runs[0].exit_code.value_or(-1), 2);
  EXPECT_EQ(r.runs[1].exit_code.value_or(-1), 2);
  EXPECT_EQ(r.outcome.block_reason.value_or(""), "first");

  const std::string allow = R"('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"X"}}}')";
  auto late = [&](const std::string& x, const std::string& delay) {
    std::string s = allow;
    s.replace(s.find("\"X\""), 3, "\"" + x + "\"");
    return "sleep " + delay + "; printf '%s' " + s;
  };
  auto u = run("PreToolUse", {handler("PreToolUse", late("slow", "0.4")),
                              handler("PreToolUse", late("fast", "0"))});
  ASSERT_TRUE(u.outcome.updated_input.has_value());
  EXPECT_EQ((*u.outcome.updated_input)["command"], "slow");
  // A block wins over any rewrite.
  auto mixed = run("PreToolUse", {handler("PreToolUse", late("x", "0")),
                                  handler("PreToolUse", "echo stop >&2; exit 2")});
  EXPECT_FALSE(mixed.outcome.tool_runs);
  EXPECT_FALSE(mixed.outcome.updated_input.has_value());
}

TEST(CodexRun, AsyncHandlersTakeNoPartInTheOutcome) {  // CXSRC dispatcher.rs
  auto a = handler("PreToolUse", "echo late >&2; exit 2");
  a.is_async = true;
  auto r = run("PreToolUse", {a, handler("PreToolUse", "true")});
  ASSERT_EQ(r.runs.size(), 2u);
  EXPECT_EQ(r.runs[0].exit_code.value_or(-1), 2);
  EXPECT_TRUE(r.outcome.tool_runs);
  EXPECT_FALSE(r.outcome.blocked);
}

TEST(CodexRun, TimeoutIsAFailedRunInWholeSecondsAndCoversThePipes) {  // CX, CXSRC
  auto r = run("PreToolUse",
               {handler("PreToolUse", "echo no >&2; sleep 20; exit 2", 1500)});
  EXPECT_TRUE(r.runs[0].timed_out);
  EXPECT_TRUE(r.outcome.tool_runs);
  EXPECT_EQ(r.outcome.failures, std::vector<std::string>{"hook timed out after 1s"});
  // The hook exits at once but a child keeps stdout open: Codex waits for the pipes, so the
  // run times out and its deny is never read.
  auto held = run("PreToolUse",
                  {handler("PreToolUse",
                           R"(printf '%s' '{"decision":"block","reason":"r"}'; sleep 20 & exit 0)",
                           1000)});
  EXPECT_TRUE(held.runs[0].timed_out);
  EXPECT_TRUE(held.outcome.tool_runs);
}

TEST(CodexRun, StdinCwdAndDecoding) {  // CX payload order; CXSRC command_runner.rs
  pinta::testing::TempDir d;
  ASSERT_TRUE(d.ok());
  json p = payload("PreToolUse");
  p["extra"] = "x";
  auto r = run("PreToolUse",
               {handler("PreToolUse", "cat > " + d.sub("in") + "; pwd > " + d.sub("pwd") +
                                          "; printf 'bad \\377 byte' >&2; exit 2")},
               p, d.path());
  std::ifstream in(d.sub("in")), pwd(d.sub("pwd"));
  std::string sent((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string where((std::istreambuf_iterator<char>(pwd)), std::istreambuf_iterator<char>());
  EXPECT_EQ(sent,
            R"({"session_id":"s1","turn_id":"t1","transcript_path":null,"cwd":"/tmp","hook_event_name":"PreToolUse","model":"m","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"echo ran"},"tool_use_id":"call_1","extra":"x"})");
  EXPECT_EQ(where, d.path() + "\n");
  // Invalid UTF-8 in a case's payload goes out as U+FFFD (Codex's strings are valid UTF-8).
  EXPECT_EQ(ce::stdin_json("Stop", json{{"prompt", "a\xFF" "b"}, {"session_id", "s"}}),
            "{\"session_id\":\"s\",\"prompt\":\"a\xEF\xBF\xBD" "b\"}");
  EXPECT_EQ(r.outcome.block_reason.value_or(""), "bad \xEF\xBF\xBD byte");
}

TEST(CodexRun, PermissionRequest) {  // CXSRC events/permission_request.rs
  auto deny = reply("PermissionRequest",
                    R"({"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}})");
  EXPECT_EQ(deny.outcome.permission_decision.value_or(""), "deny");
  EXPECT_EQ(deny.outcome.permission_message.value_or(""), "no");
  EXPECT_FALSE(deny.outcome.tool_runs);
  auto bare = reply("PermissionRequest",
                    R"({"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}}})");
  EXPECT_EQ(bare.outcome.permission_message.value_or(""), "PermissionRequest hook denied approval");
  auto upd = reply("PermissionRequest",
                   R"({"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{}}}})");
  EXPECT_EQ(upd.outcome.failures,
            std::vector<std::string>{"PermissionRequest hook returned unsupported updatedInput"});
  EXPECT_FALSE(upd.outcome.permission_decision.has_value());
  auto intr = reply("PermissionRequest",
                    R"({"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","interrupt":true}}})");
  EXPECT_EQ(intr.readings[0].status, "failed");
  auto extra = reply("PermissionRequest",
                     R"({"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","reason":"x"}}})");
  EXPECT_EQ(extra.outcome.failures,
            std::vector<std::string>{"hook returned invalid permission-request JSON output"});
  const std::string allow =
      R"(printf '%s' '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}')";
  auto both = run("PermissionRequest",
                  {handler("PermissionRequest", allow),
                   handler("PermissionRequest", "echo 'by exit' >&2; exit 2")});
  EXPECT_EQ(both.outcome.permission_decision.value_or(""), "deny");
  EXPECT_EQ(both.outcome.permission_message.value_or(""), "by exit");
  auto ok = run("PermissionRequest", {handler("PermissionRequest", allow)});
  EXPECT_EQ(ok.outcome.permission_decision.value_or(""), "allow");
  EXPECT_TRUE(ok.outcome.tool_runs);
}

TEST(CodexRun, PostToolUseFeedback) {  // CXSRC events/post_tool_use.rs
  auto r = run("PostToolUse", {handler("PostToolUse", R"(printf '%s' '{"decision":"block","reason":"one"}')"),
                               handler("PostToolUse", "echo two >&2; exit 2")});
  EXPECT_TRUE(r.outcome.blocked);
  EXPECT_EQ(r.outcome.model_text.value_or(""), "one\n\ntwo");
  EXPECT_EQ(r.readings[1].status, "completed");
  EXPECT_EQ(r.outcome.block_reason.value_or(""), "one");
  auto bad = reply("PostToolUse", R"({"reason":"why"})");
  EXPECT_EQ(bad.outcome.failures,
            std::vector<std::string>{"PostToolUse hook returned reason without decision"});
  auto stop = reply("PostToolUse", R"({"continue":false,"stopReason":"halt"})");
  EXPECT_TRUE(stop.outcome.stopped);
  EXPECT_EQ(stop.outcome.model_text.value_or(""), "halt");
  auto sup = reply("PostToolUse", R"({"suppressOutput":true})");
  EXPECT_EQ(sup.outcome.failures,
            std::vector<std::string>{"PostToolUse hook returned unsupported suppressOutput"});
}

TEST(CodexRun, StopAndSubagentStop) {  // CXSRC events/stop.rs
  auto r = run("Stop", {handler("Stop", R"(printf '%s' '{"decision":"block","reason":"keep going"}')"),
                        handler("Stop", "echo 'and test' >&2; exit 2")},
               payload("Stop"));
  EXPECT_TRUE(r.outcome.blocked);
  EXPECT_EQ(r.outcome.model_text.value_or(""), "keep going\n\nand test");
  auto s = run("Stop", {handler("Stop", R"(printf '%s' '{"decision":"block","reason":"more"}')"),
                        handler("Stop", R"(printf '%s' '{"continue":false,"stopReason":"done"}')")},
               payload("Stop"));
  EXPECT_TRUE(s.outcome.stopped);
  EXPECT_FALSE(s.outcome.blocked);
  EXPECT_EQ(s.outcome.stop_reason.value_or(""), "done");
  auto text = run("Stop", {handler("Stop", "echo hello")}, payload("Stop"));
  EXPECT_EQ(text.outcome.failures,
            std::vector<std::string>{"hook returned invalid stop hook JSON output"});
  auto sub = run("SubagentStop", {handler("SubagentStop", R"(printf '%s' '{"decision":"block"}')")},
                 payload("SubagentStop"));
  EXPECT_EQ(sub.outcome.failures,
            std::vector<std::string>{"SubagentStop hook returned decision:block without a non-empty reason"});
  auto e = run("SubagentStop", {handler("SubagentStop", "exit 2")}, payload("SubagentStop"));
  EXPECT_EQ(e.outcome.failures,
            std::vector<std::string>{"SubagentStop hook exited with code 2 but did not write a continuation prompt to stderr"});
}

TEST(CodexRun, PromptSessionAndCompactEvents) {  // CXSRC user_prompt_submit.rs, session_start.rs, compact.rs
  auto ups = reply("UserPromptSubmit", R"({"decision":"block","reason":"not now"})");
  EXPECT_TRUE(ups.outcome.blocked);
  EXPECT_TRUE(ups.outcome.stopped);
  EXPECT_EQ(ups.outcome.stop_reason.value_or(""), "not now");
  auto ctx = run("UserPromptSubmit", {handler("UserPromptSubmit", "echo '  remember this '")});
  EXPECT_EQ(ctx.outcome.additional_contexts, std::vector<std::string>{"remember this"});
  auto ss = run("SessionStart", {handler("SessionStart", "echo hi >&2; exit 2")});
  EXPECT_EQ(ss.outcome.failures, std::vector<std::string>{"hook exited with code 2"});
  auto sstop = reply("SessionStart", R"({"continue":false,"stopReason":"bye"})");
  EXPECT_TRUE(sstop.outcome.stopped);
  auto sub = reply("SubagentStart", R"({"continue":false,"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"c"}})");
  EXPECT_FALSE(sub.outcome.stopped);
  EXPECT_EQ(sub.outcome.additional_contexts, std::vector<std::string>{"c"});
  auto pc = reply("PreCompact", R"({"decision":"block","reason":"r"})");
  EXPECT_EQ(pc.outcome.failures,
            std::vector<std::string>{"hook returned invalid PreCompact hook JSON output"});
  auto pce = run("PostCompact", {handler("PostCompact", "echo oops >&2; exit 1")});
  EXPECT_EQ(pce.outcome.failures, std::vector<std::string>{"oops"});
  auto end = run("SessionEnd", {handler("SessionEnd", R"(printf '%s' '{"decision":"block"}')")});
  EXPECT_TRUE(end.outcome.failures.empty());
}

TEST(CodexWire, ProblemsNameTheField) {
  EXPECT_FALSE(cx::reply_wire_problem("PreToolUse", json::object()));
  EXPECT_EQ(cx::reply_wire_problem("PreToolUse", json{{"x", 1}}).value_or(""), "unknown field `x`");
  EXPECT_EQ(cx::reply_wire_problem("Stop", json{{"hookSpecificOutput", json::object()}}).value_or(""),
            "unknown field `hookSpecificOutput`");
  EXPECT_EQ(cx::reply_wire_problem("PostToolUse", json{{"hookSpecificOutput", {{"additionalContext", "c"}}}})
                .value_or(""),
            "missing field `hookSpecificOutput.hookEventName`");
  EXPECT_FALSE(cx::reply_wire_problem("PostToolUse", json{{"hookSpecificOutput", nullptr}}));
  EXPECT_TRUE(cx::reply_wire_problem("Stop", json{{"decision", "approve"}}).has_value());
  EXPECT_TRUE(cx::reply_wire_problem("PreCompact", json{{"reason", "r"}}).has_value());
}

// Where serde_json and Rust's trim differ from nlohmann's parser and an ASCII trim.
TEST(CodexWire, SerdeParsingAndRustTrim) {
  EXPECT_TRUE(cx::serde_parses("{}"));
  EXPECT_FALSE(cx::serde_parses("\xEF\xBB\xBF{}"));
  EXPECT_TRUE(cx::serde_parses(std::string(127, '[') + std::string(127, ']')));
  EXPECT_FALSE(cx::serde_parses(std::string(128, '[') + std::string(128, ']')));
  EXPECT_TRUE(cx::serde_parses("{\"a\":\"" + std::string(300, '[') + "\"}"));
  EXPECT_EQ(cx::rust_trim("\xC2\xA0 why\xE2\x80\xA8\n"), "why");
  EXPECT_EQ(cx::rust_trim("\xEF\xBB\xBFx"), "\xEF\xBB\xBFx");
  EXPECT_FALSE(cx::trimmed_reason("\xE3\x80\x80 \t").has_value());
  // A deny behind a byte order mark is no JSON to Codex: not even JSON-like, so plain text.
  auto bom = run("PreToolUse",
                 {handler("PreToolUse", R"(printf '\357\273\277{"decision":"block","reason":"r"}')")});
  EXPECT_EQ(bom.readings[0].stdout_read, "text");
  EXPECT_TRUE(bom.outcome.tool_runs);
  // Nesting past serde_json's limit: the reply fails.
  const std::string deep = "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":" +
                           std::string(130, '[') + std::string(130, ']') + "}}";
  auto d = run("PreToolUse", {handler("PreToolUse", "printf '%s' '" + deep + "'")});
  EXPECT_EQ(d.outcome.failures,
            std::vector<std::string>{"hook returned invalid pre-tool-use JSON output"});
  // A reason padded with Unicode spaces is trimmed as Rust trims it.
  auto nb = run("PreToolUse", {handler("PreToolUse", R"(printf '\302\240no\342\200\250' >&2; exit 2)")});
  EXPECT_EQ(nb.outcome.block_reason.value_or(""), "no");
}

TEST(CodexSpawn, BashWholeSecondsAndPluginRoot) {
  auto h = handler("PreToolUse", "true", 2500);
  auto rq = ce::spawn_request(h, "{}", "/tmp", {});
  ASSERT_EQ(rq.argv.size(), 3u);
  EXPECT_EQ(rq.argv[0], "/bin/bash");
  EXPECT_EQ(rq.argv[1], "-c");
  EXPECT_EQ(rq.timeout.count(), 2000);
  EXPECT_TRUE(rq.timeout_until_close);
  cx::HookHandler p = h;
  p.source = "plugin";
  p.file = "/plugins/guard/hooks/hooks.json";
  auto env = ce::hook_environment(p, {{"A", "1"}});
  EXPECT_EQ(env["PLUGIN_ROOT"], "/plugins/guard");
  EXPECT_EQ(env["CLAUDE_PLUGIN_ROOT"], "/plugins/guard");
  EXPECT_EQ(env["A"], "1");
  EXPECT_EQ(ce::hook_environment(h, {{"A", "1"}}).size(), 1u);
}

// The family's model (pinta::hosts, what the conformance suite and the replay ask) and the
// emulator read replies with one check: every reply the emulator fails, the model rejects.
TEST(CodexModel, ShapeAgreesWithTheEmulator) {
  const auto& m = pinta::hosts::model(pinta::hosts::Family::kCodex);
  for (const auto& [text, failure] : kRejectedPre) {
    SCOPED_TRACE(text);
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) continue;  // framing, not shape
    pinta::hosts::ReplyKind k = pinta::hosts::ReplyKind::kAllow;
    EXPECT_NE(m.shape("PreToolUse", j, &k), "");
  }
  pinta::hosts::ReplyKind k = pinta::hosts::ReplyKind::kAllow;
  EXPECT_EQ(m.shape("PreToolUse",
                    json::parse(R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}})"),
                    &k),
            "");
  EXPECT_EQ(k, pinta::hosts::ReplyKind::kDeny);
  k = pinta::hosts::ReplyKind::kAllow;
  EXPECT_EQ(m.shape("PreToolUse", json{{"continue", true}, {"suppressOutput", false}}, &k), "");
  EXPECT_EQ(k, pinta::hosts::ReplyKind::kAllow);
  EXPECT_NE(m.shape("SessionStart", json{{"decision", "block"}, {"reason", "r"}}, &k), "");
  EXPECT_EQ(m.shape("Stop", json{{"decision", "block"}, {"reason", "r"}}, &k), "");
  EXPECT_EQ(k, pinta::hosts::ReplyKind::kDeny);
  EXPECT_NE(m.shape("Stop", json{{"decision", "block"}}, &k), "");
  EXPECT_EQ(m.shape("SessionEnd", json{{"anything", 1}}, &k), "");
}

// The deny race of the releases up to 0.145.0 (hosts/codex/profiles: deny_race; scenario
// multi-deny-then-slow-silent: 0.145.0 ran the call in 3 of 7 runs, 0.171.0 in 0 of 5). Under such
// a profile a block beside another hook is not a decided outcome; alone, or under 0.171.0's
// rules, it is.
TEST(CodexRun, ABlockBesideAnotherHookMayBeLostUnderARacyRelease) {
  const char* src = std::getenv("PINTA_SOURCE_DIR");
  ASSERT_NE(src, nullptr);
  const std::string dir = std::string(src) + "/hosts/codex/profiles";
  const std::string deny =
      R"(printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}')";
  const std::vector<cx::HookHandler> two = {handler("PreToolUse", deny),
                                            handler("PreToolUse", "true")};
  for (const auto& [version, racy] : std::vector<std::pair<std::string, bool>>{
           {"0.124.0", true}, {"0.144.6", true}, {"0.145.0", true}, {"0.146.0", false},
           {"0.171.0", false}}) {
    SCOPED_TRACE(version);
    auto prof = cx::profile_for_version(dir, version);
    ASSERT_TRUE(prof) << prof.error().message;
    EXPECT_EQ(prof->rules.deny_race, racy);
    auto pr = ce::run_plan(two, "PreToolUse", payload("PreToolUse"), "/tmp",
                           pinta::proc::current_environment(), prof->rules);
    EXPECT_TRUE(pr.outcome.blocked);
    EXPECT_EQ(pr.outcome.deny_may_be_lost, racy);
    const json o = ce::outcome_json(pr.outcome);
    if (racy) {
      EXPECT_TRUE(o["toolRuns"].is_null()) << o.dump();
      EXPECT_EQ(o.value("denyMayBeLost", false), true) << o.dump();
    } else {
      EXPECT_EQ(o["toolRuns"], false) << o.dump();
      EXPECT_FALSE(o.contains("denyMayBeLost")) << o.dump();
    }
    // One hook alone: its block holds on every release.
    auto alone = ce::run_plan({two[0]}, "PreToolUse", payload("PreToolUse"), "/tmp",
                              pinta::proc::current_environment(), prof->rules);
    EXPECT_FALSE(alone.outcome.deny_may_be_lost);
    EXPECT_EQ(ce::outcome_json(alone.outcome)["toolRuns"], false);
    // Nothing blocked: nothing to lose, the call runs.
    auto none = ce::run_plan({two[1], two[1]}, "PreToolUse", payload("PreToolUse"), "/tmp",
                             pinta::proc::current_environment(), prof->rules);
    EXPECT_FALSE(none.outcome.deny_may_be_lost);
    EXPECT_TRUE(none.outcome.tool_runs);
  }
}
