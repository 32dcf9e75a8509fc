// The lint rules for Claude Code 2.1.332 settings files, one test per rule: a file that triggers
// it (at the right place) and a near-identical one that does not; and explain over the settings
// sources. Every file lives in a temp home and project; PATH is fixed.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "pinta/hostlint/lint.h"
#include "pinta/hosts/family.h"
#include "lint_fixture.h"

namespace hl = pinta::hostlint;

namespace {

constexpr const char* kUser = ".claude/settings.json";  // under home
constexpr const char* kProject = "ws/.claude/settings.json";
constexpr const char* kLocal = "ws/.claude/settings.local.json";

class ClaudeRules : public pinta::hostlint::testing::LintRulesTest {
 protected:
  void SetUp() override {
    LintRulesTest::SetUp();
    if (HasFatalFailure()) return;
    write(bin_ + "/pinta-gemini", "#!/bin/sh\nexit 0\n", 0755);
    // The managed policy folder is read by explain: keep it inside the temp dir.
    ::setenv("PINTA_CLAUDE_MANAGED_DIR", tmp_.sub("managed").c_str(), 1);  // NOLINT
  }
  void TearDown() override { ::unsetenv("PINTA_CLAUDE_MANAGED_DIR"); }  // NOLINT
  // A file with one PreToolUse group (matcher + hooks).
  std::vector<hl::Finding> pre(const std::string& group_body, const std::string& rel = kProject) {
    return lint(rel, "{\"hooks\": {\"PreToolUse\": [" + group_body + "]}}");
  }
  static std::string hook(const std::string& command, const std::string& extra = "") {
    return "{\"type\": \"command\", \"command\": \"" + command + "\"" + extra + "}";
  }
};

TEST(ClaudeHostNames, ParsedThroughTheRegistry) {
  EXPECT_EQ(hl::parse_host("claude-code"), hl::Host::kClaude);
  EXPECT_EQ(hl::parse_host("claude"), hl::Host::kClaude);  // an --agent label
  EXPECT_EQ(hl::parse_host("agy"), hl::Host::kAntigravity);
  EXPECT_FALSE(hl::parse_host("claud"));
  EXPECT_FALSE(hl::parse_host(""));
  EXPECT_EQ(hl::host_name(hl::Host::kClaude), "claude-code");
  // Every registered family, in registration order.
  std::string names;
  for (const auto& d : pinta::hosts::families())
    names += (names.empty() ? "" : "|") + std::string(d.name);
  EXPECT_EQ(hl::host_names(), names);
  EXPECT_NE(names.find("claude-code"), std::string::npos);
}

TEST_F(ClaudeRules, DetectedFromItsSettingsPaths) {
  EXPECT_EQ(*hl::detect_host("/h/.claude/settings.json", "{}"), hl::Host::kClaude);
  EXPECT_EQ(*hl::detect_host("/w/.claude/settings.local.json", "{}"), hl::Host::kClaude);
  // Elsewhere a Claude-style root is read by several hosts: no guess.
  auto r = hl::detect_host("/t/a.json", R"({"hooks":{"PreToolUse":[]}})");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("claude-code"), std::string::npos) << r.error().message;
}

TEST_F(ClaudeRules, CleanFileHasNoFinding) {
  auto f = lint(kProject,
                "{\"hooks\": {\n"
                " \"PreToolUse\": [{\"matcher\": \"Write|Edit\", \"hooks\": [" +
                    hook("myhook", ", \"timeout\": 30") +
                    "]},\n"
                    "   {\"matcher\": \"^mcp__.*\", \"hooks\": [" + hook("myhook") + "]}],\n"
                    " \"SessionStart\": [{\"matcher\": \"startup|resume\", \"hooks\": [" +
                    hook(bin_ + "/pinta-gemini --agent claude-code --event SessionStart") +
                    "]}],\n"
                    " \"Stop\": [{\"hooks\": [" + hook("myhook") + "]}]}}");
  EXPECT_TRUE(f.empty()) << dump(f);
}

TEST_F(ClaudeRules, JsonSyntax) {
  auto f = lint(kProject, "{\n  \"hooks\": {},\n}\n");
  const auto* x = find(f, "json-syntax");
  ASSERT_NE(x, nullptr) << dump(f);
  EXPECT_EQ(x->severity, hl::Severity::kError);
  EXPECT_EQ(x->pos.line, 3);
  EXPECT_EQ(count(lint(kProject, "{\n  \"hooks\": {}\n}\n"), "json-syntax"), 0);
}

