// File: pinta/common/fs.h
// Small POSIX file helpers shared by the adapter (data dir, queue, trace store), the installer and
// the emulators. Everything here is errors-as-values and never throws.
#pragma once

#include <sys/stat.h>

#include <string>
#include <string_view>

#include "pinta/common/result.h"

namespace pinta::fs {

// Reads a whole file (up to max_bytes; larger → kTooLarge).
Result<std::string> read_file(const std::string& path, size_t max_bytes = 64u << 20);

// Reads a whole regular file (up to max_bytes; larger → kTooLarge) without ever blocking on what
// is not one: opened with O_NONBLOCK (a FIFO or device there must not hang the open; symbolic
// links are followed, as for read_file), fstat'ed, refused with kInvalidArgument ("not a regular
// file") unless S_ISREG, then read blocking as usual. For what the adapter reads before its
// reply: /etc/passwd (home_dir), the env file, /etc/hosts and /etc/resolv.conf.
Result<std::string> read_regular_file(const std::string& path, size_t max_bytes);
// The open half of read_regular_file: the fd (O_CLOEXEC, O_NONBLOCK cleared) with `st` filled,
// or -1 with errno (EINVAL: not a regular file; else what open(2) or fstat(2) said).
int open_regular(const std::string& path, struct stat& st) noexcept;
// Reads all of `fd` (an fd of open_regular), up to max_bytes, and closes it; `path` for messages.
Result<std::string> read_all_and_close(int fd, const std::string& path, size_t max_bytes);

// Writes `data` to `path` atomically: temp file in the same directory, fsync (unless `durable` is
// false), rename. The file gets `mode` (e.g. 0600). Readers see the old or the new content, never
// a mix. The temp name carries 64 random bits and is created with O_EXCL|O_NOFOLLOW, so nothing
// planted in the directory is followed, truncated or reused; the rename replaces the name `path`
// itself, never what a link there points to.
Status atomic_write(const std::string& path, std::string_view data, unsigned mode = 0600,
                    bool durable = true);

// mkdir -p with `mode` for every directory created (existing ones are left as they are).
Status make_dirs(const std::string& path, unsigned mode = 0700);

// Appends `line` (which should end in '\n') with one write(2) under an exclusive flock, so
// concurrent writers never interleave. Creates the file with `mode`.
Status append_locked(const std::string& path, std::string_view line, unsigned mode = 0600);

// An kIo error "<what> <path>: <strerror(errno)>" (call right after the failing syscall).
Error io_error(const std::string& what, const std::string& path);

// write(2) until all of `data` is written, retrying EINTR; false on any other error.
bool write_all(int fd, std::string_view data);

bool exists(const std::string& path);
std::string dirname(const std::string& path);
std::string join(std::string_view a, std::string_view b);

// flock(fd, operation | LOCK_NB) (operation: LOCK_EX or LOCK_SH) until it succeeds or timeout_ms
// has passed: one try at once, then tries between sleeps of 100 us doubling to 4 ms (dozens of
// waiters polling faster wake each other and starve on a few cores), and one last try after the
// deadline (a waiter that overslept in a busy machine still takes a lock that is free by then).
// EINTR is retried. kTimeout when the time ran out, kIo on any other flock error; fd stays open.
Status lock_fd(int fd, int operation, int timeout_ms, const std::string& path);

// RAII exclusive lock on a lock file in a private directory (opened with open_private, created
// 0600). Waits (lock_fd) until acquired or timeout_ms passes.
class FileLock {
 public:
  static Result<FileLock> acquire(const std::string& path, int timeout_ms = 2000);
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&&) = delete;
  FileLock(const FileLock&) = delete;
  ~FileLock();

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// ---- trust: the data dir is ours or unused ----------------------------------------------------
// One rule for everything the adapter reads settings from or writes state to (the env file, the
// data dir, every file in it): it must be owned by the effective uid and not writable by group or
// others. kDataFile adds: a regular file with exactly one link (a hard link planted in the dir
// would make a write land in another file). Returns "" when `st` passes, else why not.
enum class TrustKind { kEnvFile, kDir, kDataFile };
std::string untrusted_reason(const struct stat& st, TrustKind kind);

// open(2) for a file in the data dir: O_NOFOLLOW, O_CLOEXEC and O_NONBLOCK (a planted FIFO must
// not block the open; regular files ignore it) are added to `flags`; the opened descriptor is
// fstat'ed and refused unless untrusted_reason(kDataFile) is "". Returns the fd, or -1 with errno:
// ELOOP (a symlink), EPERM (not ours, writable by others or hard-linked), EINVAL (not a regular
// file), or whatever open(2) said (ENXIO: a FIFO without reader). Never throws.
int open_private(const std::string& path, int flags, unsigned mode = 0600) noexcept;
// read_file through open_private.
Result<std::string> read_private_file(const std::string& path, size_t max_bytes = 64u << 20);
// append_locked through open_private.
Status append_private(const std::string& path, std::string_view line, unsigned mode = 0600);
// The same, waiting at most `lock_timeout_ms` for the flock (lock_fd): kTimeout, with nothing
// written, when another process holds it longer (the debug log: ENV clauses in docs/contract.md).
Status append_private(const std::string& path, std::string_view line, unsigned mode,
                      int lock_timeout_ms);

// Whether `dir` is a usable private directory: it exists (stat follows a symlink, as for the env
// file, but the link itself must be owned by the effective uid or root), is a directory and passes
// untrusted_reason(kDir). kNotFound when absent, kPermission (message: why) when not trusted.
Status check_private_dir(const std::string& dir);
// make_dirs(dir, 0700), then check_private_dir(dir): a directory someone else created first (or
// made shared) is refused rather than used.
Status make_private_dir(const std::string& dir);

// The user's home directory without NSS: $HOME if set and non-empty, else the home field of the
// real uid's line in /etc/passwd (read by this function with read_regular_file: a FIFO or device
// there is never opened for blocking, never through getpwuid: in the static
// adapter that would make glibc dlopen the NSS modules nsswitch.conf names — `systemd`, `sss`,
// `ldap` — which crash or hang a static process). Empty when neither gives an absolute path.
std::string home_dir();
// The home field of `uid`'s entry in passwd-format `text` ("" when absent or not absolute).
std::string passwd_home(std::string_view text, unsigned uid);

}  // namespace pinta::fs
