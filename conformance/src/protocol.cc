// The host-protocol profile (pinta/conformance/protocol.h): any hook, graded against what its host
// needs from a hook. Host rules come from two places only: the HostRunner (how the emulated host
// spawns the hook and what it made of the run: effect, reading) and the host facts of
// pinta/hosts/reply_check.h (the events, the gate event, where a deny means something).
#include "pinta/conformance/protocol.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <iterator>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "matcher_context.h"
#include "pinta/common/fs.h"
#include "pinta/hostlint/json_pos.h"
#include "pinta/hostlint/lint.h"
#include "pinta/hosts/family.h"
#include "pinta/hosts/hosts.h"
#include "protocol/reading.h"
#include "protocol/workspace.h"
#include "protocol/samples.h"

namespace pinta::conformance {
namespace stdfs = std::filesystem;
using pinta::hosts::Family;

const std::vector<ProtocolCheck>& protocol_checks() {
  static const std::vector<ProtocolCheck> k = {
      {"PROTO-0", "must", "Runs where the host runs it",
       "The hook's own program starts in the folder and environment its host gives it: the "
       "command is found and executable, its interpreter opens its script and loads its modules, "
       "and every host variable it names is set there. A hook that never runs is no answer of "
       "the hook's: its host meets the same broken command on every call, and the finding says "
       "what that host then does (a fail-closed gate blocks every call; others warn and go on, "
       "or block when the error reads as their blocking exit status).",
       "each family's reading of a failed run (docs/hosts/*.md); GEM §4.6; DEEL seed 004 "
       "l.436-456 (fail-closed); shared/reference/real-hosts.md (fail-closed gates); "
       "https://code.claude.com/docs/en/plugins-reference (${CLAUDE_PLUGIN_ROOT})"},
      {"PROTO-1", "must", "Ends before the host's timeout",
       "The hook exits by itself before the timeout its host gives it; past it the host kills it "
       "and treats the run as failed.",
       "GEM §4.3 (timeout, default 60 s); DEEL seed 004 l.199 (제한기본 15 s); AGY §5.5"},
      {"PROTO-2", "must", "Closes its pipes when it exits",
       "No process the hook started still holds its stdout or stderr after it exits: the host "
       "reads until both pipes close, so a background child keeps the host (and the tool call) "
       "waiting. (Claude Code reads at exit and does not wait: not checked there.)",
       "GEM §4.4 ('close', not 'exit'); DEEL seed 004 l.431-434; shared/reference/real-hosts.md"},
      {"PROTO-3", "must", "Exits with a status the host reads as an answer",
       "The exit status is one the host gives a meaning: Gemini CLI and Antigravity 0 (and "
       "Gemini 2 to block); deel-local-cli and Claude Code 0 to pass, 2 to block. Any other "
       "status is a failed hook: Gemini CLI warns and runs the tool anyway, deel-local-cli blocks "
       "at its blocking points (fail-closed) and ignores it elsewhere, Claude Code shows a "
       "non-blocking error and reads no decision.",
       "GEM §4.5-§4.6; AGY §6.1; DEEL seed 004 l.444-460; docs/hosts/claude-code-2.1.md "
       "(Replies: post-exit1, ups-exit1)"},
      {"PROTO-4", "must", "One reply or none on stdout",
       "A JSON-line host gets one JSON object or nothing on stdout: Gemini CLI turns any other "
       "text "
       "(log lines, two objects) into a message shown to the user, and reads stderr that way "
       "when stdout is empty; Antigravity fails the call. deel-local-cli shows whatever a "
       "passing hook prints as a note (should). Claude Code reads one JSON object (whose "
       "hookSpecificOutput names this event) or text, and uses text only on UserPromptSubmit and "
       "SessionStart (as context).",
       "GEM §4.5 (convertPlainTextToHookOutput); AGY §6.2; DEEL seed 004 l.431-434; "
       "docs/hosts/claude-code-2.1.md (pre-json-ws, pre-badjson, pre-json-wrong-event, ups-ctx)"},
      {"PROTO-5", "must", "Decides only with decisions its event honours",
       "A decision the hook gives (a JSON decision, or exit 2) is one the host knows and "
       "honours on this event: Gemini CLI blocks on BeforeTool, AfterTool and BeforeAgent and asks "
       "only on BeforeTool; Antigravity decides on PreToolUse only; deel-local-cli blocks only at "
       "도구전 and 말전; Claude Code takes permissionDecision allow|deny|ask on PreToolUse only, a "
       "top-level decision only as block (or approve on PreToolUse), and exit 2 blocks only "
       "PreToolUse, PermissionRequest, UserPromptSubmit, Stop and SubagentStop. Elsewhere the "
       "decision is dropped and the hook does not do what it says.",
       "GEM §6; AGY §7.1; DEEL seed 004 l.221 (막는자리); https://code.claude.com/docs/en/hooks "
       "(exit code 2 behavior); docs/hosts/claude-code-2.1.md (pre-decision-block)"},
      {"PROTO-6", "should", "A block says why",
       "A hook that blocks gives a reason (Gemini CLI: reason or stderr; deel-local-cli: stdout; "
       "Claude Code: stderr with exit 2, permissionDecisionReason or reason in JSON), which the "
       "host shows to the user and the model; without one the block is unexplained.",
       "GEM §5; DEEL seed 004 l.452, l.504-511; docs/hosts/claude-code-2.1.md (pre-exit2-empty: "
       "`No stderr output`)"},
  };
  return k;
}

namespace {

const ProtocolCheck& check(const std::string& id) {
  for (const auto& c : protocol_checks())
    if (c.id == id) return c;
  return protocol_checks().front();
}

// One run of registration `h` as its host runs it: in its workspace (the project's copy, or the
// project with --in-place; for --hook protocol/workspace.h hook_project), with the variables the
// host sets for it pointed there, `home` as HOME and the payload of `sample` (protocol/samples.h)
// for its event. `call` is left holding what was sent.
HookOutcome run_registration(pinta::emu::HostRunner& runner, Family f, const ProtocolHook& h,
                             const protocol::SampleCall& sample, const std::string& home,
                             HookCall& call) {
  const auto* w = h.workspace.get();
  const std::string ws = w ? w->dir() : home;
  call.host = h.host;
  call.event = h.event;
  call.command = w ? w->map(h.command) : h.command;
  call.cwd = ws;
  call.timeout_ms = h.timeout_ms;
  call.pipe_grace_ms = 1000;
  for (const char* k : {"PATH", "LANG", "LC_ALL", "TMPDIR"})
    if (const char* v = ::getenv(k)) call.env[k] = v;  // NOLINT(concurrency-mt-unsafe)
  call.env["HOME"] = home;
  for (const auto& [k, v] : h.env) call.env[k] = w ? w->map(v) : v;
  call.input.payload = protocol::call_payload(runner, f, h, sample, home, ws);
  return runner.run(call);
}

// The registrations' workspace (protocol/workspace.h), shared by all of them: `ws` once made.
Status attach_workspace(std::vector<ProtocolHook>& hooks, bool in_place,
                        std::shared_ptr<const protocol::Workspace>& ws) {
  if (!ws && !hooks.empty() && hooks.front().origin.empty()) {  // --hook
    std::error_code ec;
    const auto hp = protocol::hook_project(hooks.front().command, stdfs::current_path(ec).string());
    for (auto& h : hooks) h.command = hp.command;
    auto w = hp.root.empty() && !in_place ? protocol::Workspace::scratch(hp.why)
                                          : protocol::Workspace::make(
                                                hp.root.empty() ? stdfs::current_path(ec).string()
                                                                : hp.root,
                                                in_place);
    if (!w) return w.error();
    ws = *w;
  } else if (!ws) {
    auto w = protocol::Workspace::make(protocol::project_root(hooks), in_place);
    if (!w) return w.error();
    ws = *w;
  }
  for (auto& h : hooks) h.workspace = ws;
  return {};
}

}  // namespace

std::string default_protocol_host() {
  // The newest graded host of the first registered family (Gemini CLI: gemini-0.61).
  const auto hosts = pinta::hosts::hosts_of(pinta::hosts::families().front().id);
  return hosts.empty() ? std::string() : hosts.back();
}

namespace {

// The file hostemu lint reads for --config: the file itself, or an extension folder's
// hooks/hooks.json.
std::string lint_file_of(const std::string& config) {
  std::error_code ec;
  if (stdfs::is_directory(config, ec)) return (stdfs::path(config) / "hooks" / "hooks.json").string();
  return config;
}

// Why `config` registers no command hook for `host`, in a few clauses: what hostemu lint finds in
// it read as that host (its rule IDs, docs/lint.md, at most 4), and the host lint reads it as when
// that is another.
std::string why_no_hook(const std::string& config, const std::string& host) {
  std::string why;
  const std::string file = lint_file_of(config);
  auto text = pinta::fs::read_file(file);
  if (!text) return "";
  const auto fam = pinta::hosts::family_named(family_of(host));
  if (auto seen = pinta::hostlint::detect_host(file, *text); seen && fam && *seen != *fam) {
    const auto hs = pinta::hosts::hosts_of(*seen);
    if (!hs.empty())
      why += "; this file reads as " + hs.back() + "'s (hostemu lint), not " + host +
             "'s: pass --host " + hs.back();
  }
  pinta::hostlint::LintOptions lo;
  lo.host = fam;
  if (auto found = pinta::hostlint::lint_text(file, *text, lo); found) {
    size_t n = 0;
    for (const auto& f : *found) {
      if (f.rule == "command-not-found" || f.rule == "command-not-executable") continue;
      if (n++ == 4) {
        why += "; …";
        break;
      }
      why += "; " + std::to_string(f.pos.line) + ":" + std::to_string(f.pos.col) + " " + f.rule +
             ": " + f.message;
    }
  }
  return why;
}

}  // namespace

HostChoice infer_protocol_host(const std::string& config) {
  // A package's manifest names its host (each family's package_manifest, with its evidence),
  // whatever its hooks.json looks like (the same hooks/hooks.json is an extension's or a plugin's).
  std::error_code aec;
  stdfs::path abs = stdfs::absolute(config, aec).lexically_normal();
  if (!abs.has_filename()) abs = abs.parent_path();
  if (const std::string pkg = protocol::package_root(config);
      !pkg.empty() && (stdfs::path(pkg) == abs || stdfs::path(pkg) / "hooks" / "hooks.json" == abs)) {
    std::error_code ec;
    for (const auto& d : pinta::hosts::families()) {
      const std::string_view m = protocol::family_reading(d.id).package_manifest;
      const auto hs = pinta::hosts::hosts_of(d.id);
      if (!m.empty() && !hs.empty() && stdfs::is_regular_file(stdfs::path(pkg) / m, ec))
        return {hs.back(), "read as " + hs.back() + ", the host of its manifest " + std::string(m) +
                               "; --host grades another"};
    }
  }
  const std::string file = lint_file_of(config);
  auto text = pinta::fs::read_file(file);
  auto fam = pinta::hostlint::detect_host(file, text ? *text : std::string());
  if (fam) {
    const auto hs = pinta::hosts::hosts_of(*fam);
    if (!hs.empty())
      return {hs.back(), "read as " + hs.back() + ", the host hostemu lint reads " + config +
                             " as; --host grades another"};
  }
  const std::string host = default_protocol_host();
  std::string why = fam ? "no graded host of its family" : fam.error().message;
  if (why.rfind(file + ": ", 0) == 0) why = why.substr(file.size() + 2);
  return {host, "read as " + host + ", the default; " + why};
}

Result<std::vector<ProtocolHook>> protocol_hooks(const ProtocolOptions& po) {
  const std::string host = po.host.empty() ? default_protocol_host() : po.host;
  auto fam = pinta::hosts::family_named(family_of(host));
  if (!fam) return make_error(ErrorCode::kInvalidArgument, "unknown --host " + host);
  const auto& fr = protocol::family_reading(*fam);
  std::vector<ProtocolHook> hooks;
  if (!po.hook.empty()) {
    for (const auto& ev : pinta::hosts::events(*fam)) {
      ProtocolHook h;
      h.host = host;
      h.event = ev;
      h.command = po.hook;
      h.timeout_ms = fr.hook_timeout_ms(host);
      hooks.push_back(std::move(h));
    }
  } else if (fr.read_config) {
    auto r = fr.read_config(po, host);
    if (!r) return r.error();
    hooks = std::move(*r);
  } else {
    std::string readers;
    for (const auto& d : pinta::hosts::families())
      if (protocol::family_reading(d.id).read_config)
        readers += (readers.empty() ? "" : ", ") + std::string(d.display_name);
    return make_error(ErrorCode::kInvalidArgument,
                      "--config is read for " + readers + " hosts; for " + host +
                          " grade one command with --hook");
  }
  // --event NAME (repeatable); `gate` names the host's gate event (where a guard decides).
  if (!po.events.empty())
    std::erase_if(hooks, [&](const ProtocolHook& h) {
      return std::none_of(po.events.begin(), po.events.end(), [&](const std::string& e) {
        return e == h.event || (e == "gate" && pinta::hosts::gate_event(*fam, h.event));
      });
    });
  if (hooks.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      (po.hook.empty() ? "--config " + po.config : "--hook") +
                          ": no command hook registered for " + host +
                          (po.events.empty() ? std::string() : " on the --event given") +
                          (po.hook.empty() ? why_no_hook(po.config, host) : std::string()));
  std::shared_ptr<const protocol::Workspace> ws;
  if (auto st = attach_workspace(hooks, po.in_place, ws); !st) return st.error();
  if (auto st = protocol::assign_payloads(*fam, po.payloads, hooks); !st) return st.error();
  return hooks;
}

std::string protocol_workspace_line(const std::vector<ProtocolHook>& hooks) {
  return hooks.empty() || !hooks.front().workspace ? "" : hooks.front().workspace->line();
}

void protocol_cases(const std::vector<ProtocolHook>& hooks, std::vector<Case>& out) {
  out.clear();
  // Each origin's positions, indexed once (a registration's line for the annotations).
  std::map<std::string, pinta::hostlint::PositionIndex> index;
  auto line_of = [&](const ProtocolHook& h) {
    if (h.origin.empty() || h.pointer.empty()) return 0;
    auto it = index.find(h.origin);
    if (it == index.end()) {
      auto text = pinta::fs::read_file(h.origin);
      it = index.emplace(h.origin, pinta::hostlint::PositionIndex::build(text ? *text : "")).first;
    }
    const auto at = it->second.value(h.pointer);
    return at ? at->line : 0;
  };
  for (size_t i = 0; i < hooks.size(); ++i) {
    const auto& h = hooks[i];
    Case c;
    char id[32];
    snprintf(id, sizeof id, "HOOK-%04zu", i + 1);
    c.id = id;
    c.area = "HOOK";
    c.title = h.event + (h.matcher.empty() || h.matcher == "*" ? "" : " [" + h.matcher + "]") +
              ": " + (h.name.empty() ? h.command : h.name);
    c.requirement = "The host reads every run of this hook as the hook means it (" +
                    std::to_string(protocol_checks().size()) + " protocol checks, PROTO-0..6).";
    c.source = h.origin.empty() ? "--hook" : h.origin + (h.pointer.empty() ? "" : "#" + h.pointer);
    c.level = "must";
    c.hosts = {h.host};
    c.file = h.origin;
    c.line = line_of(h);
    c.raw = {{"command", h.command}, {"event", h.event}, {"matcher", h.matcher}};
    out.push_back(std::move(c));
  }
}

namespace {

// The protocol checks against one run: PROTO-1 and PROTO-2 here, the rest the family's reading of
// what the host did with it.
std::vector<protocol::Finding> judge(Family f, const ProtocolHook& h, const HookCall& call,
                                     const HookOutcome& o) {
  const auto& fr = protocol::family_reading(f);
  // A hook that never ran gets no other finding: they would grade the shell's or the
  // interpreter's error, not the hook.
  if (auto nr = protocol::never_ran(f, h, call.env, o)) {
    if (h.workspace) nr->message = h.workspace->unmap(nr->message);
    return {*nr};
  }
  std::vector<protocol::Finding> fs;
  const auto& r = o.raw;
  if (r.timed_out || r.hard_limited)
    fs.push_back({"PROTO-1", "still running at the host's " + std::to_string(h.timeout_ms) +
                                 " ms timeout: the host killed it and counts the run as failed"});
  if (r.pipes_outlived_child && !r.timed_out && !r.hard_limited && fr.waits_for_pipes)
    fs.push_back({"PROTO-2", "a process it left behind still held stdout/stderr after it exited "
                             "(the host waits for both pipes to close)"});
  fr.judge({h, o, r, r.exit_code && *r.exit_code == 0, r.exit_code && *r.exit_code == 2}, fs);
  for (auto& x : fs)  // in the author's paths, not the copy's
    if (h.workspace) x.message = h.workspace->unmap(x.message);
  return fs;
}

}  // namespace

namespace {

// One run of a registration's calls, ended: what the host did and the checks' findings.
struct CallRun {
  bool started = false;
  std::string spawn_error;
  json record;  // run_record + the payload, the call, the run's own verdict
  std::vector<protocol::Finding> findings;
};

// The calls of one registration (protocol/samples.h) and their runs, filled in by the workers.
struct Slot {
  std::optional<Family> fam;
  std::string unresolved;  // why the registration cannot be run at all
  protocol::CallPlan plan;
  std::vector<CallRun> runs;
  size_t left = 0;  // calls not yet run
  double seconds = 0;  // the calls' own time, summed
};

// The registration's outcome from its calls' runs: a failure line per finding, with the calls it
// was found on ("on Bash `rm -rf /` (hostile)"), each run's own verdict in its record.
CaseOutcome assemble(const Case& c, const ProtocolHook& h, Slot& s, const RunOptions& o) {
  CaseOutcome co;
  co.c = &c;
  HostOutcome ho;
  ho.host = h.host;
  for (const auto& n : s.plan.notes) ho.notes.push_back(n);
  if (!s.unresolved.empty()) {
    ho.state = "unresolved";
    ho.failures.push_back(s.unresolved);
  } else if (s.plan.calls.empty()) {
    ho.state = "unresolved";
    ho.failures.push_back("[" + h.host + "] not run: " +
                          (s.plan.notes.empty() ? std::string("no call") : s.plan.notes.front()));
  } else {
    struct Group {
      std::string check, message;
      std::vector<std::string> calls;
    };
    std::vector<Group> groups;
    size_t started = 0;
    for (size_t i = 0; i < s.runs.size(); ++i) {
      auto& r = s.runs[i];
      const std::string& label = s.plan.calls[i].label;
      if (!r.started) {
        ho.failures.push_back("[" + h.host + "] the hook did not start on " + label + ": " +
                              r.spawn_error);
        continue;
      }
      ++started;
      r.record["failed_checks"] = json::array();
      for (const auto& f : r.findings) {
        const auto& pc = check(f.check);
        if (!f.note && ((pc.level == "must" && !f.should) || o.strict)) {
          r.record["failed_checks"].push_back(f.check);
          auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) {
            return x.check == f.check && x.message == f.message;
          });
          if (g == groups.end()) {
            groups.push_back({f.check, f.message, {}});
            g = std::prev(groups.end());
          }
          g->calls.push_back(label);
        } else {
          r.record["notes"].push_back("[" + h.host + "] " + f.check + " " + pc.title + ": " +
                                      f.message);
        }
      }
      if (ho.effect.empty()) ho.effect = r.record.value("effect", std::string());
      ho.runs.push_back(std::move(r.record));
    }
    for (const auto& n : s.plan.notes)
      if (!ho.runs.empty()) ho.runs[0]["notes"].push_back(n);
    for (const auto& g : groups) {
      const auto& pc = check(g.check);
      std::string on = g.calls.front();
      for (size_t i = 1; i < g.calls.size() && i < 3; ++i) on += "; " + g.calls[i];
      if (g.calls.size() > 3) on += "; and " + std::to_string(g.calls.size() - 3) + " more calls";
      const std::string line = "[" + h.host + "] " + g.check + " " + pc.title + ": " + g.message +
                               " (on " + on + ")";
      ho.failures.push_back(line);
      if (std::find(ho.failed_checks.begin(), ho.failed_checks.end(), g.check) ==
          ho.failed_checks.end())
        ho.failed_checks.push_back(g.check);
      ho.checks.push_back({g.check, json(pc.requirement), line, 0});
      if (ho.cause.empty()) ho.cause = pc.title;
    }
    ho.state = started == 0 ? "unresolved" : ho.failures.empty() ? "pass" : "fail";
  }
  co.hosts.push_back(std::move(ho));
  co.state = co.hosts[0].state == "pass"   ? "PASS"
             : co.hosts[0].state == "fail" ? "FAIL"
                                           : "UNRESOLVED";
  return co;
}

