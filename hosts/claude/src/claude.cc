// Claude Code 2.1.332: events, settings sources, matchers, planner. Each rule names its evidence:
// "real:" = measured on the real 2.1.332 binary (a scenario in
// emulator/hosts/claude/test/scenarios/ that runs on the real CLI and the emulator with no
// difference), "docs:" = the public hooks reference (code.claude.com/docs/en/hooks).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "pinta/common/fs.h"
#include "pinta/common/text.h"
#include "pinta/hosts/claude/claude.h"
#include "pinta/hosts/node/js.h"
#include "pinta/hosts/node/js_regex.h"

namespace pinta::hosts::claude {

using json = nlohmann::json;

const std::vector<std::string>& events() {
  // real: the hook event list in the 2.1.332 settings schema (the binary's event-name array).
  static const std::vector<std::string> k = {
      "PreToolUse",     "PostToolUse",        "PostToolUseFailure", "PostToolBatch",
      "Notification",   "UserPromptSubmit",   "UserPromptExpansion", "SessionStart",
      "SessionEnd",     "Stop",               "StopFailure",        "SubagentStart",
      "SubagentStop",   "PreCompact",         "PostCompact",        "PreModelSwitch",
      "PostModelSwitch", "PermissionRequest", "PermissionDenied",   "Setup",
      "TeammateIdle",   "TaskCreated",        "TaskCompleted",      "Elicitation",
      "ElicitationResult", "ConfigChange",    "WorktreeCreate",     "WorktreeRemove",
      "InstructionsLoaded", "CwdChanged",     "FileChanged",        "DirectoryAdded",
      "MessageDisplay", "PreSkillShellCommand"};
  return k;
}

bool is_event(const std::string& name) {
  const auto& e = events();
  return std::find(e.begin(), e.end(), name) != e.end();
}

namespace {

// real: the events whose matcher is tested against a target (2.1.332's list; scenario
// ups-matcher-ignored shows a UserPromptSubmit matcher that names nothing still runs).
const std::set<std::string>& target_events() {
  static const std::set<std::string> k = {
      "PreToolUse",   "PostToolUse",     "PostToolUseFailure", "PermissionRequest",
      "PermissionDenied", "UserPromptExpansion", "SessionStart", "SessionEnd",
      "Setup",        "PreCompact",      "PostCompact",        "PreModelSwitch",
      "PostModelSwitch", "Notification", "SubagentStart",      "SubagentStop",
      "Elicitation",  "ElicitationResult", "ConfigChange",     "InstructionsLoaded",
      "DirectoryAdded", "PreSkillShellCommand"};
  return k;
}

using pinta::text::trim;

bool only_chars(const std::string& s, const std::string& extra) {
  for (unsigned char c : s)
    if (!std::isalnum(c) && c != '_' && c != '|' && extra.find(static_cast<char>(c)) == std::string::npos)
      return false;
  return true;
}

}  // namespace

bool has_matcher_target(const std::string& event) { return target_events().count(event) > 0; }

std::string match_target(const std::string& event, const json& p) {
  auto str = [&](const char* k) {
    return p.is_object() && p.contains(k) && p[k].is_string() ? p[k].get<std::string>() : "";
  };
  if (event == "PreToolUse" || event == "PostToolUse" || event == "PostToolUseFailure" ||
      event == "PermissionRequest" || event == "PermissionDenied" || event == "PreSkillShellCommand")
    return str("tool_name");
  if (event == "UserPromptExpansion") return str("command_name");
  if (event == "SessionStart" || event == "ConfigChange" || event == "DirectoryAdded")
    return str("source");
  // real (compact-prompt): PreCompact's "manual" matcher runs for /compact, "auto" does not.
  if (event == "Setup" || event == "PreCompact" || event == "PostCompact") return str("trigger");
  if (event == "Notification") return str("notification_type");
  if (event == "SessionEnd") return str("reason");
  // real (subagent-start, subagent-stop-exit2): an Explore matcher does not run for a
  // general-purpose subagent.
  if (event == "SubagentStart" || event == "SubagentStop") return str("agent_type");
  if (event == "Elicitation" || event == "ElicitationResult") return str("mcp_server_name");
  if (event == "InstructionsLoaded") return str("load_reason");
  if (event == "PreModelSwitch" || event == "PostModelSwitch") return str("to_model");
  return "";
}

std::optional<std::vector<std::string>> matcher_names(const std::string& matcher) {
  if (!only_chars(matcher, ", -")) return std::nullopt;
  std::vector<std::string> out;
  std::string cur;
  for (char c : matcher) {
    if (c == '|' || c == ',') {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(trim(cur));
  return out;
}

bool matcher_matches(const std::string& event, const std::string& matcher,
                     const std::string& target) {
  // real: an event without a target ignores its matcher (ups-matcher-ignored).
  if (!has_matcher_target(event)) return true;
  // real/docs: "" and "*" (and an absent matcher) match everything (matchers scenario).
  if (matcher.empty() || matcher == "*") return true;
  // real: a plain name list: [A-Za-z0-9_|] plus ", -" for events with a target; split on | and ,
  // and trimmed, exact and case-sensitive ("bash" does not match Bash; "Write, Bash" does).
  if (auto names = matcher_names(matcher)) {
    for (const auto& n : *names)
      if (!n.empty() && n == target) return true;
    return false;
  }
  // real: anything else is `new RegExp(matcher).test(target)`: unanchored ("Ba.*", "B[a]sh");
  // an invalid pattern ("(Bash") matches nothing. JavaScript's RegExp, not std::regex (lookbehind,
  // named groups, Annex B escapes differ): the one engine the Node-based hosts share (js_regex.h),
  // the one the lint uses for these matchers too.
  return pinta::hosts::node::js_regexp_test(matcher, target).value_or(false);
}

std::vector<SchemaProblem> hooks_schema_problems(const json& root) {
  // real: each check below is a scenario in which the real CLI ran none of the file's hooks
  // (settings-rejected-*: a handler without type, an unknown type, a command that is missing or
  // not a string, a prompt hook without prompt, an http hook without url, a timeout that is not a
  // positive number or null, a matcher that is not a string, a group that is not an object or has
  // no hooks array, an event array at the root, a disableAllHooks that is not a boolean), while
  // unknown events, unknown keys, a non-array event value and timeout 0.5 or 5000 load.
  std::vector<SchemaProblem> out;
  if (!root.is_object()) return out;
  auto add = [&](std::string ptr, const char* kind, std::string msg) {
    out.push_back({std::move(ptr), kind, std::move(msg)});
  };
  if (auto d = root.find("disableAllHooks"); d != root.end() && !d->is_boolean())
    add("/disableAllHooks", "disable", "disableAllHooks is not true or false");
  for (auto it = root.begin(); it != root.end(); ++it)
    if (it.key() != "hooks" && is_event(it.key()) && it.value().is_array())
      add("/" + it.key(), "root-event", "hook event '" + it.key() + "' at the root, outside \"hooks\"");
  auto hooks = root.find("hooks");
  if (hooks == root.end() || !hooks->is_object()) return out;
  static const std::set<std::string> kTypes = {"command", "prompt", "agent", "http"};
  for (auto ev = hooks->begin(); ev != hooks->end(); ++ev) {
    if (!is_event(ev.key()) || !ev.value().is_array()) continue;
    const std::string eptr = "/hooks/" + ev.key();
    for (size_t gi = 0; gi < ev.value().size(); ++gi) {
      const json& g = ev.value()[gi];
      const std::string gptr = eptr + "/" + std::to_string(gi);
      if (!g.is_object()) {
        add(gptr, "group", "a matcher group that is not an object");
        continue;
      }
      if (auto m = g.find("matcher"); m != g.end() && !m->is_string())
        add(gptr + "/matcher", "matcher", "a matcher that is not a string");
      auto hs = g.find("hooks");
      if (hs == g.end() || !hs->is_array()) {
        add(hs == g.end() ? gptr : gptr + "/hooks", "hooks",
            g.contains("command") || g.contains("type")
                ? "a hook written directly in the " + ev.key() + " list, not in a matcher group"
                : "a matcher group without a \"hooks\" array");
        continue;
      }
      for (size_t hi = 0; hi < hs->size(); ++hi) {
        const json& h = (*hs)[hi];
        const std::string hptr = gptr + "/hooks/" + std::to_string(hi);
        if (!h.is_object()) {
          add(hptr, "handler", "a hook that is not an object");
          continue;
        }
        auto t = h.find("type");
        if (t == h.end()) {
          add(hptr, "type", "a hook without \"type\"");
          continue;
        }
        if (!t->is_string() || !kTypes.count(t->get<std::string>())) {
          add(hptr + "/type", "type", "type " + t->dump() + " is not command, prompt, agent or http");
          continue;
        }
        const std::string type = t->get<std::string>();
        auto need_string = [&](const char* key, const char* kind) {
          auto v = h.find(key);
          if (v == h.end() || !v->is_string())
            add(v == h.end() ? hptr : hptr + "/" + key, kind,
                "a " + type + " hook whose \"" + key + "\" is " +
                    (v == h.end() ? std::string("missing") : "not a string"));
        };
        if (type == "command") need_string("command", "command");
        if (type == "prompt") need_string("prompt", "prompt");
        if (type == "http") need_string("url", "url");
        if (auto tv = h.find("timeout");
            tv != h.end() && (!tv->is_number() || tv->get<double>() <= 0))
          add(hptr + "/timeout", "timeout", "timeout " + tv->dump() + " is not a positive number");
      }
    }
  }
  return out;
}

namespace {

void read_hooks(const json& j, const std::string& source, const std::string& file,
                LoadedSettings& out) {
  if (!j.contains("hooks")) return;
  const json& hooks = j["hooks"];
  if (!hooks.is_object()) {
    out.warnings.push_back(file + ": \"hooks\" is not an object");
    return;
  }
  for (const auto& [event, groups] : hooks.items()) {
    // docs: unknown event names are not hook events; nothing runs for them.
    if (!is_event(event) || !groups.is_array()) continue;
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      const json& g = groups[gi];
      if (!g.is_object() || !g.contains("hooks") || !g["hooks"].is_array()) continue;
      std::string matcher = g.contains("matcher") && g["matcher"].is_string() ? g["matcher"].get<std::string>() : "";
      for (size_t hi = 0; hi < g["hooks"].size(); ++hi) {
        const json& h = g["hooks"][hi];
        // Only command hooks are emulated (prompt/agent/http hooks need a model or a server).
        if (!h.is_object() || h.value("type", std::string()) != "command") continue;
        if (!h.contains("command") || !h["command"].is_string()) continue;
        HookCommand c;
        c.event = event;
        c.matcher = matcher;
        c.command = h["command"];
        c.source = source;
        c.file = file;
        // An event name of the list needs no JSON-pointer escaping.
        c.pointer = "/hooks/" + event + "/" + std::to_string(gi) + "/hooks/" + std::to_string(hi);
        // real (pre-if-key, pre-async-key): the "if" and "async" keys.
        if (h.contains("if") && h["if"].is_string()) c.if_rule = h["if"].get<std::string>();
        c.async = h.contains("async") && h["async"].is_boolean() && h["async"].get<bool>();
        // docs: "timeout" in seconds, default 600 s for command hooks.
        if (h.contains("timeout") && h["timeout"].is_number() && h["timeout"].get<double>() > 0)
          c.timeout_ms = static_cast<long>(h["timeout"].get<double>() * 1000.0);
        out.hooks.push_back(c);
      }
    }
  }
}

// One settings file. Missing: nothing. Unparsable: a warning (the host skips an invalid file).
void read_file(const std::string& path, const std::string& source, LoadedSettings& out,
               bool managed) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return;
  auto text = fs::read_file(path);
  if (!text) {
    out.warnings.push_back(path + ": " + text.error().message);
    return;
  }
  json j = json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    out.warnings.push_back(path + ": not a JSON object; skipped");
    return;
  }
  if (j.contains("disableAllHooks") && j["disableAllHooks"].is_boolean()) {
    if (managed)
      out.managed_disable_all = j["disableAllHooks"].get<bool>();
    else
      out.disable_all = j["disableAllHooks"].get<bool>();
  }
  if (managed && j.contains("allowManagedHooksOnly") && j["allowManagedHooksOnly"].is_boolean())
    out.managed_only = j["allowManagedHooksOnly"].get<bool>();
  if (auto p = hooks_schema_problems(j); !p.empty()) {
    out.warnings.push_back(path + ": hooks rejected (" + p.front().message + " at " +
                           p.front().pointer + "); none of this file's hooks run");
    return;
  }
  read_hooks(j, source, path, out);
}

}  // namespace

