// Loading hooks the way Gemini CLI 0.61.0 does (§1–2 of gemini-cli-0.61-hooks.md):
// bundle chunk-2YTYPKEZ.js (packages/cli/src/config/settings.ts _doLoadSettings, mergeSettings,
// utils/envVarResolver.ts resolveEnvVarsInObject), bundle chunk-HPLZM7PQ.js
// (config/extension-manager.ts loadExtensions/loadExtensionHooks, extensions/variables.ts
// hydrateString) and core hooks/hookRegistry.js processHooksFromConfig / processHookDefinition.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>

#include "pinta/common/fs.h"
#include "pinta/common/process.h"
#include "pinta/common/text.h"
#include "pinta/hosts/gemini/gemini.h"

namespace pinta::hosts::gemini {
namespace {

namespace sfs = std::filesystem;

// strip-json-comments (default options): // and /* */ outside strings become whitespace.
std::string strip_json_comments(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  bool in_str = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (in_str) {
      out += c;
      if (c == '\\' && i + 1 < s.size())
        out += s[++i];
      else if (c == '"')
        in_str = false;
      continue;
    }
    if (c == '"') {
      in_str = true;
      out += c;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') {
        out += ' ';
        ++i;
      }
      if (i < s.size()) out += '\n';
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      size_t end = s.find("*/", i + 2);
      size_t stop = end == std::string::npos ? s.size() : end + 2;
      for (; i < stop; ++i) out += (s[i] == '\n' ? '\n' : ' ');
      --i;
    } else {
      out += c;
    }
  }
  return out;
}

// envVarResolver.ts: /\$(?:(\w+)|{([^}]+?)(?::-([^}]*))?})/g against the CLI's environment.
std::string resolve_env(const std::string& v, const std::map<std::string, std::string>& env) {
  static const std::regex re(R"(\$(?:(\w+)|\{([^}]+?)(?::-([^}]*))?\}))");
  std::string out;
  auto begin = std::sregex_iterator(v.begin(), v.end(), re);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    out.append(v, last, static_cast<size_t>(m.position()) - last);
    std::string name = m[1].matched ? m[1].str() : m[2].str();
    auto e = env.find(name);
    if (!name.empty() && e != env.end())
      out += e->second;
    else if (m[3].matched)
      out += m[3].str();
    else
      out += m.str();
    last = static_cast<size_t>(m.position() + m.length());
  }
  out.append(v, last, std::string::npos);
  return out;
}

void resolve_env_in(ojson& j, const std::map<std::string, std::string>& env) {
  if (j.is_string())
    j = resolve_env(j.get<std::string>(), env);
  else if (j.is_array() || j.is_object())
    for (auto& e : j) resolve_env_in(e, env);
}

// hydrateString: /\${(.*?)}/g with the extension's variables; unknown keys stay literal.
std::string hydrate(const std::string& v, const std::map<std::string, std::string>& vars) {
  static const std::regex re(R"(\$\{(.*?)\})");
  std::string out;
  size_t last = 0;
  for (auto it = std::sregex_iterator(v.begin(), v.end(), re); it != std::sregex_iterator(); ++it) {
    out.append(v, last, static_cast<size_t>(it->position()) - last);
    auto f = vars.find((*it)[1].str());
    out += f == vars.end() ? it->str() : f->second;
    last = static_cast<size_t>(it->position() + it->length());
  }
  out.append(v, last, std::string::npos);
  return out;
}

void hydrate_in(ojson& j, const std::map<std::string, std::string>& vars) {
  if (j.is_string())
    j = hydrate(j.get<std::string>(), vars);
  else if (j.is_array() || j.is_object())
    for (auto& e : j) hydrate_in(e, vars);
}

std::string real_path(const std::string& p) {
  std::error_code ec;
  auto r = sfs::weakly_canonical(p, ec);
  return ec ? p : r.string();
}

struct SettingsFile {
  std::string path;
  ojson data = ojson::object();
  bool present = false;
};

