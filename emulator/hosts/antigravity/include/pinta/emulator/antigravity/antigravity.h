// File: pinta/emulator/antigravity/antigravity.h
// Antigravity (agy) host emulator, first slice: version profiles (data files with evidence per
// switch), the hooks.json loader as agy's Go loader behaves (shared/reference/antigravity-hooks.md
// §1-§4) and the planner (which commands agy would run for an event and tool).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pinta/common/result.h"

namespace pinta::emu::agy {

struct Profile {
  std::string name;
  std::string description;
  bool read_global_config = true;
  bool read_workspace_agents = true;
  bool read_legacy_cli = false;
  bool read_plugin_roots = false;
  bool read_ide_root = false;
  bool strict_shape = false;          // wrong_shape: "strict" | "lenient"
  bool matcher_anchored = false;
  std::string invalid_matcher;        // "no-match" | "match-all"
  std::string shell;                  // "sh-c" | "split"
  std::string cwd;                    // "hooks-dir" | "launch-dir"
  std::string stdin_mode;             // "closed" | "open"
  std::string pretooluse_empty_stdout;  // "no-opinion" | "deny"
  std::string pretooluse_empty_object;  // "deny" | "allow"
  std::string deny_message_format;    // contains {reason}
  bool session_start = false;
  std::string overwrite_shape;        // "args-merge" | "name-args"
  bool force_ask = true;
  int timeout_default_seconds = 30;
  nlohmann::json switches;            // the raw {"switch": {"value", "evidence"}} object
};

// Parses one profile file's text. Every switch must be {"value":…, "evidence": non-empty string}.
Result<Profile> parse_profile(const std::string& text);
// Loads every *.json in dir, sorted by name.
Result<std::vector<Profile>> load_profiles(const std::string& dir);
// Directory of the shipped profiles: $PINTA_AGY_PROFILES if set, else the source tree's.
std::string default_profile_dir();
const Profile* find_profile(const std::vector<Profile>& profiles, const std::string& name);

enum class Event { kPreToolUse, kPostToolUse, kPreInvocation, kPostInvocation, kStop, kSessionStart };
std::optional<Event> parse_event(const std::string& name);  // exact, case-sensitive
const char* event_name(Event e);
bool is_tool_event(Event e);

struct Handler {
  std::string type = "command";  // "command" | "prompt"
  std::string command;
  int32_t timeout_seconds = 30;  // after defaulting (<=0 → profile default)
};
struct Group {
  std::string matcher;
  std::vector<Handler> hooks;
  bool flat_handler_keys = false;  // a tool-event group carried type/command: written flat
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
};
struct HooksFile {
  std::vector<NamedHook> hooks;  // sorted by name
  std::vector<Note> notes;
};

// Loads hooks.json text the way `profile` does. Error (kParse) = whole file rejected; the message
// is agy's "failed to parse hooks.json at <path>: <err>" line.
Result<HooksFile> parse_hooks_json(const std::string& text, const Profile& profile,
                                   const std::string& path = "hooks.json");

// Matcher semantics: "" / "*" match all; otherwise RE2 (search or full match per profile);
// invalid patterns per profile.invalid_matcher.
bool matcher_matches(const Profile& profile, const std::string& matcher, const std::string& tool);
bool matcher_valid(const std::string& matcher);

struct FileStatus {
  std::string path;
  std::string status;  // loaded | rejected | absent | not-read
  std::string error;
};
struct PlannedRun {
  std::string hook;
  std::string id;  // jsonhook__<name>_<Event>_<g>_<h>
  std::string command;
  std::vector<std::string> argv;
  int32_t timeout_seconds = 30;
  std::string cwd;
};
struct Plan {
  std::vector<FileStatus> files;
  std::vector<PlannedRun> run;
};
struct PlanRequest {
  std::string home;
  std::string workspace;  // empty: no open workspace
  Event event = Event::kPreToolUse;
  std::string tool;       // empty: only match-all matchers fire
  std::string launch_dir;  // for cwd=launch-dir; empty → workspace, else home
};
Plan plan(const Profile& profile, const PlanRequest& request);
nlohmann::json plan_to_json(const Plan& p);

// Per-profile lint report for one hooks.json file.
nlohmann::json lint(const std::vector<Profile>& profiles, const std::string& text,
                    const std::string& path);

}  // namespace pinta::emu::agy
