// The runner's schedule (conformance/src/schedule.h): the order units are queued in, and the gate
// that runs a unit alone.
#include "schedule.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

namespace pinta::conformance::detail {
namespace {

using namespace std::chrono_literals;

Case make_case(const std::string& id, json raw = json::object(),
               std::vector<std::string> hosts = {"h1", "h2"}) {
  Case c;
  c.id = id;
  c.area = id.substr(0, id.find('-'));
  c.level = "must";
  c.hosts = std::move(hosts);
  c.raw = std::move(raw);
  return c;
}

std::vector<std::string> ids(const std::vector<Unit>& units, const std::vector<const Case*>& sel) {
  std::vector<std::string> out;
  for (const auto& u : units) out.push_back(sel[u.case_index]->id + "@" + u.host);
  return out;
}

// Distinct case ids in queue order.
std::vector<std::string> case_order(const std::vector<Unit>& units,
                                    const std::vector<const Case*>& sel) {
  std::vector<std::string> out;
  for (const auto& u : units)
    if (out.empty() || out.back() != sel[u.case_index]->id) {
      if (std::find(out.begin(), out.end(), sel[u.case_index]->id) == out.end())
        out.push_back(sel[u.case_index]->id);
    }
  return out;
}

TEST(PlanUnits, FramingFirstThenTimedTightestFirstThenTheRestLatencyApart) {
  // Selected in id order, as run_cases gets them; one unit per case (one host) so the order of
  // the parts shows without spreading.
  std::vector<Case> cs = {
      make_case("ENV-0001", json::object(), {"h1"}),
      make_case("EXIT-0001", json::object(), {"h1"}),
      make_case("FMT-0001", json::object(), {"h1"}),
      make_case("GUARD-0001", {{"guard", json::object()}}, {"h1"}),
      make_case("INPUT-0001", {{"expect", {{"reply_within_ms", 900}}}}, {"h1"}),
      make_case("INPUT-0002", {{"steps", {{{"expect", {{"exit_within_ms", {{"h1", 300}}}}}}}}},
                {"h1"}),
      make_case("OUT-0001", json::object(), {"h1"}),
      make_case("PERF-0001", {{"expect", {{"median_ms", {{"max", 5}}}}}}, {"h1"}),
  };
  std::vector<const Case*> sel;
  for (const auto& c : cs) sel.push_back(&c);
  // jobs 1: the head of framing cases is 2 units (OUT-0001, EXIT-0001); FMT-0001 comes after
  // the timed cases.
  auto q = plan_units(sel, {"h1"}, 1);
  EXPECT_EQ(ids(q.fast, sel),
            (std::vector<std::string>{"OUT-0001@h1", "EXIT-0001@h1", "INPUT-0002@h1",
                                      "INPUT-0001@h1", "FMT-0001@h1", "ENV-0001@h1"}));
  EXPECT_EQ(ids(q.slow, sel), (std::vector<std::string>{"GUARD-0001@h1", "PERF-0001@h1"}));
  // jobs 4: every framing case is in the head.
  q = plan_units(sel, {"h1"}, 4);
  EXPECT_EQ(case_order(q.fast, sel),
            (std::vector<std::string>{"OUT-0001", "EXIT-0001", "FMT-0001", "INPUT-0002",
                                      "INPUT-0001", "ENV-0001"}));
}

TEST(PlanUnits, OnlyTheSelectedHostsEachOnce) {
  std::vector<Case> cs = {make_case("OUT-0001", json::object(), {"a", "b", "c"}),
                          make_case("ENV-0001", json::object(), {"b", "c"})};
  std::vector<const Case*> sel = {&cs[0], &cs[1]};
  auto q = plan_units(sel, {"c", "b"}, 2);
  auto got = ids(q.fast, sel);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"ENV-0001@b", "ENV-0001@c", "OUT-0001@b",
                                           "OUT-0001@c"}));
  EXPECT_TRUE(q.slow.empty());
  EXPECT_TRUE(plan_units(sel, {"z"}, 2).fast.empty());
}

TEST(PlanUnits, AFramingCaseIsNotSplitByTheHead) {
  // Three framing cases of 3 units each, jobs 1 (head of 2 units): the first case is whole in
  // the head although it crosses 2 units; the others follow after the (absent) timed cases.
  std::vector<Case> cs = {make_case("OUT-0001", json::object(), {"a", "b", "c"}),
                          make_case("OUT-0002", json::object(), {"a", "b", "c"}),
                          make_case("OUT-0003", json::object(), {"a", "b", "c"})};
  std::vector<const Case*> sel = {&cs[0], &cs[1], &cs[2]};
  auto q = plan_units(sel, {"a", "b", "c"}, 1);
  ASSERT_EQ(q.fast.size(), 9u);
  for (size_t k = 0; k < 3; ++k) EXPECT_EQ(sel[q.fast[k].case_index]->id, "OUT-0001") << k;
}

