// File: pinta/common/test_support.h
// Helpers for hermetic tests: a temp directory removed on destruction, paths of built binaries.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace pinta::testing {

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "pinta-test-XXXXXX").string();
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
