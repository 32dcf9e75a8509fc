// File: pinta/common/process.h
// Spawning a child process the way a hook host does: argv, environment, cwd, bytes on stdin with a
// chosen stdin behaviour (closed after writing, left open, dripped), separate stdout/stderr
// capture, a timeout with a chosen signal, and two end times: when the child exited and when every
// holder of its stdout/stderr pipes closed them (Node's 'close' event, which is what Gemini CLI
// waits for — shared/reference/gemini-cli-0.61-hooks.md §4.4).
//
// The emulators and the conformance runner go through the Spawner interface; the production
// implementation is posix_spawn with Boost.Asio for the pipes and timers (make_spawner()).
#pragma once

#include <atomic>
#include <chrono>
#include <csignal>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pinta::proc {

enum class StdinMode {
  kCloseAfterWrite,  // write stdin_data, then close (Gemini CLI, agy CLI)
  kKeepOpen,         // write stdin_data, keep the pipe open until the child exits (Antigravity app/IDE)
  kDrip,             // write drip_chunk bytes every drip_interval, then close
  kNone,             // child's stdin is /dev/null-like: closed before anything is written
};

struct SpawnRequest {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH when it has no '/'
  // What the program gets as argv[0]; empty: the path argv[0] resolved to. Node's spawn passes the
  // name as given (e.g. "bash"), which bash shows in its messages and /proc/PID/cmdline shows.
  std::string argv0;
  // nullopt: inherit this process's environment; otherwise exactly these variables.
  std::optional<std::map<std::string, std::string>> env;
  // When set, used instead of `env`: exactly these variables in this order (a Node host passes
  // its parent's order with its own variables appended, not sorted).
  std::optional<std::vector<std::pair<std::string, std::string>>> env_list;
  std::string cwd;  // empty: inherit
  std::string stdin_data;
  StdinMode stdin_mode = StdinMode::kCloseAfterWrite;
  std::chrono::milliseconds drip_interval{10};
  size_t drip_chunk = 1;
  // 0: no timeout. On expiry timeout_signal goes to the child (or its process group).
  std::chrono::milliseconds timeout{0};
  int timeout_signal = SIGTERM;
  // After timeout_signal, send SIGKILL this much later (0: never — Gemini CLI 0.61's observed
  // behaviour, §4.4).
  std::chrono::milliseconds kill_after{0};
  bool new_process_group = true;  // child leads its own group; signals then go to the group
  // How the child's signal dispositions start, as the host's runtime starts a process. Either way
  // no signal is blocked in the child. Checked here with a parent ignoring HUP, INT, QUIT, TERM and
  // USR1 and blocking USR2 and ALRM: Node 20's spawn gives its child nothing ignored or blocked;
  // Go 1.19's os/exec keeps HUP and INT ignored (its runtime leaves an inherited SIG_IGN of those
  // two alone and resets the handlers it installed for the rest) and blocks nothing.
  enum class ChildSignals {
    kNode,  // signals 1-33 at their default
    kGo,    // SIGHUP and SIGINT stay ignored if this process ignores them; the rest as kNode
  };
  ChildSignals child_signals = ChildSignals::kNode;
  // The child starts a new session (setsid, as Node's spawn with `detached: true`): it then has no
  // controlling terminal and leads its own group too, whatever new_process_group says.
  bool new_session = false;
  bool signal_group = false;      // timeout/kill signals go to the whole group
  // The timeout runs until both pipes have closed, not only until the child exits (Node's
  // execFile-style runners clear their timer on 'close'): when it fires after the exit, with a
  // leftover process holding a pipe, timed_out is set and, with signal_group, the group gets
  // timeout_signal.
  bool timeout_until_close = false;
  // Absolute safety net: after this long everything in the group is SIGKILLed and the pipes are
  // abandoned, whatever else is configured. Keeps a runner from hanging on an orphan.
  std::chrono::milliseconds hard_limit{120000};
  // 0: wait for the pipes as configured above. Otherwise, once the child has exited, pipes still
  // open this much later are abandoned the way hard_limit abandons them (the group is SIGKILLed,
  // pipes_outlived_child is set, hard_limited is not): for a grader whose verdict is already
  // decided when a grandchild holds the pipes. Keep it above 100 ms (pipes_outlived_child).
  std::chrono::milliseconds pipe_grace{0};
  size_t max_capture = 64u << 20;  // bytes kept per stream; the rest is read and dropped
  // stdin/stdout/stderr are AF_UNIX socketpairs instead of pipes, as Node's child_process (libuv)
  // makes them: a hook's `echo x > /dev/stderr` or `cat /dev/stdin` then fails with ENXIO exactly
  // as under the real Gemini CLI (seen with Node 20: "/dev/stderr: No such device or address").
  bool socket_stdio = false;
  // Non-null: polled every 10 ms while the child runs; once it reads true, the run ends as a hard
  // limit ends it (the group SIGKILLed, the pipes abandoned) and the result says `cancelled`. For a
  // grader that no longer needs the run (its verdict is settled): a child waiting out a 5 s host
  // timeout is not waited for. The flag must outlive run().
  const std::atomic<bool>* cancel = nullptr;
};

struct SpawnResult {
  bool started = false;
  std::string spawn_error;         // why it did not start
  int spawn_errno = 0;             // its errno when there is one (ENOENT for a program not found)
  std::optional<int> exit_code;    // set when the child exited normally
  std::optional<int> term_signal;  // set when a signal killed it
  bool timed_out = false;          // the timeout fired before the child exited (or, with
                                   // timeout_until_close, before the pipes closed)
  bool hard_limited = false;       // the hard limit fired
  bool cancelled = false;          // SpawnRequest::cancel ended the run
  std::string out;
  std::string err;
  bool out_truncated = false;
  bool err_truncated = false;
  // Size of each read() that returned stdout / stderr bytes, in order: Node emits one 'data'
  // chunk per read, and Gemini CLI decodes each chunk on its own (a UTF-8 sequence split across
  // two reads becomes two U+FFFD), so an emulator needs the same boundaries.
  std::vector<size_t> out_chunks, err_chunks;
  std::chrono::microseconds exited_after{0};  // spawn → child exit
  std::chrono::microseconds closed_after{0};  // spawn → both pipes at EOF (or abandoned)
  std::chrono::microseconds first_stdout_after{-1};  // spawn → first stdout byte; -1 if none
  // True when another process (a grandchild) still held the pipes when the child exited and
  // they stayed open >100 ms after the exit.
  bool pipes_outlived_child = false;
  size_t stdin_bytes_written = 0;
  bool stdin_broken = false;  // EPIPE while writing stdin (child closed it first)
};

class Spawner {
 public:
  virtual ~Spawner() = default;
  virtual SpawnResult run(const SpawnRequest& request) = 0;
};

// Boost.Process + Boost.Asio implementation. Thread-safe: each run() owns its io_context.
std::unique_ptr<Spawner> make_spawner();

// Looks `name` up in PATH (as execvp would); empty if not found.
std::string find_in_path(const std::string& name);

// The current environment as a map.
std::map<std::string, std::string> current_environment();

}  // namespace pinta::proc
