// GitHub Copilot CLI 1.0.102 hooks as data. Evidence: CP = shared/reference/real-hosts.md
// (measured); CPDOC = github/docs content/copilot/reference/hooks-reference.md.
// CPM = the real-CLI lane's scenarios (emulator/hosts/copilot/test/scenarios/<name>.json, measured
// on 1.0.102; docs/hosts/copilot-1.0.md "Measured on 1.0.102").
#include "pinta/hosts/copilot/copilot.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>

#include "pinta/hosts/copilot/family.h"
#include "pinta/hosts/node/js_regex.h"

namespace pinta::hosts::copilot {
namespace {

// Splits on '|' (Claude-style name lists).
std::vector<std::string> split_bar(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == '|') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// A name list as CPDOC's Claude-format rule reads it: letters, digits and `_` between bars.
bool name_list(const std::string& m) {
  return !m.empty() && std::all_of(m.begin(), m.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '|';
  });
}

// ^(?:PATTERN)$ as Node compiles it (Copilot CLI is a Node.js program); null when invalid.
std::shared_ptr<const node::JsRegExp> anchored(const std::string& pattern) {
  return node::JsRegExp::compile_utf8("^(?:" + pattern + ")$");
}

}  // namespace

const std::vector<std::string>& events() {
  static const std::vector<std::string> k(kEvents.begin(), kEvents.end());
  return k;
}

bool is_event(const std::string& name) { return event_format(name).has_value(); }

std::optional<Format> event_format(const std::string& name) {
  for (auto e : kEvents)
    if (e == name) return Format::kNative;
  for (const auto& a : kAliases)
    if (a.alias == name) return Format::kClaudeStyle;
  return std::nullopt;
}

std::string canonical_event(const std::string& name) {
  for (auto e : kEvents)
    if (e == name) return name;
  for (const auto& a : kAliases)
    if (a.alias == name) return std::string(a.event);
  return "";
}

const char* agent_label(Format format) {
  return format == Format::kNative ? kDescriptor.agent_labels[0].data()
                                   : kDescriptor.agent_labels[1].data();
}

std::string claude_tool_name(const std::string& t) {
  // CPDOC "Claude-format matchers", the runtime → Claude tool table.
  static const std::pair<const char*, const char*> kNames[] = {
      {"bash", "Bash"},        {"powershell", "Bash"},     {"view", "Read"},
      {"create", "Write"},     {"edit", "Edit"},           {"str_replace_editor", "Edit"},
      {"apply_patch", "Edit"}, {"grep", "Grep"},           {"rg", "Grep"},
      {"glob", "Glob"},        {"web_fetch", "WebFetch"},  {"web_search", "WebSearch"},
      {"ask_user", "AskUserQuestion"}, {"update_todo", "TodoWrite"}, {"task", "Agent"},
  };
  for (const auto& [runtime, claude] : kNames)
    if (t == runtime) return claude;
  return t;
}

MatcherKind matcher_kind(Format format, const std::string& m) {
  if (format == Format::kClaudeStyle) {
    if (m.empty() || m == "*" || m == "**") return MatcherKind::kAll;
    if (name_list(m)) return MatcherKind::kNames;
  }
  return anchored(m) ? MatcherKind::kRegex : MatcherKind::kInvalid;
}

bool matcher_matches(Format format, const std::string& m, const std::string& runtime_tool) {
  const std::string claude = claude_tool_name(runtime_tool);
  switch (matcher_kind(format, m)) {
    case MatcherKind::kAll:
      return true;
    case MatcherKind::kNames:
      for (const auto& token : split_bar(m))
        // CPDOC: `Task` is also accepted for the runtime `task` (Claude name `Agent`).
        if (token == runtime_tool || token == claude || (token == "Task" && claude == "Agent"))
          return true;
      return false;
    case MatcherKind::kRegex: {
      const auto re = anchored(m);
      return re && re->test_utf8(format == Format::kClaudeStyle ? claude : runtime_tool);
    }
    case MatcherKind::kInvalid:
      return false;  // CPDOC: an invalid regex skips the hook entry
  }
  return false;
}

