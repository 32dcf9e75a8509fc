// Host-specific spawning and reply reading, through the emulator libraries
// (pinta/emulator/host_runner.h).
#include "pinta/emulator/host_runner.h"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <sstream>

#include "pinta/common/fs.h"
#include "pinta/emulator/runner_family.h"
#include "pinta/hosts/hosts.h"

namespace pinta::emu {
pinta::proc::SpawnResult CaseSpawner::run(const pinta::proc::SpawnRequest& request) {
  pinta::proc::SpawnRequest rq = request;
  if (in_.raw) rq.stdin_data = *in_.raw;
  else if (in_.bom) rq.stdin_data = "\xEF\xBB\xBF" + rq.stdin_data;
  if (in_.stdin_mode == "closed") rq.stdin_mode = pinta::proc::StdinMode::kCloseAfterWrite;
  if (in_.stdin_mode == "open") rq.stdin_mode = pinta::proc::StdinMode::kKeepOpen;
  if (in_.stdin_mode == "none") rq.stdin_mode = pinta::proc::StdinMode::kNone;
  if (in_.stdin_mode == "dripped") {
    rq.stdin_mode = pinta::proc::StdinMode::kDrip;
    rq.drip_interval = std::chrono::milliseconds(20);
    rq.drip_chunk = std::max<size_t>(1, rq.stdin_data.size() / 8);
  }
  auto t = std::chrono::milliseconds(timeout_ms_);
  if (rq.timeout.count() == 0 || rq.timeout > t) rq.timeout = t;
  rq.hard_limit = t + std::chrono::milliseconds(1500);
  if (pipe_grace_ms_ > 0) rq.pipe_grace = std::chrono::milliseconds(pipe_grace_ms_);
  // A reply is a line of JSON; keeping more than 1 MiB of a flooding adapter's output only costs
  // the grader time and memory (the rest is read and dropped; the run is marked truncated).
  rq.max_capture = std::min<size_t>(rq.max_capture, 1u << 20);
  if (!host_parent_.empty()) rq = under_parent(host_parent_, std::move(rq));
  rq.cancel = cancel_;
  sent_ = rq.stdin_data;
  return inner_->run(rq);
}

// HookCall::host_parent: the spawn is a bash whose argv[0] is parent[0] and whose /proc cmdline
// is `<parent[0]> -c <script> <parent[0]> <parent[1..]>` (one process, so the process group and
// the timeout signals stay the spawn's); the script runs the host's argv as its child (inheriting
// stdin/stdout/stderr and env; the program as looked up in PATH, argv[0] as given) and exits with
// its status (a signal death as 128+N, as a shell reports it). Not the last command of the
// script, so bash cannot exec it in place of the parent. A timeout signal sent to the group
// reaches both; one sent to the spawned pid alone reaches the parent, as a host's kill reaches
// the host's own child.
pinta::proc::SpawnRequest CaseSpawner::under_parent(const std::vector<std::string>& parent,
                                                 pinta::proc::SpawnRequest rq) {
  auto quote = [](const std::string& a) {
    std::string q = "'";
    for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  std::string script;
  for (const auto& a : rq.argv) script += quote(a) + " ";
  script += "; rc=$?; exit $rc";
  rq.argv = {"bash", "-c", script, parent[0]};
  rq.argv.insert(rq.argv.end(), parent.begin() + 1, parent.end());
  rq.argv0 = parent[0];
  return rq;
}

nlohmann::json spawn_json(const pinta::proc::SpawnResult& r) {
  return {{"started", r.started},
          {"exit_code", r.exit_code ? json(*r.exit_code) : json()},
          {"signal", r.term_signal ? json(*r.term_signal) : json()},
          {"timed_out", r.timed_out},
          {"pipes_outlived_child", r.pipes_outlived_child}};
}

// Each family's runner (emulator/hosts/<folder>/src/runner.cc), in registration order.
#define PINTA_FAMILY(Id, folder, name) namespace folder { extern const FamilyRunner kRunner; }
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY

namespace {
const FamilyRunner* const kRunners[] = {
#define PINTA_FAMILY(Id, folder, name) &folder::kRunner,
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY
};
static_assert(std::size(kRunners) == pinta::hosts::kFamilyCount);
}  // namespace

std::unique_ptr<HostRunner> make_host_runner(const std::string& host,
                                             const HostRunnerOptions& options, std::string& error) {
  const auto f = pinta::hosts::host_family(host);
  if (!f) {
    error = "unknown host " + host + " (" + pinta::hosts::host_list() + ")";
    return nullptr;
  }
  return kRunners[static_cast<size_t>(*f)]->make.value(host, options, error);
}

json golden_effect(pinta::hosts::Family f, const HookOutcome& o, const json& payload) {
  return kRunners[static_cast<size_t>(f)]->golden.value(o, payload);
}

// Hooks run in a scratch directory, so a relative program path (the first word, as typed) is made
// absolute against the caller's directory; anything shell-quoted or not naming a file is kept.
std::string absolute_command(const std::string& cmd) {
  namespace stdfs = std::filesystem;
  size_t b = cmd.find_first_not_of(" \t");
  if (b == std::string::npos) return cmd;
  size_t e = cmd.find_first_of(" \t", b);
  std::string first = cmd.substr(b, e == std::string::npos ? std::string::npos : e - b);
  if (first.empty() || first[0] == '/' || first.find('/') == std::string::npos ||
      first.find_first_of("'\"\\$`") != std::string::npos)
    return cmd;
  std::error_code ec;
  if (!stdfs::exists(first, ec)) return cmd;
  std::string abs = stdfs::absolute(first, ec).lexically_normal().string();
  if (ec || abs.find_first_of(" \t'\"\\$`") != std::string::npos) return cmd;
  return cmd.substr(0, b) + abs + (e == std::string::npos ? std::string() : cmd.substr(e));
}

}  // namespace pinta::emu
