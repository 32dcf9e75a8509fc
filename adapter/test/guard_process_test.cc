// The built pinta-gemini against a fake guard (seed SPEC §7.3, §8): DENY gives the host's deny
// reply (Gemini BeforeTool, Antigravity PreToolUse), ALLOW and REVIEW (allow / ask) their replies,
// and every guard failure (slow, refused, 500, garbage, huge, never answering) fails open within
// the budget. Non-gate events never call the guard; PINTA_GUARD_DISABLED turns it off. Every run:
// one stdout line, exit 0, empty stderr.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <filesystem>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <tuple>
#include <vector>

#include "fake_server_helpers.h"
#include "pinta/common/fs.h"
#include "pinta/common/process.h"
#include "pinta/common/test_support.h"
#include "pinta/fakes/fake_server.h"
#include "pinta/hosts/reply_check.h"
#include "test_certs.h"

namespace pinta {
namespace {

using nlohmann::json;
using testing_fakes::closed_port;
constexpr auto reply = testing_fakes::body_reply;
using namespace std::chrono_literals;

const char* kGeminiBeforeTool =
    R"({"session_id":"s1","cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /"}})";
const char* kAgyPreToolUse =
    R"({"conversationId":"c1","workspacePaths":["/w"],"toolCall":{"name":"run_command","args":{"CommandLine":"rm -rf /"}}})";

class GuardProcess : public ::testing::Test {
 protected:
  proc::SpawnResult run(const std::string& agent, const std::string& event, const std::string& in,
                        std::map<std::string, std::string> extra) {
    proc::SpawnRequest r;
    r.argv = {exe_.empty() ? testing::bin_dir() + "/pinta-gemini" : exe_, "--agent", agent, "--event", event};
    std::map<std::string, std::string> env = {{"HOME", home_.path()}, {"PATH", "/usr/bin:/bin"}};
    for (auto& [k, v] : extra) env[k] = v;
    r.env = env;
    r.stdin_data = in;
    r.timeout = 10000ms * testing::time_scale();
    r.hard_limit = 20000ms * testing::time_scale();
    return proc::make_spawner()->run(r);
  }

  static json contract(const proc::SpawnResult& r) {
    EXPECT_TRUE(r.started) << r.spawn_error;
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.exit_code.value_or(-1), 0);
    EXPECT_EQ(r.err, "");
    EXPECT_FALSE(r.out.empty());
    if (r.out.empty()) return {};
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << r.out;
    json j = json::parse(r.out, nullptr, false);
    EXPECT_TRUE(j.is_object()) << r.out;
    return j;
  }

  std::map<std::string, std::string> guard_env(const fakes::FakeServer& s,
                                               std::map<std::string, std::string> more = {}) {
    more["PINTA_GUARD_ENDPOINT"] = s.url("/guard");
    more["PINTA_RELAY_TOKEN"] = "relay-tok";
    // Tests of the verdict get a budget a sanitizer build cannot use up (under TSan the 50 ms
    // default once ran out before the fake guard's answer, and the deny failed open); the tests
    // of the budget itself take it out again (with_default_budget).
    more.emplace("PINTA_GUARD_TIMEOUT_MS", "5000");
    return more;
  }

  static std::map<std::string, std::string> with_default_budget(std::map<std::string, std::string> env) {
    env.erase("PINTA_GUARD_TIMEOUT_MS");
    return env;
  }

  testing::TempDir home_;
  std::string exe_;  // the adapter binary run ("": the built one)
};

TEST_F(GuardProcess, DenyGivesTheHostsDenyReply) {
  fakes::FakeServer server(
      {}, reply(200, R"({"decision":"DENY","reason":"r","userMessage":"blocked by policy"})"));
  EXPECT_EQ(contract(run("gemini", "BeforeTool", kGeminiBeforeTool, guard_env(server))),
            (json{{"decision", "deny"},
                  {"reason", "blocked by policy"},
                  {"systemMessage", "blocked by policy"}}));
  EXPECT_EQ(contract(run("antigravity", "PreToolUse", kAgyPreToolUse, guard_env(server))),
            (json{{"decision", "deny"}, {"reason", "blocked by policy"}}));
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].header("x-pinta-relay-token"), "relay-tok");
  json g = json::parse(reqs[0].body, nullptr, false);
  ASSERT_TRUE(g.is_object());
  EXPECT_EQ(g["input"]["toolName"], "run_shell_command");
  EXPECT_EQ(g["input"]["toolInput"]["command"], "rm -rf /");
  std::string span = g["input"]["spanId"].get<std::string>();
  EXPECT_EQ(span.size(), 16u);
  EXPECT_EQ(span.find_first_not_of("0123456789abcdef"), std::string::npos);
  json a = json::parse(reqs[1].body, nullptr, false);
  EXPECT_EQ(a["input"]["toolInput"]["CommandLine"], "rm -rf /");
  EXPECT_NE(a["input"]["spanId"], g["input"]["spanId"]);
}

