// A scripted headless session (§6 of gemini-cli-0.61-hooks.md): for each scripted host event the
// planned hooks run (parallel or sequential with input chaining, core hookRunner.js), their outputs
// are aggregated (hookAggregator.js) and the event's effect is applied the way the 0.61.0 CLI does
// (scheduler/hook-utils.js evaluateBeforeToolHook, core/coreToolHookTriggers.js, core/client.js,
// bundle nonInteractiveCli.ts / gemini.tsx), with the lines the CLI prints on stderr.
//
// run_session plays the script in phases (class Session): start-up (the load and the start-up
// lines, session_startup.cc), the per-run payload values (the model's requests: session_model.cc),
// then per event: skip or refuse, payload, plan and hook runs, the merged answer's effect by event
// kind, and a BeforeTool's tool run (session_tools.cc).
#include <algorithm>
#include <future>
#include <regex>

#include "pinta/emulator/gemini/gemini.h"
#include "session_parts.h"

namespace pinta::emu::gemini {
namespace {

using namespace session_detail;  // NOLINT(google-build-using-namespace)

std::string display_name(const LoadedHook& h) {
  return h.spec.name.empty() ? h.spec.command : h.spec.name;
}

// The CLI's own record of one hook run: the gemini_cli.hook_call telemetry event
// (core hooks/hookEventHandler.js executeHooks → telemetry/types.js HookCallEvent, 0.61.0),
// with the attributes a local telemetry outfile carries when prompt logging is on (the default):
// hook_name is the hook's name or else its command, exit_code and hook_output are absent when
// undefined (timeout, spawn error), error is the error message. duration_ms, event.timestamp and
// the session ids are not reproduced (timing, random per run).
// hook_type is the configured type ("command" or "plugin", getHookTypeFromResult) and hook_input
// the event's input object, the same for every hook of the event (logHookExecution spreads the
// event's `input`, not the chained one a sequential hook got).
ojson hook_call_record(std::string_view event, const LoadedHook& h, const ojson& input,
                       const HookRunResult& r) {
  ojson c = ojson::object();
  c["event.name"] = "gemini_cli.hook_call";
  c["hook_event_name"] = std::string(event);
  c["hook_type"] = h.type;
  c["hook_name"] = display_name(h);
  c["hook_input"] = input;
  c["success"] = r.success;
  if (r.exit_code) c["exit_code"] = *r.exit_code;
  if (r.output) c["hook_output"] = *r.output;
  c["stdout"] = r.stdout_text;
  c["stderr"] = r.stderr_text;
  if (r.error) c["error"] = *r.error;
  return c;
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

// hookSpecificOutput[key] of an aggregated output, when hookSpecificOutput is an object holding
// it (nullptr otherwise).
const ojson* specific_output(const ojson& out, const char* key) {
  auto hso = out.find("hookSpecificOutput");
  if (hso == out.end() || !hso->is_object()) return nullptr;
  auto it = hso->find(key);
  return it == hso->end() ? nullptr : &*it;
}

// The fields of an event's aggregated output that every event reads.
struct Answer {
  const ojson& out;
  bool cont_false = false;  // continue: false
  std::string sys;          // systemMessage
  bool suppress = false;    // suppressOutput
  std::optional<std::string> ctxt;  // additionalContext, escaped
};

Answer read_answer(const ojson& out) {
  Answer a{out};
  a.cont_false =
      out.contains("continue") && out["continue"].is_boolean() && !out["continue"].get<bool>();
  a.sys = out.contains("systemMessage") && out["systemMessage"].is_string()
              ? out["systemMessage"].get<std::string>()
              : "";
  a.suppress = out.contains("suppressOutput") && out["suppressOutput"].is_boolean() &&
               out["suppressOutput"].get<bool>();
  return a;
}

// One headless run in progress: what it loaded, the transcript it builds, the state its events
// carry from one to the next. run_session drives it: start, then fire each scripted event.
class Session {
 public:
  Session(const std::string& home, const std::string& workspace, const ojson& script,
          const RunContext& base, bool has_turns, Switches sw)
      : home_(home), workspace_(workspace), script_(script), base_(base), has_turns_(has_turns),
        sw_(std::move(sw)) {}

  // Start-up: loads the hooks and prints the start-up lines; the transcript when the CLI exits
  // there (a fatal load), nullopt when the run goes on.
  std::optional<ojson> start();
  // The per-run values the events' payloads share (context, session id, transcript, history).
  void prepare();
  // Plays the scripted events in order (an AfterTool tail call inserts two), then the transcript.
  Result<ojson> play(ojson script_events);

 private:
  const char* skip_reason(const std::string& name, int iteration) const;
  bool tool_refused(const ojson& ev, const std::string& name, ojson& row);
  void fire(ojson& script_events, size_t idx, const ojson& ev, const std::string& name,
            int iteration, ojson& row);
  PayloadOptions payload_options(const ojson& ev, const std::string& name, int iteration);
  Plan plan_for(const std::string& name, const PayloadOptions& po, ojson& row);
  void record_results(const std::string& name, const Plan& plan, const ojson& input,
                      const EventRun& er, ojson& row);
  void flush_fail_lines();
  void tool_error_line(const std::string& tool, const std::string& msg);
  std::string tool_error(const ojson& out, const char* prefix) const;
  void apply_answer(ojson& script_events, size_t idx, const std::string& name, int iteration,
                    const PayloadOptions& po, const ojson& out, ojson& effect);
  void before_tool_effect(const PayloadOptions& po, const Answer& a, ojson& effect);
  void after_tool_effect(ojson& script_events, size_t idx, int iteration,
                         const PayloadOptions& po, const Answer& a, ojson& effect);
  void agent_effect(const std::string& name, int iteration, const PayloadOptions& po,
                    const Answer& a, ojson& effect);
  void agent_blocked(const std::string& name, int iteration, const Answer& a, ojson& effect);
  void run_tool(const PayloadOptions& po, ojson& effect);
  ojson transcript();

  const std::string& home_;
  const std::string& workspace_;
  const ojson& script_;
  const RunContext& base_;
  const bool has_turns_;
  const Switches sw_;
  bool run_tools_ = false;

  LoadResult loaded_;
  ojson tr_ = ojson::object();
  ojson stderr_lines_ = ojson::array();
  ojson ran_order_ = ojson::array();
  ojson hook_calls_ = ojson::array();  // gemini_cli.hook_call records, in the CLI's log order
  bool write_tool_excluded_ = false;
  RunContext ctx_;
  std::string session_id_, transcript_path_, prompt_;
  ModelRequests model_;

  ojson events_ = ojson::array();
  bool stopped_ = false;
  bool last_tool_blocked_ = false;
  ojson last_tool_input_;
  ojson last_tool_response_;
  ojson modified_keys_ = ojson::array();  // the keys a BeforeTool hook's tool_input set
  // Agent iterations (see expand_model_turns): a later one runs only after the previous
  // AfterAgent blocked; a blocked BeforeModel ends its iteration (no model call: the remaining
  // calls and their events do not happen, AfterAgent still fires — session lane u07, u08).
  int allowed_iteration_ = 0;
  int model_blocked_iteration_ = -1;
  std::string continuation_prompt_;
  std::string cumulative_response_;  // core client.js hookState.cumulativeResponse
  std::vector<std::string> fail_lines_;  // the event's failure warnings, not yet printed
};

std::optional<ojson> Session::start() {
  // Tools run for real only when the script asks for it (the differential lane does).
  run_tools_ = script_.value("run_tools", has_turns_);
  loaded_ = load_for_session(home_, workspace_, script_, base_, sw_);
  tr_["host"] = "gemini-cli";
  tr_["version"] = std::string(kHostVersion);
  ojson load = ojson::object();
  load["trusted"] = loaded_.trusted;
  load["hooks_enabled"] = loaded_.hooks_enabled;
  load["warnings"] = loaded_.warnings;
  tr_["load"] = load;
  // bundle config.ts loadCliConfig (debugLogger.warn, printed headless; the CLI loads its config
  // twice, so the line appears twice — session lane s04/s05): an untrusted folder drops a
  // non-default approval mode.
  const std::string approval_mode = script_.value("approval_mode", std::string("default"));
  if (!loaded_.trusted && approval_mode != "default")
    for (int i = 0; i < 2; ++i)
      stderr_lines_.push_back(
          "Approval mode overridden to \"default\" because the current folder is not trusted.");
  if (loaded_.fatal_exit) {
    tr_["exit_code"] = *loaded_.fatal_exit;
    stderr_lines_.push_back(loaded_.fatal_message);
    join_open_lines(stderr_lines_);
    tr_["stderr"] = stderr_lines_;
    tr_["events"] = ojson::array();
    tr_["ran"] = ran_order_;
    tr_["hook_calls"] = hook_calls_;
    tr_["stopped"] = true;
    return tr_;
  }
  startup_lines(home_, workspace_, script_, sw_, loaded_, stderr_lines_);
  write_tool_excluded_ = sw_.headless_settings_hooks_off && !loaded_.trusted;
  return std::nullopt;
}

void Session::prepare() {
  ctx_ = base_;
  ctx_.rules = hook_rules_from_switches(sw_.raw);  // the profile's per-hook switches (run.cc)
  ctx_.cwd = workspace_;
  ctx_.trusted_folder = loaded_.trusted;
  session_id_ = script_.value("session_id", "00000000-0000-4000-8000-000000000001");
  // transcript_path: the chat recording file (core services/chatRecordingService.js:382-407,
  // 0.61.0): <home>/.gemini/tmp/<project slug>/chats/session-<YYYY-MM-DDTHH-MM>-<the session id's
  // first 8 characters>.jsonl; the slug is the workspace's base name slugified (project_slug:
  // config/projectRegistry.js slugify), the first claim in a fresh home. Profile switch
  // transcript_file "json": releases up to 0.38 name it .json (drift payload on 0.38.2). Before
  // 0.29 the folder is the SHA-256 of the project path (switch project_temp_dir "sha256").
  const std::string slug = project_temp_folder(workspace_, sw_);
  transcript_path_ =
      script_.contains("transcript_path") && script_["transcript_path"].is_string()
          ? script_["transcript_path"].get<std::string>()
          : home_ + "/.gemini/tmp/" + slug + "/chats/session-" +
                std::regex_replace(now_iso8601().substr(0, 16), std::regex(":"), "-") + "-" +
                session_id_.substr(0, 8) +
                (sw_.raw.value("transcript_file", std::string("jsonl")) == "json" ? ".json"
                                                                                  : ".jsonl");
  if (ctx_.plans_dir.empty())
    ctx_.plans_dir = home_ + "/.gemini/tmp/session/" + session_id_ + "/plans";
  prompt_ = script_.value("prompt", "Create test.txt");
  // The model's request (see ModelRequests).
  model_.context_text = session_context(
      workspace_, home_ + "/.gemini/tmp/" + slug,
      sw_.raw.value("session_context_text", std::string("tagged")) == "working_dir");
  model_.separate_context =
      sw_.raw.value("session_context_message", std::string("merged")) == "separate";
  model_.request_model = sw_.raw.value("llm_request_model", std::string("gemini-2.5-flash"));
  model_.replace_rewritten_messages =
      sw_.raw.value("llm_request_rewrite", std::string("merge")) == "replace";
}

Result<ojson> Session::play(ojson script_events) {
  for (size_t idx = 0; idx < script_events.size(); ++idx) {
    const ojson ev = script_events[idx];
    std::string name = ev.value("event", "");
    const int iteration = ev.value("iteration", 0);
    if (!is_event_name(name))
      return make_error(ErrorCode::kInvalidArgument, "unknown event in script: " + name);
    ojson row = ojson::object();
    row["event"] = name;
    if (const char* why = skip_reason(name, iteration)) {
      row["skipped"] = why;
      events_.push_back(row);
      continue;
    }
    if (ev.contains("response_text") && ev["response_text"].is_string()) {
      const std::string text = ev["response_text"].get<std::string>();
      if (!text.empty())
        cumulative_response_ += (cumulative_response_.empty() ? "" : "\n") + text;
    }
    if (!tool_refused(ev, name, row)) fire(script_events, idx, ev, name, iteration, row);
    events_.push_back(row);
  }
  return transcript();
}

// Why an event does not fire at all (nullptr: it does): a stopped run, an agent iteration that
// does not happen, agent hooks of a nested continuation, a model call BeforeModel blocked.
const char* Session::skip_reason(const std::string& name, int iteration) const {
  if (stopped_ && name != "SessionEnd") return "run stopped";
  if (iteration > allowed_iteration_)
    return "no continuation (the previous AfterAgent did not block)";
  if (sw_.nested_continuation && iteration > 0 && (name == "BeforeAgent" || name == "AfterAgent"))
    return "nested continuation: agent hooks not fired";
  if (iteration == model_blocked_iteration_ && name != "AfterAgent")
    return "model call blocked by BeforeModel";
  return nullptr;
}

// A tool event that does not fire: AfterTool of a tool that did not run, BeforeTool of a tool
// the CLI did not register (row says which); a BeforeTool that fires forgets the last response.
bool Session::tool_refused(const ojson& ev, const std::string& name, ojson& row) {
  if (name == "AfterTool" && last_tool_blocked_) {
    row["skipped"] = "tool blocked";
    return true;
  }
  if (name == "BeforeTool") last_tool_response_ = nullptr;
  if (name == "BeforeTool" && write_tool_excluded_ &&
      ev.value("tool_name", std::string("write_file")) == "write_file") {
    // The scheduler refuses the call before any hook (core 0.26.0 core/coreToolScheduler.js:324);
    // the suggestions are the nearest registered names, as the drift record shows them. 0.27 runs
    // the event-driven scheduler, whose wording is shorter (switch tool_not_found_error
    // "scheduler": core 0.27.4 scheduler/scheduler.js:181; drift s04 on 0.27.4, whose registry
    // has cli_help where 0.26.0's has activate_skill).
    std::string err =
        sw_.raw.value("tool_not_found_error", std::string("registry")) == "scheduler"
            ? "Tool \"write_file\" not found. Did you mean one of: \"read_file\", \"write_todos\", "
              "\"cli_help\"?"
            : "Tool \"write_file\" not found in registry. Tools must use the exact names that are "
              "registered. Did you mean one of: \"read_file\", \"write_todos\", "
              "\"activate_skill\"?";
    tool_error_line("write_file", err);
    row["skipped"] = "tool not registered";
    row["effect"] = ojson::object({{"tool", "failed"}, {"tool_error", err}});
    last_tool_blocked_ = true;
    return true;
  }
  return false;
}

// One event that fires: its payload, plan and hook runs, then the effect of the merged answer
// on the run (and a BeforeTool's tool run), all recorded in `row`.
void Session::fire(ojson& script_events, size_t idx, const ojson& ev, const std::string& name,
                   int iteration, ojson& row) {
  PayloadOptions po = payload_options(ev, name, iteration);
  ojson input = make_payload(name, po);
  Plan plan = plan_for(name, po, row);
  EventRun er = run_plan(plan, name, input, ctx_);
  record_results(name, plan, input, er, row);
  // The event's system message (and an older release's stop-request line) comes first: core
  // hookEventHandler.js runs processCommonHookOutputFields before logHookExecution (0.61.0
  // lines 209-211; lane s31: "Hook system message: Warning: bt text" precedes "Hook(s) [bt]
  // failed …"); the failure lines follow below.
  row["aggregated"] = er.final_output ? *er.final_output : ojson(nullptr);
  ojson effect = ojson::object();
  if (er.final_output) {
    apply_answer(script_events, idx, name, iteration, po, *er.final_output, effect);
  } else if (name == "BeforeTool") {
    flush_fail_lines();
    effect["tool"] = "ran";
    last_tool_blocked_ = false;
    last_tool_input_ = po.tool_input;
  }
  flush_fail_lines();
  if (name == "BeforeTool" && run_tools_ && effect.value("tool", "") == "ran") run_tool(po, effect);
  row["effect"] = effect;
}

// The event's payload options: the script's values, what earlier events left (the tool's
// arguments and response, the response text so far, the continuation prompt) and, for the model
// events of a model-turns script, the model's request and response.
PayloadOptions Session::payload_options(const ojson& ev, const std::string& name, int iteration) {
  PayloadOptions po;
  po.session_id = session_id_;
  po.transcript_path = transcript_path_;
  po.cwd = workspace_;
  po.prompt = prompt_;
  po.tool_name = ev.value("tool_name", "write_file");
  if (ev.contains("original_request_name") && ev["original_request_name"].is_string())
    po.original_request_name = ev["original_request_name"].get<std::string>();
  if (ev.contains("tool_input")) po.tool_input = ev["tool_input"];
  if (name == "AfterTool" && !last_tool_input_.is_null()) po.tool_input = last_tool_input_;
  if (ev.contains("tool_response")) po.tool_response = ev["tool_response"];
  else if (name == "AfterTool" && !last_tool_response_.is_null()) po.tool_response = last_tool_response_;
  po.prompt_response = ev.value("prompt_response", "");
  po.stop_hook_active = ev.value("stop_hook_active", false);
  if (has_turns_ && name == "AfterAgent") {
    po.prompt_response = cumulative_response_.empty() ? "[no response text]" : cumulative_response_;
    po.stop_hook_active = iteration > 0;
  }
  if (has_turns_ && name == "BeforeAgent" && iteration > 0) po.prompt = continuation_prompt_;
  if (has_turns_ && (name == "BeforeModel" || name == "BeforeToolSelection" || name == "AfterModel"))
    po.llm_request = model_.request_for(name, iteration, iteration > 0 ? continuation_prompt_ : prompt_);
  if (has_turns_ && name == "AfterModel" && ev.contains("chunk") && ev["chunk"].is_object())
    po.llm_response = model_.chunk_response(ev["chunk"]);
  po.source = ev.value("source", "startup");
  po.reason = ev.value("reason", "exit");
  po.trigger = ev.value("trigger", "auto");
  return po;
}

// The hooks planned for the event (row "sequential", "hooks"; the run order), with the event
// bus's error line when the planner fails.
Plan Session::plan_for(const std::string& name, const PayloadOptions& po, ojson& row) {
  PlanContext pc;
  if (name == "BeforeTool" || name == "AfterTool") pc.tool_name = po.tool_name;
  if (name == "SessionStart") pc.trigger = po.source;
  if (name == "SessionEnd") pc.trigger = po.reason;
  if (name == "PreCompress") pc.trigger = po.trigger;
  Plan plan = plan_event(loaded_, name, pc);
  if (plan.error) stderr_lines_.push_back("Hook event bus error for " + name + ": " + *plan.error);
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
    ran_order_.push_back(name + ":" + display_name(h));
  }
  row["sequential"] = plan.sequential;
  row["hooks"] = hooks;
  return plan;
}

// Each hook's result (row "results"), its hook_call record, and the failure warnings the event
// prints once its output is applied.
void Session::record_results(const std::string& name, const Plan& plan, const ojson& input,
                             const EventRun& er, ojson& row) {
  ojson results = ojson::array();
  std::vector<std::string> failed;
  for (size_t i = 0; i < er.results.size(); ++i) {
    auto j = run_result_json(er.results[i]);
    j["stdout"] = er.results[i].stdout_text;
    j["stderr"] = er.results[i].stderr_text;
    results.push_back(j);
    hook_calls_.push_back(hook_call_record(name, plan.hooks[i], input, er.results[i]));
    if (!er.results[i].success) failed.push_back(display_name(plan.hooks[i]));
  }
  row["results"] = results;
  // hookEventHandler.js logHookExecution: failure warnings (§4.6).
  fail_lines_.clear();
  if (!failed.empty()) {
    std::string names;
    for (size_t i = 0; i < failed.size(); ++i) names += (i ? ", " : "") + failed[i];
    std::string msg = "Hook(s) [" + names + "] failed for event " + name +
                      ". Press F12 to see the debug drawer for more details.";
    // The feedback goes to the CLI's fallback listener (plain) and, while runNonInteractive is
    // listening (BeforeAgent .. AfterAgent, not SessionStart/SessionEnd), to its handler too,
    // which prefixes the severity (bundle nonInteractiveCli.ts handleUserFeedback; lane s22).
    fail_lines_.push_back(msg);
    if (name != "SessionStart" && name != "SessionEnd") fail_lines_.push_back("[WARNING] " + msg);
    for (const auto& r : er.results)
      if (r.error) fail_lines_.push_back("Hook execution error: " + *r.error);
  }
}

void Session::flush_fail_lines() {
  for (auto& l : fail_lines_) stderr_lines_.push_back(l);
  fail_lines_.clear();
}

void Session::tool_error_line(const std::string& tool, const std::string& msg) {
  stderr_lines_.push_back("Error executing tool " + tool + ": " + msg);
}

// What the tool's error says: 0.30+ prefix the reason; 0.26 reports it bare.
std::string Session::tool_error(const ojson& out, const char* prefix) const {
  return sw_.bare_tool_error ? effective_reason(out) : prefix + effective_reason(out);
}

// The merged answer's effect: the lines every event prints (system message, stop request, the
// failure warnings), then what the event's kind does with it.
void Session::apply_answer(ojson& script_events, size_t idx, const std::string& name,
                           int iteration, const PayloadOptions& po, const ojson& out,
                           ojson& effect) {
  Answer a = read_answer(out);
  if (name == "SessionStart" && !a.sys.empty()) {
    if (sw_.single_log_stream)
      stderr_lines_.insert(stderr_lines_.begin(), a.sys);
    else
      stderr_lines_.push_back(a.sys);
  }
  if (!a.sys.empty() && !a.suppress) stderr_lines_.push_back("Hook system message: " + a.sys);
  a.ctxt = additional_context(out);
  if (sw_.log_stop_request && a.cont_false)
    stderr_lines_.push_back("Hook requested to stop execution: " + effective_reason(out));
  flush_fail_lines();
  if (name == "BeforeTool") {
    before_tool_effect(po, a, effect);
  } else if (name == "AfterTool") {
    after_tool_effect(script_events, idx, iteration, po, a, effect);
  } else if (name == "BeforeAgent" || name == "AfterAgent" || name == "BeforeModel" ||
             name == "AfterModel") {
    agent_effect(name, iteration, po, a, effect);
  } else if (name == "SessionStart" && a.ctxt) {
    effect["prompt_prefix"] = "<hook_context>" + *a.ctxt + "</hook_context>\n\n";
  }
}

// BeforeTool: the tool stops the run, is blocked, or runs (with the hook's arguments, if any).
void Session::before_tool_effect(const PayloadOptions& po, const Answer& a, ojson& effect) {
  const ojson& out = a.out;
  if (a.cont_false) {
    std::string msg = tool_error(out, "Agent execution stopped by hook: ");
    effect["tool"] = "stopped";
    effect["tool_error"] = msg;
    tool_error_line(po.tool_name, msg);
    stderr_lines_.push_back("Agent execution stopped: " +
                            (sw_.bare_stop_line ? effective_reason(out) : msg));
    stopped_ = true;
    last_tool_blocked_ = true;
  } else if (is_blocking(out)) {
    std::string msg = tool_error(out, "Tool execution blocked: ");
    effect["tool"] = "blocked";
    effect["tool_error"] = msg;
    effect["model_sees"] = ojson::object({{"error", msg}});
    tool_error_line(po.tool_name, msg);
    last_tool_blocked_ = true;
  } else {
    last_tool_blocked_ = false;
    effect["tool"] = "ran";
    const ojson* rewritten = specific_output(out, "tool_input");
    modified_keys_ = ojson::array();
    if (rewritten && rewritten->is_object()) {
      for (auto it = rewritten->begin(); it != rewritten->end(); ++it)
        modified_keys_.push_back(it.key());
      // 0.61 replaces the arguments; tool_input_rewrite "merge" merges them (one rule with
      // `hostemu gemini run-hook`'s hostEffect: profile.cc).
      ojson ti = rewritten_tool_input(sw_.raw, po.tool_input, out);
      effect["tool_input"] = ti;
      last_tool_input_ = ti;
    } else {
      last_tool_input_ = po.tool_input;
    }
  }
}

// AfterTool: the result stops the run, is blocked, or reaches the model (with any context, and
// a tail call queued as the next two events).
void Session::after_tool_effect(ojson& script_events, size_t idx, int iteration,
                                const PayloadOptions& po, const Answer& a, ojson& effect) {
  const ojson& out = a.out;
  if (a.cont_false) {
    std::string msg = tool_error(out, "Agent execution stopped by hook: ");
    effect["tool_result"] = msg;
    tool_error_line(po.tool_name, msg);
    stderr_lines_.push_back("Agent execution stopped: " + effective_reason(out));
    stopped_ = true;
  } else if (is_blocking(out)) {
    // exp e05b: headless stderr "Error executing tool read_file: Tool result blocked: R".
    effect["tool_result"] = tool_error(out, "Tool result blocked: ");
    tool_error_line(po.tool_name, effect["tool_result"].get<std::string>());
    effect["model_sees"] = ojson::object({{"error", effective_reason(out)}});
  } else {
    if (a.ctxt)
      effect["model_sees_appended"] = "\n\n<hook_context>" + *a.ctxt + "</hook_context>";
    // hookSpecificOutput.tailToolCallRequest {name, args}: the scheduler replaces the call
    // with a new one that is validated and run like any other, BeforeTool and AfterTool
    // hooks included, and may chain (core coreToolHookTriggers.js, scheduler/scheduler.js
    // 0.61.0; session lane u05).
    const ojson* tail = specific_output(out, "tailToolCallRequest");
    if (sw_.tail_calls && tail && tail->is_object() && tail->contains("name") &&
        (*tail)["name"].is_string()) {
      const ojson& req = *tail;
      effect["tail_call"] = req;
      size_t at = idx + 1;
      for (const char* ev_name : {"BeforeTool", "AfterTool"}) {
        ojson e = ojson::object({{"event", ev_name},
                                 {"iteration", iteration},
                                 {"tool_name", req["name"]},
                                 // the tail call's hooks see the name of the call it
                                 // replaces (original_request_name; lane u05)
                                 {"original_request_name", po.tool_name},
                                 {"tool_input", req.contains("args") && req["args"].is_object()
                                                    ? req["args"]
                                                    : ojson::object()}});
        script_events.insert(script_events.begin() + static_cast<long>(at++), e);
      }
    }
  }
}

// BeforeAgent, AfterAgent, BeforeModel, AfterModel: the agent stops or is blocked, BeforeModel
// rewrites the model's request, BeforeAgent adds context to the prompt.
void Session::agent_effect(const std::string& name, int iteration, const PayloadOptions& po,
                           const Answer& a, ojson& effect) {
  const ojson& out = a.out;
  std::string shown = name == "BeforeModel"    ? effective_reason(out)
                      : js_trim(a.sys).empty() ? effective_reason(out)
                                               : js_trim(a.sys);
  const ojson* mod = specific_output(out, "llm_request");
  if (a.cont_false) {
    stderr_lines_.push_back("Agent execution stopped: " + shown);
    effect["agent"] = "stopped";
    stopped_ = true;
  } else if (is_blocking(out)) {
    stderr_lines_.push_back("[WARNING] Agent execution blocked: " + shown);
    agent_blocked(name, iteration, a, effect);
  } else if (name == "BeforeModel" && has_turns_ && mod && mod->is_object()) {
    ojson req = po.llm_request;
    if (mod->contains("messages") && (*mod)["messages"].is_array())
      req["messages"] = model_.rewritten_messages(req["messages"], (*mod)["messages"]);
    if (mod->contains("model") && (*mod)["model"].is_string()) req["model"] = (*mod)["model"];
    if (mod->contains("config") && (*mod)["config"].is_object())
      for (auto& [k, v] : (*mod)["config"].items()) req["config"][k] = v;
    model_.call_request = req;
    effect["llm_request"] = req;
  } else if (name == "BeforeAgent" && a.ctxt) {
    effect["model_sees_appended"] = "<hook_context>" + *a.ctxt + "</hook_context>";
    // client.js: the request gets a part {text: <hook_context>…} after the prompt's.
    model_.iteration_hook_context = "<hook_context>" + *a.ctxt + "</hook_context>";
  }
}

// A blocking agent or model answer: AfterAgent continues the loop with its reason as the next
// prompt, BeforeAgent ends the run's model calls, BeforeModel ends its call (perhaps answering in
// the model's place).
void Session::agent_blocked(const std::string& name, int iteration, const Answer& a,
                            ojson& effect) {
  const ojson& out = a.out;
  effect["agent"] = "blocked";
  if (name == "AfterAgent") {
    effect["next_prompt"] = effective_reason(out);
    continuation_prompt_ = effective_reason(out);
    // hookSpecificOutput.clearContext: the chat history is reset before the
    // continuation, so the next request holds only the session context and the
    // continuation prompt (lane u28 on the real 0.61.0).
    const ojson* clear = specific_output(out, "clearContext");
    if (clear && *clear == true) model_.clear_history = true;
    allowed_iteration_ = iteration + 1;
  }
  if (name == "BeforeAgent") stopped_ = true;  // no model call for this prompt
  if (name == "BeforeModel") {
    model_blocked_iteration_ = iteration;
    // A blocking BeforeModel may answer in the model's place
    // (hookSpecificOutput.llm_response): that synthetic answer is the call's response
    // text, so AfterAgent's prompt_response holds it (its text parts joined; lane s32 on
    // the real 0.61.0: "Synthetic answer.").
    const ojson* lr = specific_output(out, "llm_response");
    if (lr && lr->is_object()) {
      std::string text = synthetic_answer_text(*lr);
      if (!text.empty())
        cumulative_response_ += (cumulative_response_.empty() ? "" : "\n") + text;
    }
  }
}

// The BeforeTool's tool, run for real: its response for AfterTool, or the error that keeps
// AfterTool from firing.
void Session::run_tool(const PayloadOptions& po, ojson& effect) {
  ToolRun t =
      run_builtin_tool(po.tool_name, last_tool_input_, workspace_, effect.contains("tool_input"),
                       sw_.raw.value("write_file_response", std::string("build_flag")));
  if (!t.ok) {
    // The scheduler reports the error and the call never reaches executeToolWithHooks, so
    // AfterTool does not fire (core scheduler/scheduler.js; exp x11).
    effect["tool"] = "failed";
    effect["tool_error"] = t.error;
    tool_error_line(po.tool_name, t.error);
    last_tool_blocked_ = true;
  } else if (!t.response.is_null()) {
    // < 0.36 (switch tool_input_notice "in_tool_response"): the BeforeTool hook runs inside
    // executeToolWithHooks, which appends the notice of a hook's tool_input to llmContent before
    // AfterTool fires (core 0.35.3 core/coreToolHookTriggers.js:119-134, 0.26.0 :272-287; drift
    // s15 on 0.27.4). 0.36+ append it after AfterTool (scheduler/tool-executor.js
    // inputModifiedByHook), so the hook never sees it.
    if (sw_.raw.value("tool_input_notice", std::string("after_hooks")) == "in_tool_response" &&
        !modified_keys_.empty() && t.response.contains("llmContent") &&
        t.response["llmContent"].is_string()) {
      std::string keys;
      for (const auto& k : modified_keys_)
        keys += (keys.empty() ? "" : ", ") + k.get<std::string>();
      t.response["llmContent"] = t.response["llmContent"].get<std::string>() +
                                 "\n\n[System] Tool input parameters (" + keys +
                                 ") were modified by a hook before execution.";
    }
    last_tool_response_ = t.response;
  }
}

ojson Session::transcript() {
  tr_["events"] = events_;
  tr_["ran"] = ran_order_;
  tr_["hook_calls"] = hook_calls_;
  join_open_lines(stderr_lines_);
  tr_["stderr"] = stderr_lines_;
  tr_["stopped"] = stopped_;
  tr_["exit_code"] = 0;
  return tr_;
}

// < 0.61 (profile switch session_end_twice): every SessionEnd of the script fires twice.
ojson session_end_doubled(const ojson& script_events) {
  ojson doubled = ojson::array();
  for (const auto& e : script_events) {
    doubled.push_back(e);
    if (e.value("event", "") == "SessionEnd") doubled.push_back(e);
  }
  return doubled;
}

}  // namespace

Result<ojson> run_session(const std::string& home, const std::string& workspace,
                          const ojson& script, const RunContext& base) {
  if (!script.is_object())
    return make_error(ErrorCode::kInvalidArgument, "script is not a JSON object");
  const bool has_events = script.contains("events") && script["events"].is_array();
  const bool has_turns = script.contains("model_turns") && script["model_turns"].is_array();
  if (has_events == has_turns)
    return make_error(ErrorCode::kInvalidArgument,
                      "script needs exactly one of an \"events\" or a \"model_turns\" array");
  ojson script_events = has_events ? script["events"] : expand_model_turns(script["model_turns"]);
  Switches sw = read_switches(script);
  if (sw.session_end_twice) script_events = session_end_doubled(script_events);
  Session session(home, workspace, script, base, has_turns, std::move(sw));
  if (auto fatal = session.start()) return *fatal;
  session.prepare();
  return session.play(std::move(script_events));
}

}  // namespace pinta::emu::gemini