TEST_F(ClaudeRules, ForeignRoot) {
  // An event at the root holding an object is ignored (an array there rejects the file).
  auto at_root = lint(kProject, "{\n\"Stop\": {\"hooks\": [" + hook("myhook") + "]}}");
  ASSERT_EQ(count(at_root, "foreign-root"), 1) << dump(at_root);
  EXPECT_EQ(find(at_root, "foreign-root")->pos.line, 2);
  EXPECT_EQ(count(at_root, "file-rejected"), 0) << dump(at_root);
  auto arr = lint(kProject, "{\"hooks\": [{\"event\": \"PreToolUse\", \"command\": \"myhook\"}]}");
  ASSERT_EQ(count(arr, "foreign-root"), 1) << dump(arr);
  EXPECT_NE(find(arr, "foreign-root")->message.find("deel"), std::string::npos);
  EXPECT_EQ(count(lint(kProject, "[1]"), "foreign-root"), 1);
  EXPECT_EQ(count(pre("{\"hooks\": [" + hook("myhook") + "]}"), "foreign-root"), 0);
}

TEST_F(ClaudeRules, UnknownEvent) {
  auto typo = lint(kProject, "{\"hooks\": {\"PreToolUs\": [{\"hooks\": [" + hook("myhook") + "]}]}}");
  ASSERT_EQ(count(typo, "unknown-event"), 1) << dump(typo);
  EXPECT_NE(find(typo, "unknown-event")->hint.find("PreToolUse"), std::string::npos);
  auto gem = lint(kProject, "{\"hooks\": {\"BeforeTool\": [{\"hooks\": [" + hook("myhook") + "]}]}}");
  ASSERT_EQ(count(gem, "unknown-event"), 1) << dump(gem);
  EXPECT_NE(find(gem, "unknown-event")->hint.find("PreToolUse"), std::string::npos);
  // An event of 2.1.332's list that the adapter does not install is still known.
  auto known = lint(kProject, "{\"hooks\": {\"CwdChanged\": [{\"hooks\": [" + hook("myhook") + "]}]}}");
  EXPECT_EQ(count(known, "unknown-event"), 0) << dump(known);
}

TEST_F(ClaudeRules, EventShape) {
  // real: settings-loads-ignored-shapes — an event that is not an array is skipped alone.
  auto obj = lint(kProject, "{\"hooks\": {\"Stop\": {\"hooks\": []}}}");
  EXPECT_EQ(count(obj, "event-shape"), 1) << dump(obj);
  EXPECT_EQ(count(obj, "file-rejected"), 0) << dump(obj);
  EXPECT_EQ(count(pre("{\"hooks\": [" + hook("myhook") + "]}"), "event-shape"), 0);
}

// real: settings-rejected-* — one value outside the schema and none of the file's hooks run;
// every such value is reported where it is.
TEST_F(ClaudeRules, FileRejected) {
  const std::string ok = ", {\"matcher\": \"Bash\", \"hooks\": [" + hook("myhook") + "]}";
  struct Case {
    std::string group, pointer, says;
  };
  const std::vector<Case> cases = {
      {"{\"hooks\": [{\"command\": \"myhook\"}]}", "/hooks/0", "without \"type\""},
      {"{\"hooks\": [{\"type\": \"comand\", \"command\": \"myhook\"}]}", "/hooks/0/type",
       "not command, prompt"},
      {"{\"hooks\": [{\"type\": \"command\"}]}", "/hooks/0", "\"command\" is missing"},
      {"{\"hooks\": [{\"type\": \"command\", \"command\": 7}]}", "/hooks/0/command",
       "not a string"},
      {"{\"hooks\": [{\"type\": \"prompt\"}]}", "/hooks/0", "\"prompt\" is missing"},
      {"{\"hooks\": [{\"type\": \"http\"}]}", "/hooks/0", "\"url\" is missing"},
      {"{\"hooks\": [" + hook("myhook", ", \"timeout\": \"30\"") + "]}", "/hooks/0/timeout",
       "not a positive number"},
      {"{\"hooks\": [" + hook("myhook", ", \"timeout\": 0") + "]}", "/hooks/0/timeout",
       "not a positive number"},
      {"{\"hooks\": [" + hook("myhook", ", \"timeout\": null") + "]}", "/hooks/0/timeout",
       "not a positive number"},
      {"{\"matcher\": [\"Bash\"], \"hooks\": [" + hook("myhook") + "]}", "/matcher",
       "not a string"},
      {"{\"matcher\": null, \"hooks\": [" + hook("myhook") + "]}", "/matcher", "not a string"},
      {"\"Bash\"", "", "not an object"},
      {"{\"matcher\": \"Bash\"}", "", "without a \"hooks\" array"},
      {hook("myhook"), "", "directly in the PreToolUse list"},
      {"{\"hooks\": [\"myhook\"]}", "/hooks/0", "not an object"}};
  for (const auto& c : cases) {
    auto f = pre(c.group + ok);
    ASSERT_EQ(count(f, "file-rejected"), 1) << c.group << "\n" << dump(f);
    const auto* x = find(f, "file-rejected");
    EXPECT_EQ(x->severity, hl::Severity::kError);
    EXPECT_NE(x->message.find(c.says), std::string::npos) << x->message;
    EXPECT_NE(x->message.find("none of them run"), std::string::npos) << x->message;
  }
  auto root = lint(kProject, "{\"PreToolUse\": [{\"hooks\": [" + hook("myhook") +
                                 "]}],\n\"disableAllHooks\": \"yes\"}");
  EXPECT_EQ(count(root, "file-rejected"), 2) << dump(root);
  // What loads (real: settings-loads-ignored-shapes): no rejection.
  auto loads = lint(kProject,
                    "{\"foo\": 1, \"Stop\": 1, \"hooks\": {\"PreToolUs\": [\"x\"], "
                    "\"SubagentStop\": null, \"PreToolUse\": [{\"matchr\": \"Bash\", \"hooks\": [" +
                        hook("myhook", ", \"timeout\": 0.5, \"timout\": 5") + "]}]}}");
  EXPECT_EQ(count(loads, "file-rejected"), 0) << dump(loads);
}

