// Reporting the campaign's findings (report.h).
#include "report.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "judge.h"
#include "pinta/hosts/hosts.h"

namespace pinta::fuzz::campaign {
namespace {

namespace stdfs = std::filesystem;
using nlohmann::json;
using pinta::fakes::Reply;
using pinta::fuzz::Host;

std::string hex(const std::string& in) {
  static const char* d = "0123456789abcdef";
  std::string out;
  out.reserve(in.size() * 2);
  for (unsigned char c : in) {
    out += d[c >> 4];
    out += d[c & 15];
  }
  return out;
}

std::string case_host(const std::string& host) {
  if (pinta::hosts::find_host(host) != nullptr) return host;  // gemini-0.61, agy-1.2, deel-1.17, …
  if (const auto f = pinta::hosts::family_by_name(host)) return std::string(pinta::hosts::descriptor(*f).name);
  return host;
}

// A conformance case (conformance/cases schema, conformance/src/case.cc) replaying the finding.
json reproducer_case(const Options& o, Host host, int n, const std::string& v, const Case& c,
                     bool consulted) {
  char id[16];
  std::snprintf(id, sizeof id, "INPUT-9%03d", n % 1000);
  const std::string fam(pinta::hosts::descriptor(host).name);
  json expect = {{"stderr", "empty"}, {"signaled", false}, {"pipes_closed", true}};
  if (pinta::hosts::descriptor(host).reads == pinta::hosts::ReplyReading::kJsonStdout) {
    expect["stdout"] = "one_json_line";
    expect["exit_code"] = 0;
    expect["reply"] = {{fam, json::parse(expected_reply(host, c, consulted))}};
  }
  json k = {{"id", id},
            {"area", "INPUT"},
            {"title", "pinta-fuzz-campaign finding: " + v},
            {"requirement", "The contract holds for this generated input (campaign seed " +
                                std::to_string(o.seed) + ", mutation " + c.mutation + ")."},
            {"source", "fuzz/campaign (process-level campaign)"},
            {"level", "must"},
            {"family", fam},
            {"event", c.event},
            {"stdin", stdin_name(c.mode)},
            {"input", {{"hex", hex(c.stdin_bytes)}}},
            {"expect", expect}};
  // A family case (conformance/cases/<family>/ in the suite): the one host it was found under.
  if (case_host(o.host) != fam) k["hosts"] = json::array({case_host(o.host)});
  if (c.capped_home) k["env_file"] = "PINTA_MAX_INPUT_BYTES=4096\n";
  k["env"] = json::object();
  if (c.stdin_timeout_ms > 0)
    k["env"]["PINTA_STDIN_TIMEOUT_MS"] = std::to_string(c.stdin_timeout_ms);
  if (c.guard != kGuardNone) {
    const Reply g = guard_reply(c.guard);
    json fb = {{"status", g.status}, {"body", g.body}};
    if (g.delay.count()) fb["delayMs"] = g.delay.count();
    if (g.never_answer) fb["neverAnswer"] = true;
    if (g.close_without_reply) fb["closeWithoutReply"] = true;
    if (!g.raw.empty())
      fb["raw"] = json(g.raw).dump(-1, ' ', false, json::error_handler_t::replace);
    k["guard"] = {{"fallback", fb}};
    k["env"]["PINTA_GUARD_ENDPOINT"] =
        c.guard == kGuardRefused ? "${DEAD_URL}/guard" : "${GUARD_URL}/guard";
    k["env"]["PINTA_GUARD_TIMEOUT_MS"] = std::to_string(kGuardTimeoutMs);
    if (c.guard == kGuardReviewAsk) k["env"]["PINTA_GUARD_REVIEW"] = "ask";
  }
  return k;
}

}  // namespace

void save(const Options& o, Host host, int n, const std::string& v, const Case& c,
          const Observed& ob) {
  const SpawnOutcome& r = ob.r;
  const stdfs::path base = stdfs::path(o.out) / (std::to_string(n) + "-" + v);
  json j = {{"kind", "pinta-fuzz-campaign reproducer"},
            {"violation", v},
            {"host", o.host},
            {"event", c.event},
            {"argv", o.adapter},
            {"stdin_mode", stdin_name(c.mode)},
            {"drip_chunk", c.drip_chunk},
            {"stdin_timeout_ms", c.stdin_timeout_ms},
            {"env_file", c.capped_home ? "PINTA_MAX_INPUT_BYTES=4096" : ""},
            {"guard", kGuardNames[c.guard]},
            {"collector", kCollectorNames[c.collector]},
            {"planted_secret", c.planted},
            {"mutation", c.mutation},
            {"observed",
             {{"exit_code", r.exit_code ? json(*r.exit_code) : json(nullptr)},
              {"signal", r.term_signal ? json(*r.term_signal) : json(nullptr)},
              {"guard_requests", ob.guard_requests},
              {"pipes_held", r.pipes_held},
              {"stdout", json(r.out).dump(-1, ' ', false, json::error_handler_t::replace)},
              {"stderr",
               json(r.err.substr(0, 4096)).dump(-1, ' ', false, json::error_handler_t::replace)},
              {"ms", r.exited_after.count() / 1000.0}}}};
  std::ofstream(base.string() + ".json") << j.dump(2) << "\n";
  std::ofstream(base.string() + ".bin", std::ios::binary) << c.stdin_bytes;
  const json k = reproducer_case(o, host, n, v, c, ob.guard_requests == 1);
  // `conformance run --cases <out>` wants each case under its area's directory.
  std::error_code ec;
  stdfs::create_directories(stdfs::path(o.out) / "INPUT", ec);
  std::ofstream(
      (stdfs::path(o.out) / "INPUT" / (k["id"].get<std::string>() + ".case.json")).string())
      << k.dump(2) << "\n";
}

}  // namespace pinta::fuzz::campaign
