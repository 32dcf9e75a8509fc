// The expectation kinds of the case files: one registry entry per kind, with its validation,
// its evaluation and its report view (pinta/conformance/matchers.h).
#include "pinta/conformance/matchers.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include "matcher_context.h"
#include "pinta/common/fs.h"
#include "pinta/hosts/hosts.h"
#include "pinta/hosts/reply_check.h"

namespace pinta::conformance {
namespace {

using detail::fmt_us;
using detail::pick;
using detail::show_bytes;
using detail::subst;

// ---- validation helpers: each returns "" or the whole one-line message ------------------------

std::string quoted_key(const std::string& k) {
  std::string d = json(k).dump();
  return d.substr(1, d.size() - 2);
}

bool nonempty_string(const json& v) { return v.is_string() && !v.get<std::string>().empty(); }

bool nonempty_strings(const json& v) {
  return v.is_array() && !v.empty() && std::all_of(v.begin(), v.end(), nonempty_string);
}

bool nonneg_int(const json& v) {
  return v.is_number_unsigned() || (v.is_number_integer() && v.get<long long>() >= 0);
}

// The keys of an object outside `allowed`, as "'k'", or "".
std::string unknown_key(const json& v, std::initializer_list<const char*> allowed) {
  for (auto it = v.begin(); it != v.end(); ++it)
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return it.key() == a; }))
      return "'" + quoted_key(it.key()) + "'";
  return "";
}

// A request/line count: N, or {"min": N, "max": M} with at least one bound.
bool count_spec(const json& v) {
  if (nonneg_int(v)) return true;
  if (!v.is_object() || v.empty() || !unknown_key(v, {"min", "max"}).empty()) return false;
  return std::all_of(v.begin(), v.end(), nonneg_int);
}
const char* kCountSpec = " must be a count: N or {\"min\": N, \"max\": M}";

