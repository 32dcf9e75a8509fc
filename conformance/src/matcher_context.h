// What a matcher (pinta/conformance/matchers.h) sees when it is evaluated, and the runner's helpers
// the matchers share. Internal to pinta::conformance.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "pinta/conformance/conformance.h"
#include "pinta/conformance/matchers.h"

namespace pinta::conformance {

// One request a fake server (guard or collector) received, with the status it answered.
struct Recorded {
  std::string path, body;
  std::vector<std::pair<std::string, std::string>> headers;
  int answered_status = 0;
  std::string header(const std::string& lower_name) const;
};

// One run: the adapter's outcome under the host and its reply line, parsed once.
struct RunContext {
  const std::string& host;
  const std::string& event;  // the event the host sent (a role already resolved)
  const HookOutcome& out;
  const json& reply;       // the reply object when `one`
  bool one;                // stdout is one JSON object line (pinta/hosts/reply_check.h)
  const std::string& why;  // why not, when !one
  std::function<void(const std::string&)> fail;
  // Cases with a time budget: a no-op hook's pipes-closed times (ms) so far, this run's included
  // (see UnitContext::baseline_ms); the *_within_ms budgets are calibrated against them.
  const std::vector<double>* baseline_ms = nullptr;
};

// One case under one host, after its runs: every run, the fakes' requests, its directories.
struct UnitContext {
  const std::string& host;
  const std::vector<HookOutcome>& outs;
  const std::vector<Recorded>& guard_reqs;
  const std::vector<Recorded>& coll_reqs;
  const std::map<std::string, std::string>& vars;  // ${HOME} ${DATA_DIR} ${WORKSPACE} ${ROOT} …
  const std::string& root;                         // the unit's temp root
  const std::string& home;
  const std::string& data;
  const std::string& env_file;  // written by the case (not the adapter's), or ""
  json& runs;                   // HostOutcome::runs (median_ms appends its record)
  std::function<void(const std::string&)> fail;
  // Names the check being evaluated (a collector kind: "collector.spans") for the failures after.
  std::function<void(const std::string&)> set_check;
  // Cases with a time budget: the pipes-closed time (ms) of a no-op hook (/bin/true) run through
  // the same host runner right after each of the adapter's runs: what spawning any process costs
  // at that moment on this machine (the calibration of the budget; see calibrated_budget).
  const std::vector<double>* baseline_ms = nullptr;
};

// A time budget (median_ms, reply/exit/closed_within_ms) calibrated against the run's baseline: max + kBaselineSlack x the baseline's
// median. On an idle machine a no-op hook closes in ~1 ms and the budget is the case's; under
// load every spawn, the adapter's included, takes longer and the budget grows with it, while an
// adapter that sleeps (conformance/zoo/slow.sh: 300 ms) stays over it until the no-op itself takes
// (300 - max) / kBaselineSlack ms. The slack factor is measured (docs/benchmarks-history.md, "Conformance
// under load"): our adapter's median closed time stayed under 3 x the no-op's plus the budget.
inline constexpr double kBaselineSlack = 3.0;
inline double median_of(std::vector<double> xs) {
  if (xs.empty()) return 0;
  std::sort(xs.begin(), xs.end());
  return xs[xs.size() / 2];
}
inline double calibrated_budget(double max, const std::vector<double>* baseline) {
  return max + (baseline ? kBaselineSlack * median_of(*baseline) : 0.0);
}

struct Span {
  json span;
  std::map<std::string, json> attrs, resource;
};

// expect.collector: its requests' spans, parsed once for all its kinds.
struct CollectorContext {
  UnitContext& unit;
  const std::vector<Recorded>& reqs;
  std::vector<Span> spans;
  std::vector<std::string> invalid;  // OTLP/JSON problems, one line each
  bool accepted_only = false;
  void fail(const std::string& m) { unit.fail(m); }
};

namespace detail {
// A value that may be given per family ({"gemini":…,"antigravity":…}) or per host: this host's,
// else "*"'s (null: not applicable).
json pick(const json& v, const std::string& host);
// The events a case's event value means for this host: a literal as given, a role
// (pinta/conformance/features.h) through the host's family descriptor (none when it has none).
std::vector<std::string> host_events(const json& ev, const std::string& host);
// ${NAME} substitution.
std::string subst(std::string s, const std::map<std::string, std::string>& vars);
// The bytes as text: valid UTF-8 as itself, \n, \\, and \xNN for control bytes and invalid or
// invisible sequences; at most about `max` characters.
std::string show_bytes(const std::string& s, size_t max = 600);
std::string fmt_us(std::chrono::microseconds us);
// Regular files under root (path, content), except `skip`.
std::vector<std::pair<std::string, std::string>> walk_files(const std::string& root,
                                                            const std::string& skip);
// The report's record of one run (command, streams as printable text with their sizes, exit,
// timings, what the host did with it), as HostOutcome::runs holds it.
json run_record(const HookCall& call, const HookOutcome& out);
// The case has a median_ms or *_within_ms budget in its expect or a step's.
bool has_time_budget(const json& raw);
}  // namespace detail

}  // namespace pinta::conformance
