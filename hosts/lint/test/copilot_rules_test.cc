// The lint rules for GitHub Copilot CLI 1.0.102 hook files (~/.copilot/hooks/*.json,
// <repo>/.github/hooks/*.json; native camelCase and Claude-style PascalCase), one test per rule: a
// file that triggers it and a near-identical one that does not. CPM = docs/hosts/copilot-1.0.md
// "Measured on 1.0.102" (the scenario named). Every file lives in a temp home and workspace; PATH
// is fixed.
#include <gtest/gtest.h>

#include <string>

#include "lint_fixture.h"
#include "pinta/hostlint/lint.h"

namespace hl = pinta::hostlint;

namespace {

constexpr const char* kUser = ".copilot/hooks/mine.json";  // under home
constexpr const char* kRepo = "ws/.github/hooks/mine.json";

class CopilotRules : public pinta::hostlint::testing::LintRulesTest {
 protected:
  void SetUp() override {
    LintRulesTest::SetUp();
    if (HasFatalFailure()) return;
    opts_.env.erase("COPILOT_HOME");
  }
  // A user file with one native preToolUse entry `entry`.
  std::vector<hl::Finding> native(const std::string& entry) {
    return lint(kUser, "{\"version\": 1, \"hooks\": {\"preToolUse\": [" + entry + "]}}");
  }
  void trust_ws() {
    write(home_ + "/.copilot/config.json", "{\"trustedFolders\": [\"" + ws_ + "\"]}");
  }
};

TEST_F(CopilotRules, DetectedFromItsPaths) {
  EXPECT_EQ(*hl::detect_host("/h/.copilot/hooks/a.json", "{}"), hl::Host::kCopilot);
  EXPECT_EQ(*hl::detect_host("/r/.github/hooks/pinta-gemini.json", "{}"), hl::Host::kCopilot);
  // Subfolders are not read; other files of .copilot are not hook files.
  EXPECT_NE(hl::detect_host("/h/.copilot/hooks/sub/a.json", "{}").value_or(hl::Host::kGemini),
            hl::Host::kCopilot);
  EXPECT_NE(hl::detect_host("/h/.copilot/config.json", "{}").value_or(hl::Host::kGemini),
            hl::Host::kCopilot);
}

TEST_F(CopilotRules, CleanFilesInBothFormatsHaveNoFinding) {
  auto f = native("{\"type\": \"command\", \"bash\": \"myhook\", \"timeoutSec\": 10}");
  EXPECT_TRUE(f.empty()) << dump(f);
  auto p = lint(kUser,
                "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": "
                "\"command\", \"command\": \"myhook\"}]}]}}");
  EXPECT_TRUE(p.empty()) << dump(p);
  // Our adapter as install writes it.
  auto ours = native("{\"type\": \"command\", \"bash\": \"'" + bin_ +
                     "/myhook' --agent copilot --event preToolUse\", \"timeoutSec\": 10}");
  EXPECT_TRUE(ours.empty()) << dump(ours);
}

TEST_F(CopilotRules, UnknownEventPerFormat) {
  // `stop` is neither spelling (native agentStop, Claude-style Stop); UserPromptSubmitted is the
  // native name capitalised (the alias is UserPromptSubmit). CPM src-unknown-event.
  auto f = lint(kUser,
                "{\"hooks\": {\"stop\": [], \"UserPromptSubmitted\": [], \"agentStop\": [], "
                "\"Stop\": []}}");
  EXPECT_EQ(count(f, "unknown-event"), 2) << dump(f);
  ASSERT_NE(find(f, "unknown-event"), nullptr);
  EXPECT_NE(dump(f).find("did you mean 'Stop'"), std::string::npos) << dump(f);
  EXPECT_NE(dump(f).find("did you mean 'userPromptSubmitted'"), std::string::npos) << dump(f);
}

TEST_F(CopilotRules, FilesCopilotDropsWithoutANotice) {
  EXPECT_EQ(count(lint(kUser, "{\"hooks\": {"), "json-syntax"), 1);  // CPM src-broken-file
  auto v2 = lint(kUser, "{\"version\": 2, \"hooks\": {}}");               // CPM src-version-2
  EXPECT_EQ(count(v2, "file-rejected"), 1) << dump(v2);
  EXPECT_EQ(count(lint(kUser, "{\"version\": 1, \"hooks\": {}}"), "file-rejected"), 0);
  EXPECT_EQ(count(lint(kUser, "{\"hooks\": []}"), "file-rejected"), 1);
  EXPECT_EQ(count(lint(kUser, "{\"hooks\": {\"preToolUse\": {}}}"), "event-shape"), 1);
}

TEST_F(CopilotRules, AnEntryWithoutACommandIsDropped) {
  auto f = native("{\"type\": \"command\", \"timeoutSec\": 5}, {\"bash\": \"myhook\"}");
  EXPECT_EQ(count(f, "invalid-handler"), 1) << dump(f);  // CPM src-malformed-entry
  // `command` in place of `bash`, no type: accepted (CPM c-pre-command-key, c-pre-no-type).
  EXPECT_EQ(count(native("{\"command\": \"myhook\"}"), "invalid-handler"), 0);
}

TEST_F(CopilotRules, HookSpecificOutputUnderACamelCaseEventIsIgnored) {
  const std::string hso =
      "echo '{\\\"hookSpecificOutput\\\":{\\\"permissionDecision\\\":\\\"deny\\\"}}'";
  auto f = native("{\"bash\": \"" + hso + "\"}");
  EXPECT_EQ(count(f, "unknown-value"), 1) << dump(f);  // CPM c-pre-hso-deny
  // Under the PascalCase event it denies (CPM p-pre-hso-deny).
  auto p = lint(kUser, "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"command\": \"" + hso +
                           "\"}]}]}}");
  EXPECT_EQ(count(p, "unknown-value"), 0) << dump(p);
}

TEST_F(CopilotRules, APreToolUseHookThatCannotStartDeniesEveryCall) {
  // CPM c-pre-exit126, c-pre-exit127: fail-closed, so an error on preToolUse ...
  auto f = native("{\"bash\": \"/no/such/hook\"}");
  const auto* nf = find(f, "command-not-found");
  ASSERT_NE(nf, nullptr) << dump(f);
  EXPECT_EQ(nf->severity, hl::Severity::kError);
  EXPECT_NE(nf->message.find("fails closed"), std::string::npos) << nf->message;
  write(bin_ + "/noexec", "#!/bin/sh\n", 0644);
  auto ne = native("{\"bash\": \"" + bin_ + "/noexec\"}");
  ASSERT_NE(find(ne, "command-not-executable"), nullptr) << dump(ne);
  EXPECT_EQ(find(ne, "command-not-executable")->severity, hl::Severity::kError);
  // ... and a warning elsewhere (a failure there is only a notice).
  auto post = lint(kUser, "{\"hooks\": {\"postToolUse\": [{\"bash\": \"/no/such/hook\"}]}}");
  ASSERT_NE(find(post, "command-not-found"), nullptr);
  EXPECT_EQ(find(post, "command-not-found")->severity, hl::Severity::kWarning);
}

TEST_F(CopilotRules, TimeoutSecBounds) {
  auto ms = native("{\"bash\": \"myhook\", \"timeoutSec\": 5000}");
  ASSERT_EQ(count(ms, "timeout-unit"), 1) << dump(ms);
  EXPECT_NE(find(ms, "timeout-unit")->message.find("seconds"), std::string::npos);
  EXPECT_EQ(count(native("{\"bash\": \"myhook\", \"timeoutSec\": 0}"), "timeout-unit"), 1);
  EXPECT_EQ(count(native("{\"bash\": \"myhook\", \"timeout\": 9000}"), "timeout-unit"), 1);
  EXPECT_EQ(count(native("{\"bash\": \"myhook\", \"timeoutSec\": \"5\"}"), "unknown-value"), 1);
  EXPECT_EQ(count(native("{\"bash\": \"myhook\", \"timeoutSec\": 30}"), "timeout-unit"), 0);
}

TEST_F(CopilotRules, MatchersPerFormat) {
  // Native: an anchored regex on the runtime name; `*` and "" match nothing (CPM
  // c-matcher-star, c-matcher-empty), a Claude name never matches (c-matcher-Bash).
  EXPECT_EQ(count(native("{\"matcher\": \"*\", \"bash\": \"myhook\"}"), "matcher-never-matches"), 1);
  EXPECT_EQ(count(native("{\"matcher\": \"\", \"bash\": \"myhook\"}"), "matcher-never-matches"), 1);
  EXPECT_EQ(count(native("{\"matcher\": \"Bash\", \"bash\": \"myhook\"}"), "matcher-case"), 1);
  auto ok = native("{\"matcher\": \"bash|view\", \"bash\": \"myhook\"}");
  EXPECT_TRUE(ok.empty()) << dump(ok);
  EXPECT_EQ(count(native("{\"matcher\": \"(bash\", \"bash\": \"myhook\"}"), "matcher-invalid"), 1);
  // Claude-style: "" drops the event's whole list (CPM p-matcher-empty); "*" matches every tool.
  auto empty = lint(kUser, "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"\", \"hooks\": "
                           "[{\"command\": \"myhook\"}]}]}}");
  ASSERT_EQ(count(empty, "matcher-invalid"), 1) << dump(empty);
  EXPECT_EQ(find(empty, "matcher-invalid")->severity, hl::Severity::kError);
  EXPECT_TRUE(lint(kUser, "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"*\", \"hooks\": "
                          "[{\"command\": \"myhook\"}]}]}}")
                  .empty());
}

TEST_F(CopilotRules, OurAdapterLabelMustMatchTheFormat) {
  const std::string prog = "'" + bin_ + "/pinta-gemini'";
  write(bin_ + "/pinta-gemini", "#!/bin/sh\n", 0755);
  // camelCase with the Claude-style label: the native payload is read with the wrong shape.
  auto a = native("{\"bash\": \"" + prog + " --agent copilot-claude --event preToolUse\"}");
  EXPECT_EQ(count(a, "adapter-agent"), 1) << dump(a);
  // PascalCase with the native label.
  auto b = lint(kUser, "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"command\": \"" + prog +
                           " --agent copilot --event PreToolUse\"}]}]}}");
  EXPECT_EQ(count(b, "adapter-agent"), 1) << dump(b);
  auto c = lint(kUser, "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"command\": \"" + prog +
                           " --agent copilot-claude --event PreToolUse\"}]}]}}");
  EXPECT_EQ(count(c, "adapter-agent"), 0) << dump(c);
  // Claude Code's label: under camelCase its hookSpecificOutput deny is ignored (error); under
  // PascalCase it blocks, only its spans name the wrong host (warning).
  auto d = native("{\"bash\": \"" + prog + " --agent claude-code --event PreToolUse\"}");
  ASSERT_NE(find(d, "adapter-agent"), nullptr) << dump(d);
  EXPECT_EQ(find(d, "adapter-agent")->severity, hl::Severity::kError);
  auto e = lint(kUser, "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"command\": \"" + prog +
                           " --agent claude-code --event PreToolUse\"}]}]}}");
  ASSERT_EQ(count(e, "adapter-agent"), 1) << dump(e);
  EXPECT_EQ(find(e, "adapter-agent")->severity, hl::Severity::kWarning);
  // --event naming another event.
  auto g = native("{\"bash\": \"" + prog + " --agent copilot --event postToolUse\"}");
  EXPECT_EQ(count(g, "adapter-event"), 1) << dump(g);
}

TEST_F(CopilotRules, DuplicateRegistration) {
  auto f = native("{\"bash\": \"myhook\"}, {\"bash\": \"myhook\"}");
  EXPECT_EQ(count(f, "duplicate-registration"), 1) << dump(f);
}

TEST_F(CopilotRules, RepositoryHooksInAnUntrustedFolderAreNotRead) {
  const std::string text = "{\"hooks\": {\"preToolUse\": [{\"bash\": \"myhook\"}]}}";
  EXPECT_EQ(count(lint(kRepo, text), "file-not-read"), 1);  // CPM src-repo-untrusted
  // trustedFolders in settings.json is not honoured (CPM src-repo-trusted-settings) ...
  write(home_ + "/.copilot/settings.json", "{\"trustedFolders\": [\"" + ws_ + "\"]}");
  EXPECT_EQ(count(lint(kRepo, text), "file-not-read"), 1);
  // ... in config.json it is (src-repo-trusted-config).
  trust_ws();
  EXPECT_EQ(count(lint(kRepo, text), "file-not-read"), 0);
  EXPECT_EQ(count(lint(kUser, text), "file-not-read"), 0);
}

TEST_F(CopilotRules, ExplainRefusesWhatIsNoEventOrNoToolEvent) {
  hl::ExplainRequest rq;
  rq.host = hl::Host::kCopilot;
  rq.home = home_;
  rq.event = "stop";
  auto bad = hl::explain(rq, opts_);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("unknown Copilot event"), std::string::npos);
  rq.event = "sessionStart";
  rq.tool = "bash";
  EXPECT_FALSE(hl::explain(rq, opts_));
  rq.event = "PreToolUse";  // either spelling
  auto ok = hl::explain(rq, opts_);
  ASSERT_TRUE(ok) << ok.error().message;
  ASSERT_EQ(ok->size(), 1u);
  EXPECT_EQ((*ok)[0].host, "copilot 1.0.102");
}

}  // namespace

