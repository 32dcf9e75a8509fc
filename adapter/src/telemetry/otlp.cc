#include "pinta/adapter/otlp.h"

#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <iterator>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "pinta/adapter/identifiers.h"
#include "pinta/adapter/redact.h"
#include "pinta/common/env.h"
#include "pinta/common/text.h"
#include "pinta/common/version.h"

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

using pinta::text::ascii_lower;

// ---- JSON text, written directly (the span is built on every hook event: building an nlohmann
// tree and dumping it cost ~3x the rest of the event, ci/bench.sh). The output is what
// nlohmann's dump(-1, ' ', false, error_handler_t::replace) gives for the same value, so the
// flusher, the tests and the independent decoder read it back unchanged.

// Bytes that end a run of verbatim bytes: control characters, '"', '\\', and non-ASCII (the
// first non-ASCII byte triggers one UTF-8 check of the rest; before it everything was ASCII).
constexpr std::array<bool, 256> kEscapeStop = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) t[static_cast<size_t>(c)] = c < 0x20 || c == '"' || c == '\\' || c >= 0x80;
  return t;
}();

void put_escaped(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  const size_t mark = out.size();
  out.push_back('"');
  size_t run = 0;  // start of the pending run of bytes that need no escape
  bool utf8_checked = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (!kEscapeStop[c]) continue;
    if (c >= 0x80) {
      if (!utf8_checked && !valid_utf8(s.substr(i))) {
        // Not reachable from parsed payloads; nlohmann's replacement rules apply.
        out.resize(mark);
        out += json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace);
        return;
      }
      utf8_checked = true;
      continue;
    }
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        out += "\\u00";
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
    }
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

// The JSON string literal of redact_string(s), without the copy when redaction changes nothing.
void put_redacted_string(std::string& out, std::string_view s, WorkBudget* budget,
                         std::size_t max_bytes = kMaxStringBytes) {
  if (budget->expired()) put_escaped(out, kDeadlineMarker);
  else if (redaction_is_identity(s, max_bytes)) put_escaped(out, s);
  else put_escaped(out, redact_string(s, max_bytes, budget));
}

// A string under object key `key`: the whole value when the key names a secret, else redacted.
void put_field_string(std::string& out, std::string_view key, std::string_view s,
                      WorkBudget* budget, std::size_t max_bytes = kMaxStringBytes) {
  if (auto masked = redact_field(key, s)) put_escaped(out, *masked);
  else put_redacted_string(out, s, budget, max_bytes);
}

// The JSON text of `v` with every string value and key redacted, i.e. the text of redact_json(v)
// without building the copy. Iterative (a deeply nested payload cannot exhaust the stack) and
// linear in the size of `v`.
void put_redacted(std::string& out, const json& root, WorkBudget* budget) {
  struct Frame {
    const json* v;
    json::const_iterator it;
    bool first = true;
    std::vector<std::string> rewritten_keys;  // keys that redaction changed, written once each
    std::string_view secret;  // the secret name the container sits under ("" none)
  };
  std::vector<Frame> stack;
  // `key`: the name that decides whether a string is masked whole (its own key, or the secret
  // name it inherits: array elements and generic members under a secret name, as redact_json).
  auto put_scalar = [&](const json& v, std::string_view key) -> bool {
    // A number under a secret name is masked as a string would be (a PIN or OTP sent as a number).
    if (v.is_number() && !key.empty() && is_secret_name(key)) {
      put_escaped(out, kSecretFieldMarker);
      return true;
    }
    switch (v.type()) {
      case json::value_t::string: put_field_string(out, key, v.get_ref<const std::string&>(), budget); return true;
      case json::value_t::number_integer: out += std::to_string(v.get<int64_t>()); return true;
      case json::value_t::number_unsigned: out += std::to_string(v.get<uint64_t>()); return true;
      case json::value_t::boolean: out += v.get<bool>() ? "true" : "false"; return true;
      case json::value_t::null: out += "null"; return true;
      case json::value_t::object:
      case json::value_t::array: return false;
      default: out += v.dump(); return true;  // floats: nlohmann's shortest round-trip form
    }
  };
  auto open = [&](const json& v, std::string_view name) {
    out.push_back(v.is_object() ? '{' : '[');
    const bool secret = !name.empty() && is_secret_name(name);
    stack.push_back(Frame{&v, v.begin(), true, {}, secret ? name : std::string_view()});
  };
  if (put_scalar(root, {})) return;
  open(root, {});
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.it == f.v->end()) {
      out.push_back(f.v->is_object() ? '}' : ']');
      stack.pop_back();
      continue;
    }
    const json& child = *f.it;
    std::string_view key = f.secret;  // an array element inherits its array's secret name
    if (f.v->is_object()) {
      key = f.it.key();
      std::string rk = redaction_is_identity(key, 256) ? std::string(key) : redact_string(key, 256, budget);
      // Two keys that redact to the same text (two tokens) would make a duplicate key: the
      // first one wins, as in redact_json.
      auto& seen = f.rewritten_keys;
      if (rk != key && std::find(seen.begin(), seen.end(), rk) != seen.end()) {
        ++f.it;
        continue;
      }
      if (rk != key) seen.push_back(rk);
      if (!f.first) out.push_back(',');
      put_escaped(out, rk);
      out.push_back(':');
    } else if (!f.first) {
      out.push_back(',');
    }
    f.first = false;
    const std::string_view name = f.v->is_object() ? inherited_secret_name(f.secret, key) : key;
    ++f.it;
    if (!put_scalar(child, name)) open(child, name);  // may reallocate `stack`: f is not used after
  }
}

