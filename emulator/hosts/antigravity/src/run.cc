// Spawning planned hooks (shared/reference/antigravity-hooks.md §5) and `fire`: plan, spawn each
// hook in order with the event's payload, read the replies, fold them into one effect.
#include <csignal>

#include "pinta/emulator/antigravity/antigravity.h"

namespace pinta::emu::agy {

using nlohmann::json;

pinta::proc::SpawnRequest spawn_request_for(
    const Profile& profile, const PlannedHook& hook, const std::string& payload_line,
    const std::optional<std::map<std::string, std::string>>& env) {
  pinta::proc::SpawnRequest rq;
  rq.argv = hook.argv;  // §5.1: {"sh","-c",command} or the whitespace split (profile `shell`)
  if (rq.argv.empty()) rq.argv = {"sh", "-c", hook.command};
  rq.cwd = hook.cwd;  // §5.2 (profile `cwd`, resolved by the planner)
  rq.env = env;       // §5.3: inherited
  rq.stdin_data = payload_line;
  // §5.4: the CLI closes stdin; the app/IDE leaves it open (clawd-on-desk #568).
  rq.stdin_mode = profile.stdin_mode == "open" ? pinta::proc::StdinMode::kKeepOpen
                                               : pinta::proc::StdinMode::kCloseAfterWrite;
  int32_t secs = hook.timeout_seconds > 0 ? hook.timeout_seconds : profile.timeout_default_seconds;
  rq.timeout = std::chrono::seconds(secs);
  // §5.5: expiry handling Unknown; profile `timeout_kill`.
  rq.timeout_signal = SIGKILL;
  rq.new_process_group = true;
  rq.signal_group = profile.timeout_kill == "group-sigkill";
  // Profile `hook_signals`: agy's hook runner is Go (reference §1.2, §2.1: its log lines name its
  // .go files).
  rq.child_signals = profile.hook_signals == "node" ? pinta::proc::SpawnRequest::ChildSignals::kNode
                                                    : pinta::proc::SpawnRequest::ChildSignals::kGo;
  rq.kill_after = std::chrono::milliseconds(0);
  rq.hard_limit = std::chrono::milliseconds(static_cast<int64_t>(secs) * 1000 + 10000);
  return rq;
}

FireResult fire(const Profile& profile, const FireRequest& request, pinta::proc::Spawner& spawner) {
  FireResult out;
  out.profile = profile.name;
  out.plan = plan(profile, request.plan);
  const Event ev = request.plan.event;
  json payload = request.payload;
  json original_args = json::object();
  if (payload.is_object() && payload.contains("toolCall") && payload["toolCall"].is_object() &&
      payload["toolCall"].contains("args") && payload["toolCall"]["args"].is_object())
    original_args = payload["toolCall"]["args"];
  json args = original_args;
  // antigravity-cli#1008: the hooks are loaded and registered (the plan) but no process is ever
  // spawned and nothing is reported; the event proceeds as if no hook were configured.
  if (auto why = hooks_not_run_reason(profile)) {
    out.effect.kind = "hooks_not_run";
    out.effect.message =
        *why + " (" + std::to_string(out.plan.run.size()) + " registered for this event)";
    out.effect.args_after = ev == Event::kPreToolUse ? original_args : json();
    out.effect.assumptions.push_back("hooks_run");
    return out;
  }
  std::vector<Effect> effects;
  for (const auto& planned : out.plan.run) {
    HookRunDetail d;
    d.planned = planned;
    if (ev == Event::kPreToolUse && profile.overwrite_chaining == "accumulate" &&
        payload.is_object() && payload.contains("toolCall") && payload["toolCall"].is_object())
      payload["toolCall"]["args"] = args;  // ASSUMPTION (§7.2): the merged call feeds the next hook
    d.stdin_line = payload_line(profile, payload);
    auto rq = spawn_request_for(profile, planned, d.stdin_line, request.env);
    if (ev == Event::kStop && profile.stop_stdin == "none") {
      rq.stdin_data.clear();
      rq.stdin_mode = pinta::proc::StdinMode::kNone;
      d.stdin_line.clear();
    }
    auto res = spawner.run(rq);
    d.reply = reply_from(res);
    ReplyContext ctx = request.context;
    ctx.hook_id = planned.id;
    ctx.headless = false;  // applied once, on the aggregate
    d.effect = interpret_reply(profile, ev, d.reply, ev == Event::kPreToolUse ? args : json(), ctx);
    out.runs.push_back(std::move(res));
    effects.push_back(d.effect);
    const std::string kind = d.effect.kind;
    if (ev == Event::kPreToolUse && kind != "denied" && kind != "tool_failed" &&
        kind != "cli_exited" && profile.overwrite_chaining == "accumulate" &&
        d.effect.args_after.is_object())
      args = d.effect.args_after;
    out.hooks.push_back(std::move(d));
    // ASSUMPTION (§7.2): the first deny/failure ends the PreToolUse chain; the first Stop
    // continue short-circuits (SDK hook_runner.py analogue); a cli exit ends everything.
    if (kind == "cli_exited" || kind == "retry_loop") break;
    if (ev == Event::kPreToolUse && (kind == "denied" || kind == "tool_failed")) break;
    if (ev == Event::kStop && kind == "continued") break;
  }
  ReplyContext actx = request.context;
  actx.hook_id.clear();
  out.effect = aggregate(profile, ev, effects, original_args, actx);
  return out;
}

json fire_result_to_json(const FireResult& r) {
  json j;
  j["profile"] = r.profile;
  j["hooksRun"] = r.plan.hooks_run;
  j["effect"] = effect_to_json(r.effect);
  j["files"] = plan_to_json(r.plan)["files"];
  j["hooks"] = json::array();
  for (const auto& h : r.hooks) {
    json hj;
    hj["hook"] = h.planned.hook;
    hj["id"] = h.planned.id;
    hj["command"] = h.planned.command;
    hj["argv"] = h.planned.argv;
    hj["cwd"] = h.planned.cwd;
    hj["timeoutSeconds"] = h.planned.timeout_seconds;
    hj["stdin"] = h.stdin_line;
    hj["stdout"] = h.reply.stdout_text;
    hj["stderr"] = h.reply.stderr_text;
    hj["exitCode"] = h.reply.exit_code ? json(*h.reply.exit_code) : json(nullptr);
    hj["timedOut"] = h.reply.timed_out;
    hj["termSignal"] = h.reply.term_signal;
    hj["spawnError"] = h.reply.spawn_error;
    hj["effect"] = effect_to_json(h.effect);
    j["hooks"].push_back(hj);
  }
  return j;
}

}  // namespace pinta::emu::agy
