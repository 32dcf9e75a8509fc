#include "pinta/adapter/normalize.h"

namespace pinta::adapter {
namespace {

using nlohmann::json;

std::string str_field(const json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) return {};
  return it->get<std::string>();
}

}  // namespace

std::string product_from_transcript_path(std::string_view path) {
  auto has = [&](std::string_view dir) {
    // Match a whole path component, with either separator (Windows hosts use '\').
    for (char sep : {'/', '\\'}) {
      std::string needle;
      needle += sep;
      needle += dir;
      needle += sep;
      if (path.find(needle) != std::string_view::npos) return true;
    }
    return false;
  };
  if (path.empty()) return "unknown";
  if (has("antigravity-cli")) return "agy";
  if (has("antigravity") || has("antigravity-ide")) return "antigravity2";
  return "unknown";
}

CanonicalEvent normalize(Family family, std::string_view agent, std::string_view event, json payload) {
  CanonicalEvent e;
  e.family = family;
  e.agent = std::string(agent);
  e.hook = std::string(event);
  e.known_event = find_reply_row(family, event) != nullptr;
  e.tool_event = e.known_event &&
                 (family == Family::kGemini ? (event == "BeforeTool" || event == "AfterTool")
                                            : (event == "PreToolUse" || event == "PostToolUse"));
  if (!payload.is_object()) payload = json::object();
  if (family == Family::kGemini) {
    // GEM§7 base input: session_id, transcript_path, cwd, hook_event_name, timestamp.
    e.session_id = str_field(payload, "session_id");
    e.cwd = str_field(payload, "cwd");
    e.transcript_path = str_field(payload, "transcript_path");
    e.tool_name = str_field(payload, "tool_name");
    if (auto it = payload.find("tool_input"); it != payload.end()) e.tool_input = *it;
  } else if (family == Family::kDeel) {
    // deel-local-cli 1.17 sends JSON.stringify({자리, 도구, ...rest}) (seed 004 hooks.js l.427 and
    // 자리돌리기 l.480): the tool name is 도구 (null outside tool events); the caller's own fields
    // are not in the seed, so everything but 자리/도구 is kept as the tool input, and there is no
    // session id or cwd to read (each event then starts its own trace).
    e.tool_name = str_field(payload, "도구");
    json rest = json::object();
    for (auto it = payload.begin(); it != payload.end(); ++it) {
      if (it.key() != "자리" && it.key() != "도구") rest[it.key()] = it.value();
    }
    if (!e.tool_name.empty() || !rest.empty()) e.tool_input = std::move(rest);
  } else {
    // AGY§8 common fields: conversationId, workspacePaths[], transcriptPath, artifactDirectoryPath.
    e.session_id = str_field(payload, "conversationId");
    if (auto it = payload.find("workspacePaths"); it != payload.end() && it->is_array() && !it->empty() &&
                                                   (*it)[0].is_string()) {
      e.cwd = (*it)[0].get<std::string>();
    }
    e.transcript_path = str_field(payload, "transcriptPath");
    // PostToolUse may carry toolCall:null (SPEC §6, PART F.3) — tool fields stay absent then.
    if (auto it = payload.find("toolCall"); it != payload.end() && it->is_object()) {
      e.tool_name = str_field(*it, "name");
      if (auto a = it->find("args"); a != it->end()) e.tool_input = *a;
    }
    e.product = product_from_transcript_path(e.transcript_path);
  }
  e.raw = std::move(payload);
  return e;
}

json to_json(const CanonicalEvent& e) {
  json j = {{"agent", e.agent},     {"family", std::string(family_prefix(e.family))},
            {"hook", e.hook},       {"known_event", e.known_event},
            {"session_id", e.session_id}, {"cwd", e.cwd},
            {"transcript_path", e.transcript_path}, {"tool_name", e.tool_name},
            {"tool_input", e.tool_input}};
  if (e.family == Family::kAntigravity) j["product"] = e.product;
  return j;
}

}  // namespace pinta::adapter
