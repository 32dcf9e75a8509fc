// GitHub Copilot CLI 1.0.102 hooks as data. Evidence: CP = shared/reference/real-hosts.md
// (measured); CPDOC = github/docs content/copilot/reference/hooks-reference.md.
// PINTA-PLACEHOLDER: load_hooks and plan are replaced by the hosts helper (the loader over every
// source); the event names, formats, Claude tool names and matchers below are final.
#include "pinta/hosts/copilot/copilot.h"

#include <algorithm>
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

Result<LoadedHooks> load_hooks(const Sources&) {
  return make_error(ErrorCode::kInvalidArgument, "copilot: the hook loader is not built yet");
}

std::vector<HookHandler> plan(const LoadedHooks& hooks, const std::string& event,
                              const std::string& runtime_tool) {
  std::vector<HookHandler> out;
  const std::string want = canonical_event(event);
  for (const auto& h : hooks.handlers) {
    if (h.canonical != want) continue;
    if (h.has_matcher && !matcher_matches(h.format, h.matcher, runtime_tool)) continue;
    out.push_back(h);
  }
  return out;
}

}  // namespace pinta::hosts::copilot
