// Host-specific spawning and reply reading, through the emulator libraries
// (pinta/emulator/host_runner.h).
#include "pinta/emulator/host_runner.h"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <sstream>

#include "pinta/common/fs.h"
#include "pinta/emulator/antigravity/antigravity.h"
#include "pinta/emulator/claude/claude.h"
#include "pinta/emulator/deel/deel.h"
#include "pinta/emulator/gemini/gemini.h"
#include "pinta/hosts/hosts.h"

namespace pinta::emu {
namespace {

using pinta::hosts::Family;

namespace gem = pinta::emu::gemini;
namespace agy = pinta::emu::agy;

// Wraps the real spawner: replaces the host's stdin bytes/mode when the case asks for hostile
// input, and caps the timeouts so that a broken adapter cannot stall the suite (the hosts' own
// timeouts are 30 s / 60 s; a case states its own budget in timeout_ms).
class CaseSpawner : public pinta::proc::Spawner {
 public:
  explicit CaseSpawner(const HookCall& call)
      : in_(call.input),
        timeout_ms_(call.timeout_ms),
        pipe_grace_ms_(call.pipe_grace_ms),
        host_parent_(call.host_parent),
        cancel_(call.cancel) {}
  pinta::proc::SpawnResult run(const pinta::proc::SpawnRequest& request) override {
    pinta::proc::SpawnRequest rq = request;
    if (in_.raw) rq.stdin_data = *in_.raw;
    if (in_.stdin_mode == "closed") rq.stdin_mode = pinta::proc::StdinMode::kCloseAfterWrite;
    if (in_.stdin_mode == "open") rq.stdin_mode = pinta::proc::StdinMode::kKeepOpen;
    if (in_.stdin_mode == "none") rq.stdin_mode = pinta::proc::StdinMode::kNone;
    if (in_.stdin_mode == "dripped") {
      rq.stdin_mode = pinta::proc::StdinMode::kDrip;
      rq.drip_interval = std::chrono::milliseconds(20);
      rq.drip_chunk = std::max<size_t>(1, rq.stdin_data.size() / 8);
    }
    auto t = std::chrono::milliseconds(timeout_ms_);
    if (rq.timeout.count() == 0 || rq.timeout > t) rq.timeout = t;
    rq.hard_limit = t + std::chrono::milliseconds(1500);
    if (pipe_grace_ms_ > 0) rq.pipe_grace = std::chrono::milliseconds(pipe_grace_ms_);
    // A reply is a line of JSON; keeping more than 1 MiB of a flooding adapter's output only costs
    // the grader time and memory (the rest is read and dropped; the run is marked truncated).
    rq.max_capture = std::min<size_t>(rq.max_capture, 1u << 20);
    if (!host_parent_.empty()) rq = under_parent(host_parent_, std::move(rq));
    rq.cancel = cancel_;
    sent_ = rq.stdin_data;
    return inner_->run(rq);
  }
  const std::string& sent() const { return sent_; }

 private:
  HookInput in_;
  int timeout_ms_;
  int pipe_grace_ms_;
  std::vector<std::string> host_parent_;
  const std::atomic<bool>* cancel_;
  std::string sent_;
  std::unique_ptr<pinta::proc::Spawner> inner_ = pinta::proc::make_spawner();

