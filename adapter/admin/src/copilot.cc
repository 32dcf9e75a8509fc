// GitHub Copilot CLI 1.0's part of the admin tool (FamilyAdmin, admin_internal.h): the installer
// (our hooks in a hook file of our own, native format) and the doctor checks; the evidence is in
// pinta/admin/copilot.h.
#include "pinta/admin/copilot.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "admin_internal.h"
#include "pinta/admin/claude_code.h"
#include "pinta/admin/install.h"
#include "pinta/admin/json_edit.h"
#include "pinta/common/fs.h"
#include "pinta/hosts/copilot/copilot.h"

namespace pinta::admin {
namespace {

namespace cp = pinta::hosts::copilot;
using jsonedit::Doc;
using jsonedit::Node;

constexpr const char* kFileName = "pinta-gemini.json";
// Seconds (CPDOC `timeoutSec`; CPM c-pre-timeout: a timeout fails open). The adapter answers
// within its own budget; this only bounds a hung process.
constexpr int kTimeoutSeconds =
    hosts::descriptor(hosts::Family::kCopilot).install_timeout_ms / 1000;
// The largest hook file doctor reads (a few KiB in practice).
constexpr size_t kMaxFile = 4u << 20;

// " --agent <label> --event <event>" after the program: the label and event of one of ours, or
// nullopt when `command` is not ours under a Copilot label.
struct OurCommand {
  std::string program, label, event;
};
std::optional<OurCommand> parse_ours(const std::string& command) {
  if (!is_ours(command, "copilot")) return std::nullopt;
  auto [prog, rest] = split_command_program(command);
  std::string base = prog.substr(prog.rfind('/') == std::string::npos ? 0 : prog.rfind('/') + 1);
  if (base != "pinta-gemini") return std::nullopt;
  for (const char* label : {"copilot", "copilot-claude"}) {
    const std::string want = std::string(" --agent ") + label + " --event ";
    if (rest.rfind(want, 0) != 0) continue;
    std::string ev = rest.substr(want.size());
    if (ev.empty() || !std::all_of(ev.begin(), ev.end(), [](char c) {
          return std::isalpha(static_cast<unsigned char>(c));
        }))
      return std::nullopt;
    return OurCommand{prog, label, ev};
  }
  return std::nullopt;
}

// The command of a native entry: `bash`, else the cross-platform `command` (CPM
// c-pre-command-key); Claude-style handlers use `command`.
std::string entry_command(const ojson& h) {
  if (!h.is_object()) return "";
  for (const char* k : {"bash", "command"}) {
    auto c = h.find(k);
    if (c != h.end() && c->is_string()) return c->get<std::string>();
  }
  return "";
}

bool entry_is_ours(const ojson& h) { return copilot_is_ours(entry_command(h)); }

ojson entry_for(const std::string& adapter_path, const std::string& event) {
  return {{"type", "command"},
          {"bash", copilot_command(adapter_path, event)},
          {"timeoutSec", kTimeoutSeconds}};
}

Result<Doc> scan_hooks(const std::string& text) {
  auto d = Doc::scan(text);
  if (!d) return d.error();
  if (d->root().kind != Node::Kind::kObject)
    return make_error(ErrorCode::kParse, "1:1: the hook file is not a JSON object");
  const Node* hooks = d->member(d->root(), "hooks");
  if (hooks && hooks->kind != Node::Kind::kObject)
    return make_error(ErrorCode::kParse,
                      jsonedit::line_col(d->text(), hooks->begin) + ": \"hooks\" is not an object");
  return d;
}

// One entry of ours out of the flat event list `list` (skipping `keep`, the one we want); nullopt
// when there is none.
std::optional<std::string> remove_one(const Doc& d, const Node& list, const ojson* keep) {
  if (list.kind != Node::Kind::kArray) return std::nullopt;
  for (size_t i = 0; i < list.elements.size(); ++i) {
    ojson h = d.value(d.node(list.elements[i]));
    if (!entry_is_ours(h) || (keep && h == *keep)) continue;
    return d.remove_element(list, i);
  }
  return std::nullopt;
}

// Copilot's hook files: flat entries under each event (the entry is the handler).
bool entry_is(const ojson& entry, const ojson& want) { return entry == want; }
constexpr HooksFile kHooksFile{scan_hooks, remove_one, entry_for, entry_for, entry_is};

Result<std::optional<std::string>> read_user_file(const std::string& path) {
  if (::access(path.c_str(), F_OK) != 0) return std::optional<std::string>{};
  auto t = fs::read_regular_file(path, kMaxFile);
  if (!t) return make_error(ErrorCode::kIo, path + ": cannot be read (" + t.error().message + ")");
  return std::optional<std::string>{std::move(*t)};
}

std::string absolute(const std::string& p) {
  if (p.empty() || p[0] == '/') return p;
  char cwd[PATH_MAX];
  return ::getcwd(cwd, sizeof cwd) ? fs::join(cwd, p) : p;
}

// The *.json files of `dir`, sorted (Copilot reads them in readdir order, CPM: the order matters
// for which hook runs first, not for what doctor reports).
std::vector<std::string> json_files(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return out;
  while (const dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n.size() > 5 && n.compare(n.size() - 5, 5, ".json") == 0) out.push_back(fs::join(dir, n));
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

bool env_true(const char* k) {
  const char* v = std::getenv(k);  // NOLINT(concurrency-mt-unsafe): single-threaded CLI
  return v && std::string(v) == "true";
}

// Whether Copilot reads the repository's hooks at `workspace` (CPM src-repo-trusted-config:
// `trustedFolders` in ~/.copilot/config.json, the same key in settings.json is not honoured;
// src-repo-env-optin, src-repo-allow-all-env). An ancestor in the list counts too (GitHub's "Configure
// GitHub Copilot CLI": trust covers the files in and below a folder; not measured here). `why`: what decided.
bool repo_trusted(const std::string& copilot_home, const std::string& workspace, std::string& why) {
  if (env_true("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS") || env_true("COPILOT_ALLOW_ALL")) {
    why = "an environment opt-in (GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS or COPILOT_ALLOW_ALL)";
    return true;
  }
  const std::string cfg = fs::join(copilot_home, "config.json");
  auto t = fs::read_file(cfg);
  if (!t) {
    why = cfg + " does not exist";
    return false;
  }
  auto j = nlohmann::json::parse(*t, nullptr, false, true);
  if (!j.is_object() || !j.contains("trustedFolders") || !j["trustedFolders"].is_array()) {
    why = cfg + " lists no trustedFolders";
    return false;
  }
  std::string ws = workspace;
  while (ws.size() > 1 && ws.back() == '/') ws.pop_back();
  for (const auto& f : j["trustedFolders"]) {
    if (!f.is_string()) continue;
    std::string p = f.get<std::string>();
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    if (ws == p || (ws.rfind(p + "/", 0) == 0)) {
      why = cfg + " trusts " + p;
      return true;
    }
  }
  why = cfg + " does not list " + ws + " in trustedFolders";
  return false;
}

}  // namespace

// ---- public ---------------------------------------------------------------------------------

std::string copilot_home_dir(const std::string& home) {
  const char* v = std::getenv("COPILOT_HOME");  // NOLINT(concurrency-mt-unsafe): single-threaded
  if (!v || !*v) return fs::join(home, ".copilot");
  return absolute(v);
}

std::string copilot_hooks_path(const InstallOptions& o) {
  if (!o.workspace.empty()) return fs::join(absolute(o.workspace), ".github/hooks/" + std::string(kFileName));
  return fs::join(copilot_home_dir(o.home), "hooks/" + std::string(kFileName));
}

std::string copilot_command(const std::string& adapter_path, const std::string& event) {
  return shell_quote(adapter_path) + " --agent " + cp::agent_label(cp::Format::kNative) +
         " --event " + event;
}

bool copilot_is_ours(const std::string& command) { return parse_ours(command).has_value(); }

Result<std::string> copilot_add_ours(const std::string& original, const std::string& adapter_path) {
  std::string text = original;
  {
    auto d = scan_hooks(text);
    if (!d) return d.error();
    // CPM src-version-2: another version drops the file; a file without one loads (src-no-version).
    if (!d->member(d->root(), "version")) text = d->set_member(d->root(), "version", 1);
  }
  return add_ours(kHooksFile, text, adapter_path, installed_events(Host::kCopilot));
}

Result<std::string> copilot_remove_ours(const std::string& original, bool* only_ours_left) {
  auto text = remove_all_ours(kHooksFile, original);
  if (!text) return text.error();
  if (only_ours_left) {
    auto d = scan_hooks(*text);
    *only_ours_left = false;
    if (d) {
      const auto& m = d->root().members;
      *only_ours_left = m.empty() || (m.size() == 1 && m[0].key == "version" &&
                                      d->value(d->node(m[0].value)) == 1);
    }
  }
  return text;
}

// ---- doctor ---------------------------------------------------------------------------------

namespace {

// The repository's Claude Code settings files holding our `--agent claude-code` hook (the overlap:
// Copilot runs them in a trusted folder, CPM src-claude-trusted, src-claude-local-trusted).
std::vector<std::string> claude_registrations(const std::string& workspace) {
  std::vector<std::string> out;
  if (workspace.empty()) return out;
  for (const char* rel : {".claude/settings.json", ".claude/settings.local.json"}) {
    const std::string p = fs::join(workspace, rel);
    auto t = fs::read_file(p);
    if (!t) continue;
    auto j = nlohmann::json::parse(*t, nullptr, false);
    if (!j.is_object() || !j.contains("hooks") || !j["hooks"].is_object()) continue;
    bool ours = false;
    for (auto& [ev, groups] : j["hooks"].items()) {
      if (!groups.is_array()) continue;
      for (const auto& g : groups) {
        if (!g.is_object() || !g.contains("hooks") || !g["hooks"].is_array()) continue;
        for (const auto& h : g["hooks"])
          if (h.is_object() && h.contains("command") && h["command"].is_string() &&
              claude_code_is_ours(h["command"].get<std::string>()))
            ours = true;
      }
    }
    if (ours) out.push_back(p);
  }
  return out;
}

// What check_copilot gathers from Copilot's hook files, and where its findings go.
struct CopilotScan {
  DoctorReport& r;
  std::string trust_why;
  bool trusted = false;
  std::map<std::string, int> fires;  // canonical event -> entries of ours that load
  std::vector<std::string> programs;
  bool mentioned = false;

