// Claude Code 2.1.332 host data: matcher semantics and the planner (settings precedence, disable
// switches, de-duplication). The expectations are the real CLI's, measured by the matchers,
// ups-matcher-ignored, parallel-dedup and settings-* scenarios (emulator/hosts/claude/test).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "pinta/hosts/claude/claude.h"

namespace cl = pinta::hosts::claude;
namespace sfs = std::filesystem;

TEST(ClaudeMatcher, MeasuredOnTheRealCli) {
  // Matched on 2.1.332 for tool Bash: Bash, Ba.*, ^Bash$, Write|Bash, "Write, Bash", "Bash ",
  // B[a]sh, " Bash", .*, "", *. Not matched: bash, Ba, (Bash, Edit.
  for (const char* m : {"Bash", "Ba.*", "^Bash$", "Write|Bash", "Write, Bash", "Bash ", "B[a]sh",
                        " Bash", ".*", "", "*"})
    EXPECT_TRUE(cl::matcher_matches("PreToolUse", m, "Bash")) << m;
  for (const char* m : {"bash", "Ba", "(Bash", "Edit"})
    EXPECT_FALSE(cl::matcher_matches("PreToolUse", m, "Bash")) << m;
}

// A regex matcher is JavaScript's RegExp (`new RegExp(m).test(tool)`), not std::regex: lookbehind
// and named groups work, `\d` and `[^]` read as JavaScript reads them, and an invalid pattern
// matches nothing. (std::regex rejected the first two, so such a hook never ran in the emulator.)
TEST(ClaudeMatcher, RegexMatchersAreJavaScriptRegExps) {
  EXPECT_TRUE(cl::matcher_matches("PreToolUse", "(?<=Web)Fetch", "WebFetch"));
  EXPECT_FALSE(cl::matcher_matches("PreToolUse", "(?<=Web)Fetch", "Fetch"));
  EXPECT_TRUE(cl::matcher_matches("PreToolUse", "(?<tool>Ba)sh", "Bash"));
  EXPECT_TRUE(cl::matcher_matches("PreToolUse", "mcp__s\\d__.*", "mcp__s1__read"));
  EXPECT_TRUE(cl::matcher_matches("PreToolUse", "B[^]sh", "Bash"));
  EXPECT_FALSE(cl::matcher_matches("PreToolUse", "(?<=Web", "WebFetch"));
}

TEST(ClaudeMatcher, EventsWithoutTargetIgnoreTheMatcher) {
  EXPECT_TRUE(cl::matcher_matches("UserPromptSubmit", "Nothing", ""));
  EXPECT_TRUE(cl::matcher_matches("Stop", "Edit", ""));
  EXPECT_FALSE(cl::matcher_matches("SessionStart", "resume", "startup"));
  EXPECT_TRUE(cl::matcher_matches("SessionStart", "startup", "startup"));
}

TEST(ClaudeEvents, TargetsFromPayload) {
  EXPECT_EQ(cl::match_target("PreToolUse", {{"tool_name", "Bash"}}), "Bash");
  EXPECT_EQ(cl::match_target("SessionStart", {{"source", "startup"}}), "startup");
  EXPECT_EQ(cl::match_target("SessionEnd", {{"reason", "other"}}), "other");
  EXPECT_EQ(cl::match_target("Stop", {{"tool_name", "Bash"}}), "");
  EXPECT_TRUE(cl::is_event("PostToolUseFailure"));
  EXPECT_FALSE(cl::is_event("BeforeTool"));
}

namespace {
struct Dirs {
  sfs::path root;
  Dirs() {
    root = sfs::temp_directory_path() / ("claude-hosts-test-" + std::to_string(::getpid()));
    sfs::remove_all(root);
    sfs::create_directories(root / "home/.claude");
    sfs::create_directories(root / "proj/.claude");
    sfs::create_directories(root / "managed");
    ::setenv("PINTA_CLAUDE_MANAGED_DIR", (root / "managed").c_str(), 1);
  }
  ~Dirs() { sfs::remove_all(root); }
  void write(const sfs::path& p, const std::string& text) { std::ofstream(root / p) << text; }
  cl::SettingsSources sources() {
    cl::SettingsSources s;
    s.home = (root / "home").string();
    s.project = (root / "proj").string();
    return s;
  }
};
std::string hook(const std::string& cmd, const std::string& matcher = "Bash") {
  return R"({"hooks":{"PreToolUse":[{"matcher":")" + matcher + R"(","hooks":[{"type":"command","command":")" +
         cmd + R"(","timeout":3}]}]}})";
}
}  // namespace

TEST(ClaudeSettings, EverySourceRunsAndIdenticalCommandsRunOnce) {
  Dirs d;
  d.write("home/.claude/settings.json", hook("echo user"));
  d.write("proj/.claude/settings.json", hook("echo same"));
  d.write("proj/.claude/settings.local.json", hook("echo same", "*"));
  d.write("extra.json", hook("echo flag"));
  d.write("managed/managed-settings.json", hook("echo policy"));
  auto s = d.sources();
  s.extra = {(d.root / "extra.json").string()};
  auto loaded = cl::load_settings(s);
  ASSERT_TRUE(loaded.has_value());
  auto p = cl::plan(*loaded, "PreToolUse", "Bash");
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0].source, "user");
  EXPECT_EQ(p[1].command, "echo same");
  EXPECT_EQ(p[1].source, "project");
  EXPECT_EQ(p[2].source, "flag");
  EXPECT_EQ(p[3].source, "policy");
  EXPECT_EQ(p[0].timeout_ms, 3000);
  // Edit: only the "*" group (whose command is also the project one, so it is planned from local).
  auto e = cl::plan(*loaded, "PreToolUse", "Edit");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].source, "local");
}

