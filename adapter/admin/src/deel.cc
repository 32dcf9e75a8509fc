// deel-local-cli 1.17's part of the admin tool (FamilyAdmin, admin_internal.h): install splices
// our named handlers into hooks.json (<workspace>/.deel/, $DEEL_HOME or ~/.deel/) among the
// user's own, in whichever shape the file uses; uninstall takes them out; doctor runs deel's own
// loader and hook selection (hosts/deel) on the user's files.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>

#include "admin_internal.h"
#include "pinta/admin/doctor.h"
#include "pinta/admin/install.h"
#include "pinta/admin/json_edit.h"
#include "pinta/common/fs.h"
#include "pinta/hosts/deel/deel.h"

namespace pinta::admin {
namespace {

using json = nlohmann::json;

// ---- install ------------------------------------------------------------------------------------
// The hooks file is read by seed 004 hooks.js 훅펴기 (l.299-329): the events live in
// `hooks`, else `훅`, else the root itself (l.302, JavaScript `??`: null counts as absent); an
// array there is the flat shape (l.304-311), an object the Claude shape (l.314-327), where an
// event's value that is not an array is one group and a group without a `hooks` array is itself
// the handler (l.318-320). Our handlers carry `"name": "pinta-gemini"` (한훅 reads name, l.289),
// which is how a re-install or uninstall finds them among the user's own.
// Edits are spliced into the user's text (json_edit.h), one at a time, rescanning in between.

bool is_our_handler(const ojson& handler) {
  if (!handler.is_object()) return false;
  auto it = handler.find("name");
  return it != handler.end() && it->is_string() && *it == kHookName;
}

using jsonedit::Doc;
using jsonedit::Node;

// Where the event map (or flat list) lives; nullptr when the file holds something we cannot merge
// into (`hooks` a string or a number).
const Node* deel_container(const Doc& d) {
  const Node& root = d.root();
  if (root.kind == Node::Kind::kArray) return &root;
  if (root.kind != Node::Kind::kObject) return nullptr;
  for (const char* key : {"hooks", "훅"}) {
    const Node* v = d.member(root, key);
    if (v && d.text().compare(v->begin, 4, "null") != 0)
      return v->kind == Node::Kind::kScalar ? nullptr : v;
  }
  return &root;  // the root itself is the event map (l.302)
}

// One of our handlers taken out of group list `groups`, or nullopt when it holds none.
// `whole` is set when the list is an event's bare group (an object, l.317): then the event's
// value becomes [] when the group goes.
std::optional<std::string> remove_one_in_groups(const Doc& d, const Node& groups) {
  if (groups.kind == Node::Kind::kArray) {
    for (size_t i = 0; i < groups.elements.size(); ++i) {
      const Node& g = d.node(groups.elements[i]);
      if (is_our_handler(d.value(g))) return d.remove_element(groups, i);
      if (g.kind != Node::Kind::kObject) continue;
      const Node* inner = d.member(g, "hooks");
      if (!inner || inner->kind != Node::Kind::kArray) continue;
      for (size_t j = 0; j < inner->elements.size(); ++j)
        if (is_our_handler(d.value(d.node(inner->elements[j])))) {
          // A group left with no handler goes with it.
          return inner->elements.size() == 1 ? d.remove_element(groups, i)
                                              : d.remove_element(*inner, j);
        }
    }
    return std::nullopt;
  }
  if (groups.kind == Node::Kind::kObject) {  // one bare group
    ojson g = d.value(groups);
    if (is_our_handler(g)) return d.replace(groups, ojson::array());
    const Node* inner = d.member(groups, "hooks");
    if (!inner || inner->kind != Node::Kind::kArray) return std::nullopt;
    for (size_t j = 0; j < inner->elements.size(); ++j)
      if (is_our_handler(d.value(d.node(inner->elements[j]))))
        return inner->elements.size() == 1 ? d.replace(groups, ojson::array())
                                            : d.remove_element(*inner, j);
  }
  return std::nullopt;
}

// `text` without our handlers. `emptied` gets the events whose list we emptied (install keeps
// those keys so a re-install rewrites them in place; uninstall drops them).
Result<std::string> remove_deel_handlers(std::string text, std::vector<std::string>* emptied) {
  for (;;) {
    auto d = Doc::scan(text);
    if (!d) return d.error();
    const Node* c = deel_container(*d);
    if (!c) return text;
    std::optional<std::string> next;
    if (c->kind == Node::Kind::kArray) {
      next = remove_one_in_groups(*d, *c);
    } else {
      for (const auto& m : c->members) {
        next = remove_one_in_groups(*d, d->node(m.value));
        if (next) {
          if (emptied && std::find(emptied->begin(), emptied->end(), m.key) == emptied->end())
            emptied->push_back(m.key);
          break;
        }
      }
    }
    if (!next) return text;
    text = std::move(*next);
  }
}

// 한훅 l.279-284: seconds, default 15, capped at 120 (the registry holds the value).
constexpr int kDeelTimeoutSeconds = hosts::descriptor(hosts::Family::kDeel).install_timeout_ms / 1000;

ojson deel_handler(const InstallOptions& o, const std::string& event) {
  // onError "pass": the host blocks on a broken hook at 도구전/말전 unless told to pass (l.186-194,
  // l.285-286); a missing or broken pinta-gemini must never block the user's agent (fail-open).
  return {{"type", "command"},
          {"command", deel_command(o.adapter_path, event)},
          {"timeout", kDeelTimeoutSeconds},
          {"onError", "pass"},
          {"name", kHookName}};
}

Result<std::string> add_deel_handlers(std::string text, const InstallOptions& o) {
  {
    auto d = Doc::scan(text);
    if (!d) return d.error();
    if (d->root().kind == Node::Kind::kObject && d->root().members.empty())
      text = d->set_member(d->root(), "hooks", ojson::object());  // an empty file: the usual map
  }
  for (const auto& e : installed_events(Host::kDeel)) {
    auto d = Doc::scan(text);
    if (!d) return d.error();
    const Node* c = deel_container(*d);
    if (!c) return make_error(ErrorCode::kParse, "\"hooks\" is neither an object nor an array");
    ojson h = deel_handler(o, e);
    if (c->kind == Node::Kind::kArray) {  // flat shape: event + matcher beside the handler (l.304-311)
      ojson flat = {{"event", e}, {"matcher", "*"}};
      for (auto it = h.begin(); it != h.end(); ++it) flat[it.key()] = it.value();
      text = d->append_element(*c, flat);
      continue;
    }
    ojson group = {{"matcher", "*"}, {"hooks", ojson::array({h})}};
    const Node* ev = d->member(*c, e);
    if (!ev || d->text().compare(ev->begin, 4, "null") == 0)
      text = d->set_member(*c, e, ojson::array({group}));
    else if (ev->kind == Node::Kind::kArray)
      text = d->append_element(*ev, group);
    else  // one group written bare (l.317)
      text = d->replace(*ev, ojson::array({d->value(*ev), group}));
  }
  return text;
}

Result<Plan> plan_deel_install(const InstallOptions& o) {
  Plan plan;
  std::string path = deel_hooks_path(o);
  auto before = read_optional(path);
  if (!before) return before.error();
  std::string text = before->has_value() ? **before : std::string(jsonedit::kFreshFile);
  auto d = Doc::scan(text);
  if (!d) return make_error(ErrorCode::kParse, path + ":" + d.error().message +
                                                   " (not valid JSON); nothing written");
  if (d->root().kind == Node::Kind::kScalar)
    return make_error(ErrorCode::kParse, path + " is not a JSON object or array; nothing written");
  auto stripped = remove_deel_handlers(text, nullptr);
  if (!stripped) return make_error(ErrorCode::kParse, path + ":" + stripped.error().message);
  auto after = add_deel_handlers(*stripped, o);
  if (!after) return make_error(ErrorCode::kParse, path + ": " + after.error().message +
                                                       "; nothing written");
  if (before->has_value() &&
      ojson::parse(**before, nullptr, false) == ojson::parse(*after, nullptr, false))
    return plan;  // already installed: change nothing
  add_change(plan, path, *before, *after, true);
  if (!o.workspace.empty())
    plan.warnings.push_back(path + " is read only in a folder deel-local-cli trusts");
  return plan;
}

Result<Plan> plan_deel_uninstall(const InstallOptions& o, const State& s) {
  Plan plan;
  std::string path = deel_hooks_path(o);
  auto before = read_optional(path);
  if (!before) return before.error();
  if (!before->has_value()) return plan;
  std::vector<std::string> emptied;
  auto stripped = remove_deel_handlers(**before, &emptied);
  if (!stripped) return make_error(ErrorCode::kParse, path + ":" + stripped.error().message);
  if (*stripped == **before) return plan;
  std::string text = *stripped;
  for (const auto& e : emptied) {  // events we emptied go too
    auto d = Doc::scan(text);
    if (!d) break;
    const Node* c = deel_container(*d);
    if (!c || c->kind != Node::Kind::kObject) break;
    auto i = d->member_index(*c, e);
    const Node* v = d->member(*c, e);
    if (i && v && v->kind == Node::Kind::kArray && v->elements.empty())
      text = d->remove_member(*c, *i);
  }
  ojson root = ojson::parse(text, nullptr, false);
  bool only_ours = root.is_object() && (root.empty() || (root.size() == 1 && root.contains("hooks") &&
                                                          root["hooks"].is_object() &&
                                                          root["hooks"].empty()));
  add_uninstall_change(plan, s, path, **before, text, only_ours);
  return plan;
}

Result<Plan> install_plan(const InstallOptions& o) {
  auto p = plan_deel_install(o);
  if (!p) return p;
  std::string path = deel_hooks_path(o);
  add_state(o, *p, {fs::dirname(path)}, !fs::exists(path), path);
  return p;
}

Status uninstall_plan(const InstallOptions& o, const State& s, Plan& plan) {
  auto p = plan_deel_uninstall(o, s);
  if (!p) return p.error();
  plan = std::move(*p);
  return {};
}

// ---- doctor -------------------------------------------------------------------------------------
// deel's own loader (hosts/deel: deel::load = seed 004 hooks.js 훅읽기, the code the emulator runs)
// on the user's files.
// Whether deel trusts the workspace is decided by its safety/trust.js, which is not in the seed:
// the project file is loaded as if trusted and reported as "read only in a trusted folder".

bool deel_ours(const hosts::deel::Hook& h) {
  return (h.name && *h.name == kHookName) || contains(h.command, "--agent deel");
}

void check_deel(const DoctorOptions& o, DoctorReport& r) {
  namespace deel = pinta::hosts::deel;
  deel::LoadRequest rq;
  rq.workspace = o.workspace;
  rq.home = o.home;
  char cwd[4096];
  rq.cwd = ::getcwd(cwd, sizeof cwd) ? cwd : o.workspace;
  for (const char* k : {"DEEL_HOME", "DEEL_HOOKS"}) {
    const char* v = std::getenv(k);  // NOLINT(concurrency-mt-unsafe): single-threaded CLI
    if (v) rq.env[k] = v;
  }
  rq.trusted = true;
  deel::Loaded l = deel::load(rq);
  auto ours_in = [](const deel::FileRead& f) {
    return std::any_of(f.hooks.begin(), f.hooks.end(), deel_ours);
  };
  auto file_mentions_us = [](const deel::FileRead& f) {
    auto t = fs::read_file(f.path);
    return t && contains(*t, "--agent deel");
  };
  const bool in_pc = ours_in(l.pc) || file_mentions_us(l.pc);
  const bool in_project = ours_in(l.project) || file_mentions_us(l.project);
  json detail = {{"pcFile", l.pc.path}, {"projectFile", l.project.path}};
  if (!in_pc && !in_project) {
    add(r, "deel", "info", "pinta-gemini is not installed for deel-local-cli", "",
        {{"installed", false}});
    return;
  }
  if (!l.enabled) {
    add(r, "deel", "broken",
        "deel-local-cli hooks are disabled (" + l.disabled_by.value_or("") + "): nothing fires",
        "unset DEEL_HOOKS (off, 0 and false disable every hook)", detail);
    return;
  }
  for (const deel::FileRead* f : {&l.pc, &l.project}) {
    if (f->error && file_mentions_us(*f))
      add(r, "deel", "broken", f->path + " cannot be read by deel-local-cli: " + *f->error,
          "fix the JSON or run: pinta-gemini install --host deel", detail);
    for (const auto& why : f->dropped)
      add(r, "deel", "warn", f->path + ": deel-local-cli drops a handler: " + why,
          "fix or remove that entry", detail);
  }
  if (in_project)
    add(r, "deel", "warn",
        l.project.path + " is read only when deel-local-cli trusts the folder " + o.workspace,
        "trust the folder in deel-local-cli, or run: pinta-gemini install --host deel", detail);
  if (l.overflow)
    add(r, "deel", "warn", "more than 32 hooks: deel-local-cli runs only the first 32",
        "remove unused hooks", detail);
  for (const auto& h : l.hooks)
    if (deel_ours(h) && !h.pass_on_failure)
      add(r, "deel", "warn",
          "a pinta-gemini handler for " + h.event +
              " has no \"onError\": \"pass\": if the adapter cannot start, deel blocks the call",
          "run: pinta-gemini install --host deel", detail);
  std::map<std::string, int> fired;
  for (const char* ev : {"도구전", "도구후", "말전", "턴끝"}) {
    int n = 0;
    for (const deel::Hook* h : deel::select(l.hooks, ev, std::string("Bash")))
      if (deel_ours(*h)) ++n;
    fired[ev] = n;
  }
  detail["fires"] = fired;
  std::string on, off;
  bool twice = false;
  for (auto& [ev, n] : fired) {
    std::string& list = n > 0 ? on : off;
    list += (list.empty() ? "" : ", ") + ev;
    twice = twice || n > 1;
  }
  if (on.empty())
    add(r, "deel", "broken", "pinta-gemini is registered for deel-local-cli but would not fire",
        "run: pinta-gemini install --host deel", detail);
  else if (twice)
    add(r, "deel", "broken", "pinta-gemini fires more than once per event (registered twice)",
        "keep one registration: ~/.deel/hooks.json or <workspace>/.deel/hooks.json", detail);
  else
    add(r, "deel", "ok",
        "pinta-gemini would fire on " + on + (off.empty() ? std::string() : " (not on " + off + ")"),
        "", detail);
}

// `hostemu lint` on the user's hooks.json ($DEEL_HOME, else ~/.deel) and the workspace's.
std::vector<LintFile> lint_files(const DoctorOptions& o) {
  const char* deel_home = std::getenv("DEEL_HOME");  // NOLINT(concurrency-mt-unsafe)
  return {{deel_home && *deel_home ? fs::join(deel_home, "hooks.json")
                                   : fs::join(o.home, ".deel/hooks.json"),
           o.home},
          {fs::join(o.workspace, ".deel/hooks.json"), o.home}};
}

}  // namespace

std::string deel_command(const std::string& adapter_path, const std::string& event) {
  // deel-local-cli runs the command through the same shell as its Bash tool (l.387-404; bash on
  // Linux), so a quoted path is safe.
  return shell_quote(adapter_path) + " --agent deel --event " + event;
}

std::string deel_hooks_path(const InstallOptions& o) {
  if (!o.workspace.empty()) return fs::join(o.workspace, ".deel/hooks.json");
  if (!o.deel_home.empty()) return fs::join(o.deel_home, "hooks.json");
  return fs::join(o.home, ".deel/hooks.json");
}

namespace deel {
extern const FamilyAdmin kAdmin{.plan_install = install_plan,
                                .plan_uninstall = uninstall_plan,
                                .check = check_deel,
                                .lint_files = lint_files,
                                .workspace_refused = "",
                                .state_under_dot_gemini = false};
}  // namespace deel

}  // namespace pinta::admin
