// File: pinta/adapter/protocol.h
// What each host expects on stdout, per event: the one table of replies (allow / fail-safe, deny),
// built at compile time from the family registry (each family's descriptor holds its rows, its
// reply forms and their evidence). Everything that prints a decision reads it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "pinta/hosts/family.h"

namespace pinta::adapter {

// The payload families: the host family registry (pinta/hosts/family.h), used at compile time.
using Family = hosts::Family;

// The family whose `--agent` labels (the registry's, exact) hold `agent_label`; none for a label
// no family registers: that event gets the fail-safe reply (fail_safe_for) and a note in the
// debug log, never another family's protocol.
std::optional<Family> family_for_agent(std::string_view agent_label) noexcept;
// The registry's prefix: span attribute prefix, ingest.type, trace-store key prefix.
std::string_view family_prefix(Family f) noexcept;
// OTel resource service.name of the host ("gemini-cli", "antigravity", "deel-local-cli",
// "claude-code").
std::string_view family_service_name(Family f) noexcept;

// An exit-code host answers by exit status, not by a JSON line (the registry's ReplyReading;
// deel-local-cli, seed 004 hooks.js 훅돌리기, lines 444-457: exit 0 passes, exit 2 blocks at a
// blocking point with stdout+stderr as the message, and any output at all becomes a note the user
// sees). So for such a family an allow is *no output* and exit 0, and a deny is the reason text on
// stdout and its block status.
using hosts::answers_by_exit_status;
// The exit status that goes with a deny reply of this family (the exit-code host's block status;
// 0 for every family that reads a JSON deny).
int deny_exit_status(Family f) noexcept;

// The host's own event name for an alias the host also accepts (the registry's aliases:
// deel-local-cli names its events in Korean and English, seed 004 자리표, lines 213-218); the
// English name is canonical here. Other names are returned unchanged (the view stays valid).
std::string_view canonical_event(Family f, std::string_view event) noexcept;

struct ReplyRow {
  Family family{};
  std::string_view event;   // the host's own event name, case-sensitive
  bool gate = false;        // guard is consulted (the family's gate event)
  bool deny_allowed = false;  // a deny reply is meaningful and safe on this event
  std::string_view allow;   // allow / no-opinion reply, also the fail-safe reply ("" = no output)
  std::string_view evidence;
};

// Row for (family, event), or nullptr for an event the host is not known to send.
const ReplyRow* find_reply_row(Family f, std::string_view event) noexcept;

// The fail-safe reply line (without newline) for any (family, event), known or not; empty means
// "print nothing" (deel-local-cli). Never allocates, so it can be printed from the last-resort
// error path. Its exit status is always 0.
std::string_view fail_safe_reply(Family f, std::string_view event) noexcept;
// Fail-safe for when not even the agent is known (missing, empty or unregistered --agent).
inline constexpr std::string_view kUnknownHostReply = "{}";
// The fail-safe reply when the family is not known (fail_safe_for): `{}`, except on PreToolUse,
// where `{}` is read as a deny by a protojson host (Antigravity, AGY§6.2) and an explicit
// `{"decision":"allow"}` is read as allow by every JSON-line host (Gemini CLI: GEM§5).
inline constexpr std::string_view kUnknownHostGateReply = R"({"decision":"allow"})";
std::string_view unknown_agent_reply(std::string_view event) noexcept;

// Deny reply in the host's format; falls back to the allow reply on events where a deny has no
// safe meaning. The reason is JSON-escaped (invalid UTF-8 replaced); for an exit-code host it is
// the reason as plain text (invalid UTF-8 and control characters other than newline and tab
// replaced, never empty), printed with exit status deny_exit_status(). Claude Code: a
// hookSpecificOutput permissionDecision "deny" with exit status 0.
std::string deny_reply(Family f, std::string_view event, std::string_view reason);
// Native "ask" reply where the host has one on this event; otherwise the allow reply.
std::string ask_reply(Family f, std::string_view event, std::string_view reason);

// All rows, for docs and tests.
struct ReplyTable {
  const ReplyRow* rows;
  size_t size;
};
ReplyTable reply_table() noexcept;

}  // namespace pinta::adapter
