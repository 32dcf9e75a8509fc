// Boost.Process spawner. Exit is observed through a pidfd (Linux ≥ 5.3) so no SIGCHLD handler is
// installed process-wide; where pidfd_open is unavailable a 1 ms poll of waitpid is used instead.
#include "pinta/common/process.h"

#include <linux/close_range.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/process/async_pipe.hpp>
#include <boost/process/child.hpp>
#include <boost/process/args.hpp>
#include <boost/process/env.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/environment.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/io.hpp>
#include <boost/process/start_dir.hpp>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <filesystem>

extern char** environ;  // NOLINT

namespace pinta::proc {
namespace bp = boost::process;
namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

namespace {

struct SetPgid : bp::extend::handler {
  bool enabled = true;
  template <typename Executor>
  void on_exec_setup(Executor& /*exec*/) const {
    if (enabled) ::setpgid(0, 0);
#if defined(SYS_close_range) && defined(CLOSE_RANGE_CLOEXEC)
    // Runs after the stdio redirections: 0/1/2 are final; Boost's exec-error pipe is CLOEXEC anyway.
    ::syscall(SYS_close_range, 3u, ~0u, CLOSE_RANGE_CLOEXEC);
#endif
    // The host's signal dispositions must not leak into the hook (Node resets them too).
    ::signal(SIGPIPE, SIG_DFL);
  }
};

// Boost.Process creates its pipes without O_CLOEXEC. With spawns on several threads (the parallel
// conformance runner), a child forked by one thread would inherit another spawn's pipe ends and
// hold them until it exits: that child's host then waits for EOF on a pipe nobody writes (the
// "silent hook hangs under load" symptom), or sees its stdin never close. So pipe creation, the
// FD_CLOEXEC marking and the fork happen under one lock; the child's own ends survive exec
// because dup2 onto 0/1/2 clears the flag. In the child, every other descriptor the caller has
// open (fake servers' sockets, say) is marked close-on-exec too (SetPgid), so a hook sees only its
// stdio. (bp::limit_handles would close them, but in Boost 1.81 it also closes async_pipe ends.)
std::mutex& spawn_mutex() {
  static std::mutex m;
  return m;
}

void set_cloexec(int fd) {
  if (fd < 0) return;
  int flags = ::fcntl(fd, F_GETFD);
  if (flags >= 0) ::fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}

std::chrono::microseconds since(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t0);
}

class BoostSpawner final : public Spawner {
 public:
  SpawnResult run(const SpawnRequest& req) override;
};

struct Run {
  asio::io_context io;
  bp::async_pipe in{io}, out{io}, err{io};
  asio::steady_timer timeout_timer{io}, kill_timer{io}, hard_timer{io}, drip_timer{io}, poll_timer{io};
  std::optional<asio::posix::stream_descriptor> pidfd;
  std::array<char, 65536> out_buf{}, err_buf{};
  SpawnResult res;
  const SpawnRequest* req = nullptr;
  Clock::time_point t0;
  pid_t pid = -1;
  bool exited = false, out_eof = false, err_eof = false;
  size_t drip_pos = 0;

  void signal_child(int sig) const {
    if (pid <= 0) return;
    if (req->signal_group && req->new_process_group) {
      ::kill(-pid, sig);
    } else {
      ::kill(pid, sig);
    }
  }

  void maybe_finish() {
    if (exited && out_eof && err_eof) {
      res.closed_after = since(t0);
      // Exit and EOF are separate events in this loop; only a gap well beyond scheduling noise
      // means another process (an orphaned grandchild) held the pipes.
      res.pipes_outlived_child = res.closed_after - res.exited_after > std::chrono::milliseconds(100);
      timeout_timer.cancel();
      kill_timer.cancel();
      hard_timer.cancel();
      drip_timer.cancel();
      poll_timer.cancel();
      if (in.is_open()) in.close();
    }
  }

