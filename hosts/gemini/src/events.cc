// The 11 hook event names of Gemini CLI 0.61.0 (core hooks/types.js HookEventName), §2.1.
#include <algorithm>

#include "pinta/hosts/gemini/gemini.h"

namespace pinta::hosts::gemini {

const std::vector<std::string>& event_names() {
  static const std::vector<std::string> kNames = {
      "BeforeTool",  "AfterTool",    "BeforeAgent",        "Notification",
      "AfterAgent",  "SessionStart", "SessionEnd",         "PreCompress",
      "BeforeModel", "AfterModel",   "BeforeToolSelection"};
  return kNames;
}

bool is_event_name(std::string_view name) {
  const auto& n = event_names();
  return std::find(n.begin(), n.end(), name) != n.end();
}

}  // namespace pinta::hosts::gemini
