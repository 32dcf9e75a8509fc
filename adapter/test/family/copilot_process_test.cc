// GitHub Copilot CLI's adapter mode as a process: the built pinta-gemini against a fake guard
// (docs/contract.md COPILOT), part of guard_process_test.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "../fake_server_helpers.h"
#include "pinta/common/process.h"
#include "pinta/common/test_support.h"
#include "pinta/fakes/fake_server.h"

namespace pinta {
namespace {

using nlohmann::json;
using testing_fakes::closed_port;
constexpr auto reply = testing_fakes::body_reply;
using namespace std::chrono_literals;

class CopilotProcess : public ::testing::Test {
 protected:
  proc::SpawnResult run(const std::string& agent, const std::string& event, const std::string& in,
                        std::map<std::string, std::string> extra) {
    proc::SpawnRequest r;
    r.argv = {testing::bin_dir() + "/pinta-gemini", "--agent", agent, "--event", event};
    std::map<std::string, std::string> env = {{"HOME", home_.path()}, {"PATH", "/usr/bin:/bin"}};
    for (auto& [k, v] : extra) env[k] = v;
    r.env = env;
    r.stdin_data = in;
    r.timeout = 10000ms * testing::time_scale();
    r.hard_limit = 20000ms * testing::time_scale();
    return proc::make_spawner()->run(r);
  }
  // A budget a sanitizer build cannot use up, as guard_process_test's guard_env gives.
  static std::map<std::string, std::string> guard_env(const fakes::FakeServer& s,
                                                      std::map<std::string, std::string> more = {}) {
    more["PINTA_GUARD_ENDPOINT"] = s.url("/guard");
    more["PINTA_RELAY_TOKEN"] = "relay-tok";
    more.emplace("PINTA_GUARD_TIMEOUT_MS", "5000");
    return more;
  }
  static std::map<std::string, std::string> with_default_budget(std::map<std::string, std::string> env) {
    env.erase("PINTA_GUARD_TIMEOUT_MS");
    return env;
  }
  testing::TempDir home_;
};

// GitHub Copilot CLI (shared/reference/real-hosts.md "Codex 0.171.0, Copilot 1.0.102, … hook
// rules"; docs/contract.md COPILOT): the exact bytes under both labels, and exit 0 on every path,
// since Copilot's preToolUse denies on any non-zero exit (fail-closed). Allow: no output; DENY:
// the top-level pair; REVIEW: no output, or the top-level ask with PINTA_GUARD_REVIEW=ask; a guard
// that refuses, hangs past the budget or answers 500: no output, exit 0.
TEST_F(CopilotProcess, AllowIsSilentDenyIsTheTopLevelPairAndEveryPathExitsZero) {
  const std::map<std::string, std::string> pre = {
      {"copilot",
       R"({"sessionId":"s1","timestamp":1765108800123,"cwd":"/w","toolName":"bash",)"
       R"("toolArgs":{"command":"rm -rf /","description":"x"}})"},
      {"copilot-claude",
       R"({"hook_event_name":"PreToolUse","session_id":"s1","timestamp":"2026-12-07T12:00:00.123Z",)"
       R"("cwd":"/w","tool_name":"Bash","tool_input":{"command":"rm -rf /"}})"}};
  const std::map<std::string, std::string> tool = {{"copilot", "bash"}, {"copilot-claude", "Bash"}};
  fakes::FakeServer deny({}, reply(200, R"({"decision":"DENY","reason":"no rm"})"));
  fakes::FakeServer allow({}, reply(200, R"({"decision":"ALLOW"})"));
  fakes::FakeServer review({}, reply(200, R"({"decision":"REVIEW","reason":"look"})"));
  fakes::FakeServer broken({}, reply(500, "oops"));
  fakes::Reply slow = reply(200, R"({"decision":"DENY","reason":"late"})");
  slow.delay = 2s;
  fakes::FakeServer hanging({}, slow);
  const std::string refused = "http://127.0.0.1:" + std::to_string(closed_port()) + "/g";
  auto silent = [](const proc::SpawnResult& r, const std::string& at) {
    EXPECT_TRUE(r.started) << r.spawn_error;
    EXPECT_FALSE(r.term_signal.has_value()) << at;
    EXPECT_EQ(r.out, "") << at;
    EXPECT_EQ(r.exit_code.value_or(-1), 0) << at;
    EXPECT_EQ(r.err, "") << at;
  };
  for (const auto& [label, in] : pre) {
    for (const char* gate : {"preToolUse", "PreToolUse"}) {
      const std::string at = label + " " + gate;
      const auto d = run(label, gate, in, guard_env(deny));
      EXPECT_EQ(d.out, R"({"permissionDecision":"deny","permissionDecisionReason":"no rm"})"
                       "\n") << at;
      EXPECT_EQ(d.exit_code.value_or(-1), 0) << at;
      EXPECT_EQ(d.err, "") << at;
      json g = json::parse(deny.requests().back().body, nullptr, false);
      EXPECT_EQ(g["input"]["toolName"], tool.at(label)) << at;
      EXPECT_EQ(g["input"]["toolInput"]["command"], "rm -rf /") << at;
      EXPECT_EQ(g["input"]["agent"], "copilot") << at;
      EXPECT_EQ(g["input"]["hook"], "preToolUse") << at;
      EXPECT_EQ(g["input"]["sessionId"], "s1") << at;
      silent(run(label, gate, in, guard_env(allow)), at + " allow");
      silent(run(label, gate, in, guard_env(review)), at + " review");
      const auto ask = run(label, gate, in, guard_env(review, {{"PINTA_GUARD_REVIEW", "ask"}}));
      EXPECT_EQ(ask.out, R"({"permissionDecision":"ask","permissionDecisionReason":"look"})"
                         "\n") << at;
      EXPECT_EQ(ask.exit_code.value_or(-1), 0) << at;
      silent(run(label, gate, in, guard_env(broken)), at + " 500");
      silent(run(label, gate, in, with_default_budget(guard_env(hanging))), at + " past the budget");
      silent(run(label, gate, in, {{"PINTA_GUARD_ENDPOINT", refused}}), at + " refused");
      silent(run(label, gate, in, {}), at + " no guard");
      for (const std::string garbage : {"", "not json", "[1]", "\xff\xfe"})
        silent(run(label, gate, garbage, guard_env(deny)), at + " garbage");
    }
    for (const char* ev : {"postToolUse", "PostToolUse", "agentStop", "Stop", "sessionStart",
                           "userPromptSubmitted", "permissionRequest", "preMcpToolCall", "Nope"})
      silent(run(label, ev, in, guard_env(deny)), label + " " + ev);
  }
}

}  // namespace
}  // namespace pinta
