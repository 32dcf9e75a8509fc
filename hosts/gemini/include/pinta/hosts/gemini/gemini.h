// File: pinta/hosts/gemini/gemini.h
// Gemini CLI 0.61.0 as pure host facts (no spawning, no CLI): how the real
// `@google/gemini-cli@0.61.0` loads command hooks from settings.json files and extensions (§1–2 of
// shared/reference/gemini-cli-0.61-hooks.md), which of them it plans for an event (§3), and the
// JavaScript semantics it relies on (String.prototype.trim, JSON.stringify / JSON.parse, Node's
// UTF-8 decoding: pinta/hosts/node/js.h, shared with deel-local-cli). Every rule in src/ cites its section or the 0.61.0 source file it comes from.
// The emulator (pinta/emulator/gemini/gemini.h) runs hooks, aggregates and plays sessions on top of
// this; `pinta-gemini-admin doctor` and the hook-file lint use it directly.
//
// JSON values that reach a hook's stdin are nlohmann::ordered_json: the host's key order is part of
// what it sends (§7), and js_stringify() serializes exactly like JavaScript's JSON.stringify.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pinta/hosts/node/js.h"

namespace pinta::hosts::gemini {

using ojson = nlohmann::ordered_json;

// The pinned host version these facts describe.
inline constexpr std::string_view kHostVersion = "0.61.0";
// core hooks/hookRunner.js DEFAULT_HOOK_TIMEOUT.
inline constexpr int kDefaultTimeoutMs = 60000;

// The 11 event names (core hooks/types.js HookEventName), §2.1.
const std::vector<std::string>& event_names();
bool is_event_name(std::string_view name);

// One command hook as configured (§1.2, §4).
struct HookSpec {
  std::string command;
  int timeout_ms = kDefaultTimeoutMs;
  std::string source = "user";  // "project" (all settings hooks, §1.2 step 6), "extensions", ...
  std::string name;
  std::vector<std::pair<std::string, std::string>> env;  // hook.env, spread last (§4.2)
  std::string
      timeout_text;  // the configured value as JS prints it (e.g. "abc"); empty = timeout_ms
};

// The JavaScript helpers Gemini CLI's hook runner uses (String.prototype.trim, JSON.stringify,
// JSON.parse, Buffer.toString(), Date.toISOString()) are Node's, shared with deel-local-cli:
// pinta/hosts/node/js.h. Named here too, as the Gemini planner and emulator call them.
using node::js_is_space_cp;
using node::js_parse;
using node::js_quote;
using node::js_stringify;
using node::js_trim;
using node::node_utf8_decode;
using node::now_iso8601;

// ---------------------------------------------------------------------------------------------
// Loading (§1–2)

struct LoadOptions {
  std::string home;       // homedir(): $GEMINI_CLI_HOME or the user's home (§1.8)
  std::string workspace;  // the cwd the CLI runs in
  // Settings-load env expansion (§1.2 step 2) uses this environment; nullopt: this process's env.
  std::optional<std::map<std::string, std::string>> cli_env;
  std::optional<std::string> system_settings_path;  // nullopt: $GEMINI_CLI_SYSTEM_SETTINGS_PATH or
                                                    // /etc/gemini-cli/settings.json
  std::optional<std::string> system_defaults_path;  // nullopt: $GEMINI_CLI_SYSTEM_DEFAULTS_PATH or
                                                    // <dir of system>/system-defaults.json
  // Folder trust: nullopt = decide like checkPathTrust (§1.4) from env + trustedFolders.json.
  std::optional<bool> trusted;
  bool headless = true;  // headless + untrusted (with folder trust enabled) → exit 55
};

struct LoadedHook {
  std::string event;
  std::string source;  // "project" (every settings file) or "extensions" (§1.2 step 6)
  std::string origin;  // the file it came from (for transcripts)
  std::string matcher;
  bool has_matcher = false;
  bool matcher_is_string = true;  // false: the event is disabled at plan time (§2.3, exp g11)
  bool sequential = false;
  HookSpec spec;
  bool enabled = true;  // false: listed in hooksConfig.disabled (§1.3)
  std::string type = "command";
  std::string pointer;          // JSON pointer of the hook object in `origin` (RFC 6901)
  std::string matcher_pointer;  // of its definition's matcher ("" when none)
};

// A loader warning with where it is (for lint): kind is "unknown-event" | "not-array" |
// "invalid-definition" (no hooks[] array: e.g. a handler written flat) | "invalid-type" |
// "missing-command" | "invalid-hooks-root".
struct LoadIssue {
  std::string origin;
  std::string pointer;
  std::string kind;
  std::string message;
};

struct LoadResult {
  std::map<std::string, std::vector<LoadedHook>> by_event;  // registry order (§1.7)
  std::vector<std::string> warnings;  // what the CLI prints on stderr while loading
  std::vector<LoadIssue> issues;      // the hook warnings above, each with its file and place
  // Feedback the headless CLI prints on stderr at start-up (session lane checked), in order.
  std::vector<std::string> startup_stderr;
  std::optional<int> fatal_exit;  // 52 (settings syntax error) or 55 (headless untrusted)
  std::string fatal_message;
  bool hooks_enabled = true;
  bool trusted = true;
  bool folder_trust_enabled = true;
  // §1.5 (core hookRegistry.js checkProjectHooksTrust, trustedHooks.js): the workspace file's hooks
  // not yet recorded in trusted_hooks.json for this project (name || command, deduplicated), and
  // what the CLI then records there (key "name:command"). Filled only when trusted + hooks on.
  std::vector<std::string> untrusted_project_hooks;
  std::vector<std::string> project_hook_keys;
  std::string trusted_hooks_path;  // homedir()/.gemini/trusted_hooks.json
  ojson trusted_hooks;             // its content as read ({} when missing or unreadable)
};

// Records the workspace's hooks as trusted, as the CLI does right after warning about them:
// trusted_hooks.json = JSON.stringify(map, null, 2). Returns false when it cannot be written.
bool record_trusted_project_hooks(const LoadResult& loaded, const std::string& project_root);

// extension-enablement.json (bundle config/extensions/extensionEnablement.ts isEnabled): whether
// extension `name` is enabled in `cwd` under `enablement` ({name: {overrides: [rule...]}}); the
// last matching rule wins, "!" disables, a trailing "*" covers subdirectories.
bool extension_enabled(const ojson& enablement, const std::string& name, const std::string& cwd);

LoadResult load_hooks(const LoadOptions& opts);

// One file on its own, read the way load_hooks reads it (lint): a settings.json (comments
// stripped; invalid JSON or a non-object root → fatal_exit 52) or, when `extension_hooks`, an
// extension's hooks/hooks.json ({"hooks": {...}} root; its $VAR references are not resolved).
// hooksConfig.disabled and trust are not applied (the caller sees the whole file).
LoadResult load_hooks_file(const std::string& text, const std::string& path, bool extension_hooks);

// ---------------------------------------------------------------------------------------------
// Planning (§3)

struct PlanContext {
  std::optional<std::string> tool_name;  // BeforeTool/AfterTool
  std::optional<std::string>
      trigger;  // SessionStart source / SessionEnd reason / PreCompress trigger
};
struct Plan {
  std::vector<LoadedHook> hooks;  // after matcher filter and dedup, in order
  bool sequential = false;
  std::optional<std::string>
      error;  // e.g. non-string matcher: "TypeError: entry.matcher.trim is not a function"
};
Plan plan_event(const LoadResult& loaded, std::string_view event, const PlanContext& ctx);
bool matcher_matches(std::string_view event, const std::string& matcher, const PlanContext& ctx);

// Sequential chaining (core hookRunner.js applyHookOutputToInput).
ojson apply_output_to_input(const ojson& input, const ojson& output, std::string_view event);

}  // namespace pinta::hosts::gemini