// Appends one OTLP KeyValue with a string / int / raw AnyValue.
void put_kv_string(std::string& out, bool& first, std::string_view key, std::string_view value) {
  out += first ? "{\"key\":" : ",{\"key\":";
  first = false;
  put_escaped(out, key);
  out += ",\"value\":{\"stringValue\":";
  put_escaped(out, value);
  out += "}}";
}
void put_kv_int(std::string& out, bool& first, std::string_view key, int64_t value) {
  out += first ? "{\"key\":" : ",{\"key\":";
  first = false;
  put_escaped(out, key);
  out += ",\"value\":{\"intValue\":\"";
  out += std::to_string(value);
  out += "\"}}";
}

// Typed AnyValue text for one top-level payload field (Bronze flatten, SPEC §9.3).
// `identifier`: a field the family's schema defines as an identifier (session id, cwd, …): it
// passes the redactor like every value but is not masked for its name (session_id is a secret
// name elsewhere; nothing is copied from the payload unredacted). Strings are capped at
// `max_bytes` (the attribute value length limit).
void put_any_value(std::string& out, std::string_view key, const json& v, bool identifier,
                   WorkBudget* budget, std::size_t max_bytes) {
  if (v.is_number() && !identifier && is_secret_name(key)) {
    out += "{\"stringValue\":";
    put_escaped(out, kSecretFieldMarker);
    out += "}";
    return;
  }
  switch (v.type()) {
    case json::value_t::string: {
      const auto& s = v.get_ref<const std::string&>();
      out += "{\"stringValue\":";
      if (identifier) put_redacted_string(out, s, budget, max_bytes);
      else put_field_string(out, key, s, budget, max_bytes);
      out += "}";
      return;
    }
    case json::value_t::boolean: out += v.get<bool>() ? "{\"boolValue\":true}" : "{\"boolValue\":false}"; return;
    case json::value_t::number_integer:
      out += "{\"intValue\":\"" + std::to_string(v.get<int64_t>()) + "\"}";
      return;
    case json::value_t::number_unsigned: {
      uint64_t u = v.get<uint64_t>();
      if (u <= static_cast<uint64_t>(INT64_MAX)) {
        out += "{\"intValue\":\"" + std::to_string(u) + "\"}";
      } else {
        out += "{\"doubleValue\":" + json(static_cast<double>(u)).dump() + "}";
      }
      return;
    }
    case json::value_t::number_float:
      out += "{\"doubleValue\":" + v.dump() + "}";
      return;
    default: {
      // Objects, arrays, null: their JSON text. Strings and keys inside are redacted first; the
      // text as a whole then goes through the rules again (secrets spread over several JSON
      // tokens) and the length cap, redact_joined.
      std::string text;
      put_redacted(text, v, budget);
      text = redact_joined(std::move(text), max_bytes, budget);
      out += "{\"stringValue\":";
      put_escaped(out, text);
      out += "}";
      return;
    }
  }
}

// ---- OpenTelemetry GenAI semantic conventions, next to Bronze (docs/contract.md OTLP-3a).
// Names and values from semantic-conventions v1.41.1 (kGenAiSemconvVersion): registry
// docs/registry/attributes/gen-ai.md, "Execute tool span" in docs/gen-ai/gen-ai-spans.md. Later
// releases moved these conventions to the semantic-conventions-genai repository (no release yet);
// the attribute names used here are unchanged there.

// gen_ai.agent.name: "Human-readable name of the GenAI agent provided by the application"; the
// application is the host.
std::string_view genai_agent_name(Family f) { return hosts::descriptor(f).display_name; }

