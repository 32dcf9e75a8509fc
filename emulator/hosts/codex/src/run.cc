// Codex CLI 0.171 hook runner and outcome. Evidence per rule: "CX" = measured on the 0.171.0
// binary (shared/reference/real-hosts.md, Codex sections); "CXSRC f:fn" = openai/codex
// codex-rs/hooks/src/<f> (or core/src/hook_runtime.rs), function fn. The source read is a public
// snapshot of the hook engine; where a CX measurement and the snapshot differ, CX wins and says so.
#include <algorithm>
#include <future>
#include <set>

#include "pinta/emulator/codex/codex.h"
#include "pinta/hosts/codex/replies.h"

namespace pinta::emu::codex {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;
namespace cx = pinta::hosts::codex;

std::map<std::string, std::string> hook_environment(const cx::HookHandler& h,
                                                    std::map<std::string, std::string> env) {
  // CXSRC engine/command_runner.rs build_command: the command gets Codex's own environment plus
  // handler.env, which only plugin handlers fill (engine/discovery.rs: PLUGIN_ROOT and
  // CLAUDE_PLUGIN_ROOT = the plugin's root, the folder holding hooks/hooks.json).
  if (h.source == "plugin") {
    std::string root = h.file;
    for (int i = 0; i < 2; ++i) {
      auto slash = root.find_last_of('/');
      root = slash == std::string::npos ? std::string() : root.substr(0, slash);
    }
    env["PLUGIN_ROOT"] = root;
    env["CLAUDE_PLUGIN_ROOT"] = root;
  }
  return env;
}

namespace {

// CXSRC schema.rs *CommandInput: each event's stdin struct, fields in declaration order (serde
// writes them so). CX: the PreToolUse payload measured on 0.171.0 has exactly this order.
const std::vector<std::string>& input_fields(const std::string& event) {
  static const std::map<std::string, std::vector<std::string>> kFields = {
      {"SessionStart",
       {"session_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode",
        "source"}},
      {"UserPromptSubmit",
       {"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model",
        "permission_mode", "prompt"}},
      {"PreToolUse",
       {"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model",
        "permission_mode", "tool_name", "tool_input", "tool_use_id"}},
      {"PermissionRequest",
       {"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model",
        "permission_mode", "tool_name", "tool_input"}},
      {"PostToolUse",
       {"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model",
        "permission_mode", "tool_name", "tool_input", "tool_response", "tool_use_id"}},
      {"PreCompact",
       {"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "trigger"}},
      {"PostCompact",
       {"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "trigger"}},
      {"SubagentStart",
       {"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model",
        "permission_mode", "agent_id", "agent_type"}},
      {"SubagentStop",
       {"session_id", "turn_id", "transcript_path", "agent_transcript_path", "cwd",
        "hook_event_name", "model", "permission_mode", "stop_hook_active", "agent_id",
        "agent_type", "last_assistant_message"}},
      {"Stop",
       {"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model",
        "permission_mode", "stop_hook_active", "last_assistant_message"}},
      // Not in the source snapshot's engine; the fields its SessionEnd input names elsewhere.
      {"SessionEnd", {"session_id", "transcript_path", "cwd", "hook_event_name", "reason"}},
  };
  static const std::vector<std::string> kNone;
  auto it = kFields.find(event);
  return it == kFields.end() ? kNone : it->second;
}

// Output as Codex decodes it (CXSRC command_runner.rs: String::from_utf8_lossy): each maximal
// ill-formed subsequence becomes one U+FFFD (the Unicode recommended practice).
std::string lossy_utf8(const std::string& in) {
  std::string out;
  out.reserve(in.size());
  const size_t n = in.size();
  size_t i = 0;
  while (i < n) {
    const auto b = static_cast<unsigned char>(in[i]);
    size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b < 0x80) len = 1;
    else if (b >= 0xC2 && b <= 0xDF) len = 2;
    else if (b >= 0xE0 && b <= 0xEF) len = 3, lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
    else if (b >= 0xF0 && b <= 0xF4) len = 4, lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
    if (len == 0) {  // a byte that never starts a sequence
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    size_t ok = 1;  // bytes of the sequence that are valid so far
    while (ok < len && i + ok < n) {
      const auto c = static_cast<unsigned char>(in[i + ok]);
      if (c < (ok == 1 ? lo : 0x80) || c > (ok == 1 ? hi : 0xBF)) break;
      ++ok;
    }
    if (ok == len) out.append(in, i, len);
    else out += "\xEF\xBF\xBD";
    i += ok;
  }
  return out;
}

// Rust's str::trim (Unicode White_Space at both ends), as Codex trims stdout and stderr.
std::string rust_trim(const std::string& s) { return cx::rust_trim(s); }

// CXSRC events/common.rs trimmed_non_empty.
std::optional<std::string> trimmed_non_empty(const std::string& s) { return cx::trimmed_reason(s); }

}  // namespace

proc::SpawnRequest spawn_request(const cx::HookHandler& h, const std::string& input,
                                 const std::string& cwd,
                                 const std::map<std::string, std::string>& env) {
  proc::SpawnRequest r;
  // CX: commands run as `/bin/bash -c "<command>"` (measured; the source snapshot's default is
  // $SHELL -lc, which is this on a machine whose SHELL is bash and whose profile is quiet).
  r.argv = {"/bin/bash", "-c", h.command};
  r.env = env;
  r.cwd = cwd;  // CXSRC command_runner.rs run_command: current_dir = the session cwd
  // CXSRC command_runner.rs: stdin piped, the input written whole, then the handle dropped (EOF).
  r.stdin_data = input;
  r.stdin_mode = proc::StdinMode::kCloseAfterWrite;
  // CXSRC command_runner.rs: timeout(Duration::from_secs(timeout_sec), wait_with_output()) —
  // the budget covers the exit and both pipes reaching EOF; at expiry the child is dropped with
  // kill_on_drop (SIGKILL to the child alone, not its group) and its pipes are not read further.
  const long secs = std::max<long>(1, h.timeout_ms / 1000);
  r.timeout = std::chrono::milliseconds(secs * 1000);
  r.timeout_until_close = true;
  r.timeout_signal = SIGKILL;
  r.kill_after = std::chrono::milliseconds(0);
  r.signal_group = false;
  // A grandchild still holding the pipes after the kill: Codex stops reading at once; the
  // emulator abandons them shortly after (and reaps the group).
  r.hard_limit = r.timeout + std::chrono::milliseconds(1000);
  return r;
}

HookRun hook_run(const cx::HookHandler& h, const proc::SpawnResult& res) {
  HookRun out;
  out.command = h.command;
  out.finished_us = static_cast<long long>(res.closed_after.count());
  const long secs = std::max<long>(1, h.timeout_ms / 1000);
  if (!res.started) {
    // CXSRC command_runner.rs: a spawn error is the run's error, no exit code.
    out.error = res.spawn_error.empty() ? std::string("failed to spawn hook") : res.spawn_error;
    return out;
  }
  if (res.timed_out || res.hard_limited) {
    // CXSRC command_runner.rs run_command: no exit code, no output, the error text below.
    out.timed_out = true;
    out.error = "hook timed out after " + std::to_string(secs) + "s";
    return out;
  }
  out.stdout_text = lossy_utf8(res.out);
  out.stderr_text = lossy_utf8(res.err);
  out.exit_code = res.exit_code;  // ExitStatus::code(): none for a signal death
  return out;
}

std::string stdin_json(const std::string& event, const ojson& payload) {
  // Codex's strings are Rust strings, valid UTF-8 by construction: a case's invalid bytes are
  // sent as U+FFFD, as they would have reached Codex's own input already decoded.
  const std::string text = payload.dump(-1, ' ', false, ojson::error_handler_t::replace);
  if (!payload.is_object()) return text;
  const ojson p = ojson::parse(text);
  ojson o = ojson::object();
  for (const auto& k : input_fields(event))
    if (auto it = p.find(k); it != p.end()) o[k] = *it;
  for (const auto& [k, v] : p.items())
    if (!o.contains(k)) o[k] = v;
  // serde_json::to_string: compact, UTF-8 as is, no trailing newline; the objects inside (the
  // model's tool input) in the order given.
  return o.dump(-1, ' ', false, ojson::error_handler_t::replace);
}

namespace {

// CXSRC engine/output_parser.rs parse_json: stdout trimmed, parsed as JSON, an object, then
// deserialized into the event's struct; any failure is "no parse".
std::optional<json> parse_reply(const std::string& event, const std::string& stdout_text,
                                std::optional<std::string>& problem) {
  const std::string t = rust_trim(stdout_text);
  json j = cx::serde_parses(t) ? json::parse(t, nullptr, false) : json(json::value_t::discarded);
  if (j.is_discarded()) {
    problem = "not valid JSON";
    return std::nullopt;
  }
  if (!j.is_object()) {
    problem = "not a JSON object";
    return std::nullopt;
  }
  problem = cx::reply_wire_problem(event, j);
  if (problem) return std::nullopt;
  return j;
}

// CXSRC output_parser.rs looks_like_json: stdout starting (after leading whitespace) with { or [.
bool looks_like_json(const std::string& s) {
  const std::string t = rust_trim(s);
  return !t.empty() && (t[0] == '{' || t[0] == '[');
}

std::optional<std::string> str(const json& j, const char* k) {
  if (j.is_object() && j.contains(k) && j[k].is_string()) return j[k].get<std::string>();
  return std::nullopt;
}
bool present(const json& j, const char* k) { return j.is_object() && j.contains(k) && !j[k].is_null(); }

struct Universal {
  bool cont = true, suppress = false;
  std::optional<std::string> stop_reason, system_message;
};
Universal universal(const json& j) {
  Universal u;
  if (j.contains("continue")) u.cont = j["continue"].get<bool>();
  if (j.contains("suppressOutput")) u.suppress = j["suppressOutput"].get<bool>();
  u.stop_reason = str(j, "stopReason");
  u.system_message = str(j, "systemMessage");
  return u;
}

std::string invalid_json_text(const std::string& event) {
  // CXSRC events/*.rs parse_completed: the error each event records for stdout that looks like
  // JSON but is not its reply.
  if (event == "PreToolUse") return "hook returned invalid pre-tool-use JSON output";
  if (event == "PermissionRequest") return "hook returned invalid permission-request JSON output";
  if (event == "PostToolUse") return "hook returned invalid post-tool-use JSON output";
  if (event == "UserPromptSubmit") return "hook returned invalid user prompt submit JSON output";
  if (event == "SessionStart") return "hook returned invalid session start JSON output";
  if (event == "SubagentStart") return "hook returned invalid subagent start JSON output";
  if (event == "Stop") return "hook returned invalid stop hook JSON output";
  if (event == "SubagentStop") return "hook returned invalid subagent stop hook JSON output";
  // compact.rs words it with the event's name; the events the snapshot lacks are assumed to.
  return "hook returned invalid " + event + " hook JSON output";
}

void fail(Reading& r, const std::string& text) {
  r.status = "failed";
  r.entries.push_back({"error", text});
}

void add_context(Reading& r, const std::string& c) {
  r.entries.push_back({"context", c});
  r.contexts.push_back(c);
}

// CXSRC output_parser.rs parse_pre_tool_use + events/pre_tool_use.rs parse_completed. The
// reply's validity is pinta::hosts::codex::reply_rejection (the same check the model uses).
void read_pre_tool_use(const json& j, Reading& r, const cx::Rules& rules) {
  const Universal u = universal(j);
  if (u.system_message) r.entries.push_back({"warning", *u.system_message});
  if (auto invalid = cx::reply_rejection("PreToolUse", j)) {
    // CX: a deny without a reason, `ask`, continue/stopReason/suppressOutput: Failed, it runs.
    fail(r, *invalid);
    r.invalid_problem = invalid;
    return;
  }
  const json hso = present(j, "hookSpecificOutput") ? j["hookSpecificOutput"] : json::object();
  const json pd = hso.contains("permissionDecision") ? hso["permissionDecision"] : json();
  // The hookSpecificOutput decision when it carries any of its three fields, else the legacy one.
  const bool specific = !pd.is_null() || present(hso, "permissionDecisionReason") ||
                        present(hso, "updatedInput");
  if (auto c = str(hso, "additionalContext")) add_context(r, *c);
  std::optional<std::string> block;
  if (specific && pd == "deny")
    block = trimmed_non_empty(*str(hso, "permissionDecisionReason"));
  else if (!specific && j.contains("decision") && j["decision"] == "block")
    block = trimmed_non_empty(*str(j, "reason"));  // CX: the legacy block blocks
  if (block) {
    r.status = "blocked";
    r.should_block = true;
    r.block_reason = block;
    r.entries.push_back({"feedback", *block});
  } else if (pd == "allow" && rules.updated_input) {
    // Releases before 0.141.0 read the allow and run the call as the model asked (measured:
    // scenario pre-allow-updated-input without a concurrent hook, profile codex-0.124).
    r.updated_input = hso["updatedInput"];
  }
}

// CXSRC output_parser.rs parse_permission_request + events/permission_request.rs.
void read_permission_request(const json& j, Reading& r) {
  const Universal u = universal(j);
  if (u.system_message) r.entries.push_back({"warning", *u.system_message});
  if (auto invalid = cx::reply_rejection("PermissionRequest", j)) {
    fail(r, *invalid);
    r.invalid_problem = invalid;
    return;
  }
  const json hso = present(j, "hookSpecificOutput") ? j["hookSpecificOutput"] : json::object();
  if (!present(hso, "decision")) return;
  const json& d = hso["decision"];
  if (d["behavior"] == "allow") {
    r.permission = "allow";
    return;
  }
  auto m = str(d, "message");
  std::optional<std::string> msg = m ? trimmed_non_empty(*m) : std::nullopt;
  r.permission = "deny";
  r.permission_message = msg.value_or("PermissionRequest hook denied approval");
  r.status = "blocked";
  r.entries.push_back({"feedback", *r.permission_message});
}

// The decision:block + reason events (CXSRC output_parser.rs parse_post_tool_use,
// parse_user_prompt_submit, parse_stop; events/post_tool_use.rs, user_prompt_submit.rs, stop.rs):
// continue:false is honoured first, then a rejected reply fails, then a block.
void read_block_event(const std::string& event, const json& j, Reading& r) {
  const Universal u = universal(j);
  if (u.system_message) r.entries.push_back({"warning", *u.system_message});
  const bool block = j.contains("decision") && j["decision"] == "block";
  const auto reason = str(j, "reason");
  const auto invalid = cx::reply_rejection(event, j);
  const json hso = present(j, "hookSpecificOutput") ? j["hookSpecificOutput"] : json::object();
  // Context is kept unless the reply is rejected (even with continue:false).
  if (!invalid)
    if (auto c = str(hso, "additionalContext")) add_context(r, *c);
  if (!u.cont) {
    r.status = "stopped";
    r.should_stop = true;
    r.stop_reason = u.stop_reason;
    if (event == "PostToolUse") {
      // post_tool_use.rs: the stop text (default below) is recorded and fed back to the model,
      // the reply's reason in its place when it has one.
      const std::string stop_text = u.stop_reason.value_or("PostToolUse hook stopped execution");
      r.entries.push_back({"stop", stop_text});
      auto fb = reason ? trimmed_non_empty(*reason) : std::nullopt;
      r.feedback.push_back(fb.value_or(stop_text));
    } else if (u.stop_reason) {
      r.entries.push_back({"stop", *u.stop_reason});
    }
    return;
  }
  if (invalid) {
    fail(r, *invalid);
    r.invalid_problem = invalid;
    return;
  }
  if (!block) return;
  r.status = "blocked";
  r.should_block = true;
  if (event == "PostToolUse") {
    // The reason as given goes back to the model; the tool already ran.
    r.block_reason = reason;
    r.entries.push_back({"feedback", *reason});
    r.feedback.push_back(*reason);
  } else if (event == "UserPromptSubmit") {
    // user_prompt_submit.rs: a block stops the turn with the reason as given.
    r.block_reason = reason;
    r.should_stop = true;
    r.stop_reason = reason;
    r.entries.push_back({"feedback", *reason});
  } else {
    // stop.rs: the trimmed reason is the prompt Codex continues with.
    r.block_reason = trimmed_non_empty(*reason);
    r.entries.push_back({"feedback", *r.block_reason});
  }
}

// SessionEnd and Interrupt (0.171.0 lists both, 1 s default timeout; the engine snapshot read
// has neither): their output is not read (hosts/codex family.h: "the session is over; output is
// ignored"); a non-zero exit is a failure like everywhere else. PreModelRequest and
// PostModelRequest, also listed by 0.171.0 and also absent from the snapshot, are read with the
// universal fields only (pinta::hosts::codex::reply_wire_problem).
bool output_ignored(const std::string& event) { return event == "SessionEnd" || event == "Interrupt"; }

// CX (measured): exit 2 + stderr blocks with stderr (trimmed) as the reason; exit 2 with an
// empty stderr is a Failed run and the tool runs. CXSRC: the same on every event that reads exit
// 2 (PreToolUse, PermissionRequest, PostToolUse, UserPromptSubmit, Stop, SubagentStop).
void read_exit2(const std::string& event, const HookRun& run, Reading& r) {
  auto reason = trimmed_non_empty(run.stderr_text);
  if (!reason) {
    const std::map<std::string, std::string> kEmpty = {
        {"PreToolUse",
         "PreToolUse hook exited with code 2 but did not write a blocking reason to stderr"},
        {"PermissionRequest",
         "PermissionRequest hook exited with code 2 but did not write a denial reason to stderr"},
        {"PostToolUse", "PostToolUse hook exited with code 2 but did not write feedback to stderr"},
        {"UserPromptSubmit",
         "UserPromptSubmit hook exited with code 2 but did not write a blocking reason to stderr"},
        {"Stop", "Stop hook exited with code 2 but did not write a continuation prompt to stderr"},
        {"SubagentStop",
         "SubagentStop hook exited with code 2 but did not write a continuation prompt to stderr"}};
    fail(r, kEmpty.at(event));
    return;
  }
  r.entries.push_back({"feedback", *reason});
  if (event == "PostToolUse") {
    // post_tool_use.rs: the feedback goes to the model as a decision:block's does; the run is
    // recorded as Completed (not Blocked).
    r.feedback.push_back(*reason);
    r.should_block = true;
    r.block_reason = reason;
    return;
  }
  r.status = "blocked";
  if (event == "PermissionRequest") {
    r.permission = "deny";
    r.permission_message = reason;
    return;
  }
  r.should_block = true;
  r.block_reason = reason;
  if (event == "UserPromptSubmit") {
    r.should_stop = true;
    r.stop_reason = reason;
  }
}

// Exit 0 with stdout that is no JSON object of the event (`trimmed`: that stdout, trimmed).
void read_unparsed_stdout(const std::string& event, const HookRun& run, const std::string& trimmed,
                          const std::optional<std::string>& problem, Reading& r) {
  if (looks_like_json(run.stdout_text)) {
    // CX: an extra key, invalid JSON → the run is Failed and the tool runs.
    r.stdout_read = "invalid";
    r.invalid_problem = problem;
    fail(r, invalid_json_text(event));
    return;
  }
  r.stdout_read = "text";
  // CXSRC session_start.rs / user_prompt_submit.rs: plain stdout becomes model context there;
  // CX: elsewhere plain text at exit 0 is ignored.
  if (event == "SessionStart" || event == "SubagentStart" || event == "UserPromptSubmit")
    add_context(r, trimmed);
  else if (event == "Stop" || event == "SubagentStop")
    // stop.rs: any stdout that does not parse is a Failed run (there is no text branch).
    fail(r, invalid_json_text(event));
}

// SessionStart / SubagentStart (session_start.rs) and PreCompact / PostCompact (compact.rs):
// their JSON reply.
void read_session_or_compact(const std::string& event, const json& j, bool compact, Reading& r) {
  const Universal u = universal(j);
  if (u.system_message) r.entries.push_back({"warning", *u.system_message});
  if (event == "SessionStart" || event == "SubagentStart") {
    const json hso = present(j, "hookSpecificOutput") ? j["hookSpecificOutput"] : json::object();
    if (auto c = str(hso, "additionalContext")) add_context(r, *c);
  }
  // SubagentStart ignores continue:false (session_start.rs).
  if (!u.cont && event != "SubagentStart") {
    r.status = "stopped";
    r.should_stop = true;
    r.stop_reason = u.stop_reason;
    if (u.stop_reason || compact)
      r.entries.push_back({"stop", u.stop_reason.value_or(event + " hook stopped execution")});
  }
}

}  // namespace

Reading read_run(const std::string& event, const HookRun& run, const cx::Rules& rules) {
  Reading r;
  // CXSRC events/*.rs parse_completed: a run error (timeout, spawn failure) is a Failed run
  // with the error as its text; CX: a hook past its timeout, and the tool runs.
  if (run.error) {
    fail(r, *run.error);
    return r;
  }
  const bool compact = event == "PreCompact" || event == "PostCompact";
  if (!run.exit_code) {
    fail(r, compact ? "hook process terminated without an exit code"
                    : "hook exited without a status code");
    return r;
  }
  const int code = *run.exit_code;
  const bool reads_exit2 = event == "PreToolUse" || event == "PermissionRequest" ||
                           event == "PostToolUse" || event == "UserPromptSubmit" ||
                           event == "Stop" || event == "SubagentStop";
  if (code == 2 && reads_exit2) {
    read_exit2(event, run, r);
    return r;
  }
  if (code != 0) {
    // CX: exit 1 (any other code) is a Failed run; the tool runs. CXSRC compact.rs records the
    // trimmed stderr when there is one.
    auto err = compact ? trimmed_non_empty(run.stderr_text) : std::nullopt;
    fail(r, err.value_or("hook exited with code " + std::to_string(code)));
    return r;
  }
  if (output_ignored(event)) return r;
  const std::string trimmed = rust_trim(run.stdout_text);
  if (trimmed.empty()) return r;  // CX: exit 0 and no output: as without the hook
  std::optional<std::string> problem;
  auto j = parse_reply(event, run.stdout_text, problem);
  if (!j) {
    read_unparsed_stdout(event, run, trimmed, problem, r);
    return r;
  }
  r.stdout_read = "json";
  if (event == "PreToolUse") {
    read_pre_tool_use(*j, r, rules);
  } else if (event == "PermissionRequest") {
    read_permission_request(*j, r);
  } else if (event == "PostToolUse" || event == "UserPromptSubmit" || event == "Stop" ||
             event == "SubagentStop") {
    read_block_event(event, *j, r);
  } else {
    read_session_or_compact(event, *j, compact, r);
  }
  return r;
}

Outcome decide(const std::string& event, const json& payload, const std::vector<HookRun>& runs,
               const std::vector<Reading>& rs) {
  Outcome o;
  for (const auto& r : rs) {
    if (r.status == "failed")
      for (const auto& e : r.entries)
        if (e.kind == "error") o.failures.push_back(e.text);
    for (const auto& c : r.contexts) o.additional_contexts.push_back(c);
  }
  // Results are kept in plan order (CXSRC dispatcher.rs execute_handlers: every handler runs
  // concurrently, results sorted back into configured order); "first" below is plan order.
  auto first = [&](auto pick) -> std::optional<std::string> {
    for (const auto& r : rs)
      if (auto v = pick(r)) return v;
    return std::nullopt;
  };
  const bool any_stop = std::any_of(rs.begin(), rs.end(), [](const Reading& r) { return r.should_stop; });
  const bool any_block = std::any_of(rs.begin(), rs.end(), [](const Reading& r) { return r.should_block; });
  if (event == "PreToolUse") {
    // CXSRC events/pre_tool_use.rs run: blocked when any hook blocked, the first block reason
    // (plan order); otherwise the updatedInput of the allow that finished last.
    if (any_block) {
      o.blocked = true;
      o.tool_runs = false;
      o.block_reason = first([](const Reading& r) { return r.block_reason; });
      // CXSRC core hook_runtime.rs run_pre_tool_use_hooks; CX (measured on Bash): the text the
      // model reads in place of the tool's output.
      const std::string tool = payload.value("tool_name", std::string());
      const json input = payload.contains("tool_input") ? payload["tool_input"] : json();
      if ((tool == "Bash" || tool == "apply_patch") && input.is_object() &&
          input.contains("command") && input["command"].is_string())
        o.model_text = "Command blocked by PreToolUse hook: " + *o.block_reason +
                       ". Command: " + input["command"].get<std::string>();
      else
        o.model_text = "Tool call blocked by PreToolUse hook: " + *o.block_reason +
                       ". Tool: " + tool;
    } else {
      long long last = -1;
      for (size_t i = 0; i < rs.size() && i < runs.size(); ++i)
        if (rs[i].updated_input && runs[i].finished_us >= last) {
          last = runs[i].finished_us;
          o.updated_input = rs[i].updated_input;
        }
    }
  } else if (event == "PermissionRequest") {
    // CXSRC events/permission_request.rs resolve_permission_request_decision: any deny wins
    // (the first in plan order), else allow when one allowed, else no verdict (Codex asks as
    // it would without the hook).
    for (const auto& r : rs)
      if (r.permission == "deny") {
        o.permission_decision = "deny";
        o.permission_message = r.permission_message;
        break;
      }
    if (!o.permission_decision)
      for (const auto& r : rs)
        if (r.permission == "allow") o.permission_decision = "allow";
    if (o.permission_decision == "deny") {
      o.blocked = true;
      o.tool_runs = false;
      o.block_reason = o.permission_message;
    }
  } else if (event == "PostToolUse") {
    // CXSRC events/post_tool_use.rs run: feedback joined with a blank line; continue:false stops.
    std::vector<std::string> fb;
    for (const auto& r : rs) fb.insert(fb.end(), r.feedback.begin(), r.feedback.end());
    if (!fb.empty()) {
      std::string joined;
      for (size_t i = 0; i < fb.size(); ++i) joined += (i ? "\n\n" : "") + fb[i];
      o.model_text = joined;
    }
    o.blocked = any_block;
    o.block_reason = first([](const Reading& r) { return r.block_reason; });
    o.stopped = any_stop;
    o.stop_reason = first([](const Reading& r) { return r.stop_reason; });
  } else if (event == "Stop" || event == "SubagentStop") {
    // CXSRC events/stop.rs aggregate_results: a stop wins over blocks; blocks' reasons joined
    // with a blank line become the prompt Codex continues with.
    o.stopped = any_stop;
    o.stop_reason = first([](const Reading& r) { return r.stop_reason; });
    if (!any_stop && any_block) {
      o.blocked = true;
      std::string joined;
      for (const auto& r : rs)
        if (r.block_reason) joined += (joined.empty() ? "" : "\n\n") + *r.block_reason;
      o.block_reason = joined;
      o.model_text = joined;
    }
  } else {
    // UserPromptSubmit (a block stops the turn), SessionStart, PreCompact, PostCompact.
    o.stopped = any_stop;
    o.blocked = any_block;
    o.stop_reason = first([](const Reading& r) { return r.stop_reason; });
    o.block_reason = first([](const Reading& r) { return r.block_reason; });
  }
  return o;
}

PlanRun run_plan(const std::vector<cx::HookHandler>& plan, const std::string& event,
                 const ojson& payload, const std::string& cwd,
                 const std::map<std::string, std::string>& base_env, const cx::Rules& rules) {
  // CX: matching hooks run concurrently; CXSRC dispatcher.rs execute_handlers waits for all.
  const std::string input = stdin_json(event, payload);
  std::vector<std::future<HookRun>> futures;
  for (const auto& h : plan)
    futures.push_back(std::async(std::launch::async, [&h, &input, &cwd, &base_env] {
      auto spawner = proc::make_spawner();
      return hook_run(h, spawner->run(spawn_request(h, input, cwd, hook_environment(h, base_env))));
    }));
  PlanRun pr;
  for (auto& f : futures) pr.runs.push_back(f.get());
  for (const auto& r : pr.runs) pr.readings.push_back(read_run(event, r, rules));
  // CXSRC dispatcher.rs execute_handlers: `async` handlers are started beside the others but not
  // waited for; their output is queued for a later turn and takes no part in this event's
  // outcome (the emulator waits for them, so their runs are still reported).
  std::vector<HookRun> runs;
  std::vector<Reading> readings;
  for (size_t i = 0; i < plan.size(); ++i)
    if (!plan[i].is_async) {
      runs.push_back(pr.runs[i]);
      readings.push_back(pr.readings[i]);
    }
  pr.outcome = decide(event, json(payload), runs, readings);
  // Measured, not the engine's rule (hosts::codex::Rules::deny_race): on such a release a block
  // beside another hook was lost in some runs (0.145.0: 3 of 7 runs ran the call).
  pr.outcome.deny_may_be_lost =
      event == "PreToolUse" && rules.deny_race && pr.outcome.blocked && runs.size() > 1;
  return pr;
}

json outcome_json(const Outcome& o) {
  auto opt = [](const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); };
  json out = {{"toolRuns", o.deny_may_be_lost ? json(nullptr) : json(o.tool_runs)},
          {"blocked", o.blocked},
          {"stopped", o.stopped},
          {"blockReason", opt(o.block_reason)},
          {"stopReason", opt(o.stop_reason)},
          {"modelText", opt(o.model_text)},
          {"permissionDecision", opt(o.permission_decision)},
          {"permissionMessage", opt(o.permission_message)},
          {"additionalContexts", o.additional_contexts},
          {"updatedInput", o.updated_input ? *o.updated_input : json(nullptr)},
          {"failures", o.failures}};
  if (o.deny_may_be_lost) out["denyMayBeLost"] = true;
  return out;
}

json report_json(const std::vector<cx::HookHandler>& plan, const PlanRun& run) {
  json loaded = json::array();
  for (const auto& h : plan)
    loaded.push_back({{"event", h.event}, {"matcher", h.matcher}, {"command", h.command},
                      {"timeoutSec", std::max<long>(1, h.timeout_ms / 1000)},
                      {"source", h.source}, {"file", h.file}, {"async", h.is_async}});
  json results = json::array();
  for (size_t i = 0; i < run.runs.size(); ++i) {
    const HookRun& r = run.runs[i];
    const Reading& rd = run.readings.at(i);
    json entries = json::array();
    for (const auto& e : rd.entries) entries.push_back({{"kind", e.kind}, {"text", e.text}});
    results.push_back({{"command", r.command},
                       {"exit", r.exit_code ? json(*r.exit_code) : json(nullptr)},
                       {"stdout", r.stdout_text},
                       {"stderr", r.stderr_text},
                       {"timedOut", r.timed_out},
                       {"error", r.error ? json(*r.error) : json(nullptr)},
                       {"status", rd.status},
                       {"stdoutRead", rd.stdout_read},
                       {"problem", rd.invalid_problem ? json(*rd.invalid_problem) : json(nullptr)},
                       {"entries", entries}});
  }
  return {{"loaded", loaded}, {"results", results}, {"outcome", outcome_json(run.outcome)}};
}

}  // namespace pinta::emu::codex
