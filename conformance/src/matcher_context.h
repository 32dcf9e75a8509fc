// What a matcher (pinta/conformance/matchers.h) sees when it is evaluated, and the runner's helpers
// the matchers share. Internal to pinta::conformance.
#pragma once

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
  const HookOutcome& out;
  const json& reply;       // the reply object when `one`
  bool one;                // stdout is one JSON object line (pinta/hosts/reply_check.h)
  const std::string& why;  // why not, when !one
  std::function<void(const std::string&)> fail;
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
};

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
// A value that may be given per family ({"gemini":…,"antigravity":…}) or per host: this host's
// (null: not applicable).
json pick(const json& v, const std::string& host);
// ${NAME} substitution.
std::string subst(std::string s, const std::map<std::string, std::string>& vars);
// The bytes as text: valid UTF-8 as itself, \n, \\, and \xNN for control bytes and invalid or
// invisible sequences; at most about `max` characters.
std::string show_bytes(const std::string& s, size_t max = 600);
std::string fmt_us(std::chrono::microseconds us);
// Regular files under root (path, content), except `skip`.
std::vector<std::pair<std::string, std::string>> walk_files(const std::string& root,
                                                            const std::string& skip);
}  // namespace detail

}  // namespace pinta::conformance
