// File: pinta/adapter/input.h
// Reading the host's event from stdin without trusting it to ever close the pipe.
// The Antigravity app/IDE keeps the hook's stdin open (shared/reference/antigravity-hooks.md §5.4),
// so the reader answers as soon as one complete JSON object has arrived, and gives up at a
// deadline when nothing complete arrives. It also bounds size and nesting before any parser runs.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace pinta::adapter {

enum class InputStatus {
  kOk,              // one complete JSON object
  kEmpty,           // EOF with nothing but whitespace
  kNotObject,       // the first value is not an object (array, scalar, garbage)
  kTimeout,         // the deadline passed before a complete object arrived
  kTooLarge,        // more than max_bytes before the object closed
  kTooDeep,         // nesting over max_depth
  kTrailingGarbage, // something other than whitespace follows the object
  kTruncated,       // EOF inside the object
  kIoError,         // read(2) failed
};

std::string_view input_status_name(InputStatus s) noexcept;

struct InputLimits {
  std::chrono::milliseconds deadline{1000};
  size_t max_bytes = 32u << 20;
  int max_depth = 256;
};

struct RawInput {
  InputStatus status = InputStatus::kEmpty;
  std::string bytes;  // the object's bytes (a leading UTF-8 BOM removed); empty unless kOk
  bool saw_eof = false;
};

// Incremental boundary finder for one JSON object. feed() may be called with any split of the
// input; it never looks at a byte twice.
class ObjectBoundary {
 public:
  enum class State { kNeedMore, kComplete, kNotObject, kTooDeep };
  explicit ObjectBoundary(int max_depth) : max_depth_(max_depth) {}
  // Feeds bytes; on kComplete, `end` is the offset (within all bytes fed so far) one past '}'.
  State feed(std::string_view chunk);
  size_t end() const { return end_; }
  bool started() const { return started_; }

 private:
  int max_depth_;
  int depth_ = 0;
  bool started_ = false;
  bool in_string_ = false;
  bool escape_ = false;
  size_t offset_ = 0;
  size_t end_ = 0;
  size_t bom_seen_ = 0;
  State state_ = State::kNeedMore;
};

// Reads from fd until one object is complete, EOF, error, cap or deadline.
RawInput read_event(int fd, const InputLimits& limits);

// Same logic over a byte string (as if it all arrived and then EOF) — used by tests and fuzzers.
RawInput read_event_from_bytes(std::string_view bytes, const InputLimits& limits);

}  // namespace pinta::adapter
