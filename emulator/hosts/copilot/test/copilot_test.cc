// pinta::emulator_copilot: each format's reading of one run, the fail-closed gate and the
// payload shapes (CPM = emulator/hosts/copilot/test/scenarios/<name>.json, measured on 1.0.102).
#include <gtest/gtest.h>

#include "pinta/emulator/copilot/copilot.h"

namespace ec = pinta::emu::copilot;
namespace cp = pinta::hosts::copilot;
using cp::Format;
using nlohmann::json;

namespace {
ec::HookRun exited(int code, std::string out = "") {
  ec::HookRun r;
  r.file = "/h/main.json";
  r.exit_code = code;
  r.stdout_text = std::move(out);
  return r;
}
}  // namespace

TEST(CopilotRead, NativeTopLevelDecisionOnlyExactValues) {
  auto rd = ec::read_run("preToolUse", Format::kNative,
                         exited(0, R"({"permissionDecision":"deny","permissionDecisionReason":"R"})"));
  EXPECT_EQ(rd.decision, "deny");
  EXPECT_EQ(rd.reason, "R");
  // CPM c-pre-decision-case, c-pre-unknown-decision, c-pre-gemini-deny.
  for (const char* s : {R"({"permissionDecision":"DENY"})", R"({"permissionDecision":"nope"})",
                        R"({"decision":"deny"})", R"({"decision":"block"})"})
    EXPECT_EQ(ec::read_run("preToolUse", Format::kNative, exited(0, s)).decision, "none") << s;
}

TEST(CopilotRead, NativeIgnoresHookSpecificOutputClaudeStyleReadsItFirst) {
  const std::string hso =
      R"({"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"in"}})";
  EXPECT_EQ(ec::read_run("preToolUse", Format::kNative, exited(0, hso)).decision, "none");
  EXPECT_EQ(ec::read_run("preToolUse", Format::kClaudeStyle, exited(0, hso)).decision, "deny");
  // CPM p-pre-hso-allow-top-deny: the inner allow wins over a top-level deny.
  const std::string both =
      R"({"hookSpecificOutput":{"permissionDecision":"allow"},"permissionDecision":"deny"})";
  EXPECT_EQ(ec::read_run("preToolUse", Format::kClaudeStyle, exited(0, both)).decision, "allow");
  // CPM p-pre-toplevel-deny.
  EXPECT_EQ(ec::read_run("preToolUse", Format::kClaudeStyle,
                         exited(0, R"({"permissionDecision":"deny"})")).decision, "deny");
}

TEST(CopilotRead, UnparseableStdoutIsNoOutput) {
  for (const char* s : {"plain", "{not json", R"({"permissionDecision":"deny"}{"a":1})",
                        "{\"permissionDecision\":\"deny\"}\ntrailing", "[1]", ""})
    EXPECT_EQ(ec::read_run("preToolUse", Format::kNative, exited(0, s)).decision, "none") << s;
  // Whitespace around one object is fine (CPM c-pre-1mib-output).
  EXPECT_EQ(ec::read_run("preToolUse", Format::kNative,
                         exited(0, std::string(1000, ' ') + R"({"permissionDecision":"deny"})"))
                .decision, "deny");
}

TEST(CopilotRead, FailClosedGate) {
  const std::string allow = R"({"permissionDecision":"allow"})";
  for (int code : {1, 3, 126, 127})
    EXPECT_EQ(ec::read_run("preToolUse", Format::kNative, exited(code, allow)).decision, "errored");
  ec::HookRun sig;
  sig.signal = 9;
  sig.stdout_text = allow;
  EXPECT_EQ(ec::read_run("preToolUse", Format::kNative, sig).decision, "errored");
  auto two = ec::read_run("preToolUse", Format::kNative, exited(2));
  EXPECT_EQ(two.decision, "deny");
  EXPECT_EQ(two.reason, "hook exited with code 2");
  auto two_json = ec::read_run("preToolUse", Format::kNative,
                               exited(2, R"({"permissionDecision":"deny","permissionDecisionReason":"j"})"));
  EXPECT_EQ(two_json.reason, "j");
  ec::HookRun late;
  late.timed_out = true;
  EXPECT_EQ(ec::read_run("preToolUse", Format::kNative, late).decision, "timeout");
  // Elsewhere a non-zero exit denies nothing.
  EXPECT_EQ(ec::read_run("postToolUse", Format::kNative, exited(1)).decision, "none");
}

TEST(CopilotPayload, EachFormatsShapeInTheClisKeyOrder) {
  const json native = json::parse(
      R"({"sessionId":"s","timestamp":1796659347664,"cwd":"/p","toolName":"bash","toolArgs":{"command":"ls"}})");
  EXPECT_EQ(ec::stdin_for("preToolUse", native, Format::kNative, Format::kClaudeStyle),
            R"({"hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-12-07T16:02:27.664Z","cwd":"/p","tool_name":"Bash","tool_input":{"command":"ls"}})");
  EXPECT_EQ(ec::stdin_for("preToolUse", native, Format::kNative, Format::kNative),
            R"({"sessionId":"s","timestamp":1796659347664,"cwd":"/p","toolName":"bash","toolArgs":{"command":"ls"}})");
  const json claude = json::parse(
      ec::stdin_for("preToolUse", native, Format::kNative, Format::kClaudeStyle));
  EXPECT_EQ(ec::stdin_for("preToolUse", claude, Format::kClaudeStyle, Format::kNative),
            ec::stdin_for("preToolUse", native, Format::kNative, Format::kNative));
}

TEST(CopilotEnv, ProviderVariablesRemovedHostVariablesAdded) {
  cp::HookHandler h;
  h.file = "/home/u/.copilot/hooks/main.json";
  h.env = {{"X", "1"}};
  auto env = ec::hook_environment(h, "/p", {{"COPILOT_PROVIDER_API_KEY", "k"},
                                            {"COPILOT_OFFLINE", "true"}, {"COPILOT_MODEL", "m"}});
  EXPECT_FALSE(env.count("COPILOT_PROVIDER_API_KEY"));
  EXPECT_FALSE(env.count("COPILOT_OFFLINE"));
  EXPECT_EQ(env["COPILOT_MODEL"], "m");
  EXPECT_EQ(env["COPILOT_CLI"], "1");
  EXPECT_EQ(env["COPILOT_HOOK_DIR"], "/home/u/.copilot/hooks");
  EXPECT_EQ(env["COPILOT_PROJECT_DIR"], "/p");
  EXPECT_EQ(env["CLAUDE_PROJECT_DIR"], "/p");
  EXPECT_EQ(env["X"], "1");
}
