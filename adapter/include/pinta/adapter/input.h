// File: pinta/adapter/input.h
// Reading the host's event from stdin without trusting it to ever close the pipe.
// The Antigravity app/IDE keeps the hook's stdin open (shared/reference/antigravity-hooks.md §5.4),
// so the reader answers as soon as one complete JSON object has arrived, and gives up at a
// deadline when nothing complete arrives. It bounds size before any parser runs; nesting is
// measured here (ObjectBoundary::max_depth) and bounded by the parser (bounded_json.h), which cuts
// what lies deeper instead of refusing the payload (docs/contract.md INPUT-3, GUARD-14).
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace pinta::adapter {

enum class InputStatus {
  kOk,              // one complete JSON object
  kEmpty,           // EOF with nothing but whitespace
  kNotObject,       // the first value is not an object (array, scalar, garbage)
  kTimeout,         // the deadline passed before a complete object arrived
  kTooLarge,        // more than max_bytes before the object closed
  kTooDeep,         // (set by the handler) nesting over max_depth where the guard is not asked
  kTrailingGarbage, // something other than whitespace follows the object
  kTruncated,       // EOF inside the object
  kIoError,         // read(2) failed
};

std::string_view input_status_name(InputStatus s) noexcept;

// Nesting the payload's DOM keeps (the top-level object is level 1); deeper values are cut and
// marked by the parser (bounded_json.h), never a reason to refuse the payload (INPUT-3).
inline constexpr int kMaxPayloadDepth = 256;

// The member path of the tool name in the host's payload: one key (`tool_name`) or two
// (`toolCall`, `name`); empty keys: nothing watched.
struct NamePath {
  std::string_view first;
  std::string_view second;
  bool empty() const { return first.empty(); }
};

// How many bytes of the watched tool name are kept (as JSON string text); a longer name is cut.
inline constexpr size_t kMaxWatchedNameBytes = 8192;

struct InputLimits {
  std::chrono::milliseconds deadline{1000};
  size_t max_bytes = 32u << 20;
  int max_depth = kMaxPayloadDepth;
  // Where the tool name is (GUARD-14). The reader finds it as the bytes go by, wherever it
  // stands in the object, so a name written after arguments that are cut, refused or never
  // finish arriving is still known.
  NamePath tool_name;
  // Past max_bytes, read on (without keeping the bytes) until the object closes, EOF or the
  // deadline, so that a tool name after the cut is seen (gate events with a guard).
  bool scan_past_cap = false;
};

struct RawInput {
  InputStatus status = InputStatus::kEmpty;
  // kOk: the object's bytes (a leading UTF-8 BOM removed). kTooLarge, kTruncated, kTimeout,
  // kTrailingGarbage: what was read once an object had started (a prefix of it, or the whole
  // object for trailing garbage), so that a gate event can still be put to the guard as a partial
  // view (GUARD-14). Empty otherwise.
  std::string bytes;
  bool saw_eof = false;
  // The object nests deeper than InputLimits::max_depth (the parser then cuts it: bounded_json.h).
  bool deep = false;
  // The value at InputLimits::tool_name, decoded, when a string stood there (the last one, as
  // for a JSON parser); cut to kMaxWatchedNameBytes of JSON text (then name_cut).
  std::optional<std::string> tool_name;
  bool name_cut = false;
};

// Incremental boundary finder for one JSON object. feed() may be called with any split of the
// input; it never looks at a byte twice.
class ObjectBoundary {
 public:
  enum class State { kNeedMore, kComplete, kNotObject };
  explicit ObjectBoundary(int max_depth, NamePath watch = {}) : max_depth_(max_depth), watch_(watch) {}
  // Feeds bytes; on kComplete, `end` is the offset (within all bytes fed so far) one past '}'.
  State feed(std::string_view chunk);
  size_t end() const { return end_; }
  bool started() const { return started_; }
  // Nesting went over max_depth somewhere (scanning goes on: depth is counted, never refused).
  bool deep() const { return deep_; }
  // The watched member's value (NamePath), as the raw text between its quotes (escapes not
  // decoded), when a complete string stood there; the last one wins.
  const std::optional<std::string>& watched() const { return watched_; }
  bool watched_cut() const { return watched_cut_; }

 private:
  // What the string being read is: a key of an object on the watched path, the watched value,
  // or anything else (skipped).
  enum class Role : unsigned char { kOther, kKey, kWatched };
  // The containers at levels 1..kTracked: an object waiting for a key, and whether it lies on
  // the watched path. Deeper levels are only counted.
  static constexpr size_t kTracked = 3;
  static constexpr size_t kMaxKeyBytes = 256;  // a longer key never names the watched member
  struct Level {
    bool object = false;
    bool expect_key = false;
    bool on_path = false;
  };
  void string_start();
  void string_end();
  void append_capture(std::string_view bytes);

  int max_depth_;
  NamePath watch_;
  Level levels_[kTracked + 1];
  Role role_ = Role::kOther;
  // What the last key of each tracked level matched: 0 nothing, 1 the watched value, 2 the
  // container holding it.
  unsigned char match_[kTracked + 1] = {};
  std::string capture_;
  bool capture_cut_ = false;
  std::optional<std::string> watched_;
  bool watched_cut_ = false;
  size_t depth_ = 0;
  bool deep_ = false;
  bool started_ = false;
  bool in_string_ = false;
  bool escape_ = false;
  size_t offset_ = 0;
  size_t end_ = 0;
  size_t bom_seen_ = 0;
  State state_ = State::kNeedMore;
};

// The text between a JSON string's quotes, decoded; what cannot be decoded (a cut escape, a lone
// surrogate, invalid UTF-8) is repaired (U+FFFD) or dropped, never a reason to lose the rest.
std::string decode_json_string_text(std::string_view raw);

// Reads from fd until one object is complete, EOF, error, cap or deadline.
RawInput read_event(int fd, const InputLimits& limits);

// Same logic over a byte string (as if it all arrived and then EOF) — used by tests and fuzzers.
RawInput read_event_from_bytes(std::string_view bytes, const InputLimits& limits);

}  // namespace pinta::adapter
