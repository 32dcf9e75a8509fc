// Running Copilot CLI 1.0.102 hooks (pinta/emulator/copilot/copilot.h). Evidence: CP, CPDOC and
// CPM (the scenario named beside each rule; docs/hosts/copilot-1.0.md "Measured on 1.0.102").
#include <csignal>
#include <ctime>

#include "pinta/emulator/copilot/copilot.h"
#include "pinta/hosts/copilot/family.h"

namespace pinta::emu::copilot {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

std::string ms_to_iso(long long ms) {
  std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(ms % 1000));
  return buf;
}

long long iso_to_ms(const std::string& s) {
  std::tm tm{};
  int ms = 0;
  if (std::sscanf(s.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &ms) < 6)
    return 0;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<long long>(timegm(&tm)) * 1000 + ms;
}

// The field names of the two shapes, in the CLI's order (fixtures/copilot/1.0.102: native
// {sessionId,timestamp,cwd,…}, Claude-style {hook_event_name,session_id,timestamp,cwd,…};
// traceparent after cwd in the Claude shape, last in the native one: CPM c-otel-allow).
constexpr std::pair<const char*, const char*> kFields[] = {
    {"source", "source"},           {"initialPrompt", "initial_prompt"},
    {"prompt", "prompt"},           {"toolName", "tool_name"},
    {"toolArgs", "tool_input"},     {"toolResult", "tool_result"},
    {"error", "error"},             {"transcriptPath", "transcript_path"},
    {"stopReason", "stop_reason"},  {"stop_hook_active", "stop_hook_active"},
    {"reason", "reason"},           {"errorContext", "error_context"},
    {"recoverable", "recoverable"},
};

const char* claude_event(const std::string& canonical) {
  for (const auto& a : hosts::copilot::kAliases)
    if (a.event == canonical) return a.alias.data();
  return nullptr;
}

ojson to_claude(const std::string& ev, const ojson& n, const cp::Rules& rules) {
  ojson o;
  const char* pascal = claude_event(ev);
  o["hook_event_name"] = pascal ? pascal : ev;
  if (n.contains("sessionId")) o["session_id"] = n["sessionId"];
  if (n.contains("timestamp"))
    o["timestamp"] = n["timestamp"].is_number() ? ojson(ms_to_iso(n["timestamp"].get<long long>()))
                                                : n["timestamp"];
  if (n.contains("cwd")) o["cwd"] = n["cwd"];
  if (n.contains("traceparent")) o["traceparent"] = n["traceparent"];
  for (const auto& [nat, cl] : kFields) {
    if (!n.contains(nat)) continue;
    // The Claude tool name from 1.0.63 (profiles: claude_tool_names); the native toolArgs sent as
    // a JSON text is the object in the Claude-style payload (CPM c-baseline, p-baseline probes).
    if (std::string(nat) == "toolName" && n[nat].is_string())
      o[cl] = rules.claude_tool_names ? ojson(cp::claude_tool_name(n[nat].get<std::string>()))
                                      : n[nat];
    else if (std::string(nat) == "toolArgs" && n[nat].is_string() &&
             ojson::parse(n[nat].get<std::string>(), nullptr, false).is_object())
      o[cl] = ojson::parse(n[nat].get<std::string>());
    else if (std::string(nat) == "toolResult" && n[nat].is_object()) {
      ojson r;
      for (auto it = n[nat].begin(); it != n[nat].end(); ++it)
        r[it.key() == "resultType" ? "result_type"
          : it.key() == "textResultForLlm" ? "text_result_for_llm" : it.key()] = it.value();
      o[cl] = r;
    } else {
      o[cl] = n[nat];
    }
  }
  return o;
}

