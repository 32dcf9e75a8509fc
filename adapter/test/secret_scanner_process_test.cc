// Redaction checked by an independent scanner, process level: the built pinta-gemini gets
// planted secrets (adapter/test/planted_secrets.h: >= 250 secrets, >= 200 formats and structures,
// among them every example of the formats that leaked before) in every payload position — top-level values, nested
// arrays, object keys, prompts, tool inputs and tool outputs of all four host families (deel's
// spread arguments too), structured credential fields — with the collector down and the debug
// log on; then a flusher
// delivers to a fake collector. Everything the adapter wrote (spans as the collector received
// them, the queue, the debug log, stdout, stderr) is scanned by secretlint with its recommended
// preset (pinned, installed by ci/npm-secretlint.sh; SKIPPED with the reason when npm is
// unreachable): 0 findings. Our own check: no planted secret appears anywhere, byte for byte.
// The scanner itself is shown to fire on the unredacted corpus, so the check can fail.
// A second independent scanner, ESLint with eslint-plugin-no-secrets (ci/npm-nosecrets.sh, why that
// one is said there; adapter/test/eslint-no-secrets.config.mjs), reads the same channels: its own
// patterns and its entropy detector (any random-looking token, whatever its format) find nothing
// either, and it too is shown to fire on the unredacted corpus. Each scanner SKIPs on its own.
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
  std::string prefix_;         // secretlint install
  std::string eslint_prefix_;  // eslint + eslint-plugin-no-secrets install
  std::string skip_reason_, eslint_skip_reason_;
  std::string data() const { return home_.sub("data"); }

  // Runs an installer (ci/npm-*.sh): its prefix, or "" with the reason.
  static std::string install(const std::string& script, std::string& reason) {
    proc::SpawnRequest r;
    r.argv = {"bash", pinta::testing::source_dir() + "/ci/" + script};
    r.timeout = std::chrono::milliseconds(300000);
    r.hard_limit = std::chrono::milliseconds(320000);
    auto res = proc::make_spawner()->run(r);
    if (res.exit_code != 0 || res.out.empty()) {
      reason = script + " exit " + std::to_string(res.exit_code.value_or(-1)) + ": " + res.err;
      return "";
    }
    return res.out.substr(0, res.out.find('\n'));
  }

  void SetUp() override {
    prefix_ = install("npm-secretlint.sh", skip_reason_);
    eslint_prefix_ = install("npm-nosecrets.sh", eslint_skip_reason_);
  }
  bool need_secretlint() const { return !prefix_.empty(); }
  bool need_eslint() const { return !eslint_prefix_.empty(); }

  // eslint-plugin-no-secrets over every file in `dir`: each file becomes a JavaScript array of
  // string literals, linted with our config beside it. A line that is JSON gives one literal per
  // key and string value (the plugin's patterns run `word.*"32 hex"` over a whole literal, and
  // would otherwise pair a marker's type name such as facebook_token with a trace id quoted further
  // on the line); any other line is one literal, its exact bytes.
  std::vector<std::string> scan_entropy(const std::string& dir) const {
    TempDir js;
    std::string config = fs::read_file(pinta::testing::source_dir() +
                                       "/adapter/test/eslint-no-secrets.config.mjs").value_or("");
    EXPECT_FALSE(config.empty());
    EXPECT_TRUE(fs::atomic_write(js.sub("eslint.config.mjs"), config).ok());
    EXPECT_EQ(::symlink((eslint_prefix_ + "/node_modules").c_str(), js.sub("node_modules").c_str()), 0);
    for (const std::string name : {"collector-bodies.json", "queue.jsonl", "invocations.jsonl",
                                   "stdout.txt", "stderr.txt", "raw.txt"}) {
      const auto text = fs::read_file(fs::join(dir, name));
      if (!text) continue;
      std::string out = "export default [\n";
      std::size_t start = 0;
      while (start < text->size()) {
        std::size_t end = text->find('\n', start);
        if (end == std::string::npos) end = text->size();
        const std::string line = text->substr(start, end - start);
        const json doc = json::parse(line, nullptr, false);
        auto lit = [&](const std::string& str) {
          out += json(str).dump(-1, ' ', false, json::error_handler_t::replace) + ",\n";
        };
        if (doc.is_discarded() || !doc.is_structured()) {
          lit(line);
        } else {
          std::vector<const json*> todo = {&doc};
          while (!todo.empty()) {
            const json* j = todo.back();
            todo.pop_back();
            if (j->is_string()) lit(j->get<std::string>());
            if (j->is_object()) {
              for (auto it = j->begin(); it != j->end(); ++it) {
                lit(it.key());
                todo.push_back(&it.value());
              }
            } else if (j->is_array()) {
              for (const json& e : *j) todo.push_back(&e);
            }
          }
        }
        start = end + 1;
      }
      out += "];\n";
      EXPECT_TRUE(fs::atomic_write(js.sub(name + ".js"), out).ok());
    }
    proc::SpawnRequest r;
    r.argv = {eslint_prefix_ + "/node_modules/.bin/eslint", "--no-warn-ignored", "--format", "json", "."};
    r.cwd = js.path();
    r.timeout = std::chrono::milliseconds(120000);
    r.hard_limit = std::chrono::milliseconds(130000);
    auto res = proc::make_spawner()->run(r);
    EXPECT_TRUE(res.exit_code == 0 || res.exit_code == 1) << res.err;
    std::vector<std::string> found;
    const json report = json::parse(res.out, nullptr, false);
    EXPECT_TRUE(report.is_array()) << res.out.substr(0, 500) << res.err;
    if (!report.is_array()) return {"unreadable eslint report"};
    for (const json& file : report) {
      for (const json& m : file.value("messages", json::array())) {
        found.push_back(file.value("filePath", "?") + ":" + std::to_string(m.value("line", 0)) + ": " +
                        m.value("ruleId", "?") + ": " + m.value("message", "?"));
      }
    }
    return found;
  }

  // Runs the adapter on every planted payload (collector down, debug log on), then a flusher into
  // a fake collector; writes what it wrote into `written` (one file per channel) and checks that
  // no planted secret is there byte for byte.
  void write_outputs(const TempDir& written);

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
  // Prompts and tool calls of every family (each format in tool inputs, tool outputs
  // and prompts on every host). The prompt is every planted text, one per line.
  std::string prompt;
  for (const auto& p : corpus) prompt += p.text + "\n";
  out.emplace_back("gemini:BeforeAgent", json{{"session_id", "s-scan"},
                                              {"hook_event_name", "BeforeAgent"},
                                              {"prompt", prompt}});
  out.emplace_back("claude-code:UserPromptSubmit", json{{"session_id", "s-scan"},
                                                        {"hook_event_name", "UserPromptSubmit"},
                                                        {"prompt", prompt}});
  out.emplace_back("claude-code:PreToolUse", json{{"session_id", "s-scan"},
                                                  {"hook_event_name", "PreToolUse"},
                                                  {"tool_name", "Bash"},
                                                  {"tool_use_id", "toolu_01A09q90qw90lq917835lq9"},
                                                  {"tool_input", {{"command", prompt}, {"env", keyed}}}});
  out.emplace_back("claude-code:PostToolUse", json{{"session_id", "s-scan"},
                                                   {"hook_event_name", "PostToolUse"},
                                                   {"tool_name", "Read"},
                                                   {"tool_input", {{"file_path", "/w/.env"}}},
                                                   {"tool_response", {{"content", nested}, {"keys", keyed}}}});
  // deel spreads the tool's arguments beside 자리 and 도구 (DEEL l.427): arguments named like
  // another host's identifiers carry planted secrets too.
  for (std::size_t start = 0; start < corpus.size(); start += 60) {
    json d = {{"자리", "도구전"}, {"도구", "Bash"}};
    for (std::size_t i = start; i < std::min(corpus.size(), start + 60); ++i)
      d["arg_" + std::to_string(i)] = corpus[i].text;
    out.emplace_back("deel:PreToolUse", d);
  }
  json spread = {{"자리", "도구후"}, {"도구", "Write"}, {"content", nested}, {"keys", keyed}};
  for (std::size_t i = 0; i < std::min<std::size_t>(corpus.size(), 10); ++i) {
    const char* names[] = {"cwd", "session_id", "timestamp", "transcript_path", "tool_name", "hook",
                           "hook_event_name", "conversationId", "transcriptPath", "workspacePaths"};
    spread[names[i]] = corpus[corpus.size() - 1 - i].text;
  }
  out.emplace_back("deel:PostToolUse", spread);
  out.emplace_back("deel:UserPromptSubmit", json{{"자리", "말전"}, {"도구", nullptr}, {"prompt", prompt}});
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
  if (!need_secretlint()) GTEST_SKIP() << "secretlint not available (" << skip_reason_ << ")";
  TempDir raw;
  std::string text;
  for (const auto& p : planted::corpus()) text += p.text + "\n";
  ASSERT_TRUE(fs::atomic_write(raw.sub("raw.txt"), text).ok());
  // Not all formats are in secretlint's preset; the ones that are must fire.
  EXPECT_GE(scan(raw.path()).size(), 20u);
}

