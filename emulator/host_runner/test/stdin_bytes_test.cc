// The bytes a hook reads are the host's bytes, for every family of the registry: every y_ payload
// of fixtures/<folder>/ (captured from the real host where the family has captures, constructed
// from its evidence otherwise: fixtures/README.md, each file's MANIFEST entry) given to the
// family's runner as a payload, and run under each of the family's replay hosts
// (fixtures/<folder>/family.json), reaches the hook as exactly the file's bytes: the host's key
// order, separators, number and string forms, and its line end (the file's own, or the newline
// the host adds that the capture did not record: family.json `newline_not_recorded`). As the file
// gives it, and (one file per shape) with its keys reversed, at the top level and in the objects
// the host builds inside it (family.json `host_ordered_objects`): their order is the host's, not
// the caller's. And, for the families whose host is JavaScript, a tool input of odd numbers and
// strings as JSON.stringify writes them. This is the writer `hostemu` runs, `hostemu replay`
// replays y_ fixtures with, and the conformance and protocol runners send default payloads with.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "pinta/common/fs.h"
#include "pinta/emulator/host_runner.h"
#include "pinta/hosts/hosts.h"

namespace emu = pinta::emu;
namespace sfs = std::filesystem;
using pinta::hosts::Family;

namespace {

std::string read_bytes(const sfs::path& p) {
  auto r = pinta::fs::read_file(p.string());
  if (!r) {
    ADD_FAILURE() << r.error().message;
    return {};
  }
  return *r;
}

struct FamilyFixtures {
  std::vector<std::string> hosts;
  bool newline_not_recorded = false;
  std::string byte_form;
  std::vector<std::string> host_ordered_objects;
  struct File {
    std::string rel, event, bytes;
  };
  std::vector<File> files;
};

FamilyFixtures fixtures_of(Family f) {
  FamilyFixtures out;
  const sfs::path root =
      sfs::path(PINTA_SOURCE_DIR) / "fixtures" / std::string(pinta::hosts::descriptor(f).folder);
  const auto spec = nlohmann::json::parse(read_bytes(root / "family.json"));
  for (const auto& h : spec.at("replay_hosts")) out.hosts.push_back(h.get<std::string>());
  out.newline_not_recorded = spec.value("newline_not_recorded", false);
  out.byte_form = spec.value("byte_form", "");
  for (const auto& k : spec.value("host_ordered_objects", nlohmann::json::array()))
    out.host_ordered_objects.push_back(k.get<std::string>());
  for (const auto& e : sfs::recursive_directory_iterator(root)) {
    const std::string name = e.path().filename().string();
    if (!e.is_regular_file() || !name.starts_with("y_")) continue;
    out.files.push_back({e.path().lexically_relative(root).string(),
                         e.path().parent_path().filename().string(), read_bytes(e.path())});
  }
  std::sort(out.files.begin(), out.files.end(),
            [](const auto& a, const auto& b) { return a.rel < b.rel; });
  return out;
}

// The key order of a payload: its top-level keys and those of the objects named in `nested`.
std::string shape(const emu::payload_json& p, const std::vector<std::string>& nested) {
  std::string out;
  for (const auto& [k, v] : p.items()) {
    out += k + ",";
    if (v.is_object() && std::find(nested.begin(), nested.end(), k) != nested.end())
      for (const auto& [n, x] : v.items()) out += k + "." + n + ",";
  }
  return out;
}

// The payload with its keys in reverse order: the top level's and, one level down, those of the
// objects named in `nested` (the rest, such as the model's tool input, as given).
emu::payload_json reversed(const emu::payload_json& p, const std::vector<std::string>& nested) {
  std::vector<std::pair<std::string, emu::payload_json>> items;
  for (const auto& [k, v] : p.items()) {
    const bool host_built =
        v.is_object() && std::find(nested.begin(), nested.end(), k) != nested.end();
    items.emplace_back(k, host_built ? reversed(v, {}) : v);
  }
  emu::payload_json out = emu::payload_json::object();
  for (auto it = items.rbegin(); it != items.rend(); ++it) out[it->first] = it->second;
  return out;
}

class StdinBytes : public testing::TestWithParam<Family> {};

TEST_P(StdinBytes, EveryPayloadReachesTheHookAsTheHostWritesIt) {
  const Family f = GetParam();
  const FamilyFixtures fx = fixtures_of(f);
  ASSERT_FALSE(fx.files.empty()) << "no y_ payload for " << pinta::hosts::descriptor(f).name;
  const sfs::path dir = sfs::temp_directory_path() / ("stdin-bytes-" + std::to_string(::getpid()));
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
    std::set<std::string> events_spawned, shapes_reversed;
    for (const auto& file : fx.files) {
      const std::string want = file.bytes + (fx.newline_not_recorded ? "\n" : "");
      const auto given = emu::payload_json::parse(file.bytes);
      const bool first_of_event = !events_spawned.contains(file.event);
      // Reversed once per shape (the event and its key order, host-built objects' included): the
      // order is all reversing changes, so one payload of a shape stands for the rest.
      const bool first_of_shape =
          shapes_reversed.insert(file.event + " " + shape(given, fx.host_ordered_objects)).second;
      for (const bool reorder : {false, true}) {
        if (reorder && !first_of_shape) continue;
        emu::HookCall call;
        call.host = host;
        call.event = file.event;
        call.cwd = dir.string();
        call.env = {{"PATH", "/usr/bin:/bin"}};
        call.timeout_ms = 10000;
        call.input.payload = reorder ? reversed(given, fx.host_ordered_objects) : given;
        // One spawned copy per event and host reads what the hook really got (as many bytes as
        // expected: a host may leave stdin open; more are caught by stdin_sent); the rest compare
        // what was handed to the spawn (the same bytes: CaseSpawner::sent). One word each, as a
        // host that splits the command on whitespace runs it too.
        const bool spawn = !reorder && first_of_event;
        call.command = spawn ? capture.string() + " " + std::to_string(want.size()) : "true";
        const auto out = runner->run(call);
        EXPECT_EQ(out.stdin_sent, want)
            << host << " " << file.rel << (reorder ? " (keys reversed)" : "");
        if (spawn) {
          events_spawned.insert(file.event);
          EXPECT_EQ(read_bytes(dir / "stdin.bin"), want) << host << " " << file.rel << " (spawned)";
          sfs::remove(dir / "stdin.bin");
        }
        ++checked;
      }
    }
  }
  sfs::remove_all(dir);
  EXPECT_GT(checked, 0u);
}

