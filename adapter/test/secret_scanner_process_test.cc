// Redaction checked by an independent scanner, process level: the built pinta-gemini gets
// planted secrets (adapter/test/planted_secrets.h: >= 100 secrets, >= 60 formats) in every payload
// position — top-level values, nested arrays, object keys, tool arguments of both host families,
// structured credential fields — with the collector down and the debug log on; then a flusher
// delivers to a fake collector. Everything the adapter wrote (spans as the collector received
// them, the queue, the debug log, stdout, stderr) is scanned by secretlint with its recommended
// preset (pinned, installed by ci/npm-secretlint.sh; SKIPPED with the reason when npm is
// unreachable): 0 findings. Our own check: no planted secret appears anywhere, byte for byte.
// The scanner itself is shown to fire on the unredacted corpus, so the check can fail.
// One exception, in adapter/test/secretlintrc.json: the database-connection-string rule reads our
// own marker in `postgres://[REDACTED:connection_string]@host` as user "[REDACTED" with password
// "connection_string]"; that exact marker shape is allowed (a real user:password is still found).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <map>
#include <thread>

#include "pinta/common/fs.h"
#include "pinta/common/process.h"
#include "pinta/common/test_support.h"
#include "pinta/fakes/fake_server.h"
#include "planted_secrets.h"

namespace pinta::adapter {
namespace {

using nlohmann::json;
using pinta::fakes::FakeServer;
using pinta::testing::TempDir;

std::string refused_url() {
  FakeServer s;
  std::string u = s.url("/v1/traces");
  s.stop();
  return u;
}

class SecretScanner : public ::testing::Test {
 protected:
  TempDir home_;
  std::string prefix_;  // secretlint install
  std::string data() const { return home_.sub("data"); }

  void SetUp() override {
    proc::SpawnRequest r;
    r.argv = {"bash", pinta::testing::source_dir() + "/ci/npm-secretlint.sh"};
    r.timeout = std::chrono::milliseconds(300000);
    r.hard_limit = std::chrono::milliseconds(320000);
    auto res = proc::make_spawner()->run(r);
    if (res.exit_code != 0 || res.out.empty()) {
      GTEST_SKIP() << "secretlint not available (ci/npm-secretlint.sh exit "
                   << res.exit_code.value_or(-1) << "): " << res.err;
    }
    prefix_ = res.out.substr(0, res.out.find('\n'));
  }

  std::map<std::string, std::string> env(const std::string& endpoint) const {
    return {{"HOME", home_.path()},
            {"PATH", "/usr/bin:/bin"},
            {"GEMINI_PLUGIN_DATA", data()},
            {"PINTA_OTLP_BACKOFF_MAX_MS", "0"},
            {"PINTA_OTLP_TIMEOUT_MS", "2000"},
            {"PINTA_GEMINI_DEBUG", "1"},
            {"GEMINI_PLUGIN_OPTION_ENDPOINT", endpoint}};
  }

  proc::SpawnResult run(const std::string& agent, const std::string& event, const json& payload,
                        const std::map<std::string, std::string>& e) const {
    proc::SpawnRequest r;
    r.argv = {pinta::testing::bin_dir() + "/pinta-gemini", "--agent", agent, "--event", event};
    r.env = e;
    r.stdin_data = payload.dump();
    r.timeout = std::chrono::milliseconds(10000) * testing::time_scale();
    r.hard_limit = std::chrono::milliseconds(20000) * testing::time_scale();
    return proc::make_spawner()->run(r);
  }

