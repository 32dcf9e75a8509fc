// The features a case may require and the events it may name by meaning
// (pinta/conformance/features.h), each computed from the family descriptor
// (pinta/hosts/family.h). A new family gets its features from its descriptor: nothing here names
// a family.
#include "pinta/conformance/features.h"

#include <algorithm>
#include <array>

namespace pinta::conformance {
namespace {

using pinta::hosts::FamilyDescriptor;
using pinta::hosts::ReplyReading;

bool has_gate(const FamilyDescriptor& d) { return !d.gate_event.empty(); }
// The first tool event that is not the gate: the one sent after the tool ran.
std::string_view tool_after(const FamilyDescriptor& d) {
  for (auto e : d.tool_events)
    if (e != d.gate_event) return e;
  return {};
}

constexpr std::array kFeatures = {
    Feature{"gate", "the host sends a tool gate: an event before a tool runs (gate_event)",
            has_gate},
    Feature{"guard",
            "a block on the gate event stops the tool (gate_event is a blocking event), so the "
            "guard's verdict decides there",
            [](const FamilyDescriptor& d) {
              return has_gate(d) && pinta::hosts::in_list(d.blocking_events, d.gate_event);
            }},
    Feature{"ask", "the host has a native \"ask the user\" on its gate (ask_on_gate)",
            [](const FamilyDescriptor& d) { return has_gate(d) && d.ask_on_gate; }},
    Feature{"tool-after",
            "the host sends an event after the tool ran (a tool event besides the gate)",
            [](const FamilyDescriptor& d) { return !tool_after(d).empty(); }},
    Feature{"turn-start",
            "the host sends an event that opens a user turn (payload.turn_start_event)",
            [](const FamilyDescriptor& d) { return !d.payload.turn_start_event.empty(); }},
    Feature{"json-line",
            "the host reads exactly one JSON object line on stdout at exit 0, on every event, and "
            "nothing else (reads: kJsonStdout; contract OUT-1)",
            [](const FamilyDescriptor& d) { return d.reads == ReplyReading::kJsonStdout; }},
    Feature{"json-reply",
            "the host reads a verdict from a JSON object on stdout at exit 0 (reads: kJsonStdout "
            "or kBoth)",
            [](const FamilyDescriptor& d) { return d.reads != ReplyReading::kExitStatus; }},
    Feature{
        "exit-status",
        "a blocking exit status (block_status) with a message stream is a verdict, and an allow "
        "is no output (reads: kExitStatus or kBoth)",
        [](const FamilyDescriptor& d) {
          return d.reads != ReplyReading::kJsonStdout && d.block_status != 0;
        }},
    Feature{"session-id", "the payload carries a session id (payload.session_id)",
            [](const FamilyDescriptor& d) { return !d.payload.session_id.empty(); }},
    Feature{"cwd", "the payload carries the working directory (payload.cwd)",
            [](const FamilyDescriptor& d) { return !d.payload.cwd.empty(); }},
    Feature{"transcript", "the payload names the session transcript (payload.transcript_path)",
            [](const FamilyDescriptor& d) { return !d.payload.transcript_path.empty(); }},
    Feature{"trace-parent",
            "the host hands its hooks a W3C trace context (payload.trace_parent_env or "
            "payload.trace_parent_key; contract TRACE-4)",
            [](const FamilyDescriptor& d) {
              return !d.payload.trace_parent_env.empty() || !d.payload.trace_parent_key.empty();
            }},
    Feature{"tool-call-id",
            "the payload carries the host's id of the tool call (payload.tool_call_id)",
            [](const FamilyDescriptor& d) { return !d.payload.tool_call_id.empty(); }},
};

std::vector<std::string> one(std::string_view e) {
  return e.empty() ? std::vector<std::string>{} : std::vector<std::string>{std::string(e)};
}

constexpr std::array kRoles = {
    EventRole{"gate", "the tool gate (gate_event)", "gate", false,
              [](const FamilyDescriptor& d) { return one(d.gate_event); }},
    EventRole{"tool-after", "the event after a tool ran (the first tool event besides the gate)",
              "tool-after", false, [](const FamilyDescriptor& d) { return one(tool_after(d)); }},
    EventRole{"turn-start", "the event that opens a user turn (payload.turn_start_event)",
              "turn-start", false,
              [](const FamilyDescriptor& d) { return one(d.payload.turn_start_event); }},
    EventRole{"unknown-event", "an event name no registered family sends (NoSuchEvent)", "", false,
              [](const FamilyDescriptor& d) {
                return pinta::hosts::in_list(d.events, kUnknownEvent) ? std::vector<std::string>{}
                                                                      : one(kUnknownEvent);
              }},
    EventRole{"every-installed",
              "each event `install` registers, in its order: one run per event (installed)", "",
              true,
              [](const FamilyDescriptor& d) {
                return std::vector<std::string>(d.installed.begin(), d.installed.end());
              }},
    EventRole{"every-non-gate", "each installed event but the gate, in install order", "", true,
              [](const FamilyDescriptor& d) {
                std::vector<std::string> v;
                for (auto e : d.installed)
                  if (e != d.gate_event) v.emplace_back(e);
                return v;
              }},
};

}  // namespace

std::span<const Feature> features() { return kFeatures; }

const Feature* find_feature(std::string_view name) {
  for (const auto& f : kFeatures)
    if (f.name == name) return &f;
  return nullptr;
}

bool has_features(const FamilyDescriptor& d, const std::vector<std::string>& required) {
  return std::all_of(required.begin(), required.end(), [&](const std::string& n) {
    const Feature* f = find_feature(n);
    return f && f->has(d);
  });
}

std::span<const EventRole> event_roles() { return kRoles; }

const EventRole* find_event_role(std::string_view name) {
  for (const auto& r : kRoles)
    if (r.name == name) return &r;
  return nullptr;
}

}  // namespace pinta::conformance
