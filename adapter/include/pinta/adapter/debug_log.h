// File: pinta/adapter/debug_log.h
// PINTA_GEMINI_DEBUG=1: one line per invocation in <data dir>/invocations.jsonl (seed SPEC §12):
// argv, payload, normalized event, reply, duration. Lines are appended with one write under an
// flock, so concurrent invocations never interleave. Written after the reply is printed.
// Bounded: once a line would take the log past PINTA_DEBUG_LOG_MAX_BYTES (default 16 MiB) it is
// renamed to invocations.jsonl.1 (one generation kept: at most twice the cap on disk). A line
// that does not fit (a full disk) is cut back by the writer (fs::append_locked), never left torn.
// Bounded wait (docs/contract.md ENV-12): the log's flock (and the rotation lock) is waited for
// at most kDebugLogLockWaitMs; when another process holds it longer, the record is skipped and
// counted in <data dir>/invocations.skipped (one line per skipped record), and the next record
// written carries "log_skipped_total" (the count so far).
#pragma once

#include <chrono>

#include "pinta/adapter/config.h"
#include "pinta/adapter/handler.h"

namespace pinta::adapter {

inline constexpr int kDebugLogLockWaitMs = 5;

// Builds the record (exposed for tests).
nlohmann::json debug_record(const EnvFileLoad& env_file, int argc, const char* const* argv,
                            const Outcome& outcome, std::chrono::microseconds duration);

// Renames `path` to `path`.1 when `incoming` more bytes would take it past `max_bytes`.
void rotate_debug_log_if_needed(const std::string& path, uint64_t max_bytes,
                                size_t incoming) noexcept;

// Appends the record; failures are reported on stderr (debug mode only) and otherwise ignored.
void write_debug_record(const AdapterConfig& config, const EnvFileLoad& env_file, int argc,
                        const char* const* argv, const Outcome& outcome,
                        std::chrono::microseconds duration) noexcept;

}  // namespace pinta::adapter