// gen_ai.provider.name, only where the host's provider is known: the registry's fixed value
// (FamilyDescriptor::provider, with its evidence), else the payload's model name
// (PayloadShape::model_name) when it names a Gemini model: `gcp.gen_ai` is the semconv value for
// "any Google generative AI endpoint ... when specific backend is unknown". A family with
// neither gets none.
std::string_view genai_provider_name(const CanonicalEvent& ev) {
  if (const std::string_view fixed = hosts::descriptor(ev.family).provider; !fixed.empty())
    return fixed;
  const std::string_view model_key = hosts::payload_shape(ev.family, ev.agent).model_name;
  if (model_key.empty() || !ev.raw.is_object()) return {};
  const auto it = ev.raw.find(model_key);
  if (it == ev.raw.end() || !it->is_string()) return {};
  return it->get_ref<const std::string&>().rfind("gemini-", 0) == 0 ? "gcp.gen_ai" : "";
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
    std::erase_if(c.headers, [](const auto& h) { return ascii_lower(h.first) == "x-pinta-relay-token"; });
    c.headers.emplace_back("x-pinta-relay-token", key);
  }
  return c;
}

ExportConfig export_config_from_environment() {
  return export_config([](const char* n) { return pinta::env::get(n); });  // NOLINT(concurrency-mt-unsafe)
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
  r.service_name = family_service_name(family);
  r.service_version = std::string(pinta::version());
  struct utsname u {};
  if (::uname(&u) == 0) {
    r.host_name = u.nodename;  // what gethostname() returns, without a second uname()
    std::string m = u.machine;
    // OTel semantic conventions host.arch values.
    r.host_arch = m == "x86_64" ? "amd64" : m == "aarch64" ? "arm64" : m == "i686" || m == "i386" ? "x86" : m;
  }
  r.pid = ::getpid();
  r.parent_pid = ::getppid();
  r.executable_name = "pinta-gemini";
  return r;
}

std::string resource_attributes(const ResourceInfo& r) {
  std::string a;
  a.reserve(640);
  a = "[";
  bool first = true;
  put_kv_string(a, first, "service.name", r.service_name);
  put_kv_string(a, first, "service.version", r.service_version);
  if (!r.host_name.empty()) {
    put_kv_string(a, first, "host.name",
                  redaction_is_identity(r.host_name, 256) ? r.host_name : redact_string(r.host_name, 256));
  }
  if (!r.host_arch.empty()) put_kv_string(a, first, "host.arch", r.host_arch);
  put_kv_string(a, first, "os.type", "linux");
  put_kv_int(a, first, "process.pid", r.pid);
  put_kv_int(a, first, "process.parent_pid", r.parent_pid);
  put_kv_string(a, first, "process.executable.name", r.executable_name);
  put_kv_string(a, first, "telemetry.sdk.name", "pinta-gemini");
  put_kv_string(a, first, "telemetry.sdk.language", "cpp");
  a += "]";
  return a;
}

namespace {

// A span's attribute list as it is written: unique keys, the attribute count limit, the span size
// limit and the work deadline, and why attributes were left out (pinta.span.truncated).
class SpanAttributes {
 public:
  SpanAttributes(std::string& out, const SpanLimits& limits, WorkBudget* budget)
      : out_(out), limits_(limits), budget_(budget) {}

  // A key from the payload's namespace: written once, when there is room.
  void add_string(std::string key, std::string_view value) {
    if (!fresh(key) || !room()) return;
    put_kv_string(out_, first_, key, value);
    ++count_;
  }

  // gen_ai.* keys lie outside every `<prefix>.` namespace, so no payload key can equal them: they
  // skip the uniqueness set (this runs on every event; measured in docs/benchmarks-history.md).
  void add_own(std::string_view key, std::string_view value) {
    if (!room()) return;
    put_kv_string(out_, first_, key, value);
    ++count_;
  }

