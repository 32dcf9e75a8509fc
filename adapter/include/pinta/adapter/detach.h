// File: pinta/adapter/detach.h
// The one way the adapter leaves work behind after its reply: a detached grandchild process (the
// telemetry flusher, telemetry.h; the guard keeper, guard_keeper.h). The host waits for the hook
// process and, through its pipes, for anything holding them; the grandchild holds none of them.
#pragma once

#include <chrono>
#include <functional>

namespace pinta::adapter {

// Forks a child that starts a new session, puts /dev/null on stdin, stdout and stderr, closes
// every inherited descriptor except `keep_fd` (kept close-on-exec, at a number >= 3), forks the
// grandchild that runs `body(kept fd)` and then `_exit(0)`, and exits at once; the caller waits
// only for that child, never for the grandchild to be scheduled. SIGPIPE is ignored in the
// grandchild. Both are hardened (docs/contract.md GUARD-13, OTLP): not dumpable
// (PR_SET_DUMPABLE 0), no core file (RLIMIT_CORE 0, soft and hard), cwd "/" (the host's cwd is
// the user's workspace), and the grandchild gives freed heap back (malloc_trim).
// Returns false when the first fork failed. `keep_fd` stays open in the caller.
bool run_detached(int keep_fd, const std::function<void(int kept_fd)>& body) noexcept;

// For a detached process that holds `fd` on its lock file in the data dir: sleeps `d` in slices
// of at most 250 ms and returns false early once the file is unlinked (the data dir deleted:
// nothing of ours is left to serve, and a new data dir at that path gets a process of its own).
bool sleep_unless_unlinked(int fd, std::chrono::milliseconds d);

}  // namespace pinta::adapter
