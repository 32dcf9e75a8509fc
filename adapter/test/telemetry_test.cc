// Telemetry units (seed SPEC §9-§13): endpoint/header precedence, W3C header lists,
// span encoding checked by an independent OTLP-JSON validator, OTLP retry classification, the
// span queue (cap, torn and corrupt lines, concurrent appends) and the trace store rules.
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <iostream>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "otlp_json_validator.h"
#include "pinta/adapter/otlp.h"
#include "pinta/adapter/redact.h"
#include "pinta/adapter/span_queue.h"
#include "pinta/adapter/telemetry.h"
#include "pinta/adapter/trace_store.h"
#include "pinta/common/fs.h"
#include "pinta/common/test_support.h"

namespace pinta::adapter {
namespace {

using nlohmann::json;
using pinta::testing::TempDir;
namespace check = pinta::testing::otlp_check;

otlp::Getenv env_of(std::map<std::string, std::string> m) {
  auto shared = std::make_shared<std::map<std::string, std::string>>(std::move(m));
  return [shared](const char* n) -> const char* {
    auto it = shared->find(n);
    return it == shared->end() ? nullptr : it->second.c_str();
  };
}

// ---- endpoint and headers (SPEC §9.1) ----

TEST(ExportConfig, NoEndpointMeansOff) {
  auto c = otlp::export_config(env_of({{"OTEL_EXPORTER_OTLP_HEADERS", "a=b"}}));
  EXPECT_FALSE(c.enabled);
  EXPECT_TRUE(c.endpoint.empty());
}

TEST(ExportConfig, PluginOptionWinsOverOtelVariables) {
  auto c = otlp::export_config(env_of({{"GEMINI_PLUGIN_OPTION_ENDPOINT", "http://a/x"},
                                       {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://b/y"},
                                       {"OTEL_EXPORTER_OTLP_ENDPOINT", "http://c"}}));
  EXPECT_TRUE(c.enabled);
  EXPECT_EQ(c.endpoint, "http://a/x");
  EXPECT_EQ(c.endpoint_from, "GEMINI_PLUGIN_OPTION_ENDPOINT");
}

TEST(ExportConfig, TracesEndpointIsUsedAsGiven) {
  auto c = otlp::export_config(
      env_of({{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "https://b/custom"}, {"OTEL_EXPORTER_OTLP_ENDPOINT", "http://c"}}));
  EXPECT_EQ(c.endpoint, "https://b/custom");
}

TEST(ExportConfig, BaseEndpointGetsV1Traces) {
  EXPECT_EQ(otlp::export_config(env_of({{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"}})).endpoint,
            "http://c:4318/v1/traces");
  EXPECT_EQ(otlp::export_config(env_of({{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318/base/"}})).endpoint,
            "http://c:4318/base/v1/traces");
}

TEST(ExportConfig, EmptyValuesFallThroughButABadSchemeTurnsTelemetryOff) {
  auto c = otlp::export_config(env_of({{"GEMINI_PLUGIN_OPTION_ENDPOINT", "  "}, {"OTEL_EXPORTER_OTLP_ENDPOINT", "http://c"}}));
  EXPECT_EQ(c.endpoint, "http://c/v1/traces");
  auto bad = otlp::export_config(env_of({{"GEMINI_PLUGIN_OPTION_ENDPOINT", "ftp://a"}, {"OTEL_EXPORTER_OTLP_ENDPOINT", "http://c"}}));
  EXPECT_FALSE(bad.enabled);
}

TEST(ExportConfig, HeaderPrecedenceAndApiKey) {
  auto c = otlp::export_config(env_of({{"GEMINI_PLUGIN_OPTION_ENDPOINT", "http://a"},
                                       {"GEMINI_PLUGIN_OPTION_HEADERS", "x-a=1"},
                                       {"OTEL_EXPORTER_OTLP_HEADERS", "x-b=2"}}));
  ASSERT_EQ(c.headers.size(), 1u);
  EXPECT_EQ(c.headers[0], (std::pair<std::string, std::string>{"x-a", "1"}));

  auto d = otlp::export_config(env_of({{"GEMINI_PLUGIN_OPTION_ENDPOINT", "http://a"},
                                       {"OTEL_EXPORTER_OTLP_HEADERS", "x-b=2,X-Pinta-Relay-Token=old"},
                                       {"GEMINI_PLUGIN_OPTION_API_KEY", "k3y"}}));
  ASSERT_EQ(d.headers.size(), 2u);
  EXPECT_EQ(d.headers[0].first, "x-b");
  EXPECT_EQ(d.headers[1], (std::pair<std::string, std::string>{"x-pinta-relay-token", "k3y"}));
}

TEST(HeaderList, W3cFormPercentDecodedAndTrimmed) {
  size_t bad = 0;
  auto h = otlp::parse_header_list(" api-key = a%20b%3Dc , x%2Dy=1,,novalue, =nokey,k=v=w,Authorization=Bearer%20t", &bad);
  ASSERT_EQ(h.size(), 4u);
  EXPECT_EQ(h[0], (std::pair<std::string, std::string>{"api-key", "a b=c"}));
  EXPECT_EQ(h[1], (std::pair<std::string, std::string>{"x-y", "1"}));
  EXPECT_EQ(h[2], (std::pair<std::string, std::string>{"k", "v=w"}));
  EXPECT_EQ(h[3], (std::pair<std::string, std::string>{"Authorization", "Bearer t"}));
  EXPECT_EQ(bad, 2u);  // "novalue" and "=nokey"
}

TEST(HeaderList, CrLfInjectionIsRejected) {
  size_t bad = 0;
  auto h = otlp::parse_header_list("a=1%0D%0AEvil: x,b=2", &bad);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].first, "b");
  EXPECT_EQ(bad, 1u);
}

TEST(HeaderList, MalformedPercentIsKeptLiterally) {
  EXPECT_EQ(otlp::percent_decode("100%"), "100%");
  EXPECT_EQ(otlp::percent_decode("%zz%4"), "%zz%4");
  EXPECT_EQ(otlp::percent_decode("%41%62"), "Ab");
}

TEST(SpanName, SnakeCase) {
  EXPECT_EQ(otlp::snake_case("BeforeTool"), "before_tool");
  EXPECT_EQ(otlp::snake_case("PreToolUse"), "pre_tool_use");
  EXPECT_EQ(otlp::snake_case("SessionStart"), "session_start");
  EXPECT_EQ(otlp::snake_case("BeforeToolSelection"), "before_tool_selection");
  EXPECT_EQ(otlp::snake_case("PreCompress"), "pre_compress");
  EXPECT_EQ(otlp::snake_case("HTTPRequest"), "http_request");
  EXPECT_EQ(otlp::snake_case(""), "unknown");
  EXPECT_EQ(otlp::snake_case("a b-c"), "a_b_c");
}

// ---- encoding, validated by the independent checker ----

struct Built {
  CanonicalEvent ev;
  GuardVerdict guard;
};

std::string encode_one(const CanonicalEvent& ev, const GuardVerdict* guard, json* span_out = nullptr,
                       json* resource_out = nullptr) {
  SpanInput in;
  in.event = &ev;
  in.guard = guard;
  in.start_unix_nanos = 1764670211342000123;
  in.end_unix_nanos = 1764670211343000123;
  otlp::SpanIds ids{new_trace_id(1764670211342), new_span_id()};
  // What a span holds, not how fast: no work deadline (the adapter's 200 ms one ran out on a
  // loaded machine and left attributes out, failing content checks; the deadline has its own
  // tests with a budget they set).
  otlp::SpanLimits limits;
  limits.time_budget = std::chrono::hours(1);
  const std::string span_text = otlp::encode_span(in, ids, limits);
  const std::string res_text = otlp::resource_attributes(otlp::local_resource(ev.family));
  json span = json::parse(span_text);
  json res = json::parse(res_text);
  if (span_out) *span_out = span;
  if (resource_out) *resource_out = res;
  return otlp::encode_request({SpanRecord{res_text, span_text}});
}

TEST(Encode, GeminiBeforeToolIsValidOtlpJson) {
  json payload = {{"session_id", "s-1"},
                  {"transcript_path", "/t/x.json"},
                  {"cwd", "/w"},
                  {"hook_event_name", "BeforeTool"},
                  {"timestamp", "2026-12-02T10:10:11.342Z"},
                  {"tool_name", "run_shell_command"},
                  {"tool_input", {{"command", "ls"}}},
                  {"count", 3},
                  {"big", 18446744073709551615ull},
                  {"ratio", 0.5},
                  {"flag", true},
                  {"nothing", nullptr}};
  CanonicalEvent ev = normalize(Family::kGemini, "gemini", "BeforeTool", payload);
  GuardVerdict g;
  g.decision = GuardVerdict::Decision::kDeny;
  g.matched_rule = "no-rm";
  json span, res;
  std::string body = encode_one(ev, &g, &span, &res);
  check::Findings f = check::check_request(body);
  ASSERT_TRUE(f.ok()) << ::testing::PrintToString(f.errors) << "\n" << body;
  ASSERT_EQ(f.spans.size(), 1u);
  const json& s = f.spans[0];
  EXPECT_EQ(s["name"], "gemini.before_tool");
  EXPECT_EQ(check::attribute(s, "ingest.type"), json({{"stringValue", "gemini"}}));
  EXPECT_EQ(check::attribute(s, "gemini.hook"), json({{"stringValue", "BeforeTool"}}));
  EXPECT_EQ(check::attribute(s, "gemini.agent"), json({{"stringValue", "gemini"}}));
  EXPECT_EQ(check::attribute(s, "gemini.session_id"), json({{"stringValue", "s-1"}}));
  EXPECT_EQ(check::attribute(s, "gemini.count"), json({{"intValue", "3"}}));
  EXPECT_EQ(check::attribute(s, "gemini.big"), json({{"doubleValue", 18446744073709551615.0}}));
  EXPECT_EQ(check::attribute(s, "gemini.ratio"), json({{"doubleValue", 0.5}}));
  EXPECT_EQ(check::attribute(s, "gemini.flag"), json({{"boolValue", true}}));
  EXPECT_EQ(check::attribute(s, "gemini.nothing"), json({{"stringValue", "null"}}));
  EXPECT_EQ(check::attribute(s, "gemini.tool_input"), json({{"stringValue", R"({"command":"ls"})"}}));
  EXPECT_EQ(check::attribute(s, "pinta.guard.decision"), json({{"stringValue", "DENY"}}));
  EXPECT_EQ(check::attribute(s, "pinta.guard.matched_rule"), json({{"stringValue", "no-rm"}}));
  EXPECT_EQ(s["startTimeUnixNano"], "1764670211342000123");
  EXPECT_TRUE(check::attribute(s, "antigravity.product").is_null());
  // Resource
  json decoded = json::parse(body);
  const json& r = decoded["resourceSpans"][0]["resource"];
  EXPECT_EQ(check::attribute(r, "service.name"), json({{"stringValue", "gemini-cli"}}));
  EXPECT_EQ(check::attribute(r, "process.pid"), json({{"intValue", std::to_string(::getpid())}}));
  EXPECT_FALSE(check::attribute(r, "host.name").is_null());
}

TEST(Encode, AntigravityPreToolUse) {
  json payload = {{"conversationId", "c1"},
                  {"transcriptPath", "/h/.gemini/antigravity-cli/brain/c1/.system_generated/logs/transcript_full.jsonl"},
                  {"workspacePaths", {"/w"}},
                  {"stepIdx", 3},
                  {"toolCall", {{"name", "run_command"}, {"args", {{"CommandLine", "echo hi"}}}}}};
  CanonicalEvent ev = normalize(Family::kAntigravity, "antigravity", "PreToolUse", payload);
  std::string body = encode_one(ev, nullptr);
  check::Findings f = check::check_request(body);
  ASSERT_TRUE(f.ok()) << ::testing::PrintToString(f.errors);
  const json& s = f.spans[0];
  EXPECT_EQ(s["name"], "antigravity.pre_tool_use");
  EXPECT_EQ(check::attribute(s, "ingest.type"), json({{"stringValue", "antigravity"}}));
  EXPECT_EQ(check::attribute(s, "antigravity.product"), json({{"stringValue", "agy"}}));
  EXPECT_EQ(check::attribute(s, "antigravity.stepIdx"), json({{"intValue", "3"}}));
  EXPECT_EQ(check::attribute(s, "antigravity.workspacePaths"), json({{"stringValue", R"(["/w"])"}}));
  EXPECT_TRUE(check::attribute(s, "pinta.guard.decision").is_null());
  json decoded = json::parse(body);
  EXPECT_EQ(check::attribute(decoded["resourceSpans"][0]["resource"], "service.name"),
            json({{"stringValue", "antigravity"}}));
}

TEST(Encode, SecretsAreRedactedIdentifiersAreNot) {
  const std::string secret = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
  json payload = {{"session_id", "sess-keep"},
                  {"cwd", "/w/keep"},
                  {"prompt", "use " + secret},
                  {"tool_input", {{"command", "export DB_PASSWORD=hunter2xyz; run"}}}};
  CanonicalEvent ev = normalize(Family::kGemini, "gemini", "BeforeAgent", payload);
  std::string body = encode_one(ev, nullptr);
  EXPECT_EQ(body.find(secret), std::string::npos);
  EXPECT_EQ(body.find("hunter2xyz"), std::string::npos);
  EXPECT_NE(body.find("[REDACTED:github_token]"), std::string::npos);
  EXPECT_NE(body.find("sess-keep"), std::string::npos);
  EXPECT_NE(body.find("/w/keep"), std::string::npos);
}

// Issue 48: identifier attributes come only from the fields the family's schema defines as
// identifiers, and even they pass the redactor. deel spreads the tool's arguments at the top
// level: arguments named like another host's identifiers are arguments there (before, all ten
// were copied into attributes as they were); a token used as a tool name is redacted in
// gen_ai.tool.name and in the Bronze tool_name alike.
std::string attr(const json& span, const std::string& key) {
  for (const json& kv : span["attributes"])
    if (kv["key"] == key) return kv["value"].value("stringValue", kv["value"].dump());
  return "<absent>";
}

TEST(Encode, DeelArgumentsNamedLikeIdentifiersAreRedacted) {
  const std::string tok = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
  const std::string random = "Zq7vK2mW9xLp4RtN8cYbQ3sD";
  json payload = {{"자리", "도구전"}, {"도구", "Bash"}};
  for (const char* k : {"cwd", "transcript_path", "timestamp", "hook", "hook_event_name", "conversationId",
                        "transcriptPath", "artifactDirectoryPath", "workspacePaths", "tool_name"}) {
    payload[k] = "x " + tok;
  }
  payload["session_id"] = "hunter2pw";
  payload["command"] = "echo " + random;
  const CanonicalEvent ev = normalize(Family::kDeel, "deel", "PreToolUse", payload);
  json span;
  const std::string body = encode_one(ev, nullptr, &span);
  EXPECT_EQ(body.find(tok), std::string::npos) << body;
  EXPECT_EQ(body.find(random), std::string::npos) << body;
  EXPECT_EQ(body.find("hunter2pw"), std::string::npos) << body;
  EXPECT_EQ(attr(span, "deel.session_id"), "[REDACTED:secret_field]");
  EXPECT_EQ(attr(span, "deel.cwd"), "x [REDACTED:github_token]");
  EXPECT_EQ(attr(span, "deel.도구"), "Bash");
}

TEST(Encode, ToolNamesAndIdentifiersPassTheRedactor) {
  const std::string tok = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
  for (Family f : {Family::kGemini, Family::kClaude}) {
    json payload = {{"session_id", "a92be0d9-af14-4e03-bcae-c3b13571e09f"},
                    {"cwd", "/home/user/project"},
                    {"transcript_path", "/home/user/.claude/projects/p/a92be0d9-af14-4e03-bcae-c3b13571e09f.jsonl"},
                    {"hook_event_name", f == Family::kGemini ? "BeforeTool" : "PreToolUse"},
                    {"tool_name", tok},
                    {"tool_input", {{"command", "ls"}}}};
    if (f == Family::kClaude) payload["tool_use_id"] = "toolu_01A09q90qw90lq917835lq9";
    const std::string prefix(family_prefix(f));
    const CanonicalEvent ev =
        normalize(f, prefix, f == Family::kGemini ? "BeforeTool" : "PreToolUse", payload);
    json span;
    const std::string body = encode_one(ev, nullptr, &span);
    EXPECT_EQ(body.find(tok), std::string::npos) << body;
    EXPECT_EQ(attr(span, "gen_ai.tool.name"), "[REDACTED:github_token]");
    EXPECT_EQ(attr(span, prefix + ".tool_name"), "[REDACTED:github_token]");
    // The family's identifiers keep their values (a UUID, paths, a tool call id): not masked for
    // their name, and nothing in them for the redactor.
    EXPECT_EQ(attr(span, prefix + ".session_id"), "a92be0d9-af14-4e03-bcae-c3b13571e09f");
    EXPECT_EQ(attr(span, "gen_ai.conversation.id"), "a92be0d9-af14-4e03-bcae-c3b13571e09f");
    EXPECT_EQ(attr(span, prefix + ".cwd"), "/home/user/project");
    if (f == Family::kClaude) {
      EXPECT_EQ(attr(span, "gen_ai.tool.call.id"), "toolu_01A09q90qw90lq917835lq9");
    }
  }
  // An identifier of the family's schema with a secret in it is redacted too.
  json payload = {{"session_id", "s " + tok}, {"hook_event_name", "BeforeAgent"}, {"prompt", "hi"}};
  const CanonicalEvent ev = normalize(Family::kGemini, "gemini", "BeforeAgent", payload);
  json span;
  const std::string body = encode_one(ev, nullptr, &span);
  EXPECT_EQ(body.find(tok), std::string::npos) << body;
  EXPECT_EQ(attr(span, "gemini.session_id"), "s [REDACTED:github_token]");
}

// Nothing copied from the payload or the command line unredacted: with a token the provider
// rules do not know (a made-up vendor prefix, caught by shape alone) in every top-level field,
// in the tool name and in the event name, no attribute value and not the span name holds it, and
// every string attribute is already a fixed point of the redactor.
TEST(Encode, EveryStringOfTheSpanHasPassedTheRedactor) {
  const std::string tok = "qrk_" + std::string("Zq7vK2mW9xLp4RtN8cYbQ3sDh6Jf");
  for (Family f : {Family::kGemini, Family::kClaude, Family::kDeel}) {
    json payload = {{"session_id", "s " + tok},     {"cwd", "/w/" + tok},         {"transcript_path", "/t/" + tok},
                    {"hook_event_name", "x " + tok}, {"tool_name", tok},           {"tool_use_id", tok},
                    {"tool_input", {{"command", tok}}}, {"자리", "도구전"},          {"도구", tok},
                    {tok, "a key"}};
    const std::string prefix(family_prefix(f));
    const CanonicalEvent ev = normalize(f, prefix + tok, "PreToolUse" + tok, payload);
    json span;
    const std::string body = encode_one(ev, nullptr, &span);
    EXPECT_EQ(body.find(tok), std::string::npos) << body;
    EXPECT_EQ(body.find(tok.substr(4)), std::string::npos) << body;
    for (const json& kv : span["attributes"]) {
      if (!kv["value"].contains("stringValue")) continue;
      const std::string v = kv["value"]["stringValue"];
      EXPECT_EQ(redact_string(v), v) << kv.dump();
    }
    // The span name is the event name in snake case (lowercase, `_` at the humps): compared
    // lowercase without the underscores.
    auto folded = [](std::string_view s) {
      std::string out;
      for (char c : s)
        if (c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return out;
    };
    const std::string name = span["name"];
    EXPECT_EQ(folded(name).find(folded(tok.substr(4))), std::string::npos) << name;
  }
}

TEST(Encode, HugeStringsAreTruncatedAndStillValid) {
  json payload = {{"prompt", std::string(300000, 'x')}};
  CanonicalEvent ev = normalize(Family::kGemini, "gemini", "BeforeAgent", payload);
  json span;
  std::string body = encode_one(ev, nullptr, &span);
  ASSERT_TRUE(check::check_request(body).ok());
  std::string v = check::attribute(span, "gemini.prompt")["stringValue"];
  EXPECT_LE(v.size(), kMaxStringBytes);
  EXPECT_NE(v.find("[TRUNCATED:"), std::string::npos);
}

TEST(Encode, PayloadKeysCannotShadowAdapterAttributes) {
  json payload = {{"hook", "Fake"}, {"agent", "evil"}};
  CanonicalEvent ev = normalize(Family::kGemini, "gemini", "SessionEnd", payload);
  json span;
  std::string body = encode_one(ev, nullptr, &span);
  ASSERT_TRUE(check::check_request(body).ok());  // no duplicate keys
  EXPECT_EQ(check::attribute(span, "gemini.hook"), json({{"stringValue", "SessionEnd"}}));
  EXPECT_EQ(check::attribute(span, "gemini.agent"), json({{"stringValue", "gemini"}}));
}

// The span, resource and queue line are written as text, not through a JSON tree: the text must
// be exactly what nlohmann's compact dump of the same value gives (sorted keys, its escapes), so
// a reader that re-serialises it sees no change.
TEST(Encode, TextIsCanonicalCompactJson) {
  json payload = {{"session_id", "s\"1"},
                  {"cwd", "/w\\x"},
                  {"tool_name", "run_shell_command"},
                  {"tool_input", {{"command", "echo \x01\t\n\"q\" \u00e9\u4e2d ghp_0123456789abcdefghijABCDEFGHIJ012345"},
                                  {"n", -3}, {"f", 0.1}, {"big", 18446744073709551615ull}, {"z", nullptr},
                                  {"a", json::array({true, false, json::object(), "x\x7f"})}}},
                  {"stop_hook_active", false},
                  {"count", 12345678901234ll},
                  {"huge", 18446744073709551615ull},
                  {"ratio", 2.5e-300},
                  {"\u00e9t\u00e9", "\x1f"}};
  CanonicalEvent ev = normalize(Family::kGemini, "gemini", "BeforeTool", payload);
  GuardVerdict g;
  g.decision = GuardVerdict::Decision::kDeny;
  g.matched_rule = "rule \"7\"";
  SpanInput in;
  in.event = &ev;
  in.guard = &g;
  in.start_unix_nanos = 1764670211342000123;
  in.end_unix_nanos = 1764670211343000123;
  const otlp::SpanIds ids{new_trace_id(1764670211342), new_span_id()};
  const std::string span = otlp::encode_span(in, ids);
  EXPECT_EQ(json::parse(span).dump(), span);
  const std::string res = otlp::resource_attributes(otlp::local_resource(ev.family));
  EXPECT_EQ(json::parse(res).dump(), res);
  const std::string line = otlp::queue_line(ids.span_id, res, span);
  const json rec = json::parse(line);
  EXPECT_EQ(rec["span"], json::parse(span));
  EXPECT_EQ(rec["resource"], json::parse(res));
  EXPECT_EQ(line.rfind("{\"spanId\":\"" + ids.span_id + "\",", 0), 0u) << line;
  EXPECT_EQ(span.find("ghp_0123456789"), std::string::npos);
}

// SPEC §9.3 Bronze: a field whose value is an object or array is one string attribute holding its
// JSON text, every string inside redacted first and the text as a whole redacted again; numbers,
// booleans and strings keep their type.
RC_GTEST_PROP(EncodeProperty, FieldValuesFollowTheBronzeRule, ()) {
  const auto leaf = rc::gen::oneOf(
      rc::gen::map(rc::gen::arbitrary<std::string>(), [](std::string x) { return json(x); }),
      rc::gen::map(rc::gen::element(std::string("AKIAIOSFODNN7EXAMPLE"), std::string("token=ghp_0123456789abcdefghijABCDEFGHIJ012345"),
                                    std::string("postgres://u:pw@h/db"), std::string("\"\\\n\x02"),
                                    // after an escape the whole-text pass sees `nAKIA…` (no word
                                    // boundary): only the per-string pass can catch this one
                                    std::string("\nAKIAIOSFODNN7EXAMPLE")),
                   [](std::string x) { return json(x); }),
      rc::gen::map(rc::gen::arbitrary<int64_t>(), [](int64_t x) { return json(x); }),
      rc::gen::map(rc::gen::arbitrary<bool>(), [](bool x) { return json(x); }),
      rc::gen::just(json(nullptr)));
  auto value = [&]() -> json {
    switch (*rc::gen::inRange(0, 3)) {
      case 0: return *leaf;
      case 1: {
        json arr = json::array();
        for (int n = *rc::gen::inRange(0, 4); n > 0; --n) arr.push_back(*leaf);
        return arr;
      }
      default: {
        json obj = json::object();
        for (int n = *rc::gen::inRange(0, 4); n > 0; --n) obj[*rc::gen::arbitrary<std::string>()] = *leaf;
        return obj;
      }
    }
  };
  json payload = json::object();
  std::vector<json> fields;
  for (int n = *rc::gen::inRange(1, 5); n > 0; --n) fields.push_back(value());
  for (size_t i = 0; i < fields.size(); ++i) {
    // valid UTF-8 only: the adapter's input parser rejects anything else
    if (fields[i].is_string() && !valid_utf8(fields[i].get_ref<const std::string&>())) continue;
    payload["f" + std::to_string(i)] = fields[i];
  }
  const std::string text = json(payload).dump(-1, ' ', false, json::error_handler_t::replace);
  RC_PRE(json::accept(text));
  payload = json::parse(text);  // what the adapter would have read
  CanonicalEvent ev = normalize(Family::kGemini, "gemini", "AfterTool", payload);
  SpanInput in;
  in.event = &ev;
  in.start_unix_nanos = in.end_unix_nanos = 7;
  const std::string span_text = otlp::encode_span(in, {new_trace_id(1), new_span_id()});
  const json span = json::parse(span_text);
  RC_ASSERT(span.dump() == span_text);
  std::map<std::string, json> attrs;
  for (const json& kv : span["attributes"]) attrs[kv["key"].get<std::string>()] = kv["value"];
  for (auto it = payload.begin(); it != payload.end(); ++it) {
    const json& got = attrs.at("gemini." + it.key());
    const json& v = it.value();
    json want;
    if (v.is_string()) want = {{"stringValue", redact_string(v.get<std::string>())}};
    else if (v.is_boolean()) want = {{"boolValue", v.get<bool>()}};
    else if (v.is_number_integer()) want = {{"intValue", v.dump()}};
    else want = {{"stringValue", redact_string(redact_json(v, RedactOptions{{}, kMaxStringBytes}).dump())}};
    RC_ASSERT(got == want);
  }
}

TEST(Encode, BatchGroupsByResource) {
  CanonicalEvent a = normalize(Family::kGemini, "gemini", "AfterTool", json::object());
  CanonicalEvent b = normalize(Family::kAntigravity, "antigravity", "Stop", json::object());
  std::vector<SpanRecord> recs;
  for (const CanonicalEvent* e : {&a, &b, &a}) {
    SpanInput in;
    in.event = e;
    in.start_unix_nanos = in.end_unix_nanos = 5;
    const otlp::SpanIds ids{new_trace_id(1), new_span_id()};
    recs.push_back({otlp::resource_attributes(otlp::local_resource(e->family)), otlp::encode_span(in, ids)});
  }
  std::string body = otlp::encode_request(recs);
  check::Findings f = check::check_request(body);
  ASSERT_TRUE(f.ok()) << ::testing::PrintToString(f.errors);
  EXPECT_EQ(f.spans.size(), 3u);
  EXPECT_EQ(json::parse(body)["resourceSpans"].size(), 2u);
}

// ---- OpenTelemetry GenAI semantic conventions beside Bronze (docs/contract.md OTLP-3a) ----

json span_of(const CanonicalEvent& ev, const GuardVerdict* guard = nullptr) {
  json span;
  const std::string body = encode_one(ev, guard, &span);
  const check::Findings f = check::check_request(body);
  EXPECT_TRUE(f.ok()) << ::testing::PrintToString(f.errors);
  return span;
}

std::set<std::string> keys_of(const json& span, bool gen_ai) {
  std::set<std::string> out;
  for (const json& kv : span["attributes"]) {
    const std::string k = kv["key"];
    if ((k.rfind("gen_ai.", 0) == 0) == gen_ai) out.insert(k);
  }
  return out;
}

json str(std::string_view s) { return json{{"stringValue", s}}; }

// A payload of the host's shape for `event` (GEM§7, AGY§8, seed 004 l.427).
json host_payload(Family f, std::string_view event, bool tool) {
  switch (f) {
    case Family::kGemini: {
      json p = {
          {"session_id", "7efbd79a-808b-4728-975b-e11738639569"},
          {"transcript_path", "/h/.gemini/tmp/ws/chats/session-2026-12-02T19-30-7efbd79a.jsonl"},
          {"cwd", "/w"},
          {"hook_event_name", event},
          {"timestamp", "2026-12-02T19:30:00.404Z"}};
      if (tool) {
        p["tool_name"] = "run_shell_command";
        p["tool_input"] = {
            {"command", "export GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a"}};
      }
      return p;
    }
    case Family::kAntigravity: {
      json p = {{"conversationId", "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d"},
                {"modelName", "gemini-3.5-flash-extra-low"},
                {"transcriptPath",
                 "/h/.gemini/antigravity-cli/brain/a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d/"
                 ".system_generated/logs/transcript_full.jsonl"},
                {"workspacePaths", {"/w"}}};
      if (tool) {
        p["stepIdx"] = 3;
        p["toolCall"] = {
            {"name", "run_command"},
            {"args",
             {{"CommandLine", "export GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a"}}}};
      }
      return p;
    }
    case Family::kClaude: {
      // Claude Code 2.1.332 hook stdin (shared/reference/real-hosts.md).
      json p = {{"session_id", "0b6c3f0e-2f44-4d7e-9a51-3c2f5e8d9a10"},
                {"transcript_path", "/h/.claude/projects/-w/0b6c3f0e-2f44-4d7e-9a51-3c2f5e8d9a10.jsonl"},
                {"cwd", "/w"},
                {"hook_event_name", event}};
      if (tool) {
        p["tool_name"] = "Bash";
        p["tool_input"] = {{"command", "export GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a"}};
        p["tool_use_id"] = "toolu_01ABCDEF";
      }
      return p;
    }
    case Family::kDeel:
      break;
    default: {
      // A family without a payload of its own here: one built from its descriptor's PayloadShape
      // (the common fields and the tool call where the shape says they are).
      const auto& sh = pinta::hosts::descriptor(f).payload;
      json p = json::object();
      auto put = [&p](std::string_view key, json v) {
        if (!key.empty()) p[std::string(key)] = std::move(v);
      };
      put(sh.event_key, event);
      put(sh.session_id, "019a7c1e-5b2d-7f30-9c41-8e2d6a4b1f07");
      put(sh.cwd, sh.cwd_first_of_array ? json::array({"/w"}) : json("/w"));
      put(sh.transcript_path, "/h/sessions/019a7c1e.jsonl");
      put(sh.model_name, "model-x");
      if (tool) {
        json& call = sh.tool_object.empty() ? p : p[std::string(sh.tool_object)];
        call[std::string(sh.tool_name)] = "Bash";
        call[std::string(sh.tool_input)] = {
            {"command", "export GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a"}};
        put(sh.tool_call_id, "call_8f2KqL0mZ3xYv7Tn");
      }
      return p;
    }
  }
  const std::string_view place = event == "PreToolUse"    ? "도구전"
                                 : event == "PostToolUse" ? "도구후"
                                 : event == "Stop"        ? "턴끝"
                                                          : "말전";
  return {{"자리", place}, {"도구", tool ? json("Bash") : json(nullptr)}};
}

TEST(GenAi, EveryEventOfEveryHost) {
  const ReplyTable t = reply_table();
  ASSERT_GT(t.size, 15u);
  for (size_t i = 0; i < t.size; ++i) {
    const ReplyRow& r = t.rows[i];
    const std::string what = std::string(family_prefix(r.family)) + ":" + std::string(r.event);
    const bool tool =
        (r.family == Family::kGemini && (r.event == "BeforeTool" || r.event == "AfterTool")) ||
        (r.family != Family::kGemini && (r.event == "PreToolUse" || r.event == "PostToolUse"));
    const json payload = host_payload(r.family, r.event, tool);
    const CanonicalEvent ev = normalize(r.family, family_prefix(r.family), r.event, payload);
    GuardVerdict g;
    g.decision = GuardVerdict::Decision::kAllow;
    const json span = span_of(ev, r.gate ? &g : nullptr);
    // The gen_ai.* attributes per host and event.
    std::set<std::string> want = {"gen_ai.agent.name"};
    if (tool) want.insert({"gen_ai.operation.name", "gen_ai.tool.name"});
    // Claude Code's payload names no provider (it runs on Anthropic, Bedrock or Vertex).
    const auto& shape = pinta::hosts::descriptor(r.family).payload;
    if (!shape.session_id.empty()) want.insert("gen_ai.conversation.id");
    if (r.family == Family::kGemini || r.family == Family::kAntigravity) want.insert("gen_ai.provider.name");
    if (tool && !shape.tool_call_id.empty()) want.insert("gen_ai.tool.call.id");
    EXPECT_EQ(keys_of(span, true), want) << what;
    EXPECT_EQ(check::attribute(span, "gen_ai.agent.name"),
              str(pinta::hosts::descriptor(r.family).display_name))
        << what;
    const char* agent = r.family == Family::kGemini        ? "Gemini CLI"
                        : r.family == Family::kAntigravity ? "Antigravity"
                        : r.family == Family::kClaude      ? "Claude Code"
                        : r.family == Family::kDeel        ? "deel-local-cli"
                                                           : nullptr;
    if (agent) EXPECT_EQ(check::attribute(span, "gen_ai.agent.name"), str(agent)) << what;
    if (tool) {
      EXPECT_EQ(check::attribute(span, "gen_ai.operation.name"), str("execute_tool")) << what;
      const char* name = r.family == Family::kGemini        ? "run_shell_command"
                         : r.family == Family::kAntigravity ? "run_command"
                                                            : "Bash";
      EXPECT_EQ(check::attribute(span, "gen_ai.tool.name"), str(name)) << what;
    }
    if (r.family == Family::kGemini) {
      EXPECT_EQ(check::attribute(span, "gen_ai.conversation.id"),
                str(payload["session_id"].get<std::string>()));
      EXPECT_EQ(check::attribute(span, "gen_ai.conversation.id"),
                check::attribute(span, "gemini.session_id"));
    }
    if (r.family == Family::kAntigravity) {
      EXPECT_EQ(check::attribute(span, "gen_ai.conversation.id"),
                check::attribute(span, "antigravity.conversationId"));
    }
    if (r.family == Family::kClaude) {
      EXPECT_EQ(check::attribute(span, "gen_ai.conversation.id"),
                check::attribute(span, "claude_code.session_id"));
    }
    if (r.family == Family::kGemini || r.family == Family::kAntigravity) {
      EXPECT_EQ(check::attribute(span, "gen_ai.provider.name"), str("gcp.gen_ai")) << what;
    }
    // Bronze is unchanged: besides gen_ai.*, exactly the attributes the span had before.
    const std::string prefix(family_prefix(r.family));
    std::set<std::string> bronze = {"ingest.type", prefix + ".hook", prefix + ".agent"};
    if (r.family == Family::kAntigravity) bronze.insert("antigravity.product");
    if (r.gate) bronze.insert("pinta.guard.decision");
    for (auto it = payload.begin(); it != payload.end(); ++it)
      bronze.insert(prefix + "." + it.key());
    EXPECT_EQ(keys_of(span, false), bronze) << what;
    // Tool arguments stay in Bronze only, redacted; the tool call id is the host's own.
    const std::string text = span.dump();
    EXPECT_EQ(text.find("ghp_16C7e42F292c6912E7710c838347Ae178B4a"), std::string::npos) << what;
    if (tool && !shape.tool_call_id.empty())
      EXPECT_EQ(check::attribute(span, "gen_ai.tool.call.id"),
                str(payload[std::string(shape.tool_call_id)].get<std::string>()))
          << what;
    else
      EXPECT_TRUE(check::attribute(span, "gen_ai.tool.call.id").is_null()) << what;
    EXPECT_TRUE(check::attribute(span, "gen_ai.tool.call.arguments").is_null()) << what;
  }
}

TEST(GenAi, NoExecuteToolWithoutANamedTool) {
  // Antigravity PostToolUse also fires on non-tool steps, with toolCall:null (AGY§8 [OBS 1.0.5]).
  json p = host_payload(Family::kAntigravity, "PostToolUse", false);
  p["toolCall"] = nullptr;
  p["stepIdx"] = 2;
  json span = span_of(normalize(Family::kAntigravity, "agy", "PostToolUse", p));
  EXPECT_TRUE(check::attribute(span, "gen_ai.operation.name").is_null());
  EXPECT_TRUE(check::attribute(span, "gen_ai.tool.name").is_null());
  EXPECT_EQ(check::attribute(span, "gen_ai.agent.name"), str("Antigravity"));
  // A tool name on an event that is not a tool event does not make it one.
  json q = host_payload(Family::kGemini, "SessionStart", false);
  q["tool_name"] = "run_shell_command";
  span = span_of(normalize(Family::kGemini, "gemini", "SessionStart", q));
  EXPECT_TRUE(check::attribute(span, "gen_ai.operation.name").is_null());
  EXPECT_TRUE(check::attribute(span, "gen_ai.tool.name").is_null());
  // Nor does an event the host is not known to send, even if it is spelled like one elsewhere.
  span = span_of(normalize(Family::kGemini, "gemini", "PreToolUse",
                           host_payload(Family::kGemini, "PreToolUse", true)));
  EXPECT_TRUE(check::attribute(span, "gen_ai.operation.name").is_null());
}

TEST(GenAi, AntigravityProviderOnlyForGeminiModels) {
  for (const char* model : {"auto", "claude-sonnet-4-5", "gpt-oss-120b", ""}) {
    json p = host_payload(Family::kAntigravity, "PreInvocation", false);
    p["modelName"] = model;
    const json span = span_of(normalize(Family::kAntigravity, "antigravity", "PreInvocation", p));
    EXPECT_TRUE(check::attribute(span, "gen_ai.provider.name").is_null()) << model;
  }
  json p = host_payload(Family::kAntigravity, "PreInvocation", false);
  p.erase("modelName");
  EXPECT_TRUE(
      check::attribute(span_of(normalize(Family::kAntigravity, "antigravity", "PreInvocation", p)),
                       "gen_ai.provider.name")
          .is_null());
  p["modelName"] = 7;  // wrong type: absent
  EXPECT_TRUE(
      check::attribute(span_of(normalize(Family::kAntigravity, "antigravity", "PreInvocation", p)),
                       "gen_ai.provider.name")
          .is_null());
}

TEST(GenAi, PayloadValuesAreRedactedAndCapped) {
  const std::string tok = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
  json p = host_payload(Family::kAntigravity, "PreToolUse", true);
  p["toolCall"]["name"] = "mcp_x_" + tok;
  p["conversationId"] = std::string(200000, 'c');
  const json span = span_of(normalize(Family::kAntigravity, "antigravity", "PreToolUse", p));
  const std::string name = check::attribute(span, "gen_ai.tool.name")["stringValue"];
  EXPECT_EQ(name.find(tok), std::string::npos) << name;
  EXPECT_NE(name.find("[REDACTED:"), std::string::npos) << name;
  const std::string conv = check::attribute(span, "gen_ai.conversation.id")["stringValue"];
  EXPECT_LE(conv.size(), otlp::SpanLimits{}.max_value_bytes);
  EXPECT_NE(conv.find("[TRUNCATED:"), std::string::npos);
  EXPECT_EQ(span.dump().find(tok), std::string::npos);
}

TEST(GenAi, KeptWhenThePayloadFillsTheAttributeLimit) {
  json p = host_payload(Family::kGemini, "AfterTool", true);
  for (int i = 0; i < 300; ++i) p["f" + std::to_string(i)] = i;
  const json span = span_of(normalize(Family::kGemini, "gemini", "AfterTool", p));
  EXPECT_LE(span["attributes"].size(), 128u);
  EXPECT_EQ(check::attribute(span, "gen_ai.operation.name"), str("execute_tool"));
  EXPECT_EQ(check::attribute(span, "gen_ai.conversation.id"),
            str(p["session_id"].get<std::string>()));
  EXPECT_EQ(check::attribute(span, "pinta.span.truncated"), str("count"));
  // Payload fields written + counted as dropped = all of them (the limit is shared, not exceeded).
  std::size_t bronze = 0;
  for (const json& kv : span["attributes"])
    bronze += kv["key"].get<std::string>().rfind("gemini.", 0) == 0;
  // gemini.hook and gemini.agent are the adapter's, the rest are payload fields.
  EXPECT_EQ(bronze - 2 + span["droppedAttributesCount"].get<std::size_t>(), p.size());
}

TEST(GenAi, TheContractNamesTheVersionTheCodeFollows) {
  const std::string contract =
      fs::read_file(pinta::testing::source_dir() + "/docs/contract.md").value_or("");
  ASSERT_FALSE(contract.empty());
  const std::size_t at = contract.find("**OTLP-3a.");
  ASSERT_NE(at, std::string::npos);
  const std::string clause = contract.substr(at, contract.find("**OTLP-3b.", at) - at);
  EXPECT_NE(clause.find("**v" + std::string(otlp::kGenAiSemconvVersion) + "**"), std::string::npos)
      << clause.substr(0, 400);
}

// The checker itself must be able to fail, or the tests above prove nothing.
TEST(Validator, RejectsNonCanonicalEncodings) {
  auto bad = [](const std::string& body) { return !check::check_request(body).ok(); };
  const std::string good_span = R"({"traceId":"0123456789abcdef0123456789abcdef","spanId":"0123456789abcdef","name":"n","kind":1,"startTimeUnixNano":"1","endTimeUnixNano":"2"})";
  auto wrap = [](const std::string& span) { return R"({"resourceSpans":[{"scopeSpans":[{"spans":[)" + span + "]}]}]}"; };
  EXPECT_FALSE(bad(wrap(good_span)));
  EXPECT_TRUE(bad(wrap(R"({"traceId":"0123456789ABCDEF0123456789ABCDEF","spanId":"0123456789abcdef","name":"n","startTimeUnixNano":"1","endTimeUnixNano":"2"})")));
  EXPECT_TRUE(bad(wrap(R"({"traceId":"ASNFZ4mrze8BI0VniavN7w==","spanId":"0123456789abcdef","name":"n","startTimeUnixNano":"1","endTimeUnixNano":"2"})")));
  EXPECT_TRUE(bad(wrap(R"({"traceId":"0123456789abcdef0123456789abcdef","spanId":"0123456789abcdef","name":"n","startTimeUnixNano":1,"endTimeUnixNano":"2"})")));
  EXPECT_TRUE(bad(wrap(R"({"traceId":"0123456789abcdef0123456789abcdef","spanId":"0123456789abcdef","name":"n","kind":"SPAN_KIND_INTERNAL","startTimeUnixNano":"1","endTimeUnixNano":"2"})")));
  EXPECT_TRUE(bad(wrap(R"({"trace_id":"0123456789abcdef0123456789abcdef","spanId":"0123456789abcdef","name":"n","startTimeUnixNano":"1","endTimeUnixNano":"2"})")));
  EXPECT_TRUE(bad(wrap(R"({"traceId":"0123456789abcdef0123456789abcdef","spanId":"0123456789abcdef","name":"n","startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[{"key":"a","value":{"intValue":5}}]})")));
  EXPECT_TRUE(bad(wrap(R"({"traceId":"0123456789abcdef0123456789abcdef","spanId":"0123456789abcdef","name":"n","startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[{"key":"a","value":{"stringValue":"x","boolValue":true}}]})")));
  EXPECT_TRUE(bad(wrap(R"({"traceId":"0123456789abcdef0123456789abcdef","spanId":"0123456789abcdef","name":"n","startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[{"key":"a","value":{"stringValue":"x"}},{"key":"a","value":{"stringValue":"y"}}]})")));
}

// ---- OTLP/HTTP response rules ----

TEST(Classify, RetryableAndPermanentStatuses) {
  using otlp::Verdict;
  for (int s : {429, 502, 503, 504, 0}) EXPECT_EQ(otlp::classify_response(s, "", "", 0).verdict, Verdict::kRetry) << s;
  for (int s : {400, 401, 403, 404, 413, 500, 501}) EXPECT_EQ(otlp::classify_response(s, "", "", 0).verdict, Verdict::kDrop) << s;
  EXPECT_EQ(otlp::classify_response(200, "", "{}", 0).verdict, Verdict::kDelivered);
  EXPECT_EQ(otlp::classify_response(202, "", "not json", 0).verdict, Verdict::kDelivered);
}

TEST(Classify, RetryAfterSecondsAndDate) {
  EXPECT_EQ(otlp::classify_response(429, "7", "", 0).retry_after, std::chrono::seconds(7));
  // Sun, 06 Nov 1994 08:49:37 GMT = 784111777
  EXPECT_EQ(otlp::classify_response(503, "Sun, 06 Nov 1994 08:49:37 GMT", "", 784111770).retry_after,
            std::chrono::seconds(7));
  EXPECT_EQ(otlp::classify_response(503, "garbage", "", 0).retry_after.count(), -1);
  EXPECT_EQ(otlp::classify_response(503, "", "", 0).retry_after.count(), -1);
}

TEST(Classify, PartialSuccessCountsRejected) {
  EXPECT_EQ(otlp::classify_response(200, "", R"({"partialSuccess":{"rejectedSpans":"3","errorMessage":"x"}})", 0).rejected_spans, 3);
  EXPECT_EQ(otlp::classify_response(200, "", R"({"partialSuccess":{"rejectedSpans":2}})", 0).rejected_spans, 2);
  EXPECT_EQ(otlp::classify_response(200, "", R"({"partialSuccess":{}})", 0).rejected_spans, 0);
}

// ---- queue ----

std::string line_for(int i) {
  CanonicalEvent ev = normalize(Family::kGemini, "gemini", "AfterTool", json{{"i", i}});
  SpanInput in;
  in.event = &ev;
  in.start_unix_nanos = in.end_unix_nanos = 1;
  const otlp::SpanIds ids{new_trace_id(1), new_span_id()};
  return otlp::queue_line(ids.span_id, "[]", otlp::encode_span(in, ids));
}

std::vector<int> indices(const QueueSnapshot& s) {
  std::vector<int> out;
  for (const json& r : s.records) out.push_back(std::stoi(check::attribute(r["span"], "gemini.i")["intValue"].get<std::string>()));
  return out;
}

TEST(Queue, AppendThenSnapshotInOrder) {
  TempDir d;
  SpanQueue q({d.sub("data"), 1000});
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(q.append(line_for(i)).ok());
  auto s = q.snapshot(100);
  ASSERT_TRUE(s);
  EXPECT_EQ(indices(*s), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(s->corrupt_lines.empty());
  EXPECT_EQ(q.counters()->appended, 5);
}

// The flusher's reader (load into a SpanRecord): a line in queue_line's layout is cut at its two
// values as they are; a valid record in any other layout is parsed and written out; what the
// parse rejects, it rejects, with the bytes to report as corrupt.
TEST(Queue, TheTextReaderCutsOurLinesAndAgreesWithTheParseOnAnyOther) {
  TempDir d;
  SpanQueue q({d.sub("data"), 1000});
  const std::string id = "00000000000000a1";
  // Brackets, braces and escaped quotes inside strings must not end a value early.
  const std::string resource = R"([{"key":"a]\"}","value":{"stringValue":"x\\\"]}"}}])";
  const std::string span = R"({"name":"}]{[","attributes":[{"key":"k","value":{"stringValue":"\"}"}}]})";
  const std::vector<std::string> lines = {
      otlp::queue_line(id, resource, span),                                      // ours
      "{\"spanId\":\"" + id + "\", \"resource\":" + resource + ",\"span\":" + span + "}",  // a space
      "{\"spanId\":\"" + id + "\",\"span\":" + span + ",\"resource\":" + resource + "}",   // order
      "{\"spanId\":\"" + id + "\",\"resource\":" + resource + ",\"span\":" + span + ",\"x\":1}",
      "{\"spanId\":\"" + id + "\",\"resource\":{},\"span\":" + span + "}",       // not an array
      "{\"spanId\":\"" + id + "\",\"resource\":[],\"span\":[]}",                  // not an object
      "{\"spanId\":\"" + id + "\",\"resource\":[],\"span\":{\"a\":tru}}",         // not JSON
      "{\"spanId\":\"" + id + "\",\"resource\":[],\"span\":{},\"spanId\":\"00000000000000b2\"}",
  };
  const std::vector<bool> valid = {true, true, true, true, false, false, false, false};
  for (size_t k = 0; k < lines.size(); ++k) {
    SCOPED_TRACE(lines[k]);
    std::error_code ec;
    std::filesystem::remove(q.queue_path(), ec);
    ASSERT_TRUE(q.append(lines[k]).ok());
    auto s = q.snapshot_refs(10);
    ASSERT_TRUE(s);
    ASSERT_EQ(s->refs.size(), 1u);
    json doc;
    std::string doc_bytes, text_bytes;
    SpanRecord rec;
    const bool parsed = q.load(s->refs[0], doc, doc_bytes);
    EXPECT_EQ(parsed, valid[k]);
    EXPECT_EQ(q.load(s->refs[0], rec, text_bytes), parsed);
    EXPECT_EQ(text_bytes, doc_bytes);
    EXPECT_EQ(text_bytes, lines[k]);
    if (!parsed) continue;
    EXPECT_EQ(json::parse(rec.resource), json::parse(resource));
    EXPECT_EQ(json::parse(rec.span), json::parse(span));
    if (k == 0) {  // ours: the texts as written, not a re-serialisation
      EXPECT_EQ(rec.resource, resource);
      EXPECT_EQ(rec.span, span);
    }
  }
}

// The request is the records' texts spliced in: grouped by resource text in first-seen order,
// valid OTLP/JSON, each span as it was queued.
TEST(Encode, RequestSplicesTheRecordsTexts) {
  const std::string r1 = R"([{"key":"service.name","value":{"stringValue":"a"}}])";
  const std::string r2 = R"([{"key":"service.name","value":{"stringValue":"b"}}])";
  auto span = [](int i) {
    return "{\"traceId\":\"0123456789abcdef0123456789abcdef\",\"spanId\":\"00000000000000" +
           std::to_string(10 + i) + "\",\"name\":\"n" + std::to_string(i) +
           "\",\"kind\":1,\"startTimeUnixNano\":\"1\",\"endTimeUnixNano\":\"2\"}";
  };
  const std::string body = otlp::encode_request({{r1, span(1)}, {r2, span(2)}, {r1, span(3)}, {"", ""}});
  const json j = json::parse(body);
  ASSERT_EQ(j["resourceSpans"].size(), 2u);
  EXPECT_EQ(j["resourceSpans"][0]["resource"]["attributes"], json::parse(r1));
  EXPECT_EQ(j["resourceSpans"][1]["resource"]["attributes"], json::parse(r2));
  const json& s1 = j["resourceSpans"][0]["scopeSpans"][0];
  EXPECT_EQ(s1["scope"]["name"], "pinta-gemini");
  ASSERT_EQ(s1["spans"].size(), 2u);
  EXPECT_EQ(s1["spans"][0], json::parse(span(1)));
  EXPECT_EQ(s1["spans"][1], json::parse(span(3)));
  EXPECT_NE(body.find(span(2)), std::string::npos);  // as queued, byte for byte
  EXPECT_EQ(otlp::encode_request({}), R"({"resourceSpans":[]})");
}

TEST(Queue, RejectsMultiLineInput) {
  TempDir d;
  SpanQueue q({d.path(), 10});
  EXPECT_EQ(q.append("a\nb").error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(q.append("").error().code, ErrorCode::kInvalidArgument);
}

TEST(Queue, CapKeepsNewestAndCountsDropped) {
  TempDir d;
  SpanQueue q({d.path(), 10});
  for (int i = 0; i < 35; ++i) ASSERT_TRUE(q.append(line_for(i)).ok());
  auto s = q.snapshot(100);
  ASSERT_TRUE(s);
  std::vector<int> want;
  for (int i = 25; i < 35; ++i) want.push_back(i);
  EXPECT_EQ(indices(*s), want);
  // Appends never compact (that is the flusher's pass): all 25 older ones are pending drop.
  auto c = q.counters();
  EXPECT_EQ(c->dropped_cap, 0);
  EXPECT_EQ(s->over_cap.size(), 25u);
  auto text = fs::read_file(q.queue_path());
  EXPECT_EQ(std::count(text->begin(), text->end(), '\n'), 35);
  // Removing the over-cap ids accounts for them.
  QueueCounters delta;
  delta.dropped_cap = static_cast<int64_t>(s->over_cap.size());
  ASSERT_TRUE(q.remove(s->over_cap, {}, delta).ok());
  EXPECT_EQ(q.counters()->dropped_cap, 25);
  EXPECT_EQ(q.counters()->lines, 10);
  // The state file is written as text: it must be the counters' canonical JSON, one line.
  auto state = fs::read_file(q.state_path());
  ASSERT_TRUE(state);
  EXPECT_EQ(*state, q.counters()->to_json().dump() + "\n");
  EXPECT_EQ(json::parse(*state)["appended"], 35);
}

// The state file is read by a fast reader of our own format; anything else falls back to the
// JSON parser, and garbage reads as zeros without blocking appends.
TEST(Queue, StateFileInOtherShapesIsStillRead) {
  TempDir d;
  SpanQueue q({d.path(), 10});
  ASSERT_TRUE(q.append(line_for(1)).ok());
  ASSERT_EQ(q.counters()->appended, 1);  // folds the append's tally into the state file
  ASSERT_TRUE(fs::atomic_write(q.state_path(), "{ \"appended\" : 7, \"lines\": 1 }\n").ok());
  EXPECT_EQ(q.counters()->appended, 7);
  EXPECT_EQ(q.counters()->delivered, 0);
  ASSERT_TRUE(q.append(line_for(2)).ok());
  EXPECT_EQ(q.counters()->appended, 8);
  EXPECT_EQ(q.counters()->lines, 2);
  ASSERT_TRUE(fs::atomic_write(q.state_path(), "\x01garbage{\"appended\":99999999999999999999").ok());
  ASSERT_TRUE(q.append(line_for(3)).ok());
  EXPECT_EQ(q.counters()->appended, 1);
  auto s = q.snapshot(100);
  ASSERT_TRUE(s);
  EXPECT_EQ(indices(*s), (std::vector<int>{1, 2, 3}));
}

TEST(Queue, TornAndCorruptLinesAreSkippedAndCountedNeverBlocking) {
  TempDir d;
  SpanQueue q({d.path(), 100});
  ASSERT_TRUE(q.append(line_for(0)).ok());
  {
    std::ofstream f(q.queue_path(), std::ios::app | std::ios::binary);
    f << "garbage that is not json\n";
    f << "{\"spanId\":\"0123456789abcdef\",\"resource\":[],\"span\":{\"trunc";  // torn: no newline
  }
  ASSERT_TRUE(q.append(line_for(1)).ok());  // must start on its own line
  auto s = q.snapshot(100);
  ASSERT_TRUE(s);
  EXPECT_EQ(indices(*s), (std::vector<int>{0, 1}));
  EXPECT_EQ(s->corrupt_lines.size(), 2u);
  QueueCounters delta;
  delta.corrupt = 2;
  std::unordered_set<std::string> ids;
  for (const json& r : s->records) ids.insert(r["spanId"].get<std::string>());
  ASSERT_TRUE(q.remove(ids, s->corrupt_lines, delta).ok());
  auto after = fs::read_file(q.queue_path());
  EXPECT_EQ(*after, "");
  EXPECT_EQ(q.counters()->corrupt, 2);
}

TEST(Queue, RemoveKeepsLinesAppendedAfterTheSnapshot) {
  TempDir d;
  SpanQueue q({d.path(), 100});
  ASSERT_TRUE(q.append(line_for(0)).ok());
  auto s = q.snapshot(100);
  ASSERT_TRUE(q.append(line_for(1)).ok());
  std::unordered_set<std::string> ids{s->records[0]["spanId"].get<std::string>()};
  ASSERT_TRUE(q.remove(ids, {}, {}).ok());
  auto s2 = q.snapshot(100);
  EXPECT_EQ(indices(*s2), (std::vector<int>{1}));
}

TEST(Queue, ConcurrentAppendersFromManyProcessesNeverTear) {
  TempDir d;
  constexpr int kProcs = 8, kEach = 100;
  std::vector<pid_t> kids;
  for (int p = 0; p < kProcs; ++p) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      SpanQueue q({d.path(), 100000, 10000});
      int bad = 0;
      for (int i = 0; i < kEach; ++i) bad += q.append(line_for(p * 1000 + i)).ok() ? 0 : 1;
      ::_exit(bad == 0 ? 0 : 1);
    }
    kids.push_back(pid);
  }
  for (pid_t k : kids) {
    int st = 0;
    ::waitpid(k, &st, 0);
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  }
  SpanQueue q({d.path(), 100000});
  auto s = q.snapshot(100000);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->corrupt_lines.empty());
  std::set<int> seen;
  for (int i : indices(*s)) seen.insert(i);
  EXPECT_EQ(seen.size(), static_cast<size_t>(kProcs * kEach));
  EXPECT_EQ(q.counters()->lines, kProcs * kEach);
}

// Byte cap: only the newest max_bytes are read; the older lines are reported (prefix_lines,
// skip_bytes) and dropped by remove(), counted by the caller.
TEST(Queue, ByteCapReadsOnlyTheNewestBytes) {
  TempDir d;
  QueueOptions o{d.path(), 100000};
  o.max_bytes = kMaxQueueLineBytes;  // the smallest cap: 2 MiB
  SpanQueue q(o);
  const std::string one = line_for(0);
  const size_t old_lines = (kMaxQueueLineBytes + one.size()) / (one.size() + 1) + 10;
  {
    std::ofstream f(q.queue_path(), std::ios::binary);
    for (size_t i = 0; i < old_lines; ++i) f << one << '\n';
  }
  for (int i = 1; i <= 3; ++i) ASSERT_TRUE(q.append(line_for(i)).ok());
  auto s = q.snapshot(100000);
  ASSERT_TRUE(s);
  EXPECT_GT(s->skip_bytes, 0u);
  EXPECT_GT(s->prefix_lines, 0u);
  EXPECT_LE(s->size - s->skip_bytes, kMaxQueueLineBytes);
  EXPECT_EQ(s->prefix_lines + s->valid_total, old_lines + 3);  // every line either side, once
  ASSERT_GE(s->records.size(), 3u);
  std::vector<int> tail = indices(*s);
  EXPECT_EQ(std::vector<int>(tail.end() - 3, tail.end()), (std::vector<int>{1, 2, 3}));
  ASSERT_TRUE(q.remove({}, {}, {}, s->skip_bytes).ok());
  auto after = fs::read_file(q.queue_path());
  ASSERT_TRUE(after);
  EXPECT_EQ(after->size(), s->size - s->skip_bytes);
  EXPECT_EQ(q.counters()->lines, static_cast<int64_t>(s->valid_total));
}

// Sets an environment variable for a scope (the options are read from the environment).
class ScopedEnvVar {
 public:
  ScopedEnvVar(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnvVar() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// The queue line of the bench's Gemini AfterTool event (ci/bench-telemetry.sh p.json) with the
// real resource: what one typical span costs in the queue.
std::string realistic_line(const std::string& span_id) {
  const json payload = json::parse(
      R"({"session_id":"7f3c2a4e-bench-4b1d-9a0e-000000000001","transcript_path":"/tmp/w/t.json",)"
      R"("cwd":"/tmp/w","hook_event_name":"AfterTool","timestamp":"2026-12-02T10:10:11.342Z",)"
      R"("tool_name":"read_file","tool_input":{"file_path":"a.txt"},)"
      R"("tool_response":{"llmContent":"hello","returnDisplay":"hello"}})");
  CanonicalEvent ev = normalize(Family::kGemini, "gemini", "AfterTool", payload);
  SpanInput in;
  in.event = &ev;
  in.start_unix_nanos = in.end_unix_nanos = 1796384783753234393;
  const otlp::SpanIds ids{new_trace_id(1), span_id};
  return otlp::queue_line(ids.span_id,
                          otlp::resource_attributes(otlp::local_resource(Family::kGemini)),
                          otlp::encode_span(in, ids));
}

// With the span cap raised to 20,000 (as ci/bench-telemetry.sh's drain does), 10,000 typical
// spans are all kept by the default byte cap. A fixed 16 MiB cap dropped the oldest 1,637 of them
// once the GenAI attributes made a span ~2,000 bytes (docs/benchmarks-history.md). When the byte cap is
// really exceeded (set explicitly), the oldest are still the ones dropped, every line counted.
TEST(Queue, DefaultByteCapHoldsTheSpanCapOfTypicalSpans) {
  TempDir d;
  ScopedEnvVar spans("PINTA_QUEUE_MAX_SPANS", "20000");
  AdapterConfig config;
  config.data_dir = d.path();
  TelemetryOptions o = telemetry_options_from_environment(config);
  const size_t n = 10000;
  const std::string first = realistic_line("0000000000000001");
  ASSERT_GT(first.size(), 1900u);  // the size the regression was seen at: 10,000 lines > 16 MiB
  {
    std::ofstream f(fs::join(d.path(), kQueueFile), std::ios::binary);
    char id[17];
    for (size_t i = 1; i <= n; ++i) {
      std::snprintf(id, sizeof id, "%016zx", i);
      std::string line = first;
      line.replace(line.find("0000000000000001"), 16, id);          // the prefix
      line.replace(line.rfind("0000000000000001"), 16, id);         // the span's own spanId
      f << line << '\n';
    }
  }
  {
    SpanQueue q(queue_options(o));
    auto s = q.snapshot_refs(2 * n);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->prefix_lines, 0u);
    EXPECT_EQ(s->skip_bytes, 0u);
    EXPECT_EQ(s->valid_total, n);
    EXPECT_TRUE(s->over_cap.empty());
    ASSERT_EQ(s->refs.size(), n);
    EXPECT_EQ(std::string(s->refs.front().span_id, 16), "0000000000000001");
  }
  ScopedEnvVar bytes("PINTA_QUEUE_MAX_BYTES", std::to_string(16u << 20).c_str());
  TelemetryOptions capped = telemetry_options_from_environment(config);
  SpanQueue q(queue_options(capped));
  auto s = q.snapshot_refs(2 * n);
  ASSERT_TRUE(s);
  EXPECT_GT(s->prefix_lines, 0u);  // the oldest, beyond 16 MiB, are dropped ...
  EXPECT_EQ(s->prefix_lines + s->valid_total, n);  // ... and counted, each line once
  ASSERT_FALSE(s->refs.empty());
  EXPECT_EQ(std::string(s->refs.back().span_id, 16), "0000000000002710");  // the newest kept
}

// A line over kMaxQueueLineBytes: refused by append (counted as unwritten); a foreign one in the
// file is skipped without being held, reported corrupt, and removed.
TEST(Queue, OversizeLinesAreRefusedOrSkipped) {
  TempDir d;
  SpanQueue q({d.path(), 100});
  const std::string big =
      "{\"spanId\":\"0123456789abcdef\",\"x\":\"" + std::string(kMaxQueueLineBytes, 'x') + "\"}";
  auto r = q.append(big);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(q.unwritten(), 1);
  { std::ofstream(q.queue_path(), std::ios::binary) << big << '\n'; }
  ASSERT_TRUE(q.append(line_for(7)).ok());
  auto s = q.snapshot(100);
  ASSERT_TRUE(s);
  EXPECT_EQ(indices(*s), (std::vector<int>{7}));
  ASSERT_EQ(s->corrupt_lines.size(), 1u);
  EXPECT_LT(s->corrupt_lines.begin()->size(), 100u) << "the oversize line was held in memory";
  QueueCounters delta;
  delta.corrupt = 1;
  ASSERT_TRUE(q.remove({}, s->corrupt_lines, delta).ok());
  auto after = fs::read_file(q.queue_path());
  EXPECT_EQ(std::count(after->begin(), after->end(), '\n'), 1);
  EXPECT_EQ(queue_line_span_id(after->substr(0, after->size() - 1)),
            s->records[0]["spanId"].get<std::string>());
  EXPECT_EQ(q.counters()->corrupt, 1);
  EXPECT_EQ(q.counters()->unwritten, 1);  // copied into the state by remove()
}

// Appends never compact, whatever the state file claims (a lying "lines" made every append read
// and rewrite the queue under the lock): the file is appended to in place, never replaced.
TEST(Queue, AppendNeverRewritesTheFileEvenWithALyingStateFile) {
  TempDir d;
  SpanQueue q({d.path(), 10});
  ASSERT_TRUE(q.append(line_for(0)).ok());
  ASSERT_TRUE(fs::atomic_write(q.state_path(), "{\"lines\":999999999}\n").ok());
  struct stat before {};
  ASSERT_EQ(::stat(q.queue_path().c_str(), &before), 0);
  for (int i = 1; i <= 25; ++i) ASSERT_TRUE(q.append(line_for(i)).ok());
  struct stat after {};
  ASSERT_EQ(::stat(q.queue_path().c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino) << "an append replaced (compacted) the queue file";
  auto text = fs::read_file(q.queue_path());
  EXPECT_EQ(std::count(text->begin(), text->end(), '\n'), 26);
  EXPECT_EQ(q.counters()->dropped_cap, 0);
}

// The flusher's rewrite while other processes append (with the adapter's 5 ms budget, so some
// go through side files): every span appended is either taken out by a remove() or still in the
// queue, exactly once; no line torn. Exercises the tail copied outside the lock and the rest
// copied under it, and the fold of side files.
TEST(Queue, RemoveWhileOthersAppendLosesAndDuplicatesNothing) {
  TempDir d;
  constexpr int kProcs = 4, kEach = 150;
  std::vector<pid_t> kids;
  for (int p = 0; p < kProcs; ++p) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      SpanQueue q({d.path(), 100000});
      int bad = 0;
      for (int i = 0; i < kEach; ++i) bad += q.append(line_for(p * 1000 + i)).ok() ? 0 : 1;
      ::_exit(bad == 0 ? 0 : 1);
    }
    kids.push_back(pid);
  }
  SpanQueue q({d.path(), 100000});
  std::set<std::string> removed;
  auto one_pass = [&] {
    auto s = q.snapshot(100000);
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->corrupt_lines.empty()) << *s->corrupt_lines.begin();
    std::unordered_set<std::string> take;
    for (size_t i = 0; i < s->records.size(); i += 2) {
      const std::string id = s->records[i]["spanId"].get<std::string>();
      EXPECT_TRUE(removed.insert(id).second) << id << " seen again after its removal";
      take.insert(id);
    }
    EXPECT_TRUE(q.remove(take, {}, {}).ok());
  };
  for (size_t alive = kids.size(); alive > 0;) {
    one_pass();
    for (pid_t& k : kids) {
      int st = 0;
      if (k > 0 && ::waitpid(k, &st, WNOHANG) == k) {
        EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
        k = -1;
        --alive;
      }
    }
  }
  auto s = q.snapshot(100000);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->corrupt_lines.empty());
  std::set<std::string> left;
  for (const json& r : s->records) {
    const std::string id = r["spanId"].get<std::string>();
    EXPECT_TRUE(left.insert(id).second) << id << " twice in the queue";
    EXPECT_EQ(removed.count(id), 0u) << id << " removed and still queued";
  }
  EXPECT_EQ(removed.size() + left.size(), static_cast<size_t>(kProcs * kEach));
  EXPECT_FALSE(q.has_side_files());
  std::cout << "removed " << removed.size() << ", left " << left.size() << ", deferred "
            << q.counters()->deferred << "\n";
}

// An append never waits longer than its lock budget, and a missed budget loses nothing: with the
// state lock held elsewhere (a flusher's exclusive hold), the span goes to a side file of its own,
// counted as deferred; the next snapshot (the flusher's pass) folds it into the queue.
std::vector<std::string> side_files(const std::string& dir, bool parts = false) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    const bool part = name.size() > 5 && name.substr(name.size() - 5) == ".part";
    if (name.rfind(std::string(kQueueSidePrefix), 0) == 0 && part == parts) out.push_back(name);
  }
  return out;
}