  // HookCall::host_parent: the spawn is a bash whose argv[0] is parent[0] and whose /proc cmdline
  // is `<parent[0]> -c <script> <parent[0]> <parent[1..]>` (one process, so the process group and
  // the timeout signals stay the spawn's); the script runs the host's argv as its child (inheriting
  // stdin/stdout/stderr and env; the program as looked up in PATH, argv[0] as given) and exits with
  // its status (a signal death as 128+N, as a shell reports it). Not the last command of the
  // script, so bash cannot exec it in place of the parent. A timeout signal sent to the group
  // reaches both; one sent to the spawned pid alone reaches the parent, as a host's kill reaches
  // the host's own child.
  static pinta::proc::SpawnRequest under_parent(const std::vector<std::string>& parent,
                                                pinta::proc::SpawnRequest rq) {
    auto quote = [](const std::string& a) {
      std::string q = "'";
      for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
      return q + "'";
    };
    std::string script;
    for (const auto& a : rq.argv) script += quote(a) + " ";
    script += "; rc=$?; exit $rc";
    rq.argv = {"bash", "-c", script, parent[0]};
    rq.argv.insert(rq.argv.end(), parent.begin() + 1, parent.end());
    rq.argv0 = parent[0];
    return rq;
  }
};

json spawn_json(const pinta::proc::SpawnResult& r) {
  return {{"started", r.started},
          {"exit_code", r.exit_code ? json(*r.exit_code) : json()},
          {"signal", r.term_signal ? json(*r.term_signal) : json()},
          {"timed_out", r.timed_out},
          {"pipes_outlived_child", r.pipes_outlived_child}};
}

// A Gemini CLI host: gemini-0.61 (the emulator's own rules) or a version profile's column
// (gemini-0.26, gemini-0.35, …: hosts/gemini/profiles/<host>.json), whose per-hook
// switches change how the one hook runs and how its reply is read (docs/gemini-versions.md).
class GeminiRunner : public HostRunner {
 public:
  GeminiRunner(std::string fixtures, gem::ojson switches)
      : fixtures_(std::move(fixtures)), switches_(std::move(switches)) {}

  HookOutcome run(const HookCall& call) override {
    HookOutcome out;
    CaseSpawner sp(call);
    gem::HookSpec spec;
    spec.command = call.command;
    spec.timeout_ms = call.timeout_ms;
    gem::RunContext ctx;
    ctx.cwd = call.cwd;
    ctx.env = std::vector<std::pair<std::string, std::string>>(call.env.begin(), call.env.end());
    ctx.spawner = &sp;
    ctx.rules = gem::hook_rules_from_switches(switches_);
    gem::ojson input = gem::ojson::parse(call.input.payload.dump(), nullptr, false);
    if (input.is_discarded()) input = gem::ojson::object();
    auto r = gem::run_hook(spec, call.event, input, ctx);
    out.raw = r.raw;
    out.stdin_sent = sp.sent();
    // What the CLI does with the hook's output (§4.5, §5): text output is shown to the user or
    // becomes a deny reason; decision deny/block blocks; a failed hook is logged (§4.6).
    std::string decision;
    if (r.output && r.output->is_object() && r.output->contains("decision") &&
        (*r.output)["decision"].is_string())
      decision = (*r.output)["decision"].get<std::string>();
    if (r.plain_text)  // outputFormat "text" (0.30+); 0.26 converts the same way without it
      out.effect = decision == "deny" ? "text_denied" : "text_shown";
    else if (decision == "deny" || decision == "block")
      out.effect = "denied";
    else if (!r.success)
      out.effect = "hook_failed";
    else if (decision == "ask")
      out.effect = "asked";
    else if (decision == "allow" || decision == "approve")
      out.effect = "allowed";
    else
      out.effect = "no_opinion";
    if (r.output && r.output->is_object()) {
      out.effect_message = gem::effective_reason(*r.output);
      out.detail["output"] = json::parse(r.output->dump(), nullptr, false);
      // The tool error the CLI reports for this reply, worded by the version (0.26: bare).
      auto terr = gem::tool_error_text(switches_, call.event, *r.output);
      if (!terr.empty()) out.detail["tool_error"] = terr;
      if (call.event == "BeforeTool" && terr.empty() && input.is_object()) {
        auto ti = gem::rewritten_tool_input(
            switches_, input.contains("tool_input") ? input["tool_input"] : gem::ojson(),
            *r.output);
        if (!ti.is_null()) out.detail["tool_input"] = json::parse(ti.dump(), nullptr, false);
      }
    }
    if (r.error) out.detail["error"] = *r.error;
    out.detail["output_format"] = r.output_format;
    out.detail["spawn"] = spawn_json(r.raw);
    return out;
  }

