// Antigravity's part of the admin tool (FamilyAdmin, admin_internal.h): install puts our
// "pinta-gemini" entry into hooks.json (~/.gemini/config/hooks.json, or <workspace>/.agents/
// hooks.json) only when every profile still loads the merged file; uninstall takes the entry out;
// doctor plans every profile (hosts/antigravity) on the user's files.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "admin_internal.h"
#include "pinta/admin/doctor.h"
#include "pinta/admin/install.h"
#include "pinta/admin/json_edit.h"
#include "pinta/common/fs.h"
#include "pinta/hosts/antigravity/antigravity.h"

namespace pinta::admin {
namespace {

using json = nlohmann::json;
namespace agy = pinta::hosts::agy;

// ---- install ------------------------------------------------------------------------------------

ojson antigravity_spec(const InstallOptions& o, const std::vector<std::string>& events,
                       Plan* plan) {
  ojson spec = ojson::object();
  bool warned = false;
  for (const auto& e : events) {
    bool space = false;
    ojson handler = {{"type", "command"},
                     {"command", antigravity_command(o.adapter_path, e, &space)},
                     // seconds in the file (AGY§2.3)
                     {"timeout",
                      hosts::descriptor(hosts::Family::kAntigravity).install_timeout_ms / 1000}};
    if (space && !warned && plan) {
      plan->warnings.push_back(
          "adapter path contains whitespace or shell characters: agy builds "
          "that split commands on whitespace cannot run it; install "
          "pinta-gemini under a plain path");
      warned = true;
    }
    // Tool events grouped with matcher "", lifecycle events flat: a grouped lifecycle event
    // invalidates the whole file (antigravity reference §2.3, herdr PR #2087).
    if (e == "PreToolUse" || e == "PostToolUse")
      spec[e] = ojson::array({ojson{{"matcher", ""}, {"hooks", ojson::array({handler})}}});
    else
      spec[e] = ojson::array({handler});
  }
  return spec;
}

// Names of profiles under which `text` is rejected as a whole.
std::vector<std::string> rejecting_profiles(const std::vector<hosts::agy::Profile>& profiles,
                                            const std::string& text, const std::string& path) {
  std::vector<std::string> out;
  for (const auto& p : profiles) {
    auto r = hosts::agy::parse_hooks_json(text, p, path);
    if (!r) out.push_back(p.name);
  }
  return out;
}

std::string join_names(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& n : v) s += (s.empty() ? "" : ", ") + n;
  return s;
}

Result<Plan> plan_antigravity_install(const InstallOptions& o) {
  Plan plan;
  std::string path = antigravity_hooks_path(o);
  auto before = read_optional(path);
  if (!before) return before.error();
  ojson root = ojson::object();
  if (before->has_value()) {
    auto parsed = parse_object(path, **before);
    if (!parsed) return parsed.error();
    root = std::move(*parsed);
  }
  auto profiles = hosts::agy::load_profiles(o.profile_dir.empty() ? hosts::agy::default_profile_dir()
                                                                : o.profile_dir);
  if (!profiles)
    return make_error(ErrorCode::kNotFound,
                      "cannot load Antigravity profiles: " + profiles.error().message);
  std::vector<std::string> already_broken;
  if (before->has_value()) {
    ojson without = root;
    without.erase(kHookName);
    already_broken = rejecting_profiles(*profiles, dump(without), path);
    if (!already_broken.empty())
      plan.warnings.push_back(path + " (without pinta-gemini) is already rejected by " +
                              join_names(already_broken) + "; every hook in it is dropped there");
  }
  // SessionStart only where every profile loads it (it is dropped at parse on 1.0.5, §8 table).
  std::vector<std::string> events = installed_events(Host::kAntigravity);
  const std::string original = before->has_value() ? **before : std::string(jsonedit::kFreshFile);
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto merged = set_root_member(original, kHookName, antigravity_spec(o, events, nullptr));
    if (!merged) return make_error(ErrorCode::kParse, path + ":" + merged.error().message);
    std::vector<std::string> bad;
    for (const auto& n : rejecting_profiles(*profiles, *merged, path))
      if (std::find(already_broken.begin(), already_broken.end(), n) == already_broken.end())
        bad.push_back(n);
    if (bad.empty()) break;
    if (attempt == 0) {
      events.erase(std::remove(events.begin(), events.end(), "SessionStart"), events.end());
      continue;
    }
    return make_error(ErrorCode::kProtocol, "the merged " + path + " would be rejected by " +
                                                join_names(bad) + "; nothing written");
  }
  ojson spec = antigravity_spec(o, events, &plan);
  auto it = root.find(kHookName);
  if (it != root.end() && *it == spec) return plan;  // already installed: change nothing
  auto after = set_root_member(original, kHookName, spec);
  if (!after) return make_error(ErrorCode::kParse, path + ":" + after.error().message);
  add_change(plan, path, *before, *after, true);
  return plan;
}

Result<Plan> install_plan(const InstallOptions& o) {
  auto p = plan_antigravity_install(o);
  if (!p) return p;
  std::string path = antigravity_hooks_path(o);
  add_state(o, *p, {fs::dirname(path)}, !fs::exists(path), path);
  return p;
}

Status uninstall_plan(const InstallOptions& o, const State& s, Plan& plan) {
  std::string path = antigravity_hooks_path(o);
  auto before = read_optional(path);
  if (!before) return before.error();
  if (before->has_value()) {
    auto root = parse_object(path, **before);
    if (!root) return root.error();
    if (root->contains(kHookName)) {
      auto after = remove_root_member(**before, kHookName);
      if (!after) return after.error();
      root->erase(kHookName);
      add_uninstall_change(plan, s, path, **before, *after, root->empty());
    }
  }
  return {};
}