// One sample call of registration `h` run as its host runs it: a scratch HOME (a hook's own
// files stay out of the user's), the project as cwd; its record and the findings on it.
CallRun run_call(const ProtocolHook& h, Family fam, const protocol::SampleCall& sample,
                 const RunOptions& o) {
  CallRun cr;
  std::string err;
  auto runner = pinta::emu::make_host_runner(h.host, {o.fixtures_dir, o.profiles_dir}, err);
  std::string tmp = (stdfs::temp_directory_path() / "pinta-proto-XXXXXX").string();
  if (!::mkdtemp(tmp.data())) tmp.clear();
  HookCall call;
  if (!runner) {
    cr.spawn_error = err;
  } else {
    auto out = run_registration(*runner, fam, h, sample, tmp, call);
    cr.started = out.raw.started;
    cr.spawn_error = out.raw.spawn_error;
    if (cr.started) {
      cr.record = detail::run_record(call, out);
      cr.record["payload"] = call.input.payload;
      cr.record["timeout_ms"] = call.timeout_ms;
      cr.record["call"] = sample.label;
      cr.record["hostile"] = sample.hostile >= 0;
      if (!sample.file.empty()) cr.record["payload_file"] = sample.file;
      cr.findings = judge(fam, h, call, out);
      // A hostile call the host lets run: what a guard meant to stop it does not.
      const auto& fr = protocol::family_reading(fam);
      if (sample.hostile >= 0 && pinta::hosts::gate_event(fam, h.event) && fr.gate_call &&
          std::string(fr.gate_call(out)) == "runs")
        cr.record["notes"].push_back("the hostile call " + sample.label + " runs on " + h.host +
                                     ": nothing in the hook's answer stops it");
    }
  }
  std::error_code ec;
  if (!tmp.empty()) stdfs::remove_all(tmp, ec);
  return cr;
}

}  // namespace