ojson to_native(const ojson& c) {
  ojson o;
  if (c.contains("session_id")) o["sessionId"] = c["session_id"];
  if (c.contains("timestamp"))
    o["timestamp"] = c["timestamp"].is_string() ? ojson(iso_to_ms(c["timestamp"].get<std::string>()))
                                                : c["timestamp"];
  if (c.contains("cwd")) o["cwd"] = c["cwd"];
  for (const auto& [nat, cl] : kFields) {
    if (!c.contains(cl)) continue;
    if (std::string(cl) == "tool_name" && c[cl].is_string())
      o[nat] = cp::runtime_tool_name(c[cl].get<std::string>());
    else if (std::string(cl) == "tool_result" && c[cl].is_object()) {
      ojson r;
      for (auto it = c[cl].begin(); it != c[cl].end(); ++it)
        r[it.key() == "result_type" ? "resultType"
          : it.key() == "text_result_for_llm" ? "textResultForLlm" : it.key()] = it.value();
      o[nat] = r;
    } else {
      o[nat] = c[cl];
    }
  }
  if (c.contains("traceparent")) o["traceparent"] = c["traceparent"];
  return o;
}

// The CLI's order: the fields above in that order, then the rest as given; the tool's arguments
// with their keys sorted (docs/hosts/copilot-1.0.md: c-edit-tools, p-edit-tools), any other
// object inside as given (a permissionRequest's toolInput is not sorted: its fixtures).
std::string dump_ordered(const std::string& ev, const ojson& p, cp::Format f) {
  ojson o;
  auto put = [&](const char* k) {
    if (auto it = p.find(k); it != p.end())
      o[k] = std::string_view(k) == "toolArgs" || std::string_view(k) == "tool_input"
                 ? ojson(json(*it))  // nlohmann::json sorts keys
                 : *it;
  };
  if (f == cp::Format::kClaudeStyle) {
    for (const char* k : {"hook_event_name", "session_id", "timestamp", "cwd", "traceparent"}) put(k);
    for (const auto& kv : kFields) put(kv.second);
  } else {
    if (ev == "permissionRequest") put("hookName");
    for (const char* k : {"sessionId", "timestamp", "cwd"}) put(k);
    // The native errorOccurred payload has its context before the error, the Claude-style one
    // after (fixtures/copilot/1.0.102/errorOccurred, ErrorOccurred).
    if (ev == "errorOccurred") put("errorContext"), put("recoverable");
    for (const auto& kv : kFields) put(kv.first);
    for (const char* k : {"toolInput", "permissionSuggestions", "traceparent"}) put(k);
  }
  for (const auto& [k, v] : p.items())
    if (!o.contains(k)) o[k] = v;
  return o.dump(-1, ' ', false, ojson::error_handler_t::replace);
}

std::optional<std::string> str(const json& o, const char* k) {
  if (o.is_object() && o.contains(k) && o[k].is_string()) return o[k].get<std::string>();
  return std::nullopt;
}

// JSON.parse of the whole stdout: one value, whitespace around it (CPM c-pre-1mib-output), an
// object; anything else (plain text, `{not json`, two objects, trailing text) is no output
// (CPM c-pre-plain, c-pre-badjson, c-pre-two-json, c-pre-deny-trailing-text).
std::optional<json> parse_object(const std::string& s) {
  json j = json::parse(s, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  return j;
}

}  // namespace

std::string stdin_for(const std::string& ev, const ojson& payload, cp::Format given,
                      cp::Format format, const cp::Rules& rules) {
  // CPM p-baseline: permissionRequest gets the native payload in a Claude-style file too.
  if (ev == "permissionRequest") format = given = cp::Format::kNative;
  ojson p = payload;
  if (given != format)
    p = format == cp::Format::kClaudeStyle ? to_claude(ev, payload, rules) : to_native(payload);
  return dump_ordered(ev, p, format);
}

