// File: pinta/hosts/codex/family.h
// OpenAI Codex CLI 0.171 as a registered family: its descriptor (pinta/hosts/family_types.h),
// every fact with its evidence. CX = shared/reference/real-hosts.md "OpenAI Codex CLI 0.171.0"
// and "Codex 0.171.0 … hook rules" (measured runs of the real CLI); CXSRC = openai/codex
// codex-rs/hooks/src/engine/*.rs and codex-rs/hooks/schema/generated/*.schema.json (the hook
// engine and its generated reply schemas); SPEC§n = seed 000 section n.
#pragma once

#include "pinta/hosts/family_types.h"

namespace pinta::hosts::codex {

// CX: the events the binary and its docs name. 0.171.0 also knows PreModelRequest,
// PostModelRequest and Interrupt (hosts/codex codex.h: 14 in its `hooks/list`); `install` does not
// register them, and a run for one gets the unknown-event reply (no output).
inline constexpr std::array<std::string_view, 11> kEvents = {
    "SessionStart", "UserPromptSubmit", "PreToolUse",   "PermissionRequest",
    "PostToolUse",  "PreCompact",       "PostCompact",  "SubagentStart",
    "SubagentStop", "Stop",             "SessionEnd"};
// Every event: each is normalized and spanned (a hook costs about a millisecond); the gate is the
// only one that asks the guard.
inline constexpr std::array<std::string_view, 11> kInstalled = kEvents;
// CX: PreToolUse, PermissionRequest and PostToolUse carry tool_name and tool_input. The first
// after the gate is the event after the tool ran (conformance's `tool-after` role).
inline constexpr std::array<std::string_view, 3> kTools = {"PreToolUse", "PostToolUse",
                                                           "PermissionRequest"};
// CX: exit 2 + stderr or a JSON block is honoured on PreToolUse (the call does not run),
// PermissionRequest (decision.behavior deny), PostToolUse, UserPromptSubmit, Stop and
// SubagentStop ({"decision":"block","reason"}).
inline constexpr std::array<std::string_view, 6> kBlocking = {
    "PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"};
// CX: every shell tool is `Bash` with tool_input.command (the model's exec_command {cmd} is
// normalised); apply_patch carries the patch text in tool_input.command as well (CXSRC).
inline constexpr std::array<std::string_view, 5> kCommandArgs = {"command", "file_path", "content",
                                                                 "url", "prompt"};

// CXSRC: every reply struct rejects unknown fields, and a reply Codex cannot parse is a "Failed"
// hook run after which the call runs anyway. Exit 0 with no output is the only reply that is
// never a failure, so the allow is no output on every event; a deny is the one shape Codex
// accepts, on the gate only.
inline constexpr EventReply kReplies[] = {
    {"SessionStart", false, "",
     "CX: no output goes on; plain stdout becomes model context (scenario sessionstart-text), "
     "so nothing is printed."},
    {"UserPromptSubmit", false, "",
     "CX: a block stops the prompt; the guard judges tool calls only (SPEC§7.2)."},
    {"PreToolUse", true, "",
     "CX (measured): stdout {\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
     "\"permissionDecision\":\"deny\",\"permissionDecisionReason\":R}} + exit 0 kept the command "
     "from running and the model read `Command blocked by PreToolUse hook: R. Command: <cmd>`; "
     "any extra key, an empty reason or `ask` made the run Failed and the command ran."},
    {"PermissionRequest", false, "",
     "CXSRC: hookSpecificOutput.decision {behavior, message}; fires only where Codex would ask "
     "the user (never under approval_policy never); the gate is PreToolUse."},
    {"PostToolUse", false, "", "CX: the tool already ran; a block only feeds the reason back."},
    {"PreCompact", false, "", "CXSRC: cannot block; nothing to decide."},
    {"PostCompact", false, "", "CXSRC: cannot block; nothing to decide."},
    {"SubagentStart", false, "", "CXSRC: cannot block; nothing to decide."},
    {"SubagentStop", false, "", "CX: a block keeps the subagent working (a loop); never sent."},
    {"Stop", false, "", "CX: a block keeps Codex working (a loop); never sent."},
    {"SessionEnd", false, "", "CXSRC: the session is over; output is ignored."},
};

inline constexpr FamilyDescriptor kDescriptor = {
    Family::kCodex, "codex", "Codex CLI", {"codex", "codex-cli", "", ""}, "codex", "codex-cli",
    "codex",
    // CX: the payload's `model` names the model, not the provider (a local provider here).
    "", kEvents, kInstalled, {}, kTools, "PreToolUse", kBlocking,
    // CX PreToolUse stdin: session_id, turn_id, transcript_path, cwd, hook_event_name, model,
    // permission_mode, tool_name, tool_input, tool_use_id.
    {.event_key = "hook_event_name", .session_id = "session_id", .cwd = "cwd",
     .transcript_path = "transcript_path", .tool_name = "tool_name", .tool_input = "tool_input",
     .tool_call_id = "tool_use_id", .turn_start_event = "UserPromptSubmit",
     .command_args = kCommandArgs, .model_name = "model"},
    // CX: exit 0 + hookSpecificOutput JSON decides; exit 2 with a non-empty stderr blocks with it
    // as the reason (`Command blocked by PreToolUse hook: <stderr>. Command: <cmd>`).
    ReplyReading::kBoth, 2, MessageStream::kStderr,
    // CX: `ask` is rejected by the reply parser (the run is Failed and the command runs): no ask.
    /*ask_on_gate=*/false,
    {"~/.codex/hooks.json, [hooks] in ~/.codex/config.toml",
     "<project>/.codex/hooks.json, [hooks] in <project>/.codex/config.toml (trusted projects)",
     "CODEX_HOME",
     // CX: a hook runs only when trusted (its hash in [hooks.state] of config.toml) or under
     // --dangerously-bypass-hook-trust; hooks are read when a session starts.
     "start a new Codex session to load the hooks (install records their trust)"},
    "shared/reference/real-hosts.md (OpenAI Codex CLI 0.171.0); openai/codex codex-rs/hooks",
    10000,  // CX: `timeout` in seconds (default 600); `timeoutSec` is not honoured on 0.171.0
    kReplies,
    // CX: the deny shape and nothing else; CXSRC: a deny needs a non-empty reason (a blank one is
    // a failed run: the command runs), so a blank reason is replaced. Codex has no ask (`ask` is
    // a failed run and the command runs): REVIEW is allow and PINTA_GUARD_REVIEW=ask has no
    // effect here (docs/contract.md CODEX-3). An unknown event gets no output (any JSON could be
    // a reply Codex rejects).
    {R"({"hookSpecificOutput":{"hookEventName":{E},"permissionDecision":"deny","permissionDecisionReason":{R}}})",
     "", "guard_deny", ""},
    // The version profiles (hosts/codex/profiles/codex-<v>.json: one graded host per range of
    // releases whose hook rules differ, found by ci/codex-bisect.py); run by the emulator
    // (emulator/hosts/codex/) through HostRunner.
    HostSource{"", "PINTA_CODEX_PROFILES", "codex/profiles", "hosts/codex/profiles"},
};

}  // namespace pinta::hosts::codex
