// File: pinta/adapter/protocol.h
// What each host expects on stdout, per event: the one table of replies (allow / fail-safe, deny),
// kept as data with the evidence for every row. Everything that prints a decision reads it.
#pragma once

#include <string>
#include <string_view>

namespace pinta::adapter {

// The payload families. `--agent gemini` is Gemini CLI; `--agent deel` is deel-local-cli (an
// exit-code protocol, see below); every other label (antigravity, antigravity1, antigravity2, agy,
// ...) is the Antigravity protocol (seed SPEC §5).
enum class Family { kGemini, kAntigravity, kDeel };

Family family_for_agent(std::string_view agent_label) noexcept;
// "gemini" | "antigravity" | "deel": span attribute prefix, ingest.type, trace-store key prefix.
std::string_view family_prefix(Family f) noexcept;
// OTel resource service.name of the host: "gemini-cli" | "antigravity" | "deel-local-cli".
std::string_view family_service_name(Family f) noexcept;

// deel-local-cli answers by exit status, not by a JSON line (seed 004 hooks.js 훅돌리기, lines
// 444-457): exit 0 passes, exit 2 blocks at a blocking point with stdout+stderr as the message,
// and any output at all becomes a note the user sees. So for this family an allow is *no output*
// and exit 0, and a deny is the reason text on stdout and exit 2.
bool answers_by_exit_status(Family f) noexcept;
// The exit status that goes with a deny reply of this family (2 for deel, 0 otherwise).
int deny_exit_status(Family f) noexcept;

// The host's own event name for an alias the host also accepts: deel-local-cli names its events in
// Korean and English (seed 004 자리표, lines 213-218: 도구전=PreToolUse, 도구후=PostToolUse,
// 말전=UserPromptSubmit, 턴끝=Stop); the English name is canonical here. Other families and
// unknown names are returned unchanged (the view stays valid: either `event` or a literal).
std::string_view canonical_event(Family f, std::string_view event) noexcept;

struct ReplyRow {
  Family family;
  std::string_view event;   // the host's own event name, case-sensitive
  bool gate;                // guard is consulted (Gemini BeforeTool, Antigravity PreToolUse)
  bool deny_allowed;        // a deny reply is meaningful and safe on this event
  std::string_view allow;   // allow / no-opinion reply, also the fail-safe reply ("" = no output)
  std::string_view evidence;
};

// Row for (family, event), or nullptr for an event the host is not known to send.
const ReplyRow* find_reply_row(Family f, std::string_view event) noexcept;

// The fail-safe reply line (without newline) for any (family, event), known or not; empty means
// "print nothing" (deel-local-cli). Never allocates, so it can be printed from the last-resort
// error path. Its exit status is always 0.
std::string_view fail_safe_reply(Family f, std::string_view event) noexcept;
// Fail-safe for when not even the agent is known (missing/invalid --agent).
inline constexpr std::string_view kUnknownHostReply = "{}";

// Deny reply in the host's format; falls back to the allow reply on events where a deny has no
// safe meaning. The reason is JSON-escaped (invalid UTF-8 replaced); for deel-local-cli it is the
// reason as plain text (invalid UTF-8 and control characters other than newline and tab replaced,
// never empty), printed with exit status deny_exit_status().
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
