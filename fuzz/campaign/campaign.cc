// The process-level campaign engine behind `pinta-fuzz-campaign` and `conformance fuzz`.
//
// Each run i (seeded with S+i, so a run is reproducible whatever --jobs is) picks an event and a
// fixture of that host (fixtures/<host>/<version>/<Event>/*.json), mutates it (bytes, structure,
// planted secrets, nesting, invalid UTF-8, lone surrogates, truncation, huge strings) or
// generates a payload, picks a stdin behaviour (closed after write, left open as the Antigravity
// app does, dripped, closed before anything is written, huge), sometimes an env file with a
// small input cap, a guard behaviour and a collector behaviour, spawns the adapter the way a host
// does (no shell, clean environment, its own process group; runner.h) and checks the contract
// (docs/contract.md), judged by the one reply check (pinta/hosts/reply_check.h, through
// fuzz/common/host_table.h), which is written from the host references, not from the adapter:
//   exit status 0, no signal; nothing on stderr; stdout is exactly one line holding one JSON
//   object valid for the host and event; the pipes close when the adapter exits (a Gemini host
//   waits for EOF, GEM§4); the reply arrives within --budget-ms; no planted secret in stdout,
//   stderr or anything the collector received; and the reply means what the guard said:
//     - guard consulted only on the gate event (GUARD-1);
//     - DENY (consulted) → the host's deny with the guard's reason (GUARD-7), REVIEW with
//       PINTA_GUARD_REVIEW=ask → ask; everything else (no guard, ALLOW, 500, garbage, slow beyond
//       PINTA_GUARD_TIMEOUT_MS, never answering, closing, refused) → the allow reply (GUARD-5).
// Guard and collector are loopback fakes (common/fakes FakeServer, 127.0.0.1 port 0), started once
// per worker, one per behaviour, and reused for every run; each worker also reuses its two homes.
// Each finding is minimised (chunk deletion while the same violation reproduces) and saved in
// --out as <n>-<violation>.json (what was observed), .bin (stdin) and INPUT/INPUT-9<nnn>.case.json, a
// conformance case that `conformance run --cases <out> --adapter ...` replays.
// The units: campaign_case.h (a run's case), generate.cc (fixtures, mutation, the case of a seed),
// execute.cc (a worker's homes and fake servers, one run), judge.cc (the contract check,
// minimisation), report.cc (reproducer files); this file: the command line and the run loop.
#include "pinta/fuzz/campaign.h"
#include "pinta/hosts/hosts.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "campaign_case.h"
#include "execute.h"
#include "generate.h"
#include "host_table.h"
#include "judge.h"
#include "pinta/common/data_dir.h"
#include "report.h"
#include "runner.h"

