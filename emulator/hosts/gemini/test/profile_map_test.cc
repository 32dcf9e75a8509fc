// The one version -> profile mapping (profile_for_version): what hostemu drift, `hostemu gemini
// session --version` and `hostemu gemini profiles` use. Every published release in the profiled
// range maps to exactly one profile (the bisection record of docs/gemini-versions.md), a release
// outside it is an error naming the range, and the profiles of the tree cover one contiguous range.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "pinta/common/test_support.h"
#include "pinta/emulator/gemini/gemini.h"

namespace g = pinta::emu::gemini;
using g::ojson;

namespace {

void write_profile(const std::string& dir, const std::string& name, const std::string& from,
                   const std::string& through) {
  ojson p = ojson::object({{"name", name}, {"applies_from", from}, {"switches", ojson::object()}});
  if (!through.empty()) p["applies_through"] = through;
  std::ofstream(dir + "/" + name + ".json") << p.dump();
}

std::string mapped(const std::string& v) {
  auto m = g::profile_for_version(g::default_profile_dir(), v);
  return m ? m->name : "error: " + m.error().message;
}

}  // namespace

TEST(GeminiVersionKey, ParsesReleasesAndRejectsTheRest) {
  EXPECT_EQ(g::version_key("0.40.1"), (std::vector<long>{0, 40, 1}));
  EXPECT_EQ(g::version_key("0.45.0-nightly.20260529.gc82e2b597"), (std::vector<long>{0, 45, 0}));
  EXPECT_EQ(g::version_key("0.34"), (std::vector<long>{0, 34}));
  EXPECT_TRUE(g::version_key("").empty());
  EXPECT_TRUE(g::version_key("latest").empty());
  EXPECT_TRUE(g::version_key("0..1").empty());
  EXPECT_TRUE(g::version_key("1.2.").empty());
  EXPECT_TRUE(g::version_key("99999999999.0.0").empty());
}

// Every stable release from 0.26.0 to 0.61.0 (npm view @google/gemini-cli versions, 2026-12-06)
// against the profile of its behaviour: the bisection record of docs/gemini-versions.md
// (ci/gemini-bisect.py 0.26.0..0.61.0; boundaries 0.27.0 source only, 0.28.1, 0.29.0, 0.30.0 hook
// runner, 0.31.0, 0.34.0, 0.36.0, 0.37.2, 0.39.0, 0.39.1 folder trust, 0.42.0, 0.44.0, 0.45.2,
// 0.53.0, 0.61.0).
TEST(GeminiVersionMap, PublishedReleasesMapToTheirProfile) {
  const std::vector<std::pair<const char*, const char*>> expect = {
      {"0.26.0", "gemini-0.26"},
      {"0.27.0", "gemini-0.27"},
      {"0.27.4", "gemini-0.27"},
      {"0.28.1", "gemini-0.28"},
      {"0.28.2", "gemini-0.28"},
      {"0.29.0", "gemini-0.29"},
      {"0.30.0", "gemini-0.30"},
      {"0.30.1", "gemini-0.30"},
      {"0.31.0", "gemini-0.31"},
      {"0.32.1", "gemini-0.31"},
      {"0.33.0", "gemini-0.31"},
      {"0.33.2", "gemini-0.31"},
      {"0.34.0", "gemini-0.35"},
      {"0.35.0", "gemini-0.35"},
      {"0.35.2", "gemini-0.35"},
      {"0.35.3", "gemini-0.35"},
      {"0.36.0", "gemini-0.36"},
      {"0.37.2", "gemini-0.37"},
      {"0.38.0", "gemini-0.38"},
      {"0.38.2", "gemini-0.38"},
      {"0.39.0", "gemini-0.39"},
      {"0.39.1", "gemini-0.40"},
      {"0.40.0", "gemini-0.40"},
      {"0.40.1", "gemini-0.40"},
      {"0.41.0", "gemini-0.40"},
      {"0.41.2", "gemini-0.40"},
      {"0.42.0", "gemini-0.42"},
      {"0.43.0", "gemini-0.42"},
      {"0.44.0", "gemini-0.44"},
      {"0.45.2", "gemini-0.45"},
      {"0.47.0", "gemini-0.45"},
      {"0.51.0", "gemini-0.45"},
      {"0.52.0", "gemini-0.45"},
      {"0.53.0", "gemini-0.53"},
      {"0.54.4", "gemini-0.53"},
      {"0.55.1", "gemini-0.53"},
      {"0.56.0", "gemini-0.53"},
      {"0.57.0", "gemini-0.53"},
      {"0.58.0", "gemini-0.53"},
      {"0.59.0", "gemini-0.53"},
      {"0.60.0", "gemini-0.53"},
      {"0.61.0", "gemini-0.61"},
      {"0.61.0-nightly.20260909.ged2ac40df", "gemini-0.61"}};
  for (const auto& [v, p] : expect) EXPECT_EQ(mapped(v), p) << v;
}