// Reads one settings file: comments stripped, JSON.parse; invalid → fatal 52 (§1.2 step 1).
bool read_settings(SettingsFile& f, LoadResult& res,
                   const std::map<std::string, std::string>& env) {
  if (!sfs::is_regular_file(f.path)) return true;
  auto text = pinta::fs::read_file(f.path);
  if (!text) return true;
  auto j = js_parse(strip_json_comments(*text));
  if (!j) {
    res.fatal_exit = 52;
    res.fatal_message = "Error in " + f.path +
                        ": invalid JSON\nPlease fix the configuration file(s) and try again.";
    return false;
  }
  if (!j->is_object()) {
    res.fatal_exit = 52;
    res.fatal_message = "Error in " + f.path + ": Settings file is not a valid JSON object.";
    return false;
  }
  resolve_env_in(*j, env);
  f.data = std::move(*j);
  f.present = true;
  return true;
}

const ojson* path_get(const ojson& j, std::initializer_list<const char*> keys) {
  const ojson* cur = &j;
  for (const char* k : keys) {
    if (!cur->is_object()) return nullptr;
    auto it = cur->find(k);
    if (it == cur->end()) return nullptr;
    cur = &*it;
  }
  return cur;
}

bool truthy(const ojson& v) {
  if (v.is_null()) return false;
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number()) return v.get<double>() != 0;
  if (v.is_string()) return !v.get_ref<const std::string&>().empty();
  return true;
}

// checkPathTrust (core utils/trust.js), §1.4.
bool decide_trust(const LoadOptions& o, const std::map<std::string, std::string>& env,
                  bool folder_trust_enabled) {
  auto get = [&](const char* k) -> std::string {
    auto it = env.find(k);
    return it == env.end() ? "" : it->second;
  };
  if (get("GEMINI_RESTRICTED_MODE") == "true" || get("GEMINI_CLI_TRUST_WORKSPACE") == "false")
    return false;
  if (get("GEMINI_CLI_TRUST_WORKSPACE") == "true") return true;
  if (!folder_trust_enabled) return true;
  std::string tf = get("GEMINI_CLI_TRUSTED_FOLDERS_PATH");
  if (tf.empty()) tf = o.home + "/.gemini/trustedFolders.json";
  auto text = pinta::fs::read_file(tf);
  if (!text) return false;
  auto j = js_parse(strip_json_comments(*text));
  if (!j || !j->is_object()) return false;
  std::string ws = real_path(o.workspace);
  size_t best = 0;
  std::optional<bool> verdict;
  for (auto& [rule_path, v] : j->items()) {
    if (!v.is_string()) continue;
    std::string rp = real_path(rule_path);
    std::string target = v == "TRUST_PARENT" ? sfs::path(rp).parent_path().string() : rp;
    bool inside =
        ws == target || (ws.size() > target.size() && ws.compare(0, target.size(), target) == 0 &&
                         (target == "/" || ws[target.size()] == '/'));
    if (!inside || target.size() < best) continue;
    best = target.size();
    verdict = v != "DO_NOT_TRUST";
  }
  return verdict.value_or(false);
}

std::string js_value_text(const ojson& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object()) return "[object Object]";
  return js_stringify(v);
}

// A hook's configured `timeout`: its text, and the milliseconds Node's setTimeout waits (a number
// or numeric text from 1 to 2^31-1; anything else fires after 1 ms).
void read_timeout(const ojson& t, HookSpec& spec) {
  spec.timeout_text = js_value_text(t);
  double v = 0;
  bool numeric = false;
  if (t.is_number()) {
    v = t.get<double>();
    numeric = true;
  } else if (t.is_string()) {
    char* end = nullptr;
    std::string s = t.get<std::string>();
    v = std::strtod(s.c_str(), &end);
    numeric = !s.empty() && *end == '\0';
  }
  spec.timeout_ms = numeric && v >= 1 && v <= 2147483647.0 ? static_cast<int>(v) : 1;
}