namespace pinta::fuzz::campaign {
namespace {

namespace stdfs = std::filesystem;
using nlohmann::json;
using pinta::fuzz::Host;

// The command line, in one line. The family names come from the registry (pinta/hosts/family.h).
std::string synopsis() {
  return "--adapter \"<cmd>\" --host " + pinta::hosts::family_names() +
         "|<conformance host> [--runs N] [--seed S] [--jobs J] [--out DIR] [--fixtures DIR] "
         "[--budget-ms B] [--no-misbehave] [--adversarial] [--quiet] [--progress-interval-ms MS] "
         "| --help | --version";
}

int usage(const std::string& msg) {
  std::fprintf(stderr, "pinta-fuzz-campaign: %s (usage: %s)\n", msg.c_str(), synopsis().c_str());
  return 2;
}

}  // namespace

std::vector<std::string> adapter_argv(const std::string& command, std::string* error) {
  std::vector<std::string> words;
  std::string cur;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < command.size(); ++i) {
    const char ch = command[i];
    if (quote) {
      if (ch == quote) {
        quote = 0;
      } else if (ch == '\\' && quote == '"' && i + 1 < command.size()) {
        cur += command[++i];
      } else {
        cur += ch;
      }
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
      in_word = true;
    } else if (ch == '\\' && i + 1 < command.size()) {
      cur += command[++i];
      in_word = true;
    } else if (ch == ' ' || ch == '\t' || ch == '\n') {
      if (in_word) words.push_back(cur);
      cur.clear();
      in_word = false;
    } else {
      cur += ch;
      in_word = true;
    }
  }
  if (quote) {
    if (error) *error = "unterminated quote in --adapter";
    return {};
  }
  if (in_word) words.push_back(cur);
  if (words.empty()) {
    if (error) *error = "--adapter is empty";
    return {};
  }
  std::string& exe = words[0];
  std::error_code ec;
  if (exe.find('/') == std::string::npos) {
    // A bare name: looked up in this process's PATH now (each run gets PATH=/usr/bin:/bin).
    const char* path = std::getenv("PATH");  // NOLINT(concurrency-mt-unsafe)
    std::string found;
    std::stringstream dirs(path ? path : "");
    for (std::string d; std::getline(dirs, d, ':');) {
      const stdfs::path p = stdfs::path(d.empty() ? "." : d) / exe;
      if (::access(p.c_str(), X_OK) == 0 && !stdfs::is_directory(p, ec)) {
        found = stdfs::absolute(p, ec).string();
        break;
      }
    }
    if (found.empty()) {
      if (error) *error = "adapter '" + exe + "' not found in PATH";
      return {};
    }
    exe = found;
  } else if (!stdfs::path(exe).is_absolute()) {
    // Relative to where the campaign was started, not to the scratch home a run uses as cwd.
    exe = stdfs::absolute(exe, ec).lexically_normal().string();
  }
  if (::access(exe.c_str(), X_OK) != 0) {
    if (error) *error = "adapter '" + exe + "' is not an executable file";
    return {};
  }
  return words;
}

namespace {

// What a campaign's workers add up; the maps, lists and counts under mu.
struct Tally {
  std::atomic<long> next{0}, done{0};
  std::atomic<int> findings{0};
  std::mutex mu;
  std::map<std::string, long> by_violation;
  std::map<std::string, long> by_guard;
  std::map<std::string, double> ms_by_kind;
  std::vector<std::string> leaked;
  long telemetry_requests = 0, telemetry_bytes = 0;
};

// Progress after run `d` ended: a redrawn line on a TTY, a plain line every progress_interval_ms
// otherwise.
void show_progress(const Options& o, bool tty, std::chrono::steady_clock::time_point t0,
                   std::chrono::steady_clock::time_point& last_progress, long d, Tally& t) {
  const auto now = std::chrono::steady_clock::now();
  const auto every = tty ? std::chrono::milliseconds(200)
                         : std::chrono::milliseconds(o.progress_interval_ms);
  std::lock_guard<std::mutex> lock(t.mu);
  if (now - last_progress >= every || (tty && d == o.runs)) {
    last_progress = now;
    const double s = std::chrono::duration<double>(now - t0).count();
    if (tty) {
      const int width = 30;
      const int fill = static_cast<int>(width * d / o.runs);
      std::fprintf(stderr, "\r[%s%s] %ld/%ld  %.0f runs/s  %d findings",
                   std::string(fill, '#').c_str(), std::string(width - fill, '.').c_str(), d,
                   o.runs, d / s, t.findings.load());
    } else {
      std::fprintf(stderr, "%s: %ld/%ld runs, %.0f runs/s, %d findings, %.0f s\n",
                   o.program.c_str(), d, o.runs, d / s, t.findings.load(), s);
    }
  }
}

// No planted secret may reach the collector (REDACT: spans are redacted before they are queued):
// each body that holds one is a finding.
void report_leaks(const Options& o, Tally& t) {
  for (const auto& body : t.leaked) {
    const int n = ++t.findings;
    ++t.by_violation["secret-in-telemetry"];
    std::ofstream((stdfs::path(o.out) / (std::to_string(n) + "-secret-in-telemetry.body")).string(),
                  std::ios::binary)
        << body;
    std::fprintf(stderr, "finding %d: secret-in-telemetry → %s/%d-secret-in-telemetry.body\n", n,
                 o.out.c_str(), n);
  }
}

json summary(const Options& o, const Tally& t, double secs) {
  return {{"host", o.host},
          {"runs", t.done.load()},
          {"seconds", secs},
          {"runs_per_second", t.done.load() / secs},
          {"jobs", o.jobs},
          {"seed", o.seed},
          {"adversarial", o.adversarial},
          {"findings", t.findings.load()},
          {"by_violation", t.by_violation},
          {"by_guard", t.by_guard},
          {"ms_by_kind", t.ms_by_kind},
          {"collector_requests", t.telemetry_requests},
          {"collector_bytes", t.telemetry_bytes},
          {"out", o.out}};
}

}  // namespace