  json default_payload(const std::string& event, const json& opts, const std::string&,
                       const std::string& workspace) override {
    // The first y_ fixture for the event (GEM§7 shapes, fixtures/MANIFEST.json provenance).
    std::string dir = fixtures_ + "/gemini/0.61.0/" + event;
    std::vector<std::string> ys;
    std::error_code ec;
    for (auto& e : std::filesystem::directory_iterator(dir, ec)) {
      auto n = e.path().filename().string();
      if (n.starts_with("y_")) ys.push_back(e.path().string());
    }
    std::sort(ys.begin(), ys.end());
    std::string want = opts.value("fixture_name", std::string());
    json p = json::object();
    for (const auto& f : ys) {
      if (!want.empty() && !f.ends_with("/" + want)) continue;
      auto t = pinta::fs::read_file(f);
      if (t) p = json::parse(*t, nullptr, false);
      break;
    }
    if (!p.is_object()) p = json::object();
    if (p.empty())
      p = {{"session_id", "11111111-2222-4333-8444-555555555555"},
           {"hook_event_name", event},
           {"timestamp", "2026-12-02T10:00:00.000Z"}};
    p["cwd"] = workspace;
    if (opts.contains("session")) p["session_id"] = opts["session"];
    if (opts.contains("tool")) p["tool_name"] = opts["tool"];
    if (opts.contains("tool_args")) p["tool_input"] = opts["tool_args"];
    return p;
  }

 private:
  std::string fixtures_;
  gem::ojson switches_;
};

class AgyRunner : public HostRunner {
 public:
  explicit AgyRunner(agy::Profile p) : profile_(std::move(p)) {}

  std::optional<std::string> hooks_not_run() const override {
    return agy::hooks_not_run_reason(profile_);
  }

  HookOutcome run(const HookCall& call) override {
    HookOutcome out;
    CaseSpawner sp(call);
    auto ev = agy::parse_event(call.event);
    agy::PlannedHook planned;
    planned.hook = "pinta";
    planned.id = "jsonhook__pinta_" + call.event + "_0_0";
    planned.command = call.command;
    // §5.1: sh -c or a whitespace split, per profile.
    if (profile_.shell == "split") {
      std::istringstream in(call.command);
      for (std::string w; in >> w;) planned.argv.push_back(w);
    } else {
      planned.argv = {"sh", "-c", call.command};
    }
    planned.timeout_seconds = std::max(1, (call.timeout_ms + 999) / 1000);
    planned.cwd = call.cwd;
    std::string line = agy::payload_line(profile_, call.input.payload);
    auto rq = agy::spawn_request_for(profile_, planned, line, call.env);
    if (ev && *ev == agy::Event::kStop && profile_.stop_stdin == "none") {
      rq.stdin_data.clear();  // §5.4 (alera PR #75): no stdin on Stop for this profile
      rq.stdin_mode = pinta::proc::StdinMode::kNone;
    }
    out.raw = sp.run(rq);
    out.stdin_sent = sp.sent();
    out.detail["spawn"] = spawn_json(out.raw);
    if (!ev) {
      out.effect = "unknown_event";
      return out;
    }
    json args = json::object();
    const auto& pl = call.input.payload;
    if (pl.is_object() && pl.contains("toolCall") && pl["toolCall"].is_object() &&
        pl["toolCall"].contains("args"))
      args = pl["toolCall"]["args"];
    agy::ReplyContext ctx;
    ctx.hook_id = planned.id;
    if (pl.is_object() && pl.contains("toolCall") && pl["toolCall"].is_object() &&
        pl["toolCall"].contains("name") && pl["toolCall"]["name"].is_string())
      ctx.tool = pl["toolCall"]["name"].get<std::string>();
    auto eff = agy::interpret_reply(profile_, *ev, agy::reply_from(out.raw),
                                    *ev == agy::Event::kPreToolUse ? args : json(), ctx);
    out.effect = eff.kind;
    out.effect_message = eff.message;
    out.detail["effect"] = agy::effect_to_json(eff);
    return out;
  }