namespace {

using ojson = nlohmann::ordered_json;
namespace fs = std::filesystem;

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string str_field(const ojson& o, const char* k) {
  return o.contains(k) && o[k].is_string() ? o[k].get<std::string>() : std::string();
}

// One command entry (native flat entry or a Claude-style group's inner hook). CPDOC: `bash`
// (POSIX), `powershell` (Windows), `command` the cross-platform fallback; CPM c-pre-command-key,
// c-pre-no-type: `command` stands in for `bash` and `type` may be left out. An entry with nothing
// to run is dropped and its list's other entries stay (CPM src-malformed-entry).
std::optional<HookHandler> read_entry(const ojson& e, const std::string& event, Format format,
                                      const std::string& source, const std::string& file,
                                      const std::string& pointer, std::vector<std::string>& warn) {
  if (!e.is_object()) {
    warn.push_back(file + pointer + ": not an object, skipped");
    return std::nullopt;
  }
  HookHandler h;
  h.event = event;
  h.canonical = canonical_event(event);
  h.format = format;
  h.source = source;
  h.file = file;
  h.pointer = pointer;
  if (e.contains("type")) h.type = str_field(e, "type");
  h.bash = str_field(e, "bash");
  h.powershell = str_field(e, "powershell");
  h.command = str_field(e, "command");
  h.exec = str_field(e, "exec");
  h.url = str_field(e, "url");
  if (e.contains("args") && e["args"].is_array())
    for (const auto& a : e["args"])
      if (a.is_string()) h.args.push_back(a.get<std::string>());
  h.cwd = str_field(e, "cwd");
  if (e.contains("env") && e["env"].is_object())
    for (auto it = e["env"].begin(); it != e["env"].end(); ++it)
      if (it.value().is_string()) h.env[it.key()] = it.value().get<std::string>();
  // CPDOC `timeoutSec`, CPM c-pre-timeout-alias: `timeout` too, both in seconds; 30 by default
  // (CPM c-pre-timeout-default).
  for (const char* k : {"timeoutSec", "timeout"})
    if (e.contains(k) && e[k].is_number() && e[k].get<double>() > 0) {
      h.timeout_sec = static_cast<long>(e[k].get<double>());
      if (h.timeout_sec < 1) h.timeout_sec = 1;
      break;
    }
  if (h.type == "command") {
    if (h.bash.empty() && h.command.empty() && h.exec.empty()) {
      warn.push_back(file + pointer + ": no command, skipped");
      return std::nullopt;
    }
  } else if (h.type == "http") {
    if (h.url.empty()) {
      warn.push_back(file + pointer + ": http hook without url, skipped");
      return std::nullopt;
    }
  } else if (h.type != "prompt") {
    warn.push_back(file + pointer + ": unknown type " + h.type + ", skipped");
    return std::nullopt;
  }
  return h;
}

// The `hooks` object of one file: every event key in the file's order (one file may hold both
// formats, each key with its own: CPM mixed-file); unknown keys are ignored (CPM
// src-unknown-event). A key's list holds flat entries or Claude-style groups
// {"matcher","hooks":[…]}; the matcher's semantics follow the key's format (CPM c-matcher-nested).
// A group whose matcher is "" never runs: in a hook file it alone is skipped (CPM
// p-matcher-empty); in a settings file it is a settings error that drops the whole file (CPM
// src-claude-empty-matcher): returns false then.
bool read_hooks_object(const ojson& hooks, const std::string& source, const std::string& file,
                       bool settings, LoadedHooks& out) {
  std::vector<HookHandler> found;
  for (auto it = hooks.begin(); it != hooks.end(); ++it) {
    const std::string& event = it.key();
    const auto format = event_format(event);
    if (!format) continue;
    const std::string base = "/hooks/" + event;
    if (!it.value().is_array()) {
      out.warnings.push_back(file + base + ": not a list, skipped");
      continue;
    }
    size_t i = 0;
    for (const auto& item : it.value()) {
      const std::string ptr = base + "/" + std::to_string(i++);
      if (item.is_object() && item.contains("hooks") && item["hooks"].is_array()) {
        const bool has_m = item.contains("matcher") && item["matcher"].is_string();
        const std::string m = has_m ? item["matcher"].get<std::string>() : std::string();
        if (has_m && m.empty()) {
          out.warnings.push_back(file + ptr + "/matcher: matcher cannot be empty" +
                                 (settings ? " (the file is not loaded)" : " (the group is skipped)"));
          if (settings) return false;
          continue;
        }
        size_t j = 0;
        for (const auto& inner : item["hooks"]) {
          auto h = read_entry(inner, event, *format, source, file,
                              ptr + "/hooks/" + std::to_string(j++), out.warnings);
          if (!h) continue;
          h->matcher = m;
          h->has_matcher = has_m;
          found.push_back(std::move(*h));
        }
        continue;
      }
      auto h = read_entry(item, event, *format, source, file, ptr, out.warnings);
      if (!h) continue;
      if (item.contains("matcher") && item["matcher"].is_string()) {
        h->matcher = item["matcher"].get<std::string>();
        h->has_matcher = true;
      }
      found.push_back(std::move(*h));
    }
  }
  for (auto& h : found) out.handlers.push_back(std::move(h));
  return true;
}

// One hook file (policy, ~/.copilot/hooks/, .github/hooks/, a plugin's hooks.json): a file that
// is not a JSON object is skipped silently (CPM src-broken-file); `version` other than 1 drops
// the file (CPM src-version-2), none is accepted (src-no-version). `disableAllHooks` in one file
// does not disable another file's hooks (CPM src-disable-all).
void read_hook_file(const std::string& path, const std::string& source, LoadedHooks& out,
                    bool settings) {
  auto text = read_text(path);
  if (!text) return;
  const ojson doc = ojson::parse(*text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    out.warnings.push_back(path + ": not a JSON object, skipped");
    return;
  }
  if (!settings && doc.contains("version") && !(doc["version"].is_number_integer() &&
                                                doc["version"].get<long long>() == 1)) {
    out.warnings.push_back(path + ": version is not 1, skipped");
    return;
  }
  if (!doc.contains("hooks")) return;
  if (!doc["hooks"].is_object()) {
    out.warnings.push_back(path + ": hooks is not an object, skipped");
    return;
  }
  read_hooks_object(doc["hooks"], source, path, settings, out);
}

// The *.json files of a folder in directory (readdir) order, as the CLI lists them (CPM: files
// b, a, c, 0 ran c, b, a, 0: not sorted).
std::vector<std::string> json_files(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return out;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const auto& p = it->path();
    if (p.extension() == ".json" && fs::is_regular_file(p, ec)) out.push_back(p.string());
  }
  return out;
}

}  // namespace

