// File: pinta/conformance/protocol.h
// The host-protocol profile (`conformance run --profile protocol`): grades ANY hook command — a
// logger, a DLP check, a policy script — against what its host needs from a hook, with nothing of
// this project's adapter required (no env file, data dir, guard or OTLP; that contract stays the
// default profile's cases).
//
// The hooks come from the user's own file (a Gemini CLI settings.json or extension folder, a
// deel-local-cli hooks.json), read by the host's own loader in pinta::hosts, so the events and
// matchers are the user's; or from one command line (--hook CMD) registered on every event of the
// host. Each registration is run, through the same HostRunner the default profile uses, on
// realistic payloads of its event: on a tool event a benign and a hostile call of each kind of
// input among the tools its matcher selects (conformance/src/protocol/samples.h: the bound, the
// inputs), and the author's own --payload files; each run is judged by the
// protocol checks (kProtocolChecks): it ends before the host's timeout, closes its pipes at exit,
// exits with a status the host reads as an answer, prints one reply or none, and decides only with
// decisions its event honours. What the host did with the run (the HostRunner's effect and
// reading) and the per-host facts of pinta/hosts/reply_check.h (events, gate and blocking events)
// are the only sources of host rules here.
//
// The result is a RunSummary like the default profile's, one CaseOutcome per registration (id
// HOOK-NNNN, its file the config file), so the console, --report and --format github work as is.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pinta/common/result.h"
#include "pinta/conformance/conformance.h"

namespace pinta::conformance {

namespace protocol {
class Workspace;  // where the hooks run (conformance/src/protocol/workspace.h)
}

// One protocol check: what a host needs from any hook.
struct ProtocolCheck {
  std::string id;     // PROTO-N
  std::string level;  // must | should
  std::string title;
  std::string requirement;
  std::string source;  // evidence: host reference sections, seed lines
};
const std::vector<ProtocolCheck>& protocol_checks();

// One hook as its host registered it.
struct ProtocolHook {
  std::string host;     // a host of pinta::hosts (gemini-0.61, deel-1.17, agy-…)
  std::string event;    // the host's event name (deel: English or Korean, as resolve_event reads)
  std::string matcher;  // as written ("" or "*": every tool)
  std::string command;
  int timeout_ms = 0;   // the host's timeout for this hook
  std::string name;     // the hook's name, when it has one
  std::string origin;   // the file it came from ("" for --hook)
  std::string pointer;  // its JSON pointer in that file
  // Variables the host sets in this hook's environment beyond its own (a plugin's
  // CLAUDE_PLUGIN_ROOT), naming the author's folders; the run points them into the workspace.
  std::map<std::string, std::string> env;
  // Where it runs: shared by the registrations of one read (protocol_hooks).
  std::shared_ptr<const protocol::Workspace> workspace;
  // --payload: the author's own payloads it fits (file, its object), each run on it as it is.
  std::vector<std::pair<std::string, json>> payloads;
};

struct ProtocolOptions {
  std::string host;     // one host (default: default_protocol_host())
  std::string config;   // settings.json | extension folder | deel hooks.json
  std::string hook;     // or one command line, registered on every event of the host
  std::vector<std::string> events;  // --event: only these events ("" = all registered)
  // Run the hooks in the project itself; by default in a copy of it, so grading never changes
  // the author's tree (--in-place).
  bool in_place = false;
  // --payload FILE (repeatable): one JSON object a file, run on every registration it fits (its
  // event and tool, as the host's payload names them) besides the sample calls.
  std::vector<std::string> payloads;
};

// The host graded when none is named: the newest graded host of the first registered family
// (gemini-0.61).
std::string default_protocol_host();

// The host a --config is graded as when no --host is given: the family `hostemu lint` reads the
// file as (pinta::hostlint::detect_host: where it sits, else its shape; for an extension folder,
// its hooks/hooks.json), as that family's newest graded host. `said` is the sentence the run
// prints about it. When lint cannot tell, default_protocol_host() with `said` giving lint's reason
// and the --host values.
struct HostChoice {
  std::string host;
  std::string said;
};
HostChoice infer_protocol_host(const std::string& config);

// Reads the registrations: the config through the host's loader, or --hook on every event, and
// prepares the folder they run in (the project's copy, or the project with in_place).
// Errors are one line naming the file and the problem; when the file registers no command hook
// for the host, why: what `hostemu lint` finds in it as that host reads it (an event of another
// host, a handler without `type`, a matcher the host rejects, a disabled hook, ...) and, when the
// file reads as another host's, the --host to pass.
Result<std::vector<ProtocolHook>> protocol_hooks(const ProtocolOptions& po);

// Where the hooks read by protocol_hooks run, in one line for the output.
std::string protocol_workspace_line(const std::vector<ProtocolHook>& hooks);

// The registrations as cases (HOOK-0001, …, in file order) for the summary and the reports: the
// title names the hook (event, matcher, its `name` or command), `file` and `line` its registration
// in the config. The cases point nowhere else, so `out` must outlive every RunSummary made from
// them.
void protocol_cases(const std::vector<ProtocolHook>& hooks, std::vector<Case>& out);

// Runs every selected registration (RunOptions: hosts, filter, jobs, strict, fixtures and
// profiles dirs) and judges each run; `on_case` as for run_cases.
RunSummary run_protocol(const std::vector<Case>& cases, const std::vector<ProtocolHook>& hooks,
                        const RunOptions& o, const CaseDone& on_case);

// The cross-host matrix (`--matrix`): for each command hook registered on a gate event, what each
// host family that would load it does with the tool call after the hook's reply there, each read
// by the family's own runner (the call blocked, run, or put to a person). A family loads --config
// when its reading reads the file (FamilyReading::read_config) and registers the command on its
// gate event; --hook is run on every family's gate event.
struct MatrixCell {
  std::string host;     // the family's newest graded host
  std::string verdict;  // "blocks", "runs", "asks"; "" not loaded here; "?" not read (why says)
  std::string effect;   // the host runner's effect kind, in the family's own terms
  std::string why;      // why not loaded or not read; else the host's message, if any
};
struct MatrixRow {
  std::string command;
  std::vector<MatrixCell> cells;  // one per registered family, in registry order
};
// Errors: no family loads a gate-event hook from --config.
Result<std::vector<MatrixRow>> protocol_matrix(const ProtocolOptions& po, const RunOptions& o);
// The matrix as a text table (one row a hook, one column a host) with its legend.
std::string render_matrix(const std::vector<MatrixRow>& rows);

}  // namespace pinta::conformance
