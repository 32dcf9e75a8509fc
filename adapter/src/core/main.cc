// pinta-gemini: the hook process the registered hosts (pinta/hosts/family.h) spawn on every event.
// Contract (docs/contract.md): exactly one JSON object line on stdout and exit status 0 (for
// deel-local-cli, an exit-code host: nothing on stdout and exit 0, or the deny reason and exit 2;
// for Claude Code: nothing on an allow, the JSON deny line on a deny, exit 0), nothing on stderr —
// on every path. This file holds the one catch (...).
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <string_view>

#include "pinta/adapter/config.h"
#include "pinta/adapter/debug_log.h"
#include "pinta/adapter/guard.h"
#include "pinta/adapter/handler.h"
#include "pinta/adapter/host_mode.h"
#include "pinta/adapter/input.h"
#include "pinta/adapter/telemetry.h"
#include "pinta/common/fs.h"
#include "pinta/common/version.h"

namespace {

bool g_written = false;
int g_exit_status = 0;  // what main returns: 0, or the deny status of an exit-code host

// One write of reply + '\n'. EPIPE (host closed stdout) is ignored: SIGPIPE is ignored below.
// An empty reply prints nothing at all (deel-local-cli shows any output to the user).
void write_reply(std::string_view reply, int exit_status = 0) noexcept {
  if (g_written) return;
  g_written = true;
  g_exit_status = exit_status;
  if (reply.empty()) return;
  char small[512];
  const char* data = reply.data();
  size_t len = reply.size();
  std::string big;
  if (len + 1 <= sizeof small) {
    for (size_t i = 0; i < len; ++i) small[i] = reply[i];
    small[len] = '\n';
    data = small;
  } else {
    try {
      big.reserve(len + 1);
      big.append(reply).push_back('\n');
      data = big.data();
    } catch (...) {
      // Out of memory: fall back to two writes of static/borrowed bytes.
      (void)!::write(STDOUT_FILENO, reply.data(), reply.size());
      (void)!::write(STDOUT_FILENO, "\n", 1);
      return;
    }
  }
  len += 1;
  while (len > 0) {
    ssize_t n = ::write(STDOUT_FILENO, data, len);
    if (n < 0) {
      if (errno == EINTR) continue;
      return;  // EPIPE, EBADF, ENOSPC...: nothing more can be done; still exit 0
    }
    data += n;
    len -= static_cast<size_t>(n);
  }
}

// `--help` or `-h` alone: the synopsis, for a person. The host list comes from the family
// registry (pinta/hosts/family.h).
int print_help() {
  std::string products, labels;
  for (const auto& d : pinta::hosts::families()) {
    const bool last = &d == &pinta::hosts::families().back();
    products += std::string(products.empty() ? "" : last ? " and " : ", ") +
                std::string(d.display_name);
    labels += std::string(labels.empty() ? "" : "|") + std::string(d.agent_labels[0]);
  }
  const std::string help =
      "pinta-gemini: the hook program " + products + " run on\n"
      "every hook event (they pass --agent A --event E and the event as JSON on stdin; the reply\n"
      "is the host's own: a line on stdout and/or an exit status). You do not run it by hand;\n"
      "set it up and check it with:\n"
      "  pinta-gemini install --host " + pinta::hosts::family_names() +
      " [--workspace DIR] [--dry-run]\n"
      "  pinta-gemini uninstall --host " + pinta::hosts::family_names() +
      " [--workspace DIR] [--dry-run]\n"
      "  pinta-gemini doctor [--json] [--workspace DIR] [--no-network]\n"
      "  pinta-gemini --version\n"
      "Each of install, uninstall and doctor takes --help. --agent labels: " + labels + ".\n";
  return pinta::fs::write_all(STDOUT_FILENO, help) ? 0 : 1;
}

// install | uninstall | doctor: replaced by pinta-gemini-admin, which sits next to this program
// (/proc/self/exe). Returns only when it cannot be run.
int exec_admin(char** argv) {
  char self[4096];
  ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  std::string admin = n > 0 ? std::string(self, static_cast<size_t>(n)) : std::string();
  admin = admin.substr(0, admin.rfind('/') + 1) + "pinta-gemini-admin";
  if (n > 0) {
    argv[0] = admin.data();
    ::execv(admin.c_str(), argv);
  }
  std::string msg = "pinta-gemini: cannot run " + admin + " (install it next to pinta-gemini)\n";
  (void)!::write(STDERR_FILENO, msg.data(), msg.size());
  return 2;
}

// One hook event: read, handle, reply, then the work that follows the reply. `fail_safe` is set
// as soon as the host is known, for main's catch to print.
void serve_event(int argc, char** argv, std::string_view& fail_safe) {
  using namespace pinta::adapter;
  auto t0 = std::chrono::steady_clock::now();
  Args args = parse_args(argc, argv);
  fail_safe = fail_safe_for(args);  // static storage: safe to print from the catch in main

  EnvFileLoad env_file = load_env_file(default_env_file_path());
  AdapterConfig config = config_from_environment();

  // Only gate events (Gemini BeforeTool, Antigravity PreToolUse; SPEC §7.2) read the guard
  // settings and build a client; every other event pays one table lookup.
  const std::optional<Family> family = args.family;
  const ReplyRow* gate_row = args.has_agent && family ? find_reply_row(*family, args.event) : nullptr;
  GuardConfig guard_config;
  if (gate_row != nullptr && gate_row->gate) guard_config = guard_config_from_environment();

  InputLimits limits;
  limits.deadline = config.stdin_timeout;
  limits.max_bytes = config.max_input_bytes;
  if (guard_config.enabled) {
    // The reader finds the tool name wherever it stands, past the input cap too (GUARD-14).
    limits.tool_name = tool_name_path(*family, args.agent);
    limits.scan_past_cap = true;
  }
  auto read_started = std::chrono::steady_clock::now();
  RawInput input = read_event(STDIN_FILENO, limits);
  // The guard budget counts this process's own work, not the host's stdin (guard_deadline).
  auto work_started = t0 + (std::chrono::steady_clock::now() - read_started);

  Services services;
  services.clock = &system_clock();
  services.work_started = work_started;
  services.keep_debug_copies = config.debug;
  services.host_cannot_prompt = &parent_cannot_prompt;  // read on REVIEW + ask only
  // --- guard wiring ---
  std::unique_ptr<GuardClient> guard;
  if (guard_config.enabled) {
    guard_config.data_dir = config.data_dir;  // "" when refused (ENV-9): no TLS session kept
    services.guard_policy = guard_config.policy;  // the hot path and the client read one value
    guard = make_http_guard_client(std::move(guard_config));
    services.guard = guard.get();
  }
  // --- end guard wiring ---
  // --- telemetry wiring ---
  // No endpoint configured → no sink: nothing is encoded, nothing touches the disk.
  TelemetryOptions telemetry = telemetry_options_from_environment(config);
  QueueSpanSink span_sink(telemetry, /*deferred=*/true);
  if (telemetry.enabled()) services.spans = &span_sink;
  // --- end telemetry wiring ---
  Outcome outcome = handle(args, std::move(input), services);
  write_reply(outcome.reply, outcome.exit_status);
  // --- after reply (detach stdio, start the flusher) ---
  // The span goes to the on-disk queue now, after the reply; delivery happens in a detached
  // process (telemetry.h).
  if (services.spans != nullptr) {
    span_sink.commit();
    (void)start_flusher_if_needed(telemetry, span_sink.queued());
  }
  if (guard != nullptr) guard->after_reply();  // https: start the guard keeper (GUARD-13)
  // --- end after reply ---

  if (config.debug) {
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0);
    write_debug_record(config, env_file, argc, argv, outcome, us);
  }
}

}  // namespace

