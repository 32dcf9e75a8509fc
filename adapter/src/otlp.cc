#include "pinta/adapter/otlp.h"

#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>

#include "pinta/adapter/redact.h"

namespace pinta::adapter::otlp {
namespace {

using nlohmann::json;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool is_http_url(std::string_view s) {
  return (s.rfind("http://", 0) == 0 && s.size() > 7) || (s.rfind("https://", 0) == 0 && s.size() > 8);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

json kv(std::string key, json value) { return json{{"key", std::move(key)}, {"value", std::move(value)}}; }
json str_value(std::string s) { return json{{"stringValue", std::move(s)}}; }
json int_value(int64_t v) { return json{{"intValue", std::to_string(v)}}; }

// Typed AnyValue for one top-level payload field (Bronze flatten, SPEC §9.3). `skip_redaction`:
// identifier fields (SPEC §11 skip-list) are copied as they are.
json any_value(const json& v, bool skip_redaction) {
  switch (v.type()) {
    case json::value_t::string: {
      const auto& s = v.get_ref<const std::string&>();
      return str_value(skip_redaction ? s : redact_string(s));
    }
    case json::value_t::boolean: return json{{"boolValue", v.get<bool>()}};
    case json::value_t::number_integer: return int_value(v.get<int64_t>());
    case json::value_t::number_unsigned: {
      uint64_t u = v.get<uint64_t>();
      if (u <= static_cast<uint64_t>(INT64_MAX)) return int_value(static_cast<int64_t>(u));
      return json{{"doubleValue", static_cast<double>(u)}};
    }
    case json::value_t::number_float: return json{{"doubleValue", v.get<double>()}};
    default: {
      // Objects, arrays, null: their JSON text. Strings inside are redacted first; the text as a
      // whole then goes through redact_string too, for the 100 KiB cap (idempotent on the rest).
      json redacted = skip_redaction ? v : redact_json(v, RedactOptions{{}, kMaxStringBytes});
      std::string text = redacted.dump(-1, ' ', false, json::error_handler_t::replace);
      return str_value(skip_redaction ? text : redact_string(text));
    }
  }
}

bool is_identifier_key(std::string_view key) {
  return std::find(kIdentifierKeys.begin(), kIdentifierKeys.end(), key) != kIdentifierKeys.end();
}

std::string guard_decision_name(GuardVerdict::Decision d) {
  switch (d) {
    case GuardVerdict::Decision::kAllow: return "ALLOW";
    case GuardVerdict::Decision::kDeny: return "DENY";
    case GuardVerdict::Decision::kReview: return "REVIEW";
    case GuardVerdict::Decision::kUnavailable: break;
  }
  return "UNAVAILABLE";
}

// Days since 1970-01-01 for a civil date (Howard Hinnant's algorithm).
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

// IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT") → unix seconds, or -1.
int64_t parse_http_date(std::string_view s) {
  static const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  std::string t(trim(s));
  char wd[4] = {}, mon[4] = {}, zone[4] = {};
  int day = 0, year = 0, hh = 0, mm = 0, ss = 0;
  if (std::sscanf(t.c_str(), "%3s, %d %3s %d %d:%d:%d %3s", wd, &day, mon, &year, &hh, &mm, &ss, zone) != 8) return -1;
  int month = -1;
  for (int i = 0; i < 12; ++i)
    if (std::string_view(mon) == kMonths[i]) month = i + 1;
  if (month < 0 || day < 1 || day > 31 || hh > 23 || mm > 59 || ss > 60) return -1;
  return days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) * 86400 + hh * 3600 + mm * 60 + ss;
}

}  // namespace

std::string percent_decode(std::string_view s) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      int a = hex(s[i + 1]), b = hex(s[i + 2]);
      if (a >= 0 && b >= 0) {
        out.push_back(static_cast<char>(a * 16 + b));
        i += 2;
        continue;
      }
    }
    out.push_back(s[i]);
  }
  return out;
}

HeaderList parse_header_list(std::string_view text, size_t* bad) {
  HeaderList out;
  size_t errors = 0;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view entry = trim(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (entry.empty()) continue;
    size_t eq = entry.find('=');
    std::string_view key = eq == std::string_view::npos ? std::string_view() : trim(entry.substr(0, eq));
    if (key.empty()) {
      ++errors;
      continue;
    }
    std::string k = percent_decode(key);
    std::string v = percent_decode(trim(entry.substr(eq + 1)));
    // A header name or value with CR/LF/NUL would split the request: reject the entry.
    auto unsafe = [](const std::string& x) { return x.find_first_of(std::string("\r\n\0", 3)) != std::string::npos; };
    if (unsafe(k) || unsafe(v)) {
      ++errors;
      continue;
    }
    out.emplace_back(std::move(k), std::move(v));
  }
  if (bad) *bad = errors;
  return out;
}