  json default_payload(const std::string& event, const json& opts, const std::string& home,
                       const std::string& workspace) override {
    auto ev = agy::parse_event(event);
    if (!ev) return json::object();
    agy::PayloadOptions o;
    o.home = home;
    o.workspace_paths = {workspace};
    if (opts.contains("tool")) o.tool = opts["tool"].get<std::string>();
    if (opts.contains("tool_args")) o.args = opts["tool_args"];
    if (opts.contains("session")) o.conversation_id = opts["session"].get<std::string>();
    return agy::make_payload(profile_, *ev, o);
  }

 private:
  agy::Profile profile_;
};

// deel-local-cli 1.17.1 (emu::deel = seed 004 hooks.js): one hook at the event, run as 훅돌리기
// runs it (bash -c, stdin JSON.stringify({자리, 도구, ...rest}) + "\n", exit 0 passes, 2 blocks at
// a blocking point, anything else is broken). The hook is registered without "onError": "pass",
// so a broken adapter blocks at 도구전/말전 exactly as the host's default would make it.
class DeelRunner : public HostRunner {
 public:
  HookOutcome run(const HookCall& call) override {
    namespace deel = pinta::emu::deel;
    HookOutcome out;
    CaseSpawner sp(call);
    InCwd in_cwd(sp, call.cwd);
    auto korean = deel::resolve_event(deel::ojson(call.event));
    if (!korean) {
      out.effect = "unknown_event";
      return out;
    }
    deel::Hook hook;
    hook.event = *korean;
    hook.matcher = "*";
    hook.command = call.command;
    hook.timeout_ms = call.timeout_ms;
    hook.source = "이 PC";
    // The payload a case gives is the caller's: 도구 is the tool, the rest is spread after it.
    deel::ojson rest = deel::ojson::object();
    std::optional<std::string> tool;
    if (call.input.payload.is_object()) {
      for (auto it = call.input.payload.begin(); it != call.input.payload.end(); ++it) {
        if (it.key() == "도구") {
          if (it->is_string()) tool = it->get<std::string>();
        } else if (it.key() != "자리") {  // the host writes 자리 itself (l.427)
          rest[it.key()] = deel::ojson::parse(it->dump());
        }
      }
    }
    const deel::EnvPairs env(call.env.begin(), call.env.end());
    const std::vector<deel::Hook> hooks = {hook};  // outlives the results (they point into it)
    auto o = deel::run_event(hooks, *korean, tool, rest, in_cwd, env);
    out.stdin_sent = sp.sent();
    if (o.results.empty()) {
      out.effect = "not_run";
      return out;
    }
    const deel::RunResult& r = o.results.front();
    out.raw = in_cwd.last();
    out.detail["spawn"] = spawn_json(out.raw);
    out.detail["code"] = r.code ? json(*r.code) : json();
    out.detail["why"] = r.why ? json(*r.why) : json();
    if (r.blocked) {
      out.effect = r.code && *r.code == 2 ? "blocked" : "blocked_broken";
      out.effect_message = deel::block_message(r);
    } else if (r.why) {
      out.effect = "broken_passed";
      out.effect_message = *r.why;
    } else {
      out.effect = r.message.empty() ? "passed" : "noted";
      out.effect_message = r.message;
    }
    return out;
  }

