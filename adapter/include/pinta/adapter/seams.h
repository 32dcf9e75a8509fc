// File: pinta/adapter/seams.h
// The adapter's seams: the guard, the span sink and the clock. The hot path (handler.h) only talks
// to these interfaces, so tests and fuzzers substitute fakes and the network code (guard client,
// OTLP exporter, retry queue) stays out of the process unless an event needs it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "pinta/adapter/normalize.h"
#include "pinta/common/deadline.h"

namespace pinta::adapter {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t unix_nanos() const = 0;                   // wall clock, for timestamps
  virtual std::chrono::steady_clock::time_point now() const = 0;  // monotonic, for budgets
};
const Clock& system_clock();

// Guard verdict (seed SPEC §8: {decision: ALLOW|DENY|REVIEW, reason, userMessage?}).
struct GuardVerdict {
  enum class Decision { kAllow, kDeny, kReview, kUnavailable };
  Decision decision = Decision::kUnavailable;
  std::string reason;
  std::string user_message;
  std::string matched_rule;
  std::string error;  // why kUnavailable (timeout, refused, a status without a verdict, malformed) — fail-open
};

// The text a host shows for a verdict (seed SPEC §7.3): userMessage ?? reason ?? `fallback`.
std::string guard_verdict_text(const GuardVerdict& verdict, std::string_view fallback);
// The deny reason: userMessage ?? reason ?? "guard_deny" (what every deny reply carries).
inline std::string guard_deny_reason(const GuardVerdict& verdict) {
  return guard_verdict_text(verdict, "guard_deny");
}

// The bound on a guard request, in bytes of the JSON text sent, escapes counted (GUARD-15):
// PINTA_GUARD_MAX_REQUEST_BYTES, default 64 KiB (under nginx's 1 MiB client_max_body_size and
// near Express json()'s 100 kB default), clamped to [8 KiB, 2 MiB] (a guard quoting the largest
// request twice in its reply stays under the reply cap).
inline constexpr size_t kGuardDefaultMaxRequestBytes = 64u << 10;
inline constexpr size_t kGuardMinRequestBytes = 8u << 10;
inline constexpr size_t kGuardMaxRequestBytesCap = 2u << 20;

// What the deployment asks of the guard gate: one value, read once from the environment
// (guard_config_from_environment, guard.h) and handed whole to the hot path (Services) and the
// guard client (GuardConfig). Its defaults are the only ones.
struct GuardPolicy {
  static constexpr int64_t kDefaultTimeoutMs = 50;  // SPEC §8
  static constexpr int64_t kMinTimeoutMs = 1;
  // Hosts wait for the hook (Gemini CLI default hook timeout 60 s, gemini-cli-0.61-hooks.md §4.4);
  // a guard that needs more than 10 s would make every tool call crawl.
  static constexpr int64_t kMaxTimeoutMs = 10000;

  enum class Review { kAllow, kAsk };

  // PINTA_GUARD_TIMEOUT_MS, clamped: the guard's whole budget (DNS + connect + TLS + send + read).
  std::chrono::milliseconds timeout{kDefaultTimeoutMs};
  // PINTA_GUARD_REVIEW: allow (default) | ask — what a REVIEW verdict becomes (GUARD-8).
  Review review = Review::kAllow;
  // PINTA_GUARD_ON_UNJUDGEABLE=deny (default `guard`): a tool call the guard could be shown only
  // as a truncated view, or not at all (no object, no tool name), is denied without asking
  // (GUARD-14), for deployments that put security first.
  bool deny_unjudgeable = false;
  // PINTA_GUARD_MAX_REQUEST_BYTES: the request bound (GUARD-15), clamped.
  size_t max_request_bytes = kGuardDefaultMaxRequestBytes;
};

class GuardClient {
 public:
  virtual ~GuardClient() = default;
  // Must return by `deadline` whatever the network does.
  virtual GuardVerdict check(const CanonicalEvent& event, const std::string& span_id, Deadline deadline) = 0;
  // Work that may wait until the reply is out (main calls it after writing the reply).
  virtual void after_reply() noexcept {}
};

// What the hot path hands to telemetry once the reply is known.
struct SpanInput {
  const CanonicalEvent* event = nullptr;
  std::string span_id;                  // 16 lowercase hex; the same id was sent to the guard
  const GuardVerdict* guard = nullptr;  // null on non-gate events / guard not configured
  std::string reply;                    // the line printed to the host
  int64_t start_unix_nanos = 0;
  int64_t end_unix_nanos = 0;
};

class SpanSink {
 public:
  virtual ~SpanSink() = default;
  // Must not block on the network (append to the on-disk queue, hand delivery elsewhere).
  virtual void submit(const SpanInput& span) = 0;
};

}  // namespace pinta::adapter