Result<LoadedHooks> load_hooks(const Sources& s) {
  LoadedHooks out;
  // CPDOC "Hooks locations": the administrator's policy folder first.
  for (const auto& f : json_files(s.policy_dir)) read_hook_file(f, "policy", out, false);
  // CPM src-order: ~/.copilot/hooks/ files, then ~/.copilot/settings.json's inline hooks (not
  // config.json's: CPM src-user-config-hooks), then the repo's sources when it is trusted.
  if (!s.copilot_home.empty()) {
    for (const auto& f : json_files(s.copilot_home + "/hooks")) read_hook_file(f, "user", out, false);
    read_hook_file(s.copilot_home + "/settings.json", "user-settings", out, true);
  }
  // CPM src-repo-untrusted, src-claude-untrusted: an untrusted repo's hooks do not load in -p.
  if (!s.repo.empty() && s.repo_trusted) {
    for (const auto& f : json_files(s.repo + "/.github/hooks")) read_hook_file(f, "repo", out, false);
    // CPM src-claude-trusted, src-claude-local-trusted, src-order: Claude Code's settings files
    // (PascalCase), then the repo's Copilot settings (src-repo-settings-trusted; CPDOC: the
    // .local file after it).
    if (s.claude_settings) {
      read_hook_file(s.repo + "/.claude/settings.json", "repo-claude", out, true);
      read_hook_file(s.repo + "/.claude/settings.local.json", "repo-claude", out, true);
    }
    read_hook_file(s.repo + "/.github/copilot/settings.json", "repo-settings", out, true);
    read_hook_file(s.repo + "/.github/copilot/settings.local.json", "repo-settings", out, true);
  }
  // CPDOC "Plugins": each installed plugin's hooks.json (root, else hooks/hooks.json); not
  // measured on 1.0.102 (the lane installs no plugin), so they come last.
  for (const auto& d : s.plugin_dirs) {
    std::error_code ec;
    const std::string f = fs::exists(d + "/hooks.json", ec) ? d + "/hooks.json" : d + "/hooks/hooks.json";
    read_hook_file(f, "plugin", out, false);
  }
  return out;
}

