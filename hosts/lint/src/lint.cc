// `hostemu lint`: each host's findings come from its emulator loader (gemini::load_hooks_file,
// agy::parse_hooks_json per profile, deel::unfold); this file turns them into positioned findings
// and adds the checks loaders do not make (timeout units, matcher shape, commands, layers, trust).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "common.h"
#include "pinta/common/fs.h"
#include "pinta/common/text.h"
#include "pinta/hosts/antigravity/antigravity.h"
#include "pinta/hosts/node/js.h"
#include "pinta/hosts/node/js_regex.h"
#include "pinta/hosts/deel/deel.h"
#include "pinta/hosts/gemini/gemini.h"

namespace pinta::hostlint {
namespace {

using namespace detail;
namespace gem = pinta::hosts::gemini;
namespace agy = pinta::hosts::agy;
namespace deel = pinta::hosts::deel;
namespace node = pinta::hosts::node;
namespace sfs = std::filesystem;

// Where nlohmann's parser stops on a syntax error (position only; the verdict is the loader's).
void syntax_error(const std::string& text, bool comments, Position& pos, std::string& detail) {
  try {
    auto j = nlohmann::json::parse(text, nullptr, true, comments);
    (void)j;
  } catch (const nlohmann::json::parse_error& e) {
    pos = position_of_offset(text, e.byte == 0 ? 0 : e.byte - 1);
    detail = e.what();
    if (auto q = detail.find("syntax error"); q != std::string::npos) detail = detail.substr(q);
  }
}

using pinta::text::ascii_lower;

std::string env_or(const LintOptions& o, const char* k) {
  if (auto it = o.env.find(k); it != o.env.end()) return it->second;
  if (!o.env.empty()) return "";
  const char* v = std::getenv(k);
  return v ? v : "";
}

std::string home_of(const LintOptions& o) {
  return normalize(o.home.empty() ? env_or(o, "HOME") : o.home);
}

bool same_file(const std::string& a, const std::string& b) { return normalize(a) == normalize(b); }

// RFC 6901 token back to the key: "~1" → "/", "~0" → "~".
std::string unescape_token(const std::string& t) {
  std::string out;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '~' && i + 1 < t.size() && (t[i + 1] == '0' || t[i + 1] == '1')) {
      out += t[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      out += t[i];
    }
  }
  return out;
}

// Event names of the other hosts (and Claude Code's), with this host's equivalent.
const std::map<std::string, std::string>& gemini_foreign_events() {
  static const std::map<std::string, std::string> m = {{"PreToolUse", "BeforeTool"},
                                                       {"PostToolUse", "AfterTool"},
                                                       {"UserPromptSubmit", "BeforeAgent"},
                                                       {"Stop", "AfterAgent"},
                                                       {"SubagentStop", ""},
                                                       {"PreCompact", "PreCompress"},
                                                       {"PreInvocation", "BeforeModel"},
                                                       {"PostInvocation", "AfterModel"}};
  return m;
}
const std::map<std::string, std::string>& agy_foreign_events() {
  static const std::map<std::string, std::string> m = {{"BeforeTool", "PreToolUse"},
                                                       {"AfterTool", "PostToolUse"},
                                                       {"BeforeAgent", "PreInvocation"},
                                                       {"AfterAgent", "Stop"},
                                                       {"UserPromptSubmit", ""},
                                                       {"SessionEnd", ""},
                                                       {"Notification", ""},
                                                       {"PreCompact", ""},
                                                       {"SubagentStop", ""},
                                                       {"BeforeModel", "PreInvocation"},
                                                       {"AfterModel", "PostInvocation"}};
  return m;
}
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

bool any_host_event(const std::string& k) {
  static const std::set<std::string> all = {
      "pretooluse",   "posttooluse", "preinvocation",    "postinvocation",     "stop",
      "sessionstart", "sessionend",  "userpromptsubmit", "notification",       "precompact",
      "subagentstop", "beforetool",  "aftertool",        "beforeagent",        "afteragent",
      "precompress",  "beforemodel", "aftermodel",       "beforetoolselection"};
  return all.count(ascii_lower(k)) > 0;
}

// ------------------------------------------------------------------------------------------------
// Gemini CLI 0.61

const MatcherContext& gemini_matchers() {
  static const MatcherContext c = [] {
    MatcherContext m;
    m.host = "Gemini CLI";
    m.searched = true;      // new RegExp(matcher).test(toolName), §3 step 2
    m.backtracking = true;  // JavaScript RegExp
    m.tools = {"read_file", "write_file",          "replace",        "run_shell_command",
               "glob",      "search_file_content", "list_directory", "read_many_files",
               "web_fetch", "google_web_search",   "save_memory",    "write_todos"};
    m.claude_names = {{"Bash", "run_shell_command"},
                      {"Write", "write_file"},
                      {"Edit", "replace"},
                      {"MultiEdit", "replace"},
                      {"Read", "read_file"},
                      {"Grep", "search_file_content"},
                      {"Glob", "glob"},
                      {"LS", "list_directory"},
                      {"WebFetch", "web_fetch"},
                      {"WebSearch", "google_web_search"}};
    return m;
  }();
  return c;
}

struct GeminiLayer {
  std::string layer;      // user | project | extension | system | other
  std::string workspace;  // project: the folder holding .gemini
  bool extension = false;
};

GeminiLayer gemini_layer(const std::string& path, const LintOptions& o) {
  std::string p = normalize(path);
  std::string home = home_of(o);
  GeminiLayer l;
  if (p.find("/.gemini/extensions/") != std::string::npos && ends_with(p, "/hooks/hooks.json")) {
    l.layer = "extension";
    l.extension = true;
  } else if (ends_with(p, "/.gemini/settings.json")) {
    std::string ws = dir_of(dir_of(p));
    if (same_file(p, home + "/.gemini/settings.json")) {
      l.layer = "user";
      if (!o.workspace.empty()) l.workspace = normalize(o.workspace);
    } else {
      l.layer = "project";
      l.workspace = ws;
    }
  } else if (ends_with(p, "/system-defaults.json") || p.rfind("/etc/gemini-cli/", 0) == 0) {
    l.layer = "system";
  } else {
    l.layer = "other";
    // A hooks-only file elsewhere is read as an extension's hooks.json shape.
    l.extension = ends_with(p, "hooks.json");
  }
  return l;
}

void lint_gemini(const std::string& path, const std::string& text, const LintOptions& o,
                 Sink& sink) {
  const GeminiLayer layer = gemini_layer(path, o);
  const std::string home = home_of(o);
  if (ends_with(normalize(path), "/.gemini/hooks.json")) {
    sink.add(Severity::kWarning, "file-not-read", "",
             "Gemini CLI never reads .gemini/hooks.json (only settings.json and extensions' "
             "hooks/hooks.json)",
             "move the \"hooks\" object into .gemini/settings.json");
  }
  auto res = gem::load_hooks_file(text, path, layer.extension);
  if (res.fatal_exit) {
    Position pos{1, 1};
    std::string detail;
    syntax_error(text, !layer.extension, pos, detail);
    sink.out.push_back({path, pos, Severity::kError,
                        detail.empty() ? "file-rejected" : "json-syntax",
                        (layer.extension ? "Gemini CLI skips this extension's hooks: "
                                         : "Gemini CLI refuses to start (exit 52): ") +
                            res.fatal_message + (detail.empty() ? "" : " (" + detail + ")"),
                        "fix the JSON (comments are allowed in settings.json, trailing commas "
                        "are not)"});
    return;
  }
  auto parsed = layer.extension ? gem::js_parse(text) : std::nullopt;
  ojson root;
  if (layer.extension) {
    root = parsed ? *parsed : ojson();
  } else {
    // Same comment handling as the loader: nlohmann's comment skipping.
    root = ojson::parse(text, nullptr, false, true);
  }
  // Events written at the root instead of under "hooks" (Claude/agy habits).
  if (root.is_object()) {
    for (auto it = root.begin(); it != root.end(); ++it)
      if (it.key() != "hooks" && any_host_event(it.key()))
        sink.add_at_key(Severity::kError, "foreign-root", "/" + pointer_token(it.key()),
                        "'" + it.key() +
                            "' is at the root: Gemini CLI reads hooks only from the \"hooks\" "
                            "object, so this is ignored",
                        "move it into \"hooks\": {\"" + it.key() + "\": [...]}");
  }
  // Hooks under an event name Gemini CLI does not know are skipped with it, unread. They are
  // still checked here, as the event the name is nearest to (else BeforeTool), so that fixing the
  // name does not reveal a second round of findings.
  std::map<std::string, std::vector<gem::LoadedHook>> checked = res.by_event;
  std::vector<gem::LoadIssue> issues = res.issues;
  for (const auto& is : res.issues) {
    if (is.kind != "unknown-event") continue;
    const ojson* v = at_pointer(root, is.pointer);
    if (!v || !v->is_array()) continue;
    const std::string key = unescape_token(is.pointer.substr(is.pointer.rfind('/') + 1));
    const std::string as = closest_name(key, gem::event_names()).value_or("BeforeTool");
    ojson one = ojson::object();
    one["hooks"] = ojson::object();
    one["hooks"][as] = *v;
    auto sub = gem::load_hooks_file(one.dump(), path, true);
    const std::string from = "/hooks/" + pointer_token(as);
    auto moved = [&](const std::string& p) {
      return p.rfind(from, 0) == 0 ? is.pointer + p.substr(from.size()) : p;
    };
    for (auto x : sub.issues) {
      if (x.kind == "unknown-event" || x.pointer.rfind(from, 0) != 0) continue;
      x.pointer = moved(x.pointer);
      issues.push_back(x);
    }
    for (const auto& [e, hooks] : sub.by_event)
      for (auto h : hooks) {
        h.pointer = moved(h.pointer);
        if (!h.matcher_pointer.empty()) h.matcher_pointer = moved(h.matcher_pointer);
        checked["'" + key + "'"].push_back(h);
      }
  }
  for (const auto& is : issues) {
    const ojson* v = at_pointer(root, is.pointer);
    if (is.kind == "invalid-hooks-root") {
      sink.add(Severity::kError, "foreign-root", "", "Gemini CLI skips this file: " + is.message,
               "wrap the events: {\"hooks\": {\"BeforeTool\": [...]}}");
    } else if (is.kind == "unknown-event") {
      std::string ev = is.pointer.substr(is.pointer.rfind('/') + 1);
      bool named_hook = v && v->is_object();  // agy's {"name": {"PreToolUse": ...}} shape
      sink.add_at_key(Severity::kWarning, "unknown-event", is.pointer,
                      "Gemini CLI skips unknown event '" + ev + "'" +
                          (named_hook ? " (this looks like Antigravity's named-hook shape)" : ""),
                      suggest_event(ev, gem::event_names(), gemini_foreign_events()));
    } else if (is.kind == "not-array") {
      sink.add(Severity::kError, "event-shape", is.pointer,
               "Gemini CLI skips this event: its value is not an array",
               "write [{\"matcher\": \"...\", \"hooks\": [{\"type\": \"command\", \"command\": "
               "\"...\"}]}]");
    } else if (is.kind == "invalid-definition") {
      bool flat = v && v->is_object() && (v->contains("command") || v->contains("type"));
      if (flat)
        sink.add(Severity::kError, "event-shape", is.pointer,
                 "handler written flat: Gemini CLI 0.61 discards a definition without a "
                 "\"hooks\" array",
                 "wrap it: {\"matcher\": \"*\", \"hooks\": [" +
                     (v ? v->dump() : std::string("{…}")) + "]}");
      else
        sink.add(Severity::kError, "invalid-handler", is.pointer,
                 "Gemini CLI discards this definition: it is not an object with a \"hooks\" array",
                 "write {\"matcher\": \"...\", \"hooks\": [{\"type\": \"command\", \"command\": "
                 "\"...\"}]}");
    } else if (is.kind == "invalid-type") {
      sink.add(Severity::kError, "invalid-handler", is.pointer,
               "Gemini CLI discards this hook: " + is.message,
               "set \"type\": \"command\" (it is required in Gemini CLI)");
    } else if (is.kind == "missing-command") {
      sink.add(Severity::kError, "invalid-handler", is.pointer,
               "Gemini CLI discards this hook: " + is.message, "add \"command\": \"...\"");
    }
  }
  static const std::set<std::string> kHookKeys = {"type",    "command",     "name",
                                                  "timeout", "description", "env"};
  static const std::set<std::string> kDefKeys = {"matcher", "sequential", "hooks"};
  std::set<std::string> seen_defs;
  CommandContext cc;
  cc.home = home;
  cc.cwd = !layer.workspace.empty() ? layer.workspace : home;  // the CLI's cwd (§4.1)
  cc.path_env = env_or(o, "PATH");
  if (layer.extension) cc.vars["${extensionPath}"] = dir_of(dir_of(normalize(path)));
  for (const char* v : {"$GEMINI_PROJECT_DIR", "${GEMINI_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR",
                        "${CLAUDE_PROJECT_DIR}", "$GEMINI_CWD", "${GEMINI_CWD}"})
    cc.vars[v] = cc.cwd;  // expandCommand (§4.3)
  static const std::vector<std::string> kHookKeyList(kHookKeys.begin(), kHookKeys.end());
  static const std::vector<std::string> kDefKeyList(kDefKeys.begin(), kDefKeys.end());
  for (const auto& [event, hooks] : checked) {
    for (const auto& h : hooks) {
      const ojson* hv = at_pointer(root, h.pointer);
      if (hv && hv->is_object())
        for (auto it = hv->begin(); it != hv->end(); ++it)
          if (!kHookKeys.count(it.key()))
            sink.add_at_key(Severity::kWarning, "unknown-key",
                            h.pointer + "/" + pointer_token(it.key()),
                            "Gemini CLI ignores hook key '" + it.key() + "'" +
                                did_you_mean(it.key(), kHookKeyList),
                            "known keys: type, command, name, timeout (ms), description, env");
      std::string dp = parent_pointer(parent_pointer(h.pointer));
      if (seen_defs.insert(dp).second) {
        const ojson* dv = at_pointer(root, dp);
        if (dv && dv->is_object())
          for (auto it = dv->begin(); it != dv->end(); ++it)
            if (!kDefKeys.count(it.key()))
              sink.add_at_key(Severity::kWarning, "unknown-key", dp + "/" + pointer_token(it.key()),
                              "Gemini CLI ignores definition key '" + it.key() + "'" +
                                  did_you_mean(it.key(), kDefKeyList),
                              "known keys: matcher, sequential, hooks");
        if (h.has_matcher && !h.matcher_is_string)
          sink.add(Severity::kError, "matcher-invalid", h.matcher_pointer,
                   "matcher is not a string: Gemini CLI's planner throws and skips every " + event +
                       " hook on every firing",
                   "write the matcher as a string");
        if (h.has_matcher && h.matcher_is_string) {
          std::string m = gem::js_trim(h.matcher);
          bool tool_event = event == "BeforeTool" || event == "AfterTool";
          if (tool_event && !m.empty() && m != "*") {
            // new RegExp(matcher) as Node runs it (the engine the emulator's planner uses).
            const bool valid = pinta::hosts::node::JsRegExp::compile_utf8(m) != nullptr;
            if (!valid)
              sink.add(Severity::kError, "matcher-invalid", h.matcher_pointer,
                       "matcher '" + m +
                           "' is not a valid regular expression: Gemini CLI then compares it to "
                           "the tool name as plain text",
                       "fix the pattern, or escape its special characters");
            else
              check_matcher_shape(sink, h.matcher_pointer, m, gemini_matchers());
          }
        }
      }
      // Timeout: milliseconds (§2.2, core hookRunner.js DEFAULT_HOOK_TIMEOUT 60000).
      if (!h.spec.timeout_text.empty()) {
        const std::string tp = h.pointer + "/timeout";
        const ojson* tv = at_pointer(root, tp);
        bool numeric = tv && (tv->is_number() || (tv->is_string() && h.spec.timeout_ms > 1));
        if (!numeric || h.spec.timeout_ms <= 1)
          sink.add(Severity::kError, "timeout-unit", tp,
                   "timeout " + h.spec.timeout_text +
                       ": Gemini CLI kills the hook after about 1 ms, so every run times out",
                   "timeout is in milliseconds: e.g. 5000 for 5 seconds (default 60000)");
        else if (h.spec.timeout_ms < 1000)
          sink.add(Severity::kWarning, "timeout-unit", tp,
                   "timeout " + h.spec.timeout_text + " is " + std::to_string(h.spec.timeout_ms) +
                       " ms in Gemini CLI (milliseconds), not seconds",
                   "write " + std::to_string(static_cast<long long>(h.spec.timeout_ms) * 1000) +
                       " for " + std::to_string(h.spec.timeout_ms) + " seconds");
      }
      check_adapter(sink, h.pointer + "/command", Host::kGemini, event, h.spec.command);
      check_command(sink, h.pointer + "/command", h.spec.command, cc, false, "");
    }
  }
  // hooksConfig.disabled (§1.3): hooks listed by name (or command when unnamed) never run.
  if (const ojson* dis = at_pointer(root, "/hooksConfig/disabled"); dis && dis->is_array()) {
    for (const auto& [event, hooks] : res.by_event)
      for (const auto& h : hooks) {
        const std::string shown = h.spec.name.empty() ? h.spec.command : h.spec.name;
        for (const auto& d : *dis)
          if (d.is_string() && d.get<std::string>() == shown) {
            sink.add(Severity::kWarning, "hook-disabled", h.pointer,
                     "'" + shown + "' is listed in hooksConfig.disabled: Gemini CLI never runs it",
                     "remove it from hooksConfig.disabled to turn it on");
            break;
          }
      }
  }
  // Layers: trust, hooks switched off, duplicates across user + project.
  if (!layer.extension) {
    auto enabled = at_pointer(root, "/hooksConfig/enabled");
    if (enabled && enabled->is_boolean() && !enabled->get<bool>() && root.contains("hooks"))
      sink.add(Severity::kWarning, "file-not-read", "/hooksConfig/enabled",
               "hooksConfig.enabled is false: Gemini CLI runs no hook at all",
               "remove it or set it to true");
  }
  // Settings hooks of every layer load only in a trusted folder (§1.2 step 7): a project file's
  // own folder, or the --workspace a user file is checked against.
  if ((layer.layer == "project" || layer.layer == "user") && !layer.workspace.empty() &&
      !res.by_event.empty()) {
    gem::LoadOptions lo;
    lo.home = home;
    lo.workspace = layer.workspace;
    lo.headless = false;
    if (!o.env.empty()) lo.cli_env = o.env;
    auto all = gem::load_hooks(lo);
    if (!all.fatal_exit && !all.trusted && all.folder_trust_enabled)
      sink.add(Severity::kWarning, "file-not-read", "/hooks",
               "folder " + layer.workspace +
                   " is not trusted: Gemini CLI loads no settings hooks there, this file's "
                   "included (headless runs exit 55)",
               "trust the folder (interactive /permissions, ~/.gemini/trustedFolders.json) or "
               "set GEMINI_CLI_TRUST_WORKSPACE=true");
  }
  std::string other;
  if (layer.layer == "project") other = home + "/.gemini/settings.json";
  if (layer.layer == "user" && !layer.workspace.empty() && !same_file(layer.workspace, home))
    other = layer.workspace + "/.gemini/settings.json";
  if (!other.empty()) {
    if (auto t = pinta::fs::read_file(other)) {
      auto ores = gem::load_hooks_file(*t, other, false);
      auto oidx = PositionIndex::build(*t);
      for (const auto& [event, hooks] : res.by_event)
        for (const auto& h : hooks) {
          auto oe = ores.by_event.find(event);
          if (oe == ores.by_event.end()) continue;
          for (const auto& x : oe->second) {
            if (x.spec.command != h.spec.command) continue;
            // deduplicateHooks: same name:command runs once (§1.7).
            if (x.spec.name == h.spec.name) continue;
            auto pos = oidx.locate(x.pointer);
            sink.add(Severity::kWarning, "duplicate-registration", h.pointer,
                     "'" + h.spec.command + "' is also registered for " + event + " in " + other +
                         ":" + std::to_string(pos.line) +
                         " under another name: Gemini CLI runs it twice",
                     "keep one registration (user or project), or give both the same name");
            break;
          }
        }
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Antigravity (every profile)

const MatcherContext& agy_matchers(bool searched) {
  static const auto make = [](bool s) {
    MatcherContext m;
    m.host = "Antigravity";
    m.searched = s;
    m.backtracking = false;  // RE2 (§4): linear time
    m.tools = {"run_command",
               "view_file",
               "write_to_file",
               "edit_file",
               "replace_file_content",
               "multi_replace_file_content",
               "list_dir",
               "find_by_name",
               "grep_search",
               "codebase_search",
               "read_url_content",
               "search_web",
               "ask_permission",
               "call_mcp_tool"};
    m.claude_names = {
        {"Bash", "run_command"}, {"Write", "write_to_file"},       {"Edit", "replace_file_content"},
        {"Read", "view_file"},   {"Grep", "grep_search"},          {"Glob", "find_by_name"},
        {"LS", "list_dir"},      {"WebFetch", "read_url_content"}, {"WebSearch", "search_web"}};
    return m;
  };
  static const MatcherContext searched_ctx = make(true), anchored_ctx = make(false);
  return searched ? searched_ctx : anchored_ctx;
}

// Which profiles read a file at this place (reference §1.1).
struct AgyPlace {
  std::string layer;  // user | project | plugin | legacy | ide | not-read
  std::string why_not;
  std::string workspace;
};
AgyPlace agy_place(const std::string& path, const LintOptions& o) {
  std::string p = normalize(path);
  std::string home = home_of(o);
  AgyPlace a;
  if (same_file(p, home + "/.gemini/config/hooks.json")) {
    a.layer = "user";
    if (!o.workspace.empty()) a.workspace = normalize(o.workspace);
  } else if (ends_with(p, "/.agents/hooks.json")) {
    a.layer = "project";
    a.workspace = dir_of(dir_of(p));
  } else if (p.find("/plugins/") != std::string::npos &&
             (p.find("/.gemini/config/plugins/") != std::string::npos ||
              p.find("/.agents/plugins/") != std::string::npos)) {
    a.layer = "plugin";
  } else if (ends_with(p, "/.gemini/antigravity-cli/hooks.json")) {
    a.layer = "legacy";
  } else if (ends_with(p, "/.gemini/antigravity-ide/hooks.json")) {
    a.layer = "ide";
  } else if (ends_with(p, "/.agent/hooks.json")) {
    a.layer = "not-read";
    a.why_not = "agy reads .agents/hooks.json (with an s), not .agent/hooks.json";
  } else if (ends_with(p, "/.antigravitycli/hooks.json") || ends_with(p, "/.gemini/hooks.json")) {
    a.layer = "not-read";
    a.why_not = "no measured agy build reads this path (one third-party claim only)";
  } else {
    a.layer = "other";
  }
  return a;
}

// Erases the object member holding `pointer` (the member itself, else its nearest ancestor that is
// an object member). False when there is none (the root itself is at fault).
bool cut_member(ojson& root, std::string pointer) {
  while (!pointer.empty()) {
    std::string parent = parent_pointer(pointer);
    auto* holder = const_cast<ojson*>(at_pointer(root, parent));
    std::string key = unescape_token(pointer.substr(pointer.rfind('/') + 1));
    if (holder && holder->is_object() && holder->contains(key)) {
      holder->erase(key);
      return true;
    }
    pointer = parent;
  }
  return false;
}

bool profile_reads(const agy::Profile& p, const std::string& layer) {
  if (layer == "user") return p.read_global_config;
  if (layer == "project") return p.read_workspace_agents;
  if (layer == "plugin") return p.read_plugin_roots;
  if (layer == "legacy") return p.read_legacy_cli;
  if (layer == "ide") return p.read_ide_root;
  return layer == "other";
}

Status lint_antigravity(const std::string& path, const std::string& text, const LintOptions& o,
                        Sink& sink) {
  auto all =
      agy::load_profiles(o.profiles_dir.empty() ? agy::default_profile_dir() : o.profiles_dir);
  if (!all) return all.error();
  std::vector<const agy::Profile*> profs;
  for (const auto& n : o.profiles) {
    auto* p = agy::find_profile(*all, n);
    if (!p)
      return make_error(ErrorCode::kInvalidArgument, "unknown Antigravity profile '" + n + "'");
    profs.push_back(p);
  }
  if (profs.empty())
    for (const auto& p : *all) profs.push_back(&p);
  const std::string home = home_of(o);
  const AgyPlace place = agy_place(path, o);

  // Findings per profile, merged: the same finding from every profile is reported once; one from
  // only some says which.
  struct Key {
    std::string rule, pointer, message;
    bool operator<(const Key& k) const {
      return std::tie(rule, pointer, message) < std::tie(k.rule, k.pointer, k.message);
    }
  };
  std::map<Key, std::pair<Finding, std::vector<std::string>>> merged;
  std::vector<Key> order;
  auto collect = [&](Sink& s, const std::string& profile) {
    for (auto& f : s.out) {
      Key k{f.rule, std::to_string(f.pos.line) + ":" + std::to_string(f.pos.col), f.message};
      auto it = merged.find(k);
      if (it == merged.end()) {
        merged[k] = {f, {profile}};
        order.push_back(k);
      } else {
        it->second.second.push_back(profile);
        if (f.severity == Severity::kError) it->second.first.severity = Severity::kError;
      }
    }
  };

  if (place.layer == "not-read")
    sink.add(Severity::kWarning, "file-not-read", "",
             "Antigravity does not read this file: " + place.why_not,
             "move it to ~/.gemini/config/hooks.json or <workspace>/.agents/hooks.json");

  ojson root = ojson::parse(text, nullptr, false, false);
  if (root.is_discarded()) {
    Position pos{1, 1};
    std::string detail = "invalid JSON";
    syntax_error(text, false, pos, detail);
    sink.out.push_back({path, pos, Severity::kError, "json-syntax",
                        "Antigravity drops every hook in this file: " + detail,
                        "agy reads strict JSON: no comments, no trailing commas"});
    return {};
  }
  if (root.is_object()) {
    for (auto it = root.begin(); it != root.end(); ++it) {
      std::string k = it.key();
      if (ascii_lower(k) == "hooks" && it.value().is_object())
        sink.add_at_key(
            Severity::kWarning, "foreign-root", "/" + pointer_token(k),
            "Claude-style {\"hooks\": {...}} root: agy reads \"hooks\" as the name of one hook; "
            "it loads only while every event inside is in agy's shape, and any non-object value "
            "next to it drops the whole file",
            "name the hook instead: {\"my-hook\": {\"PreToolUse\": [...], \"Stop\": [...]}}");
    }
  }

  CommandContext cc;
  cc.home = home;
  cc.path_env = env_or(o, "PATH");
  for (const agy::Profile* p : profs) {
    Sink s{path, sink.index, {}};
    if (!profile_reads(*p, place.layer) && place.layer != "not-read")
      s.add(Severity::kWarning, "file-not-read", "",
            "this profile does not read hooks from here (" + place.layer + " root)",
            "use ~/.gemini/config/hooks.json (read by every profile)");
    std::string err_ptr;
    auto hf = agy::parse_hooks_json(text, *p, path, &err_ptr);
    // agy rejects the whole file at its first bad value. Lint reports it, takes the member holding
    // that value out of a working copy and reads the rest, so one run lists every problem (each
    // rejection, then the findings in what remains). Members only: array indices, and so every
    // pointer into the user's text, stay as they were.
    ojson work = root;
    for (int round = 0; !hf && round < 64; ++round) {
      std::string top = err_ptr.empty() ? "" : err_ptr.substr(1, err_ptr.find('/', 1) - 1);
      bool event_at_root =
          !top.empty() && err_ptr.find('/', 1) == std::string::npos && any_host_event(top);
      if (event_at_root)
        s.add(Severity::kError, "foreign-root", err_ptr,
              "'" + top +
                  "' is at the root, where agy expects hook names: the whole file is "
                  "dropped (" +
                  hf.error().message + ")",
              "wrap the events in a named hook: {\"my-hook\": {\"" + top + "\": [...]}}");
      else
        s.add(Severity::kError, "file-rejected", err_ptr,
              "agy drops every hook in this file: " + hf.error().message,
              "fix this value; one bad value rejects the whole file");
      if (!cut_member(work, err_ptr)) break;
      hf = agy::parse_hooks_json(work.dump(), *p, path, &err_ptr);
    }
    if (!hf) {
      collect(s, p->name);
      continue;
    }
    cc.cwd = p->cwd == "hooks-dir"      ? dir_of(normalize(path))
             : !place.workspace.empty() ? place.workspace
                                        : home;
    for (const auto& n : hf->notes) {
      if (n.kind == "unknown-event") {
        std::string k = n.pointer.substr(n.pointer.rfind('/') + 1);
        std::vector<std::string> names;
        for (auto e : agy::all_events())
          if (e != agy::Event::kSessionStart || p->session_start)
            names.push_back(agy::event_name(e));
        s.add_at_key(Severity::kWarning, any_host_event(k) ? "unknown-event" : "unknown-key",
                     n.pointer, "agy drops '" + k + "' in hook '" + n.hook + "'",
                     suggest_event(k, names, agy_foreign_events()));
      } else if (n.kind == "unknown-key") {
        std::string k = n.pointer.substr(n.pointer.rfind('/') + 1);
        s.add_at_key(Severity::kWarning, "unknown-key", n.pointer, "agy ignores key '" + k + "'",
                     "handler keys: type, command, timeout (seconds); group keys: matcher, hooks");
      } else if (n.kind == "wrapped-lifecycle") {
        s.add(Severity::kError, "event-shape", n.pointer,
              "lifecycle event written like a tool event ({matcher, hooks}): agy reads the entry "
              "as a handler without a command and runs nothing",
              "write it flat: [{\"type\": \"command\", \"command\": \"...\"}]");
      } else if (n.kind == "flat-tool-event") {
        s.add(Severity::kError, "event-shape", n.pointer,
              "tool event written flat: agy reads the entry as a group with no hooks and runs "
              "nothing",
              "wrap it: [{\"matcher\": \"*\", \"hooks\": [{\"type\": \"command\", \"command\": "
              "\"...\"}]}]");
      } else if (n.kind == "commandless") {
        s.add(Severity::kError, "invalid-handler", n.pointer,
              "command hook without a command: loads and runs nothing", "add \"command\": \"...\"");
      } else if (n.kind == "invalid-matcher") {
        s.add(Severity::kError, "matcher-invalid", n.pointer,
              "matcher is not a valid RE2 pattern: this profile then " +
                  std::string(p->invalid_matcher == "match-all" ? "runs the hook for every tool"
                                                                : "never runs the hook"),
              "fix the pattern (RE2 syntax: no lookaround, no backreferences)");
      } else if (n.kind == "disabled") {
        s.add(Severity::kWarning, "hook-disabled", n.pointer,
              "hook '" + n.hook + "' has enabled: false: none of its handlers run",
              "remove \"enabled\": false to turn it on");
      }
    }
    for (const auto& nh : hf->hooks) {
      if (!nh.enabled) continue;
      for (const auto& e : nh.events) {
        for (const auto& g : e.groups) {
          if (agy::is_tool_event(e.event) && agy::matcher_valid(g.matcher))
            check_matcher_shape(s, g.pointer + "/matcher", g.matcher,
                                agy_matchers(!p->matcher_anchored));
          for (const auto& h : g.hooks) {
            if (h.type != "command" || h.command.empty()) continue;
            const std::string tp = h.pointer + "/timeout";
            if (h.timeout_written >= 1000)
              s.add(Severity::kWarning, "timeout-unit", tp,
                    "timeout " + std::to_string(h.timeout_written) + " is seconds in agy (" +
                        human_duration_ms(static_cast<double>(h.timeout_written) * 1000) +
                        "), not milliseconds",
                    "write " + std::to_string(h.timeout_written / 1000) + " for " +
                        std::to_string(h.timeout_written) + " ms");
            // (`work`: a value lint cut out to read past a rejection is not the user's 0.)
            else if (h.timeout_written < 0 ||
                     (h.timeout_written == 0 && at_pointer(work, tp) != nullptr &&
                      !at_pointer(work, tp)->is_null()))
              s.add(Severity::kWarning, "timeout-unit", tp,
                    "timeout " + std::to_string(h.timeout_written) + " falls back to agy's " +
                        std::to_string(p->timeout_default_seconds) + " s default",
                    "write a positive number of seconds");
            const bool denies =
                e.event == agy::Event::kPreToolUse && p->pretooluse_empty_object == "deny";
            check_adapter(s, h.pointer + "/command", Host::kAntigravity, agy::event_name(e.event),
                          h.command);
            check_command(s, h.pointer + "/command", h.command, cc, denies,
                          "on PreToolUse agy reads an object without \"decision\" as a deny "
                          "(reference §6.2), so every matched tool call is blocked");
          }
        }
      }
    }
    // Duplicates across the user and project roots (both run: reference §1.2).
    std::string other;
    if (place.layer == "project") other = home + "/.gemini/config/hooks.json";
    if (place.layer == "user" && !place.workspace.empty())
      other = place.workspace + "/.agents/hooks.json";
    if (!other.empty() && profile_reads(*p, place.layer == "project" ? "user" : "project")) {
      if (auto t = pinta::fs::read_file(other)) {
        auto of = agy::parse_hooks_json(*t, *p, other);
        auto oidx = PositionIndex::build(*t);
        if (of)
          for (const auto& nh : hf->hooks)
            for (const auto& e : nh.events)
              for (const auto& g : e.groups)
                for (const auto& h : g.hooks) {
                  bool dup = false;
                  for (const auto& onh : of->hooks)
                    for (const auto& oe : onh.events)
                      for (const auto& og : oe.groups)
                        for (const auto& oh : og.hooks)
                          if (!dup && oe.event == e.event && oh.command == h.command &&
                              !h.command.empty()) {
                            dup = true;
                            s.add(Severity::kWarning, "duplicate-registration", h.pointer,
                                  "'" + h.command + "' is also registered for " +
                                      agy::event_name(e.event) + " in " + other + ":" +
                                      std::to_string(oidx.locate(oh.pointer).line) +
                                      ": agy merges both files and runs it twice",
                                  "keep one registration (global or workspace)");
                          }
                }
      }
    }
    collect(s, p->name);
  }
  for (const auto& k : order) {
    auto& [f, which] = merged[k];
    if (which.size() < profs.size()) {
      std::string list;
      for (const auto& w : which) list += (list.empty() ? "" : ", ") + w;
      f.message += " [profiles: " + list + "]";
    }
    sink.out.push_back(f);
  }
  return {};
}

// ------------------------------------------------------------------------------------------------
// deel-local-cli 1.17.1

void lint_deel(const std::string& path, const std::string& text, const LintOptions& o, Sink& sink) {
  const std::string home = home_of(o);
  const std::string p = normalize(path);
  std::string layer = "other", workspace;
  std::string deel_home = env_or(o, "DEEL_HOME");
  if (same_file(p, home + "/.deel/hooks.json") ||
      (!deel_home.empty() && same_file(p, normalize(deel_home) + "/hooks.json"))) {
    layer = "user";
    if (!o.workspace.empty()) workspace = normalize(o.workspace);
  } else if (ends_with(p, "/.deel/hooks.json")) {
    layer = "project";
    workspace = dir_of(dir_of(p));
  }
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
  auto f = deel::unfold(root, layer == "project" ? "프로젝트" : "이 PC");
  if (!(root.is_array() || root.is_object()))
    sink.add(Severity::kError, "foreign-root", "",
             "deel-local-cli reads an array of hooks or an object of events; this root holds "
             "neither, so nothing loads",
             "write {\"hooks\": {\"PreToolUse\": [{\"matcher\": \"*\", \"hooks\": [{\"command\": "
             "\"...\"}]}]}}");
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
    // "<event>: 명령이나 무늬가 잘못 적혀 있습니다": bad command, type or matcher (seed L271-276).
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
      continue;
    }
    const ojson* t = get(x, {"type"});
    if (t && !(t->is_string() && *t == "command") && !(t->is_boolean() && !t->get<bool>()) &&
        !(t->is_string() && t->get<std::string>().empty())) {
      sink.add(Severity::kError, "invalid-handler", at + "/type",
               "type " + t->dump() + ": deel-local-cli only runs command hooks and drops this one",
               "remove \"type\" or set it to \"command\"");
      continue;
    }
    sink.add(Severity::kError, "invalid-handler", at,
             "hook without a command: deel-local-cli drops it",
             "add \"command\": \"...\" (or \"명령\")");
  }
  static const std::set<std::string> kKeys = {
      "명령", "command", "type", "제한초", "timeout", "고장나면", "onError", "이름",
      "name", "때",      "자리", "event",  "도구",    "matcher",  "hooks",   "description"};
  CommandContext cc;
  cc.home = home;
  cc.cwd = !workspace.empty() ? workspace : home;
  cc.path_env = env_or(o, "PATH");
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
      // seed L278, L286: String(고장나면 ?? onError ?? '').trim() must be exactly '지나가기' or
      // 'pass' for a failure to pass; any other value is read as "not written", and at a blocking
      // point (도구전, 말전: seed L187-189, L449-451) a failure then blocks.
      const char* ek = nullptr;
      for (const char* k : {"고장나면", "onError"})
        if (auto it = x->find(k); !ek && it != x->end() && !it->is_null()) ek = k;
      if (ek && !h.pass_on_failure) {
        const ojson& ev = (*x)[ek];
        std::string shown = ev.is_string() ? ev.get<std::string>() : ev.dump();
        const bool blocking = deel::is_blocking_event(h.event);
        sink.add(blocking ? Severity::kError : Severity::kWarning, "unknown-value",
                 h.pointer + "/" + pointer_token(ek),
                 std::string(ek) + " '" + shown + "' is not a value deel-local-cli knows" +
                     did_you_mean(shown, {"지나가기", "pass"}) +
                     ": it reads it as not written, so " +
                     (blocking ? "a failure of this hook (a crash, a missing program, a non-zero "
                                 "exit other than 2) blocks every " +
                                     std::string(h.event == "도구전" ? "matched tool call"
                                                                     : "prompt") +
                                     " (it fails closed)"
                               : "nothing changes here (" + h.event + " does not block)"),
                 std::string("write \"") + ek + "\": \"" +
                     (std::string(ek) == "onError" ? "pass" : "지나가기") +
                     "\" to let failures pass, or remove it to fail closed on purpose");
      }
      // seed L277, L284: seconds, capped at 120 s; non-positive → 15 s default.
      const char* tk = x->contains("제한초") ? "제한초" : "timeout";
      if (auto tv = x->find(tk); tv != x->end() && !tv->is_null()) {
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
      blocks = "deel-local-cli blocks every " +
               std::string(h.event == "도구전" ? "matched tool call" : "prompt") +
               " while this hook cannot run (add \"고장나면\": \"지나가기\" to let it pass)";
    check_adapter(sink, h.pointer, Host::kDeel, h.event, h.command);
    check_command(sink, h.pointer, h.command, cc, false, "", blocks);
  }
  if (layer == "project" && !f.hooks.empty() && o.deel_trusted != std::optional<bool>(true))
    sink.add(Severity::kWarning, "file-not-read", "",
             o.deel_trusted == std::optional<bool>(false)
                 ? "folder " + workspace + " is not trusted: deel-local-cli ignores this file"
                 : "deel-local-cli reads a project hooks file only in a folder you trusted "
                   "(its trust store is not modelled here, so this cannot be checked)",
             "trust the folder in deel-local-cli, or move the hooks to ~/.deel/hooks.json; pass "
             "--deel-trusted yes to silence this");
  // Duplicates: PC hooks then project hooks all run (seed L368).
  std::string other;
  if (layer == "project") other = home + "/.deel/hooks.json";
  if (layer == "user" && !workspace.empty()) other = workspace + "/.deel/hooks.json";
  if (!other.empty())
    if (auto t = pinta::fs::read_file(other))
      if (auto ov = node::js_parse(*t)) {
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
}

}  // namespace

Result<Host> detect_host(const std::string& path, const std::string& text) {
  std::string p = normalize(path);
  if (ends_with(p, "/.gemini/settings.json") ||
      (p.find("/.gemini/extensions/") != std::string::npos && ends_with(p, "/hooks/hooks.json")))
    return Host::kGemini;
  for (const char* s : {"/.gemini/config/hooks.json", "/.agents/hooks.json", "/.agent/hooks.json",
                        "/.gemini/antigravity-cli/hooks.json",
                        "/.gemini/antigravity-ide/hooks.json", "/.antigravitycli/hooks.json"})
    if (ends_with(p, s)) return Host::kAntigravity;
  if ((p.find("/.gemini/config/plugins/") != std::string::npos ||
       p.find("/.agents/plugins/") != std::string::npos) &&
      ends_with(p, "/hooks.json"))
    return Host::kAntigravity;
  if (ends_with(p, "/.deel/hooks.json")) return Host::kDeel;
  // Claude Code's settings files (docs "Configuration"; real: settings-all-sources).
  if (ends_with(p, "/.claude/settings.json") || ends_with(p, "/.claude/settings.local.json"))
    return Host::kClaude;
  // By shape.
  auto j = ojson::parse(text, nullptr, false, true);
  auto cannot = [&](const std::string& why) -> Result<Host> {
    return make_error(ErrorCode::kInvalidArgument,
                      path + ": cannot tell which host reads this file (" + why + "); pass --host " +
                          host_names());
  };
  if (j.is_discarded()) return cannot("not JSON, and not at a known hooks path");
  if (j.is_array()) return Host::kDeel;
  if (!j.is_object()) return cannot("not a JSON object");
  if (j.contains("hooks") && j["hooks"].is_array()) return Host::kDeel;
  if (j.contains("훅")) return Host::kDeel;
  if (j.contains("hooks") && j["hooks"].is_object()) {
    bool gemini = false, other = false;
    for (auto it = j["hooks"].begin(); it != j["hooks"].end(); ++it) {
      if (gem::is_event_name(it.key()))
        gemini = true;
      else
        other = true;
    }
    if (gemini && !other) return Host::kGemini;
    return cannot("a {\"hooks\": {...}} root with " +
                  std::string(gemini ? "mixed" : "Claude-style") +
                  " event names is read by several hosts");
  }
  bool named = !j.empty();
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!it.value().is_object()) {
      named = false;
      break;
    }
    bool has_event = false;
    for (auto e = it.value().begin(); e != it.value().end(); ++e)
      if (agy::parse_event(e.key()) || ascii_lower(e.key()) == "enabled" || any_host_event(e.key()))
        has_event = true;
    if (!has_event) named = false;
  }
  if (named) return Host::kAntigravity;
  return cannot("not at a known hooks path and no host's shape");
}

