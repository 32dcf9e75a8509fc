// File: fuzz/common/fuzz_support.h
// Small helpers shared by the harnesses: a byte consumer (libFuzzer's FuzzedDataProvider is a
// clang header, and the replay build uses gcc) and FUZZ_CHECK, which reports a broken property
// and aborts so libFuzzer (or the ctest replay) records the input as a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include <stdlib.h>  // mkdtemp

namespace pinta::fuzz {

// One scratch directory per harness process (`<tmp>/<prefix>-XXXXXX`; the first call's prefix
// names it), created on first use and removed at exit. The path is heap-allocated and never
// freed: the atexit cleanup runs after static destructors, which would otherwise have destroyed
// it (a use-after-free libFuzzer found at exit).
inline const std::string& process_temp_dir(const char* prefix) {
  static const std::string* dir = [prefix] {
    std::string t = (std::filesystem::temp_directory_path() / (std::string(prefix) + "-XXXXXX")).string();
    if (::mkdtemp(t.data()) == nullptr) std::abort();
    auto* kept = new std::string(t);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(process_temp_dir(""), ec);
    });
    return kept;
  }();
  return *dir;
}

[[noreturn]] inline void property_failed(const char* file, int line, const char* expr,
                                         const std::string& detail) {
  std::fprintf(stderr, "%s:%d: property violated: %s\n  %s\n", file, line, expr, detail.c_str());
  std::abort();
}

#define FUZZ_CHECK(cond, detail)                                                      \
  do {                                                                                \
    if (!(cond)) ::pinta::fuzz::property_failed(__FILE__, __LINE__, #cond, (detail)); \
  } while (0)

// Consumes the fuzzer's bytes front to back; every accessor is total (an exhausted input gives 0
// / empty), so a harness never reads out of bounds whatever the length.
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : p_(reinterpret_cast<const char*>(data)), n_(size) {}
  uint8_t byte() {
    if (n_ == 0) return 0;
    --n_;
    return static_cast<uint8_t>(*p_++);
  }
  bool flag() { return (byte() & 1u) != 0; }
  // A length-prefixed string of at most max bytes.
  std::string string(size_t max) {
    size_t len = byte();
    if (max > 255) len = (len << 8) | byte();
    if (len > max) len = max;
    if (len > n_) len = n_;
    std::string s(p_, len);
    p_ += len;
    n_ -= len;
    return s;
  }
  std::string rest() {
    std::string s(p_, n_);
    p_ += n_;
    n_ = 0;
    return s;
  }
  size_t remaining() const { return n_; }

 private:
  const char* p_;
  size_t n_;
};

}  // namespace pinta::fuzz