std::string v_stdout(const json& v, const std::string& at) {
  return v == "one_json_line" || v == "empty" ? "" : at + " must be \"one_json_line\" or \"empty\"";
}
std::string v_stderr(const json& v, const std::string& at) {
  return v == "empty" ? "" : at + " must be \"empty\"";
}
std::string v_nonempty_string(const json& v, const std::string& at) {
  return nonempty_string(v) ? "" : at + " must be a non-empty string";
}
std::string v_exit_code(const json& v, const std::string& at) {
  return v.is_number_integer() ? "" : at + " must be an integer";
}
std::string v_exit_code_in(const json& v, const std::string& at) {
  return v.is_array() && !v.empty() &&
                 std::all_of(v.begin(), v.end(),
                             [](const json& x) { return x.is_number_integer(); })
             ? ""
             : at + " must be a non-empty array of integers";
}
std::string v_false(const json& v, const std::string& at) {
  return v == false ? "" : at + " must be false";
}
std::string v_true(const json& v, const std::string& at) {
  return v == true ? "" : at + " must be true";
}
std::string v_bool(const json& v, const std::string& at) {
  return v.is_boolean() ? "" : at + " must be true or false";
}
std::string v_wait_requests(const json& v, const std::string& at) {
  return v == "each_run" || nonneg_int(v) ? ""
                                          : at + " must be \"each_run\" or a non-negative integer";
}
std::string v_ms(const json& v, const std::string& at) {
  return nonneg_int(v) ? "" : at + " must be an integer (ms)";
}
std::string v_object(const json& v, const std::string& at) {
  return v.is_object() && !v.empty() ? "" : at + " must be a non-empty JSON object";
}
std::string v_reply(const json& v, const std::string& at) {
  return v.is_object() ? "" : at + " must be a JSON object (the whole reply)";
}
std::string v_names(const json& v, const std::string& at) {
  return nonempty_strings(v) ? "" : at + " must be a non-empty array of non-empty strings";
}
std::string v_effect(const json& v, const std::string& at) {
  return nonempty_string(v) || nonempty_strings(v)
             ? ""
             : at + " must be a host effect or a non-empty array of them";
}
// expect.verdict: what the host makes of the reply, by its one reply check
// (pinta/hosts/reply_check.h): "any" (accepted, whatever it decides) or the kind(s) it must be.
bool verdict_kind(const json& v) { return v == "allow" || v == "deny" || v == "ask"; }
std::string v_verdict(const json& v, const std::string& at) {
  const bool ok = v == "any" || verdict_kind(v) ||
                  (v.is_array() && !v.empty() && std::all_of(v.begin(), v.end(), verdict_kind));
  return ok ? ""
            : at + " must be \"any\", \"allow\", \"deny\", \"ask\" or an array of the last three";
}
std::string v_count(const json& v, const std::string& at) {
  return count_spec(v) ? "" : at + kCountSpec;
}
std::string v_guard_request(const json& v, const std::string& at) {
  if (!v.is_object() || v.empty())
    return at + " must be an object of header, json_paths, json_equals, body_contains";
  if (auto k = unknown_key(v, {"header", "json_paths", "json_equals", "body_contains"}); !k.empty())
    return at + " has an unknown key " + k;
  if (v.contains("header") && !(v["header"].is_object() && !v["header"].empty() &&
                                std::all_of(v["header"].begin(), v["header"].end(),
                                            [](const json& x) { return x.is_string(); })))
    return at + ".header must be an object of header names to strings";
  if (v.contains("json_paths") && !nonempty_strings(v["json_paths"]))
    return at + ".json_paths must be a non-empty array of dotted paths";
  if (v.contains("json_equals") && !(v["json_equals"].is_object() && !v["json_equals"].empty()))
    return at + ".json_equals must be a non-empty object of dotted paths to values";
  if (v.contains("body_contains") && !nonempty_strings(v["body_contains"]))
    return at + ".body_contains must be a non-empty array of non-empty strings";
  return "";
}
std::string v_token_only_in_header(const json& v, const std::string& at) {
  if (!v.is_object()) return at + " must be an object with a token";
  if (auto k = unknown_key(v, {"token", "header", "require_guard_call"}); !k.empty())
    return at + " has an unknown key " + k;
  if (!v.contains("token") || !nonempty_string(v["token"]))
    return at + ".token must be a non-empty string";
  if (v.contains("header") && !nonempty_string(v["header"]))
    return at + ".header must be a non-empty string";
  if (v.contains("require_guard_call") && !v["require_guard_call"].is_boolean())
    return at + ".require_guard_call must be true or false";
  return "";
}
std::string v_data_files(const json& v, const std::string& at) {
  if (!v.is_object() || v.empty()) return at + " must be an object of paths to what they hold";
  for (auto f = v.begin(); f != v.end(); ++f) {
    const json& w = f.value();
    const std::string here = at + "[" + json(f.key()).dump() + "]";
    if (w == "exists" || w == "absent") continue;
    if (!w.is_object() || w.empty())
      return here + " must be \"exists\", \"absent\" or an object of mode, contains, lines";
    if (auto k = unknown_key(w, {"mode", "contains", "lines"}); !k.empty())
      return here + " has an unknown key " + k;
    if (w.contains("mode")) {
      const json& m = w["mode"];
      // get_ref: begin and end of one string (two get<>() calls would be two temporaries).
      if (!m.is_string() || m.get_ref<const std::string&>().size() != 4 ||
          !std::all_of(m.get_ref<const std::string&>().begin(),
                       m.get_ref<const std::string&>().end(),
                       [](char c) { return c >= '0' && c <= '7'; }))
        return here + ".mode must be four octal digits (\"0600\")";
    }
    if (w.contains("contains") && !nonempty_string(w["contains"]))
      return here + ".contains must be a non-empty string";
    if (w.contains("lines") && !count_spec(w["lines"])) return here + ".lines" + kCountSpec;
  }
  return "";
}
std::string v_median_ms(const json& v, const std::string& at) {
  if (!(v.is_object() && v.contains("max") && v["max"].is_number()))
    return at + " needs a numeric max";
  if (auto k = unknown_key(v, {"max", "metric"}); !k.empty())
    return at + " has an unknown key " + k;
  if (v.contains("metric") && v["metric"] != "closed" && v["metric"] != "first_stdout" &&
      v["metric"] != "exited")
    return at + ".metric must be \"closed\", \"first_stdout\" or \"exited\"";
  return "";
}
std::string v_path(const json& v, const std::string& at) {
  return v.is_string() && v.get<std::string>().rfind('/', 0) == 0
             ? ""
             : at + " must be a URL path starting with '/'";
}
std::string v_headers(const json& v, const std::string& at) {
  return v.is_object() && !v.empty() &&
                 std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_string(); })
             ? ""
             : at + " must be an object of header names to strings";
}
std::string v_attributes(const json& v, const std::string& at) {
  return v.is_object() && !v.empty()
             ? ""
             : at + " must be a non-empty object of attribute names to values (null: any)";
}
std::string v_attribute_names(const json& v, const std::string& at) {
  return nonempty_strings(v) ? "" : at + " must be a non-empty array of names";
}
std::string v_collector(const json& v, const std::string& at);

// ---- evaluation helpers ------------------------------------------------------------------------

bool subset(const json& want, const json& got) {
  if (want.is_object()) {
    if (!got.is_object()) return false;
    for (auto it = want.begin(); it != want.end(); ++it)
      if (!got.contains(it.key()) || !subset(it.value(), got[it.key()])) return false;
    return true;
  }
  return want == got;
}

const json* at_path(const json& j, const std::string& dotted) {
  const json* cur = &j;
  std::istringstream in(dotted);
  for (std::string part; std::getline(in, part, '.');) {
    if (!cur->is_object() || !cur->contains(part)) return nullptr;
    cur = &(*cur)[part];
  }
  return cur;
}

bool count_ok(const json& spec, size_t n, std::string& want) {
  if (spec.is_number_integer()) {
    want = "exactly " + spec.dump();
    return n == spec.get<size_t>();
  }
  size_t lo = spec.value("min", 0), hi = spec.value("max", static_cast<size_t>(-1));
  want = "between " + std::to_string(lo) + " and " +
         (hi == static_cast<size_t>(-1) ? "∞" : std::to_string(hi));
  return n >= lo && n <= hi;
}

