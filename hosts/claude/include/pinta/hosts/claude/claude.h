// File: pinta/hosts/claude/claude.h
// Claude Code 2.1.332 as data: its hook events, the settings files hooks come from (and their
// precedence), matcher semantics and the planner (which commands run for one event). Reads files,
// spawns nothing. The runner (spawning, timeouts, replies, the outcome) is emulator/hosts/claude.
// Host document with every rule and its evidence: docs/hosts/claude-code-2.1.md.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "pinta/common/result.h"

namespace pinta::hosts::claude {

inline constexpr const char* kVersion = "2.1.332";

// Every hook event 2.1.332 knows (its settings schema's event list, in its order).
const std::vector<std::string>& events();
bool is_event(const std::string& name);
// Events whose matcher is tested against a per-event target (the tool name, the SessionStart
// source, ...). For every other event (UserPromptSubmit, Stop, ...) the matcher is ignored.
bool has_matcher_target(const std::string& event);
// The matcher target the host takes from an event's payload ("" when the event has none):
// tool_name for the tool events, source for SessionStart, reason for SessionEnd, trigger for
// PreCompact, notification_type for Notification, agent_type for SubagentStart/SubagentStop, ...
std::string match_target(const std::string& event, const nlohmann::json& payload);

// Matcher semantics (2.1.332): "" or "*" match everything; a matcher made only of
// [A-Za-z0-9_|] (also ", " and "-" for the events with a target) is a list of exact names split on
// "|" (and ","), each trimmed; anything else is an unanchored ECMAScript regular expression tested
// against the target; an invalid regular expression matches nothing.
bool matcher_matches(const std::string& event, const std::string& matcher,
                     const std::string& target);
// The names of a plain-list matcher (split on | and ",", each trimmed; empty names kept), or
// nullopt when the matcher is read as a regular expression. The mode test matcher_matches uses.
std::optional<std::vector<std::string>> matcher_names(const std::string& matcher);

// The bytes 2.1.332 writes to a hook's stdin for this payload: JSON.stringify of the object in the
// host's own key order (session_id, transcript_path, cwd, prompt_id, permission_mode, agent_id,
// agent_type, effort, hook_event_name, then the event's fields in its order; tool_response and
// effort in theirs), then "\n". Keys the host table does not name follow in the order given;
// tool_input keeps the order given (the model's). Real: every y_captured_* fixture under
// fixtures/claude/2.1.332/ and the stdin-bytes scenario.
std::string stdin_bytes(const nlohmann::ordered_json& payload);
std::string stdin_bytes(const nlohmann::json& payload);

// Where settings come from. Precedence (highest first): managed policy, --settings files,
// .claude/settings.local.json, .claude/settings.json, ~/.claude/settings.json. Hooks are not
// overridden by precedence: every source's hooks run.
struct SettingsSources {
  std::string home;                 // ~ : reads home/.claude/settings.json
  std::string project;              // reads project/.claude/settings.json and settings.local.json
  std::vector<std::string> extra;   // --settings FILE (a file path or inline JSON text); only
                                    // the last one counts (2.1.332), every one must be readable
  // Managed policy directory; default /etc/claude-code (managed-settings.json). The environment
  // variable PINTA_CLAUDE_MANAGED_DIR overrides it (tests: the real path needs root).
  std::string managed_dir;
};

struct HookCommand {
  std::string event, matcher, command, source;  // source: user|project|local|flag|policy
  long timeout_ms = 600000;                      // "timeout" seconds; default 600 s
  // "if": a permission rule (`Bash(rm *)`) the tool call must match for the hook to run (tool
  // events); empty: always. "async": true runs it in the background, its reply not applied.
  std::string if_rule;
  bool async = false;
  std::string file;     // the settings file it came from ("--settings" for inline JSON)
  std::string pointer;  // its JSON pointer there: /hooks/<event>/<group>/hooks/<n>
};

struct LoadedSettings {
  std::vector<HookCommand> hooks;  // in source order: user, project, local, flag..., policy
  bool disable_all = false;        // disableAllHooks from the non-managed sources (last wins)
  bool managed_disable_all = false;
  bool managed_only = false;       // allowManagedHooksOnly in managed settings
  std::vector<std::string> warnings;  // files skipped (unreadable JSON, wrong shapes)
};

// A value in a settings file that makes 2.1.332 reject the file's hooks: then none of that file's
// hooks run, the valid ones neither (its settings schema fails; real: the settings-rejected-*
// scenarios). `kind` names the check: root-event, disable, group, matcher, hooks, handler, type,
// command, prompt, url, timeout.
struct SchemaProblem {
  std::string pointer;  // JSON pointer of the value at fault
  std::string kind;
  std::string message;
};
// Every such value of one settings file's JSON (empty: the hooks load). Values the host merely
// ignores (unknown events and keys, an event that is not an array) are not problems.
std::vector<SchemaProblem> hooks_schema_problems(const nlohmann::json& root);

// A missing file is no error; an unparsable one is skipped with a warning (the host ignores it),
// and so are the hooks of a file with a schema problem (hooks_schema_problems).
// Error only for a --settings argument that names no readable file.
Result<LoadedSettings> load_settings(const SettingsSources& sources);

// The commands that run for one event with this target: matching groups, disable switches
// applied, identical command strings run once (the first occurrence's timeout kept).
std::vector<HookCommand> plan(const LoadedSettings& settings, const std::string& event,
                              const std::string& target);
// The same for one payload: its matcher target, and a hook with an "if" rule runs only when the
// payload's tool call matches it (if_matches).
std::vector<HookCommand> plan_for(const LoadedSettings& settings, const std::string& event,
                                  const nlohmann::json& payload);

// A permission rule as the "if" key reads it: `Tool` (any call of that tool) or `Tool(pattern)`.
// For Bash the pattern is matched against the whole tool_input.command, `*` matching any run of
// characters (a legacy `prefix:*` is a prefix); for other tools against tool_input.file_path
// (else path, url, pattern). Real (pre-if-key): `Bash(rm *)` runs for `rm -f x`, not for
// `echo ran`. Only Bash is measured.
bool if_matches(const std::string& rule, const nlohmann::json& payload);

}  // namespace pinta::hosts::claude
