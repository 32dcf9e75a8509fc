// The lint rules for Codex CLI 0.171.0 hook files (hooks.json and config.toml [hooks]), one test
// per rule: a file that triggers it (at the right place) and a near-identical one that does not;
// and explain over the config layers. Every file lives in a temp home (CODEX_HOME = home/.codex)
// and project; PATH is fixed. HL = measured on the real 0.171.0 (hosts/codex/test/codex_test.cc).
#include <gtest/gtest.h>

#include <string>

#include "lint_fixture.h"
#include "pinta/hostlint/lint.h"

namespace hl = pinta::hostlint;

namespace {

constexpr const char* kUser = ".codex/hooks.json";  // under home
constexpr const char* kUserToml = ".codex/config.toml";
constexpr const char* kProject = "ws/.codex/hooks.json";
// HL: the currentHash 0.171.0 reports for {"matcher":"*","hooks":[{"type":"command","command":
// "echo hi","timeout":30}]} under PreToolUse.
constexpr const char* kEchoHash =
    "sha256:6e4e918f0015bc3f3fac7864fd00f035ac12d2ba415b6dcdc80415135dbf4c44";

class CodexRules : public pinta::hostlint::testing::LintRulesTest {
 protected:
  void SetUp() override {
    LintRulesTest::SetUp();
    if (HasFatalFailure()) return;
    opts_.env["CODEX_HOME"] = home_ + "/.codex";
  }
  std::string user_json() const { return home_ + "/" + kUser; }
  // Trusts the measured "echo hi" hook of the user hooks.json (and keeps `extra` TOML).
  void trust_echo(const std::string& extra = "") {
    write(home_ + "/" + kUserToml, "[hooks.state.\"" + user_json() +
                                       ":pre_tool_use:0:0\"]\ntrusted_hash = \"" + kEchoHash +
                                       "\"\n" + extra);
  }
  // A user hooks.json whose first PreToolUse group is the trusted "echo hi" and then `more`.
  std::vector<hl::Finding> pre(const std::string& more) {
    trust_echo();
    return lint(kUser,
                "{\"hooks\": {\"PreToolUse\": [\n"
                "  {\"matcher\": \"*\", \"hooks\": [{\"type\": \"command\", \"command\": \"echo "
                "hi\", \"timeout\": 30}]}" +
                    more + "]}}");
  }
  // A group with `matcher` and one hook running myhook (untrusted: filtered by rule anyway).
  static std::string group(const std::string& matcher, const std::string& extra = "") {
    return ",\n  {\"matcher\": \"" + matcher +
           "\", \"hooks\": [{\"type\": \"command\", \"command\": \"myhook\"" + extra + "}]}";
  }
};

TEST_F(CodexRules, DetectedFromItsPaths) {
  EXPECT_EQ(*hl::detect_host("/h/.codex/hooks.json", "{}"), hl::Host::kCodex);
  EXPECT_EQ(*hl::detect_host("/w/.codex/config.toml", "model = 1"), hl::Host::kCodex);
  EXPECT_FALSE(hl::detect_host("/t/config.toml", "model = 1"));
}

TEST_F(CodexRules, CleanTrustedFileHasNoFinding) {
  auto f = pre("");
  EXPECT_TRUE(f.empty()) << dump(f);
}

TEST_F(CodexRules, JsonSyntaxAndBom) {
  auto f = lint(kUser, "{\n  \"hooks\": {},\n}\n");
  const auto* x = find(f, "json-syntax");
  ASSERT_NE(x, nullptr) << dump(f);
  EXPECT_EQ(x->severity, hl::Severity::kError);
  EXPECT_EQ(x->pos.line, 3);
  EXPECT_EQ(count(lint(kUser, "\xEF\xBB\xBF{\"hooks\": {}}"), "json-syntax"), 1);  // HL: a BOM
  EXPECT_EQ(count(lint(kUser, "{\n  \"hooks\": {}\n}\n"), "json-syntax"), 0);
}

// HL: a wrong type anywhere (here "30") or an unknown top-level key skips the whole file.
TEST_F(CodexRules, FileRejected) {
  auto f =
      pre(",\n  {\"hooks\": [{\"type\": \"command\", \"command\": \"myhook\", \"timeout\": "
          "\"30\"}]}");
  const auto* x = find(f, "file-rejected");
  ASSERT_NE(x, nullptr) << dump(f);
  EXPECT_EQ(x->severity, hl::Severity::kError);
  EXPECT_EQ(x->pos.line, 3);
  f = lint(kUser, "{\"version\": 1,\n \"hooks\": {}}");
  ASSERT_NE(find(f, "file-rejected"), nullptr) << dump(f);
  EXPECT_EQ(count(pre(",\n  {\"hooks\": [{\"type\": \"command\", \"command\": \"myhook\", "
                      "\"timeout\": 30}]}"),
                  "file-rejected"),
            0);
}

TEST_F(CodexRules, UnknownEvent) {
  trust_echo();
  auto f = lint(kUser, "{\"hooks\": {\"BeforeTool\": []}}");
  const auto* x = find(f, "unknown-event");
  ASSERT_NE(x, nullptr) << dump(f);
  EXPECT_NE(x->hint.find("PreToolUse"), std::string::npos) << x->hint;
  EXPECT_EQ(count(lint(kUser, "{\"hooks\": {\"PreModelRequest\": []}}"), "unknown-event"), 0);
}

// HL: unknown keys in groups and hooks are ignored; `timeoutSec` is not read (CX, measured).
TEST_F(CodexRules, UnknownKeysAndTimeoutSec) {
  auto f = pre(group("Bash", ", \"name\": \"n\"") +
               ",\n  {\"matcher\": \"Bash\", \"if\": 1, "
               "\"hooks\": []}");
  EXPECT_EQ(count(f, "unknown-key"), 2) << dump(f);
  f = pre(group("Bash", ", \"timeoutSec\": 30"));
  const auto* x = find(f, "timeout-unit");
  ASSERT_NE(x, nullptr) << dump(f);
  EXPECT_NE(x->message.find("600 s"), std::string::npos) << x->message;
  EXPECT_EQ(count(pre(group("Bash", ", \"timeout\": 30, \"statusMessage\": \"s\"")), "unknown-key"),
            0);
}

TEST_F(CodexRules, TimeoutUnits) {
  EXPECT_EQ(count(pre(group("Bash", ", \"timeout\": 5000")), "timeout-unit"), 1);
  EXPECT_EQ(count(pre(group("Bash", ", \"timeout\": 0")), "timeout-unit"), 1);  // raised to 1 s
  EXPECT_EQ(count(pre(group("Bash", ", \"timeout\": 60")), "timeout-unit"), 0);
  trust_echo();
  // HL: SessionEnd hooks get at most 3 s.
  auto f = lint(kUser,
                "{\"hooks\": {\"SessionEnd\": [{\"hooks\": [{\"type\": \"command\", "
                "\"command\": \"myhook\", \"timeout\": 10}]}]}}");
  EXPECT_EQ(count(f, "timeout-unit"), 1) << dump(f);
}

TEST_F(CodexRules, MatcherInvalidAndIgnored) {
  auto f = pre(group("["));
  const auto* x = find(f, "matcher-invalid");
  ASSERT_NE(x, nullptr) << dump(f);
  EXPECT_EQ(x->severity, hl::Severity::kError);
  EXPECT_EQ(x->pos.line, 3);
  EXPECT_EQ(count(pre(group("(?<n>Bash)")), "matcher-invalid"), 0);  // HL: valid in Rust regex
  trust_echo();
  // HL: Stop has no matcher; even "[" is not reported by Codex there.
  f = lint(kUser, "{\"hooks\": {\"Stop\": [{\"matcher\": \"[\", \"hooks\": []}]}}");
  EXPECT_EQ(count(f, "matcher-ignored"), 1) << dump(f);
  EXPECT_EQ(count(f, "matcher-invalid"), 0) << dump(f);
  EXPECT_EQ(count(lint(kUser, "{\"hooks\": {\"Stop\": [{\"matcher\": \"*\", \"hooks\": []}]}}"),
                  "matcher-ignored"),
            0);
}

TEST_F(CodexRules, MatcherShapes) {
  EXPECT_EQ(count(pre(group("^Bash")), "matcher-unanchored"), 1);
  EXPECT_EQ(count(pre(group("^Bash$")), "matcher-unanchored"), 0);
  EXPECT_EQ(count(pre(group("Bash*")), "matcher-unanchored"), 1);  // a glob, read as a regex
  EXPECT_EQ(count(pre(group("Write, Edit")), "matcher-never-matches"), 1);
  EXPECT_EQ(count(pre(group("Write|Edit")), "matcher-never-matches"), 0);
  EXPECT_EQ(count(pre(group("exec_command")), "matcher-never-matches"), 1);  // seen as Bash
  EXPECT_EQ(count(pre(group("Read")), "matcher-never-matches"), 1);
  EXPECT_EQ(count(pre(group("mcp__fs__read")), "matcher-never-matches"), 0);
  EXPECT_EQ(count(pre(group("bash")), "matcher-case"), 1);
  EXPECT_EQ(count(pre(group("Bash")), "matcher-case"), 0);
}

TEST_F(CodexRules, InvalidHandler) {
  auto f =
      pre(",\n  {\"hooks\": [{\"type\": \"prompt\", \"prompt\": \"p\"}, {\"type\": "
          "\"command\", \"command\": \"  \"}]}");
  EXPECT_EQ(count(f, "invalid-handler"), 2) << dump(f);
}

// CX: untrusted hooks are skipped without a word; HL: a stale hash is "modified"; enabled=false.
TEST_F(CodexRules, TrustState) {
  trust_echo();
  auto f = lint(kUser,
                "{\"hooks\": {\"PreToolUse\": [\n"
                "  {\"matcher\": \"*\", \"hooks\": [{\"type\": \"command\", \"command\": "
                "\"echo hi\", \"timeout\": 30}]},\n"
                "  {\"hooks\": [{\"type\": \"command\", \"command\": \"myhook\"}]}]}}");
  ASSERT_EQ(count(f, "hook-disabled"), 1) << dump(f);
  const auto* x = find(f, "hook-disabled");
  EXPECT_EQ(x->pos.line, 3);
  EXPECT_NE(x->hint.find(user_json() + ":pre_tool_use:1:0"), std::string::npos) << x->hint;
  EXPECT_NE(x->hint.find("with trusted_hash = \"sha256:"), std::string::npos) << x->hint;
  EXPECT_EQ(x->hint.find('\n'), std::string::npos) << x->hint;  // one line
  // The same file with a changed timeout: the recorded hash is stale.
  f = lint(kUser,
           "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"*\", \"hooks\": [{\"type\": "
           "\"command\", \"command\": \"echo hi\", \"timeout\": 31}]}]}}");
  ASSERT_EQ(count(f, "hook-disabled"), 1) << dump(f);
  EXPECT_NE(find(f, "hook-disabled")->message.find("stale"), std::string::npos);
  write(home_ + "/" + kUserToml,
        "[hooks.state.\"" + user_json() + ":pre_tool_use:0:0\"]\nenabled = false\n");
  f = lint(kUser,
           "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"*\", \"hooks\": [{\"type\": "
           "\"command\", \"command\": \"echo hi\", \"timeout\": 30}]}]}}");
  ASSERT_EQ(count(f, "hook-disabled"), 1) << dump(f);
  EXPECT_NE(find(f, "hook-disabled")->message.find("enabled = false"), std::string::npos);
}

// CX: <project>/.codex/ is read only for a trusted project.
TEST_F(CodexRules, ProjectNotTrusted) {
  const std::string body =
      "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"myhook\"}]}]}}";
  EXPECT_EQ(count(lint(kProject, body), "file-not-read"), 1);
  write(home_ + "/" + kUserToml, "[projects.\"" + ws_ + "\"]\ntrust_level = \"trusted\"\n");
  auto f = lint(kProject, body);
  EXPECT_EQ(count(f, "file-not-read"), 0) << dump(f);
  EXPECT_EQ(count(f, "hook-disabled"), 1) << dump(f);  // trusting the project is not trusting
}

// HL: a layer with hooks in both hooks.json and config.toml loads both, with a warning.
TEST_F(CodexRules, BothRepresentationsAndToml) {
  trust_echo("[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"myhook\"\n");
  const std::string echo =
      "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"*\", \"hooks\": [{\"type\": "
      "\"command\", \"command\": \"echo hi\", \"timeout\": 30}]}]}}";
  auto f = lint(kUser, echo);
  EXPECT_EQ(count(f, "duplicate-registration"), 1) << dump(f);
  trust_echo();
  EXPECT_EQ(count(lint(kUser, echo), "duplicate-registration"), 0);
  // The TOML side: its own findings, positioned on its lines.
  f = lint(kUserToml,
           "[hooks.state.\"x\"]\nenabled = true\n\n[[hooks.PreToolUse]]\n"
           "matcher = \"[\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\n"
           "command = \"myhook\"\ntimeoutSec = 5\n");
  const auto* x = find(f, "matcher-invalid");
  ASSERT_NE(x, nullptr) << dump(f);
  EXPECT_EQ(x->pos.line, 5);
  x = find(f, "timeout-unit");
  ASSERT_NE(x, nullptr) << dump(f);
  EXPECT_EQ(x->pos.line, 9);
  EXPECT_EQ(count(f, "unknown-event"), 0) << dump(f);  // `state` is not an event
}

// HL: Codex does not start with a config.toml that does not parse or has a [hooks] value of the
// wrong type.
TEST_F(CodexRules, TomlRejected) {
  auto f = lint(kUserToml, "model = \"m\"\n[hooks\n");
  const auto* x = find(f, "file-rejected");
  ASSERT_NE(x, nullptr) << dump(f);
  EXPECT_EQ(x->pos.line, 2);
  f = lint(kUserToml, "[[hooks.PreToolUse]]\nmatcher = 5\n");
  x = find(f, "file-rejected");
  ASSERT_NE(x, nullptr) << dump(f);
  EXPECT_EQ(x->pos.line, 2);
  EXPECT_EQ(count(lint(kUserToml, "model = \"m\"\n"), "file-rejected"), 0);
}

TEST_F(CodexRules, ExplainRunsTrustedAndDropsTheRest) {
  trust_echo();
  write(user_json(),
        "{\"hooks\": {\"PreToolUse\": [\n"
        "  {\"matcher\": \"*\", \"hooks\": [{\"type\": \"command\", \"command\": "
        "\"echo hi\", \"timeout\": 30}]},\n"
        "  {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": "
        "\"myhook\"}]}]}}");
  hl::ExplainRequest rq;
  rq.host = hl::Host::kCodex;
  rq.home = home_;
  rq.event = "PreToolUse";
  rq.tool = "exec_command";
  auto r = hl::explain(rq, opts_);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->size(), 1u);
  const auto& s = (*r)[0];
  ASSERT_EQ(s.hooks.size(), 1u) << hl::format_explain(*r, "text");
  EXPECT_EQ(s.hooks[0].command, "echo hi");
  EXPECT_EQ(s.hooks[0].timeout, "30 s");
  EXPECT_EQ(s.hooks[0].pos.line, 2);
  ASSERT_EQ(s.dropped.size(), 1u);
  EXPECT_NE(s.dropped[0].find("not trusted"), std::string::npos) << s.dropped[0];
  rq.event = "Stop";
  rq.tool = "Bash";
  EXPECT_FALSE(hl::explain(rq, opts_));  // Stop has no matcher input
  rq.event = "BeforeTool";
  rq.tool = "";
  EXPECT_FALSE(hl::explain(rq, opts_));
}

