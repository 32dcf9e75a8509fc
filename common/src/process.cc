// The spawner: posix_spawn (glibc's CLONE_VM|CLONE_VFORK path) and Boost.Asio for the pipes and
// timers. Exit is observed through a pidfd (Linux >= 5.3) so no SIGCHLD handler is installed
// process-wide; where pidfd_open is unavailable a 1 ms poll of waitpid is used instead.
//
// Why posix_spawn and not fork (Boost.Process 1, which this replaced): a fork copies the caller's
// page tables and the child then unmaps them all again at exec. The conformance runner spawns
// ~1,900 hooks per run from a large multi-threaded process; measured with `perf record` on
// 2 cores, fork + the child's exec teardown were ~20% of the run's CPU. posix_spawn shares the
// caller's memory until exec, so that cost is gone, and it lets argv[0] differ from the program's
// path (SpawnRequest::argv0) without a shell re-exec.
#include "pinta/common/process.h"

#include <fcntl.h>
#include <spawn.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>

extern char** environ;  // NOLINT

namespace pinta::proc {

namespace {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

// Our ends of the child's stdin/stdout/stderr are created close-on-exec (pipe2 / socketpair with
// O_CLOEXEC), and the child closes every descriptor above 2 before it execs
// (posix_spawn_file_actions_addclosefrom_np), so with spawns on several threads (the parallel
// conformance runner) no child can inherit another spawn's pipe ends and hold them (the "silent
// hook hangs under load" symptom: a host waiting for EOF on a pipe nobody writes), and a hook sees
// only its stdio, never the caller's other descriptors (fake servers' sockets, say). One known
// difference from a real host, kept on purpose: Node's spawn closes nothing, so a hook under the
// real Gemini CLI also inherits any descriptor the CLI's own parent left open without
// close-on-exec. Emulated runs stay hermetic instead; the differential test
// (emulator_gemini_real_hook_test, case process-start) starts both sides with only 0-2 open.

// One stdio channel: `ours` is the caller's end, `theirs` becomes the child's fd 0/1/2.
struct Channel {
  int ours = -1, theirs = -1;
};

// child_reads: stdin (the child reads `theirs`); otherwise the child writes it. A socketpair is
// symmetric: what one end writes the other reads.
bool make_channel(bool socket, bool child_reads, Channel& c, std::string& error) {
  int fds[2];
  if (socket) {
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
      error = std::string("socketpair: ") + std::strerror(errno);
      return false;
    }
    c = {fds[0], fds[1]};
    return true;
  }
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  c = child_reads ? Channel{fds[1], fds[0]} : Channel{fds[0], fds[1]};
  return true;
}

// Signals the child gets with the default disposition (SpawnRequest::ChildSignals). Node's spawn
// (the Gemini CLI and deel-local-cli runtime): libuv's child resets every signal below 32 to
// SIG_DFL and clears the signal mask before its exec (deps/uv/src/unix/process.c,
// uv__process_child_init). So a host started from a shell that ignores signals (a background job of
// a script ignores INT and QUIT; nohup ignores HUP) does not hand that to its hooks, and neither
// may an emulator: this process ignores SIGPIPE (run()), the child gets the default. Go's os/exec
// (Antigravity) does the same except that an inherited SIG_IGN of SIGHUP or SIGINT stays
// (runtime/signal_unix.go, sigInstallGoHandler). glibc's posix_spawn also sets its own internal
// signals (32 and 33: thread cancellation and set*id broadcast) to SIG_IGN in the child unless they
// are in this set, and an ignored disposition survives exec, which neither runtime does. sigaddset
// refuses 32 and 33, so their bits are set directly (glibc's sigset_t: signal n is bit n-1).
// Signals from 34 on stay as they are, as under both runtimes.
sigset_t child_default_signals(SpawnRequest::ChildSignals how) {
  sigset_t s;
  sigemptyset(&s);
  for (int sig = 1; sig < 32; ++sig) {
    if (sig == SIGKILL || sig == SIGSTOP) continue;
    if (how == SpawnRequest::ChildSignals::kGo && (sig == SIGHUP || sig == SIGINT)) {
      struct sigaction now;
      if (::sigaction(sig, nullptr, &now) == 0 && now.sa_handler == SIG_IGN) continue;
    }
    sigaddset(&s, sig);
  }
  constexpr size_t kBits = 8 * sizeof(s.__val[0]);
  for (int sig : {32, 33}) s.__val[(sig - 1) / kBits] |= 1UL << ((sig - 1) % kBits);
  return s;
}

std::chrono::microseconds since(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t0);
}

