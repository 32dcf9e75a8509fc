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

// The fds one poll waits on; add() gives each one's index.
struct PollSet {
  pollfd fds[4];
  int n = 0;
  int add(int fd, short events) {
    fds[n] = {fd, events, 0};
    return n++;
  }
};

// Spawns spec.argv in a process group of its own, with the given ends as its stdin, stdout and
// stderr and every other fd closed; t0 is when. posix_spawn's result.
int spawn_child(const SpawnSpec& spec, int child_in, int child_out, int child_err, pid_t& pid,
                Clock::time_point& t0) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, child_in, 0);
  posix_spawn_file_actions_adddup2(&fa, child_out, 1);
  posix_spawn_file_actions_adddup2(&fa, child_err, 2);
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
  t0 = Clock::now();
  const int rc = ::posix_spawn(&pid, argv[0], &fa, &at, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  return rc;
}

// The child's stdin is writable (or failed, `revents`): the next piece of spec.stdin_data (one
// drip chunk when dripping); closed once all is written, unless the mode keeps it open.
void write_stdin(const SpawnSpec& spec, short revents, int& win, size_t& pos,
                 Clock::time_point& next_drip) {
  if (revents & (POLLERR | POLLHUP)) {
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
}

// One read of a ready stdout or stderr pipe `fd` into `dst` (up to spec.max_capture); the pipe is
// closed at its end or on an error.
void read_ready(const SpawnSpec& spec, int& fd, std::string& dst, SpawnOutcome& r,
                Clock::time_point t0, char* buf, size_t size) {
  const ssize_t got = ::read(fd, buf, size);
  if (got > 0) {
    if (&dst == &r.out && r.first_stdout_after.count() < 0)
      r.first_stdout_after =
          std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t0);
    if (dst.size() < spec.max_capture)
      dst.append(buf, std::min(static_cast<size_t>(got), spec.max_capture - dst.size()));
  } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
    close_fd(fd);
  }
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
  pid_t pid = -1;
  Clock::time_point t0;
  const int rc = spawn_child(spec, in[0], out[1], err[1], pid, t0);
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
    PollSet ps;
    const bool have_data = win >= 0 && pos < spec.stdin_data.size();
    const bool drip_wait = have_data && spec.mode == Stdin::kDripped && now < next_drip;
    const int i_in = have_data && !drip_wait ? ps.add(win, POLLOUT) : -1;
    const int i_out = rout >= 0 ? ps.add(rout, POLLIN) : -1;
    const int i_err = rerr >= 0 ? ps.add(rerr, POLLIN) : -1;
    const int i_pid = pfd >= 0 ? ps.add(pfd, POLLIN) : -1;
    pollfd* fds = ps.fds;
    auto wake = exited_at ? *exited_at + spec.linger : deadline;
    if (drip_wait && next_drip < wake) wake = next_drip;
    if (pfd < 0 && !exited_at) wake = std::min(wake, now + std::chrono::milliseconds(5));
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(wake - now).count();
    const int pr = ::poll(fds, static_cast<nfds_t>(ps.n), static_cast<int>(std::max<long>(ms, 0) + 1));
    if (pr < 0 && errno != EINTR) break;
    if (i_in >= 0 && fds[i_in].revents) {
      write_stdin(spec, fds[i_in].revents, win, pos, next_drip);
    } else if (win >= 0 && spec.stdin_data.empty() && spec.mode != Stdin::kOpen) {
      close_fd(win);
    }
    if (i_out >= 0 && fds[i_out].revents) read_ready(spec, rout, r.out, r, t0, buf, sizeof buf);
    if (i_err >= 0 && fds[i_err].revents) read_ready(spec, rerr, r.err, r, t0, buf, sizeof buf);
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
