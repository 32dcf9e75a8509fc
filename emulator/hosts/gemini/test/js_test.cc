// Unit tests: shell quoting, command expansion and output reading the emulator reproduces (§4.3,
// §4.5 of gemini-cli-0.61-hooks.md). Expected values were computed with node 20 and
// shell-quote@1.8.3 `quote([v])`. The JavaScript helpers themselves (trim, JSON.stringify /
// JSON.parse, Buffer.toString) are tested with hosts/gemini (hosts_gemini_test).
#include <gtest/gtest.h>
#include <unistd.h>
#include <fstream>
#include <filesystem>

#include <cmath>
#include <optional>

#include "pinta/emulator/gemini/gemini.h"

namespace g = pinta::emu::gemini;
using g::ojson;

TEST(ShellQuote, MatchesShellQuote183) {
  EXPECT_EQ(g::escape_shell_arg(""), "");
  EXPECT_EQ(g::escape_shell_arg("/tmp/x/ws"), "/tmp/x/ws");
  EXPECT_EQ(g::escape_shell_arg("my dir"), "'my dir'");
  EXPECT_EQ(g::escape_shell_arg("my ws's dir"), "\"my ws's dir\"");
  EXPECT_EQ(g::escape_shell_arg("a$b"), "a\\$b");
  EXPECT_EQ(g::escape_shell_arg("C:x"), "C\\:x");
  EXPECT_EQ(g::escape_shell_arg("C:#"), "C:\\#");
  EXPECT_EQ(g::escape_shell_arg("it's"), "\"it's\"");
}

TEST(ExpandCommand, BareFormsOnlyInOrder) {
  EXPECT_EQ(
      g::expand_command("a $GEMINI_PROJECT_DIR ${GEMINI_CWD} $GEMINI_CWDX $CLAUDE_PROJECT_DIR",
                        "/w", "/p", "s"),
      "a /w ${GEMINI_CWD} /wX /w");
  EXPECT_EQ(g::expand_command("$GEMINI_PLANS_DIR/$GEMINI_SESSION_ID", "/w", "/p d", "s"),
            "'/p d'/s");
}