// OTLP/JSON attribute value → json scalar.
json otlp_value(const json& v) {
  if (!v.is_object()) return json();
  for (const char* k : {"stringValue", "boolValue", "doubleValue"})
    if (v.contains(k)) return v[k];
  if (v.contains("intValue")) {
    const auto& i = v["intValue"];
    if (i.is_string()) return json(std::stoll(i.get<std::string>()));
    return i;
  }
  if (v.contains("arrayValue") || v.contains("kvlistValue")) return v;
  return json();
}

bool is_hex(const std::string& s, size_t n) {
  if (s.size() != n) return false;
  bool nonzero = false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    if (c != '0') nonzero = true;
  }
  return nonzero;
}

// Parses OTLP/JSON export bodies (opentelemetry-proto ExportTraceServiceRequest, JSON mapping).
std::vector<Span> parse_spans(const std::vector<Recorded>& reqs, std::vector<std::string>* invalid,
                              bool only_accepted) {
  std::vector<Span> out;
  for (size_t i = 0; i < reqs.size(); ++i) {
    if (only_accepted && (reqs[i].answered_status < 200 || reqs[i].answered_status >= 300))
      continue;
    json b = json::parse(reqs[i].body, nullptr, false);
    auto inv = [&](const std::string& m) {
      if (invalid) invalid->push_back("request " + std::to_string(i) + ": " + m);
    };
    if (b.is_discarded()) {
      inv("body is not JSON");
      continue;
    }
    if (!b.contains("resourceSpans") || !b["resourceSpans"].is_array()) {
      inv("no resourceSpans array");
      continue;
    }
    for (const auto& rs : b["resourceSpans"]) {
      std::map<std::string, json> res;
      if (rs.contains("resource") && rs["resource"].contains("attributes"))
        for (const auto& a : rs["resource"]["attributes"])
          if (a.is_object() && a.contains("key"))
            res[a["key"].get<std::string>()] = otlp_value(a.value("value", json()));
      if (!rs.contains("scopeSpans") || !rs["scopeSpans"].is_array()) {
        inv("resourceSpans entry without scopeSpans");
        continue;
      }
      for (const auto& ss : rs["scopeSpans"]) {
        if (!ss.contains("spans") || !ss["spans"].is_array()) {
          inv("scopeSpans entry without spans");
          continue;
        }
        for (const auto& sp : ss["spans"]) {
          Span s;
          s.span = sp;
          s.resource = res;
          if (sp.contains("attributes") && sp["attributes"].is_array())
            for (const auto& a : sp["attributes"])
              if (a.is_object() && a.contains("key") && a["key"].is_string())
                s.attrs[a["key"].get<std::string>()] = otlp_value(a.value("value", json()));
          std::string tid = sp.value("traceId", std::string()),
                      sid = sp.value("spanId", std::string());
          if (!is_hex(tid, 32))
            inv("span traceId '" + tid + "' is not 32 lowercase hex digits (non-zero)");
          if (!is_hex(sid, 16))
            inv("span spanId '" + sid + "' is not 16 lowercase hex digits (non-zero)");
          if (!sp.contains("name") || !sp["name"].is_string() ||
              sp["name"].get<std::string>().empty())
            inv("span without a name");
          for (const char* k : {"startTimeUnixNano", "endTimeUnixNano"}) {
            const json v = sp.value(k, json());
            // get_ref, not get<std::string>(): two get<>() calls are two temporaries, and a
            // begin/end pair from different strings is undefined (it failed under ASan only).
            bool ok = v.is_number_unsigned();
            if (v.is_string()) {
              const std::string& digits = v.get_ref<const std::string&>();
              ok = !digits.empty() &&
                   std::all_of(digits.begin(), digits.end(),
                               [](unsigned char c) { return c >= '0' && c <= '9'; });
            }
            if (!ok) inv(std::string("span ") + k + " missing or not a uint64 string");
          }
          out.push_back(std::move(s));
        }
      }
    }
  }
  return out;
}

std::string exit_text(const pinta::proc::SpawnResult& raw) {
  return (raw.exit_code ? std::to_string(*raw.exit_code) : std::string("none")) +
         (raw.term_signal ? " (signal " + std::to_string(*raw.term_signal) + ")" : "");
}

// A secret must not reach stdout/stderr, the collector, (optionally) the guard's body, or a file
// under HOME or the data dir.
void check_absent(const json& needles, UnitContext& u, bool include_guard_body) {
  auto files = detail::walk_files(u.home, u.env_file);
  auto more = detail::walk_files(u.data, "");
  files.insert(files.end(), more.begin(), more.end());
  for (const auto& n : needles) {
    std::string s = n.get<std::string>();
    for (const auto& o : u.outs) {
      if (o.raw.out.find(s) != std::string::npos) u.fail("secret " + s + " reached stdout");
      if (o.raw.err.find(s) != std::string::npos) u.fail("secret " + s + " reached stderr");
    }
    for (const auto& rq : u.coll_reqs) {
      if (rq.body.find(s) != std::string::npos)
        u.fail("secret " + s + " reached the collector (request body)");
    }
    if (include_guard_body)
      for (const auto& rq : u.guard_reqs)
        if (rq.body.find(s) != std::string::npos)
          u.fail("token " + s + " appears in the guard request body");
    for (const auto& [p, text] : files)
      if (text.find(s) != std::string::npos)
        u.fail("secret " + s + " written to " + p.substr(u.root.size()));
  }
}

