// What each host accepts from a hook process: the one implementation of the reply check.
//
// Every place that judges an adapter's reply asks check_reply(): the conformance runner (OUT-1
// and the reply expectations), `hostemu replay` (its contract column), the process fuzz campaign
// and the in-process fuzzers and properties. It is written from the host references, never from
// adapter/src/protocol.cc, so a check of the adapter against it is a check against the hosts.
//
// A reply is judged in two layers:
//   framing  the bytes of the process's stdout (and its exit status and stderr where the host
//            reads them: the family's ReplyReading, pinta/hosts/family.h):
//            for the JSON-line hosts exactly one JSON object, then one '\n', nothing else — no
//            byte-order mark, no whitespace or other bytes around the object (docs/contract.md
//            OUT-1). JSON.parse in Node skips a BOM-less leading space and nlohmann skips a BOM
//            and spaces, so the framing is checked on the bytes before any parser sees them.
//   shape    what the object means to this host on this event (which fields, which decisions),
//            from the host reference; see reply_check.cc for each rule and its evidence.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pinta/hosts/family.h"

namespace pinta::hosts {

// A family's name or one of its --agent labels (pinta/hosts/family.h) → family.
std::optional<Family> family_named(std::string_view name);
const char* family_name(Family f);

// The events each family sends hooks for (the registry's lists, pinta/hosts/events.h, with their
// evidence).
const std::vector<std::string>& events(Family f);
bool known_event(Family f, std::string_view event);
// The event where the guard decides: the tool gate of each host.
bool gate_event(Family f, std::string_view event);
// Events where a deny reply has a safe, documented meaning.
bool deny_meaningful(Family f, std::string_view event);
// The "no objection" reply this host needs on this event; for an exit-code host, and for Claude
// Code (whose allow is no output at all), an empty object standing for "no output, exit 0".
nlohmann::json allow_reply(Family f, std::string_view event);

enum class ReplyKind { kAllow, kDeny, kAsk };

// What the host received from one hook run.
struct HookResult {
  std::string_view out;            // stdout bytes, as written
  std::optional<int> exit_code{0};  // nullopt: killed by a signal or never exited
  std::string_view err{};          // stderr bytes, as written (the message of a blocking exit
                                   // status where the host reads it from stderr)
};

struct ReplyCheck {
  std::string framing;   // "" when the bytes honour the host's output contract, else why not
  std::string shape;     // "" when the reply means something valid here, else why not
  nlohmann::json reply;  // the parsed object (JSON hosts), null when framing failed
  ReplyKind kind = ReplyKind::kAllow;
  bool ok() const { return framing.empty() && shape.empty(); }
  // The first problem, framing before shape ("" when ok()).
  const std::string& why() const { return framing.empty() ? shape : framing; }
};

ReplyCheck check_reply(Family f, std::string_view event, const HookResult& r);

// The framing layer alone for the JSON-line hosts (conformance's `stdout: one_json_line`).
// Returns "" and fills *parsed when `out` is exactly one JSON object line.
std::string check_json_line(std::string_view out, nlohmann::json* parsed);

}  // namespace pinta::hosts
