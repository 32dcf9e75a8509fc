// `hostemu lint` and `hostemu explain` for Claude Code 2.1.332 settings files
// (~/.claude/settings.json, <project>/.claude/settings.json, <project>/.claude/settings.local.json).
// What the host does with a file comes from hosts/claude (its event list, matcher semantics,
// settings precedence, loader and planner: the code `hostemu claude run` runs); this file walks the
// file's JSON to position what that loader skips or reads differently and adds the checks a loader
// has no reason to make (timeout units, matcher targets, commands, our adapter's --agent).
// Evidence, one per rule: "real: <scenario>" = a scenario of the claude real-diff lane
// (emulator/hosts/claude/test/scenarios/, run on the real 2.1.332 binary and the emulator with no
// difference; docs/hosts/claude-code-2.1.md); "docs" = the public hooks reference
// (https://code.claude.com/docs/en/hooks); "CC" = shared/reference/real-hosts.md, section
// "Claude Code 2.1.332".
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>

#include "common.h"
#include "pinta/common/fs.h"
#include "pinta/common/text.h"
#include "pinta/hosts/claude/claude.h"
#include "pinta/hosts/family.h"
#include "pinta/hosts/node/js_regex.h"

namespace pinta::hostlint::detail {
namespace {

namespace cc = pinta::hosts::claude;
namespace sfs = std::filesystem;

// Claude Code's own tool names: the twelve 2.1.332 offers the model in print mode (real: the
// lane's API requests carry Agent, Bash, Edit, ListAgents, Read, ReportFindings, ScheduleWakeup,
// Skill, ToolSearch, Workflow, Write and a placeholder for deferred tools) and the ones the public
// settings reference names (docs "Tools available to Claude"), which ToolSearch can load.
// Matching is exact and case-sensitive (real: matchers, "bash" does not match Bash).
const std::vector<std::string>& claude_tools() {
  static const std::vector<std::string> k = {
      "Agent",      "Bash",        "Edit",         "ListAgents", "Read",       "ReportFindings",
      "ScheduleWakeup", "Skill",   "ToolSearch",   "Workflow",   "Write",      "BashOutput",
      "ExitPlanMode", "Glob",      "Grep",         "KillShell",  "MultiEdit",  "NotebookEdit",
      "SlashCommand", "Task",      "TodoWrite",    "WebFetch",   "WebSearch"};
  return k;
}

// The other hosts' tool names with Claude Code's equivalent (a matcher copied from a Gemini CLI,
// Antigravity or deel-local-cli file never matches here).
const std::map<std::string, std::string>& foreign_tools() {
  static const std::map<std::string, std::string> k = {
      {"run_shell_command", "Bash"}, {"run_command", "Bash"},   {"write_file", "Write"},
      {"replace", "Edit"},           {"read_file", "Read"},     {"search_file_content", "Grep"},
      {"glob", "Glob"},              {"web_fetch", "WebFetch"},
      {"google_web_search", "WebSearch"}};
  return k;
}

// The values an event's matcher target takes, where the reference lists them all (docs
// "SessionStart", "SessionEnd", "PreCompact"; real: events-order sends source "startup" and reason
// "other"). Events not listed here take open-ended targets (tool names, MCP servers, agent types).
const std::vector<std::string>* target_values(const std::string& event) {
  static const std::vector<std::string> session_start = {"startup", "resume", "clear", "compact"};
  static const std::vector<std::string> session_end = {
      "clear", "resume", "logout", "prompt_input_exit", "bypass_permissions_disabled", "other"};
  static const std::vector<std::string> compact = {"manual", "auto"};
  if (event == "SessionStart") return &session_start;
  if (event == "SessionEnd") return &session_end;
  if (event == "PreCompact" || event == "PostCompact") return &compact;
  return nullptr;
}

bool is_tool_target(const std::string& event) {
  return event == "PreToolUse" || event == "PostToolUse" || event == "PostToolUseFailure" ||
         event == "PermissionRequest" || event == "PermissionDenied" ||
         event == "PreSkillShellCommand";
}

// Event names of the other hosts, with Claude Code's equivalent ("" = none).
const std::map<std::string, std::string>& foreign_events() {
  static const std::map<std::string, std::string> m = {{"BeforeTool", "PreToolUse"},
                                                       {"AfterTool", "PostToolUse"},
                                                       {"BeforeAgent", "UserPromptSubmit"},
                                                       {"AfterAgent", "Stop"},
                                                       {"PreInvocation", "UserPromptSubmit"},
                                                       {"PostInvocation", "Stop"},
                                                       {"PreCompress", "PreCompact"},
                                                       {"BeforeModel", ""},
                                                       {"AfterModel", ""},
                                                       {"도구전", "PreToolUse"},
                                                       {"도구후", "PostToolUse"},
                                                       {"말전", "UserPromptSubmit"},
                                                       {"턴끝", "Stop"}};
  return m;
}

std::string num_text(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

// One name of a plain-list matcher.
void check_listed_name(Sink& sink, const std::string& ptr, const std::string& event,
                       const std::string& name) {
  if (name.empty()) return;
  if (name.find(' ') != std::string::npos) {
    // real: matchers — only | and , separate names ("Write, Bash" matches Bash);
    // matchers-never-bash — "Write Bash" does not.
    sink.add(Severity::kWarning, "matcher-never-matches", ptr,
             "'" + name + "' is one name to Claude Code: names are separated by | or , (a space "
                          "does not separate), so it never matches",
             "write the names with | between them, e.g. '" + name.substr(0, name.find(' ')) +
                 "|…'");
    return;
  }
  if (is_tool_target(event)) {
    const auto& tools = claude_tools();
    if (std::find(tools.begin(), tools.end(), name) != tools.end()) return;
    if (name.rfind("mcp__", 0) == 0) return;  // an MCP tool: its names are the server's
    if (auto f = foreign_tools().find(name); f != foreign_tools().end()) {
      sink.add(Severity::kWarning, "matcher-case", ptr,
               "'" + name + "' is another host's tool name; Claude Code calls it '" + f->second +
                   "', so this matcher never matches it",
               "write '" + f->second + "'");
      return;
    }
    for (const auto& t : tools)
      if (pinta::text::ascii_lower(t) == pinta::text::ascii_lower(name)) {
        // real: matchers — "bash" does not match Bash.
        sink.add(Severity::kWarning, "matcher-case", ptr,
                 "'" + name + "' differs from the tool name '" + t +
                     "' only in case; Claude Code compares names exactly and case-sensitively",
                 "write '" + t + "'");
        return;
      }
    for (const auto& t : tools)
      if (t.size() > name.size() && t.rfind(name, 0) == 0) {
        // real: matchers — a plain name is compared whole ("Ba" does not match Bash).
        sink.add(Severity::kWarning, "matcher-never-matches", ptr,
                 "'" + name + "' is compared with the whole tool name, not as a prefix: it does "
                              "not match '" + t + "'",
                 "write '" + t + "' or the regular expression '^" + name + "'");
        return;
      }
    if (auto c = closest_name(name, tools))
      sink.add(Severity::kWarning, "matcher-never-matches", ptr,
               "no Claude Code tool is called '" + name + "' (did you mean '" + *c + "'?)",
               "write '" + *c + "'");
    return;
  }
  if (const auto* values = target_values(event)) {
    if (std::find(values->begin(), values->end(), name) != values->end()) return;
    std::string list;
    for (const auto& v : *values) list += (list.empty() ? "" : ", ") + v;
    sink.add(Severity::kWarning, "matcher-never-matches", ptr,
             event + " matchers are compared with " +
                 (event == "SessionStart"  ? std::string("its source")
                  : event == "SessionEnd" ? std::string("its reason")
                                          : std::string("its trigger")) +
                 " (" + list + "); '" + name + "' is none of them" + did_you_mean(name, *values),
             "write one of: " + list);
  }
}

// A string matcher (one that is not a string rejects the file: hooks_schema_problems).
void check_matcher(Sink& sink, const std::string& ptr, const std::string& event,
                   const std::string& m) {
  if (m.empty() || m == "*") return;
  if (!cc::has_matcher_target(event)) {
    // real: ups-matcher-ignored — the matcher of an event without a target is ignored.
    sink.add(Severity::kWarning, "matcher-ignored", ptr,
             event + " has no matcher target: Claude Code ignores this matcher and runs the "
                     "hooks on every " + event,
             "remove \"matcher\" (or move the hook to an event that is matched, e.g. "
             "PreToolUse)");
    return;
  }
  // real: matchers — the same mode test as the emulator's (cc::matcher_names).
  if (auto names = cc::matcher_names(m)) {
    for (const auto& n : *names) check_listed_name(sink, ptr, event, n);
    return;
  }
  // real: matchers — anything else is an unanchored JavaScript regular expression; an invalid one
  // ("(Bash") matches nothing.
  std::string err;
  auto re = pinta::hosts::node::JsRegExp::compile_utf8(m, &err);
  if (!re) {
    sink.add(Severity::kError, "matcher-invalid", ptr,
             "matcher is not a valid regular expression (" + err +
                 "): Claude Code never runs these hooks",
             "fix the pattern, or write plain names separated by |");
    return;
  }
  if (catastrophic_pattern(m))
    sink.add(Severity::kWarning, "matcher-catastrophic", ptr,
             "matcher '" + m + "' nests quantifiers: Claude Code matches with a backtracking "
                               "JavaScript engine, so a long target can hang it",
             "drop the inner or outer quantifier (e.g. (a+)+ → a+)");
  if (!is_tool_target(event) || m.find("mcp") != std::string::npos) return;
  bool any = false;
  for (const auto& t : claude_tools()) any = any || re->test_utf8(t);
  if (any) return;
  // "Bash(git *)" is the permission-rule syntax; as a regular expression it needs "Bashgit"
  // (real: matchers-never-bash, Bash(echo *) does not run for Bash).
  const auto paren = m.find('(');
  const bool rule_syntax = paren != std::string::npos && paren > 0 && m.back() == ')' &&
                           std::all_of(m.begin(), m.begin() + static_cast<long>(paren),
                                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
  sink.add(Severity::kWarning, "matcher-never-matches", ptr,
           "regular expression '" + m + "' matches none of Claude Code's tool names" +
               (rule_syntax ? " ('" + m.substr(0, paren) +
                                  "(…)' is permission-rule syntax; a hook matcher sees only the "
                                  "tool name)"
                            : std::string()),
           rule_syntax ? "write '" + m.substr(0, paren) + "' and test the command inside the hook"
                       : "test it against the tool names (Bash, Write, Edit, …)");
}


// How to fix each kind of value that makes Claude Code reject a file's hooks.
std::string reject_hint(const std::string& kind, const std::string& pointer) {
  if (kind == "root-event")
    return "move it into \"hooks\": {\"" + pointer.substr(1) + "\": [...]}";
  if (kind == "disable") return "write true or false";
  if (kind == "group" || kind == "hooks")
    return "write {\"matcher\": \"...\", \"hooks\": [{\"type\": \"command\", \"command\": "
           "\"...\"}]}";
  if (kind == "matcher")
    return "write the names as one string, e.g. \"Write|Edit\" (or leave the matcher out to "
           "match everything)";
  if (kind == "handler") return "write {\"type\": \"command\", \"command\": \"...\"}";
  if (kind == "type") return "write \"type\": \"command\" (or prompt, agent, http)";
  if (kind == "command") return "write \"command\": \"...\" (a shell command line)";
  if (kind == "prompt") return "write \"prompt\": \"...\"";
  if (kind == "url") return "write \"url\": \"https://...\"";
  if (kind == "timeout")
    return "write a positive number of seconds, e.g. 30, or leave it out for the 600 s default";
  return "fix the value";
}

struct Layer {
  std::string name = "other";  // user | project | local | other
  std::string project;         // the project folder ("" unknown)
};

Layer layer_of(const std::string& path, const LintOptions& o, const std::string& home) {
  Layer l;
  const std::string p = normalize(path);
  if (ends_with(p, "/.claude/settings.json")) {
    const std::string root = dir_of(dir_of(p));
    if (root == home) {
      l.name = "user";
      if (!o.workspace.empty()) l.project = normalize(o.workspace);
    } else {
      l.name = "project";
      l.project = root;
    }
  } else if (ends_with(p, "/.claude/settings.local.json")) {
    l.name = "local";
    l.project = dir_of(dir_of(p));
  } else if (!o.workspace.empty()) {
    l.project = normalize(o.workspace);
  }
  return l;
}

// disableAllHooks of one settings file (nullopt: not written or unreadable).
std::optional<bool> disable_switch(const std::string& file) {
  auto t = pinta::fs::read_file(file);
  if (!t) return std::nullopt;
  auto j = nlohmann::json::parse(*t, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  auto it = j.find("disableAllHooks");
  if (it == j.end() || !it->is_boolean()) return std::nullopt;
  return it->get<bool>();
}


// real: settings-rejected-* — one value outside the settings schema and 2.1.332 runs none of
// the file's hooks (hosts/claude's loader does the same). Each value is reported; the walk
// below does not report them again.
void schema_findings(const std::string& text, Sink& sink) {
  for (const auto& p : cc::hooks_schema_problems(nlohmann::json::parse(text, nullptr, false)))
    sink.add(Severity::kError, "file-rejected", p.pointer,
             "Claude Code " + std::string(cc::kVersion) + " rejects this file's hooks: " +
                 p.message + ", so none of them run (the valid ones neither)",
             reject_hint(p.kind, p.pointer));
}

// An event name at the root holding anything but an array is ignored
// (real: settings-loads-ignored-shapes); an array there rejects the file (schema_findings).
void root_event_findings(const ojson& root, Sink& sink) {
  for (auto it = root.begin(); it != root.end(); ++it)
    if (cc::is_event(it.key()) && !it.value().is_array())
      sink.add_at_key(Severity::kWarning, "foreign-root", "/" + pointer_token(it.key()),
                      "'" + it.key() + "' at the root is not read: Claude Code reads hooks only "
                                       "under \"hooks\"",
                      "move it into \"hooks\": {\"" + it.key() + "\": [...]}");
}

// Precedence for disableAllHooks (real: settings-disable-project, settings-disable-user-only,
// settings-disable-local-override; docs "Settings precedence"): local > project > user.
void disable_findings(const ojson& root, const Layer& layer, const std::string& home, Sink& sink) {
  if (auto d = root.find("disableAllHooks"); d != root.end() && d->is_boolean() && d->get<bool>())
    sink.add(Severity::kWarning, "hook-disabled", "/disableAllHooks",
             "disableAllHooks: true turns off every hook of the user, project and local settings "
             "(managed hooks still run)",
             "remove it, or set it to false, to let the hooks run");
  if (layer.project.empty() || layer.name == "other") return;
  const std::vector<std::pair<std::string, std::string>> order = {
      {"user", home + "/.claude/settings.json"},
      {"project", layer.project + "/.claude/settings.json"},
      {"local", layer.project + "/.claude/settings.local.json"}};
  std::optional<bool> eff;
  std::string by;
  for (const auto& [name, file] : order) {
    const bool self = name == layer.name;
    std::optional<bool> v;
    if (self) {
      if (auto d = root.find("disableAllHooks"); d != root.end() && d->is_boolean())
        v = d->get<bool>();
    } else {
      v = disable_switch(file);
    }
    if (v) {
      eff = v;
      by = self ? std::string() : file;
    }
  }
  if (eff == std::optional<bool>(true) && !by.empty() && root.contains("hooks"))
    sink.add(Severity::kWarning, "hook-disabled", "",
             "disableAllHooks: true in " + by +
                 " wins by precedence (local > project > user): none of this file's hooks run",
             "remove disableAllHooks from " + by);
}

// The managed policy (managed-settings.json) is above every file: its disableAllHooks turns all
// hooks off, its allowManagedHooksOnly every hook but its own (docs "Disable or remove hooks";
// hosts/claude's loader reads it where the host does).
void managed_findings(const ojson& root, const Layer& layer, const std::string& home,
                      Sink& sink) {
  if (layer.name == "other" || !root.contains("hooks")) return;
  cc::SettingsSources src;
  src.home = home;
  src.project = layer.project;
  if (auto ls = cc::load_settings(src); ls && (ls->managed_disable_all || ls->managed_only))
    sink.add(Severity::kWarning, "hook-disabled", "",
             ls->managed_disable_all
                 ? "the managed policy sets disableAllHooks: no hook runs on this machine"
                 : "the managed policy sets allowManagedHooksOnly: only its own hooks run, "
                   "none of this file's",
             "ask whoever manages Claude Code here (managed-settings.json), or move the hooks "
             "into the managed settings");
}

// One command hook (a missing or unknown type, a command that is missing or not a string, a
// timeout that is not a positive number: file-rejected, schema_findings).
void handler_findings(const ojson& h, const std::string& hptr, const std::string& event,
                      const CommandContext& ctx, Sink& sink) {
  static const std::vector<std::string> kHandlerKeys = {
      "type", "command", "timeout", "statusMessage", "async", "once", "shell",
      "prompt", "model", "url", "headers", "allowedEnvVars", "if"};
  for (auto k = h.begin(); k != h.end(); ++k)
    if (std::find(kHandlerKeys.begin(), kHandlerKeys.end(), k.key()) == kHandlerKeys.end())
      sink.add_at_key(Severity::kWarning, "unknown-key", hptr + "/" + pointer_token(k.key()),
                      "Claude Code ignores key '" + k.key() + "' in a hook" +
                          did_you_mean(k.key(), kHandlerKeys),
                      "a command hook has \"type\", \"command\" and \"timeout\" (seconds)");
  auto t = h.find("type");
  auto c = h.find("command");
  if (t == h.end() || *t != "command" || c == h.end() || !c->is_string()) return;
  const std::string command = c->get<std::string>();
  if (command.empty()) {
    // real: settings-empty-command.
    sink.add(Severity::kError, "invalid-handler", hptr + "/command",
             "empty command: Claude Code starts nothing and reports the hook failed "
             "(\"The argument 'file' cannot be empty\")",
             "write \"command\": \"...\" (a shell command line)");
    return;
  }
  if (command.find_first_not_of(" \t\r\n") == std::string::npos) {
    // real: settings-loads-ignored-shapes — a blank command runs and exits 0.
    sink.add(Severity::kWarning, "invalid-handler", hptr + "/command",
             "blank command: Claude Code runs it and it does nothing",
             "write \"command\": \"...\" (a shell command line)");
    return;
  }
  if (auto tv = h.find("timeout"); tv != h.end() && tv->is_number() &&
                                   tv->get<double>() >= 1000) {
    // docs "Hook configuration": timeout in seconds, default 600 s for command hooks
    // (real: timeout, timeout-per-hook-parallel; 5000 loads, settings-loads-ignored-shapes).
    sink.add(Severity::kWarning, "timeout-unit", hptr + "/timeout",
             "timeout " + tv->dump() + " is seconds in Claude Code (" +
                 human_duration_ms(tv->get<double>() * 1000) + ")",
             "write " + num_text(tv->get<double>() / 1000) + " for " + tv->dump() + " ms");
  }
  check_adapter(sink, hptr + "/command", pinta::hosts::Family::kClaude, event, command);
  // real: shell — /bin/sh -c COMMAND in the project folder. A program that is missing
  // exits 127: any exit but 0 and 2 is a non-blocking error, so the hook silently does
  // nothing (a warning, not an error).
  check_command(sink, hptr + "/command", command, ctx, false, "");
}

// One matcher group of an event: its keys, its matcher, its hooks.
void group_findings(const ojson& g, const std::string& gptr, const std::string& event,
                    const CommandContext& ctx, Sink& sink) {
  static const std::set<std::string> kGroupKeys = {"matcher", "hooks"};
  auto gh = g.is_object() ? g.find("hooks") : g.end();
  if (!g.is_object() || gh == g.end() || !gh->is_array()) return;  // file-rejected
  for (auto k = g.begin(); k != g.end(); ++k)
    if (!kGroupKeys.count(k.key()))
      sink.add_at_key(Severity::kWarning, "unknown-key", gptr + "/" + pointer_token(k.key()),
                      "Claude Code ignores key '" + k.key() + "' in a matcher group" +
                          did_you_mean(k.key(), {"matcher", "hooks"}),
                      "a group has \"matcher\" and \"hooks\"");
  if (auto m = g.find("matcher"); m != g.end() && m->is_string())
    check_matcher(sink, gptr + "/matcher", event, m->get<std::string>());
  for (size_t hi = 0; hi < gh->size(); ++hi) {
    const ojson& h = (*gh)[hi];
    if (!h.is_object()) continue;  // file-rejected
    handler_findings(h, gptr + "/hooks/" + std::to_string(hi), event, ctx, sink);
  }
}

// Each event under "hooks": an unknown name, a value that is not an array, its groups.
void event_findings(const ojson& hooks, const CommandContext& ctx, Sink& sink) {
  std::vector<std::string> event_names;
  for (const auto& e : cc::events()) event_names.push_back(e);
  for (auto ev = hooks.begin(); ev != hooks.end(); ++ev) {
    const std::string event = ev.key();
    const std::string eptr = "/hooks/" + pointer_token(event);
    if (!cc::is_event(event)) {
      // docs: an event name outside the list is not a hook event; nothing under it runs.
      std::string hint = suggest_event(event, event_names, foreign_events());
      sink.add_at_key(Severity::kWarning, "unknown-event", eptr,
                      "Claude Code " + std::string(cc::kVersion) + " has no event '" + event +
                          "': the hooks under it never run",
                      hint);
      continue;
    }
    const ojson& groups = ev.value();
    if (!groups.is_array()) {
      sink.add(Severity::kError, "event-shape", eptr,
               event + " holds " + groups.type_name() +
                   ", not an array of matcher groups: Claude Code runs none of it",
               "write \"" + event + "\": [{\"matcher\": \"...\", \"hooks\": [{\"type\": "
               "\"command\", \"command\": \"...\"}]}]");
      continue;
    }
    for (size_t gi = 0; gi < groups.size(); ++gi)
      group_findings(groups[gi], eptr + "/" + std::to_string(gi), event, ctx, sink);
  }
}

// An explain request Claude Code cannot answer: an unknown event, a tool for an event without a
// matcher target ("" when it can).
std::string request_error(const ExplainRequest& rq) {
  if (!cc::is_event(rq.event))
    return "unknown Claude Code event '" + rq.event + "'" +
           did_you_mean(rq.event, std::vector<std::string>(cc::events().begin(),
                                                           cc::events().end()));
  if (!rq.tool.empty() && !cc::has_matcher_target(rq.event))
    return "--tool names the matcher target; Claude Code's " + rq.event +
           " has none (its matchers are ignored)";
  return "";
}

// The section's notes on what the loaded settings turn off, and how the event runs its hooks.
void explain_notes(const ExplainRequest& rq, const cc::LoadedSettings& loaded, ExplainSection& s) {
  if (rq.workspace.empty())
    s.notes.push_back("no --workspace: the project's .claude/settings.json and "
                      "settings.local.json are not read");
  for (const auto& w : loaded.warnings) s.notes.push_back(w);
  if (loaded.managed_disable_all)
    s.notes.push_back("managed disableAllHooks: no hook runs");
  else if (loaded.managed_only)
    s.notes.push_back("managed allowManagedHooksOnly: only managed hooks run");
  else if (loaded.disable_all)
    s.notes.push_back("disableAllHooks (by precedence local > project > user): the user, project "
                      "and local hooks do not run");
  if (!cc::has_matcher_target(rq.event))
    s.notes.push_back(rq.event + " has no matcher target: matchers are ignored");
  // real: parallel-dedup, timeout-per-hook-parallel — every matching command starts at once.
  s.notes.push_back("all listed hooks start at once; the event waits for every one");
}

// What a failure of a hook of `event` does.
std::string on_failure_of(const std::string& event) {
  if (pinta::hosts::blocks_on(pinta::hosts::Family::kClaude, event))
    return "exit 2 blocks with stderr as the reason; exit 0 with JSON on stdout decides; any "
           "other exit, a timeout or a signal is a non-blocking error (fail-open)";
  if (event == "PostToolUse" || event == "PostToolUseFailure")
    return "the tool already ran: exit 2 or decision:block shows the reason to the model "
           "beside the result; other failures are non-blocking errors";
  return "cannot block: exit 2 is shown to the user only; failures are non-blocking "
         "errors (fail-open)";
}

// Positions of hooks; a --settings file has none to show.
Position explain_pos(Locator& loc, const std::string& file, const std::string& pointer) {
  if (file == "--settings") return {1, 1};
  return loc.at(file, pointer);
}

// Loaded for this event but not run: why.
void explain_dropped(const ExplainRequest& rq, const cc::LoadedSettings& loaded,
                     const std::vector<cc::HookCommand>& planned, Locator& loc,
                     ExplainSection& s) {
  std::set<std::string> ran;
  for (const auto& h : planned) ran.insert(h.file + "#" + h.pointer);
  for (const auto& h : loaded.hooks) {
    if (h.event != rq.event || ran.count(h.file + "#" + h.pointer)) continue;
    std::string why;
    if (loaded.managed_disable_all)
      why = "managed disableAllHooks";
    else if (h.source != "policy" && (loaded.disable_all || loaded.managed_only))
      why = loaded.managed_only ? "allowManagedHooksOnly" : "disableAllHooks";
    else if (!cc::matcher_matches(rq.event, h.matcher, rq.tool))
      why = "matcher \"" + h.matcher + "\" does not match '" + rq.tool + "'";
    else
      why = "the same command already runs for this event (identical commands run once)";
    Position p = explain_pos(loc, h.file, h.pointer);
    s.dropped.push_back(h.file + ":" + std::to_string(p.line) + ":" + std::to_string(p.col) +
                        ": " + why);
  }
}

// prompt, agent and http hooks also run on the real host; they are not emulated.
void other_hook_notes(const ExplainRequest& rq, Locator& loc, ExplainSection& s) {
  std::vector<std::string> files = {
      (sfs::path(rq.home) / ".claude" / "settings.json").string()};
  if (!rq.workspace.empty()) {
    files.push_back((sfs::path(rq.workspace) / ".claude" / "settings.json").string());
    files.push_back((sfs::path(rq.workspace) / ".claude" / "settings.local.json").string());
  }
  for (const auto& f : files) {
    auto t = pinta::fs::read_file(f);
    if (!t) continue;
    auto j = nlohmann::json::parse(*t, nullptr, false);
    // A file whose hooks are rejected (the loader's warning is a note already) runs none.
    if (j.is_discarded() || !j.is_object() || !cc::hooks_schema_problems(j).empty() ||
        !j.contains("hooks") || !j["hooks"].is_object() || !j["hooks"].contains(rq.event) ||
        !j["hooks"][rq.event].is_array())
      continue;
    const auto& groups = j["hooks"][rq.event];
    for (size_t gi = 0; gi < groups.size(); ++gi)
      for (size_t hi = 0; hi < groups[gi]["hooks"].size(); ++hi) {
        const std::string type = groups[gi]["hooks"][hi]["type"];
        if (type == "command") continue;
        const std::string ptr =
            "/hooks/" + rq.event + "/" + std::to_string(gi) + "/hooks/" + std::to_string(hi);
        s.notes.push_back(f + ":" + std::to_string(explain_pos(loc, f, ptr).line) + ": a " +
                          type + " hook also runs for this event (not emulated, so not listed)");
      }
  }
}

// Claude Code's settings files (docs "Configuration"; real: settings-all-sources).
const PathDetector kDetector(Host::kClaude, [](const std::string& p) {
  return ends_with(p, "/.claude/settings.json") || ends_with(p, "/.claude/settings.local.json");
});

}  // namespace

void lint_claude_file(const std::string& path, const std::string& text, const LintOptions& o,
                 Sink& sink) {
  const char* env_home = std::getenv("HOME");  // NOLINT(concurrency-mt-unsafe)
  const std::string home = normalize(!o.home.empty() ? o.home : env_home ? env_home : "");
  const Layer layer = layer_of(path, o, home);
  auto root = ojson::parse(text, nullptr, false);
  if (root.is_discarded()) {
    Position pos{1, 1};
    std::string detail = "invalid JSON";
    syntax_error(text, false, pos, detail);
    // real: settings-bad-project-json — the file is skipped; the other sources still run.
    sink.out.push_back({path, pos, Severity::kError, "json-syntax",
                        "Claude Code skips this settings file, every hook in it: " + detail,
                        "fix the JSON (no comments, no trailing commas)"});
    return;
  }
  if (!root.is_object()) {
    sink.add(Severity::kError, "foreign-root", "",
             "a settings file is a JSON object; Claude Code skips this one",
             "write {\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": "
             "[{\"type\": \"command\", \"command\": \"...\"}]}]}}");
    return;
  }
  schema_findings(text, sink);
  root_event_findings(root, sink);
  disable_findings(root, layer, home, sink);
  managed_findings(root, layer, home, sink);
  auto hooks_it = root.find("hooks");
  if (hooks_it == root.end()) return;
  const ojson& hooks = *hooks_it;
  if (!hooks.is_object()) {
    sink.add(Severity::kError, "foreign-root", "/hooks",
             std::string("\"hooks\" is ") + hooks.type_name() +
                 ", not an object of events: Claude Code runs none of it" +
                 (hooks.is_array() ? " (an array of hooks is deel-local-cli's shape)" : ""),
             "write \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": "
             "[{\"type\": \"command\", \"command\": \"...\"}]}]}");
    return;
  }
  CommandContext ctx;
  ctx.home = home;
  ctx.cwd = layer.project.empty() ? home : layer.project;
  ctx.path_env = env_or(o, "PATH");
  if (!layer.project.empty()) {
    // CC: hooks get CLAUDE_PROJECT_DIR, the project folder.
    ctx.vars["${CLAUDE_PROJECT_DIR}"] = layer.project;
    ctx.vars["$CLAUDE_PROJECT_DIR"] = layer.project;
  }
  event_findings(hooks, ctx, sink);
}

Result<std::vector<ExplainSection>> explain_claude(const ExplainRequest& rq,
                                                   const LintOptions& options, Locator&) {
  (void)options;
  if (std::string bad = request_error(rq); !bad.empty())
    return make_error(ErrorCode::kInvalidArgument, bad);
  cc::SettingsSources src;
  src.home = rq.home;
  src.project = rq.workspace;
  auto loaded = cc::load_settings(src);
  if (!loaded) return loaded.error();
  ExplainSection s;
  s.host = "claude-code " + std::string(cc::kVersion);
  explain_notes(rq, *loaded, s);
  Locator loc;
  const std::string on_failure = on_failure_of(rq.event);
  auto planned = cc::plan(*loaded, rq.event, rq.tool);
  int order = 0;
  for (const auto& h : planned) {
    ExplainedHook e;
    e.order = ++order;
    e.layer = h.source;
    e.file = h.file;
    e.pos = explain_pos(loc, h.file, h.pointer);
    e.command = h.command;
    e.matcher = h.matcher;
    e.timeout = num_text(static_cast<double>(h.timeout_ms) / 1000) + " s";
    e.on_failure = on_failure;
    s.hooks.push_back(e);
  }
  explain_dropped(rq, *loaded, planned, loc, s);
  other_hook_notes(rq, loc, s);
  return std::vector<ExplainSection>{s};
}

Status lint_claude(const std::string& path, const std::string& text, const LintOptions& o,
                   Sink& sink) {
  lint_claude_file(path, text, o, sink);
  return {};
}

}  // namespace pinta::hostlint::detail
