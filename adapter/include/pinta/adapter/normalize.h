// File: pinta/adapter/normalize.h
// One canonical event for every payload family (pinta/hosts/family.h: the payload shapes) (seed SPEC §6, DG2). The event name always comes
// from --event (SPEC §3.2, DG1: hosts keep the arguments; no payload inference).
#pragma once

#include <string>
#include <span>
#include <string_view>

#include <nlohmann/json.hpp>

#include "pinta/adapter/protocol.h"

namespace pinta::adapter {

struct CanonicalEvent {
  Family family{};  // always set by normalize()
  std::string agent;            // the --agent label as given (gemini, antigravity, agy, ...)
  std::string hook;             // the --event value as given
  bool known_event = false;     // the host is known to send this event (protocol table)
  // A known tool-call event: Gemini BeforeTool/AfterTool (GEM§7), Antigravity and deel-local-cli
  // PreToolUse/PostToolUse (AGY§8; seed 004 자리표 도구전/도구후). tool_name may still be absent
  // (Antigravity PostToolUse fires on non-tool steps with toolCall:null, AGY§8 [OBS 1.0.5]).
  bool tool_event = false;
  std::string session_id;       // gemini session_id | antigravity conversationId
  std::string cwd;              // gemini cwd | antigravity workspacePaths[0]
  std::string transcript_path;  // gemini transcript_path | antigravity transcriptPath
  std::string tool_name;        // gemini tool_name | antigravity toolCall.name (may be absent)
  nlohmann::json tool_input;    // gemini tool_input | antigravity toolCall.args; null if absent
  std::string tool_call_id;     // the host's tool call id (Claude Code tool_use_id), "" if none
  std::string product;          // where the family reads it from the transcript path
                                // (PayloadShape::products): agy | antigravity2 |
                                // unknown (SPEC §9.4, DG11)
  nlohmann::json raw;           // the whole payload object, untouched
  // Set by the handler: the payload was not read whole (input cap, EOF or deadline inside the
  // object, bytes after it, not JSON past some point), so this event holds only the members that
  // arrived whole; and how many values nesting cuts left out (bounded_json.h; normalize() counts
  // those of a tool input sent as JSON text, the handler adds the payload's). The guard is told
  // (GUARD-14).
  bool payload_incomplete = false;
  size_t cut_values = 0;
};

// Total: any object (even {}) normalizes; fields of the wrong type are treated as absent.
CanonicalEvent normalize(Family family, std::string_view agent, std::string_view event,
                         nlohmann::json payload);

// agy → `.../antigravity-cli/brain/...`; Antigravity 2.0 app → `.../antigravity/brain/...`,
// IDE → `.../antigravity-ide/...` (SPEC §9.4; shared/reference/antigravity-hooks.md §8).
std::string product_from_transcript_path(std::span<const hosts::ProductMarker> products,
                                        std::string_view path);

// The canonical event as JSON (for the debug log and tests).
nlohmann::json to_json(const CanonicalEvent& e);

}  // namespace pinta::adapter
