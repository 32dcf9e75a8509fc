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

// The sanitizer this test binary (and so the adapter built with it, same tree and flags) runs
// under: "address" (ASan, with UBSan in ci/sanitize.sh), "thread", or "" for a normal build.
inline const char* sanitizer() {
#if defined(__SANITIZE_ADDRESS__)
  return "address";
#elif defined(__SANITIZE_THREAD__)
  return "thread";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return "address";
#elif __has_feature(thread_sanitizer)
  return "thread";
#else
  return "";
#endif
#else
  return "";
#endif
}

// Whether a peak-RSS bound means anything in this build: under a sanitizer, shadow memory and the
// allocator's quarantine are the sanitizer's, not the product's (the bounds hold in normal builds,
// which CI runs first). Tests print why they leave such a bound out.
inline bool rss_bounds_meaningful() { return sanitizer()[0] == '\0'; }

// Factor for wall-clock budgets of process tests: sanitized binaries start and run several times
// slower (ASan maps its shadow at start-up, TSan instruments every access), so a budget that is
// generous for a release build (a 10 s reply to a 20 MiB payload) is not one under them.
// PINTA_TEST_TIME_SCALE overrides it.
inline int time_scale() {
  if (const char* s = std::getenv("PINTA_TEST_TIME_SCALE")) {  // NOLINT(concurrency-mt-unsafe)
    int v = std::atoi(s);
    if (v >= 1) return v;
  }
  const std::string san = sanitizer();
  return san == "thread" ? 10 : san == "address" ? 5 : 1;
}

}  // namespace pinta::testing
