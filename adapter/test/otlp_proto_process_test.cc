// Every span the built pinta-gemini sends, checked against the official OTLP protobuf schema:
// the opentelemetry-proto v1.4.0 .proto files loaded by protobufjs (ci/npm-otlp-proto.sh), through
// adapter/test/otlp_proto_check.js (reflection over the schema, OTLP/JSON rules: unknown and
// misspelt fields rejected, hex ids, integer enums, 64-bit integers as decimal strings; then a
// protobuf encode/decode round trip).
//
// Spans come from real adapter runs: every fixture payload of every host family, version and
// event (fixtures/), every event of the protocol table and one unknown event per family, gate
// events with a guard that answers DENY; they are queued with the collector down, then delivered
// by `pinta-gemini --pinta-flush` to a fake collector on 127.0.0.1 (port 0); a few more go through
// the detached flusher the adapter starts. Each request body the collector received is checked.
// The same check is shown to reject corrupted bodies (non-hex traceId, wrong field names, enum
// names, 64-bit integers as numbers, ...), so it can fail.
//
// Without Node.js or the npm registry (nothing cached) the whole binary exits 77 after printing
// "SKIPPED: <reason>" (ctest SKIP_RETURN_CODE).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include "otlp_json_validator.h"
#include "pinta/hosts/family.h"
#include "pinta/adapter/handler.h"
#include "pinta/adapter/protocol.h"
#include "pinta/common/fs.h"
#include "pinta/common/process.h"
#include "pinta/common/test_support.h"
#include "pinta/fakes/fake_server.h"

namespace pinta::adapter {
namespace {

using nlohmann::json;
using pinta::fakes::FakeServer;
using pinta::testing::TempDir;
namespace check = pinta::testing::otlp_check;

std::string g_prefix;  // what ci/npm-otlp-proto.sh printed

struct Verdict {
  bool ok = false;
  std::size_t spans = 0;
  std::vector<std::string> errors;
};

// Runs the schema check over `bodies` (one file each); one verdict per body, in order.
std::vector<Verdict> proto_check(const std::vector<std::string>& bodies) {
  TempDir dir;
  proc::SpawnRequest r;
  r.argv = {"node", pinta::testing::source_dir() + "/adapter/test/otlp_proto_check.js", g_prefix};
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const std::string f = dir.sub("body-" + std::to_string(i) + ".json");
    EXPECT_TRUE(fs::atomic_write(f, bodies[i]).ok());
    r.argv.push_back(f);
  }
  r.timeout = std::chrono::milliseconds(120000);
  r.hard_limit = std::chrono::milliseconds(130000);
  const auto res = proc::make_spawner()->run(r);
  EXPECT_TRUE(res.exit_code == 0 || res.exit_code == 1) << res.err;
  std::vector<Verdict> out;
  std::size_t start = 0;
  while (start < res.out.size()) {
    const std::size_t nl = res.out.find('\n', start);
    const json j = json::parse(res.out.substr(start, nl - start), nullptr, false);
    start = nl == std::string::npos ? res.out.size() : nl + 1;
    if (!j.is_object()) continue;
    Verdict v;
    v.ok = j.value("ok", false);
    v.spans = j.value("spans", std::size_t{0});
    for (const json& e : j.value("errors", json::array())) v.errors.push_back(e.get<std::string>());
    out.push_back(std::move(v));
  }
  EXPECT_EQ(out.size(), bodies.size()) << res.out << res.err;
  EXPECT_EQ(res.err, "");
  return out;
}

struct HookRun {
  std::string agent, event, stdin_data, label;
  // Input the contract rejects (INPUT-3/INPUT-5: fixtures n_*, fixtures/README.md) gets the
  // fail-safe reply and no span, except at a gate event with a guard, where a payload read in
  // part still makes its span once its tool name was read (GUARD-14): see judged_in_part.
  bool makes_span = true;
};

// Whether the hot path (the same handler the binary runs, with a guard, as the test's adapter
// has one) makes a span for this input: how many spans the collector must receive.
bool judged_in_part(const std::string& agent, const std::string& event, const std::string& in) {
  struct DenyGuard : GuardClient {
    GuardVerdict check(const CanonicalEvent&, const std::string&, Deadline) override {
      GuardVerdict v;
      v.decision = GuardVerdict::Decision::kDeny;
      return v;
    }
  } guard;
  struct CountingSink : SpanSink {
    int spans = 0;
    void submit(const SpanInput&) override { ++spans; }
  } sink;
  Services services{&system_clock(), &guard, &sink};
  const char* argv[] = {"pinta-gemini", "--agent", agent.c_str(), "--event", event.c_str()};
  (void)handle(parse_args(5, argv), read_event_from_bytes(in, InputLimits{}), services);
  return sink.spans == 1;
}

class Adapter {
 public:
  Adapter() {
    EXPECT_EQ(::mkdir(data().c_str(), 0700), 0);
    guard_ = std::make_unique<FakeServer>(
        std::vector<fakes::Reply>{},
        fakes::Reply{200, R"({"decision":"DENY","reason":"schema test","matchedRule":"rule-7"})"});
  }
  std::string data() const { return home_.sub("data"); }