// deel-local-cli 1.17 (seed 004 hooks.js l.444-457): allow = silence + exit 0, deny = the reason
// on stdout + exit 2, on PreToolUse only; the guard request names the tool from 도구.
TEST_F(GuardProcess, DeelDenyExitsTwoWithTheReasonAndAllowIsSilent) {
  const std::string in = R"({"자리":"도구전","도구":"Bash","command":"rm -rf /"})";
  fakes::FakeServer server(
      {}, reply(200, R"({"decision":"DENY","reason":"r","userMessage":"blocked by policy"})"));
  auto r = run("deel", "PreToolUse", in, guard_env(server));
  EXPECT_TRUE(r.started) << r.spawn_error;
  EXPECT_EQ(r.exit_code.value_or(-1), 2);
  EXPECT_EQ(r.out, "blocked by policy\n");
  EXPECT_EQ(r.err, "");
  r = run("deel", "도구전", in, guard_env(server));  // the host's own (Korean) event name
  EXPECT_EQ(r.exit_code.value_or(-1), 2);
  EXPECT_EQ(r.out, "blocked by policy\n");
  // Not a gate event: no guard call, silence, exit 0 even though the guard would deny.
  for (const char* ev : {"PostToolUse", "UserPromptSubmit", "Stop"}) {
    r = run("deel", ev, in, guard_env(server));
    EXPECT_EQ(r.exit_code.value_or(-1), 0) << ev;
    EXPECT_EQ(r.out, "") << ev;
    EXPECT_EQ(r.err, "") << ev;
  }
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  json g = json::parse(reqs[0].body, nullptr, false);
  ASSERT_TRUE(g.is_object());
  EXPECT_EQ(g["input"]["toolName"], "Bash");
  EXPECT_EQ(g["input"]["toolInput"]["command"], "rm -rf /");
  EXPECT_EQ(g["input"]["agent"], "deel");
  server.set_script({}, reply(200, R"({"decision":"ALLOW"})"));
  r = run("deel", "PreToolUse", in, guard_env(server));
  EXPECT_EQ(r.exit_code.value_or(-1), 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  // A guard that is down fails open: silence, exit 0.
  r = run("deel", "PreToolUse", in, {{"PINTA_GUARD_ENDPOINT", "http://127.0.0.1:" + std::to_string(closed_port()) + "/g"}});
  EXPECT_EQ(r.exit_code.value_or(-1), 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
}

TEST_F(GuardProcess, DenyReasonFallsBackToReasonThenDefault) {
  fakes::FakeServer server({reply(200, R"({"decision":"DENY","reason":"only reason"})"),
                            reply(200, R"({"decision":"DENY"})")});
  EXPECT_EQ(contract(run("antigravity", "PreToolUse", kAgyPreToolUse, guard_env(server)))["reason"],
            "only reason");
  EXPECT_EQ(contract(run("antigravity", "PreToolUse", kAgyPreToolUse, guard_env(server)))["reason"],
            "guard_deny");
}

TEST_F(GuardProcess, AllowAndReview) {
  fakes::FakeServer server({}, reply(200, R"({"decision":"ALLOW"})"));
  EXPECT_EQ(contract(run("gemini", "BeforeTool", kGeminiBeforeTool, guard_env(server))),
            json::object());
  EXPECT_EQ(contract(run("antigravity", "PreToolUse", kAgyPreToolUse, guard_env(server))),
            (json{{"decision", "allow"}}));
  server.set_script({}, reply(200, R"({"decision":"REVIEW","reason":"look"})"));
  EXPECT_EQ(contract(run("gemini", "BeforeTool", kGeminiBeforeTool, guard_env(server))),
            json::object());
  EXPECT_EQ(contract(run("antigravity", "PreToolUse", kAgyPreToolUse, guard_env(server))),
            (json{{"decision", "allow"}}));
  auto ask = guard_env(server, {{"PINTA_GUARD_REVIEW", "ask"}});
  EXPECT_EQ(contract(run("gemini", "BeforeTool", kGeminiBeforeTool, ask)),
            (json{{"decision", "ask"}, {"reason", "look"}}));
  EXPECT_EQ(contract(run("antigravity", "PreToolUse", kAgyPreToolUse, ask)),
            (json{{"decision", "ask"}, {"reason", "look"}}));
  EXPECT_EQ(server.request_count(), 6u);
}

// synara PR #1096: `agy -p` cannot answer an ask (it fails every tool call), so the built adapter
// keeps a REVIEW as allow when its parent is a print-mode agy, even with PINTA_GUARD_REVIEW=ask.
// The parent is a bash started as `agy` (exec -a) whose arguments carry -p (or -i, interactive).
TEST_F(GuardProcess, ReviewAskIsNotAppliedUnderAgyPrintMode) {
  if (!fs::exists("/bin/bash") || !fs::exists("/proc/self/stat"))
    GTEST_SKIP() << "needs bash (exec -a) and Linux procfs";
  fakes::FakeServer server({}, reply(200, R"({"decision":"REVIEW","reason":"look"})"));
  auto under_agy = [&](const std::string& mode_flag) {
    proc::SpawnRequest r;
    // Two commands, so the `agy` bash stays the adapter's parent instead of exec'ing it.
    r.argv = {"/bin/bash", "-c",
              "exec -a agy /bin/bash -c '\"$0\" --agent antigravity --event PreToolUse; exit $?' "
              "\"$1\" " + mode_flag + " prompt",
              "wrapper", testing::bin_dir() + "/pinta-gemini"};
    auto env = guard_env(server, {{"PINTA_GUARD_REVIEW", "ask"}});
    env["HOME"] = home_.path();
    env["PATH"] = "/usr/bin:/bin";
    r.env = env;
    r.stdin_data = kAgyPreToolUse;
    r.timeout = 10000ms;
    r.hard_limit = 20000ms;
    return proc::make_spawner()->run(r);
  };
  EXPECT_EQ(contract(under_agy("-p")), (json{{"decision", "allow"}}));
  EXPECT_EQ(contract(under_agy("--print")), (json{{"decision", "allow"}}));
  EXPECT_EQ(contract(under_agy("-i")), (json{{"decision", "ask"}, {"reason", "look"}}));
  EXPECT_EQ(server.request_count(), 3u);  // the guard is still consulted; only the mapping differs
}

TEST_F(GuardProcess, FailuresFailOpenWithinTheBudget) {
  fakes::Reply slow = reply(200, R"({"decision":"DENY"})");
  slow.delay = 3s;
  fakes::Reply never;
  never.never_answer = true;
  fakes::Reply garbage;
  garbage.raw = "\x01\x02garbage";
  fakes::Reply close;
  close.close_without_reply = true;
  std::vector<fakes::Reply> script = {
      slow,
      never,
      garbage,
      close,
      // A 5xx without a verdict (a 5xx whose body holds a DENY is that DENY since GUARD-16).
      reply(500, R"({"error":"internal"})"),
      reply(200, "{not json"),
      // Over the 8 MiB reply cap (GUARD-6; a 200 KB DENY is read since GUARD-14).
      reply(200, R"({"decision":"DENY","pad":")" + std::string(9u << 20, 'x') + "\"}")};
  fakes::FakeServer server(script);
  for (size_t i = 0; i < script.size(); ++i) {
    SCOPED_TRACE(i);
    auto r = run(i % 2 ? "gemini" : "antigravity", i % 2 ? "BeforeTool" : "PreToolUse",
                 i % 2 ? kGeminiBeforeTool : kAgyPreToolUse, with_default_budget(guard_env(server)));
    json want = i % 2 ? json::object() : json{{"decision", "allow"}};
    EXPECT_EQ(contract(r), want);
    EXPECT_LT(r.exited_after, 1000ms);  // budget 50 ms; generous for a loaded machine
  }
  EXPECT_EQ(server.request_count(), script.size());
  auto refused =
      run("antigravity", "PreToolUse", kAgyPreToolUse,
          {{"PINTA_GUARD_ENDPOINT", "http://127.0.0.1:" + std::to_string(closed_port()) + "/"}});
  EXPECT_EQ(contract(refused), (json{{"decision", "allow"}}));
  auto bad_url =
      run("antigravity", "PreToolUse", kAgyPreToolUse, {{"PINTA_GUARD_ENDPOINT", "not a url"}});
  EXPECT_EQ(contract(bad_url), (json{{"decision", "allow"}}));
}

// GUARD-14: tool inputs the model shapes cannot skip the guard. Before: nesting over 256 got the
// allow reply without a guard request; a 10 MB input was sent whole (over 20 MB of body, raw text
// copy included: it did not fit the 50 ms budget and failed open); an input over the 32 MiB cap
// and raw invalid UTF-8 got the allow reply without a guard request.
TEST_F(GuardProcess, ModelShapedInputsStillGetTheGuardsDeny) {
  fakes::FakeServer server({}, reply(200, R"({"decision":"DENY","reason":"r"})"));
  const json denied = {{"decision", "deny"}, {"reason", "r"}, {"systemMessage", "r"}};
  auto gemini = [](const std::string& tool_input) {
    return R"({"session_id":"s1","cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":)" +
           tool_input + "}";
  };
  struct Case {
    const char* name;
    std::string stdin_bytes;
    bool complete;
  } cases[] = {
      {"nested 300", gemini(R"({"command":"rm -rf ~","pad":)" + std::string(300, '[') + std::string(300, ']') + "}"), true},
      {"10 MB", gemini(R"({"command":"rm -rf ~ )" + std::string(10u << 20, 'a') + "\"}"), true},
      {"40 MiB, over the input cap", gemini(R"({"command":"rm -rf ~ )" + std::string(40u << 20, 'a') + "\"}"), false},
      {"invalid UTF-8", gemini("{\"command\":\"rm -rf ~ \xff\xfe\"}"), true},
  };
  // The whole 10 MB must arrive within the adapter's stdin wait: under TSan this process writes it
  // slowly enough to use up the 1 s default (CI: payloadComplete false), so the wait scales for
  // the cases read whole (the 40 MiB one is cut by the input cap either way).
  const std::map<std::string, std::string> slow_stdin = {
      {"PINTA_STDIN_TIMEOUT_MS", std::to_string(1000 * pinta::testing::time_scale())}};
  size_t seen = 0;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(contract(run("gemini", "BeforeTool", c.stdin_bytes,
                           guard_env(server, c.complete ? slow_stdin
                                                        : std::map<std::string, std::string>{}))),
              denied);
    auto reqs = server.requests();
    ASSERT_EQ(reqs.size(), ++seen);
    EXPECT_LT(reqs.back().body.size(), 2u << 20) << "the guard is sent a bounded view";
    json g = json::parse(reqs.back().body, nullptr, false);
    ASSERT_TRUE(g.is_object());
    EXPECT_EQ(g["input"]["toolName"], "run_shell_command");
    EXPECT_EQ(g["input"]["toolInput"]["command"].get<std::string>().rfind("rm -rf ~", 0), 0u);
    if (std::string(c.name) != "invalid UTF-8") {
      EXPECT_EQ(g["input"]["truncated"], true);
      EXPECT_EQ(g["input"]["truncation"]["payloadComplete"], c.complete);
    } else {
      EXPECT_FALSE(g["input"].contains("truncated"));
    }
  }
  // Antigravity and deel-local-cli: the same deep payload is judged too.
  EXPECT_EQ(contract(run("antigravity", "PreToolUse",
                         R"({"conversationId":"c1","toolCall":{"name":"run_command","args":{"CommandLine":"rm -rf ~","p":)" +
                             std::string(400, '[') + std::string(400, ']') + "}}}",
                         guard_env(server))),
            (json{{"decision", "deny"}, {"reason", "r"}}));
  auto deel = run("deel", "PreToolUse",
                  R"({"자리":"도구전","도구":"Bash","command":"rm -rf ~","p":)" + std::string(400, '[') +
                      std::string(400, ']') + "}",
                  guard_env(server));
  EXPECT_EQ(deel.exit_code.value_or(-1), 2);
  EXPECT_EQ(deel.out, "r\n");
  // Claude Code: the deep payload and a 10 MB input get the guard's deny too.
  for (const std::string& pad : {std::string(400, '[') + std::string(400, ']'),
                                 "\"" + std::string(10u << 20, 'a') + "\""}) {
    auto claude = run("claude-code", "PreToolUse",
                      R"({"session_id":"s1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~","p":)" +
                          pad + "}}",
                      guard_env(server));
    EXPECT_EQ(claude.exit_code.value_or(-1), 0);
    json o = json::parse(claude.out, nullptr, false);
    ASSERT_TRUE(o.is_object()) << claude.out.substr(0, 200);
    EXPECT_EQ(o["hookSpecificOutput"]["permissionDecision"], "deny");
    EXPECT_EQ(o["hookSpecificOutput"]["permissionDecisionReason"], "r");
  }
  // Security first: PINTA_GUARD_ON_UNJUDGEABLE=deny refuses a view without asking.
  const size_t before = server.request_count();
  auto strict = run("gemini", "BeforeTool", gemini(R"({"command":")" + std::string(1u << 20, 'a') + "\"}"),
                    guard_env(server, {{"PINTA_GUARD_ON_UNJUDGEABLE", "deny"}}));
  EXPECT_EQ(contract(strict)["decision"], "deny");
  EXPECT_EQ(server.request_count(), before);
}

