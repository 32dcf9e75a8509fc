// Span building bounds: OTel SDK span limits (attribute count 128, value length, a per-span byte
// cap, droppedAttributesCount), work linear in the number of payload fields, a time budget after
// which the span is written truncated, and secret-named fields / secrets used as keys redacted.
// Every span is decoded by the independent checker (otlp_json_validator.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <ctime>
#include <string>

#include "otlp_json_validator.h"
#include "pinta/adapter/normalize.h"
#include "pinta/adapter/otlp.h"
#include "pinta/adapter/redact.h"

namespace pinta::adapter {
namespace {

using nlohmann::json;
namespace check = pinta::testing::otlp_check;

json encode(const json& payload, const otlp::SpanLimits* limits = nullptr,
            std::string* text = nullptr) {
  const CanonicalEvent ev = normalize(Family::kGemini, "gemini", "AfterTool", payload);
  SpanInput in;
  in.event = &ev;
  in.start_unix_nanos = 1764670211342000123;
  in.end_unix_nanos = 1764670211343000123;
  const otlp::SpanIds ids{"0123456789abcdef0123456789abcdef", "0123456789abcdef"};
  const std::string span =
      limits ? otlp::encode_span(in, ids, *limits) : otlp::encode_span(in, ids);
  if (text) *text = span;
  const check::Findings f = check::check_request(otlp::encode_request({SpanRecord{"[]", span}}));
  EXPECT_TRUE(f.ok()) << (f.errors.empty() ? "" : f.errors.front());
  return json::parse(span);
}

json many_fields(std::size_t n) {
  json p = {{"session_id", "s"}, {"hook_event_name", "AfterTool"}, {"tool_name", "read_file"}};
  for (std::size_t i = 0; i < n; ++i) p["f" + std::to_string(i)] = static_cast<int64_t>(i);
  return p;
}

TEST(SpanLimits, AtMost128AttributesAndTheRestCounted) {
  const json payload = many_fields(300);
  const json span = encode(payload);
  ASSERT_LE(span["attributes"].size(), 128u);
  ASSERT_TRUE(span.contains("droppedAttributesCount")) << span.dump().substr(0, 300);
  // Every payload field either became an attribute or was counted.
  std::size_t payload_attrs = 0;
  for (const json& kv : span["attributes"])
    if (kv["key"].get<std::string>().rfind("gemini.f", 0) == 0 ||
        kv["key"] == "gemini.session_id" || kv["key"] == "gemini.hook_event_name" ||
        kv["key"] == "gemini.tool_name")
      ++payload_attrs;
  EXPECT_EQ(payload_attrs + span["droppedAttributesCount"].get<std::size_t>(), payload.size());
  EXPECT_EQ(check::attribute(span, "pinta.span.truncated"), json({{"stringValue", "count"}}));
}

TEST(SpanLimits, SmallSpansAreNotMarked) {
  const json span = encode(many_fields(10));
  EXPECT_FALSE(span.contains("droppedAttributesCount"));
  EXPECT_TRUE(check::attribute(span, "pinta.span.truncated").is_null());
}

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

double encode_cost(std::size_t fields) {
  const json payload = many_fields(fields);
  double best = 1e9;
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = cpu_seconds();
    (void)encode(payload);
    best = std::min(best, cpu_seconds() - t0);
  }
  return best;
}

// 300 k top-level fields took 87 s (a linear scan for duplicate keys per field). Linear: 8x the
// fields ≈ 8x the time (dominated by the payload walk; building stops at the attribute limit).
TEST(SpanLimits, WorkIsLinearInTheNumberOfFields) {
  const double small = std::max(encode_cost(5000), 1e-4);
  const double big = encode_cost(40000);
  EXPECT_LT(big / small, 24.0) << small << " s for 5 k fields, " << big << " s for 40 k";
}

TEST(SpanLimits, SpanBytesAreCapped) {
  json payload = {{"hook_event_name", "AfterTool"}};
  for (int i = 0; i < 40; ++i) payload["v" + std::to_string(i)] = std::string(90000, 'a' + i % 26);
  std::string text;
  // A generous time budget: a sanitized build must hit the size cap, not the deadline.
  otlp::SpanLimits generous;
  generous.time_budget = std::chrono::milliseconds(120000);
  const json span = encode(payload, &generous, &text);
  const otlp::SpanLimits limits;
  EXPECT_LE(text.size(), limits.max_span_bytes + 1024);
  EXPECT_GT(span["droppedAttributesCount"].get<int>(), 0);
  EXPECT_EQ(check::attribute(span, "pinta.span.truncated"), json({{"stringValue", "size"}}));
}

TEST(SpanLimits, ValuesAreCappedAtTheValueLimit) {
  otlp::SpanLimits limits;
  limits.max_value_bytes = 1000;
  const json span = encode({{"hook_event_name", "AfterTool"},
                            {"text", std::string(5000, 'x')},
                            {"obj", {{"a", std::string(5000, 'y')}}}},
                           &limits);
  EXPECT_LE(check::attribute(span, "gemini.text")["stringValue"].get<std::string>().size(), 1000u);
  EXPECT_LE(check::attribute(span, "gemini.obj")["stringValue"].get<std::string>().size(), 1000u);
}

TEST(SpanLimits, AnExpiredBudgetWritesATruncatedSpanWithoutSecrets) {
  const std::string tok = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
  json payload = many_fields(50);
  payload["tool_response"] = "export GITHUB_TOKEN=" + tok;
  WorkBudget budget(std::chrono::nanoseconds(0));
  otlp::SpanLimits limits;
  limits.budget = &budget;
  std::string text;
  const json span = encode(payload, &limits, &text);
  EXPECT_EQ(text.find(tok), std::string::npos);
  EXPECT_EQ(check::attribute(span, "pinta.span.truncated"), json({{"stringValue", "deadline"}}));
  EXPECT_GT(span["droppedAttributesCount"].get<int>(), 50);
  EXPECT_EQ(span["name"], "gemini.after_tool");
}

TEST(SpanRedaction, SecretNamedFieldsAndSecretKeysNeverReachTheSpan) {
  const std::string tok = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
  const json payload = {
      {"hook_event_name", "BeforeTool"},
      {"password", "hunter2"},
      {"tool_input", {{"client_secret", "abc"}, {tok, "x"}, {"max_tokens", 1024}}}};
  std::string text;
  const json span = encode(payload, nullptr, &text);
  EXPECT_EQ(text.find("hunter2"), std::string::npos) << text;
  EXPECT_EQ(text.find(tok), std::string::npos) << text;
  EXPECT_EQ(text.find("\\\"abc\\\""), std::string::npos) << text;
  EXPECT_EQ(check::attribute(span, "gemini.password"),
            json({{"stringValue", "[REDACTED:secret_field]"}}));
  EXPECT_NE(check::attribute(span, "gemini.tool_input")["stringValue"].get<std::string>().find(
                "\"max_tokens\":1024"),
            std::string::npos);
}

}  // namespace
}  // namespace pinta::adapter