// processHooksConfiguration + processHookDefinition + validateHookConfig (core hookRegistry.js).
// The hooks object is at "/hooks" in its file (settings and extension hooks.json alike).
void register_hooks(const ojson& hooks, const std::string& source, const std::string& origin,
                    bool from_merge, const std::vector<std::string>& disabled, LoadResult& res) {
  if (!hooks.is_object()) return;
  auto issue = [&](const std::string& ptr, const char* kind) {
    res.issues.push_back({origin, ptr, kind, res.warnings.back()});
  };
  for (auto& [event, defs_raw] : hooks.items()) {
    const std::string ep = "/hooks/" + pinta::text::json_pointer_token(event);
    if (event == "enabled" || event == "disabled" || event == "notifications")
      continue;  // HOOKS_CONFIG_FIELDS
    if (!is_event_name(event)) {
      res.warnings.push_back("Invalid hook event name: \"" + event + "\" from " + source +
                             " config. Skipping.");
      issue(ep, "unknown-event");
      continue;
    }
    ojson defs = defs_raw;
    // The settings merge (customDeepMerge, concat) wraps a lone value into an array (exp a06).
    const bool wrapped_lone = from_merge && !defs.is_array();
    if (wrapped_lone) defs = ojson::array({defs_raw});
    if (!defs.is_array()) {
      res.warnings.push_back("Hook definitions for event \"" + event + "\" from source \"" +
                             source + "\" is not an array. Skipping.");
      issue(ep, "not-array");
      continue;
    }
    for (size_t di = 0; di < defs.size(); ++di) {
      const ojson& def = defs[di];
      const std::string dp = wrapped_lone ? ep : ep + "/" + std::to_string(di);
      if (!def.is_object() || !def.contains("hooks") || !def["hooks"].is_array()) {
        res.warnings.push_back("Discarding invalid hook definition for " + event + " from " +
                               source);
        issue(dp, "invalid-definition");
        continue;
      }
      for (size_t hi = 0; hi < def["hooks"].size(); ++hi) {
        const ojson& h = def["hooks"][hi];
        const std::string hp = dp + "/hooks/" + std::to_string(hi);
        bool ok = h.is_object();
        std::string type =
            ok && h.contains("type") && h["type"].is_string() ? h["type"].get<std::string>() : "";
        if (ok && type != "command" && type != "plugin") {
          // runtime hooks cannot come from files (they need an action); other types invalid.
          res.warnings.push_back("Invalid hook " + event + " from " + source + " type: " +
                                 (h.contains("type") ? js_value_text(h["type"]) : "undefined"));
          issue(h.contains("type") ? hp + "/type" : hp, "invalid-type");
          ok = false;
        }
        if (ok && !(h.contains("command") && truthy(h["command"]))) {
          res.warnings.push_back("Command hook " + event + " from " + source +
                                 " missing command field");
          issue(hp, "missing-command");
          ok = false;
        }
        if (!ok) {
          res.warnings.push_back("Discarding invalid hook configuration for " + event + " from " +
                                 source);
          continue;
        }
        LoadedHook lh;
        lh.event = event;
        lh.source = source;
        lh.origin = origin;
        lh.pointer = hp;
        lh.type = type;
        lh.spec.source = source;
        lh.spec.command = js_value_text(h["command"]);
        if (h.contains("name") && h["name"].is_string())
          lh.spec.name = h["name"].get<std::string>();
        if (h.contains("timeout") && !h["timeout"].is_null()) read_timeout(h["timeout"], lh.spec);
        if (h.contains("env") && h["env"].is_object())
          for (auto& [k, v] : h["env"].items()) lh.spec.env.emplace_back(k, js_value_text(v));
        if (def.contains("matcher") && truthy(def["matcher"])) {
          lh.has_matcher = true;
          lh.matcher_pointer = dp + "/matcher";
          lh.matcher_is_string = def["matcher"].is_string();
          if (lh.matcher_is_string) lh.matcher = def["matcher"].get<std::string>();
        }
        lh.sequential = def.contains("sequential") && def["sequential"].is_boolean() &&
                        def["sequential"].get<bool>();
        std::string display = lh.spec.name.empty() ? lh.spec.command : lh.spec.name;
        lh.enabled = std::find(disabled.begin(), disabled.end(), display) == disabled.end();
        res.by_event[event].push_back(std::move(lh));
      }
    }
  }
}