std::string runtime_tool_name(const std::string& claude) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"Bash", "bash"},   {"Read", "view"},           {"Write", "create"},
      {"Edit", "edit"},   {"Grep", "grep"},           {"Glob", "glob"},
      {"WebFetch", "web_fetch"}, {"WebSearch", "web_search"},
      {"AskUserQuestion", "ask_user"}, {"TodoWrite", "update_todo"}, {"Agent", "task"},
      {"Task", "task"},
  };
  for (const auto& [c, runtime] : kNames)
    if (claude == c) return runtime;
  return claude;
}

std::string default_policy_dir(const std::map<std::string, std::string>& env) {
  auto it = env.find("PINTA_COPILOT_POLICY_DIR");
  return it != env.end() ? it->second : "/etc/github-copilot/policy.d";
}

std::string default_copilot_home(const std::map<std::string, std::string>& env,
                                 const std::string& home) {
  auto it = env.find("COPILOT_HOME");
  if (it != env.end() && !it->second.empty()) return it->second;
  return home + "/.copilot";
}

bool repo_trusted(const std::string& copilot_home, const std::string& repo,
                  const std::map<std::string, std::string>& env) {
  for (const char* k : {"GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "COPILOT_ALLOW_ALL"}) {
    auto it = env.find(k);
    if (it != env.end() && it->second == "true") return true;
  }
  auto text = read_text(copilot_home + "/config.json");
  if (!text) return false;
  const auto doc = nlohmann::json::parse(*text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("trustedFolders") ||
      !doc["trustedFolders"].is_array())
    return false;
  std::error_code ec;
  const fs::path r = fs::weakly_canonical(repo, ec);
  for (const auto& t : doc["trustedFolders"]) {
    if (!t.is_string()) continue;
    const fs::path folder = fs::weakly_canonical(t.get<std::string>(), ec);
    // A trusted folder covers the folders below it.
    auto rel = r.lexically_relative(folder);
    if (!rel.empty() && *rel.begin() != "..") return true;
  }
  return false;
}

std::vector<HookHandler> plan(const LoadedHooks& hooks, const std::string& event,
                              const std::string& runtime_tool) {
  std::vector<HookHandler> out;
  const std::string want = canonical_event(event);
  for (const auto& h : hooks.handlers) {
    if (h.canonical != want) continue;
    // Matchers filter the tool events only; `runtime_tool` is empty for the others.
    if (!runtime_tool.empty() && h.has_matcher &&
        !matcher_matches(h.format, h.matcher, runtime_tool))
      continue;
    out.push_back(h);
  }
  return out;
}

}  // namespace pinta::hosts::copilot