TEST(ClaudeSettings, DisableSwitches) {
  Dirs d;
  d.write("home/.claude/settings.json", hook("echo user"));
  d.write("proj/.claude/settings.json", R"({"disableAllHooks":true})");
  d.write("managed/managed-settings.json", hook("echo policy"));
  auto loaded = cl::load_settings(d.sources());
  ASSERT_TRUE(loaded.has_value());
  auto p = cl::plan(*loaded, "PreToolUse", "Bash");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].source, "policy");
  d.write("proj/.claude/settings.local.json", R"({"disableAllHooks":false})");
  EXPECT_EQ(cl::plan(*cl::load_settings(d.sources()), "PreToolUse", "Bash").size(), 2u);
  d.write("managed/managed-settings.json", R"({"allowManagedHooksOnly":true})");
  EXPECT_EQ(cl::plan(*cl::load_settings(d.sources()), "PreToolUse", "Bash").size(), 0u);
}

TEST(ClaudeSettings, BadFilesAreSkippedAMissingSettingsArgumentIsAnError) {
  Dirs d;
  d.write("home/.claude/settings.json", "{not json");
  d.write("proj/.claude/settings.json", hook("echo p"));
  auto loaded = cl::load_settings(d.sources());
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(cl::plan(*loaded, "PreToolUse", "Bash").size(), 1u);
  auto s = d.sources();
  s.extra = {(d.root / "nope.json").string()};
  EXPECT_FALSE(cl::load_settings(s).has_value());
}

TEST(ClaudeSettings, OnlyTheLastSettingsFlagCounts) {  // settings-two-flags(-disable)
  Dirs d;
  d.write("proj/.claude/settings.json", hook("echo proj"));
  d.write("a.json", R"({"disableAllHooks":true,"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"echo a"}]}]}})");
  d.write("b.json", hook("echo b"));
  auto s = d.sources();
  s.extra = {(d.root / "a.json").string(), (d.root / "b.json").string()};
  auto p = cl::plan(*cl::load_settings(s), "PreToolUse", "Bash");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].command, "echo proj");
  EXPECT_EQ(p[1].command, "echo b");
}

// settings-rejected-*: one value outside the schema and none of the file's hooks run; the other
// files' hooks still do. settings-loads-ignored-shapes: what is only ignored.
TEST(ClaudeSettings, ASchemaProblemRejectsEveryHookOfItsFile) {
  Dirs d;
  d.write("home/.claude/settings.json", hook("echo user"));
  d.write("proj/.claude/settings.json",
          R"({"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"command":"echo notype"},)"
          R"({"type":"command","command":"echo valid"}]}]}})");
  auto loaded = cl::load_settings(d.sources());
  ASSERT_TRUE(loaded.has_value());
  auto p = cl::plan(*loaded, "PreToolUse", "Bash");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].command, "echo user");
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_NE(loaded->warnings[0].find("hooks rejected"), std::string::npos) << loaded->warnings[0];
  EXPECT_NE(loaded->warnings[0].find("/hooks/PreToolUse/0/hooks/0"), std::string::npos);
}

TEST(ClaudeSettings, SchemaProblemsAreTheMeasuredOnes) {
  auto kinds = [](const char* text) {
    std::vector<std::string> k;
    for (const auto& p : cl::hooks_schema_problems(nlohmann::json::parse(text))) k.push_back(p.kind);
    return k;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(kinds(R"({"hooks":{"Stop":[{"hooks":[{"command":"x"}]}]}})"), V{"type"});
  EXPECT_EQ(kinds(R"({"hooks":{"Stop":[{"hooks":[{"type":"shell","command":"x"}]}]}})"), V{"type"});
  EXPECT_EQ(kinds(R"({"hooks":{"Stop":[{"hooks":[{"type":"command"}]}]}})"), V{"command"});
  EXPECT_EQ(kinds(R"({"hooks":{"Stop":[{"hooks":[{"type":"prompt"}]}]}})"), V{"prompt"});
  EXPECT_EQ(kinds(R"({"hooks":{"Stop":[{"hooks":[{"type":"http"}]}]}})"), V{"url"});
  EXPECT_EQ(kinds(R"({"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":0}]}]}})"),
            V{"timeout"});
  EXPECT_EQ(kinds(R"({"hooks":{"Stop":[{"matcher":null,"hooks":[]}]}})"), V{"matcher"});
  EXPECT_EQ(kinds(R"({"hooks":{"Stop":["x",{"matcher":"a"}]}})"), (V{"group", "hooks"}));
  EXPECT_EQ(kinds(R"({"hooks":{"Stop":[{"hooks":["x"]}]}})"), V{"handler"});
  EXPECT_EQ(kinds(R"({"Stop":[],"disableAllHooks":1})"), (V{"disable", "root-event"}));
  // Ignored, not rejected.
  EXPECT_EQ(kinds(R"({"foo":1,"Stop":{},"hooks":{"Nope":["x"],"Stop":null,"PreToolUse":)"
                  R"([{"matchr":1,"hooks":[{"type":"command","command":" ","timeout":0.5,"x":1}]}]}})"),
            V{});
}
