#include "pinta/adapter/input.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <nlohmann/json.hpp>

#include "pinta/adapter/bounded_json.h"
#include "pinta/adapter/handler.h"

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

void ObjectBoundary::append_capture(std::string_view bytes) {
  const size_t limit = role_ == Role::kKey ? kMaxKeyBytes : kMaxWatchedNameBytes;
  if (capture_.size() + bytes.size() > limit) {
    capture_.append(bytes.substr(0, limit - capture_.size()));
    capture_cut_ = true;
    return;
  }
  capture_.append(bytes);
}

void ObjectBoundary::string_start() {
  role_ = Role::kOther;
  if (depth_ == 0 || depth_ > kTracked) return;
  Level& level = levels_[depth_];
  if (!level.object) return;
  if (level.expect_key) {
    level.expect_key = false;
    match_[depth_] = 0;
    if (!level.on_path) return;
    role_ = Role::kKey;
  } else if (match_[depth_] == 1) {
    match_[depth_] = 0;
    role_ = Role::kWatched;
  } else {
    return;
  }
  capture_.clear();
  capture_cut_ = false;
}

void ObjectBoundary::string_end() {
  if (role_ == Role::kKey && !capture_cut_) {
    // A key written with escapes ("tool\u005fname") names the same member for a JSON parser.
    std::string decoded;
    std::string_view key = capture_;
    if (key.find('\\') != std::string_view::npos) {
      decoded = decode_json_string_text(key);
      key = decoded;
    }
    const std::string_view want = depth_ == 1 ? watch_.first : depth_ == 2 ? watch_.second : "";
    if (!want.empty() && key == want)
      match_[depth_] = depth_ == 1 && !watch_.second.empty() ? 2 : 1;
  } else if (role_ == Role::kWatched) {
    watched_ = capture_;
    watched_cut_ = capture_cut_;
  }
  role_ = Role::kOther;
}

ObjectBoundary::State ObjectBoundary::feed(std::string_view chunk) {
  const size_t n = chunk.size();
  size_t i = 0;
  while (i < n && state_ == State::kNeedMore) {
    const char c = chunk[i];
    if (!started_) {
      ++i;
      // A UTF-8 BOM is tolerated only as the very first bytes (RFC 8259 §8.1 allows ignoring it).
      if (offset_ == bom_seen_ && bom_seen_ < kBom.size() && c == kBom[bom_seen_]) {
        ++bom_seen_;
        ++offset_;
        continue;
      }
      ++offset_;
      if (bom_seen_ != 0 && bom_seen_ < kBom.size()) return state_ = State::kNotObject;
      if (is_json_ws(c)) continue;
      if (c != '{') return state_ = State::kNotObject;
      started_ = true;
      depth_ = 1;
      levels_[1] = Level{true, true, !watch_.empty()};
      continue;
    }
    if (in_string_) {
      if (escape_) {
        escape_ = false;
        if (role_ != Role::kOther) append_capture(chunk.substr(i, 1));
        ++i;
        ++offset_;
        continue;
      }
      // The run of plain bytes up to the next quote or backslash, found with memchr: a huge
      // argument costs a scan at memory speed, not a branch per byte.
      const char* base = chunk.data();
      const void* quote = std::memchr(base + i, '"', n - i);
      const size_t quote_at = quote != nullptr ? static_cast<size_t>(static_cast<const char*>(quote) - base) : n;
      const void* slash = std::memchr(base + i, '\\', quote_at - i);
      const size_t stop = slash != nullptr ? static_cast<size_t>(static_cast<const char*>(slash) - base) : quote_at;
      if (role_ != Role::kOther && stop > i) append_capture(chunk.substr(i, stop - i));
      offset_ += stop - i;
      i = stop;
      if (i == n) break;
      if (chunk[i] == '\\') {
        escape_ = true;
        if (role_ != Role::kOther) append_capture("\\");
      } else {
        in_string_ = false;
        string_end();
      }
      ++i;
      ++offset_;
      continue;
    }
    switch (c) {
      case '"':
        in_string_ = true;
        string_start();
        break;
      case '{':
      case '[': {
        const size_t parent = depth_;
        if (++depth_ > static_cast<size_t>(max_depth_)) deep_ = true;
        if (depth_ <= kTracked) {
          const bool on_path = c == '{' && parent <= kTracked && match_[parent] == 2;
          levels_[depth_] = Level{c == '{', c == '{', on_path};
          match_[depth_] = 0;
        }
        if (parent <= kTracked) match_[parent] = 0;
        break;
      }
      case '}':
      case ']':
        if (--depth_ == 0) {
          end_ = offset_ + 1;
          ++offset_;
          return state_ = State::kComplete;
        }
        break;
      case ',':
        if (depth_ <= kTracked && levels_[depth_].object) {
          levels_[depth_].expect_key = true;
          match_[depth_] = 0;
        }
        break;
      default: break;
    }
    ++i;
    ++offset_;
  }
  return state_;
}