// A guard that quotes the tool input in its reason can be steered into a reason JavaScript cuts
// mid-emoji (a lone-surrogate escape) or into raw invalid UTF-8: both were "no verdict" and failed
// open (GUARD-6); every family's gate gets the deny.
TEST_F(GuardProcess, ADenyWithAnUnreadableReasonIsStillADeny) {
  for (std::string body : {std::string(R"({"decision":"DENY","reason":"cut \ud83d"})"),
                           std::string("{\"decision\":\"DENY\",\"reason\":\"raw \xff\"}"),
                           std::string(R"({"decision":"DENY","reason":{"not":"a string"}})")}) {
    SCOPED_TRACE(body);
    fakes::FakeServer server({}, reply(200, body));
    EXPECT_EQ(contract(run("gemini", "BeforeTool", kGeminiBeforeTool, guard_env(server)))["decision"], "deny");
    EXPECT_EQ(contract(run("antigravity", "PreToolUse", kAgyPreToolUse, guard_env(server)))["decision"], "deny");
    auto deel = run("deel", "PreToolUse", R"({"자리":"도구전","도구":"Bash","command":"x"})", guard_env(server));
    EXPECT_EQ(deel.exit_code.value_or(-1), 2);
    auto claude = run("claude-code", "PreToolUse",
                      R"({"session_id":"s1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"x"}})",
                      guard_env(server));
    json o = json::parse(claude.out, nullptr, false);
    ASSERT_TRUE(o.is_object()) << claude.out;
    EXPECT_EQ(o["hookSpecificOutput"]["permissionDecision"], "deny");
  }
}

TEST_F(GuardProcess, NeverCalledOnNonGateEventsOrWhenDisabled) {
  fakes::FakeServer server({}, reply(200, R"({"decision":"DENY"})"));
  EXPECT_EQ(contract(run("gemini", "AfterTool", kGeminiBeforeTool, guard_env(server))),
            json::object());
  EXPECT_EQ(contract(run("gemini", "BeforeAgent", R"({"prompt":"x"})", guard_env(server))),
            json::object());
  EXPECT_EQ(contract(run("antigravity", "PostToolUse", kAgyPreToolUse, guard_env(server))),
            json::object());
  EXPECT_EQ(contract(run("antigravity", "PreInvocation", kAgyPreToolUse, guard_env(server))),
            json::object());
  EXPECT_EQ(contract(run("antigravity", "PreToolUse", "not json", guard_env(server))),
            (json{{"decision", "allow"}}));
  auto off = guard_env(server, {{"PINTA_GUARD_DISABLED", "1"}});
  EXPECT_EQ(contract(run("gemini", "BeforeTool", kGeminiBeforeTool, off)), json::object());
  EXPECT_EQ(contract(run("antigravity", "PreToolUse", kAgyPreToolUse, off)),
            (json{{"decision", "allow"}}));
  EXPECT_EQ(server.request_count(), 0u);
}

TEST_F(GuardProcess, TimeoutSettingIsHonoured) {
  fakes::Reply slow = reply(200, R"({"decision":"DENY","reason":"slow but sure"})");
  slow.delay = 300ms;
  fakes::FakeServer server({}, slow);
  // 50 ms default: the slow guard is skipped; with 5000 ms its DENY arrives.
  EXPECT_EQ(contract(run("antigravity", "PreToolUse", kAgyPreToolUse, with_default_budget(guard_env(server)))),
            (json{{"decision", "allow"}}));
  auto patient = guard_env(server, {{"PINTA_GUARD_TIMEOUT_MS", "5000"}});
  EXPECT_EQ(contract(run("antigravity", "PreToolUse", kAgyPreToolUse, patient)),
            (json{{"decision", "deny"}, {"reason", "slow but sure"}}));
}

// ENV-7: the debug line says what the guard did, why it was unavailable, and the span id the
// guard request carried (the key that joins the debug log, the guard's logs and the span).
TEST_F(GuardProcess, DebugLogRecordsGuardOutcomeErrorAndSpanId) {
  fakes::FakeServer server({reply(200, R"({"decision":"DENY","reason":"no"})"), reply(500, "down")});
  const std::string data = home_.path() + "/data";
  auto env = guard_env(server, {{"PINTA_GEMINI_DEBUG", "1"}, {"GEMINI_PLUGIN_DATA", data}});
  contract(run("gemini", "BeforeTool", kGeminiBeforeTool, env));
  contract(run("gemini", "BeforeTool", kGeminiBeforeTool, env));
  auto log = pinta::fs::read_file(data + "/invocations.jsonl");
  ASSERT_TRUE(log) << log.error().message;
  std::vector<json> lines;
  std::istringstream in(*log);
  for (std::string l; std::getline(in, l);) lines.push_back(json::parse(l));
  ASSERT_EQ(lines.size(), 2u);
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(lines[0]["guard"], "deny");
  EXPECT_EQ(lines[0]["guard_error"], "");
  EXPECT_EQ(lines[1]["guard"], "unavailable");
  EXPECT_NE(lines[1]["guard_error"].get<std::string>().find("500"), std::string::npos)
      << lines[1].dump();
  for (size_t i = 0; i < 2; ++i) {
    const std::string id = lines[i]["span_id"].get<std::string>();
    EXPECT_EQ(id.size(), 16u) << lines[i].dump();
    EXPECT_EQ(json::parse(reqs[i].body)["input"]["spanId"], id);
  }
  EXPECT_NE(lines[0]["span_id"], lines[1]["span_id"]);
}

// An https guard through the built adapter, however it was linked (fully static with the OpenSSL
// archives, PINTA_ADAPTER_STATIC, or dynamic with OpenSSL loaded by dlopen): behind a certificate
// the system trusts (SSL_CERT_FILE) it is consulted and its DENY applies; behind a certificate
// for another host or from an untrusted CA the adapter never talks to it and fails open.
TEST_F(GuardProcess, HttpsGuardIsVerifiedThenConsulted) {
  testing::TempDir certs;
  const std::string why = testing::make_test_certificates(certs.path());
  if (!why.empty()) GTEST_SKIP() << why;
  // A generous guard budget: this is about TLS, not latency (a handshake under ASan on a loaded
  // machine can take longer than the 50 ms default).
  std::map<std::string, std::string> env = {{"SSL_CERT_FILE", certs.sub("trusted-ca.pem")},
                                            {"SSL_CERT_DIR", certs.path()},
                                            {"PINTA_GUARD_TIMEOUT_MS", "5000"}};
  auto deny = [](const std::string&) { return std::string(R"({"decision":"DENY","reason":"tls-deny"})"); };
  {
    testing::TlsServer good(certs.path(), "good", deny);
    for (const char* host : {"127.0.0.1", "localhost"}) {
      SCOPED_TRACE(host);
      env["PINTA_GUARD_ENDPOINT"] = good.url(host, "/guard");
      EXPECT_EQ(contract(run("gemini", "BeforeTool", kGeminiBeforeTool, env)),
                (json{{"decision", "deny"}, {"reason", "tls-deny"}, {"systemMessage", "tls-deny"}}));
    }
    EXPECT_EQ(good.requests(), 2);
  }
  for (const char* leaf : {"wronghost", "untrusted"}) {
    SCOPED_TRACE(leaf);
    testing::TlsServer bad(certs.path(), leaf, deny);
    env["PINTA_GUARD_ENDPOINT"] = bad.url("127.0.0.1", "/guard");
    EXPECT_EQ(contract(run("antigravity", "PreToolUse", kAgyPreToolUse, env)), (json{{"decision", "allow"}}));
    EXPECT_EQ(bad.requests(), 0);
  }
}

// An https guard's TLS session is kept in the data dir (GUARD-12): the second invocation resumes
// it (the server sees SSL_session_reused), and a cache file that is corrupt, not ours (another
// owner or group-writable) or a symlink is not used — a full handshake with the usual
// verification, the same reply — and a file that is not ours is left exactly as it was.
TEST_F(GuardProcess, HttpsGuardResumesItsTlsSessionAndIgnoresAnUntrustedCache) {
  testing::TempDir certs;
  const std::string why = testing::make_test_certificates(certs.path());
  if (!why.empty()) GTEST_SKIP() << why;
  testing::TempDir data;
  ASSERT_EQ(::chmod(data.path().c_str(), 0700), 0);
  const std::string cache = data.sub("guard-tls-session");
  auto deny = [](const std::string&) {
    return std::string(R"({"decision":"DENY","reason":"tls-deny"})");
  };
  testing::TlsServer server(certs.path(), "good", deny);
  std::map<std::string, std::string> env = {
      {"SSL_CERT_FILE", certs.sub("trusted-ca.pem")},
      {"SSL_CERT_DIR", certs.path()},
      {"PINTA_GUARD_TIMEOUT_MS", "5000"},
      {"PINTA_GUARD_KEEPER", "0"},  // each event makes its own connection (the keeper: below)
      {"GEMINI_PLUGIN_DATA", data.path()},
      {"PINTA_GUARD_ENDPOINT", server.url("127.0.0.1", "/guard")}};
  const json denied = {{"decision", "deny"}, {"reason", "tls-deny"}, {"systemMessage", "tls-deny"}};
  auto gate = [&] {
    EXPECT_EQ(contract(run("gemini", "BeforeTool", kGeminiBeforeTool, env)), denied);
  };
  auto mode_of = [](const std::string& p) {
    struct stat st {};
    return ::lstat(p.c_str(), &st) == 0 ? static_cast<int>(st.st_mode) : -1;
  };

  gate();  // full handshake; the issued session is kept
  EXPECT_EQ(server.resumed(), 0);
  ASSERT_TRUE(fs::exists(cache));
  EXPECT_EQ(mode_of(cache) & 07777, 0600);
  gate();  // resumed
  EXPECT_EQ(server.resumed(), 1);
  const std::string good_session = fs::read_file(cache).value();

  // Corrupt: ignored, and replaced by the next full handshake's session.
  ASSERT_TRUE(fs::atomic_write(cache, "pinta-gemini guard TLS session 1\ngarbage\nzz\n").ok());
  gate();
  EXPECT_EQ(server.resumed(), 1);
  gate();
  EXPECT_EQ(server.resumed(), 2);

  // Writable by the group (not ours by ENV-10): not used, not replaced.
  ASSERT_TRUE(fs::atomic_write(cache, good_session).ok());
  ASSERT_EQ(::chmod(cache.c_str(), 0620), 0);
  gate();
  EXPECT_EQ(server.resumed(), 2);
  EXPECT_EQ(fs::read_file(cache).value(), good_session);
  EXPECT_EQ(mode_of(cache) & 07777, 0620);

  // Owned by another user (only root can make one): not used, not replaced.
  if (::geteuid() == 0) {
    ASSERT_EQ(::chmod(cache.c_str(), 0600), 0);
    ASSERT_EQ(::chown(cache.c_str(), 65534, 65534), 0);
    gate();
    EXPECT_EQ(server.resumed(), 2);
    struct stat st {};
    ASSERT_EQ(::lstat(cache.c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, 65534u);
    EXPECT_EQ(fs::read_file(cache).value(), good_session);
  }

  // A symlink to a valid session: not followed, left alone.
  ASSERT_EQ(::unlink(cache.c_str()), 0);
  testing::TempDir elsewhere;
  const std::string target = elsewhere.sub("session");
  ASSERT_TRUE(fs::atomic_write(target, good_session).ok());
  ASSERT_EQ(::symlink(target.c_str(), cache.c_str()), 0);
  gate();
  EXPECT_EQ(server.resumed(), 2);
  EXPECT_TRUE(S_ISLNK(mode_of(cache)));
  EXPECT_EQ(fs::read_file(target).value(), good_session);
  EXPECT_EQ(server.requests(), ::geteuid() == 0 ? 7 : 6);
}

// ---- the guard keeper (GUARD-13) ----------------------------------------------------------

// The keeper's socket in `dir` ("" when there is none).
std::string keeper_socket(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return "";
  std::string found;
  while (const dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n.rfind("guard-keeper.", 0) == 0 && n.size() > 5 && n.compare(n.size() - 5, 5, ".sock") == 0)
      found = dir + "/" + n;
  }
  ::closedir(d);
  return found;
}

