// File: pinta/common/fs.h
// Small POSIX file helpers shared by the adapter (data dir, queue, trace store), the installer and
// the emulators. Everything here is errors-as-values and never throws.
#pragma once

#include <string>
#include <string_view>

#include "pinta/common/result.h"

namespace pinta::fs {

// Reads a whole file (up to max_bytes; larger → kTooLarge).
Result<std::string> read_file(const std::string& path, size_t max_bytes = 64u << 20);

// Writes `data` to `path` atomically: temp file in the same directory, fsync, rename.
// The file gets `mode` (e.g. 0600). Readers see the old or the new content, never a mix.
Status atomic_write(const std::string& path, std::string_view data, unsigned mode = 0600);

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

// RAII exclusive lock on a lock file (created 0600). Blocks until acquired or timeout_ms passes.
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

// The user's home directory: $HOME if set and non-empty, else the passwd entry; empty if neither.
std::string home_dir();

}  // namespace pinta::fs