Result<LoadedSettings> load_settings(const SettingsSources& s) {
  LoadedSettings out;
  namespace sfs = std::filesystem;
  // Lowest precedence first, so that a later disableAllHooks overrides an earlier one
  // (docs: settings precedence managed > command line > local > project > user).
  if (!s.home.empty()) read_file((sfs::path(s.home) / ".claude" / "settings.json").string(), "user", out, false);
  if (!s.project.empty()) {
    read_file((sfs::path(s.project) / ".claude" / "settings.json").string(), "project", out, false);
    read_file((sfs::path(s.project) / ".claude" / "settings.local.json").string(), "local", out, false);
  }
  // real (settings-all-sources, settings-two-flags, settings-two-flags-disable): of several
  // --settings only the last one counts (an earlier file's hooks do not run, nor does its
  // disableAllHooks apply); each must still name a readable file.
  json flag = json::object();
  std::string flag_file = "--settings";  // inline JSON has no file
  for (const auto& f : s.extra) {
    // --settings takes a file path or inline JSON text.
    std::string t = trim(f);
    json j;
    if (!t.empty() && t.front() == '{') {
      j = json::parse(t, nullptr, false);
      if (j.is_discarded() || !j.is_object())
        return make_error(ErrorCode::kInvalidArgument, "--settings: inline JSON is invalid");
    } else {
      std::error_code ec;
      if (!sfs::is_regular_file(f, ec))
        return make_error(ErrorCode::kInvalidArgument, "--settings: no such file: " + f);
      auto text = fs::read_file(f);
      if (!text) return make_error(ErrorCode::kInvalidArgument, "--settings: " + text.error().message);
      j = json::parse(*text, nullptr, false);
      if (j.is_discarded() || !j.is_object()) {
        out.warnings.push_back(f + ": not a JSON object; skipped");
        continue;
      }
    }
    flag = j;
    flag_file = !t.empty() && t.front() == '{' ? "--settings" : f;
  }
  if (flag.contains("disableAllHooks") && flag["disableAllHooks"].is_boolean())
    out.disable_all = flag["disableAllHooks"].get<bool>();
  if (auto p = hooks_schema_problems(flag); !p.empty())
    out.warnings.push_back(flag_file + ": hooks rejected (" + p.front().message + " at " +
                           p.front().pointer + "); none of this file's hooks run");
  else
    read_hooks(flag, "flag", flag_file, out);
  std::string managed = s.managed_dir;
  if (const char* e = std::getenv("PINTA_CLAUDE_MANAGED_DIR"); e && *e) managed = e;
  if (managed.empty()) managed = "/etc/claude-code";
  read_file((sfs::path(managed) / "managed-settings.json").string(), "policy", out, true);
  return out;
}