  json default_payload(const std::string&, const json& opts, const std::string&,
                       const std::string&) override {
    // seed 004 l.480: 도구 at every event (null off tool events); the rest is not in the seed.
    json p = json::object();
    p["도구"] = opts.contains("tool") ? opts["tool"] : json("Bash");
    if (opts.contains("tool_args") && opts["tool_args"].is_object())
      for (auto it = opts["tool_args"].begin(); it != opts["tool_args"].end(); ++it)
        p[it.key()] = it.value();
    return p;
  }

 private:
  // Runs the hook in the case's workspace and keeps the raw result for the report.
  class InCwd : public pinta::proc::Spawner {
   public:
    InCwd(pinta::proc::Spawner& inner, std::string cwd) : inner_(inner), cwd_(std::move(cwd)) {}
    pinta::proc::SpawnResult run(const pinta::proc::SpawnRequest& request) override {
      pinta::proc::SpawnRequest rq = request;
      if (!cwd_.empty()) rq.cwd = cwd_;
      last_ = inner_.run(rq);
      return last_;
    }
    const pinta::proc::SpawnResult& last() const { return last_; }

   private:
    pinta::proc::Spawner& inner_;
    std::string cwd_;
    pinta::proc::SpawnResult last_;
  };
};

// Claude Code 2.1.332 (emu::claude, docs/hosts/claude-code-2.1.md): the hook as the one command of
// the event's plan, spawned as the host spawns it (/bin/sh -c, cwd = the project, the payload as
// one compact JSON line then EOF, the host's environment additions), read as the host reads it
// (run_plan's reading: the schema and wrong-event rejections, then decide). The effect names what the host
// did with the run; the full outcome (what the model is told) is in the detail.
class ClaudeRunner : public HostRunner {
 public:
  HookOutcome run(const HookCall& call) override {
    namespace cc = pinta::emu::claude;
    HookOutcome out;
    CaseSpawner sp(call);
    pinta::hosts::claude::HookCommand h;
    h.event = call.event;
    h.command = call.command;
    h.timeout_ms = call.timeout_ms;
    h.source = "project";
    const json& payload = call.input.payload;
    const auto env = cc::hook_environment(
        call.cwd, payload, std::map<std::string, std::string>(call.env.begin(), call.env.end()));
    out.raw = sp.run(cc::spawn_request(h, payload.dump(), call.cwd, env));
    out.stdin_sent = sp.sent();
    out.detail["spawn"] = spawn_json(out.raw);
    cc::PlanRun pr;
    pr.runs.push_back(cc::hook_run(h, out.raw));
    cc::reject_unreadable(call.event, pr.runs.front());
    const std::vector<pinta::hosts::claude::HookCommand> plan = {h};
    pr.outcome = cc::decide(call.event, payload, plan, pr.runs);
    const json report = cc::report_json(plan, pr);
    out.detail["result"] = report["results"][0];
    out.detail["outcome"] = report["outcome"];
    classify(call.event, pr.runs.front(), pr.outcome, out);
    return out;
  }