int run(const Options& o) {
  // Setup errors name the program that was run (`conformance fuzz` or pinta-fuzz-campaign);
  // each front end prints its own usage.
  const auto fail = [&o](const std::string& msg) {
    std::fprintf(stderr, "%s: %s\n", o.program.c_str(), msg.c_str());
    return 2;
  };
  if (o.adapter.empty()) return fail("--adapter is required");
  // The family from the registry: a host name or a family name / label, nothing guessed from a
  // prefix.
  const std::optional<Host> named = campaign_host(o.host);
  if (!named)
    return fail("--host must be a family (" + pinta::hosts::family_names(", ") +
                ") or a host (" + pinta::hosts::host_list(", ") + "), not '" + o.host + "'");
  const Host host = *named;
  // The adversarial mode builds its payloads from the family's payload shape: no fixtures needed.
  const auto fixtures = load_fixtures(o.fixtures, host);
  if (fixtures.empty() && !o.adversarial)
    return fail("no fixtures for " + o.host + " under " + o.fixtures);
  std::error_code ec;
  stdfs::create_directories(o.out, ec);
  if (ec) return fail("cannot create --out " + o.out + ": " + ec.message());
  ::signal(SIGPIPE, SIG_IGN);  // a child closing stdin early must not kill the campaign
  const stdfs::path scratch =
      stdfs::temp_directory_path() / ("pinta-campaign-" + std::to_string(::getpid()));

  Tally t;
  // Progress: a redrawn line on a TTY, a plain line every progress_interval_ms otherwise,
  // nothing with --quiet. `tty` also decides whether a finding line first clears the bar.
  const bool tty = !o.quiet && ::isatty(2) != 0;
  const auto t0 = std::chrono::steady_clock::now();
  auto last_progress = t0;
  auto record = [&](const std::string& v, const Case& m, const Observed& rm, long i) {
    std::lock_guard<std::mutex> lock(t.mu);
    const int n = ++t.findings;
    ++t.by_violation[v];
    save(o, host, n, v, m, rm);
    std::fprintf(stderr, "%sfinding %d: %s (run %ld, seed %llu) → %s/%d-%s.json\n",
                 tty ? "\r\033[K" : "", n, v.c_str(), i,
                 static_cast<unsigned long long>(o.seed + static_cast<uint64_t>(i)), o.out.c_str(),
                 n, v.c_str());
  };
  auto worker = [&](int id) {
    World w(scratch / std::to_string(id), o.misbehave || o.adversarial);
    std::map<std::string, long> guards;
    std::map<std::string, double> ms;  // wall time per run kind (where a campaign spends its time)
    for (long i; (i = t.next.fetch_add(1)) < o.runs;) {
      const uint64_t seed = o.seed + static_cast<uint64_t>(i);
      const Case c = o.adversarial ? make_adversarial_case(host, seed)
                                   : make_case(fixtures, host, seed, o.misbehave);
      ++guards[kGuardNames[c.guard]];
      const auto r0 = std::chrono::steady_clock::now();
      const Observed r = run_case(o, w, c);
      const double took =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - r0).count();
      ms[std::string("stdin:") + stdin_name(c.mode)] += took;
      ms["mutation:" + c.mutation] += took;
      ms[std::string("guard:") + kGuardNames[c.guard]] += took;
      const std::string v = violation(o, host, c, r);
      if (!v.empty()) {
        const Case m = v == "over-budget" ? c : minimise(o, host, w, c, v);
        record(v, m, run_case(o, w, m), i);
      }
      const long d = ++t.done;
      if (!o.quiet) show_progress(o, tty, t0, last_progress, d, t);
    }
    // Give the last detached flushers a moment to deliver, then read what the collectors got.
    if (o.misbehave) std::this_thread::sleep_for(std::chrono::milliseconds(300));
    for (auto& c : w.collectors) w.harvest(c);
    std::lock_guard<std::mutex> lock(t.mu);
    for (auto& [k, n] : guards) t.by_guard[k] += n;
    for (auto& [k, ms_k] : ms) t.ms_by_kind[k] += ms_k;
    t.telemetry_requests += w.telemetry_requests;
    t.telemetry_bytes += w.telemetry_bytes;
    for (auto& b : w.leaked) t.leaked.push_back(std::move(b));
  };
  std::vector<std::thread> pool;
  for (int j = 0; j < o.jobs; ++j) pool.emplace_back(worker, j);
  for (auto& th : pool) th.join();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  report_leaks(o, t);
  stdfs::remove_all(scratch, ec);
  if (tty) std::fprintf(stderr, "\n");  // ends the redrawn progress line
  std::printf("%s\n", summary(o, t, secs).dump().c_str());
  return t.findings.load() == 0 ? 0 : 1;
}

