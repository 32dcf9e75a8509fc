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

// Rust's str::trim of a reason: nullopt when nothing but whitespace remains.
std::optional<std::string> trimmed_reason(const std::string& s);

}  // namespace pinta::hosts::codex
