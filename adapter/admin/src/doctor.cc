// pinta-gemini doctor: reads the user's files the way each host would and says what would fire.
#include "pinta/admin/doctor.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <regex>
#include <set>
#include <sstream>

#include "pinta/adapter/guard.h"
#include "pinta/adapter/guard_keeper.h"
#include "pinta/adapter/handler.h"
#include "pinta/adapter/otlp.h"
#include "pinta/adapter/config.h"
#include "pinta/adapter/http.h"
#include "pinta/adapter/span_queue.h"
#include "pinta/admin/claude_code.h"
#include "pinta/admin/install.h"
#include "pinta/common/fs.h"
#include "pinta/hostlint/lint.h"
#include "pinta/hosts/antigravity/antigravity.h"
#include "pinta/hosts/deel/deel.h"
#include "pinta/hosts/gemini/gemini.h"

namespace pinta::admin {
namespace {

using json = nlohmann::json;
namespace gem = pinta::hosts::gemini;
namespace agy = pinta::hosts::agy;

void add(DoctorReport& r, std::string area, std::string level, std::string message,
         std::string fix = "", json detail = json::object()) {
  r.findings.push_back(Finding{std::move(area), std::move(level), std::move(message),
                               std::move(fix), std::move(detail)});
}

bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

bool executable(const std::string& p) { return ::access(p.c_str(), X_OK) == 0; }

// ---- Gemini CLI 0.61.0 -------------------------------------------------------------------------


// The events install registers (pinta/hosts/events.h via install.h).
const std::vector<std::string>& kGeminiEvents = installed_events(Host::kGemini);

bool is_ours(const std::string& cmd, const char* agent) {
  return contains(cmd, std::string("--agent ") + agent) && contains(cmd, "pinta-gemini");
}

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

// ---- Antigravity
// ---------------------------------------------------------------------------------

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

// ---- deel-local-cli 1.17 ---------------------------------------------------------------------
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

// ---- Env file, endpoints, data dir
// ---------------------------------------------------------------

// The env file as the adapter loads it (load_env_file, the same function). A line the adapter
// skips is not ok: what it meant to set is not set (a BOM made the first line, the
// guard endpoint, a skipped line while doctor said "[ok] env file loaded"). Each skipped line is
// named by its number and, where it can be told, the variable it meant; never by its value.
// A skipped line that names one of the adapter's own variables (PINTA_*, GEMINI_PLUGIN_*, OTEL_*,
// SSL_CERT_*) is broken, any other one a warning.
void check_env(const DoctorOptions& o, DoctorReport& r) {
  auto load = adapter::load_env_file(o.env_file);
  using O = adapter::EnvFileOutcome;
  json d = {{"path", o.env_file}, {"applied", load.applied}};
  switch (load.outcome) {
    case O::kLoaded: {
      if (load.bad_lines.empty()) {
        add(r, "env", "ok",
            "env file " + o.env_file + " loaded" +
                (load.utf8_bom ? " (the UTF-8 byte order mark at its start is skipped)" : ""),
            "", d);
        break;
      }
      const bool ours = std::any_of(load.bad_lines.begin(), load.bad_lines.end(),
                                    [](const adapter::EnvFileBadLine& b) { return b.ours; });
      std::string numbers;
      for (const auto& b : load.bad_lines) {
        if (numbers.size() > 60) {
          numbers += ", …";
          break;
        }
        numbers += (numbers.empty() ? "" : ", ") + std::to_string(b.line);
      }
      d["skipped_lines"] = load.bad_lines.size();
      add(r, "env", ours ? "broken" : "warn",
          "env file " + o.env_file + " loaded, but " + std::to_string(load.bad_lines.size()) +
              " malformed line(s) are skipped (line " + numbers + "): what they set is not set",
          "fix or delete each skipped line below (KEY=value, docs/contract.md ENV-2)", d);
      constexpr size_t kShown = 20;
      for (size_t i = 0; i < load.bad_lines.size() && i < kShown; ++i) {
        const auto& b = load.bad_lines[i];
        const std::string at = "env file line " + std::to_string(b.line);
        std::string message = at, fix;
        if (!b.key.empty()) message += " (" + b.key + ")";
        message += " is skipped: " + std::string(b.why);
        if (b.why == "not a variable name" && !b.key.empty())
          fix = "retype the name on line " + std::to_string(b.line) +
                ": it holds invisible or non-ASCII characters, shown as <U+…> / <0x…>";
        else if (b.why == "not a variable name")
          fix = "line " + std::to_string(b.line) +
                ": the text before '=' must be a name ([A-Za-z_][A-Za-z0-9_]*)";
        else if (!b.key.empty())
          fix = "rewrite line " + std::to_string(b.line) + " as " + b.key + "=value";
        else
          fix = "make line " + std::to_string(b.line) + " KEY=value or a # comment, or delete it";
        json ld = {{"path", o.env_file}, {"line", b.line}, {"why", std::string(b.why)}};
        if (!b.key.empty()) ld["key"] = b.key;
        add(r, "env", b.ours ? "broken" : "warn", message, fix, ld);
      }
      if (load.bad_lines.size() > kShown)
        add(r, "env", ours ? "broken" : "warn",
            "and " + std::to_string(load.bad_lines.size() - kShown) + " more skipped line(s) in " +
                o.env_file,
            "fix or delete them (KEY=value, docs/contract.md ENV-2)", d);
      break;
    }
    case O::kAbsent:
      add(r, "env", "info", "no env file at " + o.env_file, "", d);
      break;
    case O::kInsecure:
      add(r, "env", "broken", "env file " + o.env_file + " is ignored: " + load.detail,
          "chmod 600 " + o.env_file, d);
      break;
    case O::kUnreadable:
      if (load.utf16) {
        add(r, "env", "broken",
            "env file " + o.env_file +
                " is UTF-16 text, which the adapter does not read: none of its settings apply "
                "(no guard, no telemetry from it)",
            "save it as UTF-8: iconv -f UTF-16 -t UTF-8 " + o.env_file + " > " + o.env_file +
                ".new && mv " + o.env_file + ".new " + o.env_file +
                " (in PowerShell: Set-Content -Encoding utf8; in an editor: Save as, UTF-8)",
            d);
        break;
      }
      add(r, "env", "broken", "env file " + o.env_file + " is unreadable: " + load.detail,
          "check the permissions of " + o.env_file, d);
      break;
  }
}

// ---- Guard and collector: the adapter's own configuration readers, client and rules ---------

std::string env_value(const char* name) {
  const char* v = std::getenv(name);  // NOLINT(concurrency-mt-unsafe)
  return v ? std::string(v) : std::string();
}

double elapsed_ms(std::chrono::steady_clock::time_point t0) {
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return std::round(ms * 10) / 10;
}

std::string ms_text(double ms) {
  std::ostringstream out;
  out << ms;
  return out.str();
}

// Whether a secret can go into an HTTP header as the adapter sends it (http::valid_header_value,
// the check send() itself makes): "" when it can; otherwise why not. `warning` is set for a value
// that is sent but arrives changed or is likely a paste error (non-ASCII octets, whitespace at
// either end, which the receiver strips).
std::string header_value_problem(const std::string& value, std::string& warning) {
  warning.clear();
  if (!http::valid_header_value(value)) {
    const bool line_break = value.find_first_of("\r\n") != std::string::npos;
    return line_break ? "holds a line break (CR or LF)"
           : value.find('\0') != std::string::npos ? "holds a NUL byte"
                                                    : "holds a control character";
  }
  if (std::any_of(value.begin(), value.end(),
                  [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
    warning = "holds non-ASCII bytes (a paste error? many servers compare them differently)";
  else if (!value.empty() && (value.front() == ' ' || value.front() == '\t' ||
                              value.back() == ' ' || value.back() == '\t'))
    warning = "starts or ends with whitespace, which the receiver strips";
  return {};
}

// How a guard check that gave no verdict failed, from the guard client's own words (guard.cc):
// "status N" (the guard answered N), "<error code>: ..." (no answer: DNS, connect, TLS, timeout,
// a malformed response, a refused request), anything else (the reply is not a verdict).
struct GuardFailure {
  int status = 0;          // the HTTP status when the guard answered
  bool no_answer = false;  // transport or protocol failure
  bool timed_out = false;
};
GuardFailure classify_guard_error(const std::string& error) {
  GuardFailure f;
  if (error.rfind("status ", 0) == 0) {
    // A 2xx without a readable verdict ("status 200: reply has no decision") is "answered, but
    // not with a verdict" (status 0 here); any other status is the refusal itself (GUARD-16).
    const int status = std::atoi(error.c_str() + 7);
    if (status < 200 || status > 299) f.status = status;
    return f;
  }
  if (error == "internal error") {  // the client's catch-all: no answer to judge
    f.no_answer = true;
    return f;
  }
  for (ErrorCode c : {ErrorCode::kInvalidArgument, ErrorCode::kTimeout, ErrorCode::kUnavailable,
                      ErrorCode::kProtocol, ErrorCode::kTooLarge, ErrorCode::kInternal})
    if (error.rfind(std::string(error_code_name(c)) + ": ", 0) == 0) {
      f.no_answer = true;
      f.timed_out = c == ErrorCode::kTimeout;
    }
  return f;
}

// The guard, configured and asked exactly as a gate event asks it: GuardConfig from the same
// reader (guard_config_from_environment), the production client (make_http_guard_client: same
// URL, headers — x-pinta-relay-token included —, body by guard_request_body, response cap and
// verdict parser), on a harmless synthetic Gemini BeforeTool call (read_file of a file named
// pinta-doctor-probe). Only the deadline differs (probe_timeout_ms, so that a slow guard can be
// told from a dead one; the time is then held against PINTA_GUARD_TIMEOUT_MS), and no keeper or
// TLS session file is used (doctor writes nothing in the data dir).
// A guard behind a body limit (nginx client_max_body_size, Express json()) refuses the largest
// requests the adapter sends; the adapter then judges such calls on the minimal request only
// (GUARD-16), which a deployment cannot see. Asked once with a request near the bound.
void check_guard_body_limit(const DoctorOptions& o, const pinta::adapter::GuardConfig& g,
                            pinta::adapter::GuardClient& client, pinta::adapter::CanonicalEvent ev,
                            DoctorReport& r) {
  namespace ad = pinta::adapter;
  ev.tool_input["content"] = std::string(g.policy.max_request_bytes, 'x');  // cut to fit the bound
  const ad::GuardVerdict v = client.check(
      ev, ad::new_span_id(), Deadline::after(std::chrono::milliseconds(o.probe_timeout_ms)));
  json d = {{"url", g.endpoint}, {"max_request_bytes", g.policy.max_request_bytes}};
  if (v.decision != ad::GuardVerdict::Decision::kUnavailable && v.error.rfind("full request: ", 0) != 0) {
    add(r, "endpoint", "ok",
        "guard takes requests of " + std::to_string(g.policy.max_request_bytes) +
            " bytes (PINTA_GUARD_MAX_REQUEST_BYTES): large tool calls are shown in full view",
        "", d);
    return;
  }
  d["error"] = v.error;
  const bool minimal_answered = v.decision != ad::GuardVerdict::Decision::kUnavailable;
  add(r, "endpoint", "warn",
      "guard refused a request of " + std::to_string(g.policy.max_request_bytes) + " bytes (" + v.error +
          "): tool calls with large arguments are judged on the 4 KiB minimal request" +
          (minimal_answered ? "" : ", or fail open when that fails too"),
      "raise the body limit in front of the guard (nginx client_max_body_size, Express json({limit})) "
      "or lower PINTA_GUARD_MAX_REQUEST_BYTES (docs/contract.md GUARD-15, GUARD-16)",
      d);
}

void check_guard(const DoctorOptions& o, DoctorReport& r) {
  namespace ad = pinta::adapter;
  ad::GuardConfig g = ad::guard_config_from_environment();
  if (g.endpoint.empty()) {
    add(r, "endpoint", "info", "PINTA_GUARD_ENDPOINT not set: no guard (every tool call allowed)");
    return;
  }
  if (!g.enabled) {
    add(r, "endpoint", "info", "guard disabled by PINTA_GUARD_DISABLED (every tool call allowed)");
    return;
  }
  if (!g.note.empty())
    add(r, "endpoint", "warn", "guard setting ignored: " + g.note,
        "fix the value in the env file (docs/contract.md GUARD-2)");
  if (!http::parse_url(g.endpoint)) {
    add(r, "endpoint", "broken",
        "guard " + g.endpoint + " is not an http(s) URL: every guard check fails open (every tool call allowed)",
        "fix PINTA_GUARD_ENDPOINT in the env file");
    return;
  }
  std::string warning;
  const std::string token_problem = header_value_problem(g.relay_token, warning);
  if (!token_problem.empty()) {
    // The adapter's client refuses to send such a header (nothing is sent): every guard check is
    // unavailable and fails open. The value itself is never printed.
    add(r, "endpoint", "broken",
        "PINTA_RELAY_TOKEN " + token_problem +
            ": the adapter refuses to put it in the x-pinta-relay-token header, so every guard "
            "check fails open (every tool call allowed)",
        "set PINTA_RELAY_TOKEN to the token alone, on one line (a quoted \"\\r\" or \"\\n\" in the "
        "env file, or a CR from a Windows editor, ends up in the value)",
        {{"variable", "PINTA_RELAY_TOKEN"}, {"length", g.relay_token.size()}});
    return;
  }
  if (!warning.empty())
    add(r, "endpoint", "warn", "PINTA_RELAY_TOKEN " + warning,
        "set PINTA_RELAY_TOKEN to the token alone", {{"variable", "PINTA_RELAY_TOKEN"}});
  if (!o.probe_network) return;

  ad::GuardConfig probe_config = g;
  probe_config.keeper = false;
  probe_config.data_dir.clear();
  auto client = ad::make_http_guard_client(probe_config);
  ad::CanonicalEvent ev;
  ev.family = ad::Family::kGemini;
  ev.agent = "gemini";
  ev.hook = "BeforeTool";
  ev.known_event = true;
  ev.tool_event = true;
  ev.session_id = "pinta-doctor-probe";
  ev.cwd = o.workspace;
  ev.tool_name = "read_file";
  ev.tool_input = {{"file_path", "pinta-doctor-probe"}};
  const auto t0 = std::chrono::steady_clock::now();
  const ad::GuardVerdict v = client->check(
      ev, ad::new_span_id(), Deadline::after(std::chrono::milliseconds(o.probe_timeout_ms)));
  const double ms = elapsed_ms(t0);
  const std::string url = g.endpoint;
  json d = {{"url", url}, {"ms", ms}, {"budget_ms", g.policy.timeout.count()},
            {"relay_token", !g.relay_token.empty()}};
  using D = ad::GuardVerdict::Decision;
  if (v.decision != D::kUnavailable) {
    const char* decision = v.decision == D::kAllow ? "ALLOW" : v.decision == D::kDeny ? "DENY" : "REVIEW";
    d["status"] = 200;
    d["decision"] = decision;
    const std::string msg = "guard " + url + " answered " + decision + " in " + ms_text(ms) +
                            " ms (a probe read_file call)";
    if (ms > static_cast<double>(g.policy.timeout.count()))
      add(r, "endpoint", "warn",
          msg + ", over the " + std::to_string(g.policy.timeout.count()) +
              " ms guard budget (PINTA_GUARD_TIMEOUT_MS): hooks fail open",
          "move the guard closer or make it faster, or raise PINTA_GUARD_TIMEOUT_MS", d);
    else
      add(r, "endpoint", "ok", msg, "", d);
    check_guard_body_limit(o, g, *client, ev, r);
    return;
  }
  d["error"] = v.error;
  const GuardFailure f = classify_guard_error(v.error);
  if (f.status == 401 || f.status == 403) {
    d["status"] = f.status;
    add(r, "endpoint", "broken",
        "guard " + url + " refused the request (HTTP " + std::to_string(f.status) + ", " +
            (g.relay_token.empty() ? "no x-pinta-relay-token sent" : "x-pinta-relay-token sent") +
            "): every guard check fails open (every tool call allowed)",
        g.relay_token.empty() ? "check PINTA_RELAY_TOKEN: it is not set, and this guard wants one"
                              : "check PINTA_RELAY_TOKEN: this guard does not accept it",
        d);
  } else if (f.status != 0) {
    d["status"] = f.status;
    add(r, "endpoint", "broken",
        "guard " + url + " answered HTTP " + std::to_string(f.status) +
            " (only 2xx carries a verdict, or a DENY at any status): every guard check fails open "
            "(every tool call allowed)",
        "check the guard's URL path and logs", d);
  } else if (f.no_answer) {
    add(r, "endpoint", "broken",
        "guard " + url + " unreachable (" + v.error + ") after " + ms_text(ms) +
            " ms: every guard check fails open (every tool call allowed)",
        f.timed_out ? "start the guard or move it closer; hooks fail open meanwhile"
                    : "start the service or fix the URL; hooks fail open meanwhile",
        d);
  } else {
    d["status"] = 200;
    // "status 200: reply has no decision" → "reply has no decision"
    std::string why = v.error;
    if (why.rfind("status ", 0) == 0 && why.find(": ") != std::string::npos)
      why = why.substr(why.find(": ") + 2);
    add(r, "endpoint", "broken",
        "guard " + url + " answered 200 but not with a verdict (" + why +
            "): every guard check fails open (every tool call allowed)",
        "the guard must answer {\"decision\":\"ALLOW\"|\"DENY\"|\"REVIEW\"} (docs/contract.md GUARD-6)",
        d);
  }
}

// The collector as the adapter resolves it (otlp::export_config: GEMINI_PLUGIN_OPTION_ENDPOINT >
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT > OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces, the first
// non-empty one, which must be an http(s) URL or telemetry is off; its headers), probed with those
// headers and an empty export request, the answer judged by the flusher's rules (3xx: kept
// queued; otlp::classify_response otherwise).
void check_collector(const DoctorOptions& o, DoctorReport& r) {
  namespace otlp = pinta::adapter::otlp;
  const otlp::ExportConfig ec = otlp::export_config_from_environment();
  static constexpr const char* kEndpointVars[] = {"GEMINI_PLUGIN_OPTION_ENDPOINT",
                                                   "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                                                   "OTEL_EXPORTER_OTLP_ENDPOINT"};
  json shadowed = json::array();
  bool after = false;
  for (const char* n : kEndpointVars) {
    if (after && !env_value(n).empty()) shadowed.push_back(n);
    after = after || n == ec.endpoint_from;
  }
  if (ec.endpoint_from.empty()) {
    add(r, "endpoint", "info",
        "no OTLP endpoint configured (GEMINI_PLUGIN_OPTION_ENDPOINT, "
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT): spans are not exported");
    return;
  }
  json d = {{"from", ec.endpoint_from}, {"shadowed", shadowed}};
  const std::string shadow_note =
      shadowed.empty() ? std::string()
                       : " (it wins over " + shadowed[0].get<std::string>() +
                             (shadowed.size() > 1 ? " and " + shadowed[1].get<std::string>() : "") + ")";
  if (!ec.enabled || !http::parse_url(ec.endpoint)) {
    d["value"] = env_value(ec.endpoint_from.c_str());
    add(r, "endpoint", "broken",
        ec.endpoint_from + " is set but is not an http(s) URL" + shadow_note +
            ": telemetry is off",
        "fix " + ec.endpoint_from + " in the env file (the first non-empty endpoint variable is used)",
        d);
    return;
  }
  d["url"] = ec.endpoint;
  add(r, "endpoint", "info",
      "spans are exported to " + ec.endpoint + " (from " + ec.endpoint_from + ")" + shadow_note, "",
      d);
  // The headers the flusher sends: entries the list parser dropped (no '=', empty key, CR/LF/NUL)
  // are named, and so is a header the HTTP client would refuse (every export would fail).
  const char* list_var = !env_value("GEMINI_PLUGIN_OPTION_HEADERS").empty()
                             ? "GEMINI_PLUGIN_OPTION_HEADERS"
                             : "OTEL_EXPORTER_OTLP_HEADERS";
  size_t dropped = 0;
  (void)otlp::parse_header_list(env_value(list_var), &dropped);
  if (dropped > 0)
    add(r, "endpoint", "warn",
        std::to_string(dropped) + " entr" + (dropped == 1 ? "y" : "ies") + " of " + list_var +
            " ignored (not k=v, an empty key, or a line break or NUL in it): that header is not sent",
        "write " + std::string(list_var) + " as k=v,k2=v2 (percent-encode special characters)",
        {{"variable", list_var}, {"ignored", dropped}});
  bool sendable = true;
  for (const auto& [name, value] : ec.headers) {
    const std::string source = name == "x-pinta-relay-token" &&
                                       !env_value("GEMINI_PLUGIN_OPTION_API_KEY").empty()
                                   ? "GEMINI_PLUGIN_OPTION_API_KEY"
                                   : list_var;
    std::string warning;
    std::string problem = http::valid_header_name(name) ? header_value_problem(value, warning)
                                                        : "has a name that is not an HTTP token";
    if (!problem.empty()) {
      add(r, "endpoint", "broken",
          "collector header " + (http::valid_header_name(name) ? name : std::string("(unnamed)")) +
              " from " + source + " " + problem +
              ": the adapter refuses to send it, so every export fails and spans stay queued",
          "fix " + source + " (one line; percent-encode special characters in a header list)",
          {{"variable", source}});
      sendable = false;
    } else if (!warning.empty()) {
      add(r, "endpoint", "warn", "collector header " + name + " from " + source + " " + warning,
          "fix " + source, {{"variable", source}});
    }
  }
  if (!o.probe_network || !sendable) return;
  http::Request rq;
  rq.method = "POST";
  rq.url = ec.endpoint;
  rq.headers = {{"Content-Type", "application/json"}};
  for (const auto& h : ec.headers) rq.headers.push_back(h);
  rq.body = R"({"resourceSpans":[]})";
  const auto t0 = std::chrono::steady_clock::now();
  auto res = http::send(rq, Deadline::after(std::chrono::milliseconds(o.probe_timeout_ms)));
  d["ms"] = elapsed_ms(t0);
  const std::string head = "collector " + ec.endpoint;
  if (!res) {
    d["error"] = res.error().message;
    add(r, "endpoint", "broken",
        head + " unreachable (" + std::string(error_code_name(res.error().code)) + ": " +
            res.error().message + "); spans stay queued",
        "start the collector or fix " + ec.endpoint_from, d);
    return;
  }
  const int st = res->status;
  d["status"] = st;
  const std::string msg = head + " answered " + std::to_string(st) + " in " +
                          ms_text(d["ms"].get<double>()) + " ms";
  const auto verdict = otlp::classify_response(st, res->header("retry-after"), res->body,
                                               static_cast<int64_t>(std::time(nullptr)));
  if (st >= 300 && st < 400)
    add(r, "endpoint", "warn", msg + ": a redirect, which OTLP exporters do not follow (spans stay queued)",
        "set " + ec.endpoint_from + " to the URL the redirect points at", d);
  else if (st == 401 || st == 403)
    add(r, "endpoint", "broken", msg + ": the collector refuses the credentials; spans are dropped",
        "check GEMINI_PLUGIN_OPTION_HEADERS / OTEL_EXPORTER_OTLP_HEADERS and GEMINI_PLUGIN_OPTION_API_KEY", d);
  else if (verdict.verdict == otlp::Verdict::kDelivered)
    add(r, "endpoint", "ok", msg, "", d);
  else if (verdict.verdict == otlp::Verdict::kRetry)
    add(r, "endpoint", "warn", msg + ": the collector asks to retry later (spans stay queued)",
        "check the collector's load", d);
  else
    add(r, "endpoint", "broken", msg + ": spans sent there are dropped",
        "check the endpoint path (" + ec.endpoint_from + ")", d);
}

void check_endpoints(const DoctorOptions& o, DoctorReport& r) {
  check_guard(o, r);
  check_collector(o, r);
}

// An https guard's keeper (docs/contract.md GUARD-13): running, or why there is none.
void check_guard_keeper(const std::string& data_dir, DoctorReport& r) {
  const char* endpoint = std::getenv("PINTA_GUARD_ENDPOINT");
  if (endpoint == nullptr || std::string_view(endpoint).rfind("https://", 0) != 0) return;
  if (!pinta::adapter::keeper_enabled_from_environment()) {
    add(r, "guard", "info", "guard keeper off (PINTA_GUARD_KEEPER): every https gate event makes its own TLS connection");
    return;
  }
  const auto place = pinta::adapter::keeper_place(data_dir, endpoint);
  if (place.socket_path.empty()) {
    add(r, "guard", "warn",
        "no guard keeper: its socket path in " + data_dir + " would be longer than a Unix socket allows",
        "set GEMINI_PLUGIN_DATA to a shorter path (each https gate event now makes its own TLS connection)");
    return;
  }
  const int pid = pinta::adapter::keeper_pid(place);
  json d = {{"socket", place.socket_path}, {"pid", pid}};
  if (pid > 0)
    add(r, "guard", "ok", "guard keeper running (pid " + std::to_string(pid) + "), holding the https connection", "", d);
  else
    add(r, "guard", "info", "no guard keeper running; the next https gate event starts one", "", d);
}

// What the flusher recorded in failed-spans.state (counters since the data dir was created) and
// failed-spans.unwritten, read without a lock and without creating anything: redirects (OTLP
// exporters do not follow them, so the spans stay queued), spans the collector refused, spans
// that could not be queued, spans dropped because the queue was full (docs/contract.md OTLP).
void check_delivery(const std::string& data_dir, DoctorReport& r) {
  namespace ad = pinta::adapter;
  const std::string state = fs::join(data_dir, ad::kQueueStateFile);
  ad::QueueCounters c;
  if (auto t = fs::read_private_file(state)) c = ad::QueueCounters::from_json(json::parse(*t, nullptr, false));
  ad::QueueOptions qo;
  qo.dir = data_dir;
  c.unwritten = ad::SpanQueue(qo).unwritten();
  json d = c.to_json();
  d["state"] = state;
  const std::string status = c.last_status > 0 ? "HTTP " + std::to_string(c.last_status)
                             : c.last_status < 0 ? "no answer" : "none yet";
  bool any = false;
  if (c.redirects > 0) {
    add(r, "telemetry", "warn",
        "the collector answered with a redirect " + std::to_string(c.redirects) +
            " time(s) (last status: " + status +
            "); spans stay queued, because OTLP exporters do not follow redirects",
        "set OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) to the URL the redirect points at",
        d);
    any = true;
  }
  if (c.dropped_http > 0 || c.rejected > 0) {
    add(r, "telemetry", "warn",
        std::to_string(c.dropped_http + c.rejected) +
            " span(s) refused by the collector and dropped (last status: " + status + ")",
        "check the endpoint path and OTEL_EXPORTER_OTLP_HEADERS (authentication)", d);
    any = true;
  }
  if (c.unwritten > 0) {
    add(r, "telemetry", "warn",
        std::to_string(c.unwritten) +
            " span(s) could not be queued (no room to write them, not even as a side file: a "
            "full disk or a file-size limit; or a span over the 2 MiB line cap)",
        "free space on the data dir's disk; the reply was never delayed (docs/contract.md OTLP-6)",
        d);
    any = true;
  }
  if (c.poisoned > 0) {
    // flusher.cc: a batch at the head that failed kPoisonTries times while the batch after it
    // went through is set aside (docs/contract.md OTLP), so one span the collector can never
    // take does not stop the queue. Not lost: kept for the user to look at.
    add(r, "telemetry", "warn",
        std::to_string(c.poisoned) +
            " span(s) set aside as a poison batch: the collector failed the same batch again and "
            "again while later batches went through; kept in " +
            fs::join(data_dir, ad::kQueuePoisonFile),
        "read the kept spans and the collector's log for why it refuses them", d);
    any = true;
  }
  if (c.dropped_cap > 0) {
    add(r, "telemetry", "warn",
        std::to_string(c.dropped_cap) + " oldest span(s) dropped because the queue was full",
        "the collector was unreachable for long; raise PINTA_QUEUE_MAX_SPANS / "
        "PINTA_QUEUE_MAX_BYTES or fix the endpoint",
        d);
    any = true;
  }
  if (!any && (c.delivered > 0 || c.last_status != 0))
    add(r, "telemetry", "ok",
        std::to_string(c.delivered) + " span(s) delivered; last collector status: " + status, "",
        d);
}

void check_data(const DoctorOptions& o, DoctorReport& r) {
  json d = {{"path", o.data_dir}};
  struct stat st {};
  if (::stat(o.data_dir.c_str(), &st) != 0) {
    add(r, "data", "info",
        "data dir " + o.data_dir + " does not exist yet (created on first event)", "", d);
    return;
  }
  // The adapter's own rule (ENV-9, fs::check_private_dir): a dir owned by someone else or
  // writable by group/others is not used at all — no debug log, no telemetry.
  if (Status trust = fs::check_private_dir(o.data_dir); !trust.ok()) {
    d["refused"] = trust.error().message;
    const bool foreign = S_ISDIR(st.st_mode) && st.st_uid != ::geteuid();
    add(r, "data", "broken",
        "data dir " + o.data_dir + " is refused by the adapter (" + trust.error().message +
            "): debug log and telemetry are off",
        foreign ? "set GEMINI_PLUGIN_DATA to a directory of your own (mode 700)"
                : "chmod 700 " + o.data_dir + " (owner: the user running the hosts)",
        d);
    return;
  }
  if (::access(o.data_dir.c_str(), W_OK) != 0) {
    add(r, "data", "broken", "data dir " + o.data_dir + " is not a writable directory",
        "chmod 700 " + o.data_dir + " (owner: the user running the hosts)", d);
    return;
  }
  check_delivery(o.data_dir, r);
  check_guard_keeper(o.data_dir, r);
  std::string queue = fs::join(o.data_dir, "failed-spans.jsonl");
  size_t lines = 0;
  std::string last;
  if (auto t = fs::read_private_file(queue)) {
    std::istringstream in(*t);
    for (std::string l; std::getline(in, l);)
      if (!l.empty()) {
        ++lines;
        last = l;
      }
  }
  // Spans an append wrote to an overflow slot (the queue was busy) wait too, until the flusher's
  // next pass folds them in (docs/contract.md OTLP-6).
  size_t in_slots = 0;
  for (int n = 0; n < pinta::adapter::kQueueSlots; ++n)
    if (auto t = fs::read_private_file(
            fs::join(o.data_dir, std::string(pinta::adapter::kQueueSlotPrefix) + std::to_string(n))))
      in_slots += static_cast<size_t>(std::count(t->begin(), t->end(), '\n'));
  lines += in_slots;
  d["queue_length"] = lines;
  d["in_overflow_slots"] = in_slots;
  if (lines == 0) {
    add(r, "data", "ok", "data dir " + o.data_dir + ": retry queue empty", "", d);
    return;
  }
  std::string err;
  json lj = json::parse(last, nullptr, false);
  if (lj.is_object())
    for (const char* k : {"error", "last_error", "lastError"})
      if (lj.contains(k) && lj[k].is_string()) err = lj[k].get<std::string>();
  d["last_error"] = err;
  add(r, "data", lines >= 1000 ? "broken" : "warn",
      std::to_string(lines) + " span(s) waiting in " + queue +
          (err.empty() ? "" : "; last error: " + err),
      "check the collector endpoint; the queue drains on the next successful export", d);
}

}  // namespace

bool gemini_extension_enabled(const json& enablement, const std::string& name,
                              const std::string& cwd) {
  // One implementation of the CLI's rules: hosts/gemini's (the emulator runs the same).
  return gem::extension_enabled(gem::ojson::parse(enablement.dump()), name, cwd);
}

namespace {

// `hostemu lint` on the hook files the checks above read: its errors, one finding each (area
// "lint", level warn: the file's own hooks are affected; ours are judged by the host checks).
void check_lint(const DoctorOptions& o, DoctorReport& r) {
  namespace hl = pinta::hostlint;
  const char* deel_home = std::getenv("DEEL_HOME");  // NOLINT(concurrency-mt-unsafe)
  const std::vector<std::pair<hl::Host, std::string>> files = {
      {hl::Host::kGemini, fs::join(o.gemini_home, ".gemini/settings.json")},
      {hl::Host::kGemini, fs::join(o.workspace, ".gemini/settings.json")},
      {hl::Host::kAntigravity, fs::join(o.home, ".gemini/config/hooks.json")},
      {hl::Host::kAntigravity, fs::join(o.workspace, ".agents/hooks.json")},
      {hl::Host::kDeel, deel_home && *deel_home ? fs::join(deel_home, "hooks.json")
                                                : fs::join(o.home, ".deel/hooks.json")},
      {hl::Host::kDeel, fs::join(o.workspace, ".deel/hooks.json")},
      {hl::Host::kClaude, fs::join(o.home, ".claude/settings.json")},
      {hl::Host::kClaude, fs::join(o.workspace, ".claude/settings.json")},
      {hl::Host::kClaude, fs::join(o.workspace, ".claude/settings.local.json")}};
  std::set<std::string> seen;
  for (const auto& [host, path] : files) {
    if (!o.host.empty() && o.host != hl::host_name(host)) continue;
    if (!fs::exists(path) || !seen.insert(hl::host_name(host) + std::string(":") + path).second)
      continue;
    hl::LintOptions lo;
    lo.host = host;
    lo.home = host == hl::Host::kGemini ? o.gemini_home : o.home;
    lo.workspace = o.workspace;
    lo.profiles_dir = o.profile_dir;
    auto findings = hl::lint_paths({path}, lo);
    if (!findings) continue;  // unreadable: the host checks report it
    for (const auto& f : *findings)
      if (f.severity == hl::Severity::kError)
        add(r, "lint", "warn",
            f.file + ":" + std::to_string(f.pos.line) + ":" + std::to_string(f.pos.col) + ": " +
                f.rule + ": " + f.message,
            f.hint + " (docs/lint.md#" + f.rule + ")",
            {{"file", f.file}, {"line", f.pos.line}, {"col", f.pos.col}, {"rule", f.rule}});
  }
}

}  // namespace

bool DoctorReport::broken() const {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& f) { return f.level == "broken"; });
}

json DoctorReport::to_json() const {
  json out = {{"ok", !broken()}, {"findings", json::array()}};
  for (const auto& f : findings)
    out["findings"].push_back({{"area", f.area},
                               {"level", f.level},
                               {"message", f.message},
                               {"fix", f.fix},
                               {"detail", f.detail}});
  return out;
}

std::string DoctorReport::to_text() const {
  std::ostringstream out;
  for (const auto& f : findings) {
    out << "[" << f.level << "] " << f.area << ": " << f.message << "\n";
    if (!f.fix.empty() && f.level != "ok" && f.level != "info") out << "    fix: " << f.fix << "\n";
  }
  out << (broken() ? "doctor: broken\n" : "doctor: ok\n");
  return out.str();
}

DoctorReport run_doctor(const DoctorOptions& options) {
  DoctorOptions o = options;
  if (o.gemini_home.empty()) o.gemini_home = o.home;
  if (o.env_file.empty()) o.env_file = fs::join(o.home, ".gemini/pinta-gemini.env");
  DoctorReport r;
  check_env(o, r);  // first: the env file can set the endpoints checked below
  if (o.data_dir.empty()) {
    const char* d = std::getenv("GEMINI_PLUGIN_DATA");
    o.data_dir = d && *d ? d : fs::join(o.home, ".gemini/pinta-gemini-data");
  }
  const bool all = o.host.empty();
  // Each family's check_<folder> (families.def), in registration order.
#define PINTA_FAMILY(Id, folder, name) \
  if (all || o.host == name) check_##folder(o, r);
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY
  check_lint(o, r);
  check_endpoints(o, r);
  check_data(o, r);
  return r;
}

}  // namespace pinta::admin