// ---- per-run kinds -----------------------------------------------------------------------------

void e_stdout(const json& v, RunContext& r) {
  if (v == "one_json_line") {
    if (!r.one) r.fail("OUT: " + r.why + "; stdout = \"" + show_bytes(r.out.raw.out, 200) + "\"");
  } else if (v == "empty") {
    if (!r.out.raw.out.empty())
      r.fail("stdout not empty (the host shows it to the user): \"" +
             show_bytes(r.out.raw.out, 200) + "\"");
  }
}
void e_stdout_contains(const json& v, RunContext& r) {
  if (r.out.raw.out.find(v.get<std::string>()) == std::string::npos)
    r.fail("stdout lacks " + v.dump() + ": \"" + show_bytes(r.out.raw.out, 200) + "\"");
}
void e_exit_code_in(const json& v, RunContext& r) {
  const auto& raw = r.out.raw;
  bool ok = raw.exit_code && std::find(v.begin(), v.end(), json(*raw.exit_code)) != v.end();
  if (!ok) r.fail("exit status " + exit_text(raw) + ", expected one of " + v.dump());
}
void e_stderr(const json& v, RunContext& r) {
  if (v == "empty" && !r.out.raw.err.empty())
    r.fail("stderr not empty: \"" + show_bytes(r.out.raw.err, 200) + "\"");
}
void e_exit_code(const json& v, RunContext& r) {
  const auto& raw = r.out.raw;
  if (!raw.exit_code || *raw.exit_code != v.get<int>())
    r.fail("exit status " + exit_text(raw) + (raw.timed_out ? " (host timeout fired)" : "") +
           ", expected " + v.dump());
}
void e_signaled(const json& v, RunContext& r) {
  if (v == false && r.out.raw.term_signal)
    r.fail("killed by signal " + std::to_string(*r.out.raw.term_signal));
}
void e_pipes_closed(const json& v, RunContext& r) {
  const auto& raw = r.out.raw;
  if (v == true && (raw.pipes_outlived_child || raw.hard_limited))
    r.fail(
        "a process kept the host's stdout/stderr pipes open after the adapter exited "
        "(closed after " +
        fmt_us(raw.closed_after) + ", exited after " + fmt_us(raw.exited_after) + ")");
}
void e_reply(const json& v, RunContext& r) {
  if (!r.one)
    r.fail("reply: no single JSON object line (" + r.why + ")");
  else if (r.reply != v)
    r.fail("reply differs (canonical JSON):\n" + json_diff(v, r.reply));
}
void e_reply_has(const json& v, RunContext& r) {
  if (!r.one || !subset(v, r.reply))
    r.fail("reply lacks " + canonical(v) + ": got " +
           (r.one ? canonical(r.reply) : "\"" + show_bytes(r.out.raw.out, 200) + "\""));
}
void e_reply_lacks(const json& v, RunContext& r) {
  if (r.one)
    for (const auto& key : v)
      if (r.reply.contains(key.get<std::string>()))
        r.fail("reply carries forbidden field '" + key.get<std::string>() +
               "': " + canonical(r.reply));
}
// The verdict of the one reply check (pinta/hosts/reply_check.h) of the host's family on this
// event: a shared case's expectation by meaning, the same for every family.
void e_verdict(const json& v, RunContext& r) {
  const auto f = pinta::hosts::host_family(r.host);
  if (!f) {
    r.fail("verdict: the registry has no host " + r.host);
    return;
  }
  const auto& raw = r.out.raw;
  const auto rc = pinta::hosts::check_reply(*f, r.event, {raw.out, raw.exit_code, raw.err});
  if (!rc.ok()) {
    r.fail("verdict: " + std::string(pinta::hosts::family_name(*f)) +
           " does not accept the reply on " + r.event + ": " + rc.why() + "; stdout = \"" +
           show_bytes(raw.out, 200) + "\"");
    return;
  }
  const char* kind = rc.kind == pinta::hosts::ReplyKind::kDeny  ? "deny"
                     : rc.kind == pinta::hosts::ReplyKind::kAsk ? "ask"
                                                                : "allow";
  const bool ok = v == "any" || v == kind ||
                  (v.is_array() && std::find(v.begin(), v.end(), json(kind)) != v.end());
  if (!ok) r.fail("verdict: the reply is " + std::string(kind) + ", expected " + v.dump());
}
void e_effect(const json& v, RunContext& r) {
  const auto& out = r.out;
  bool ok =
      v.is_array() ? std::find(v.begin(), v.end(), json(out.effect)) != v.end() : v == out.effect;
  if (!ok)
    r.fail(
        "host effect '" + out.effect + "'" +
        (out.effect_message.empty() ? "" : " (\"" + show_bytes(out.effect_message, 200) + "\")") +
        ", expected " + v.dump());
}
void e_effect_message_contains(const json& v, RunContext& r) {
  if (r.out.effect_message.find(v.get<std::string>()) == std::string::npos)
    r.fail("host message \"" + show_bytes(r.out.effect_message, 300) + "\" does not contain " +
           v.dump());
}
// The *_within_ms kinds: the case's budget plus kBaselineSlack x the median no-op hook of this
// unit so far (calibrated_budget), so a loaded machine does not fail a prompt adapter while one
// that sleeps or waits on its stdin stays over it.
std::string within_budget_text(const json& v, const RunContext& r, double* budget_ms) {
  *budget_ms = calibrated_budget(v.get<double>(), r.baseline_ms);
  char b[160];
  if (r.baseline_ms && !r.baseline_ms->empty())
    snprintf(b, sizeof b, "budget %.1f ms (%d ms + %g x %.1f ms, a no-op hook's median here)",
             *budget_ms, v.get<int>(), kBaselineSlack, median_of(*r.baseline_ms));
  else
    snprintf(b, sizeof b, "budget %d ms", v.get<int>());
  return b;
}
bool over(std::chrono::microseconds t, double budget_ms) { return t.count() / 1000.0 > budget_ms; }
void e_reply_within_ms(const json& v, RunContext& r) {
  auto t = r.out.raw.first_stdout_after;
  double budget = 0;
  const std::string text = within_budget_text(v, r, &budget);
  if (t.count() < 0 || over(t, budget))
    r.fail("first stdout byte after " + (t.count() < 0 ? std::string("never") : fmt_us(t)) +
           ", " + text);
}
void e_exit_within_ms(const json& v, RunContext& r) {
  const auto& raw = r.out.raw;
  double budget = 0;
  const std::string text = within_budget_text(v, r, &budget);
  if (!raw.exit_code || over(raw.exited_after, budget))
    r.fail("adapter exited after " + fmt_us(raw.exited_after) + ", " + text);
}
void e_closed_within_ms(const json& v, RunContext& r) {
  const auto& raw = r.out.raw;
  double budget = 0;
  const std::string text = within_budget_text(v, r, &budget);
  if (over(raw.closed_after, budget))
    r.fail("pipes closed after " + fmt_us(raw.closed_after) + ", " + text);
}

