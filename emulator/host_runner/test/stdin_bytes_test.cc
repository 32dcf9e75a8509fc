// The bytes a hook reads are the host's bytes, for every family of the registry: every y_ payload
// of fixtures/<folder>/ (captured from the real host where the family has captures, constructed
// from its evidence otherwise: fixtures/README.md, each file's MANIFEST entry) given to the
// family's runner as a payload, and run under each of the family's replay hosts
// (fixtures/<folder>/family.json), reaches the hook as exactly the file's bytes: the host's key
// order, separators, number and string forms, and its line end (the file's own, or the newline
// the host adds that the capture did not record: family.json `newline_not_recorded`). As the file
// gives it, and (one file per event) with its top-level keys reversed: the host builds that
// object, so its order is the host's, not the caller's. This is the writer `hostemu` runs, `hostemu replay`
// replays y_ fixtures with, and the conformance and protocol runners send default payloads with.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pinta/emulator/host_runner.h"
#include "pinta/hosts/hosts.h"

namespace emu = pinta::emu;
namespace sfs = std::filesystem;
using pinta::hosts::Family;

namespace {

std::string slurp(const sfs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

struct FamilyFixtures {
  std::vector<std::string> hosts;
  bool newline_not_recorded = false;
  struct File {
    std::string rel, event, bytes;
  };
  std::vector<File> files;
};

FamilyFixtures fixtures_of(Family f) {
  FamilyFixtures out;
  const sfs::path root = sfs::path(PINTA_SOURCE_DIR) / "fixtures" /
                         std::string(pinta::hosts::descriptor(f).folder);
  const auto spec = nlohmann::json::parse(slurp(root / "family.json"));
  for (const auto& h : spec.at("replay_hosts")) out.hosts.push_back(h.get<std::string>());
  out.newline_not_recorded = spec.value("newline_not_recorded", false);
  for (const auto& e : sfs::recursive_directory_iterator(root)) {
    const std::string name = e.path().filename().string();
    if (!e.is_regular_file() || !name.starts_with("y_")) continue;
    out.files.push_back({e.path().lexically_relative(root).string(),
                         e.path().parent_path().filename().string(), slurp(e.path())});
  }
  std::sort(out.files.begin(), out.files.end(),
            [](const auto& a, const auto& b) { return a.rel < b.rel; });
  return out;
}

emu::payload_json top_level_reversed(const emu::payload_json& p) {
  std::vector<std::pair<std::string, emu::payload_json>> items;
  for (const auto& [k, v] : p.items()) items.emplace_back(k, v);
  emu::payload_json out = emu::payload_json::object();
  for (auto it = items.rbegin(); it != items.rend(); ++it) out[it->first] = it->second;
  return out;
}

class StdinBytes : public testing::TestWithParam<Family> {};

TEST_P(StdinBytes, EveryPayloadReachesTheHookAsTheHostWritesIt) {
  const Family f = GetParam();
  const FamilyFixtures fx = fixtures_of(f);
  ASSERT_FALSE(fx.files.empty()) << "no y_ payload for " << pinta::hosts::descriptor(f).name;
  const sfs::path dir =
      sfs::temp_directory_path() / ("stdin-bytes-" + std::to_string(::getpid()));
  sfs::create_directories(dir);
  const sfs::path capture = dir / "capture.sh";
  std::ofstream(capture) << "#!/bin/sh\nexec head -c \"$1\" > \"$(dirname \"$0\")/stdin.bin\"\n";
  sfs::permissions(capture, sfs::perms::owner_all);
  size_t checked = 0;
  for (const auto& host : fx.hosts) {
    std::string error;
    auto runner = emu::make_host_runner(host, {PINTA_SOURCE_DIR "/fixtures", ""}, error);
    ASSERT_NE(runner, nullptr) << error;
    if (runner->hooks_not_run()) continue;  // a build that never spawns a hook writes nothing
    std::vector<std::string> events_spawned;
    for (const auto& file : fx.files) {
      const std::string want = file.bytes + (fx.newline_not_recorded ? "\n" : "");
      const auto given = emu::payload_json::parse(file.bytes);
      // Reversed once per event and host (with the spawned copy): that the host's order is imposed.
      const bool first_of_event = std::find(events_spawned.begin(), events_spawned.end(),
                                            file.event) == events_spawned.end();
      for (const bool reversed : {false, true}) {
        if (reversed && !first_of_event) continue;
        emu::HookCall call;
        call.host = host;
        call.event = file.event;
        call.cwd = dir.string();
        call.env = {{"PATH", "/usr/bin:/bin"}};
        call.timeout_ms = 10000;
        call.input.payload = reversed ? top_level_reversed(given) : given;
        // One spawned copy per event and host reads what the hook really got (as many bytes as
        // expected: a host may leave stdin open; more are caught by stdin_sent); the rest compare
        // what was handed to the spawn (the same bytes: CaseSpawner::sent). One word each, as a
        // host that splits the command on whitespace runs it too.
        const bool spawn = !reversed && first_of_event;
        call.command = spawn ? capture.string() + " " + std::to_string(want.size()) : "true";
        const auto out = runner->run(call);
        EXPECT_EQ(out.stdin_sent, want)
            << host << " " << file.rel << (reversed ? " (top-level keys reversed)" : "");
        if (spawn) {
          events_spawned.push_back(file.event);
          EXPECT_EQ(slurp(dir / "stdin.bin"), want) << host << " " << file.rel << " (spawned)";
          sfs::remove(dir / "stdin.bin");
        }
        ++checked;
      }
    }
  }
  sfs::remove_all(dir);
  EXPECT_GT(checked, 0u);
}

INSTANTIATE_TEST_SUITE_P(EveryFamily, StdinBytes, testing::ValuesIn([] {
                           std::vector<Family> v;
                           for (const auto& d : pinta::hosts::families()) v.push_back(d.id);
                           return v;
                         }()),
                         [](const testing::TestParamInfo<Family>& i) {
                           return std::string(pinta::hosts::descriptor(i.param).folder);
                         });

}  // namespace
