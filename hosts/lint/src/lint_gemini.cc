// `hostemu lint` for Gemini CLI 0.61 settings.json and extension hooks.json files: the findings
// of its loader (gemini::load_hooks_file), positioned, and the checks the loader does not make
// (timeout units, matcher shape, commands, layers, trust, duplicates across layers).
#include <set>

#include "common.h"
#include "pinta/common/fs.h"
#include "pinta/hosts/gemini/gemini.h"
#include "pinta/hosts/node/js_regex.h"

namespace pinta::hostlint::detail {
namespace {

namespace gem = pinta::hosts::gemini;

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

// The file could not be read at all: the CLI exits (settings) or skips the extension.
void gemini_rejected(const std::string& path, const std::string& text, const GeminiLayer& layer,
                     const gem::LoadResult& res, Sink& sink) {
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
}

// The file's JSON as the loader read it (extension: JSON.parse; settings: comments allowed).
ojson gemini_root(const std::string& text, const GeminiLayer& layer) {
  auto parsed = layer.extension ? gem::js_parse(text) : std::nullopt;
  ojson root;
  if (layer.extension) {
    root = parsed ? *parsed : ojson();
  } else {
    // Same comment handling as the loader: nlohmann's comment skipping.
    root = ojson::parse(text, nullptr, false, true);
  }
  return root;
}

// Events written at the root instead of under "hooks" (Claude/agy habits).
void gemini_root_events(const ojson& root, Sink& sink) {
  if (!root.is_object()) return;
  for (auto it = root.begin(); it != root.end(); ++it)
    if (it.key() != "hooks" && any_host_event(it.key()))
      sink.add_at_key(Severity::kError, "foreign-root", "/" + pointer_token(it.key()),
                      "'" + it.key() +
                          "' is at the root: Gemini CLI reads hooks only from the \"hooks\" "
                          "object, so this is ignored",
                      "move it into \"hooks\": {\"" + it.key() + "\": [...]}");
}

// The hooks the lint checks and the loader's issues with them.
struct GeminiChecked {
  std::map<std::string, std::vector<gem::LoadedHook>> by_event;
  std::vector<gem::LoadIssue> issues;
};

// Hooks under an event name Gemini CLI does not know are skipped with it, unread. They are
// still checked here, as the event the name is nearest to (else BeforeTool), so that fixing the
// name does not reveal a second round of findings.
GeminiChecked gemini_checked_hooks(const ojson& root, const std::string& path,
                                   const gem::LoadResult& res) {
  GeminiChecked c{res.by_event, res.issues};
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
      c.issues.push_back(x);
    }
    for (const auto& [e, hooks] : sub.by_event)
      for (auto h : hooks) {
        h.pointer = moved(h.pointer);
        if (!h.matcher_pointer.empty()) h.matcher_pointer = moved(h.matcher_pointer);
        c.by_event["'" + key + "'"].push_back(h);
      }
  }
  return c;
}

// What the loader discarded, and why (its issues, positioned).
void gemini_issue_findings(const ojson& root, const std::vector<gem::LoadIssue>& issues,
                           Sink& sink) {
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
}

// Where and how the CLI runs this file's commands.
CommandContext gemini_command_context(const std::string& path, const LintOptions& o,
                                      const GeminiLayer& layer, const std::string& home) {
  CommandContext cc;
  cc.home = home;
  cc.cwd = !layer.workspace.empty() ? layer.workspace : home;  // the CLI's cwd (§4.1)
  cc.path_env = env_or(o, "PATH");
  if (layer.extension) cc.vars["${extensionPath}"] = dir_of(dir_of(normalize(path)));
  for (const char* v : {"$GEMINI_PROJECT_DIR", "${GEMINI_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR",
                        "${CLAUDE_PROJECT_DIR}", "$GEMINI_CWD", "${GEMINI_CWD}"})
    cc.vars[v] = cc.cwd;  // expandCommand (§4.3)
  return cc;
}