// ---- whole-unit kinds --------------------------------------------------------------------------

void e_guard_requests(const json& v, UnitContext& u) {
  std::string want;
  if (!count_ok(v, u.guard_reqs.size(), want))
    u.fail("guard received " + std::to_string(u.guard_reqs.size()) + " request(s), expected " +
           want);
}
void e_collector_requests(const json& v, UnitContext& u) {
  std::string want;
  if (!count_ok(v, u.coll_reqs.size(), want))
    u.fail("collector received " + std::to_string(u.coll_reqs.size()) + " request(s), expected " +
           want);
}
void e_guard_request(const json& v, UnitContext& u) {
  if (u.guard_reqs.empty()) {
    u.fail("guard_request: the guard was never called");
    return;
  }
  const auto& rq = u.guard_reqs.front();
  json body = json::parse(rq.body, nullptr, false);
  if (v.contains("header"))
    for (auto h = v["header"].begin(); h != v["header"].end(); ++h)
      if (rq.header(h.key()) != subst(h.value().get<std::string>(), u.vars))
        u.fail("guard request header " + h.key() + " = \"" + rq.header(h.key()) + "\", expected " +
               h.value().dump());
  if (v.contains("json_paths"))
    for (const auto& p : v["json_paths"])
      if (body.is_discarded() || !at_path(body, p.get<std::string>()))
        u.fail("guard request body has no " + p.get<std::string>() + ": " +
               show_bytes(rq.body, 300));
  if (v.contains("json_equals"))
    for (auto e = v["json_equals"].begin(); e != v["json_equals"].end(); ++e) {
      const json* got = body.is_discarded() ? nullptr : at_path(body, e.key());
      if (!got || *got != e.value())
        u.fail("guard request " + e.key() + " = " + (got ? got->dump() : "absent") + ", expected " +
               e.value().dump());
    }
  if (v.contains("body_contains"))
    for (const auto& s : v["body_contains"])
      if (rq.body.find(s.get<std::string>()) == std::string::npos)
        u.fail("guard request body does not contain " + s.dump());
}
void e_absent(const json& v, UnitContext& u) { check_absent(v, u, false); }
void e_token_only_in_header(const json& v, UnitContext& u) {
  std::string tok = v["token"].get<std::string>();
  std::string hdr = v.value("header", std::string("x-pinta-relay-token"));
  check_absent(json::array({tok}), u, true);
  for (const auto& rq : u.guard_reqs)
    if (rq.header(hdr) != tok)
      u.fail("guard request header " + hdr + " = \"" + rq.header(hdr) + "\", expected the token");
  if (v.value("require_guard_call", false) && u.guard_reqs.empty())
    u.fail("the guard was never called");
}
void e_data_files(const json& v, UnitContext& u) {
  std::string want;
  for (auto f = v.begin(); f != v.end(); ++f) {
    std::string p = subst(f.key(), u.vars);
    std::error_code ec;
    bool ex = std::filesystem::exists(p, ec);
    const json& w = f.value();
    if (w == "exists" && !ex) u.fail("expected file " + f.key() + " to exist");
    if (w == "absent" && ex) u.fail("expected file " + f.key() + " not to exist");
    if (w.is_object() && w.contains("mode")) {
      struct stat st {};
      if (::stat(p.c_str(), &st) != 0) {
        u.fail("expected file " + f.key() + " to exist");
      } else {
        char b[8];
        snprintf(b, sizeof b, "%04o", st.st_mode & 07777);
        if (w["mode"] != b) u.fail(f.key() + " has mode " + b + ", expected " + w["mode"].dump());
      }
    }
    if (w.is_object() && w.contains("contains")) {
      auto t = pinta::fs::read_file(p);
      if (!t || t->find(w["contains"].get<std::string>()) == std::string::npos)
        u.fail(f.key() + " does not contain " + w["contains"].dump());
    }
    if (w.is_object() && w.contains("lines")) {
      auto t = pinta::fs::read_file(p);
      size_t n = t ? static_cast<size_t>(std::count(t->begin(), t->end(), '\n')) : 0;
      if (!count_ok(w["lines"], n, want))
        u.fail(f.key() + " has " + std::to_string(n) + " line(s), expected " + want);
    }
  }
}
void e_no_files_under(const json& v, UnitContext& u) {
  for (const auto& d : v) {
    auto files = detail::walk_files(subst(d.get<std::string>(), u.vars), u.env_file);
    if (!files.empty())
      u.fail("adapter created " + files.front().first + " (expected no files under " +
             d.get<std::string>() + ")");
  }
}
void e_median_ms(const json& v, UnitContext& u) {
  std::string metric = v.value("metric", std::string("closed"));
  std::vector<double> xs;
  for (const auto& o : u.outs) {
    auto t = metric == "first_stdout" ? o.raw.first_stdout_after
             : metric == "exited"     ? o.raw.exited_after
                                      : o.raw.closed_after;
    xs.push_back(t.count() / 1000.0);
  }
  std::sort(xs.begin(), xs.end());
  double med = xs.empty() ? 0 : xs[xs.size() / 2];
  const double max = v["max"].get<double>();
  const double base = u.baseline_ms ? median_of(*u.baseline_ms) : 0;
  const double budget = calibrated_budget(max, u.baseline_ms);
  u.runs.push_back({{"median_ms", med},
                    {"metric", metric},
                    {"samples", xs.size()},
                    {"baseline_median_ms", base},
                    {"budget_ms", budget}});
  if (med > budget) {
    char b[256];
    snprintf(b, sizeof b,
             "median %s time %.1f ms over %zu runs, budget %.1f ms (%g ms + %g x %.1f ms, the "
             "median of a no-op hook in this run)",
             metric.c_str(), med, xs.size(), budget, max, kBaselineSlack, base);
    u.fail(b);
  }
}
void e_collector(const json& v, UnitContext& u);