class PosixSpawner final : public Spawner {
 public:
  SpawnResult run(const SpawnRequest& req) override;
};

struct Run {
  asio::io_context io;
  asio::posix::stream_descriptor in{io}, out{io}, err{io};  // our ends
  asio::steady_timer timeout_timer{io}, kill_timer{io}, hard_timer{io}, drip_timer{io}, poll_timer{io},
      grace_timer{io}, cancel_timer{io};
  std::optional<asio::posix::stream_descriptor> pidfd;
  std::array<char, 65536> out_buf{}, err_buf{};
  SpawnResult res;
  const SpawnRequest* req = nullptr;
  Clock::time_point t0;
  pid_t pid = -1;
  bool exited = false, out_eof = false, err_eof = false, held_at_exit = false;
  size_t drip_pos = 0;

  void signal_child(int sig) const {
    if (pid <= 0) return;
    if (req->signal_group && (req->new_process_group || req->new_session)) {
      ::kill(-pid, sig);
    } else {
      ::kill(pid, sig);
    }
  }

  // Ends the run now: the group (and the child) SIGKILLed, the pipes abandoned, the child reaped.
  void abandon() {
    if (pid > 0) {
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
    }
    boost::system::error_code ignore;
    out.close(ignore);
    err.close(ignore);
    in.close(ignore);
    out_eof = err_eof = true;
    if (!exited) {
      int status = 0;
      if (::waitpid(pid, &status, 0) == pid) on_exit_status(status);
    }
    maybe_finish();
  }

  // SpawnRequest::cancel, every 10 ms until the run ends. maybe_finish cancels the timer, but a
  // wait that had already expired still runs its handler: the end is checked here, or the timer
  // would be re-armed for ever and io.run() never return.
  void watch_cancel() {
    if (exited && out_eof && err_eof) return;
    if (req->cancel->load(std::memory_order_relaxed)) {
      res.cancelled = true;
      abandon();
      return;
    }
    cancel_timer.expires_after(std::chrono::milliseconds(10));
    cancel_timer.async_wait([this](const boost::system::error_code& ec) {
      if (!ec) watch_cancel();
    });
  }

  void maybe_finish() {
    if (exited && out_eof && err_eof) {
      res.closed_after = since(t0);
      // Exit and EOF are separate events in this loop. Another process (an orphaned grandchild)
      // held the pipes if a write end was still open when the exit was seen (the kernel closes
      // an exiting process's descriptors before it reports the exit) and EOF came well after.
      // The time gap alone also counts a loop thread that was descheduled between the two events
      // (64 spawning threads on 2 cores under TSan flagged clean adapters).
      res.pipes_outlived_child =
          held_at_exit && res.closed_after - res.exited_after > std::chrono::milliseconds(100);
      timeout_timer.cancel();
      kill_timer.cancel();
      hard_timer.cancel();
      drip_timer.cancel();
      poll_timer.cancel();
      grace_timer.cancel();
      cancel_timer.cancel();
      if (in.is_open()) in.close();
    }
  }

  // True while some process still holds the write end of a pipe we have not seen EOF on
  // (POLLHUP: no writer left, for pipes and for the socketpair alike).
  static bool writer_left(asio::posix::stream_descriptor& d, bool eof) {
    if (eof || !d.is_open()) return false;
    pollfd p{d.native_handle(), POLLIN, 0};
    return ::poll(&p, 1, 0) >= 0 && !(p.revents & (POLLHUP | POLLERR | POLLNVAL));
  }