RunSummary run_protocol(const std::vector<Case>& cases, const std::vector<ProtocolHook>& hooks,
                        const RunOptions& o, const CaseDone& on_case) {
  RunSummary s;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<size_t> sel;
  for (size_t i = 0; i < cases.size() && i < hooks.size(); ++i)
    if (selected(cases[i], o)) sel.push_back(i);
  s.cases.resize(sel.size());
  // Every call of every selected registration is one unit of work. The units run event by event
  // in the host's session order (protocol/reading.h session_order), each event's after the
  // previous event's have ended, as a session runs them in its one project: a hook that reads
  // what an earlier event's hook wrote (a log opened at session start, read at its end) gets the
  // same verdict with any --jobs. Within an event the calls run in parallel: they stand for
  // separate tool calls or prompts, each run of the hook on its own input.
  std::vector<Slot> slots(sel.size());
  struct Unit {
    size_t rank, slot, call;
  };
  std::vector<Unit> units;
  for (size_t k = 0; k < sel.size(); ++k) {
    Slot& sl = slots[k];
    const ProtocolHook& h = hooks[sel[k]];
    std::string err;
    sl.fam = pinta::hosts::family_named(family_of(h.host));
    if (!sl.fam || !pinta::emu::make_host_runner(h.host, {o.fixtures_dir, o.profiles_dir}, err)) {
      sl.unresolved = err.empty() ? "unknown host " + h.host : err;
      continue;
    }
    sl.plan = protocol::plan_calls(*sl.fam, h);
    sl.runs.resize(sl.plan.calls.size());
    sl.left = sl.plan.calls.size();
    const size_t rank = protocol::session_rank(*sl.fam, h.event);
    for (size_t i = 0; i < sl.plan.calls.size(); ++i) units.push_back({rank, k, i});
  }
  std::stable_sort(units.begin(), units.end(),
                   [](const Unit& a, const Unit& b) { return a.rank < b.rank; });
  std::mutex mu;
  size_t done = 0;
  auto finish = [&](size_t k) {  // under mu
    const auto& h = hooks[sel[k]];
    CaseOutcome co = assemble(cases[sel[k]], h, slots[k], o);
    co.seconds = slots[k].seconds;
    s.cases[k] = std::move(co);
    if (on_case) on_case(s.cases[k], ++done, sel.size());
  };
  for (size_t k = 0; k < sel.size(); ++k)
    if (slots[k].left == 0) finish(k);  // nothing to run: unresolved, or no call at all
  std::atomic<size_t> next{0};
  size_t phase_end = 0;  // the units before it may run now: the current event's
  auto worker = [&] {
    for (size_t u; (u = next++) < phase_end;) {
      const size_t k = units[u].slot, i = units[u].call;
      Slot& sl = slots[k];
      const ProtocolHook& h = hooks[sel[k]];
      const auto u0 = std::chrono::steady_clock::now();
      CallRun cr = run_call(h, *sl.fam, sl.plan.calls[i], o);
      std::lock_guard<std::mutex> lock(mu);
      sl.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - u0).count();
      sl.runs[i] = std::move(cr);
      if (--sl.left == 0) finish(k);
    }
  };
  for (size_t begin = 0; begin < units.size(); begin = phase_end) {
    phase_end = begin;
    while (phase_end < units.size() && units[phase_end].rank == units[begin].rank) ++phase_end;
    next = begin;
    const int jobs = std::max(
        1, std::min<int>(o.jobs > 0 ? o.jobs : 4, static_cast<int>(phase_end - begin)));
    std::vector<std::thread> ts;
    for (int j = 0; j < jobs; ++j) ts.emplace_back(worker);
    for (auto& t : ts) t.join();
  }
  s.passed = 0;
  for (const auto& co : s.cases) {
    if (co.state == "PASS") ++s.passed;
    else ++s.failed;
  }
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return s;
}

