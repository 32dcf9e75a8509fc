// The host-protocol profile (pinta/conformance/protocol.h): any hook, graded against what its host
// needs from a hook. Host rules come from two places only: the HostRunner (how the emulated host
// spawns the hook and what it made of the run: effect, reading) and the host facts of
// pinta/hosts/reply_check.h (the events, the gate event, where a deny means something).
#include "pinta/conformance/protocol.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <thread>

#include "matcher_context.h"
#include "pinta/common/fs.h"
#include "pinta/hosts/claude/claude.h"
#include "pinta/hosts/deel/deel.h"
#include "pinta/hosts/gemini/gemini.h"
#include "pinta/hosts/reply_check.h"

namespace pinta::conformance {
namespace stdfs = std::filesystem;
namespace gem = pinta::hosts::gemini;
namespace deel = pinta::hosts::deel;
namespace cl = pinta::hosts::claude;
using pinta::hosts::Family;

const std::vector<ProtocolCheck>& protocol_checks() {
  static const std::vector<ProtocolCheck> k = {
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

std::string read_text(const std::string& path, std::string& err) {
  auto t = pinta::fs::read_file(path, 4u << 20);
  if (!t) {
    err = "cannot read " + path + ": " + t.error().message;
    return "";
  }
  return *t;
}

// Where the hooks of a config run: a project's own .gemini/, .deel/ or .claude/ file runs in the
// project;
// any other file in its own folder (hooks refer to scripts by paths relative to it).
std::string project_dir_of(const std::string& config) {
  stdfs::path p = stdfs::absolute(config).lexically_normal();
  if (stdfs::is_directory(p)) return p.string();
  stdfs::path dir = p.parent_path();
  if (dir.filename() == ".gemini" || dir.filename() == ".deel" || dir.filename() == ".claude")
    return dir.parent_path().string();
  return dir.string();
}

// Tools a matcher may select, per family, in the order tried (the first it matches is used).
const std::vector<std::string>& tool_candidates(Family f) {
  static const std::vector<std::string> gemini = {
      "write_file", "run_shell_command", "replace", "read_file", "glob", "search_file_content",
      "list_directory", "read_many_files", "web_fetch", "google_web_search", "save_memory"};
  static const std::vector<std::string> deel = {"Bash", "Write", "Edit", "Read", "Grep", "Glob"};
  static const std::vector<std::string> agy = {"run_command", "write_to_file", "view_file"};
  // Claude Code 2.1.332's tools (the 12 it offers the model; shared/reference/real-hosts.md).
  static const std::vector<std::string> claude = {"Bash", "Write", "Edit",    "Read",
                                                  "Grep", "Glob",  "WebFetch"};
  return f == Family::kGemini   ? gemini
         : f == Family::kDeel   ? deel
         : f == Family::kClaude ? claude
                                : agy;
}

json tool_args(const std::string& tool, const std::string& ws) {
  if (tool == "write_file" || tool == "Write" || tool == "write_to_file")
    return {{"file_path", ws + "/notes.txt"}, {"content", "hello\n"}};
  if (tool == "run_shell_command" || tool == "Bash" || tool == "run_command")
    return {{"command", "ls -la"}};
  if (tool == "replace" || tool == "Edit")
    return {{"file_path", ws + "/notes.txt"}, {"old_string", "hello"}, {"new_string", "bye"}};
  return {{"file_path", ws + "/notes.txt"}};
}

bool tool_event(Family f, const std::string& event) {
  if (f == Family::kGemini) return event == "BeforeTool" || event == "AfterTool";
  if (f == Family::kDeel) {
    auto k = deel::resolve_event(deel::ojson(event));
    return k && deel::is_tool_event(*k);
  }
  return pinta::hosts::is_tool_event(f, event);  // the registry's tool events
}

// The tool a registration's matcher selects ("" off tool events or when none matches).
std::string tool_for(Family f, const ProtocolHook& h) {
  if (!tool_event(f, h.event)) return "";
  for (const auto& t : tool_candidates(f)) {
    if (f == Family::kGemini) {
      gem::PlanContext ctx;
      ctx.tool_name = t;
      if (h.matcher.empty() || gem::matcher_matches(h.event, h.matcher, ctx)) return t;
    } else if (f == Family::kDeel) {
      auto m = deel::make_matcher(deel::ojson(h.matcher.empty() ? "*" : h.matcher));
      if (!m || deel::matcher_matches(*m, t)) return t;
    } else if (f == Family::kClaude) {
      if (cl::matcher_matches(h.event, h.matcher, t)) return t;
    } else {
      return t;
    }
  }
  return "";
}

Result<std::vector<ProtocolHook>> gemini_hooks(const ProtocolOptions& po, const std::string& host) {
  std::vector<ProtocolHook> out;
  std::string err;
  // The host's own loader on a scratch home: a settings.json as the user's settings, an extension
  // folder as an installed extension (so ${extensionPath} and its hooks/hooks.json resolve as the
  // CLI resolves them).
  std::string tmp = (stdfs::temp_directory_path() / "pinta-proto-load-XXXXXX").string();
  if (!::mkdtemp(tmp.data())) return make_error(ErrorCode::kIo, "cannot create a temp directory");
  struct Rm {
    std::string p;
    ~Rm() {
      std::error_code ec;
      stdfs::remove_all(p, ec);
    }
  } rm{tmp};
  const std::string home = tmp + "/home";
  stdfs::create_directories(home + "/.gemini/extensions");
  const stdfs::path cfg = stdfs::absolute(po.config).lexically_normal();
  std::error_code ec;
  if (stdfs::is_directory(cfg, ec)) {
    if (!stdfs::exists(cfg / "gemini-extension.json"))
      return make_error(ErrorCode::kInvalidArgument,
                        "--config " + po.config + ": a folder without gemini-extension.json");
    stdfs::create_directory_symlink(cfg, home + "/.gemini/extensions/" + cfg.filename().string(),
                                    ec);
  } else {
    std::string text = read_text(cfg.string(), err);
    if (!err.empty()) return make_error(ErrorCode::kIo, err);
    if (auto st = pinta::fs::atomic_write(home + "/.gemini/settings.json", text, 0600); !st)
      return make_error(ErrorCode::kIo, st.error().message);
  }
  if (ec) return make_error(ErrorCode::kIo, "cannot link " + cfg.string() + ": " + ec.message());
  gem::LoadOptions lo;
  lo.home = home;
  lo.workspace = tmp;  // no project settings of its own
  lo.trusted = true;
  lo.system_settings_path = tmp + "/none.json";
  lo.system_defaults_path = tmp + "/none-defaults.json";
  auto loaded = gem::load_hooks(lo);
  if (loaded.fatal_exit)
    return make_error(ErrorCode::kInvalidArgument,
                      "--config " + po.config + ": " + loaded.fatal_message);
  if (!loaded.hooks_enabled)
    return make_error(ErrorCode::kInvalidArgument,
                      "--config " + po.config + ": hooks are disabled (hooksConfig.enabled false)");
  for (const auto& ev : pinta::hosts::events(Family::kGemini)) {
    auto it = loaded.by_event.find(ev);
    if (it == loaded.by_event.end()) continue;
    for (const auto& lh : it->second) {
      if (!lh.enabled || lh.type != "command") continue;
      ProtocolHook h;
      h.host = host;
      h.event = ev;
      h.matcher = lh.has_matcher ? lh.matcher : "";
      h.command = lh.spec.command;
      h.timeout_ms = lh.spec.timeout_ms > 0 ? lh.spec.timeout_ms : gem::kDefaultTimeoutMs;
      h.name = lh.spec.name;
      // The user's file, not the scratch copy the loader read.
      h.origin = stdfs::is_directory(cfg) ? (cfg / "hooks" / "hooks.json").string() : cfg.string();
      h.pointer = lh.pointer;
      out.push_back(std::move(h));
    }
  }
  return out;
}

Result<std::vector<ProtocolHook>> deel_hooks(const ProtocolOptions& po, const std::string& host) {
  std::string err;
  const std::string path = stdfs::absolute(po.config).lexically_normal().string();
  std::string text = read_text(path, err);
  if (!err.empty()) return make_error(ErrorCode::kIo, err);
  auto raw = deel::ojson::parse(text, nullptr, false);
  if (raw.is_discarded())
    return make_error(ErrorCode::kInvalidArgument, "--config " + po.config + ": not valid JSON");
  auto read = deel::unfold(raw, "프로젝트");
  std::vector<ProtocolHook> out;
  for (const auto& dh : read.hooks) {
    ProtocolHook h;
    h.host = host;
    h.event = dh.event;
    h.matcher = dh.matcher;
    h.command = dh.command;
    h.timeout_ms = static_cast<int>(dh.timeout_ms);
    h.name = dh.name ? *dh.name : "";
    h.origin = path;
    h.pointer = dh.pointer;
    out.push_back(std::move(h));
  }
  return out;
}

// A Claude Code settings file, read by the host's own loader as a `--settings FILE` source (its
// hooks, matchers and timeouts; disableAllHooks honoured) over an empty home and project.
Result<std::vector<ProtocolHook>> claude_hooks(const ProtocolOptions& po, const std::string& host) {
  const std::string path = stdfs::absolute(po.config).lexically_normal().string();
  std::string err;
  read_text(path, err);
  if (!err.empty()) return make_error(ErrorCode::kIo, err);
  std::string tmp = (stdfs::temp_directory_path() / "pinta-proto-load-XXXXXX").string();
  if (!::mkdtemp(tmp.data())) return make_error(ErrorCode::kIo, "cannot create a temp directory");
  cl::SettingsSources src;
  src.home = tmp;
  src.project = tmp;
  src.extra = {path};
  src.managed_dir = tmp + "/managed";
  auto loaded = cl::load_settings(src);
  std::error_code ec;
  stdfs::remove_all(tmp, ec);
  if (!loaded)
    return make_error(ErrorCode::kInvalidArgument,
                      "--config " + po.config + ": " + loaded.error().message);
  if (!loaded->warnings.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      "--config " + po.config + ": " + loaded->warnings.front());
  if (loaded->disable_all)
    return make_error(ErrorCode::kInvalidArgument,
                      "--config " + po.config + ": hooks are disabled (disableAllHooks true)");
  std::vector<ProtocolHook> out;
  for (const auto& ch : loaded->hooks) {
    ProtocolHook h;
    h.host = host;
    h.event = ch.event;
    h.matcher = ch.matcher;
    h.command = ch.command;
    h.timeout_ms = static_cast<int>(std::min<long>(ch.timeout_ms, 24L * 3600 * 1000));
    h.origin = path;
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace

Result<std::vector<ProtocolHook>> protocol_hooks(const ProtocolOptions& po) {
  const std::string host = po.host.empty() ? "gemini-0.61" : po.host;
  auto fam = pinta::hosts::family_named(family_of(host));
  if (!fam) return make_error(ErrorCode::kInvalidArgument, "unknown --host " + host);
  std::vector<ProtocolHook> hooks;
  if (!po.hook.empty()) {
    for (const auto& ev : pinta::hosts::events(*fam)) {
      ProtocolHook h;
      h.host = host;
      h.event = ev;
      h.command = po.hook;
      h.timeout_ms = *fam == Family::kDeel     ? static_cast<int>(deel::kDefaultTimeoutMs)
                     : *fam == Family::kGemini ? gem::kDefaultTimeoutMs
                     : *fam == Family::kClaude ? static_cast<int>(cl::HookCommand{}.timeout_ms)
                                               : 30000;
      hooks.push_back(std::move(h));
    }
  } else if (*fam == Family::kGemini) {
    auto r = gemini_hooks(po, host);
    if (!r) return r.error();
    hooks = std::move(*r);
  } else if (*fam == Family::kDeel) {
    auto r = deel_hooks(po, host);
    if (!r) return r.error();
    hooks = std::move(*r);
  } else if (*fam == Family::kClaude) {
    auto r = claude_hooks(po, host);
    if (!r) return r.error();
    hooks = std::move(*r);
  } else {
    return make_error(
        ErrorCode::kInvalidArgument,
        "--config is read for Gemini CLI, deel-local-cli and Claude Code hosts; for " + host +
            " grade one command with --hook");
  }
  if (!po.events.empty())
    hooks.erase(std::remove_if(hooks.begin(), hooks.end(),
                               [&](const ProtocolHook& h) {
                                 return std::find(po.events.begin(), po.events.end(), h.event) ==
                                        po.events.end();
                               }),
                hooks.end());
  if (hooks.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      (po.hook.empty() ? "--config " + po.config : "--hook") +
                          ": no command hook registered" +
                          (po.events.empty() ? std::string() : " on the --event given"));
  return hooks;
}

void protocol_cases(const std::vector<ProtocolHook>& hooks, std::vector<Case>& out) {
  out.clear();
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
                    std::to_string(protocol_checks().size()) + " protocol checks, PROTO-1..6).";
    c.source = h.origin.empty() ? "--hook" : h.origin + (h.pointer.empty() ? "" : "#" + h.pointer);
    c.level = "must";
    c.hosts = {h.host};
    c.file = h.origin;
    c.raw = {{"command", h.command}, {"event", h.event}, {"matcher", h.matcher}};
    out.push_back(std::move(c));
  }
}

namespace {

bool js_nonblank(const std::string& s) {
  return s.find_first_not_of(" \t\r\n") != std::string::npos;
}

struct Finding {
  std::string check;  // PROTO-N
  std::string message;
  bool note = false;  // what the host does is harmless here: a note on the run, never a failure
};

// Whether some line of a hook's stdout is a JSON object: a reply the hook meant the host to read.
bool has_json_line(const std::string& out) {
  size_t at = 0;
  while (at <= out.size()) {
    const size_t nl = std::min(out.find('\n', at), out.size());
    if (json::parse(out.substr(at, nl - at), nullptr, false).is_object()) return true;
    at = nl + 1;
  }
  return false;
}

std::string exit_text(const pinta::proc::SpawnResult& r) {
  if (r.exit_code) return "exit " + std::to_string(*r.exit_code);
  if (r.term_signal) return "killed by signal " + std::to_string(*r.term_signal);
  return "no exit status";
}

// The protocol checks against one run, from what the host did with it.
std::vector<Finding> judge(Family f, const ProtocolHook& h, const HookOutcome& o) {
  std::vector<Finding> fs;
  const auto& r = o.raw;
  if (r.timed_out || r.hard_limited)
    fs.push_back({"PROTO-1", "still running at the host's " + std::to_string(h.timeout_ms) +
                                 " ms timeout: the host killed it and counts the run as failed"});
  // Claude Code reads a hook's output when the hook exits and does not wait for a child still
  // holding the pipes (docs/hosts/claude-code-2.1.md, scenario pre-late-output: a deny printed
  // 1 s after the exit was not read; the tool ran). Elsewhere the host waits for both to close.
  if (r.pipes_outlived_child && !r.timed_out && !r.hard_limited && f != Family::kClaude)
    fs.push_back({"PROTO-2", "a process it left behind still held stdout/stderr after it exited "
                             "(the host waits for both pipes to close)"});
  const bool exit0 = r.exit_code && *r.exit_code == 0, exit2 = r.exit_code && *r.exit_code == 2;
  const std::string ev = h.event;
  if (f == Family::kGemini) {
    // GEM §4.5: any status but 0 and 2 is a failed hook; its text is still read (exit 1: a
    // warning and the tool runs; other statuses: the text becomes a deny reason, if there is one).
    if (!r.timed_out && !r.hard_limited && !exit0 && !exit2)
      fs.push_back({"PROTO-3", exit_text(r) + ": Gemini CLI reads a failed hook" +
                                   (o.effect == "denied" || o.effect == "text_denied"
                                        ? std::string(" and blocks only because it read its "
                                                      "output as a deny")
                                        : std::string(" and goes on as if it had allowed")) +
                                   " (" + o.effect + "); block with exit 2 or a JSON decision "
                                   "on exit 0"});
    if (exit0 && o.effect == "text_shown")
      fs.push_back({"PROTO-4", std::string(js_nonblank(r.out) ? "stdout" : "stderr (stdout empty)") +
                                   " is not one JSON object: Gemini CLI shows the text to the "
                                   "user as a message"});
    std::string d;
    if (o.detail.contains("output") && o.detail["output"].is_object() &&
        o.detail.contains("output_format") && o.detail["output_format"] == "json" &&
        o.detail["output"].contains("decision")) {
      const json& dv = o.detail["output"]["decision"];
      if (!dv.is_string())
        fs.push_back({"PROTO-5", "decision " + dv.dump() + " is not a string: ignored"});
      else
        d = dv.get<std::string>();
      if (!d.empty() && d != "allow" && d != "approve" && d != "deny" && d != "block" &&
          d != "ask")
        fs.push_back({"PROTO-5", "decision \"" + d + "\" is not one Gemini CLI knows: ignored"});
    }
    const bool denies = d == "deny" || d == "block" || o.effect == "denied" ||
                        o.effect == "text_denied";
    if (denies && !pinta::hosts::deny_meaningful(f, ev))
      fs.push_back({"PROTO-5", "blocks on " + ev + ", where Gemini CLI does not honour a block"});
    if (d == "ask" && !pinta::hosts::gate_event(f, ev))
      fs.push_back({"PROTO-5", "asks on " + ev + "; Gemini CLI asks only on BeforeTool"});
    if (denies && pinta::hosts::deny_meaningful(f, ev) && !js_nonblank(o.effect_message))
      fs.push_back({"PROTO-6", "blocks without a reason (no reason field, nothing on stderr)"});
  } else if (f == Family::kDeel) {
    const bool blocking = pinta::hosts::deny_meaningful(f, ev);
    if (!r.timed_out && !exit0 && !exit2)
      fs.push_back({"PROTO-3", exit_text(r) + ": deel-local-cli counts a failed hook, which " +
                                   (blocking ? "blocks here (fail-closed)" : "it ignores here") +
                                   " (" + o.effect + "); pass with 0, block with 2"});
    // DEEL l.444-453: the exit status is the whole answer; a JSON decision on stdout is text.
    const auto printed = json::parse(r.out, nullptr, false);
    if (exit0 && printed.is_object() && printed.contains("decision"))
      fs.push_back({"PROTO-5", "a JSON decision on stdout with exit 0: deel-local-cli decides by "
                               "exit status only (0 passes, 2 blocks) and shows the JSON as a "
                               "note"});
    else if (exit0 && o.effect == "noted")
      fs.push_back({"PROTO-4", "prints on a pass: deel-local-cli shows it to the user as a note "
                               "on every run"});
    if (exit2 && !blocking)
      fs.push_back({"PROTO-5", "exit 2 on " + ev + ", which is not a blocking point: ignored"});
    if (exit2 && blocking && !js_nonblank(r.out))
      fs.push_back({"PROTO-6", "exit 2 without a reason on stdout"});
  } else if (f == Family::kClaude) {
    // Claude Code 2.1.332 reads both (docs/hosts/claude-code-2.1.md "Replies"); the effect is the
    // host runner's reading of the run.
    const bool blocking = pinta::hosts::deny_meaningful(f, ev);
    if (!r.timed_out && !r.hard_limited && !exit0 && !exit2)
      fs.push_back({"PROTO-3", exit_text(r) +
                                   ": Claude Code reports a non-blocking hook error to "
                                   "the user and reads no decision from it (" +
                                   o.effect + "); pass with 0, block with 2"});
    // reply-invalid-*: a reply outside the CLI's schema is rejected (a hook error) before it is
    // read; the findings below name the field.
    const bool schema_rejected = o.detail.contains("result") && o.detail["result"].is_object() &&
                                 o.detail["result"].value("replyRejected", false);
    if (exit0 && o.effect == "hook_error" && !schema_rejected)  // pre-json-wrong-event
      fs.push_back({"PROTO-4",
                    "hookSpecificOutput.hookEventName names another event: Claude "
                    "Code rejects the reply as a hook error"});
    else if (exit0 && o.effect == "text_shown" && ev != "UserPromptSubmit" && ev != "SessionStart") {
      // Plain text elsewhere is neither read nor shown to the model (the transcript shows it):
      // a log line leaves the host as without the hook (the real CLI, conformance/test/
      // protocol-hooks-claude.sh: stdout-logger.sh on PreToolUse and Stop; scenarios pre-plain,
      // stop-plain, post-plain). A JSON reply among the lines is lost, though.
      if (has_json_line(r.out) || r.out.find_first_not_of(" \t\r\n") == r.out.find('{'))
        fs.push_back({"PROTO-4",
                      "stdout is not one JSON object: Claude Code does not read the reply in it on " +
                          ev + " (only UserPromptSubmit and SessionStart take text, as context)"});
      else
        fs.push_back({"PROTO-4",
                      "prints text on " + ev +
                          ": Claude Code reads no reply from it and does not pass it to the model "
                          "(its transcript shows it); the run counts as no answer",
                      true});
    }
    if (exit2 && !blocking)
      fs.push_back({"PROTO-5", "exit 2 on " + ev +
                                   ", which cannot block: stderr is only shown "
                                   "to the user"});
    if (exit2 && blocking && !js_nonblank(r.err))
      fs.push_back({"PROTO-6",
                    "exit 2 without a message on stderr: the model is told `No stderr "
                    "output`"});
    const json reply = exit0 && (o.effect != "text_shown" && o.effect != "no_opinion")
                           ? json::parse(r.out, nullptr, false)
                           : json();
    if (reply.is_object()) {
      auto member = [](const json& j, const char* k) {
        return j.is_object() && j.contains(k) ? j[k] : json();
      };
      auto text = [&](const json& j, const char* k) {
        const json v = member(j, k);
        return v.is_string() ? v.get<std::string>() : std::string();
      };
      const json hso = member(reply, "hookSpecificOutput");
      const json pd = member(hso, "permissionDecision");
      const json d = member(reply, "decision");
      // The real CLI rejects the reply (`Hook JSON output validation failed — decision: Invalid
      // option`), warns that the hook gave no usable answer and runs the tool
      // (conformance/test/protocol-hooks-claude.sh, policy-json.py).
      if (!d.is_null() && d != "block" && !(d == "approve" && ev == "PreToolUse"))
        fs.push_back({"PROTO-5", "decision " + d.dump() + " is not one Claude Code reads here (" +
                                     "block" +
                                     (ev == "PreToolUse" ? " or approve; or "
                                                           "hookSpecificOutput.permissionDecision"
                                                         : "") +
                                     "): the reply fails its validation and no verdict is read"});
      if (d == "block" && !blocking)
        fs.push_back({"PROTO-5", "blocks on " + ev +
                                     ", where Claude Code does not honour a "
                                     "block"});
      if (!pd.is_null() && ev != "PreToolUse")
        fs.push_back({"PROTO-5", "permissionDecision on " + ev +
                                     ": Claude Code reads it on "
                                     "PreToolUse only"});
      else if (!pd.is_null() && pd != "allow" && pd != "deny" && pd != "ask")
        fs.push_back({"PROTO-5", "permissionDecision " + pd.dump() +
                                     " is not allow, deny or ask: "
                                     "ignored"});
      const bool named = (!d.is_null() && d != "block" && d != "approve") ||
                         (!pd.is_null() && pd != "allow" && pd != "deny" && pd != "ask");
      if (schema_rejected && !named) {
        // The CLI's own words: "Hook JSON output validation failed — <field>: <problem>".
        std::string why = o.detail["result"].value("stderr", std::string());
        why = why.substr(0, why.find('\n'));
        const std::string lead = "Hook JSON output validation failed \xE2\x80\x94 ";
        if (why.rfind(lead, 0) == 0) why = why.substr(lead.size());
        fs.push_back({"PROTO-5", "the reply fails Claude Code's validation (" + why +
                                     "): nothing in it is read, a non-blocking hook error"});
      }
      const bool denies = (pd == "deny" && ev == "PreToolUse") || (d == "block" && blocking);
      const std::string why =
          pd == "deny" ? text(hso, "permissionDecisionReason") : text(reply, "reason");
      if (denies && !js_nonblank(why))
        fs.push_back(
            {"PROTO-6", "blocks without a reason (" +
                            std::string(pd == "deny" ? "permissionDecisionReason" : "reason") +
                            "): the model is told only that a hook blocked it"});
    }
  } else {
    // Antigravity reads stdout as protojson on exit 0; its own reading is the one reply check.
    auto rc = pinta::hosts::check_reply(f, ev, {r.out, r.exit_code});
    if (!r.timed_out && !exit0)
      fs.push_back({"PROTO-3", exit_text(r) + ": Antigravity reads a failed hook (" + o.effect +
                                   ")"});
    else if (exit0 && !rc.framing.empty() && js_nonblank(r.out))
      fs.push_back({"PROTO-4", rc.framing});
    else if (exit0 && !rc.shape.empty())
      fs.push_back({"PROTO-5", rc.shape});
  }
  return fs;
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
  std::mutex mu;
  size_t done = 0;
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t k; (k = next++) < sel.size();) {
      const Case& c = cases[sel[k]];
      const ProtocolHook& h = hooks[sel[k]];
      CaseOutcome co;
      co.c = &c;
      HostOutcome ho;
      ho.host = h.host;
      const auto u0 = std::chrono::steady_clock::now();
      std::string err;
      auto runner = pinta::emu::make_host_runner(h.host, {o.fixtures_dir, o.profiles_dir}, err);
      auto fam = pinta::hosts::family_named(family_of(h.host));
      if (!runner || !fam) {
        ho.state = "unresolved";
        ho.failures.push_back(err.empty() ? "unknown host " + h.host : err);
      } else {
        // A scratch HOME (a hook's own files stay out of the user's), the project as cwd.
        std::string tmp = (stdfs::temp_directory_path() / "pinta-proto-XXXXXX").string();
        if (!::mkdtemp(tmp.data())) tmp.clear();
        const std::string ws =
            h.origin.empty() ? tmp : project_dir_of(h.origin.substr(0, h.origin.find('#')));
        HookCall call;
        call.host = h.host;
        call.event = h.event;
        call.command = h.command;
        call.cwd = ws;
        call.timeout_ms = h.timeout_ms;
        call.pipe_grace_ms = 1000;
        for (const char* k : {"PATH", "LANG", "LC_ALL", "TMPDIR"})
          if (const char* v = ::getenv(k)) call.env[k] = v;  // NOLINT(concurrency-mt-unsafe)
        call.env["HOME"] = tmp;
        json opts = json::object();
        const std::string tool = tool_for(*fam, h);
        if (!tool.empty()) {
          opts["tool"] = tool;
          opts["tool_args"] = tool_args(tool, ws);
        }
        call.input.payload = runner->default_payload(h.event, opts, tmp, ws);
        auto out = runner->run(call);
        if (!out.raw.started) {
          ho.state = "unresolved";
          ho.failures.push_back("the hook did not start: " + out.raw.spawn_error);
        } else {
          json run = detail::run_record(call, out);
          run["payload"] = call.input.payload;
          run["timeout_ms"] = call.timeout_ms;
          ho.runs.push_back(run);
          ho.effect = out.effect;
          for (const auto& f : judge(*fam, h, out)) {
            const auto& pc = check(f.check);
            std::string line = "[" + h.host + "] " + f.check + " " + pc.title + ": " + f.message;
            if (!f.note && (pc.level == "must" || o.strict)) {
              ho.failures.push_back(line);
              ho.failed_checks.push_back(f.check);
              ho.checks.push_back({f.check, json(pc.requirement), line, 0});
              if (ho.cause.empty()) ho.cause = pc.title;
            } else {
              ho.runs[0]["notes"].push_back(line);
            }
          }
          ho.state = ho.failures.empty() ? "pass" : "fail";
        }
        std::error_code ec;
        if (!tmp.empty()) stdfs::remove_all(tmp, ec);
      }
      co.hosts.push_back(std::move(ho));
      co.state = co.hosts[0].state == "pass"   ? "PASS"
                 : co.hosts[0].state == "fail" ? "FAIL"
                                               : "UNRESOLVED";
      co.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - u0).count();
      std::lock_guard<std::mutex> lock(mu);
      s.cases[k] = std::move(co);
      if (on_case) on_case(s.cases[k], ++done, sel.size());
    }
  };
  const int jobs = std::max(1, std::min<int>(o.jobs > 0 ? o.jobs : 4, static_cast<int>(sel.size())));
  std::vector<std::thread> ts;
  for (int j = 0; j < jobs; ++j) ts.emplace_back(worker);
  for (auto& t : ts) t.join();
  s.passed = 0;
  for (const auto& co : s.cases) {
    if (co.state == "PASS") ++s.passed;
    else ++s.failed;
  }
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return s;
}

}  // namespace pinta::conformance