  void on_exit_status(int status) {
    exited = true;
    res.exited_after = since(t0);
    held_at_exit = writer_left(out, out_eof) || writer_left(err, err_eof);
    if (WIFEXITED(status)) res.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) res.term_signal = WTERMSIG(status);
    // With timeout_until_close the timeout keeps running while a pipe is open.
    if (!req->timeout_until_close) timeout_timer.cancel();
    kill_timer.cancel();
    // The child is gone: nobody will read stdin any more.
    drip_timer.cancel();
    if (in.is_open()) in.close();
    maybe_finish();
    if (req->pipe_grace.count() > 0 && !(out_eof && err_eof)) {
      grace_timer.expires_after(req->pipe_grace);
      grace_timer.async_wait([this](const boost::system::error_code& e) {
        if (e || (out_eof && err_eof)) return;
        if (pid > 0) ::kill(-pid, SIGKILL);
        boost::system::error_code ignore;
        out.close(ignore);
        err.close(ignore);
        out_eof = err_eof = true;
        maybe_finish();
      });
    }
  }

  bool try_reap() {
    int status = 0;
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) {
      on_exit_status(status);
      return true;
    }
    return false;
  }

  void watch_exit() {
    int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    if (fd >= 0) {
      pidfd.emplace(io, fd);
      pidfd->async_wait(asio::posix::stream_descriptor::wait_read, [this](const boost::system::error_code& ec) {
        if (ec) return;
        int status = 0;
        if (::waitpid(pid, &status, 0) == pid) on_exit_status(status);
      });
      return;
    }
    poll_exit();
  }

  void poll_exit() {
    if (try_reap()) return;
    poll_timer.expires_after(std::chrono::milliseconds(1));
    poll_timer.async_wait([this](const boost::system::error_code& ec) {
      if (!ec) poll_exit();
    });
  }

  void read_stream(asio::posix::stream_descriptor& pipe, std::array<char, 65536>& buf,
                   std::string& sink, bool& truncated, bool& eof, bool is_stdout) {
    pipe.async_read_some(asio::buffer(buf), [this, &pipe, &buf, &sink, &truncated, &eof, is_stdout](
                                                const boost::system::error_code& ec, size_t n) {
      if (n > 0) {
        (is_stdout ? res.out_chunks : res.err_chunks).push_back(n);
        if (is_stdout && res.first_stdout_after.count() < 0) res.first_stdout_after = since(t0);
        size_t room = req->max_capture > sink.size() ? req->max_capture - sink.size() : 0;
        if (n > room) truncated = true;
        sink.append(buf.data(), std::min(n, room));
      }
      if (ec) {
        eof = true;
        boost::system::error_code ignore;
        pipe.close(ignore);
        maybe_finish();
        return;
      }
      read_stream(pipe, buf, sink, truncated, eof, is_stdout);
    });
  }

  void write_all_then_maybe_close() {
    asio::async_write(in, asio::buffer(req->stdin_data), [this](const boost::system::error_code& ec, size_t n) {
      res.stdin_bytes_written += n;
      if (ec) {
        res.stdin_broken = true;
        boost::system::error_code ignore;
        in.close(ignore);
        return;
      }
      if (req->stdin_mode == StdinMode::kCloseAfterWrite) {
        boost::system::error_code ignore;
        in.close(ignore);
      }
    });
  }

  void drip() {
    if (!in.is_open()) return;
    if (drip_pos >= req->stdin_data.size()) {
      boost::system::error_code ignore;
      in.close(ignore);
      return;
    }
    size_t n = std::min(req->drip_chunk == 0 ? size_t{1} : req->drip_chunk, req->stdin_data.size() - drip_pos);
    asio::async_write(in, asio::buffer(req->stdin_data.data() + drip_pos, n),
                      [this](const boost::system::error_code& ec, size_t written) {
                        res.stdin_bytes_written += written;
                        drip_pos += written;
                        if (ec) {
                          res.stdin_broken = true;
                          boost::system::error_code ignore;
                          in.close(ignore);
                          return;
                        }
                        drip_timer.expires_after(req->drip_interval);
                        drip_timer.async_wait([this](const boost::system::error_code& e) {
                          if (!e) drip();
                        });
                      });
  }

  // The child's stdin as the request asks: closed at once, dripped, or written whole.
  void start_stdin() {
    switch (req->stdin_mode) {
      case StdinMode::kNone: in.close(); break;
      case StdinMode::kDrip: drip(); break;
      default:
        if (req->stdin_data.empty()) {
          if (req->stdin_mode == StdinMode::kCloseAfterWrite) in.close();
        } else {
          write_all_then_maybe_close();
        }
    }
  }

  // The request's timeout (its signal, then SIGKILL after kill_after) and the hard limit.
  void arm_timers() {
    if (req->timeout.count() > 0) {
      timeout_timer.expires_after(req->timeout);
      timeout_timer.async_wait([this](const boost::system::error_code& e) {
        if (!e) on_timeout();
      });
    }
    hard_timer.expires_after(req->hard_limit);
    hard_timer.async_wait([this](const boost::system::error_code& e) {
      if (e) return;
      res.hard_limited = true;
      abandon();
    });
  }

  void on_timeout() {
    if (exited) {
      // timeout_until_close: the child has gone, a leftover process holds a pipe. Only its
      // group can be signalled (the child's pid may be reused by now).
      if (!req->timeout_until_close || (out_eof && err_eof)) return;
      res.timed_out = true;
      if (req->signal_group && (req->new_process_group || req->new_session) && pid > 0)
        ::kill(-pid, req->timeout_signal);
      return;
    }
    res.timed_out = true;
    signal_child(req->timeout_signal);
    if (req->kill_after.count() > 0) {
      kill_timer.expires_after(req->kill_after);
      kill_timer.async_wait([this](const boost::system::error_code& e2) {
        if (!e2 && !exited) signal_child(SIGKILL);
      });
    }
  }
};

}  // namespace