// bundle config/extensions/extensionEnablement.ts (0.61.0): H/.gemini/extensions/
// extension-enablement.json = {name: {overrides: [rule...]}}; a rule is a path glob, "!" = disable,
// a trailing "*" = that directory and everything below; the last rule matching the workspace
// (with leading and trailing "/") wins; no rule = enabled. A file that is not valid JSON or not
// that shape counts as {} after the feedback error "Failed to read extension enablement config."
struct Enablement {
  ojson config = ojson::object();
  bool read_failed = false;
};

Enablement read_enablement(const std::string& path) {
  Enablement e;
  std::error_code ec;
  if (!sfs::exists(path, ec)) return e;
  auto text = pinta::fs::read_file(path);
  auto j = text ? js_parse(*text) : std::nullopt;
  bool ok = j && j->is_object();
  if (ok)
    for (auto& [k, v] : j->items()) {
      if (!v.is_object() || !v.contains("overrides") || !v["overrides"].is_array()) ok = false;
      else
        for (const auto& r : v["overrides"])
          if (!r.is_string()) ok = false;
    }
  if (ok) e.config = *j;
  else e.read_failed = true;
  return e;
}

std::string with_slashes(std::string p) {
  std::replace(p.begin(), p.end(), '\\', '/');
  if (p.empty() || p.front() != '/') p.insert(p.begin(), '/');
  if (p.back() != '/') p.push_back('/');
  return p;
}

// globToRegex: escape [.+?^${}()|[\]\\], then "(/?)*" → "($1.*)?", anchored.
bool glob_matches(const std::string& glob, const std::string& path) {
  std::string re;
  for (size_t i = 0; i < glob.size(); ++i) {
    char c = glob[i];
    if (c == '/' && i + 1 < glob.size() && glob[i + 1] == '*') {
      re += "(/.*)?";
      ++i;
    } else if (c == '*') {
      re += "(.*)?";
    } else if (std::string(".+?^${}()|[]\\").find(c) != std::string::npos) {
      re += '\\';
      re += c;
    } else {
      re += c;
    }
  }
  try {
    return std::regex_match(path, std::regex(re));
  } catch (const std::regex_error&) {
    return false;
  }
}

// core hooks/trustedHooks.js getUntrustedHooks / trustHooks with types.js getHookKey
// (`${name || ''}:${type === 'command' ? command : ''}`); runtime hooks are skipped (§1.5, exp a08).
void check_project_hooks_trust(const ojson& ws_settings, const LoadOptions& o, LoadResult& res) {
  res.trusted_hooks_path = o.home + "/.gemini/trusted_hooks.json";
  res.trusted_hooks = ojson::object();
  if (auto text = pinta::fs::read_file(res.trusted_hooks_path)) {
    auto j = js_parse(*text);
    if (j && j->is_object()) res.trusted_hooks = *j;
  }
  const ojson* hooks = path_get(ws_settings, {"hooks"});
  if (!hooks || !hooks->is_object()) return;
  std::set<std::string> trusted;
  if (res.trusted_hooks.contains(o.workspace) && res.trusted_hooks[o.workspace].is_array())
    for (const auto& k : res.trusted_hooks[o.workspace])
      if (k.is_string()) trusted.insert(k.get<std::string>());
  std::set<std::string> seen_names, seen_keys;
  for (auto& [event, defs] : hooks->items()) {
    if (!defs.is_array()) continue;
    for (const auto& def : defs) {
      if (!def.is_object() || !def.contains("hooks") || !def["hooks"].is_array()) continue;
      for (const auto& h : def["hooks"]) {
        if (!h.is_object()) continue;
        if (h.value("type", ojson()).is_string() && h["type"] == "runtime") continue;
        std::string name = h.contains("name") && truthy(h["name"]) ? js_value_text(h["name"]) : "";
        std::string command = h.contains("command") && h["command"].is_string()
                                  ? h["command"].get<std::string>()
                                  : "";
        std::string key = name + ":" + (h.value("type", "") == "command" ? command : "");
        if (seen_keys.insert(key).second) res.project_hook_keys.push_back(key);
        if (trusted.count(key)) continue;
        std::string shown = !name.empty() ? name : !command.empty() ? command : "unknown-hook";
        if (seen_names.insert(shown).second) res.untrusted_project_hooks.push_back(shown);
      }
    }
  }
}

}  // namespace

