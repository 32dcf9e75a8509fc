// pinta::host_runner — the one place that knows how each emulated host spawns a hook and reads
// its reply, shared by the conformance runner and `hostemu replay` (docs/architecture.md).
// Everything host-specific goes through the emulator libraries: Gemini CLI 0.61 =
// emu::gemini::run_hook
// (bash -c, stdin closed, waits for the pipes, shared/reference/gemini-cli-0.61-hooks.md §4),
// Antigravity = emu::agy::spawn_request_for + interpret_reply under one profile
// (shared/reference/antigravity-hooks.md §5-§7).
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "pinta/common/process.h"
#include "pinta/hosts/family.h"

namespace pinta::emu {

using json = nlohmann::json;
// A payload as a host builds it: its keys in the order given. The family's runner writes it the
// way its host does (the host's key order over the objects the host builds, the given order in
// the ones it passes through, such as the model's tool input; its separators, number and string
// forms and line end), so what a hook reads is the host's bytes (emulator_stdin_bytes_test).
using payload_json = nlohmann::ordered_json;

// What the case wants on stdin. raw: exact bytes replacing the host's serialization (hostile
// input); otherwise `payload` is serialized the way the host does it, behind a UTF-8 byte order
// mark when `bom` is set.
struct HookInput {
  payload_json payload = payload_json::object();
  std::optional<std::string> raw;   // exact bytes
  bool bom = false;
  std::string stdin_mode = "host";  // host | closed | open | dripped | none
};

struct HookCall {
  std::string host;
  std::string command;  // full shell command line (adapter + --agent/--event + extra)
  std::string event;
  std::map<std::string, std::string> env;
  std::string cwd;
  HookInput input;
  int timeout_ms = 5000;
  // >0: once the adapter has exited, stop waiting for pipes a leftover process still holds after
  // this long (the step's verdict is already a failure: it expects the pipes closed).
  int pipe_grace_ms = 0;
  // Non-empty: the host's spawn runs under a parent process whose argv[0] is host_parent[0] and
  // whose arguments include the rest (e.g. {"agy", "-p"}), so that the adapter's ancestors look
  // like that host command line. stdin, stdout/stderr, env, timeouts and process group are
  // unchanged; the parent exits with the spawn's status (a signal death as 128+N).
  std::vector<std::string> host_parent;
  // Non-null: the spawn ends (SIGKILL, pipes abandoned; raw.cancelled) once this reads true
  // (proc::SpawnRequest::cancel). The grader's stop: a settled verdict needs no more waiting.
  const std::atomic<bool>* cancel = nullptr;
};

struct HookOutcome {
  pinta::proc::SpawnResult raw;
  std::string stdin_sent;
  std::string effect;          // host effect kind
  std::string effect_message;  // deny reason / error text the host would show
  json detail = json::object();
};

class HostRunner {
 public:
  virtual ~HostRunner() = default;
  virtual HookOutcome run(const HookCall& call) = 0;
  // Why this host never runs hooks at all (a build that loads them but does not run them), or
  // nullopt. Such a host grades nothing: its cells read "hooks do not run", never a pass.
  virtual std::optional<std::string> hooks_not_run() const { return std::nullopt; }
  // The host's default payload for an event (opts: {"tool","tool_args","cwd","session"}).
  virtual payload_json default_payload(const std::string& event, const json& opts,
                                       const std::string& home, const std::string& workspace) = 0;
};

// Where a runner finds its host data.
struct HostRunnerOptions {
  std::string fixtures_dir;  // fixtures/ (Gemini default payloads: the first y_ fixture per event)
  std::string profiles_dir;  // another version-profile folder for the host's family ("" its own)
};

// Returns nullptr with `error` set when the host is unknown or its profile cannot be loaded.
// Hosts: pinta::hosts::all_hosts() and any other Antigravity profile name (e.g. "docs").
std::unique_ptr<HostRunner> make_host_runner(const std::string& host,
                                             const HostRunnerOptions& options, std::string& error);

// What a replay golden records of run `o` of a hook on a host of family `f` (`payload`: what the
// hook was sent): the effect kind and what the host does next, in the family's own terms, as
// canonical JSON (`hostemu replay`, fixtures/golden/).
json golden_effect(pinta::hosts::Family f, const HookOutcome& o, const json& payload);

// The adapter command line with a relative program path (first word) made absolute against the
// current directory, since hooks run elsewhere (a scratch workspace).
std::string absolute_command(const std::string& cmd);

}  // namespace pinta::emu