std::string decode_json_string_text(std::string_view raw) {
  // Printable ASCII without escapes (every tool name a host sends) is its own value: no parse.
  auto plain = [](char c) { return c >= 0x20 && c < 0x7F && c != '\\' && c != '"'; };
  if (std::all_of(raw.begin(), raw.end(), plain)) return std::string(raw);
  std::string text;
  text.reserve(raw.size() + 2);
  text.push_back('"');
  text.append(raw);
  text.push_back('"');
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_discarded() && j.is_string()) return j.get<std::string>();
  // Cut inside an escape, a lone surrogate, invalid UTF-8: repaired, else the text as it is.
  std::string body(raw);
  size_t slash = body.rfind('\\');
  if (slash != std::string::npos && body.size() - slash < 6) body.resize(slash);
  (void)repair_lone_surrogates(body);
  (void)repair_utf8(body);
  j = nlohmann::json::parse("\"" + body + "\"", nullptr, false);
  if (!j.is_discarded() && j.is_string()) return j.get<std::string>();
  return body;
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

// The tool name the boundary saw, decoded (GUARD-14: found before anything is cut).
RawInput& with_name(RawInput& in, const ObjectBoundary& boundary) {
  if (boundary.watched()) {
    in.tool_name = decode_json_string_text(*boundary.watched());
    in.name_cut = boundary.watched_cut();
  }
  return in;
}

// Shared state machine over a byte source. `more` fills `buf` (returns >0 bytes, 0 on EOF, <0 on
// error or deadline with `timed_out` set).
template <typename Source>
RawInput read_with(Source&& more, const InputLimits& limits) {
  RawInput in;
  ObjectBoundary boundary(limits.max_depth, limits.tool_name);
  std::string buf;
  char chunk[65536];
  for (;;) {
    bool timed_out = false;
    ssize_t n = more(chunk, sizeof chunk, timed_out);
    if (n < 0) {
      in.status = timed_out ? InputStatus::kTimeout : InputStatus::kIoError;
      if (timed_out) keep_prefix(in, buf, boundary);
      return with_name(in, boundary);
    }
    if (n == 0) {
      in.saw_eof = true;
      size_t skip = buf.compare(0, kBom.size(), kBom) == 0 ? kBom.size() : 0;
      in.status = boundary.started() ? InputStatus::kTruncated
                  : blank(std::string_view(buf).substr(skip)) ? InputStatus::kEmpty
                                                               : InputStatus::kNotObject;
      keep_prefix(in, buf, boundary);
      return with_name(in, boundary);
    }
    if (buf.size() + static_cast<size_t>(n) > limits.max_bytes) {
      // Keep what fits: the prefix of the object up to the cap (a gate event is still judged on
      // it, GUARD-14). With scan_past_cap the rest is read and scanned, not kept, until the
      // object closes, EOF or the deadline: a tool name written after the cut is still found.
      size_t room = limits.max_bytes - buf.size();
      buf.append(chunk, room);
      auto st = boundary.feed(std::string_view(chunk, static_cast<size_t>(n)));
      if (limits.scan_past_cap) {
        while (st == ObjectBoundary::State::kNeedMore) {
          bool late = false;
          ssize_t m = more(chunk, sizeof chunk, late);
          if (m <= 0) break;
          st = boundary.feed(std::string_view(chunk, static_cast<size_t>(m)));
        }
      }
      in.status = InputStatus::kTooLarge;
      keep_prefix(in, buf, boundary);
      return with_name(in, boundary);
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
      with_name(in, boundary);
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