std::vector<HookCommand> plan(const LoadedSettings& st, const std::string& event,
                              const std::string& target) {
  std::vector<HookCommand> out;
  // docs: managed disableAllHooks turns every hook off; a user/project/local/flag one turns off
  // the hooks of those sources (managed hooks still run); allowManagedHooksOnly keeps only managed.
  if (st.managed_disable_all) return out;
  std::set<std::string> seen;
  for (const auto& h : st.hooks) {
    if (h.event != event) continue;
    if (h.source != "policy" && (st.disable_all || st.managed_only)) continue;
    if (!matcher_matches(event, h.matcher, target)) continue;
    // real: identical command strings run once per event, across groups and files
    // (parallel-dedup: three "echo a" entries, one run).
    if (!seen.insert(h.command).second) continue;
    out.push_back(h);
  }
  return out;
}

std::vector<HookCommand> plan_for(const LoadedSettings& st, const std::string& event,
                                  const json& payload) {
  auto out = plan(st, event, match_target(event, payload));
  std::erase_if(out, [&](const HookCommand& h) {
    return !h.if_rule.empty() && !if_matches(h.if_rule, payload);
  });
  return out;
}

namespace {

// `*` matches any run of characters (newlines too); everything else itself.
bool wildcard(const std::string& pat, const std::string& s) {
  size_t p = 0, i = 0, star = std::string::npos, mark = 0;
  while (i < s.size()) {
    if (p < pat.size() && pat[p] == '*') {
      star = p++;
      mark = i;
    } else if (p < pat.size() && pat[p] == s[i]) {
      ++p, ++i;
    } else if (star != std::string::npos) {
      p = star + 1;
      i = ++mark;
    } else {
      return false;
    }
  }
  while (p < pat.size() && pat[p] == '*') ++p;
  return p == pat.size();
}

}  // namespace

