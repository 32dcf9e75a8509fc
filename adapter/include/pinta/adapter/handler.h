// File: pinta/adapter/handler.h
// The hot path: argv + stdin bytes → the one reply line. Pure apart from the seams, so every rule
// of docs/contract.md is unit-testable without spawning a process.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "pinta/adapter/config.h"
#include "pinta/adapter/guard.h"  // for main's guard wiring; implemented in pinta::guard
#include "pinta/adapter/input.h"
#include "pinta/adapter/normalize.h"
#include "pinta/adapter/seams.h"

namespace pinta::adapter {

// `--agent A --event E` (also `--agent=A`, `--event=E`); anything else is reported, not fatal.
// The event is canonical_event() of the agent's family.
struct Args {
  std::string_view agent;
  std::string_view event;
  // The family of `agent`, parsed once here (the registry's labels, exact): none for a missing,
  // empty or unregistered label. Everything after parse_args reads this; the label only picks
  // the family's payload shape for it (hosts::payload_shape).
  std::optional<Family> family;
  bool has_agent = false;
  bool has_event = false;
  std::vector<std::string_view> unknown;  // unexpected arguments (kept for the debug log)
};
Args parse_args(int argc, const char* const* argv);

// Rewrites escaped lone UTF-16 surrogates ("\\ud800" not followed by a low surrogate, or a lone
// low surrogate) to "\\ufffd". Returns whether anything changed. Exposed for tests and fuzzers.
bool repair_lone_surrogates(std::string& json_text);

// The reply that must be printed if anything at all goes wrong from here on (no allocation).
std::string_view fail_safe_for(const Args& args) noexcept;

// Where the family's payload holds the tool name (its PayloadShape; the label's where the family
// has one per `--agent` label), for the stdin reader (InputLimits::tool_name, GUARD-14).
NamePath tool_name_path(Family family, std::string_view agent = {}) noexcept;

struct Services {
  const Clock* clock = nullptr;   // required
  GuardClient* guard = nullptr;   // null: guard not configured → allow
  SpanSink* spans = nullptr;      // null: telemetry off
  // The gate's settings (seams.h), as the guard client has them: the budget (guard_deadline),
  // what a REVIEW becomes, and what an unjudgeable tool call becomes. Defaults when no guard.
  GuardPolicy guard_policy;
  // When this event's own work began, with the wait for the host's stdin left out (main sets it
  // to its start plus the time read_event spent). The budget bounds what the hook adds to the
  // host's wait, so the work already done before the guard call and a reserve for writing the
  // reply count against it (guard_deadline). Unset (epoch): the budget starts at the call.
  std::chrono::steady_clock::time_point work_started{};
  // Keep copies of the payload and the normalized event in the Outcome, for the debug log only
  // (main clears it when PINTA_GEMINI_DEBUG is off: two deep copies of a payload of up to 100 KiB
  // on every event otherwise).
  bool keep_debug_copies = true;
  // Asked only when a guard REVIEW would become `ask` on a family with a print mode (its
  // descriptor's PrintMode): true when the host cannot answer a prompt (host_mode.h), and REVIEW
  // then stays allow. null: never.
  bool (*host_cannot_prompt)(const hosts::PrintMode& mode) noexcept = nullptr;
};

// The deny reason when PINTA_GUARD_ON_UNJUDGEABLE=deny refuses a tool call the guard cannot judge.
inline constexpr std::string_view kUnjudgeableReason =
    "pinta: this tool call cannot be shown to the guard whole (too large, too deep or malformed); "
    "denied by PINTA_GUARD_ON_UNJUDGEABLE=deny";

// The deadline of the guard call made at `now`: `now + guard_policy.timeout`, less the event's own work
// before the call plus a reply reserve (kGuardReplyReserve), that head start capped at
// kGuardMaxHeadStart and at a tenth of the budget, so a payload that is slow to parse never
// leaves the guard less than 90 % of its budget (docs/contract.md GUARD-4).
// 1 ms: writing the reply and exiting, and the wake-up after the guard's last wait (a ppoll that
// times out returns ~0.06-0.1 ms late on the 2-core VM of docs/benchmarks-history.md, and now and then a
// scheduling delay adds ~0.5 ms more). With 0.25 ms a guard that never answered still cost 0.05 ms
// (median) / 0.12 ms (p99) over budget + start-up; with 0.5 ms the p99 stayed within it by only
// 0.08-0.26 ms in six bench runs and missed by 0.23 ms in a seventh.
inline constexpr std::chrono::microseconds kGuardReplyReserve{1000};
inline constexpr std::chrono::microseconds kGuardMaxHeadStart{2000};
Deadline guard_deadline(const Services& services, std::chrono::steady_clock::time_point now);

// A new span id: 16 lowercase hex digits (8 bytes from getrandom; a time/pid mix if that fails).
std::string new_span_id();

struct Outcome {
  std::string reply;              // one JSON object, no newline; empty: print nothing (deel)
  int exit_status = 0;            // 0, or deny_exit_status() with a deny on an exit-code host
  InputStatus input = InputStatus::kEmpty;
  bool parsed = false;            // stdin held a valid JSON object, read whole
  bool partial = false;           // a gate event judged on the part of its payload that arrived
  size_t cut_values = 0;          // values nesting cuts left out of the payload (bounded_json.h)
  nlohmann::json normalized;      // canonical event (null when not parsed)
  nlohmann::json payload;         // the raw payload (null when not parsed)
  std::string guard_decision;     // allow|deny|review|unavailable|skipped
  std::string guard_error;        // why the guard was unavailable (fail-open), for the debug log
  std::string span_id;            // set when a guard or span sink was present
  std::shared_ptr<const CanonicalEvent> event;  // the normalized event, when stdin held an object
  std::string note;               // why the fail-safe reply was used
};

// Decides the reply. Never throws for any input (exceptions inside are turned into the fail-safe).
Outcome handle(const Args& args, RawInput input, Services& services);
// The same, with the review mode given as PINTA_GUARD_REVIEW's text ("ask"; anything else is
// allow), which replaces services.guard_policy.review: for callers that set no GuardPolicy (the
// fuzz harnesses).
Outcome handle(const Args& args, RawInput input, Services& services, std::string_view review_mode);

}  // namespace pinta::adapter