TEST(GeminiVersionMap, OutsideTheRangeIsAnErrorNamingIt) {
  for (const char* v : {"0.62.0", "9.9.9", "0.25.0", "0.1.1"}) {
    auto m = g::profile_for_version(g::default_profile_dir(), v);
    ASSERT_FALSE(m) << v << " mapped to " << m->name;
    EXPECT_EQ(m.error().code, pinta::ErrorCode::kNotFound) << v;
    EXPECT_NE(m.error().message.find("0.26.0 .. 0.61.x"), std::string::npos) << m.error().message;
    EXPECT_NE(m.error().message.find("--assume-profile"), std::string::npos);
  }
  EXPECT_EQ(g::known_version_range(g::default_profile_dir()), "0.26.0 .. 0.61.x");
  auto bad = g::profile_for_version(g::default_profile_dir(), "latest");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, pinta::ErrorCode::kInvalidArgument);
}

// The tree's profiles tile one range: sorted by applies_from, each starts at the release line
// after the previous one's applies_through, so no published release falls between two profiles.
// A line may be split at a patch release (gemini-0.39 is 0.39.0 alone, "0.39.0"; gemini-0.40 starts
// at 0.39.1): then the next profile starts later in that same line.
TEST(GeminiVersionMap, TreeProfilesAreContiguous) {
  struct R {
    std::vector<long> from, through;
    std::string name;
  };
  std::vector<R> rs;
  for (auto& e : std::filesystem::directory_iterator(g::default_profile_dir())) {
    if (e.path().extension() != ".json") continue;
    auto p = g::load_profile(e.path().string());
    ASSERT_TRUE(p) << e.path();
    R r{g::version_key(p->value("applies_from", "")), g::version_key(p->value("applies_through", "")),
        p->value("name", "")};
    ASSERT_EQ(r.from.size(), 3u) << r.name;
    ASSERT_TRUE(r.through.size() == 2u || r.through.size() == 3u)
        << r.name << ": applies_through names a release line (0.34) or one release (0.39.0)";
    EXPECT_LE((std::vector<long>{r.from[0], r.from[1]}),
              (std::vector<long>{r.through[0], r.through[1]}))
        << r.name;
    if (r.through.size() == 3u) {
      EXPECT_LE(r.from, r.through) << r.name;
    }
    rs.push_back(r);
  }
  ASSERT_GE(rs.size(), 2u);
  std::sort(rs.begin(), rs.end(), [](const R& a, const R& b) { return a.from < b.from; });
  EXPECT_EQ(rs.front().from[2], 0) << rs.front().name << " starts at a line's first release";
  for (size_t i = 1; i < rs.size(); ++i) {
    const R& prev = rs[i - 1];
    const R& cur = rs[i];
    if (prev.through.size() == 3u) {
      // Cut inside a line: the next profile takes the rest of that line.
      EXPECT_EQ((std::vector<long>{cur.from[0], cur.from[1]}),
                (std::vector<long>{prev.through[0], prev.through[1]}))
          << prev.name << " -> " << cur.name;
      EXPECT_GT(cur.from[2], prev.through[2]) << prev.name << " -> " << cur.name;
    } else {
      EXPECT_EQ(cur.from[2], 0) << cur.name << " starts at a line's first release";
      EXPECT_EQ((std::vector<long>{cur.from[0], cur.from[1]}),
                (std::vector<long>{prev.through[0], prev.through[1] + 1}))
          << prev.name << " -> " << cur.name;
    }
  }
}