std::string find_in_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");  // NOLINT(concurrency-mt-unsafe)
  std::string p = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t i = 0;
  while (i <= p.size()) {
    size_t j = p.find(':', i);
    if (j == std::string::npos) j = p.size();
    std::string dir = p.substr(i, j - i);
    if (dir.empty()) dir = ".";
    std::string cand = dir + "/" + name;
    if (::access(cand.c_str(), X_OK) == 0) return cand;
    i = j + 1;
  }
  return {};
}

std::map<std::string, std::string> current_environment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string kv(*e);
    auto eq = kv.find('=');
    if (eq == std::string::npos) continue;
    env.emplace(kv.substr(0, eq), kv.substr(eq + 1));
  }
  return env;
}

namespace {

// The child's environment, "NAME=value" sorted by name: exactly as the request gives it (a list
// or a map), or this process's.
std::vector<std::string> environment_strings(const SpawnRequest& req) {
  std::vector<std::string> env_strings;
  if (req.env_list) {
    for (const auto& [k, v] : *req.env_list) env_strings.push_back(k + "=" + v);
  } else {
    for (const auto& [k, v] : req.env ? *req.env : current_environment())
      env_strings.push_back(k + "=" + v);
  }
  return env_strings;
}

// posix_spawn's file actions and attributes for the request: the channels' ends as fds 0-2, no
// other fd, the working directory, the signal state, the session or process group.
void init_spawn(const SpawnRequest& req, const std::array<Channel, 3>& ch,
                posix_spawn_file_actions_t& fa, posix_spawnattr_t& attr) {
  ::posix_spawn_file_actions_init(&fa);
  ::posix_spawnattr_init(&attr);
  for (int i = 0; i < 3; ++i) ::posix_spawn_file_actions_adddup2(&fa, ch[i].theirs, i);
  ::posix_spawn_file_actions_addclosefrom_np(&fa, 3);
  if (!req.cwd.empty()) ::posix_spawn_file_actions_addchdir_np(&fa, req.cwd.c_str());
  // The child starts with no signal blocked, whatever the calling thread blocks (as under Node
  // and Go, see child_default_signals).
  short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
  const sigset_t defaults = child_default_signals(req.child_signals);
  ::posix_spawnattr_setsigdefault(&attr, &defaults);
  sigset_t none;
  sigemptyset(&none);
  ::posix_spawnattr_setsigmask(&attr, &none);
  if (req.new_session) {
    flags |= POSIX_SPAWN_SETSID;  // not with SETPGROUP: setpgid fails for a session leader
  } else if (req.new_process_group) {
    flags |= POSIX_SPAWN_SETPGROUP;
    ::posix_spawnattr_setpgroup(&attr, 0);
  }
  ::posix_spawnattr_setflags(&attr, flags);
}

}  // namespace