  std::map<std::string, std::string> env(const std::string& endpoint) const {
    return {{"HOME", home_.path()},
            {"PATH", "/usr/bin:/bin"},
            {"GEMINI_PLUGIN_DATA", data()},
            {"GEMINI_PLUGIN_OPTION_ENDPOINT", endpoint},
            {"PINTA_GUARD_ENDPOINT", guard_->url("/guard")},
            {"PINTA_QUEUE_MAX_SPANS", "100000"},
            {"PINTA_QUEUE_MAX_BYTES", "268435456"},
            {"PINTA_OTLP_BACKOFF_MAX_MS", "0"},
            {"PINTA_FLUSHER_IDLE_MS", "0"},
            {"PINTA_OTLP_TIMEOUT_MS", "5000"}};
  }

  proc::SpawnResult run(const HookRun& r, const std::string& endpoint) const {
    proc::SpawnRequest q;
    q.argv = {pinta::testing::bin_dir() + "/pinta-gemini", "--agent", r.agent, "--event", r.event};
    q.env = env(endpoint);
    q.stdin_data = r.stdin_data;
    q.timeout = std::chrono::milliseconds(10000) * testing::time_scale();
    q.hard_limit = std::chrono::milliseconds(20000) * testing::time_scale();
    return proc::make_spawner()->run(q);
  }

  // Runs every event with the collector down and no flusher (its lock is held here), then
  // delivers the queue with --pinta-flush: the bodies the collector received.
  std::vector<std::string> queue_then_flush(const std::vector<HookRun>& runs) const {
    const std::string lock = fs::join(data(), "flusher.lock");
    const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(::flock(fd, LOCK_EX), 0);
    const std::string down = "http://127.0.0.1:" + std::to_string(closed_port()) + "/v1/traces";
    for (const HookRun& r : runs) {
      const auto res = run(r, down);
      EXPECT_TRUE(res.started) << res.spawn_error;
      // 2: deel-local-cli's deny (the guard says DENY on its PreToolUse).
      EXPECT_TRUE(res.exit_code == 0 || (r.agent == "deel" && res.exit_code == 2)) << r.label;
      EXPECT_EQ(res.err, "") << r.label;
    }
    ::close(fd);
    FakeServer collector;
    proc::SpawnRequest flush;
    flush.argv = {pinta::testing::bin_dir() + "/pinta-gemini", "--pinta-flush"};
    flush.env = env(collector.url("/v1/traces"));
    flush.timeout = std::chrono::milliseconds(60000);
    const auto fr = proc::make_spawner()->run(flush);
    EXPECT_EQ(fr.exit_code, 0) << fr.out << fr.err;
    std::vector<std::string> bodies;
    for (const auto& rq : collector.requests()) bodies.push_back(rq.body);
    return bodies;
  }

  // Runs the events with the collector up: the adapter's own detached flusher delivers them.
  std::vector<std::string> live(const std::vector<HookRun>& runs) const {
    FakeServer collector;
    for (const HookRun& r : runs) {
      const auto res = run(r, collector.url("/v1/traces"));
      EXPECT_TRUE(res.started) << res.spawn_error;
      EXPECT_EQ(res.err, "") << r.label;
    }
    std::vector<std::string> bodies;
    std::size_t spans = 0;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (spans < runs.size() && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      bodies.clear();
      spans = 0;
      for (const auto& rq : collector.requests()) {
        bodies.push_back(rq.body);
        spans += check::check_request(rq.body).spans.size();
      }
    }
    EXPECT_EQ(spans, runs.size());
    return bodies;
  }

