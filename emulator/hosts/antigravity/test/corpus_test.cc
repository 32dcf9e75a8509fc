// Walks test/corpus: y_ must load under every profile, n_ must be rejected under every profile,
// i_ follow corpus_expectations.json. Every file must name its evidence there.
#include <gtest/gtest.h>

#include <filesystem>

#include "pinta/common/fs.h"
#include "pinta/emulator/antigravity/antigravity.h"

namespace agy = pinta::emu::agy;

TEST(AgyCorpus, EveryFileMeetsItsExpectation) {
  auto profs = agy::load_profiles(agy::default_profile_dir());
  ASSERT_TRUE(profs);
  std::string dir = PINTA_AGY_CORPUS_DIR;
  auto exp_text = pinta::fs::read_file(dir + "/../corpus_expectations.json");
  ASSERT_TRUE(exp_text);
  auto exp = nlohmann::json::parse(*exp_text);
  size_t n = 0, y = 0, i = 0;
  for (const auto& ent : std::filesystem::directory_iterator(dir)) {
    std::string name = ent.path().filename().string();
    SCOPED_TRACE(name);
    ASSERT_TRUE(exp.contains(name)) << "no expectation/evidence for " << name;
    ASSERT_FALSE(exp[name].value("evidence", "").empty());
    auto text = pinta::fs::read_file(ent.path().string());
    ASSERT_TRUE(text);
    char kind = name[0];
    ASSERT_TRUE(kind == 'y' || kind == 'n' || kind == 'i') << name;
    if (kind == 'y') ++y;
    if (kind == 'n') ++n;
    if (kind == 'i') ++i;
    for (const auto& p : *profs) {
      auto r = agy::parse_hooks_json(*text, p, ent.path().string());
      std::string got = r ? "loaded" : "rejected";
      std::string want = kind == 'y'   ? "loaded"
                         : kind == 'n' ? "rejected"
                                       : exp[name]["profiles"].value(p.name, "?");
      EXPECT_EQ(got, want) << p.name << " evidence: " << exp[name]["evidence"]
                           << " error: " << (r ? "" : r.error().message);
      if (!r) {
        EXPECT_EQ(r.error().code, pinta::ErrorCode::kParse);
        EXPECT_EQ(r.error().message.rfind("failed to parse hooks.json at ", 0), 0u);
      }
    }
  }
  EXPECT_GE(y, 10u);
  EXPECT_GE(n, 20u);
  EXPECT_GE(i, 3u);
  // every expectation names an existing file
  for (const auto& [k, v] : exp.items()) EXPECT_TRUE(std::filesystem::exists(dir + "/" + k)) << k;
}

class AgyLoader : public ::testing::Test {
 protected:
  void SetUp() override {
    auto profs = agy::load_profiles(agy::default_profile_dir());
    ASSERT_TRUE(profs);
    profs_ = *profs;
  }
  const agy::Profile& p(const char* name) { return *agy::find_profile(profs_, name); }
  std::vector<agy::Profile> profs_;
};

TEST_F(AgyLoader, CaseInsensitiveKeysLastDuplicateWins) {
  // reference §2.4 / §1.2: Go encoding/json folds case; last duplicate wins.
  auto r = agy::parse_hooks_json(
      R"({"h":{"Stop":[{"command":"a"}],"stop":[{"command":"b"}]},"g":{"Stop":[{"command":"1"}]},"g":{"Stop":[{"command":"2"}]}})",
      p("agy-1.2"));
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->hooks.size(), 2u);
  EXPECT_EQ(r->hooks[0].name, "g");
  EXPECT_EQ(r->hooks[0].events.at(0).groups.at(0).hooks.at(0).command, "2");
  EXPECT_EQ(r->hooks[1].events.size(), 1u);
  EXPECT_EQ(r->hooks[1].events.at(0).groups.at(0).hooks.at(0).command, "b");
}

TEST_F(AgyLoader, HooksWrapperIsAHookNamedHooks) {
  auto r = agy::parse_hooks_json(
      R"({"hooks":{"PreToolUse":[{"matcher":"","hooks":[{"command":"x"}]}]}})", p("docs"));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->hooks.size(), 1u);
  EXPECT_EQ(r->hooks[0].name, "hooks");  // §2.2
}

TEST_F(AgyLoader, TimeoutDefaultsAndInt32) {
  auto r = agy::parse_hooks_json(
      R"({"h":{"Stop":[{"command":"a"},{"command":"b","timeout":7},{"command":"c","timeout":0},{"command":"d","timeout":2147483647}]}})",
      p("agy-1.1"));
  ASSERT_TRUE(r);
  const auto& hs = r->hooks[0].events[0].groups[0].hooks;
  EXPECT_EQ(hs[0].timeout_seconds, 30);
  EXPECT_EQ(hs[1].timeout_seconds, 7);
  EXPECT_EQ(hs[2].timeout_seconds, 30);  // zero value = default (inference, §5.5)
  EXPECT_EQ(hs[3].timeout_seconds, 2147483647);
}

TEST_F(AgyLoader, SilentDropsAreNoted) {
  auto r = agy::parse_hooks_json(
      R"({"h":{"UserPromptSubmit":[],"PreToolUse":[{"type":"command","command":"x"}]}})",
      p("agy-1.2"));
  ASSERT_TRUE(r);
  bool unknown_event = false, flat = false;
  for (const auto& n : r->notes) {
    if (n.message.find("UserPromptSubmit") != std::string::npos) unknown_event = true;
    if (n.message.find("written flat") != std::string::npos) flat = true;
  }
  EXPECT_TRUE(unknown_event);
  EXPECT_TRUE(flat);
}
