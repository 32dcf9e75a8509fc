// One test per lint rule: a file that triggers it (at the right line) and a near-identical file
// that does not. Every file lives in a temp home; PATH is fixed, so nothing depends on the machine.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "../src/common.h"
#include "pinta/common/test_support.h"
#include "pinta/hostlint/lint.h"
#include "lint_fixture.h"

namespace hl = pinta::hostlint;

namespace {

class Rules : public pinta::hostlint::testing::LintRulesTest {
 protected:
  void SetUp() override {
    LintRulesTest::SetUp();
    if (HasFatalFailure()) return;
    write(bin_ + "/emptyhook", "#!/bin/sh\nif true; then\n  echo '{}'\nfi\n", 0755);
    opts_.env["GEMINI_CLI_TRUST_WORKSPACE"] = "true";
  }
};

constexpr const char* kGem = ".gemini/settings.json";
constexpr const char* kAgy = ".gemini/config/hooks.json";
constexpr const char* kDeel = ".deel/hooks.json";

// ---- json-syntax / file-rejected
// -----------------------------------------------------------------

TEST_F(Rules, JsonSyntax) {
  auto bad = lint(kAgy, "{\n  \"h\": {\"Stop\": [{\"command\": \"myhook\"},]}\n}\n");
  const auto* f = find(bad, "json-syntax");
  ASSERT_NE(f, nullptr) << dump(bad);
  EXPECT_EQ(f->severity, hl::Severity::kError);
  EXPECT_EQ(f->pos.line, 2);
  // Gemini settings allow comments; a trailing comma is still fatal (exit 52).
  EXPECT_EQ(count(lint(kGem, "{ // c\n \"hooks\": {}\n}"), "json-syntax"), 0);
  EXPECT_EQ(count(lint(kGem, "{\n \"hooks\": {},\n}"), "json-syntax"), 1);
  EXPECT_EQ(count(lint(kAgy, R"({"h": {"Stop": [{"command": "myhook"}]}})"), "json-syntax"), 0);
}

TEST_F(Rules, FileRejected) {
  auto bad = lint(kAgy, "{\"h\": {\n\"Stop\": [{\"command\": \"myhook\", \"timeout\": \"5\"}]}}");
  const auto* f = find(bad, "file-rejected");
  ASSERT_NE(f, nullptr) << dump(bad);
  EXPECT_EQ(f->pos.line, 2);
  EXPECT_NE(f->message.find("cannot unmarshal string"), std::string::npos) << f->message;
  EXPECT_EQ(count(lint(kAgy, R"({"h": {"Stop": [{"command": "myhook", "timeout": 5}]}})"),
                  "file-rejected"),
            0);
}

// ---- foreign-root ----------------------------------------------------------------------------

TEST_F(Rules, ForeignRootAntigravity) {
  auto bad = lint(kAgy, R"({"PreToolUse": [{"matcher": "*", "hooks": [{"command": "myhook"}]}]})");
  const auto* f = find(bad, "foreign-root");
  ASSERT_NE(f, nullptr) << dump(bad);
  EXPECT_EQ(f->severity, hl::Severity::kError);
  // The Claude wrapper loads (as a hook named "hooks") but is flagged.
  auto wrapped = lint(
      kAgy, R"({"hooks": {"PreToolUse": [{"matcher": "", "hooks": [{"command": "myhook"}]}]}})");
  ASSERT_NE(find(wrapped, "foreign-root"), nullptr) << dump(wrapped);
  EXPECT_EQ(find(wrapped, "foreign-root")->severity, hl::Severity::kWarning);
  EXPECT_EQ(
      count(
          lint(kAgy,
               R"({"mine": {"PreToolUse": [{"matcher": "", "hooks": [{"command": "myhook"}]}]}})"),
          "foreign-root"),
      0);
}

TEST_F(Rules, ForeignRootGemini) {
  auto bad = lint(kGem, "{\n\"BeforeTool\": []\n}");
  ASSERT_EQ(count(bad, "foreign-root"), 1) << dump(bad);
  EXPECT_EQ(find(bad, "foreign-root")->pos.line, 2);
  auto ext = lint(".gemini/extensions/x/hooks/hooks.json", R"({"BeforeTool": []})");
  EXPECT_GE(count(ext, "foreign-root"), 1) << dump(ext);
  EXPECT_EQ(count(lint(kGem, R"({"hooks": {"BeforeTool": []}})"), "foreign-root"), 0);
}

// ---- event-shape -----------------------------------------------------------------------------

TEST_F(Rules, EventShapeAntigravityWrappedLifecycleAndFlatTool) {
  auto wrapped =
      lint(kAgy,
           "{\"h\": {\n\"Stop\": [{\"matcher\": \"*\", \"hooks\": [{\"command\": \"myhook\"}]}]}}");
  const auto* f = find(wrapped, "event-shape");
  ASSERT_NE(f, nullptr) << dump(wrapped);
  EXPECT_EQ(f->pos.line, 2);
  EXPECT_NE(f->message.find("lifecycle"), std::string::npos);
  auto flat = lint(kAgy, R"({"h": {"PreToolUse": [{"type": "command", "command": "myhook"}]}})");
  ASSERT_NE(find(flat, "event-shape"), nullptr) << dump(flat);
  EXPECT_NE(find(flat, "event-shape")->message.find("flat"), std::string::npos);
  auto good = lint(
      kAgy,
      R"({"h": {"Stop": [{"command": "myhook"}], "PreToolUse": [{"matcher": "", "hooks": [{"command": "myhook"}]}]}})");
  EXPECT_EQ(count(good, "event-shape"), 0) << dump(good);
}

TEST_F(Rules, EventShapeGeminiFlatDefinition) {
  auto bad = lint(
      kGem, "{\"hooks\": {\"BeforeTool\": [\n{\"type\": \"command\", \"command\": \"myhook\"}]}}");
  const auto* f = find(bad, "event-shape");
  ASSERT_NE(f, nullptr) << dump(bad);
  EXPECT_EQ(f->pos.line, 2);
  EXPECT_EQ(
      count(
          lint(
              kGem,
              R"({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "myhook"}]}]}})"),
          "event-shape"),
      0);
}

// ---- unknown-event / unknown-key -------------------------------------------------------------

TEST_F(Rules, UnknownEvent) {
  auto g =
      lint(kGem,
           R"({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "myhook"}]}]}})");
  const auto* f = find(g, "unknown-event");
  ASSERT_NE(f, nullptr) << dump(g);
  EXPECT_NE(f->hint.find("BeforeTool"), std::string::npos) << f->hint;
  auto a = lint(kAgy, R"({"h": {"BeforeTool": [], "Stop": [{"command": "myhook"}]}})");
  ASSERT_NE(find(a, "unknown-event"), nullptr) << dump(a);
  EXPECT_NE(find(a, "unknown-event")->hint.find("PreToolUse"), std::string::npos);
  auto d = lint(kDeel, R"({"hooks": {"BeforeTool": [{"command": "myhook"}]}})");
  ASSERT_NE(find(d, "unknown-event"), nullptr) << dump(d);
  EXPECT_EQ(
      count(lint(kDeel, R"({"hooks": {"PreToolUse": [{"command": "myhook"}]}})"), "unknown-event"),
      0);
  EXPECT_EQ(
      count(
          lint(
              kGem,
              R"({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "myhook"}]}]}})"),
          "unknown-event"),
      0);
}

TEST_F(Rules, UnknownKey) {
  auto a = lint(kAgy, R"({"h": {"Stop": [{"command": "myhook", "cwd": "/tmp"}]}})");
  ASSERT_EQ(count(a, "unknown-key"), 1) << dump(a);
  auto g = lint(
      kGem,
      R"({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "myhook", "timeoutMs": 5000}]}]}})");
  ASSERT_EQ(count(g, "unknown-key"), 1) << dump(g);
  auto d = lint(kDeel, R"([{"event": "Stop", "command": "myhook", "shell": "zsh"}])");
  ASSERT_EQ(count(d, "unknown-key"), 1) << dump(d);
  EXPECT_EQ(
      count(lint(kAgy, R"({"h": {"Stop": [{"command": "myhook", "timeout": 5}]}})"), "unknown-key"),
      0);
}

// ---- invalid-handler / hook-disabled ---------------------------------------------------------

TEST_F(Rules, InvalidHandler) {
  auto g =
      lint(kGem, R"({"hooks": {"BeforeTool": [{"hooks": [{"command": "myhook"}]}]}})");  // no type
  ASSERT_NE(find(g, "invalid-handler"), nullptr) << dump(g);
  auto a = lint(kAgy, R"({"h": {"Stop": [{"type": "command"}]}})");
  ASSERT_NE(find(a, "invalid-handler"), nullptr) << dump(a);
  auto d = lint(kDeel, R"([{"event": "Stop", "command": "  "}])");
  ASSERT_NE(find(d, "invalid-handler"), nullptr) << dump(d);
  EXPECT_EQ(count(lint(kDeel, R"([{"event": "Stop", "command": "myhook"}])"), "invalid-handler"),
            0);
}

TEST_F(Rules, HookDisabled) {
  auto a = lint(kAgy, R"({"h": {"enabled": false, "Stop": [{"command": "myhook"}]}})");
  ASSERT_NE(find(a, "hook-disabled"), nullptr) << dump(a);
  EXPECT_EQ(count(lint(kAgy, R"({"h": {"enabled": true, "Stop": [{"command": "myhook"}]}})"),
                  "hook-disabled"),
            0);
  auto g = lint(
      kGem,
      R"({"hooksConfig": {"disabled": ["guard"]}, "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "myhook", "name": "guard"}]}]}})");
  ASSERT_NE(find(g, "hook-disabled"), nullptr) << dump(g);
  EXPECT_EQ(
      count(
          lint(
              kGem,
              R"({"hooksConfig": {"disabled": ["other"]}, "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "myhook", "name": "guard"}]}]}})"),
          "hook-disabled"),
      0);
}

