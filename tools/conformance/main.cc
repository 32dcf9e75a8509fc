// conformance: the hook-adapter contract suite. `run`, `list [PREFIX]`, `show ID`, `docs`, and
// `fuzz` (the process-level fuzz campaign, fuzz/campaign; its findings are case files that
// `run --cases DIR` replays).
// Exit status: 0 every MUST case passed (and every SHOULD case with --strict), 1 failures,
// 2 usage or internal errors (one line on stderr).
#include <CLI/CLI.hpp>
#include <sys/ioctl.h>
#include <unistd.h>

#include "pinta/common/version.h"
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "pinta/common/data_dir.h"
#include "pinta/common/fs.h"
#include "pinta/conformance/case_docs.h"
#include "pinta/conformance/conformance.h"
#include "pinta/conformance/output.h"
#include "pinta/conformance/protocol.h"
#include "pinta/emulator/gemini/gemini.h"
#include "pinta/hosts/family.h"
#include "pinta/hosts/hosts.h"
#ifdef PINTA_CONFORMANCE_HAVE_FUZZ
#include "pinta/fuzz/campaign.h"
#endif

namespace {

int usage(const std::string& m) {
  std::string line = m;
  for (auto& c : line)
    if (c == '\n') c = ' ';
  std::cerr << "conformance: " << line << "\n";
  return 2;
}

std::string env_or(const char* k, const std::string& d) {
  const char* v = std::getenv(k);  // NOLINT(concurrency-mt-unsafe)
  return v && *v ? v : d;
}

// What `run` prints as cases end: a line per case (a pipe, a log), or on a terminal only the
// failures above one status line on stderr that is redrawn in place; --quiet: failures only.
class Console {
 public:
  Console(pinta::conformance::ConsoleStyle st, const pinta::conformance::RunOptions& o)
      : st_(st), o_(o), t0_(Clock::now()) {}

  void on_case(const pinta::conformance::CaseOutcome& co, size_t n, size_t total) {
    using pinta::conformance::is_failure_state;
    const bool fail = is_failure_state(co.state);
    failed_ += fail;
    const bool block = fail || (!st_.quiet && o_.verbose && co.state != "PASS");
    // A case the run's stop kept from starting gets no line of its own (--verbose lists them):
    // the summary counts them with the reason ("N case(s) not run: ..."); one line each, the
    // queue's hundred came before the failures that stopped the run.
    const bool unstarted =
        co.state == "NOT-RUN" &&
        std::all_of(co.hosts.begin(), co.hosts.end(), [](const auto& h) {
          return h.state == "not_run" && h.rerun_after.empty();
        });
    // The protocol profile lists every hook, passing ones too, on a terminal as well: a handful
    // of lines, each naming the hook (the author reads which of theirs passed).
    const bool every = !st_.progress_line || o_.profile == "protocol";
    const bool line = block || (!st_.quiet && every && (!unstarted || o_.verbose));
    if (line) {
      clear_status();
      std::cout << paint(co.state) << ": " << pinta::conformance::case_label(*co.c, o_) << " ("
                << n << " of " << total << ")\n";
      if (block) std::cout << pinta::conformance::failure_block(co);
      std::cout.flush();
    }
    if (st_.progress_line) draw_status(n, total, co.c->id);
  }
  void finish() { clear_status(); }
  std::string paint(const std::string& state) const {
    if (!st_.colour) return state;
    const char* c = state == "PASS"                               ? "32"
                    : pinta::conformance::is_failure_state(state) ? "1;31"
                    : state == "XFAIL" || state == "NON-STRICT"   ? "33"
                                                                  : "2";
    return std::string("\x1b[") + c + "m" + state + "\x1b[0m";
  }
  std::string paint_count(int n, const std::string& what, const char* sgr) const {
    std::string t = std::to_string(n) + " " + what;
    if (!st_.colour || n == 0) return t;
    return std::string("\x1b[") + sgr + "m" + t + "\x1b[0m";
  }

