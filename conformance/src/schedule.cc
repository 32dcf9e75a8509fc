// The runner's schedule: unit order and the alone gate (schedule.h).
#include "schedule.h"

#include <algorithm>
#include <cstddef>

#include "matcher_context.h"

namespace pinta::conformance::detail {

bool latency_sensitive(const Case& c) {
  if (c.raw.contains("guard")) return true;
  auto has = [](const json& e) { return e.is_object() && e.contains("median_ms"); };
  if (has(c.raw.value("expect", json()))) return true;
  for (const auto& st : c.raw.value("steps", json::array()))
    if (st.is_object() && has(st.value("expect", json()))) return true;
  return false;
}

double tightest_budget_ms(const json& raw) {
  double best = 1e18;
  auto num = [&](const json& v) {
    if (v.is_number()) best = std::min(best, v.get<double>());
    if (v.is_object())
      for (const auto& [k, x] : v.items())
        if (x.is_number()) best = std::min(best, x.get<double>());
  };
  auto scan = [&](const json& e) {
    if (!e.is_object()) return;
    for (const char* k : {"reply_within_ms", "exit_within_ms", "closed_within_ms"})
      if (e.contains(k)) num(e[k]);
    if (e.contains("median_ms") && e["median_ms"].is_object()) num(e["median_ms"].value("max", json()));
  };
  scan(raw.value("expect", json()));
  for (const auto& st : raw.value("steps", json::array()))
    if (st.is_object()) scan(st.value("expect", json()));
  return best;
}

std::vector<Unit> spread_units(const std::vector<Unit>& units, size_t chunk) {
  chunk = std::max<size_t>(chunk, 1);
  std::vector<std::vector<Unit>> by_case;
  for (const auto& u : units) {
    if (by_case.empty() || by_case.back().front().case_index != u.case_index) by_case.emplace_back();
    by_case.back().push_back(u);
  }
  std::vector<Unit> out;
  out.reserve(units.size());
  for (size_t c0 = 0; c0 < by_case.size(); c0 += chunk) {
    const size_t c1 = std::min(by_case.size(), c0 + chunk);
    for (size_t k = 0;; ++k) {
      bool any = false;
      for (size_t c = c0; c < c1; ++c)
        if (k < by_case[c].size()) {
          out.push_back(by_case[c][k]);
          any = true;
        }
      if (!any) break;
    }
  }
  return out;
}

UnitQueue plan_units(const std::vector<const Case*>& sel, const std::vector<std::string>& hosts,
                     int jobs) {
  // Cases in run order (runs_before: OUT, EXIT, FMT first, then by id); a case's units together.
  std::vector<size_t> order(sel.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return runs_before(*sel[a], *sel[b]); });
  UnitQueue q;
  std::vector<Unit> first, timed, framing, rest;
  for (size_t i : order) {
    const Case& c = *sel[i];
    auto& part = latency_sensitive(c)        ? q.slow
                 : has_time_budget(c.raw)    ? timed
                 : is_framing_area(c.area)   ? framing
                                             : rest;
    for (const auto& h : c.hosts)
      if (std::find(hosts.begin(), hosts.end(), h) != hosts.end()) part.push_back({i, h});
  }
  std::stable_sort(timed.begin(), timed.end(), [&](const Unit& a, const Unit& b) {
    return tightest_budget_ms(sel[a.case_index]->raw) < tightest_budget_ms(sel[b.case_index]->raw);
  });
  const size_t chunk = static_cast<size_t>(2 * std::max(jobs, 1));
  // The first framing cases, whole: the first case that crosses 2 × jobs units ends the head.
  size_t head = 0;
  while (head < framing.size() && head < chunk) {
    const size_t c = framing[head].case_index;
    while (head < framing.size() && framing[head].case_index == c) ++head;
  }
  first.assign(framing.begin(), framing.begin() + static_cast<std::ptrdiff_t>(head));
  framing.erase(framing.begin(), framing.begin() + static_cast<std::ptrdiff_t>(head));
  for (auto* part : {&first, &timed, &framing, &rest}) {
    auto spread = spread_units(*part, chunk);
    q.fast.insert(q.fast.end(), spread.begin(), spread.end());
  }
  return q;
}

int AloneGate::enter(std::atomic<bool>& cancel, Clock::time_point start) {
  std::unique_lock<std::mutex> l(m_);
  cv_.wait(l, [&] { return !alone_; });
  cancel = stopped_;
  active_[next_id_] = {&cancel, start};
  return next_id_++;
}

void AloneGate::leave(int id) {
  std::lock_guard<std::mutex> l(m_);
  active_.erase(id);
  cv_.notify_all();
}

void AloneGate::stop_all() {
  std::lock_guard<std::mutex> l(m_);
  stopped_ = true;
  for (auto& [id, a] : active_) *a.cancel = true;
}

void AloneGate::enter_alone() {
  std::unique_lock<std::mutex> l(m_);
  cv_.wait(l, [&] { return !alone_; });
  alone_ = true;
  while (!active_.empty()) {
    const auto now = Clock::now();
    for (auto& [id, a] : active_)
      if (now - a.start >= old_) *a.cancel = true;
    cv_.wait_for(l, std::chrono::milliseconds(50));
  }
}

void AloneGate::leave_alone() {
  std::lock_guard<std::mutex> l(m_);
  alone_ = false;
  cv_.notify_all();
}

}  // namespace pinta::conformance::detail
