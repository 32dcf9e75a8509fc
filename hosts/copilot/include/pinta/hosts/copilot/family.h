// File: pinta/hosts/copilot/family.h
// GitHub Copilot CLI 1.0 (`@github/copilot` 1.0.102) as a registered family: its descriptor
// (pinta/hosts/family_types.h), every fact with its evidence. CP = shared/reference/real-hosts.md
// "OpenAI Codex CLI 0.171.0 and GitHub Copilot CLI 1.0.102, offline" and "Codex 0.171.0, Copilot
// 1.0.102, … hook rules" (measured runs of the real CLI); CPDOC = github/docs
// content/copilot/reference/hooks-reference.md (the public hooks reference); CPM = our own
// reading of the 1.0.102 binary's bundle; CCDOC = https://code.claude.com/docs/en/hooks; SPEC§n =
// seed 000 section n.
//
// Copilot reads a hook file in one of two formats, and the format decides the payload a hook gets
// (CP, CPDOC "Hook event input payloads": chosen by the case of the event name the file
// registers): the native camelCase format (`preToolUse`; camelCase fields, no event key,
// `timestamp` in ms) and the Claude-style PascalCase format (`PreToolUse`; Claude Code's
// snake_case fields, Claude tool names, ISO `timestamp`). So the family has two `--agent` labels,
// one per format, each with its own payload shape (`label_payloads`): `copilot` for a hook written
// in the native format, `copilot-claude` for one written in the PascalCase format. The adapter
// reads the shape from the label alone, never from the payload (docs/architecture.md, "Codex CLI,
// the fifth family, and Copilot CLI next").
#pragma once

#include "pinta/hosts/family_types.h"