TEST(Queue, AppendThatMissesItsLockBudgetGoesToASideFileAndIsFoldedIn) {
  TempDir d;
  QueueOptions o{d.path(), 100, 20};
  SpanQueue q(o);
  ASSERT_TRUE(q.append(line_for(0)).ok());
  int fd = ::open(q.state_path().c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  EXPECT_FALSE(q.has_side_files());
  for (int i = 1; i <= 3; ++i) EXPECT_TRUE(q.append(line_for(i)).ok()) << i;
  EXPECT_EQ(q.unwritten(), 0);
  EXPECT_EQ(side_files(d.path()).size(), 3u);
  EXPECT_TRUE(side_files(d.path(), /*parts=*/true).empty());
  EXPECT_TRUE(q.has_side_files());
  EXPECT_TRUE(q.pending());
  auto text = fs::read_file(q.queue_path());
  EXPECT_EQ(std::count(text->begin(), text->end(), '\n'), 1) << "the queue was written unlocked";
  ::close(fd);
  auto s = q.snapshot(100);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->folded, 3u);
  std::vector<int> got = indices(*s);
  std::sort(got.begin(), got.end());  // side files fold in directory order
  EXPECT_EQ(got, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(side_files(d.path()).empty());
  EXPECT_FALSE(q.has_side_files());
  auto c = q.counters();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->appended, 4);
  EXPECT_EQ(c->deferred, 3);
  EXPECT_EQ(c->lines, 4);
  EXPECT_EQ(c->unwritten, 0);
  // Folding again adds nothing (each side file is folded once).
  EXPECT_EQ(q.snapshot(100)->records.size(), 4u);
  EXPECT_EQ(q.counters()->appended, 4);
}

