// The host registry (pinta/hosts/hosts.h): hosts come from the families' profile data, in report
// order, and a new version profile is one data file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "pinta/hosts/effects.h"
#include "pinta/hosts/hosts.h"

namespace {

namespace stdfs = std::filesystem;
using pinta::hosts::Family;

std::vector<std::string> names(const std::vector<pinta::hosts::HostInfo>& r, bool graded_only) {
  std::vector<std::string> v;
  for (const auto& h : r)
    if (h.graded || !graded_only) v.push_back(h.name);
  return v;
}

struct TempDir {
  stdfs::path path;
  TempDir() {
    std::string t = (stdfs::temp_directory_path() / "pinta-hosts-XXXXXX").string();
    path = ::mkdtemp(t.data());
  }
  ~TempDir() {
    std::error_code ec;
    stdfs::remove_all(path, ec);
  }
};

// A copy of `from` under `to` with "name" replaced: the new profile file.
void copy_profile(const stdfs::path& from, const stdfs::path& to, const std::string& name) {
  std::ifstream in(from);
  nlohmann::json j = nlohmann::json::parse(in);
  j["name"] = name;
  std::ofstream(to) << j.dump(1);
}

TEST(Registry, ShippedHostsInReportOrder) {
  // The source tree's data (the test runs in the build tree, so find_dir falls to the sources
  // unless the env vars point elsewhere).
  ::unsetenv("PINTA_AGY_PROFILES");
  ::unsetenv("PINTA_GEMINI_PROFILES");
  const auto r = pinta::hosts::read_registry(pinta::hosts::profile_dirs());
  const std::vector<std::string> want = {
      "gemini-0.35", "gemini-0.37",     "gemini-0.61", "agy-1.0", "agy-1.1", "agy-1.2.1-darwin-arm64",
      "agy-1.2",     "antigravity-2.0", "deel-1.17"};
  // Other Gemini profiles may be added (each one is a host): compare the ones we know, in order.
  std::vector<std::string> got;
  for (const auto& n : names(r, true))
    if (std::find(want.begin(), want.end(), n) != want.end()) got.push_back(n);
  EXPECT_EQ(got, want);
  // The first host is Gemini, the last one the last registered family's (graded: its host
  // runner is registered): families in registration order.
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(r.front().family, Family::kGemini);
  std::vector<pinta::hosts::HostInfo> graded;
  for (const auto& h : r)
    if (h.graded) graded.push_back(h);
  ASSERT_FALSE(graded.empty());
  const Family last = pinta::hosts::families().back().id;
  EXPECT_EQ(graded.back().family, last);
  // A profile with the hook rules of another host is graded as that one (not a column of its own).
  for (const auto& h : r)
    if (h.name == "gemini-0.40") {
      EXPECT_FALSE(h.graded);
      EXPECT_EQ(h.graded_as, "gemini-0.61");
    }
  EXPECT_EQ(r.back().family, last);
  EXPECT_TRUE(std::any_of(r.begin(), r.end(), [](const auto& h) { return h.name == "claude-code-2.1"; }));
  // Every registered family lists at least one host.
  for (const auto& d : pinta::hosts::families())
    EXPECT_TRUE(std::any_of(r.begin(), r.end(), [&](const auto& h) { return h.family == d.id; }))
        << d.name;
  // docs.json is a profile the emulator runs but the suite does not grade.
  const auto all = names(r, false);
  EXPECT_NE(std::find(all.begin(), all.end(), "docs"), all.end());
  for (const auto& h : r)
    if (h.name == "docs") {
      EXPECT_FALSE(h.graded);
    }
}

TEST(Registry, FamiliesAreLookupsNotNames) {
  EXPECT_EQ(pinta::hosts::host_family("gemini-0.61"), Family::kGemini);
  EXPECT_EQ(pinta::hosts::host_family("gemini-0.35"), Family::kGemini);
  EXPECT_EQ(pinta::hosts::host_family("agy-1.1"), Family::kAntigravity);
  EXPECT_EQ(pinta::hosts::host_family("deel-1.17"), Family::kDeel);
  EXPECT_EQ(pinta::hosts::family_of("antigravity-2.0"), "antigravity");
  EXPECT_EQ(pinta::hosts::family_of("docs"), "antigravity");
  EXPECT_EQ(pinta::hosts::family_of("gemini-0.40"), "gemini");
  // No default family: a name the registry does not know has none (it used to be Antigravity).
  EXPECT_FALSE(pinta::hosts::host_family("no-such-host").has_value());
  EXPECT_FALSE(pinta::hosts::host_family("gemini-0.99").has_value());
  EXPECT_EQ(pinta::hosts::family_of("no-such-host"), "");
  EXPECT_FALSE(pinta::hosts::is_exit_code_host("no-such-host"));
  EXPECT_FALSE(pinta::hosts::is_json_line_host("no-such-host"));
  EXPECT_EQ(pinta::hosts::host_family("claude-code-2.1"), pinta::hosts::Family::kClaude);
  const auto list = pinta::hosts::host_list();
  EXPECT_EQ(list.rfind("gemini-", 0), 0u) << list;
  EXPECT_NE(list.find("|deel-1.17"), std::string::npos) << list;
  EXPECT_EQ(list.find("docs"), std::string::npos) << list;
}

// Adding a version profile to a family is one data file: copies of a shipped Antigravity and
// Gemini profile under new names in a data dir become hosts of their family, in file order.
TEST(Registry, NewProfileFileIsNewHost) {
  TempDir t;
  const stdfs::path agy = t.path / "agy", gem = t.path / "gemini";
  stdfs::copy(pinta::hosts::profile_dir(Family::kAntigravity), agy);
  stdfs::copy(pinta::hosts::profile_dir(Family::kGemini), gem);
  // Dirs indexed by Family: the fixed-host families need none.
  auto dirs = [](const stdfs::path& g, const stdfs::path& a) {
    std::vector<std::string> v(pinta::hosts::kFamilyCount);
    v[static_cast<size_t>(Family::kGemini)] = g.string();
    v[static_cast<size_t>(Family::kAntigravity)] = a.string();
    return v;
  };
  copy_profile(agy / "antigravity-2.0.json", agy / "antigravity-2.1.json", "antigravity-2.1");
  copy_profile(gem / "gemini-0.61.json", gem / "gemini-0.70.json", "gemini-0.70");
  const auto r = pinta::hosts::read_registry(dirs(gem, agy));
  const auto n = names(r, true);
  auto at = [&](const std::string& h) { return std::find(n.begin(), n.end(), h) - n.begin(); };
  ASSERT_LT(at("antigravity-2.1"), static_cast<long>(n.size()));
  ASSERT_LT(at("gemini-0.70"), static_cast<long>(n.size()));
  EXPECT_EQ(at("gemini-0.70"), at("gemini-0.61") + 1);
  EXPECT_EQ(at("antigravity-2.1"), at("antigravity-2.0") + 1);
  EXPECT_LT(at("antigravity-2.1"), at("deel-1.17"));
  for (const auto& h : r) {
    if (h.name == "antigravity-2.1") {
      EXPECT_EQ(h.family, Family::kAntigravity);
    }
    if (h.name == "gemini-0.70") {
      EXPECT_EQ(h.family, Family::kGemini);
      EXPECT_EQ(stdfs::path(h.profile).filename(), "gemini-0.70.json");
    }
  }
  // A file that is no profile contributes no host; a missing dir none either.
  std::ofstream(agy / "zz-broken.json") << "{not json";
  EXPECT_EQ(names(pinta::hosts::read_registry(dirs(gem, agy)), true), n);
  const auto none = pinta::hosts::read_registry(dirs(t.path / "absent", t.path / "absent"));
  // Without profile folders, the families with one fixed host, in registration order.
  std::vector<std::string> fixed;
  for (const auto& d : pinta::hosts::families())
    if (!std::string_view(d.hosts.value.fixed_host).empty()) fixed.emplace_back(d.hosts.value.fixed_host);
  EXPECT_EQ(names(none, true), fixed);
  EXPECT_EQ(fixed.front(), "deel-1.17");
}

TEST(Effects, WordingPerFamily) {
  EXPECT_EQ(pinta::hosts::describe_effect(Family::kGemini, "BeforeTool", "denied", "no", ""),
            "denied: the CLI prints `Tool execution blocked: no`");
  EXPECT_EQ(pinta::hosts::describe_effect(Family::kGemini, "AfterTool", "hook_failed", "", "bad"),
            "hook failed (logged; the CLI carries on): bad");
  EXPECT_EQ(pinta::hosts::describe_effect(Family::kAntigravity, "PreToolUse", "denied", "no", ""),
            "denied: no");
  EXPECT_EQ(pinta::hosts::describe_effect(Family::kDeel, "PreToolUse", "blocked",
                                          std::string(200, 'x') + "\n", ""),
            "blocked (exit 2): " + std::string(117, 'x') + "...");
  EXPECT_EQ(pinta::hosts::describe_effect(Family::kClaude, "PreToolUse", "denied",
                                          "PreToolUse:Bash hook error: no", ""),
            "denied; the model is told: PreToolUse:Bash hook error: no");
  EXPECT_EQ(pinta::hosts::describe_effect(Family::kClaude, "PreToolUse", "no_opinion", "", ""),
            "no output: the host goes on as without the hook");
  EXPECT_TRUE(pinta::hosts::same_failsafe(Family::kGemini, "allowed", "no_opinion"));
  EXPECT_FALSE(pinta::hosts::same_failsafe(Family::kAntigravity, "allowed", "no_opinion"));
  EXPECT_TRUE(pinta::hosts::same_failsafe(Family::kDeel, "passed", "passed"));
}

}  // namespace