// ---- timeout-unit ----------------------------------------------------------------------------

TEST_F(Rules, TimeoutUnitGeminiMilliseconds) {
  auto small = lint(kGem,
                    "{\"hooks\": {\"BeforeTool\": [{\"hooks\": [{\"type\": "
                    "\"command\",\n\"command\": \"myhook\", \"timeout\": 5}]}]}}");
  const auto* f = find(small, "timeout-unit");
  ASSERT_NE(f, nullptr) << dump(small);
  EXPECT_EQ(f->severity, hl::Severity::kWarning);
  EXPECT_EQ(f->pos.line, 2);
  EXPECT_NE(f->message.find("5 ms"), std::string::npos) << f->message;
  auto zero = lint(
      kGem,
      R"({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "myhook", "timeout": "abc"}]}]}})");
  ASSERT_NE(find(zero, "timeout-unit"), nullptr) << dump(zero);
  EXPECT_EQ(find(zero, "timeout-unit")->severity, hl::Severity::kError);
  EXPECT_EQ(
      count(
          lint(
              kGem,
              R"({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "myhook", "timeout": 5000}]}]}})"),
          "timeout-unit"),
      0);
}

TEST_F(Rules, TimeoutUnitAntigravitySecondsAndDeelCap) {
  auto a = lint(kAgy, R"({"h": {"Stop": [{"command": "myhook", "timeout": 5000}]}})");
  ASSERT_NE(find(a, "timeout-unit"), nullptr) << dump(a);
  EXPECT_EQ(count(lint(kAgy, R"({"h": {"Stop": [{"command": "myhook", "timeout": 5}]}})"),
                  "timeout-unit"),
            0);
  auto d = lint(kDeel, R"([{"event": "Stop", "command": "myhook", "timeout": 5000}])");
  ASSERT_NE(find(d, "timeout-unit"), nullptr) << dump(d);
  auto d2 = lint(kDeel, R"([{"event": "Stop", "command": "myhook", "timeout": 300}])");
  ASSERT_NE(find(d2, "timeout-unit"), nullptr) << dump(d2);
  EXPECT_EQ(count(lint(kDeel, R"([{"event": "Stop", "command": "myhook", "timeout": 10}])"),
                  "timeout-unit"),
            0);
}