// The queue file's own flock marks an append in progress (write(2)s to one file queue on the
// inode's lock in the kernel; a writer preempted there stalled every other append). An append that
// finds it held does not wait: it writes to a free overflow slot, which the next snapshot folds
// into the queue (counted deferred) and empties.
std::string slot_file(const std::string& dir, int n) {
  return fs::join(dir, std::string(kQueueSlotPrefix) + std::to_string(n));
}

TEST(Queue, AnAppendThatFindsTheQueueBusyUsesAnOverflowSlotAndIsFoldedIn) {
  TempDir d;
  SpanQueue q({d.path(), 100});
  ASSERT_TRUE(q.append(line_for(0)).ok());
  const auto before = fs::read_file(q.queue_path());
  ASSERT_TRUE(before);
  int busy = ::open(q.queue_path().c_str(), O_RDONLY | O_CLOEXEC);  // another append, mid-write
  ASSERT_GE(busy, 0);
  ASSERT_EQ(::flock(busy, LOCK_EX), 0);
  for (int i = 1; i <= 3; ++i) EXPECT_TRUE(q.append(line_for(i)).ok()) << i;
  EXPECT_EQ(fs::read_file(q.queue_path()).value_or(""), *before) << "the busy queue was written";
  EXPECT_TRUE(side_files(d.path()).empty()) << "a free slot was there";
  std::string in_slots;
  for (int n = 0; n < kQueueSlots; ++n) in_slots += fs::read_file(slot_file(d.path(), n)).value_or("");
  EXPECT_EQ(std::count(in_slots.begin(), in_slots.end(), '\n'), 3);
  EXPECT_TRUE(q.has_side_files());
  EXPECT_TRUE(q.pending());
  ::close(busy);
  auto s = q.snapshot(100);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->folded, 3u);
  EXPECT_EQ(indices(*s), (std::vector<int>{0, 1, 2, 3}));
  for (int n = 0; n < kQueueSlots; ++n)
    EXPECT_EQ(fs::read_file(slot_file(d.path(), n)).value_or(""), "") << "slot " << n << " not emptied";
  EXPECT_FALSE(q.has_side_files());
  auto c = q.counters();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->appended, 4);
  EXPECT_EQ(c->deferred, 3);
  EXPECT_EQ(c->lines, 4);
  EXPECT_EQ(q.snapshot(100)->records.size(), 4u) << "a slot was folded twice";
}