int main(int argc, char** argv) {
  // --- flusher command: deliver the span queue in the foreground ---
  if (argc > 1 && std::string_view(argv[1]) == "--pinta-flush") return pinta::adapter::run_flush_command();
  // Hosts always pass --agent/--event, never this word first: one compare on the hook path.
  if (argc == 2 && std::string_view(argv[1]) == "--version") {
    std::string line = pinta::version_line("pinta-gemini");
    return pinta::fs::write_all(STDOUT_FILENO, line) ? 0 : 1;
  }
  // `--help` or `-h` alone is a person asking, wherever stdout goes (a pager, a pipe, a file):
  // hosts always pass --agent/--event, so a hook never gets this argv; with any other argument
  // --help is an unknown word and the hook answers as it always does.
  if (argc == 2 && (std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h"))
    return print_help();
  // --- end flusher command ---
  // --- admin commands: install | uninstall | doctor run in pinta-gemini-admin ---
  // Hosts never pass these words as argv[1] (they run `--agent … --event …`), so the hook path
  // pays one string compare.
  if (argc > 1 && (std::string_view(argv[1]) == "install" ||
                   std::string_view(argv[1]) == "uninstall" ||
                   std::string_view(argv[1]) == "doctor"))
    return exec_admin(argv);
  // --- end admin commands ---
  ::signal(SIGPIPE, SIG_IGN);
  // A file-size limit (RLIMIT_FSIZE: quotas, `ulimit -f`) must make a write fail with EFBIG, not
  // kill the hook with SIGXFSZ; the queue and logs already treat a failed write as "not kept".
  ::signal(SIGXFSZ, SIG_IGN);
  std::string_view fail_safe = pinta::adapter::kUnknownHostReply;
  try {
    serve_event(argc, argv, fail_safe);
  } catch (...) {
    write_reply(fail_safe);  // no-op when the reply is already out; its exit status stands
  }
  return g_exit_status;
}
