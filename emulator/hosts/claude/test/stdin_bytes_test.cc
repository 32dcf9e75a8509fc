// The bytes a hook reads are the host's bytes: for every payload captured from the real Claude
// Code 2.1.332 (fixtures/claude/2.1.332/<Event>/y_captured_*.json, MANIFEST provenance), the
// emulator writes exactly the captured line followed by "\n" (the capture hook recorded lines;
// the stdin-bytes scenario shows the real CLI's newline and hashes each event's stdin on both
// sides). Three ways: the serializer given the payload as captured, given it with its keys in
// another order (the host's order is imposed, not passed through), and a spawned hook's stdin.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

#include "pinta/emulator/claude/claude.h"

namespace cl = pinta::hosts::claude;
namespace ce = pinta::emu::claude;
namespace sfs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

std::string slurp(const sfs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

struct Capture {
  std::string name, bytes;
};

std::vector<Capture> captures() {
  std::vector<Capture> out;
  const sfs::path root = sfs::path(PINTA_SOURCE_DIR) / "fixtures/claude/2.1.332";
  for (const auto& e : sfs::recursive_directory_iterator(root)) {
    const std::string f = e.path().filename().string();
    if (e.is_regular_file() && f.rfind("y_captured_", 0) == 0)
      out.push_back({e.path().lexically_relative(root).string(), slurp(e.path())});
  }
  std::sort(out.begin(), out.end(), [](const Capture& a, const Capture& b) { return a.name < b.name; });
  return out;
}

// The same object with every object's keys in reverse order (tool_input excepted: its order is
// the model's, which the host passes through).
ojson reversed(const ojson& v, const std::string& key = "") {
  if (!v.is_object() || key == "tool_input") return v;
  std::vector<std::pair<std::string, ojson>> items;
  for (const auto& [k, x] : v.items()) items.emplace_back(k, reversed(x, k));
  ojson out = ojson::object();
  for (auto it = items.rbegin(); it != items.rend(); ++it) out[it->first] = it->second;
  return out;
}

}  // namespace

TEST(ClaudeStdinBytes, EveryCapturedPayloadAsCaptured) {
  const auto caps = captures();
  ASSERT_GE(caps.size(), 200u);  // the recorded set (300 when written)
  size_t checked = 0;
  for (const auto& c : caps) {
    ASSERT_FALSE(c.bytes.empty()) << c.name;
    ASSERT_NE(c.bytes.back(), '\n') << c.name << ": a capture is one line without its newline";
    const ojson p = ojson::parse(c.bytes);
    EXPECT_EQ(cl::stdin_bytes(p), c.bytes + "\n") << c.name;
    EXPECT_EQ(cl::stdin_bytes(reversed(p)), c.bytes + "\n") << c.name << " (keys reordered)";
    ++checked;
  }
  EXPECT_EQ(checked, caps.size());
}

// Numbers and strings as JSON.stringify writes them (a tool input is the model's JSON, re-written
// by the host): 1.0 → 1, 1e21 → 1e+21, 1e-7 → 1e-7, control characters as \n / \u001f,
// non-ASCII and U+2028 raw, "/" not escaped.
TEST(ClaudeStdinBytes, JavaScriptNumberAndStringFormatting) {
  const ojson p = ojson::parse(
      R"({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"a":1.0,"b":1e21,"c":1e-7,"d":0.1,"e":-0.0,"s":"x\n\u001f/\u00fc\u2028\"\\"},"session_id":"s"})");
  EXPECT_EQ(cl::stdin_bytes(p),
            "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
            "\"tool_input\":{\"a\":1,\"b\":1e+21,\"c\":1e-7,\"d\":0.1,\"e\":0,"
            "\"s\":\"x\\n\\u001f/\xC3\xBC\xE2\x80\xA8\\\"\\\\\"}}\n");
}

// End to end: what a spawned hook reads on stdin is those bytes (one capture per event).
TEST(ClaudeStdinBytes, SpawnedHookReadsTheCapturedBytes) {
  const sfs::path dir = sfs::temp_directory_path() / ("claude-stdin-" + std::to_string(::getpid()));
  sfs::create_directories(dir);
  std::set<std::string> events;
  for (const auto& c : captures()) {
    const std::string event = c.name.substr(0, c.name.find('/'));
    if (!events.insert(event).second) continue;
    cl::HookCommand h;
    h.event = event;
    h.command = "cat > stdin.bin";
    h.source = "project";
    h.timeout_ms = 10000;
    const auto payload = nlohmann::json::parse(c.bytes);
    const ojson ordered = ojson::parse(c.bytes);
    auto r = ce::run_plan({h}, event, payload, cl::stdin_bytes(ordered), dir.string(),
                          ce::hook_environment(dir.string(), payload));
    ASSERT_EQ(r.runs.size(), 1u);
    EXPECT_EQ(r.runs[0].exit, 0) << c.name;
    EXPECT_EQ(slurp(dir / "stdin.bin"), c.bytes + "\n") << c.name;
  }
  EXPECT_GE(events.size(), 8u);
  sfs::remove_all(dir);
}