  void add(std::string level, std::string message, std::string fix = "",
           nlohmann::json detail = nlohmann::json::object()) {
    r.findings.push_back(Finding{"copilot", std::move(level), std::move(message), std::move(fix),
                                 std::move(detail)});
  }
};

struct CopilotFile {
  std::string path, scope;
};

// One file's "hooks" object: each entry of ours, whether it loads, and what it says.
void scan_copilot_hooks(CopilotScan& s, const CopilotFile& f, const ojson& hooks) {
  for (auto& [key, list] : hooks.items()) {
    auto format = cp::event_format(key);
    if (!format || !list.is_array()) continue;
    const std::string canonical = cp::canonical_event(key);
    // A native list may hold Claude-style groups too (CPM c-matcher-nested).
    std::vector<const ojson*> entries;
    for (const auto& e : list) {
      if (e.is_object() && e.contains("hooks") && e["hooks"].is_array())
        for (const auto& h : e["hooks"]) entries.push_back(&h);
      else
        entries.push_back(&e);
    }
    for (const ojson* h : entries) {
      auto ours = parse_ours(entry_command(*h));
      if (!ours) continue;
      if (f.scope == "user" || s.trusted) s.fires[canonical] += 1;
      if (std::find(s.programs.begin(), s.programs.end(), ours->program) == s.programs.end())
        s.programs.push_back(ours->program);
      const std::string want = cp::agent_label(*format);
      if (ours->label != want)
        s.add("broken",
              f.path + ": the pinta-gemini hook under " + key + " says --agent " + ours->label +
                  ", but a " + (*format == cp::Format::kNative ? "camelCase" : "PascalCase") +
                  " event gets the " +
                  (*format == cp::Format::kNative ? "native" : "Claude-style") +
                  " payload (--agent " + want + "): the guard does not see the tool call",
              "run: pinta-gemini install --host copilot");
      if (cp::canonical_event(ours->event) != canonical)
        s.add("broken",
              f.path + ": a pinta-gemini hook under " + key + " says --event " + ours->event,
              "run: pinta-gemini install --host copilot");
      // CPM c-pre-timeout-default: 30 s when none; a timeout fails open (the call runs).
      if (h->contains("timeoutSec") && (*h)["timeoutSec"].is_number() &&
          (*h)["timeoutSec"].get<double>() <= 0)
        s.add("warn", f.path + ": the pinta-gemini hook under " + key + " has timeoutSec " +
                          (*h)["timeoutSec"].dump(),
              "run: pinta-gemini install --host copilot");
    }
  }
}

// One hook file: whether Copilot loads it at all (readable, a JSON object, version 1, a trusted
// folder for a repository's), then its hooks.
void scan_copilot_file(CopilotScan& s, const CopilotFile& f) {
  auto text = read_user_file(f.path);
  if (!text || !text->has_value()) {
    s.add("warn", (text ? f.path + ": vanished" : text.error().message), "check its permissions");
    return;
  }
  const bool mentions = (*text)->find("--agent copilot") != std::string::npos;
  // A repository's file in an untrusted folder is said below; it loads nothing.
  s.mentioned = s.mentioned || (mentions && (f.scope == "user" || s.trusted));
  auto j = ojson::parse(**text, nullptr, false);
  if (!j.is_object()) {  // CPM src-broken-file: skipped without a word
    s.add(mentions ? "broken" : "warn",
          f.path + ": not a JSON object, Copilot skips the whole file without a notice",
          "fix the JSON (hostemu lint " + f.path + " shows where)");
    return;
  }
  if (j.contains("version") && j["version"] != 1) {  // CPM src-version-2
    s.add(mentions ? "broken" : "warn",
          f.path + ": \"version\": " + j["version"].dump() +
              " makes Copilot drop the whole file without a notice",
          "set \"version\": 1");
    return;
  }
  if (!j.contains("hooks") || !j["hooks"].is_object()) return;
  if (f.scope == "repo" && mentions && !s.trusted)
    s.add("broken",
          f.path +
              ": Copilot does not load a repository's hooks in a folder that is not trusted (" +
              s.trust_why + "): the guard does not run there",
          "trust the folder in Copilot (it asks on an interactive start), or install for the user: "
          "pinta-gemini install --host copilot");
  scan_copilot_hooks(s, f, j["hooks"]);
}

// The Claude Code registration in this repository, which Copilot runs too. Returns whether
// Copilot runs it (the folder is trusted).
bool report_claude_registrations(CopilotScan& s, const std::string& ws) {
  const auto claude = claude_registrations(ws);
  const bool claude_runs = !claude.empty() && s.trusted;
  for (const auto& p : claude) {
    nlohmann::json detail = {{"claude_settings", p}, {"trusted", s.trusted}};
    if (!s.trusted)
      s.add("info",
            p + " registers pinta-gemini for Claude Code; Copilot would run it too once this "
                "folder is trusted",
            "", detail);
    else if (!s.fires.empty())
      s.add("warn",
            p + " registers pinta-gemini for Claude Code and Copilot runs it too (trusted folder): "
                "each preToolUse is judged twice, once as --agent copilot and once as --agent "
                "claude-code (spans name Claude Code for the second)",
            "keep it if Claude Code users share this repository (both deny correctly); otherwise "
            "run: pinta-gemini uninstall --host claude-code --workspace " + ws,
            detail);
    else
      s.add("info",
            p + " registers pinta-gemini for Claude Code and Copilot runs it in this trusted "
                "folder (the guard judges each call, spans name Claude Code); Copilot's own "
                "install labels them as Copilot",
            "", detail);
  }
  return claude_runs;
}

void check_copilot(const DoctorOptions& o, DoctorReport& r) {
  CopilotScan s{.r = r};
  const std::string home = copilot_home_dir(o.home);
  const std::string ws = o.workspace.empty() || o.workspace == o.home ? "" : absolute(o.workspace);
  s.trusted = !ws.empty() && repo_trusted(home, ws, s.trust_why);
  std::vector<CopilotFile> files;
  for (const auto& f : json_files(fs::join(home, "hooks"))) files.push_back({f, "user"});
  if (!ws.empty())
    for (const auto& f : json_files(fs::join(ws, ".github/hooks"))) files.push_back({f, "repo"});
  for (const auto& f : files) scan_copilot_file(s, f);
  const bool claude_runs = report_claude_registrations(s, ws);
  if (s.fires.empty()) {
    if (!s.mentioned)
      s.add("info",
            std::string("pinta-gemini is not installed for Copilot CLI") +
                (claude_runs ? " (only through the Claude Code settings above)" : ""),
            "", {{"installed", false}});
    else
      s.add("broken", "pinta-gemini is named in a Copilot hook file but no hook of ours loads",
            "run: pinta-gemini install --host copilot");
    return;
  }
  for (const auto& p : s.programs)
    if (p.empty() || p[0] != '/' || !executable(p))
      s.add("broken",
            "the hook program " + p + " is missing or not executable: Copilot denies every tool "
            "call (its preToolUse fails closed on a hook that cannot start)",
            "reinstall pinta-gemini, then run: pinta-gemini install --host copilot");
  std::string missing, twice;
  for (const auto& e : installed_events(Host::kCopilot)) {
    int n = s.fires.count(e) ? s.fires[e] : 0;
    if (n == 0) missing += (missing.empty() ? "" : ", ") + e;
    if (n > 1) twice += (twice.empty() ? "" : ", ") + e;
  }
  nlohmann::json detail = {{"fires", s.fires}, {"copilot_home", home}};
  if (!twice.empty())
    s.add("warn",
          "pinta-gemini is registered more than once for " + twice +
              " (user and repository hook files both hold it?): each runs, the gate judges twice",
          "keep one registration: pinta-gemini uninstall --host copilot [--workspace DIR]", detail);
  if (!missing.empty())
    s.add("warn", "pinta-gemini is not registered for " + missing,
          "run: pinta-gemini install --host copilot", detail);
  else
    s.add("ok", "pinta-gemini is registered for every Copilot CLI event it installs", "", detail);
}

Result<Plan> install_plan(const InstallOptions& o) {
  const std::string path = copilot_hooks_path(o);
  auto before = read_user_file(path);
  if (!before) return make_error(ErrorCode::kIo, before.error().message + "; nothing written");
  auto after = copilot_add_ours(before->value_or(jsonedit::kFreshFile), o.adapter_path);
  if (!after)
    return make_error(ErrorCode::kParse, path + ":" + after.error().message + "; nothing written");
  Plan plan;
  // A file already holding ours is install's own (created by it, or backed up by the first install).
  const bool original =
      before->has_value() && (*before)->find("--agent copilot") == std::string::npos;
  add_change(plan, path, *before, *after, original);
  if (!o.workspace.empty())
    plan.warnings.push_back(path +
                            " is a project file: Copilot reads it only in a trusted folder, and "
                            "everyone who opens the project runs it");
  for (const auto& p : claude_registrations(o.workspace.empty() ? "" : absolute(o.workspace)))
    plan.warnings.push_back(
        p + " registers pinta-gemini for Claude Code, which Copilot runs too in a trusted folder: "
            "each call is judged twice (pinta-gemini doctor --host copilot says more)");
  add_state(o, plan, {fs::dirname(path)}, !before->has_value(), path);
  return plan;
}

Status uninstall_plan(const InstallOptions& o, const State& s, Plan& plan) {
  const std::string path = copilot_hooks_path(o);
  auto before = read_user_file(path);
  if (!before) return make_error(ErrorCode::kIo, before.error().message + "; nothing written");
  if (before->has_value()) {
    bool only_ours = false;
    auto after = copilot_remove_ours(**before, &only_ours);
    if (!after)
      return make_error(ErrorCode::kParse, path + ":" + after.error().message + "; nothing written");
    if (*after != **before) add_uninstall_change(plan, s, path, **before, *after, only_ours);
  }
  return {};
}

// `hostemu lint` on our hook file and the user's settings, user then repository.
std::vector<LintFile> lint_files(const DoctorOptions& o) {
  const std::string home = copilot_home_dir(o.home);
  std::vector<LintFile> out;
  for (const auto& f : json_files(fs::join(home, "hooks"))) out.push_back({f, o.home});
  if (!o.workspace.empty())
    for (const auto& f : json_files(fs::join(o.workspace, ".github/hooks")))
      out.push_back({f, o.home});
  if (out.empty()) out.push_back({fs::join(home, "hooks/" + std::string(kFileName)), o.home});
  return out;
}

}  // namespace

namespace copilot {
extern const FamilyAdmin kAdmin{.plan_install = install_plan,
                                .plan_uninstall = uninstall_plan,
                                .check = check_copilot,
                                .lint_files = lint_files,
                                .workspace_refused = "",
                                .state_under_dot_gemini = false};
}  // namespace copilot

}  // namespace pinta::admin
