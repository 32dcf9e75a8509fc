// File: pinta/hosts/antigravity/antigravity.h
// Antigravity (agy) as pure host facts (no spawning): the version profiles (data files under
// hosts/antigravity/profiles/, each switch with its evidence), the event list and the hooks.json
// loader as agy's Go loader behaves (shared/reference/antigravity-hooks.md §1-§4), and matcher
// semantics (§4), and the planner (which files a profile reads, which commands it would run for an
// event and tool; §1, §5.1-§5.2). The emulator (pinta/emulator/antigravity/antigravity.h) spawns
// and reads replies on top of this; `pinta-gemini-admin` (doctor, install) and the hook-file lint
// use it directly.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "pinta/common/result.h"

namespace pinta::hosts::agy {

struct Profile {
  std::string name;
  std::string description;
  bool read_global_config = true;
  bool read_workspace_agents = true;
  bool read_legacy_cli = false;
  bool read_plugin_roots = false;
  bool read_ide_root = false;
  // Whether loaded hooks are ever spawned (antigravity-cli#1008: 1.2.1/1.2.2 on macOS arm64 load
  // and list them but never run one). false: fire spawns nothing and reports "hooks_not_run".
  bool hooks_run = true;
  bool strict_shape = false;  // wrong_shape: "strict" | "lenient"
  bool matcher_anchored = false;
  std::string invalid_matcher;          // "no-match" | "match-all"
  std::string shell;                    // "sh-c" | "split"
  std::string cwd;                      // "hooks-dir" | "launch-dir"
  std::string stdin_mode;               // "closed" | "open"
  std::string pretooluse_empty_stdout;  // "no-opinion" | "deny"
  std::string pretooluse_empty_object;  // "deny" | "allow"
  std::string deny_message_format;      // contains {reason}
  bool session_start = false;
  std::string overwrite_shape;  // "args-merge" | "name-args"
  bool force_ask = true;
  int timeout_default_seconds = 30;
  // Running (§5).
  bool stdin_trailing_newline = false;
  std::string stop_stdin;    // "payload" | "none"
  std::string timeout_kill;  // "group-sigkill" | "process-sigkill"
  std::string hook_signals = "go";  // "go" | "node": how the hook's signal dispositions start
  // PreToolUse replies (§6.2, §7.1). Each *_effect is "tool-failed" | "deny" | "no-opinion".
  std::string pretooluse_nonjson;
  std::string pretooluse_unknown_fields;
  std::string pretooluse_nonzero_exit;
  std::string pretooluse_timeout;
  std::string unknown_decision;
  std::string tool_failed_unmarshal_format;  // {id} {detail}
  std::string tool_failed_exit_format;       // {id} {code}
  std::string tool_failed_timeout_format;    // {id}
  bool legacy_allow_tool = true;
  std::string legacy_deny_message_format;  // {reason}
  bool auto_approve = false;
  bool deny_unless_prior_grant = false;
  std::string permission_overrides;  // "ignored" | "granted"
  bool allow_skips_prompt = false;
  std::string headless_allow;  // "cli-exit" | "runs"
  std::string headless_ask;    // "tool-failed" | "asked": ask/force_ask under `agy -p`
  std::string overwrite_under_review;  // "applied" | "discarded": overwrite when agy reviews
  // Lifecycle replies (§6.3, §7.3, §7.4).
  std::vector<std::string> inject_step_kinds;
  bool termination_behavior = true;
  std::string invocation_decision_key;  // "hook-error" | "cli-exit"
  std::string preinvocation_failure;    // "logged" | "retry-loop" | "cli-exit"
  int stop_continuation_cap = 5;
  // Several hooks on one event (§7.2) — assumptions.
  std::string aggregation;         // "first-deny-wins"
  std::string overwrite_chaining;  // "accumulate" | "independent"
  // Payloads (§8).
  std::string transcript_root;  // "antigravity-cli" | "antigravity" | "antigravity-ide"
  std::string transcript_file;  // "transcript_full.jsonl" | "transcript.jsonl"
  bool pretooluse_artifact_dir = true;
  std::string stop_termination_reason;  // default terminationReason value
  nlohmann::json switches;              // the raw {"switch": {"value", "evidence"}} object
};

// Parses one profile file's text. Every switch must be {"value":…, "evidence": non-empty string}.
Result<Profile> parse_profile(const std::string& text);
// Loads every *.json in dir, sorted by name.
Result<std::vector<Profile>> load_profiles(const std::string& dir);
// Directory of the shipped profiles: $PINTA_AGY_PROFILES if set, else the installed copy
// (<prefix>/share/pinta-gemini/antigravity/profiles), else the source tree's (data_dir.h).
std::string default_profile_dir();
const Profile* find_profile(const std::vector<Profile>& profiles, const std::string& name);

enum class Event {
  kPreToolUse,
  kPostToolUse,
  kPreInvocation,
  kPostInvocation,
  kStop,
  kSessionStart
};
std::optional<Event> parse_event(const std::string& name);  // exact, case-sensitive
const char* event_name(Event e);
const std::vector<Event>& all_events();  // every hook event agy knows, in declaration order
bool is_tool_event(Event e);

struct Handler {
  std::string type = "command";  // "command" | "prompt"
  std::string command;
  int32_t timeout_seconds = 30;  // after defaulting (<=0 → profile default)
  int64_t timeout_written = 0;   // the file's value (0: absent/null); lint checks its unit
  std::string pointer;           // JSON pointer of the handler object in the file (RFC 6901)
};
struct Group {
  std::string matcher;
  std::vector<Handler> hooks;
  bool flat_handler_keys = false;  // a tool-event group carried type/command: written flat
  std::string pointer;             // JSON pointer of the group (lifecycle: of the event array)
};
struct EventEntry {
  Event event;
  std::vector<Group> groups;  // lifecycle events: one group, matcher ""
};
struct NamedHook {
  std::string name;
  bool enabled = true;
  std::vector<EventEntry> events;
};
struct Note {  // something dropped silently (reference §2.4) or that never fires
  std::string hook;
  std::string message;
  // What lint reports it as: "unknown-key" | "unknown-event" | "commandless" | "wrapped-lifecycle"
  // | "flat-tool-event" | "invalid-matcher" | "disabled" | "prompt"; and where (JSON pointer).
  std::string kind;
  std::string pointer;
};
struct HooksFile {
  std::vector<NamedHook> hooks;  // sorted by name
  std::vector<Note> notes;
};

// Loads hooks.json text the way `profile` does. Error (kParse) = whole file rejected; the message
// is agy's "failed to parse hooks.json at <path>: <err>" line.
// error_pointer (optional): on a rejection, the JSON pointer of the value the error is about
// ("" = the root or unknown).
Result<HooksFile> parse_hooks_json(const std::string& text, const Profile& profile,
                                   const std::string& path = "hooks.json",
                                   std::string* error_pointer = nullptr);

// Matcher semantics: "" / "*" match all; otherwise RE2 (search or full match per profile);
// invalid patterns per profile.invalid_matcher.
bool matcher_matches(const Profile& profile, const std::string& matcher, const std::string& tool);
bool matcher_valid(const std::string& matcher);

// Why `profile` never runs a loaded hook (nullopt: it does). The conformance runner reports such a
// host as "hooks do not run" instead of running a case (antigravity-cli#1008).
std::optional<std::string> hooks_not_run_reason(const Profile& profile);

// ---- Planning (reference §1, §4, §5.1-§5.2) --------------------------------------------------
// Which hooks.json files `profile` reads for this home and workspace, and which commands it would
// register (and, when hooks_run, spawn) for one event and tool. Reads files; spawns nothing.

struct FileStatus {
  std::string path;
  std::string status;  // loaded | rejected | absent | not-read
  std::string error;
};
struct PlannedRun {
  std::string hook;
  std::string file;     // the hooks.json it came from
  std::string pointer;  // the handler's JSON pointer in that file
  std::string id;       // jsonhook__<name>_<Event>_<g>_<h>
  std::string command;
  std::vector<std::string> argv;
  int32_t timeout_seconds = 30;
  std::string cwd;
};
struct Plan {
  std::vector<FileStatus> files;
  std::vector<PlannedRun> run;  // what agy registers (and, when hooks_run, spawns) for the event
  bool hooks_run = true;        // profile.hooks_run: false = registered but never spawned
};
struct PlanRequest {
  std::string home;
  std::string workspace;  // empty: no open workspace
  Event event = Event::kPreToolUse;
  std::string tool;        // empty: only match-all matchers fire
  std::string launch_dir;  // for cwd=launch-dir; empty → workspace, else home
};
Plan plan(const Profile& profile, const PlanRequest& request);
nlohmann::json plan_to_json(const Plan& p);

// Per-profile lint report for one hooks.json file.
nlohmann::json lint(const std::vector<Profile>& profiles, const std::string& text,
                    const std::string& path);

}  // namespace pinta::hosts::agy
