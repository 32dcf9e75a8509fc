// File: pinta/common/deadline.h
// A monotonic deadline: one budget shared by every step of an operation (DNS, connect, send,
// read all draw from the same guard budget rather than each getting its own timeout).
#pragma once

#include <chrono>
#include <cstdint>

namespace pinta {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;

  static Deadline after(std::chrono::milliseconds budget) { return Deadline(Clock::now() + budget); }
  static Deadline never() { return Deadline(Clock::time_point::max()); }
  explicit Deadline(Clock::time_point at) : at_(at) {}

  bool expired() const { return Clock::now() >= at_; }
  bool is_never() const { return at_ == Clock::time_point::max(); }
  // Milliseconds left, clamped at 0; a never-deadline reports INT32_MAX.
  int64_t remaining_ms() const;
  Clock::time_point at() const { return at_; }

 private:
  Clock::time_point at_;
};

inline int64_t Deadline::remaining_ms() const {
  if (is_never()) return INT32_MAX;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(at_ - Clock::now()).count();
  return left < 0 ? 0 : left;
}

}  // namespace pinta