// ---- matchers --------------------------------------------------------------------------------

TEST_F(Rules, MatcherInvalid) {
  auto a =
      lint(kAgy, R"({"h": {"PreToolUse": [{"matcher": "(", "hooks": [{"command": "myhook"}]}]}})");
  ASSERT_NE(find(a, "matcher-invalid"), nullptr) << dump(a);
  auto g = lint(
      kGem,
      R"({"hooks": {"BeforeTool": [{"matcher": "write_file(", "hooks": [{"type": "command", "command": "myhook"}]}]}})");
  ASSERT_NE(find(g, "matcher-invalid"), nullptr) << dump(g);
  auto g2 = lint(
      kGem,
      R"({"hooks": {"BeforeTool": [{"matcher": 5, "hooks": [{"type": "command", "command": "myhook"}]}]}})");
  ASSERT_NE(find(g2, "matcher-invalid"), nullptr) << dump(g2);
  auto d = lint(
      kDeel, R"({"hooks": {"PreToolUse": [{"matcher": "*a", "hooks": [{"command": "myhook"}]}]}})");
  ASSERT_NE(find(d, "matcher-invalid"), nullptr) << dump(d);
  EXPECT_EQ(
      count(
          lint(
              kAgy,
              R"({"h": {"PreToolUse": [{"matcher": "^run_command$", "hooks": [{"command": "myhook"}]}]}})"),
          "matcher-invalid"),
      0);
  // Gemini CLI's matcher is JavaScript's RegExp (Node): lookbehind and named groups are valid,
  // a quantifier with nothing to repeat is not.
  for (const char* m : {"(?<=mcp_)\\\\w+", "(?<tool>write)_file", "a{,2}"})
    EXPECT_EQ(count(lint(kGem, std::string(R"({"hooks": {"BeforeTool": [{"matcher": ")") + m +
                                   R"(", "hooks": [{"type": "command", "command": "myhook"}]}]}})"),
                    "matcher-invalid"),
              0)
        << m;
  EXPECT_NE(find(lint(kGem,
                      R"({"hooks": {"BeforeTool": [{"matcher": "a**", "hooks": [{"type": "command", "command": "myhook"}]}]}})"),
                 "matcher-invalid"),
            nullptr);
}

TEST_F(Rules, MatcherUnanchored) {
  auto g = lint(
      kGem,
      R"({"hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [{"type": "command", "command": "myhook"}]}]}})");
  ASSERT_NE(find(g, "matcher-unanchored"), nullptr) << dump(g);
  EXPECT_EQ(
      count(
          lint(
              kGem,
              R"({"hooks": {"BeforeTool": [{"matcher": "^write_file$", "hooks": [{"type": "command", "command": "myhook"}]}]}})"),
          "matcher-unanchored"),
      0);
  // deel anchors the pattern itself (^(?:…)$).
  EXPECT_EQ(
      count(
          lint(
              kDeel,
              R"({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "myhook"}]}]}})"),
          "matcher-unanchored"),
      0);
}