// CPM c-pre-exit1, c-pre-exit1-allow: a preToolUse hook that exits non-zero denies the call, so a
// script that may (errexit, an `exit 1`, Python without try) is flagged; exit 0/2 paths are not.
TEST_F(CopilotRules, FailClosedExitOnTheGate) {
  auto rule = [&](const std::string& cmd) {
    return count(native("{\"type\": \"command\", \"bash\": \"" + cmd + "\"}"), "fail-closed-exit");
  };
  EXPECT_EQ(rule("set -e; myhook"), 1);
  EXPECT_EQ(rule("myhook || exit 1"), 1);
  EXPECT_EQ(rule("myhook || exit 2"), 0);
  EXPECT_EQ(rule("myhook; exit 0"), 0);
  EXPECT_EQ(rule("myhook"), 0);
  // The script the command runs (python3: a stub on the fixed PATH, only its name counts).
  write(bin_ + "/python3", "#!/bin/sh\nexit 0\n", 0755);
  write(bin_ + "/strict.sh", "#!/bin/sh\nset -eu\ncat >/dev/null\n", 0755);
  write(bin_ + "/careful.sh", "#!/bin/sh\n# set -e would deny on any failure\ncat >/dev/null\n",
        0755);
  write(bin_ + "/check.py", "import json, sys\njson.load(sys.stdin)\n", 0755);
  write(bin_ + "/safe.py",
        "import json, sys\ntry:\n    json.load(sys.stdin)\nexcept Exception:\n    pass\n", 0755);
  EXPECT_EQ(rule(bin_ + "/strict.sh"), 1);
  EXPECT_EQ(rule(bin_ + "/careful.sh"), 0);
  EXPECT_EQ(rule("python3 " + bin_ + "/check.py"), 1);
  EXPECT_EQ(rule("python3 " + bin_ + "/safe.py"), 0);
  // Only the gate fails closed: the same script on postToolUse is not flagged.
  auto post = lint(kUser,
                   "{\"version\": 1, \"hooks\": {\"postToolUse\": [{\"type\": \"command\", "
                   "\"bash\": \"set -e; myhook\"}]}}");
  EXPECT_EQ(count(post, "fail-closed-exit"), 0) << dump(post);
  // The Claude-style spelling of the gate too.
  auto pascal = lint(kUser,
                     "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", "
                     "\"command\": \"set -e; myhook\"}]}]}}");
  EXPECT_EQ(count(pascal, "fail-closed-exit"), 1) << dump(pascal);
}

// CPM c-http-hook, p-http-hook, c-prompt-type: entries 1.0.102 never runs.
TEST_F(CopilotRules, HttpAndPromptEntriesNeverRun) {
  auto h = native("{\"type\": \"http\", \"url\": \"http://127.0.0.1:9/hook\", \"timeoutSec\": 5}");
  EXPECT_EQ(count(h, "unsupported-type"), 1) << dump(h);
  auto p = native("{\"type\": \"prompt\", \"prompt\": \"deny\"}");
  EXPECT_EQ(count(p, "unsupported-type"), 1) << dump(p);
  auto c = native("{\"type\": \"command\", \"bash\": \"myhook\"}");
  EXPECT_EQ(count(c, "unsupported-type"), 0) << dump(c);
}
