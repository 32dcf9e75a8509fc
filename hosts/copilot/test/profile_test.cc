// The Copilot CLI version profiles (hosts/copilot/profiles/): which profile each release maps to
// (the probes' boundaries, docs/hosts/copilot-1.0.md "Other releases"; a release no probe has
// placed maps to none), the rules each sets, that each rule a profile changes names its evidence,
// and that a folder which cannot be read as one range per profile is an error, not a silent miss.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "pinta/common/fs.h"
#include "pinta/common/test_support.h"
#include "pinta/hosts/copilot/copilot.h"

namespace cp = pinta::hosts::copilot;

namespace {

std::string source_profiles() { return pinta::testing::source_dir() + "/hosts/copilot/profiles"; }

std::string profile_of(const std::string& v) {
  auto p = cp::profile_for_version(source_profiles(), v);
  return p ? p->name : p.error().code == pinta::ErrorCode::kNotFound ? "none" : "error";
}

TEST(CopilotProfiles, EveryProbedBoundaryOnBothSidesAndTheUnprobedReleasesInNone) {
  // Probed: 1.0.57, 1.0.59, 1.0.60 | 1.0.61 | 1.0.63 | 1.0.64, 1.0.65 | 1.0.73 | 1.0.102.
  const std::pair<const char*, const char*> want[] = {
      {"1.0.57", "copilot-1.0.57"}, {"1.0.60", "copilot-1.0.57"}, {"1.0.61", "copilot-1.0.61"},
      {"1.0.62", "none"},           {"1.0.63", "copilot-1.0.63"}, {"1.0.64", "copilot-1.0.64"},
      {"1.0.65", "copilot-1.0.64"}, {"1.0.66", "none"},           {"1.0.71", "none"},
      {"1.0.73", "copilot-1.0.73"}, {"1.0.75", "none"},           {"1.0.92", "none"},
      {"1.0.102", "copilot-1.0"},   {"1.0.103", "none"},          {"1.0.56", "none"},
      {"1.0.64-1", "error"},        {"1.0", "error"}};
  for (const auto& [v, name] : want) EXPECT_EQ(profile_of(v), name) << v;
}

TEST(CopilotProfiles, TheRulesOfEachRangeAsMeasured) {
  auto rules = [](const char* name) {
    auto p = cp::profile_named(source_profiles(), name);
    EXPECT_TRUE(p) << name;
    return p ? p->rules : cp::Rules{};
  };
  const cp::Rules a = rules("copilot-1.0.57"), d = rules("copilot-1.0.73"), e = rules("copilot-1.0");
  EXPECT_FALSE(a.exit2_denies);
  EXPECT_TRUE(a.timeout_denies);
  EXPECT_FALSE(a.errored_names_file);
  EXPECT_FALSE(a.claude_settings);
  EXPECT_TRUE(a.tool_args_text);
  EXPECT_FALSE(a.claude_tool_names);
  EXPECT_FALSE(cp::fires(a, "userPromptTransformed"));
  EXPECT_TRUE(cp::fires(a, "PreToolUse"));
  EXPECT_FALSE(cp::fires(a, "noSuchEvent"));
  EXPECT_TRUE(rules("copilot-1.0.61").errored_names_file);
  EXPECT_TRUE(rules("copilot-1.0.63").claude_tool_names);
  EXPECT_TRUE(rules("copilot-1.0.63").timeout_denies);
  EXPECT_FALSE(rules("copilot-1.0.64").timeout_denies);
  EXPECT_FALSE(rules("copilot-1.0.64").exit2_denies);
  EXPECT_TRUE(d.exit2_denies);
  EXPECT_TRUE(d.claude_settings);
  EXPECT_TRUE(d.tool_args_text);
  EXPECT_FALSE(d.hook_dir_env);
  EXPECT_TRUE(cp::fires(d, "userPromptTransformed"));
  // 1.0.102's profile is the defaults: every recorded scenario was measured on it.
  EXPECT_EQ(cp::switch_values(e), cp::switch_values(cp::Rules{}));
}

// A profile that changes a rule from 1.0.102's says why: some evidence line names the switch.
TEST(CopilotProfiles, EveryChangedRuleNamesItsEvidence) {
  auto all = cp::read_profiles(source_profiles());
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->size(), 6u);
  const auto base = cp::switch_values(cp::Rules{});
  for (const auto& p : *all) {
    const auto j = nlohmann::json::parse(*pinta::fs::read_file(p.file));
    const std::string evidence = j["evidence"].dump();
    const auto mine = cp::switch_values(p.rules);
    for (size_t i = 0; i < mine.size(); ++i)
      if (mine[i].second != base[i].second)
        EXPECT_NE(evidence.find(mine[i].first), std::string::npos)
            << p.name << " changes " << mine[i].first << " without naming it in its evidence";
  }
}

TEST(CopilotProfiles, AFolderThatIsNotOneRangePerProfileIsAnError) {
  pinta::testing::TempDir t;
  ASSERT_TRUE(t.ok());
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(t.sub(name)) << text;
  };
  auto profile = [](const std::string& name, const std::string& from, const std::string& through,
                    const std::string& extra) {
    return R"({"name":")" + name + R"(","applies_from":")" + from + R"(","applies_through":")" +
           through + R"(","switches":{})" + extra + "}";
  };
  const std::string ev = R"(,"evidence":["measured"])";
  EXPECT_FALSE(cp::read_profiles(t.path()));  // empty
  write("a.json", profile("a", "1.0.57", "1.0.60", ev));
  ASSERT_TRUE(cp::read_profiles(t.path()));
  write("b.json", profile("b", "1.0.60", "1.0.61", ev));
  auto overlap = cp::read_profiles(t.path());
  ASSERT_FALSE(overlap);
  EXPECT_NE(overlap.error().message.find("overlap"), std::string::npos);
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {profile("b", "1.0.61", "1.0.62", ""), "evidence"},
           {profile("b", "1.0.61", "1.0.62", R"(,"evidence":[])"), "evidence"},
           {profile("b", "1.0.61", "1.0.x", ev), "releases"},
           {profile("b", "1.0.62", "1.0.61", ev), "before"},
           {R"({"name":"b","applies_from":"1.0.61","applies_through":"1.0.61","evidence":["m"],"switches":{"exit2_denies":1}})", "true or false"},
           {R"({"name":"b","applies_from":"1.0.61","applies_through":"1.0.61","evidence":["m"],"switches":{"exit_two":true}})", "unknown switch"}}) {
    write("b.json", text);
    auto r = cp::read_profiles(t.path());
    ASSERT_FALSE(r) << text;
    EXPECT_NE(r.error().message.find(why), std::string::npos) << r.error().message;
  }
  write("b.json", profile("b", "1.0.61", "1.0.62", ev));
  EXPECT_EQ(cp::profile_for_version(t.path(), "1.0.62")->name, "b");
  EXPECT_EQ(cp::profile_named(t.path(), "a")->applies_through, "1.0.60");
  EXPECT_FALSE(cp::profile_named(t.path(), "c"));
}

}  // namespace
