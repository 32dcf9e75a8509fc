// Codex CLI 0.171 in the adapter: its replies (protocol table) and the handler end to end. The
// expectations are the real CLI's (shared/reference/real-hosts.md "Codex 0.171.0 … hook rules").
#include <gtest/gtest.h>

#include "../handler_support.h"
#include "pinta/adapter/protocol.h"
#include "pinta/common/test_support.h"
#include "pinta/hosts/family.h"

namespace pinta::adapter {
namespace {

using nlohmann::json;
using hosts::Family;
using test::FakeGuard;
using test::ok;
using test::args;
using test::expect_tool_call;
using test::hook_specific_deny;

// Codex CLI 0.171 (shared/reference/real-hosts.md "Codex 0.171.0 … hook rules"): every reply struct
// rejects unknown fields and a rejected reply runs the call, so allow = no output on every event
// and the deny is exactly hookSpecificOutput {hookEventName, permissionDecision "deny", a
// non-empty permissionDecisionReason}: nothing more, nothing less. No ask.
TEST(ProtocolCodex, AllowIsNoOutputOnEveryEventKnownOrNot) {
  for (const auto ev : hosts::descriptor(Family::kCodex).events) {
    ASSERT_NE(find_reply_row(Family::kCodex, ev), nullptr) << ev;
    EXPECT_EQ(fail_safe_reply(Family::kCodex, ev), "") << ev;
  }
  EXPECT_EQ(fail_safe_reply(Family::kCodex, "BeforeTool"), "");
  EXPECT_EQ(fail_safe_reply(Family::kCodex, "Notification"), "");
  EXPECT_FALSE(answers_by_exit_status(Family::kCodex));
  EXPECT_EQ(deny_exit_status(Family::kCodex), 0);
  EXPECT_EQ(family_prefix(Family::kCodex), "codex");
  EXPECT_EQ(family_service_name(Family::kCodex), "codex-cli");
}

TEST(ProtocolCodex, PreToolUseDenyIsTheOneShapeCodexAcceptsAndThereIsNoAsk) {
  EXPECT_TRUE(find_reply_row(Family::kCodex, "PreToolUse")->gate);
  const std::string d = deny_reply(Family::kCodex, "PreToolUse", "no \"rm\"");
  EXPECT_EQ(d, R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",)"
               R"("permissionDecisionReason":"no \"rm\""}})");
  // Exactly these keys, at both levels: one more and Codex fails the run and runs the command.
  const json j = json::parse(d);
  EXPECT_EQ(j.size(), 1u);
  EXPECT_EQ(j["hookSpecificOutput"].size(), 3u);
  // Codex has no ask: REVIEW=ask prints the allow (no output).
  EXPECT_EQ(ask_reply(Family::kCodex, "PreToolUse", "look"), "");
  // A blank or empty reason is a deny Codex rejects: it becomes guard_deny.
  for (const char* blank : {"", " ", "\t\n"}) {
    const json b = json::parse(deny_reply(Family::kCodex, "PreToolUse", blank));
    EXPECT_EQ(b["hookSpecificOutput"]["permissionDecisionReason"], "guard_deny") << blank;
  }
  // Invalid UTF-8 in the reason still gives one valid JSON deny.
  const json bad = json::parse(deny_reply(Family::kCodex, "PreToolUse", "a\xff"));
  EXPECT_EQ(bad["hookSpecificOutput"]["permissionDecision"], "deny");
  EXPECT_FALSE(bad["hookSpecificOutput"]["permissionDecisionReason"].get<std::string>().empty());
}

TEST(ProtocolCodex, EveryOtherEventStaysSilent) {
  for (const auto ev : hosts::descriptor(Family::kCodex).events) {
    if (std::string_view(ev) == "PreToolUse") continue;
    EXPECT_FALSE(find_reply_row(Family::kCodex, ev)->gate) << ev;
    EXPECT_EQ(deny_reply(Family::kCodex, ev, "x"), "") << ev;
    EXPECT_EQ(ask_reply(Family::kCodex, ev, "x"), "") << ev;
  }
  EXPECT_EQ(deny_reply(Family::kCodex, "Unknown", "x"), "");
}


// Codex CLI 0.171 (real-hosts.md "Codex 0.171.0 … hook rules"): allow = exit 0 and no output on
// every event; DENY = the one hookSpecificOutput deny Codex accepts, exit 0; REVIEW is allow in
// both review modes (Codex rejects `ask` and runs the call); garbage silent; never exit 1 or 2.
TEST(Handler, CodexAllowIsSilentDenyIsTheOneShapeCodexAccepts) {
  FakeGuard g;
  Services s{&system_clock(), &g};
  const std::string pre =
      R"({"session_id":"019a7c1e","turn_id":"t1","transcript_path":"/h/.codex/sessions/r.jsonl",)"
      R"("cwd":"/w","hook_event_name":"PreToolUse","model":"gpt-5.1-codex",)"
      R"("permission_mode":"bypassPermissions","tool_name":"Bash",)"
      R"("tool_input":{"command":"rm -rf /"},"tool_use_id":"call_1"})";
  g.verdict.decision = GuardVerdict::Decision::kAllow;
  for (auto label : {"codex", "codex-cli"}) {
    Outcome o = handle(args(label, "PreToolUse"), ok(pre), s);
    EXPECT_EQ(o.reply, "") << label;
    EXPECT_EQ(o.exit_status, 0);
    expect_tool_call(o, "Bash", "rm -rf /", "019a7c1e", "/w", "call_1");
  }
  g.verdict.decision = GuardVerdict::Decision::kDeny;
  g.verdict.reason = "no rm";
  Outcome d = handle(args("codex", "PreToolUse"), ok(pre), s);
  EXPECT_EQ(json::parse(d.reply), hook_specific_deny("PreToolUse", "no rm"));
  EXPECT_EQ(d.exit_status, 0);
  g.verdict.decision = GuardVerdict::Decision::kReview;
  g.verdict.reason = "check";
  EXPECT_EQ(handle(args("codex", "PreToolUse"), ok(pre), s).reply, "");
  Outcome ask = handle(args("codex", "PreToolUse"), ok(pre), s, "ask");
  EXPECT_EQ(ask.reply, "");
  EXPECT_EQ(ask.exit_status, 0);
  const int calls = g.calls;
  g.verdict.decision = GuardVerdict::Decision::kDeny;
  for (const auto ev : hosts::descriptor(Family::kCodex).events) {
    if (std::string_view(ev) == "PreToolUse") continue;
    const std::string e(ev);
    Outcome o = handle(args("codex", e.c_str()), ok(pre), s);
    EXPECT_EQ(o.reply, "") << e;
    EXPECT_EQ(o.exit_status, 0) << e;
  }
  EXPECT_EQ(g.calls, calls);  // the guard judges the gate only
  for (const char* garbage : {"", "not json", "[1]", "\xff\xfe"}) {
    Outcome o = handle(args("codex", "PreToolUse"), ok(garbage), s);
    EXPECT_EQ(o.reply, "") << garbage;
    EXPECT_EQ(o.exit_status, 0) << garbage;
  }
  // An object cut short is a tool call that arrived in part: judged (GUARD-14), and its deny is
  // the same one shape.
  const int before = g.calls;
  Outcome cut = handle(args("codex", "PreToolUse"), ok("{\"a\":"), s);
  EXPECT_EQ(g.calls, before + 1);
  EXPECT_EQ(json::parse(cut.reply)["hookSpecificOutput"].size(), 3u);
  EXPECT_EQ(cut.exit_status, 0);
}

}  // namespace
}  // namespace pinta::adapter
