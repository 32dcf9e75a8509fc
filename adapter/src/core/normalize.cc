#include "pinta/adapter/normalize.h"

#include <algorithm>

#include "pinta/adapter/bounded_json.h"
#include "pinta/adapter/handler.h"
#include "pinta/adapter/input.h"

namespace pinta::adapter {
namespace {

using nlohmann::json;

std::string str_field(const json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) return {};
  return it->get<std::string>();
}

// A tool input sent as the JSON text of an object (PayloadShape::tool_input_json_text): the
// object, read as a payload is (depth bounded below the payload's own level, the values bounded,
// a JavaScript lone surrogate made U+FFFD), its cuts counted in `cut_values`. A text that is not
// one whole JSON object stays the string: the guard still judges it, bounded like any argument.
void read_json_text(json& tool_input, size_t& cut_values) {
  const std::string& text = tool_input.get_ref<const std::string&>();
  auto first = std::find_if_not(text.begin(), text.end(), [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  });
  if (first == text.end() || *first != '{') return;  // no object: nothing to read
  BoundedParse p = parse_bounded(text, kMaxPayloadDepth - 1);
  if (!p.complete) {
    std::string repaired = text;
    if (!repair_lone_surrogates(repaired)) return;
    p = parse_bounded(repaired, kMaxPayloadDepth - 1);
  }
  if (!p.complete || !p.value.is_object()) return;
  cut_values += p.cut_values;
  tool_input = std::move(p.value);
}

}  // namespace

std::string product_from_transcript_path(std::span<const hosts::ProductMarker> products,
                                        std::string_view path) {
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
  for (const auto& m : products)
    if (has(m.folder)) return std::string(m.product);
  return "unknown";
}

CanonicalEvent normalize(Family family, std::string_view agent, std::string_view event, json payload) {
  CanonicalEvent e;
  e.family = family;
  e.agent = std::string(agent);
  e.hook = std::string(event);
  e.known_event = find_reply_row(family, event) != nullptr;
  e.tool_event = e.known_event && hosts::is_tool_event(family, event);
  if (!payload.is_object()) payload = json::object();
  // Where each field is: the family's payload shape (pinta/hosts/family.h, with its evidence):
  // Gemini (GEM§7) and Claude Code (real-hosts.md) session_id, cwd, transcript_path, tool_name,
  // tool_input; Antigravity (AGY§8) conversationId, workspacePaths[0], transcriptPath,
  // toolCall {name, args}; deel-local-cli (DEEL l.427, l.480) {자리, 도구, ...rest}. A family
  // whose payload depends on the hook-file format has one shape per label: the label decides.
  const hosts::PayloadShape& shape = hosts::payload_shape(family, agent);
  auto key = [](std::string_view k) { return std::string(k); };
  if (!shape.session_id.empty()) e.session_id = str_field(payload, key(shape.session_id).c_str());
  if (!shape.cwd.empty()) {
    if (!shape.cwd_first_of_array) {
      e.cwd = str_field(payload, key(shape.cwd).c_str());
    } else if (auto it = payload.find(key(shape.cwd));
               it != payload.end() && it->is_array() && !it->empty() && (*it)[0].is_string()) {
      e.cwd = (*it)[0].get<std::string>();
    }
  }
  if (!shape.transcript_path.empty())
    e.transcript_path = str_field(payload, key(shape.transcript_path).c_str());
  if (!shape.tool_call_id.empty())
    e.tool_call_id = str_field(payload, key(shape.tool_call_id).c_str());
  const json* tool = &payload;
  if (!shape.tool_object.empty()) {
    // Antigravity PostToolUse may carry toolCall:null (SPEC §6, PART F.3): no tool fields then.
    auto it = payload.find(key(shape.tool_object));
    tool = it != payload.end() && it->is_object() ? &*it : nullptr;
  }
  if (tool != nullptr) {
    e.tool_name = str_field(*tool, key(shape.tool_name).c_str());
    if (!shape.tool_input.empty()) {
      if (auto it = tool->find(key(shape.tool_input)); it != tool->end()) e.tool_input = *it;
      if (shape.tool_input_json_text && e.tool_input.is_string())
        read_json_text(e.tool_input, e.cut_values);
    } else {
      // deel-local-cli: the caller's own fields are not in the seed, so every member but the
      // event and the tool name is kept as the tool input; no session id or cwd (each event then
      // starts its own trace).
      json rest = json::object();
      for (auto it = tool->begin(); it != tool->end(); ++it)
        if (it.key() != shape.event_key && it.key() != shape.tool_name) rest[it.key()] = it.value();
      if (!e.tool_name.empty() || !rest.empty()) e.tool_input = std::move(rest);
    }
  }
  if (!shape.products.empty()) e.product = product_from_transcript_path(shape.products, e.transcript_path);
  e.raw = std::move(payload);
  return e;
}

json to_json(const CanonicalEvent& e) {
  json j = {{"agent", e.agent},     {"family", std::string(family_prefix(e.family))},
            {"hook", e.hook},       {"known_event", e.known_event},
            {"session_id", e.session_id}, {"cwd", e.cwd},
            {"transcript_path", e.transcript_path}, {"tool_name", e.tool_name},
            {"tool_input", e.tool_input}};
  if (!e.tool_call_id.empty()) j["tool_call_id"] = e.tool_call_id;
  if (!hosts::payload_shape(e.family, e.agent).products.empty()) j["product"] = e.product;
  return j;
}

}  // namespace pinta::adapter
