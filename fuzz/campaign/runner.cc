// posix_spawn runner for the process-level campaign (see runner.h).
#include "runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace pinta::fuzz::campaign {

const char* stdin_name(Stdin m) {
  switch (m) {
    case Stdin::kClosed:
      return "closed";
    case Stdin::kOpen:
      return "open";
    case Stdin::kDripped:
      return "dripped";
    case Stdin::kNone:
      return "none";
  }
  return "closed";
}

namespace {

using Clock = std::chrono::steady_clock;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

int pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  errno = ENOSYS;
  return -1;
#endif
}

}  // namespace

SpawnOutcome spawn_and_wait(const SpawnSpec& spec) {
  SpawnOutcome r;
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    r.spawn_error = std::string("pipe2: ") + std::strerror(errno);
    for (int* p : {in, out, err}) {
      close_fd(p[0]);
      close_fd(p[1]);
    }
    return r;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  posix_spawn_file_actions_addclosefrom_np(&fa, 3);  // fake servers' sockets, other runs' pipes
#endif
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, spec.cwd.c_str());
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&at, &all);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setpgroup(&at, 0);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK |
                                    POSIX_SPAWN_SETPGROUP);
  std::vector<char*> argv, envp;
  for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : spec.env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  pid_t pid = -1;
  const auto t0 = Clock::now();
  const int rc = ::posix_spawn(&pid, argv[0], &fa, &at, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  close_fd(in[0]);
  close_fd(out[1]);
  close_fd(err[1]);
  if (rc != 0) {
    r.spawn_error = std::string("posix_spawn ") + spec.argv[0] + ": " + std::strerror(rc);
    close_fd(in[1]);
    close_fd(out[0]);
    close_fd(err[0]);
    return r;
  }
  r.started = true;
  int pfd = pidfd_open(pid);
  int win = in[1], rout = out[0], rerr = err[0];
  ::fcntl(win, F_SETFL, O_NONBLOCK);
  size_t pos = 0;
  if (spec.mode == Stdin::kNone) close_fd(win);
  auto next_drip = t0;
  const auto deadline = t0 + spec.timeout;
  std::optional<Clock::time_point> exited_at;
  auto reap = [&](int options) {
    int status = 0;
    if (::waitpid(pid, &status, options) == pid) {
      exited_at = Clock::now();
      r.exited_after = std::chrono::duration_cast<std::chrono::microseconds>(*exited_at - t0);
      if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
      if (WIFSIGNALED(status)) r.term_signal = WTERMSIG(status);
      close_fd(pfd);
      return true;
    }
    return false;
  };
  char buf[65536];
  for (;;) {
    if (exited_at && rout < 0 && rerr < 0) break;
    const auto now = Clock::now();
    if (exited_at && now - *exited_at > spec.linger) {
      r.pipes_held = true;
      break;
    }
    if (!exited_at && now >= deadline) {
      r.timed_out = true;
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
      reap(0);
      break;
    }
    if (exited_at) close_fd(win);  // nobody reads it any more
    pollfd fds[4];
    int n = 0, i_in = -1, i_out = -1, i_err = -1, i_pid = -1;
    const bool have_data = win >= 0 && pos < spec.stdin_data.size();
    const bool drip_wait = have_data && spec.mode == Stdin::kDripped && now < next_drip;
    if (have_data && !drip_wait) {
      i_in = n;
      fds[n++] = {win, POLLOUT, 0};
    }
    if (rout >= 0) {
      i_out = n;
      fds[n++] = {rout, POLLIN, 0};
    }
    if (rerr >= 0) {
      i_err = n;
      fds[n++] = {rerr, POLLIN, 0};
    }
    if (pfd >= 0) {
      i_pid = n;
      fds[n++] = {pfd, POLLIN, 0};
    }
    auto wake = exited_at ? *exited_at + spec.linger : deadline;
    if (drip_wait && next_drip < wake) wake = next_drip;
    if (pfd < 0 && !exited_at) wake = std::min(wake, now + std::chrono::milliseconds(5));
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(wake - now).count();
    const int pr = ::poll(fds, static_cast<nfds_t>(n), static_cast<int>(std::max<long>(ms, 0) + 1));
    if (pr < 0 && errno != EINTR) break;
    if (i_in >= 0 && fds[i_in].revents) {
      if (fds[i_in].revents & (POLLERR | POLLHUP)) {
        close_fd(win);
      } else {
        size_t len = spec.stdin_data.size() - pos;
        if (spec.mode == Stdin::kDripped) len = std::min(len, spec.drip_chunk);
        const ssize_t w = ::write(win, spec.stdin_data.data() + pos, len);
        if (w > 0) {
          pos += static_cast<size_t>(w);
          next_drip = Clock::now() + spec.drip_interval;
        } else if (w < 0 && errno != EAGAIN && errno != EINTR) {
          close_fd(win);  // EPIPE: the child closed stdin first
        }
      }
      if (win >= 0 && pos >= spec.stdin_data.size() && spec.mode != Stdin::kOpen) close_fd(win);
    } else if (win >= 0 && spec.stdin_data.empty() && spec.mode != Stdin::kOpen) {
      close_fd(win);
    }
    struct Stream {
      int idx;
      int* fd;
      std::string* dst;
    };
    for (const Stream& st : {Stream{i_out, &rout, &r.out}, Stream{i_err, &rerr, &r.err}}) {
      const int idx = st.idx;
      int* fd = st.fd;
      std::string* dst = st.dst;
      if (idx < 0 || !fds[idx].revents) continue;
      const ssize_t got = ::read(*fd, buf, sizeof buf);
      if (got > 0) {
        if (dst == &r.out && r.first_stdout_after.count() < 0)
          r.first_stdout_after =
              std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t0);
        if (dst->size() < spec.max_capture)
          dst->append(buf, std::min(static_cast<size_t>(got), spec.max_capture - dst->size()));
      } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
        close_fd(*fd);
      }
    }
    if (i_pid >= 0 && fds[i_pid].revents) reap(WNOHANG);
    if (pfd < 0 && !exited_at) reap(WNOHANG);
  }
  close_fd(win);
  close_fd(rout);
  close_fd(rerr);
  if (!exited_at) reap(0);
  close_fd(pfd);
  return r;
}

}  // namespace pinta::fuzz::campaign