 private:
  static int closed_port() {
    FakeServer s;
    const int p = s.port();
    s.stop();
    return p;
  }
  TempDir home_;
  std::unique_ptr<FakeServer> guard_;
};

std::string read(const std::filesystem::path& p) { return fs::read_file(p.string()).value_or(""); }

// fixtures/<host>/<version>/<event>/*.json, each as the host would send it.
std::vector<HookRun> fixture_runs() {
  std::vector<HookRun> out;
  const std::filesystem::path root =
      std::filesystem::path(pinta::testing::source_dir()) / "fixtures";
  for (const char* host : {"gemini", "antigravity", "deel"}) {
    for (const auto& version : std::filesystem::directory_iterator(root / host)) {
      if (!version.is_directory()) continue;
      for (const auto& event : std::filesystem::directory_iterator(version.path())) {
        if (!event.is_directory()) continue;
        for (const auto& f : std::filesystem::directory_iterator(event.path())) {
          if (f.path().extension() != ".json") continue;
          const std::string name = f.path().filename().string();
          const std::string bytes = read(f.path());
          const std::string ev = event.path().filename().string();
          out.push_back({host, ev, bytes,
                         std::string(host) + "/" + version.path().filename().string() + "/" + ev +
                             "/" + name,
                         name.rfind("n_", 0) != 0 || judged_in_part(host, ev, bytes)});
        }
      }
    }
  }
  return out;
}

// Every event of the protocol table (Antigravity SessionStart has no fixture) and an unknown one.
std::vector<HookRun> table_runs() {
  std::vector<HookRun> out;
  const ReplyTable t = reply_table();
  for (std::size_t i = 0; i < t.size; ++i) {
    const ReplyRow& r = t.rows[i];
    // The family's own --agent label (Claude Code's prefix, claude_code, is not one).
    const std::string agent(pinta::hosts::descriptor(r.family).agent_labels[0]);
    std::string payload = "{}";
    if (r.family == Family::kGemini) {
      payload =
          json{{"session_id", "s-proto"}, {"hook_event_name", r.event}, {"tool_name", "read_file"}}
              .dump();
    } else if (r.family == Family::kAntigravity) {
      payload = json{{"conversationId", "c-proto"},
                     {"modelName", "gemini-3.5-flash-extra-low"},
                     {"toolCall", {{"name", "view_file"}, {"args", {{"AbsolutePath", "/w/a"}}}}}}
                    .dump();
    } else if (r.family == Family::kClaude) {
      payload = json{{"session_id", "s-proto"}, {"hook_event_name", r.event}, {"cwd", "/w"},
                     {"tool_name", "Read"}, {"tool_input", {{"file_path", "/w/a"}}}}
                    .dump();
    } else {
      // seed 004 자리표 (l.213-218): the Korean name of the event in 자리.
      const std::string_view place = r.event == "PreToolUse"    ? "도구전"
                                     : r.event == "PostToolUse" ? "도구후"
                                     : r.event == "Stop"        ? "턴끝"
                                                                : "말전";
      payload = json{{"자리", place}, {"도구", "Bash"}, {"command", "ls"}}.dump();
    }
    out.push_back({agent, std::string(r.event), payload, agent + ":" + std::string(r.event)});
  }
  for (const char* agent : {"gemini", "antigravity", "deel", "claude-code"}) {
    out.push_back({agent, "FutureEvent", R"({"x":1})", std::string(agent) + ":FutureEvent"});
  }
  return out;
}

std::string attr_string(const json& span, const std::string& key) {
  const json v = check::attribute(span, key);
  return v.is_object() ? v.value("stringValue", "") : "";
}

TEST(OtlpProto, EverySpanOfEveryHostAndEventMatchesTheSchema) {
  std::vector<HookRun> runs = fixture_runs();
  ASSERT_GT(runs.size(), 100u);
  const std::vector<HookRun> table = table_runs();
  runs.insert(runs.end(), table.begin(), table.end());
  Adapter a;
  std::vector<std::string> bodies = a.queue_then_flush(runs);
  ASSERT_FALSE(bodies.empty());
  // The detached flusher's path too: one event per family with the collector up.
  std::vector<HookRun> one_each;
  for (const char* agent : {"gemini", "antigravity", "deel", "claude-code"}) {
    for (const HookRun& r : table) {
      if (r.agent == agent) {
        one_each.push_back(r);
        break;
      }
    }
  }
  const std::vector<std::string> live = Adapter().live(one_each);
  bodies.insert(bodies.end(), live.begin(), live.end());

  const std::vector<Verdict> verdicts = proto_check(bodies);
  ASSERT_EQ(verdicts.size(), bodies.size());
  std::size_t spans = 0;
  std::set<std::string> names, execute_tool, conversation;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    EXPECT_TRUE(verdicts[i].ok) << "body " << i << ": "
                                << ::testing::PrintToString(verdicts[i].errors);
    spans += verdicts[i].spans;
    // The hand-written checker (duplicate keys, end before start, lowercase ids) agrees.
    const check::Findings f = check::check_request(bodies[i]);
    EXPECT_TRUE(f.ok()) << ::testing::PrintToString(f.errors);
    EXPECT_EQ(f.spans.size(), verdicts[i].spans);
    for (const json& s : f.spans) {
      names.insert(s.value("name", ""));
      const std::string ingest = attr_string(s, "ingest.type");
      if (attr_string(s, "gen_ai.operation.name") == "execute_tool") execute_tool.insert(ingest);
      if (!attr_string(s, "gen_ai.conversation.id").empty()) conversation.insert(ingest);
    }
  }
  // One span per run, nothing lost on the way.
  std::size_t expected = one_each.size();
  for (const HookRun& r : runs) expected += r.makes_span;
  EXPECT_EQ(spans, expected);
  // Every event of every host is among them, under its SPEC §9.2 name.
  for (const HookRun& r : table) {
    const Family f = family_for_agent(r.agent).value();
    std::string name = std::string(family_prefix(f)) + ".";
    for (char c : r.event) {
      if (std::isupper(static_cast<unsigned char>(c)) && name.back() != '.') name += '_';
      name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    EXPECT_TRUE(names.count(name)) << name;
  }
  // The GenAI attributes were part of what was checked.
  EXPECT_EQ(execute_tool, (std::set<std::string>{"gemini", "antigravity", "deel", "claude_code"}));
  EXPECT_EQ(conversation, (std::set<std::string>{"gemini", "antigravity", "claude_code"}));
}

// A valid body, corrupted one way at a time: the schema check must reject each (naming the
// problem), and accept the variants OTLP/JSON allows.
TEST(OtlpProto, CorruptedSpansAreRejected) {
  const std::vector<HookRun> table = table_runs();
  const std::vector<std::string> got = Adapter().queue_then_flush({table.front()});
  ASSERT_EQ(got.size(), 1u);
  const json good = json::parse(got[0]);
  ASSERT_EQ(good["resourceSpans"][0]["scopeSpans"][0]["spans"].size(), 1u);
  ASSERT_FALSE(good["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["attributes"].empty());

  struct Case {
    const char* what;
    std::function<void(json& span, json& body)> corrupt;
    const char* error;  // a substring of the expected error; nullptr: must be accepted
  };
  const std::vector<Case> cases = {
      {"unchanged", [](json&, json&) {}, nullptr},
      {"uppercase hex ids (OTLP: case-insensitive hex)",
       [](json& s, json&) {
         std::string t = s["traceId"];
         for (char& c : t) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
         s["traceId"] = t;
       },
       nullptr},
      {"non-hex traceId",
       [](json& s, json&) { s["traceId"] = "zz" + s["traceId"].get<std::string>().substr(2); },
       "traceId must be a hex string"},
      {"base64 traceId (the proto3 default, not OTLP)",
       [](json& s, json&) { s["traceId"] = "ASNFZ4mrze8BI0VniavN7w=="; },
       "traceId must be a hex string"},
      {"short spanId", [](json& s, json&) { s["spanId"] = "0123456789abcd"; },
       "spanId must be 8 bytes"},
      {"all-zero traceId", [](json& s, json&) { s["traceId"] = std::string(32, '0'); }, "all zero"},
      {"misspelt field",
       [](json& s, json&) {
         s["spanID"] = s["spanId"];
         s.erase("spanId");
       },
       "unknown field 'spanID'"},
      {"proto field name",
       [](json& s, json&) {
         s["start_time_unix_nano"] = s["startTimeUnixNano"];
         s.erase("startTimeUnixNano");
       },
       "is the proto field name"},
      {"enum as its name", [](json& s, json&) { s["kind"] = "SPAN_KIND_INTERNAL"; }, "as the name"},
      {"enum value out of range", [](json& s, json&) { s["kind"] = 9; }, "is not a value of enum"},
      {"status code as its name", [](json& s, json&) { s["status"]["code"] = "STATUS_CODE_OK"; },
       "as the name"},
      {"int64 as a JSON number",
       [](json& s, json&) {
         s["attributes"][0]["value"] = {{"intValue", 5}};
       },
       "as a JSON number"},
      {"fixed64 not decimal", [](json& s, json&) { s["endTimeUnixNano"] = "12a"; },
       "must be a decimal string"},
      {"fixed64 out of range",
       [](json& s, json&) { s["endTimeUnixNano"] = "18446744073709551616"; }, "out of range"},
      {"two AnyValue members",
       [](json& s, json&) { s["attributes"][0]["value"]["boolValue"] = true; },
       "oneof value has 2 members"},
      {"string value not a string",
       [](json& s, json&) {
         s["attributes"][0]["value"] = {{"stringValue", 5}};
       },
       "string expected"},
      {"uint32 negative", [](json& s, json&) { s["droppedAttributesCount"] = -1; }, "out of range"},
      {"attributes not an array", [](json& s, json&) { s["attributes"] = json::object(); },
       "must be an array"},
      {"unknown AnyValue member",
       [](json& s, json&) {
         s["attributes"][0]["value"] = {{"textValue", "x"}};
       },
       "unknown field 'textValue'"},
      {"unknown field in the scope",
       [](json&, json& b) { b["resourceSpans"][0]["scopeSpans"][0]["scope"]["nmae"] = "x"; },
       "unknown field 'nmae'"},
      {"resource attribute value misspelt",
       [](json&, json& b) {
         b["resourceSpans"][0]["resource"]["attributes"][0]["value"] = {{"string_value", "x"}};
       },
       "is the proto field name"},
      {"null field", [](json& s, json&) { s["name"] = nullptr; }, "null"},
  };
  std::vector<std::string> bodies;
  for (const Case& c : cases) {
    json b = good;
    c.corrupt(b["resourceSpans"][0]["scopeSpans"][0]["spans"][0], b);
    bodies.push_back(b.dump());
  }
  const std::vector<Verdict> v = proto_check(bodies);
  ASSERT_EQ(v.size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (cases[i].error == nullptr) {
      EXPECT_TRUE(v[i].ok) << cases[i].what << ": " << ::testing::PrintToString(v[i].errors);
      continue;
    }
    EXPECT_FALSE(v[i].ok) << cases[i].what << " was accepted";
    const std::string all = ::testing::PrintToString(v[i].errors);
    EXPECT_NE(all.find(cases[i].error), std::string::npos) << cases[i].what << ": " << all;
  }
}

}  // namespace
}  // namespace pinta::adapter

// The npm set-up decides between running and SKIPPED (exit 77, ctest SKIP_RETURN_CODE).
int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  pinta::proc::SpawnRequest r;
  r.argv = {"bash", pinta::testing::source_dir() + "/ci/npm-otlp-proto.sh"};
  r.timeout = std::chrono::milliseconds(300000);
  r.hard_limit = std::chrono::milliseconds(320000);
  const auto res = pinta::proc::make_spawner()->run(r);
  const int rc = res.exit_code.value_or(-1);
  std::string why = res.err.substr(0, res.err.find('\n'));
  if (rc == 3 || rc == 4) {
    std::cout << "SKIPPED: " << why << " (ci/npm-otlp-proto.sh exit " << rc << ")\n";
    return 77;
  }
  if (rc != 0 || res.out.empty()) {
    std::cout << "FAIL: ci/npm-otlp-proto.sh exit " << rc << ": " << res.err << "\n";
    return 1;
  }
  pinta::adapter::g_prefix = res.out.substr(0, res.out.find('\n'));
  return RUN_ALL_TESTS();
}
