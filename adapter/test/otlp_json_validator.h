// A strict, independent checker of OTLP/HTTP JSON trace requests, written from
// opentelemetry-proto (collector/trace/v1/trace_service.proto, trace/v1/trace.proto,
// common/v1/common.proto, resource/v1/resource.proto) and its JSON mapping rules (OTLP
// specification, "JSON Protobuf Encoding"): field names lowerCamelCase, traceId/spanId hex (not
// base64), enums as integers, 64-bit integers as decimal strings (a number is accepted by proto3
// JSON parsers but flagged here as non-canonical), unknown fields rejected, AnyValue has exactly
// one of its value fields. It shares no code with adapter/src/telemetry/otlp.cc: it is what a test
// decodes the encoder's output with.
//
// The schema itself is checked against the official .proto files by otlp_proto_check.js
// (protobufjs, adapter/test/otlp_proto_process_test.cc). This checker stays because it runs where
// Node.js does not (in-process: unit tests, property tests, the otlp_span fuzzer) and because it
// checks what no .proto can say: attribute keys unique within a list (OTel common spec: keys MUST
// be unique), end time not before start time, and our encoder's canonical form (lowercase hex ids,
// where OTLP/JSON only requires hex in any case).
#pragma once

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pinta::testing::otlp_check {

using nlohmann::json;

struct Findings {
  std::vector<std::string> errors;
  std::vector<json> spans;  // every span found, for further checks
  void add(const std::string& where, const std::string& what) { errors.push_back(where + ": " + what); }
  bool ok() const { return errors.empty(); }
};

inline bool only_fields(const json& j, std::initializer_list<const char*> allowed, const std::string& where,
                        Findings& f) {
  if (!j.is_object()) {
    f.add(where, "not an object");
    return false;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    for (const char* a : allowed) known |= it.key() == a;
    if (!known) f.add(where, "unknown field '" + it.key() + "'");
  }
  return true;
}

inline bool is_lower_hex(const std::string& s, size_t len) {
  if (s.size() != len) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

inline bool is_decimal(const std::string& s, bool allow_minus) {
  if (s.empty()) return false;
  size_t i = (allow_minus && s[0] == '-') ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

// int64/uint64/fixed64: canonical = decimal string.
inline void check_int64(const json& v, bool is_signed, const std::string& where, Findings& f) {
  if (v.is_string()) {
    if (!is_decimal(v.get<std::string>(), is_signed)) f.add(where, "64-bit integer string is not decimal");
    else if (v.get<std::string>().size() > 20) f.add(where, "64-bit integer out of range");
    return;
  }
  if (v.is_number_integer()) {
    f.add(where, "64-bit integer encoded as a JSON number (OTLP JSON: decimal string)");
    return;
  }
  f.add(where, "64-bit integer has wrong JSON type");
}

inline void check_uint32(const json& v, const std::string& where, Findings& f) {
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0)) f.add(where, "not a uint32 number");
}

inline void check_key_values(const json& arr, const std::string& where, Findings& f, int depth);

inline void check_any_value(const json& v, const std::string& where, Findings& f, int depth) {
  if (depth > 32) {
    f.add(where, "nesting too deep");
    return;
  }
  if (!only_fields(v, {"stringValue", "boolValue", "intValue", "doubleValue", "arrayValue", "kvlistValue", "bytesValue"},
                   where, f))
    return;
  if (v.size() > 1) f.add(where, "AnyValue has more than one value field (oneof)");
  if (v.contains("stringValue") && !v["stringValue"].is_string()) f.add(where, "stringValue not a string");
  if (v.contains("stringValue") && v["stringValue"].is_string()) {
    // proto3 strings must be valid UTF-8; nlohmann already rejected invalid bytes at parse.
  }
  if (v.contains("boolValue") && !v["boolValue"].is_boolean()) f.add(where, "boolValue not a bool");
  if (v.contains("intValue")) check_int64(v["intValue"], true, where + ".intValue", f);
  if (v.contains("doubleValue") && !v["doubleValue"].is_number()) f.add(where, "doubleValue not a number");
  if (v.contains("bytesValue") && !v["bytesValue"].is_string()) f.add(where, "bytesValue not a base64 string");
  if (v.contains("arrayValue")) {
    const json& a = v["arrayValue"];
    if (only_fields(a, {"values"}, where + ".arrayValue", f) && a.contains("values")) {
      if (!a["values"].is_array()) f.add(where, "arrayValue.values not an array");
      else
        for (size_t i = 0; i < a["values"].size(); ++i)
          check_any_value(a["values"][i], where + ".arrayValue.values[" + std::to_string(i) + "]", f, depth + 1);
    }
  }
  if (v.contains("kvlistValue")) {
    const json& a = v["kvlistValue"];
    if (only_fields(a, {"values"}, where + ".kvlistValue", f) && a.contains("values"))
      check_key_values(a["values"], where + ".kvlistValue.values", f, depth + 1);
  }
}

inline void check_key_values(const json& arr, const std::string& where, Findings& f, int depth) {
  if (!arr.is_array()) {
    f.add(where, "attributes not an array");
    return;
  }
  std::set<std::string> keys;
  for (size_t i = 0; i < arr.size(); ++i) {
    std::string w = where + "[" + std::to_string(i) + "]";
    const json& kv = arr[i];
    if (!only_fields(kv, {"key", "value"}, w, f)) continue;
    if (!kv.contains("key") || !kv["key"].is_string()) {
      f.add(w, "key missing or not a string");
      continue;
    }
    if (!keys.insert(kv["key"].get<std::string>()).second) f.add(w, "duplicate attribute key " + kv["key"].dump());
    if (kv.contains("value")) check_any_value(kv["value"], w + ".value", f, depth + 1);
  }
}

inline void check_span(const json& s, const std::string& where, Findings& f) {
  if (!only_fields(s, {"traceId", "spanId", "traceState", "parentSpanId", "flags", "name", "kind", "startTimeUnixNano",
                       "endTimeUnixNano", "attributes", "droppedAttributesCount", "events", "droppedEventsCount",
                       "links", "droppedLinksCount", "status"},
                   where, f))
    return;
  f.spans.push_back(s);
  if (!s.contains("traceId") || !s["traceId"].is_string() || !is_lower_hex(s["traceId"].get<std::string>(), 32) ||
      s["traceId"].get<std::string>() == std::string(32, '0'))
    f.add(where, "traceId must be 32 lowercase hex digits, not all zero");
  if (!s.contains("spanId") || !s["spanId"].is_string() || !is_lower_hex(s["spanId"].get<std::string>(), 16) ||
      s["spanId"].get<std::string>() == std::string(16, '0'))
    f.add(where, "spanId must be 16 lowercase hex digits, not all zero");
  if (s.contains("parentSpanId") && s["parentSpanId"] != "" &&
      !(s["parentSpanId"].is_string() && is_lower_hex(s["parentSpanId"].get<std::string>(), 16)))
    f.add(where, "parentSpanId must be empty or 16 lowercase hex digits");
  if (!s.contains("name") || !s["name"].is_string() || s["name"].get<std::string>().empty())
    f.add(where, "name missing");
  if (s.contains("kind") && !(s["kind"].is_number_integer() && s["kind"].get<int64_t>() >= 0 && s["kind"].get<int64_t>() <= 5))
    f.add(where, "kind must be an integer enum 0..5");
  for (const char* t : {"startTimeUnixNano", "endTimeUnixNano"}) {
    if (!s.contains(t)) f.add(where, std::string(t) + " missing");
    else check_int64(s[t], false, where + "." + t, f);
  }
  if (s.contains("startTimeUnixNano") && s.contains("endTimeUnixNano") && s["startTimeUnixNano"].is_string() &&
      s["endTimeUnixNano"].is_string()) {
    auto a = s["startTimeUnixNano"].get<std::string>(), b = s["endTimeUnixNano"].get<std::string>();
    if (a.size() > b.size() || (a.size() == b.size() && a > b)) f.add(where, "end before start");
  }
  if (s.contains("attributes")) check_key_values(s["attributes"], where + ".attributes", f, 0);
  for (const char* c : {"droppedAttributesCount", "droppedEventsCount", "droppedLinksCount", "flags"})
    if (s.contains(c)) check_uint32(s[c], where + "." + c, f);
  if (s.contains("status")) {
    const json& st = s["status"];
    if (only_fields(st, {"message", "code"}, where + ".status", f) && st.contains("code") &&
        !(st["code"].is_number_integer() && st["code"].get<int64_t>() >= 0 && st["code"].get<int64_t>() <= 2))
      f.add(where, "status.code must be an integer enum 0..2");
  }
}

// Validates a whole ExportTraceServiceRequest body.
inline Findings check_request(const std::string& body) {
  Findings f;
  json j = json::parse(body, nullptr, false);
  if (j.is_discarded()) {
    f.add("body", "not JSON");
    return f;
  }
  if (!only_fields(j, {"resourceSpans"}, "request", f)) return f;
  if (!j.contains("resourceSpans") || !j["resourceSpans"].is_array()) {
    f.add("request", "resourceSpans missing");
    return f;
  }
  for (size_t i = 0; i < j["resourceSpans"].size(); ++i) {
    std::string w = "resourceSpans[" + std::to_string(i) + "]";
    const json& rs = j["resourceSpans"][i];
    if (!only_fields(rs, {"resource", "scopeSpans", "schemaUrl"}, w, f)) continue;
    if (rs.contains("resource")) {
      const json& r = rs["resource"];
      if (only_fields(r, {"attributes", "droppedAttributesCount", "entityRefs"}, w + ".resource", f) &&
          r.contains("attributes"))
        check_key_values(r["attributes"], w + ".resource.attributes", f, 0);
    }
    if (!rs.contains("scopeSpans") || !rs["scopeSpans"].is_array()) {
      f.add(w, "scopeSpans missing");
      continue;
    }
    for (size_t k = 0; k < rs["scopeSpans"].size(); ++k) {
      std::string ws = w + ".scopeSpans[" + std::to_string(k) + "]";
      const json& ss = rs["scopeSpans"][k];
      if (!only_fields(ss, {"scope", "spans", "schemaUrl"}, ws, f)) continue;
      if (ss.contains("scope")) {
        const json& sc = ss["scope"];
        if (only_fields(sc, {"name", "version", "attributes", "droppedAttributesCount"}, ws + ".scope", f)) {
          if (sc.contains("name") && !sc["name"].is_string()) f.add(ws, "scope.name not a string");
          if (sc.contains("attributes")) check_key_values(sc["attributes"], ws + ".scope.attributes", f, 0);
        }
      }
      if (!ss.contains("spans") || !ss["spans"].is_array()) {
        f.add(ws, "spans missing");
        continue;
      }
      for (size_t n = 0; n < ss["spans"].size(); ++n) check_span(ss["spans"][n], ws + ".spans[" + std::to_string(n) + "]", f);
    }
  }
  return f;
}

// Attribute lookup on a decoded span / resource: the AnyValue object, or null.
inline json attribute(const json& holder, const std::string& key) {
  if (!holder.contains("attributes")) return nullptr;
  for (const json& kv : holder["attributes"])
    if (kv.value("key", "") == key) return kv.value("value", json());
  return nullptr;
}

}  // namespace pinta::testing::otlp_check