TEST_F(ClaudeRules, UnknownKey) {
  auto f = pre("{\"matchr\": \"Bash\", \"hooks\": [" + hook("myhook", ", \"timout\": 5") + "]}");
  ASSERT_EQ(count(f, "unknown-key"), 2) << dump(f);
  for (const auto& x : f)
    if (x.rule == "unknown-key") {
      EXPECT_NE(x.message.find("did you mean"), std::string::npos);
    }
  EXPECT_EQ(count(pre("{\"matcher\": \"Bash\", \"hooks\": [" +
                      hook("myhook", ", \"timeout\": 5, \"statusMessage\": \"x\"") + "]}"),
                  "unknown-key"),
            0);
}

TEST_F(ClaudeRules, InvalidHandler) {
  // real: settings-empty-command — "" starts nothing and is reported failed.
  auto empty = pre("{\"hooks\": [{\"type\": \"command\", \"command\": \"\"}]}");
  ASSERT_EQ(count(empty, "invalid-handler"), 1) << dump(empty);
  EXPECT_EQ(find(empty, "invalid-handler")->severity, hl::Severity::kError);
  // A blank command runs and does nothing (real: settings-loads-ignored-shapes).
  auto blank = pre("{\"hooks\": [{\"type\": \"command\", \"command\": \" \"}]}");
  ASSERT_EQ(count(blank, "invalid-handler"), 1) << dump(blank);
  EXPECT_EQ(find(blank, "invalid-handler")->severity, hl::Severity::kWarning);
  // A prompt hook is a hook type Claude Code runs (not a process: nothing to check).
  EXPECT_EQ(count(pre("{\"hooks\": [{\"type\": \"prompt\", \"prompt\": \"ok?\"}]}"),
                  "invalid-handler"),
            0);
  EXPECT_EQ(count(pre("{\"hooks\": [" + hook("myhook") + "]}"), "invalid-handler"), 0);
}

TEST_F(ClaudeRules, TimeoutUnit) {
  auto ms = pre("{\"hooks\": [" + hook("myhook", ", \"timeout\": 5000") + "]}");
  ASSERT_EQ(count(ms, "timeout-unit"), 1) << dump(ms);
  EXPECT_NE(find(ms, "timeout-unit")->hint.find("write 5 for 5000 ms"), std::string::npos)
      << find(ms, "timeout-unit")->hint;
  EXPECT_EQ(count(pre("{\"hooks\": [" + hook("myhook", ", \"timeout\": 30") + "]}"),
                  "timeout-unit"),
            0);
}

