// File: pinta/emulator/claude/claude.h
// Running Claude Code 2.1.332 hooks: the hook environment, spawning (every matching command at
// once, each with its own timeout), reading each reply and the outcome for the event: what the
// model is told, the permission decision, continue/stopReason, systemMessage, additional context,
// updated tool input. Claude Code's print mode (`claude -p`) is the emulated surface: an "ask"
// decision cannot be answered there and ends as a denial. Rules and evidence:
// docs/hosts/claude-code-2.1.md; the scenarios in emulator/hosts/claude/test/scenarios/ run on the
// real CLI and on this emulator with no difference.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "pinta/common/process.h"
#include "pinta/hosts/claude/claude.h"

namespace pinta::emu::claude {

struct HookRun {
  std::string command;
  int exit = 0;            // exit status; a hook that timed out or died from a signal reports 1
  std::string stdout_text, stderr_text;
  bool timed_out = false;
  bool reply_rejected = false;  // its JSON reply failed the host's schema: nothing in it is read
  bool no_verdict = false;  // not started, killed, timed out, or its reply rejected (not a plain
                            // non-zero exit)
  long long finished_us = 0;  // spawn → exit; the host reads replies in the order hooks finish
};

struct Outcome {
  bool blocked = false;    // PreToolUse: the tool does not run; UserPromptSubmit: the prompt is
                           // dropped; Stop/SubagentStop: the model is sent back to work;
                           // PostToolUse(/Failure): a blocking error is reported to the model
  std::optional<std::string> tool_result;          // the tool_result text replacing the tool's
  std::optional<std::string> permission_decision;  // allow | deny | ask
  bool continue_ = true;
  std::optional<std::string> stop_reason;
  std::optional<std::string> system_message;       // each hook's, joined by "\n" in plan order
  std::vector<std::string> additional_context;     // raw additionalContext values, plan order
  std::optional<nlohmann::json> updated_input;
  // Every text the model is sent for this event, rendered as 2.1.332 renders it (the tool_result
  // above, "<Hook> hook additional context: …", "… hook blocking error from command: …", ...).
  std::vector<std::string> model_context;
  // Warnings the CLI shows the user for this event (PreToolUse: one per hook that gave no verdict).
  std::vector<std::string> warnings;
  std::vector<std::string> warned_commands;  // the hook behind each warning
};

// real (pre-exit127-twice, pre-timeout-twice, pre-badreply-twice, pre-warn-once-per-session): a
// hook warns of no verdict once per session; the same hook failing on a later tool call is
// silent, another hook still warns. decide() judges one event; this drops the warnings of hooks
// that already warned in the payload's session and records the new ones (in the host's own
// per-session directory, /tmp/claude-<uid>/<project as a name>/<session>/). `hostemu claude run`
// applies it.
void warn_once_per_session(Outcome& o, const std::string& project, const nlohmann::json& payload);

// The hook process environment: this process's environment plus what 2.1.332 adds
// (CLAUDE_PROJECT_DIR, CLAUDECODE=1, CLAUDE_CODE_ENTRYPOINT, CLAUDE_CODE_SESSION_ID from the
// payload's session_id).
std::map<std::string, std::string> hook_environment(const std::string& project,
                                                    const nlohmann::json& payload);
// The same additions over a given base environment (the conformance suite's hermetic one).
std::map<std::string, std::string> hook_environment(const std::string& project,
                                                    const nlohmann::json& payload,
                                                    std::map<std::string, std::string> base);

// How 2.1.332 spawns one planned command: /bin/sh -c COMMAND in cwd, `input` (the payload's bytes,
// hosts::claude::stdin_bytes) on stdin then EOF, SIGTERM to the process group at its timeout. run_hooks
// runs these; a caller with its own spawner (HostRunner) runs one and reads it with hook_run.
proc::SpawnRequest spawn_request(const hosts::claude::HookCommand& h, const std::string& input,
                                 const std::string& cwd,
                                 const std::map<std::string, std::string>& env);
// One spawn's result as the host records it (output decoded as UTF-8, a timeout or a signal
// death reported as exit 1).
HookRun hook_run(const hosts::claude::HookCommand& h, const proc::SpawnResult& result);
// A JSON reply naming another event in hookSpecificOutput.hookEventName is rejected before it is
// read: the run becomes exit 1 with the host's error text on stderr (run_plan applies it).
void reject_wrong_event(const std::string& event, HookRun& run);
// A JSON reply (at any exit but 2) outside the host's reply schema (`decision:"deny"`, a
// `continue` that is not a boolean, an unknown permissionDecision, …) is not read: the run keeps
// its exit and stdout, is marked reply_rejected, and its stderr becomes the host's
// "Hook JSON output validation failed — …" text.
void reject_invalid_reply(HookRun& run);
// Both checks as the host applies them to a finished run: the schema first, then the event name
// (run_plan and the conformance runner apply it before decide).
void reject_unreadable(const std::string& event, HookRun& run);

// Runs every planned command concurrently (/bin/sh -c COMMAND, cwd = project, `input` on stdin,
// then EOF) and waits for all. Results in plan order.
std::vector<HookRun> run_hooks(const std::vector<hosts::claude::HookCommand>& plan,
                               const std::string& input, const std::string& cwd,
                               const std::map<std::string, std::string>& env);

// Whether the host reads this stdout (of an exit-0 run) as a JSON reply: a JSON object once
// whitespace is trimmed; anything else is plain text.
bool is_json_reply(const std::string& stdout_text);

// The host's reading of the runs for one event (pure; no spawning).
Outcome decide(const std::string& event, const nlohmann::json& payload,
               const std::vector<hosts::claude::HookCommand>& plan,
               const std::vector<HookRun>& runs);

struct PlanRun {
  std::vector<HookRun> runs;
  Outcome outcome;
};
// The hooks' stdin is hosts::claude::stdin_bytes(payload); the second form is given the bytes
// (`hostemu claude run` keeps the order of the payload it was given).
PlanRun run_plan(const std::vector<hosts::claude::HookCommand>& plan, const std::string& event,
                 const nlohmann::json& payload, const std::string& cwd,
                 const std::map<std::string, std::string>& env);
PlanRun run_plan(const std::vector<hosts::claude::HookCommand>& plan, const std::string& event,
                 const nlohmann::json& payload, const std::string& input, const std::string& cwd,
                 const std::map<std::string, std::string>& env);

// How the host reports one run (stream-json hook_response "outcome"): "success", "error" or
// "cancelled" (past its timeout).
std::string hook_outcome(const HookRun& run);

// {"loaded":[…],"results":[…],"outcome":{…}}: the `hostemu claude run` report.
nlohmann::json report_json(const std::vector<hosts::claude::HookCommand>& plan, const PlanRun& run);

}  // namespace pinta::emu::claude