// ---- collector kinds (over the spans of the collector's requests) -------------------------------

// "each_run": at least one span per run of the unit (a case run through a sequence of events,
// "every-installed", makes as many runs as the host's family installs events).
std::string v_spans(const json& v, const std::string& at) {
  return v == "each_run" || count_spec(v)
             ? ""
             : at + " must be \"each_run\" or a count: N or {\"min\": N, \"max\": M}";
}
void e_spans(const json& v, CollectorContext& c) {
  std::string want;
  const json spec = v == "each_run" ? json{{"min", c.unit.outs.size()}} : v;
  if (!count_ok(spec, c.spans.size(), want))
    c.fail("collector got " + std::to_string(c.spans.size()) + " span(s)" +
           (c.accepted_only ? " in accepted requests" : "") + ", expected " + want);
}
void e_valid_otlp(const json& v, CollectorContext& c) {
  if (v == true)
    for (const auto& m : c.invalid) c.fail("invalid OTLP/JSON: " + m);
}
void e_path(const json& v, CollectorContext& c) {
  for (const auto& rq : c.reqs)
    if (rq.path != v) c.fail("collector request path " + rq.path + ", expected " + v.dump());
}
void e_content_type(const json& v, CollectorContext& c) {
  for (const auto& rq : c.reqs)
    if (rq.header("content-type").find(v.get<std::string>()) == std::string::npos)
      c.fail("collector request content-type \"" + rq.header("content-type") + "\", expected " +
             v.dump());
}
void e_header(const json& v, CollectorContext& c) {
  for (auto h = v.begin(); h != v.end(); ++h)
    for (const auto& rq : c.reqs)
      if (rq.header(h.key()) != h.value().get<std::string>())
        c.fail("collector request header " + h.key() + " = \"" + rq.header(h.key()) +
               "\", expected " + h.value().dump());
}
void e_names(const json& v, CollectorContext& c) {
  for (const auto& n : v) {
    bool found = std::any_of(c.spans.begin(), c.spans.end(), [&](const Span& s) {
      return s.span.value("name", std::string()) == n;
    });
    if (!found) c.fail("no span named " + n.dump());
  }
}
void attr_check(const json& want_attrs, CollectorContext& c, bool resource) {
  for (auto a = want_attrs.begin(); a != want_attrs.end(); ++a) {
    for (const auto& s : c.spans) {
      const auto& m = resource ? s.resource : s.attrs;
      auto f = m.find(a.key());
      if (f == m.end())
        c.fail(std::string(resource ? "resource" : "span") + " attribute " + a.key() +
               " missing on span " + s.span.value("name", std::string("?")));
      else if (!a.value().is_null() && f->second != a.value())
        c.fail(std::string(resource ? "resource" : "span") + " attribute " + a.key() + " = " +
               f->second.dump() + ", expected " + a.value().dump());
    }
  }
}
void e_resource(const json& v, CollectorContext& c) { attr_check(v, c, true); }
void e_attributes(const json& v, CollectorContext& c) { attr_check(v, c, false); }
void e_attributes_absent(const json& v, CollectorContext& c) {
  for (const auto& name : v)
    for (const auto& s : c.spans)
      if (auto f = s.attrs.find(name.get<std::string>()); f != s.attrs.end())
        c.fail("span attribute " + name.get<std::string>() + " = " + f->second.dump() +
               " on span " + s.span.value("name", std::string("?")) + ", expected absent");
}
void e_same_trace(const json& v, CollectorContext& c) {
  if (c.spans.size() <= 1) return;
  std::set<std::string> t;
  for (const auto& s : c.spans) t.insert(s.span.value("traceId", std::string()));
  if (v == true && t.size() != 1)
    c.fail("spans carry " + std::to_string(t.size()) + " different traceIds, expected one");
  if (v == false && t.size() != c.spans.size())
    c.fail("spans share a traceId, expected one trace each");
}
// {"trace_id": T, "span_id": S}: our spans are in the host's trace T and the outermost (each whose
// parent is none of ours) is a child of the host's span S, with a span id of its own (contract
// TRACE-4).
std::string v_parent(const json& v, const std::string& at) {
  auto hex = [](const json& x, size_t n) {
    return x.is_string() && x.get_ref<const std::string&>().size() == n &&
           x.get_ref<const std::string&>().find_first_not_of("0123456789abcdef") ==
               std::string::npos;
  };
  if (!v.is_object() || !hex(v.value("trace_id", json()), 32) ||
      !hex(v.value("span_id", json()), 16))
    return at + " must be {\"trace_id\": 32 lowercase hex, \"span_id\": 16 lowercase hex}";
  return "";
}
void e_parent(const json& v, CollectorContext& c) {
  const std::string tid = v["trace_id"].get<std::string>();
  const std::string sid = v["span_id"].get<std::string>();
  if (c.spans.empty()) c.fail("no span to check against the host's trace context");
  std::set<std::string> ours;
  for (const auto& s : c.spans) ours.insert(s.span.value("spanId", std::string()));
  for (const auto& s : c.spans) {
    const std::string name = s.span.value("name", std::string("?"));
    const std::string parent = s.span.value("parentSpanId", std::string());
    if (s.span.value("traceId", std::string()) != tid)
      c.fail("span " + name + " has traceId " + s.span.value("traceId", std::string()) +
             ", expected the host's " + tid);
    if (!ours.count(parent) && parent != sid)
      c.fail("span " + name + " has parentSpanId \"" + parent + "\", expected the host's span " +
             sid);
    if (s.span.value("spanId", std::string()) == sid)
      c.fail("span " + name + " reuses the host's span id " + sid);
  }
}
void e_distinct_span_ids(const json& v, CollectorContext& c) {
  if (v != true) return;
  std::set<std::string> ids;
  for (const auto& s : c.spans) ids.insert(s.span.value("spanId", std::string()));
  if (ids.size() != c.spans.size()) c.fail("two spans share a spanId");
}