bool eventually(const std::function<bool()>& cond, std::chrono::milliseconds limit = 5000ms) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (cond()) return true;
    std::this_thread::sleep_for(10ms);
  }
  return cond();
}

// The pid of the process listening on the Unix socket `path` (SO_PEERCRED), or -1.
pid_t listener_pid(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un a {};
  a.sun_family = AF_UNIX;
  std::snprintf(a.sun_path, sizeof a.sun_path, "%s", path.c_str());
  pid_t pid = -1;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0) {
    struct ucred c {};
    socklen_t len = sizeof c;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c, &len) == 0) pid = c.pid;
  }
  ::close(fd);
  return pid;
}

// A process that exists and is not a zombie (a keeper killed here is reparented to whatever
// reaps orphans; in a container that may be nobody).
bool alive(pid_t pid) {
  auto stat = fs::read_file("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return false;
  size_t paren = stat->rfind(')');
  return paren != std::string::npos && paren + 2 < stat->size() && (*stat)[paren + 2] != 'Z';
}

class GuardKeeper : public GuardProcess {
 protected:
  void SetUp() override {
    why_ = testing::make_test_certificates(certs_.path());
    if (!why_.empty()) GTEST_SKIP() << why_;
    ASSERT_EQ(::chmod(data_->path().c_str(), 0700), 0);
    server_ = std::make_unique<testing::TlsServer>(certs_.path(), "good", deny);
  }
  std::map<std::string, std::string> env(const testing::TlsServer& server) const {
    return {{"SSL_CERT_FILE", certs_.sub("trusted-ca.pem")},
            {"PINTA_GUARD_TIMEOUT_MS", "5000"},
            {"PINTA_RELAY_TOKEN", "relay-tok"},
            {"GEMINI_PLUGIN_DATA", data_->path()},
            {"PINTA_GUARD_ENDPOINT", server.url("127.0.0.1", "/guard")}};
  }
  void gate(const std::map<std::string, std::string>& e) {
    EXPECT_EQ(contract(run("gemini", "BeforeTool", kGeminiBeforeTool, e)), kDenied);
  }
  static std::string deny(const std::string&) { return R"({"decision":"DENY","reason":"tls-deny"})"; }
  // One gate event; then the keeper it leaves behind: its socket and pid (-1 when none came).
  std::pair<std::string, pid_t> first_event_starts_a_keeper(const std::map<std::string, std::string>& e) {
    gate(e);
    if (!eventually([&] { return !keeper_socket(data_->path()).empty(); })) return {"", -1};
    const std::string sock = keeper_socket(data_->path());
    return {sock, listener_pid(sock)};
  }
  static bool kill_and_reap(pid_t pid) {
    return ::kill(pid, SIGKILL) == 0 && eventually([&] { return !alive(pid); });
  }

  const json kDenied = {{"decision", "deny"}, {"reason", "tls-deny"}, {"systemMessage", "tls-deny"}};
  std::string why_;
  testing::TempDir certs_;
  // Declared before the data dir, so destroyed after it: the keeper leaves with its data dir and
  // closes its kept connection, and the server stops at once instead of waiting out keep-alive.
  std::unique_ptr<testing::TlsServer> server_;
  std::unique_ptr<testing::TempDir> data_ = std::make_unique<testing::TempDir>();
};

// The first https gate event asks the guard itself and leaves a keeper behind; later events hand
// their request to it and it carries them over the connection it holds: the guard sees every
// request (with the relay token) but not a connection per event. (The fake guard, cpp-httplib,
// closes a connection after 5 requests: the keeper connects again, resuming the TLS session.)
TEST_F(GuardKeeper, LaterEventsGoOverTheKeepersConnection) {
  testing::TlsServer& server = *server_;
  const auto e = env(server);
  gate(e);
  EXPECT_EQ(server.connections(), 1);
  ASSERT_TRUE(eventually([&] { return !keeper_socket(data_->path()).empty(); }));
  const std::string sock = keeper_socket(data_->path());
  struct stat st {};
  ASSERT_EQ(::lstat(sock.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  for (int i = 0; i < 5; ++i) gate(e);
  EXPECT_EQ(server.requests(), 6);
  EXPECT_EQ(server.connections(), 2) << "five events, one kept connection (opened at the keeper's start)";
  EXPECT_EQ(server.last_relay_token(), "relay-tok");
  gate(e);  // the server closed the kept connection after its 5th request
  EXPECT_EQ(server.requests(), 7);
  EXPECT_EQ(server.connections(), 3);
  EXPECT_GE(server.resumed(), 1) << "the keeper's new connection resumes its session";
}

// A TCP proxy on loopback that delivers every chunk `delay` after it arrived, both ways (a link
// with that latency): a guard farther away than the budget allows for a full TLS handshake (two
// round trips before the reply) but not for one request and its reply over an open connection.
class DelayProxy {
 public:
  DelayProxy(int upstream_port, std::chrono::milliseconds delay) : upstream_(upstream_port), delay_(delay) {
    listen_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    (void)::bind(listen_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    (void)::listen(listen_, 64);
    socklen_t len = sizeof addr;
    (void)::getsockname(listen_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    accepter_ = std::thread([this] { accept_loop(); });
  }
  ~DelayProxy() {
    stop_ = true;
    accepter_.join();
    {
      std::lock_guard<std::mutex> lock(m_);
      for (int fd : fds_) ::shutdown(fd, SHUT_RDWR);
    }
    for (auto& t : pumps_) t.join();
    for (int fd : fds_) ::close(fd);
    ::close(listen_);
  }
  DelayProxy(const DelayProxy&) = delete;
  DelayProxy& operator=(const DelayProxy&) = delete;
  int port() const { return port_; }

 private:
  void accept_loop() {
    while (!stop_) {
      pollfd p{listen_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      int client = ::accept4(listen_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) continue;
      int server = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      sockaddr_in addr{};
      addr.sin_family = AF_INET;
      addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      addr.sin_port = htons(static_cast<uint16_t>(upstream_));
      if (::connect(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(client);
        ::close(server);
        continue;
      }
      std::lock_guard<std::mutex> lock(m_);
      fds_.push_back(client);
      fds_.push_back(server);
      pumps_.emplace_back([this, client, server] { pump(client, server); });
      pumps_.emplace_back([this, server, client] { pump(server, client); });
    }
  }
  // One direction: a reader stamps each chunk with its arrival, a writer passes it on `delay`
  // later. Chunks in flight overlap, as on a long link (latency, not a slow sender).
  void pump(int from, int to) {
    std::mutex m;
    std::condition_variable cv;
    std::deque<std::pair<std::chrono::steady_clock::time_point, std::string>> q;
    bool done = false;
    std::thread writer([&] {
      for (;;) {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return done || !q.empty(); });
        if (q.empty()) break;
        auto [due, bytes] = std::move(q.front());
        q.pop_front();
        lock.unlock();
        std::this_thread::sleep_until(due);
        if (!fs::write_all(to, bytes)) break;
      }
      ::shutdown(to, SHUT_WR);
    });
    char buf[65536];
    for (;;) {
      ssize_t n = ::read(from, buf, sizeof buf);
      if (n <= 0) break;
      std::lock_guard<std::mutex> lock(m);
      q.emplace_back(std::chrono::steady_clock::now() + delay_, std::string(buf, static_cast<size_t>(n)));
      cv.notify_one();
    }
    {
      std::lock_guard<std::mutex> lock(m);
      done = true;
      cv.notify_one();
    }
    writer.join();
  }

  int upstream_;
  std::chrono::milliseconds delay_;
  int listen_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread accepter_;
  std::mutex m_;
  std::vector<int> fds_;
  std::vector<std::thread> pumps_;
};

// GUARD-13/14: a guard whose full handshake never fits the budget. Before, a keeper was started
// only after an event got its answer directly, so none ever started and every gate event failed
// open for good (issue: 70 ms proxy, 200 ms budget, 0 of 8 denied; here 250 ms each way, 750 ms). Now an event that ran out of budget
// leaves a keeper starting; once it holds its connection (one handshake later) every event is
// judged. The number that may fail open first: the events that start before the keeper holds its
// connection (here: the first).
TEST_F(GuardKeeper, AGuardBeyondOneHandshakeIsJudgedOnceTheKeeperHoldsItsConnection) {
  // 250 ms each way: a round trip is 500 ms, so the 750 ms budget leaves 250 ms of slack both
  // ways (a full TLS 1.3 handshake plus the request is two round trips, >= 1000 ms).
  DelayProxy proxy(server_->port(), 250ms);
  auto e = env(*server_);
  e["PINTA_GUARD_ENDPOINT"] = "https://127.0.0.1:" + std::to_string(proxy.port()) + "/guard";
  e["PINTA_GUARD_TIMEOUT_MS"] = "750";
  EXPECT_EQ(contract(run("gemini", "BeforeTool", kGeminiBeforeTool, e)), json::object())
      << "the first event cannot be judged in time: it fails open";
  ASSERT_TRUE(eventually([&] { return !keeper_socket(data_->path()).empty(); }, 10000ms))
      << "an event that ran out of budget leaves a keeper starting";
  // One request and its reply over the kept connection: one round trip, 500 ms of 750.
  for (int i = 0; i < 5; ++i) {
    auto r = run("gemini", "BeforeTool", kGeminiBeforeTool, e);
    EXPECT_EQ(contract(r), kDenied) << "event " << i + 2 << " after " << r.exited_after.count() / 1000 << " ms";
  }
}

// Events at the same time: each gets its verdict; the keeper serves them on at most 8 connections
// (one per worker), never one per event.
TEST_F(GuardKeeper, ConcurrentEventsEachGetTheirVerdict) {
  testing::TlsServer& server = *server_;
  const auto e = env(server);
  const auto started = first_event_starts_a_keeper(e);
  ASSERT_GT(started.second, 0);
  constexpr int kEvents = 24;
  std::vector<json> replies(kEvents);
  std::vector<std::thread> threads;
  for (int i = 0; i < kEvents; ++i)
    threads.emplace_back([&, i] { replies[static_cast<size_t>(i)] = contract(run("gemini", "BeforeTool", kGeminiBeforeTool, e)); });
  for (auto& t : threads) t.join();
  for (const auto& r : replies) EXPECT_EQ(r, kDenied);
  EXPECT_EQ(server.requests(), 1 + kEvents);
  EXPECT_LE(server.connections(), 1 + 8 + kEvents / 5) << "the keeper's workers, with the server's keep-alive limit of 5";
  EXPECT_EQ(listener_pid(started.first), started.second) << "the same keeper throughout";
}

// The keeper is not dumpable (no core file, no ptrace or /proc/<pid>/mem by the same user): its
// /proc entries belong to root, not to the user it runs as. Shown with a user that is not root.
TEST_F(GuardKeeper, IsNotDumpable) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to run the adapter as another user";
  if (std::system("command -v setpriv >/dev/null 2>&1") != 0) GTEST_SKIP() << "setpriv not installed";
  testing::TlsServer& server = *server_;
  testing::TempDir home;
  ASSERT_EQ(::chmod(home.path().c_str(), 0755), 0);
  const std::string data = home.sub("data");
  ASSERT_EQ(::mkdir(data.c_str(), 0700), 0);
  ASSERT_EQ(::chown(data.c_str(), 65534, 65534), 0);
  ASSERT_EQ(::chmod(certs_.path().c_str(), 0755), 0);
  ASSERT_EQ(::chmod(certs_.sub("trusted-ca.pem").c_str(), 0644), 0);
  auto e = env(server);
  e["GEMINI_PLUGIN_DATA"] = data;
  e["HOME"] = home.path();
  e["PATH"] = "/usr/bin:/bin";
  proc::SpawnRequest r;
  // A copy the other user can reach (the build tree may sit below a directory only root enters).
  const std::string exe = home.sub("pinta-gemini");
  std::error_code ec;
  std::filesystem::copy_file(testing::bin_dir() + "/pinta-gemini", exe, ec);
  ASSERT_FALSE(ec) << ec.message();
  ASSERT_EQ(::chmod(exe.c_str(), 0755), 0);
  r.argv = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", exe,
            "--agent", "gemini", "--event", "BeforeTool"};
  r.env = e;
  r.stdin_data = kGeminiBeforeTool;
  r.timeout = 10000ms;
  r.hard_limit = 20000ms;
  EXPECT_EQ(contract(proc::make_spawner()->run(r)), kDenied);
  ASSERT_TRUE(eventually([&] { return !keeper_socket(data).empty(); }));
  const pid_t pid = listener_pid(keeper_socket(data));
  ASSERT_GT(pid, 0);
  struct stat proc_dir {};
  ASSERT_EQ(::stat(("/proc/" + std::to_string(pid) + "/fd").c_str(), &proc_dir), 0);
  EXPECT_EQ(proc_dir.st_uid, 0u) << "a dumpable process's /proc entries belong to its own user (65534)";
  auto status = fs::read_file("/proc/" + std::to_string(pid) + "/status").value_or("");
  EXPECT_NE(status.find("Uid:\t65534"), std::string::npos) << "the keeper runs as the event's user";
  (void)::kill(pid, SIGKILL);
}

// The line of /proc/<pid>/limits that starts with `name` ("" when absent).
std::string limits_line(pid_t pid, const std::string& name) {
  std::istringstream in(fs::read_file("/proc/" + std::to_string(pid) + "/limits").value_or(""));
  for (std::string line; std::getline(in, line);)
    if (line.rfind(name, 0) == 0) return line;
  return "";
}

std::string cwd_of(pid_t pid) {
  char buf[4096];
  ssize_t n = ::readlink(("/proc/" + std::to_string(pid) + "/cwd").c_str(), buf, sizeof buf);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

// The keeper does not keep the host's cwd (the user's workspace: `umount` would fail, and a core
// file would land there) and can write no core file. Failed before the fix: the keeper's cwd was
// the test's (the build tree) and its core limit the test's.
TEST_F(GuardKeeper, RunsInTheRootDirectoryAndWritesNoCoreFile) {
  testing::TlsServer& server = *server_;
  const auto started = first_event_starts_a_keeper(env(server));
  const pid_t pid = started.second;
  ASSERT_GT(pid, 0);
  char here[4096];
  ASSERT_NE(::getcwd(here, sizeof here), nullptr);
  ASSERT_STRNE(here, "/") << "the test must run elsewhere than / to show anything";
  EXPECT_EQ(cwd_of(pid), "/");
  const std::string core = limits_line(pid, "Max core file size");
  std::istringstream fields(core.substr(std::string("Max core file size").size()));
  std::string soft, hard;
  fields >> soft >> hard;
  EXPECT_EQ(soft, "0") << core;
  EXPECT_EQ(hard, "0") << core;
}

// A keeper serves only the binary it was forked from. Run from a copy of the adapter: deleting
// the copy makes its keeper leave (within its 250 ms tick), and so does replacing it (an upgrade:
// a new file renamed over it), whose events start a keeper of their own under another name.
// Failed before the fix: the keeper stayed (its idle window is minutes), and the replacing
// binary's events talked to the old binary's keeper.
TEST_F(GuardKeeper, LeavesWhenItsBinaryIsDeletedOrReplaced) {
  testing::TlsServer& server = *server_;
  const auto e = env(server);
  testing::TempDir bin;
  exe_ = bin.sub("pinta-gemini");
  auto install = [&](const std::string& to) {
    std::error_code ec;
    std::filesystem::copy_file(testing::bin_dir() + "/pinta-gemini", to,
                               std::filesystem::copy_options::overwrite_existing, ec);
    ASSERT_FALSE(ec) << ec.message();
    ASSERT_EQ(::chmod(to.c_str(), 0755), 0);
  };
  install(exe_);

  // Deleted.
  auto started = first_event_starts_a_keeper(e);
  ASSERT_GT(started.second, 0);
  ASSERT_EQ(::unlink(exe_.c_str()), 0);
  EXPECT_TRUE(eventually([&] { return !alive(started.second); }, 3000ms)) << "the keeper of a deleted binary stayed";
  EXPECT_TRUE(eventually([&] { return keeper_socket(data_->path()).empty(); }, 3000ms));

  // Replaced: a new file (another inode) renamed over the path.
  install(exe_);
  started = first_event_starts_a_keeper(e);
  ASSERT_GT(started.second, 0);
  install(bin.sub("pinta-gemini.new"));
  ASSERT_EQ(::rename(bin.sub("pinta-gemini.new").c_str(), exe_.c_str()), 0);
  gate(e);  // the new binary's event: not served by the old keeper, it starts its own
  EXPECT_TRUE(eventually([&] { return !alive(started.second); }, 3000ms)) << "the keeper of a replaced binary stayed";
  ASSERT_TRUE(eventually([&] {
    const std::string now = keeper_socket(data_->path());
    return !now.empty() && now != started.first && listener_pid(now) > 0;
  })) << "the new binary's keeper";
  EXPECT_NE(listener_pid(keeper_socket(data_->path())), started.second);
  ::kill(listener_pid(keeper_socket(data_->path())), SIGKILL);
}

// PINTA_GUARD_KEEPER=0: no keeper, every event connects itself.
TEST_F(GuardKeeper, OffMeansEveryEventConnects) {
  testing::TlsServer& server = *server_;
  auto e = env(server);
  e["PINTA_GUARD_KEEPER"] = "0";
  for (int i = 0; i < 3; ++i) gate(e);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(keeper_socket(data_->path()), "");
  EXPECT_EQ(server.connections(), 3);
}

// A keeper killed with SIGKILL leaves its socket file: the next event finds nobody listening,
// asks the guard itself (same verdict), and a new keeper takes the place.
TEST_F(GuardKeeper, AKilledKeeperIsReplacedAndNoVerdictIsLost) {
  testing::TlsServer& server = *server_;
  const auto e = env(server);
  const auto started = first_event_starts_a_keeper(e);
  const std::string sock = started.first;
  const pid_t pid = started.second;
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(kill_and_reap(pid));
  EXPECT_TRUE(fs::exists(sock)) << "the dead keeper's socket file is still there";
  const int before = server.requests();
  gate(e);
  EXPECT_EQ(server.requests(), before + 1);
  // (The new socket may well get the dead one's inode number: the listener is what tells.)
  EXPECT_TRUE(eventually([&] {
    const pid_t now = listener_pid(sock);
    return now > 0 && now != pid;
  }));
  gate(e);
  EXPECT_EQ(server.requests(), before + 2);
}

// The keeper leaves after its idle window (PINTA_GUARD_KEEPER_IDLE_MS), removing its socket, and
// within a moment of its data dir being deleted.
TEST_F(GuardKeeper, LeavesWhenIdleAndWhenTheDataDirIsDeleted) {
  testing::TlsServer& server = *server_;
  auto e = env(server);
  e["PINTA_GUARD_KEEPER_IDLE_MS"] = "300";
  gate(e);
  ASSERT_TRUE(eventually([&] { return !keeper_socket(data_->path()).empty(); }));
  pid_t pid = listener_pid(keeper_socket(data_->path()));
  ASSERT_GT(pid, 0);
  EXPECT_TRUE(eventually([&] { return keeper_socket(data_->path()).empty(); }, 3000ms));
  EXPECT_TRUE(eventually([&] { return !alive(pid); }, 3000ms));

  e.erase("PINTA_GUARD_KEEPER_IDLE_MS");
  gate(e);
  ASSERT_TRUE(eventually([&] { return !keeper_socket(data_->path()).empty(); }));
  pid = listener_pid(keeper_socket(data_->path()));
  ASSERT_GT(pid, 0);
  data_.reset();  // rm -r the data dir
  EXPECT_TRUE(eventually([&] { return !alive(pid); }, 3000ms));
}

// Where no socket can be made (here: a directory squats the temporary name the keeper binds),
// the keeper stays as a placeholder holding its lock for its idle window, so events do not start
// one each; they ask the guard themselves, with the same verdict.
TEST_F(GuardKeeper, WhereNoSocketCanBeMadeEventsAskTheGuardThemselves) {
  testing::TlsServer& server = *server_;
  auto e = env(server);
  gate(e);
  ASSERT_TRUE(eventually([&] { return !keeper_socket(data_->path()).empty(); }));
  const std::string sock = keeper_socket(data_->path());
  const std::string stem = sock.substr(0, sock.size() - 5);
  const pid_t pid = listener_pid(sock);
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(kill_and_reap(pid));
  ASSERT_EQ(::unlink(sock.c_str()), 0);
  ASSERT_EQ(::mkdir((stem + ".new").c_str(), 0700), 0);
  ASSERT_TRUE(fs::atomic_write(stem + ".new/keep", "x").ok());  // not removable by unlink

  e["PINTA_GUARD_KEEPER_IDLE_MS"] = "1500";
  const int before = server.connections();
  gate(e);  // asks the guard itself; starts a keeper that cannot listen
  ASSERT_TRUE(eventually([&] { return !fs::FileLock::acquire(stem + ".lock", 0); }))
      << "the placeholder holds the lock";
  for (int i = 0; i < 3; ++i) gate(e);
  EXPECT_EQ(server.connections(), before + 4) << "every event connected itself";
  EXPECT_FALSE(fs::exists(sock));
  EXPECT_TRUE(eventually([&] { return static_cast<bool>(fs::FileLock::acquire(stem + ".lock", 0)); }, 5000ms))
      << "the placeholder leaves after its idle window";
}

// Connects to the Unix socket `path`, sends `bytes`, and returns what comes back before the peer
// closes (or 2 s pass).
std::string unix_exchange(const std::string& path, const std::string& bytes) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un a {};
  a.sun_family = AF_UNIX;
  std::snprintf(a.sun_path, sizeof a.sun_path, "%s", path.c_str());
  std::string got;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0) {
    struct timeval tv {2, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    (void)!::write(fd, bytes.data(), bytes.size());
    ::shutdown(fd, SHUT_WR);
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0) got.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return got;
}

std::string netstring(const std::string& s) { return std::to_string(s.size()) + ":" + s + ","; }

// Whatever a client of our uid sends, the keeper answers only a well-formed request for its own
// trust key: garbage, a frame that lies about its length, a truncated frame, a frame over the cap
// and a request for another trust key get a refusal or nothing, and the keeper goes on serving.
TEST_F(GuardKeeper, MalformedRequestsDoNotHurtTheKeeper) {
  testing::TlsServer& server = *server_;
  const auto e = env(server);
  const auto started = first_event_starts_a_keeper(e);
  const std::string sock = started.first;
  const pid_t pid = started.second;
  ASSERT_GT(pid, 0);
  gate(e);
  const int requests = server.requests();
  const int connections = server.connections();

  std::string fields = netstring("pinta-guard-keeper 1") + netstring("v1 host=127.0.0.1 not-the-key") +
                       netstring("1000000") + netstring("65536") + netstring("POST") +
                       netstring(server.url("127.0.0.1", "/guard")) + netstring("0") + netstring("{}");
  const std::string wrong_key = unix_exchange(sock, netstring(fields));
  EXPECT_NE(wrong_key.find("refused"), std::string::npos) << wrong_key;
  for (const std::string& junk :
       {std::string("GET / HTTP/1.1\r\n\r\n"), std::string("99999999999:"), std::string("100:short,"),
        std::string("9:abc"), std::string("5:hello,trailing"), std::string(1 << 20, 'x'),
        netstring(netstring("pinta-guard-keeper 1")), std::string("70000000:")}) {
    const std::string got = unix_exchange(sock, junk);
    EXPECT_EQ(got.find("\"ok\""), std::string::npos);
    EXPECT_EQ(got.find("3:200"), std::string::npos) << got;
  }
  EXPECT_EQ(listener_pid(sock), pid) << "the same keeper still serves";
  EXPECT_EQ(server.requests(), requests) << "nothing reached the guard";
  gate(e);
  EXPECT_EQ(server.requests(), requests + 1);
  EXPECT_EQ(server.connections(), connections) << "over the keeper's connection";
}

// A socket at the keeper's path that is not the keeper's is not used: one owned by another user
// (root only can make one), or one served by a process of another user (SO_PEERCRED). The event
// asks the guard itself; the planted listener never gets a byte.
TEST_F(GuardKeeper, ASocketThatIsNotOursIsNotUsed) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to plant a socket of another user";
  if (std::system("command -v setpriv >/dev/null 2>&1 && test -x /usr/bin/python3") != 0)
    GTEST_SKIP() << "setpriv or /usr/bin/python3 not installed";
  testing::TlsServer& server = *server_;
  auto e = env(server);
  e["PINTA_GUARD_KEEPER"] = "0";
  gate(e);  // learn the socket's name without starting a keeper: there is none yet
  e.erase("PINTA_GUARD_KEEPER");
  gate(e);  // starts one
  ASSERT_TRUE(eventually([&] { return !keeper_socket(data_->path()).empty(); }));
  const std::string sock = keeper_socket(data_->path());
  pid_t pid = listener_pid(sock);
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(kill_and_reap(pid));
  ASSERT_EQ(::unlink(sock.c_str()), 0);
  const std::string lock = sock.substr(0, sock.size() - 5) + ".lock";

  // A listener of uid 65534, bound outside the data dir and moved in; it records what it gets.
  testing::TempDir other;
  ASSERT_EQ(::chmod(other.path().c_str(), 0777), 0);
  const std::string got = other.sub("got");
  const std::string script = "import socket,os,sys,time\n"
      "s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8); open(sys.argv[1]+'.ready','w').close()\n"
      "s.settimeout(8)\n"
      "try:\n c,_=s.accept(); c.settimeout(2); d=c.recv(100)\n open(sys.argv[2],'wb').write(b'accepted:'+d)\n"
      "except Exception: pass\n";
  ASSERT_TRUE(fs::atomic_write(other.sub("l.py"), script).ok());
  ASSERT_EQ(::chmod(other.sub("l.py").c_str(), 0644), 0);
  const std::string planted = other.sub("s");
  const std::string cmd = "setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 '" + other.sub("l.py") +
                          "' '" + planted + "' '" + got + "' & echo $! > '" + other.sub("pid") + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  ASSERT_TRUE(eventually([&] { return fs::exists(planted + ".ready"); }));
  // Hold the keeper lock so no keeper of ours replaces the planted socket meanwhile.
  auto held = fs::FileLock::acquire(lock, 1000);
  ASSERT_TRUE(static_cast<bool>(held));

  // (1) Owned by uid 65534: refused by its owner before any connect.
  ASSERT_EQ(::rename(planted.c_str(), sock.c_str()), 0);
  int before = server.requests();
  gate(e);
  EXPECT_EQ(server.requests(), before + 1);
  // (2) Owned by us, but the listening process is uid 65534: refused by SO_PEERCRED.
  ASSERT_EQ(::lchown(sock.c_str(), 0, 0), 0);
  before = server.requests();
  gate(e);
  EXPECT_EQ(server.requests(), before + 1);
  std::this_thread::sleep_for(200ms);
  auto record = fs::read_file(got);
  EXPECT_TRUE(!record || *record == "accepted:") << "the planted listener got: " << *record;
  (void)std::system(("kill $(cat '" + other.sub("pid") + "') 2>/dev/null").c_str());
}

// Without SSL_CERT_FILE the chain is verified against the hashed CA directory first
// (SSL_CERT_DIR), the default bundle only if that fails (GUARD-4): a CA found by hash in the
// directory is trusted, and a directory without it (the system bundle does not hold the test
// CA either) fails open without the guard being asked.
TEST_F(GuardProcess, HttpsGuardTrustsTheHashedCaDirectoryWithoutTheBundle) {
  testing::TempDir certs;
  const std::string why = testing::make_test_certificates(certs.path());
  if (!why.empty()) GTEST_SKIP() << why;
  testing::TempDir hashed, empty;
  ASSERT_TRUE(
      fs::atomic_write(hashed.sub("ca.pem"), fs::read_file(certs.sub("trusted-ca.pem")).value())
          .ok());
  if (std::system(("openssl rehash '" + hashed.path() + "' >/dev/null 2>&1").c_str()) != 0)
    GTEST_SKIP() << "openssl rehash failed";
  auto deny = [](const std::string&) {
    return std::string(R"({"decision":"DENY","reason":"tls-deny"})");
  };
  testing::TlsServer server(certs.path(), "good", deny);
  std::map<std::string, std::string> env = {
      {"PINTA_GUARD_TIMEOUT_MS", "5000"},
      {"PINTA_GUARD_ENDPOINT", server.url("localhost", "/guard")}};
  env["SSL_CERT_DIR"] = hashed.path();
  EXPECT_EQ(contract(run("gemini", "BeforeTool", kGeminiBeforeTool, env)),
            (json{{"decision", "deny"}, {"reason", "tls-deny"}, {"systemMessage", "tls-deny"}}));
  EXPECT_EQ(server.requests(), 1);
  env["SSL_CERT_DIR"] = empty.path();
  EXPECT_EQ(contract(run("gemini", "BeforeTool", kGeminiBeforeTool, env)), json::object());
  EXPECT_EQ(server.requests(), 1);
}

// Over the family registry (pinta/hosts/family.h): for every registered family, the built
// adapter puts its gate event's tool call to the guard, whole, deep or huge, and the reply is,
// by the one reply check (pinta/hosts/reply_check.h, written from the host references), the
// host's deny under a DENY, its allow under an ALLOW, and the fail-safe allow on garbage, never
// with stderr output. A new family is covered by registering it; so is each `--agent` label with
// a payload shape of its own (the payload is built from the label's shape).
std::string gate_payload(hosts::Family f, const std::string& args_json, std::string_view label = {}) {
  const auto& d = hosts::descriptor(f);
  const auto& sh = hosts::payload_shape(f, label);
  auto key = [](std::string_view k) { return json(std::string(k)).dump(); };
  std::string head = "{";
  if (!sh.event_key.empty()) head += key(sh.event_key) + ":" + key(d.gate_event) + ",";
  if (!sh.session_id.empty()) head += key(sh.session_id) + R"(:"s1",)";
  if (!sh.tool_call_id.empty()) head += key(sh.tool_call_id) + R"(:"toolu_1",)";
  const std::string tool = key(sh.tool_name) + R"(:"Bash",)" +
                           (sh.tool_input.empty() ? std::string(R"("input")") : key(sh.tool_input)) +
                           ":" + args_json;
  return sh.tool_object.empty() ? head + tool + "}" : head + key(sh.tool_object) + ":{" + tool + "}}";
}

TEST_F(GuardProcess, EveryFamilysGateIsJudgedAndAnsweredInItsOwnProtocol) {
  fakes::FakeServer deny({}, reply(200, R"({"decision":"DENY","reason":"no","userMessage":"blocked"})"));
  fakes::FakeServer allow({}, reply(200, R"({"decision":"ALLOW"})"));
  const std::string deep = R"({"command":"rm -rf ~","pad":)" + std::string(5000, '[') +
                           std::string(5000, ']') + "}";
  const std::string huge = R"({"command":"rm -rf ~","content":")" + std::string(3 << 20, 'c') + "\"}";
  size_t asked = 0;
  for (const auto& d : hosts::families()) {
    for (std::size_t li = 0; li < d.agent_labels.size(); ++li) {
      if (li > 0 && d.label_payloads[li] == nullptr) continue;
      const std::string label(d.agent_labels[li]), gate(d.gate_event),
          name(std::string(d.name) + " " + label);
      for (const auto& [what, args] :
           std::vector<std::pair<std::string, std::string>>{{"whole", R"({"command":"rm -rf ~"})"},
                                                            {"deep", deep},
                                                            {"huge", huge}}) {
        const auto r = run(label, gate, gate_payload(d.id, args, label), guard_env(deny));
        ASSERT_TRUE(r.started) << r.spawn_error;
        EXPECT_EQ(r.err, "") << name << " " << what;
        const auto c = hosts::check_reply(d.id, gate, {r.out, r.exit_code, r.err});
        EXPECT_TRUE(c.ok()) << name << " " << what << ": " << c.why() << " out=" << r.out.substr(0, 200);
        EXPECT_EQ(c.kind, hosts::ReplyKind::kDeny) << name << " " << what << " out=" << r.out.substr(0, 200);
        EXPECT_EQ(deny.requests().size(), ++asked) << name << " " << what;
      }
      const auto a = run(label, gate, gate_payload(d.id, R"({"command":"ls"})", label), guard_env(allow));
      const auto ca = hosts::check_reply(d.id, gate, {a.out, a.exit_code, a.err});
      EXPECT_TRUE(ca.ok()) << name << ": " << ca.why();
      EXPECT_EQ(ca.kind, hosts::ReplyKind::kAllow) << name;
      EXPECT_EQ(a.exit_code.value_or(-1), 0) << name;
      EXPECT_EQ(a.err, "") << name;
      // (An object cut short, `{"a":`, is a tool call that arrived in part: it is put to the guard,
      // GUARD-14; NoInputShapeOrGuardReplyWithADenyIsAnAllow covers such inputs.)
      for (const std::string garbage : {"", "not json", "\xff\xfe"}) {
        const auto g = run(label, gate, garbage, guard_env(deny));
        const auto cg = hosts::check_reply(d.id, gate, {g.out, g.exit_code, g.err});
        EXPECT_TRUE(cg.ok()) << name << ": " << cg.why();
        EXPECT_EQ(cg.kind, hosts::ReplyKind::kAllow) << name;
        EXPECT_EQ(g.exit_code.value_or(-1), 0) << name;
        EXPECT_EQ(g.err, "") << name;
      }
      EXPECT_EQ(deny.requests().size(), asked) << name << ": garbage reached the guard";
    }
  }
}

// Claude Code (shared/reference/real-hosts.md "Claude Code 2.1.332"): the exact bytes. Allow:
// exit 0 and no output; DENY: the hookSpecificOutput deny line, exit 0.
TEST_F(GuardProcess, ClaudeCodeAllowIsSilentAndDenyIsTheHookSpecificOutputLine) {
  const std::string pre =
      R"({"session_id":"s1","transcript_path":"/h/.claude/projects/-w/s1.jsonl","cwd":"/w",)"
      R"("hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},)"
      R"("tool_use_id":"toolu_01"})";
  fakes::FakeServer deny({}, reply(200, R"({"decision":"DENY","reason":"no rm"})"));
  for (const char* label : {"claude-code", "claude"}) {
    const auto r = run(label, "PreToolUse", pre, guard_env(deny));
    EXPECT_EQ(r.out,
              R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",)"
              R"("permissionDecisionReason":"no rm"}})"
              "\n");
    EXPECT_EQ(r.exit_code.value_or(-1), 0);
    EXPECT_EQ(r.err, "");
  }
  json g = json::parse(deny.requests().at(0).body, nullptr, false);
  EXPECT_EQ(g["input"]["toolName"], "Bash");
  EXPECT_EQ(g["input"]["toolInput"]["command"], "rm -rf /");
  EXPECT_EQ(g["input"]["agent"], "claude_code");
  EXPECT_EQ(g["input"]["sessionId"], "s1");
  fakes::FakeServer review({}, reply(200, R"({"decision":"REVIEW","reason":"look"})"));
  auto env = guard_env(review);
  env["PINTA_GUARD_REVIEW"] = "ask";
  const auto ask = run("claude-code", "PreToolUse", pre, env);
  EXPECT_EQ(json::parse(ask.out)["hookSpecificOutput"]["permissionDecision"], "ask");
  for (const auto ev : hosts::descriptor(hosts::Family::kClaude).events) {
    if (std::string_view(ev) == "PreToolUse") continue;
    const auto o = run("claude-code", std::string(ev), pre, guard_env(deny));
    EXPECT_EQ(o.out, "") << ev;
    EXPECT_EQ(o.exit_code.value_or(-1), 0) << ev;
    EXPECT_EQ(o.err, "") << ev;
  }
}