std::map<std::string, std::string> hook_environment(const cp::HookHandler& h,
                                                    const std::string& project,
                                                    std::map<std::string, std::string> env,
                                                    const cp::Rules& rules) {
  // CPM c-baseline: the provider variables are removed.
  for (auto it = env.begin(); it != env.end();)
    it = (it->first.rfind("COPILOT_PROVIDER_", 0) == 0 || it->first == "COPILOT_OFFLINE")
             ? env.erase(it)
             : std::next(it);
  env["COPILOT_CLI"] = "1";
  const auto slash = h.file.rfind('/');
  // Not before some release after 1.0.73 (profiles: hook_dir_env; c-baseline marks).
  if (rules.hook_dir_env)
    env["COPILOT_HOOK_DIR"] = slash == std::string::npos ? project : h.file.substr(0, slash);
  env["COPILOT_PROJECT_DIR"] = project;
  env["CLAUDE_PROJECT_DIR"] = project;
  env["COPILOT_CLI_BINARY_VERSION"] = cp::kVersion;
  if (rules.hook_dir_env && !env.count("COPILOT_CLI_RESOLVED_DIST_DIR"))
    env["COPILOT_CLI_RESOLVED_DIST_DIR"] = env.count("HOME") ? env["HOME"] + "/.cache/copilot/pkg" : "";
  env["GIT_CONFIG_COUNT"] = "1";
  env["GIT_CONFIG_KEY_0"] = "safe.bareRepository";
  env["GIT_CONFIG_VALUE_0"] = "explicit";
  // A plugin's hooks find their files through PLUGIN_ROOT (CPDOC "Plugins"; not measured: the
  // lane installs no plugin): the folder holding hooks.json, or the one above hooks/hooks.json.
  if (h.source == "plugin" && slash != std::string::npos) {
    std::string root = h.file.substr(0, slash);
    if (root.size() >= 6 && root.compare(root.size() - 6, 6, "/hooks") == 0)
      root.resize(root.size() - 6);
    env["PLUGIN_ROOT"] = root;
  }
  for (const auto& [k, v] : h.env) env[k] = v;  // CPDOC: the entry's `env`
  return env;
}

proc::SpawnRequest spawn_request(const cp::HookHandler& h, const std::string& input,
                                 const std::string& project,
                                 const std::map<std::string, std::string>& env) {
  proc::SpawnRequest r;
  // CPDOC: `exec` with `args` runs the program directly; otherwise `bash` (on POSIX), else
  // `command` (CPM c-pre-command-key), through bash -c.
  if (!h.exec.empty()) {
    r.argv = {h.exec};
    r.argv.insert(r.argv.end(), h.args.begin(), h.args.end());
  } else {
    r.argv = {"/bin/bash", "-c", h.bash.empty() ? h.command : h.bash};
  }
  r.env = env;
  // CPM c-pre-cwd: the project root; an entry's `cwd` relative to it.
  r.cwd = h.cwd.empty() ? project : (h.cwd[0] == '/' ? h.cwd : project + "/" + h.cwd);
  r.stdin_data = input;
  r.stdin_mode = proc::StdinMode::kCloseAfterWrite;
  // CPM c-pre-timeout, c-pre-timeout-default: killed at timeoutSec (its later output never
  // arrives: the whole group, so a `sleep` in it goes too).
  r.timeout = std::chrono::milliseconds(h.timeout_sec * 1000);
  r.timeout_signal = SIGKILL;
  r.signal_group = true;
  r.hard_limit = r.timeout + std::chrono::milliseconds(2000);
  r.max_capture = kStdoutCap + 1;
  return r;
}

HookRun hook_run(const cp::HookHandler& h, const proc::SpawnResult& res) {
  HookRun out;
  out.file = h.file;
  if (!res.started) {
    out.spawn_failed = true;
    return out;
  }
  if (res.timed_out || res.hard_limited) {
    out.timed_out = true;
    return out;
  }
  out.exit_code = res.exit_code;
  out.signal = res.term_signal;
  out.stdout_dropped = res.out_truncated || res.out.size() > kStdoutCap;
  if (!out.stdout_dropped) out.stdout_text = res.out;
  out.stderr_text = res.err;
  return out;
}