  json default_payload(const std::string& event, const json& opts, const std::string& home,
                       const std::string& workspace) override {
    // The stdin 2.1.332 writes (shared/reference/real-hosts.md, "Hook stdin"; captured payloads
    // in fixtures/claude/2.1.332/): the common fields, then the event's own.
    const std::string session = opts.contains("session") && opts["session"].is_string()
                                    ? opts["session"].get<std::string>()
                                    : "25f3598c-343c-49de-add0-f6f92a8537fe";
    std::string project_key = workspace;  // ~/.claude/projects/<cwd with / as ->/<session>.jsonl
    std::replace(project_key.begin(), project_key.end(), '/', '-');
    json p = {
        {"session_id", session},
        {"transcript_path", home + "/.claude/projects/" + project_key + "/" + session + ".jsonl"},
        {"cwd", workspace},
        {"hook_event_name", event}};
    const json tool = opts.contains("tool") ? opts["tool"] : json("Bash");
    const json args = opts.contains("tool_args")
                          ? opts["tool_args"]
                          : json{{"command", "ls -la"}, {"description", "List files"}};
    const bool tool_event = pinta::hosts::is_tool_event(Family::kClaude, event);
    if (event == "UserPromptSubmit" || tool_event) {
      p["prompt_id"] = "feec67ef-60e3-47aa-b3c4-821946073622";
      p["permission_mode"] = "default";
    }
    if (event == "SessionStart") p["source"] = "startup";
    if (event == "SessionEnd") p["reason"] = "other";
    if (event == "UserPromptSubmit") p["prompt"] = "list the files";
    if (tool_event) {
      p["effort"] = {{"level", "medium"}};
      p["tool_name"] = tool;
      p["tool_input"] = args;
      p["tool_use_id"] = "toolu_01A9c4kXb2LmQ7dRtY3vNw8e";
    }
    if (event == "PostToolUse") {
      p["tool_response"] = {{"stdout", "notes.txt\n"},
                            {"stderr", ""},
                            {"interrupted", false},
                            {"isImage", false},
                            {"noOutputExpected", false}};
      p["duration_ms"] = 12;
    }
    if (event == "PostToolUseFailure") {
      p["error"] = "Exit code 3\n";
      p["is_interrupt"] = false;
      p["duration_ms"] = 9;
    }
    if (event == "Stop") {
      p["stop_hook_active"] = false;
      p["last_assistant_message"] = "Done.";
      p["background_tasks"] = json::array();
      p["session_crons"] = json::array();
    }
    return p;
  }

