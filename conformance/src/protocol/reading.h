// How the host-protocol profile reads one host family (internal to pinta::conformance): the
// user's hook file through the host's own loader, the host's timeout for a hook that names none,
// the tools a matcher may select, and the family's protocol checks PROTO-3..6 over one run (the
// host runner's effect and reading of it). One entry per registered family in kReadings
// (families.cc), checked against the family registry at compile time; protocol.cc asks
// family_reading() and never switches on a family. A family's file: protocol/<folder>.cc.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pinta/common/process.h"
#include "pinta/common/result.h"
#include "pinta/conformance/protocol.h"
#include "pinta/emulator/host_runner.h"
#include "pinta/hosts/family.h"

namespace pinta::conformance::protocol {

using pinta::emu::HookOutcome;

// One protocol check's finding on a run.
struct Finding {
  std::string check;  // PROTO-N
  std::string message;
  bool note = false;  // what the host does is harmless here: a note on the run, never a failure
  // A should-level finding of a must check (it fails the hook with --strict only).
  bool should = false;
};

// One ended run as the checks read it.
struct Run {
  const ProtocolHook& hook;
  const HookOutcome& outcome;       // what the host did with it (effect, reading)
  const pinta::proc::SpawnResult& raw;  // outcome.raw
  bool exit0, exit2;                // it exited with status 0 / 2
};

// The args a sample call of a tool carries (what the payload's tool input holds); kMcpWrite: an
// MCP server's write tool ({path, content}, as the reference filesystem server names them).
enum class ToolArgs { kWriteFile, kShell, kEdit, kPath, kMcpWrite };
struct ToolSample {
  std::string_view name;
  ToolArgs args;
};
// The sample args of `a` for a project at `ws` (a notes.txt in it, `ls -la`).
json sample_args(ToolArgs a, const std::string& ws);

struct FamilyReading {
  pinta::hosts::Family family;
  // --config: the registrations of the user's file as `host` (a host of this family) reads them;
  // null when the family's hooks are graded one command at a time (--hook).
  Result<std::vector<ProtocolHook>> (*read_config)(const ProtocolOptions& po, const std::string& host);
  // The folder a project keeps this host's file in (".gemini"): the hooks of such a file run in
  // the project; "" when there is none.
  std::string_view project_folder;
  // The host's timeout in ms for a hook that states none (--hook), on `host` (a host of this
  // family: a version profile may set its own).
  int (*hook_timeout_ms)(const std::string& host);
  // Tools a matcher may select on a tool event, in the order tried (the first selected gets the
  // first sample call: protocol/samples.h), each with the args a sample call of it carries.
  std::span<const ToolSample> tools;
  // Whether registration `h`'s matcher selects `tool` (on a tool event).
  bool (*selects)(const ProtocolHook& h, const std::string& tool);
  // The host reads a hook's output until both pipes close (PROTO-2 applies); false: it reads at
  // the hook's exit and does not wait for a child still holding them.
  bool waits_for_pipes;
  // PROTO-3..6 over one run that ended (PROTO-1 and PROTO-2 are the same for every family).
  void (*judge)(const Run& run, std::vector<Finding>& fs);
  // What the host does with the tool call after one run of a hook on its gate event, read from
  // the runner's effect in the family's own terms: "blocks" (the call does not run), "asks" (a
  // person decides) or "runs" (the cross-host matrix, protocol_matrix).
  const char* (*gate_call)(const HookOutcome& o);
  // The variables the host sets for every hook it runs, in its environment or by replacing them
  // in the command's text (GEMINI_PROJECT_DIR, CLAUDE_PROJECT_DIR, …): a command naming another
  // host's variable, or a plugin's outside its plugin, runs with it empty (never_ran).
  std::span<const std::string_view> hook_vars;
  // MCP tools in the host's own naming, as a template with {server} and {tool} ("mcp__{server}__
  // {tool}"), tried after `tools`: a matcher that selects such a name gets MCP calls
  // (protocol/samples.h). Empty when no naming of MCP tools is on record for the host.
  std::span<const ToolSample> mcp_tools = {};
  // Makes what the host sends about the call's result (an after-tool event's tool_response) that
  // of the call `p` carries (tool `tool`, input `args`, in the project `ws`), in the host's shape;
  // null: the runner's payload as it is.
  void (*after_call)(const std::string& event, const std::string& tool, const json& args,
                     const std::string& ws, json& p) = nullptr;
  // The host's events in the order one session with one tool call fires them (each family's
  // evidence beside its list): the profile runs a config's hooks in this order, one event after
  // another in the one project copy, so a hook that reads what an earlier event's hook wrote (a
  // session log opened at session start) sees it as in a session. An event not listed runs
  // before the last listed one (the session's end).
  std::span<const std::string_view> session_order = {};
  // The manifest (relative to a package's root) whose presence makes a package this family's,
  // whatever its hooks file looks like; "" when the host has no package of its own.
  std::string_view package_manifest = {};
};

// Where `event` (a host's name or alias) falls in family f's session_order: its index, an event
// not listed just before the last one.
size_t session_rank(pinta::hosts::Family f, const std::string& event);

// PROTO-0 for one run: the evidence that the hook's own program never ran where the host runs it
// (a command not found or not executable: exit 127/126; an interpreter's own words that it
// cannot open the script or load the module; a host variable the command names that the host
// does not set for it: `env` is what the run added), worded with what the host then does on every
// call (its gate_call on the gate event, else its effect) and the fix; none when it ran.
std::optional<Finding> never_ran(pinta::hosts::Family f, const ProtocolHook& h,
                                 const std::map<std::string, std::string>& env,
                                 const HookOutcome& o);

// The reading of family f (every registered family has one).
const FamilyReading& family_reading(pinta::hosts::Family f);

// Shared by the families' readings.
bool nonblank(const std::string& s);
// Whether some line of a hook's stdout is a JSON object: a reply the hook meant the host to read.
bool has_json_line(const std::string& out);
std::string exit_text(const pinta::proc::SpawnResult& r);
// What the tool of a sample call with input `args` printed, for an after-tool result that belongs
// to the call: the benign `ls -la` lists the project's notes.txt; any other call printed nothing.
std::string sample_output(const json& args);
// The file's text (at most 4 MiB), or "" with `err` set to one line naming it.
std::string read_text(const std::string& path, std::string& err);

}  // namespace pinta::conformance::protocol
