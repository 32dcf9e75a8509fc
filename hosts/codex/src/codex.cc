// PINTA-PLACEHOLDER: replaced by the hosts helper (loader, trust, matchers, planner).
#include "pinta/hosts/codex/codex.h"

namespace pinta::hosts::codex {
const std::vector<std::string>& events() {
  static const std::vector<std::string> k = {"SessionStart", "UserPromptSubmit", "PreToolUse",
                                             "PermissionRequest", "PostToolUse", "PreCompact",
                                             "PostCompact", "SubagentStart", "SubagentStop",
                                             "Stop", "SessionEnd"};
  return k;
}
bool is_event(const std::string& name) {
  for (const auto& e : events())
    if (e == name) return true;
  return false;
}
std::vector<std::string> match_names(const std::string& tool_name) { return {tool_name}; }
MatcherKind matcher_kind(const std::string&) { return MatcherKind::kAll; }
bool matcher_matches(const std::string&, const std::string&) { return true; }
Result<LoadedHooks> load_hooks(const Sources&) { return LoadedHooks{}; }
std::string trust_key(const std::string& p, const std::string& e, int g, int h) {
  return p + ":" + e + ":" + std::to_string(g) + ":" + std::to_string(h);
}
std::string trust_hash(const HookHandler&) { return ""; }
std::vector<HookHandler> plan(const LoadedHooks&, const std::string&, const std::string&, bool) {
  return {};
}
}  // namespace pinta::hosts::codex