TEST_F(ClaudeRules, MatcherInvalid) {
  auto re = pre("{\"matcher\": \"(Bash\", \"hooks\": [" + hook("myhook") + "]}");
  ASSERT_EQ(count(re, "matcher-invalid"), 1) << dump(re);
  EXPECT_EQ(find(re, "matcher-invalid")->severity, hl::Severity::kError);
  EXPECT_EQ(count(pre("{\"matcher\": \"(Bash)\", \"hooks\": [" + hook("myhook") + "]}"),
                  "matcher-invalid"),
            0);
}

TEST_F(ClaudeRules, MatcherIgnored) {
  auto f = lint(kProject, "{\"hooks\": {\"UserPromptSubmit\": [{\"matcher\": \"Bash\", \"hooks\": [" +
                              hook("myhook") + "]}]}}");
  ASSERT_EQ(count(f, "matcher-ignored"), 1) << dump(f);
  EXPECT_EQ(count(lint(kProject, "{\"hooks\": {\"UserPromptSubmit\": [{\"matcher\": \"*\", "
                                 "\"hooks\": [" + hook("myhook") + "]}]}}"),
                  "matcher-ignored"),
            0);
  // SessionStart has a target (its source): its matcher is read.
  EXPECT_EQ(count(lint(kProject, "{\"hooks\": {\"SessionStart\": [{\"matcher\": \"startup\", "
                                 "\"hooks\": [" + hook("myhook") + "]}]}}"),
                  "matcher-ignored"),
            0);
}

TEST_F(ClaudeRules, MatcherCase) {
  auto lc = pre("{\"matcher\": \"Write|bash\", \"hooks\": [" + hook("myhook") + "]}");
  ASSERT_EQ(count(lc, "matcher-case"), 1) << dump(lc);
  EXPECT_NE(find(lc, "matcher-case")->hint.find("'Bash'"), std::string::npos);
  auto gem = pre("{\"matcher\": \"run_shell_command\", \"hooks\": [" + hook("myhook") + "]}");
  ASSERT_EQ(count(gem, "matcher-case"), 1) << dump(gem);
  EXPECT_NE(find(gem, "matcher-case")->hint.find("'Bash'"), std::string::npos);
  EXPECT_EQ(count(pre("{\"matcher\": \"Write, Bash\", \"hooks\": [" + hook("myhook") + "]}"),
                  "matcher-case"),
            0);
}

TEST_F(ClaudeRules, MatcherNeverMatches) {
  auto prefix = pre("{\"matcher\": \"Notebook\", \"hooks\": [" + hook("myhook") + "]}");
  ASSERT_EQ(count(prefix, "matcher-never-matches"), 1) << dump(prefix);
  EXPECT_NE(find(prefix, "matcher-never-matches")->message.find("not as a prefix"),
            std::string::npos);
  auto space = pre("{\"matcher\": \"Write Bash\", \"hooks\": [" + hook("myhook") + "]}");
  EXPECT_EQ(count(space, "matcher-never-matches"), 1) << dump(space);
  auto rule = pre("{\"matcher\": \"Bash(git *)\", \"hooks\": [" + hook("myhook") + "]}");
  ASSERT_EQ(count(rule, "matcher-never-matches"), 1) << dump(rule);
  EXPECT_NE(find(rule, "matcher-never-matches")->message.find("permission-rule"),
            std::string::npos);
  auto src = lint(kProject, "{\"hooks\": {\"SessionStart\": [{\"matcher\": \"startp\", "
                            "\"hooks\": [" + hook("myhook") + "]}]}}");
  ASSERT_EQ(count(src, "matcher-never-matches"), 1) << dump(src);
  EXPECT_NE(find(src, "matcher-never-matches")->message.find("did you mean 'startup'"),
            std::string::npos);
  // Regular expressions that reach a tool, exact names, MCP names: quiet.
  for (const char* m : {"Ba.*", "^Bash$", "B[a]sh", "NotebookEdit", "mcp__srv__tool", "Bash "})
    EXPECT_EQ(count(pre("{\"matcher\": \"" + std::string(m) + "\", \"hooks\": [" +
                        hook("myhook") + "]}"),
                    "matcher-never-matches"),
              0)
        << m;
}

TEST_F(ClaudeRules, MatcherCatastrophic) {
  auto f = pre("{\"matcher\": \"(B+)+ash\", \"hooks\": [" + hook("myhook") + "]}");
  EXPECT_EQ(count(f, "matcher-catastrophic"), 1) << dump(f);
  EXPECT_EQ(count(pre("{\"matcher\": \"B+ash\", \"hooks\": [" + hook("myhook") + "]}"),
                  "matcher-catastrophic"),
            0);
}