  void wait_flusher_idle() const {
    const std::string p = fs::join(data(), "flusher.lock");
    for (int i = 0; i < 750; ++i) {
      int fd = ::open(p.c_str(), O_RDWR | O_CLOEXEC);
      if (fd < 0) return;
      const bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
      ::close(fd);
      if (free) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  // secretlint over every file in `dir`: the findings as "file: rule: message" lines.
  std::vector<std::string> scan(const std::string& dir) const {
    proc::SpawnRequest r;
    r.argv = {prefix_ + "/node_modules/.bin/secretlint",
              "--secretlintrc",
              pinta::testing::source_dir() + "/adapter/test/secretlintrc.json",
              "--format",
              "json",
              dir + "/**/*"};
    r.cwd = prefix_;
    r.timeout = std::chrono::milliseconds(120000);
    r.hard_limit = std::chrono::milliseconds(130000);
    auto res = proc::make_spawner()->run(r);
    EXPECT_TRUE(res.exit_code == 0 || res.exit_code == 1) << res.err;
    std::vector<std::string> out;
    const json report = json::parse(res.out, nullptr, false);
    EXPECT_TRUE(report.is_array()) << res.out.substr(0, 500) << res.err;
    if (!report.is_array()) return {"unreadable secretlint report"};
    for (const json& file : report) {
      for (const json& m : file.value("messages", json::array())) {
        out.push_back(file.value("filePath", "?") + ": " + m.value("ruleId", "?") + ": " +
                      m.value("message", "?"));
      }
    }
    return out;
  }
};

// The planted corpus, spread over events so each span stays under the 128-attribute limit.
std::vector<std::pair<std::string, json>> payloads() {
  const auto corpus = planted::corpus();
  std::vector<std::pair<std::string, json>> out;
  json keyed = json::object();
  json nested = json::array();
  json creds = json::array();
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    keyed[corpus[i].text] = static_cast<int64_t>(i);  // the secret (in its context) as a key
    nested.push_back(json::array({json{{"command", corpus[i].text}}, corpus[i].text}));
    creds.push_back({{"password", corpus[i].secret},
                     {"client_secret", corpus[i].secret},
                     {"api_key", corpus[i].secret},
                     {"aws_secret_access_key", corpus[i].secret}});
  }
  // Top-level values, 60 per event.
  for (std::size_t start = 0; start < corpus.size(); start += 60) {
    json g = {{"session_id", "s-scan"}, {"hook_event_name", "AfterTool"}, {"tool_name", "x"}};
    for (std::size_t i = start; i < std::min(corpus.size(), start + 60); ++i)
      g["field_" + std::to_string(i)] = corpus[i].text;
    out.emplace_back("gemini:AfterTool", g);
  }
  // Gemini tool arguments, nested arrays, keys, structured credentials.
  out.emplace_back("gemini:BeforeTool", json{{"session_id", "s-scan"},
                                             {"hook_event_name", "BeforeTool"},
                                             {"tool_name", "run_shell_command"},
                                             {"tool_input", {{"commands", nested}, {"env", keyed}}},
                                             {"credentials", creds}});
  out.emplace_back("gemini:AfterTool",
                   json{{"session_id", "s-scan"},
                        {"hook_event_name", "AfterTool"},
                        {"tool_name", "read_file"},
                        {"tool_input", {{"file_path", "/w/.env"}}},
                        {"tool_response", {{"llmContent", nested}, {"keys", keyed}}}});
  // Antigravity tool arguments (camelCase family).
  out.emplace_back("antigravity:PreToolUse",
                   json{{"conversationId", "c-scan"},
                        {"toolName", "run_command"},
                        {"toolInput", {{"CommandLine", nested}, {"Env", keyed}}},
                        {"credentials", creds}});
  out.emplace_back("antigravity:PostToolUse",
                   json{{"conversationId", "c-scan"},
                        {"toolName", "view_file"},
                        {"toolResponse", {{"output", nested}, {"keys", keyed}}}});
  return out;
}

TEST_F(SecretScanner, ScannerFindsThePlantedSecretsUnredacted) {
  TempDir raw;
  std::string text;
  for (const auto& p : planted::corpus()) text += p.text + "\n";
  ASSERT_TRUE(fs::atomic_write(raw.sub("raw.txt"), text).ok());
  // Not all formats are in secretlint's preset; the ones that are must fire.
  EXPECT_GE(scan(raw.path()).size(), 20u);
}

TEST_F(SecretScanner, NothingTheAdapterWritesHasAFinding) {
  const auto corpus = planted::corpus();
  ASSERT_GE(corpus.size(), 100u);
  const auto down = env(refused_url());
  std::string out, err;
  for (const auto& [which, payload] : payloads()) {
    const std::string agent = which.substr(0, which.find(':'));
    const auto r = run(agent, which.substr(which.find(':') + 1), payload, down);
    ASSERT_TRUE(r.started) << r.spawn_error;
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.err, "");
    out += r.out;
    err += r.err;
  }
  wait_flusher_idle();
  TempDir written;
  const std::string queue = fs::read_file(fs::join(data(), "failed-spans.jsonl")).value_or("");
  ASSERT_FALSE(queue.empty());
  FakeServer collector;
  proc::SpawnRequest flush;
  flush.argv = {pinta::testing::bin_dir() + "/pinta-gemini", "--pinta-flush"};
  flush.env = env(collector.url("/v1/traces"));
  const auto fr = proc::make_spawner()->run(flush);
  EXPECT_EQ(fr.exit_code, 0) << fr.out;
  std::string bodies;
  for (const auto& rq : collector.requests()) bodies += rq.body + "\n";
  ASSERT_FALSE(bodies.empty());
  const std::map<std::string, std::string> places = {
      {"collector-bodies.json", bodies},
      {"queue.jsonl", queue},
      {"invocations.jsonl", fs::read_file(fs::join(data(), "invocations.jsonl")).value_or("")},
      {"stdout.txt", out + fr.out},
      {"stderr.txt", err + fr.err}};
  ASSERT_FALSE(places.at("invocations.jsonl").empty());
  for (const auto& [name, text] : places) {
    ASSERT_TRUE(fs::atomic_write(written.sub(name), text).ok());
    for (const auto& p : corpus)
      EXPECT_EQ(text.find(p.secret), std::string::npos) << p.secret << " found in " << name;
  }
  const auto findings = scan(written.path());
  EXPECT_TRUE(findings.empty()) << findings.size() << " findings:\n"
                                << ::testing::PrintToString(findings);
}

}  // namespace
}  // namespace pinta::adapter
