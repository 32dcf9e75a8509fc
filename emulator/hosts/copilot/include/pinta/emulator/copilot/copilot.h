// File: pinta/emulator/copilot/copilot.h
// Running GitHub Copilot CLI 1.0.102 hooks: spawning one after another (each with its own timeout
// in seconds), the payload each format gets, the environment, the FAIL-CLOSED preToolUse gate
// (any non-zero exit, crash or signal denies; only a timeout fails open), each format's reading
// of stdout and the text the model reads. Host data (events, formats, sources, trust, matchers,
// planner) is pinta::hosts::copilot. CP = shared/reference/real-hosts.md (Copilot 1.0.102);
// CPDOC = github/docs content/copilot/reference/hooks-reference.md; CPM = the real-CLI lane's
// scenarios (emulator/hosts/copilot/test/scenarios/<name>.json). Every rule with its evidence:
// run.cc. The rules that moved between releases are cp::Rules (a version profile,
// hosts/copilot/profiles/); every function taking them defaults to 1.0.102's.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "pinta/common/process.h"
#include "pinta/hosts/copilot/copilot.h"

namespace pinta::emu::copilot {

namespace cp = pinta::hosts::copilot;

// CPM c-pre-big-output (CPLOG 1.0.76): stdout past 10 MiB is dropped as if the hook printed
// nothing.
inline constexpr size_t kStdoutCap = 10u << 20;

// One spawn as Copilot reads it.
struct HookRun {
  std::string file;                  // the hook's file (named in the "hook errored" text)
  std::optional<int> exit_code;      // nullopt: a signal, a timeout or no start
  std::optional<int> signal;
  bool timed_out = false;
  bool spawn_failed = false;
  bool stdout_dropped = false;       // over kStdoutCap
  std::string stdout_text, stderr_text;
};

// One run read in its format.
struct Reading {
  // allow | deny | ask | none (no decision) | errored (a fail-closed deny) | timeout
  std::string decision = "none";
  std::optional<std::string> reason;  // as given (absent: none)
  bool parsed = false;                // stdout was one JSON object
  std::optional<std::string> context;        // additionalContext
  std::optional<nlohmann::json> updated_args;  // modifiedArgs / hookSpecificOutput.updatedInput
  std::optional<std::string> modified_prompt;  // userPromptSubmitted modifiedPrompt
  bool block = false;                         // {"decision":"block"} (Stop, UserPromptSubmit)
  std::optional<std::string> block_reason;
};

struct Outcome {
  bool tool_runs = true;    // preToolUse: false on a deny
  bool blocked = false;     // preToolUse deny; the prompt dropped; Stop's block (another turn)
  std::optional<std::string> model_text;         // what the model reads instead of the result
  std::vector<std::string> additional_contexts;  // texts that reach the model's input
  std::optional<std::string> tool_result_append;  // postToolUse context, appended to the result
  std::optional<nlohmann::json> updated_args;
  std::vector<std::string> notices;  // what the CLI prints on stderr (`! …`)
};

// The payload a hook of `format` gets for `event`, derived from `payload` (either format's shape;
// `given` is the format it is in). permissionRequest is native in both formats (CPM p-baseline).
// Compact, keys in the CLI's order (fixtures/copilot/1.0.102), no newline.
// Under an older release's rules (cp::Rules, a version profile) its Claude-style tool names.
std::string stdin_for(const std::string& canonical_event, const nlohmann::ordered_json& payload,
                      cp::Format given, cp::Format format, const cp::Rules& rules = {});

// The hook environment (CPM c-baseline, p-baseline): the CLI's own less its provider variables,
// plus COPILOT_CLI=1, COPILOT_HOOK_DIR, COPILOT_PROJECT_DIR, CLAUDE_PROJECT_DIR, the version, the
// git safety settings, the entry's `env`.
std::map<std::string, std::string> hook_environment(const cp::HookHandler& h,
                                                    const std::string& project,
                                                    std::map<std::string, std::string> base,
                                                    const cp::Rules& rules = {});

proc::SpawnRequest spawn_request(const cp::HookHandler& h, const std::string& input,
                                 const std::string& project,
                                 const std::map<std::string, std::string>& env);
HookRun hook_run(const cp::HookHandler& h, const proc::SpawnResult& result);

// One run read as the CLI reads it for the event, in the handler's format (pure), under a
// release's rules (default 1.0.102's).
Reading read_run(const std::string& canonical_event, cp::Format format, const HookRun& run,
                 const cp::Rules& rules = {});

struct PlanRun {
  std::vector<HookRun> runs;  // the hooks that ran (a deny stops the later ones)
  std::vector<Reading> readings;
  Outcome outcome;
};
// Runs the planned handlers one after another (CPM c-pre-allow-then-deny, src-order), each with
// the payload of its format, stopping after a preToolUse deny (CPM c-pre-deny-then-second).
PlanRun run_plan(const std::vector<cp::HookHandler>& plan, const std::string& event,
                 const nlohmann::json& payload, cp::Format given, const std::string& raw_payload,
                 const std::string& project, const std::map<std::string, std::string>& base_env,
                 proc::Spawner* spawner = nullptr, const cp::Rules& rules = {});

nlohmann::json outcome_json(const Outcome& o);
// {"loaded":[…],"results":[…],"outcome":{…}}: the `hostemu copilot run` report.
nlohmann::json report_json(const std::vector<cp::HookHandler>& plan, const PlanRun& run);

}  // namespace pinta::emu::copilot
