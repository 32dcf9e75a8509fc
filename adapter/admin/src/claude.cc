// Claude Code's part of the admin tool (FamilyAdmin, admin_internal.h): its installer and doctor
// checks (see pinta/admin/claude_code.h for the evidence).
#include "pinta/admin/claude_code.h"

#include <unistd.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "admin_internal.h"
#include "pinta/admin/install.h"
#include "pinta/admin/json_edit.h"
#include "pinta/common/fs.h"
#include "pinta/hosts/claude/claude.h"

namespace pinta::admin {
namespace {

using jsonedit::Doc;
using jsonedit::Node;

// Seconds (Claude Code's hook timeout unit). The adapter answers within its own budget; this only
// bounds a hung process.
constexpr int kTimeoutSeconds =
    hosts::descriptor(hosts::Family::kClaude).install_timeout_ms / 1000;

bool handler_is_ours(const ojson& h) {
  if (!h.is_object()) return false;
  auto c = h.find("command");
  return c != h.end() && c->is_string() && claude_code_is_ours(c->get<std::string>());
}

ojson handler_for(const std::string& adapter_path, const std::string& event) {
  return {{"type", "command"},
          {"command", claude_code_command(adapter_path, event)},
          {"timeout", kTimeoutSeconds}};
}

ojson group_for(const std::string& adapter_path, const std::string& event) {
  ojson g = ojson::object();
  if (claude_code_event_has_matcher(event)) g["matcher"] = "*";
  g["hooks"] = ojson::array({handler_for(adapter_path, event)});
  return g;
}

// One handler of ours out of event list `groups` (admin_internal.h, remove_one_nested).
std::optional<std::string> remove_one(const Doc& d, const Node& groups, const ojson* keep) {
  return remove_one_nested(d, groups, keep, handler_is_ours);
}

Result<Doc> scan_object(const std::string& text) {
  auto d = Doc::scan(text);
  if (!d) return d.error();
  if (d->root().kind != Node::Kind::kObject)
    return make_error(ErrorCode::kParse, "1:1: the settings file is not a JSON object");
  const Node* hooks = d->member(d->root(), "hooks");
  if (hooks && hooks->kind != Node::Kind::kObject)
    return make_error(ErrorCode::kParse,
                      jsonedit::line_col(d->text(), hooks->begin) + ": \"hooks\" is not an object");
  return d;
}

// Claude Code's settings: Claude-style groups under each event.
constexpr HooksFile kHooksFile{scan_object, remove_one, handler_for, group_for, group_holds};

}  // namespace

const std::vector<std::string>& claude_code_events() {
  static const std::vector<std::string> k = {"SessionStart",       "UserPromptSubmit",
                                             "PreToolUse",         "PostToolUse",
                                             "PostToolUseFailure", "Stop",
                                             "SessionEnd"};
  return k;
}

bool claude_code_event_has_matcher(const std::string& event) {
  return event == "PreToolUse" || event == "PostToolUse" || event == "PostToolUseFailure";
}

std::string claude_code_command(const std::string& adapter_path, const std::string& event) {
  return shell_quote(adapter_path) + " --agent claude-code --event " + event;
}

bool claude_code_is_ours(const std::string& command) {
  auto [prog, rest] = split_command_program(command);
  std::string base = prog.substr(prog.rfind('/') == std::string::npos ? 0 : prog.rfind('/') + 1);
  if (base != "pinta-gemini") return false;
  const std::string want = " --agent claude-code --event ";
  if (rest.rfind(want, 0) != 0) return false;
  std::string ev = rest.substr(want.size());
  return !ev.empty() && std::all_of(ev.begin(), ev.end(), [](char c) { return std::isalpha(
                                                                           static_cast<unsigned char>(c)); });
}

std::string claude_code_settings_path(const InstallOptions& o) {
  if (!o.workspace.empty()) return fs::join(o.workspace, ".claude/settings.json");
  return fs::join(o.home, ".claude/settings.json");
}

Result<std::string> claude_code_add_ours(const std::string& original,
                                         const std::string& adapter_path) {
  return add_ours(kHooksFile, original, adapter_path, claude_code_events());
}

Result<std::string> claude_code_remove_ours(const std::string& original, bool* only_ours_left) {
  auto text = remove_all_ours(kHooksFile, original);
  if (!text) return text.error();
  if (only_ours_left) {
    auto d = scan_object(*text);
    *only_ours_left = d && d->root().members.empty();
  }
  return text;
}

Result<Plan> plan_claude_code_install(const InstallOptions& o) {
  Plan plan;
  const std::string path = claude_code_settings_path(o);
  std::optional<std::string> before;
  if (fs::exists(path)) {
    auto t = fs::read_file(path);
    if (!t) return t.error();
    before = std::move(*t);
  }
  auto after = claude_code_add_ours(before.value_or(jsonedit::kFreshFile), o.adapter_path);
  if (!after)
    return make_error(ErrorCode::kParse, path + ":" + after.error().message + "; nothing written");
  if (before && *before == *after) return plan;
  FileChange c;
  c.path = path;
  c.before = before;
  c.after = *after;
  c.backup = before.has_value();
  plan.changes.push_back(std::move(c));
  if (!o.workspace.empty())
    plan.warnings.push_back(path + " is a project file: everyone who opens the project runs it");
  return plan;
}

// ---- doctor -------------------------------------------------------------------------------------

void check_claude(const DoctorOptions& o, DoctorReport& r) {
  auto add = [&](std::string level, std::string message, std::string fix = "",
                 nlohmann::json detail = nlohmann::json::object()) {
    r.findings.push_back(Finding{"claude-code", std::move(level), std::move(message),
                                 std::move(fix), std::move(detail)});
  };
  struct File {
    std::string path, scope;
  };
  std::vector<File> files = {{fs::join(o.home, ".claude/settings.json"), "user"}};
  if (!o.workspace.empty() && o.workspace != o.home) {
    files.push_back({fs::join(o.workspace, ".claude/settings.json"), "project"});
    files.push_back({fs::join(o.workspace, ".claude/settings.local.json"), "local"});
  }
  std::map<std::string, int> fires;  // event -> handlers of ours
  std::vector<std::string> programs;
  bool any_file_ours = false;
  for (const auto& f : files) {
    if (!fs::exists(f.path)) continue;
    auto text = fs::read_file(f.path);
    if (!text) {
      add("warn", f.path + " cannot be read: " + text.error().message, "check its permissions");
      continue;
    }
    const bool mentions = text->find("--agent claude-code") != std::string::npos;
    any_file_ours = any_file_ours || mentions;
    auto d = Doc::scan(*text);
    if (!d) {
      add(mentions ? "broken" : "warn",
          f.path + ":" + d.error().message + ": not valid JSON, Claude Code ignores its settings",
          "fix the JSON at that position");
      continue;
    }
    ojson v = ojson::parse(*text, nullptr, false);
    if (!v.is_object()) continue;
    // Claude Code 2.1.332 runs none of a file's hooks when one value is outside its settings
    // schema (hosts/claude, measured by the settings-rejected-* scenarios): ours neither.
    if (auto p = pinta::hosts::claude::hooks_schema_problems(nlohmann::json::parse(*text, nullptr, false));
        !p.empty()) {
      add(mentions ? "broken" : "warn",
          f.path + ": Claude Code rejects this file's hooks (" + p.front().message + " at " +
              p.front().pointer + "): none of them run",
          "fix that value (hostemu lint " + f.path + " lists each one)");
      continue;
    }
    if (v.contains("disableAllHooks") && v["disableAllHooks"] == true) {
      add(mentions ? "broken" : "warn",
          f.path + ": \"disableAllHooks\": true turns every hook off", "remove disableAllHooks");
    }
    if (!v.contains("hooks") || !v["hooks"].is_object()) continue;
    for (auto& [event, groups] : v["hooks"].items()) {
      if (!groups.is_array()) continue;
      for (const auto& g : groups) {
        if (!g.is_object() || !g.contains("hooks") || !g["hooks"].is_array()) continue;
        for (const auto& h : g["hooks"]) {
          if (!handler_is_ours(h)) continue;
          fires[event] += 1;
          std::string prog = split_command_program(h["command"].get<std::string>()).first;
          if (std::find(programs.begin(), programs.end(), prog) == programs.end())
            programs.push_back(prog);
          auto cmd = h["command"].get<std::string>();
          std::string named = cmd.substr(cmd.rfind(' ') + 1);
          if (named != event)
            add("broken",
                f.path + ": a pinta-gemini hook under " + event + " says --event " + named,
                "run: pinta-gemini install --host claude-code");
        }
      }
    }
  }
  if (fires.empty()) {
    if (!any_file_ours)
      add("info", "pinta-gemini is not installed for Claude Code", "", {{"installed", false}});
    else
      add("broken", "pinta-gemini is named in a Claude Code settings file but registers no hook",
          "run: pinta-gemini install --host claude-code");
    return;
  }
  for (const auto& p : programs)
    if (p.empty() || p[0] != '/' || ::access(p.c_str(), X_OK) != 0)
      add("broken", "the hook program " + p + " is missing or not executable: every hook fails",
          "reinstall pinta-gemini, then run: pinta-gemini install --host claude-code");
  std::string missing, twice;
  for (const auto& e : claude_code_events()) {
    int n = fires.count(e) ? fires[e] : 0;
    if (n == 0) missing += (missing.empty() ? "" : ", ") + e;
    if (n > 1) twice += (twice.empty() ? "" : ", ") + e;
  }
  nlohmann::json detail = {{"fires", fires}};
  if (!twice.empty())
    add("warn", "pinta-gemini is registered more than once for " + twice +
                    " (user and project settings both hold it?)",
        "keep one registration: uninstall --host claude-code [--workspace DIR]", detail);
  if (!missing.empty())
    add("warn", "pinta-gemini is not registered for " + missing,
        "run: pinta-gemini install --host claude-code", detail);
  else
    add("ok", "pinta-gemini is registered for every Claude Code event", "", detail);
}

namespace {

Result<Plan> install_plan(const InstallOptions& o) {
  auto p = plan_claude_code_install(o);
  if (!p) return p;
  std::string path = claude_code_settings_path(o);
  add_state(o, *p, {fs::dirname(path)}, !fs::exists(path), path);
  return p;
}

Status uninstall_plan(const InstallOptions& o, const State& s, Plan& plan) {
  std::string path = claude_code_settings_path(o);
  auto before = read_optional(path);
  if (!before) return before.error();
  if (before->has_value()) {
    bool only_ours = false;
    auto after = claude_code_remove_ours(**before, &only_ours);
    if (!after) return make_error(ErrorCode::kParse, path + ":" + after.error().message);
    if (*after != **before) add_uninstall_change(plan, s, path, **before, *after, only_ours);
  }
  return {};
}

// `hostemu lint` on the user's, the project's and the local settings files.
std::vector<LintFile> lint_files(const DoctorOptions& o) {
  return {{fs::join(o.home, ".claude/settings.json"), o.home},
          {fs::join(o.workspace, ".claude/settings.json"), o.home},
          {fs::join(o.workspace, ".claude/settings.local.json"), o.home}};
}

}  // namespace

namespace claude {
extern const FamilyAdmin kAdmin{.plan_install = install_plan,
                                .plan_uninstall = uninstall_plan,
                                .check = check_claude,
                                .lint_files = lint_files,
                                .workspace_refused = "",
                                .state_under_dot_gemini = false};
}  // namespace claude

}  // namespace pinta::admin
