// File: fuzz/common/host_table.h
// The fuzzers' and properties' view of the hosts: the events each host sends and what it accepts
// on the adapter's stdout. Every list and rule comes from the host registry (hosts/, the one
// reply check: pinta/hosts/reply_check.h), which is written from the host references and NOT
// from adapter/src/core/protocol.cc, so fuzzers, properties and the campaign judge the adapter
// against the hosts rather than against itself.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "pinta/hosts/reply_check.h"

namespace pinta::fuzz {

// The two JSON-line families the in-process harnesses drive.
using Host = pinta::hosts::Family;
using ReplyKind = pinta::hosts::ReplyKind;

inline Host host_for_agent(std::string_view agent) {
  return agent == "gemini" ? Host::kGemini : Host::kAntigravity;
}

inline const std::vector<std::string>& events(Host h) { return pinta::hosts::events(h); }
inline bool known_event(Host h, std::string_view event) {
  return pinta::hosts::known_event(h, event);
}
inline bool gate_event(Host h, std::string_view event) {
  return pinta::hosts::gate_event(h, event);
}
inline bool deny_meaningful(Host h, std::string_view event) {
  return pinta::hosts::deny_meaningful(h, event);
}
inline nlohmann::json allow_reply(Host h, std::string_view event) {
  return pinta::hosts::allow_reply(h, event);
}

// Checks one reply as the adapter's handler returns it (the line without its '\n'; the adapter's
// main writes the newline) with the one reply check; "" when the host accepts it, else why not.
// `kind` receives what the reply means to the host.
inline std::string judge_reply(Host h, std::string_view event, std::string_view line,
                               ReplyKind* kind = nullptr) {
  // An empty reply is no output at all (main writes nothing: exit-code hosts, Claude Code).
  std::string out(line);
  if (!out.empty()) out += '\n';
  const pinta::hosts::ReplyCheck c = pinta::hosts::check_reply(h, event, {out, 0});
  if (c.ok() && kind != nullptr) *kind = c.kind;
  return c.why();
}

}  // namespace pinta::fuzz