// Several PreToolUse hooks in the plan: the note names the releases with the deny race (the
// version profiles with deny_race; docs/hosts/codex-0.171.md "Releases"); one hook: no such note.
TEST_F(CodexRules, ExplainSaysWhereADenyBesideAnotherHookCanBeLost) {
  const std::string hook =
      "{\"type\": \"command\", \"command\": \"echo hi\", \"timeout\": 30}";
  hl::ExplainRequest rq;
  rq.host = hl::Host::kCodex;
  rq.home = home_;
  rq.event = "PreToolUse";
  rq.tool = "exec_command";
  auto note_of = [&]() -> std::string {
    auto r = hl::explain(rq, opts_);
    if (!r || r->size() != 1) return "explain failed";
    for (const auto& n : (*r)[0].notes)
      if (n.find("several PreToolUse hooks") != std::string::npos) return n;
    return "";
  };
  trust_echo();
  write(user_json(), "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"*\", \"hooks\": [" + hook + "]}]}}");
  EXPECT_EQ(note_of(), "");
  // The same handler twice in the group: both trusted (one hash, two keys), both run.
  trust_echo("[hooks.state.\"" + user_json() + ":pre_tool_use:0:1\"]\ntrusted_hash = \"" +
             kEchoHash + "\"\n");
  write(user_json(), "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"*\", \"hooks\": [" + hook +
                         ", " + hook + "]}]}}");
  const std::string note = note_of();
  EXPECT_NE(note.find("codex-0.124 (0.124.0 .. 0.128.x)"), std::string::npos) << note;
  EXPECT_NE(note.find("codex-0.145 (0.145.0 .. 0.145.x)"), std::string::npos) << note;
  EXPECT_EQ(note.find("codex-0.171 ("), std::string::npos) << note;
  EXPECT_EQ(note.find("codex-0.129 ("), std::string::npos) << note;  // runs no hook
}

}  // namespace
