// File: pinta/emulator/gemini/gemini.h
// The Gemini CLI 0.61.0 host emulator: how the real `@google/gemini-cli@0.61.0` loads command hooks
// (§1–2 of shared/reference/gemini-cli-0.61-hooks.md) and plans them for an event (§3) through
// pinta/hosts/gemini/gemini.h, runs one hook (§4), reads its output, merges several outputs (§5),
// applies the result (§6), and what it writes on a hook's stdin (§7). Every rule in src/ cites its
// section or the 0.61.0 source file it comes from.
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
#include "pinta/hosts/gemini/gemini.h"

namespace pinta::emu::gemini {

// The pure host facts (the event list, the JavaScript helpers, the settings/extension loader and
// the planner) live in hosts/gemini (namespace pinta::hosts::gemini); the emulator's names reach
// them unchanged.
using namespace pinta::hosts::gemini;  // NOLINT(google-build-using-namespace)

// ---------------------------------------------------------------------------------------------
// Running one hook (§4)

// What one hook run does differently in an older CLI (a version profile's per-hook switches,
// hosts/gemini/profiles/; docs/gemini-versions.md). Default: the 0.61 rules.
struct HookRules {
  // "any_exit" (0.30+): text = stdout.trim() || stderr.trim() at any exit code, exit 1 = warning,
  // any other non-zero = deny. "exit0_json" (0.26): stdout is read only on exit 0 (JSON or plain
  // text), otherwise stderr as plain text with exit 2 = deny and any other code = warning; the
  // result has no outputFormat.
  bool legacy_output_reading = false;
  // The result carries outputFormat ("json" / "text") where stdout or stderr was read (core
  // 0.38.0+); before, the field is undefined whatever was read (switch hook_output_format). The
  // reading itself is the same: only what the result reports differs.
  bool output_format_field = true;
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
// "0.40.1" -> {0, 40, 1}; a pre-release tail is ignored (a nightly counts as its base release);
// {} when `v` is not a version.
std::vector<long> version_key(const std::string& v);
// The one version -> profile mapping (hostemu drift, `hostemu gemini session --version`,
// `hostemu gemini profiles`, docs/gemini-versions.md): each profile in `dir` covers
// applies_from <= V <= applies_through, where "applies_through" names a release line ("0.34"
// covers every 0.34.x). A version outside every range is an error naming the known range; two
// profiles covering one version is an error naming both.
struct VersionMatch {
  std::string path, name;
};
Result<VersionMatch> profile_for_version(const std::string& dir, const std::string& version);
// "0.26.0 .. 0.61.x": the lowest applies_from to the highest applies_through of `dir`.
std::string known_version_range(const std::string& dir);
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
  std::string output_format;             // read as "json", "text" or "" (nothing read)
  bool output_format_field = true;       // the result reports output_format (HookRules)
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
// The bytes a hook reads for `payload` (its hook_event_name's event): the host's key order of
// §7 over the fields the host writes (the rest after them, as given; the objects inside as given),
// compact JSON.stringify, no newline (§4.1; the y_ fixtures, emulator_stdin_bytes_test).
std::string stdin_bytes(const ojson& payload);

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