constexpr unsigned kAnywhere = kInCaseExpect | kInStepExpect;

Matcher run_kind(const char* name, std::string (*validate)(const json&, const std::string&),
                 void (*on_run)(const json&, RunContext&), ActualView actual,
                 bool decided_at_exit = false) {
  Matcher m{name, kAnywhere, MatcherScope::kRun, validate, on_run, nullptr, nullptr};
  m.actual = actual;
  m.decided_at_exit = decided_at_exit;
  return m;
}
Matcher unit_kind(const char* name, std::string (*validate)(const json&, const std::string&),
                  void (*on_unit)(const json&, UnitContext&)) {
  return Matcher{name, kInCaseExpect, MatcherScope::kUnit, validate, nullptr, on_unit, nullptr};
}
Matcher group_kind(const char* name, std::string (*validate)(const json&, const std::string&),
                   void (*on_unit)(const json&, UnitContext&)) {
  Matcher m = unit_kind(name, validate, on_unit);
  m.group = true;
  return m;
}
Matcher collector_kind(const char* name, std::string (*validate)(const json&, const std::string&),
                       void (*on_collector)(const json&, CollectorContext&)) {
  Matcher m{name, kInCollector, MatcherScope::kCollector, validate, nullptr, nullptr, on_collector};
  m.modifier = on_collector == nullptr;
  return m;
}

