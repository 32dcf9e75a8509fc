// The Codex version profiles (hosts/codex/profiles/): which profile a release maps to (the
// bisection's boundaries, docs/hosts/codex-0.171.md "Releases"), the rules each one sets, and a
// profile folder that cannot be read as one range per profile is an error, not a silent miss.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "pinta/hosts/codex/codex.h"

namespace cx = pinta::hosts::codex;

namespace {

std::string source_profiles() {
  const char* src = std::getenv("PINTA_SOURCE_DIR");
  return std::string(src ? src : ".") + "/hosts/codex/profiles";
}

std::string profile_of(const std::string& v) {
  auto p = cx::profile_for_version(source_profiles(), v);
  return p ? p->name : "error: " + p.error().message;
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("codex-profiles-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
  }
};

std::string profile_json(const std::string& name, const std::string& from, const std::string& through,
                         const std::string& switches = "{}") {
  return R"({"name":")" + name + R"(","applies_from":")" + from + R"(","applies_through":")" +
         through + R"(","switches":)" + switches + "}";
}

}  // namespace

// Every boundary the bisection measured, on both of its sides (ci/codex-bisect.py).
TEST(CodexProfiles, ReleasesMapToTheProfileOfTheirBehaviour) {
  for (const auto& [v, want] : std::vector<std::pair<std::string, std::string>>{
           {"0.124.0", "codex-0.124"},
           {"0.125.0", "codex-0.124"},
           {"0.128.0", "codex-0.124"},
           {"0.129.0", "codex-0.129"},
           {"0.135.0", "codex-0.129"},
           {"0.140.0", "codex-0.140"},
           {"0.141.0", "codex-0.141"},
           {"0.142.2", "codex-0.141"},
           {"0.144.4", "codex-0.141"},
           {"0.144.6", "codex-0.141"},
           {"0.145.0", "codex-0.145"},
           {"0.146.0", "codex-0.171"},
           {"0.149.1", "codex-0.171"},
           {"0.171.0", "codex-0.171"},
           {"0.171.9", "codex-0.171"},
       })
    EXPECT_EQ(profile_of(v), want) << v;
}

TEST(CodexProfiles, OutsideEveryRangeIsNotFound) {
  // 0.123.0: hooks not on by default (`codex features list`: codex_hooks under development);
  // 0.172.0: past the newest profile, what the version radar flags.
  for (const char* v : {"0.123.0", "0.172.0", "1.0.0"}) {
    auto p = cx::profile_for_version(source_profiles(), v);
    ASSERT_FALSE(p) << v;
    EXPECT_EQ(p.error().code, pinta::ErrorCode::kNotFound) << v;
    EXPECT_NE(p.error().message.find("0.124.0 .. 0.171.x"), std::string::npos)
        << p.error().message;
  }
  for (const char* v : {"0.171", "0.171.0-alpha.1", "v0.171.0", "", "0.1x.0"}) {
    auto p = cx::profile_for_version(source_profiles(), v);
    ASSERT_FALSE(p) << v;
    EXPECT_EQ(p.error().code, pinta::ErrorCode::kInvalidArgument) << v;
  }
}

TEST(CodexProfiles, RulesDifferWhereTheReleasesDo) {
  auto newest = cx::profile_named(source_profiles(), "codex-0.171");
  auto mid = cx::profile_named(source_profiles(), "codex-0.141");
  auto oldest = cx::profile_named(source_profiles(), "codex-0.124");
  ASSERT_TRUE(newest && mid && oldest);
  // SessionEnd from 0.145.0 on; the compaction and subagent events where hooks run after 0.128.
  EXPECT_TRUE(cx::fires(newest->rules, "SessionEnd"));
  EXPECT_FALSE(cx::fires(mid->rules, "SessionEnd"));
  EXPECT_TRUE(cx::fires(mid->rules, "PreCompact"));
  EXPECT_FALSE(cx::fires(oldest->rules, "PreCompact"));
  EXPECT_FALSE(cx::fires(oldest->rules, "SubagentStart"));
  for (const auto* p : {&*newest, &*mid, &*oldest})
    for (const char* e : {"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest",
                          "PostToolUse", "Stop"})
      EXPECT_TRUE(cx::fires(p->rules, e)) << p->name << " " << e;
  EXPECT_FALSE(cx::fires(newest->rules, "NoSuchEvent"));
  EXPECT_TRUE(newest->rules.updated_input);
  EXPECT_TRUE(mid->rules.updated_input);
  EXPECT_FALSE(oldest->rules.updated_input);
  EXPECT_TRUE(mid->rules.hook_trust);
  EXPECT_FALSE(oldest->rules.hook_trust);
  auto silent = cx::profile_named(source_profiles(), "codex-0.129");
  ASSERT_TRUE(silent);
  EXPECT_FALSE(silent->rules.hooks_run);
  for (const auto* p : {&*newest, &*mid, &*oldest}) EXPECT_TRUE(p->rules.hooks_run);
  // The defaults are the newest release's.
  const cx::Rules defaults;
  EXPECT_TRUE(defaults.hook_trust && defaults.updated_input && defaults.hooks_run);
  EXPECT_TRUE(cx::fires(defaults, "SessionEnd"));
}