bool record_trusted_project_hooks(const LoadResult& loaded, const std::string& project_root) {
  ojson all = loaded.trusted_hooks.is_object() ? loaded.trusted_hooks : ojson::object();
  ojson keys = all.contains(project_root) && all[project_root].is_array() ? all[project_root]
                                                                          : ojson::array();
  for (const auto& k : loaded.project_hook_keys)
    if (std::find(keys.begin(), keys.end(), ojson(k)) == keys.end()) keys.push_back(k);
  all[project_root] = keys;
  std::error_code ec;
  sfs::create_directories(sfs::path(loaded.trusted_hooks_path).parent_path(), ec);
  return pinta::fs::atomic_write(loaded.trusted_hooks_path, all.dump(2), 0644).ok();
}

bool extension_enabled(const ojson& enablement, const std::string& name, const std::string& cwd) {
  if (!enablement.is_object() || !enablement.contains(name)) return true;
  const ojson& e = enablement[name];
  if (!e.is_object() || !e.contains("overrides") || !e["overrides"].is_array()) return true;
  bool enabled = true;
  const std::string here = with_slashes(cwd);
  for (const auto& r : e["overrides"]) {
    if (!r.is_string()) continue;
    std::string rule = r.get<std::string>();
    bool disable = !rule.empty() && rule[0] == '!';
    std::string base = disable ? rule.substr(1) : rule;
    bool subdirs = !base.empty() && base.back() == '*';
    if (subdirs) base.pop_back();
    if (glob_matches(base + (subdirs ? "*" : ""), here)) enabled = !disable;
  }
  return enabled;
}

