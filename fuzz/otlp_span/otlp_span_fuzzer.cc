// Harness: OTLP span encoder (pinta/adapter/otlp.h encode_span, queue_line, encode_request),
// decoded by the independent validator adapter/test/otlp_json_validator.h (written from
// opentelemetry-proto, shares no code with adapter/src/telemetry/otlp.cc; used read-only).
// Properties, for any hook payload (1-3 events, any family, hook name, guard verdict, times):
//  1. total: encoding never throws or crashes, whatever the payload bytes (invalid UTF-8 included);
//  2. round-trip: the ExportTraceServiceRequest built from the queue lines decodes with zero
//     findings (unknown fields, non-hex ids, non-decimal 64-bit ints, AnyValue shape) and yields
//     exactly as many spans as were encoded, each with the traceId/spanId it was given, its name
//     `<prefix>.<snake_case(hook)>`, and endTime >= startTime;
//  3. the queue line is one JSON object on one line whose leading spanId is the span's
//     (queue_line_span_id agrees with the decoder);
//  4. no payload field is lost: every top-level key that is plain ASCII [A-Za-z0-9_.-]{1,32}
//     appears as attribute `<prefix>.<key>`, with booleans and in-range integers decoded to the
//     same value (boolValue / intValue decimal string), and attribute keys are unique;
//  5. OTel span limits: at most 128 attributes; a span that left fields out says so
//     (droppedAttributesCount and pinta.span.truncated), and then properties 4 and 6 are not
//     checked;
//  6. GenAI attributes (docs/contract.md OTLP-3a): gen_ai.operation.name = execute_tool and
//     gen_ai.tool.name exactly on tool events with a named tool, gen_ai.conversation.id exactly
//     when there is a session id, gen_ai.agent.name always.
// Input layout: count byte, then per event: family byte, hook string, guard byte, time bytes (8),
// payload string (JSON if it parses to an object, else {"text": <bytes>}).
#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "../../adapter/test/otlp_json_validator.h"
#include "fuzz_support.h"
#include "pinta/adapter/handler.h"
#include "pinta/adapter/normalize.h"
#include "pinta/adapter/otlp.h"
#include "pinta/adapter/redact.h"
#include "pinta/adapter/span_queue.h"
#include "pinta/hosts/family.h"

namespace {

namespace ad = pinta::adapter;
namespace otlp = pinta::adapter::otlp;
namespace check = pinta::testing::otlp_check;
using nlohmann::json;

const std::array<const char*, 8> kHooks = {"BeforeTool", "AfterAgent", "PreToolUse", "Stop",
                                           "SessionStart", "", "a b-c", "BeforeToolSelection"};

bool plain_key(const std::string& k) {
  if (k.empty() || k.size() > 32) return false;
  for (char c : k)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '.' || c == '-'))
      return false;
  return true;
}

std::string hex(uint64_t v, size_t digits) {
  static const char* d = "0123456789abcdef";
  std::string s(digits, '0');
  for (size_t i = 0; i < digits; ++i) s[digits - 1 - i] = d[(v >> (4 * (i % 16))) & 15];
  return s;
}

// One event of an input: what was encoded, and what its span must show.
struct One {
  ad::CanonicalEvent ev;
  ad::GuardVerdict guard;
  bool has_guard = false;
  otlp::SpanIds ids;
  json payload;
};