// GUARD-13, ENV-4: in a guard-only setup (no telemetry, no debug log) nothing
// else creates the data dir, and the keeper used to need it to exist: its lock could not be
// opened, no keeper ever started, and a guard beyond one handshake judged nothing (0 of 8
// denies; 7 of 8 once the dir was made by hand). The keeper now creates the dir as every writer
// does (0700, missing parents too) and starts. Failed before: no keeper socket, no data dir.
TEST_F(GuardKeeper, StartsWhenTheDataDirDoesNotExistYetAndCreatesIt) {
  DelayProxy proxy(server_->port(), 250ms);
  auto e = env(*server_);
  const std::string parent = data_->sub("not-yet");
  const std::string data = parent + "/data";
  e["GEMINI_PLUGIN_DATA"] = data;
  e["PINTA_GUARD_ENDPOINT"] = "https://127.0.0.1:" + std::to_string(proxy.port()) + "/guard";
  e["PINTA_GUARD_TIMEOUT_MS"] = "750";
  EXPECT_EQ(contract(run("gemini", "BeforeTool", kGeminiBeforeTool, e)), json::object())
      << "the first event cannot be judged in time: it fails open";
  ASSERT_TRUE(eventually([&] { return !keeper_socket(data).empty(); }, 10000ms))
      << "a keeper starts although the data dir did not exist";
  for (const std::string& dir : {parent, data}) {
    struct stat st {};
    ASSERT_EQ(::lstat(dir.c_str(), &st), 0) << dir;
    EXPECT_TRUE(S_ISDIR(st.st_mode)) << dir;
    EXPECT_EQ(st.st_mode & 0777, 0700u) << dir;
    EXPECT_EQ(st.st_uid, ::geteuid()) << dir;
  }
  for (int i = 0; i < 4; ++i) {
    auto r = run("gemini", "BeforeTool", kGeminiBeforeTool, e);
    EXPECT_EQ(contract(r), kDenied) << "event " << i + 2 << " after " << r.exited_after.count() / 1000 << " ms";
  }
}