namespace {

// Extensions (§1.6): every subdirectory, sorted (libuv scandir), manifest name+version required;
// the hooks of each enabled one registered as "extensions".
void load_extensions(const LoadOptions& o, const std::vector<std::string>& disabled,
                     LoadResult& res) {
  std::string ext_root = o.home + "/.gemini/extensions";
  std::vector<std::string> dirs;
  std::error_code ec;
  for (auto it = sfs::directory_iterator(ext_root, ec); !ec && it != sfs::directory_iterator();
       it.increment(ec))
    if (it->is_directory()) dirs.push_back(it->path().filename().string());
  std::sort(dirs.begin(), dirs.end());
  std::set<std::string> names;
  const Enablement enablement = read_enablement(ext_root + "/extension-enablement.json");
  for (const auto& d : dirs) {
    std::string dir = ext_root + "/" + d;
    auto man_text = pinta::fs::read_file(dir + "/gemini-extension.json");
    if (!man_text) continue;
    auto man = js_parse(*man_text);
    if (!man || !man->is_object() || !man->contains("name") || !truthy((*man)["name"]) ||
        !man->contains("version") || !truthy((*man)["version"])) {
      res.warnings.push_back("Warning: Skipping extension in " + dir +
                             ": Failed to load extension config from " + dir +
                             "/gemini-extension.json");
      continue;
    }
    std::string name = js_value_text((*man)["name"]);
    if (!std::regex_match(name, std::regex("^[a-zA-Z0-9-]+$")) || !names.insert(name).second) {
      res.warnings.push_back("Warning: Skipping extension in " + dir +
                             ": invalid or duplicate name " + name);
      continue;
    }
    // isEnabled re-reads the file for every extension, so its feedback error repeats (lane s27).
    if (enablement.read_failed)
      res.startup_stderr.push_back("Failed to read extension enablement config.");
    if (!extension_enabled(enablement.config, name, o.workspace)) continue;  // loaded, not active
    std::string hooks_path = dir + "/hooks/hooks.json";
    if (!sfs::is_regular_file(hooks_path)) continue;
    auto htext = pinta::fs::read_file(hooks_path);
    if (!htext) continue;
    auto hj = js_parse(*htext);
    if (!hj) {
      res.warnings.push_back("Failed to load extension hooks from " + hooks_path);
      continue;
    }
    if (!hj->is_object() || !hj->contains("hooks") || !(*hj)["hooks"].is_object()) {
      res.warnings.push_back("Invalid hooks configuration in " + hooks_path +
                             ": \"hooks\" property must be an object");
      res.issues.push_back({hooks_path, "", "invalid-hooks-root", res.warnings.back()});
      continue;
    }
    std::map<std::string, std::string> vars = {
        {"extensionPath", dir}, {"workspacePath", o.workspace}, {"/", "/"}, {"pathSeparator", "/"}};
    ojson hooks = (*hj)["hooks"];
    hydrate_in(hooks, vars);
    register_hooks(hooks, "extensions", hooks_path, false, disabled, res);
  }
}

}  // namespace

LoadResult load_hooks(const LoadOptions& o) {
  LoadResult res;
  std::map<std::string, std::string> env =
      o.cli_env ? *o.cli_env : pinta::proc::current_environment();
  auto envv = [&](const char* k) -> std::string {
    auto it = env.find(k);
    return it == env.end() ? "" : it->second;
  };
  // Sources in merge order (§1.1, §1.2 step 4): systemDefaults → user → workspace → system.
  std::string system_path = o.system_settings_path ? *o.system_settings_path
                            : !envv("GEMINI_CLI_SYSTEM_SETTINGS_PATH").empty()
                                ? envv("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
                                : "/etc/gemini-cli/settings.json";
  std::string defaults_path =
      o.system_defaults_path ? *o.system_defaults_path
      : !envv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH").empty()
          ? envv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH")
          : (sfs::path(system_path).parent_path() / "system-defaults.json").string();
  SettingsFile defaults{defaults_path}, user{o.home + "/.gemini/settings.json"},
      workspace{o.workspace + "/.gemini/settings.json"}, system{system_path};
  // The workspace file is skipped when the workspace is the home dir (storage.isWorkspaceHomeDir).
  bool ws_is_home = real_path(o.workspace) == real_path(o.home);
  for (SettingsFile* f : {&defaults, &user, &workspace, &system}) {
    if (f == &workspace && ws_is_home) continue;
    if (!read_settings(*f, res, env)) return res;
  }
  // folderTrust and trust (§1.4) decide whether the workspace file counts at all.
  auto merged_bool = [&](std::initializer_list<const char*> keys, bool dflt, bool with_ws) {
    bool v = dflt;
    for (SettingsFile* f : {&defaults, &user, &workspace, &system}) {
      if (f == &workspace && !with_ws) continue;
      if (const ojson* x = path_get(f->data, keys); x && x->is_boolean()) v = x->get<bool>();
    }
    return v;
  };
  res.folder_trust_enabled = merged_bool({"security", "folderTrust", "enabled"}, true, false);
  if (envv("GEMINI_CLI_INTEGRATION_TEST") == "true" || envv("VITEST") == "true")
    res.folder_trust_enabled = false;
  res.trusted = o.trusted ? *o.trusted : decide_trust(o, env, res.folder_trust_enabled);
  if (!res.trusted) workspace.data = ojson::object();  // createEmptyWorkspace
  if (!res.trusted && o.headless && res.folder_trust_enabled) {
    // userStartupWarnings.ts folderTrustCheck: headless + untrusted → exit 55 (exp a10a/a10c).
    res.fatal_exit = 55;
    res.fatal_message =
        "Gemini CLI is not running in a trusted directory. To proceed, either use `--skip-trust`, "
        "set the "
        "`GEMINI_CLI_TRUST_WORKSPACE=true` environment variable, or trust this directory in "
        "interactive mode. "
        "For more details, see "
        "https://geminicli.com/docs/cli/trusted-folders/#headless-and-automated-environments";
    return res;
  }
  res.hooks_enabled = merged_bool({"hooksConfig", "enabled"}, true, true);
  std::vector<std::string> disabled;  // merge strategy union
  for (SettingsFile* f : {&defaults, &user, &workspace, &system})
    if (const ojson* d = path_get(f->data, {"hooksConfig", "disabled"}); d && d->is_array())
      for (const auto& e : *d)
        if (e.is_string() &&
            std::find(disabled.begin(), disabled.end(), e.get<std::string>()) == disabled.end())
          disabled.push_back(e.get<std::string>());
  if (!res.hooks_enabled) return res;  // no HookSystem at all, extensions not even read (exp a11)

  // Settings hooks: merged (concat) and registered as "project", only in a trusted folder.
  if (res.trusted) {
    for (SettingsFile* f : {&defaults, &user, &workspace, &system})
      if (const ojson* h = path_get(f->data, {"hooks"}); h && h->is_object())
        register_hooks(*h, "project", f->path, true, disabled, res);
    check_project_hooks_trust(workspace.data, o, res);
  } else {
    res.warnings.push_back("Project hooks disabled because the folder is not trusted.");
  }

  load_extensions(o, disabled, res);
  return res;
}

}  // namespace pinta::hosts::gemini