bool if_matches(const std::string& rule, const json& payload) {
  const std::string tool = payload.is_object() && payload.contains("tool_name") &&
                                   payload["tool_name"].is_string()
                               ? payload["tool_name"].get<std::string>()
                               : "";
  const size_t open = rule.find('(');
  const std::string name = trim(rule.substr(0, open));
  if (name != tool) return false;
  if (open == std::string::npos) return true;
  if (rule.back() != ')') return false;
  std::string pat = rule.substr(open + 1, rule.size() - open - 2);
  if (pat.empty() || pat == "*") return true;
  const json in = payload.contains("tool_input") && payload["tool_input"].is_object()
                      ? payload["tool_input"]
                      : json::object();
  std::string subject;
  for (const char* k : {"command", "file_path", "path", "url", "pattern"})
    if (in.contains(k) && in[k].is_string()) {
      subject = in[k].get<std::string>();
      break;
    }
  if (pat.size() >= 2 && pat.compare(pat.size() - 2, 2, ":*") == 0)
    return subject.rfind(pat.substr(0, pat.size() - 2), 0) == 0;
  return wildcard(pat, subject);
}

namespace {

using ojson = nlohmann::ordered_json;

// The payload's key order as 2.1.332 builds it (real: the y_captured_* fixtures, one order per
// event across 300 captured payloads): the common fields, then hook_event_name, then the event's.
const std::vector<std::string>& common_keys() {
  static const std::vector<std::string> k = {"session_id", "transcript_path", "cwd",
                                             "prompt_id",  "permission_mode", "agent_id",
                                             "agent_type", "effort",          "hook_event_name"};
  return k;
}

const std::vector<std::string>& event_keys(const std::string& event) {
  static const std::map<std::string, std::vector<std::string>> k = {
      {"SessionStart", {"source"}},
      {"UserPromptSubmit", {"prompt"}},
      {"PreToolUse", {"tool_name", "tool_input", "tool_use_id"}},
      {"PostToolUse", {"tool_name", "tool_input", "tool_response", "tool_use_id", "duration_ms"}},
      {"PostToolUseFailure",
       {"tool_name", "tool_input", "tool_use_id", "error", "is_interrupt", "duration_ms"}},
      {"Stop", {"stop_hook_active", "last_assistant_message", "background_tasks", "session_crons"}},
      {"SubagentStop",
       {"stop_hook_active", "agent_transcript_path", "last_assistant_message", "background_tasks",
        "session_crons"}},
      {"SessionEnd", {"reason"}},
      {"PreCompact", {"trigger", "custom_instructions"}}};
  static const std::vector<std::string> none;
  auto it = k.find(event);
  return it == k.end() ? none : it->second;
}

}  // namespace

std::string stdin_bytes(const ojson& payload) {
  if (!payload.is_object()) return node::js_stringify(payload) + "\n";
  const std::string event = payload.contains("hook_event_name") && payload["hook_event_name"].is_string()
                                ? payload["hook_event_name"].get<std::string>()
                                : "";
  std::vector<std::string> order = common_keys();
  const auto& tail = event_keys(event);
  order.insert(order.end(), tail.begin(), tail.end());
  ojson out = node::keys_first(payload, order);
  if (out.contains("effort") && out["effort"].is_object())
    out["effort"] = node::keys_first(out["effort"], {"level"});
  // real (post-* fixtures): the Bash tool's result object.
  if (out.contains("tool_response") && out["tool_response"].is_object())
    out["tool_response"] = node::keys_first(
        out["tool_response"], {"stdout", "stderr", "interrupted", "isImage", "noOutputExpected"});
  return node::js_stringify(out) + "\n";
}

std::string stdin_bytes(const nlohmann::json& payload) {
  // nlohmann::json keeps no order; the host table orders what it names (the rest sorted).
  return stdin_bytes(ojson::parse(payload.dump()));
}

}  // namespace pinta::hosts::claude
