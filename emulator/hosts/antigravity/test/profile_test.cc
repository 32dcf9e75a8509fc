// Profiles: every shipped profile loads, names the five original profiles, and every switch has
// evidence. Malformed profiles are errors, not exceptions.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "pinta/emulator/antigravity/antigravity.h"

namespace agy = pinta::emu::agy;

TEST(AgyProfiles, ShippedProfilesLoadWithEvidence) {
  auto profs = agy::load_profiles(agy::default_profile_dir());
  ASSERT_TRUE(profs) << profs.error().message;
  std::vector<std::string> names;
  for (const auto& p : *profs) {
    names.push_back(p.name);
    for (const auto& [k, v] : p.switches.items()) {
      const std::string ev = v["evidence"].get<std::string>();
      // Evidence names a reference section or the seed document.
      EXPECT_TRUE(ev.find("\u00a7") != std::string::npos ||
                  ev.find("seeds/001") != std::string::npos ||
                  ev.find("seed 001") != std::string::npos)
          << p.name << " " << k << ": " << ev;
    }
  }
  EXPECT_EQ(names, (std::vector<std::string>{"agy-1.0", "agy-1.1", "agy-1.2.1-darwin-arm64",
                                             "agy-1.2", "antigravity-2.0", "docs"}));
}

TEST(AgyProfiles, ConflictsGiveDifferentValues) {
  auto profs = agy::load_profiles(agy::default_profile_dir());
  ASSERT_TRUE(profs);
  const auto* a10 = agy::find_profile(*profs, "agy-1.0");
  const auto* a11 = agy::find_profile(*profs, "agy-1.1");
  const auto* app = agy::find_profile(*profs, "antigravity-2.0");
  ASSERT_TRUE(a10 && a11 && app);
  EXPECT_EQ(a10->shell, "split");      // reference §5.1 DefenseClaw 1.0.x claim
  EXPECT_EQ(a11->shell, "sh-c");       // §5.1 [DOC], AntigravityWorker
  EXPECT_TRUE(a11->strict_shape);      // §3.3 (a) herdr PR #2087
  EXPECT_FALSE(a10->strict_shape);     // §3.3 (c) websentry 1.0.5
  EXPECT_EQ(app->stdin_mode, "open");  // §5.4 clawd-on-desk #568
  EXPECT_EQ(a11->stdin_mode, "closed");
  EXPECT_FALSE(a10->session_start);              // §8 websentry 1.0.5
  EXPECT_EQ(a10->overwrite_shape, "name-args");  // §7.1 rtk PR #2086
}

// Evidence found since the reference: each new switch takes different values where it does.
TEST(AgyProfiles, EvidenceSinceTheReference) {
  auto profs = agy::load_profiles(agy::default_profile_dir());
  ASSERT_TRUE(profs);
  const auto* a10 = agy::find_profile(*profs, "agy-1.0");
  const auto* a11 = agy::find_profile(*profs, "agy-1.1");
  const auto* a12 = agy::find_profile(*profs, "agy-1.2");
  const auto* mac = agy::find_profile(*profs, "agy-1.2.1-darwin-arm64");
  ASSERT_TRUE(a10 && a11 && a12 && mac);
  // antigravity-cli#1008: 1.2.1/1.2.2 on macOS arm64 never run a hook; 1.1.28 and 1.2.7 do.
  EXPECT_FALSE(mac->hooks_run);
  EXPECT_TRUE(a11->hooks_run && a12->hooks_run && a10->hooks_run);
  EXPECT_EQ(agy::hooks_not_run_reason(*a12), std::nullopt);
  ASSERT_TRUE(agy::hooks_not_run_reason(*mac).has_value());
  EXPECT_NE(agy::hooks_not_run_reason(*mac)->find("hooks do not run"), std::string::npos);
  // Apart from hooks_run, the platform profile is agy-1.2.
  nlohmann::json a = a12->switches, b = mac->switches;
  a.erase("hooks_run");
  b.erase("hooks_run");
  EXPECT_EQ(a, b);
  EXPECT_EQ(a10->pretooluse_timeout, "deny");   // cmux #5358 (1.0.5)
  EXPECT_EQ(a11->pretooluse_timeout, "deny");   // cmux #8921 (1.1.7)
  EXPECT_EQ(a11->headless_ask, "tool-failed");  // synara PR #1096
  EXPECT_EQ(a10->headless_ask, "asked");
  EXPECT_EQ(a10->overwrite_under_review, "discarded");  // discuss.ai.google.dev, 1.0.2
  EXPECT_EQ(a12->overwrite_under_review, "applied");
  EXPECT_EQ(a10->preinvocation_failure, "retry-loop");  // clawd-on-desk PR #433
  EXPECT_EQ(a12->preinvocation_failure, "cli-exit");    // synara PR #1143 (1.2.1)
}