SpawnResult PosixSpawner::run(const SpawnRequest& req) {
  // Writing to a child that already exited must be EPIPE, not a SIGPIPE that kills the caller
  // (Node, the hosts' runtime, ignores SIGPIPE the same way).
  static const bool sigpipe_ignored = [] {
    ::signal(SIGPIPE, SIG_IGN);
    return true;
  }();
  (void)sigpipe_ignored;
  Run r;
  r.req = &req;
  if (req.argv.empty()) {
    r.res.spawn_error = "empty argv";
    return r.res;
  }
  std::string exe = find_in_path(req.argv[0]);
  if (exe.empty()) {
    r.res.spawn_error = "not found in PATH: " + req.argv[0];
    r.res.spawn_errno = ENOENT;
    return r.res;
  }
  // argv: argv[0] is the resolved path unless the request names another; the environment is
  // passed sorted by name, exactly as given (or this process's).
  std::vector<std::string> args = req.argv;
  args[0] = req.argv0.empty() ? exe : req.argv0;
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_strings = environment_strings(req);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);

  // One spawn at a time in this process, from creating the pipes to closing the child's ends
  // here: a child cloned by another thread copies the fd table as it is at that moment, and holds
  // those copies until its closefrom/exec. Under the lock no other spawn's child ends are open
  // then, so no child ever holds a sibling's pipes, however slowly it reaches its exec.
  static std::mutex spawn_mu;
  std::unique_lock<std::mutex> spawn_lock(spawn_mu);
  std::array<Channel, 3> ch;
  auto close_all = [&ch] {
    for (auto& c : ch)
      for (int fd : {c.ours, c.theirs})
        if (fd >= 0) ::close(fd);
  };
  for (int i = 0; i < 3; ++i) {
    if (!make_channel(req.socket_stdio, i == 0, ch[i], r.res.spawn_error)) {
      close_all();
      return r.res;
    }
  }

  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  init_spawn(req, ch, fa, attr);
  r.t0 = Clock::now();
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, exe.c_str(), &fa, &attr, argv.data(), envp.data());
  ::posix_spawn_file_actions_destroy(&fa);
  ::posix_spawnattr_destroy(&attr);
  for (auto& c : ch) {
    ::close(c.theirs);
    c.theirs = -1;
  }
  spawn_lock.unlock();
  if (rc != 0) {
    r.res.spawn_error = std::strerror(rc);
    r.res.spawn_errno = rc;
    close_all();
    return r.res;
  }
  r.in.assign(ch[0].ours);
  r.out.assign(ch[1].ours);
  r.err.assign(ch[2].ours);
  r.res.started = true;
  r.pid = pid;  // reaped through the pidfd (watch_exit)

  r.watch_exit();
  r.read_stream(r.out, r.out_buf, r.res.out, r.res.out_truncated, r.out_eof, true);
  r.read_stream(r.err, r.err_buf, r.res.err, r.res.err_truncated, r.err_eof, false);
  r.start_stdin();
  r.arm_timers();
  if (req.cancel) r.watch_cancel();
  r.io.run();
  if (r.res.closed_after.count() == 0) r.res.closed_after = since(r.t0);
  return r.res;
}

std::unique_ptr<Spawner> make_spawner() { return std::make_unique<PosixSpawner>(); }

}  // namespace pinta::proc
