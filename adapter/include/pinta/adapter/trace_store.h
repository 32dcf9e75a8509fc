// File: pinta/adapter/trace_store.h
// Trace correlation (seed SPEC §10, DG7): `trace.json` in the data dir maps a session key (Gemini
// session_id, Antigravity conversationId) to the trace its spans share. A new trace starts on
// Gemini BeforeAgent (one user turn), on Antigravity at the first PreInvocation of a conversation
// (`invocationNum` == 0: observed zero-based, shared/reference/antigravity-hooks.md §8 [OBS glint
// PR #116]) and for any key the store does not know; every other event reuses the key's trace.
//
// Updates happen under an exclusive flock on `trace.json.lock` and replace the file atomically
// (temp + rename), so readers always see a whole, valid JSON object. The store is bounded: entries
// idle for more than max_age are dropped, and beyond max_sessions the least recently used go.
// The file has one entry per line so a lookup is a substring search, not a parse of the whole
// map; the entry's `updated` time is refreshed at most once per refresh_ms (a write per event
// would cost an fsync on the hot path).
//
// A host that hands its hooks a W3C trace context (host_parent) puts our span in its trace
// instead: the store is then neither read nor written for that event.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "pinta/adapter/handler.h"
#include "pinta/adapter/normalize.h"
#include "pinta/common/result.h"

namespace pinta::adapter {

inline constexpr std::string_view kTraceFile = "trace.json";

struct TraceOptions {
  std::string dir;
  size_t max_sessions = 1000;
  int64_t max_age_ms = 7LL * 24 * 3600 * 1000;
  int64_t refresh_ms = 3600LL * 1000;
  int lock_timeout_ms = 1000;
};

// Whether `event` starts a new trace for its session (the rules above).
bool starts_new_trace(const CanonicalEvent& event);

// 16 random bytes → 32 lowercase hex, from a ULID (48-bit ms time + 80 random bits).
std::string new_trace_id(int64_t now_unix_ms);
// Span ids: new_span_id() in handler.h (the handler makes one per event for guard and span).

// The host's span a hook event's span is a child of (docs/contract.md TRACE-4): the host's trace id
// (32 lowercase hex) and its span id (16 lowercase hex), neither all zeros.
struct HostParent {
  std::string trace_id;
  std::string span_id;
};

// A W3C Trace Context `traceparent`, version 00 only: exactly 55 bytes
// `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`, lowercase hex, neither id all zeros (the
// flags are checked for form only). Anything else (another version, upper case, surrounding
// space, a longer value) is not a trace context: false, `out` untouched. Looks at 55 bytes at most.
bool parse_traceparent(std::string_view text, HostParent& out);

// Where the host put its trace context for `event`: its family's payload shape names the hook's
// environment variable (trace_parent_env, read first: the host sets it, the payload's text is
// built from the model's output) and the payload's top-level string member (trace_parent_key).
// The first valid one wins; malformed or absent ones are ignored without a word. nullopt: none.
std::optional<HostParent> host_parent(const CanonicalEvent& event,
                                      const std::function<const char*(const char*)>& getenv);

struct TraceLookup {
  std::string trace_id;
  bool created = false;  // a new trace was started (and stored, when stored is true)
  bool stored = false;   // trace.json was written
};

// The trace for `session_key` (empty key: a fresh, unstored trace). Never fails: when the store
// cannot be read or written the result is a fresh trace and the error is reported in `error`.
TraceLookup trace_for(const TraceOptions& options, const std::string& session_key, bool force_new,
                      int64_t now_unix_ms, std::string* error = nullptr);

}  // namespace pinta::adapter