TEST(AgyProfiles, MalformedProfilesAreErrors) {
  EXPECT_FALSE(agy::parse_profile("not json"));
  EXPECT_FALSE(agy::parse_profile("{\"name\":\"x\"}"));
  EXPECT_FALSE(
      agy::parse_profile("{\"name\":\"x\",\"switches\":{\"shell\":{\"value\":\"sh-c\"}}}"));
  auto r = agy::parse_profile(
      "{\"name\":\"x\",\"switches\":{\"shell\":{\"value\":\"sh-c\",\"evidence\":\"e\"}}}");
  ASSERT_FALSE(r);  // other switches missing
  EXPECT_EQ(r.error().code, pinta::ErrorCode::kParse);
  EXPECT_FALSE(agy::load_profiles("/nonexistent-dir"));
}

// Profile switch hook_signals: a hook starts with its signals as agy's Go runtime starts it (SIGHUP
// and SIGINT stay ignored when agy ignores them) or, with "node", all at their default. Any other
// value is an error.
TEST(AgyProfiles, HookSignalsDecideWhatTheHookInherits) {
  auto profs = agy::load_profiles(agy::default_profile_dir());
  ASSERT_TRUE(profs) << profs.error().message;
  for (const auto& p : *profs) EXPECT_EQ(p.hook_signals, "go") << p.name;
  agy::Profile go = profs->front();
  agy::Profile node = go;
  node.hook_signals = "node";

  agy::PlannedHook hook;
  hook.command = "grep '^SigIgn:' /proc/self/status";
  hook.argv = {"sh", "-c", hook.command};
  hook.timeout_seconds = 10;
  hook.cwd = "/";
  struct sigaction ign, old_hup, old_int;
  std::memset(&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  ASSERT_EQ(::sigaction(SIGHUP, &ign, &old_hup), 0);
  ASSERT_EQ(::sigaction(SIGINT, &ign, &old_int), 0);
  auto ignored_in = [&](const agy::Profile& p) {
    auto rq = agy::spawn_request_for(p, hook, "{}", std::map<std::string, std::string>{});
    auto r = pinta::proc::make_spawner()->run(rq);
    auto at = r.out.find("SigIgn:");
    return at == std::string::npos ? ~0ull : std::stoull(r.out.substr(at + 7), nullptr, 16);
  };
  const unsigned long long under_go = ignored_in(go), under_node = ignored_in(node);
  ::sigaction(SIGHUP, &old_hup, nullptr);
  ::sigaction(SIGINT, &old_int, nullptr);
  const unsigned long long hup_int = (1ull << (SIGHUP - 1)) | (1ull << (SIGINT - 1));
  EXPECT_EQ(under_go & ((1ull << 33) - 1), hup_int);
  EXPECT_EQ(under_node & ((1ull << 33) - 1), 0u);

  std::ifstream in(agy::default_profile_dir() + "/" + go.name + ".json");
  auto j = nlohmann::json::parse(in, nullptr, false);
  ASSERT_TRUE(j.is_object());
  j["switches"]["hook_signals"]["value"] = "python";
  auto bad = agy::parse_profile(j.dump());
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("hook_signals"), std::string::npos) << bad.error().message;
}
