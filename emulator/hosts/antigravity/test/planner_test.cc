// Planner: matcher semantics (reference §4) and discovery / run plan (§1, §5.1-§5.2).
#include <gtest/gtest.h>

#include "pinta/common/fs.h"
#include "pinta/common/test_support.h"
#include "pinta/emulator/antigravity/antigravity.h"

namespace agy = pinta::emu::agy;

namespace {
agy::Profile profile(const char* name) {
  auto profs = agy::load_profiles(agy::default_profile_dir());
  return *agy::find_profile(*profs, name);
}
void put(const std::string& path, const std::string& text) {
  ASSERT_TRUE(pinta::fs::make_dirs(pinta::fs::dirname(path)).ok());
  ASSERT_TRUE(pinta::fs::atomic_write(path, text).ok());
}
}  // namespace

TEST(AgyMatcher, EmptyAndStarMatchAll) {  // §4 [DOC; OBS 1.1.2 safe-chains; OBS 1.0.5 websentry]
  for (bool anchored : {false, true}) {
    auto p = profile("agy-1.2");
    p.matcher_anchored = anchored;
    EXPECT_TRUE(agy::matcher_matches(p, "", "run_command"));
    EXPECT_TRUE(agy::matcher_matches(p, "*", "view_file"));
    EXPECT_TRUE(agy::matcher_matches(p, "*", ""));
  }
}

TEST(AgyMatcher, DocExamples) {  // seed 001 matcher examples
  for (bool anchored : {false, true}) {
    auto p = profile("docs");
    p.matcher_anchored = anchored;
    EXPECT_TRUE(agy::matcher_matches(p, "run_command", "run_command"));
    EXPECT_TRUE(agy::matcher_matches(p, "run_command|view_file", "view_file"));
    EXPECT_FALSE(agy::matcher_matches(p, "run_command|view_file", "list_dir"));
    EXPECT_TRUE(agy::matcher_matches(p, "browser_.*", "browser_click"));
    EXPECT_FALSE(agy::matcher_matches(p, "browser_.*", "view_file"));
    // §4: under RE2 `\|` is a literal '|', so the bundled doc example matches neither tool.
    EXPECT_FALSE(agy::matcher_matches(p, "run_command\\|view_file", "view_file"));
    EXPECT_FALSE(agy::matcher_matches(p, "run_command\\|view_file", "run_command"));
  }
}

TEST(AgyMatcher, AnchoringSwitch) {  // §4: anchoring Unknown, a profile switch
  auto p = profile("agy-1.2");
  p.matcher_anchored = false;  // Go regexp.MatchString: search
  EXPECT_TRUE(agy::matcher_matches(p, "run", "run_command"));
  EXPECT_TRUE(agy::matcher_matches(p, "command", "run_command"));
  EXPECT_TRUE(agy::matcher_matches(p, "^run_command$", "run_command"));
  p.matcher_anchored = true;  // "matches exactly" reading
  EXPECT_FALSE(agy::matcher_matches(p, "run", "run_command"));
  EXPECT_TRUE(agy::matcher_matches(p, "run_.*", "run_command"));
  EXPECT_FALSE(agy::matcher_matches(p, "run_command", "mcp_x_run_command"));
}

TEST(AgyMatcher, CaseSensitiveAndInvalidPatterns) {
  auto p = profile("agy-1.2");
  EXPECT_FALSE(agy::matcher_matches(p, "Run_Command", "run_command"));
  EXPECT_FALSE(agy::matcher_valid("("));
  EXPECT_TRUE(agy::matcher_valid("a|b"));
  p.invalid_matcher = "no-match";
  EXPECT_FALSE(agy::matcher_matches(p, "(", "run_command"));
  p.invalid_matcher = "match-all";
  EXPECT_TRUE(agy::matcher_matches(p, "(", "run_command"));
}

TEST(AgyPlan, DiscoveryOrderAndStatuses) {
  pinta::testing::TempDir home, ws;
  put(home.sub(".gemini/config/hooks.json"),
      R"({"b":{"PreToolUse":[{"matcher":"run_command","hooks":[{"command":"b1","timeout":5}]}]},)"
      R"("a":{"PreToolUse":[{"matcher":"","hooks":[{"command":"a1"},{"command":"a2"}]},{"matcher":"view_file","hooks":[{"command":"a3"}]}]},)"
      R"("off":{"enabled":false,"PreToolUse":[{"matcher":"","hooks":[{"command":"off"}]}]}})");
  put(home.sub(".gemini/antigravity-cli/hooks.json"),
      R"({"legacy":{"PreToolUse":[{"matcher":"","hooks":[{"command":"legacy"}]}]}})");
  put(home.sub(".gemini/settings.json"), R"({"hooks":{}})");
  put(ws.sub(".agents/hooks.json"), R"({"_note":"x","w":{"Stop":[{"command":"w"}]}})");
  agy::PlanRequest rq{home.path(), ws.path(), agy::Event::kPreToolUse, "run_command", ""};
  auto pl = agy::plan(profile("agy-1.2"), rq);
  std::map<std::string, std::string> st;
  for (const auto& f : pl.files) st[f.path] = f.status;
  EXPECT_EQ(st[home.sub(".gemini/config/hooks.json")], "loaded");
  EXPECT_EQ(st[home.sub(".gemini/antigravity-cli/hooks.json")], "not-read");
  EXPECT_EQ(st[home.sub(".gemini/settings.json")], "not-read");
  EXPECT_EQ(st[ws.sub(".agents/hooks.json")], "rejected");  // §2.2 non-object sibling
  EXPECT_EQ(st[home.sub(".gemini/antigravity-ide/hooks.json")], "not-read");
  ASSERT_EQ(pl.run.size(), 3u);  // names sorted; a3 does not match; "off" disabled
  EXPECT_EQ(pl.run[0].command, "a1");
  EXPECT_EQ(pl.run[0].id, "jsonhook__a_PreToolUse_0_0");
  EXPECT_EQ(pl.run[1].command, "a2");
  EXPECT_EQ(pl.run[2].command, "b1");
  EXPECT_EQ(pl.run[2].timeout_seconds, 5);
  EXPECT_EQ(pl.run[0].timeout_seconds, 30);
  EXPECT_EQ(pl.run[0].cwd, home.sub(".gemini/config"));  // §5.2 [DOC]
  EXPECT_EQ(pl.run[0].argv, (std::vector<std::string>{"sh", "-c", "a1"}));
  for (const auto& f : pl.files)
    if (f.status == "rejected") {
      EXPECT_NE(f.error.find("failed to parse hooks.json at"), std::string::npos);
    }

  // No tool given: only match-all groups.
  rq.tool = "";
  EXPECT_EQ(agy::plan(profile("agy-1.2"), rq).run.size(), 2u);
}

