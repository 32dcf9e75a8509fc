// Detached grandchild processes (detach.h).
#include "pinta/adapter/detach.h"

#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>

namespace pinta::adapter {
namespace {

void close_inherited_fds(int keep) {
#ifdef SYS_close_range
  if (keep > 3) {
    if (::syscall(SYS_close_range, 3u, static_cast<unsigned>(keep - 1), 0u) == 0 &&
        ::syscall(SYS_close_range, static_cast<unsigned>(keep + 1), ~0u, 0u) == 0)
      return;
  } else if (keep == 3) {
    if (::syscall(SYS_close_range, 4u, ~0u, 0u) == 0) return;
  }
#endif
  long max = ::sysconf(_SC_OPEN_MAX);
  if (max < 0 || max > 65536) max = 65536;
  for (int fd = 3; fd < max; ++fd)
    if (fd != keep) ::close(fd);
}

}  // namespace

bool run_detached(int keep_fd, const std::function<void(int kept_fd)>& body) noexcept {
  pid_t pid = ::fork();
  if (pid < 0) return false;
  if (pid == 0) {
    // Child: new session (no controlling terminal, out of the host's process group); let go of
    // the host's pipes and every other inherited descriptor but `keep_fd`; then fork again, so
    // the grandchild is not a session leader and is reparented away from us at once, and exit.
    ::setsid();
    ::signal(SIGPIPE, SIG_IGN);
    // Hardened before the grandchild exists, so it never is otherwise (fork keeps all three):
    // not dumpable (no ptrace, /proc/<pid>/mem or /proc/<pid>/environ for other processes of the
    // same user, only root), no core file whatever signal ends it (it holds tokens and, in freed
    // heap, the event it was forked from), and its cwd is "/": the host's directory (the user's
    // workspace) is neither pinned (umount) nor where anything of ours could be written.
    (void)::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    const struct rlimit no_core {0, 0};
    (void)::setrlimit(RLIMIT_CORE, &no_core);
    (void)!::chdir("/");
    int devnull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull >= 0) {
      ::dup2(devnull, STDIN_FILENO);
      ::dup2(devnull, STDOUT_FILENO);
      ::dup2(devnull, STDERR_FILENO);
    } else {
      ::close(STDIN_FILENO);
      ::close(STDOUT_FILENO);
      ::close(STDERR_FILENO);
    }
    int kept = ::fcntl(keep_fd, F_DUPFD_CLOEXEC, 3);
    close_inherited_fds(kept >= 3 ? kept : keep_fd);
    if (kept < 3) kept = keep_fd;
    if (::fork() != 0) ::_exit(0);  // a flock on keep_fd lives on in the grandchild
    // The event's freed heap (its input, unredacted) goes back to the kernel where whole pages
    // are free: what the body does not use is not kept for its life.
    (void)::malloc_trim(0);
    try {
      body(kept);
    } catch (...) {
    }
    ::_exit(0);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return true;
}

bool sleep_unless_unlinked(int fd, std::chrono::milliseconds d) {
  const auto end = std::chrono::steady_clock::now() + d;
  for (;;) {
    struct stat st {};
    if (::fstat(fd, &st) != 0 || st.st_nlink == 0) return false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (left.count() <= 0) return true;
    std::this_thread::sleep_for(std::min(left, std::chrono::milliseconds(250)));
  }
}

}  // namespace pinta::adapter
