// The conformance runner's schedule (internal to this library; run_cases in runner.cc uses it):
// the order in which case × host units are queued, and the gate that lets a unit run alone.
// Kept apart from the runner so that both are tested directly (test/schedule_test.cc).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "pinta/conformance/conformance.h"

namespace pinta::conformance::detail {

// One case under one host: what a worker of the runner's pools runs.
struct Unit {
  size_t case_index;  // into the selected cases
  std::string host;
};

// Every unit of the selected cases under `hosts` (a case's own hosts, in their order, that
// `hosts` holds), in two queues:
//   fast: the framing cases (OUT, EXIT, FMT) first, whole, up to 2 × jobs units, so a broken
//         reply is judged in the first seconds (the framing stop); then the cases with a time
//         budget, tightest first (a slow or hanging adapter fails them; started early, that
//         verdict does not wait behind the rest); then the other framing cases; then the rest.
//   slow: the latency-sensitive cases (latency_sensitive), run after `fast`, two at a time.
// Within each part, per chunk of 2 × jobs cases, the first unit of every case comes before any
// case's second (spread_units): no two units of one case run side by side while other cases wait.
struct UnitQueue {
  std::vector<Unit> fast, slow;
};
UnitQueue plan_units(const std::vector<const Case*>& sel, const std::vector<std::string>& hosts,
                     int jobs);

// Reorders units grouped by case (consecutive equal case_index) so that, per chunk of `chunk`
// cases, the k-th unit of each case comes before any case's (k+1)-th.
std::vector<Unit> spread_units(const std::vector<Unit>& units, size_t chunk);

// Cases with a median latency budget, and cases with a fake guard (the adapter's guard budget is
// 50 ms end to end, and the fake answers from this process): run after the others, at most two
// at once, so that the suite's own concurrency does not eat their budget.
bool latency_sensitive(const Case& c);
// The tightest of a case's time budgets in ms (reply/exit/closed_within_ms, median_ms.max, per
// host or not; steps included); a large number when it has none.
double tightest_budget_ms(const json& raw);

// "Alone" for a rerun: every unit passes the gate (enter ... leave) with its own cancel flag,
// which the unit's spawns poll. enter_alone() holds new units back, sets the flag of each unit in
// flight that has run for `old` or more (a broken adapter's unit may wait out a 5 s host timeout;
// the runner runs such a stopped unit again after the rerun), and returns once none is left;
// leave_alone() opens the gate again. stop_all() sets every flag, now and at every later enter.
class AloneGate {
 public:
  using Clock = std::chrono::steady_clock;
  explicit AloneGate(Clock::duration old = std::chrono::seconds(1)) : old_(old) {}
  // Waits while a unit runs alone; returns the id for leave(). `start` is when the unit counts
  // as started (the time it enters; tests pass their own).
  int enter(std::atomic<bool>& cancel, Clock::time_point start = Clock::now());
  void leave(int id);
  void stop_all();
  void enter_alone();
  void leave_alone();

 private:
  struct Active {
    std::atomic<bool>* cancel;
    Clock::time_point start;
  };
  const Clock::duration old_;
  std::mutex m_;
  std::condition_variable cv_;
  std::map<int, Active> active_;
  int next_id_ = 0;
  bool alone_ = false, stopped_ = false;
};

}  // namespace pinta::conformance::detail
