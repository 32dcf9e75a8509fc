// File: pinta/adapter/otlp.h
// OTLP/HTTP JSON export (seed SPEC §9): where spans go (endpoint and header precedence), how one
// hook event becomes one span, how queued spans become one ExportTraceServiceRequest, and what a
// collector's answer means (OTLP/HTTP retry rules). Pure functions: no I/O, no clock, no network,
// so every rule is unit-testable; the queue (span_queue.h) and the flusher do the I/O.
//
// Encoding follows the OTLP JSON mapping (opentelemetry-proto, docs/specification.md "JSON
// Protobuf Encoding"): lowerCamelCase field names, traceId/spanId as lowercase hex (not base64),
// 64-bit integers (times, intValue) as decimal strings, enums as integers, typed AnyValue.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "pinta/adapter/redact.h"
#include "pinta/adapter/seams.h"
#include "pinta/adapter/span_queue.h"

namespace pinta::adapter::otlp {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// Where and how to export. enabled == false: telemetry is off and nothing is written anywhere.
struct ExportConfig {
  bool enabled = false;
  std::string endpoint;     // full URL of the traces endpoint
  std::string endpoint_from;  // which variable gave it (for doctor/debug; never a value)
  HeaderList headers;       // extra request headers (values are secrets: never logged)
};

using Getenv = std::function<const char*(const char*)>;

// SPEC §9.1: endpoint GEMINI_PLUGIN_OPTION_ENDPOINT > OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (both used
// as given) > OTEL_EXPORTER_OTLP_ENDPOINT + "/v1/traces"; the first non-empty one wins, and it must
// be an http:// or https:// URL or telemetry stays off. Headers GEMINI_PLUGIN_OPTION_HEADERS >
// OTEL_EXPORTER_OTLP_HEADERS (first non-empty wins, W3C list); GEMINI_PLUGIN_OPTION_API_KEY, when
// set, is sent as x-pinta-relay-token (replacing one from the list).
ExportConfig export_config(const Getenv& getenv);
ExportConfig export_config_from_environment();

// W3C Baggage-style list used by OTEL_EXPORTER_OTLP_HEADERS: `k=v,k2=v2`, whitespace around
// entries trimmed, keys and values percent-decoded; entries without '=' or with an empty key are
// skipped (counted in `bad`).
HeaderList parse_header_list(std::string_view text, size_t* bad = nullptr);
std::string percent_decode(std::string_view s);

// "BeforeTool" → "before_tool", "PreToolUse" → "pre_tool_use", "SessionStart" → "session_start".
std::string snake_case(std::string_view hook);

// Resource of every span this process emits (service.name, host.*, process.*).
struct ResourceInfo {
  std::string service_name;  // family_service_name(): gemini-cli | antigravity | deel-local-cli (SPEC §9.2)
  std::string service_version;
  std::string host_name;
  std::string host_arch;  // OTel semantic convention values: amd64, arm64, ...
  int64_t pid = 0;
  int64_t parent_pid = 0;
  std::string executable_name;
};
ResourceInfo local_resource(Family family);
// OTLP KeyValue list of the resource, as JSON text.
std::string resource_attributes(const ResourceInfo& r);

// The ids of one span. trace_id: 32 lowercase hex, span_id: 16 lowercase hex; parent_span_id:
// the host's span it is a child of (16 lowercase hex), "" for a root span.
struct SpanIds {
  std::string trace_id;
  std::string span_id;
  std::string parent_span_id;
};

// The OpenTelemetry semantic-conventions release the gen_ai.* span attributes follow (v1.41.1:
// the last release that holds the GenAI conventions; docs/contract.md OTLP-3a).
inline constexpr std::string_view kGenAiSemconvVersion = "1.41.1";

// One OTLP Span (JSON mapping) for one hook event. Every string that comes from the payload is
// redacted (pinta::adapter::redact_*) before it is put in, identifier fields included: those the
// family's schema defines (identifiers.h) are only never masked for their name (SPEC §11
// skip-list); nothing is copied from the payload unredacted. Attributes: ingest.type,
// <prefix>.hook, <prefix>.agent, <prefix>.<key> per top-level payload field (Bronze, §9.3: strings/numbers/bools typed, objects,
// arrays and null as their JSON text), antigravity.product (when known), pinta.guard.decision and
// pinta.guard.matched_rule (when a guard verdict exists); beside them the OpenTelemetry GenAI
// semantic-convention attributes (kGenAiSemconvVersion; docs/contract.md OTLP-3a):
// gen_ai.operation.name = execute_tool and gen_ai.tool.name on tool events with a named tool,
// gen_ai.conversation.id (session / conversation id), gen_ai.agent.name (the host),
// gen_ai.provider.name (where the host's model provider is known). Returned as compact JSON text,
// written directly rather than through a JSON tree: this runs on every hook event (ci/bench.sh
// benchmark).
//
// Limits (OTel SDK span limits, so work and size after the reply are bounded whatever the payload):
// at most max_attributes attributes (SDK AttributeCountLimit, 128), string values capped at
// max_value_bytes (AttributeValueLengthLimit), the span text at about max_span_bytes; attributes
// left out are counted in droppedAttributesCount and named by `pinta.span.truncated`
// ("count" | "size" | "deadline"). The work is linear in the payload and bounded by a time budget
// (`budget`, or time_budget from the call): when it runs out the span is written with what was
// encoded so far, the rest dropped and counted; no string is written half-redacted.
struct SpanLimits {
  std::size_t max_attributes = 128;
  std::size_t max_value_bytes = 102400;  // = kMaxStringBytes (redact.h)
  std::size_t max_span_bytes = 1u << 20;
  std::chrono::milliseconds time_budget{200};
  WorkBudget* budget = nullptr;  // the caller's budget; when null, time_budget from now
};
std::string encode_span(const SpanInput& input, const SpanIds& ids, const SpanLimits& limits = {});

// A queue line: {"spanId":"<16 hex>","resource":[KeyValue...],"span":{Span}} (one JSON object,
// no newline), from the texts resource_attributes() and encode_span() gave. spanId comes first
// so a line's key can be read without parsing it.
std::string queue_line(std::string_view span_id, std::string_view resource_attrs, std::string_view span);

// The ExportTraceServiceRequest for a batch of queue records (SpanQueue::load), their texts
// spliced in as they are (no document is built: the flusher's cost per span is a copy). Spans
// with the same resource text share one ResourceSpans, in first-seen order; one ScopeSpans per
// resource (scope pinta-gemini).
std::string encode_request(const std::vector<SpanRecord>& records);

// What to do with a batch after the collector answered (OTLP/HTTP spec "Failures", "Retryable
// Response Codes", "Partial Success").
enum class Verdict {
  kDelivered,  // 2xx: done (rejected spans counted, never retried)
  kRetry,      // 429, 502, 503, 504, or no answer (refused, timeout, reset): keep, try later
  kDrop,       // any other status: the collector will never take it
};
struct ExportResult {
  Verdict verdict = Verdict::kRetry;
  int64_t rejected_spans = 0;             // partialSuccess.rejectedSpans on a 2xx
  std::chrono::milliseconds retry_after{-1};  // from Retry-After (seconds or HTTP-date); -1 if none
};
// status 0 = no HTTP answer. retry_after_header: the Retry-After value ("" if absent); now_unix:
// wall clock seconds, used for the HTTP-date form.
ExportResult classify_response(int status, std::string_view retry_after_header, std::string_view body,
                               int64_t now_unix_seconds);

}  // namespace pinta::adapter::otlp
