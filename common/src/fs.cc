#include "pinta/common/fs.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
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

Result<std::string> read_file(const std::string& path, size_t max_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return make_error(ErrorCode::kNotFound, "no such file: " + path);
    return io_error("cannot open", path);
  }
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

Status atomic_write(const std::string& path, std::string_view data, unsigned mode) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." +
                    std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) return io_error("cannot create", tmp);
  bool ok = write_all(fd, data) && ::fsync(fd) == 0;
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
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno != EINTR) {
      Error e = io_error("cannot lock", path);
      ::close(fd);
      return e;
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

Result<FileLock> FileLock::acquire(const std::string& path, int timeout_ms) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return io_error("cannot open lock", path);
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return FileLock(fd);
    if (errno != EWOULDBLOCK && errno != EINTR) {
      Error e = io_error("cannot lock", path);
      ::close(fd);
      return e;
    }
    if (std::chrono::steady_clock::now() >= until) {
      ::close(fd);
      return make_error(ErrorCode::kTimeout, "timed out waiting for lock " + path);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

FileLock::~FileLock() {
  if (fd_ >= 0) {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }
}

std::string home_dir() {
  const char* h = std::getenv("HOME");  // NOLINT(concurrency-mt-unsafe): read once, single thread
  if (h != nullptr && *h != '\0') return h;
  struct passwd pw {};
  struct passwd* res = nullptr;
  char buf[4096];
  if (::getpwuid_r(::getuid(), &pw, buf, sizeof buf, &res) == 0 && res != nullptr && res->pw_dir) {
    return res->pw_dir;
  }
  return {};
}

}  // namespace pinta::fs
