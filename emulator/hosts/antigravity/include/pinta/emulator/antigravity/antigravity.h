// File: pinta/emulator/antigravity/antigravity.h
// Antigravity (agy) host emulator over the host facts of pinta/hosts/antigravity/antigravity.h
// (profiles, events, hooks.json loader, matchers): the planner (which commands agy would run for
// an event and tool), spawning (§5), reply interpretation (§6-§7), payload generation (§8) and
// `fire` (plan + spawn + interpret).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "pinta/common/process.h"
#include "pinta/common/result.h"
#include "pinta/hosts/antigravity/antigravity.h"

namespace pinta::emu::agy {

// The pure host facts (profiles, events, the hooks.json loader, matchers, the planner and the
// per-profile lint report) live in hosts/antigravity (namespace pinta::hosts::agy); the emulator's
// names reach them unchanged.
using namespace pinta::hosts::agy;  // NOLINT(google-build-using-namespace)

// ---- Running a planned hook (reference §5) --------------------------------------------------

// The name the conformance suite codes against.
using PlannedHook = PlannedRun;

// How `profile` would spawn `hook` with `payload_line` on stdin: argv (sh -c or whitespace split),
// cwd, stdin closed or left open, timeout (seconds) with a SIGKILL. env: nullopt inherits this
// process's environment (agy's hooks inherit agy's, §5.3); tests pass an explicit one.
pinta::proc::SpawnRequest spawn_request_for(
    const Profile& profile, const PlannedHook& hook, const std::string& payload_line,
    const std::optional<std::map<std::string, std::string>>& env = std::nullopt);

// ---- Reading replies (reference §6-§7) ------------------------------------------------------

// What a hook process did, as the host sees it.
struct HookReply {
  std::string stdout_text, stderr_text;
  std::optional<int> exit_code;  // nullopt: killed by a signal or never started
  bool timed_out = false;
  int term_signal = 0;
  bool spawn_failed = false;  // the command could not be started (split mode: not found)
  std::string spawn_error;
};
HookReply reply_from(const pinta::proc::SpawnResult& r);

// The host's effect of one reply or of all hooks on an event.
// kind: PreToolUse — allowed | no_opinion | denied | asked | tool_failed | cli_exited;
//       Stop — continued | stopped; PostInvocation — terminated | force_continued;
//       lifecycle events — injected | no_opinion; any non-tool event — hook_failed (logged only);
//       PreInvocation failures per profile.preinvocation_failure — hook_failed | retry_loop (agy
//       re-runs the invocation without end) | cli_exited; any event under a profile whose
//       hooks_run is false — hooks_not_run (fire only: nothing was spawned).
struct Effect {
  std::string kind;
  std::string message;        // deny message / error text / continuation reason
  nlohmann::json args_after;  // PreToolUse: tool args after overwrite (else null)
  nlohmann::json injected_steps = nlohmann::json::array();
  nlohmann::json permission_overrides = nlohmann::json::array();
  std::string decision;                  // the raw decision string, if any
  std::string hook_id;                   // the hook that decided (empty: none / aggregate default)
  std::vector<std::string> assumptions;  // profile switch names this effect relied on
};

// Context a reply is read in (defaults: a lone hook, first continuation, interactive CLI).
struct ReplyContext {
  std::string hook_id = "jsonhook__hook_PreToolUse_0_0";
  std::string tool;            // PreToolUse/PostToolUse tool name (headless rule)
  int stop_continuations = 0;  // consecutive Stop continuations so far (cap, §7.4)
  bool headless = false;       // `agy -p`: prompts cannot be answered (§6.2, #1053)
  bool prior_grant = false;    // deny_unless_prior_grant: the resource was granted before
  bool permission_review = false;  // toolPermission=request-review: agy reviews every call
};

Effect interpret_reply(const Profile& profile, Event event, const HookReply& reply,
                       const nlohmann::json& original_args);
Effect interpret_reply(const Profile& profile, Event event, const HookReply& reply,
                       const nlohmann::json& original_args, const ReplyContext& ctx);
// Folds per-hook effects (in run order) into the event's effect (§7.2 assumptions).
Effect aggregate(const Profile& profile, Event event, const std::vector<Effect>& per_hook,
                 const nlohmann::json& original_args, const ReplyContext& ctx = {});
nlohmann::json effect_to_json(const Effect& e);

// ---- Payloads (reference §8) ----------------------------------------------------------------

struct PayloadOptions {
  std::string home = "/home/user";
  std::string conversation_id = "3f6c2b9e-8d41-4a7b-9c1e-5a2d7f0b6e13";
  std::vector<std::string> workspace_paths;  // empty: no workspace (observed `[]`)
  std::string model_name = "auto";
  std::string tool = "run_command";
  nlohmann::json args;          // null: default_tool_args(tool)
  bool tool_call_null = false;  // PostToolUse on a non-tool step (OBS 1.0.5)
  int step_idx = 3;
  std::string error;  // PostToolUse / Stop error text
  int invocation_num = 0;
  int initial_num_steps = 0;
  int execution_num = 0;
  std::string termination_reason;  // empty: the profile's default
  bool fully_idle = true;
};
// The stdin object agy would send: protojson style (camelCase, zero values present, absent
// messages null, no event-name field).
nlohmann::json make_payload(const Profile& profile, Event event, const PayloadOptions& options);
// One line as written to the hook's stdin (compact; newline per profile).
std::string payload_line(const Profile& profile, const nlohmann::json& payload);
// Observed args for a tool (§8 "Args keys seen").
nlohmann::json default_tool_args(const std::string& tool);

// ---- fire: plan + spawn + interpret ---------------------------------------------------------

struct HookRunDetail {
  PlannedHook planned;
  std::string stdin_line;
  HookReply reply;
  Effect effect;
};
struct FireRequest {
  PlanRequest plan;
  nlohmann::json payload;  // the event's payload (toolCall.args updated between hooks)
  ReplyContext context;
  std::optional<std::map<std::string, std::string>> env;  // nullopt: inherit
};
struct FireResult {
  std::string profile;
  Plan plan;
  Effect effect;
  std::vector<pinta::proc::SpawnResult> runs;
  std::vector<HookRunDetail> hooks;
};
FireResult fire(const Profile& profile, const FireRequest& request, pinta::proc::Spawner& spawner);
nlohmann::json fire_result_to_json(const FireResult& r);

// ---- docs -----------------------------------------------------------------------------------

// docs/hosts/antigravity.md: per switch, the value in each profile and its evidence.
std::string render_docs(const std::vector<Profile>& profiles);

}  // namespace pinta::emu::agy