TEST(Interpret, TextByExitCodeAndJson) {
  auto r = g::interpret_output("hello\n", "", 0);
  EXPECT_EQ(r.output_format, "text");
  EXPECT_EQ(g::js_stringify(*r.output), R"({"decision":"allow","systemMessage":"hello"})");
  r = g::interpret_output("", "oops", 1);
  EXPECT_EQ((*r.output)["systemMessage"], "Warning: oops");
  r = g::interpret_output("  ", "bad", 2);
  EXPECT_EQ((*r.output)["decision"], "deny");
  EXPECT_EQ((*r.output)["reason"], "bad");
  r = g::interpret_output("42", "", 0);
  EXPECT_FALSE(r.output.has_value());
  EXPECT_EQ(r.output_format, "");
  r = g::interpret_output(R"("{\"decision\":\"deny\"}")", "", 0);
  EXPECT_EQ(r.output_format, "json");
  EXPECT_EQ((*r.output)["decision"], "deny");
  r = g::interpret_output("{} {}", "", 0);
  EXPECT_EQ(r.output_format, "text");
}

// 0.26 hook output reading (gemini-cli-core 0.26.0 hooks/hookRunner.js:241-263, 304-326).
TEST(GeminiLegacyOutput, StdoutOnlyOnExitZeroAndExitTwoDenies) {
  auto r = g::interpret_output_legacy(R"({"decision":"deny","reason":"R"})", "", 0);
  ASSERT_TRUE(r.output);
  EXPECT_EQ((*r.output)["decision"], "deny");
  EXPECT_EQ(r.output_format, "");  // 0.26 has no outputFormat
  EXPECT_FALSE(r.plain_text);
  // Non-zero exit: stdout is not read at all, stderr becomes plain text.
  r = g::interpret_output_legacy(R"({"decision":"deny"})", "", 1);
  EXPECT_FALSE(r.output);
  r = g::interpret_output_legacy("", "boom", 4);  // 0.30+: deny; 0.26: warning
  ASSERT_TRUE(r.output);
  EXPECT_EQ(*r.output, ojson::parse(R"({"decision":"allow","systemMessage":"Warning: boom"})"));
  EXPECT_TRUE(r.plain_text);
  EXPECT_EQ((*g::interpret_output("", "boom", 4).output)["decision"], "deny");
  r = g::interpret_output_legacy("", "boom", 2);
  EXPECT_EQ(*r.output, ojson::parse(R"({"decision":"deny","reason":"boom"})"));
  r = g::interpret_output_legacy("", "killed", std::nullopt);  // signal: exitCode || 1
  EXPECT_EQ((*r.output)["systemMessage"], "Warning: killed");
  // Exit 0: plain text is a system message; stderr is ignored; any truthy JSON is the output.
  r = g::interpret_output_legacy("hi", "", 0);
  EXPECT_EQ(*r.output, ojson::parse(R"({"decision":"allow","systemMessage":"hi"})"));
  EXPECT_FALSE(g::interpret_output_legacy("", "err", 0).output);
  EXPECT_EQ(*g::interpret_output_legacy("5", "", 0).output, 5);
  EXPECT_FALSE(g::interpret_output_legacy("0", "", 0).output);
  EXPECT_FALSE(g::interpret_output_legacy("null", "", 0).output);
}

// The hook's environment in Node's order ({...process.env, GEMINI_*, CLAUDE_PROJECT_DIR,
// ...hook.env}: inherited names in place, new ones appended, array-index names first) and
// Node's text for a cwd bash cannot be started in (node v20.20, pinta/hosts/node/node_spawn.h).
TEST(GeminiHookRun, EnvironmentOrderAndCwdFailures) {
  g::HookSpec spec;
  spec.command = "tr '\\0' '\\n' < /proc/$$/environ | cut -d= -f1 | tr '\\n' ' ' >&2; exit 2";
  spec.env = {{"ZED", "z"}, {"HOME", "/nonexistent"}, {"10", "ten"}};
  ojson input = ojson::parse(R"({"session_id":"sid","cwd":"/tmp"})");
  g::RunContext ctx;
  ctx.env = std::vector<std::pair<std::string, std::string>>{
      {"PATH", "/usr/bin:/bin"}, {"HOME", "/x"}, {"GEMINI_CWD", "old"}, {"7", "dropped"},
      {"AAA", "1"}};
  ctx.plans_dir = "/tmp/plans";
  auto r = g::run_hook(spec, "BeforeTool", input, ctx);
  ASSERT_TRUE(r.output);
  EXPECT_EQ((*r.output)["reason"],
            "10 PATH HOME GEMINI_CWD AAA GEMINI_PROJECT_DIR GEMINI_PLANS_DIR GEMINI_SESSION_ID "
            "CLAUDE_PROJECT_DIR ZED");

  auto dir = std::filesystem::temp_directory_path() / ("gemini_cwd_test." + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "file") << "x";
  spec.command = "echo hi";
  auto with_cwd = [&](const std::string& cwd) {
    ojson in = ojson::object();
    in["cwd"] = cwd;
    return g::run_hook(spec, "BeforeTool", in, ctx);
  };
  EXPECT_EQ(with_cwd((dir / "missing").string()).error.value_or(""), "spawn bash ENOENT");
  EXPECT_EQ(with_cwd((dir / "file").string()).error.value_or(""), "spawn ENOTDIR");
  EXPECT_EQ(with_cwd((dir / std::string(300, 'x')).string()).error.value_or(""),
            "spawn ENAMETOOLONG");
  EXPECT_FALSE(with_cwd(dir.string()).error);
  std::filesystem::remove_all(dir);
}

// Per-hook profile rules in run_hook: the 0.26 reading, and which variables the hook gets.
TEST(GeminiHookRules, ProfileSwitchesChangeOneHookRun) {
  auto p26 = g::load_profile("gemini-0.26");
  ASSERT_TRUE(p26) << p26.error().message;
  auto p35 = g::load_profile("gemini-0.35");
  ASSERT_TRUE(p35) << p35.error().message;
  EXPECT_FALSE(g::load_profile("gemini-0.0-missing"));

  g::HookSpec spec;
  spec.command =
      "echo \"$GEMINI_PROJECT_DIR|${GEMINI_SESSION_ID-unset}|${GEMINI_CWD-unset}|${X-unset}|"
      "$GEMINI_SESSION_ID\" >&2; exit 4";
  spec.env = {{"X", "x"}};
  ojson input = ojson::parse(R"({"session_id":"sid","cwd":"/tmp"})");
  g::RunContext ctx;
  // HOME without a .bashrc: with socket stdio (as Node gives it) bash reads $HOME/.bashrc.
  ctx.env = std::vector<std::pair<std::string, std::string>>{{"PATH", "/usr/bin:/bin"},
                                                             {"HOME", "/nonexistent"}};
  ctx.plans_dir = "/tmp/plans";
  auto r61 = g::run_hook(spec, "BeforeTool", input, ctx);
  ASSERT_TRUE(r61.output);
  EXPECT_EQ(*r61.output, ojson::parse(R"({"decision":"deny","reason":"/tmp|sid|/tmp|x|sid"})"));
  ctx.rules = g::hook_rules_from_switches(g::profile_switches(*p35));
  auto r35 = g::run_hook(spec, "BeforeTool", input, ctx);
  ASSERT_TRUE(r35.output);  // no session variables, $GEMINI_SESSION_ID left to the shell
  EXPECT_EQ((*r35.output)["reason"], "/tmp|unset|unset|x|");
  ctx.rules = g::hook_rules_from_switches(g::profile_switches(*p26));
  auto r26 = g::run_hook(spec, "BeforeTool", input, ctx);
  ASSERT_TRUE(r26.output);  // no hook env, and exit 4 is a warning
  EXPECT_EQ(
      *r26.output,
      ojson::parse(R"({"decision":"allow","systemMessage":"Warning: /tmp|unset|unset|unset|"})"));
  EXPECT_EQ(g::run_result_json(r26)["outputFormat"], nullptr);

  // The reply's wording and the rewritten arguments under each profile.
  ojson deny = ojson::parse(R"({"decision":"deny","reason":"R"})");
  EXPECT_EQ(g::tool_error_text(ojson::object(), "BeforeTool", deny), "Tool execution blocked: R");
  EXPECT_EQ(g::tool_error_text(g::profile_switches(*p26), "BeforeTool", deny), "R");
  EXPECT_EQ(g::tool_error_text(ojson::object(), "AfterTool", deny), "Tool result blocked: R");
  EXPECT_EQ(g::tool_error_text(ojson::object(), "BeforeAgent", deny), "");
  ojson rewrite = ojson::parse(R"({"hookSpecificOutput":{"tool_input":{"content":"M"}}})");
  ojson args = ojson::parse(R"({"file_path":"a","content":"b"})");
  EXPECT_EQ(g::rewritten_tool_input(ojson::object(), args, rewrite),
            ojson::parse(R"({"content":"M"})"));
  EXPECT_EQ(g::rewritten_tool_input(g::profile_switches(*p35), args, rewrite),
            ojson::parse(R"({"file_path":"a","content":"M"})"));
}