TEST_F(Rules, MatcherCase) {
  auto a = lint(
      kAgy,
      R"({"h": {"PreToolUse": [{"matcher": "^(Run_Command)$", "hooks": [{"command": "myhook"}]}]}})");
  EXPECT_EQ(count(a, "matcher-case"), 0) << "anchored patterns with groups are not literal";
  auto a2 = lint(
      kAgy,
      R"({"h": {"PreToolUse": [{"matcher": "Run_Command", "hooks": [{"command": "myhook"}]}]}})");
  ASSERT_NE(find(a2, "matcher-case"), nullptr) << dump(a2);
  auto g = lint(
      kGem,
      R"({"hooks": {"BeforeTool": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "myhook"}]}]}})");
  ASSERT_NE(find(g, "matcher-case"), nullptr) << dump(g);
  EXPECT_NE(find(g, "matcher-case")->message.find("run_shell_command"), std::string::npos);
  EXPECT_EQ(count(g, "matcher-unanchored"), 0) << "a matcher that never matches needs no anchor";
  EXPECT_EQ(
      count(
          lint(
              kGem,
              R"({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "myhook"}]}]}})"),
          "matcher-case"),
      0);
}

TEST_F(Rules, MatcherCatastrophic) {
  auto g = lint(
      kGem,
      R"({"hooks": {"BeforeTool": [{"matcher": "^(a+)+$", "hooks": [{"type": "command", "command": "myhook"}]}]}})");
  ASSERT_NE(find(g, "matcher-catastrophic"), nullptr) << dump(g);
  // RE2 (agy) is linear: no finding there.
  EXPECT_EQ(
      count(
          lint(
              kAgy,
              R"({"h": {"PreToolUse": [{"matcher": "^(a+)+$", "hooks": [{"command": "myhook"}]}]}})"),
          "matcher-catastrophic"),
      0);
  EXPECT_EQ(
      count(
          lint(
              kGem,
              R"({"hooks": {"BeforeTool": [{"matcher": "^(ab)+$", "hooks": [{"type": "command", "command": "myhook"}]}]}})"),
          "matcher-catastrophic"),
      0);
}

TEST(CatastrophicPattern, Shapes) {
  using hl::detail::catastrophic_pattern;
  EXPECT_TRUE(catastrophic_pattern("(a+)+"));
  EXPECT_TRUE(catastrophic_pattern("^(a*)*$"));
  EXPECT_TRUE(catastrophic_pattern("(.*)+x"));
  EXPECT_TRUE(catastrophic_pattern("((ab)+c)*"));
  EXPECT_TRUE(catastrophic_pattern("(x+){2,}"));
  EXPECT_FALSE(catastrophic_pattern("(ab)+"));
  EXPECT_FALSE(catastrophic_pattern("a+b*"));
  EXPECT_FALSE(catastrophic_pattern("(a+)"));
  EXPECT_FALSE(catastrophic_pattern("[(a+)]+"));
  EXPECT_FALSE(catastrophic_pattern("\\(a+\\)+"));
  EXPECT_FALSE(catastrophic_pattern("(a+){1,3}"));
  // Malformed braces are literals, never a crash.
  EXPECT_FALSE(catastrophic_pattern("(a+){2,x}"));
  EXPECT_FALSE(catastrophic_pattern("(a+){2"));
  EXPECT_FALSE(catastrophic_pattern("(a+)x{99999999999999999999999"));
  EXPECT_TRUE(catastrophic_pattern("(a+){99999999999999999999999,}x{"));
  EXPECT_TRUE(catastrophic_pattern("(a+){2,99999999999999999999999}"));
}

// ---- commands --------------------------------------------------------------------------------

TEST_F(Rules, CommandNotFoundAndNotExecutable) {
  auto missing = lint(kAgy, R"({"h": {"Stop": [{"command": "no-such-hook-xyz --flag"}]}})");
  ASSERT_NE(find(missing, "command-not-found"), nullptr) << dump(missing);
  auto rel = lint(kAgy, R"({"h": {"Stop": [{"command": "./hooks/run.sh"}]}})");
  ASSERT_NE(find(rel, "command-not-found"), nullptr) << dump(rel);
  write(home_ + "/noexec.sh", "#!/bin/sh\n", 0644);
  auto noexec = lint(kAgy, R"({"h": {"Stop": [{"command": "~/noexec.sh arg"}]}})");
  ASSERT_NE(find(noexec, "command-not-executable"), nullptr) << dump(noexec);
  auto script = lint(kAgy, R"({"h": {"Stop": [{"command": "sh ~/missing.sh"}]}})");
  ASSERT_NE(find(script, "command-not-found"), nullptr) << dump(script);
  auto ok = lint(
      kAgy,
      R"({"h": {"Stop": [{"command": "FOO=1 myhook --x"}, {"command": "sh ~/noexec.sh"}, {"command": "echo hi"}]}})");
  EXPECT_EQ(count(ok, "command-not-found") + count(ok, "command-not-executable"), 0) << dump(ok);
}

