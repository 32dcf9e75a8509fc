#include "pinta/adapter/input.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace pinta::adapter {
namespace {

bool is_json_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Only whitespace in s?
bool blank(std::string_view s) {
  for (char c : s) {
    if (!is_json_ws(c)) return false;
  }
  return true;
}

constexpr std::string_view kBom = "\xEF\xBB\xBF";

}  // namespace

std::string_view input_status_name(InputStatus s) noexcept {
  switch (s) {
    case InputStatus::kOk: return "ok";
    case InputStatus::kEmpty: return "empty";
    case InputStatus::kNotObject: return "not_object";
    case InputStatus::kTimeout: return "timeout";
    case InputStatus::kTooLarge: return "too_large";
    case InputStatus::kTooDeep: return "too_deep";
    case InputStatus::kTrailingGarbage: return "trailing_garbage";
    case InputStatus::kTruncated: return "truncated";
    case InputStatus::kIoError: return "io_error";
  }
  return "unknown";
}

ObjectBoundary::State ObjectBoundary::feed(std::string_view chunk) {
  for (size_t i = 0; i < chunk.size() && state_ == State::kNeedMore; ++i, ++offset_) {
    char c = chunk[i];
    if (!started_) {
      // A UTF-8 BOM is tolerated only as the very first bytes (RFC 8259 §8.1 allows ignoring it).
      if (offset_ == bom_seen_ && bom_seen_ < kBom.size() && c == kBom[bom_seen_]) {
        ++bom_seen_;
        continue;
      }
      if (bom_seen_ != 0 && bom_seen_ < kBom.size()) return state_ = State::kNotObject;
      if (is_json_ws(c)) continue;
      if (c != '{') return state_ = State::kNotObject;
      started_ = true;
      depth_ = 1;
      continue;
    }
    if (in_string_) {
      if (escape_) {
        escape_ = false;
      } else if (c == '\\') {
        escape_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
      continue;
    }
    switch (c) {
      case '"': in_string_ = true; break;
      case '{':
      case '[':
        if (++depth_ > static_cast<size_t>(max_depth_)) deep_ = true;
        break;
      case '}':
      case ']':
        if (--depth_ == 0) {
          end_ = offset_ + 1;
          ++offset_;
          return state_ = State::kComplete;
        }
        break;
      default: break;
    }
  }
  return state_;
}

namespace {

// A failed read keeps the bytes of an object that had started (BOM and leading whitespace
// dropped), for the partial view of GUARD-14; nothing when no object started.
void keep_prefix(RawInput& in, std::string& buf, const ObjectBoundary& boundary) {
  in.deep = boundary.deep();
  if (!boundary.started()) return;
  size_t start = buf.find('{');
  if (start == std::string::npos) return;
  buf.erase(0, start);
  in.bytes = std::move(buf);
}

// Shared state machine over a byte source. `more` fills `buf` (returns >0 bytes, 0 on EOF, <0 on
// error or deadline with `timed_out` set).
template <typename Source>
RawInput read_with(Source&& more, const InputLimits& limits) {
  RawInput in;
  ObjectBoundary boundary(limits.max_depth);
  std::string buf;
  char chunk[65536];
  for (;;) {
    bool timed_out = false;
    ssize_t n = more(chunk, sizeof chunk, timed_out);
    if (n < 0) {
      in.status = timed_out ? InputStatus::kTimeout : InputStatus::kIoError;
      if (timed_out) keep_prefix(in, buf, boundary);
      return in;
    }
    if (n == 0) {
      in.saw_eof = true;
      size_t skip = buf.compare(0, kBom.size(), kBom) == 0 ? kBom.size() : 0;
      in.status = boundary.started() ? InputStatus::kTruncated
                  : blank(std::string_view(buf).substr(skip)) ? InputStatus::kEmpty
                                                               : InputStatus::kNotObject;
      keep_prefix(in, buf, boundary);
      return in;
    }
    if (buf.size() + static_cast<size_t>(n) > limits.max_bytes) {
      // Keep what fits: the prefix of the object up to the cap (a gate event is still judged on
      // it, GUARD-14); the rest of the pipe is not read.
      size_t room = limits.max_bytes - buf.size();
      buf.append(chunk, room);
      (void)boundary.feed(std::string_view(chunk, room));
      in.status = InputStatus::kTooLarge;
      keep_prefix(in, buf, boundary);
      return in;
    }
    if (buf.capacity() < buf.size() + static_cast<size_t>(n)) {
      // Grow geometrically but never past the cap, so a large input is not held twice.
      size_t want = std::max(buf.size() * 2, buf.size() + static_cast<size_t>(n));
      buf.reserve(std::min(want, limits.max_bytes));
    }
    buf.append(chunk, static_cast<size_t>(n));
    auto st = boundary.feed(std::string_view(chunk, static_cast<size_t>(n)));
    if (st == ObjectBoundary::State::kNotObject) {
      in.status = InputStatus::kNotObject;
      return in;
    }
    if (st == ObjectBoundary::State::kComplete) {
      in.deep = boundary.deep();
      if (!blank(std::string_view(buf).substr(boundary.end()))) {
        in.status = InputStatus::kTrailingGarbage;
        buf.resize(boundary.end());
        keep_prefix(in, buf, boundary);
        return in;
      }
      size_t start = buf.compare(0, kBom.size(), kBom) == 0 ? kBom.size() : 0;
      buf.resize(boundary.end());
      buf.erase(0, start);
      in.bytes = std::move(buf);
      in.status = InputStatus::kOk;
      return in;
    }
  }
}

}  // namespace

RawInput read_event(int fd, const InputLimits& limits) {
  auto until = std::chrono::steady_clock::now() + limits.deadline;
  auto more = [&](char* out, size_t cap, bool& timed_out) -> ssize_t {
    for (;;) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        timed_out = true;
        return -1;
      }
      struct pollfd p {fd, POLLIN, 0};
      int r = ::poll(&p, 1, static_cast<int>(left.count()));
      if (r < 0) {
        if (errno == EINTR) continue;
        return -1;
      }
      if (r == 0) continue;  // loop re-checks the deadline
      ssize_t n = ::read(fd, out, cap);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      return n;
    }
  };
  return read_with(more, limits);
}

RawInput read_event_from_bytes(std::string_view bytes, const InputLimits& limits) {
  size_t pos = 0;
  auto more = [&](char* out, size_t cap, bool& /*timed_out*/) -> ssize_t {
    size_t n = std::min(cap, bytes.size() - pos);
    std::copy_n(bytes.data() + pos, n, out);
    pos += n;
    return static_cast<ssize_t>(n);
  };
  return read_with(more, limits);
}

}  // namespace pinta::adapter
