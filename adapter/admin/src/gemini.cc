// Gemini CLI 0.61's part of the admin tool (FamilyAdmin, admin_internal.h): install writes our
// extension (~/.gemini/extensions/pinta-gemini: its manifest and hooks/hooks.json, every file ours)
// and clears an enablement rule that disables it; uninstall removes them; doctor runs the CLI's
// own loader and planner (hosts/gemini) on the user's settings and extensions.
#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <nlohmann/json.hpp>

#include "admin_internal.h"
#include "pinta/admin/doctor.h"
#include "pinta/admin/install.h"
#include "pinta/common/fs.h"
#include "pinta/common/version.h"
#include "pinta/hosts/gemini/gemini.h"

namespace pinta::admin {
namespace {

using json = nlohmann::json;
namespace gem = pinta::hosts::gemini;

// ---- install ------------------------------------------------------------------------------------

ojson gemini_hooks(const InstallOptions& o) {
  ojson hooks = ojson::object();
  for (const auto& e : installed_events(Host::kGemini)) {
    ojson handler = {{"name", kHookName},
                     {"type", "command"},
                     {"command", gemini_command(o.adapter_path, e)},
                     {"timeout", hosts::descriptor(hosts::Family::kGemini).install_timeout_ms}};  // in ms
    ojson def = ojson::object();
    if (e == "BeforeTool" || e == "AfterTool") def["matcher"] = "";
    def["hooks"] = ojson::array({handler});
    hooks[e] = ojson::array({def});
  }
  return ojson{{"hooks", hooks}};
}

// Settings checks that do not change anything: hooksConfig (gemini reference §1.3).
void gemini_settings_warnings(const InstallOptions& o, Plan& plan) {
  std::string settings = fs::join(o.gemini_home, ".gemini/settings.json");
  auto text = fs::read_file(settings);
  if (!text) return;
  // Gemini strips comments before JSON.parse (§1.2); nlohmann's ignore_comments matches that.
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, false, true);
  if (j.is_discarded()) {
    plan.warnings.push_back(settings +
                            " is not valid JSON: Gemini CLI will refuse to start (exit 52)");
    return;
  }
  if (!j.is_object()) return;
  auto hc = j.find("hooksConfig");
  if (hc != j.end() && hc->is_object()) {
    auto en = hc->find("enabled");
    if (en != hc->end() && en->is_boolean() && !en->get<bool>())
      plan.warnings.push_back(settings +
                              ": hooksConfig.enabled is false, no hook will run; set it to true");
    auto dis = hc->find("disabled");
    if (dis != hc->end() && dis->is_array())
      for (const auto& d : *dis)
        if (d.is_string() && d.get<std::string>() == kHookName)
          plan.warnings.push_back(settings +
                                  ": hooksConfig.disabled lists \"pinta-gemini\"; remove it");
  }
  auto sec = j.find("security");
  if (sec != j.end() && sec->is_object() && sec->contains("allowedExtensions"))
    plan.warnings.push_back(
        settings + ": security.allowedExtensions is set; make sure it allows pinta-gemini");
}

Result<Plan> plan_gemini_install(const InstallOptions& o) {
  Plan plan;
  std::string dir = gemini_extension_dir(o);
  std::string manifest_path = fs::join(dir, "gemini-extension.json");
  std::string hooks_path = fs::join(dir, "hooks/hooks.json");
  ojson manifest = {{"name", kHookName},
                   {"version", o.version.empty() ? std::string(pinta::version()) : o.version}};
  for (const auto& [path, value] :
       {std::pair{manifest_path, manifest}, std::pair{hooks_path, gemini_hooks(o)}}) {
    auto before = read_optional(path);
    if (!before) return before.error();
    if (before->has_value()) {
      auto parsed = parse_object(path, **before);
      if (!parsed) return parsed.error();
      if (*parsed == value) continue;  // same content, maybe other formatting: leave it
    }
    add_change(plan, path, *before, dump(value), false);
  }
  // Enablement (bundle extension-manager.ts ExtensionEnablementManager.isEnabled, 0.61.0): no
  // entry → enabled; otherwise the last matching override wins and "!" disables. Our entry with
  // a disabling rule is removed, which enables the extension everywhere.
  std::string enablement = fs::join(o.gemini_home, ".gemini/extensions/extension-enablement.json");
  auto en_text = read_optional(enablement);
  if (!en_text) return en_text.error();
  if (en_text->has_value()) {
    auto en = parse_object(enablement, **en_text);
    if (!en) return en.error();
    auto it = en->find(kHookName);
    if (it != en->end()) {
      bool disables = false;
      if (it->is_object() && it->contains("overrides") && (*it)["overrides"].is_array())
        for (const auto& r : (*it)["overrides"])
          if (r.is_string() && !r.get<std::string>().empty() && r.get<std::string>()[0] == '!')
            disables = true;
      if (disables) {
        auto after = remove_root_member(**en_text, kHookName);
        if (!after) return after.error();
        add_change(plan, enablement, *en_text, *after, true);
        plan.warnings.push_back(enablement + ": removed a rule that disabled pinta-gemini");
      }
    }
  }
  gemini_settings_warnings(o, plan);
  return plan;
}

Result<Plan> install_plan(const InstallOptions& o) {
  auto p = plan_gemini_install(o);
  if (!p) return p;
  std::string dir = gemini_extension_dir(o);
  add_state(o, *p, {fs::join(dir, "hooks")}, false);
  return p;
}

Status uninstall_plan(const InstallOptions& o, const State&, Plan& plan) {
  std::string dir = gemini_extension_dir(o);
  for (const char* f : {"gemini-extension.json", "hooks/hooks.json"}) {
    std::string path = fs::join(dir, f);
    auto before = read_optional(path);
    if (!before) return before.error();
    add_change(plan, path, *before, std::nullopt, false);
  }
  plan.remove_dirs.push_back(fs::join(dir, "hooks"));
  plan.remove_dirs.push_back(dir);
  std::string enablement = fs::join(o.gemini_home, ".gemini/extensions/extension-enablement.json");
  auto en_text = read_optional(enablement);
  if (en_text && en_text->has_value()) {
    auto en = parse_object(enablement, **en_text);
    if (!en) return en.error();
    if (en->contains(kHookName)) {
      auto after = remove_root_member(**en_text, kHookName);
      if (!after) return after.error();
      add_change(plan, enablement, *en_text, *after, false);
      auto bak = fs::read_file(enablement + ".pinta-bak");
      if (bak && *bak == *after) plan.changes.back().remove_backup = true;
    }
  }
  return {};
}

// ---- doctor -------------------------------------------------------------------------------------

// The events install registers (pinta/hosts/events.h via install.h).
const std::vector<std::string>& kGeminiEvents = installed_events(Host::kGemini);

// A command hook Gemini CLI registers from one file, with its event and display name.
struct GHook {
  std::string event, name, command, file;
};
// The hooks Gemini CLI 0.61.0 registers from one file, read by its own loader (hosts/gemini
// load_hooks_file: a settings.json, or an extension's hooks/hooks.json).
void collect_gemini(const gem::LoadResult& loaded, std::vector<GHook>& out) {
  for (const auto& [event, hooks] : loaded.by_event)
    for (const auto& h : hooks) out.push_back({event, h.spec.name, h.spec.command, h.origin});
}

// Where Gemini CLI 0.61.0 reads hooks for this home and workspace (§1.1, §1.6).
struct GeminiPaths {
  std::string home, user_settings, ws_settings, ext_root, ours_dir;
  bool ws_is_home = false;  // the workspace is the home: one settings file, read once
};
GeminiPaths gemini_paths(const DoctorOptions& o) {
  GeminiPaths p;
  p.home = o.gemini_home;
  p.user_settings = fs::join(p.home, ".gemini/settings.json");
  p.ws_settings = fs::join(o.workspace, ".gemini/settings.json");
  char a[PATH_MAX], b[PATH_MAX];
  if (::realpath(o.workspace.c_str(), a) && ::realpath(p.home.c_str(), b))
    p.ws_is_home = std::string(a) == b;
  p.ext_root = fs::join(p.home, ".gemini/extensions");
  p.ours_dir = fs::join(p.ext_root, "pinta-gemini");
  return p;
}

// The user and workspace settings.json files: the command hooks the CLI registers from them
// (comments stripped, $VARs resolved, §1.2), and the files that name our adapter at all — also
// where the CLI drops the entry (an unknown event name, a handler written flat: lint says why), so
// that such a registration reads as "would not fire", never as "not installed".
struct GeminiSettings {
  std::vector<GHook> hooks;
  std::vector<std::string> naming_us;
};
GeminiSettings gemini_settings(const GeminiPaths& p) {
  GeminiSettings out;
  for (const auto& path : {p.user_settings, p.ws_is_home ? std::string() : p.ws_settings}) {
    if (path.empty() || !fs::exists(path)) continue;
    auto text = fs::read_file(path);
    if (!text) continue;
    collect_gemini(gem::load_hooks_file(*text, path, false), out.hooks);
    if (is_ours(*text, "gemini")) out.naming_us.push_back(path);
  }
  return out;
}

// Legacy / never-read locations (§1.1: no code path reads .gemini/hooks.json).
void warn_stale_gemini_files(const DoctorOptions& o, const GeminiPaths& p, DoctorReport& r) {
  for (const auto& path :
       {fs::join(p.home, ".gemini/hooks.json"), fs::join(o.workspace, ".gemini/hooks.json")}) {
    auto text = fs::read_file(path);
    if (text && contains(*text, "pinta-gemini"))
      add(r, "gemini", "warn",
          "stale pinta-gemini entry in " + path + ": Gemini CLI never reads this file",
          "remove the pinta-gemini entries from " + path);
  }
}

// The command hooks of every extension (ours and any other that runs our adapter); an unloadable
// hooks.json of ours is reported.
std::vector<GHook> gemini_extension_hooks(const GeminiPaths& p, DoctorReport& r) {
  std::vector<GHook> out;
  DIR* d = ::opendir(p.ext_root.c_str());
  if (d == nullptr) return out;
  while (dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n == "." || n == "..") continue;
    std::string hp = fs::join(fs::join(p.ext_root, n), "hooks/hooks.json");
    auto text = fs::read_file(hp);
    if (!text) continue;
    gem::LoadResult loaded = gem::load_hooks_file(*text, hp, true);
    const bool unloadable =
        loaded.fatal_exit ||
        std::any_of(loaded.issues.begin(), loaded.issues.end(),
                    [](const gem::LoadIssue& i) { return i.kind == "invalid-hooks-root"; });
    if (unloadable) {
      if (n == "pinta-gemini")
        add(r, "gemini", "broken",
            hp + " is not loadable (invalid JSON or \"hooks\" not an object)",
            "run: pinta-gemini install --host gemini");
      continue;
    }
    collect_gemini(loaded, out);
  }
  ::closedir(d);
  return out;
}

