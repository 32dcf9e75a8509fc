// The calls one registration is graded on (internal to pinta::conformance): the paths a hook
// exists for, not one harmless call. For a tool event, a benign and a hostile call (what a guard
// exists to stop: a recursive delete, a pipe to a shell, a secret written or read, a path out of
// the project) of every kind of input among the tools its matcher selects, an MCP call in the
// host's own naming when it selects one, then benign calls of the other tools it selects, at most
// kMaxSampleCalls; plus every --payload of the author that fits it. A matcher that selects no
// tool the host is known to offer gets a note, never a call of another tool. The per-family data
// (tools, MCP names, payload keys, the after-call result's shape) is the family reading's
// (reading.h); nothing here names a family.
#pragma once

#include <string>
#include <vector>

#include "pinta/common/result.h"
#include "reading.h"

namespace pinta::conformance::protocol {

// At most this many sample calls per registration (the author's payloads come on top): one
// benign and one hostile call of each kind of input reach it before the rest of the tools.
inline constexpr std::size_t kMaxSampleCalls = 12;

// One call a registration is run on.
struct SampleCall {
  std::string label;     // how the report names it: "Bash `rm -rf /` (hostile)"
  std::string tool;      // the tool called; "" off tool events (and for an author's payload)
  ToolArgs args = ToolArgs::kPath;
  int hostile = -1;      // the index of the hostile input of `args`; -1 benign
  std::string file;      // --payload: the author's file ("" a sample call)
  json payload;          // --payload: the object sent as it is
};

// The calls of registration `h` on a host of family `f`, and the notes the grader owes the
// reader about them (a matcher that selects no known tool, calls left out by the bound).
struct CallPlan {
  std::vector<SampleCall> calls;
  std::vector<std::string> notes;
};
CallPlan plan_calls(pinta::hosts::Family f, const ProtocolHook& h);

// The hostile inputs of a kind of args, for a project at `ws` and a home at `home` (a guard's
// reason to exist; none of them is ever executed: the hook is run, never the tool).
std::vector<json> hostile_args(ToolArgs a, const std::string& ws, const std::string& home);

// The payload of call `c` of `h`: the author's object as is, else the runner's payload for the
// event with the call's tool and input, its after-call result made the call's own.
json call_payload(pinta::emu::HostRunner& runner, pinta::hosts::Family f, const ProtocolHook& h,
                  const SampleCall& c, const std::string& home, const std::string& ws);

// --payload FILE…: each file's one JSON object, assigned to the registrations it fits (its event
// and tool, read at the family's payload keys; a payload naming neither fits every registration).
// Errors: one line naming the file (unreadable, not one JSON object, fits no registration).
Status assign_payloads(pinta::hosts::Family f, const std::vector<std::string>& files,
                             std::vector<ProtocolHook>& hooks);

}  // namespace pinta::conformance::protocol