Result<std::vector<Finding>> lint_text(const std::string& path, const std::string& text,
                                       const LintOptions& options) {
  Host host;
  if (options.host) {
    host = *options.host;
  } else {
    auto h = detect_host(path, text);
    if (!h) return h.error();
    host = *h;
  }
  const PositionIndex index = PositionIndex::build(text);
  Sink sink{path, &index, {}};
  switch (host) {
    case Host::kGemini:
      lint_gemini(path, text, options, sink);
      break;
    case Host::kAntigravity:
      if (auto r = lint_antigravity(path, text, options, sink); !r) return r.error();
      break;
    case Host::kDeel:
      lint_deel(path, text, options, sink);
      break;
    case Host::kClaude:
      lint_claude(path, text, options, sink);
      break;
  }
  std::stable_sort(sink.out.begin(), sink.out.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.pos.line, a.pos.col) < std::tie(b.pos.line, b.pos.col);
  });
  return sink.out;
}

Result<std::vector<Finding>> lint_paths(const std::vector<std::string>& paths,
                                        const LintOptions& options) {
  std::vector<Finding> all;
  for (const auto& p : paths) {
    std::error_code ec;
    if (sfs::is_directory(p, ec))
      return make_error(ErrorCode::kInvalidArgument, p + ": is a directory, not a hooks file");
    auto text = pinta::fs::read_file(p);
    if (!text) return make_error(text.error().code, p + ": " + text.error().message);
    auto f = lint_text(p, *text, options);
    if (!f) return f.error();
    all.insert(all.end(), f->begin(), f->end());
  }
  return all;
}

}  // namespace pinta::hostlint