TEST(SpreadUnits, NoTwoUnitsOfOneCaseBackToBackWithinAChunk) {
  std::vector<Unit> units;
  for (size_t c = 0; c < 4; ++c)
    for (const char* h : {"a", "b", "c"}) units.push_back({c, h});
  auto out = spread_units(units, 2);
  ASSERT_EQ(out.size(), units.size());
  // Chunks of 2 cases: 0a 1a 0b 1b 0c 1c, then 2a 3a 2b 3b 2c 3c.
  std::vector<size_t> want = {0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3};
  for (size_t k = 0; k < out.size(); ++k) EXPECT_EQ(out[k].case_index, want[k]) << k;
  EXPECT_EQ(out[0].host, "a");
  EXPECT_EQ(out[2].host, "b");
  // chunk 0 is taken as 1: the order is kept.
  out = spread_units(units, 0);
  for (size_t k = 0; k < out.size(); ++k) EXPECT_EQ(out[k].case_index, units[k].case_index) << k;
  EXPECT_TRUE(spread_units({}, 4).empty());
}

TEST(Budgets, TightestBudgetAndLatencySensitivity) {
  EXPECT_EQ(tightest_budget_ms({{"expect", {{"reply_within_ms", 900}}}}), 900);
  EXPECT_EQ(tightest_budget_ms({{"expect", {{"median_ms", {{"max", 12}}}, {"exit_within_ms", 40}}}}),
            12);
  EXPECT_EQ(tightest_budget_ms({{"steps", {{{"expect", {{"closed_within_ms", {{"a", 70}, {"b", 30}}}}}}}}}),
            30);
  EXPECT_GT(tightest_budget_ms(json::object()), 1e17);
  EXPECT_TRUE(latency_sensitive(make_case("GUARD-0001", {{"guard", json::object()}})));
  EXPECT_TRUE(latency_sensitive(make_case("PERF-0001", {{"steps", {{{"expect", {{"median_ms", 1}}}}}}})));
  EXPECT_FALSE(latency_sensitive(make_case("INPUT-0001", {{"expect", {{"reply_within_ms", 1}}}})));
}

TEST(AloneGate, AloneStopsOldUnitsWaitsForYoungOnesAndHoldsNewOnesBack) {
  // Start times given, so that "old" and "young" do not depend on the machine's speed.
  AloneGate gate(1s);
  const auto now = AloneGate::Clock::now();
  std::atomic<bool> old_cancel{false}, young_cancel{false};
  const int old_id = gate.enter(old_cancel, now - 2s);
  const int young_id = gate.enter(young_cancel, now + 1h);
  auto alone = std::async(std::launch::async, [&] { gate.enter_alone(); });
  // The old unit is told to stop; the young one is not (it leaves by itself).
  for (int k = 0; k < 200 && !old_cancel; ++k) std::this_thread::sleep_for(10ms);
  EXPECT_TRUE(old_cancel);
  EXPECT_FALSE(young_cancel);
  gate.leave(old_id);
  EXPECT_EQ(alone.wait_for(200ms), std::future_status::timeout) << "the young unit still runs";
  gate.leave(young_id);
  ASSERT_EQ(alone.wait_for(5s), std::future_status::ready);
  // While alone, a new unit waits at the gate.
  std::atomic<bool> next_cancel{false};
  auto next = std::async(std::launch::async, [&] { return gate.enter(next_cancel); });
  EXPECT_EQ(next.wait_for(200ms), std::future_status::timeout);
  gate.leave_alone();
  ASSERT_EQ(next.wait_for(5s), std::future_status::ready);
  EXPECT_FALSE(next_cancel);
  gate.leave(next.get());
}

TEST(AloneGate, StopAllCancelsUnitsInFlightAndEveryLaterOne) {
  AloneGate gate;
  std::atomic<bool> a{false}, b{false};
  const int id = gate.enter(a);
  gate.stop_all();
  EXPECT_TRUE(a);
  gate.leave(id);
  gate.leave(gate.enter(b));
  EXPECT_TRUE(b);
}

}  // namespace
}  // namespace pinta::conformance::detail