ExportConfig export_config(const Getenv& getenv) {
  auto get = [&](const char* name) -> std::string {
    const char* v = getenv(name);
    return v ? std::string(trim(v)) : std::string();
  };
  ExportConfig c;
  struct Source {
    const char* name;
    bool append_path;
  };
  for (Source s : {Source{"GEMINI_PLUGIN_OPTION_ENDPOINT", false}, Source{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", false},
                   Source{"OTEL_EXPORTER_OTLP_ENDPOINT", true}}) {
    std::string v = get(s.name);
    if (v.empty()) continue;
    c.endpoint_from = s.name;
    if (s.append_path) {
      // OTel exporter spec: the base URL gets "v1/traces" appended, with one '/' between.
      while (!v.empty() && v.back() == '/') v.pop_back();
      v += "/v1/traces";
    }
    c.endpoint = v;
    break;
  }
  if (c.endpoint.empty() || !is_http_url(c.endpoint)) {
    c.enabled = false;
    c.endpoint.clear();
    return c;
  }
  c.enabled = true;
  std::string list = get("GEMINI_PLUGIN_OPTION_HEADERS");
  if (list.empty()) list = get("OTEL_EXPORTER_OTLP_HEADERS");
  c.headers = parse_header_list(list);
  std::string key = get("GEMINI_PLUGIN_OPTION_API_KEY");
  if (!key.empty()) {
    std::erase_if(c.headers, [](const auto& h) { return lower(h.first) == "x-pinta-relay-token"; });
    c.headers.emplace_back("x-pinta-relay-token", key);
  }
  return c;
}

ExportConfig export_config_from_environment() {
  return export_config([](const char* n) { return std::getenv(n); });  // NOLINT(concurrency-mt-unsafe)
}

std::string snake_case(std::string_view hook) {
  std::string out;
  for (size_t i = 0; i < hook.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(hook[i]);
    if (std::isupper(c)) {
      bool prev_lower = i > 0 && (std::islower(static_cast<unsigned char>(hook[i - 1])) ||
                                  std::isdigit(static_cast<unsigned char>(hook[i - 1])));
      bool next_lower = i + 1 < hook.size() && std::islower(static_cast<unsigned char>(hook[i + 1]));
      bool prev_upper = i > 0 && std::isupper(static_cast<unsigned char>(hook[i - 1]));
      if (!out.empty() && out.back() != '_' && (prev_lower || (prev_upper && next_lower))) out.push_back('_');
      out.push_back(static_cast<char>(std::tolower(c)));
    } else if (std::isalnum(c)) {
      out.push_back(static_cast<char>(c));
    } else if (!out.empty() && out.back() != '_') {
      out.push_back('_');  // '-', ' ', '.', non-ASCII: one separator
    }
    if (out.size() >= 128) break;
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.empty() ? "unknown" : out;
}

ResourceInfo local_resource(Family family) {
  ResourceInfo r;
  r.service_name = family == Family::kGemini ? "gemini-cli" : "antigravity";
  r.service_version = "0.2.0";
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) r.host_name = host;
  struct utsname u {};
  if (::uname(&u) == 0) {
    std::string m = u.machine;
    // OTel semantic conventions host.arch values.
    r.host_arch = m == "x86_64" ? "amd64" : m == "aarch64" ? "arm64" : m == "i686" || m == "i386" ? "x86" : m;
  }
  r.pid = ::getpid();
  r.parent_pid = ::getppid();
  r.executable_name = "pinta-gemini";
  return r;
}

json resource_attributes(const ResourceInfo& r) {
  json a = json::array();
  a.push_back(kv("service.name", str_value(r.service_name)));
  a.push_back(kv("service.version", str_value(r.service_version)));
  if (!r.host_name.empty()) a.push_back(kv("host.name", str_value(redact_string(r.host_name, 256))));
  if (!r.host_arch.empty()) a.push_back(kv("host.arch", str_value(r.host_arch)));
  a.push_back(kv("os.type", str_value("linux")));
  a.push_back(kv("process.pid", int_value(r.pid)));
  a.push_back(kv("process.parent_pid", int_value(r.parent_pid)));
  a.push_back(kv("process.executable.name", str_value(r.executable_name)));
  a.push_back(kv("telemetry.sdk.name", str_value("pinta-gemini")));
  a.push_back(kv("telemetry.sdk.language", str_value("cpp")));
  return a;
}

json encode_span(const SpanInput& input, const SpanIds& ids) {
  const CanonicalEvent& ev = *input.event;
  const std::string prefix(family_prefix(ev.family));
  json attrs = json::array();
  std::vector<std::string> used;
  auto add = [&](std::string key, json value) {
    if (std::find(used.begin(), used.end(), key) != used.end()) return;  // keys are unique
    used.push_back(key);
    attrs.push_back(kv(std::move(key), std::move(value)));
  };
  add("ingest.type", str_value(prefix));
  add(prefix + ".hook", str_value(redact_string(ev.hook, 1024)));
  add(prefix + ".agent", str_value(redact_string(ev.agent, 1024)));
  if (ev.family == Family::kAntigravity && !ev.product.empty() && ev.product != "unknown") {
    add("antigravity.product", str_value(ev.product));
  }
  if (input.guard != nullptr) {
    add("pinta.guard.decision", str_value(guard_decision_name(input.guard->decision)));
    if (!input.guard->matched_rule.empty()) {
      add("pinta.guard.matched_rule", str_value(redact_string(input.guard->matched_rule, 1024)));
    }
  }
  if (ev.raw.is_object()) {
    for (auto it = ev.raw.begin(); it != ev.raw.end(); ++it) {
      // A key is attacker-controlled text like any other: redacted and capped too.
      std::string key = redact_string(it.key(), 256);
      add(prefix + "." + key, any_value(it.value(), is_identifier_key(it.key())));
    }
  }
  json span = {{"traceId", ids.trace_id},
               {"spanId", ids.span_id},
               {"name", prefix + "." + snake_case(ev.hook)},
               {"kind", 1},  // SPAN_KIND_INTERNAL
               {"startTimeUnixNano", std::to_string(input.start_unix_nanos)},
               {"endTimeUnixNano", std::to_string(std::max(input.end_unix_nanos, input.start_unix_nanos))},
               {"attributes", std::move(attrs)},
               {"status", json::object()}};
  return span;
}

std::string queue_line(const json& resource_attrs, const json& span) {
  std::string line = "{\"spanId\":";
  line += json(span.value("spanId", std::string())).dump();
  line += ",\"resource\":";
  line += resource_attrs.dump(-1, ' ', false, json::error_handler_t::replace);
  line += ",\"span\":";
  line += span.dump(-1, ' ', false, json::error_handler_t::replace);
  line += "}";
  return line;
}

std::string encode_request(const std::vector<const json*>& records) {
  // Group by resource, keeping first-seen order.
  std::vector<std::pair<std::string, json>> groups;
  std::map<std::string, size_t> index;
  for (const json* r : records) {
    if (r == nullptr || !r->contains("span")) continue;
    std::string key = r->contains("resource") ? (*r)["resource"].dump() : "[]";
    auto [it, inserted] = index.emplace(key, groups.size());
    if (inserted) groups.emplace_back(key, json::array());
    groups[it->second].second.push_back((*r)["span"]);
  }
  json rs = json::array();
  for (auto& [key, spans] : groups) {
    json resource = json::parse(key, nullptr, false);
    if (!resource.is_array()) resource = json::array();
    rs.push_back({{"resource", {{"attributes", std::move(resource)}}},
                  {"scopeSpans", json::array({{{"scope", {{"name", "pinta-gemini"}, {"version", "0.2.0"}}},
                                               {"spans", std::move(spans)}}})}});
  }
  return json{{"resourceSpans", std::move(rs)}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

ExportResult classify_response(int status, std::string_view retry_after_header, std::string_view body,
                               int64_t now_unix_seconds) {
  ExportResult r;
  std::string_view ra = trim(retry_after_header);
  if (!ra.empty()) {
    bool digits = std::all_of(ra.begin(), ra.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (digits && ra.size() <= 9) {
      r.retry_after = std::chrono::seconds(std::atoll(std::string(ra).c_str()));
    } else if (int64_t at = parse_http_date(ra); at >= 0) {
      r.retry_after = std::chrono::seconds(std::max<int64_t>(0, at - now_unix_seconds));
    }
  }
  if (status >= 200 && status < 300) {
    r.verdict = Verdict::kDelivered;
    // ExportTraceServiceResponse.partialSuccess.rejectedSpans (int64 → string in JSON; accept a
    // number too). A body that is not JSON (or protobuf) still means success.
    json j = json::parse(body, nullptr, false);
    if (j.is_object() && j.contains("partialSuccess") && j["partialSuccess"].is_object()) {
      const json& n = j["partialSuccess"].value("rejectedSpans", json());
      if (n.is_string()) r.rejected_spans = std::atoll(n.get<std::string>().c_str());
      if (n.is_number_integer()) r.rejected_spans = n.get<int64_t>();
      if (r.rejected_spans < 0) r.rejected_spans = 0;
    }
    return r;
  }
  if (status == 0 || status == 429 || status == 502 || status == 503 || status == 504) {
    r.verdict = Verdict::kRetry;
    return r;
  }
  r.verdict = Verdict::kDrop;
  return r;
}

}  // namespace pinta::adapter::otlp