int cli_main(int argc, char** argv) {
  Options o;
  // $PINTA_FIXTURES_DIR, the installed copy, the source tree (pinta/common/data_dir.h).
  o.fixtures = pinta::data::find_dir("PINTA_FIXTURES_DIR", "fixtures", "fixtures");
  auto number = [](const std::string& s, long lo, long* out) {
    try {
      size_t used = 0;
      long v = std::stol(s, &used);
      if (used != s.size() || v < lo) return false;
      *out = v;
      return true;
    } catch (...) {
      return false;
    }
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    std::string v;
    long n = 0;
    if (a == "-h" || a == "--help") {
      std::printf("usage: pinta-fuzz-campaign %s\n"
                  "Runs an adapter binary under the hosts' payloads with mutated inputs, a fake\n"
                  "guard and collector that misbehave, and checks every reply against the\n"
                  "contract; each finding is a case file that `conformance run --cases DIR`\n"
                  "replays. Also `conformance fuzz`. Exit status: 0 no finding, 1 findings,\n"
                  "2 usage error.\n",
                  synopsis().c_str());
      return 0;
    } else if (a == "--adapter") {
      if (!value(&v)) return usage("--adapter needs a command");
      std::string err;
      o.adapter = adapter_argv(v, &err);
      if (o.adapter.empty()) return usage(err);
    } else if (a == "--host") {
      if (!value(&o.host)) return usage("--host needs a family or a host");
    } else if (a == "--runs") {
      if (!value(&v) || !number(v, 1, &n)) return usage("--runs wants a positive integer");
      o.runs = n;
    } else if (a == "--seed") {
      if (!value(&v) || !number(v, 0, &n)) return usage("--seed wants a non-negative integer");
      o.seed = static_cast<uint64_t>(n);
    } else if (a == "--jobs") {
      if (!value(&v) || !number(v, 1, &n) || n > 256) return usage("--jobs wants 1..256");
      o.jobs = static_cast<int>(n);
    } else if (a == "--budget-ms") {
      if (!value(&v) || !number(v, 1, &n)) return usage("--budget-ms wants a positive integer");
      o.budget_ms = n;
    } else if (a == "--out") {
      if (!value(&o.out)) return usage("--out needs a directory");
    } else if (a == "--fixtures") {
      if (!value(&o.fixtures)) return usage("--fixtures needs a directory");
    } else if (a == "--adversarial") {
      o.adversarial = true;
    } else if (a == "--no-misbehave") {
      o.misbehave = false;
    } else if (a == "--quiet" || a == "-q") {
      o.quiet = true;
    } else if (a == "--progress-interval-ms") {
      if (!value(&v) || !number(v, 1, &n))
        return usage("--progress-interval-ms wants a positive integer");
      o.progress_interval_ms = n;
    } else {
      return usage("unknown argument " + a);
    }
  }
  return run(o);
}

}  // namespace pinta::fuzz::campaign