TEST_F(Rules, EmptyObjectDenyOnAntigravityPreToolUse) {
  auto bad = lint(
      kAgy, R"({"h": {"PreToolUse": [{"matcher": "", "hooks": [{"command": "echo '{}'"}]}]}})");
  const auto* f = find(bad, "empty-object-deny");
  ASSERT_NE(f, nullptr) << dump(bad);
  EXPECT_EQ(f->severity, hl::Severity::kError);
  auto script = lint(
      kAgy, R"({"h": {"PreToolUse": [{"matcher": "", "hooks": [{"command": "emptyhook"}]}]}})");
  EXPECT_EQ(count(script, "empty-object-deny"), 0) << "PATH programs are not read";
  auto script2 =
      lint(kAgy, "{\"h\": {\"PreToolUse\": [{\"matcher\": \"\", \"hooks\": [{\"command\": \"" +
                     bin_ + "/emptyhook\"}]}]}}");
  ASSERT_NE(find(script2, "empty-object-deny"), nullptr) << dump(script2);
  EXPECT_EQ(find(script2, "empty-object-deny")->severity, hl::Severity::kWarning);
  // Not on lifecycle events, and not on Gemini (an empty object is "no decision" there).
  EXPECT_EQ(
      count(lint(kAgy, R"({"h": {"Stop": [{"command": "echo '{}'"}]}})"), "empty-object-deny"), 0);
  EXPECT_EQ(
      count(
          lint(
              kGem,
              R"({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo '{}'"}]}]}})"),
          "empty-object-deny"),
      0);
  EXPECT_EQ(
      count(
          lint(
              kAgy,
              R"({"h": {"PreToolUse": [{"matcher": "", "hooks": [{"command": "echo '{\"decision\":\"allow\"}'"}]}]}})"),
          "empty-object-deny"),
      0);
}

// ---- layers ----------------------------------------------------------------------------------

TEST_F(Rules, DuplicateRegistration) {
  const std::string a = R"({"h": {"Stop": [{"command": "myhook"}]}})";
  write(home_ + "/" + kAgy, a);
  auto dup = lint("ws/.agents/hooks.json", a);
  ASSERT_NE(find(dup, "duplicate-registration"), nullptr) << dump(dup);
  auto other = lint("ws/.agents/hooks.json", R"({"h": {"Stop": [{"command": "myhook --other"}]}})");
  EXPECT_EQ(count(other, "duplicate-registration"), 0) << dump(other);

  const std::string d = R"([{"event": "Stop", "command": "myhook"}])";
  write(home_ + "/" + kDeel, d);
  ASSERT_NE(find(lint("ws/.deel/hooks.json", d), "duplicate-registration"), nullptr);

  // Gemini dedups the same name:command; different names run twice.
  write(
      home_ + "/" + kGem,
      R"({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "myhook", "name": "a"}]}]}})");
  auto gsame = lint(
      "ws/.gemini/settings.json",
      R"({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "myhook", "name": "a"}]}]}})");
  EXPECT_EQ(count(gsame, "duplicate-registration"), 0) << dump(gsame);
  auto gdiff = lint(
      "ws/.gemini/settings.json",
      R"({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "myhook", "name": "b"}]}]}})");
  EXPECT_EQ(count(gdiff, "duplicate-registration"), 1) << dump(gdiff);
}

TEST_F(Rules, FileNotReadUntrustedGeminiFolder) {
  const std::string s =
      R"({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "myhook"}]}]}})";
  opts_.env.erase("GEMINI_CLI_TRUST_WORKSPACE");  // trust from ~/.gemini/trustedFolders.json
  auto untrusted = lint("ws/.gemini/settings.json", s);
  ASSERT_NE(find(untrusted, "file-not-read"), nullptr) << dump(untrusted);
  // The user file too, when checked against that workspace.
  opts_.workspace = ws_;
  ASSERT_NE(find(lint(kGem, s), "file-not-read"), nullptr);
  write(home_ + "/.gemini/trustedFolders.json", "{\"" + ws_ + "\": \"TRUST_FOLDER\"}");
  EXPECT_EQ(count(lint("ws/.gemini/settings.json", s), "file-not-read"), 0);
  EXPECT_EQ(count(lint(kGem, s), "file-not-read"), 0);
}

TEST_F(Rules, FileNotReadPaths) {
  auto agent = lint("ws/.agent/hooks.json", R"({"h": {"Stop": [{"command": "myhook"}]}})");
  ASSERT_NE(find(agent, "file-not-read"), nullptr) << dump(agent);
  auto deel_proj = lint("ws/.deel/hooks.json", R"([{"event": "Stop", "command": "myhook"}])");
  ASSERT_NE(find(deel_proj, "file-not-read"), nullptr) << dump(deel_proj);
  opts_.deel_trusted = true;
  EXPECT_EQ(count(lint("ws/.deel/hooks.json", R"([{"event": "Stop", "command": "myhook"}])"),
                  "file-not-read"),
            0);
  EXPECT_EQ(count(lint("ws/.agents/hooks.json", R"({"h": {"Stop": [{"command": "myhook"}]}})"),
                  "file-not-read"),
            0);
}

