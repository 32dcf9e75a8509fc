// File: pinta/common/test_support.h
// Helpers for hermetic tests: a temp directory removed on destruction, paths of built binaries.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace pinta::testing {

class TempDir {
 public:
  // A fresh directory under `base` (default: the system temp dir); path() is empty on failure.
  explicit TempDir(const std::string& base = "") {
    std::string root = base.empty() ? std::filesystem::temp_directory_path().string() : base;
    std::string tmpl = root + "/pinta-test-XXXXXX";
    char* p = ::mkdtemp(tmpl.data());
    path_ = p ? std::string(p) : std::string();
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string sub(const std::string& rel) const { return path_ + "/" + rel; }
  bool ok() const { return !path_.empty(); }

 private:
  std::string path_;
};

// Directory of built executables (set by ctest as PINTA_BIN_DIR; falls back to ./bin).
inline std::string bin_dir() {
  const char* d = std::getenv("PINTA_BIN_DIR");  // NOLINT(concurrency-mt-unsafe)
  return d ? d : "bin";
}
inline std::string source_dir() {
  const char* d = std::getenv("PINTA_SOURCE_DIR");  // NOLINT(concurrency-mt-unsafe)
  return d ? d : ".";
}

}  // namespace pinta::testing