TEST(Queue, WithTheQueueAndEverySlotBusyTheSpanGoesToASideFile) {
  TempDir d;
  SpanQueue q({d.path(), 100});
  ASSERT_TRUE(q.append(line_for(0)).ok());
  std::vector<int> held;
  auto hold = [&](const std::string& path) {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::flock(fd, LOCK_EX), 0);
    held.push_back(fd);
  };
  hold(q.queue_path());
  for (int n = 0; n < kQueueSlots; ++n) hold(slot_file(d.path(), n));
  EXPECT_TRUE(q.append(line_for(1)).ok());
  EXPECT_EQ(side_files(d.path()).size(), 1u);
  for (int fd : held) ::close(fd);
  auto s = q.snapshot(100);
  ASSERT_TRUE(s);
  EXPECT_EQ(indices(*s), (std::vector<int>{0, 1}));
  EXPECT_EQ(q.counters()->deferred, 1);
}

// A slot whose writer crashed mid-line: the next slot append starts on a fresh line, and the fold
// drops a fragment left at the end (counted corrupt) and never sends it.
TEST(Queue, ATornSlotNeitherSwallowsTheNextSpanNorIsSent) {
  TempDir d;
  SpanQueue q({d.path(), 100});
  ASSERT_TRUE(q.append(line_for(0)).ok());
  const std::string torn = line_for(1).substr(0, 40);
  for (int n = 0; n < kQueueSlots; ++n) ASSERT_TRUE(fs::atomic_write(slot_file(d.path(), n), torn, 0600).ok());
  int busy = ::open(q.queue_path().c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_EQ(::flock(busy, LOCK_EX), 0);
  EXPECT_TRUE(q.append(line_for(2)).ok());
  ::close(busy);
  auto s = q.snapshot(100);
  ASSERT_TRUE(s);
  EXPECT_EQ(indices(*s), (std::vector<int>{0, 2}));
  auto c = q.counters();
  ASSERT_TRUE(c);
  // One slot held the fragment then span 2: the fragment became a line of its own, which the
  // reader skips as corrupt. The other seven held only a fragment, dropped (and counted) at the fold.
  EXPECT_EQ(s->corrupt_lines.size(), 1u);
  EXPECT_EQ(c->corrupt, 7);
  for (int n = 0; n < kQueueSlots; ++n) EXPECT_EQ(fs::read_file(slot_file(d.path(), n)).value_or("x"), "");
}

// Side files the flusher must not fold: a `.part` (being written, or its writer died: removed
// once stale, counted corrupt), a damaged one (not one whole queue line) or one over the line cap
// (removed, counted corrupt), a foreign one (a link: left alone, never followed, not reported as
// work).
TEST(Queue, SideFilesThatAreNotWholeAreNeverFoldedIn) {
  TempDir d;
  SpanQueue q({d.path(), 100});
  ASSERT_TRUE(q.append(line_for(0)).ok());
  const std::string fresh = fs::join(d.path(), std::string(kQueueSidePrefix) + "1.1.part");
  const std::string stale = fs::join(d.path(), std::string(kQueueSidePrefix) + "1.2.part");
  const std::string damaged = fs::join(d.path(), std::string(kQueueSidePrefix) + "1.3");
  const std::string link = fs::join(d.path(), std::string(kQueueSidePrefix) + "1.4");
  ASSERT_TRUE(fs::atomic_write(fresh, line_for(1)).ok());
  ASSERT_TRUE(fs::atomic_write(stale, line_for(2) + "\n").ok());
  ASSERT_TRUE(fs::atomic_write(damaged, line_for(3)).ok());  // no newline: torn
  ASSERT_TRUE(fs::atomic_write(d.sub("victim"), line_for(4) + "\n").ok());
  ASSERT_EQ(::symlink(d.sub("victim").c_str(), link.c_str()), 0);
  const std::string huge = fs::join(d.path(), std::string(kQueueSidePrefix) + "1.5");
  ASSERT_TRUE(fs::atomic_write(huge, "x").ok());
  ASSERT_EQ(::truncate(huge.c_str(), static_cast<off_t>(kMaxQueueLineBytes) + 2), 0);
  struct timespec old[2] = {{::time(nullptr) - 3600, 0}, {::time(nullptr) - 3600, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, stale.c_str(), old, 0), 0);
  auto s = q.snapshot(100);
  ASSERT_TRUE(s);
  EXPECT_EQ(indices(*s), (std::vector<int>{0}));
  EXPECT_TRUE(std::filesystem::exists(fresh));
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_FALSE(std::filesystem::exists(damaged));
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_FALSE(std::filesystem::exists(huge)) << "over the line cap: never read, removed";
  EXPECT_EQ(q.counters()->corrupt, 3);
  EXPECT_FALSE(q.has_side_files()) << "a .part or a foreign file is no work for a flusher";
}

// Only when the side file cannot be written either (a file-size limit here; a full disk in
// telemetry_process_test) is the span lost, and then it is counted as unwritten.
TEST(Queue, ASideFileThatCannotBeWrittenIsCountedUnwritten) {
  TempDir d;
  QueueOptions o{d.path(), 100, 5};
  SpanQueue q(o);
  ASSERT_TRUE(q.append(line_for(0)).ok());
  int fd = ::open(q.state_path().c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim {64, 64};  // the one-byte tally fits, a span line does not
    ::setrlimit(RLIMIT_FSIZE, &lim);
    auto r = q.append(line_for(1));
    ::_exit(!r.ok() && r.error().code == ErrorCode::kIo ? 0 : 1);
  }
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  ::close(fd);
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  EXPECT_EQ(q.unwritten(), 1);
  EXPECT_TRUE(side_files(d.path()).empty());
  EXPECT_TRUE(side_files(d.path(), /*parts=*/true).empty()) << "a partial side file was left";
}

// Appends do not wait for each other: with another append in the middle of its write (the
// shared lock held elsewhere), an append with a 1 ms budget still writes its span, and nothing is
// counted as unwritten. (With an exclusive lock per append, 64 concurrent adapters on 2 cores
// queued for up to a few hundred ms, and a few-ms budget would have lost most of their spans.)
// The flusher's exclusive hold still stops it, and that give-up is counted (test above).
TEST(Queue, AppendsDoNotWaitForEachOther) {
  TempDir d;
  QueueOptions o{d.path(), 100, 1};
  SpanQueue q(o);
  ASSERT_TRUE(q.append(line_for(0)).ok());
  int fd = ::open(q.state_path().c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_SH), 0);  // another append holds it
  for (int i = 1; i <= 3; ++i) EXPECT_TRUE(q.append(line_for(i)).ok()) << i;
  EXPECT_EQ(q.unwritten(), 0);
  ::close(fd);
  auto c = q.counters();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->appended, 4);
  EXPECT_EQ(c->lines, 4);
  auto s = q.snapshot(100);
  ASSERT_TRUE(s);
  EXPECT_EQ(indices(*s), (std::vector<int>{0, 1, 2, 3}));
  // The tally was folded into the state and emptied: counting again does not count twice.
  EXPECT_EQ(q.counters()->appended, 4);
}

