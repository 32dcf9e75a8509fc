// File: pinta/hosts/codex/replies.h
// Codex CLI 0.171's reply structs as checks (implemented beside the family's model,
// hosts/codex/src/model.cc, part of pinta::hosts): one definition of what Codex accepts, read by
// the model's shape check and by the emulator's parser (emulator/hosts/codex), so the two cannot
// disagree. CXSRC = openai/codex codex-rs/hooks/src/schema.rs (*CommandOutputWire, all
// deny_unknown_fields) and engine/output_parser.rs (the unsupported_* / invalid_* rules).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace pinta::hosts::codex {

// Why `reply` (an exit-0 stdout parsed as JSON) does not deserialize into `event`'s reply struct
// (not an object, an unknown field, a wrong type, an unknown enum value, a missing
// hookSpecificOutput.hookEventName), or nullopt. Codex records such a run as Failed ("hook
// returned invalid … JSON output"). Events whose output Codex does not read accept anything.
std::optional<std::string> reply_wire_problem(std::string_view event, const nlohmann::json& reply);

// For a reply that deserializes: the error Codex records when it rejects what the reply says
// ("PreToolUse hook returned unsupported permissionDecision:ask", "Stop hook returned
// decision:block without a non-empty reason", …), or nullopt. On PostToolUse, UserPromptSubmit,
// Stop and SubagentStop a `continue:false` in the same reply is honoured before this is looked at.
std::optional<std::string> reply_rejection(std::string_view event, const nlohmann::json& reply);

// Rust's str::trim: s without Unicode White_Space at either end (ASCII whitespace, U+0085,
// U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000; not U+FEFF).
std::string rust_trim(const std::string& s);
// A reason as Codex keeps it (events/common.rs trimmed_non_empty): rust_trim'd, nullopt when
// nothing remains.
std::optional<std::string> trimmed_reason(const std::string& s);
// Whether serde_json parses `text` into a JSON value at all: nlohmann's parser also accepts a
// leading UTF-8 byte order mark, which serde_json rejects, and nesting up to any depth, where
// serde_json stops at 128 levels (RecursionLimitExceeded).
bool serde_parses(const std::string& text);

}  // namespace pinta::hosts::codex
