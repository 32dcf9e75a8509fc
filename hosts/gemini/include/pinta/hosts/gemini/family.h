// File: pinta/hosts/gemini/family.h
// Gemini CLI as a registered family: its descriptor (pinta/hosts/family_types.h), every fact with
// its evidence. GEM§n = shared/reference/gemini-cli-0.61-hooks.md section n (Gemini CLI 0.61.0
// code + runs); SPEC§n = seed 000 (shared/seeds/000_*.txt) section n.
#pragma once

#include "pinta/hosts/family_types.h"

namespace pinta::hosts::gemini {

// The 11 hook events of Gemini CLI 0.61.0 (GEM§2.1).
inline constexpr std::array<std::string_view, 11> kEvents = {
    "BeforeTool",  "AfterTool",    "BeforeAgent",        "Notification",
    "AfterAgent",  "SessionStart", "SessionEnd",         "PreCompress",
    "BeforeModel", "AfterModel",   "BeforeToolSelection"};
// The events `install` registers (and `doctor` checks), in the order written to the host's file
// (a session's lifecycle order). BeforeModel, AfterModel (fires per streamed chunk, GEM§6) and
// BeforeToolSelection are left out: model-level events the guard and the trace do not use, each a
// process start on every model call.
inline constexpr std::array<std::string_view, 8> kInstalled = {
    "SessionStart", "BeforeAgent",  "BeforeTool", "AfterTool",
    "AfterAgent",   "PreCompress", "Notification", "SessionEnd"};
inline constexpr std::array<std::string_view, 2> kTools = {"BeforeTool", "AfterTool"};
// GEM§6: a deny blocks on BeforeTool, AfterTool and BeforeAgent.
inline constexpr std::array<std::string_view, 3> kBlocking = {"BeforeTool", "AfterTool",
                                                              "BeforeAgent"};
// GEM§7 tool_input of the built-in tools: run_shell_command {command, dir_path}, write_file and
// replace {file_path, content | old_string, new_string}, read_file {absolute_path | file_path},
// web_fetch {prompt}, google_web_search {query}.
inline constexpr std::array<std::string_view, 9> kCommandArgs = {
    "command", "file_path", "absolute_path", "dir_path", "content", "new_string", "url", "prompt",
    "query"};

inline constexpr std::string_view kAllowEvidence =
    "GEM§4.5/§5: `{}` parses to an object with no decision, so the aggregator's default (allow) "
    "holds; an empty stdout would make the CLI read stderr instead (stdout.trim()||stderr.trim()).";
// What the adapter prints per event. Deny = {decision:deny, reason, systemMessage} (SPEC§7.3;
// GEM§6 BeforeTool: `Tool execution blocked: R`).
inline constexpr EventReply kReplies[] = {
    {"BeforeTool", true, "{}", kAllowEvidence},
    {"AfterTool", true, "{}", kAllowEvidence},
    {"BeforeAgent", true, "{}", kAllowEvidence},
    {"AfterAgent", false, "{}",
     "GEM§6 AfterAgent: a deny re-prompts the model with R; never sent by the adapter."},
    {"SessionStart", false, "{}", "GEM§6: decision ignored on SessionStart."},
    {"SessionEnd", false, "{}", "GEM§6: decision ignored on SessionEnd."},
    {"BeforeModel", false, "{}", kAllowEvidence},
    {"AfterModel", false, "{}", "GEM§6: fires per streamed chunk."},
    {"BeforeToolSelection", false, "{}", kAllowEvidence},
    {"PreCompress", false, "{}", "GEM§6: decision ignored on PreCompress."},
    {"Notification", false, "{}", "GEM§6: decision ignored on Notification."},
};

inline constexpr FamilyDescriptor kDescriptor = {
    Family::kGemini, "gemini", "Gemini CLI", {"gemini", "", "", ""}, "gemini", "gemini-cli",
    "gemini",
    // GEM: Gemini CLI talks to the Gemini API, Vertex AI or Code Assist; `gcp.gen_ai` is the
    // semconv value for a Google endpoint whose backend is unknown.
    "gcp.gen_ai", kEvents, kInstalled, {}, kTools, "BeforeTool", kBlocking,
    // GEM§7 base input: session_id, transcript_path, cwd, hook_event_name, timestamp. BeforeTool
    // on MCP tools adds mcp_context {server_name, tool_name, command?, args?, cwd?, url?, tcp?}
    // and original_request_name (GEM§7 payload table): the guard gets both as sent.
    {.event_key = "hook_event_name", .session_id = "session_id", .cwd = "cwd",
     .transcript_path = "transcript_path", .tool_name = "tool_name", .tool_input = "tool_input",
     .turn_start_event = "BeforeAgent", .command_args = kCommandArgs,
     .context_object = "mcp_context", .original_name = "original_request_name"},
    // GEM§4.5: stdout.trim()||stderr.trim() is parsed as JSON whatever the exit status; plain
    // text with exit 2 is a deny with that text (so the block message is stdout, else stderr).
    ReplyReading::kJsonStdout, 2, MessageStream::kStdoutAndStderr, /*ask_on_gate=*/true,
    {"~/.gemini/settings.json (and /etc/gemini-cli/settings.json)",
     "<project>/.gemini/settings.json, extension hooks.json",
     "GEMINI_CLI_HOME, GEMINI_CLI_SYSTEM_SETTINGS_PATH",
     // GEM§1.7: the hook registry is built once at startup; settings edits need a restart.
     "restart Gemini CLI to load the hooks"},
    "shared/reference/gemini-cli-0.61-hooks.md",
    10000,  // GEM§2.2: milliseconds
    kReplies,
    // SPEC§7.3: systemMessage too, so the user sees why (GEM§6: `Hook system message: …`). GEM§6
    // BeforeTool: ask → confirmation (hangs in headless -p runs). An unknown event gets `{}`.
    {R"({"decision":"deny","reason":{R},"systemMessage":{R}})", R"({"decision":"ask","reason":{R}})",
     "", "{}"},
    // One host per version profile (hosts/gemini/profiles/gemini-0.XX.json).
    HostSource{"", "PINTA_GEMINI_PROFILES", "gemini/profiles", "hosts/gemini/profiles"},
};

}  // namespace pinta::hosts::gemini