namespace {

// One cell of the matrix: the hook run on its family's gate event by that family's newest host,
// and what the host then does with the call (`head`: the column's host and defaults).
MatrixCell matrix_cell(const MatrixCell& head, Family f, const ProtocolHook& hook,
                       const RunOptions& o) {
  const auto& fr = protocol::family_reading(f);
  MatrixCell cell = head;
  std::string err;
  auto runner = pinta::emu::make_host_runner(hook.host, {o.fixtures_dir, o.profiles_dir}, err);
  if (!runner) {
    cell.verdict = "?";
    cell.why = err;
  } else if (auto no = runner->hooks_not_run()) {
    cell.verdict = "?";
    cell.why = *no;
  } else if (!fr.gate_call) {
    cell.verdict = "?";
    cell.why = "the family's reading does not say what happens to the call";
  } else {
    std::string tmp = (stdfs::temp_directory_path() / "pinta-proto-XXXXXX").string();
    if (!::mkdtemp(tmp.data())) tmp.clear();
    HookCall call;
    // The registration's first call (the first tool its matcher selects, benign).
    const auto plan = protocol::plan_calls(f, hook);
    const auto out = plan.calls.empty()
                         ? HookOutcome{}
                         : run_registration(*runner, f, hook, plan.calls.front(), tmp, call);
    cell.effect = out.effect;
    if (plan.calls.empty()) {
      cell.verdict = "?";
      cell.why = plan.notes.empty() ? std::string("no call") : plan.notes.front();
    } else if (!out.raw.started) {
      cell.verdict = "?";
      cell.why = "the hook did not start: " + out.raw.spawn_error;
    } else {
      cell.verdict = fr.gate_call(out);
      cell.why = out.effect_message;
    }
    std::error_code ec;
    if (!tmp.empty()) stdfs::remove_all(tmp, ec);
  }
  return cell;
}

}  // namespace