// ---- detection and formats -------------------------------------------------------------------

TEST(Detect, ByPathThenShape) {
  EXPECT_EQ(*hl::detect_host("/x/.gemini/settings.json", "{}"), hl::Host::kGemini);
  EXPECT_EQ(*hl::detect_host("/x/.gemini/extensions/e/hooks/hooks.json", "{}"), hl::Host::kGemini);
  EXPECT_EQ(*hl::detect_host("/x/.gemini/config/hooks.json", "{}"), hl::Host::kAntigravity);
  EXPECT_EQ(*hl::detect_host("/w/.agents/hooks.json", "{}"), hl::Host::kAntigravity);
  EXPECT_EQ(*hl::detect_host("/w/.deel/hooks.json", "{}"), hl::Host::kDeel);
  EXPECT_EQ(*hl::detect_host("/t/a.json", R"({"hooks":{"BeforeTool":[]}})"), hl::Host::kGemini);
  EXPECT_EQ(*hl::detect_host("/t/a.json", R"({"n":{"Stop":[]}})"), hl::Host::kAntigravity);
  EXPECT_EQ(*hl::detect_host("/t/a.json", R"([{"event":"Stop","command":"x"}])"), hl::Host::kDeel);
  auto claude = hl::detect_host("/t/a.json", R"({"hooks":{"PreToolUse":[]}})");
  ASSERT_FALSE(claude);
  EXPECT_NE(claude.error().message.find("--host"), std::string::npos);
  EXPECT_FALSE(hl::detect_host("/t/a.json", "not json"));
}

TEST(Format, GithubEscaping) {
  EXPECT_EQ(hl::github_escape_data("a%b\r\nc:d,e"), "a%25b%0D%0Ac:d,e");
  EXPECT_EQ(hl::github_escape_property("a%b\nc:d,e"), "a%25b%0Ac%3Ad%2Ce");
  std::vector<hl::Finding> f = {
      {"d,i:r/f.json", {3, 4}, hl::Severity::kError, "timeout-unit", "50% of\nit", "fix"}};
  EXPECT_EQ(hl::format_findings(f, "github"),
            "::error file=d%2Ci%3Ar/f.json,line=3,col=4,title=timeout-unit::50%25 of%0Ait (fix: "
            "fix)\n");
  EXPECT_EQ(hl::format_findings(f, "text"),
            "d,i:r/f.json:3:4: error: timeout-unit: 50% of\nit\n  fix: fix\n");
  auto j = nlohmann::json::parse(hl::format_findings(f, "json"));
  EXPECT_EQ(j["errors"], 1);
  EXPECT_EQ(j["findings"][0]["line"], 3);
}

TEST(RuleIds, EveryRuleHasADocSection) {
  auto doc = pinta::testing::source_dir() + "/docs/lint.md";
  std::ifstream in(doc);
  ASSERT_TRUE(in) << doc;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& id : hl::rule_ids())
    EXPECT_NE(text.find("### `" + id + "`"), std::string::npos)
        << id << " has no section in " << doc;
}

}  // namespace

// ---- one pass: nothing hides behind the first problem -----------------------------------------

// Before: an unknown Gemini event hid every finding under it (the loader skips the event unread).
TEST_F(Rules, GeminiChecksHandlersUnderAnUnknownEvent) {
  auto f = lint(kGem,
                "{\"hooks\": {\"BeforTool\": [{\"matcher\": 5, \"hooks\": [\n"
                "{\"type\": \"command\", \"command\": \"myhook\", \"timeout\": 5, \"comand\": 1},\n"
                "{\"type\": \"command\", \"command\": \"/no/such/dir/hook\"}]}]}}");
  const auto* ev = find(f, "unknown-event");
  ASSERT_NE(ev, nullptr) << dump(f);
  EXPECT_EQ(ev->hint, "did you mean 'BeforeTool'?");
  EXPECT_EQ(count(f, "timeout-unit"), 1) << dump(f);
  EXPECT_EQ(count(f, "matcher-invalid"), 1) << dump(f);
  ASSERT_EQ(count(f, "unknown-key"), 1) << dump(f);
  EXPECT_NE(find(f, "unknown-key")->message.find("did you mean 'command'?"), std::string::npos);
  ASSERT_EQ(count(f, "command-not-found"), 1) << dump(f);
  EXPECT_EQ(find(f, "command-not-found")->pos.line, 3);
}

// Before: agy's whole-file rejection stopped lint; a file with three bad values took four runs.
TEST_F(Rules, AntigravityRejectionsAreAllListedInOneRun) {
  auto f = lint(kAgy,
                "{\"a\": {\"Stop\": [{\"command\": \"myhook\", \"timeout\": \"5\"}]},\n"
                " \"b\": {\"enabled\": \"yes\", \"Stop\": [{\"command\": \"myhook\"}]},\n"
                " \"c\": {\"PreToolUse\": [{\"matcher\": \"*\", \"hooks\": [{\"type\": \"cmd\", "
                "\"command\": \"myhook\"}]}]},\n"
                " \"d\": {\"Stop\": [{\"command\": \"myhook\", \"timeout\": 5000}]}}");
  std::set<int> lines;
  for (const auto& x : f)
    if (x.rule == "file-rejected") lines.insert(x.pos.line);
  EXPECT_EQ(lines, (std::set<int>{1, 2, 3})) << dump(f);
  EXPECT_EQ(count(f, "timeout-unit"), 1) << dump(f);  // in the hooks that remain
  EXPECT_EQ(find(f, "timeout-unit")->pos.line, 4);
}

