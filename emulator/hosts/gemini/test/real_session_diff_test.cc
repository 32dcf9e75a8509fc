// Differential lane, session level: every scenario in test/sessions/*.json is played
// twice from identical fresh homes and workspaces, once through the REAL Gemini CLI 0.61.0 offline
// (`gemini -p` with --fake-responses, recipe in shared/reference/real-hosts.md) and once through
// `hostemu gemini session` with the same model turns. The layout, both plays and the comparison
// are the session lane's (session_lane/, shared with `hostemu drift`):
//   hooks       the lines the hooks appended to a log (event from their stdin + tag), in order;
//               within one event of a parallel plan the order is the finish order, so those
//               lines are compared as a set unless the scenario says "ordered"
//   files       what the tools left in the workspace (path → content; .gemini/ excluded)
//   exit        the CLI's exit code vs the transcript's exit_code
//   stderr      the CLI's stderr without its start-up noise vs the transcript's stderr lines
//   hook_calls  the CLI's gemini_cli.hook_call records (local telemetry outfile) vs the
//               transcript's hook_calls, timing-free attributes only
// Any difference fails. SKIPPED (with the reason) when npm / the packages are unavailable.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iostream>
#include <thread>

#include "pinta/emulator/session_lane.h"
#include "real_support.h"

namespace g = pinta::emu::gemini;
namespace gt = pinta::emu::gemini::testing;
namespace lane = pinta::emu::session_lane;
namespace sfs = std::filesystem;
using g::ojson;

// emulator/lanes/real_slice.py DEFAULT_CAP: the default run's slice of a real-CLI lane.
constexpr size_t kSliceCap = 24;

TEST(GeminiRealSessionDiff, EmulatorMatchesRealCli) {
  auto hosts = gt::find_npm_hosts();
  if (hosts.skip) GTEST_SKIP() << "real Gemini CLI unavailable: " << hosts.reason;
  ASSERT_TRUE(hosts.ok) << hosts.reason;
  const std::string src = pinta::testing::source_dir();
  const std::string cli = hosts.prefix + "/node_modules/@google/gemini-cli/bundle/gemini.js";
  std::vector<ojson> scenarios;
  for (auto& e : sfs::directory_iterator(src + "/emulator/hosts/gemini/test/sessions"))
    if (e.path().extension() == ".json")
      scenarios.push_back(ojson::parse(gt::slurp(e.path().string())));
  std::sort(scenarios.begin(), scenarios.end(),
            [](const ojson& a, const ojson& b) { return a["id"] < b["id"]; });
  ASSERT_GE(scenarios.size(), 15u);
  if (const char* only = std::getenv("PINTA_SESSION_ONLY")) {
    scenarios.erase(std::remove_if(scenarios.begin(), scenarios.end(),
                                   [&](const ojson& s) { return s["id"] != only; }),
                    scenarios.end());
  } else if (const char* full = std::getenv("PINTA_REAL_HOST_FULL");
             !(full && std::string(full) == "1") && scenarios.size() > kSliceCap) {
    // The README's test command runs a fixed slice, every k-th scenario by id within the cap
    // every real-CLI lane uses (emulator/lanes/real_slice.py DEFAULT_CAP); ci/real-hosts.sh runs
    // them all.
    const size_t step = (scenarios.size() + kSliceCap - 1) / kSliceCap, all = scenarios.size();
    std::vector<ojson> slice;
    for (size_t i = 0; i < all; i += step) slice.push_back(std::move(scenarios[i]));
    scenarios = std::move(slice);
    std::cout << "emulator_gemini_real_session: a slice of " << scenarios.size() << " of " << all
              << " scenarios (every " << step
              << " by id); PINTA_REAL_HOST_FULL=1 or ci/real-hosts.sh runs all\n";
  }

  pinta::testing::TempDir tmp;
  // PINTA_KEEP_SESSION_DIRS=DIR keeps every root (real/<id>, emu/<id>) under DIR for inspection.
  const char* keep = std::getenv("PINTA_KEEP_SESSION_DIRS");
  const std::string base = keep && *keep ? std::string(keep) : tmp.path();
  auto sub = [&](const std::string& rel) { return base + "/" + rel; };
  std::vector<lane::Outcome> real(scenarios.size()), emu(scenarios.size());
  std::vector<lane::Root> real_roots(scenarios.size()), emu_roots(scenarios.size());
  lane::RealOptions ro;
  ro.cli = cli;
  const std::string hostemu = pinta::testing::bin_dir() + "/hostemu";
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < scenarios.size();) {
      const std::string id = scenarios[i]["id"].get<std::string>();
      real[i] = lane::play_real(scenarios[i], sub("real/" + id), ro, &real_roots[i]);
      emu[i] = lane::play_emulator(scenarios[i], sub("emu/" + id), hostemu, "", &emu_roots[i]);
    }
  };
  std::vector<std::thread> th;
  for (int k = 0; k < 2; ++k) th.emplace_back(worker);
  for (auto& t : th) t.join();

  ojson report = ojson::array();
  int diffs = 0;
  for (size_t i = 0; i < scenarios.size(); ++i) {
    const ojson& sc = scenarios[i];
    std::vector<std::string> d = lane::compare(real[i], emu[i]);
    ojson row = ojson::object({{"id", sc["id"]},
                               {"behaviour", sc["behaviour"]},
                               {"evidence", sc.value("evidence", std::string())},
                               {"hooks", lane::to_json(real[i].hooks)},
                               {"exit", real[i].exit_code},
                               {"differences", lane::to_json(d)}});
    report.push_back(row);
    if (!d.empty()) {
      ++diffs;
      std::string msg;
      for (auto& x : d) msg += "\n    " + x;
      ADD_FAILURE() << "[" << sc["id"].get<std::string>() << "] "
                    << sc["behaviour"].get<std::string>() << msg
                    << "\n    (real: " << real_roots[i].dir << ", emulator: " << emu_roots[i].dir
                    << ")";
    }
  }
  gt::spit(gt::diff_dir() + "/session.json", report.dump(1));
  EXPECT_EQ(diffs, 0) << diffs << " of " << scenarios.size() << " session scenarios differ";
}
