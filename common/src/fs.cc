#include "pinta/common/fs.h"
#include "pinta/common/env.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace pinta::fs {

Error io_error(const std::string& what, const std::string& path) {
  return make_error(ErrorCode::kIo, what + " " + path + ": " + std::strerror(errno));
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (n == 0) return false;  // no progress (should not happen for regular files): give up
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

namespace {

// Reads all of `fd` (closing it), capped at max_bytes.
Result<std::string> read_fd(int fd, const std::string& path, size_t max_bytes) {
  std::string out;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      Error e = io_error("cannot read", path);
      ::close(fd);
      return e;
    }
    if (n == 0) break;
    if (out.size() + static_cast<size_t>(n) > max_bytes) {
      ::close(fd);
      return make_error(ErrorCode::kTooLarge, "file over " + std::to_string(max_bytes) + " bytes: " + path);
    }
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

Error open_error(const std::string& path) {
  if (errno == ENOENT) return make_error(ErrorCode::kNotFound, "no such file: " + path);
  if (errno == ELOOP) return make_error(ErrorCode::kPermission, "refusing a symbolic link: " + path);
  if (errno == EPERM || errno == EINVAL) {
    return make_error(ErrorCode::kPermission, "refusing " + path + ": not a private regular file of ours");
  }
  return io_error("cannot open", path);
}

// Locks `fd` exclusively (blocking, or within lock_timeout_ms when >= 0), appends `line` in one
// write, unlocks and closes.
Status append_fd(int fd, const std::string& path, std::string_view line, int lock_timeout_ms = -1) {
  if (lock_timeout_ms >= 0) {
    if (Status s = lock_fd(fd, LOCK_EX, lock_timeout_ms, path); !s.ok()) {
      ::close(fd);
      return s;
    }
  } else {
    while (::flock(fd, LOCK_EX) != 0) {
      if (errno != EINTR) {
        Error e = io_error("cannot lock", path);
        ::close(fd);
        return e;
      }
    }
  }
  // A failed write (a full disk) must not leave a fragment: cut back to where we started (we
  // hold the lock, so the size is ours).
  struct stat st {};
  const bool sized = ::fstat(fd, &st) == 0;
  bool ok = write_all(fd, line);
  Error e = ok ? Error{} : io_error("cannot append to", path);
  if (!ok && sized) (void)!::ftruncate(fd, st.st_size);
  ::flock(fd, LOCK_UN);
  ::close(fd);
  if (!ok) return e;
  return {};
}

// 64 bits for temp-file names: getrandom, else time and pid mixed (splitmix64).
uint64_t random64() {
  uint64_t v = 0;
  if (::getrandom(&v, sizeof v, GRND_NONBLOCK) == static_cast<ssize_t>(sizeof v)) return v;
  uint64_t z = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
               (static_cast<uint64_t>(::getpid()) << 32) ^ reinterpret_cast<uintptr_t>(&v);
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The effective uid, asked once: every data-dir open compares owners with it (the adapter never
// changes its uid).
uid_t effective_uid() {
  static const uid_t euid = ::geteuid();
  return euid;
}

}  // namespace

int open_regular(const std::string& path, struct stat& st) noexcept {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return -1;
  int refuse = 0;
  if (::fstat(fd, &st) != 0) {
    refuse = errno;
  } else if (!S_ISREG(st.st_mode)) {
    refuse = EINVAL;
  } else {
    const int fl = ::fcntl(fd, F_GETFL);
    if (fl < 0 || ::fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) refuse = errno != 0 ? errno : EIO;
  }
  if (refuse != 0) {
    ::close(fd);
    errno = refuse;
    return -1;
  }
  return fd;
}

Result<std::string> read_all_and_close(int fd, const std::string& path, size_t max_bytes) {
  return read_fd(fd, path, max_bytes);
}

Result<std::string> read_regular_file(const std::string& path, size_t max_bytes) {
  struct stat st {};
  int fd = open_regular(path, st);
  if (fd < 0) {
    if (errno == ENOENT) return make_error(ErrorCode::kNotFound, "no such file: " + path);
    if (errno == EINVAL) return make_error(ErrorCode::kInvalidArgument, "not a regular file: " + path);
    return io_error("cannot open", path);
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    return make_error(ErrorCode::kTooLarge, "file over " + std::to_string(max_bytes) + " bytes: " + path);
  }
  return read_fd(fd, path, max_bytes);
}

Result<std::string> read_file(const std::string& path, size_t max_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return make_error(ErrorCode::kNotFound, "no such file: " + path);
    return io_error("cannot open", path);
  }
  return read_fd(fd, path, max_bytes);
}

std::string untrusted_reason(const struct stat& st, TrustKind kind) {
  switch (kind) {
    case TrustKind::kDir:
      if (!S_ISDIR(st.st_mode)) return "not a directory";
      break;
    case TrustKind::kEnvFile:
    case TrustKind::kDataFile:
      if (!S_ISREG(st.st_mode)) return "not a regular file";
      break;
  }
  if (st.st_uid != effective_uid()) return "owned by another user (uid " + std::to_string(st.st_uid) + ")";
  if ((st.st_mode & 022) != 0) return "writable by group or others";
  if (kind == TrustKind::kDataFile && st.st_nlink != 1) return "has another hard link";
  return {};
}

int open_private(const std::string& path, int flags, unsigned mode) noexcept {
  int fd = ::open(path.c_str(), flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode);
  if (fd < 0) return -1;
  struct stat st {};
  int refuse = 0;
  if (::fstat(fd, &st) != 0) {
    refuse = errno;
  } else if (!S_ISREG(st.st_mode)) {
    refuse = EINVAL;
  } else if (st.st_uid != effective_uid() || (st.st_mode & 022) != 0 || st.st_nlink != 1) {
    refuse = EPERM;  // the same rule as untrusted_reason(kDataFile), without building a string
  }
  if (refuse != 0) {
    ::close(fd);
    errno = refuse;
    return -1;
  }
  return fd;
}

Result<std::string> read_private_file(const std::string& path, size_t max_bytes) {
  int fd = open_private(path, O_RDONLY);
  if (fd < 0) return open_error(path);
  return read_fd(fd, path, max_bytes);
}

Status append_private(const std::string& path, std::string_view line, unsigned mode) {
  int fd = open_private(path, O_WRONLY | O_APPEND | O_CREAT, mode);
  if (fd < 0) return open_error(path);
  return append_fd(fd, path, line);
}

Status append_private(const std::string& path, std::string_view line, unsigned mode,
                      int lock_timeout_ms) {
  int fd = open_private(path, O_WRONLY | O_APPEND | O_CREAT, mode);
  if (fd < 0) return open_error(path);
  return append_fd(fd, path, line, lock_timeout_ms < 0 ? 0 : lock_timeout_ms);
}

Status check_private_dir(const std::string& dir) {
  struct stat st {};
  // A symlink as the dir itself must be ours (or root's): otherwise whoever planted it in a shared
  // place chooses which of our directories gets our files (what fs.protected_symlinks does for
  // sticky directories, enforced here whatever that sysctl says).
  if (::lstat(dir.c_str(), &st) == 0 && S_ISLNK(st.st_mode) && st.st_uid != effective_uid() &&
      st.st_uid != 0) {
    return make_error(ErrorCode::kPermission,
                      dir + ": a symbolic link owned by another user (uid " + std::to_string(st.st_uid) + ")");
  }
  if (::stat(dir.c_str(), &st) != 0) {
    if (errno == ENOENT) return make_error(ErrorCode::kNotFound, "no such directory: " + dir);
    return io_error("cannot stat", dir);
  }
  std::string why = untrusted_reason(st, TrustKind::kDir);
  if (!why.empty()) return make_error(ErrorCode::kPermission, dir + ": " + why);
  return {};
}

Status make_private_dir(const std::string& dir) {
  if (Status s = make_dirs(dir, 0700); !s.ok()) return s;
  return check_private_dir(dir);
}

std::string dirname(const std::string& path) {
  auto pos = path.find_last_of('/');
  if (pos == std::string::npos) return ".";
  if (pos == 0) return "/";
  return path.substr(0, pos);
}

std::string join(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  std::string out(a);
  if (out.back() != '/') out.push_back('/');
  out.append(b);
  return out;
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

Status make_dirs(const std::string& path, unsigned mode) {
  if (path.empty()) return make_error(ErrorCode::kInvalidArgument, "empty directory path");
  std::string cur;
  size_t i = 0;
  while (i <= path.size()) {
    size_t next = path.find('/', i);
    if (next == std::string::npos) next = path.size();
    cur = path.substr(0, next);
    i = next + 1;
    if (cur.empty()) continue;
    if (::mkdir(cur.c_str(), mode) != 0 && errno != EEXIST) return io_error("cannot create directory", cur);
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return make_error(ErrorCode::kIo, "not a directory: " + path);
  }
  return {};
}

Status atomic_write(const std::string& path, std::string_view data, unsigned mode, bool durable) {
  static const char* kDigits = "0123456789abcdef";
  std::string tmp = path + ".tmp.";
  uint64_t r = random64();
  for (int i = 0; i < 16; ++i, r >>= 4) tmp.push_back(kDigits[r & 15]);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd < 0) return io_error("cannot create", tmp);
  bool ok = write_all(fd, data) && (!durable || ::fsync(fd) == 0);
  int saved = errno;
  ::fchmod(fd, mode);
  ::close(fd);
  if (!ok) {
    ::unlink(tmp.c_str());
    errno = saved;
    return io_error("cannot write", tmp);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    Error e = io_error("cannot rename onto", path);
    ::unlink(tmp.c_str());
    return e;
  }
  return {};
}

Status append_locked(const std::string& path, std::string_view line, unsigned mode) {
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, mode);
  if (fd < 0) return io_error("cannot open", path);
  return append_fd(fd, path, line);
}

Status lock_fd(int fd, int operation, int timeout_ms, const std::string& path) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  auto pause = std::chrono::microseconds(100);
  for (bool last = false;;) {
    if (::flock(fd, operation | LOCK_NB) == 0) return {};
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK) return io_error("cannot lock", path);
    if (last) return make_error(ErrorCode::kTimeout, "timed out waiting for lock " + path);
    const auto now = std::chrono::steady_clock::now();
    if (now >= until) {
      last = true;  // overslept past the deadline: one more try, no more sleep
      continue;
    }
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(pause, until - now));
    pause = std::min(pause * 2, std::chrono::microseconds(4000));
  }
}

