// `hostemu lint` for deel-local-cli 1.17.1 hooks.json files: what its reader (deel::unfold) drops,
// positioned, and the checks it does not make (unknown keys and values, timeout units, matcher
// shape, commands at fail-closed points, trust, duplicates across the PC and project files).
#include <cmath>
#include <set>

#include "common.h"
#include "pinta/common/fs.h"
#include "pinta/hosts/deel/deel.h"
#include "pinta/hosts/node/js.h"

namespace pinta::hostlint::detail {
namespace {

namespace deel = pinta::hosts::deel;
namespace node = pinta::hosts::node;

// Event names of the other hosts (and Claude Code's), with this host's equivalent.
const std::map<std::string, std::string>& deel_foreign_events() {
  static const std::map<std::string, std::string> m = {{"BeforeTool", "PreToolUse"},
                                                       {"AfterTool", "PostToolUse"},
                                                       {"BeforeAgent", "UserPromptSubmit"},
                                                       {"AfterAgent", "Stop"},
                                                       {"SessionStart", ""},
                                                       {"SessionEnd", ""},
                                                       {"PreInvocation", "UserPromptSubmit"},
                                                       {"PostInvocation", ""}};
  return m;
}

// Which file this is: the PC's (이 PC: ~/.deel or $DEEL_HOME) or a project's, and its folder.
struct DeelPlace {
  std::string layer = "other";  // user | project | other
  std::string workspace;
};

DeelPlace deel_place(const std::string& path, const LintOptions& o, const std::string& home) {
  const std::string p = normalize(path);
  DeelPlace d;
  std::string deel_home = env_or(o, "DEEL_HOME");
  if (same_file(p, home + "/.deel/hooks.json") ||
      (!deel_home.empty() && same_file(p, normalize(deel_home) + "/hooks.json"))) {
    d.layer = "user";
    if (!o.workspace.empty()) d.workspace = normalize(o.workspace);
  } else if (ends_with(p, "/.deel/hooks.json")) {
    d.layer = "project";
    d.workspace = dir_of(dir_of(p));
  }
  return d;
}

// A hook dropped for a bad command, type or matcher ("<event>: 명령이나 무늬가 잘못 적혀
// 있습니다", seed L271-276): which of the three.
void deel_bad_hook_finding(const ojson& root, const std::string& at, const ojson* x, Sink& sink) {
  auto get = [&](const ojson* o2, std::initializer_list<const char*> ks) -> const ojson* {
    if (!o2 || !o2->is_object()) return nullptr;
    for (const char* k : ks)
      if (auto it = o2->find(k); it != o2->end() && !it->is_null()) return &*it;
    return nullptr;
  };
  const ojson* group = at.find("/hooks/") != std::string::npos
                           ? at_pointer(root, parent_pointer(parent_pointer(at)))
                           : x;
  const ojson* m = get(x, {"도구", "matcher"});
  std::string mptr = at + "/" + (x && x->contains("도구") ? "도구" : "matcher");
  if (!m && group != x) {
    m = get(group, {"matcher", "도구"});
    mptr = parent_pointer(parent_pointer(at)) + "/" +
           (group && group->contains("matcher") ? "matcher" : "도구");
  }
  if (m && !deel::make_matcher(*m)) {
    sink.add(
        Severity::kError, "matcher-invalid", mptr,
        "matcher is not a valid JavaScript regular expression: deel-local-cli drops this hook",
        "fix the pattern (deel wraps it as ^(?:pattern)$)");
    return;
  }
  const ojson* t = get(x, {"type"});
  if (t && !(t->is_string() && *t == "command") && !(t->is_boolean() && !t->get<bool>()) &&
      !(t->is_string() && t->get<std::string>().empty())) {
    sink.add(Severity::kError, "invalid-handler", at + "/type",
             "type " + t->dump() + ": deel-local-cli only runs command hooks and drops this one",
             "remove \"type\" or set it to \"command\"");
    return;
  }
  sink.add(Severity::kError, "invalid-handler", at,
           "hook without a command: deel-local-cli drops it",
           "add \"command\": \"...\" (or \"명령\")");
}

// What the reader dropped: unknown events, and hooks it could not use.
void deel_dropped_findings(const ojson& root, const deel::FileRead& f, Sink& sink) {
  static const std::vector<std::string> kEvents = {"PreToolUse", "PostToolUse", "UserPromptSubmit",
                                                   "Stop"};
  for (size_t i = 0; i < f.dropped.size(); ++i) {
    const std::string& why = f.dropped[i];
    const std::string& at = f.dropped_at[i];
    const ojson* x = at_pointer(root, at);
    if (why.rfind("모르는 자리: ", 0) == 0) {
      std::string ev = why.substr(std::string("모르는 자리: ").size());
      bool named_hook = x && x->is_object() && !x->contains("command") && !x->contains("명령");
      sink.add_at_key(Severity::kWarning, "unknown-event", at,
                      "deel-local-cli drops unknown event '" + ev + "'" +
                          (named_hook ? " (this looks like Antigravity's named-hook shape)" : ""),
                      suggest_event(ev, kEvents, deel_foreign_events()));
      continue;
    }
    deel_bad_hook_finding(root, at, x, sink);
  }
}

// "<what> a failure of this hook … blocks every matched tool call / prompt" at 도구전 / 말전.
std::string blocked_what(const std::string& event) {
  return event == "도구전" ? "matched tool call" : "prompt";
}

// seed L278, L286: String(고장나면 ?? onError ?? '').trim() must be exactly '지나가기' or
// 'pass' for a failure to pass; any other value is read as "not written", and at a blocking
// point (도구전, 말전: seed L187-189, L449-451) a failure then blocks.
void deel_on_error_finding(const ojson& x, const deel::Hook& h, Sink& sink) {
  const char* ek = nullptr;
  for (const char* k : {"고장나면", "onError"})
    if (auto it = x.find(k); !ek && it != x.end() && !it->is_null()) ek = k;
  if (!ek || h.pass_on_failure) return;
  const ojson& ev = x[ek];
  std::string shown = ev.is_string() ? ev.get<std::string>() : ev.dump();
  const bool blocking = deel::is_blocking_event(h.event);
  sink.add(blocking ? Severity::kError : Severity::kWarning, "unknown-value",
           h.pointer + "/" + pointer_token(ek),
           std::string(ek) + " '" + shown + "' is not a value deel-local-cli knows" +
               did_you_mean(shown, {"지나가기", "pass"}) +
               ": it reads it as not written, so " +
               (blocking ? "a failure of this hook (a crash, a missing program, a non-zero "
                           "exit other than 2) blocks every " +
                               blocked_what(h.event) + " (it fails closed)"
                         : "nothing changes here (" + h.event + " does not block)"),
           std::string("write \"") + ek + "\": \"" +
               (std::string(ek) == "onError" ? "pass" : "지나가기") +
               "\" to let failures pass, or remove it to fail closed on purpose");
}

// seed L277, L284: seconds, capped at 120 s; non-positive → 15 s default.
void deel_timeout_finding(const ojson& x, const deel::Hook& h, Sink& sink) {
  const char* tk = x.contains("제한초") ? "제한초" : "timeout";
  auto tv = x.find(tk);
  if (tv == x.end() || tv->is_null()) return;
  double secs = deel::js_number_of(*tv);
  std::string tp = h.pointer + "/" + pointer_token(tk);
  if (std::isfinite(secs) && secs >= 1000)
    sink.add(Severity::kWarning, "timeout-unit", tp,
             "timeout " + deel::js_number_text(secs) +
                 " is seconds in deel-local-cli; it is capped at 120 s",
             "write " + deel::js_number_text(secs / 1000) + " for " +
                 deel::js_number_text(secs) + " ms");
  else if (std::isfinite(secs) && secs > deel::kMaxTimeoutMs / 1000)
    sink.add(Severity::kWarning, "timeout-unit", tp,
             "timeout " + deel::js_number_text(secs) +
                 " s is over deel-local-cli's cap: the hook is killed after 120 s",
             "write 120 or less");
  else if (!std::isfinite(secs) || secs <= 0)
    sink.add(Severity::kWarning, "timeout-unit", tp,
             "timeout " + deel::js_string(*tv) +
                 " is not a positive number of seconds: deel-local-cli uses its 15 s default",
             "write a number of seconds, e.g. 10");
}

// Each hook the reader kept: its keys and values, its matcher, its command.
void deel_hook_findings(const ojson& root, const deel::FileRead& f, const CommandContext& cc,
                        Sink& sink) {
  static const std::set<std::string> kKeys = {
      "명령", "command", "type", "제한초", "timeout", "고장나면", "onError", "이름",
      "name", "때",      "자리", "event",  "도구",    "matcher",  "hooks",   "description"};
  for (const auto& h : f.hooks) {
    const ojson* x = at_pointer(root, h.pointer);
    if (x && x->is_object()) {
      static const std::vector<std::string> kKeyList(kKeys.begin(), kKeys.end());
      for (auto it = x->begin(); it != x->end(); ++it)
        if (!kKeys.count(it.key()))
          sink.add_at_key(Severity::kWarning, "unknown-key",
                          h.pointer + "/" + pointer_token(it.key()),
                          "deel-local-cli ignores key '" + it.key() + "'" +
                              did_you_mean(it.key(), kKeyList),
                          "known keys: command, matcher, timeout (seconds), onError, name");
      deel_on_error_finding(*x, h, sink);
      deel_timeout_finding(*x, h, sink);
    }
    if (deel::is_tool_event(h.event) && !h.pattern.all) {
      MatcherContext mc;
      mc.host = "deel-local-cli";
      mc.searched = false;  // ^(?:s)$ (seed L254-258)
      mc.backtracking = true;
      std::string mp = parent_pointer(parent_pointer(h.pointer)) + "/matcher";
      if (x && (x->contains("matcher") || x->contains("도구")))
        mp = h.pointer + "/" + (x->contains("도구") ? "도구" : "matcher");
      check_matcher_shape(sink, mp, h.matcher, mc);
    }
    // At a blocking point a hook that cannot start blocks (seed L440-451) unless it passes.
    std::string blocks;
    if (deel::is_blocking_event(h.event) && !h.pass_on_failure)
      blocks = "deel-local-cli blocks every " + blocked_what(h.event) +
               " while this hook cannot run (add \"고장나면\": \"지나가기\" to let it pass)";
    check_adapter(sink, h.pointer, Host::kDeel, h.event, h.command);
    check_command(sink, h.pointer, h.command, cc, false, "", blocks);
  }
}

// Duplicates: PC hooks then project hooks all run (seed L368).
void deel_duplicate_findings(const DeelPlace& place, const std::string& home,
                             const deel::FileRead& f, Sink& sink) {
  std::string other;
  if (place.layer == "project") other = home + "/.deel/hooks.json";
  if (place.layer == "user" && !place.workspace.empty())
    other = place.workspace + "/.deel/hooks.json";
  if (other.empty()) return;
  auto t = pinta::fs::read_file(other);
  if (!t) return;
  auto ov = node::js_parse(*t);
  if (!ov) return;
  auto of = deel::unfold(*ov, "");
  auto oidx = PositionIndex::build(*t);
  for (const auto& h : f.hooks)
    for (const auto& x : of.hooks)
      if (x.event == h.event && x.command == h.command) {
        sink.add(Severity::kWarning, "duplicate-registration", h.pointer,
                 "'" + h.command + "' is also registered in " + other + ":" +
                     std::to_string(oidx.locate(x.pointer).line) +
                     ": deel-local-cli runs PC and project hooks, so it runs twice",
                 "keep one registration (~/.deel/hooks.json or the project's)");
        break;
      }
}

const PathDetector kDetector(Host::kDeel,
                             [](const std::string& p) { return ends_with(p, "/.deel/hooks.json"); });
// deel-local-cli's roots: an array of hooks, a "hooks" array, or its Korean "훅" key.
const ShapeDetector kShape(Host::kDeel, 0, [](const ojson& j) {
  const bool deel =
      j.is_array() || (j.is_object() && ((j.contains("hooks") && j["hooks"].is_array()) ||
                                         j.contains("훅")));
  return deel ? ShapeMatch::kYes : ShapeMatch::kNo;
});

}  // namespace

void lint_deel_file(const std::string& path, const std::string& text, const LintOptions& o, Sink& sink) {
  const std::string home = home_of(o);
  const DeelPlace place = deel_place(path, o, home);
  // read_one (seed L332-335): readFileSync + JSON.parse; a BOM or invalid JSON drops the file.
  auto v = node::js_parse(node::node_utf8_decode(text));
  if (!v || text.rfind("\xEF\xBB\xBF", 0) == 0) {
    Position pos{1, 1};
    std::string detail = "invalid JSON";
    syntax_error(text, false, pos, detail);
    sink.out.push_back({path, pos, Severity::kError, "json-syntax",
                        "deel-local-cli ignores every hook in this file: " + detail,
                        "fix the JSON (no comments, no trailing commas, no BOM)"});
    return;
  }
  const ojson& root = *v;
  auto f = deel::unfold(root, place.layer == "project" ? "프로젝트" : "이 PC");
  if (!(root.is_array() || root.is_object()))
    sink.add(Severity::kError, "foreign-root", "",
             "deel-local-cli reads an array of hooks or an object of events; this root holds "
             "neither, so nothing loads",
             "write {\"hooks\": {\"PreToolUse\": [{\"matcher\": \"*\", \"hooks\": [{\"command\": "
             "\"...\"}]}]}}");
  deel_dropped_findings(root, f, sink);
  CommandContext cc;
  cc.home = home;
  cc.cwd = !place.workspace.empty() ? place.workspace : home;
  cc.path_env = env_or(o, "PATH");
  deel_hook_findings(root, f, cc, sink);
  if (place.layer == "project" && !f.hooks.empty() && o.deel_trusted != std::optional<bool>(true))
    sink.add(Severity::kWarning, "file-not-read", "",
             o.deel_trusted == std::optional<bool>(false)
                 ? "folder " + place.workspace + " is not trusted: deel-local-cli ignores this file"
                 : "deel-local-cli reads a project hooks file only in a folder you trusted "
                   "(its trust store is not modelled here, so this cannot be checked)",
             "trust the folder in deel-local-cli, or move the hooks to ~/.deel/hooks.json; pass "
             "--deel-trusted yes to silence this");
  deel_duplicate_findings(place, home, f, sink);
}


// ---- explain: the hooks that fire for one event, in run order (hostemu explain) ----------

namespace {

// deel-local-cli: what a failure of hook `h` of `event` does.
std::string deel_on_failure(const std::string& event, const deel::Hook& h) {
  return deel::is_blocking_event(event)
             ? (h.pass_on_failure
                    ? "exit 2 blocks; other failures (non-zero exit, timeout, spawn error) pass "
                      "(onError: pass)"
                    : "fail-closed: exit 2 or any failure (non-zero exit, timeout, spawn error) "
                      "blocks")
             : "fail-open: " + event + " does not block; failures are reported only";
}

}  // namespace


// deel-local-cli: the PC and project files as loaded for the workspace, and the hooks selected.
Result<std::vector<ExplainSection>> explain_deel(const ExplainRequest& rq,
                                                 const LintOptions& options, Locator& loc) {
  std::vector<ExplainSection> out;
  auto ev = deel::resolve_event(ojson(rq.event));
  if (!ev) return bad_request("unknown deel-local-cli event '" + rq.event + "'");
  if (!rq.tool.empty() && !deel::is_tool_event(*ev))
    return bad_request("--tool only applies to PreToolUse/PostToolUse");
  deel::LoadRequest lr;
  lr.home = rq.home;
  lr.workspace = rq.workspace.empty() ? rq.home : rq.workspace;
  lr.cwd = lr.workspace;
  for (const char* k : {"DEEL_HOME", "DEEL_HOOKS"}) {
    if (auto it = options.env.find(k); it != options.env.end()) lr.env[k] = it->second;
  }
  lr.trusted = rq.deel_trusted.value_or(false);
  auto l = deel::load(lr);
  ExplainSection s;
  s.host = std::string("deel-local-cli ") + deel::kHostVersion;
  if (!l.enabled) s.notes.push_back("hooks are off (" + l.disabled_by.value_or("") + ")");
  if (l.untrusted_project)
    s.notes.push_back(l.project.path + " is not read: the folder is not trusted");
  for (const auto* f : {&l.pc, &l.project})
    if (f->error) s.notes.push_back(f->path + ": " + *f->error);
  if (l.overflow) s.notes.push_back("more than 32 hooks: the rest are dropped");
  for (const auto* f : {&l.pc, &l.project})
    for (size_t i = 0; i < f->dropped.size() && i < f->dropped_at.size(); ++i)
      if (f->dropped[i].rfind(*ev, 0) == 0)  // "<event>: why" (seed L271-276)
        s.dropped.push_back(loc.where(f->path, f->dropped_at[i]) + f->dropped[i]);
  std::optional<std::string> tool;
  if (!rq.tool.empty()) tool = rq.tool;
  int n = 0;
  for (const deel::Hook* h : deel::select(l.hooks, *ev, tool)) {
    ExplainedHook e;
    e.order = ++n;
    e.layer = h->source == "프로젝트" ? "project" : "user";
    e.file = h->source == "프로젝트" ? l.project.path : l.pc.path;
    e.pos = loc.at(e.file, h->pointer);
    e.command = h->command;
    e.name = h->name.value_or("");
    e.matcher = h->matcher;
    e.timeout = deel::js_number_text(h->timeout_ms / 1000) + " s";
    e.on_failure = deel_on_failure(*ev, *h);
    s.hooks.push_back(e);
  }
  if (s.hooks.size() > 1)
    s.notes.push_back("run one after another; the first block stops the rest");
  out.push_back(s);
  return out;
}

Status lint_deel(const std::string& path, const std::string& text, const LintOptions& o,
                   Sink& sink) {
  lint_deel_file(path, text, o, sink);
  return {};
}

}  // namespace pinta::hostlint::detail