TEST_F(ClaudeRules, HookDisabledInTheFileAndByPrecedence) {
  const std::string hooks = "\"hooks\": {\"Stop\": [{\"hooks\": [" + hook("myhook") + "]}]}";
  auto self = lint(kProject, "{\"disableAllHooks\": true, " + hooks + "}");
  ASSERT_EQ(count(self, "hook-disabled"), 1) << dump(self);
  EXPECT_EQ(count(lint(kProject, "{\"disableAllHooks\": false, " + hooks + "}"), "hook-disabled"),
            0);
  // The local file wins over the project file (real: settings-disable-local-override)...
  write(path_of(kLocal), "{\"disableAllHooks\": true}");
  auto by_local = lint(kProject, "{" + hooks + "}");
  ASSERT_EQ(count(by_local, "hook-disabled"), 1) << dump(by_local);
  EXPECT_NE(find(by_local, "hook-disabled")->message.find("settings.local.json"),
            std::string::npos);
  // ... and a local false turns a project true back off.
  write(path_of(kLocal), "{\"disableAllHooks\": false}");
  write(path_of(kProject), "{\"disableAllHooks\": true}");
  auto local = lint(kLocal, "{\"disableAllHooks\": false, " + hooks + "}");
  EXPECT_EQ(count(local, "hook-disabled"), 0) << dump(local);
}

// The managed policy is above every file (docs "Disable or remove hooks").
TEST_F(ClaudeRules, HookDisabledByTheManagedPolicy) {
  const std::string hooks = "{\"hooks\": {\"Stop\": [{\"hooks\": [" + hook("myhook") + "]}]}}";
  EXPECT_EQ(count(lint(kUser, hooks), "hook-disabled"), 0);
  write(tmp_.sub("managed") + "/managed-settings.json", "{\"allowManagedHooksOnly\": true}");
  auto only = lint(kUser, hooks);
  ASSERT_EQ(count(only, "hook-disabled"), 1) << dump(only);
  EXPECT_NE(find(only, "hook-disabled")->message.find("allowManagedHooksOnly"), std::string::npos);
  write(tmp_.sub("managed") + "/managed-settings.json", "{\"disableAllHooks\": true}");
  auto off = lint(kProject, hooks);
  ASSERT_EQ(count(off, "hook-disabled"), 1) << dump(off);
  EXPECT_NE(find(off, "hook-disabled")->message.find("no hook runs"), std::string::npos);
}

TEST_F(ClaudeRules, AdapterAgent) {
  auto gem = pre("{\"hooks\": [" + hook(bin_ + "/pinta-gemini --agent gemini --event PreToolUse") +
                 "]}");
  ASSERT_EQ(count(gem, "adapter-agent"), 1) << dump(gem);
  EXPECT_EQ(find(gem, "adapter-agent")->severity, hl::Severity::kError);
  EXPECT_NE(find(gem, "adapter-agent")->message.find("Gemini CLI"), std::string::npos);
  EXPECT_EQ(count(pre("{\"hooks\": [" + hook(bin_ + "/pinta-gemini --event PreToolUse") + "]}"),
                  "adapter-agent"),
            1);
  EXPECT_EQ(count(pre("{\"hooks\": [" + hook(bin_ + "/pinta-gemini --agent cc --event PreToolUse") +
                      "]}"),
                  "adapter-agent"),
            1);
  for (const char* label : {"claude-code", "claude"})
    EXPECT_EQ(count(pre("{\"hooks\": [" +
                        hook(bin_ + "/pinta-gemini --agent " + label + " --event PreToolUse") +
                        "]}"),
                    "adapter-agent"),
              0)
        << label;
}

TEST_F(ClaudeRules, AdapterEvent) {
  auto f = pre("{\"hooks\": [" + hook(bin_ + "/pinta-gemini --agent claude-code --event Stop") +
               "]}");
  ASSERT_EQ(count(f, "adapter-event"), 1) << dump(f);
  EXPECT_NE(find(f, "adapter-event")->hint.find("--event PreToolUse"), std::string::npos);
  EXPECT_EQ(count(pre("{\"hooks\": [" +
                      hook(bin_ + "/pinta-gemini --agent claude-code --event PreToolUse") + "]}"),
                  "adapter-event"),
            0);
}