// A flusher pass that takes nothing out of the queue (collector down: a retry later) leaves the
// queue file alone: same inode, same mtime, and no temp copy created in the data dir (the dir's
// mtime would move). Before, every failed pass wrote a copy of the whole queue and threw it away.
struct FileTimes {
  ino_t ino = 0;
  int64_t mtime_ns = 0, ctime_ns = 0, dir_mtime_ns = 0;
  bool operator==(const FileTimes& o) const {
    return ino == o.ino && mtime_ns == o.mtime_ns && ctime_ns == o.ctime_ns &&
           dir_mtime_ns == o.dir_mtime_ns;
  }
};
FileTimes times_of(const std::string& file, const std::string& dir) {
  FileTimes t;
  struct stat st {};
  if (::stat(file.c_str(), &st) == 0) {
    t.ino = st.st_ino;
    t.mtime_ns = st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    t.ctime_ns = st.st_ctim.tv_sec * 1000000000LL + st.st_ctim.tv_nsec;
  }
  if (::stat(dir.c_str(), &st) == 0)
    t.dir_mtime_ns = st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
  return t;
}

TEST(Queue, APassThatTakesNothingOutLeavesTheFileAlone) {
  TempDir d;
  SpanQueue q({d.path(), 100});
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(q.append(line_for(i)).ok());
  ASSERT_TRUE(q.counters());  // folds the appends (the tally file is emptied, not created)
  auto s = q.snapshot(100);
  ASSERT_TRUE(s);
  const FileTimes before = times_of(q.queue_path(), d.path());
  // Timestamps are coarse (a clock tick): let one pass so that any write would show.
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  QueueCounters delta;
  delta.retries = 1;
  ASSERT_TRUE(q.remove({}, {}, delta).ok());
  EXPECT_TRUE(times_of(q.queue_path(), d.path()) == before) << "the queue was rewritten";
  // Ids that are no longer in the file (another pass took them): nothing to write either.
  ASSERT_TRUE(q.remove({"0123456789abcdef"}, {"not a line of the file"}, {}).ok());
  EXPECT_TRUE(times_of(q.queue_path(), d.path()) == before) << "the queue was rewritten";
  auto c = q.counters();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->retries, 1);
  EXPECT_EQ(c->lines, 5);
  EXPECT_EQ(indices(*q.snapshot(100)), (std::vector<int>{0, 1, 2, 3, 4}));
  // Taking one out (the middle one) rewrites: the lines before it are copied as they are.
  ASSERT_TRUE(q.remove({s->records[2]["spanId"].get<std::string>()}, {}, {}).ok());
  EXPECT_NE(times_of(q.queue_path(), d.path()).ino, before.ino);
  EXPECT_EQ(indices(*q.snapshot(100)), (std::vector<int>{0, 1, 3, 4}));
  EXPECT_EQ(q.counters()->lines, 4);
  auto text = fs::read_file(q.queue_path());
  ASSERT_TRUE(text);
  EXPECT_EQ(std::count(text->begin(), text->end(), '\n'), 4);
}

