// File: pinta/hosts/copilot/copilot.h
// GitHub Copilot CLI 1.0 (`@github/copilot` 1.0.102) as data: its hook events in both spellings,
// the two hook-file formats (native camelCase, Claude-style PascalCase) and what each changes
// (payload, matcher, tool names), the sources hooks come from (policy, repo, user, inline settings,
// the repo's .claude settings, plugins), matcher semantics per format and the planner (which
// commands run for one event). Reads files, spawns nothing. The runner (spawning, timeouts, the
// fail-closed gate, what the model reads) is emulator/hosts/copilot. CP = shared/reference/
// real-hosts.md (Copilot 1.0.102, measured); CPDOC = github/docs
// content/copilot/reference/hooks-reference.md.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "pinta/common/result.h"

namespace pinta::hosts::copilot {

inline constexpr const char* kVersion = "1.0.102";

// The format a hook is registered in, chosen by the case of the event name its file uses (CPDOC
// "Hook event input payloads"): it decides the payload, the matcher rule and the tool names the
// hook sees, and the `--agent` label `install` writes for it.
enum class Format {
  kNative,       // camelCase events (`preToolUse`), camelCase payload, native tool names (`bash`)
  kClaudeStyle,  // PascalCase events (`PreToolUse`), snake_case payload, Claude tool names (`Bash`)
};

// Every event, canonical (camelCase) names, in the descriptor's order (family.h kEvents).
const std::vector<std::string>& events();
// Whether `name` is an event in either spelling (case-sensitive, as Copilot reads the key).
bool is_event(const std::string& name);
// The format an event key selects (camelCase: native; a PascalCase alias: Claude-style), or none
// for a key that is no event.
std::optional<Format> event_format(const std::string& name);
// The canonical (camelCase) name of an event in either spelling ("" if none).
std::string canonical_event(const std::string& name);
// The `--agent` label of a format (family.h agent_labels): "copilot" or "copilot-claude".
const char* agent_label(Format format);

// CPDOC "Claude-format matchers": the Claude tool name of a runtime tool (`bash` and `powershell`
// → `Bash`, `view` → `Read`, …); a tool with no Claude equivalent keeps its runtime name.
std::string claude_tool_name(const std::string& runtime_tool);

// Matcher semantics, per format (CPDOC "Matcher filtering", "Claude-format matchers"):
//  native       a regular expression anchored as ^(?:PATTERN)$ on the runtime tool name; an invalid
//               one skips the hook entry; no matcher matches every tool.
//  Claude-style `*`, `**` or "" match every tool; a name or `|`-list matches when a token equals
//               the runtime name or its Claude name; anything else a case-sensitive regex anchored
//               as ^(?:PATTERN)$ on the Claude name (the runtime name where there is none).
enum class MatcherKind { kAll, kNames, kRegex, kInvalid };
MatcherKind matcher_kind(Format format, const std::string& matcher);
bool matcher_matches(Format format, const std::string& matcher, const std::string& runtime_tool);

// Where hooks come from (CPDOC "Hooks locations", CP): all sources run, in this order.
struct Sources {
  std::string policy_dir;        // /etc/github-copilot/policy.d on the host; empty: none (tests
                                 // stay hermetic)
  std::string copilot_home;      // $COPILOT_HOME, else ~/.copilot: hooks/*.json, settings.json
  std::string repo;              // the repository root: .github/hooks/*.json,
                                 // .github/copilot/settings(.local).json, .claude/settings(.local).json
  bool repo_trusted = false;     // a trusted folder: only then are the repo's hooks read
  std::vector<std::string> plugin_dirs;  // each installed plugin's root (hooks.json, hooks/hooks.json)
  bool claude_settings = true;   // the repo's .claude/settings(.local).json are read (false before
                                 // some release after 1.0.65: Rules::claude_settings)
};

struct HookHandler {
  std::string event;      // as the file spells it (`preToolUse` or `PreToolUse`)
  std::string canonical;  // camelCase
  Format format = Format::kNative;
  std::string type = "command";  // command | http | prompt
  std::string bash, powershell, command;  // `command` is the cross-platform fallback
  std::string exec;                       // run directly, with `args`, no shell
  std::vector<std::string> args;
  std::string cwd;
  std::map<std::string, std::string> env;
  std::string url;  // http hooks
  std::string matcher;
  bool has_matcher = false;
  long timeout_sec = 30;  // `timeoutSec`, else `timeout`, else 30 (CPDOC)
  std::string source;     // policy | repo | user | repo-settings | repo-claude | user-settings | plugin
  std::string file;       // the file it came from
  std::string pointer;    // its place there (JSON pointer)
};

struct LoadedHooks {
  std::vector<HookHandler> handlers;  // every handler found, in source order
  std::vector<std::string> warnings;  // files or entries skipped (CPDOC: a malformed item is
                                      // dropped, a structural error rejects the file)
  bool disabled = false;  // `disableAllHooks` in the repo's settings: only policy hooks run
};

// A missing file is no error; one Copilot rejects is skipped with a warning (as the host does).
Result<LoadedHooks> load_hooks(const Sources& sources);

// The handlers that run for one event and tool, in order (CPDOC: hooks of one event run in order;
// after a preToolUse deny the next does not run, CP). `event` in either spelling selects the
// handlers registered under both spellings; `runtime_tool` is the runtime tool name (`bash`), each
// handler's matcher is tested per its format.
std::vector<HookHandler> plan(const LoadedHooks& hooks, const std::string& event,
                              const std::string& runtime_tool);

// ---- Added by the hosts+emulator helper: the sources of one run, as the CLI finds them. ----

// The runtime tool name a Claude-style payload's `tool_name` stands for (`Bash` → `bash`, `Read`
// → `view`, …; the inverse of claude_tool_name; an unknown name is kept).
std::string runtime_tool_name(const std::string& claude_tool);

// The system policy folder, /etc/github-copilot/policy.d, unless $PINTA_COPILOT_POLICY_DIR names
// another (tests: a temp folder; "" there: none).
std::string default_policy_dir(const std::map<std::string, std::string>& env);
// $COPILOT_HOME, else HOME/.copilot.
std::string default_copilot_home(const std::map<std::string, std::string>& env,
                                 const std::string& home);
// Whether the repo's hooks load in a prompt-mode run: the folder (or a parent) is listed in
// `trustedFolders` of COPILOT_HOME/config.json (CPM src-repo-trusted-config; the same key in
// settings.json is not read, src-repo-trusted-settings), or the environment opts in:
// GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true or COPILOT_ALLOW_ALL=true (CPM src-repo-env-optin,
// src-repo-allow-all-env; CPLOG 1.0.40).
bool repo_trusted(const std::string& copilot_home, const std::string& repo,
                  const std::map<std::string, std::string>& env);

// ---- version profiles (hosts/copilot/profiles/copilot-<v>.json) ----------------------------------

// The hook rules that differ between Copilot releases: a profile's "switches", each measured on the
// real releases by ci/copilot-bisect.py (docs/hosts/copilot-1.0.md "Other releases"; each
// profile's "evidence"). The defaults are 1.0.102's.
struct Rules {
  bool exit2_denies = true;     // preToolUse exit 2 denies (`hook exited with code 2`); false: the
                                // call runs and the CLI prints the hook's stderr as `! …`
  bool timeout_denies = false;  // a preToolUse past its timeoutSec denies (`hook errored`)
  bool errored_names_file = true;  // the errored deny names the hook's file
  bool claude_settings = true;     // the repo's .claude/settings(.local).json hooks are run
  bool tool_args_text = false;     // the native toolArgs is the JSON text of the arguments
  bool claude_tool_names = true;   // the Claude-style tool_name is the Claude name (`Bash`); false:
                                   // the runtime name (`bash`)
  bool prompt_transformed = true;  // userPromptTransformed fires
  bool stop_hook_active = true;    // agentStop's payload has stop_hook_active
  bool hook_dir_env = true;        // hooks get COPILOT_HOOK_DIR and COPILOT_CLI_RESOLVED_DIST_DIR
  bool post_exit2_notice = true;   // a postToolUse hook's exit 2 prints its stderr as `! …`
};
// Whether a release of these rules fires `event` (either spelling).
bool fires(const Rules& rules, const std::string& event);
// Every switch of `rules` as a profile names it, with its value, in one fixed order.
std::vector<std::pair<std::string, bool>> switch_values(const Rules& rules);

struct Profile {
  std::string name, file, applies_from, applies_through, description;
  Rules rules;
};
// Every profile of `dir`, by applies_from. Error when a file is not a valid profile (a bad
// release, an unknown switch) or two ranges overlap.
Result<std::vector<Profile>> read_profiles(const std::string& dir);
// The profile named `name` ("copilot-1.0") or held in the file `name` (a path).
Result<Profile> profile_named(const std::string& dir, const std::string& name);
// The profile whose range applies_from .. applies_through (both releases, inclusive) holds
// `version` (an npm release such as 1.0.73). kNotFound outside every range: a release past the
// newest profile (the version radar) or one not probed yet between two profiles.
Result<Profile> profile_for_version(const std::string& dir, const std::string& version);

}  // namespace pinta::hosts::copilot