namespace pinta::hosts::copilot {

// CPDOC "Hook events" (every event the CLI documents) and CP (seen in runs: sessionStart,
// userPromptSubmitted, preToolUse, postToolUse, sessionEnd, Stop; named by the binary:
// errorOccurred, postToolUseFailure, permissionRequest, subagentStart/Stop, notification). The
// native camelCase names are canonical; the PascalCase spellings are aliases below. The binary
// also names preMcpToolCall, which CPDOC does not document (no payload, no reading): not listed,
// so it gets the unknown-event reply (no output, as every allow here).
inline constexpr std::array<std::string_view, 14> kEvents = {
    "sessionStart",      "userPromptSubmitted", "userPromptTransformed", "preToolUse",
    "permissionRequest", "postToolUse",         "postToolUseFailure",    "preCompact",
    "subagentStart",     "subagentStop",        "agentStop",             "errorOccurred",
    "notification",      "sessionEnd"};
// The session's lifecycle, the tool events and the errors. Not registered: permissionRequest (it
// fires before the permission service, which `--allow-all-tools` skips; the gate is preToolUse),
// userPromptTransformed (a rewrite hook run once per message of a batch; nothing the trace needs
// beyond userPromptSubmitted) and notification (asynchronous system notices; CPDOC: fire and
// forget).
inline constexpr std::array<std::string_view, 11> kInstalled = {
    "sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "postToolUseFailure",
    "preCompact",   "subagentStart",       "subagentStop", "agentStop", "errorOccurred",
    "sessionEnd"};
// CPDOC: the PascalCase event names of the Claude-style format (payloads in snake_case). CPDOC
// documents no PascalCase form of userPromptTransformed, subagentStart or notification.
inline constexpr EventAlias kAliases[] = {
    {"SessionStart", "sessionStart"},
    {"UserPromptSubmit", "userPromptSubmitted"},
    {"PreToolUse", "preToolUse"},
    {"PermissionRequest", "permissionRequest"},
    {"PostToolUse", "postToolUse"},
    {"PostToolUseFailure", "postToolUseFailure"},
    {"PreCompact", "preCompact"},
    {"SubagentStop", "subagentStop"},
    {"Stop", "agentStop"},
    {"ErrorOccurred", "errorOccurred"},
    {"SessionEnd", "sessionEnd"},
};
// CPDOC: preToolUse, postToolUse and postToolUseFailure carry toolName and toolArgs (tool_name,
// tool_input). permissionRequest carries its arguments as `toolInput` instead (CPDOC
// "permissionRequest decision control"), so it is not read as a tool event. The first after the
// gate is the event after the tool ran (conformance's `tool-after` role).
inline constexpr std::array<std::string_view, 3> kTools = {"preToolUse", "postToolUse",
                                                           "postToolUseFailure"};
// CPDOC "Hook events", "Output processed": preToolUse (allow, deny; CP: exit 2 or a deny blocks),
// permissionRequest (behavior deny; exit 2 is a deny), agentStop and subagentStop
// ({"decision":"block"} forces another turn). userPromptSubmitted's output is dropped for command
// hooks; postToolUse can only rewrite the result.
inline constexpr std::array<std::string_view, 4> kBlocking = {"preToolUse", "permissionRequest",
                                                              "subagentStop", "agentStop"};
// The tool arguments that say what runs or what is touched. Native tools, CPM (the argument
// schemas in the 1.0.102 bundle, ~/.cache/copilot/pkg/linux-x64/1.0.102/cli-main.js): bash
// {command, description, timeout, …}; the file tools {path, file_text (create), old_str and new_str
// (str_replace), view_range}; web_fetch {url, …} (the bundle's activity line reads `url`);
// `prompt` as Claude's Task tool names it (not found in the bundle). Both formats: the
// Claude-style payload renames the tool (`Write`, `Edit`) but keeps Copilot's argument names (CPM
// fixtures/copilot/1.0.102/PreToolUse/y_captured_p-edit-tools.json: Write {file_text, path};
// y_captured_p-post-failure-edit.json: Edit {new_str, old_str, path}), so one list serves both.
inline constexpr std::array<std::string_view, 6> kCommandArgs = {"command",  "path", "file_text",
                                                                 "new_str", "url",  "prompt"};

// CPDOC "PreToolUse decision control": empty output uses the default behaviour, and stdout that
// does not parse is no output (CP: plain text at exit 0 ran the call). So the allow is no output
// on every event, and a deny is printed on preToolUse only. Never exit non-zero: Copilot's
// preToolUse is fail-closed (CP, CPDOC: any non-zero exit, crash or signal denies, even with an
// allow on stdout; only a timeout fails open).
inline constexpr EventReply kReplies[] = {
    {"sessionStart", false, "",
     "CPDOC: output optional (additionalContext joins the session); no output starts it as is."},
    {"userPromptSubmitted", false, "",
     "CPDOC: a command hook's output is dropped; the guard judges tool calls only (SPEC§7.2)."},
    {"userPromptTransformed", false, "",
     "CPDOC: mutation only (modifiedTransformedPrompt); no output leaves the prompt as it is."},
    {"preToolUse", true, "",
     "CP (measured): stdout {\"permissionDecision\":\"deny\",\"permissionDecisionReason\":R} + "
     "exit 0 kept the call from running under both formats and the model read `Denied by "
     "preToolUse hook: R`; no output ran it. hookSpecificOutput is ignored under the camelCase "
     "format (the call ran). Any non-zero exit denies (fail-closed)."},
    {"permissionRequest", false, "",
     "CPDOC: {behavior, message} short-circuits the permission service; no output falls through to "
     "it. The gate is preToolUse."},
    {"postToolUse", false, "",
     "CPDOC: the tool already ran; output can only rewrite the result or add context."},
    {"postToolUseFailure", false, "",
     "CPDOC: the tool failed; output (or exit 2) only adds recovery guidance."},
    {"preCompact", false, "", "CPDOC: notification only; output is not processed."},
    {"subagentStart", false, "",
     "CPDOC: cannot block; additionalContext would be prepended to the subagent's prompt."},
    {"subagentStop", false, "",
     "CPDOC: {\"decision\":\"block\"} keeps the subagent working (a loop); never sent."},
    {"agentStop", false, "",
     "CPDOC: {\"decision\":\"block\"} forces another turn (a loop); never sent."},
    {"errorOccurred", false, "", "CPDOC: output is not processed."},
    {"notification", false, "",
     "CPDOC: fire and forget; additionalContext would be injected as a user message."},
    {"sessionEnd", false, "", "CPDOC: output is not processed."},
};

// With the host's OpenTelemetry on (COPILOT_OTEL_ENABLED=true), a hook gets the W3C trace
// context of the host's `invoke_agent` span, in the environment and in the payload, in both
// formats (CP; docs/hosts/copilot-1.0.md, scenarios c-otel-allow, p-otel-deny: the payload's
// `traceparent` is its last member in the native format, after `cwd` in the Claude-style one, and
// equals COPILOT_TRACEPARENT). The environment is read first (docs/contract.md TRACE-4).
inline constexpr std::string_view kTraceParentEnv = "COPILOT_TRACEPARENT";
inline constexpr std::string_view kTraceParentKey = "traceparent";

// The Claude-style format's payload (CP: `{"hook_event_name":"PreToolUse","session_id",
// "timestamp":"<ISO>","cwd","tool_name":"Bash","tool_input":{…}}`; CPDOC: transcript_path on
// Stop, SubagentStop and PreCompact; no tool call id in either format).
inline constexpr PayloadShape kClaudeStylePayload = {
    .event_key = "hook_event_name", .session_id = "session_id", .cwd = "cwd",
    .transcript_path = "transcript_path", .tool_name = "tool_name", .tool_input = "tool_input",
    .tool_call_id = "", .turn_start_event = "userPromptSubmitted",
    .command_args = kCommandArgs, .trace_parent_env = kTraceParentEnv,
    .trace_parent_key = kTraceParentKey};

inline constexpr FamilyDescriptor kDescriptor = {
    Family::kCopilot, "copilot", "GitHub Copilot CLI", {"copilot", "copilot-claude", "", ""},
    "copilot", "copilot-cli", "copilot",
    // CP: the model and its provider are the user's (COPILOT_PROVIDER_BASE_URL, COPILOT_MODEL);
    // the payload names neither.
    "", kEvents, kInstalled, kAliases, kTools, "preToolUse", kBlocking,
    // The native format (CP preToolUse stdin: `{"sessionId","timestamp":<ms>,"cwd",
    // "toolName":"bash","toolArgs":{…}}`, no event key; CPDOC: transcriptPath on agentStop,
    // subagentStart/Stop and preCompact). The turn opens on userPromptSubmitted (the canonical
    // name: the adapter reads the PascalCase spelling as it). Releases before 1.0.102 (measured
    // from 1.0.57 through 1.0.73: docs/hosts/copilot-1.0.md "Other releases", CPM c-baseline
    // payloads of the bisect probes; profiles copilot-1.0.57 .. copilot-1.0.73) send toolArgs as
    // the JSON text of the arguments (`"{\"command\":…}"`), the Claude-style tool_input as the
    // object: the text is read as the object.
    {.event_key = "", .session_id = "sessionId", .cwd = "cwd", .transcript_path = "transcriptPath",
     .tool_name = "toolName", .tool_input = "toolArgs", .tool_call_id = "",
     .turn_start_event = "userPromptSubmitted", .command_args = kCommandArgs,
     .trace_parent_env = kTraceParentEnv, .trace_parent_key = kTraceParentKey,
     .tool_input_json_text = true},
    // CP: exit 0 + JSON on stdout decides; exit 2 denies with `hook exited with code 2` (stderr
    // is not passed on: no message stream).
    ReplyReading::kBoth, 2, MessageStream::kNone,
    // CP, CPDOC: permissionDecision "ask" prompts the user; in `-p` (and under the cloud agent)
    // no one can answer and it is a deny.
    /*ask_on_gate=*/true,
    {"~/.copilot/hooks/*.json, inline `hooks` in ~/.copilot/settings.json",
     "<repo>/.github/hooks/*.json, `hooks` in <repo>/.github/copilot/settings(.local).json, "
     "<repo>/.claude/settings(.local).json (trusted folders)",
     "COPILOT_HOME",
     // Not measured against a running session: what a Copilot session reads is read when it
     // starts (CPDOC: hooks are loaded from their sources and combined).
     "start a new Copilot CLI session to load the hooks"},
    "shared/reference/real-hosts.md (GitHub Copilot CLI 1.0.102); github/docs "
    "content/copilot/reference/hooks-reference.md",
    10000,  // CPDOC: `timeoutSec` in seconds (default 30); a timeout fails open
    kReplies,
    // The deny, in both formats, is the top-level pair: CPDOC "preToolUse decision control"
    // documents these fields (no per-format variant), and CP measured it blocking under the
    // camelCase and the PascalCase configs alike, where hookSpecificOutput blocks under the
    // PascalCase config only (the call ran under camelCase). So a hook whose label does not match
    // its file's format still denies. CPDOC: the reason is required on a deny (a blank one is
    // replaced, so the model reads why). CPDOC/CP: `ask` prompts the user; in `-p` it is a deny
    // (docs/contract.md COPILOT-3). Never `modifiedArgs`. An unknown event gets no output.
    {R"({"permissionDecision":"deny","permissionDecisionReason":{R}})",
     R"({"permissionDecision":"ask","permissionDecisionReason":{R}})", "guard_deny", ""},
    // The version profiles (hosts/copilot/profiles/copilot-<v>.json: one graded host per range
    // of releases whose hook rules differ, found by ci/copilot-bisect.py; copilot-1.0 is
    // 1.0.102's); run by the emulator (emulator/hosts/copilot/) through HostRunner.
    HostSource{"", "PINTA_COPILOT_PROFILES", "copilot/profiles", "hosts/copilot/profiles"},
    PrintMode{},
    // `--agent copilot`: the native payload (above); `--agent copilot-claude`: the Claude-style
    // one.
    {nullptr, &kClaudeStylePayload, nullptr, nullptr},
};

}  // namespace pinta::hosts::copilot
