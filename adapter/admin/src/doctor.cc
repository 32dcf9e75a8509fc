// pinta-gemini doctor: reads the user's files the way each host would and says what would fire.
// Each family's checks are its own (src/<folder>.cc, FamilyAdmin::check); here are the env file,
// the endpoints, the data dir, the lint over every family's hook files, and the report.
#include "pinta/admin/doctor.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <regex>
#include <set>
#include <sstream>

#include "admin_internal.h"
#include "pinta/adapter/guard.h"
#include "pinta/adapter/guard_keeper.h"
#include "pinta/adapter/handler.h"
#include "pinta/adapter/otlp.h"
#include "pinta/adapter/config.h"
#include "pinta/adapter/http.h"
#include "pinta/adapter/span_queue.h"
#include "pinta/admin/install.h"
#include "pinta/common/fs.h"
#include "pinta/hostlint/lint.h"

namespace pinta::admin {

using json = nlohmann::json;

void add(DoctorReport& r, std::string area, std::string level, std::string message,
         std::string fix, json detail) {
  r.findings.push_back(Finding{std::move(area), std::move(level), std::move(message),
                               std::move(fix), std::move(detail)});
}

bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

bool executable(const std::string& p) { return ::access(p.c_str(), X_OK) == 0; }

bool is_ours(const std::string& cmd, const char* agent) {
  return contains(cmd, std::string("--agent ") + agent) && contains(cmd, "pinta-gemini");
}

namespace {

// ---- Env file, endpoints, data dir
// ---------------------------------------------------------------

// The env file as the adapter loads it (load_env_file, the same function). A line the adapter
// skips is not ok: what it meant to set is not set (a BOM made the first line, the
// guard endpoint, a skipped line while doctor said "[ok] env file loaded"). Each skipped line is
// named by its number and, where it can be told, the variable it meant; never by its value.
// A skipped line that names one of the adapter's own variables (PINTA_*, GEMINI_PLUGIN_*, OTEL_*,
// SSL_CERT_*) is broken, any other one a warning.
void check_env(const DoctorOptions& o, DoctorReport& r) {
  auto load = adapter::load_env_file(o.env_file);
  using O = adapter::EnvFileOutcome;
  json d = {{"path", o.env_file}, {"applied", load.applied}};
  switch (load.outcome) {
    case O::kLoaded: {
      if (load.bad_lines.empty()) {
        add(r, "env", "ok",
            "env file " + o.env_file + " loaded" +
                (load.utf8_bom ? " (the UTF-8 byte order mark at its start is skipped)" : ""),
            "", d);
        break;
      }
      const bool ours = std::any_of(load.bad_lines.begin(), load.bad_lines.end(),
                                    [](const adapter::EnvFileBadLine& b) { return b.ours; });
      std::string numbers;
      for (const auto& b : load.bad_lines) {
        if (numbers.size() > 60) {
          numbers += ", …";
          break;
        }
        numbers += (numbers.empty() ? "" : ", ") + std::to_string(b.line);
      }
      d["skipped_lines"] = load.bad_lines.size();
      add(r, "env", ours ? "broken" : "warn",
          "env file " + o.env_file + " loaded, but " + std::to_string(load.bad_lines.size()) +
              " malformed line(s) are skipped (line " + numbers + "): what they set is not set",
          "fix or delete each skipped line below (KEY=value, docs/contract.md ENV-2)", d);
      constexpr size_t kShown = 20;
      for (size_t i = 0; i < load.bad_lines.size() && i < kShown; ++i) {
        const auto& b = load.bad_lines[i];
        const std::string at = "env file line " + std::to_string(b.line);
        std::string message = at, fix;
        if (!b.key.empty()) message += " (" + b.key + ")";
        message += " is skipped: " + std::string(b.why);
        if (b.why == "not a variable name" && !b.key.empty())
          fix = "retype the name on line " + std::to_string(b.line) +
                ": it holds invisible or non-ASCII characters, shown as <U+…> / <0x…>";
        else if (b.why == "not a variable name")
          fix = "line " + std::to_string(b.line) +
                ": the text before '=' must be a name ([A-Za-z_][A-Za-z0-9_]*)";
        else if (!b.key.empty())
          fix = "rewrite line " + std::to_string(b.line) + " as " + b.key + "=value";
        else
          fix = "make line " + std::to_string(b.line) + " KEY=value or a # comment, or delete it";
        json ld = {{"path", o.env_file}, {"line", b.line}, {"why", std::string(b.why)}};
        if (!b.key.empty()) ld["key"] = b.key;
        add(r, "env", b.ours ? "broken" : "warn", message, fix, ld);
      }
      if (load.bad_lines.size() > kShown)
        add(r, "env", ours ? "broken" : "warn",
            "and " + std::to_string(load.bad_lines.size() - kShown) + " more skipped line(s) in " +
                o.env_file,
            "fix or delete them (KEY=value, docs/contract.md ENV-2)", d);
      break;
    }
    case O::kAbsent:
      add(r, "env", "info", "no env file at " + o.env_file, "", d);
      break;
    case O::kInsecure:
      add(r, "env", "broken", "env file " + o.env_file + " is ignored: " + load.detail,
          "chmod 600 " + o.env_file, d);
      break;
    case O::kUnreadable:
      if (load.utf16) {
        add(r, "env", "broken",
            "env file " + o.env_file +
                " is UTF-16 text, which the adapter does not read: none of its settings apply "
                "(no guard, no telemetry from it)",
            "save it as UTF-8: iconv -f UTF-16 -t UTF-8 " + o.env_file + " > " + o.env_file +
                ".new && mv " + o.env_file + ".new " + o.env_file +
                " (in PowerShell: Set-Content -Encoding utf8; in an editor: Save as, UTF-8)",
            d);
        break;
      }
      add(r, "env", "broken", "env file " + o.env_file + " is unreadable: " + load.detail,
          "check the permissions of " + o.env_file, d);
      break;
  }
}

// ---- Guard and collector: the adapter's own configuration readers, client and rules ---------

std::string env_value(const char* name) {
  const char* v = std::getenv(name);  // NOLINT(concurrency-mt-unsafe)
  return v ? std::string(v) : std::string();
}

double elapsed_ms(std::chrono::steady_clock::time_point t0) {
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return std::round(ms * 10) / 10;
}

std::string ms_text(double ms) {
  std::ostringstream out;
  out << ms;
  return out.str();
}

// Whether a secret can go into an HTTP header as the adapter sends it (http::valid_header_value,
// the check send() itself makes): "" when it can; otherwise why not. `warning` is set for a value
// that is sent but arrives changed or is likely a paste error (non-ASCII octets, whitespace at
// either end, which the receiver strips).
std::string header_value_problem(const std::string& value, std::string& warning) {
  warning.clear();
  if (!http::valid_header_value(value)) {
    const bool line_break = value.find_first_of("\r\n") != std::string::npos;
    return line_break ? "holds a line break (CR or LF)"
           : value.find('\0') != std::string::npos ? "holds a NUL byte"
                                                    : "holds a control character";
  }
  if (std::any_of(value.begin(), value.end(),
                  [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
    warning = "holds non-ASCII bytes (a paste error? many servers compare them differently)";
  else if (!value.empty() && (value.front() == ' ' || value.front() == '\t' ||
                              value.back() == ' ' || value.back() == '\t'))
    warning = "starts or ends with whitespace, which the receiver strips";
  return {};
}

// How a guard check that gave no verdict failed, from the guard client's own words (guard.cc):
// "status N" (the guard answered N), "<error code>: ..." (no answer: DNS, connect, TLS, timeout,
// a malformed response, a refused request), anything else (the reply is not a verdict).
struct GuardFailure {
  int status = 0;          // the HTTP status when the guard answered
  bool no_answer = false;  // transport or protocol failure
  bool timed_out = false;
};
GuardFailure classify_guard_error(const std::string& error) {
  GuardFailure f;
  if (error.rfind("status ", 0) == 0) {
    // A 2xx without a readable verdict ("status 200: reply has no decision") is "answered, but
    // not with a verdict" (status 0 here); any other status is the refusal itself (GUARD-16).
    const int status = std::atoi(error.c_str() + 7);
    if (status < 200 || status > 299) f.status = status;
    return f;
  }
  if (error == "internal error") {  // the client's catch-all: no answer to judge
    f.no_answer = true;
    return f;
  }
  for (ErrorCode c : {ErrorCode::kInvalidArgument, ErrorCode::kTimeout, ErrorCode::kUnavailable,
                      ErrorCode::kProtocol, ErrorCode::kTooLarge, ErrorCode::kInternal})
    if (error.rfind(std::string(error_code_name(c)) + ": ", 0) == 0) {
      f.no_answer = true;
      f.timed_out = c == ErrorCode::kTimeout;
    }
  return f;
}

// The guard, configured and asked exactly as a gate event asks it: GuardConfig from the same
// reader (guard_config_from_environment), the production client (make_http_guard_client: same
// URL, headers — x-pinta-relay-token included —, body by guard_request_body, response cap and
// verdict parser), on a harmless synthetic Gemini BeforeTool call (read_file of a file named
// pinta-doctor-probe). Only the deadline differs (probe_timeout_ms, so that a slow guard can be
// told from a dead one; the time is then held against PINTA_GUARD_TIMEOUT_MS), and no keeper or
// TLS session file is used (doctor writes nothing in the data dir).
// A guard behind a body limit (nginx client_max_body_size, Express json()) refuses the largest
// requests the adapter sends; the adapter then judges such calls on the minimal request only
// (GUARD-16), which a deployment cannot see. Asked once with a request near the bound.
void check_guard_body_limit(const DoctorOptions& o, const pinta::adapter::GuardConfig& g,
                            pinta::adapter::GuardClient& client, pinta::adapter::CanonicalEvent ev,
                            DoctorReport& r) {
  namespace ad = pinta::adapter;
  ev.tool_input["content"] = std::string(g.policy.max_request_bytes, 'x');  // cut to fit the bound
  const ad::GuardVerdict v = client.check(
      ev, ad::new_span_id(), Deadline::after(std::chrono::milliseconds(o.probe_timeout_ms)));
  json d = {{"url", g.endpoint}, {"max_request_bytes", g.policy.max_request_bytes}};
  if (v.decision != ad::GuardVerdict::Decision::kUnavailable && v.error.rfind("full request: ", 0) != 0) {
    add(r, "endpoint", "ok",
        "guard takes requests of " + std::to_string(g.policy.max_request_bytes) +
            " bytes (PINTA_GUARD_MAX_REQUEST_BYTES): large tool calls are shown in full view",
        "", d);
    return;
  }
  d["error"] = v.error;
  const bool minimal_answered = v.decision != ad::GuardVerdict::Decision::kUnavailable;
  add(r, "endpoint", "warn",
      "guard refused a request of " + std::to_string(g.policy.max_request_bytes) + " bytes (" + v.error +
          "): tool calls with large arguments are judged on the 4 KiB minimal request" +
          (minimal_answered ? "" : ", or fail open when that fails too"),
      "raise the body limit in front of the guard (nginx client_max_body_size, Express json({limit})) "
      "or lower PINTA_GUARD_MAX_REQUEST_BYTES (docs/contract.md GUARD-15, GUARD-16)",
      d);
}

// The guard's settings, before anything is sent: false when there is no guard to ask or a
// setting already makes every guard check fail open (said).
bool guard_settings_usable(const pinta::adapter::GuardConfig& g, DoctorReport& r) {
  if (g.endpoint.empty()) {
    add(r, "endpoint", "info", "PINTA_GUARD_ENDPOINT not set: no guard (every tool call allowed)");
    return false;
  }
  if (!g.enabled) {
    add(r, "endpoint", "info", "guard disabled by PINTA_GUARD_DISABLED (every tool call allowed)");
    return false;
  }
  if (!g.note.empty())
    add(r, "endpoint", "warn", "guard setting ignored: " + g.note,
        "fix the value in the env file (docs/contract.md GUARD-2)");
  if (!http::parse_url(g.endpoint)) {
    add(r, "endpoint", "broken",
        "guard " + g.endpoint + " is not an http(s) URL: every guard check fails open (every tool call allowed)",
        "fix PINTA_GUARD_ENDPOINT in the env file");
    return false;
  }
  std::string warning;
  const std::string token_problem = header_value_problem(g.relay_token, warning);
  if (!token_problem.empty()) {
    // The adapter's client refuses to send such a header (nothing is sent): every guard check is
    // unavailable and fails open. The value itself is never printed.
    add(r, "endpoint", "broken",
        "PINTA_RELAY_TOKEN " + token_problem +
            ": the adapter refuses to put it in the x-pinta-relay-token header, so every guard "
            "check fails open (every tool call allowed)",
        "set PINTA_RELAY_TOKEN to the token alone, on one line (a quoted \"\\r\" or \"\\n\" in the "
        "env file, or a CR from a Windows editor, ends up in the value)",
        {{"variable", "PINTA_RELAY_TOKEN"}, {"length", g.relay_token.size()}});
    return false;
  }
  if (!warning.empty())
    add(r, "endpoint", "warn", "PINTA_RELAY_TOKEN " + warning,
        "set PINTA_RELAY_TOKEN to the token alone", {{"variable", "PINTA_RELAY_TOKEN"}});
  return true;
}

// The harmless call the guard is asked about: a Gemini BeforeTool read_file of a file named
// pinta-doctor-probe.
pinta::adapter::CanonicalEvent guard_probe_event(const DoctorOptions& o) {
  namespace ad = pinta::adapter;
  ad::CanonicalEvent ev;
  ev.family = ad::Family::kGemini;
  ev.agent = "gemini";
  ev.hook = "BeforeTool";
  ev.known_event = true;
  ev.tool_event = true;
  ev.session_id = "pinta-doctor-probe";
  ev.cwd = o.workspace;
  ev.tool_name = "read_file";
  ev.tool_input = {{"file_path", "pinta-doctor-probe"}};
  return ev;
}

// A probe the guard did not answer with a verdict: refused, a non-2xx status, no answer, or a
// reply that is not a verdict.
void report_guard_failure(const pinta::adapter::GuardConfig& g,
                          const pinta::adapter::GuardVerdict& v, double ms, json d,
                          DoctorReport& r) {
  const std::string url = g.endpoint;
  d["error"] = v.error;
  const GuardFailure f = classify_guard_error(v.error);
  if (f.status == 401 || f.status == 403) {
    d["status"] = f.status;
    add(r, "endpoint", "broken",
        "guard " + url + " refused the request (HTTP " + std::to_string(f.status) + ", " +
            (g.relay_token.empty() ? "no x-pinta-relay-token sent" : "x-pinta-relay-token sent") +
            "): every guard check fails open (every tool call allowed)",
        g.relay_token.empty() ? "check PINTA_RELAY_TOKEN: it is not set, and this guard wants one"
                              : "check PINTA_RELAY_TOKEN: this guard does not accept it",
        d);
  } else if (f.status != 0) {
    d["status"] = f.status;
    add(r, "endpoint", "broken",
        "guard " + url + " answered HTTP " + std::to_string(f.status) +
            " (only 2xx carries a verdict, or a DENY at any status): every guard check fails open "
            "(every tool call allowed)",
        "check the guard's URL path and logs", d);
  } else if (f.no_answer) {
    add(r, "endpoint", "broken",
        "guard " + url + " unreachable (" + v.error + ") after " + ms_text(ms) +
            " ms: every guard check fails open (every tool call allowed)",
        f.timed_out ? "start the guard or move it closer; hooks fail open meanwhile"
                    : "start the service or fix the URL; hooks fail open meanwhile",
        d);
  } else {
    d["status"] = 200;
    // "status 200: reply has no decision" → "reply has no decision"
    std::string why = v.error;
    if (why.rfind("status ", 0) == 0 && why.find(": ") != std::string::npos)
      why = why.substr(why.find(": ") + 2);
    add(r, "endpoint", "broken",
        "guard " + url + " answered 200 but not with a verdict (" + why +
            "): every guard check fails open (every tool call allowed)",
        "the guard must answer {\"decision\":\"ALLOW\"|\"DENY\"|\"REVIEW\"} (docs/contract.md GUARD-6)",
        d);
  }
}

void check_guard(const DoctorOptions& o, DoctorReport& r) {
  namespace ad = pinta::adapter;
  ad::GuardConfig g = ad::guard_config_from_environment();
  if (!guard_settings_usable(g, r)) return;
  if (!o.probe_network) return;

  ad::GuardConfig probe_config = g;
  probe_config.keeper = false;
  probe_config.data_dir.clear();
  auto client = ad::make_http_guard_client(probe_config);
  const ad::CanonicalEvent ev = guard_probe_event(o);
  const auto t0 = std::chrono::steady_clock::now();
  const ad::GuardVerdict v = client->check(
      ev, ad::new_span_id(), Deadline::after(std::chrono::milliseconds(o.probe_timeout_ms)));
  const double ms = elapsed_ms(t0);
  const std::string url = g.endpoint;
  json d = {{"url", url}, {"ms", ms}, {"budget_ms", g.policy.timeout.count()},
            {"relay_token", !g.relay_token.empty()}};
  using D = ad::GuardVerdict::Decision;
  if (v.decision != D::kUnavailable) {
    const char* decision = v.decision == D::kAllow ? "ALLOW" : v.decision == D::kDeny ? "DENY" : "REVIEW";
    d["status"] = 200;
    d["decision"] = decision;
    const std::string msg = "guard " + url + " answered " + decision + " in " + ms_text(ms) +
                            " ms (a probe read_file call)";
    if (ms > static_cast<double>(g.policy.timeout.count()))
      add(r, "endpoint", "warn",
          msg + ", over the " + std::to_string(g.policy.timeout.count()) +
              " ms guard budget (PINTA_GUARD_TIMEOUT_MS): hooks fail open",
          "move the guard closer or make it faster, or raise PINTA_GUARD_TIMEOUT_MS", d);
    else
      add(r, "endpoint", "ok", msg, "", d);
    check_guard_body_limit(o, g, *client, ev, r);
    return;
  }
  report_guard_failure(g, v, ms, std::move(d), r);
}

// The headers the flusher sends: entries the list parser dropped (no '=', empty key, CR/LF/NUL)
// are named, and so is a header the HTTP client would refuse (every export would fail). Returns
// whether every header can be sent.
bool collector_headers_sendable(const pinta::adapter::otlp::ExportConfig& ec, DoctorReport& r) {
  namespace otlp = pinta::adapter::otlp;
  const char* list_var = !env_value("GEMINI_PLUGIN_OPTION_HEADERS").empty()
                             ? "GEMINI_PLUGIN_OPTION_HEADERS"
                             : "OTEL_EXPORTER_OTLP_HEADERS";
  size_t dropped = 0;
  (void)otlp::parse_header_list(env_value(list_var), &dropped);
  if (dropped > 0)
    add(r, "endpoint", "warn",
        std::to_string(dropped) + " entr" + (dropped == 1 ? "y" : "ies") + " of " + list_var +
            " ignored (not k=v, an empty key, or a line break or NUL in it): that header is not sent",
        "write " + std::string(list_var) + " as k=v,k2=v2 (percent-encode special characters)",
        {{"variable", list_var}, {"ignored", dropped}});
  bool sendable = true;
  for (const auto& [name, value] : ec.headers) {
    const std::string source = name == "x-pinta-relay-token" &&
                                       !env_value("GEMINI_PLUGIN_OPTION_API_KEY").empty()
                                   ? "GEMINI_PLUGIN_OPTION_API_KEY"
                                   : list_var;
    std::string warning;
    std::string problem = http::valid_header_name(name) ? header_value_problem(value, warning)
                                                        : "has a name that is not an HTTP token";
    if (!problem.empty()) {
      add(r, "endpoint", "broken",
          "collector header " + (http::valid_header_name(name) ? name : std::string("(unnamed)")) +
              " from " + source + " " + problem +
              ": the adapter refuses to send it, so every export fails and spans stay queued",
          "fix " + source + " (one line; percent-encode special characters in a header list)",
          {{"variable", source}});
      sendable = false;
    } else if (!warning.empty()) {
      add(r, "endpoint", "warn", "collector header " + name + " from " + source + " " + warning,
          "fix " + source, {{"variable", source}});
    }
  }
  return sendable;
}

// An empty export request, sent with those headers; the answer judged by the flusher's rules.
void probe_collector(const DoctorOptions& o, const pinta::adapter::otlp::ExportConfig& ec, json d,
                     DoctorReport& r) {
  namespace otlp = pinta::adapter::otlp;
  http::Request rq;
  rq.method = "POST";
  rq.url = ec.endpoint;
  rq.headers = {{"Content-Type", "application/json"}};
  for (const auto& h : ec.headers) rq.headers.push_back(h);
  rq.body = R"({"resourceSpans":[]})";
  const auto t0 = std::chrono::steady_clock::now();
  auto res = http::send(rq, Deadline::after(std::chrono::milliseconds(o.probe_timeout_ms)));
  d["ms"] = elapsed_ms(t0);
  const std::string head = "collector " + ec.endpoint;
  if (!res) {
    d["error"] = res.error().message;
    add(r, "endpoint", "broken",
        head + " unreachable (" + std::string(error_code_name(res.error().code)) + ": " +
            res.error().message + "); spans stay queued",
        "start the collector or fix " + ec.endpoint_from, d);
    return;
  }
  const int st = res->status;
  d["status"] = st;
  const std::string msg = head + " answered " + std::to_string(st) + " in " +
                          ms_text(d["ms"].get<double>()) + " ms";
  const auto verdict = otlp::classify_response(st, res->header("retry-after"), res->body,
                                               static_cast<int64_t>(std::time(nullptr)));
  if (st >= 300 && st < 400)
    add(r, "endpoint", "warn", msg + ": a redirect, which OTLP exporters do not follow (spans stay queued)",
        "set " + ec.endpoint_from + " to the URL the redirect points at", d);
  else if (st == 401 || st == 403)
    add(r, "endpoint", "broken", msg + ": the collector refuses the credentials; spans are dropped",
        "check GEMINI_PLUGIN_OPTION_HEADERS / OTEL_EXPORTER_OTLP_HEADERS and GEMINI_PLUGIN_OPTION_API_KEY", d);
  else if (verdict.verdict == otlp::Verdict::kDelivered)
    add(r, "endpoint", "ok", msg, "", d);
  else if (verdict.verdict == otlp::Verdict::kRetry)
    add(r, "endpoint", "warn", msg + ": the collector asks to retry later (spans stay queued)",
        "check the collector's load", d);
  else
    add(r, "endpoint", "broken", msg + ": spans sent there are dropped",
        "check the endpoint path (" + ec.endpoint_from + ")", d);
}

// The collector as the adapter resolves it (otlp::export_config: GEMINI_PLUGIN_OPTION_ENDPOINT >
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT > OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces, the first
// non-empty one, which must be an http(s) URL or telemetry is off; its headers), probed with those
// headers and an empty export request, the answer judged by the flusher's rules (3xx: kept
// queued; otlp::classify_response otherwise).
void check_collector(const DoctorOptions& o, DoctorReport& r) {
  namespace otlp = pinta::adapter::otlp;
  const otlp::ExportConfig ec = otlp::export_config_from_environment();
  static constexpr const char* kEndpointVars[] = {"GEMINI_PLUGIN_OPTION_ENDPOINT",
                                                   "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                                                   "OTEL_EXPORTER_OTLP_ENDPOINT"};
  json shadowed = json::array();
  bool after = false;
  for (const char* n : kEndpointVars) {
    if (after && !env_value(n).empty()) shadowed.push_back(n);
    after = after || n == ec.endpoint_from;
  }
  if (ec.endpoint_from.empty()) {
    add(r, "endpoint", "info",
        "no OTLP endpoint configured (GEMINI_PLUGIN_OPTION_ENDPOINT, "
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT): spans are not exported");
    return;
  }
  json d = {{"from", ec.endpoint_from}, {"shadowed", shadowed}};
  const std::string shadow_note =
      shadowed.empty() ? std::string()
                       : " (it wins over " + shadowed[0].get<std::string>() +
                             (shadowed.size() > 1 ? " and " + shadowed[1].get<std::string>() : "") + ")";
  if (!ec.enabled || !http::parse_url(ec.endpoint)) {
    d["value"] = env_value(ec.endpoint_from.c_str());
    add(r, "endpoint", "broken",
        ec.endpoint_from + " is set but is not an http(s) URL" + shadow_note +
            ": telemetry is off",
        "fix " + ec.endpoint_from + " in the env file (the first non-empty endpoint variable is used)",
        d);
    return;
  }
  d["url"] = ec.endpoint;
  add(r, "endpoint", "info",
      "spans are exported to " + ec.endpoint + " (from " + ec.endpoint_from + ")" + shadow_note, "",
      d);
  const bool sendable = collector_headers_sendable(ec, r);
  if (!o.probe_network || !sendable) return;
  probe_collector(o, ec, std::move(d), r);
}

void check_endpoints(const DoctorOptions& o, DoctorReport& r) {
  check_guard(o, r);
  check_collector(o, r);
}

// An https guard's keeper (docs/contract.md GUARD-13): running, or why there is none.
void check_guard_keeper(const std::string& data_dir, DoctorReport& r) {
  const char* endpoint = std::getenv("PINTA_GUARD_ENDPOINT");
  if (endpoint == nullptr || std::string_view(endpoint).rfind("https://", 0) != 0) return;
  if (!pinta::adapter::keeper_enabled_from_environment()) {
    add(r, "guard", "info", "guard keeper off (PINTA_GUARD_KEEPER): every https gate event makes its own TLS connection");
    return;
  }
  const auto place = pinta::adapter::keeper_place(data_dir, endpoint);
  if (place.socket_path.empty()) {
    add(r, "guard", "warn",
        "no guard keeper: its socket path in " + data_dir + " would be longer than a Unix socket allows",
        "set GEMINI_PLUGIN_DATA to a shorter path (each https gate event now makes its own TLS connection)");
    return;
  }
  const int pid = pinta::adapter::keeper_pid(place);
  json d = {{"socket", place.socket_path}, {"pid", pid}};
  if (pid > 0)
    add(r, "guard", "ok", "guard keeper running (pid " + std::to_string(pid) + "), holding the https connection", "", d);
  else
    add(r, "guard", "info", "no guard keeper running; the next https gate event starts one", "", d);
}

// What the flusher recorded in failed-spans.state (counters since the data dir was created) and
// failed-spans.unwritten, read without a lock and without creating anything: redirects (OTLP
// exporters do not follow them, so the spans stay queued), spans the collector refused, spans
// that could not be queued, spans dropped because the queue was full (docs/contract.md OTLP).
void check_delivery(const std::string& data_dir, DoctorReport& r) {
  namespace ad = pinta::adapter;
  const std::string state = fs::join(data_dir, ad::kQueueStateFile);
  ad::QueueCounters c;
  if (auto t = fs::read_private_file(state)) c = ad::QueueCounters::from_json(json::parse(*t, nullptr, false));
  ad::QueueOptions qo;
  qo.dir = data_dir;
  c.unwritten = ad::SpanQueue(qo).unwritten();
  json d = c.to_json();
  d["state"] = state;
  const std::string status = c.last_status > 0 ? "HTTP " + std::to_string(c.last_status)
                             : c.last_status < 0 ? "no answer" : "none yet";
  bool any = false;
  if (c.redirects > 0) {
    add(r, "telemetry", "warn",
        "the collector answered with a redirect " + std::to_string(c.redirects) +
            " time(s) (last status: " + status +
            "); spans stay queued, because OTLP exporters do not follow redirects",
        "set OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) to the URL the redirect points at",
        d);
    any = true;
  }
  if (c.dropped_http > 0 || c.rejected > 0) {
    add(r, "telemetry", "warn",
        std::to_string(c.dropped_http + c.rejected) +
            " span(s) refused by the collector and dropped (last status: " + status + ")",
        "check the endpoint path and OTEL_EXPORTER_OTLP_HEADERS (authentication)", d);
    any = true;
  }
  if (c.unwritten > 0) {
    add(r, "telemetry", "warn",
        std::to_string(c.unwritten) +
            " span(s) could not be queued (no room to write them, not even as a side file: a "
            "full disk or a file-size limit; or a span over the 2 MiB line cap)",
        "free space on the data dir's disk; the reply was never delayed (docs/contract.md OTLP-6)",
        d);
    any = true;
  }
  if (c.poisoned > 0) {
    // flusher.cc: a batch at the head that failed kPoisonTries times while the batch after it
    // went through is set aside (docs/contract.md OTLP), so one span the collector can never
    // take does not stop the queue. Not lost: kept for the user to look at.
    add(r, "telemetry", "warn",
        std::to_string(c.poisoned) +
            " span(s) set aside as a poison batch: the collector failed the same batch again and "
            "again while later batches went through; kept in " +
            fs::join(data_dir, ad::kQueuePoisonFile),
        "read the kept spans and the collector's log for why it refuses them", d);
    any = true;
  }
  if (c.dropped_cap > 0) {
    add(r, "telemetry", "warn",
        std::to_string(c.dropped_cap) + " oldest span(s) dropped because the queue was full",
        "the collector was unreachable for long; raise PINTA_QUEUE_MAX_SPANS / "
        "PINTA_QUEUE_MAX_BYTES or fix the endpoint",
        d);
    any = true;
  }
  if (!any && (c.delivered > 0 || c.last_status != 0))
    add(r, "telemetry", "ok",
        std::to_string(c.delivered) + " span(s) delivered; last collector status: " + status, "",
        d);
}

void check_data(const DoctorOptions& o, DoctorReport& r) {
  json d = {{"path", o.data_dir}};
  struct stat st {};
  if (::stat(o.data_dir.c_str(), &st) != 0) {
    add(r, "data", "info",
        "data dir " + o.data_dir + " does not exist yet (created on first event)", "", d);
    return;
  }
  // The adapter's own rule (ENV-9, fs::check_private_dir): a dir owned by someone else or
  // writable by group/others is not used at all — no debug log, no telemetry.
  if (Status trust = fs::check_private_dir(o.data_dir); !trust.ok()) {
    d["refused"] = trust.error().message;
    const bool foreign = S_ISDIR(st.st_mode) && st.st_uid != ::geteuid();
    add(r, "data", "broken",
        "data dir " + o.data_dir + " is refused by the adapter (" + trust.error().message +
            "): debug log and telemetry are off",
        foreign ? "set GEMINI_PLUGIN_DATA to a directory of your own (mode 700)"
                : "chmod 700 " + o.data_dir + " (owner: the user running the hosts)",
        d);
    return;
  }
  if (::access(o.data_dir.c_str(), W_OK) != 0) {
    add(r, "data", "broken", "data dir " + o.data_dir + " is not a writable directory",
        "chmod 700 " + o.data_dir + " (owner: the user running the hosts)", d);
    return;
  }
  check_delivery(o.data_dir, r);
  check_guard_keeper(o.data_dir, r);
  std::string queue = fs::join(o.data_dir, "failed-spans.jsonl");
  size_t lines = 0;
  std::string last;
  if (auto t = fs::read_private_file(queue)) {
    std::istringstream in(*t);
    for (std::string l; std::getline(in, l);)
      if (!l.empty()) {
        ++lines;
        last = l;
      }
  }
  // Spans an append wrote to an overflow slot (the queue was busy) wait too, until the flusher's
  // next pass folds them in (docs/contract.md OTLP-6).
  size_t in_slots = 0;
  for (int n = 0; n < pinta::adapter::kQueueSlots; ++n)
    if (auto t = fs::read_private_file(
            fs::join(o.data_dir, std::string(pinta::adapter::kQueueSlotPrefix) + std::to_string(n))))
      in_slots += static_cast<size_t>(std::count(t->begin(), t->end(), '\n'));
  lines += in_slots;
  d["queue_length"] = lines;
  d["in_overflow_slots"] = in_slots;
  if (lines == 0) {
    add(r, "data", "ok", "data dir " + o.data_dir + ": retry queue empty", "", d);
    return;
  }
  std::string err;
  json lj = json::parse(last, nullptr, false);
  if (lj.is_object())
    for (const char* k : {"error", "last_error", "lastError"})
      if (lj.contains(k) && lj[k].is_string()) err = lj[k].get<std::string>();
  d["last_error"] = err;
  add(r, "data", lines >= 1000 ? "broken" : "warn",
      std::to_string(lines) + " span(s) waiting in " + queue +
          (err.empty() ? "" : "; last error: " + err),
      "check the collector endpoint; the queue drains on the next successful export", d);
}

// `hostemu lint` on the hook files the family checks read (each family's lint_files, in
// registration order): its errors, one finding each (area "lint", level warn: the file's own hooks
// are affected; ours are judged by the family checks).
void check_lint(const DoctorOptions& o, DoctorReport& r) {
  namespace hl = pinta::hostlint;
  std::set<std::string> seen;
  for (const auto& family : hosts::families()) {
    const hl::Host host = family.id;
    if (!o.host.empty() && o.host != hl::host_name(host)) continue;
    for (const auto& [path, home] : family_admin(host).lint_files.value(o)) {
      if (!fs::exists(path) || !seen.insert(hl::host_name(host) + std::string(":") + path).second)
        continue;
      hl::LintOptions lo;
      lo.host = host;
      lo.home = home;
      lo.workspace = o.workspace;
      lo.profiles_dir = o.profile_dir;
      auto findings = hl::lint_paths({path}, lo);
      if (!findings) continue;  // unreadable: the host checks report it
      for (const auto& f : *findings)
        if (f.severity == hl::Severity::kError)
          add(r, "lint", "warn",
              f.file + ":" + std::to_string(f.pos.line) + ":" + std::to_string(f.pos.col) + ": " +
                  f.rule + ": " + f.message,
              f.hint + " (docs/lint.md#" + f.rule + ")",
              {{"file", f.file}, {"line", f.pos.line}, {"col", f.pos.col}, {"rule", f.rule}});
    }
  }
}

}  // namespace

bool DoctorReport::broken() const {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& f) { return f.level == "broken"; });
}

json DoctorReport::to_json() const {
  json out = {{"ok", !broken()}, {"findings", json::array()}};
  for (const auto& f : findings)
    out["findings"].push_back({{"area", f.area},
                               {"level", f.level},
                               {"message", f.message},
                               {"fix", f.fix},
                               {"detail", f.detail}});
  return out;
}

std::string DoctorReport::to_text() const {
  std::ostringstream out;
  for (const auto& f : findings) {
    out << "[" << f.level << "] " << f.area << ": " << f.message << "\n";
    if (!f.fix.empty() && f.level != "ok" && f.level != "info") out << "    fix: " << f.fix << "\n";
  }
  out << (broken() ? "doctor: broken\n" : "doctor: ok\n");
  return out.str();
}

DoctorReport run_doctor(const DoctorOptions& options) {
  DoctorOptions o = options;
  if (o.gemini_home.empty()) o.gemini_home = o.home;
  if (o.env_file.empty()) o.env_file = fs::join(o.home, ".gemini/pinta-gemini.env");
  DoctorReport r;
  check_env(o, r);  // first: the env file can set the endpoints checked below
  if (o.data_dir.empty()) {
    const char* d = std::getenv("GEMINI_PLUGIN_DATA");
    o.data_dir = d && *d ? d : fs::join(o.home, ".gemini/pinta-gemini-data");
  }
  const bool all = o.host.empty();
  // Each family's check (families.def), in registration order.
  for (const auto& family : hosts::families())
    if (all || o.host == family.name) family_admin(family.id).check.value(o, r);
  check_lint(o, r);
  check_endpoints(o, r);
  check_data(o, r);
  return r;
}

}  // namespace pinta::admin
