// File: pinta/admin/claude_code.h
// `pinta-gemini install | uninstall | doctor --host claude-code`: our command hooks in Claude
// Code's settings file, merged among the user's own hooks and other settings by minimal edits
// (json_edit.h), found again by their command (`… --agent claude-code --event <Event>`; Claude
// Code's settings schema has no field of ours to mark them with).
//
// Evidence: Claude Code 2.1.332 measured here (shared reference real-hosts.md "Claude Code"):
// hooks from `~/.claude/settings.json` (user) and `<project>/.claude/settings.json` (project) all
// ran; the shape is {"hooks":{"<Event>":[{"matcher":"…","hooks":[{"type":"command",
// "command":"…","timeout":N}]}]}}, timeout in seconds; the events seen: SessionStart,
// UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure, Stop, SessionEnd.
//
// Defined in src/claude.cc, Claude Code's part of the admin tool (its FamilyAdmin,
// src/admin_internal.h).
#pragma once

#include <string>
#include <vector>

#include "pinta/admin/doctor.h"
#include "pinta/admin/install.h"
#include "pinta/common/result.h"

namespace pinta::admin {

// The events install registers, in the order they are written.
const std::vector<std::string>& claude_code_events();
// Tool events take a matcher ("*": every tool); the others are written without one.
bool claude_code_event_has_matcher(const std::string& event);

// '<adapter>' --agent claude-code --event <event> (Claude Code runs hook commands through a shell).
std::string claude_code_command(const std::string& adapter_path, const std::string& event);
// Whether `command` is one of ours (any adapter path): the program's file name is pinta-gemini and
// the arguments are `--agent claude-code --event <Event>`.
bool claude_code_is_ours(const std::string& command);

// <workspace>/.claude/settings.json, else <home>/.claude/settings.json.
std::string claude_code_settings_path(const InstallOptions& options);

// The settings text with our hooks for every event, spliced in; our stale hooks (another adapter
// path, another event list) are replaced. Error kParse ("line:col: what") when `text` is not a
// JSON object or its "hooks" is not an object.
Result<std::string> claude_code_add_ours(const std::string& text, const std::string& adapter_path);
// The settings text without our hooks; groups and events we emptied go too, and "hooks" when we
// emptied it. `only_ours_left`: the result holds nothing (an empty object).
Result<std::string> claude_code_remove_ours(const std::string& text, bool* only_ours_left);

Result<Plan> plan_claude_code_install(const InstallOptions& options);

// Doctor: the user, project and local settings files: readable, hooks not disabled, ours
// registered for each event once, our program present and executable.
void check_claude(const DoctorOptions& options, DoctorReport& report);

}  // namespace pinta::admin