 private:
  using Clock = std::chrono::steady_clock;
  void draw_status(size_t n, size_t total, const std::string& id) {
    const auto now = Clock::now();
    if (n < total && drawn_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    winsize ws{};
    size_t width = ::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10 ? ws.ws_col : 80;
    char b[160];
    snprintf(b, sizeof b, "conformance: %zu/%zu cases, %d failed, %.0f s (%s)", n, total, failed_,
             std::chrono::duration<double>(now - t0_).count(), id.c_str());
    std::string text = b;
    if (text.size() >= width) text.resize(width - 1);
    std::cerr << "\r\x1b[K" << text << std::flush;
    drawn_ = true;
  }
  void clear_status() {
    if (!drawn_) return;
    std::cerr << "\r\x1b[K" << std::flush;
    drawn_ = false;
  }
  pinta::conformance::ConsoleStyle st_;
  const pinta::conformance::RunOptions& o_;
  Clock::time_point t0_, last_;
  bool drawn_ = false;
  int failed_ = 0;
};

// Every option of every subcommand, filled by CLI11.
struct Cli {
  std::string cases_dir, fixtures_dir, default_cases_dir;
  // run
  pinta::conformance::RunOptions ro;
  std::string host = "all", report, host_names;
  std::string profile = "contract", config, hook;
  std::vector<std::string> proto_events, proto_payloads;
  bool matrix = false;
  bool no_rerun = false, quiet = false;
  std::string format = "text";
  // list, show, docs
  std::string prefix, id, out_path, family_dir;
  bool check = false;
#ifdef PINTA_CONFORMANCE_HAVE_FUZZ
  pinta::fuzz::campaign::Options fo;
  std::string fuzz_adapter;
  bool no_misbehave = false;
#endif
  bool in_place = false;
  std::string program = "conformance";  // argv[0], absolute when it names a path
  CLI::App *run = nullptr, *list = nullptr, *show = nullptr, *docs = nullptr, *fuzz = nullptr;
};

void add_run_command(CLI::App& app, Cli& c) {
  using pinta::conformance::RunOptions;
  auto* run = c.run = app.add_subcommand(
      "run",
      "run the cases against an adapter, or (--profile protocol) grade your own hooks as their "
      "host runs them");
  run->add_option("--adapter", c.ro.adapter,
                  "adapter command line (--agent A --event E appended); required");
  // From the one host list (all_hosts), so help and checks never drift.
  for (const auto& h : pinta::conformance::all_hosts()) c.host_names += h + "|";
  c.host_names += "all";
  run->add_option("--host", c.host,
                  c.host_names + ", a family (" + pinta::hosts::family_names() +
                      ": every graded host of it; --profile protocol: its newest), a "
                      "comma-separated list, or gemini@VERSION (a Gemini CLI release, graded "
                      "under its version profile)");
  run->add_option("--filter", c.ro.filter, "only cases whose id starts with this");
  run->add_option("--exclude", c.ro.exclude, "leave out cases whose id starts with this (repeatable)")
      ->take_all();
  run->add_option("--profile", c.profile,
                  "contract (default: the case files, this project's adapter contract) or protocol "
                  "(any hook: what its host needs from a hook; with --config or --hook)")
      ->check(CLI::IsMember({"contract", "protocol"}));
  run->add_option("--config", c.config,
                  "protocol: the hooks to grade: a Gemini CLI settings.json or extension folder, "
                  "a deel-local-cli hooks.json, a Claude Code settings.json or plugin folder; "
                  "without --host, graded as the host `hostemu lint` reads the file as (said on "
                  "the first line)");
  run->add_option("--hook", c.hook, "protocol: one hook command line, run on every event of --host");
  run->add_option("--event", c.proto_events,
                  "protocol: only this event (repeatable; `gate`: the host's gate event, where a "
                  "guard decides)");
  run->add_flag("--in-place", c.in_place,
                "protocol: run the hooks in the project itself (what they write stays there); "
                "by default they run in a copy of it");
  run->add_option("--payload", c.proto_payloads,
                  "protocol: a JSON file with one payload of your own (repeatable), run on every "
                  "registration whose event and tool it names, besides the sample calls");
  run->add_flag("--matrix", c.matrix,
                "protocol: also show the cross-host matrix: for each hook on a gate event, per "
                "host family that would load it, whether its reply blocks the call or lets it run");
  run->add_flag("--strict", c.ro.strict, "SHOULD cases count too");
  run->add_flag("--no-rerun", c.no_rerun,
                "no second run, alone, of units cut by a deadline or failed on latency");
  run->add_option("--jobs,-j", c.ro.jobs,
                  "case x host units run at once (default " +
                      std::to_string(pinta::conformance::default_jobs()) +
                      "; cases with a median latency budget: at most 2)")
      ->check(CLI::Range(1, 256));
  run->add_option("--case-deadline", c.ro.case_deadline,
                  "seconds one case may take under one host before it stops and fails "
                  "(default 15, 0: none)")
      ->check(CLI::NonNegativeNumber);
  run->add_option("--run-deadline", c.ro.run_deadline,
                  "seconds after which no more runs start; what is left fails as DEADLINE "
                  "(default 50, 0: none)")
      ->check(CLI::NonNegativeNumber);
  run->add_option("--max-failures", c.ro.max_failures,
                  "start no new case after N failed cases; the rest are NOT-RUN")
      ->check(CLI::PositiveNumber);
  run->add_option("--max-framing-failures", c.ro.max_framing_failures,
                  "framing cases (OUT, EXIT, FMT) run first; once N of their case x host units "
                  "failed with one cause the run stops, the rest are NOT-RUN (default " +
                      std::to_string(RunOptions::kDefaultMaxFramingFailures) + ", 0: run all)")
      ->check(CLI::NonNegativeNumber);
  run->add_flag("--complete", c.ro.complete,
                "grade every case even once the verdict is settled (by default a failing run "
                "stops before the latency cases, and at a failure confirmed alone; no framing "
                "stop either)");
  run->add_option("--report", c.report, "write report.json, junit.xml, matrix.md, matrix.html here");
  run->add_flag("--verbose,-v", c.ro.verbose,
                "failure blocks for NON-STRICT / XFAIL cases too, and a line for each case a stop "
                "left NOT-RUN");
  run->add_flag("--quiet,-q", c.quiet, "print only failures and the final summary");
  run->add_option("--format", c.format,
                  "text, or github: also ::error/::warning annotations and a Markdown job summary "
                  "($GITHUB_STEP_SUMMARY, else summary.md in --report)")
      ->check(CLI::IsMember({"text", "github"}));
}

void add_case_commands(CLI::App& app, Cli& c) {
  c.list = app.add_subcommand("list", "list case ids");
  c.list->add_option("prefix", c.prefix, "id prefix");
  c.show = app.add_subcommand("show", "print one case");
  c.show->add_option("id", c.id, "case id; required");
  c.docs = app.add_subcommand("docs", "render docs/conformance-cases.md from the cases");
  c.docs->add_option("--out", c.out_path, "write here (default stdout)");
  c.docs->add_option("--family-dir", c.family_dir,
                     "also write each family's page here, <folder>.md (docs/conformance-cases)");
  c.docs->add_flag("--check", c.check,
                   "exit 1 when --out or a page in --family-dir differs from the generated text, "
                   "or --family-dir holds a page of no registered family");
}

#ifdef PINTA_CONFORMANCE_HAVE_FUZZ
void add_fuzz_command(CLI::App& app, Cli& c) {
  auto* fuzz = c.fuzz = app.add_subcommand("fuzz", "process-level fuzz campaign against an adapter binary");
  fuzz->add_option("--adapter", c.fuzz_adapter,
                   "adapter command line (--agent A --event E appended); required");
  fuzz->add_option("--host", c.fo.host,
                   pinta::hosts::host_list() + "|" + pinta::hosts::family_names() + "; required");
  fuzz->add_option("--runs", c.fo.runs, "number of runs (default 1000)")->check(CLI::PositiveNumber);
  fuzz->add_option("--seed", c.fo.seed, "first seed; run i uses seed+i (default 1)");
  fuzz->add_option("--jobs,-j", c.fo.jobs, "parallel runs (default 2)")->check(CLI::Range(1, 256));
  fuzz->add_option("--out", c.fo.out, "findings directory (default fuzz-campaign-out)");
  fuzz->add_option("--budget-ms", c.fo.budget_ms, "reply budget per run (default 3000)")
      ->check(CLI::PositiveNumber);
  fuzz->add_flag("--no-misbehave", c.no_misbehave, "no fake guard / collector");
  fuzz->add_flag("--adversarial", c.fo.adversarial,
                 "hostile tool inputs at the gate event against a deny-everything guard; any "
                 "allow is a finding (contract GUARD-14)");
}
#endif

// What CLI11 leaves to us: unknown words and options named first, then the combinations.
// Returns -1 when the command line is usable, else the exit status (usage already printed).
int check_command_line(CLI::App& app, const Cli& c, const std::string& subs) {
  if (!app.remaining().empty()) {
    const std::string w = app.remaining().front();  // remaining() returns a copy
    if (!w.empty() && w[0] == '-') return usage("unknown option " + w);
    if (app.get_subcommands().empty()) return usage("unknown subcommand " + w + " (" + subs + ")");
    return usage("unexpected argument " + w);
  }
  if (app.get_subcommands().empty())
    return usage("a subcommand is required (" + subs + "; --help for more)");
  if (*c.show && c.show->count("id") == 0) return usage("show needs a case id");
  if (*c.run && c.profile == "protocol") {
    if (c.run->count("--adapter"))
      return usage("--profile protocol grades the hooks of --config or --hook, not --adapter");
    if (c.config.empty() == c.hook.empty())
      return usage("--profile protocol needs one of --config FILE|DIR and --hook CMD");
  } else if (*c.run &&
             (!c.config.empty() || !c.hook.empty() || !c.proto_events.empty() ||
              !c.proto_payloads.empty() || c.matrix || c.in_place)) {
    return usage("--config, --hook, --event, --payload, --matrix and --in-place belong to --profile "
                 "protocol");
  } else if (*c.run && c.run->count("--adapter") == 0) {
    return usage("--adapter is required");
  }
#ifdef PINTA_CONFORMANCE_HAVE_FUZZ
  if (*c.fuzz && c.fuzz->count("--adapter") == 0) return usage("--adapter is required");
  if (*c.fuzz && c.fuzz->count("--host") == 0) return usage("--host is required");
#endif
  return -1;
}

#ifdef PINTA_CONFORMANCE_HAVE_FUZZ
int run_fuzz(Cli& c) {
  std::string err;
  c.fo.adapter = pinta::fuzz::campaign::adapter_argv(c.fuzz_adapter, &err);
  if (c.fo.adapter.empty()) return usage(err);
  c.fo.fixtures = c.fixtures_dir;
  c.fo.misbehave = !c.no_misbehave;
  c.fo.program = "conformance";
  return pinta::fuzz::campaign::run(c.fo);
}
#endif

int list_cases(const std::vector<pinta::conformance::Case>& cases, const Cli& c) {
  for (const auto& k : cases)
    if (k.id.rfind(c.prefix, 0) == 0) std::cout << k.id << "  " << k.level << "  " << k.title << "\n";
  return 0;
}

int show_case(const std::vector<pinta::conformance::Case>& cases, const Cli& c) {
  for (const auto& k : cases)
    if (k.id == c.id) {
      std::cout << k.raw.dump(2) << "\n";
      return 0;
    }
  return usage("no case with id " + c.id);
}

// Writes, or with --check compares, one generated page; false when it is stale or unwritable.
bool put_doc(const std::string& path, const std::string& text, bool check) {
  if (check) {
    auto cur = pinta::fs::read_file(path);
    if (!cur || *cur != text) {
      std::cerr << "conformance: " << path << " is stale; run `conformance docs` with its --out "
                << "and --family-dir\n";
      return false;
    }
    return true;
  }
  auto st = pinta::fs::atomic_write(path, text, 0644);
  if (!st) std::cerr << "conformance: " << path << ": " << st.error().message << "\n";
  return bool(st);
}

int render_docs(const std::vector<pinta::conformance::Case>& cases, const Cli& c) {
  std::string text = pinta::conformance::render_cases_doc(cases);
  if (c.out_path.empty() && c.family_dir.empty()) {
    std::cout << text;
    return 0;
  }
  bool ok = c.out_path.empty() || put_doc(c.out_path, text, c.check);
  if (c.family_dir.empty()) return ok ? 0 : 1;
  namespace sfs = std::filesystem;
  std::error_code ec;
  if (!c.check) sfs::create_directories(c.family_dir, ec);
  std::set<std::string> pages;
  for (const auto& d : pinta::hosts::families()) {
    const std::string page = std::string(d.folder) + ".md";
    pages.insert(page);
    ok = put_doc((sfs::path(c.family_dir) / page).string(),
                 pinta::conformance::render_family_cases_doc(cases, d), c.check) && ok;
  }
  // A page whose family left the list would stay behind, stale and unchecked.
  for (auto it = sfs::directory_iterator(c.family_dir, ec); !ec && it != sfs::directory_iterator();
       it.increment(ec))
    if (it->path().extension() == ".md" && !pages.contains(it->path().filename().string())) {
      std::cerr << "conformance: " << it->path().string() << " is no registered family's page\n";
      ok = false;
    }
  return ok ? 0 : 1;
}

// What every run prints and writes after its cases: reports, GitHub output, the summary.
int finish_run(const pinta::conformance::RunSummary& s, const Console& console, size_t excluded,
               const Cli& c) {
  using namespace pinta::conformance;
  const RunOptions& ro = c.ro;
  int non_strict = 0, xfail = 0, unresolved = 0, xpass = 0, deadline = 0;
  for (const auto& co : s.cases) {
    deadline += co.state == "DEADLINE";
    non_strict += co.state == "NON-STRICT";
    xfail += co.state == "XFAIL";
    xpass += co.state == "XPASS";
    unresolved += co.state == "UNRESOLVED";
  }
  if (!c.report.empty()) {
    auto st = write_reports(s, ro, c.report);
    if (!st) return usage(st.error().message);
  }
  if (c.format == "github") {
    std::error_code ec;
    std::string ws = env_or("GITHUB_WORKSPACE", std::filesystem::current_path(ec).string());
    std::cout << github_annotations(s, ro, ws);
    const std::string md = job_summary_markdown(s, ro);
    const std::string step_summary = env_or("GITHUB_STEP_SUMMARY", "");
    if (!step_summary.empty()) {
      std::ofstream f(step_summary, std::ios::app | std::ios::binary);
      f << md;
      if (!f)
        return usage("cannot append the job summary to $GITHUB_STEP_SUMMARY (" + step_summary + ")");
    } else if (!c.report.empty()) {
      auto st = pinta::fs::atomic_write(c.report + "/summary.md", md, 0644);
      if (!st) return usage(st.error().message);
    } else {
      std::cerr << "conformance: no job summary written: neither $GITHUB_STEP_SUMMARY nor "
                   "--report is set\n";
    }
  }
  if (ro.profile == "protocol") {
    // Hooks, in words: no case file can be expected to fail here (no xfail / xpass), and a
    // SHOULD finding is a note on the run unless --strict.
    std::cout << "\n"
              << console.paint_count(s.passed, s.passed == 1 ? "hook passed" : "hooks passed", "32")
              << ", " << console.paint_count(s.failed, "failed", "1;31");
    if (unresolved) std::cout << " (" << unresolved << " could not be run)";
    std::cout << " in " << seconds_text(s.seconds) << "\n";
  } else {
    std::cout << "\n"
              << console.paint_count(s.passed, "passed", "32") << ", "
              << console.paint_count(s.failed, "failed", "1;31") << ", " << s.skipped
              << " skipped";
    if (excluded) std::cout << ", " << excluded << " excluded";
    std::cout << " (" << xfail << " xfail, " << xpass << " xpass, " << non_strict
              << " non-strict, " << unresolved << " unresolved; " << seconds_text(s.seconds)
              << ")\n";
  }
  if (deadline)
    std::cout << deadline << " case(s) hit a deadline: " << s.case_deadlines
              << " case x host unit(s) the case deadline (" << ro.case_deadline << " s), "
              << s.run_deadlines << " the run deadline (" << ro.run_deadline << " s)\n";
  if (s.reran) {
    std::cout << s.reran << " case x host unit(s) cut by a deadline or failed on time were run "
              << "again alone: " << s.reran_passed << " passed then, "
              << (s.reran - s.reran_passed) << " did not";
    if (!s.rerun_stopped.empty()) std::cout << " (no more reruns: " << s.rerun_stopped << ")";
    std::cout << "\n";
    for (const auto& co : s.cases)
      for (const auto& h : co.hosts)
        if (!h.rerun_after.empty() && h.state == "pass")
          std::cout << "  passed alone: " << co.c->id << " [" << h.host
                    << "], in the full run: " << h.rerun_after << "\n";
  }
  if (s.not_run) std::cout << s.not_run << " case(s) not run: " << s.stopped << "\n";
  if (auto cc = common_failure_cause(s)) std::cout << common_cause_line(*cc) << "\n";
  return s.exit_code();
}

// One --host word as a host of the registry: its name, or gemini@VERSION mapped to the Gemini
// version profile that covers the release (profile_for_version, the one mapping drift and
// `hostemu gemini session --version` use; a release outside the profiled range is an error
// naming the range). Empty with *error set when it is neither.
std::string resolve_host(const std::string& word, const Cli& c, std::string* error) {
  const auto& hosts = pinta::conformance::all_hosts();
  if (std::find(hosts.begin(), hosts.end(), word) != hosts.end()) return word;
  // A profile graded as another host (the same hook rules): that host's column.
  auto graded_column = [&](const std::string& name) -> std::string {
    const auto* h = pinta::hosts::find_host(name);
    if (h && !h->graded_as.empty() &&
        std::find(hosts.begin(), hosts.end(), h->graded_as) != hosts.end())
      return h->graded_as;
    return "";
  };
  if (auto g = graded_column(word); !g.empty()) return g;
  if (word.rfind("gemini@", 0) == 0) {
    namespace gem = pinta::emu::gemini;
    auto m = gem::profile_for_version(gem::default_profile_dir(), word.substr(7));
    if (!m) {
      *error = m.error().message;
      return "";
    }
    if (std::find(hosts.begin(), hosts.end(), m->name) != hosts.end()) return m->name;
    if (auto g = graded_column(m->name); !g.empty()) return g;
    *error = word + " maps to profile " + m->name + ", which is not a graded host";
    return "";
  }
  *error = "unknown --host '" + word + "' (" + c.host_names + ", a family: " +
           pinta::hosts::family_names() + ", or a comma-separated list)";
  return "";
}

// One --host word as the graded hosts it names: a family's name or --agent label (every graded
// host of that family, in report order: `--host gemini` is the six Gemini columns), else
// resolve_host's one host. Empty with *error set when it names none.
std::vector<std::string> resolve_hosts(const std::string& word, const Cli& c, std::string* error) {
  if (auto f = pinta::hosts::family_by_name(word)) {
    auto hs = pinta::hosts::hosts_of(*f);
    if (hs.empty()) *error = "--host " + word + ": the registry grades no host of this family";
    return hs;
  }
  std::string h = resolve_host(word, c, error);
  if (h.empty()) return {};
  return {h};
}

// Any hook, against what its host needs from a hook (pinta/conformance/protocol.h).
int run_protocol_profile(Cli& c, pinta::conformance::ConsoleStyle style) {
  using namespace pinta::conformance;
  RunOptions& ro = c.ro;
  ProtocolOptions po;
  if (c.host != "all" && c.host.find(',') != std::string::npos)
    return usage("--profile protocol grades one --host at a time");
  std::string error, said;
  if (c.host == "all" && !c.config.empty()) {
    // No --host: the host hostemu lint reads the file as, said before anything runs.
    const auto choice = infer_protocol_host(c.config);
    po.host = choice.host;
    said = choice.said;
  } else if (c.host == "all") {
    po.host = default_protocol_host();
    said = "registered on every event of " + po.host + ", the default; --host grades another";
  } else {
    // A family's name grades its newest host (the last in report order).
    auto hs = resolve_hosts(c.host, c, &error);
    if (hs.empty()) return usage(error);
    po.host = hs.back();
  }
  po.config = c.config;
  po.hook = c.hook;
  po.events = c.proto_events;
  po.in_place = c.in_place;
  po.payloads = c.proto_payloads;
  auto hooks = protocol_hooks(po);
  if (!hooks) return usage(hooks.error().message + (said.empty() ? "" : " (" + said + ")"));
  std::vector<Case> pcases;
  protocol_cases(*hooks, pcases);
  if (said.empty()) said = "as " + po.host + " (--host)";
  std::cout << "Grading " << hooks->size() << (hooks->size() == 1 ? " hook " : " hooks ")
            << (c.config.empty() ? "--hook " + c.hook : "of " + c.config) << ": " << said << "\n"
            << protocol_workspace_line(*hooks) << "\n"
            << std::flush;
  ro.hosts = {po.host};
  ro.profile = "protocol";
  std::error_code ec;
  if (!c.config.empty()) ro.config = std::filesystem::absolute(c.config, ec).lexically_normal();
  ro.hook = c.hook;
  ro.adapter = c.hook.empty() ? ro.config : c.hook;
  ro.fixtures_dir = c.fixtures_dir;
  ro.program = c.program;
  if (std::none_of(pcases.begin(), pcases.end(), [&](const Case& k) { return selected(k, ro); }))
    return usage("no hook matches --filter '" + ro.filter + "'");
  Console console(style, ro);
  auto s = run_protocol(pcases, *hooks, ro, [&](const CaseOutcome& co, size_t n, size_t total) {
    console.on_case(co, n, total);
  });
  console.finish();
  if (c.matrix) {
    auto m = protocol_matrix(po, ro);
    if (!m) return usage(m.error().message);
    s.cross_host_text = render_matrix(*m);
    std::cout << "\n" << s.cross_host_text << std::flush;
    s.cross_host_rows = json::array();
    for (const auto& r : *m) {
      json cells = json::array();
      for (const auto& cell : r.cells)
        cells.push_back({{"host", cell.host},
                         {"verdict", cell.verdict},
                         {"effect", cell.effect},
                         {"why", cell.why}});
      s.cross_host_rows.push_back({{"command", r.command}, {"cells", std::move(cells)}});
    }
  }
  return finish_run(s, console, 0, c);
}

// The project's adapter contract: the case files under the selected hosts.
int run_contract(Cli& c, const std::vector<pinta::conformance::Case>& cases,
                 pinta::conformance::ConsoleStyle style) {
  using namespace pinta::conformance;
  RunOptions& ro = c.ro;
  // One host, "all", or a comma-separated list (kept in all_hosts() order).
  if (c.host == "all") {
    ro.hosts = all_hosts();
  } else {
    std::vector<std::string> want;
    for (size_t b = 0; b <= c.host.size();) {
      size_t e = c.host.find(',', b);
      if (e == std::string::npos) e = c.host.size();
      std::string error;
      auto hs = resolve_hosts(c.host.substr(b, e - b), c, &error);
      if (hs.empty()) return usage(error);
      want.insert(want.end(), hs.begin(), hs.end());
      b = e + 1;
    }
    for (const auto& h : all_hosts())
      if (std::find(want.begin(), want.end(), h) != want.end()) ro.hosts.push_back(h);
  }
  // Before any case runs: an adapter that cannot start would fail every case the same way.
  if (auto why = adapter_problem(ro.adapter); !why.empty()) return usage(why);
  ro.rerun_alone = !c.no_rerun;
  if (ro.complete && c.run->count("--max-framing-failures") == 0) ro.max_framing_failures = 0;
  ro.run_deadline_given = c.run->count("--run-deadline") > 0;
  ro.fixtures_dir = c.fixtures_dir;
  bool any = false;
  size_t excluded = 0;
  for (const auto& k : cases) {
    if (k.id.rfind(ro.filter, 0) != 0) continue;
    if (selected(k, ro)) any = true;
    else ++excluded;
  }
  if (!any) {
    return usage(excluded ? "--exclude leaves no case of --filter '" + ro.filter + "'"
                          : "no case matches --filter '" + ro.filter + "'");
  }
  // A case runs under the hosts it names that --host selected; none at all: nothing would run.
  bool runs_somewhere = false;
  for (const auto& k : cases) {
    if (!selected(k, ro)) continue;
    for (const auto& h : k.hosts)
      runs_somewhere |= std::find(ro.hosts.begin(), ro.hosts.end(), h) != ro.hosts.end();
  }
  if (!runs_somewhere)
    return usage("no case" + (ro.filter.empty() ? std::string() : " of --filter '" + ro.filter + "'") +
                 " runs under --host " + c.host);
  ro.program = c.program;
  if (c.cases_dir != c.default_cases_dir) {
    std::error_code ec;
    ro.cases_dir = std::filesystem::absolute(c.cases_dir, ec).lexically_normal();
  }
  Console console(style, ro);
  auto s = run_cases(cases, ro, [&](const CaseOutcome& co, size_t n, size_t total) {
    console.on_case(co, n, total);
  });
  console.finish();
  return finish_run(s, console, excluded, c);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace pinta::conformance;
  if (argc == 2 && std::string(argv[1]) == "--version") {
    std::cout << pinta::version_line("conformance");
    return 0;
  }
  CLI::App app{"conformance: the hook-adapter contract suite, and a grader for any hook", "conformance"};
  app.footer(
      "Hook authors (a logger, a policy script, any hook; no pinta-gemini needed): grade the hooks\n"
      "your file registers as their host runs them, the host read from the path:\n"
      "  conformance run --profile protocol --config .   (an extension's or a plugin's clone)\n"
      "  conformance run --profile protocol --config .claude/settings.json\n"
      "  conformance run --profile protocol --config .gemini/settings.json  (or an extension folder)\n"
      "  conformance run --profile protocol --host H --hook 'python3 hooks/policy.py'\n"
      "Adapter authors: conformance run --adapter 'CMD' [--host H]. More: conformance run --help,\n"
      "README.md (Conformance suite), docs/ci.md.");
  // The subcommand and required options are checked after parsing, so that a word or option
  // nobody knows is named first ("unknown subcommand frob", "unknown option --bogus") instead of
  // CLI11's "A subcommand is required" / "--adapter is required" (extras land in app.remaining()).
  app.require_subcommand(0, 1);
  app.allow_extras();
  // --cases / --fixtures belong to the app but may also follow the subcommand
  // (`conformance run --cases DIR`, which the campaign's reproducer hint prints).
  app.fallthrough();
  Cli c;
  // Env override, then the installed copy, then the source tree (pinta/common/data_dir.h).
  c.cases_dir =
      pinta::data::find_dir("PINTA_CONFORMANCE_CASES", "conformance/cases", "conformance/cases");
  c.fixtures_dir = pinta::data::find_dir("PINTA_FIXTURES_DIR", "fixtures", "fixtures");
  c.default_cases_dir = c.cases_dir;  // a rerun command names --cases only if changed
  app.add_option("--cases", c.cases_dir, "directory of *.case.json files");
  app.add_option("--fixtures", c.fixtures_dir, "fixtures directory");
  add_run_command(app, c);
  add_case_commands(app, c);
#ifdef PINTA_CONFORMANCE_HAVE_FUZZ
  add_fuzz_command(app, c);
#endif

  std::string subs;
  for (const auto* sc : app.get_subcommands([](const CLI::App*) { return true; }))
    subs += (subs.empty() ? "" : ", ") + sc->get_name();
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage(e.what());
  }
  if (int rc = check_command_line(app, c, subs); rc >= 0) return rc;
  if (argc > 0) {
    c.program = argv[0];
    std::error_code ec;
    if (c.program.find('/') != std::string::npos)
      c.program = std::filesystem::absolute(c.program, ec).lexically_normal();
  }
#ifdef PINTA_CONFORMANCE_HAVE_FUZZ
  if (*c.fuzz) return run_fuzz(c);
#endif
  auto cases = load_cases(c.cases_dir);
  if (!cases) return usage(cases.error().message);
  if (*c.list) return list_cases(*cases, c);
  if (*c.show) return show_case(*cases, c);
  if (*c.docs) return render_docs(*cases, c);
  const auto style = decide_console_style(
      ::isatty(STDOUT_FILENO) == 1, ::isatty(STDERR_FILENO) == 1,
      std::getenv("NO_COLOR"), std::getenv("TERM"), c.quiet);  // NOLINT(concurrency-mt-unsafe)
  if (c.profile == "protocol") return run_protocol_profile(c, style);
  return run_contract(c, *cases, style);
}