// The same through the flusher's pass: the collector fails, nothing is delivered, the queue file
// is untouched and its spans are all still there for the next pass.
TEST(Queue, FailedFlushPassDoesNotRewriteTheQueue) {
  TempDir d;
  TelemetryOptions o;
  o.exporter.enabled = true;
  o.exporter.endpoint = "http://127.0.0.1:9/v1/traces";
  o.data_dir = d.path();
  SpanQueue q(queue_options(o));
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(q.append(line_for(i)).ok());
  ASSERT_TRUE(q.counters());
  const FileTimes before = times_of(q.queue_path(), d.path());
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  int sends = 0;
  SendFn down = [&](const http::Request&, Deadline) -> Result<http::Response> {
    ++sends;
    return make_error(ErrorCode::kIo, "connection refused");
  };
  for (int pass = 0; pass < 3; ++pass) {
    FlushReport rep = flush_queue(o, down, Deadline::after(std::chrono::milliseconds(5000)));
    EXPECT_TRUE(rep.gave_up);
    EXPECT_EQ(rep.delivered, 0u);
  }
  EXPECT_EQ(sends, 3);
  EXPECT_TRUE(times_of(q.queue_path(), d.path()) == before) << "a failed pass rewrote the queue";
  auto c = q.counters();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->retries, 3);
  EXPECT_EQ(c->last_status, -1);
  EXPECT_EQ(q.snapshot(100)->records.size(), 20u);
}

// Runs `f` in a forked child and returns the growth of the child's peak RSS over it, in KiB (the
// peak is reset first, so the pages the fork inherited do not count); *ok = what f returned.
// The reader ran (ok) and its peak RSS grew by at most 8 MiB; the bound only in normal builds.
void expect_reader_growth_bounded(bool ok, long growth_kib) {
  EXPECT_TRUE(ok);
  EXPECT_GE(growth_kib, 0);
  if (pinta::testing::rss_bounds_meaningful())
    EXPECT_LE(growth_kib, 8 * 1024) << "peak RSS growth (KiB) of the reader";
  else
    std::cout << "peak RSS bound not checked under " << pinta::testing::sanitizer() << "\n";
}

long peak_rss_growth_kib(const std::function<bool()>& f, bool* ok) {
  int pipefd[2];
  if (::pipe(pipefd) != 0) return -1;
  pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    auto status_kib = [](const char* key) {
      std::ifstream in("/proc/self/status");
      std::string k;
      long v = -1;
      while (in >> k) {
        if (k == key) {
          in >> v;
          break;
        }
      }
      return v;
    };
    ::close(pipefd[0]);
    { std::ofstream("/proc/self/clear_refs") << "5"; }  // reset VmHWM to VmRSS (Linux >= 4.0)
    const long before = status_kib("VmRSS:");
    const bool result = f();
    const long growth = status_kib("VmHWM:") - before;
    (void)!::write(pipefd[1], &growth, sizeof growth);
    ::_exit(result ? 0 : 1);
  }
  ::close(pipefd[1]);
  long growth = -1;
  if (::read(pipefd[0], &growth, sizeof growth) != static_cast<ssize_t>(sizeof growth)) growth = -1;
  ::close(pipefd[0]);
  int st = 0;
  ::waitpid(pid, &st, 0);
  *ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
  return growth;
}

// The lock-free give-up counter never follows a link planted in its place (a line over the cap
// is what it counts without any lock).
TEST(Queue, UnwrittenCounterNeverFollowsALink) {
  TempDir d;
  QueueOptions o{d.sub("data"), 100, 20};
  SpanQueue q(o);
  ASSERT_TRUE(q.append(line_for(0)).ok());
  ASSERT_TRUE(fs::atomic_write(d.sub("victim"), "keep\n").ok());
  ASSERT_EQ(::symlink(d.sub("victim").c_str(), fs::join(o.dir, kQueueUnwrittenFile).c_str()), 0);
  EXPECT_FALSE(q.append(std::string(kMaxQueueLineBytes + 1, 'x')).ok());
  EXPECT_EQ(fs::read_file(d.sub("victim")).value_or(""), "keep\n");
}

// The flusher's reader on a 2 GiB sparse file (zeros, no newline) followed by a real span: its
// memory stays bounded and the span is found; the hole is dropped.
TEST(Queue, HugeSparseFileIsReadInBoundedMemory) {
  TempDir d;
  SpanQueue q({d.path(), 100});
  ASSERT_TRUE(q.append(line_for(0)).ok());  // creates the files
  {
    int fd = ::open(q.queue_path().c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, off_t{2} << 30), 0);
    ::close(fd);
  }
  {
    std::ofstream(q.queue_path(), std::ios::app | std::ios::binary) << '\n' << line_for(5) << '\n';
  }
  bool ok = false;
  const long growth = peak_rss_growth_kib(
      [&] {
        auto s = q.snapshot(4096, 4u << 20);
        return s && s->records.size() == 1 && s->prefix_lines == 1 && s->skip_bytes > 0 &&
               q.remove({}, s->corrupt_lines, {}, s->skip_bytes).ok();
      },
      &ok);
  expect_reader_growth_bounded(ok, growth);
  auto s = q.snapshot(100);
  ASSERT_TRUE(s);
  EXPECT_EQ(indices(*s), (std::vector<int>{5}));
  EXPECT_EQ(s->skip_bytes, 0u);
}

// A queue of real garbage (40 MiB: 3 MiB lines with no span in them, short foreign lines), then a
// span: the reader's memory does not follow the file (the old reader held it all, ~3x over).
TEST(Queue, GarbageQueueIsReadInBoundedMemory) {
  TempDir d;
  SpanQueue q({d.path(), 100});
  ASSERT_TRUE(q.append(line_for(0)).ok());
  {
    std::ofstream f(q.queue_path(), std::ios::binary | std::ios::trunc);
    const std::string big(3u << 20, 'g');
    for (int i = 0; i < 13; ++i) f << big << '\n' << "not a span " << i << '\n';
    f << line_for(9) << '\n';
  }
  bool ok = false;
  const long growth = peak_rss_growth_kib(
      [&] {
        auto s = q.snapshot(4096, 4u << 20);
        if (!s || s->records.size() != 1) return false;
        QueueCounters delta;
        delta.corrupt = static_cast<int64_t>(s->corrupt_lines.size());
        return q.remove({}, s->corrupt_lines, delta, s->skip_bytes).ok();
      },
      &ok);
  expect_reader_growth_bounded(ok, growth);
  auto s = q.snapshot(100);
  ASSERT_TRUE(s);
  EXPECT_EQ(indices(*s), (std::vector<int>{9}));
  EXPECT_TRUE(s->corrupt_lines.empty());
  auto text = fs::read_file(q.queue_path());
  EXPECT_EQ(std::count(text->begin(), text->end(), '\n'), 1) << "the garbage was not removed";
}

TEST(Queue, LineSpanIdNeedsTheExactPrefix) {
  EXPECT_EQ(queue_line_span_id(R"({"spanId":"0123456789abcdef","x":1})"), "0123456789abcdef");
  EXPECT_EQ(queue_line_span_id(R"({"spanId":"0123456789ABCDEF","x":1})"), "");
  EXPECT_EQ(queue_line_span_id(R"({"spanId":"0123456789abcdef","x":1)"), "");
  EXPECT_EQ(queue_line_span_id(R"( {"spanId":"0123456789abcdef","x":1})"), "");
}

// ---- trace store (SPEC §10, DG7) ----

// ---- delivery without storms or duplicates (Guard integrity, item 6) ----

// The span ids in an OTLP request body, in order.
std::vector<std::string> ids_in(const std::string& body) {
  std::vector<std::string> out;
  json j = json::parse(body, nullptr, false);
  if (!j.is_object()) return out;
  for (const json& rs : j.value("resourceSpans", json::array()))
    for (const json& ss : rs.value("scopeSpans", json::array()))
      for (const json& sp : ss.value("spans", json::array())) out.push_back(sp.value("spanId", ""));
  return out;
}

TelemetryOptions delivery_options(const std::string& dir) {
  TelemetryOptions o;
  o.exporter.enabled = true;
  o.exporter.endpoint = "http://127.0.0.1:9/v1/traces";
  o.data_dir = dir;
  o.max_request_bytes = 4096;  // two or three spans per POST: many batches per round
  return o;
}

Result<http::Response> answer(int status, std::string retry_after = "") {
  http::Response r;
  r.status = status;
  if (!retry_after.empty()) r.headers = {{"Retry-After", retry_after}};
  return r;
}

// Retry-After never shortens the back-off. Before, `Retry-After: 0` (or a date in the past)
// replaced the computed wait with 0: a collector answering 429 that way got 4,283 POSTs in 6 s.
TEST(Delivery, RetryAfterNeverShortensTheBackOff) {
  TelemetryOptions o;
  o.backoff_initial = std::chrono::milliseconds(500);
  o.backoff_max = std::chrono::milliseconds(8000);
  for (int64_t failures = 1; failures <= 12; ++failures) {
    for (uint32_t rnd : {0u, 1u, 7777u, 0xffffffffu}) {
      const auto none = backoff_wait(o, failures, std::chrono::milliseconds(-1), rnd);
      EXPECT_GE(none.count(), 250) << failures;  // half of the initial 500 at least
      EXPECT_LE(none.count(), 8000) << failures;
      for (int64_t ra : {int64_t{-1}, int64_t{0}, int64_t{1}}) {
        EXPECT_EQ(backoff_wait(o, failures, std::chrono::milliseconds(ra), rnd), none) << ra;
      }
      // Longer: obeyed up to the cap.
      EXPECT_EQ(backoff_wait(o, failures, std::chrono::milliseconds(7900), rnd).count(),
                std::max<int64_t>(7900, none.count()));
      EXPECT_EQ(backoff_wait(o, failures, std::chrono::seconds(999999999), rnd).count(), 8000);
    }
  }
  // The absolute floor, even with a tiny configured back-off; never over the cap.
  o.backoff_initial = std::chrono::milliseconds(1);
  EXPECT_GE(backoff_wait(o, 1, std::chrono::milliseconds(0), 0).count(), kMinBackoffMs);
  o.backoff_max = std::chrono::milliseconds(30);
  EXPECT_EQ(backoff_wait(o, 1, std::chrono::milliseconds(0), 0).count(), 30);
  EXPECT_EQ(backoff_wait(o, 1, std::chrono::seconds(5), 0).count(), 30);
  // In a pass: 250 ms doubling; Retry-After only lengthens.
  EXPECT_EQ(retry_wait_in_pass(0, std::chrono::milliseconds(0)).count(), 250);
  EXPECT_EQ(retry_wait_in_pass(2, std::chrono::milliseconds(-1)).count(), 1000);
  EXPECT_EQ(retry_wait_in_pass(0, std::chrono::milliseconds(3000)).count(), 3000);
}

// The same through a pass: a collector answering 429 with a Retry-After of 0, in the past, negative
// or garbage gets 3 POSTs in 1.5 s (at 0, 250 and 750 ms; the next wait, 1 s, is past the
// deadline). Before: 5 POSTs at once (Retry-After 0 taken as the wait), then the pass ended and
// the flusher started the next one at once.
TEST(Delivery, RetryAfterZeroOrPastDoesNotRepeatAPostAtOnce) {
  for (const std::string ra : {"0", "Sun, 06 Nov 1994 08:49:37 GMT", "-5", "soon"}) {
    SCOPED_TRACE(ra);
    TempDir d;
    TelemetryOptions o = delivery_options(d.path());
    SpanQueue q(queue_options(o));
    ASSERT_TRUE(q.append(line_for(0)).ok());
    int sends = 0;
    SendFn busy = [&](const http::Request&, Deadline) -> Result<http::Response> {
      ++sends;
      return answer(429, ra);
    };
    FlushReport rep = flush_queue(o, busy, Deadline::after(std::chrono::milliseconds(1500)));
    EXPECT_TRUE(rep.gave_up);
    EXPECT_LE(sends, 3);
    EXPECT_GE(sends, 1);
    EXPECT_EQ(q.snapshot(10)->records.size(), 1u) << "the span stays queued";
  }
}

// A 2xx answer is delivery whatever its body: the OTLP POST cuts a body over the cap instead of
// failing (the flusher sets Request::truncate_body). Before, a 200 with a body over 1 MiB was "no
// answer" and the accepted spans were sent again.
TEST(Delivery, AResponseBodyOverTheCapIsCutNotAFailure) {
  const std::string big(3u << 20, 'x');
  for (const std::string& raw :
       {"HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(big.size()) + "\r\n\r\n" + big,
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + [&] {
          std::string c;
          for (int i = 0; i < 3; ++i) c += "100000\r\n" + big.substr(0, 1u << 20) + "\r\n";
          return c + "0\r\n\r\n";
        }(),
        "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + big}) {
    auto strict = http::parse_response(raw, 1u << 20);
    ASSERT_FALSE(strict);
    EXPECT_EQ(strict.error().code, ErrorCode::kTooLarge);
    auto cut = http::parse_response(raw, 1u << 20, false, 0, /*truncate_body=*/true);
    ASSERT_TRUE(cut) << cut.error().message;
    EXPECT_EQ(cut->status, 200);
    EXPECT_TRUE(cut->body_truncated);
    EXPECT_LE(cut->body.size(), 1u << 20);
    EXPECT_EQ(otlp::classify_response(cut->status, "", cut->body, 0).verdict,
              otlp::Verdict::kDelivered);
  }
  // The flusher asks for it on every POST.
  TempDir d;
  TelemetryOptions o = delivery_options(d.path());
  SpanQueue q(queue_options(o));
  ASSERT_TRUE(q.append(line_for(0)).ok());
  bool asked = false;
  SendFn up = [&](const http::Request& r, Deadline) -> Result<http::Response> {
    asked = r.truncate_body;
    return answer(200);
  };
  FlushReport rep = flush_queue(o, up, Deadline::after(std::chrono::milliseconds(5000)));
  EXPECT_TRUE(asked);
  EXPECT_EQ(rep.delivered, 1u);
}

// Spans leave the queue per acknowledged batch: a flusher killed in the middle of a round sends
// again at most the batch it was sending. The child flusher delivers three batches and dies (no
// cleanup, as under SIGKILL) while sending the fourth; the next flusher sends only what was not
// acknowledged. Before, the queue was cut once per round of up to 8,192 spans, so everything the
// child had delivered went out again (40 kills: 901 spans, 4,123 deliveries).
TEST(Delivery, AKilledFlusherResendsAtMostTheBatchInFlight) {
  TempDir d;
  TelemetryOptions o = delivery_options(d.path());
  SpanQueue q(queue_options(o));
  constexpr int kSpans = 40;
  for (int i = 0; i < kSpans; ++i) ASSERT_TRUE(q.append(line_for(i)).ok());
  int ids_pipe[2];
  ASSERT_EQ(::pipe(ids_pipe), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::close(ids_pipe[0]);
    int posts = 0;
    SendFn dies = [&](const http::Request& r, Deadline) -> Result<http::Response> {
      if (++posts == 4) ::_exit(0);  // killed mid-POST
      std::string ids;
      for (const std::string& id : ids_in(r.body)) ids += id + "\n";
      (void)!::write(ids_pipe[1], ids.data(), ids.size());
      return answer(200);
    };
    (void)flush_queue(o, dies, Deadline::after(std::chrono::milliseconds(10000)));
    ::_exit(1);
  }
  ::close(ids_pipe[1]);
  std::string first;
  char buf[4096];
  for (ssize_t n; (n = ::read(ids_pipe[0], buf, sizeof buf)) > 0;) first.append(buf, static_cast<size_t>(n));
  ::close(ids_pipe[0]);
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  std::set<std::string> delivered_first;
  for (size_t at = 0; at + 16 < first.size() + 1; at += 17) delivered_first.insert(first.substr(at, 16));
  ASSERT_GE(delivered_first.size(), 3u);

  std::multiset<std::string> second;
  SendFn up = [&](const http::Request& r, Deadline) -> Result<http::Response> {
    for (const std::string& id : ids_in(r.body)) second.insert(id);
    return answer(200);
  };
  FlushReport rep = flush_queue(o, up, Deadline::after(std::chrono::milliseconds(10000)));
  EXPECT_FALSE(rep.gave_up) << rep.error;
  for (const std::string& id : second) EXPECT_EQ(delivered_first.count(id), 0u) << id << " sent twice";
  EXPECT_EQ(second.size() + delivered_first.size(), static_cast<size_t>(kSpans));
  auto c = q.counters();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->delivered, kSpans) << "the child's batches were counted as they were answered";
  EXPECT_EQ(c->head, 0) << "the round's rewrite cut the answered bytes off";
  EXPECT_TRUE(q.snapshot(100)->records.empty());
}