TEST_F(Rules, DidYouMeanForEventsKeysAndNothingForFarNames) {
  auto d = lint(kDeel, R"({"hooks": {"PreTolUse": [{"command": "myhook", "timout": 5}]}})");
  ASSERT_NE(find(d, "unknown-event"), nullptr) << dump(d);
  EXPECT_EQ(find(d, "unknown-event")->hint, "did you mean 'PreToolUse'?");
  auto a = lint(kAgy, R"({"h": {"Stop": [{"command": "myhook", "timeuot": 5}]}})");
  EXPECT_EQ(hl::detail::closest_name("timeuot", {"timeout", "type", "command"}), "timeout");
  EXPECT_EQ(hl::detail::closest_name("Frobnicate", {"Stop", "PreToolUse"}), std::nullopt);
  EXPECT_EQ(hl::detail::closest_name("stop", {"Stop"}), "Stop");
  EXPECT_EQ(hl::detail::did_you_mean("pasS", {"지나가기", "pass"}), " (did you mean 'pass'?)");
  EXPECT_EQ(hl::detail::did_you_mean("통과", {"지나가기", "pass"}), "");
}

// deel reads any 고장나면/onError value but 지나가기/pass as "not written": fail closed.
TEST_F(Rules, DeelUnknownOnErrorValueAtABlockingPointIsAnError) {
  auto f = lint(kDeel, "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"*\", \"hooks\": [\n"
                       "{\"command\": \"myhook\", \"고장나면\": \"통과\"}]}],\n"
                       "\"Stop\": [{\"command\": \"myhook\", \"onError\": \"passs\"}]}}");
  std::vector<const hl::Finding*> v;
  for (const auto& x : f)
    if (x.rule == "unknown-value") v.push_back(&x);
  ASSERT_EQ(v.size(), 2u) << dump(f);
  EXPECT_EQ(v[0]->severity, hl::Severity::kError);
  EXPECT_EQ(v[0]->pos.line, 2);
  EXPECT_NE(v[0]->message.find("fails closed"), std::string::npos) << v[0]->message;
  EXPECT_EQ(v[1]->severity, hl::Severity::kWarning);  // Stop does not block
  EXPECT_NE(v[1]->message.find("did you mean 'pass'?"), std::string::npos) << v[1]->message;
  auto ok = lint(kDeel, R"({"hooks": {"PreToolUse": [{"command": "myhook", "고장나면": " 지나가기 "}]}})");
  EXPECT_EQ(count(ok, "unknown-value"), 0) << dump(ok);
}

// A hook that cannot start blocks every prompt at 말전 unless it passes (seed L440-451).
TEST_F(Rules, DeelMissingCommandAtABlockingPointIsAnError) {
  auto f = lint(kDeel, R"({"hooks": {"UserPromptSubmit": [{"command": "/opt/nothing/hook"}], "Stop": [{"command": "/opt/nothing/hook"}]}})");
  ASSERT_EQ(count(f, "command-not-found"), 2) << dump(f);
  int errors = 0;
  for (const auto& x : f)
    if (x.rule == "command-not-found" && x.severity == hl::Severity::kError) {
      ++errors;
      EXPECT_NE(x.message.find("blocks every prompt"), std::string::npos) << x.message;
    }
  EXPECT_EQ(errors, 1);
  auto pass = lint(kDeel, R"({"hooks": {"UserPromptSubmit": [{"command": "/opt/nothing/hook", "onError": "pass"}]}})");
  ASSERT_NE(find(pass, "command-not-found"), nullptr);
  EXPECT_EQ(find(pass, "command-not-found")->severity, hl::Severity::kWarning);
}

// Before: "fix: use an absolute path" for a path that was absolute.
TEST_F(Rules, PathAdviceFitsThePath) {
  auto abs = lint(kAgy, R"({"h": {"Stop": [{"command": "/no/such/place/hook"}]}})");
  ASSERT_NE(find(abs, "command-not-found"), nullptr) << dump(abs);
  EXPECT_EQ(find(abs, "command-not-found")->hint.find("absolute"), std::string::npos)
      << find(abs, "command-not-found")->hint;
  auto typo = lint(kAgy, "{\"h\": {\"Stop\": [{\"command\": \"" + bin_ + "/myhok\"}]}}");
  ASSERT_NE(find(typo, "command-not-found"), nullptr) << dump(typo);
  EXPECT_EQ(find(typo, "command-not-found")->hint, "did you mean " + bin_ + "/myhook?");
}