TEST_F(ClaudeRules, CommandNotFoundResolvesTheProjectDir) {
  auto f = pre("{\"hooks\": [" + hook("no-such-hook-program") + "]}");
  ASSERT_EQ(count(f, "command-not-found"), 1) << dump(f);
  // A missing program exits 127: a non-blocking error, so only a warning.
  EXPECT_EQ(find(f, "command-not-found")->severity, hl::Severity::kWarning);
  auto missing = pre("{\"hooks\": [" + hook("$CLAUDE_PROJECT_DIR/hooks/check.sh") + "]}");
  EXPECT_EQ(count(missing, "command-not-found"), 1) << dump(missing);
  write(ws_ + "/hooks/check.sh", "#!/bin/sh\nexit 0\n", 0755);
  EXPECT_EQ(count(pre("{\"hooks\": [" + hook("$CLAUDE_PROJECT_DIR/hooks/check.sh") + "]}"),
                  "command-not-found"),
            0);
}

// ---- explain ------------------------------------------------------------------------------------

TEST_F(ClaudeRules, ExplainListsEverySourceAndSaysWhyOthersDoNotRun) {
  write(path_of(kUser), "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [" +
                            hook("user-hook") + "]}]}}");
  write(path_of(kProject),
        "{\"hooks\": {\"PreToolUse\": [\n"
        "  {\"matcher\": \"Write\", \"hooks\": [" + hook("project-write") + "]},\n"
        "  {\"matcher\": \"Ba.*\", \"hooks\": [" + hook("project-bash") + ", " +
            hook("user-hook") + "]}]}}");
  write(path_of(kLocal), "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [" + hook("local-all") + "]}]}}");
  hl::ExplainRequest rq;
  rq.host = hl::Host::kClaude;
  rq.home = home_;
  rq.workspace = ws_;
  rq.event = "PreToolUse";
  rq.tool = "Bash";
  auto r = hl::explain(rq, opts_);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->size(), 1u);
  const auto& s = (*r)[0];
  EXPECT_EQ(s.host, "claude-code 2.1.332");
  ASSERT_EQ(s.hooks.size(), 3u) << hl::format_explain(*r, "text");
  EXPECT_EQ(s.hooks[0].command, "user-hook");
  EXPECT_EQ(s.hooks[0].layer, "user");
  EXPECT_EQ(s.hooks[0].timeout, "600 s");
  EXPECT_EQ(s.hooks[1].command, "project-bash");
  EXPECT_EQ(s.hooks[1].layer, "project");
  EXPECT_EQ(s.hooks[1].pos.line, 3);
  EXPECT_EQ(s.hooks[2].command, "local-all");
  EXPECT_EQ(s.hooks[2].layer, "local");
  std::string dropped;
  for (const auto& d : s.dropped) dropped += d + "\n";
  EXPECT_NE(dropped.find("matcher \"Write\" does not match 'Bash'"), std::string::npos) << dropped;
  EXPECT_NE(dropped.find("identical commands run once"), std::string::npos) << dropped;

  // A hook without "type" in the local file: its hooks are rejected, and explain says so.
  write(path_of(kLocal), "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [" + hook("local-all") +
                             ", {\"command\": \"untyped\"}]}]}}");
  auto rej = hl::explain(rq, opts_);
  ASSERT_TRUE(rej);
  EXPECT_EQ((*rej)[0].hooks.size(), 2u) << hl::format_explain(*rej, "text");
  bool said = false;
  for (const auto& n : (*rej)[0].notes) said = said || n.find("hooks rejected") != std::string::npos;
  EXPECT_TRUE(said) << hl::format_explain(*rej, "text");

  // disableAllHooks in the local file turns them all off.
  write(path_of(kLocal), "{\"disableAllHooks\": true}");
  auto off = hl::explain(rq, opts_);
  ASSERT_TRUE(off);
  EXPECT_TRUE((*off)[0].hooks.empty()) << hl::format_explain(*off, "text");
  bool noted = false;
  for (const auto& n : (*off)[0].notes) noted = noted || n.find("disableAllHooks") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST_F(ClaudeRules, ExplainRefusesUnknownEventsAndToolsWithoutTarget) {
  hl::ExplainRequest rq;
  rq.host = hl::Host::kClaude;
  rq.home = home_;
  rq.event = "PreToolUs";
  auto r = hl::explain(rq, opts_);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("did you mean 'PreToolUse'"), std::string::npos)
      << r.error().message;
  rq.event = "Stop";
  rq.tool = "Bash";
  EXPECT_FALSE(hl::explain(rq, opts_));
  rq.tool.clear();
  EXPECT_TRUE(hl::explain(rq, opts_));
}

}  // namespace
