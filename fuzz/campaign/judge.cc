// Judging the campaign's runs (judge.h).
#include "judge.h"

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

namespace pinta::fuzz::campaign {

using nlohmann::json;
using pinta::fuzz::Host;

std::string expected_reply(Host host, const Case& c, bool consulted) {
  // The JSON-line hosts' exact replies (docs/contract.md FMT-4): deny and ask as SPEC§7.3 /
  // AGY§7.1 give them. Other families are judged by kind and reason only (expected_kind).
  if (consulted && guard_denies(c.guard)) {
    json d = {{"decision", "deny"}, {"reason", kDenyReason}};
    if (host == Host::kGemini) d["systemMessage"] = kDenyReason;
    return d.dump();
  }
  if (consulted && c.guard == kGuardReviewAsk)
    return json{{"decision", "ask"}, {"reason", kReviewReason}}.dump();
  return pinta::fuzz::allow_reply(host, c.event).dump();
}

namespace {

// What the reply must mean: the guard's deny, its review as an ask (where the host has one), or
// no objection.
ReplyKind expected_kind(Host host, const Case& c, bool consulted) {
  if (consulted && guard_denies(c.guard)) return ReplyKind::kDeny;
  if (consulted && c.guard == kGuardReviewAsk && pinta::hosts::descriptor(host).ask_on_gate)
    return ReplyKind::kAsk;
  return ReplyKind::kAllow;
}

bool json_line_host(Host host) {
  return pinta::hosts::descriptor(host).reads == pinta::hosts::ReplyReading::kJsonStdout;
}

// The reply means what the case expects: for the JSON-line hosts exactly expected_reply(); for
// the others the kind the one reply check read, and the guard's reason on a deny or ask.
bool reply_as_expected(Host host, const Case& c, bool consulted, const pinta::hosts::ReplyCheck& rc,
                       const std::string& out) {
  const ReplyKind want = expected_kind(host, c, consulted);
  if (rc.kind != want) return false;
  if (json_line_host(host))
    return json::parse(out.substr(0, out.size() - 1)) == json::parse(expected_reply(host, c, consulted));
  if (want == ReplyKind::kAllow) return out.empty();
  std::string line = out;
  while (!line.empty() && line.back() == '\n') line.pop_back();
  const char* reason = want == ReplyKind::kDeny ? kDenyReason : kReviewReason;
  return pinta::fuzz::deny_reason(host, line) == json(reason);
}

}  // namespace

std::string violation(const Options& o, Host host, const Case& c, const Observed& ob) {
  const SpawnOutcome& r = ob.r;
  if (!r.started) return "spawn-failed";
  if (r.term_signal) return "killed-by-signal";
  if (r.timed_out) return "hung";
  // An exit-code host's deny is its block status (the registry's); any other status is wrong.
  const bool block_status = r.exit_code && pinta::hosts::answers_by_exit_status(host) &&
                            *r.exit_code == pinta::hosts::descriptor(host).block_status;
  if (!r.exit_code || (*r.exit_code != 0 && !block_status)) return "nonzero-exit";
  if (!r.err.empty()) return "stderr-output";
  if (r.pipes_held) return "pipes-held-open";
  // The one reply check (pinta/hosts/reply_check.h): bytes first, then what the host reads.
  const pinta::hosts::ReplyCheck rc =
      pinta::hosts::check_reply(host, c.event, {r.out, *r.exit_code, r.err});
  if (!rc.framing.empty()) return "not-one-line";
  if (!rc.shape.empty()) return "reply-shape";
  if (ob.guard_requests > 0 && !pinta::fuzz::gate_event(host, c.event)) return "guard-off-gate";
  // A readable verdict is asked for once; a fault of the first request may bring the minimal
  // request (GUARD-16), never a third.
  if (ob.guard_requests > (guard_may_be_asked_twice(c.guard) ? 2 : 1)) return "guard-asked-twice";
  if (o.adversarial) {
    // GUARD-14: the model shaped this tool input; the guard must be asked and its deny obeyed.
    if (ob.guard_requests == 0) return "guard-not-asked";
    if (!reply_as_expected(host, c, true, rc, r.out)) return "allow-under-deny-guard";
    return "";
  }
  const auto replied_after = std::chrono::duration_cast<std::chrono::milliseconds>(
      r.first_stdout_after.count() >= 0 ? r.first_stdout_after : r.exited_after);
  // The guard counts a request when it arrives, not when the adapter reads the answer: under load
  // (many --jobs on few cores) the answer can come back after the adapter's guard deadline, and
  // failing open is then the contract. So an allow reply after a consulted guard is accepted
  // when the reply came no sooner than that deadline (a 100k-run campaign at --jobs 16 on 2
  // cores saw 3 such runs; none reproduced when re-run).
  const bool failed_open = ob.guard_requests >= 1 && reply_as_expected(host, c, false, rc, r.out) &&
                           replied_after.count() >= kGuardTimeoutMs;
  if (!failed_open && !reply_as_expected(host, c, ob.guard_requests >= 1, rc, r.out))
    return c.guard == kGuardNone ? "not-allow-without-guard" : "reply-ignores-guard";
  if (!c.planted.empty() &&
      (r.out.find(c.planted) != std::string::npos || r.err.find(c.planted) != std::string::npos))
    return "secret-leak";
  if (replied_after.count() > o.budget_ms) return "over-budget";
  return "";
}

Case minimise(const Options& o, Host host, World& w, Case c, const std::string& v) {
  int budget = 150;
  for (size_t chunk = std::max<size_t>(c.stdin_bytes.size() / 2, 1); chunk >= 1 && budget > 0;
       chunk /= 2) {
    for (size_t at = 0; at < c.stdin_bytes.size() && budget > 0;) {
      Case t = c;
      t.stdin_bytes.erase(at, chunk);
      if (!t.planted.empty() && t.stdin_bytes.find(t.planted) == std::string::npos) {
        at += chunk;
        continue;
      }
      --budget;
      if (violation(o, host, t, run_case(o, w, t)) == v)
        c = std::move(t);
      else
        at += chunk;
    }
    if (chunk == 1) break;
  }
  return c;
}

}  // namespace pinta::fuzz::campaign