// The deny race (a PreToolUse block lost beside another hook) on every release with hooks up to
// 0.145.0, on none from 0.146.0 (scenario multi-deny-then-slow-silent's runs per release).
TEST(CodexProfiles, TheDenyRaceEndsWith0145) {
  auto all = cx::read_profiles(source_profiles());
  ASSERT_TRUE(all) << all.error().message;
  for (const auto& p : *all) {
    if (!p.rules.hooks_run) continue;  // no hook runs: nothing to race
    // Minor versions: every profile starts at 0.X.0 with X of three digits.
    const bool before = std::stoi(p.applies_from.substr(2)) <= 145;
    EXPECT_EQ(p.rules.deny_race, before) << p.name;
  }
  EXPECT_TRUE(cx::profile_for_version(source_profiles(), "0.145.0")->rules.deny_race);
  EXPECT_FALSE(cx::profile_for_version(source_profiles(), "0.146.0")->rules.deny_race);
  EXPECT_FALSE(cx::Rules{}.deny_race);  // the default is 0.171.0's
}

// A profile graded as another (its conformance column) runs and reads one hook as that one does:
// hooks_run and updated_input equal (the switches the one-hook runner reads; events fired, hook
// trust, the notices and deny_race are the session's and the plan's, as for Gemini's columns). The
// graded columns differ there, so no column repeats another. Names: a profile is
// named after the first release line of its range (codex-0.141 for 0.141.0 .. 0.144.x), as the
// Gemini profiles are, except the newest, named after the reference release its scenarios were
// recorded on, a release of its range (codex-0.171 for 0.146.0 .. 0.171.x: the lane's pinned
// 0.171.0; a range extended to newer releases keeps the name).
TEST(CodexProfiles, GradedAsSharesTheOneHookRulesAndNamesFollowTheRanges) {
  auto all = cx::read_profiles(source_profiles());
  ASSERT_TRUE(all) << all.error().message;
  size_t shared = 0;
  for (const auto& p : *all) {
    if (&p == &all->back()) {  // named after a release line inside its range
      auto named = cx::profile_for_version(source_profiles(), p.name.substr(6) + ".0");
      EXPECT_TRUE(named && named->name == p.name) << p.file;
    } else {
      EXPECT_EQ(p.name, "codex-" + p.applies_from.substr(0, p.applies_from.rfind('.'))) << p.file;
    }
    if (p.graded_as.empty()) continue;
    ++shared;
    auto g = cx::profile_named(source_profiles(), p.graded_as);
    ASSERT_TRUE(g) << p.name << ": " << g.error().message;
    EXPECT_TRUE(g->graded_as.empty()) << p.graded_as << " is graded as another in turn";
    EXPECT_EQ(p.rules.hooks_run, g->rules.hooks_run) << p.name;
    EXPECT_EQ(p.rules.updated_input, g->rules.updated_input) << p.name;
  }
  EXPECT_GE(shared, 1u);
  // The graded columns differ in the one-hook rules: none repeats another.
  for (const auto& a : *all) {
    for (const auto& b : *all) {
      if (&a < &b && a.graded_as.empty() && b.graded_as.empty() && a.rules.hooks_run &&
          b.rules.hooks_run) {
        EXPECT_NE(a.rules.updated_input, b.rules.updated_input) << a.name << " and " << b.name;
      }
    }
  }
}

TEST(CodexProfiles, ARangeIsFromAReleaseThroughAReleaseOrALine) {
  TempDir d;
  d.write("a.json", profile_json("codex-a", "0.10.0", "0.10.3"));
  d.write("b.json", profile_json("codex-b", "0.10.4", "0.12"));
  EXPECT_EQ(cx::profile_for_version(d.path.string(), "0.10.3")->name, "codex-a");
  EXPECT_EQ(cx::profile_for_version(d.path.string(), "0.10.4")->name, "codex-b");
  EXPECT_EQ(cx::profile_for_version(d.path.string(), "0.12.99")->name, "codex-b");
  EXPECT_FALSE(cx::profile_for_version(d.path.string(), "0.13.0"));
  EXPECT_FALSE(cx::profile_for_version(d.path.string(), "0.9.9"));
  auto named = cx::profile_named(d.path.string(), "codex-b");
  ASSERT_TRUE(named);
  EXPECT_TRUE(named->rules.events.empty());  // no events switch: every event
  EXPECT_FALSE(cx::profile_named(d.path.string(), "codex-c"));
}

TEST(CodexProfiles, ABadProfileFolderIsAnError) {
  struct Bad {
    const char* why;
    std::string a, b;
  };
  for (const auto& c : std::vector<Bad>{
           {"overlap", profile_json("x", "0.1.0", "0.2"), profile_json("y", "0.2.5", "0.3")},
           {"unknown switch", profile_json("x", "0.1.0", "0.2", R"({"hook_trusts":true})"), ""},
           {"a switch no release needs", profile_json("x", "0.1.0", "0.2", R"({"legacy_block":false})"), ""},
           {"switch type", profile_json("x", "0.1.0", "0.2", R"({"hook_trust":"yes"})"), ""},
           {"unknown event", profile_json("x", "0.1.0", "0.2", R"({"events":["PreTool"]})"), ""},
           {"no events", profile_json("x", "0.1.0", "0.2", R"({"events":[]})"), ""},
           {"from a line", profile_json("x", "0.1", "0.2"), ""},
           {"bad through", profile_json("x", "0.1.0", "latest"), ""},
           {"not JSON", "{", ""},
       }) {
    TempDir d;
    d.write("a.json", c.a);
    if (!c.b.empty()) d.write("b.json", c.b);
    auto all = cx::read_profiles(d.path.string());
    EXPECT_FALSE(all) << c.why;
    EXPECT_FALSE(cx::profile_for_version(d.path.string(), "0.1.5")) << c.why;
  }
  TempDir empty;
  auto none = cx::read_profiles(empty.path.string());
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, pinta::ErrorCode::kNotFound);
}