const std::vector<Matcher>& registry() {
  using AV = ActualView;
  static const std::vector<Matcher> kAll = {
      // Per run: each step's expect on its runs, the case's expect on every run.
      run_kind("stdout", v_stdout, e_stdout, AV::kStdout),
      run_kind("stdout_contains", v_nonempty_string, e_stdout_contains, AV::kStdout),
      run_kind("stderr", v_stderr, e_stderr, AV::kStderr),
      run_kind("exit_code", v_exit_code, e_exit_code, AV::kExit, true),
      run_kind("exit_code_in", v_exit_code_in, e_exit_code_in, AV::kExit),
      run_kind("signaled", v_false, e_signaled, AV::kExit, true),
      run_kind("pipes_closed", v_true, e_pipes_closed, AV::kTimings),
      run_kind("reply", v_reply, e_reply, AV::kStdout),
      run_kind("reply_has", v_object, e_reply_has, AV::kStdout),
      run_kind("reply_lacks", v_names, e_reply_lacks, AV::kStdout),
      run_kind("verdict", v_verdict, e_verdict, AV::kStdout),
      run_kind("effect", v_effect, e_effect, AV::kEffect),
      run_kind("effect_message_contains", v_nonempty_string, e_effect_message_contains,
               AV::kEffect),
      run_kind("reply_within_ms", v_ms, e_reply_within_ms, AV::kTimings),
      run_kind("exit_within_ms", v_ms, e_exit_within_ms, AV::kTimings, true),
      run_kind("closed_within_ms", v_ms, e_closed_within_ms, AV::kTimings),
      // Over the whole unit, after its runs: the case's expect only.
      unit_kind("guard_requests", v_count, e_guard_requests),
      unit_kind("collector_requests", v_count, e_collector_requests),
      unit_kind("guard_request", v_guard_request, e_guard_request),
      group_kind("collector", v_collector, e_collector),
      unit_kind("absent", v_names, e_absent),
      unit_kind("token_only_in_header", v_token_only_in_header, e_token_only_in_header),
      unit_kind("data_files", v_data_files, e_data_files),
      unit_kind("no_files_under", v_names, e_no_files_under),
      unit_kind("median_ms", v_median_ms, e_median_ms),
      // expect.collector, in this order over its spans.
      collector_kind("accepted_only", v_bool, nullptr),
      collector_kind("wait_requests", v_wait_requests, nullptr),
      collector_kind("spans", v_spans, e_spans),
      collector_kind("valid_otlp", v_true, e_valid_otlp),
      collector_kind("path", v_path, e_path),
      collector_kind("content_type", v_nonempty_string, e_content_type),
      collector_kind("header", v_headers, e_header),
      collector_kind("names", v_names, e_names),
      collector_kind("resource", v_attributes, e_resource),
      collector_kind("attributes", v_attributes, e_attributes),
      collector_kind("attributes_absent", v_attribute_names, e_attributes_absent),
      collector_kind("same_trace", v_bool, e_same_trace),
      collector_kind("distinct_span_ids", v_true, e_distinct_span_ids),
      collector_kind("parent", v_parent, e_parent),
  };
  return kAll;
}

std::string v_collector(const json& v, const std::string& at) {
  if (!v.is_object()) return at + " must be an object";
  for (auto c = v.begin(); c != v.end(); ++c)
    if (!find_matcher(c.key(), true))
      return "unknown collector expectation '" + quoted_key(c.key()) + "'";
  for (auto c = v.begin(); c != v.end(); ++c) {
    const Matcher* m = find_matcher(c.key(), true);
    for (const json* x : per_host_values(c.value()))
      if (!x->is_null())
        if (auto why = m->validate(*x, at + "." + c.key()); !why.empty()) return why;
  }
  return "";
}

void e_collector(const json& v, UnitContext& u) {
  CollectorContext c{u, u.coll_reqs, {}, {}, v.value("accepted_only", false)};
  c.spans = parse_spans(u.coll_reqs, &c.invalid, c.accepted_only);
  for (const Matcher& m : registry()) {
    if (m.scope != MatcherScope::kCollector || !m.on_collector || !v.contains(m.name)) continue;
    json want = pick(v[m.name], u.host);
    if (want.is_null()) continue;
    u.set_check(check_name(m));
    m.on_collector(want, c);
  }
}

}  // namespace

const std::vector<Matcher>& matchers() { return registry(); }

const Matcher* find_matcher(const std::string& name, bool in_collector) {
  for (const Matcher& m : registry())
    if (name == m.name && ((m.scope == MatcherScope::kCollector) == in_collector)) return &m;
  return nullptr;
}

std::string check_name(const Matcher& m) {
  return m.scope == MatcherScope::kCollector ? std::string("collector.") + m.name
                                             : std::string(m.name);
}

const Matcher* find_check(const std::string& check) {
  if (check.rfind("collector.", 0) == 0) return find_matcher(check.substr(10), true);
  return find_matcher(check, false);
}

std::string validate_expect(const json& expect, MatcherPlace place) {
  for (auto it = expect.begin(); it != expect.end(); ++it) {
    const std::string& k = it.key();
    const Matcher* m = find_matcher(k, false);
    if (!m) return "unknown expectation '" + quoted_key(k) + "'";
    if (!(m->places & place))
      return "expect." + k +
             " is checked once over the whole case (after every run), not per step: move it to "
             "the case's expect";
    for (const json* v : per_host_values(it.value())) {
      if (v->is_null()) continue;
      if (auto why = m->validate(*v, "expect." + k); !why.empty()) return why;
    }
  }
  return "";
}

}  // namespace pinta::conformance