// Our extension's manifest and enablement (§1.6). Returns true when extension-enablement.json
// disables it here (reported; the planner then finds no hook either).
bool check_gemini_extension(const DoctorOptions& o, const GeminiPaths& p, DoctorReport& r) {
  std::string mp = fs::join(p.ours_dir, "gemini-extension.json");
  auto mt = fs::read_file(mp);
  json m = mt ? json::parse(*mt, nullptr, false) : json();
  if (!m.is_object() || !m.contains("name") || !m.contains("version") || !m["name"].is_string() ||
      m["name"].get<std::string>().empty()) {
    add(r, "gemini", "broken",
        mp + " is missing or lacks name/version: the extension is skipped (§1.6)",
        "run: pinta-gemini install --host gemini");
  }
  auto et = fs::read_file(fs::join(p.ext_root, "extension-enablement.json"));
  if (!et) return false;
  json en = json::parse(*et, nullptr, false);
  if (!en.is_object() || gemini_extension_enabled(en, "pinta-gemini", o.workspace)) return false;
  add(r, "gemini", "broken",
      "the pinta-gemini extension is disabled for " + o.workspace + " (extension-enablement.json)",
      "run: gemini extensions enable pinta-gemini  (or pinta-gemini install --host gemini)");
  return true;
}

// The first of our hook commands whose program is not executable, reported.
void check_gemini_commands(const std::vector<GHook>& ours, DoctorReport& r) {
  for (const auto& h : ours) {
    std::string prog = split_command_program(h.command).first;
    if (!executable(prog)) {
      add(r, "gemini", "broken",
          "hook command runs " + prog + ", which is not an executable (" + h.file + ")",
          "run: pinta-gemini install --host gemini");
      return;
    }
  }
}