TEST(GeminiVersionMap, OverlapsAndMissingRangesAreErrors) {
  pinta::testing::TempDir t;
  ASSERT_TRUE(t.ok());
  write_profile(t.path(), "a", "0.10.0", "0.19");
  write_profile(t.path(), "b", "0.20.0", "0.29");
  auto m = g::profile_for_version(t.path(), "0.19.7");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->name, "a");
  m = g::profile_for_version(t.path(), "0.20.0");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->name, "b");
  EXPECT_FALSE(g::profile_for_version(t.path(), "0.30.0"));
  write_profile(t.path(), "c", "0.25.0", "0.31");  // overlaps b
  m = g::profile_for_version(t.path(), "0.26.0");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, pinta::ErrorCode::kInvalidArgument);
  EXPECT_NE(m.error().message.find("two profiles"), std::string::npos);
  std::filesystem::remove(t.path() + "/c.json");
  write_profile(t.path(), "d", "0.30.0", "");  // no applies_through: never a silent open end
  m = g::profile_for_version(t.path(), "0.12.0");
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("d.json"), std::string::npos);
}

// A line split at a patch release (as 0.39.0 | 0.39.1, headless folder trust): "0.39.0" as
// applies_through covers that release only, the next profile starts at the next patch.
TEST(GeminiVersionMap, PatchLevelCutSplitsALine) {
  pinta::testing::TempDir t;
  ASSERT_TRUE(t.ok());
  write_profile(t.path(), "a", "0.38.0", "0.39.0");
  write_profile(t.path(), "b", "0.39.1", "0.41");
  for (const auto& [v, want] : std::vector<std::pair<std::string, std::string>>{
           {"0.38.2", "a"}, {"0.39.0", "a"}, {"0.39.1", "b"}, {"0.39.7", "b"}, {"0.41.2", "b"}}) {
    auto m = g::profile_for_version(t.path(), v);
    ASSERT_TRUE(m) << v;
    EXPECT_EQ(m->name, want) << v;
  }
  EXPECT_FALSE(g::profile_for_version(t.path(), "0.42.0"));
}

TEST(GeminiVersionMap, UnknownProfileNameListsTheProfiles) {
  auto p = g::load_profile("gemini-0.48");
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("gemini-0.61"), std::string::npos) << p.error().message;
  EXPECT_NE(p.error().message.find("--version"), std::string::npos) << p.error().message;
}

// The hook result's outputFormat by release (switch hook_output_format): undefined before core
// 0.38.0 whatever was read (core 0.29.0/0.30.0/0.36.0 hooks/hookRunner.js, the 0.37.2 bundle),
// "json" / "text" from 0.38.0 (the 0.38.0 bundle, core 0.40.0); the reading itself is the same.
// Each release's mapped profile, run-hook's object on a JSON and a plain-text reply.
TEST(GeminiProfileMap, OutputFormatArrivesWith038) {
  pinta::testing::TempDir td;
  const std::vector<std::pair<std::string, bool>> releases = {
      {"0.26.0", false}, {"0.29.0", false}, {"0.30.0", false}, {"0.35.3", false},
      {"0.36.0", false}, {"0.37.2", false}, {"0.38.0", true},  {"0.38.2", true},
      {"0.39.0", true},  {"0.40.0", true},  {"0.61.0", true}};
  for (const auto& [release, field] : releases) {
    auto m = g::profile_for_version(g::default_profile_dir(), release);
    ASSERT_TRUE(m) << release;
    auto prof = g::load_profile(m->path);
    ASSERT_TRUE(prof) << m->path;
    g::RunContext ctx;
    ctx.cwd = td.path();
    ctx.rules = g::hook_rules_from_switches(g::profile_switches(*prof));
    for (const auto& [command, format] :
         {std::pair<std::string, std::string>{"echo '{\"decision\":\"allow\"}'", "json"},
          {"echo plain", "text"}}) {
      g::HookSpec h;
      h.command = command;
      const auto r = g::run_result_json(
          g::run_hook(h, "BeforeTool", ojson::object({{"hook_event_name", "BeforeTool"}}), ctx));
      EXPECT_EQ(r["outputFormat"], field ? ojson(format) : ojson(nullptr))
          << release << " (" << m->name << "): " << command;
      EXPECT_TRUE(r["output"].is_object()) << release << ": the reply is read either way";
    }
  }
}