Reading read_run(const std::string& ev, cp::Format format, const HookRun& run,
                 const cp::Rules& rules) {
  Reading rd;
  // CPM c-pre-timeout, p-pre-timeout: a timeout fails open (no decision); up to 1.0.63 a
  // preToolUse timeout denied as an errored hook (profiles: timeout_denies).
  if (run.timed_out) {
    rd.decision = ev == "preToolUse" && rules.timeout_denies ? "errored" : "timeout";
    return rd;
  }
  auto j = parse_object(run.stdout_text);
  rd.parsed = j.has_value();
  const json o = j.value_or(json::object());
  // Claude-style reads hookSpecificOutput first (CPM p-pre-both-deny, p-pre-hso-allow-top-deny);
  // the native format ignores it (CPM c-pre-hso-deny, c-pre-hso-deny-extra-key).
  const bool hso = format == cp::Format::kClaudeStyle && o.contains("hookSpecificOutput") &&
                   o["hookSpecificOutput"].is_object();
  const json& inner = hso ? o["hookSpecificOutput"] : o;
  const json& dec_src = hso && inner.contains("permissionDecision") ? inner : o;
  // Only the exact lower-case values count (CPM c-pre-decision-case, c-pre-unknown-decision).
  if (auto d = str(dec_src, "permissionDecision"); d && (*d == "allow" || *d == "deny" || *d == "ask")) {
    rd.decision = *d;
    rd.reason = str(dec_src, "permissionDecisionReason");
  }
  rd.context = str(inner, "additionalContext");
  if (!rd.context && hso) rd.context = str(o, "additionalContext");
  if (format == cp::Format::kClaudeStyle) {
    if (inner.contains("updatedInput") && inner["updatedInput"].is_object())
      rd.updated_args = inner["updatedInput"];
  } else if (o.contains("modifiedArgs") && o["modifiedArgs"].is_object()) {
    rd.updated_args = o["modifiedArgs"];  // CPM c-pre-modified-args(-nodecision)
  }
  rd.modified_prompt = str(o, "modifiedPrompt");
  if (str(o, "decision") == std::optional<std::string>("block")) {
    rd.block = true;
    rd.block_reason = str(o, "reason");
  }
  if (ev != "preToolUse") return rd;
  // The fail-closed gate (CP; CPM c-pre-exit1, c-pre-exit1-allow, c-pre-exit3, c-pre-exit126,
  // c-pre-exit127, c-pre-signal, c-pre-sigterm): an exit other than 0 and 2, a signal death or a
  // spawn failure denies, whatever stdout says. Exit 2 denies with its JSON deny's reason when
  // there is one, else "hook exited with code 2" (stderr dropped: CPM c-pre-exit2-*). Before
  // 1.0.73 (profiles: exit2_denies) exit 2 decided nothing: the call ran (c-pre-exit2-stderr
  // probes; stdout is read as at exit 0, not measured with a decision on stdout).
  if (run.spawn_failed || run.signal || (run.exit_code && *run.exit_code != 0 && *run.exit_code != 2)) {
    rd.decision = "errored";
    rd.reason.reset();
  } else if (run.exit_code == 2 && rd.decision != "deny" && rules.exit2_denies) {
    rd.decision = "deny";
    rd.reason = "hook exited with code 2";
  }
  return rd;
}

