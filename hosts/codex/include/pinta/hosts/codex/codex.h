// File: pinta/hosts/codex/codex.h
// OpenAI Codex CLI 0.171 as data: its hook events, the config layers hooks come from (hooks.json
// and `[hooks]` in config.toml, user and trusted project, plugins), hook trust (the
// `[hooks.state]` table and its hashes), matcher semantics and the planner (which commands run for
// one event). Reads files, spawns nothing. The runner (spawning, timeouts, the strict reply parser,
// what the model reads) is emulator/hosts/codex. Every rule with its evidence:
// docs/hosts/codex-0.171.md. CX = shared/reference/real-hosts.md (Codex 0.171.0, measured);
// CXSRC = openai/codex codex-rs/hooks (source).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "pinta/common/result.h"

namespace pinta::hosts::codex {

inline constexpr const char* kVersion = "0.171.0";

// Every hook event 0.171.0 knows, in the order discovery walks them (measured with the app-server's
// `hooks/list`: PreModelRequest … Interrupt, 14 events). An unknown event key is ignored silently.
const std::vector<std::string>& events();
bool is_event(const std::string& name);
// The label an event has in trust keys and hashes: "PreToolUse" → "pre_tool_use" ("" if unknown).
std::string event_key_label(const std::string& event);
// Whether the event's groups are filtered by their matcher; on the others the matcher is ignored
// (dropped before hashing, never reported invalid).
bool event_uses_matcher(const std::string& event);
// A handler's timeout when it has no `timeout` (seconds; 600, but 1 on SessionEnd and Interrupt,
// whose hooks get 3 s at most: a larger one is clamped with a warning, measured).
long default_timeout_sec(const std::string& event);

// The name a tool call is matched by (CX: every shell tool is `Bash`; MCP tools
// `mcp__server__tool`), plus the aliases that also match it (apply_patch: `Write`, `Edit`).
std::vector<std::string> match_names(const std::string& tool_name);

// Matcher semantics (CX): "" and "*" match every tool; a matcher of only [A-Za-z0-9_|] is a list
// of exact names split on "|"; anything else an unanchored regular expression (`^Bash` matches
// `BashOutput`; Rust's regex crate, for which RE2 stands in: the differences are in codex.cc). An
// invalid regular expression: the group is skipped with a warning.
enum class MatcherKind { kAll, kNames, kRegex, kInvalid };
MatcherKind matcher_kind(const std::string& matcher);
bool matcher_matches(const std::string& matcher, const std::string& tool_name);

// Where hooks come from. Every layer's hooks are merged and all run (CX).
struct Sources {
  std::string system_dir;        // the system layer (managed: always trusted), "/etc/codex" on the
                                 // host; empty: none (the default, so that tests stay hermetic)
  std::string codex_home;        // $CODEX_HOME, else ~/.codex: hooks.json, config.toml
  std::string project;           // the project root: <project>/.codex/ (read when trusted)
  bool project_trusted = false;  // the project's trust level in config.toml `[projects."<path>"]`
  std::vector<std::string> plugin_dirs;  // each plugin's root (hooks/hooks.json); its id is the
                                         // folder's name unless plugin_ids gives one
  std::vector<std::string> plugin_ids;   // parallel to plugin_dirs ("name@marketplace"), optional
  bool bypass_trust = false;  // --dangerously-bypass-hook-trust: for the caller's plan() call
                              // (load_hooks reports every hook with its trust state either way)
};

enum class TrustStatus { kManaged, kTrusted, kModified, kUntrusted };

struct HookHandler {
  std::string event, matcher, command;
  bool has_matcher = false;  // false: no matcher (or one the event ignores): matches everything
  std::string source;   // user-json | user-toml | project-json | project-toml | plugin | managed
  std::string file;     // the file it came from
  std::string pointer;  // its place there: /hooks/<event>/<group>/hooks/<n>
  int group_index = 0, handler_index = 0;
  long timeout_sec = 600;    // `timeout` in seconds (at least 1); default_timeout_sec(event)
  long timeout_ms = 600000;  // the same in milliseconds
  bool is_async = false;     // `async`
  std::optional<std::string> status_message;
  std::optional<std::uint64_t> context_limit;  // `additionalContextLimit`, where the event keeps it
  bool managed = false;                        // a managed (system) layer: runs without trust
  bool enabled = true;     // `[hooks.state."<key>"] enabled = false` turns it off, even with bypass
  std::string trust_key;   // "<config path>:<event>:<group index>:<handler index>"
  std::string trust_hash;  // "sha256:…" over the handler's normalised form (CXSRC)
  TrustStatus trust_status = TrustStatus::kUntrusted;
  bool trusted = false;  // its hash is recorded in [hooks.state] (or managed)
};

struct LoadedHooks {
  std::vector<HookHandler> handlers;  // every handler found, trusted or not, in layer order
  std::vector<std::string> warnings;  // files or groups skipped (unparsable, invalid regex, …)
};

// A missing file is no error; an unparsable one is skipped with a warning (as the host does).
Result<LoadedHooks> load_hooks(const Sources& sources);

// The key and hash `[hooks.state]` records to trust one handler. The key's event part is the
// event's key label ("pre_tool_use"); `event` may be given either way.
std::string trust_key(const std::string& config_path, const std::string& event, int group,
                      int handler);
std::string trust_hash(const HookHandler& handler);

// The handlers that run for one event and tool: enabled, trusted (or managed, or bypass_trust),
// matching, in layer order; they run concurrently (CX). `tool_name` is what the event's matcher is
// tested against: on tool events the tool, with match_names' aliases; on the other matcher events
// the value as given (SessionStart: its source, `startup` for a new `codex exec`, measured by
// test/trust_e2e.sh); events without a matcher ignore it.
std::vector<HookHandler> plan(const LoadedHooks& hooks, const std::string& event,
                              const std::string& tool_name, bool bypass_trust);

// ---- version profiles (hosts/codex/profiles/codex-<v>.json) --------------------------------------

// The hook rules that differ between Codex releases: a profile's "switches", each measured on the
// real releases by ci/codex-bisect.py (docs/hosts/codex-0.171.md "Releases"). The defaults are
// 0.171.0's.
struct Rules {
  // false: no hook of the bisection's scenarios ever ran on the release (user hooks.json, with
  // `--dangerously-bypass-hook-trust`): how such a release would run one is not measured, so its
  // host runs none (`hostemu codex run` plans nothing; HostRunner hooks_not_run).
  bool hooks_run = true;
  std::vector<std::string> events;  // the events the release fires; empty: every one of events()
  bool hook_trust = true;           // untrusted hooks are skipped (false: every hook runs, and
                                    // `--dangerously-bypass-hook-trust` does not exist)
  bool updated_input = true;        // a PreToolUse allow's updatedInput rewrites the call
  bool startup_notices = true;      // hooks in both files of a layer and an invalid matcher are
                                    // reported as warnings (`codex exec --json` error items)
  // true: a PreToolUse block can be lost when another synchronous PreToolUse hook runs beside the
  // blocking one: the call ran in some runs (measured up to 0.145.0, none lost from 0.146.0 on;
  // scenario multi-deny-then-slow-silent). Not the hook engine's rule (CXSRC
  // events/pre_tool_use.rs: any block blocks), so not a deterministic outcome: such a plan's
  // block is reported as one that may not hold (emu::codex Outcome::deny_may_be_lost).
  bool deny_race = false;
};
bool fires(const Rules& rules, const std::string& event);

struct Profile {
  std::string name, file, applies_from, applies_through, description;
  // The graded host (another profile) conformance grades this one as: one hook runs and is read
  // the same under both (the switches may differ only in deny_race, a plan of several hooks').
  std::string graded_as;
  Rules rules;
};
// The family's profile folder: $PINTA_CODEX_PROFILES, the installed copy or the source tree's
// hosts/codex/profiles (the descriptor's HostSource; pinta::data::find_dir).
std::string default_profile_dir();
// Every profile of `dir`, by applies_from. Error when a file is not a valid profile (a bad range
// or an unknown switch would silently never match) or two ranges overlap.
Result<std::vector<Profile>> read_profiles(const std::string& dir);
// The profile named `name` ("codex-0.171") or held in the file `name` (a path).
Result<Profile> profile_named(const std::string& dir, const std::string& name);
// The profile whose range holds `version` (an npm version such as 0.145.0): applies_from, exact,
// through applies_through, a release line ("0.171" holds every 0.171.x). kNotFound outside every
// range (a release past the newest profile: the version radar, ci/drift.sh --codex).
Result<Profile> profile_for_version(const std::string& dir, const std::string& version);

// ---- for lint: why a file is refused, positions in config.toml --------------------------------

struct FileProblem {
  std::string pointer;  // JSON pointer of the offending value ("" = the file as a whole)
  std::string message;  // serde's complaint, as Codex logs it
};
// Why Codex reads none of this hooks.json (not UTF-8, not JSON, a BOM, a value of the wrong type,
// an unknown top-level key, a duplicate key, an unknown handler type); nullopt: it reads it.
std::optional<FileProblem> hooks_json_problem(const std::string& text);

struct TomlHooks {
  nlohmann::json hooks;  // config.toml's [hooks] table as JSON (null: none)
  std::map<std::string, std::pair<int, int>> positions;  // "/hooks/…" pointer → line, column
  std::optional<FileProblem> problem;  // a [hooks] value of the wrong type: Codex does not start
};
// config.toml's text. Error (kParse, "path:line:col: …") when it is not TOML (or not UTF-8):
// Codex does not start then.
Result<TomlHooks> read_toml_hooks(const std::string& text, const std::string& path);

// Whether <codex_home>/config.toml has [projects."<project>"] trust_level = "trusted" (the exact
// folder; CX: only then is <project>/.codex/ read).
bool project_trusted(const std::string& codex_home, const std::string& project);

}  // namespace pinta::hosts::codex
