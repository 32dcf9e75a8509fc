// File: pinta/adapter/redact.h
// Secret masking before anything leaves the process or touches disk (seed SPEC §11, issue 3):
//  - high-confidence secret patterns (cloud/API tokens, JWTs, PEM private keys, credentials in
//    URLs and connection strings, bearer headers, CLI password flags, secret-named KEY=value
//    assignments) are replaced by `[REDACTED:<type>]`;
//  - strings longer than kMaxStringBytes are then cut UTF-8-safely and end in
//    `…[TRUNCATED:<n>]` (n = bytes removed); the result, marker included, fits the limit.
// Matching uses RE2 (linear time, no recursion) because the input is untrusted; each pattern is
// compiled once, on first use, and only run when a cheap literal prefilter says it can match.
// Redaction is idempotent (redact(redact(x)) == redact(x)) and keeps valid UTF-8 valid.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace pinta::adapter {

inline constexpr std::size_t kMaxStringBytes = 102400;

// Top-level payload keys whose values are identifiers the receiver correlates on: copied as is.
inline constexpr std::array<std::string_view, 11> kIdentifierKeys = {
    "hook",   "hook_event_name",     "tool_name",       "session_id",
    "conversationId", "cwd",        "transcript_path", "transcriptPath",
    "artifactDirectoryPath", "workspacePaths", "timestamp"};

struct RedactOptions {
  std::span<const std::string_view> skip_top_level_keys = kIdentifierKeys;
  std::size_t max_string_bytes = kMaxStringBytes;
};

// Secrets → `[REDACTED:<type>]`, then truncation to max_bytes (0: no truncation).
std::string redact_string(std::string_view s, std::size_t max_bytes = kMaxStringBytes);

// Whether redact_string(s, max_bytes) is s itself: no rule's prefilter literal occurs in it and it
// needs no truncation. Lets encoders copy such strings (nearly all of them) without building a
// redacted copy first.
bool redaction_is_identity(std::string_view s, std::size_t max_bytes = kMaxStringBytes);

// A copy of `j` with every string value redacted (object keys are kept as they are); when `j` is
// an object, the values of its top-level keys listed in options.skip_top_level_keys are copied
// untouched.
nlohmann::json redact_json(const nlohmann::json& j, const RedactOptions& options = {});

// Whether `s` is well-formed UTF-8 (no overlongs, surrogates or code points above U+10FFFF).
bool valid_utf8(std::string_view s) noexcept;

}  // namespace pinta::adapter
