// File: pinta/hosts/claude/family.h
// Claude Code 2.1.x as a registered family: its descriptor (pinta/hosts/family_types.h), every
// fact with its evidence. CC = shared/reference/real-hosts.md "Claude Code 2.1.332" (measured
// runs of the real CLI); CCDOC = https://code.claude.com/docs/en/hooks (the public hooks
// reference); SPEC§n = seed 000 section n.
#pragma once

#include "pinta/hosts/family_types.h"

namespace pinta::hosts::claude {

// The events measured (CC: PreToolUse, PostToolUse, PostToolUseFailure, UserPromptSubmit, Stop,
// SessionStart, SessionEnd seen in runs) or named by CCDOC (SubagentStop, Notification,
// PreCompact, PermissionRequest, SubagentStart).
inline constexpr std::array<std::string_view, 12> kEvents = {
    "PreToolUse",   "PostToolUse",  "PostToolUseFailure", "UserPromptSubmit",
    "Stop",         "SubagentStop", "SessionStart",       "SessionEnd",
    "Notification", "PreCompact",   "PermissionRequest",  "SubagentStart"};
// The session's lifecycle and the tool events; PermissionRequest (the dialog, which print mode
// never shows), SubagentStart and PreCompact carry nothing the guard or the trace uses.
inline constexpr std::array<std::string_view, 9> kInstalled = {
    "SessionStart", "UserPromptSubmit", "PreToolUse",   "PostToolUse", "PostToolUseFailure",
    "Stop",         "SubagentStop",     "Notification", "SessionEnd"};
inline constexpr std::array<std::string_view, 3> kTools = {"PreToolUse", "PostToolUse",
                                                           "PostToolUseFailure"};
// CCDOC "exit code 2 behavior": blocks PreToolUse (CC: measured, stderr reaches the model),
// PermissionRequest, UserPromptSubmit, Stop, SubagentStop; elsewhere stderr is only shown.
inline constexpr std::array<std::string_view, 5> kBlocking = {
    "PreToolUse", "PermissionRequest", "UserPromptSubmit", "Stop", "SubagentStop"};
// CCDOC "PreToolUse input": Bash {command}, Write {file_path, content}, Edit {file_path,
// old_string, new_string}, Read {file_path}, WebFetch {url, prompt}.
inline constexpr std::array<std::string_view, 6> kCommandArgs = {
    "command", "file_path", "content", "new_string", "url", "prompt"};

// Exit 0 with no output lets everything go on (CC: `(Bash completed with no output)`); stdout
// text would be shown, and on UserPromptSubmit / SessionStart added to the model's context
// (CCDOC), so the allow is no output at all. A deny is JSON on stdout with exit 0, never exit 2
// (whose stderr reaches the model as a hook error).
inline constexpr EventReply kReplies[] = {
    {"PreToolUse", true, "",
     "CC: stdout {\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":"
     "\"deny\",\"permissionDecisionReason\":R}} + exit 0 blocked the call with R as the tool "
     "error; exit 0 without output ran it."},
    {"PostToolUse", false, "",
     "CCDOC: the tool already ran; a block only feeds the reason back to the model."},
    {"PostToolUseFailure", false, "",
     "CC: fires when the tool failed (`error`, `is_interrupt`); nothing to decide."},
    {"UserPromptSubmit", false, "",
     "CCDOC: stdout at exit 0 becomes model context; the guard judges tool calls only (SPEC§7.2)."},
    {"Stop", false, "", "CCDOC: a block keeps Claude working (a loop); never sent."},
    {"SubagentStop", false, "", "CCDOC: as Stop, for a subagent."},
    {"SessionStart", false, "", "CCDOC: stdout at exit 0 becomes model context; no output."},
    {"SessionEnd", false, "", "CCDOC: cannot block; output is ignored."},
    {"Notification", false, "", "CCDOC: cannot block; output is shown."},
    {"PreCompact", false, "", "CCDOC: cannot block; output is shown."},
    {"PermissionRequest", false, "",
     "CCDOC: the permission dialog; no output leaves the dialog to the user (print mode has none)."},
    {"SubagentStart", false, "", "CCDOC: cannot block; output is shown."},
};

inline constexpr FamilyDescriptor kDescriptor = {
    Family::kClaude, "claude-code", "Claude Code", {"claude-code", "claude", "", ""}, "claude",
    "claude-code", "claude_code",
    // CC: Claude Code also runs against Bedrock and Vertex; the payload names no provider.
    "", kEvents, kInstalled, {}, kTools, "PreToolUse", kBlocking,
    // CC hook stdin: session_id, transcript_path, cwd, hook_event_name; tool_name, tool_input,
    // tool_use_id on the tool events.
    {.event_key = "hook_event_name", .session_id = "session_id", .cwd = "cwd",
     .transcript_path = "transcript_path", .tool_name = "tool_name", .tool_input = "tool_input",
     .tool_call_id = "tool_use_id", .turn_start_event = "UserPromptSubmit",
     .command_args = kCommandArgs,
     // Measured on 2.1.332 (docs/hosts/claude-code-2.1.md, "Trace context"): with its traces on
     // (CLAUDE_CODE_ENABLE_TELEMETRY, CLAUDE_CODE_ENHANCED_TELEMETRY_BETA, OTEL_TRACES_EXPORTER)
     // and CLAUDE_CODE_PROPAGATE_TRACEPARENT=1, hooks of UserPromptSubmit, PreToolUse,
     // PostToolUse and Stop get TRACEPARENT = its `claude_code.interaction` span; never in the
     // payload.
     .trace_parent_env = "TRACEPARENT"},
    // CC (measured): exit 0 + hookSpecificOutput JSON on stdout decides; exit 2 blocks with
    // stderr as the message (`PreToolUse:Bash hook error: … <stderr>`).
    ReplyReading::kBoth, 2, MessageStream::kStderr, /*ask_on_gate=*/true,
    {"~/.claude/settings.json",
     "<project>/.claude/settings.json, <project>/.claude/settings.local.json", "--settings FILE",
     // The hooks are read when a session starts (what `install` has always told the user; not
     // measured against a running session).
     "start a new Claude Code session to load the hooks"},
    "shared/reference/real-hosts.md (Claude Code 2.1.332); https://code.claude.com/docs/en/hooks",
    10000,  // seconds in the file (CCDOC "timeout"); far below its 600 s default
    kReplies,
    // CC: permissionDecision deny on PreToolUse blocks the call; the reason reaches the model as
    // the tool error (`PreToolUse:Bash hook error: R`); an empty reason would read as no reason.
    // CCDOC: permissionDecision ask shows the permission prompt with the reason. An unknown event
    // gets no output: Claude Code may add stdout to the model's context (CCDOC).
    {R"({"hookSpecificOutput":{"hookEventName":{E},"permissionDecision":"deny","permissionDecisionReason":{R}}})",
     R"({"hookSpecificOutput":{"hookEventName":{E},"permissionDecision":"ask","permissionDecisionReason":{R}}})",
     "guard_deny", ""},
    // One version, no profiles; run by its emulator (emulator/hosts/claude/) through HostRunner.
    HostSource{"claude-code-2.1"},
};

}  // namespace pinta::hosts::claude