// A host written in JavaScript writes numbers and strings as JSON.stringify does, in the tool input
// it passes through as well (the model's JSON, re-written): 1.0 as 1, 1e21 as 1e+21, 1e-7 as
// 1e-7, -0 as 0; control characters as \n or \u001f; non-ASCII, U+2028 and "/" as they are. For
// each such family (byte_form js-stringify*), its first y_ payload with a tool_input object, that
// input replaced, under its first replay host.
TEST(StdinBytesForms, JavaScriptHostsWriteNumbersAndStringsAsJsonStringify) {
  const auto odd = emu::payload_json::parse(
      R"({"a":1.0,"b":1e21,"c":1e-7,"d":0.1,"e":-0.0,"s":"x\n\u001f/\u00fc\u2028\"\\"})");
  const std::string want =
      "\"tool_input\":{\"a\":1,\"b\":1e+21,\"c\":1e-7,\"d\":0.1,\"e\":0,"
      "\"s\":\"x\\n\\u001f/\xC3\xBC\xE2\x80\xA8\\\"\\\\\"}";
  std::vector<std::string> checked;
  for (const auto& d : pinta::hosts::families()) {
    const FamilyFixtures fx = fixtures_of(d.id);
    if (!fx.byte_form.starts_with("js-stringify")) continue;
    const auto file = std::find_if(fx.files.begin(), fx.files.end(), [](const auto& f) {
      const auto p = emu::payload_json::parse(f.bytes);
      return p.contains("tool_input") && p["tool_input"].is_object();
    });
    if (file == fx.files.end()) continue;  // a family whose payloads carry no tool input
    std::string error;
    auto runner =
        emu::make_host_runner(fx.hosts.front(), {PINTA_SOURCE_DIR "/fixtures", ""}, error);
    ASSERT_NE(runner, nullptr) << error;
    emu::HookCall call;
    call.host = fx.hosts.front();
    call.event = file->event;
    call.cwd = sfs::temp_directory_path().string();
    call.env = {{"PATH", "/usr/bin:/bin"}};
    call.command = "true";
    call.input.payload = emu::payload_json::parse(file->bytes);
    call.input.payload["tool_input"] = odd;
    const auto out = runner->run(call);
    EXPECT_NE(out.stdin_sent.find(want), std::string::npos) << call.host << ": " << out.stdin_sent;
    checked.push_back(std::string(d.folder));
  }
  // Claude Code and Gemini CLI at least (their captures carry tool inputs).
  EXPECT_GE(checked.size(), 2u);
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