// Would it fire: the Gemini CLI 0.61.0 loader and planner the emulator runs, on the user's files
// (hosts/gemini: settings merge + syntax errors §1.2, trust §1.4, hooksConfig §1.3,
// extensions §1.6, matcher + dedup §1.7/§3), interactive run (no headless trust exit). Planned
// as a trusted folder (what the CLI asks for on first start); an untrusted one is reported, since
// it silently drops every settings.json hook (§1.2 step 7).
void check_gemini_fires(const DoctorOptions& o, const GeminiPaths& p,
                        const std::vector<std::string>& settings_naming_us,
                        bool disabled_by_enablement, DoctorReport& r) {
  gem::LoadOptions lo;
  lo.home = p.home;
  lo.workspace = o.workspace;
  lo.headless = false;
  if (!settings_naming_us.empty() && !gem::load_hooks(lo).trusted)
    add(r, "gemini", "warn",
        o.workspace + " is not a trusted folder: Gemini CLI skips the pinta-gemini hooks in " +
            settings_naming_us[0],
        "trust the folder in Gemini CLI, or run: pinta-gemini install --host gemini (extension)");
  lo.trusted = true;
  gem::LoadResult lr = gem::load_hooks(lo);
  if (lr.fatal_exit) {
    add(r, "gemini", "broken",
        "Gemini CLI 0.61.0 exits " + std::to_string(*lr.fatal_exit) + " before any hook: " +
            lr.fatal_message,
        *lr.fatal_exit == 52 ? "fix the JSON syntax of the settings file named above"
                             : "trust the folder (gemini /permissions) or set "
                               "security.folderTrust.enabled to false");
    return;
  }
  if (!lr.hooks_enabled) {
    add(r, "gemini", "broken",
        "hooksConfig.enabled is false: no hook runs, extensions included (§1.3)",
        "set \"hooksConfig\": {\"enabled\": true} in " + p.user_settings);
    return;
  }
  std::vector<std::string> missing;
  json fires = json::object();
  bool reported_twice = false, reported_disabled = false;
  for (const auto& e : kGeminiEvents) {
    gem::PlanContext pc;
    if (e == "BeforeTool" || e == "AfterTool") pc.tool_name = "write_file";
    if (e == "SessionStart") pc.trigger = "startup";
    if (e == "SessionEnd") pc.trigger = "exit";
    if (e == "PreCompress") pc.trigger = "auto";
    gem::Plan plan = gem::plan_event(lr, e, pc);
    int n = 0;
    std::vector<std::string> files;
    for (const auto& h : plan.hooks)
      if (is_ours(h.spec.command, "gemini")) {
        ++n;
        files.push_back(h.origin);
      }
    fires[e] = n;
    if (plan.error) {
      add(r, "gemini", "broken", "Gemini CLI 0.61.0 cannot plan " + e + ": " + *plan.error,
          "make every matcher on " + e + " a string");
      continue;
    }
    if (n == 0) {
      missing.push_back(e);
      auto it = lr.by_event.find(e);
      if (it != lr.by_event.end() && !reported_disabled)
        for (const auto& h : it->second)
          if (is_ours(h.spec.command, "gemini") && !h.enabled) {
            add(r, "gemini", "broken",
                "hooksConfig.disabled lists our hook (" +
                    (h.spec.name.empty() ? h.spec.command : h.spec.name) + ")",
                "remove it from hooksConfig.disabled in " + p.user_settings);
            reported_disabled = true;
            break;
          }
    } else if (n > 1 && !reported_twice) {
      // Dedup key is name:command (§1.7): two entries with different keys both run.
      add(r, "gemini", "broken",
          "pinta-gemini fires " + std::to_string(n) + " times on " + e + " (registered in " +
              files[0] + " and " + files[1] + ")",
          "remove the pinta-gemini hooks from " +
              (contains(files[0], "/extensions/") ? files[1] : files[0]));
      reported_twice = true;
    }
  }
  if (!missing.empty() && !reported_disabled && !disabled_by_enablement) {
    std::string s;
    for (const auto& m : missing) s += (s.empty() ? "" : ", ") + m;
    add(r, "gemini", "broken", "pinta-gemini would not fire on: " + s,
        "run: pinta-gemini install --host gemini", {{"fires", fires}});
  }
  if (settings_naming_us.empty() && missing.empty() && !reported_twice)
    add(r, "gemini", "ok",
        "pinta-gemini extension registered at " + p.ours_dir + "; it would fire on all " +
            std::to_string(kGeminiEvents.size()) + " events (Gemini CLI 0.61.0 loader)",
        "", {{"fires", fires}});
}

