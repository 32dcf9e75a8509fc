// File: pinta/hosts/antigravity/family.h
// Antigravity (agy 1.x, Antigravity 2.0) as a registered family: its descriptor
// (pinta/hosts/family_types.h), every fact with its evidence. AGY§n =
// shared/reference/antigravity-hooks.md section n (public evidence by agy version); SPEC§n = seed
// 000 (shared/seeds/000_*.txt) section n.
#pragma once

#include "pinta/hosts/family_types.h"

namespace pinta::hosts::antigravity {

// AGY§3, §8 (SessionStart on later builds, profile switch session_start).
inline constexpr std::array<std::string_view, 6> kEvents = {
    "PreToolUse", "PostToolUse", "PreInvocation", "PostInvocation", "Stop", "SessionStart"};
// The installer registers every event, in a session's order.
inline constexpr std::array<std::string_view, 6> kInstalled = {
    "PreInvocation", "PreToolUse", "PostToolUse", "PostInvocation", "Stop", "SessionStart"};
inline constexpr std::array<std::string_view, 2> kTools = {"PreToolUse", "PostToolUse"};
inline constexpr std::array<std::string_view, 1> kBlocking = {"PreToolUse"};  // AGY§7.1
// AGY§8 "Args keys seen": run_command CommandLine, Cwd; view_file AbsolutePath; write_to_file /
// edit_file TargetFile (+ the written text, CodeContent / ReplacementContent); list_dir
// DirectoryPath; call_mcp_tool ToolName.
inline constexpr std::array<std::string_view, 8> kCommandArgs = {
    "CommandLine", "TargetFile", "AbsolutePath", "Cwd", "CodeContent", "ReplacementContent",
    "DirectoryPath", "ToolName"};

// SPEC §9.4: the transcript's folder names the product: ~/.gemini/antigravity-cli/ is the agy
// CLI; ~/.gemini/antigravity/ (and antigravity-ide/) the 2.0 app.
inline constexpr ProductMarker kProducts[] = {
    {"antigravity-cli", "agy"}, {"antigravity", "antigravity2"}, {"antigravity-ide", "antigravity2"}};

// Replies are decoded with protojson, so unknown fields fail the call (AGY§6.2).
inline constexpr EventReply kReplies[] = {
    {"PreToolUse", true, R"({"decision":"allow"})",
     "AGY§6.2: `{}` or any object without `decision` is read as deny with an empty reason "
     "(agy 1.0.5, 1.0.15, 1.1.26, 1.2.7); decision is required (SPEC§7.3)."},
    {"PostToolUse", false, "{}",
     "AGY§6.3: PostToolHookResult is an empty message; `{}` is the only safe reply."},
    {"PreInvocation", false, "{}",
     "AGY§6.3/§7.3: `{}` valid (agy 1.2.7); a `decision` key is reported to make a build exit."},
    {"PostInvocation", false, "{}",
     "AGY§6.3/§7.3: `{}` valid; never a `decision` key (issue: a reported agy build exits 1)."},
    {"Stop", false, "{}",
     "AGY§7.4: `{}` lets the agent stop; `decision:continue` would re-enter the loop."},
    {"SessionStart", false, "{}",
     "AGY§8: exists on later builds (1.1.27); flat lifecycle event; `{}` is valid."},
};

inline constexpr FamilyDescriptor kDescriptor = {
    Family::kAntigravity, "antigravity", "Antigravity",
    // SPEC§5: the labels Antigravity installs use (agy CLI, the 2.0 app); `agy` is the CLI.
    {"antigravity", "agy", "antigravity1", "antigravity2"}, "antigravity", "antigravity",
    "antigravity",
    // AGY§8: Antigravity also serves other vendors' models; the provider comes from modelName.
    "", kEvents, kInstalled, {}, kTools, "PreToolUse", kBlocking,
    // AGY§8 common fields: conversationId, workspacePaths[], transcriptPath; toolCall {name,args};
    // modelName; PreInvocation fires per invocation, invocationNum 0 is the turn's first; the
    // transcript path names the product (agy CLI or the 2.0 app).
    {.session_id = "conversationId", .cwd = "workspacePaths", .cwd_first_of_array = true,
     .transcript_path = "transcriptPath", .tool_object = "toolCall", .tool_name = "name",
     .tool_input = "args", .turn_start_event = "PreInvocation", .command_args = kCommandArgs,
     .turn_start_counter = "invocationNum", .model_name = "modelName",
     .products = kProducts},
    // AGY§6.2: protojson-decoded JSON on stdout; a non-zero exit is a failed hook.
    ReplyReading::kJsonStdout, 0, MessageStream::kNone, /*ask_on_gate=*/true,
    {"~/.gemini/config/hooks.json", "<workspace>/.agents/hooks.json (trusted workspaces)", ""},
    "shared/reference/antigravity-hooks.md",
    30000,  // AGY§2.3, seed 000 §3.3: 30 (seconds)
    kReplies,
    // AGY§7.1: decision + reason only; any other field risks a protojson unmarshal failure.
    // AGY§6.2: ask prompts. An unknown event gets `{}`: no field a strict decoder could reject.
    {R"({"decision":"deny","reason":{R}})", R"({"decision":"ask","reason":{R}})", "", "{}"},
    // One host per version profile (hosts/antigravity/profiles/*.json).
    HostSource{"", "PINTA_AGY_PROFILES", "antigravity/profiles", "hosts/antigravity/profiles"},
    // `agy -p` cannot answer a prompt: an ask fails the tool call there (Emanuele-web04/synara
    // PR #1096; docs/contract.md GUARD-8). `--print-timeout`, `-i`/`--prompt-interactive` do not.
    {"agy", {"-p", "--print", "--prompt", ""}},
};

}  // namespace pinta::hosts::antigravity
