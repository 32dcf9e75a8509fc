// File: pinta/emulator/gemini/gemini.h
// The Gemini CLI 0.61.0 host emulator: how the real `@google/gemini-cli@0.61.0` loads command hooks
// (§1–2 of shared/reference/gemini-cli-0.61-hooks.md), plans them for an event (§3), runs one hook
// (§4), reads its output, merges several outputs (§5), applies the result (§6), and what it writes
// on a hook's stdin (§7). Every rule in src/ cites its section or the 0.61.0 source file it comes
// from.
//
// JSON values that reach a hook's stdin are nlohmann::ordered_json: the host's key order is part of
// what it sends (§7), and js_stringify() serializes exactly like JavaScript's JSON.stringify.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pinta/common/process.h"
#include "pinta/common/result.h"

namespace pinta::emu::gemini {

using ojson = nlohmann::ordered_json;

// The pinned host version this emulator reproduces.
inline constexpr std::string_view kHostVersion = "0.61.0";
// core hooks/hookRunner.js DEFAULT_HOOK_TIMEOUT.
inline constexpr int kDefaultTimeoutMs = 60000;

// The 11 event names (core hooks/types.js HookEventName), §2.1.
const std::vector<std::string>& event_names();
bool is_event_name(std::string_view name);

// ---------------------------------------------------------------------------------------------
// Running one hook (§4)

struct HookSpec {
  std::string command;
  int timeout_ms = kDefaultTimeoutMs;
  std::string source = "user";  // "project" (all settings hooks, §1.2 step 6), "extensions", ...
  std::string name;
  std::vector<std::pair<std::string, std::string>> env;  // hook.env, spread last (§4.2)
  std::string
      timeout_text;  // the configured value as JS prints it (e.g. "abc"); empty = timeout_ms
};

// What one hook run does differently in an older CLI (a version profile's per-hook switches,
// hosts/gemini/profiles/; docs/gemini-versions.md). Default: the 0.61 rules.
struct HookRules {
  // "any_exit" (0.30+): text = stdout.trim() || stderr.trim() at any exit code, exit 1 = warning,
  // any other non-zero = deny. "exit0_json" (0.26): stdout is read only on exit 0 (JSON or plain
  // text), otherwise stderr as plain text with exit 2 = deny and any other code = warning; the
  // result has no outputFormat.
  bool legacy_output_reading = false;
  // GEMINI_PLANS_DIR / GEMINI_CWD / GEMINI_SESSION_ID set and expanded in the command (0.40+);
  // older CLIs set and expand only GEMINI_PROJECT_DIR and CLAUDE_PROJECT_DIR.
  bool session_env_vars = true;
  bool hook_env_field = true;  // hook.env spread last (0.30+); 0.26 ignores it
};
// The per-hook rules of a profile's "switches" object ({} or not an object: the 0.61 rules).
HookRules hook_rules_from_switches(const ojson& switches);

// Version profiles (profile.cc). The profiles directory: $PINTA_GEMINI_PROFILES, the installed
// share/…/gemini/profiles, or the source tree's hosts/gemini/profiles.
std::string default_profile_dir();
// A name ("gemini-0.26") → <default_profile_dir()>/<name>.json; a path (has '/' or ".json") as is.
std::string profile_path(const std::string& name_or_file);
// The profile object ({"name","applies_from","switches":{…},…}); errors name the file.
Result<ojson> load_profile(const std::string& name_or_file);
const ojson& profile_switches(const ojson& profile);  // {} when absent
// The error a blocked or stopped BeforeTool/AfterTool reports under `switches` ("" when the output
// neither blocks nor stops, or for another event).
std::string tool_error_text(const ojson& switches, std::string_view event, const ojson& output);
// The arguments a BeforeTool output's hookSpecificOutput.tool_input gives the tool under
// `switches` (replaced, or merged for tool_input_rewrite "merge"); null when it gives none.
ojson rewritten_tool_input(const ojson& switches, const ojson& tool_input, const ojson& output);

struct RunContext {
  std::string cwd;          // empty: the input's "cwd" (what the host passes, §4.1)
  std::string project_dir;  // unused by 0.61 (= cwd); kept for adapters that want it
  std::string plans_dir;    // GEMINI_PLANS_DIR (§4.2); empty: "<cwd>/.gemini-plans" placeholder
  // Base environment (the CLI process env, sanitization off by default §4.2); the host adds its 5
  // variables and hook.env on top. nullopt: this process's environment.
  std::optional<std::vector<std::pair<std::string, std::string>>> env;
  pinta::proc::StdinMode stdin_mode = pinta::proc::StdinMode::kCloseAfterWrite;
  bool trusted_folder = true;  // a "project" hook in an untrusted folder is refused (§1.2 step 7)
  pinta::proc::Spawner* spawner = nullptr;  // nullptr: the Boost.Process spawner
  HookRules rules;                          // version profile (default: 0.61)
};

struct HookRunResult {
  bool success = false;
  std::optional<int> exit_code;          // nullopt on timeout / spawn error (JS undefined)
  std::string output_format;             // "json", "text" or "" (undefined)
  bool plain_text = false;               // output converted from plain text (every version)
  std::optional<ojson> output;           // the parsed or converted output, nullopt = undefined
  std::optional<std::string> error;      // error message
  std::string stdout_text, stderr_text;  // decoded like Node's Buffer.toString() (UTF-8, U+FFFD)
  double duration_ms = 0;
  pinta::proc::SpawnResult raw;
};

// Runs one command hook exactly as core HookRunner.executeCommandHook does.
HookRunResult run_hook(const HookSpec& hook, std::string_view event_name, const ojson& input,
                       const RunContext& ctx);

// The `hostemu gemini run-hook` object: {"success","exitCode","outputFormat","output","error"}.
ojson run_result_json(const HookRunResult& r);

// §4.5: text = stdout.trim() || stderr.trim(); JSON / JSON-in-a-string / plain text by exit code.
struct Interpretation {
  std::string output_format;
  bool plain_text = false;
  std::optional<ojson> output;
};
Interpretation interpret_output(const std::string& stdout_text, const std::string& stderr_text,
                                int exit_code_or_zero);
// 0.26 (HookRules::legacy_output_reading; gemini-cli-core 0.26.0 hooks/hookRunner.js:241-263,
// 304-326): exit_code nullopt = killed by a signal (Node's null).
Interpretation interpret_output_legacy(const std::string& stdout_text,
                                       const std::string& stderr_text,
                                       std::optional<int> exit_code);

// §4.3: the five bare-variable replacements with shell-quote quoting.
std::string expand_command(const std::string& command, const std::string& cwd,
                           const std::string& plans_dir, const std::string& session_id);
// npm shell-quote@1.8.3 quote([v]) as used by core utils/shell-utils.js escapeShellArg ('' for
// empty).
std::string escape_shell_arg(const std::string& value);

// JavaScript helpers (exact semantics): String.prototype.trim, JSON.stringify, Buffer.toString().
std::string js_trim(std::string_view s);
std::string js_stringify(const ojson& v);
// JSON.stringify of one string held WTF-8 style (lone surrogates as ED A0..BF xx): the quoted text.
std::string js_quote(const std::string& wtf8);
std::string node_utf8_decode(std::string_view bytes);
// JSON.parse; nullopt when JSON.parse would throw.
std::optional<ojson> js_parse(std::string_view text);

// ---------------------------------------------------------------------------------------------
// Payloads (§7)

struct PayloadOptions {
  std::string session_id = "00000000-0000-4000-8000-000000000000";
  std::string transcript_path;
  std::string cwd = "/tmp";
  std::string timestamp;  // empty: now, ISO-8601 with ms and Z
  // Event specific (used when relevant to the event)
  std::string tool_name = "write_file";
  ojson tool_input = ojson::object();
  ojson tool_response;  // AfterTool {llmContent, returnDisplay, error?}; null: generated
  std::optional<ojson> mcp_context;
  std::optional<std::string> original_request_name;
  std::string prompt = "Create test.txt";
  std::string prompt_response;
  bool stop_hook_active = false;
  std::string source = "startup";  // SessionStart
  std::string reason = "exit";     // SessionEnd
  std::string trigger = "auto";    // PreCompress
  std::string notification_type = "ToolPermission";
  std::string message;
  ojson details = ojson::object();
  ojson llm_request;   // null: generated from prompt
  ojson llm_response;  // null: generated
};

// The exact stdin object the host sends for `event_name` (key order of §7).
ojson make_payload(std::string_view event_name, const PayloadOptions& opts);
std::string now_iso8601();

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
  std::optional<int> fatal_exit;      // 52 (settings syntax error) or 55 (headless untrusted)
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

// ---------------------------------------------------------------------------------------------
// Aggregation (§5)

// Merges outputs (plan order) per the event's strategy; nullopt when no hook produced output.
std::optional<ojson> aggregate(std::string_view event, const std::vector<ojson>& outputs);
std::string effective_reason(const ojson& output);  // stopReason || reason || "No reason provided"
std::optional<std::string> additional_context(const ojson& output);  // escaped < >
bool is_blocking(const ojson& output);

// ---------------------------------------------------------------------------------------------
// Session (§6): plays a script of events through loaded hooks.
// Script: {"prompt": "...", "events": [{"event":"BeforeTool","tool_name":"write_file",
//          "tool_input":{...}}, ...]} — see emulator/hosts/gemini/README.md.
Result<ojson> run_session(const std::string& home, const std::string& workspace,
                          const ojson& script, const RunContext& base);

}  // namespace pinta::emu::gemini