void check_gemini(const DoctorOptions& o, DoctorReport& r) {
  const GeminiPaths p = gemini_paths(o);
  add(r, "gemini", "info",
      "Gemini CLI 0.61.0 reads hooks from " + p.user_settings +
          (p.ws_is_home ? "" : ", " + p.ws_settings) + ", and " + p.home +
          "/.gemini/extensions/*/hooks/hooks.json",
      "", {{"version", "0.61.0"}});
  const GeminiSettings settings = gemini_settings(p);
  warn_stale_gemini_files(o, p, r);
  const std::vector<GHook> ext_hooks = gemini_extension_hooks(p, r);
  const bool installed = fs::exists(p.ours_dir);
  std::vector<GHook> ours;
  for (const auto* hooks : {&ext_hooks, &settings.hooks})
    for (const auto& h : *hooks)
      if (is_ours(h.command, "gemini")) ours.push_back(h);
  if (!installed && settings.naming_us.empty()) {
    add(r, "gemini", "info", "pinta-gemini is not installed for Gemini CLI", "",
        {{"installed", false}});
    return;
  }
  const bool disabled_by_enablement = installed && check_gemini_extension(o, p, r);
  check_gemini_commands(ours, r);
  check_gemini_fires(o, p, settings.naming_us, disabled_by_enablement, r);
}

