// File: pinta/adapter/identifiers.h
// Which top-level fields of a payload are identifiers: only those the family's own schema
// defines as such (hosts::PayloadShape: the event name, session id, cwd, transcript path, tool
// call id, and the tool name where the tool call is at the top level). An identifier passes the
// redactor like every other value; it is only never masked for its name (`session_id` is a
// secret name elsewhere). A host that spreads a tool's arguments as top-level members (deel,
// DEEL l.427) has no `cwd` or `session_id` in its schema, so an argument of that name is an
// argument there, masked like any other. Used by spans (otlp.cc) and the debug log.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string_view>

#include "pinta/hosts/family.h"

namespace pinta::adapter {

struct IdentifierKeys {
  std::array<std::string_view, 6> keys{};
  std::size_t count = 0;
  constexpr std::span<const std::string_view> span() const { return {keys.data(), count}; }
  constexpr bool contains(std::string_view key) const {
    for (std::size_t i = 0; i < count; ++i)
      if (keys[i] == key) return true;
    return false;
  }
};

// The identifier fields of family `f`'s payload as a hook registered under `agent` receives it
// (the fields its host does not send are left out).
constexpr IdentifierKeys payload_identifier_keys(hosts::Family f, std::string_view agent = {}) {
  const hosts::PayloadShape& shape = hosts::payload_shape(f, agent);
  IdentifierKeys out;
  for (std::string_view id : {shape.event_key, shape.session_id, shape.cwd, shape.transcript_path,
                              shape.tool_call_id,
                              shape.tool_object.empty() ? shape.tool_name : std::string_view()}) {
    if (!id.empty()) out.keys[out.count++] = id;
  }
  return out;
}

// The identifier fields of the canonical event as the debug log records it (normalize.h
// to_json): our own schema, the same for every family.
inline constexpr std::array<std::string_view, 8> kCanonicalIdentifierKeys = {
    "agent", "family", "hook", "session_id", "cwd", "transcript_path", "tool_call_id", "product"};

}  // namespace pinta::adapter
