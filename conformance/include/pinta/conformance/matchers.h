// File: pinta/conformance/matchers.h
// The expectation kinds ("matchers") of the conformance cases, in one registry. Each kind is one
// entry: its name, where a case may use it, how its value is validated when a case loads, how it
// is evaluated against a run (or a whole case × host unit) and what the HTML report shows as the
// actual value beside a failure. Case loading (case.cc), evaluation (runner.cc), the HTML report
// and the zoo test (every kind fails on some broken adapter) all iterate this registry, so a kind
// is added in one place.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pinta::conformance {

// Where a kind may appear (a bit set).
enum MatcherPlace : unsigned {
  kInCaseExpect = 1u,  // the case's "expect" (per-run kinds are evaluated on every run)
  kInStepExpect = 2u,  // a step's "expect" (evaluated on that step's runs only)
  kInCollector = 4u,   // inside "expect.collector"
};

// When a kind is evaluated: on each run's outcome, or once over the whole unit (the fake guard's
// and collector's requests, files, every run's timings), or over the collector's spans.
enum class MatcherScope { kRun, kUnit, kCollector };

// What the HTML report shows as the actual value of a failed check, from the run that failed it.
enum class ActualView { kNone, kStdout, kStderr, kExit, kEffect, kTimings };

// The evaluation contexts (conformance/src/matcher_context.h): what a check sees and how it
// reports a failure.
struct RunContext;
struct UnitContext;
struct CollectorContext;

struct Matcher {
  const char* name;  // the key in "expect" (or in "expect.collector")
  unsigned places;   // MatcherPlace bits
  MatcherScope scope;
  // One host's value (per-host values are split before, null ones skipped) found at `at`
  // ("expect.exit_code", "expect.collector.spans"): "" when acceptable, else one line naming `at`
  // and what it must be ("expect.exit_code must be an integer").
  std::string (*validate)(const nlohmann::json& value, const std::string& at);
  // Exactly the one matching `scope` is set; a modifier has none (it shapes other checks).
  void (*on_run)(const nlohmann::json& want, RunContext& ctx);
  void (*on_unit)(const nlohmann::json& want, UnitContext& ctx);
  void (*on_collector)(const nlohmann::json& want, CollectorContext& ctx);
  ActualView actual = ActualView::kNone;
  // Shapes how the other checks are evaluated and cannot fail by itself (collector.accepted_only,
  // collector.wait_requests); the zoo test does not ask a broken adapter to fail it.
  bool modifier = false;
  // A group of kinds (expect.collector): its failures name its kinds ("collector.spans"), never
  // the group itself.
  bool group = false;
  // Settled once the adapter has exited (its status, signal, exit time): a step whose checks are
  // all such does not wait on for the pipes to close.
  bool decided_at_exit = false;
};

// Every kind, in evaluation order within a scope.
const std::vector<Matcher>& matchers();
// The kind named `name` among the collector's kinds (in_collector) or the top-level ones; nullptr
// when there is none.
const Matcher* find_matcher(const std::string& name, bool in_collector);
// The name a failure reports ("stderr", "collector.spans"): HostOutcome::failed_checks.
std::string check_name(const Matcher& m);
// The kind a failure names (check_name's inverse), or nullptr.
const Matcher* find_check(const std::string& check);

// Validates an "expect" object for `place` (kInCaseExpect or kInStepExpect): "" or one line naming
// the key and what is wrong ("expect.exit_code must be an integer").
std::string validate_expect(const nlohmann::json& expect, MatcherPlace place);

}  // namespace pinta::conformance