Result<FileLock> FileLock::acquire(const std::string& path, int timeout_ms) {
  int fd = open_private(path, O_RDWR | O_CREAT, 0600);
  if (fd < 0) return open_error(path);
  if (Status s = lock_fd(fd, LOCK_EX, timeout_ms, path); !s.ok()) {
    ::close(fd);
    return s.error();
  }
  return FileLock(fd);
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

FileLock::~FileLock() {
  if (fd_ >= 0) {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }
}

std::string passwd_home(std::string_view text, unsigned uid) {
  const std::string want = std::to_string(uid);
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    // name:password:uid:gid:gecos:home:shell
    std::string_view field[7];
    size_t n = 0;
    while (n < 7) {
      size_t colon = line.find(':');
      field[n++] = line.substr(0, colon);
      if (colon == std::string_view::npos) break;
      line.remove_prefix(colon + 1);
    }
    if (n < 6 || field[2] != want || field[0].empty() || field[0][0] == '+' || field[0][0] == '-') continue;
    std::string_view home = field[5];
    if (home.empty() || home[0] != '/') return {};
    return std::string(home);
  }
  return {};
}

std::string home_dir() {
  const char* h = pinta::env::get("HOME");  // NOLINT(concurrency-mt-unsafe): read once, single thread
  if (h != nullptr && *h != '\0') return h;
  // Only when HOME is unset or empty (rare): one read of /etc/passwd per process, no NSS.
  static const std::string from_passwd = [] {
    // Never a blocking open of what is not a regular file (a FIFO there hung the adapter).
    auto text = read_regular_file("/etc/passwd", 16u << 20);
    return text ? passwd_home(*text, ::getuid()) : std::string();
  }();
  return from_passwd;
}

}  // namespace pinta::fs