TEST(Format, ColourOnlyWhenAsked) {
  std::vector<hl::Finding> f = {
      {"a.json", {1, 2}, hl::Severity::kError, "json-syntax", "bad", "fix it"}};
  EXPECT_EQ(hl::format_findings(f, "text").find('\033'), std::string::npos);
  std::string c = hl::format_findings(f, "text-color");
  EXPECT_NE(c.find("\033[1;31merror:"), std::string::npos) << c;
}

// explain, in process: profiles that agree print once; hooks loaded but never run say why.
TEST_F(Rules, ExplainCollapsesAgreeingProfilesAndListsDroppedHooks) {
  write(home_ + "/" + kAgy,
        "{\"ok\": {\"PreToolUse\": [{\"matcher\": \"*\", \"hooks\": [{\"command\": \"myhook\"}]}]},\n"
        " \"bad\": {\"PreToolUse\": [{\"matcher\": \"(?<=x)\", \"hooks\": [{\"command\": "
        "\"myhook\"}]}]},\n"
        " \"off\": {\"enabled\": false, \"PreToolUse\": [{\"matcher\": \"*\", \"hooks\": "
        "[{\"command\": \"myhook\"}]}]}}");
  hl::ExplainRequest rq;
  rq.host = hl::Host::kAntigravity;
  rq.home = home_;
  rq.event = "PreToolUse";
  rq.tool = "run_command";
  auto r = hl::explain(rq, opts_);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_GT(r->size(), 2u);
  size_t off = 0, bad = 0;
  for (const auto& s : *r) {
    for (const auto& d : s.dropped) {
      off += d.find("'off' has enabled: false") != std::string::npos;
      bad += d.find("not a valid RE2 pattern") != std::string::npos;
      EXPECT_EQ(d.rfind(home_ + "/" + kAgy + ":", 0), 0u) << d;
    }
  }
  EXPECT_GT(off, 0u);
  EXPECT_GT(bad, 0u);  // the no-match profiles say why the hook is absent
  std::string text = hl::format_explain(*r, "text");
  size_t headers = 0;
  for (size_t p = 0; (p = text.find("antigravity ", p)) != std::string::npos; ++p)
    headers += p == 0 || text[p - 1] == '\n';
  EXPECT_LT(headers, r->size()) << text;
  for (const auto& s : *r)  // every profile still named
    EXPECT_NE(text.find(s.host.substr(std::string("antigravity ").size())), std::string::npos);
  EXPECT_NE(text.find("  dropped: "), std::string::npos) << text;
}

// ---- adapter-agent / adapter-event on every family ----------------------------------------------

// Our adapter registered with another family's --agent answers in that host's protocol; with
// another --event it answers with another event's reply. Aliases (deel's 도구전) are the event.
TEST_F(Rules, AdapterAgentAndEventOnEveryFamily) {
  write(bin_ + "/pinta-gemini", "#!/bin/sh\nexit 0\n", 0755);
  const std::string a = bin_ + "/pinta-gemini";
  auto gem = [&](const std::string& cmd) {
    return lint(kGem, "{\"hooks\": {\"BeforeTool\": [{\"hooks\": [{\"type\": \"command\", "
                      "\"command\": \"" + cmd + "\"}]}]}}");
  };
  EXPECT_EQ(count(gem(a + " --agent gemini --event BeforeTool"), "adapter-agent"), 0);
  auto g = gem(a + " --agent claude-code --event BeforeTool");
  ASSERT_EQ(count(g, "adapter-agent"), 1) << dump(g);
  EXPECT_NE(find(g, "adapter-agent")->message.find("Claude Code's protocol"), std::string::npos);
  EXPECT_EQ(count(gem(a + " --agent gemini --event AfterTool"), "adapter-event"), 1);

  auto agy = [&](const std::string& cmd) {
    return lint(kAgy, "{\"h\": {\"PreToolUse\": [{\"matcher\": \"*\", \"hooks\": [{\"command\": \"" +
                          cmd + "\"}]}]}}");
  };
  EXPECT_EQ(count(agy(a + " --agent agy --event PreToolUse"), "adapter-agent"), 0);
  EXPECT_EQ(count(agy(a + " --agent deel --event PreToolUse"), "adapter-agent"), 1);
  EXPECT_EQ(count(agy(a + " --agent antigravity --event Stop"), "adapter-event"), 1);

  auto deel = [&](const std::string& ev, const std::string& cmd) {
    return lint(kDeel, "[{\"event\": \"" + ev + "\", \"command\": \"" + cmd + "\"}]");
  };
  EXPECT_EQ(count(deel("도구전", a + " --agent deel --event PreToolUse"), "adapter-event"), 0);
  EXPECT_EQ(count(deel("PreToolUse", a + " --agent deel --event PreToolUse"), "adapter-agent"), 0);
  EXPECT_EQ(count(deel("PreToolUse", a + " --agent gemini --event PreToolUse"), "adapter-agent"),
            1);
  EXPECT_EQ(count(deel("Stop", a + " --agent deel --event PreToolUse"), "adapter-event"), 1);
  // Another program is never judged.
  EXPECT_EQ(count(gem("myhook --agent claude-code"), "adapter-agent"), 0);
}