  // The payload's fields as `<prefix>.<key>`, up to `payload_limit` attributes in all.
  void add_payload(const json& raw, const std::string& prefix, const IdentifierKeys& identifiers,
                   std::size_t payload_limit) {
    for (auto it = raw.begin(); it != raw.end(); ++it) {
      if (count_ >= payload_limit || out_.size() >= limits_.max_span_bytes || budget_->expired()) {
        if (budget_->ran_out()) out_of_time_ = true;
        if (out_.size() >= limits_.max_span_bytes) over_size_ = true;
        // The rest is counted, not encoded (OTel: droppedAttributesCount).
        dropped_ += static_cast<std::uint64_t>(std::distance(it, raw.end()));
        break;
      }
      // A key is attacker-controlled text like any other: redacted and capped too.
      std::string key = prefix + ".";
      if (redaction_is_identity(it.key(), 256)) key += it.key();
      else key += redact_string(it.key(), 256, budget_);
      if (!fresh(key)) continue;
      const std::size_t mark = out_.size();
      out_ += first_ ? "{\"key\":" : ",{\"key\":";
      put_escaped(out_, key);
      out_ += ",\"value\":";
      put_any_value(out_, it.key(), it.value(), identifiers.contains(it.key()), budget_,
                    limits_.max_value_bytes);
      out_ += "}";
      if (out_.size() > limits_.max_span_bytes || budget_->ran_out()) {
        // Over the span size cap, or the deadline passed while encoding it: left out whole.
        if (out_.size() > limits_.max_span_bytes) over_size_ = true;
        out_.resize(mark);
        if (budget_->ran_out()) out_of_time_ = true;
        ++dropped_;
        continue;
      }
      first_ = false;
      ++count_;
    }
  }

  // Closes the list (with pinta.span.truncated when anything was left out) and, when something
  // was, writes droppedAttributesCount after it.
  void finish() {
    if (dropped_ > 0) {
      const char* why = out_of_time_ ? "deadline" : over_size_ ? "size" : "count";
      put_kv_string(out_, first_, "pinta.span.truncated", why);
    }
    out_ += "]";
    if (dropped_ > 0) {
      out_ += ",\"droppedAttributesCount\":";
      out_ += std::to_string(std::min<std::uint64_t>(dropped_, UINT32_MAX));  // uint32 in OTLP
    }
  }

 private:
  bool fresh(const std::string& key) { return used_.insert(key).second; }

  // Whether one more attribute may be written; counts it as dropped when not.
  bool room() {
    if (count_ < limits_.max_attributes && out_.size() < limits_.max_span_bytes && !budget_->expired())
      return true;
    if (budget_->ran_out()) out_of_time_ = true;
    if (out_.size() >= limits_.max_span_bytes) over_size_ = true;
    ++dropped_;
    return false;
  }

  std::string& out_;
  const SpanLimits& limits_;
  WorkBudget* budget_;
  bool first_ = true;
  std::size_t count_ = 0;      // attributes written
  std::uint64_t dropped_ = 0;  // attributes left out (count limit, span size limit, deadline)
  bool out_of_time_ = false, over_size_ = false;
  std::unordered_set<std::string> used_;  // keys are unique; hashed: linear in the field count
};

// The span's fields after its attributes, in the order nlohmann's (sorted) object would dump them.
void put_span_fields(std::string& out, const SpanInput& input, const SpanIds& ids,
                     const std::string& prefix, const std::string& hook) {
  out += ",\"endTimeUnixNano\":\"";
  out += std::to_string(std::max(input.end_unix_nanos, input.start_unix_nanos));
  out += "\",\"kind\":1,\"name\":";  // SPAN_KIND_INTERNAL
  put_escaped(out, prefix + "." + snake_case(hook));
  if (!ids.parent_span_id.empty()) {
    out += ",\"parentSpanId\":";
    put_escaped(out, ids.parent_span_id);
  }
  out += ",\"spanId\":";
  put_escaped(out, ids.span_id);
  out += ",\"startTimeUnixNano\":\"";
  out += std::to_string(input.start_unix_nanos);
  out += "\",\"status\":{},\"traceId\":";
  put_escaped(out, ids.trace_id);
  out += "}";
}

}  // namespace