PlanRun run_plan(const std::vector<cp::HookHandler>& plan, const std::string& event,
                 const json& payload, cp::Format given, const std::string& raw,
                 const std::string& project, const std::map<std::string, std::string>& base_env,
                 proc::Spawner* spawner, const cp::Rules& rules) {
  std::unique_ptr<proc::Spawner> own;
  if (!spawner) {
    own = proc::make_spawner();
    spawner = own.get();
  }
  const std::string ev = cp::canonical_event(event);
  PlanRun pr;
  Outcome& out = pr.outcome;
  for (const auto& h : plan) {
    if (h.type != "command") continue;  // http and prompt hooks: not emulated
    // The payload's own bytes for a hook of its format; the other format's shape derived.
    const bool same = h.format == given || ev == "permissionRequest";
    const std::string input =
        same && !raw.empty() ? raw : stdin_for(ev, payload, given, h.format, rules);
    auto env = hook_environment(h, project, base_env, rules);
    // CPM c-otel-deny: with OpenTelemetry on, command hooks get the payload's traceparent as
    // COPILOT_TRACEPARENT.
    if (payload.contains("traceparent") && payload["traceparent"].is_string())
      env["COPILOT_TRACEPARENT"] = payload["traceparent"].get<std::string>();
    auto run = hook_run(h, spawner->run(spawn_request(h, input, project, env)));
    auto rd = read_run(ev, h.format, run, rules);
    pr.runs.push_back(run);
    pr.readings.push_back(rd);
    if (ev == "preToolUse") {
      // CPM c-pre-additional-context, p-pre-additional-context.
      if (rd.context) out.additional_contexts.push_back("Additional context from preToolUse hook:\n" + *rd.context);
      if (rd.updated_args) out.updated_args = rd.updated_args;
      if (rd.decision == "deny" || rd.decision == "ask" || rd.decision == "errored") {
        out.tool_runs = false;
        out.blocked = true;
        if (rd.decision == "errored")
          // The file named from 1.0.61 (profiles: errored_names_file; c-pre-exit1 probes).
          out.model_text = rules.errored_names_file
                               ? "Denied by preToolUse hook from \"" + run.file + "\" (hook errored)"
                               : std::string("Denied by preToolUse hook (hook errored)");
        else
          // CPM c-pre-deny, c-pre-deny-noreason, c-pre-deny-empty-reason, c-pre-ask.
          out.model_text = std::string("Denied by preToolUse hook") +
                           (rd.decision == "ask" ? " (unable to ask user for confirmation)" : "") +
                           ": " + rd.reason.value_or("No reason provided");
        break;  // CPM c-pre-deny-then-second, c-pre-exit1-then-second
      }
      // Before 1.0.73 exit 2 let the call run and its stderr was printed as a notice
      // (c-pre-exit2-stderr probes: `! HK blocked by hook`).
      if (run.exit_code == 2 && !rules.exit2_denies) out.notices.push_back("! " + run.stderr_text);
    } else if (ev == "postToolUse") {
      // CPM c-post-context: native additionalContext is appended to the tool result; the
      // Claude-style hookSpecificOutput context reached the model nowhere (p-post-context).
      if (h.format == cp::Format::kNative && rd.context)
        out.tool_result_append = out.tool_result_append.value_or("") + *rd.context;
      // CPM c-post-exit2; not on 1.0.73 (profiles: post_exit2_notice; real_diff.py --version).
      if (run.exit_code == 2 && rules.post_exit2_notice) out.notices.push_back("! " + run.stderr_text);
    } else if (ev == "userPromptSubmitted") {
      // CPM c-ups-context, c-ups-modified-prompt; a deny does not stop the prompt (c-ups-deny);
      // a Claude-style {"decision":"block"} drops it (p-ups-block).
      if (rd.context) out.additional_contexts.push_back(*rd.context);
      if (rd.modified_prompt) out.additional_contexts.push_back(*rd.modified_prompt);
      if (h.format == cp::Format::kClaudeStyle && rd.block) {
        out.blocked = true;
        out.notices.push_back("! " + rd.block_reason.value_or(""));
      }
      if (run.exit_code == 2) out.notices.push_back("! " + run.stderr_text);  // CPM c-ups-exit2
    } else if (ev == "sessionStart") {
      if (rd.context) out.additional_contexts.push_back(*rd.context);  // CPM c-sessionstart-context
    } else if (ev == "agentStop" || ev == "subagentStop") {
      // CPM c-agentstop-block, p-stop-block: the reason is sent back as a new prompt.
      if (rd.block) {
        out.blocked = true;
        if (rd.block_reason) out.additional_contexts.push_back(*rd.block_reason);
      }
    }
  }
  return pr;
}

json outcome_json(const Outcome& o) {
  auto opt = [](const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); };
  return {{"toolRuns", o.tool_runs},
          {"blocked", o.blocked},
          {"modelText", opt(o.model_text)},
          {"additionalContexts", o.additional_contexts},
          {"toolResultAppend", opt(o.tool_result_append)},
          {"updatedArgs", o.updated_args ? *o.updated_args : json(nullptr)},
          {"notices", o.notices}};
}

json report_json(const std::vector<cp::HookHandler>& plan, const PlanRun& pr) {
  json loaded = json::array(), results = json::array();
  for (const auto& h : plan)
    loaded.push_back({{"event", h.event}, {"source", h.source}, {"file", h.file},
                      {"pointer", h.pointer}, {"format", cp::agent_label(h.format)}});
  for (size_t i = 0; i < pr.runs.size(); ++i) {
    const auto& r = pr.runs[i];
    const auto& rd = pr.readings[i];
    results.push_back({{"file", r.file},
                       {"exitCode", r.exit_code ? json(*r.exit_code) : json(nullptr)},
                       {"signal", r.signal ? json(*r.signal) : json(nullptr)},
                       {"timedOut", r.timed_out},
                       {"stdoutDropped", r.stdout_dropped},
                       {"parsed", rd.parsed},
                       {"decision", rd.decision}});
  }
  return {{"loaded", loaded}, {"results", results}, {"outcome", outcome_json(pr.outcome)}};
}

}  // namespace pinta::emu::copilot