// ---- doctor -------------------------------------------------------------------------------------

void check_antigravity(const DoctorOptions& o, DoctorReport& r) {
  auto profiles =
      agy::load_profiles(o.profile_dir.empty() ? agy::default_profile_dir() : o.profile_dir);
  if (!profiles) {
    add(r, "antigravity", "warn",
        "cannot load the emulator's Antigravity profiles: " + profiles.error().message,
        "reinstall pinta-gemini (the profiles belong in <prefix>/share/pinta-gemini/antigravity/"
        "profiles) or set PINTA_AGY_PROFILES to a directory of profiles");
    return;
  }
  bool any_ours = false;
  for (const auto& path : {fs::join(o.home, ".gemini/config/hooks.json"),
                           fs::join(o.workspace, ".agents/hooks.json")}) {
    auto t = fs::read_file(path);
    if (t && contains(*t, "--agent antigravity")) any_ours = true;
  }
  for (const auto& path : {fs::join(o.home, ".gemini/antigravity-cli/hooks.json"),
                           fs::join(o.home, ".gemini/hooks.json")}) {
    auto t = fs::read_file(path);
    if (t && contains(*t, "--agent antigravity"))
      add(r, "antigravity", "warn",
          "stale pinta-gemini entry at legacy path " + path +
              " (read by early or unverified builds only)",
          "remove the \"pinta-gemini\" key from " + path);
  }
  if (!any_ours) {
    add(r, "antigravity", "info", "pinta-gemini is not installed for Antigravity", "",
        {{"installed", false}});
    return;
  }
  for (const auto& p : *profiles) {
    json files = json::array();
    std::map<std::string, int> fired;
    bool rejected_ours = false;
    std::string rejected_path, reject_error;
    for (auto ev : agy::all_events()) {
      agy::PlanRequest req;
      req.home = o.home;
      req.workspace = o.workspace;
      req.event = ev;
      req.tool = "write_file";
      auto plan = agy::plan(p, req);
      for (const auto& f : plan.files) {
        if (ev == agy::Event::kPreToolUse)
          files.push_back({{"path", f.path}, {"status", f.status}, {"error", f.error}});
        if (f.status == "rejected") {
          auto t = fs::read_file(f.path);
          if (t && contains(*t, "--agent antigravity")) {
            rejected_ours = true;
            rejected_path = f.path;
            reject_error = f.error;
          }
        }
      }
      int n = 0;
      for (const auto& run : plan.run)
        if (is_ours(run.command, "antigravity")) ++n;
      fired[agy::event_name(ev)] = n;
    }
    json detail = {{"profile", p.name}, {"files", files}, {"fires", fired}};
    if (auto why = agy::hooks_not_run_reason(p)) {
      // A build that loads hooks but never runs them (profile switch hooks_run): nothing we can
      // fix in a file, so a warning, never "would fire".
      detail["hooksRun"] = false;
      add(r, "antigravity", "warn", "[" + p.name + "] hooks are loaded but never run: " + *why,
          "use an agy build that runs hooks (see docs/hosts/antigravity.md)", detail);
      continue;
    }
    if (rejected_ours) {
      add(r, "antigravity", "broken",
          "[" + p.name + "] " + rejected_path + " is rejected as a whole: " + reject_error,
          "fix the error above or run: pinta-gemini install --host antigravity", detail);
      continue;
    }
    bool none = true, twice = false;
    for (auto& [ev, n] : fired) {
      if (n > 0) none = false;
      if (n > 1) twice = true;
    }
    if (none)
      add(r, "antigravity", "broken",
          "[" + p.name + "] pinta-gemini is registered but would not fire",
          "run: pinta-gemini install --host antigravity", detail);
    else if (twice)
      add(r, "antigravity", "broken",
          "[" + p.name + "] pinta-gemini fires more than once per event (registered twice)",
          "keep one \"pinta-gemini\" entry: global ~/.gemini/config/hooks.json or "
          ".agents/hooks.json",
          detail);
    else {
      std::string on, off;
      for (auto& [ev, n] : fired) (n > 0 ? on : off) += (n > 0 ? on : off).empty() ? ev : ", " + ev;
      add(r, "antigravity", "ok",
          "[" + p.name + "] pinta-gemini would fire on " + on +
              (off.empty() ? std::string() : " (not on " + off + ")"),
          "", detail);
    }
  }
}

// `hostemu lint` on the user's and the workspace's hooks.json.
std::vector<LintFile> lint_files(const DoctorOptions& o) {
  return {{fs::join(o.home, ".gemini/config/hooks.json"), o.home},
          {fs::join(o.workspace, ".agents/hooks.json"), o.home}};
}

}  // namespace

std::string antigravity_command(const std::string& adapter_path, const std::string& event,
                                bool* path_has_space) {
  // agy runs commands with `sh -c` on some builds and splits on whitespace on others (reference
  // §5.1): a bare absolute path works for both; quoting would break the split form.
  bool safe = shell_safe(adapter_path);
  if (path_has_space) *path_has_space = !safe;
  return (safe ? adapter_path : shell_quote(adapter_path)) + " --agent antigravity --event " +
         event;
}

std::string antigravity_hooks_path(const InstallOptions& o) {
  if (!o.workspace.empty()) return fs::join(o.workspace, ".agents/hooks.json");
  return fs::join(o.home, ".gemini/config/hooks.json");
}

namespace antigravity {
extern const FamilyAdmin kAdmin{.plan_install = install_plan,
                                .plan_uninstall = uninstall_plan,
                                .check = check_antigravity,
                                .lint_files = lint_files,
                                .workspace_refused = "",
                                .state_under_dot_gemini = true};
}  // namespace antigravity

}  // namespace pinta::admin