std::string encode_span(const SpanInput& input, const SpanIds& ids, const SpanLimits& limits) {
  WorkBudget own(limits.time_budget);
  WorkBudget* budget = limits.budget != nullptr ? limits.budget : &own;
  const CanonicalEvent& ev = *input.event;
  const std::string prefix(family_prefix(ev.family));
  // Span fields in the order nlohmann's (sorted) object would dump them.
  std::string out;
  out.reserve(1024);
  out = "{\"attributes\":[";
  SpanAttributes attrs(out, limits, budget);
  attrs.add_string("ingest.type", prefix);
  // The event name (from --event) names the span too: the span name takes the redacted text.
  const std::string hook = redaction_is_identity(ev.hook, 1024) ? ev.hook : redact_string(ev.hook, 1024, budget);
  attrs.add_string(prefix + ".hook", hook);
  attrs.add_string(prefix + ".agent", redaction_is_identity(ev.agent, 1024) ? ev.agent : redact_string(ev.agent, 1024, budget));
  if (!hosts::payload_shape(ev.family, ev.agent).products.empty() && !ev.product.empty() &&
      ev.product != "unknown") {
    attrs.add_string(prefix + ".product", ev.product);
  }
  // GenAI semantic conventions (see genai_agent_name). execute_tool only on a tool event whose tool
  // is named: gen_ai.tool.name is Required on that operation. Only Claude Code sends a tool call id
  // (tool_use_id); the others do not (GEM§7: no tool_use_id in 0.61.0; AGY§8: stepIdx counts
  // steps, PostToolUse fires on non-tool steps too; seed 004 l.427: only 자리 and 도구), so for
  // them gen_ai.tool.call.id is never written. Values
  // from the payload go through redaction like every other string (identifiers are unchanged by
  // it) and are capped like the Bronze attribute holding the same value.
  std::string scratch;
  auto bounded = [&](const std::string& s, std::size_t max_bytes) -> std::string_view {
    if (redaction_is_identity(s, max_bytes)) return s;
    scratch = redact_string(s, max_bytes, budget);
    return scratch;
  };
  if (ev.tool_event && !ev.tool_name.empty()) {
    attrs.add_own("gen_ai.operation.name", "execute_tool");
    attrs.add_own("gen_ai.tool.name", bounded(ev.tool_name, 1024));
    // Claude Code sends tool_use_id (real-hosts.md, Claude Code 2.1.332): "Recommended if
    // available". Bounded like the Bronze attribute holding the same value.
    if (!ev.tool_call_id.empty())
      attrs.add_own("gen_ai.tool.call.id", bounded(ev.tool_call_id, limits.max_value_bytes));
  }
  if (!ev.session_id.empty()) {
    attrs.add_own("gen_ai.conversation.id", bounded(ev.session_id, limits.max_value_bytes));
  }
  attrs.add_own("gen_ai.agent.name", genai_agent_name(ev.family));
  if (const std::string_view provider = genai_provider_name(ev); !provider.empty()) {
    attrs.add_own("gen_ai.provider.name", provider);
  }
  if (input.guard != nullptr) {
    attrs.add_string("pinta.guard.decision", guard_decision_name(input.guard->decision));
    if (!input.guard->matched_rule.empty()) {
      attrs.add_string("pinta.guard.matched_rule", redact_string(input.guard->matched_rule, 1024, budget));
    }
  }
  // One slot is kept for pinta.span.truncated, so a truncated span always says why.
  const std::size_t payload_limit = limits.max_attributes > 0 ? limits.max_attributes - 1 : 0;
  const IdentifierKeys identifiers = payload_identifier_keys(ev.family, ev.agent);
  if (ev.raw.is_object()) attrs.add_payload(ev.raw, prefix, identifiers, payload_limit);
  attrs.finish();
  put_span_fields(out, input, ids, prefix, hook);
  return out;
}

std::string queue_line(std::string_view span_id, std::string_view resource_attrs, std::string_view span) {
  std::string line;
  line.reserve(span_id.size() + resource_attrs.size() + span.size() + 40);
  line = "{\"spanId\":";
  put_escaped(line, span_id);
  line += ",\"resource\":";
  line += resource_attrs;
  line += ",\"span\":";
  line += span;
  line += "}";
  return line;
}

std::string encode_request(const std::vector<SpanRecord>& records) {
  // Group by resource text, keeping first-seen order.
  std::vector<std::pair<std::string_view, std::vector<std::string_view>>> groups;
  std::unordered_map<std::string_view, size_t> index;
  size_t bytes = 32;
  for (const SpanRecord& r : records) {
    if (r.span.empty()) continue;
    const std::string_view resource = r.resource.empty() ? std::string_view("[]") : std::string_view(r.resource);
    auto [it, inserted] = index.emplace(resource, groups.size());
    if (inserted) {
      groups.emplace_back(resource, std::vector<std::string_view>{});
      bytes += resource.size() + 128;
    }
    groups[it->second].second.push_back(r.span);
    bytes += r.span.size() + 1;
  }
  // The keys in the order a JSON writer that sorts them gives (as the request has always read).
  std::string out;
  out.reserve(bytes);
  out += "{\"resourceSpans\":[";
  for (size_t g = 0; g < groups.size(); ++g) {
    if (g != 0) out += ',';
    out += "{\"resource\":{\"attributes\":";
    out += groups[g].first;
    out += "},\"scopeSpans\":[{\"scope\":{\"name\":\"pinta-gemini\",\"version\":\"";
    out += pinta::version();  // the build's (CMake project version), as service.version
    out += "\"},\"spans\":[";
    for (size_t k = 0; k < groups[g].second.size(); ++k) {
      if (k != 0) out += ',';
      out += groups[g].second[k];
    }
    out += "]}]}";
  }
  out += "]}";
  return out;
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
