// Unit tests: JavaScript semantics (trim, JSON.stringify, Buffer.toString) and shell quoting the
// emulator reproduces (§4.3, §4.5 of gemini-cli-0.61-hooks.md). Expected values were computed with
// node 20 (`JSON.stringify`, `" ".trim()`) and shell-quote@1.8.3 `quote([v])`.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "pinta/emulator/gemini/gemini.h"

namespace g = pinta::emu::gemini;
using g::ojson;

TEST(JsTrim, RemovesUnicodeWhitespaceIncludingBomAndNbsp) {
  EXPECT_EQ(g::js_trim("\xEF\xBB\xBF {\"a\":1}\xC2\xA0\n"), "{\"a\":1}");
  EXPECT_EQ(g::js_trim("\xE2\x80\xA8x\xE3\x80\x80"), "x");
  EXPECT_EQ(g::js_trim("\x1Cx"), "\x1Cx");  // U+001C is not JS whitespace
  EXPECT_EQ(g::js_trim(" \t\r\n"), "");
}

TEST(JsStringify, KeyOrderAndNumbers) {
  auto v = g::ojson::parse(R"({"b":1,"10":2,"a":[1.0,1e21,1.5e-7,0.1,-0.0],"1":"x\u0001\u007f"})");
  EXPECT_EQ(g::js_stringify(v),
            "{\"1\":\"x\\u0001\x7f\",\"10\":2,\"b\":1,\"a\":[1,1e+21,1.5e-7,0.1,0]}");
}

TEST(NodeUtf8, ReplacesInvalidSequences) {
  EXPECT_EQ(g::node_utf8_decode("a\xFF"
                                "b"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(g::node_utf8_decode("\xE2\x82"), "\xEF\xBF\xBD");
  EXPECT_EQ(g::node_utf8_decode("\xE2\x82\xAC"), "\xE2\x82\xAC");
}

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

// JSON.parse then JSON.stringify, as node 20 prints them (differential fuzzing findings, see
// test/cases/hookrunner_fuzz_regressions.json); nullopt = JSON.parse throws.
std::optional<std::string> js_round_trip(std::string_view text) {
  auto v = g::js_parse(text);
  if (!v) return std::nullopt;
  return g::js_stringify(*v);
}

TEST(JsParse, NumbersAtTheEdgesOfDouble) {
  EXPECT_EQ(js_round_trip(R"({"a":1e400,"b":-1e400,"c":1e-400})"), R"({"a":null,"b":null,"c":0})");
  EXPECT_EQ(js_round_trip("[-0,-0.0,1.0,9007199254740993,12345678901234567890123]"),
            "[0,0,1,9007199254740992,1.2345678901234568e+22]");
  EXPECT_TRUE(g::js_parse("-0")->get<double>() == 0 &&
              std::signbit(g::js_parse("-0")->get<double>()));
  for (const char* bad : {"01", "1.", ".5", "+1", "0x10", "NaN", "Infinity", "1e", "-"})
    EXPECT_FALSE(g::js_parse(bad)) << bad;
}

TEST(JsParse, StringsKeepLoneSurrogatesAndJoinPairs) {
  EXPECT_EQ(js_round_trip(R"(["\ud800","\udc00x","\ud83d\ude00","\ude00\ud83d","\u0000"])"),
            "[\"\\ud800\",\"\\udc00x\",\"\xF0\x9F\x98\x80\",\"\\ude00\\ud83d\",\"\\u0000\"]");
  // A stored lone half next to an escaped one (a JSON string parsed twice) is one character.
  auto once = g::js_parse(R"("\"\\ud83d\ude00\"")");
  ASSERT_TRUE(once);
  EXPECT_EQ(js_round_trip(once->get<std::string>()), "\"\xF0\x9F\x98\x80\"");
  for (const char* bad : {"\"\\x41\"", "\"\\u12\"", "\"a\tb\"", "\"\\'\""})
    EXPECT_FALSE(g::js_parse(bad)) << bad;
}

TEST(JsParse, WhitespaceDuplicatesAndDepth) {
  EXPECT_FALSE(g::js_parse("\xEF\xBB\xBF{}"));  // no BOM skipping
  EXPECT_FALSE(g::js_parse("{}\xE2\x80\xA8"));  // U+2028 is not JSON whitespace
  EXPECT_FALSE(g::js_parse("{\"a\":1\xC2\xA0}"));
  EXPECT_TRUE(g::js_parse(" \t\r\n{ \"a\" :\n1 }\r\n"));
  EXPECT_EQ(js_round_trip(R"({"a":1,"b":2,"a":3,"__proto__":{"x":1}})"),
            R"({"a":3,"b":2,"__proto__":{"x":1}})");
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_TRUE(g::js_parse(deep));  // V8's parser is iterative
  EXPECT_FALSE(g::js_parse(deep.substr(1)));
  EXPECT_FALSE(g::js_parse("[1,]"));
  EXPECT_FALSE(g::js_parse("{\"a\":1,}"));
  EXPECT_FALSE(g::js_parse("{} {}"));
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
