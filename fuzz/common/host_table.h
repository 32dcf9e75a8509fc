// File: fuzz/common/host_table.h
// The fuzzers' and properties' view of the hosts: the events each host sends and what it accepts
// on the adapter's stdout. Every list and rule comes from the host registry (hosts/, the one
// reply check: pinta/hosts/reply_check.h), which is written from the host references and NOT
// from adapter/src/core/protocol.cc, so fuzzers, properties and the campaign judge the adapter
// against the hosts rather than against itself.
#pragma once

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>
#include <string_view>

#include "pinta/hosts/reply_check.h"

namespace pinta::fuzz {

// The registered families (pinta/hosts/family.h); the harnesses loop over the registry.
using Host = pinta::hosts::Family;
using ReplyKind = pinta::hosts::ReplyKind;

// The family of an --agent label, or none for a label no family registers (the adapter then
// gives the fail-safe reply): no default family.
inline std::optional<Host> host_for_agent(std::string_view agent) {
  return pinta::hosts::family_for_label(agent);
}

// Every registered --agent label, then labels no family registers (the fail-safe path).
inline std::vector<std::string> agent_labels_with_unknowns() {
  std::vector<std::string> v;
  for (const auto& d : pinta::hosts::families())
    for (auto l : d.agent_labels)
      if (!l.empty()) v.emplace_back(l);
  for (const char* u : {"", "Gemini", "claude_code", "x"}) v.emplace_back(u);
  return v;
}

// Every event of every family in every spelling (aliases too), then names no host sends.
inline std::vector<std::string> event_names_with_unknowns() {
  std::vector<std::string> v;
  auto add = [&](std::string_view e) {
    if (std::find(v.begin(), v.end(), e) == v.end()) v.emplace_back(e);
  };
  for (const auto& d : pinta::hosts::families()) {
    for (auto e : d.events) add(e);
    for (const auto& a : d.aliases) add(a.alias);
  }
  for (const char* u : {"", "beforetool", "Nope", "pretooluse"}) add(u);
  return v;
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
// `exit_status` is the status the adapter returns with it (an exit-code host's deny).
inline std::string judge_reply(Host h, std::string_view event, std::string_view line,
                               ReplyKind* kind = nullptr, int exit_status = 0) {
  // An empty reply is no output at all (main writes nothing: exit-code hosts, Claude Code).
  std::string out(line);
  if (!out.empty()) out += '\n';
  const pinta::hosts::ReplyCheck c = pinta::hosts::check_reply(h, event, {out, exit_status});
  if (c.ok() && kind != nullptr) *kind = c.kind;
  return c.why();
}

}  // namespace pinta::fuzz

namespace pinta::fuzz {

// The reason a deny reply carries, as the host reads it: the text of an exit-code host, Claude
// Code's permissionDecisionReason, the JSON hosts' `reason`; null when there is none.
inline nlohmann::json deny_reason(Host h, std::string_view reply) {
  if (pinta::hosts::answers_by_exit_status(h)) return std::string(reply);
  const nlohmann::json j = nlohmann::json::parse(reply, nullptr, false);
  if (!j.is_object()) return nullptr;
  if (auto it = j.find("hookSpecificOutput"); it != j.end() && it->is_object())
    return it->value("permissionDecisionReason", nlohmann::json());
  return j.value("reason", nlohmann::json());
}

}  // namespace pinta::fuzz