namespace pinta::hosts::gemini {

LoadResult load_hooks_file(const std::string& text, const std::string& path, bool extension_hooks) {
  LoadResult res;
  if (!extension_hooks) {
    // read_settings's parse and checks (§1.2 step 1), with this process's environment for $VAR.
    auto j = js_parse(strip_json_comments(text));
    if (!j) {
      res.fatal_exit = 52;
      res.fatal_message = "Error in " + path + ": invalid JSON";
      return res;
    }
    if (!j->is_object()) {
      res.fatal_exit = 52;
      res.fatal_message = "Error in " + path + ": Settings file is not a valid JSON object.";
      return res;
    }
    resolve_env_in(*j, pinta::proc::current_environment());
    if (const ojson* h = path_get(*j, {"hooks"}); h && h->is_object())
      register_hooks(*h, "project", path, true, {}, res);
    if (const ojson* e = path_get(*j, {"hooksConfig", "enabled"}); e && e->is_boolean())
      res.hooks_enabled = e->get<bool>();
    return res;
  }
  // loadExtensionHooks (§1.6): JSON.parse without comment stripping.
  auto hj = js_parse(text);
  if (!hj) {
    res.warnings.push_back("Failed to load extension hooks from " + path);
    res.fatal_exit = 52;  // not fatal to the CLI: the extension's hooks are skipped
    res.fatal_message = res.warnings.back();
    return res;
  }
  if (!hj->is_object() || !hj->contains("hooks") || !(*hj)["hooks"].is_object()) {
    res.warnings.push_back("Invalid hooks configuration in " + path +
                           ": \"hooks\" property must be an object");
    res.issues.push_back({path, "", "invalid-hooks-root", res.warnings.back()});
    return res;
  }
  register_hooks((*hj)["hooks"], "extensions", path, false, {}, res);
  return res;
}

}  // namespace pinta::hosts::gemini