// A queue that cannot be rewritten (a full disk; here a file-size limit the state file fits
// under) still advances: the answered batch is not sent again by the next pass. Before, the
// rewrite that takes answered spans out failed and the same spans went out on every pass (a flaky
// collector on a full disk: the same 8 spans 20 times in 15 s, the queue never advancing).
TEST(Delivery, AQueueThatCannotBeRewrittenStillAdvances) {
  TempDir d;
  TelemetryOptions o = delivery_options(d.path());
  SpanQueue q(queue_options(o));
  for (int i = 0; i < 12; ++i) ASSERT_TRUE(q.append(line_for(i)).ok());
  ASSERT_TRUE(q.counters());
  int ids_pipe[2];
  ASSERT_EQ(::pipe(ids_pipe), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::close(ids_pipe[0]);
    ::signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim {2048, 2048};  // the state file fits, a rewrite of the rest does not
    ::setrlimit(RLIMIT_FSIZE, &lim);
    int posts = 0;
    SendFn flaky = [&](const http::Request& r, Deadline) -> Result<http::Response> {
      if (++posts > 1) return make_error(ErrorCode::kUnavailable, "connection reset");
      std::string ids;
      for (const std::string& id : ids_in(r.body)) ids += id;
      (void)!::write(ids_pipe[1], ids.data(), ids.size());
      return answer(200);
    };
    for (int pass = 0; pass < 3; ++pass)
      (void)flush_queue(o, flaky, Deadline::after(std::chrono::milliseconds(5000)));
    ::_exit(posts == 4 ? 0 : 10 + posts);  // one delivery, then one failed POST per pass
  }
  ::close(ids_pipe[1]);
  std::string first;
  char buf[4096];
  for (ssize_t n; (n = ::read(ids_pipe[0], buf, sizeof buf)) > 0;) first.append(buf, static_cast<size_t>(n));
  ::close(ids_pipe[0]);
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << WEXITSTATUS(st);
  ASSERT_GE(first.size(), 16u);
  std::set<std::string> delivered_first;
  for (size_t at = 0; at + 16 <= first.size(); at += 16) delivered_first.insert(first.substr(at, 16));
  std::multiset<std::string> second;
  SendFn up = [&](const http::Request& r, Deadline) -> Result<http::Response> {
    for (const std::string& id : ids_in(r.body)) second.insert(id);
    return answer(200);
  };
  FlushReport rep = flush_queue(o, up, Deadline::after(std::chrono::milliseconds(10000)));
  EXPECT_FALSE(rep.gave_up) << rep.error;
  for (const std::string& id : second) EXPECT_EQ(delivered_first.count(id), 0u) << id << " sent again";
  EXPECT_EQ(second.size() + delivered_first.size(), 12u);
}

// A span that cannot be written anywhere and whose count cannot be written either (a full disk;
// here RLIMIT_FSIZE 0: no file may grow) is still counted: an empty mark file needs no data
// block, and the flusher folds the marks into `unwritten`. Before, the direct append's failure
// was not counted at all and the one-byte tally could not grow: 307 spans lost on a full disk
// while the state said `unwritten: 0`.
TEST(Delivery, SpansLostToAFullDiskAreCounted) {
  TempDir d;
  SpanQueue q({d.path(), 100});
  ASSERT_TRUE(q.append(line_for(0)).ok());
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim {0, 0};
    ::setrlimit(RLIMIT_FSIZE, &lim);
    int failed = 0;
    for (int i = 1; i <= 10; ++i) failed += q.append(line_for(i)).ok() ? 0 : 1;
    ::_exit(failed);
  }
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 10) << "every append failed";
  auto marks = [&] {
    size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(d.path()))
      n += e.path().filename().string().rfind(std::string(kQueueUnwrittenMarkPrefix), 0) == 0;
    return n;
  };
  EXPECT_EQ(q.unwritten(), 10);
  EXPECT_EQ(marks(), 10u) << "unwritten() only reads (doctor calls it)";
  ASSERT_TRUE(q.count({}).ok());
  EXPECT_EQ(q.counters()->unwritten, 10);
  // The marks were folded into the tally (room again): counted once, not twice.
  for (const auto& e : std::filesystem::directory_iterator(d.path()))
    EXPECT_NE(e.path().filename().string().rfind(std::string(kQueueUnwrittenMarkPrefix), 0), 0u)
        << e.path();
  EXPECT_EQ(q.unwritten(), 10);
  EXPECT_TRUE(side_files(d.path()).empty());
  EXPECT_TRUE(side_files(d.path(), true).empty());
  EXPECT_EQ(q.snapshot(100)->records.size(), 1u);
}

// What killed flushers and writers leave (rewrite temp files, `.part` side files) is removed by
// the next pass once its writer is gone or it is older than 60 s; foreign files are never
// touched: links, directories, files with another link, names outside the exact pattern, files
// of a live writer. Before, rewrite temp files (9.6 MB, 7.4 MB seen) stayed for good, and a
// `.part` was only looked at when a whole side file happened to be there too.
TEST(Delivery, LeftoversOfKilledWritersAreSweptForeignFilesAreNot) {
  TempDir d;
  TempDir outside;
  pid_t dead = ::fork();
  ASSERT_GE(dead, 0);
  if (dead == 0) ::_exit(0);
  ASSERT_EQ(::waitpid(dead, nullptr, 0), dead);
  const std::string live = std::to_string(::getppid());  // alive, and not the flusher itself
  const std::string gone = std::to_string(dead);
  auto put = [&](const std::string& name, size_t size, int age_s) {
    const std::string p = fs::join(d.path(), name);
    ASSERT_TRUE(fs::atomic_write(p, std::string(size, 'z')).ok()) << p;
    if (age_s > 0) {
      struct timespec t[2];
      ::clock_gettime(CLOCK_REALTIME, &t[0]);
      t[0].tv_sec -= age_s;
      t[1] = t[0];
      ASSERT_EQ(::utimensat(AT_FDCWD, p.c_str(), t, AT_SYMLINK_NOFOLLOW), 0);
    }
  };
  const std::vector<std::string> swept = {
      "failed-spans.jsonl.tmp." + gone + ".17",        // dead writer
      "failed-spans.jsonl.tmp." + live + ".18",        // live pid, but 2 min old
      "failed-spans.side." + gone + ".19.part",        // dead writer
      "failed-spans.side." + live + ".20.part"};       // 2 min old
  put(swept[0], 9000, 0);
  put(swept[1], 9000, 120);
  put(swept[2], 100, 0);
  put(swept[3], 100, 120);
  const std::vector<std::string> kept = {
      "failed-spans.jsonl.tmp." + live + ".21",        // a live writer's, fresh
      "failed-spans.side." + live + ".22.part",        // a live writer's, fresh
      "failed-spans.jsonl.tmp.x" + gone + ".23",       // not our pattern
      "failed-spans.jsonl.tmp." + gone,                // not our pattern
      "other.tmp." + gone + ".24"};
  put(kept[0], 10, 0);
  put(kept[1], 10, 0);
  put(kept[2], 10, 120);
  put(kept[3], 10, 120);
  put(kept[4], 10, 120);
  // A link named like ours (to a file outside), a file with a second link, a directory.
  const std::string target = fs::join(outside.path(), "victim");
  ASSERT_TRUE(fs::atomic_write(target, "precious").ok());
  const std::string link = fs::join(d.path(), "failed-spans.jsonl.tmp." + gone + ".25");
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  const std::string hard = fs::join(d.path(), "failed-spans.side." + gone + ".26.part");
  ASSERT_EQ(::link(target.c_str(), hard.c_str()), 0);
  const std::string dir = fs::join(d.path(), "failed-spans.jsonl.tmp." + gone + ".27");
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);

  TelemetryOptions o = delivery_options(d.path());
  int sends = 0;
  SendFn up = [&](const http::Request&, Deadline) -> Result<http::Response> {
    ++sends;
    return answer(200);
  };
  FlushReport rep = flush_queue(o, up, Deadline::after(std::chrono::milliseconds(5000)));
  EXPECT_FALSE(rep.gave_up);
  EXPECT_EQ(sends, 0);
  struct stat st {};
  for (const std::string& n : swept) EXPECT_NE(::lstat(fs::join(d.path(), n).c_str(), &st), 0) << n << " left";
  for (const std::string& n : kept) EXPECT_EQ(::lstat(fs::join(d.path(), n).c_str(), &st), 0) << n << " removed";
  EXPECT_EQ(::lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(::lstat(hard.c_str(), &st), 0);
  EXPECT_EQ(::lstat(dir.c_str(), &st), 0);
  EXPECT_EQ(fs::read_file(target).value_or(""), "precious");
  EXPECT_EQ(rep.corrupt, 2u) << "each swept .part is a span lost with its writer";
  EXPECT_EQ(SpanQueue(queue_options(o)).counters()->corrupt, 2);
}

// A poison batch does not stop the queue: the batch at the head fails every time (here the
// collector answers 503 to any request holding one span) while the collector takes other batches.
// After kPoisonTries failed attempts the batch after it is tried; it goes through, so the stuck
// batch is moved to the poison file, counted `poisoned`, and the rest is delivered. Before, the
// stuck batch was retried for ever and nothing behind it was ever sent.
TEST(Delivery, APoisonBatchIsQuarantinedAndTheQueueGoesOn) {
  TempDir d;
  TelemetryOptions o = delivery_options(d.path());
  SpanQueue q(queue_options(o));
  constexpr int kSpans = 12;
  for (int i = 0; i < kSpans; ++i) ASSERT_TRUE(q.append(line_for(i)).ok());
  const std::string poison = q.snapshot(1)->records.at(0)["spanId"].get<std::string>();
  std::set<std::string> delivered;
  int refused = 0;
  SendFn picky = [&](const http::Request& r, Deadline) -> Result<http::Response> {
    const auto ids = ids_in(r.body);
    if (std::find(ids.begin(), ids.end(), poison) != ids.end()) {
      ++refused;
      return answer(503);
    }
    delivered.insert(ids.begin(), ids.end());
    return answer(200);
  };
  FlushReport last;
  for (int pass = 0; pass < 30 && q.maybe_nonempty(); ++pass)
    last = flush_queue(o, picky, Deadline::after(std::chrono::milliseconds(300)));
  EXPECT_FALSE(last.gave_up) << last.error;
  EXPECT_GE(refused, kPoisonTries);
  auto c = q.counters();
  ASSERT_TRUE(c);
  EXPECT_GE(c->poisoned, 1);
  EXPECT_EQ(c->poisoned + c->delivered, kSpans);
  EXPECT_EQ(delivered.size() + static_cast<size_t>(c->poisoned), static_cast<size_t>(kSpans));
  EXPECT_EQ(delivered.count(poison), 0u);
  auto kept = fs::read_file(fs::join(d.path(), std::string(kQueuePoisonFile)));
  ASSERT_TRUE(kept);
  EXPECT_EQ(std::count(kept->begin(), kept->end(), '\n'), c->poisoned);
  EXPECT_NE(kept->find(poison), std::string::npos);
  EXPECT_TRUE(q.snapshot(100)->records.empty());
}

// An outage is not poison: with every batch failing (no answer, or 503 to everything), the batch
// after the stuck one fails too, so nothing is moved aside however long it lasts.
TEST(Delivery, AnOutageIsNeverTakenForPoison) {
  for (int status : {0, 503}) {
    SCOPED_TRACE(status);
    TempDir d;
    TelemetryOptions o = delivery_options(d.path());
    SpanQueue q(queue_options(o));
    for (int i = 0; i < 12; ++i) ASSERT_TRUE(q.append(line_for(i)).ok());
    int sends = 0;
    SendFn down = [&](const http::Request&, Deadline) -> Result<http::Response> {
      ++sends;
      if (status == 0) return make_error(ErrorCode::kUnavailable, "connection refused");
      return answer(status);
    };
    // A short pass: one POST each (the in-pass wait does not fit), so many tries are quick.
    for (int pass = 0; pass < 3 * static_cast<int>(kPoisonTries); ++pass)
      (void)flush_queue(o, down, Deadline::after(std::chrono::milliseconds(100)));
    EXPECT_GT(sends, 2 * static_cast<int>(kPoisonTries));
    auto c = q.counters();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->poisoned, 0);
    EXPECT_EQ(q.snapshot(100)->records.size(), 12u);
    EXPECT_FALSE(fs::exists(fs::join(d.path(), std::string(kQueuePoisonFile))));
  }
}

CanonicalEvent gem(const char* hook, const char* session) {
  return normalize(Family::kGemini, "gemini", hook, json{{"session_id", session}});
}
CanonicalEvent agy(const char* hook, const char* conv, json extra = json::object()) {
  extra["conversationId"] = conv;
  return normalize(Family::kAntigravity, "antigravity", hook, extra);
}

TEST(TraceRules, WhichEventsStartATrace) {
  EXPECT_TRUE(starts_new_trace(gem("BeforeAgent", "s")));
  EXPECT_FALSE(starts_new_trace(gem("BeforeTool", "s")));
  EXPECT_FALSE(starts_new_trace(gem("SessionStart", "s")));
  EXPECT_TRUE(starts_new_trace(agy("PreInvocation", "c", {{"invocationNum", 0}})));
  EXPECT_FALSE(starts_new_trace(agy("PreInvocation", "c", {{"invocationNum", 1}})));
  EXPECT_FALSE(starts_new_trace(agy("PreInvocation", "c")));
  EXPECT_FALSE(starts_new_trace(agy("PreToolUse", "c", {{"invocationNum", 0}})));
}

// The reader has a shortcut for the line format serialize() writes; an entry written some other
// way (keys reordered, blanks) must still be found and reused through the full parser.
TEST(TraceStore, HandFormattedEntryIsStillReused) {
  TempDir d;
  TraceOptions o{d.sub("data")};
  ASSERT_TRUE(fs::make_dirs(o.dir, 0700).ok());
  const std::string id = "0123456789abcdef0123456789abcdef";
  ASSERT_TRUE(fs::atomic_write(fs::join(o.dir, kTraceFile),
                               "{\n\"gemini:s1\": { \"traceId\": \"" + id + "\", \"updated\": 1500, \"created\": 1000 }\n}\n",
                               0600).ok());
  auto r = trace_for(o, "gemini:s1", false, 2000);
  EXPECT_FALSE(r.created);
  EXPECT_EQ(r.trace_id, id);
}

