// File: pinta/emulator/codex/codex.h
// Running OpenAI Codex CLI 0.171 hooks (and, by version profile, those of the releases since
// 0.124): spawning (every matching command at once, each with its own timeout in whole seconds),
// reading each run as the event's reply parser reads it (strict: a reply outside the event's
// reply struct is a Failed run and the host goes on as without it) and the outcome for the event:
// whether the tool runs, the text the model reads, context, updated input, the failure texts
// Codex records. Host data (events, config layers, trust, matchers, planner, version profiles) is
// pinta::hosts::codex. CX = shared/reference/real-hosts.md (Codex 0.171.0, measured); CXSRC =
// openai/codex codex-rs/hooks/src/engine/*.rs, events/*.rs, schema.rs and
// codex-rs/core/src/hook_runtime.rs (the hook engine). Every rule with its evidence: run.cc.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "pinta/common/process.h"
#include "pinta/hosts/codex/codex.h"

namespace pinta::emu::codex {

// One spawn as Codex records it (CXSRC command_runner.rs CommandRunResult).
struct HookRun {
  std::string command;
  std::optional<int> exit_code;        // nullopt: killed by a signal, timed out or not started
  std::string stdout_text, stderr_text;  // decoded as UTF-8, invalid bytes as U+FFFD
  std::optional<std::string> error;    // "hook timed out after Ns", a spawn failure
  bool timed_out = false;
  long long finished_us = 0;           // spawn → done; replies are ranked by completion order
};

// One entry of the run's record (CXSRC HookOutputEntryKind).
struct Entry {
  std::string kind;  // warning | error | feedback | context | stop
  std::string text;
};

// One run read as the event's parser reads it (CXSRC events/<event>.rs parse_completed).
struct Reading {
  std::string status = "completed";  // completed | blocked | failed | stopped (HookRunStatus)
  // How stdout was read: "none" (exit ≠ 0 or blank), "json" (a reply of the event's shape),
  // "invalid" (looks like JSON but is not one: Failed), "text" (plain text: ignored, or context on
  // SessionStart / SubagentStart / UserPromptSubmit).
  std::string stdout_read = "none";
  std::vector<Entry> entries;
  bool should_block = false, should_stop = false;
  std::optional<std::string> block_reason, stop_reason;
  std::vector<std::string> contexts;  // additional context for the model
  std::vector<std::string> feedback;  // PostToolUse: feedback for the model
  std::optional<nlohmann::json> updated_input;        // PreToolUse allow + updatedInput
  std::optional<std::string> permission;              // PermissionRequest: allow | deny
  std::optional<std::string> permission_message;      // its deny message
  std::optional<std::string> invalid_problem;  // why the reply fails Codex's reply struct
};

struct Outcome {
  // PreToolUse: false when a hook blocked; PermissionRequest: false on a deny. Other events: true.
  bool tool_runs = true;
  bool blocked = false;  // PreToolUse/PermissionRequest denied, UserPromptSubmit blocked (the
                         // prompt dropped), Stop/SubagentStop blocked (Codex keeps working),
                         // PostToolUse blocked (the reason fed back)
  bool stopped = false;  // continue:false honoured: the turn / session stops
  std::optional<std::string> block_reason, stop_reason;
  // The text the model reads for this event: PreToolUse's block message (CX, exact: it replaces
  // the tool's output); PostToolUse's feedback and Stop/SubagentStop's continuation prompt as
  // CXSRC joins them (the framing core puts around them is not measured). A PermissionRequest
  // deny reaches the model as the tool's rejection with permission_message (framing not
  // measured either), so it has no model_text.
  std::optional<std::string> model_text;
  std::optional<std::string> permission_decision;  // PermissionRequest: allow | deny
  std::optional<std::string> permission_message;
  std::vector<std::string> additional_contexts;
  std::optional<nlohmann::json> updated_input;
  std::vector<std::string> failures;  // each Failed run's error entry texts, plan order
  // PreToolUse under a release with the deny race (Rules::deny_race), a block with another
  // synchronous hook beside it: the release ran the call in some such runs, so whether it runs is
  // not decided (report: "toolRuns": null, "denyMayBeLost": true).
  bool deny_may_be_lost = false;
};

// The hook process environment: the parent's, unchanged for user and project hooks (CXSRC
// command_runner.rs build_command: handler.env only); plugin hooks also get PLUGIN_ROOT and
// CLAUDE_PLUGIN_ROOT (CXSRC discovery.rs).
std::map<std::string, std::string> hook_environment(const hosts::codex::HookHandler& h,
                                                    std::map<std::string, std::string> base);

// stdin as Codex writes it: one compact JSON object in its input struct's field order (known
// fields first, then any other in the given order), no newline, then EOF.
std::string stdin_json(const std::string& event, const nlohmann::ordered_json& payload);

// How Codex spawns one handler: /bin/bash -c COMMAND in cwd, stdin then EOF, SIGKILL to the
// child at its timeout (whole seconds), which covers the exit and both pipes closing.
proc::SpawnRequest spawn_request(const hosts::codex::HookHandler& h, const std::string& input,
                                 const std::string& cwd,
                                 const std::map<std::string, std::string>& env);
HookRun hook_run(const hosts::codex::HookHandler& h, const proc::SpawnResult& result);

// One finished run read as the event's parser reads it (pure), under a release's rules (its
// version profile's switches; the default: 0.171.0's).
Reading read_run(const std::string& event, const HookRun& run,
                 const hosts::codex::Rules& rules = hosts::codex::Rules{});

// The event's outcome from every run's reading (plan order; `runs` for the completion order).
Outcome decide(const std::string& event, const nlohmann::json& payload,
               const std::vector<HookRun>& runs, const std::vector<Reading>& readings);

struct PlanRun {
  std::vector<HookRun> runs;
  std::vector<Reading> readings;
  Outcome outcome;
};
// Runs every planned handler concurrently, waits for all, reads them, decides. `payload` as the
// host builds it (stdin_json writes it).
PlanRun run_plan(const std::vector<hosts::codex::HookHandler>& plan, const std::string& event,
                 const nlohmann::ordered_json& payload, const std::string& cwd,
                 const std::map<std::string, std::string>& base_env,
                 const hosts::codex::Rules& rules = hosts::codex::Rules{});

// {"loaded":[…],"results":[…],"outcome":{…}}: the `hostemu codex run` report.
nlohmann::json report_json(const std::vector<hosts::codex::HookHandler>& plan, const PlanRun& run);
nlohmann::json outcome_json(const Outcome& o);

}  // namespace pinta::emu::codex