// `hostemu lint` on the user's and the workspace's settings.json (Gemini CLI's home is
// $GEMINI_CLI_HOME).
std::vector<LintFile> lint_files(const DoctorOptions& o) {
  return {{fs::join(o.gemini_home, ".gemini/settings.json"), o.gemini_home},
          {fs::join(o.workspace, ".gemini/settings.json"), o.gemini_home}};
}

}  // namespace

std::string gemini_command(const std::string& adapter_path, const std::string& event) {
  // Gemini runs hook commands through a shell (gemini reference §4); quoting keeps any path safe.
  return shell_quote(adapter_path) + " --agent gemini --event " + event;
}

std::string gemini_extension_dir(const InstallOptions& o) {
  return fs::join(o.gemini_home.empty() ? o.home : o.gemini_home,
                  ".gemini/extensions/pinta-gemini");
}

bool gemini_extension_enabled(const json& enablement, const std::string& name,
                              const std::string& cwd) {
  // One implementation of the CLI's rules: hosts/gemini's (the emulator runs the same).
  return gem::extension_enabled(gem::ojson::parse(enablement.dump()), name, cwd);
}

namespace gemini {
// The extension is the user's, not a project's: --workspace is refused (the message predates the
// other families' project files and is kept as the tests and users know it).
extern const FamilyAdmin kAdmin{.plan_install = install_plan,
                                .plan_uninstall = uninstall_plan,
                                .check = check_gemini,
                                .lint_files = lint_files,
                                .workspace_refused =
                                    "--workspace applies to --host antigravity or deel only",
                                .state_under_dot_gemini = true};
}  // namespace gemini

}  // namespace pinta::admin