// A hook's definition (checked once per definition): its unknown keys and its matcher.
void gemini_definition_findings(const ojson& root, const std::string& dp,
                                const std::string& event, const gem::LoadedHook& h, Sink& sink) {
  static const std::set<std::string> kDefKeys = {"matcher", "sequential", "hooks"};
  static const std::vector<std::string> kDefKeyList(kDefKeys.begin(), kDefKeys.end());
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
void gemini_timeout_findings(const ojson& root, const gem::LoadedHook& h, Sink& sink) {
  if (h.spec.timeout_text.empty()) return;
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

// Each checked hook: its unknown keys, its definition (once), its timeout, its command.
void gemini_hook_findings(const ojson& root, const GeminiChecked& checked,
                          const CommandContext& cc, Sink& sink) {
  static const std::set<std::string> kHookKeys = {"type",    "command",     "name",
                                                  "timeout", "description", "env"};
  static const std::vector<std::string> kHookKeyList(kHookKeys.begin(), kHookKeys.end());
  std::set<std::string> seen_defs;
  for (const auto& [event, hooks] : checked.by_event) {
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
      if (seen_defs.insert(dp).second) gemini_definition_findings(root, dp, event, h, sink);
      gemini_timeout_findings(root, h, sink);
      check_adapter(sink, h.pointer + "/command", Host::kGemini, event, h.spec.command);
      check_command(sink, h.pointer + "/command", h.spec.command, cc, false, "");
    }
  }
}

// hooksConfig.disabled (§1.3): hooks listed by name (or command when unnamed) never run.
void gemini_disabled_findings(const ojson& root, const gem::LoadResult& res, Sink& sink) {
  const ojson* dis = at_pointer(root, "/hooksConfig/disabled");
  if (!dis || !dis->is_array()) return;
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

// Layers: hooks switched off, and trust.
void gemini_layer_findings(const ojson& root, const GeminiLayer& layer, const LintOptions& o,
                           const std::string& home, const gem::LoadResult& res, Sink& sink) {
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
}

// Duplicates across user + project: the same command under another name runs twice.
void gemini_duplicate_findings(const GeminiLayer& layer, const std::string& home,
                               const gem::LoadResult& res, Sink& sink) {
  std::string other;
  if (layer.layer == "project") other = home + "/.gemini/settings.json";
  if (layer.layer == "user" && !layer.workspace.empty() && !same_file(layer.workspace, home))
    other = layer.workspace + "/.gemini/settings.json";
  if (other.empty()) return;
  auto t = pinta::fs::read_file(other);
  if (!t) return;
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

// settings.json in ~/.gemini/ or a project's .gemini/, and an extension's hooks/hooks.json.
const PathDetector kDetector(Host::kGemini, [](const std::string& p) {
  return ends_with(p, "/.gemini/settings.json") ||
         (p.find("/.gemini/extensions/") != std::string::npos && ends_with(p, "/hooks/hooks.json"));
});
// A {"hooks": {...}} root whose event names are all Gemini CLI's; some of them: a mixed file.
const ShapeDetector kShape(Host::kGemini, 1, [](const ojson& j) {
  if (!j.is_object() || !j.contains("hooks") || !j["hooks"].is_object()) return ShapeMatch::kNo;
  bool gemini = false, other = false;
  for (auto it = j["hooks"].begin(); it != j["hooks"].end(); ++it) {
    if (gem::is_event_name(it.key()))
      gemini = true;
    else
      other = true;
  }
  return !gemini ? ShapeMatch::kNo : other ? ShapeMatch::kSome : ShapeMatch::kYes;
});

}  // namespace

void lint_gemini_file(const std::string& path, const std::string& text, const LintOptions& o,
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
    gemini_rejected(path, text, layer, res, sink);
    return;
  }
  const ojson root = gemini_root(text, layer);
  gemini_root_events(root, sink);
  const GeminiChecked checked = gemini_checked_hooks(root, path, res);
  gemini_issue_findings(root, checked.issues, sink);
  gemini_hook_findings(root, checked, gemini_command_context(path, o, layer, home), sink);
  gemini_disabled_findings(root, res, sink);
  gemini_layer_findings(root, layer, o, home, res, sink);
  gemini_duplicate_findings(layer, home, res, sink);
}


// ---- explain: the hooks that fire for one event, in run order (hostemu explain) ----------

namespace {

// Gemini CLI 0.61 failure handling (reference §4.4-§4.6, §6).
std::string gemini_on_failure(const std::string& event) {
  bool ignored = event == "SessionStart" || event == "SessionEnd" || event == "PreCompress" ||
                 event == "Notification";
  if (ignored)
    return "fail-open: the output's decision is ignored for " + event +
           "; a failure (non-zero exit, timeout) is only warned about";
  return "JSON on stdout decides whatever the exit code; plain text: exit 0 allow, exit 1 allow "
         "with a warning, exit >=2 (also 127 command not found) deny with the text as reason; "
         "timeout or signal with no output: fail-open (warning only)";
}

std::string gemini_layer_of(const std::string& origin, const gem::LoadOptions& lo) {
  std::string p = normalize(origin);
  if (p == normalize(lo.home + "/.gemini/settings.json")) return "user";
  if (p == normalize(lo.workspace + "/.gemini/settings.json")) return "project";
  if (p.find("/.gemini/extensions/") != std::string::npos) return "extension";
  if (ends_with(p, "system-defaults.json")) return "system-defaults";
  return "system";
}

// Gemini CLI: what the loader discarded for the event, or hooksConfig.disabled lists.
void gemini_dropped(const ExplainRequest& rq, const gem::LoadResult& loaded, Locator& loc,
                    ExplainSection& s) {
  // Written for this event but discarded at load, or listed in hooksConfig.disabled.
  for (const auto& is : loaded.issues) {
    if (is.pointer.find("/" + rq.event + "/") == std::string::npos) continue;
    s.dropped.push_back(loc.where(is.origin, is.pointer) + is.message);
  }
  if (auto it = loaded.by_event.find(rq.event); it != loaded.by_event.end())
    for (const auto& h : it->second)
      if (!h.enabled)
        s.dropped.push_back(loc.where(h.origin, h.pointer) + "'" +
                            (h.spec.name.empty() ? h.spec.command : h.spec.name) +
                            "' is listed in hooksConfig.disabled");
}

}  // namespace


// Gemini CLI: the settings and extensions loaded as for the workspace, and the event's plan.
Result<std::vector<ExplainSection>> explain_gemini(const ExplainRequest& rq,
                                                   const LintOptions& options, Locator& loc) {
  std::vector<ExplainSection> out;
  if (!gem::is_event_name(rq.event)) return bad_request("unknown Gemini CLI event '" + rq.event + "'");
  bool tool_event = rq.event == "BeforeTool" || rq.event == "AfterTool";
  if (!rq.tool.empty() && !tool_event) return bad_request("--tool only applies to BeforeTool/AfterTool");
  gem::LoadOptions lo;
  lo.home = rq.home;
  lo.workspace = rq.workspace.empty() ? rq.home : rq.workspace;
  lo.headless = false;
  if (!options.env.empty()) lo.cli_env = options.env;
  auto loaded = gem::load_hooks(lo);
  ExplainSection s;
  s.host = "gemini-cli " + std::string(gem::kHostVersion);
  if (loaded.fatal_exit) {
    s.notes.push_back("Gemini CLI would not start (exit " + std::to_string(*loaded.fatal_exit) +
                      "): " + loaded.fatal_message);
    out.push_back(s);
    return out;
  }
  if (!loaded.hooks_enabled) s.notes.push_back("hooksConfig.enabled is false: no hook runs");
  if (!loaded.trusted)
    s.notes.push_back("the workspace is not trusted: settings hooks are not loaded");
  gem::PlanContext ctx;
  if (!rq.tool.empty()) ctx.tool_name = rq.tool;
  auto plan = gem::plan_event(loaded, rq.event, ctx);
  if (plan.error) s.notes.push_back("every " + rq.event + " hook is skipped: " + *plan.error);
  gemini_dropped(rq, loaded, loc, s);
  if (plan.hooks.size() > 1)
    s.notes.push_back(plan.sequential ? "run one after another (sequential)"
                                      : "run in parallel; outputs merged in this order");
  int n = 0;
  for (const auto& h : plan.hooks) {
    ExplainedHook e;
    e.order = ++n;
    e.layer = gemini_layer_of(h.origin, lo);
    e.file = h.origin;
    e.pos = loc.at(h.origin, h.pointer);
    e.command = h.spec.command;
    e.name = h.spec.name;
    e.matcher = h.has_matcher ? h.matcher : "";
    e.timeout = fmt_ms(h.spec.timeout_ms);
    e.on_failure = gemini_on_failure(rq.event);
    s.hooks.push_back(e);
  }
  out.push_back(s);
  return out;
}

Status lint_gemini(const std::string& path, const std::string& text, const LintOptions& o,
                   Sink& sink) {
  lint_gemini_file(path, text, o, sink);
  return {};
}

}  // namespace pinta::hostlint::detail