Result<std::vector<MatrixRow>> protocol_matrix(const ProtocolOptions& po, const RunOptions& o) {
  struct Unit {
    size_t row, col;
    ProtocolHook hook;
  };
  const auto& fams = pinta::hosts::families();
  std::vector<MatrixRow> rows;
  std::vector<MatrixCell> head(fams.size());
  std::vector<Unit> units;
  std::vector<std::set<std::string>> seen(fams.size());  // one run per family and command
  auto row_of = [&](const std::string& cmd) {
    for (size_t i = 0; i < rows.size(); ++i)
      if (rows[i].command == cmd) return i;
    rows.push_back({cmd, {}});
    return rows.size() - 1;
  };
  for (size_t k = 0; k < fams.size(); ++k) {
    const auto& d = fams[k];
    const auto hosts = pinta::hosts::hosts_of(d.id);
    head[k].host = hosts.empty() ? std::string(d.name) : hosts.back();
    const auto& fr = protocol::family_reading(d.id);
    std::vector<ProtocolHook> hooks;
    if (!po.hook.empty()) {
      ProtocolHook h;
      h.host = head[k].host;
      h.event = std::string(d.gate_event);
      h.command = po.hook;
      h.timeout_ms = fr.hook_timeout_ms(h.host);
      hooks.push_back(std::move(h));
    } else if (!fr.read_config) {
      head[k].verdict = "?";
      head[k].why = "its hooks are graded one command at a time (--hook)";
      continue;
    } else if (auto r = fr.read_config(po, head[k].host); r) {
      hooks = std::move(*r);
    } else {
      head[k].why = r.error().message;  // this host does not read the file
      continue;
    }
    // Each host its own copy of the project: hosts never share a session, and the families'
    // runs overlap.
    std::erase_if(hooks, [&](const ProtocolHook& h) {
      return !pinta::hosts::gate_event(d.id, h.event) || !seen[k].insert(h.command).second;
    });
    std::shared_ptr<const protocol::Workspace> ws;
    if (!hooks.empty())
      if (auto st = attach_workspace(hooks, po.in_place, ws); !st) return st.error();
    for (auto& h : hooks) units.push_back({row_of(h.command), k, std::move(h)});
  }
  if (rows.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      "--matrix: no host family loads a command hook on its gate event from " +
                          (po.hook.empty() ? "--config " + po.config : "--hook"));
  for (auto& r : rows) r.cells = head;
  for (auto& r : rows)  // loaded elsewhere, not here: "" with no reason is "not registered"
    for (auto& c : r.cells)
      if (c.verdict.empty() && c.why.empty()) c.why = "no command hook on the gate event";
  std::mutex mu;
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < units.size();) {
      const Unit& u = units[i];
      MatrixCell cell = matrix_cell(head[u.col], fams[u.col].id, u.hook, o);
      std::lock_guard<std::mutex> lock(mu);
      rows[u.row].cells[u.col] = std::move(cell);
    }
  };
  const int jobs = std::max(1, std::min<int>(o.jobs > 0 ? o.jobs : 4, static_cast<int>(units.size())));
  std::vector<std::thread> ts;
  for (int j = 0; j < jobs; ++j) ts.emplace_back(worker);
  for (auto& t : ts) t.join();
  return rows;
}