 private:
  // What the host did with the run, in the effect vocabulary of pinta/hosts/effects.h:
  //   timed_out       past its timeout: cancelled, no verdict read (scenario timeout)
  //   blocking_error  exit 2 where the event can block: stderr reaches the model as a hook error
  //                   (PreToolUse: the tool does not run; pre-exit2-*, ups-exit2, stop-exit2)
  //   error_shown     exit 2 where the event cannot block: stderr shown to the user only (ss-exit2)
  //   hook_error      any other status, or a JSON reply outside the host's schema: a non-blocking
  //                   error (post-exit1, ups-exit1, reply-invalid-*)
  //   denied / asked / allowed   PreToolUse's permission decision at exit 0 (CC: the JSON deny)
  //   stopped         continue:false: the session ends after this step (pre-continue-false, ...)
  //   blocked         another JSON decision that blocks (post-block, stop-block-json, …)
  //   json_read       any other JSON reply (context, systemMessage)
  //   text_shown      plain text at exit 0: shown, and on UserPromptSubmit/SessionStart given to
  //                   the model (ups-ctx, ss-stdout)
  //   no_opinion      exit 0 and nothing on stdout: the host goes on as without the hook
  static constexpr const char* kSpace = " \t\r\n\f\v";
  static void classify(const std::string& event, const pinta::emu::claude::HookRun& r,
                       const pinta::emu::claude::Outcome& o, HookOutcome& out) {
    auto joined = [](const std::vector<std::string>& v) {
      std::string s;
      for (const auto& x : v) s += (s.empty() ? "" : "\n") + x;
      return s;
    };
    const bool blank = r.stdout_text.find_first_not_of(kSpace) == std::string::npos;
    if (r.timed_out) {
      out.effect = "timed_out";
    } else if (r.exit == 2) {
      const bool blocks = pinta::hosts::blocks_on(Family::kClaude, event);
      out.effect = blocks ? "blocking_error" : "error_shown";
      out.effect_message = o.tool_result                        ? *o.tool_result
                           : blocks && !o.model_context.empty() ? joined(o.model_context)
                                                                : r.stderr_text;
    } else if (r.exit != 0 || r.reply_rejected) {
      // A reply outside the host's schema is a non-blocking error too (reply-invalid-*).
      out.effect = "hook_error";
      out.effect_message = r.stderr_text;
    } else if (o.permission_decision) {
      out.effect = *o.permission_decision == "deny"  ? "denied"
                   : *o.permission_decision == "ask" ? "asked"
                                                     : "allowed";
      out.effect_message = o.tool_result.value_or("");
    } else if (blank) {
      out.effect = "no_opinion";
    } else if (!pinta::emu::claude::is_json_reply(r.stdout_text)) {
      out.effect = "text_shown";
      out.effect_message = o.model_context.empty() ? r.stdout_text : joined(o.model_context);
    } else if (!o.continue_) {
      out.effect = "stopped";
      out.effect_message = o.stop_reason.value_or("");
    } else if (o.blocked) {
      out.effect = "blocked";
      out.effect_message = joined(o.model_context);
    } else {
      out.effect = "json_read";
      out.effect_message = o.system_message.value_or(joined(o.model_context));
    }
  }
};

std::unique_ptr<HostRunner> make_gemini(const std::string& host, const HostRunnerOptions& options,
                                        std::string& error) {
  // gemini-0.61 is the emulator's default; any other Gemini host is its profile file.
  if (host == "gemini-0.61")
    return std::make_unique<GeminiRunner>(options.fixtures_dir, gem::ojson::object());
  static std::mutex gmu;
  static std::map<std::string, gem::ojson> gcache;
  std::lock_guard<std::mutex> lock(gmu);
  auto it = gcache.find(host);
  if (it == gcache.end()) {
    auto prof = gem::load_profile(host);
    if (!prof) {
      error = "no Gemini CLI profile for host " + host + ": " + prof.error().message;
      return nullptr;
    }
    it = gcache.emplace(host, gem::profile_switches(*prof)).first;
  }
  return std::make_unique<GeminiRunner>(options.fixtures_dir, it->second);
}

std::unique_ptr<HostRunner> make_antigravity(const std::string& host,
                                             const HostRunnerOptions& options, std::string& error) {
  static std::mutex mu;
  static std::map<std::string, std::vector<agy::Profile>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(options.profiles_dir);
  if (it == cache.end()) {
    auto ps = agy::load_profiles(options.profiles_dir);
    if (!ps) {
      error = "cannot load Antigravity profiles from " + options.profiles_dir + ": " +
              ps.error().message;
      return nullptr;
    }
    it = cache.emplace(options.profiles_dir, std::move(*ps)).first;
  }
  const agy::Profile* p = agy::find_profile(it->second, host);
  if (!p) {
    error = "no Antigravity profile named " + host;
    return nullptr;
  }
  return std::make_unique<AgyRunner>(*p);
}

// ---- What a replay golden records of a run, per family -----------------------------------------
// The effect kind plus what the host does next, in the family's own terms; canonical JSON, so a
// golden file changes only when the host would act differently.

// deel-local-cli: its exit-code reading (code) and the message it shows (seed 004 l.444-460).
json deel_golden(const HookOutcome& o, const json&) {
  json e = {{"effect", o.effect}};
  e["code"] = o.detail.value("code", json());
  if (!o.effect_message.empty()) e["message"] = o.effect_message;
  return e;
}

// Gemini CLI: the parsed output and its format, the hook error, the deny message (GEM §4.5-§5).
json gemini_golden(const HookOutcome& o, const json&) {
  json e = {{"effect", o.effect}};
  if (o.detail.contains("output")) e["output"] = o.detail["output"];
  e["output_format"] = o.detail.value("output_format", std::string());
  if (o.detail.contains("error")) e["error"] = o.detail["error"];
  if (o.effect == "denied" || o.effect == "text_denied") e["message"] = o.effect_message;
  return e;
}

// Antigravity: the host's effect on the step; the tool's args as the host runs them,
// "<unchanged>" when the reply did not rewrite them (keeps goldens small and says the one thing
// that matters).
json agy_golden(const HookOutcome& o, const json& payload) {
  json e = {{"effect", o.effect}};
  if (!o.detail.contains("effect")) return e;
  e["host_effect"] = o.detail["effect"];
  json& after = e["host_effect"]["argsAfter"];
  const json* before = nullptr;
  if (payload.contains("toolCall") && payload["toolCall"].is_object() &&
      payload["toolCall"].contains("args"))
    before = &payload["toolCall"]["args"];
  if (!after.is_null() && before != nullptr && after == *before) after = "<unchanged>";
  return e;
}

// Claude Code (its runner's detail, emulator/hosts/claude): what the host does next, as its
// emulator decides it: blocked, toolResult, permissionDecision, continue, systemMessage, the
// context given to the model, updatedInput (docs/hosts/claude-code-2.1.md, "Replies").
json claude_golden(const HookOutcome& o, const json&) {
  json e = {{"effect", o.effect}};
  if (o.detail.contains("outcome")) e["outcome"] = o.detail["outcome"];
  return e;
}

// ---- Family runners, in registration order -------------------------------------------------
// Each registered family (pinta/hosts/family.h) names how a host of it is run; adding a family is
// its emulator library and one entry here.
struct RunnerRegistration {
  Family family;
  std::unique_ptr<HostRunner> (*make)(const std::string& host, const HostRunnerOptions& options,
                                      std::string& error);
  json (*golden)(const HookOutcome& o, const json& payload);
};
const RunnerRegistration kRunners[] = {
    {Family::kGemini, make_gemini, gemini_golden},
    {Family::kAntigravity, make_antigravity, agy_golden},
    {Family::kDeel,
     [](const std::string&, const HostRunnerOptions&, std::string&) -> std::unique_ptr<HostRunner> {
       return std::make_unique<DeelRunner>();
     },
     deel_golden},
    {Family::kClaude,
     [](const std::string&, const HostRunnerOptions&, std::string&) -> std::unique_ptr<HostRunner> {
       return std::make_unique<ClaudeRunner>();
     },
     claude_golden},
};
static_assert(sizeof kRunners / sizeof kRunners[0] == pinta::hosts::kFamilyCount,
              "every registered family (pinta/hosts/family.h) has its host runner here");

}  // namespace

std::unique_ptr<HostRunner> make_host_runner(const std::string& host,
                                             const HostRunnerOptions& options, std::string& error) {
  const auto f = pinta::hosts::host_family(host);
  if (!f) {
    error = "unknown host " + host + " (" + pinta::hosts::host_list() + ")";
    return nullptr;
  }
  for (const auto& r : kRunners)
    if (r.family == *f) return r.make(host, options, error);
  error = "no host runner for host " + host;
  return nullptr;
}

json golden_effect(Family f, const HookOutcome& o, const json& payload) {
  for (const auto& r : kRunners)
    if (r.family == f) return r.golden(o, payload);
  return {{"effect", o.effect}};
}

// Hooks run in a scratch directory, so a relative program path (the first word, as typed) is made
// absolute against the caller's directory; anything shell-quoted or not naming a file is kept.
std::string absolute_command(const std::string& cmd) {
  namespace stdfs = std::filesystem;
  size_t b = cmd.find_first_not_of(" \t");
  if (b == std::string::npos) return cmd;
  size_t e = cmd.find_first_of(" \t", b);
  std::string first = cmd.substr(b, e == std::string::npos ? std::string::npos : e - b);
  if (first.empty() || first[0] == '/' || first.find('/') == std::string::npos ||
      first.find_first_of("'\"\\$`") != std::string::npos)
    return cmd;
  std::error_code ec;
  if (!stdfs::exists(first, ec)) return cmd;
  std::string abs = stdfs::absolute(first, ec).lexically_normal().string();
  if (ec || abs.find_first_of(" \t'\"\\$`") != std::string::npos) return cmd;
  return cmd.substr(0, b) + abs + (e == std::string::npos ? std::string() : cmd.substr(e));
}

}  // namespace pinta::emu
