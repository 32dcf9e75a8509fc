// File: pinta/adapter/debug_log.h
// PINTA_GEMINI_DEBUG=1: one line per invocation in <data dir>/invocations.jsonl (seed SPEC §12):
// argv, payload, normalized event, reply, duration. Lines are appended with one write under an
// flock, so concurrent invocations never interleave. Written after the reply is printed.
#pragma once

#include <chrono>

#include "pinta/adapter/config.h"
#include "pinta/adapter/handler.h"

namespace pinta::adapter {

// Builds the record (exposed for tests).
nlohmann::json debug_record(const EnvFileLoad& env_file, int argc, const char* const* argv,
                            const Outcome& outcome, std::chrono::microseconds duration);

// Appends the record; failures are reported on stderr (debug mode only) and otherwise ignored.
void write_debug_record(const AdapterConfig& config, const EnvFileLoad& env_file, int argc,
                        const char* const* argv, const Outcome& outcome,
                        std::chrono::microseconds duration) noexcept;

}  // namespace pinta::adapter