TEST(TraceStore, ReuseWithinSessionNewOnForceAndUnknown) {
  TempDir d;
  TraceOptions o{d.sub("data")};
  auto a = trace_for(o, "gemini:s1", false, 1000);
  EXPECT_TRUE(a.created);
  EXPECT_TRUE(a.stored);
  EXPECT_EQ(a.trace_id.size(), 32u);
  auto b = trace_for(o, "gemini:s1", false, 2000);
  EXPECT_FALSE(b.created);
  EXPECT_EQ(b.trace_id, a.trace_id);
  auto other = trace_for(o, "gemini:s2", false, 2000);
  EXPECT_NE(other.trace_id, a.trace_id);
  auto c = trace_for(o, "gemini:s1", true, 3000);
  EXPECT_TRUE(c.created);
  EXPECT_NE(c.trace_id, a.trace_id);
  EXPECT_EQ(trace_for(o, "gemini:s1", false, 4000).trace_id, c.trace_id);
  // The file is a valid JSON object keyed by session.
  json j = json::parse(*fs::read_file(fs::join(o.dir, kTraceFile)));
  EXPECT_EQ(j["gemini:s1"]["traceId"], c.trace_id);
  EXPECT_EQ(j["gemini:s2"]["traceId"], other.trace_id);
}

TEST(TraceStore, EmptyKeyGivesAFreshUnstoredTrace) {
  TempDir d;
  TraceOptions o{d.path()};
  auto a = trace_for(o, "", false, 1);
  auto b = trace_for(o, "", false, 1);
  EXPECT_NE(a.trace_id, b.trace_id);
  EXPECT_FALSE(fs::exists(fs::join(o.dir, kTraceFile)));
}

TEST(TraceStore, BoundedBySessionsAndAge) {
  TempDir d;
  TraceOptions o{d.path()};
  o.max_sessions = 5;
  o.max_age_ms = 10000;
  for (int i = 0; i < 8; ++i) (void)trace_for(o, "k" + std::to_string(i), false, 1000 + i);
  json j = json::parse(*fs::read_file(fs::join(o.dir, kTraceFile)));
  EXPECT_EQ(j.size(), 5u);
  EXPECT_FALSE(j.contains("k0"));
  EXPECT_TRUE(j.contains("k7"));
  // Much later: everything idle expires; an old key is unknown again → a new trace.
  std::string old = j["k7"]["traceId"];
  auto later = trace_for(o, "k7", false, 1000000);
  EXPECT_TRUE(later.created);
  EXPECT_NE(later.trace_id, old);
  EXPECT_EQ(json::parse(*fs::read_file(fs::join(o.dir, kTraceFile))).size(), 1u);
}

TEST(TraceStore, CorruptFileIsReplacedNotFatal) {
  TempDir d;
  TraceOptions o{d.path()};
  ASSERT_TRUE(fs::atomic_write(fs::join(o.dir, kTraceFile), "{not json").ok());
  auto a = trace_for(o, "x", false, 5);
  EXPECT_TRUE(a.created);
  EXPECT_TRUE(json::parse(*fs::read_file(fs::join(o.dir, kTraceFile))).is_object());
}

TEST(TraceStore, ConcurrentWritersKeepTheFileValid) {
  TempDir d;
  TraceOptions o{d.path()};
  o.lock_timeout_ms = 20000;  // this test is about lost updates, not about the hot-path wait
  std::vector<pid_t> kids;
  for (int p = 0; p < 6; ++p) {
    pid_t pid = ::fork();
    if (pid == 0) {
      for (int i = 0; i < 30; ++i) (void)trace_for(o, "p" + std::to_string(p) + "-" + std::to_string(i), i % 3 == 0, 100 + i);
      ::_exit(0);
    }
    kids.push_back(pid);
  }
  for (pid_t k : kids) ::waitpid(k, nullptr, 0);
  json j = json::parse(*fs::read_file(fs::join(o.dir, kTraceFile)), nullptr, false);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j.size(), 180u);  // no lost update
}

// Events of a new session start together: all miss the lock-free read, then queue on the lock.
// One that finds, under the lock, the entry written while it waited takes it and leaves the file
// alone (every event rewriting trace.json in turn made the 64-writer tail).
TEST(TraceStore, AWriterThatWaitedTakesTheEntryWrittenMeanwhileWithoutRewriting) {
  TempDir d;
  TraceOptions o{d.path()};
  o.lock_timeout_ms = 20000;
  const std::string path = fs::join(o.dir, kTraceFile);
  auto held = fs::FileLock::acquire(path + ".lock");
  ASSERT_TRUE(held);
  std::optional<TraceLookup> got;
  std::thread waiter([&] { got = trace_for(o, "gemini:s1", false, 2000); });
  // The waiter has missed the lock-free read (no file yet) and now waits for the lock.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const std::string id = "0123456789abcdef0123456789abcdef";
  const std::string written =
      "{\n\"gemini:s1\": {\"created\":1990,\"traceId\":\"" + id + "\",\"updated\":1990}\n}\n";
  ASSERT_TRUE(fs::atomic_write(path, written, 0600).ok());
  { auto release = std::move(*held); }
  waiter.join();
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->trace_id, id);
  EXPECT_FALSE(got->created);
  EXPECT_FALSE(got->stored) << "trace.json was rewritten";
  EXPECT_EQ(fs::read_file(path).value_or(""), written);
}

// While the lock stays held (its holder preempted, or writing another session's entry), a waiter
// that finds its entry in the file takes it: it does not wait for the lock at all.
TEST(TraceStore, AWaiterTakesTheEntryWrittenMeanwhileWhileTheLockIsStillHeld) {
  TempDir d;
  TraceOptions o{d.path()};
  o.lock_timeout_ms = 3000;  // the previous code waited this long, then made a fresh, unstored id
  const std::string path = fs::join(o.dir, kTraceFile);
  auto held = fs::FileLock::acquire(path + ".lock");
  ASSERT_TRUE(held);
  std::optional<TraceLookup> got;
  std::thread waiter([&] { got = trace_for(o, "gemini:s1", false, 2000); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const std::string id = "0123456789abcdef0123456789abcdef";
  ASSERT_TRUE(fs::atomic_write(path, "{\n\"gemini:s1\":{\"created\":1990,\"traceId\":\"" + id +
                                         "\",\"updated\":1990}\n}\n", 0600).ok());
  waiter.join();  // the lock is still held
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->trace_id, id);
  EXPECT_FALSE(got->created);
  EXPECT_FALSE(got->stored);
}

// An entry only due for its refresh is used as it is when the lock is busy (the refresh is left
// to the holder or the next event), not waited for.
TEST(TraceStore, AnEntryDueForRefreshIsTakenWhenTheLockIsBusy) {
  TempDir d;
  TraceOptions o{d.path()};
  o.lock_timeout_ms = 3000;
  o.refresh_ms = 100;
  const std::string path = fs::join(o.dir, kTraceFile);
  const std::string id = "0123456789abcdef0123456789abcdef";
  ASSERT_TRUE(fs::make_private_dir(o.dir).ok());
  ASSERT_TRUE(fs::atomic_write(path, "{\n\"gemini:s1\":{\"created\":1000,\"traceId\":\"" + id +
                                         "\",\"updated\":1000}\n}\n", 0600).ok());
  auto held = fs::FileLock::acquire(path + ".lock");
  ASSERT_TRUE(held);
  TraceLookup got = trace_for(o, "gemini:s1", false, 5000);  // due for refresh (4 s > 100 ms)
  EXPECT_EQ(got.trace_id, id);
  EXPECT_FALSE(got.created);
  EXPECT_FALSE(got.stored);
  { auto release = std::move(*held); }
  TraceLookup later = trace_for(o, "gemini:s1", false, 5000);  // lock free: refreshed now
  EXPECT_EQ(later.trace_id, id);
  EXPECT_TRUE(later.stored);
}

TEST(Ids, UlidTraceIdsCarryTheTimeAndSpanIdsAreHex) {
  std::string t = new_trace_id(0x0123456789ab);
  EXPECT_EQ(t.substr(0, 12), "0123456789ab");
  EXPECT_TRUE(check::is_lower_hex(t, 32));
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string s = new_span_id();
    EXPECT_TRUE(check::is_lower_hex(s, 16));
    seen.insert(s);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

// ---- the host's trace context (docs/contract.md TRACE) ----

constexpr std::string_view kHostTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
constexpr std::string_view kHostSpan = "00f067aa0ba902b7";
const std::string kTraceParent = "00-" + std::string(kHostTrace) + "-" + std::string(kHostSpan) + "-01";

TEST(TraceParent, AVersion00ValueGivesTheHostsIds) {
  HostParent p;
  ASSERT_TRUE(parse_traceparent(kTraceParent, p));
  EXPECT_EQ(p.trace_id, kHostTrace);
  EXPECT_EQ(p.span_id, kHostSpan);
  // The flags are read for form only: an unsampled host span is still the parent.
  ASSERT_TRUE(parse_traceparent("00-" + std::string(kHostTrace) + "-" + std::string(kHostSpan) + "-00", p));
  ASSERT_TRUE(parse_traceparent("00-" + std::string(kHostTrace) + "-" + std::string(kHostSpan) + "-ff", p));
}

TEST(TraceParent, AnythingElseIsNotATraceContextAndLeavesTheOutputAlone) {
  const std::string t(kHostTrace), s(kHostSpan);
  const std::vector<std::string> bad = {
      "",
      "00",
      kTraceParent.substr(0, 54),                        // one byte short
      kTraceParent + "0",                                // one byte long
      kTraceParent + "-extra",                           // a later version's extra field
      " " + kTraceParent.substr(1),                      // leading space, same length
      kTraceParent.substr(0, 54) + " ",                  // trailing space, same length
      "01-" + t + "-" + s + "-01",                       // another version
      "ff-" + t + "-" + s + "-01",                       // the invalid version
      "0a-" + t + "-" + s + "-01",
      "00-" + std::string(32, '0') + "-" + s + "-01",    // all-zero trace id
      "00-" + t + "-" + std::string(16, '0') + "-01",    // all-zero parent id
      "00-4BF92F3577B34DA6A3CE929D0E0E4736-" + s + "-01",  // upper case
      "00-" + t + "-00F067AA0BA902B7-01",
      "00-" + t + "-" + s + "-0G",                       // flags not hex
      "00-" + t + "-" + s + "-0A",
      "00_" + t + "-" + s + "-01",                       // wrong separators
      "00-" + t + "_" + s + "-01",
      "00-" + t + "-" + s + "_01",
      "00-" + t.substr(0, 31) + "g-" + s + "-01",        // a non-hex digit in each id
      "00-" + t + "-" + s.substr(0, 15) + "z-01",
      "00-" + t.substr(0, 31) + "--" + s + "-01",        // the separator moved
      std::string("00-") + t.substr(0, 16) + std::string(1, '\0') + t.substr(17) + "-" + s + "-01",
  };
  for (const auto& v : bad) {
    HostParent p{"kept", "kept"};
    EXPECT_FALSE(parse_traceparent(v, p)) << json(v).dump(-1, ' ', false, json::error_handler_t::replace);
    EXPECT_EQ(p.trace_id, "kept");
    EXPECT_EQ(p.span_id, "kept");
  }
}

TEST(TraceParent, WorkIsBoundedWhateverTheLength) {
  // A value longer than 55 bytes is rejected on its length, even one that starts as a valid one.
  std::string huge(1u << 20, '0');
  huge.replace(0, kTraceParent.size(), kTraceParent);
  HostParent p;
  EXPECT_FALSE(parse_traceparent(huge, p));
}

// Every label of every family whose payload shape names a trace source: the environment's value
// wins over the payload's; a malformed or absent one falls through to the other; neither gives
// nothing. A label without a source ignores a traceparent wherever it is.
TEST(TraceParent, HostParentReadsWhereTheFamilySaysEnvironmentFirst) {
  const std::string other = "00-" + std::string(32, 'a') + "-" + std::string(16, 'b') + "-01";
  size_t labels_with_a_source = 0;
  for (const auto& d : hosts::families()) {
    for (auto label : d.agent_labels) {
      if (label.empty()) continue;
      const hosts::PayloadShape& shape = hosts::payload_shape(d.id, label);
      SCOPED_TRACE(std::string(label));
      auto event = [&](json payload) {
        return normalize(d.id, label, std::string(d.gate_event), std::move(payload));
      };
      // Every member name a host might use, so a label without a source proves it reads none.
      json with_payload = {{"traceparent", other}, {"TRACEPARENT", other}};
      if (!shape.trace_parent_key.empty()) with_payload[std::string(shape.trace_parent_key)] = other;
      std::map<std::string, std::string> env = {{"TRACEPARENT", kTraceParent}};
      if (!shape.trace_parent_env.empty()) env[std::string(shape.trace_parent_env)] = kTraceParent;
      if (shape.trace_parent_env.empty() && shape.trace_parent_key.empty()) {
        EXPECT_FALSE(host_parent(event(with_payload), env_of(env)));
        continue;
      }
      ++labels_with_a_source;
      if (!shape.trace_parent_env.empty()) {
        auto p = host_parent(event(with_payload), env_of(env));
        ASSERT_TRUE(p);
        EXPECT_EQ(p->trace_id, kHostTrace);  // the environment's, not the payload's
        EXPECT_EQ(p->span_id, kHostSpan);
        // A malformed environment value is passed over for the payload's.
        env[std::string(shape.trace_parent_env)] = kTraceParent + " ";
        auto q = host_parent(event(with_payload), env_of(env));
        if (!shape.trace_parent_key.empty()) {
          ASSERT_TRUE(q);
          EXPECT_EQ(q->trace_id, std::string(32, 'a'));
        } else {
          EXPECT_FALSE(q);
        }
      }
      if (!shape.trace_parent_key.empty()) {
        const std::string key(shape.trace_parent_key);
        auto p = host_parent(event({{key, kTraceParent}}), env_of({}));
        ASSERT_TRUE(p);
        EXPECT_EQ(p->span_id, kHostSpan);
        // Not a string, malformed, nested instead of top level: nothing.
        for (const json& bad : {json{{key, 1}}, json{{key, json::array({kTraceParent})}},
                                json{{key, kTraceParent.substr(1)}}, json{{key, nullptr}},
                                json{{"toolArgs", {{key, kTraceParent}}}}, json{{"tool_input", {{key, kTraceParent}}}}}) {
          EXPECT_FALSE(host_parent(event(bad), env_of({}))) << bad.dump();
        }
      }
      EXPECT_FALSE(host_parent(event(json::object()), env_of({})));
      EXPECT_FALSE(host_parent(event(json::array()), env_of({})));
    }
  }
  // Some registered family passes a trace context (a test that loops over none checks nothing).
  EXPECT_GT(labels_with_a_source, 0u);
}

// The span of an event with a host parent: the host's trace id, parentSpanId = the host's span,
// our own span id; without one, no parentSpanId at all. Both pass the independent OTLP checker.
TEST(TraceParent, TheSpanIsAChildOfTheHostsSpan) {
  json payload = {{"session_id", "s"}, {"tool_name", "t"}, {"tool_input", json::object()}};
  CanonicalEvent ev = normalize(Family::kGemini, "gemini", "BeforeTool", payload);
  SpanInput in;
  in.event = &ev;
  in.start_unix_nanos = 1764670211342000000;
  in.end_unix_nanos = in.start_unix_nanos + 1000;
  const std::string own = new_span_id();
  for (bool child : {true, false}) {
    otlp::SpanIds ids{std::string(kHostTrace), own, child ? std::string(kHostSpan) : std::string()};
    json span = json::parse(otlp::encode_span(in, ids));
    EXPECT_EQ(span["traceId"], kHostTrace);
    EXPECT_EQ(span["spanId"], own);
    if (child) EXPECT_EQ(span["parentSpanId"], kHostSpan);
    else EXPECT_FALSE(span.contains("parentSpanId"));
    const std::string res = otlp::resource_attributes(otlp::local_resource(ev.family));
    check::Findings f = check::check_request(otlp::encode_request({SpanRecord{res, span.dump()}}));
    EXPECT_TRUE(f.ok()) << ::testing::PrintToString(f.errors);
  }
}

}  // namespace
}  // namespace pinta::adapter
