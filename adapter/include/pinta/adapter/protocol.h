// File: pinta/adapter/protocol.h
// What each host expects on stdout, per event: the one table of replies (allow / fail-safe, deny),
// kept as data with the evidence for every row. Everything that prints a decision reads it.
#pragma once

#include <string>
#include <string_view>

namespace pinta::adapter {

// The two payload families. `--agent gemini` is Gemini CLI; every other label (antigravity,
// antigravity1, antigravity2, agy, ...) is the Antigravity protocol (seed SPEC §5).
enum class Family { kGemini, kAntigravity };

Family family_for_agent(std::string_view agent_label) noexcept;
std::string_view family_prefix(Family f) noexcept;  // "gemini" | "antigravity" (span/attr prefix)

struct ReplyRow {
  Family family;
  std::string_view event;   // the host's own event name, case-sensitive
  bool gate;                // guard is consulted (Gemini BeforeTool, Antigravity PreToolUse)
  bool deny_allowed;        // a deny reply is meaningful and safe on this event
  std::string_view allow;   // allow / no-opinion reply, also the fail-safe reply
  std::string_view evidence;
};

// Row for (family, event), or nullptr for an event the host is not known to send.
const ReplyRow* find_reply_row(Family f, std::string_view event) noexcept;

// The fail-safe reply line (without newline) for any (family, event), known or not. Never
// allocates, so it can be printed from the last-resort error path.
std::string_view fail_safe_reply(Family f, std::string_view event) noexcept;
// Fail-safe for when not even the agent is known (missing/invalid --agent).
inline constexpr std::string_view kUnknownHostReply = "{}";

// Deny reply in the host's format; falls back to the allow reply on events where a deny has no
// safe meaning. The reason is JSON-escaped (invalid UTF-8 replaced).
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