std::string render_matrix(const std::vector<MatrixRow>& rows) {
  if (rows.empty()) return "";
  std::vector<std::string> heads = {"hook"};
  for (const auto& c : rows.front().cells) heads.push_back(c.host);
  std::vector<std::vector<std::string>> table = {heads};
  for (const auto& r : rows) {
    std::vector<std::string> line = {r.command.size() > 48 ? r.command.substr(0, 47) + "~"
                                                            : r.command};
    for (const auto& c : r.cells) line.push_back(c.verdict.empty() ? "-" : c.verdict);
    table.push_back(std::move(line));
  }
  std::vector<size_t> width(heads.size(), 0);
  for (const auto& l : table)
    for (size_t i = 0; i < l.size(); ++i) width[i] = std::max(width[i], l[i].size());
  std::ostringstream out;
  out << "Cross-host matrix: the tool call after each hook's reply on its host's gate event\n";
  for (const auto& l : table) {
    for (size_t i = 0; i < l.size(); ++i)
      out << l[i] << (i + 1 < l.size() ? std::string(width[i] - l[i].size() + 2, ' ') : "");
    out << "\n";
  }
  out << "blocks: the call does not run; runs: it runs; asks: a person decides; -: the host does "
         "not load this hook on its gate event; ?: not read here\n";
  // Why a whole column is empty or unread: once per host.
  for (size_t i = 0; i < rows.front().cells.size(); ++i) {
    const auto& c = rows.front().cells[i];
    bool same = true;
    for (const auto& r : rows) same = same && r.cells[i].verdict == c.verdict &&
                                      (c.verdict.empty() || c.verdict == "?") && r.cells[i].why == c.why;
    if (same && !c.why.empty()) out << "  " << c.host << ": " << c.why << "\n";
  }
  return out.str();
}

}  // namespace pinta::conformance