  void on_exit_status(int status) {
    exited = true;
    res.exited_after = since(t0);
    if (WIFEXITED(status)) res.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) res.term_signal = WTERMSIG(status);
    timeout_timer.cancel();
    kill_timer.cancel();
    // The child is gone: nobody will read stdin any more.
    drip_timer.cancel();
    if (in.is_open()) in.close();
    maybe_finish();
    if (req->pipe_grace.count() > 0 && !(out_eof && err_eof)) {
      // Reuses timeout_timer: it has no other use once the child has exited.
      timeout_timer.expires_after(req->pipe_grace);
      timeout_timer.async_wait([this](const boost::system::error_code& e) {
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

  void read_stream(bp::async_pipe& pipe, std::array<char, 65536>& buf, std::string& sink, bool& truncated,
                   bool& eof, bool is_stdout) {
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

SpawnResult BoostSpawner::run(const SpawnRequest& req) {
  // Writing to a child that already exited must be EPIPE, not a SIGPIPE that kills the caller
  // (Node, the hosts' runtime, ignores SIGPIPE the same way).
  static const bool sigpipe_ignored = [] {
    ::signal(SIGPIPE, SIG_IGN);
    return true;
  }();
  (void)sigpipe_ignored;
  std::unique_lock<std::mutex> spawn_lock(spawn_mutex());
  Run r;
  for (auto* p : {&r.in, &r.out, &r.err}) {
    set_cloexec(p->native_source());
    set_cloexec(p->native_sink());
  }
  if (req.socket_stdio) {
    for (auto* p : {&r.in, &r.out, &r.err}) {
      int sv[2];
      if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        r.res.spawn_error = std::string("socketpair: ") + std::strerror(errno);
        return r.res;
      }
      // A socketpair is symmetric: what one end writes the other reads.
      // (Boost exposes the ends for modification only through its rvalue accessors.)
      std::move(*p).source().close();
      std::move(*p).sink().close();
      std::move(*p).source().assign(sv[0]);
      std::move(*p).sink().assign(sv[1]);
    }
  }
  r.req = &req;
  if (req.argv.empty()) {
    r.res.spawn_error = "empty argv";
    return r.res;
  }
  std::string exe = find_in_path(req.argv[0]);
  if (exe.empty()) {
    r.res.spawn_error = "not found in PATH: " + req.argv[0];
    return r.res;
  }
  std::vector<std::string> args(req.argv.begin() + 1, req.argv.end());
  bp::environment env;
  if (req.env) {
    for (const auto& [k, v] : *req.env) env[k] = v;
  } else {
    for (const auto& [k, v] : current_environment()) env[k] = v;
  }
  SetPgid pg;
  pg.enabled = req.new_process_group;
  std::error_code ec;
  r.t0 = Clock::now();
  std::string cwd = req.cwd.empty() ? std::filesystem::current_path(ec).string() : req.cwd;
  bp::child child;
  try {
    child = bp::child(bp::exe = exe, bp::args = args, bp::env = env, bp::start_dir = cwd, bp::std_in < r.in,
                      bp::std_out > r.out, bp::std_err > r.err, pg, ec);
  } catch (const std::exception& e) {
    r.res.spawn_error = e.what();
    return r.res;
  }
  spawn_lock.unlock();
  if (ec || !child.valid()) {
    r.res.spawn_error = ec ? ec.message() : "spawn failed";
    return r.res;
  }
  r.res.started = true;
  r.pid = child.id();
  child.detach();  // we reap it ourselves through the pidfd

  r.watch_exit();
  r.read_stream(r.out, r.out_buf, r.res.out, r.res.out_truncated, r.out_eof, true);
  r.read_stream(r.err, r.err_buf, r.res.err, r.res.err_truncated, r.err_eof, false);
  switch (req.stdin_mode) {
    case StdinMode::kNone: r.in.close(); break;
    case StdinMode::kDrip: r.drip(); break;
    default:
      if (req.stdin_data.empty()) {
        if (req.stdin_mode == StdinMode::kCloseAfterWrite) r.in.close();
      } else {
        r.write_all_then_maybe_close();
      }
  }
  if (req.timeout.count() > 0) {
    r.timeout_timer.expires_after(req.timeout);
    r.timeout_timer.async_wait([&r, &req](const boost::system::error_code& e) {
      if (e || r.exited) return;
      r.res.timed_out = true;
      r.signal_child(req.timeout_signal);
      if (req.kill_after.count() > 0) {
        r.kill_timer.expires_after(req.kill_after);
        r.kill_timer.async_wait([&r](const boost::system::error_code& e2) {
          if (!e2 && !r.exited) r.signal_child(SIGKILL);
        });
      }
    });
  }
  r.hard_timer.expires_after(req.hard_limit);
  r.hard_timer.async_wait([&r](const boost::system::error_code& e) {
    if (e) return;
    r.res.hard_limited = true;
    if (r.pid > 0) {
      ::kill(-r.pid, SIGKILL);
      ::kill(r.pid, SIGKILL);
    }
    boost::system::error_code ignore;
    r.out.close(ignore);
    r.err.close(ignore);
    r.in.close(ignore);
    r.out_eof = r.err_eof = true;
    if (!r.exited) {
      int status = 0;
      if (::waitpid(r.pid, &status, 0) == r.pid) r.on_exit_status(status);
    }
    r.maybe_finish();
  });
  r.io.run();
  if (r.res.closed_after.count() == 0) r.res.closed_after = since(r.t0);
  return r.res;
}

std::unique_ptr<Spawner> make_spawner() { return std::make_unique<BoostSpawner>(); }

}  // namespace pinta::proc
