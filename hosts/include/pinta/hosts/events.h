// The hook events each host family sends, as compile-time data: the one event list. The adapter's
// reply table (adapter/src/protocol.cc) checks at compile time that it has exactly one row per
// event listed here, so the adapter's hot path reads no data at start-up; the reply check
// (reply_check.h events()), the doctor and the installer read the same lists.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace pinta::hosts::event_lists {

// Gemini CLI 0.61.0: the 11 hook events (shared/reference/gemini-cli-0.61-hooks.md §2.1).
inline constexpr std::array<std::string_view, 11> kGemini = {
    "BeforeTool",  "AfterTool",    "BeforeAgent",        "Notification",
    "AfterAgent",  "SessionStart", "SessionEnd",         "PreCompress",
    "BeforeModel", "AfterModel",   "BeforeToolSelection"};
// Antigravity (agy 1.x, Antigravity 2.0): shared/reference/antigravity-hooks.md §3, §8
// (SessionStart on later builds, profile switch session_start).
inline constexpr std::array<std::string_view, 6> kAntigravity = {
    "PreToolUse", "PostToolUse", "PreInvocation", "PostInvocation", "Stop", "SessionStart"};
// deel-local-cli 1.17: seed 004 hooks.js l.213-218 (도구전, 도구후, 말전, 턴끝) under their
// Claude-style names.
inline constexpr std::array<std::string_view, 4> kDeel = {"PreToolUse", "PostToolUse",
                                                          "UserPromptSubmit", "Stop"};
// Claude Code 2.1.x: the ten events measured or named by shared/reference/real-hosts.md
// ("Claude Code 2.1.332": PreToolUse, PostToolUse, PostToolUseFailure, UserPromptSubmit, Stop,
// SessionStart, SessionEnd seen in runs) and the public hooks reference
// (https://code.claude.com/docs/en/hooks: SubagentStop, Notification, PreCompact, and
// PermissionRequest, SubagentStart).
inline constexpr std::array<std::string_view, 12> kClaude = {
    "PreToolUse",   "PostToolUse",  "PostToolUseFailure", "UserPromptSubmit",
    "Stop",         "SubagentStop", "SessionStart",       "SessionEnd",
    "Notification", "PreCompact",   "PermissionRequest",  "SubagentStart"};

// The events `pinta-gemini-admin install` registers the adapter for (and `doctor` checks), in the
// order written to the host's file (a session's lifecycle order). Gemini leaves out BeforeModel,
// AfterModel (fires per streamed chunk, GEM§6) and BeforeToolSelection: model-level events the
// guard and the trace do not use, each a process start on every model call.
inline constexpr std::array<std::string_view, 8> kGeminiInstalled = {
    "SessionStart", "BeforeAgent",  "BeforeTool", "AfterTool",
    "AfterAgent",   "PreCompress", "Notification", "SessionEnd"};
inline constexpr std::array<std::string_view, 6> kAntigravityInstalled = {
    "PreInvocation", "PreToolUse", "PostToolUse", "PostInvocation", "Stop", "SessionStart"};
inline constexpr std::array<std::string_view, 4> kDeelInstalled = kDeel;
// Claude Code: the session's lifecycle and the tool events; PermissionRequest (the dialog, which
// print mode never shows), SubagentStart and PreCompact carry nothing the guard or the trace uses.
inline constexpr std::array<std::string_view, 9> kClaudeInstalled = {
    "SessionStart", "UserPromptSubmit", "PreToolUse",   "PostToolUse", "PostToolUseFailure",
    "Stop",         "SubagentStop",     "Notification", "SessionEnd"};

template <size_t N>
constexpr bool contains(const std::array<std::string_view, N>& list, std::string_view e) {
  for (auto x : list)
    if (x == e) return true;
  return false;
}

template <size_t N, size_t M>
constexpr bool subset(const std::array<std::string_view, N>& part,
                      const std::array<std::string_view, M>& whole) {
  for (auto x : part)
    if (!contains(whole, x)) return false;
  return true;
}
static_assert(subset(kGeminiInstalled, kGemini), "installs a Gemini event the CLI does not send");
static_assert(subset(kAntigravityInstalled, kAntigravity) && kAntigravityInstalled.size() ==
                                                                 kAntigravity.size(),
              "the installer registers every Antigravity event");
static_assert(subset(kClaudeInstalled, kClaude), "installs a Claude Code event the CLI does not send");

}  // namespace pinta::hosts::event_lists