// The decoded span of `o`: found by its id, named and timed as encoded, its attributes unique,
// within the limits, and (when nothing was cut) holding the GenAI attributes and every plain key
// of the payload.
void check_span(const One& o, const check::Findings& f) {
  const std::string prefix(pinta::hosts::descriptor(o.ev.family).prefix);
  const json* found = nullptr;
  for (const json& s : f.spans)
    if (s.value("spanId", "") == o.ids.span_id) found = &s;
  FUZZ_CHECK(found != nullptr, "span " + o.ids.span_id + " lost");
  const json& s = *found;
  FUZZ_CHECK(s.value("traceId", "") == o.ids.trace_id, "traceId changed");
  FUZZ_CHECK(s.value("name", "") == prefix + "." + otlp::snake_case(o.ev.hook), "span name");
  FUZZ_CHECK(std::stoull(s.value("endTimeUnixNano", "0")) >=
                 std::stoull(s.value("startTimeUnixNano", "0")),
             "end before start");
  std::set<std::string> keys;
  for (const json& kv : s["attributes"])
    FUZZ_CHECK(keys.insert(kv.value("key", "")).second, "duplicate attribute key");
  // OTel span limits: at most 128 attributes; fields left out are counted.
  FUZZ_CHECK(s["attributes"].size() <= 128, "more than 128 attributes");
  const bool truncated = s.contains("droppedAttributesCount");
  FUZZ_CHECK(truncated == !check::attribute(s, "pinta.span.truncated").is_null(),
             "droppedAttributesCount without pinta.span.truncated (or the reverse)");
  if (truncated) return;  // which fields were kept is then up to the limits
  // GenAI attributes (docs/contract.md OTLP-3a): execute_tool and gen_ai.tool.name exactly on a
  // tool event with a named tool; a conversation id exactly when there is a session id.
  const bool tool = o.ev.tool_event && !o.ev.tool_name.empty();
  FUZZ_CHECK(check::attribute(s, "gen_ai.operation.name") ==
                 (tool ? json{{"stringValue", "execute_tool"}} : json()),
             "gen_ai.operation.name");
  FUZZ_CHECK(check::attribute(s, "gen_ai.tool.name").is_null() == !tool, "gen_ai.tool.name");
  FUZZ_CHECK(check::attribute(s, "gen_ai.conversation.id").is_null() == o.ev.session_id.empty(),
             "gen_ai.conversation.id");
  FUZZ_CHECK(!check::attribute(s, "gen_ai.agent.name").is_null(), "gen_ai.agent.name");
  for (auto it = o.payload.begin(); it != o.payload.end(); ++it) {
    // Keys that are not plain, that the redactor rewrites (a secret-shaped key), or that collide
    // with the encoder's own attributes (<prefix>.hook, <prefix>.agent, antigravity.product).
    if (!plain_key(it.key()) || ad::redact_string(it.key(), 256) != it.key()) continue;
    if (it.key() == "hook" || it.key() == "agent" || it.key() == "product") continue;
    const json v = check::attribute(s, prefix + "." + it.key());
    FUZZ_CHECK(!v.is_null(), "payload key " + it.key() + " lost");
    if (it->is_boolean())
      FUZZ_CHECK(v.value("boolValue", !it->get<bool>()) == it->get<bool>(), "bool " + it.key());
    if (it->is_number_integer() && !it->is_number_unsigned())
      FUZZ_CHECK(v.value("intValue", "") == std::to_string(it->get<int64_t>()),
                 "int " + it.key());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pinta::fuzz::Bytes in(data, size);
  const size_t n = 1 + in.byte() % 3;
  std::vector<One> events(n);
  std::vector<ad::SpanRecord> records;
  for (size_t i = 0; i < n; ++i) {
    One& o = events[i];
    const uint8_t fam = in.byte();
    // Every registered family (pinta/hosts/family.h): a new family's spans are fuzzed by
    // registering it.
    const auto& fd = pinta::hosts::families()[fam % pinta::hosts::families().size()];
    const ad::Family family = fd.id;
    std::string hook = (fam & 2) ? in.string(48) : std::string(kHooks[(fam >> 2) % kHooks.size()]);
    const uint8_t g = in.byte();
    o.has_guard = (g & 4) != 0;
    o.guard.decision = static_cast<ad::GuardVerdict::Decision>(g % 4);
    if (g & 8) o.guard.matched_rule = "rule-" + std::to_string(g);
    // Built unsigned, then kept to [0, INT64_MAX - 255] so `start + g` below cannot overflow
    // (shifting a negative int64 and start + g near INT64_MAX were signed overflow: UBSan).
    uint64_t bits = 0;
    for (int b = 0; b < 8; ++b) bits = (bits << 8) | in.byte();
    const int64_t start = static_cast<int64_t>(std::min<uint64_t>(bits >> 1, INT64_MAX - 255));
    const std::string text = in.string(8192);
    o.payload = json::parse(text, nullptr, false);
    if (!o.payload.is_object()) o.payload = json{{"text", text}};
    o.ev = ad::normalize(family, fd.agent_labels[0], hook, o.payload);
    // Ids are never all zero (OTLP: an all-zero traceId/spanId is invalid; the adapter makes them
    // from getrandom, so a zero id is not an input it can meet).
    o.ids = {hex((static_cast<uint64_t>(start) * 2654435761u + i) | 1u, 32), hex(0x1000 + i * 7919 + g, 16)};
    ad::SpanInput si;
    si.event = &o.ev;
    si.guard = o.has_guard ? &o.guard : nullptr;
    si.start_unix_nanos = start;
    si.end_unix_nanos = (g & 16) ? start - 1 : start + g;
    ad::SpanRecord parts{otlp::resource_attributes(otlp::local_resource(family)), otlp::encode_span(si, o.ids)};
    const std::string line = otlp::queue_line(o.ids.span_id, parts.resource, parts.span);
    FUZZ_CHECK(line.find('\n') == std::string::npos, "queue line spans lines");
    FUZZ_CHECK(ad::queue_line_span_id(line) == o.ids.span_id, "queue_line_span_id disagrees");
    json rec = json::parse(line, nullptr, false);
    FUZZ_CHECK(rec.is_object(), "queue line is not a JSON object: " + line.substr(0, 200));
    records.push_back(std::move(parts));
  }
  const std::string body = otlp::encode_request(records);
  const check::Findings f = check::check_request(body);
  FUZZ_CHECK(f.ok(), "validator: " + (f.errors.empty() ? std::string() : f.errors.front()));
  FUZZ_CHECK(f.spans.size() == n, "decoded " + std::to_string(f.spans.size()) + " spans of " +
                                      std::to_string(n));
  for (const One& o : events) check_span(o, f);
  return 0;
}