TEST(AgyPlan, WorkspaceOnlyWhenOpenAndLifecycleFlat) {
  pinta::testing::TempDir home, ws;
  put(ws.sub(".agents/hooks.json"),
      R"({"w":{"Stop":[{"command":"w"}],"SessionStart":[{"command":"s"}]}})");
  agy::PlanRequest rq{home.path(), "", agy::Event::kStop, "", ""};
  auto pl = agy::plan(profile("agy-1.1"), rq);
  EXPECT_TRUE(pl.run.empty());
  rq.workspace = ws.path();
  pl = agy::plan(profile("agy-1.1"), rq);
  ASSERT_EQ(pl.run.size(), 1u);
  EXPECT_EQ(pl.run[0].cwd, ws.sub(".agents"));
  rq.event = agy::Event::kSessionStart;
  EXPECT_EQ(agy::plan(profile("agy-1.1"), rq).run.size(), 1u);  // §8: 1.1.27 fires
  EXPECT_TRUE(agy::plan(profile("agy-1.0"), rq).run.empty());   // §8: dropped on 1.0.5
}

TEST(AgyPlan, EarlyProfileSplitsAndUsesLaunchDir) {
  pinta::testing::TempDir home;
  put(home.sub(".gemini/config/hooks.json"),
      R"({"h":{"Stop":[{"command":"~/bin/hook  --event Stop"}]}})");
  agy::PlanRequest rq{home.path(), "", agy::Event::kStop, "", "/launch"};
  auto pl = agy::plan(profile("agy-1.0"), rq);
  ASSERT_EQ(pl.run.size(), 1u);
  EXPECT_EQ(pl.run[0].argv,
            (std::vector<std::string>{home.path() + "/bin/hook", "--event", "Stop"}));  // §5.1
  EXPECT_EQ(pl.run[0].cwd, "/launch");  // §5.2 tanaike claim
}

TEST(AgyPlan, PluginRootsPerProfile) {  // §1.1 conflicting by version
  pinta::testing::TempDir home;
  put(home.sub(".gemini/config/plugins/p1/hooks.json"), R"({"p":{"Stop":[{"command":"plug"}]}})");
  agy::PlanRequest rq{home.path(), "", agy::Event::kStop, "", ""};
  EXPECT_TRUE(agy::plan(profile("agy-1.1"), rq).run.empty());
  auto pl = agy::plan(profile("docs"), rq);
  ASSERT_EQ(pl.run.size(), 1u);
  EXPECT_EQ(pl.run[0].cwd, home.sub(".gemini/config/plugins/p1"));
}

// antigravity-cli#1008: the file loads and the hooks are registered (the plan lists them) but a
// profile whose hooks_run is false never fires one; lint says so.
TEST(AgyLint, HooksThatNeverRunNeverFire) {
  auto profs = agy::load_profiles(agy::default_profile_dir());
  ASSERT_TRUE(profs);
  const char* text = R"({"h":{"Stop":[{"command":"x"}]}})";
  auto j = agy::lint(*profs, text, "f.json");
  size_t checked = 0;
  for (const auto& pj : j["profiles"]) {
    const auto* p = agy::find_profile(*profs, pj["profile"].get<std::string>());
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(pj["status"], "loaded");
    EXPECT_EQ(pj["hooksRun"], p->hooks_run);
    EXPECT_EQ(pj["hooks"][0]["neverFires"], !p->hooks_run) << p->name;
    checked += !p->hooks_run;
  }
  EXPECT_EQ(checked, 1u);
}

TEST(AgyLint, ReportsPerProfile) {
  auto profs = agy::load_profiles(agy::default_profile_dir());
  auto j = agy::lint(
      *profs,
      R"({"h":{"Stop":[{"matcher":"*","hooks":[{"command":"x"}]}]},"g":{"enabled":false,"Stop":[{"command":"y"}]}})",
      "f.json");
  ASSERT_EQ(j["profiles"].size(), profs->size());
  for (const auto& pj : j["profiles"]) {
    if (pj["profile"] == "agy-1.1") {
      EXPECT_EQ(pj["status"], "rejected");
      EXPECT_NE(pj["error"].get<std::string>().find("command hook must specify 'command'"),
                std::string::npos);
    } else {
      EXPECT_EQ(pj["status"], "loaded");
      for (const auto& h : pj["hooks"]) EXPECT_TRUE(h["neverFires"].get<bool>()) << h.dump();
    }
  }
}
