// A scripted headless session (§6 of gemini-cli-0.61-hooks.md): for each scripted host event the
// planned hooks run (parallel or sequential with input chaining, core hookRunner.js), their outputs
// are aggregated (hookAggregator.js) and the event's effect is applied the way the 0.61.0 CLI does
// (scheduler/hook-utils.js evaluateBeforeToolHook, core/coreToolHookTriggers.js, core/client.js,
// bundle nonInteractiveCli.ts / gemini.tsx), with the lines the CLI prints on stderr.
#include <future>

#include "pinta/emulator/gemini/gemini.h"

namespace pinta::emu::gemini {
namespace {

std::string display_name(const LoadedHook& h) {
  return h.spec.name.empty() ? h.spec.command : h.spec.name;
}

struct EventRun {
  std::vector<HookRunResult> results;
  std::optional<ojson> final_output;
};

EventRun run_plan(const Plan& plan, std::string_view event, const ojson& input,
                  const RunContext& ctx) {
  EventRun er;
  if (plan.sequential) {
    ojson cur = input;
    for (const auto& h : plan.hooks) {
      auto r = run_hook(h.spec, event, cur, ctx);
      if (r.success && r.output) cur = apply_output_to_input(cur, *r.output, event);
      er.results.push_back(std::move(r));
    }
  } else {
    std::vector<std::future<HookRunResult>> fs;
    for (const auto& h : plan.hooks)
      fs.push_back(std::async(std::launch::async,
                              [&, spec = h.spec] { return run_hook(spec, event, input, ctx); }));
    for (auto& f : fs) er.results.push_back(f.get());  // plan order, not finish order
  }
  std::vector<ojson> outs;
  for (const auto& r : er.results)
    if (r.output) outs.push_back(*r.output);
  er.final_output = aggregate(event, outs);
  return er;
}

}  // namespace

Result<ojson> run_session(const std::string& home, const std::string& workspace,
                          const ojson& script, const RunContext& base) {
  if (!script.is_object() || !script.contains("events") || !script["events"].is_array())
    return make_error(ErrorCode::kInvalidArgument, "script needs an \"events\" array");
  LoadOptions lo;
  lo.home = home;
  lo.workspace = workspace;
  if (base.env) {
    std::map<std::string, std::string> m(base.env->begin(), base.env->end());
    lo.cli_env = m;
  }
  if (script.contains("trusted") && script["trusted"].is_boolean())
    lo.trusted = script["trusted"].get<bool>();
  if (script.contains("system_settings_path"))
    lo.system_settings_path = script["system_settings_path"].get<std::string>();
  else
    lo.system_settings_path = home + "/.no-system-settings.json";
  lo.system_defaults_path = home + "/.no-system-defaults.json";
  LoadResult loaded = load_hooks(lo);

  ojson tr = ojson::object();
  tr["host"] = "gemini-cli";
  tr["version"] = std::string(kHostVersion);
  ojson load = ojson::object();
  load["trusted"] = loaded.trusted;
  load["hooks_enabled"] = loaded.hooks_enabled;
  load["warnings"] = loaded.warnings;
  tr["load"] = load;
  ojson stderr_lines = ojson::array();
  ojson ran_order = ojson::array();
  if (loaded.fatal_exit) {
    tr["exit_code"] = *loaded.fatal_exit;
    stderr_lines.push_back(loaded.fatal_message);
    tr["stderr"] = stderr_lines;
    tr["events"] = ojson::array();
    tr["ran"] = ran_order;
    tr["stopped"] = true;
    return tr;
  }
  RunContext ctx = base;
  ctx.cwd = workspace;
  ctx.trusted_folder = loaded.trusted;
  const std::string session_id = script.value("session_id", "00000000-0000-4000-8000-000000000001");
  if (ctx.plans_dir.empty()) ctx.plans_dir = home + "/.gemini/tmp/session/" + session_id + "/plans";
  std::string prompt = script.value("prompt", "Create test.txt");

  ojson events = ojson::array();
  bool stopped = false;
  bool last_tool_blocked = false;
  ojson last_tool_input;
  for (const auto& ev : script["events"]) {
    std::string name = ev.value("event", "");
    if (!is_event_name(name))
      return make_error(ErrorCode::kInvalidArgument, "unknown event in script: " + name);
    ojson row = ojson::object();
    row["event"] = name;
    if (stopped && name != "SessionEnd") {
      row["skipped"] = "run stopped";
      events.push_back(row);
      continue;
    }
    if (name == "AfterTool" && last_tool_blocked) {
      row["skipped"] = "tool blocked";
      events.push_back(row);
      continue;
    }
    PayloadOptions po;
    po.session_id = session_id;
    po.cwd = workspace;
    po.prompt = prompt;
    po.tool_name = ev.value("tool_name", "write_file");
    if (ev.contains("tool_input")) po.tool_input = ev["tool_input"];
    if (name == "AfterTool" && !last_tool_input.is_null()) po.tool_input = last_tool_input;
    if (ev.contains("tool_response")) po.tool_response = ev["tool_response"];
    po.prompt_response = ev.value("prompt_response", "");
    po.stop_hook_active = ev.value("stop_hook_active", false);
    po.source = ev.value("source", "startup");
    po.reason = ev.value("reason", "exit");
    po.trigger = ev.value("trigger", "auto");
    ojson input = make_payload(name, po);
    PlanContext pc;
    if (name == "BeforeTool" || name == "AfterTool") pc.tool_name = po.tool_name;
    if (name == "SessionStart") pc.trigger = po.source;
    if (name == "SessionEnd") pc.trigger = po.reason;
    if (name == "PreCompress") pc.trigger = po.trigger;
    Plan plan = plan_event(loaded, name, pc);
    if (plan.error) stderr_lines.push_back("Hook event bus error for " + name + ": " + *plan.error);
    ojson hooks = ojson::array();
    int order = 0;
    for (const auto& h : plan.hooks) {
      ojson hj = ojson::object();
      hj["order"] = order++;
      hj["source"] = h.source;
      hj["origin"] = h.origin;
      hj["name"] = h.spec.name;
      hj["command"] = h.spec.command;
      hooks.push_back(hj);
      ran_order.push_back(name + ":" + display_name(h));
    }
    row["sequential"] = plan.sequential;
    row["hooks"] = hooks;
    EventRun er = run_plan(plan, name, input, ctx);
    ojson results = ojson::array();
    std::vector<std::string> failed;
    for (size_t i = 0; i < er.results.size(); ++i) {
      auto j = run_result_json(er.results[i]);
      j["stdout"] = er.results[i].stdout_text;
      j["stderr"] = er.results[i].stderr_text;
      results.push_back(j);
      if (!er.results[i].success) failed.push_back(display_name(plan.hooks[i]));
    }
    row["results"] = results;
    // hookEventHandler.js logHookExecution: failure warnings (§4.6).
    if (!failed.empty()) {
      std::string names;
      for (size_t i = 0; i < failed.size(); ++i) names += (i ? ", " : "") + failed[i];
      stderr_lines.push_back("Hook(s) [" + names + "] failed for event " + name +
                             ". Press F12 to see the debug drawer for more details.");
      for (const auto& r : er.results)
        if (r.error) stderr_lines.push_back("Hook execution error: " + *r.error);
    }
    row["aggregated"] = er.final_output ? *er.final_output : ojson(nullptr);
    ojson effect = ojson::object();
    if (er.final_output) {
      const ojson& out = *er.final_output;
      bool cont_false =
          out.contains("continue") && out["continue"].is_boolean() && !out["continue"].get<bool>();
      std::string sys = out.contains("systemMessage") && out["systemMessage"].is_string()
                            ? out["systemMessage"].get<std::string>()
                            : "";
      bool suppress = out.contains("suppressOutput") && out["suppressOutput"].is_boolean() &&
                      out["suppressOutput"].get<bool>();
      if (name == "SessionStart" && !sys.empty()) stderr_lines.push_back(sys);
      if (!sys.empty() && !suppress) stderr_lines.push_back("Hook system message: " + sys);
      auto ctxt = additional_context(out);
      if (name == "BeforeTool") {
        if (cont_false) {
          std::string msg = "Agent execution stopped by hook: " + effective_reason(out);
          effect["tool"] = "stopped";
          effect["tool_error"] = msg;
          stderr_lines.push_back("Error executing tool " + po.tool_name + ": " + msg);
          stderr_lines.push_back("Agent execution stopped: " + msg);
          stopped = true;
          last_tool_blocked = true;
        } else if (is_blocking(out)) {
          std::string msg = "Tool execution blocked: " + effective_reason(out);
          effect["tool"] = "blocked";
          effect["tool_error"] = msg;
          effect["model_sees"] = ojson::object({{"error", msg}});
          stderr_lines.push_back("Error executing tool " + po.tool_name + ": " + msg);
          last_tool_blocked = true;
        } else {
          last_tool_blocked = false;
          effect["tool"] = "ran";
          const ojson* hso =
              out.contains("hookSpecificOutput") ? &out["hookSpecificOutput"] : nullptr;
          if (hso && hso->is_object() && hso->contains("tool_input") &&
              (*hso)["tool_input"].is_object()) {
            effect["tool_input"] = (*hso)["tool_input"];  // replaces the arguments entirely
            last_tool_input = (*hso)["tool_input"];
          } else {
            last_tool_input = po.tool_input;
          }
        }
      } else if (name == "AfterTool") {
        if (cont_false) {
          std::string msg = "Agent execution stopped by hook: " + effective_reason(out);
          effect["tool_result"] = msg;
          stderr_lines.push_back("Error executing tool " + po.tool_name + ": " + msg);
          stderr_lines.push_back("Agent execution stopped: " + effective_reason(out));
          stopped = true;
        } else if (is_blocking(out)) {
          effect["tool_result"] = "Tool result blocked: " + effective_reason(out);
          effect["model_sees"] = ojson::object({{"error", effective_reason(out)}});
        } else if (ctxt) {
          effect["model_sees_appended"] = "\n\n<hook_context>" + *ctxt + "</hook_context>";
        }
      } else if (name == "BeforeAgent" || name == "AfterAgent" || name == "BeforeModel" ||
                 name == "AfterModel") {
        std::string shown = name == "BeforeModel"  ? effective_reason(out)
                            : js_trim(sys).empty() ? effective_reason(out)
                                                   : js_trim(sys);
        if (cont_false) {
          stderr_lines.push_back("Agent execution stopped: " + shown);
          effect["agent"] = "stopped";
          stopped = true;
        } else if (is_blocking(out)) {
          stderr_lines.push_back("[WARNING] Agent execution blocked: " + shown);
          effect["agent"] = "blocked";
          if (name == "AfterAgent") effect["next_prompt"] = effective_reason(out);
          if (name == "BeforeAgent") stopped = true;  // no model call for this prompt
        } else if (name == "BeforeAgent" && ctxt) {
          effect["model_sees_appended"] = "<hook_context>" + *ctxt + "</hook_context>";
        }
      } else if (name == "SessionStart" && ctxt) {
        effect["prompt_prefix"] = "<hook_context>" + *ctxt + "</hook_context>\n\n";
      }
    } else if (name == "BeforeTool") {
      effect["tool"] = "ran";
      last_tool_blocked = false;
      last_tool_input = po.tool_input;
    }
    row["effect"] = effect;
    events.push_back(row);
  }
  tr["events"] = events;
  tr["ran"] = ran_order;
  tr["stderr"] = stderr_lines;
  tr["stopped"] = stopped;
  tr["exit_code"] = 0;
  return tr;
}

}  // namespace pinta::emu::gemini