TEST_F(SecretScanner, SecondScannerFindsThePlantedSecretsUnredacted) {
  if (!need_eslint()) GTEST_SKIP() << "eslint-plugin-no-secrets not available (" << eslint_skip_reason_ << ")";
  TempDir raw;
  std::string text;
  for (const auto& p : planted::corpus()) text += p.text + "\n";
  ASSERT_TRUE(fs::atomic_write(raw.sub("raw.txt"), text).ok());
  // Its entropy detector fires on most random-looking values, whatever their format.
  EXPECT_GE(scan_entropy(raw.path()).size(), 100u);
}

void SecretScanner::write_outputs(const TempDir& written) {

  const auto corpus = planted::corpus();
  ASSERT_GE(corpus.size(), 250u);
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
}

TEST_F(SecretScanner, NothingTheAdapterWritesHasAFinding) {
  if (!need_secretlint()) GTEST_SKIP() << "secretlint not available (" << skip_reason_ << ")";
  TempDir written;
  ASSERT_NO_FATAL_FAILURE(write_outputs(written));
  const auto findings = scan(written.path());
  EXPECT_TRUE(findings.empty()) << findings.size() << " findings:\n"
                                << ::testing::PrintToString(findings);
}

TEST_F(SecretScanner, NothingTheAdapterWritesHasASecondScannerFinding) {
  if (!need_eslint()) GTEST_SKIP() << "eslint-plugin-no-secrets not available (" << eslint_skip_reason_ << ")";
  TempDir written;
  ASSERT_NO_FATAL_FAILURE(write_outputs(written));
  const auto findings = scan_entropy(written.path());
  EXPECT_TRUE(findings.empty()) << findings.size() << " findings:\n"
                                << ::testing::PrintToString(findings);
}

}  // namespace
}  // namespace pinta::adapter
