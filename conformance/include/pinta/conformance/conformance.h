// File: pinta/conformance/conformance.h
// The conformance suite for hook adapters: cases are JSON data files
// (conformance/cases/<area>/<ID>.case.json), each run against an adapter command line the way an
// emulated host runs a hook (Gemini CLI 0.61 via pinta::emulator_gemini, Antigravity profiles via
// pinta::emulator_antigravity), with a fake guard and collector when the case scripts them.
// The suite never consults the project's own adapter code: expectations come from the case files.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "pinta/common/result.h"
#include "pinta/emulator/host_runner.h"
#include "pinta/hosts/hosts.h"

namespace pinta::conformance {

using json = nlohmann::json;

// Concrete hosts a case can run under: the host list of pinta::hosts (pinta/hosts/hosts.h). A
// case selects them by the features it requires or by its family (pinta/conformance/features.h).
using pinta::hosts::all_hosts;
using pinta::hosts::family_of;
// How a host spawns a hook and reads its reply (pinta/emulator/host_runner.h).
using pinta::emu::absolute_command;
using pinta::emu::HookCall;
using pinta::emu::HookInput;
using pinta::emu::HookOutcome;
using pinta::emu::HostRunner;
// A case value given per host: a non-empty object whose keys are all families ("gemini",
// "antigravity") or hosts ("agy-1.1", …), e.g. {"gemini": {}, "antigravity": {"decision":
// "allow"}}, and "*" for every other host. Only a family case writes one; a shared case's are made
// by the loader from the families' cases/<family>/shared-cases.json.
bool is_per_host(const json& v);
// The values a case gives for the hosts: the one value, or each host's (pointers into v).
std::vector<const json*> per_host_values(const json& v);

struct Case {
  std::string id;    // AREA-NNNN, never renumbered or reused
  std::string area;  // OUT, EXIT, FMT, INPUT, GUARD, OTLP, REDACT, TRACE, ENV, PERF
  std::string title;
  std::string requirement;           // the sentence the case checks
  std::string source;                // SPEC§n / GEM§n / AGY§n / issue URL
  std::string level;                 // "must" | "should"
  // "requires": the features a host's family must have (pinta/conformance/features.h).
  std::vector<std::string> required;
  // "family": the family whose own case this is (it lives in cases/<family>/<AREA>/), or "" for a
  // shared case, which runs under every family with the required features.
  std::string family;
  std::vector<std::string> hosts;    // expanded, in all_hosts() order
  // The families whose cases/<family>/shared-cases.json adds values to this shared case.
  std::vector<std::string> family_values;
  std::optional<std::string> xfail;  // reason, when the case is expected to fail
  std::string file;                  // path it was loaded from
  int line = 0;                      // where in it (a protocol hook's registration); 0: unknown
  json raw;                          // the whole case object (steps, input, expect, ...)
  bool needs_fakes() const;
};

// Whether `area` is a case area: a shared one (docs/contract.md's sections) or a family's own,
// family_area(d) for a registered family d (its cases only).
bool is_area(const std::string& area);
std::string family_area(const pinta::hosts::FamilyDescriptor& d);  // its folder in capitals

// Parses one case file's text; errors are one line naming the file and the field.
Result<Case> parse_case(const std::string& text, const std::string& file);
// Loads every *.case.json under dir (recursively), sorted by id, and merges each family's
// cases/<family>/shared-cases.json into the shared cases it names; duplicate ids are an error.
Result<std::vector<Case>> load_cases(const std::string& dir);

struct RunOptions {
  std::string adapter;             // command line; "--agent A --event E" appended
  std::vector<std::string> hosts;  // subset of all_hosts()
  std::string filter;              // id prefix
  std::vector<std::string> exclude;  // id prefixes left out (--exclude, repeatable)
  bool strict = false;
  // Case × host units run at once (0: default_jobs()). Units mostly wait on the adapter, so this
  // is not bounded by cores; cases with a median_ms latency budget run afterwards, at most 2 at once.
  int jobs = 0;
  // Deadlines (seconds, 0: none): a unit (one case under one host) stops between runs after
  // case_deadline; units not finished by run_deadline are reported as having hit it. A spawn in
  // flight still ends within the case's own timeout_ms (+1.5 s hard limit).
  double case_deadline = 15;
  double run_deadline = 50;
  int max_failures = 0;  // >0: start no new case after this many failed cases
  // >0: once this many framing units (case x host of the areas OUT, EXIT, FMT, which run first)
  // have failed with one cause, and the failures stand (no rerun can undo them), the run stops:
  // nothing new starts, units in flight end at once, the rest are NOT-RUN. A broken adapter gets
  // its verdict in seconds instead of failing every case the same way (a hanging one: one round
  // of host timeouts); an adapter with no framing failure never stops. Counted by unit, not by
  // case: a case ends only when all of its hosts have, so a hanging adapter finished a case per
  // 13 host timeouts. 0: no framing stop.
  int max_framing_failures = kDefaultMaxFramingFailures;
  static constexpr int kDefaultMaxFramingFailures = 8;
  // false (the default): the run stops once its verdict is settled and what is left could only
  // add failures at the cost of waiting (see run_cases): the latency cases (slow to grade, run
  // last) are not started when a failure already stands; a failure in them, in a late unit, or
  // one confirmed by a rerun alone ends the run. true: every case runs (and no framing stop).
  bool complete = false;
  // Not complete: once this many units' failures stand with one cause (any area), the run stops
  // as the framing stop does: the verdict and its cause are clear (an adapter that never sends
  // its span failed 25 cases alike, each waiting a second for the collector: 31 s).
  static constexpr int kOneCauseStop = 24;
  // Units that were cut by a deadline, or failed a case whose verdict rests on time (a fake
  // guard, a median_ms or *_within_ms budget), are run again at once, alone (units in flight end
  // first, none starts meanwhile), before they count as failures: on a shared, loaded machine the
  // run's own concurrency (and everything else on it) is what failed them. The rerun's verdict is
  // the unit's; after kRerunConfirmations reruns failed again (the adapter's own failures, not
  // the load's) the rest stand without one.
  // Units cut by the run deadline are rerun only when that deadline is the default one: a
  // --run-deadline given on the command line is kept as given.
  bool rerun_alone = true;
  bool run_deadline_given = false;
  static constexpr int kRerunConfirmations = 3;
  std::string fixtures_dir;  // fixtures/ (for "fixture" inputs and default payloads)
  std::string profiles_dir;  // another version-profile folder for the host runners ("" their own)
  bool verbose = false;
  // For the reports' rerun commands: how this program was invoked and which cases it loaded
  // (empty: the built-in default, left out of the command).
  std::string program = "conformance";
  std::string cases_dir;
  // "contract" (the default: the case files, our adapter's contract) or "protocol" (any hook from
  // `config` or `hook`, pinta/conformance/protocol.h); for the rerun commands.
  std::string profile = "contract";
  std::string config, hook;
};

// One failed expectation, for the reports: which key of the case's "expect" failed, what the case
// expected there, the failure line, and the run it was found in (index into HostOutcome::runs;
// -1: a check over the whole unit, e.g. the collector's requests).
struct CheckFailure {
  std::string check;
  json expected;
  std::string message;
  int run = -1;
};

// One case under one host.
struct HostOutcome {
  std::string host;
  std::string state;  // pass | fail | unsupported | unresolved | deadline | not_run
  std::string deadline;  // "case" | "run" when state is deadline
  std::vector<std::string> failures;  // one line each
  std::vector<std::string> failed_checks;  // expectation keys that failed ("stderr", "collector.spans")
  std::string effect;                 // what the host did with the reply (per profile for agy)
  json runs = json::array();          // per step/repeat: argv, stdout, stderr, exit, timings
  std::vector<CheckFailure> checks;   // the failed expectations, structured (failures has the text)
  // Why the unit failed, in a few words shared by every unit with the same fault: a failed exit
  // status ("exit status 127"), else the reply-framing verdict a failure names, in words ("a
  // second line on stdout"), else the first failure without its host and details. Empty while
  // nothing failed.
  std::string cause;
  // Set when the unit was run again alone (RunOptions::rerun_alone): what the full run had found
  // ("the run deadline passed ...", the first failure line); the rest of the outcome is the rerun's.
  std::string rerun_after;
  // What the reader should know that is no failure (the protocol profile: a matcher that selects
  // no tool the host offers, sample calls left out by the bound).
  std::vector<std::string> notes;
};

struct CaseOutcome {
  const Case* c = nullptr;
  // PASS FAIL XFAIL XPASS NON-STRICT UNSUPPORTED UNRESOLVED, DEADLINE (a deadline cut it short:
  // a failure), NOT-RUN (left out after --max-failures was reached).
  std::string state;
  std::vector<HostOutcome> hosts;
  double seconds = 0;
};

struct RunSummary {
  std::vector<CaseOutcome> cases;
  int passed = 0, failed = 0, skipped = 0;
  int case_deadlines = 0, run_deadlines = 0, not_run = 0;  // units; cases NOT-RUN
  std::string stopped;  // why cases were left NOT-RUN (--max-failures, the framing stop), or ""
  // Units run again alone (RunOptions::rerun_alone), how many of them passed then, and why the
  // reruns stopped early ("" when every candidate was rerun).
  int reran = 0, reran_passed = 0;
  std::string rerun_stopped;
  double seconds = 0;
  // `--profile protocol --matrix`: the cross-host matrix for the reports (report.json's
  // "cross_host_matrix" rows {command, cells: [{host, verdict, effect, why}]}; matrix.md and
  // matrix.html show `cross_host_text`, render_matrix's table). Empty when not asked for.
  json cross_host_rows;
  std::string cross_host_text;
  int exit_code() const { return failed ? 1 : 0; }
};

// The default for RunOptions::jobs: 8, or 4 per core on bigger machines.
int default_jobs();

// Why the adapter command line cannot start, before any case runs (empty: no problem found): no
// first word, or a first word that names a missing file, a directory or a file without execute
// permission, or a bare name found neither on $PATH nor among the shell's builtins. A first word
// the shell would expand (quotes, $, `, a backslash, an assignment NAME=...) is not judged.
std::string adapter_problem(const std::string& command);

// Whether a case is selected: its id starts with the filter and with no exclude prefix.
bool selected(const Case& c, const RunOptions& options);

// Runs the selected cases, printing lit-style progress lines to `progress` (may be null).
RunSummary run_cases(const std::vector<Case>& cases, const RunOptions& options,
                     std::ostream* progress);
// The same, calling `on_case` (under the runner's lock, one call at a time) as each case ends with
// how many cases have ended and how many were selected.
using CaseDone = std::function<void(const CaseOutcome&, size_t done, size_t total)>;
RunSummary run_cases(const std::vector<Case>& cases, const RunOptions& options,
                     const CaseDone& on_case);
// Whether a case state is a failure of the run (FAIL, XPASS, UNRESOLVED, DEADLINE).
bool is_failure_state(const std::string& state);

// The framing areas (OUT, EXIT, FMT): a broken reply fails them first and plainest, so their
// cases run before the others (in this order), and they feed the framing stop.
bool is_framing_area(const std::string& area);
// The order cases run (and a reader should read failures) in: OUT, EXIT, FMT, then by id.
bool runs_before(const Case& a, const Case& b);

// A failed case's cause (its failing hosts' HostOutcome::cause, a framing one first); "" when the
// case did not fail.
std::string failure_cause(const CaseOutcome& co);

// When most failures of a run share one cause: the cause in words, how many failed cases share it
// out of how many failed, and the case to read first (the first of them in run order).
struct CommonCause {
  std::string cause;
  int cases = 0, failed = 0;
  std::string read_first;
};
// Set when at least two failed cases and more than half of all failed cases share a cause.
std::optional<CommonCause> common_failure_cause(const RunSummary& s);
// "126 failures; 121 share: a second line on stdout — read OUT-0001 first".
std::string common_cause_line(const CommonCause& c);

// Failure block for one case (expected vs actual, stdout/stderr/exit/timing).
std::string failure_block(const CaseOutcome& o);

// --report DIR: report.json, junit.xml, matrix.md, matrix.html.
Status write_reports(const RunSummary& s, const RunOptions& o, const std::string& dir);

// docs/conformance-cases.md generated from the case files.
std::string render_cases_doc(const std::vector<Case>& cases);

// Canonical JSON (sorted keys, compact) and a line diff of two pretty canonical renderings.
std::string canonical(const json& j);
std::string json_diff(const json& expected, const json& actual);

}  // namespace pinta::conformance