// Issue "Guard integrity, round 3": against a guard that denies everything, no input shape, size or
// encoding, and no guard reply that carries a readable DENY, yields an allow — through the built
// adapter, on every family: the tool name after cut or refused arguments, name and escape bombs,
// a guard behind nginx's 1 MiB and Express's 100 kB body limits (and a stricter 16 KiB one), and
// DENYs decorated as real guards write them. Each was an allow before.
TEST_F(GuardProcess, NoInputShapeOrGuardReplyWithADenyIsAnAllow) {
  auto capped = [](size_t limit) {
    fakes::Reply r = reply(200, R"({"decision":"DENY","reason":"no"})");
    r.max_request_body = limit;
    return r;
  };
  std::vector<std::pair<std::string, std::unique_ptr<fakes::FakeServer>>> guards;
  guards.emplace_back("deny", std::make_unique<fakes::FakeServer>(std::vector<fakes::Reply>{}, reply(200, R"({"decision":"DENY","reason":"no"})")));
  guards.emplace_back("1 MiB body limit", std::make_unique<fakes::FakeServer>(std::vector<fakes::Reply>{}, capped(1u << 20)));
  guards.emplace_back("100 kB body limit", std::make_unique<fakes::FakeServer>(std::vector<fakes::Reply>{}, capped(100000)));
  guards.emplace_back("16 KiB body limit", std::make_unique<fakes::FakeServer>(std::vector<fakes::Reply>{}, capped(16u << 10)));
  for (const char* body : {R"({"decision":"DENY","reason":"no","score":NaN})",
                           R"({"decision":"DENY","reason":"no","score":1e400})",
                           "{\"decision\":\"DENY\",\"reason\":\"no\"}\n{\"log\":1}",
                           R"({"decision":"DENY\n","reason":"no"})"})
    guards.emplace_back(std::string("decorated ") + body,
                        std::make_unique<fakes::FakeServer>(std::vector<fakes::Reply>{}, reply(200, body)));
  for (int status : {201, 403})
    guards.emplace_back("status " + std::to_string(status),
                        std::make_unique<fakes::FakeServer>(std::vector<fakes::Reply>{}, reply(status, R"({"decision":"DENY","reason":"no"})")));

  std::string names = R"({"command":"rm -rf ~")";
  for (int i = 0; i < 4096; ++i) names += ",\"n" + std::to_string(i) + std::string(1000, 'k') + "\":1";
  names += "}";
  std::string escapes = R"({"command":"rm -rf ~")";
  for (int i = 0; i < 100000; ++i) escapes += ",\"\\u0001\\u0002" + std::to_string(i) + "\":\"\\u0003\"";
  escapes += "}";
  const std::vector<std::pair<std::string, std::string>> inputs = {
      {"whole", R"({"command":"rm -rf ~"})"},
      {"60 KB argument", R"({"command":"rm -rf ~","p":")" + std::string(60000, 'x') + "\"}"},
      {"10 MB argument", R"({"command":"rm -rf ~ )" + std::string(10u << 20, 'a') + "\"}"},
      {"4096 names of 1000 bytes", names},
      {"100k control-character names", escapes},
  };
  for (const auto& d : hosts::families()) {
    const std::string label(d.agent_labels[0]), gate(d.gate_event), name(d.name);
    for (const auto& [guard_name, guard] : guards) {
      for (const auto& [what, args] : inputs) {
        // The decorated replies are about reading the verdict: one input is enough for them. The
        // body limits meet a request of at most 64 KiB whatever the input's size: a 60 KB argument
        // and the escape names reach them; the multi-megabyte inputs run against the plain guard
        // (it keeps the test short under the sanitizers).
        if (guard_name.rfind("decorated", 0) == 0 || guard_name.rfind("status", 0) == 0) {
          if (what != "whole") continue;
        } else if (guard_name != "deny" && what != "60 KB argument" &&
                   what != "100k control-character names") {
          continue;
        }
        const auto r = run(label, gate, gate_payload(d.id, args), guard_env(*guard));
        const std::string at = name + " / " + guard_name + " / " + what;
        ASSERT_TRUE(r.started) << r.spawn_error;
        EXPECT_EQ(r.err, "") << at;
        const auto c = hosts::check_reply(d.id, gate, {r.out, r.exit_code, r.err});
        EXPECT_TRUE(c.ok()) << at << ": " << c.why();
        EXPECT_EQ(c.kind, hosts::ReplyKind::kDeny) << at << " out=" << r.out.substr(0, 200);
      }
    }
    // The tool name after the arguments (as Antigravity writes it), the arguments cut at the
    // input cap (4 KiB here), refused by the parser, or past the value budget.
    const auto& sh = d.payload;
    auto key = [](std::string_view k) { return json(std::string(k)).dump(); };
    auto name_last = [&](const std::string& args) {
      std::string head = "{";
      if (!sh.event_key.empty()) head += key(sh.event_key) + ":" + key(d.gate_event) + ",";
      const std::string input =
          (sh.tool_input.empty() ? std::string(R"("input")") : key(sh.tool_input)) + ":" + args;
      const std::string tool = input + "," + key(sh.tool_name) + R"(:"Bash")";
      return sh.tool_object.empty() ? head + tool + "}" : head + key(sh.tool_object) + ":{" + tool + "}}";
    };
    std::string values = R"({"command":"rm -rf ~","v":[0)";
    for (int i = 0; i < 1100000; ++i) values += ",0";
    values += "]}";
    for (const auto& [what, args, env] : std::vector<std::tuple<std::string, std::string, std::map<std::string, std::string>>>{
             {"cut at the cap", R"({"command":"rm -rf ~","p":")" + std::string(100000, 'p') + "\"}", {{"PINTA_MAX_INPUT_BYTES", "4096"}}},
             {"NaN", R"({"command":"rm -rf ~","score":NaN})", {}},
             {"1e400", R"({"score":1e400,"command":"rm -rf ~"})", {}},
             {"1.1 M values", values, {}}}) {
      std::map<std::string, std::string> e = guard_env(*guards[0].second);
      for (const auto& [k, v] : env) e[k] = v;
      const size_t before = guards[0].second->request_count();
      const auto r = run(label, gate, name_last(args), e);
      const std::string at = name + " / name last / " + what;
      const auto c = hosts::check_reply(d.id, gate, {r.out, r.exit_code, r.err});
      EXPECT_TRUE(c.ok()) << at << ": " << c.why();
      EXPECT_EQ(c.kind, hosts::ReplyKind::kDeny) << at << " out=" << r.out.substr(0, 200);
      ASSERT_EQ(guards[0].second->request_count(), before + 1) << at;
      const auto sent = json::parse(guards[0].second->requests().back().body, nullptr, false);
      EXPECT_EQ(sent["input"]["toolName"], "Bash") << at;
      EXPECT_LE(guards[0].second->requests().back().body.size(), 65536u) << at;
    }
  }
}

}  // namespace
}  // namespace pinta
