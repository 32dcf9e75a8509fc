#include "pinta/adapter/span_queue.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <thread>

#include "pinta/common/fs.h"

namespace pinta::adapter {
namespace {

using nlohmann::json;

using fs::io_error;   // shared with the other data-dir writers (common/src/fs.cc)
using fs::write_all;

// Exclusive flock on the state file, holding its fd; the counters are read and written through it.
// The state file is our own one-line object of integer counters (StateLock::write). Read without
// a JSON parser: every event that queues a span reads it. Anything unexpected (a foreign or
// corrupt file) falls back to the full parser, which yields zeros for what it cannot read.
QueueCounters parse_counters(std::string_view text) {
  QueueCounters c;
  struct Field {
    std::string_view key;
    int64_t QueueCounters::*member;
  };
  static constexpr Field kFields[] = {{"\"appended\":", &QueueCounters::appended},
                                      {"\"corrupt\":", &QueueCounters::corrupt},
                                      {"\"deferred\":", &QueueCounters::deferred},
                                      {"\"delivered\":", &QueueCounters::delivered},
                                      {"\"dropped_cap\":", &QueueCounters::dropped_cap},
                                      {"\"dropped_http\":", &QueueCounters::dropped_http},
                                      {"\"head\":", &QueueCounters::head},
                                      {"\"head_ino\":", &QueueCounters::head_ino},
                                      {"\"last_status\":", &QueueCounters::last_status},
                                      {"\"lines\":", &QueueCounters::lines},
                                      {"\"poisoned\":", &QueueCounters::poisoned},
                                      {"\"redirects\":", &QueueCounters::redirects},
                                      {"\"rejected\":", &QueueCounters::rejected},
                                      {"\"retries\":", &QueueCounters::retries},
                                      {"\"stuck_off\":", &QueueCounters::stuck_off},
                                      {"\"stuck_tries\":", &QueueCounters::stuck_tries},
                                      {"\"unwritten\":", &QueueCounters::unwritten}};
  bool simple = !text.empty() && text.front() == '{';
  for (const Field& f : kFields) {
    if (!simple) break;
    size_t at = text.find(f.key);
    if (at == std::string_view::npos) {
      simple = false;
      break;
    }
    size_t i = at + f.key.size();
    const bool negative = i < text.size() && text[i] == '-';  // last_status -1: no answer
    if (negative) ++i;
    int64_t v = 0;
    size_t digits = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && digits < 18) {
      v = v * 10 + (text[i++] - '0');
      ++digits;
    }
    if (digits == 0 || i >= text.size() || (text[i] != ',' && text[i] != '}')) {
      simple = false;
      break;
    }
    c.*f.member = negative ? -v : v;
  }
  if (simple) return c;
  return QueueCounters::from_json(json::parse(text, nullptr, false));
}

class StateLock {
 public:
  // Exclusive (the flusher: counters, a consistent size, the rewrite) or shared (appends: they
  // only append whole lines with O_APPEND, so any number may run at once).
  static Result<StateLock> acquire(const std::string& path, int timeout_ms, bool shared = false) {
    int fd = fs::open_private(path, O_RDWR | O_CREAT, 0600);  // no link followed, ours only
    if (fd < 0) {
      if (errno == ENOENT) return make_error(ErrorCode::kNotFound, "no directory for " + path);
      return io_error("cannot open", path);
    }
    if (Status s = fs::lock_fd(fd, shared ? LOCK_SH : LOCK_EX, timeout_ms, path); !s.ok()) {
      ::close(fd);
      return s.error();
    }
    return StateLock(fd);
  }
  StateLock(StateLock&& o) noexcept : fd_(o.fd_), size_read_(o.size_read_) { o.fd_ = -1; }
  StateLock& operator=(StateLock&&) = delete;
  ~StateLock() { release(); }
  void release() {
    if (fd_ >= 0) ::close(fd_);  // closing the only fd releases the flock
    fd_ = -1;
  }

  QueueCounters read() {
    char buf[4096];
    ssize_t n = ::pread(fd_, buf, sizeof buf, 0);
    size_read_ = n >= 0 ? static_cast<size_t>(n) : kUnknownSize;
    if (n <= 0) return {};
    return parse_counters(std::string_view(buf, static_cast<size_t>(n)));
  }
  void write(const QueueCounters& c) const {
    // Same text as c.to_json().dump() (sorted keys), without building the tree or calling
    // snprintf: this runs on every event that queues a span.
    char buf[768];
    char* p = buf;
    char* const end = buf + sizeof buf;
    const std::pair<std::string_view, int64_t> fields[] = {{"{\"appended\":", c.appended},
                                                           {",\"corrupt\":", c.corrupt},
                                                           {",\"deferred\":", c.deferred},
                                                           {",\"delivered\":", c.delivered},
                                                           {",\"dropped_cap\":", c.dropped_cap},
                                                           {",\"dropped_http\":", c.dropped_http},
                                                           {",\"head\":", c.head},
                                                           {",\"head_ino\":", c.head_ino},
                                                           {",\"last_status\":", c.last_status},
                                                           {",\"lines\":", c.lines},
                                                           {",\"poisoned\":", c.poisoned},
                                                           {",\"redirects\":", c.redirects},
                                                           {",\"rejected\":", c.rejected},
                                                           {",\"retries\":", c.retries},
                                                           {",\"stuck_off\":", c.stuck_off},
                                                           {",\"stuck_tries\":", c.stuck_tries},
                                                           {",\"unwritten\":", c.unwritten}};
    for (const auto& [key, value] : fields) {
      p = std::copy(key.begin(), key.end(), p);
      p = std::to_chars(p, end - 2, value).ptr;
    }
    *p++ = '}';
    *p++ = '\n';
    const size_t n = static_cast<size_t>(p - buf);
    const std::string_view s(buf, n);
    // Counters only grow, so the text rarely gets shorter: truncate only when it did (or when
    // the old length is unknown).
    if (::pwrite(fd_, s.data(), s.size(), 0) == static_cast<ssize_t>(s.size()) &&
        (size_read_ == kUnknownSize || s.size() < size_read_)) {
      (void)!::ftruncate(fd_, static_cast<off_t>(s.size()));
    }
  }

 private:
  static constexpr size_t kUnknownSize = static_cast<size_t>(-1);
  explicit StateLock(int fd) : fd_(fd) {}
  int fd_ = -1;
  size_t size_read_ = kUnknownSize;  // length of the content read() saw
};

// The appended tally (`failed-spans.appended`, one byte per append since the last fold), taken
// under the exclusive lock: adds it to `c` and returns the tally's fd, to be emptied by
// settle_appended() once the state with the new counts is written (-1: nothing to fold).
int take_appended(const std::string& path, QueueCounters& c) {
  int fd = fs::open_private(path, O_RDWR);
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_size == 0) {
    ::close(fd);
    return -1;
  }
  c.appended += static_cast<int64_t>(st.st_size);
  c.lines += static_cast<int64_t>(st.st_size);
  return fd;
}

void settle_appended(int fd) {
  if (fd < 0) return;
  (void)!::ftruncate(fd, 0);
  ::close(fd);
}

// A random suffix for a file name of our own (O_EXCL makes it fresh; this makes it unlikely to
// meet another's).
uint64_t name_salt() {
  uint64_t salt = 0;
  if (::getrandom(&salt, sizeof salt, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof salt))
    salt = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return salt;
}

bool is_side_name(std::string_view name, bool* part) {
  if (name.substr(0, kQueueSidePrefix.size()) != kQueueSidePrefix) return false;
  *part = name.size() >= kQueueSidePartSuffix.size() &&
          name.substr(name.size() - kQueueSidePartSuffix.size()) == kQueueSidePartSuffix;
  return true;
}

// What an append writes: `line` and its '\n', after a '\n' of its own when the file's last byte
// (the file is `size` bytes) is not one, since a torn line (a crash or a full disk mid-write) must
// not swallow it. Only for a file no one else is writing (the caller holds its flock).
std::string appendable(int fd, off_t size, std::string_view line) {
  std::string buf;
  buf.reserve(line.size() + 2);
  char last = '\n';
  if (size > 0 && ::pread(fd, &last, 1, size - 1) == 1 && last != '\n') buf.push_back('\n');
  buf.append(line);
  buf.push_back('\n');
  return buf;
}

std::string slot_path(const std::string& dir, int n) {
  return fs::join(dir, std::string(kQueueSlotPrefix) + std::to_string(n));
}

// Under the exclusive lock (no append is writing a slot or the queue): moves the whole lines of
// every overflow slot to the end of the queue, then empties the slot (ftruncate: never unlinked).
// Streams 256 KiB at a time, so memory does not follow a slot's size. A fragment after the last
// '\n' (a writer that crashed mid-write) is dropped and counted corrupt. If the queue cannot take
// the lines (disk full) the queue is cut back and the slot left for the next pass.
void fold_slots(const std::string& dir, const std::string& queue_path, QueueCounters& c) {
  int out = -1;
  std::vector<char> chunk;
  for (int n = 0; n < kQueueSlots; ++n) {
    const std::string path = slot_path(dir, n);
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) continue;
    int in = fs::open_private(path, O_RDWR);  // overflow slot (ours only, no link followed)
    if (in < 0) continue;
    if (::fstat(in, &st) != 0 || st.st_size == 0) {
      ::close(in);
      continue;
    }
    // The end of the last whole line.
    off_t end = st.st_size;
    {
      char b[4096];
      while (end > 0) {
        const off_t from = std::max<off_t>(0, end - static_cast<off_t>(sizeof b));
        const ssize_t r = ::pread(in, b, static_cast<size_t>(end - from), from);
        if (r != end - from) {
          end = -1;
          break;
        }
        const void* nl = ::memrchr(b, '\n', static_cast<size_t>(r));
        if (nl != nullptr) {
          end = from + (static_cast<const char*>(nl) - b) + 1;
          break;
        }
        end = from;
      }
    }
    if (end < 0) {
      ::close(in);
      continue;
    }
    if (out < 0) {
      out = fs::open_private(queue_path, O_RDWR | O_APPEND | O_CREAT, 0600);  // queue append
      if (out < 0) {
        ::close(in);
        return;
      }
    }
    struct stat at {};
    if (::fstat(out, &at) != 0) {
      ::close(in);
      break;
    }
    bool ok = true;
    int64_t lines = 0;
    char last = '\n';
    if (end > 0 && at.st_size > 0 && ::pread(out, &last, 1, at.st_size - 1) == 1 && last != '\n')
      ok = write_all(out, "\n");  // a torn tail must not swallow the first line we add
    chunk.resize(256u << 10);
    for (off_t off = 0; ok && off < end;) {
      const size_t want = static_cast<size_t>(std::min<off_t>(end - off, static_cast<off_t>(chunk.size())));
      const ssize_t r = ::pread(in, chunk.data(), want, off);
      if (r <= 0) {
        if (r < 0 && errno == EINTR) continue;
        ok = false;
        break;
      }
      const std::string_view piece(chunk.data(), static_cast<size_t>(r));
      lines += static_cast<int64_t>(std::count(piece.begin(), piece.end(), '\n'));
      ok = write_all(out, piece);
      off += r;
    }
    if (!ok) {
      (void)!::ftruncate(out, at.st_size);  // no fragment left; the slot waits for the next pass
      ::close(in);
      break;
    }
    if (end < st.st_size) c.corrupt += 1;
    if (::ftruncate(in, 0) != 0) {
      // Cannot empty the slot: take our copy back out, or its lines would be sent twice.
      (void)!::ftruncate(out, at.st_size);
      ::close(in);
      continue;
    }
    ::close(in);
    c.appended += lines;
    c.lines += lines;
    c.deferred += lines;
  }
  if (out >= 0) ::close(out);
}

// Under the exclusive lock (no append is writing the queue): moves the whole side files into the
// queue, oldest first by name order of discovery, at most kMaxSideFilesPerFold, and deletes them;
// removes `.part` leftovers of writers that died. Adds to `c` what it did. A side file is deleted
// only once its line is in the queue (a crash in between can send that span twice: OTLP-7).
void fold_side_files(const std::string& dir, const std::string& queue_path, QueueCounters& c) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  std::vector<std::string> names;
  const time_t now = ::time(nullptr);
  while (dirent* e = ::readdir(d)) {
    bool part = false;
    if (!is_side_name(e->d_name, &part)) continue;
    const std::string path = fs::join(dir, e->d_name);
    if (part) {
      struct stat st {};
      if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid() &&
          now - st.st_mtime > kStaleSidePartSeconds && ::unlink(path.c_str()) == 0)
        c.corrupt += 1;
      continue;
    }
    if (names.size() < kMaxSideFilesPerFold) names.emplace_back(e->d_name);
  }
  ::closedir(d);
  if (names.empty()) return;
  int out = -1;
  std::string buf;
  for (const std::string& name : names) {
    const std::string path = fs::join(dir, name);
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid() ||
        st.st_nlink != 1)
      continue;  // not ours: left alone (has_side_files does not report it either)
    if (static_cast<uint64_t>(st.st_size) > kMaxQueueLineBytes + 1) {
      if (::unlink(path.c_str()) == 0) c.corrupt += 1;  // no append writes one this big
      continue;
    }
    auto text = fs::read_private_file(path, kMaxQueueLineBytes + 1);
    // Ours only (open_private: no link, our uid, one link): anything else is left alone.
    if (!text) continue;
    const std::string_view line(*text);
    const bool whole = !line.empty() && line.back() == '\n' &&
                       line.find('\n') == line.size() - 1 &&
                       !queue_line_span_id(line.substr(0, line.size() - 1)).empty();
    if (whole) {
      if (out < 0) {
        out = fs::open_private(queue_path, O_RDWR | O_APPEND | O_CREAT, 0600);  // queue append
        if (out < 0) return;
        // A torn tail (a crashed append) must not swallow the first line we add.
        struct stat st {};
        char last = '\n';
        if (::fstat(out, &st) == 0 && st.st_size > 0 &&
            ::pread(out, &last, 1, st.st_size - 1) == 1 && last != '\n')
          buf.push_back('\n');
      }
      buf.append(line);
      struct stat at {};
      const bool sized = ::fstat(out, &at) == 0;
      if (!write_all(out, buf)) {
        // No fragment left (disk full): cut back to where we started (no append runs: we hold
        // the lock exclusively); this side file and the rest wait for the next pass.
        if (sized) (void)!::ftruncate(out, at.st_size);
        break;
      }
      buf.clear();
      c.appended += 1;
      c.lines += 1;
      c.deferred += 1;
    } else {
      c.corrupt += 1;  // not one whole queue line: a foreign or damaged file
    }
    ::unlink(path.c_str());
  }
  if (out >= 0) ::close(out);
}

// One physical line as the streaming reader sees it. `bytes` is empty for an oversize line (its
// content is never held in memory).
struct Line {
  std::string_view bytes;
  std::string_view span_id;
  uint64_t offset = 0;
  uint64_t size = 0;
  bool terminated = false;  // ended by '\n' (else: a torn final fragment)
  bool oversize = false;    // longer than kMaxQueueLineBytes
  bool valid = false;       // terminated, not oversize, and starts like a queue record
};

// The key a corrupt line is known by between snapshot() and remove(): its bytes, or for an
// oversize line (never held in memory) its place. Only the flusher rewrites the file, so the
// place is stable between the two calls.
std::string corrupt_key(const Line& l) {
  if (!l.oversize) return std::string(l.bytes);
  return "\x01oversize@" + std::to_string(l.offset) + "+" + std::to_string(l.size);
}

// Calls f(const Line&) for every non-empty line in [from, to) of fd, reading 256 KiB at a time.
// Memory: one chunk plus one line of at most kMaxQueueLineBytes, whatever the file holds (a
// sparse or garbage file of any size included). Returns false on a read error.
template <typename F>
bool scan_lines(int fd, uint64_t from, uint64_t to, F&& f) {
  constexpr size_t kChunk = 256u << 10;
  std::unique_ptr<char[]> chunk(new char[kChunk]);
  std::string line;
  Line cur;
  cur.offset = from;
  auto emit = [&](bool terminated) {
    cur.terminated = terminated;
    if (cur.size > 0) {
      if (!cur.oversize) {
        cur.bytes = line;
        cur.span_id = queue_line_span_id(cur.bytes);
      }
      cur.valid = terminated && !cur.oversize && !cur.span_id.empty();
      f(static_cast<const Line&>(cur));
    }
    line.clear();
    cur = Line{};
  };
  uint64_t pos = from;
  while (pos < to) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(kChunk, to - pos));
    ssize_t n = ::pread(fd, chunk.get(), want, static_cast<off_t>(pos));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n == 0;  // the file got shorter: stop at what is there
    std::string_view data(chunk.get(), static_cast<size_t>(n));
    while (!data.empty()) {
      const size_t nl = data.find('\n');
      const std::string_view piece = data.substr(0, nl);
      if (cur.size == 0) cur.offset = pos + static_cast<uint64_t>(data.data() - chunk.get());
      cur.size += piece.size();
      if (!cur.oversize) {
        if (cur.size > kMaxQueueLineBytes) {
          cur.oversize = true;
          std::string().swap(line);
        } else {
          line.append(piece);
        }
      }
      if (nl == std::string_view::npos) break;
      emit(true);
      data.remove_prefix(nl + 1);
    }
    pos += static_cast<uint64_t>(n);
  }
  emit(false);
  return true;
}

// Number of '\n' in [from, to), streaming.
uint64_t count_newlines(int fd, uint64_t from, uint64_t to) {
  constexpr size_t kChunk = 256u << 10;
  std::unique_ptr<char[]> chunk(new char[kChunk]);
  uint64_t count = 0;
  for (uint64_t pos = from; pos < to;) {
    // Holes of a sparse file hold no '\n': jump to the next data (a 2 GiB hole costs nothing).
    const off_t data = ::lseek(fd, static_cast<off_t>(pos), SEEK_DATA);
    if (data < 0 && errno == ENXIO) break;  // only a hole up to the end
    if (data > static_cast<off_t>(pos)) {
      pos = static_cast<uint64_t>(data);
      continue;
    }
    ssize_t n = ::pread(fd, chunk.get(), static_cast<size_t>(std::min<uint64_t>(kChunk, to - pos)),
                        static_cast<off_t>(pos));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    count += static_cast<uint64_t>(std::count(chunk.get(), chunk.get() + n, '\n'));
    pos += static_cast<uint64_t>(n);
  }
  return count;
}

// The first byte after a '\n' at or after `at` (so a region starts on a line), or `to` if none.
uint64_t next_line_start(int fd, uint64_t at, uint64_t to) {
  if (at == 0) return 0;
  char buf[64u << 10];
  for (uint64_t pos = at - 1; pos < to;) {
    ssize_t n = ::pread(fd, buf, static_cast<size_t>(std::min<uint64_t>(sizeof buf, to - pos)),
                        static_cast<off_t>(pos));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (const void* nl = std::memchr(buf, '\n', static_cast<size_t>(n)))
      return pos + static_cast<uint64_t>(static_cast<const char*>(nl) - buf) + 1;
    pos += static_cast<uint64_t>(n);
  }
  return to;
}

// The first byte after the last '\n' in [from, to) of fd, or `from` if there is none.
uint64_t after_last_newline(int fd, uint64_t from, uint64_t to) {
  char buf[16u << 10];
  for (uint64_t end = to; end > from;) {
    const uint64_t start = end - std::min<uint64_t>(sizeof buf, end - from);
    ssize_t n = ::pread(fd, buf, static_cast<size_t>(end - start), static_cast<off_t>(start));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return from;
    for (ssize_t i = std::min<ssize_t>(n, static_cast<ssize_t>(end - start)) - 1; i >= 0; --i)
      if (buf[i] == '\n') return start + static_cast<uint64_t>(i) + 1;
    end = start;
  }
  return from;
}

// Copies [from, to) of fd to out, 64 KiB at a time. false on a read or write error.
bool copy_range(int fd, uint64_t from, uint64_t to, int out) {
  char chunk[64u << 10];
  for (uint64_t pos = from; pos < to;) {
    ssize_t n = ::pread(fd, chunk, static_cast<size_t>(std::min<uint64_t>(sizeof chunk, to - pos)),
                        static_cast<off_t>(pos));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || !write_all(out, std::string_view(chunk, static_cast<size_t>(n)))) return false;
    pos += static_cast<uint64_t>(n);
  }
  return true;
}

// Full validity: a JSON object with a span object, a resource array, and as "spanId" the id its
// prefix names. (A duplicate "spanId" key parses as the last one: such a line would be delivered
// under one id and removed under another — fuzz/span_queue regression duplicate-span-id-key.)
bool parse_record(std::string_view bytes, std::string_view span_id, json& out) {
  out = json::parse(bytes, nullptr, false);
  return out.is_object() && out.contains("span") && out["span"].is_object() && out.contains("resource") &&
         out["resource"].is_array() && out.contains("spanId") && out["spanId"].is_string() &&
         out["spanId"].get_ref<const std::string&>() == span_id;
}

// One past the array or object that opens at text[at], in text known to be valid JSON (strings
// skipped with their escapes); npos when it does not close.
size_t container_end(std::string_view text, size_t at) {
  size_t depth = 0;
  for (size_t i = at; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && --depth == 0) {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

// A valid record as its two texts. The common case, a line in otlp::queue_line's own layout
// ({"spanId":"<16 hex>","resource":[...],"span":{...}}: one key each, nothing else), is cut at its
// two values once the whole line is known to be JSON (json::accept: the lexer alone, no document):
// that layout holds exactly one spanId (this one), a resource array and a span object, so it is
// valid in exactly the cases parse_record is. Any other layout (a foreign writer, whitespace,
// another key order) is parsed and its parts written out again.
bool record_text(std::string_view bytes, std::string_view span_id, SpanRecord& out) {
  if (!json::accept(bytes)) return false;
  // The head, `{"spanId":"<16 hex>"`, is queue_line_span_id's to check (the key a line is read by).
  constexpr size_t kHeadBytes = 11 + 16 + 1;
  constexpr std::string_view kResource = ",\"resource\":";
  constexpr std::string_view kSpan = ",\"span\":";
  const size_t at = kHeadBytes + kResource.size();
  if (queue_line_span_id(bytes) == span_id && bytes.size() > at &&
      bytes.substr(kHeadBytes, kResource.size()) == kResource && bytes[at] == '[') {
    const size_t resource_end = container_end(bytes, at);
    const size_t span_at = resource_end == std::string_view::npos ? resource_end : resource_end + kSpan.size();
    if (span_at < bytes.size() && bytes.substr(resource_end, kSpan.size()) == kSpan && bytes[span_at] == '{') {
      const size_t span_end = container_end(bytes, span_at);
      if (span_end != std::string_view::npos && span_end + 1 == bytes.size() && bytes[span_end] == '}') {
        out.resource.assign(bytes.substr(at, resource_end - at));
        out.span.assign(bytes.substr(span_at, span_end - span_at));
        return true;
      }
    }
  }
  json record;
  if (!parse_record(bytes, span_id, record)) return false;
  out.resource = record["resource"].dump(-1, ' ', false, json::error_handler_t::replace);
  out.span = record["span"].dump(-1, ' ', false, json::error_handler_t::replace);
  return true;
}

// The queue file opened for reading (-1 when absent; errno tells), its size and inode.
struct OpenQueue {
  int fd = -1;
  uint64_t size = 0;
  ino_t ino = 0;
  ~OpenQueue() {
    if (fd >= 0) ::close(fd);
  }
};

Status open_queue_for_read(const std::string& path, OpenQueue& q) {
  q.fd = fs::open_private(path, O_RDONLY);  // queue read (flusher)
  if (q.fd < 0) return errno == ENOENT ? Status{} : io_error("cannot open", path);
  struct stat st {};
  if (::fstat(q.fd, &st) != 0) return io_error("cannot stat", path);
  q.size = static_cast<uint64_t>(st.st_size);
  q.ino = st.st_ino;
  return {};
}

// SpanQueue::remove's copy of the queue file without the lines that go, into the fresh temp file
// `tmp` (O_EXCL|O_NOFOLLOW: never an existing file or a link planted there). The copy is started
// only at the first line that goes (lines before it are copied as they are, streaming): when the
// snapshot's ids are no longer in the file nothing is written at all. The temp file is removed
// unless `keep` (renamed onto the queue).
class Rewrite {
 public:
  Rewrite(int src, uint64_t from, std::string tmp) : src_(src), from_(from), tmp_(std::move(tmp)) {}
  ~Rewrite() {
    if (out >= 0) ::close(out);
    if (out >= 0 && !keep) ::unlink(tmp_.c_str());
  }
  Rewrite(const Rewrite&) = delete;
  Rewrite& operator=(const Rewrite&) = delete;

  // Copies [from, upto) as it is into a fresh temp file; from now on kept lines go to the buffer.
  void start(uint64_t upto) {
    changed = true;
    out = fs::open_private(tmp_, O_WRONLY | O_CREAT | O_EXCL, 0600);  // queue rewrite
    if (out < 0) {
      write_ok = false;
      return;
    }
    write_ok = copy_range(src_, from_, upto, out);
  }

  // A line that stays: copied once the rewrite has started (before, it is in the unchanged
  // prefix, copied as is if a change comes).
  void keep_line(std::string_view bytes) {
    if (!changed) return;
    buf_.append(bytes);
    buf_.push_back('\n');
    flush(false);
  }

  void flush(bool force) {
    if (out >= 0 && write_ok && (force || buf_.size() >= (256u << 10))) {
      write_ok = write_all(out, buf_);
      buf_.clear();
    }
  }

  const std::string& tmp() const { return tmp_; }

  int out = -1;
  bool changed = false, write_ok = true, keep = false;

 private:
  int src_;
  uint64_t from_;
  std::string tmp_;
  std::string buf_;
};

}  // namespace

json QueueCounters::to_json() const {
  return {{"lines", lines},
          {"appended", appended},
          {"dropped_cap", dropped_cap},
          {"corrupt", corrupt},
          {"delivered", delivered},
          {"rejected", rejected},
          {"dropped_http", dropped_http},
          {"retries", retries},
          {"redirects", redirects},
          {"last_status", last_status},
          {"unwritten", unwritten},
          {"deferred", deferred},
          {"head", head},
          {"head_ino", head_ino},
          {"poisoned", poisoned},
          {"stuck_off", stuck_off},
          {"stuck_tries", stuck_tries}};
}

QueueCounters QueueCounters::from_json(const json& j) {
  QueueCounters c;
  if (!j.is_object()) return c;
  auto get = [&](const char* k) -> int64_t {
    auto it = j.find(k);
    return it != j.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
  };
  c.lines = get("lines");
  c.appended = get("appended");
  c.dropped_cap = get("dropped_cap");
  c.corrupt = get("corrupt");
  c.delivered = get("delivered");
  c.rejected = get("rejected");
  c.dropped_http = get("dropped_http");
  c.retries = get("retries");
  c.redirects = get("redirects");
  c.last_status = get("last_status");
  c.unwritten = get("unwritten");
  c.deferred = get("deferred");
  c.head = get("head");
  c.head_ino = get("head_ino");
  c.poisoned = get("poisoned");
  c.stuck_off = get("stuck_off");
  c.stuck_tries = get("stuck_tries");
  return c;
}

void QueueCounters::add(const QueueCounters& d) {
  lines += d.lines;
  appended += d.appended;
  dropped_cap += d.dropped_cap;
  corrupt += d.corrupt;
  delivered += d.delivered;
  rejected += d.rejected;
  dropped_http += d.dropped_http;
  retries += d.retries;
  redirects += d.redirects;
  deferred += d.deferred;
  poisoned += d.poisoned;
  if (d.last_status != 0) last_status = d.last_status;  // values, not counts
  if (d.unwritten != 0) unwritten = d.unwritten;
}

std::string_view queue_line_span_id(std::string_view line) {
  constexpr std::string_view kPrefix = "{\"spanId\":\"";
  if (line.size() < kPrefix.size() + 17 || line.substr(0, kPrefix.size()) != kPrefix) return {};
  std::string_view id = line.substr(kPrefix.size(), 16);
  for (char c : id)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return {};
  if (line[kPrefix.size() + 16] != '"' || line.back() != '}') return {};
  return id;
}

SpanQueue::SpanQueue(QueueOptions options)
    : options_(std::move(options)),
      queue_path_(fs::join(options_.dir, kQueueFile)),
      state_path_(fs::join(options_.dir, kQueueStateFile)) {
  if (options_.max_spans == 0) options_.max_spans = 1;
  if (options_.max_bytes < kMaxQueueLineBytes) options_.max_bytes = kMaxQueueLineBytes;
}

bool SpanQueue::maybe_nonempty() const {
  struct stat st {};
  return ::lstat(queue_path_.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

void SpanQueue::count_unwritten() const {
  // No lock (the lock is what we could not get): one byte appended per span, the size is the count.
  const std::string path = fs::join(options_.dir, kQueueUnwrittenFile);
  // unwritten count
  int fd = fs::open_private(path, O_WRONLY | O_APPEND | O_CREAT, 0600);
  if (fd >= 0) {
    const bool ok = ::write(fd, "x", 1) == 1;
    ::close(fd);
    if (ok) return;
  }
  // The byte did not fit either (a full disk, a file-size limit): an empty file of our own needs
  // no data block. unwritten() counts these and folds them into the tally once there is room.
  const std::string mark = fs::join(options_.dir, std::string(kQueueUnwrittenMarkPrefix) +
                                                      std::to_string(::getpid()) + "." +
                                                      std::to_string(name_salt()));
  fd = fs::open_private(mark, O_WRONLY | O_CREAT | O_EXCL, 0600);  // unwritten mark
  if (fd >= 0) ::close(fd);
}

std::string SpanQueue::appended_path() const { return fs::join(options_.dir, kQueueAppendedFile); }

namespace {
// `<prefix><digits>.<digits>[suffix]` exactly: the names our writers make. *pid: the first number.
bool is_our_name(std::string_view name, std::string_view prefix, std::string_view suffix, pid_t* pid) {
  if (name.size() <= prefix.size() + suffix.size() || name.substr(0, prefix.size()) != prefix ||
      name.substr(name.size() - suffix.size()) != suffix)
    return false;
  std::string_view rest = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  const size_t dot = rest.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == rest.size() || dot > 10) return false;
  for (size_t i = 0; i < rest.size(); ++i)
    if (i != dot && (rest[i] < '0' || rest[i] > '9')) return false;
  long long p = 0;
  std::from_chars(rest.data(), rest.data() + dot, p);
  *pid = static_cast<pid_t>(p);
  return true;
}

// A regular file of ours with one link (lstat: a link is never followed).
bool ours(const std::string& path, struct stat& st) {
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid() &&
         st.st_nlink == 1;
}
}  // namespace

int64_t SpanQueue::unwritten() const {
  // Reads only (doctor calls it: nothing is created or changed): the tally's size plus the marks
  // of spans whose byte could not be written (count_unwritten).
  struct stat st {};
  const std::string path = fs::join(options_.dir, kQueueUnwrittenFile);
  int64_t n = ::stat(path.c_str(), &st) == 0 ? static_cast<int64_t>(st.st_size) : 0;
  for_each_unwritten_mark([&](const std::string&) { n += 1; });
  return n;
}

void SpanQueue::fold_unwritten_marks() const {
  // The flusher, under the exclusive lock: each mark becomes a byte of the tally once it can take
  // one, then goes (a mark whose byte is written but which cannot be removed would count twice:
  // the byte is taken back).
  const std::string path = fs::join(options_.dir, kQueueUnwrittenFile);
  int fd = -1;
  for_each_unwritten_mark([&](const std::string& mark) {
    if (fd < 0) fd = fs::open_private(path, O_WRONLY | O_APPEND | O_CREAT, 0600);  // unwritten count
    struct stat st {};
    if (fd < 0 || ::fstat(fd, &st) != 0 || ::write(fd, "x", 1) != 1) return;
    if (::unlink(mark.c_str()) != 0) (void)!::ftruncate(fd, st.st_size);
  });
  if (fd >= 0) ::close(fd);
}

template <typename F>
void SpanQueue::for_each_unwritten_mark(F&& f) const {
  DIR* d = ::opendir(options_.dir.c_str());
  if (d == nullptr) return;
  std::vector<std::string> marks;
  while (dirent* e = ::readdir(d)) {
    pid_t pid = 0;
    if (!is_our_name(e->d_name, kQueueUnwrittenMarkPrefix, "", &pid)) continue;
    const std::string mark = fs::join(options_.dir, e->d_name);
    struct stat ms {};
    if (ours(mark, ms) && ms.st_size == 0) marks.push_back(mark);
  }
  ::closedir(d);
  for (const std::string& m : marks) f(m);
}

size_t SpanQueue::sweep_leftovers() const {
  DIR* d = ::opendir(options_.dir.c_str());
  if (d == nullptr) return 0;
  const std::string tmp_prefix = std::string(kQueueFile) + std::string(kQueueTmpInfix);
  const time_t now = ::time(nullptr);
  size_t parts = 0;
  std::vector<std::pair<std::string, bool>> gone;
  while (dirent* e = ::readdir(d)) {
    pid_t pid = 0;
    const bool part = is_our_name(e->d_name, kQueueSidePrefix, kQueueSidePartSuffix, &pid);
    if (!part && !is_our_name(e->d_name, tmp_prefix, "", &pid)) continue;
    const std::string path = fs::join(options_.dir, e->d_name);
    struct stat st {};
    if (!ours(path, st) || pid == ::getpid()) continue;
    // Its writer is gone (no such process), or it is older than any live writer keeps one.
    const bool dead = pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH;
    if (dead || now - st.st_mtime > kStaleSidePartSeconds) gone.emplace_back(path, part);
  }
  ::closedir(d);
  for (const auto& [path, part] : gone) {
    struct stat st {};
    if (ours(path, st) && ::unlink(path.c_str()) == 0 && part) ++parts;
  }
  return parts;
}

bool SpanQueue::has_side_files() const {
  // Whole side files of ours only: a `.part` is still being written (its writer starts a flusher
  // once it is renamed) or a dead writer's leftover, and a foreign file is never folded; neither
  // is work a flusher could do.
  for (int n = 0; n < kQueueSlots; ++n) {
    struct stat st {};
    if (::lstat(slot_path(options_.dir, n).c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        st.st_uid == ::geteuid() && st.st_nlink == 1 && st.st_size > 0)
      return true;
  }
  DIR* d = ::opendir(options_.dir.c_str());
  if (d == nullptr) return false;
  bool found = false;
  while (dirent* e = ::readdir(d)) {
    bool part = false;
    if (!is_side_name(e->d_name, &part) || part) continue;
    struct stat st {};
    const std::string path = fs::join(options_.dir, e->d_name);
    if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid() &&
        st.st_nlink == 1) {
      found = true;
      break;
    }
  }
  ::closedir(d);
  return found;
}

bool SpanQueue::append_slot(std::string_view line) const {
  // Spread over the slots by pid, so concurrent appends rarely try the same one first.
  const int first = static_cast<int>(static_cast<unsigned>(::getpid()) % kQueueSlots);
  for (int i = 0; i < kQueueSlots; ++i) {
    const std::string path = slot_path(options_.dir, (first + i) % kQueueSlots);
    int fd = fs::open_private(path, O_RDWR | O_APPEND);  // overflow slot
    if (fd < 0 && errno == ENOENT) fd = fs::open_private(path, O_RDWR | O_APPEND | O_CREAT, 0600);
    if (fd < 0) continue;
    struct stat st {};
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0 || ::fstat(fd, &st) != 0) {
      ::close(fd);
      continue;
    }
    const std::string buf = appendable(fd, st.st_size, line);
    if (!write_all(fd, buf)) {
      // Disk full or a size limit: no fragment left (the slot's flock and the shared state lock
      // keep every other writer out), and no other slot would fare better.
      (void)!::ftruncate(fd, st.st_size);
      ::close(fd);
      return false;
    }
    ::close(fd);
    return true;
  }
  return false;
}

Status SpanQueue::append_side(std::string_view line) const {
  // A name of our own: written whole under `.part`, then renamed (a rename is atomic: the
  // flusher sees a whole side file or none).
  const std::string final_path = fs::join(options_.dir, std::string(kQueueSidePrefix) +
                                                            std::to_string(::getpid()) + "." +
                                                            std::to_string(name_salt()));
  const std::string part = final_path + std::string(kQueueSidePartSuffix);
  int fd = fs::open_private(part, O_WRONLY | O_CREAT | O_EXCL, 0600);  // side file
  if (fd < 0) {
    count_unwritten();
    return io_error("cannot create", part);
  }
  std::string buf;
  buf.reserve(line.size() + 1);
  buf.append(line);
  buf.push_back('\n');
  const bool ok = write_all(fd, buf);
  ::close(fd);
  if (!ok || ::rename(part.c_str(), final_path.c_str()) != 0) {
    Error e = io_error("cannot write", part);
    ::unlink(part.c_str());
    count_unwritten();
    return e;
  }
  return {};
}

Status SpanQueue::append(std::string_view line) {
  if (line.empty() || line.find('\n') != std::string_view::npos) {
    return make_error(ErrorCode::kInvalidArgument, "a queue line must be one non-empty line");
  }
  if (options_.dir.empty()) return make_error(ErrorCode::kNotFound, "no data dir");
  if (line.size() > kMaxQueueLineBytes) {
    count_unwritten();
    return make_error(ErrorCode::kInvalidArgument, "span larger than the queue's line cap");
  }
  // A shared lock: appends never wait for each other (64 concurrent adapters on 2 cores queued
  // behind an exclusive one for up to a few hundred ms), only for the flusher's short exclusive
  // holds. The data dir normally exists: create it only when the state file cannot be opened
  // for want of it (saves a mkdir per path component and a stat on every event).
  auto lock = [&]() -> Result<StateLock> {
    auto first = StateLock::acquire(state_path_, options_.lock_timeout_ms, /*shared=*/true);
    if (first || first.error().code != ErrorCode::kNotFound) return first;
    if (Status d = fs::make_dirs(options_.dir, 0700); !d.ok()) return d.error();
    return StateLock::acquire(state_path_, options_.lock_timeout_ms, /*shared=*/true);
  }();
  if (!lock) {
    // A flusher's exclusive hold outlasted our budget: do not wait, do not lose the span.
    if (lock.error().code == ErrorCode::kTimeout) return append_side(line);
    // No state file to be had (no inode left, a foreign file there): the span is lost, counted.
    if (lock.error().code != ErrorCode::kNotFound) count_unwritten();
    return lock.error();
  }
  int fd = fs::open_private(queue_path_, O_RDWR | O_APPEND | O_CREAT, 0600);  // queue append
  if (fd < 0) {
    Error e = io_error("cannot open", queue_path_);
    count_unwritten();  // lost (a foreign file in its place, no inode left): counted
    return e;
  }
  // One append writes at a time, and none waits for another: an exclusive, non-blocking flock on
  // the queue file itself. Concurrent write(2)s to one file queue in the kernel on the inode's
  // lock, and a writer preempted while holding it (64 adapters on 2 cores) stalled every append
  // behind it for 100-400 ms (docs/benchmarks-history.md); with the flock, a busy queue sends the span to
  // a free overflow slot at once (and, with every slot busy, to a side file).
  // Nothing else flocks the queue file (the flusher excludes appends through the state lock).
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    if (err == EWOULDBLOCK || err == EINTR) {
      ::close(fd);
      if (append_slot(line)) return {};
      lock->release();
      return append_side(line);
    }
    // flock not supported here: the shared state lock still keeps the flusher out.
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    Error e = io_error("cannot stat", queue_path_);
    ::close(fd);
    return e;
  }
  // No other append is writing (the flock) and no flusher rewrites (the state lock).
  const std::string buf = appendable(fd, st.st_size, line);
  // One write(2) with O_APPEND: whole, at the end, never interleaved with another append.
  size_t written = 0;
  while (written < buf.size()) {
    ssize_t n = ::write(fd, buf.data() + written, buf.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  if (written < buf.size()) {
    Error e = io_error("cannot append to", queue_path_);
    const off_t end = ::lseek(fd, 0, SEEK_CUR);  // O_APPEND: just after our bytes
    ::close(fd);       // the queue's flock goes with it
    lock->release();  // let go of the shared lock before taking the exclusive one
    if (written > 0 && end >= static_cast<off_t>(written))
      cut_back(end - static_cast<off_t>(written), end);
    // A full disk or a file-size limit: a side file may still fit (a small file under a size
    // limit); if not, append_side counts the span unwritten. Never lost uncounted.
    (void)append_side(line);
    return e;
  }
  // No compaction here (the caps are the flusher's) and no counter read-modify-write (that would
  // need the exclusive lock): one byte in the appended tally, folded into the state by the
  // flusher's next exclusive hold (counters()). Written before the queue's flock goes (close), so
  // no two appends write the tally at once either.
  count_appended();
  ::close(fd);
  return {};
}

void SpanQueue::cut_back(off_t start, off_t end) const {
  // Do not leave a fragment (disk full): cut back to where we started, but only if nothing was
  // appended after it (readers skip a fragment in the middle as corrupt; the next append starts on
  // a fresh line). The exclusive lock keeps other appends out while we look.
  auto lock = StateLock::acquire(state_path_, options_.lock_timeout_ms);
  if (!lock) return;
  int fd = fs::open_private(queue_path_, O_WRONLY);
  if (fd < 0) return;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size == end) (void)!::ftruncate(fd, start);
  ::close(fd);
}

void SpanQueue::count_appended() const {
  // Under the shared lock (so a fold under the exclusive one sees whole counts): one byte per span.
  int fd = fs::open_private(appended_path(), O_WRONLY | O_APPEND | O_CREAT, 0600);
  if (fd < 0) return;
  (void)!::write(fd, "x", 1);
  ::close(fd);
}

Result<QueueSnapshot> SpanQueue::snapshot(size_t max_records, size_t max_record_bytes) {
  return read(max_records, max_record_bytes, false);
}

Result<QueueSnapshot> SpanQueue::snapshot_refs(size_t max_records) {
  return read(max_records, SIZE_MAX, true);
}

bool SpanQueue::load(const RecordRef& ref, json& record, std::string& bytes) const {
  const std::string_view id(ref.span_id, sizeof ref.span_id);
  return read_line(ref, bytes) && queue_line_span_id(bytes) == id && parse_record(bytes, id, record);
}

bool SpanQueue::load(const RecordRef& ref, SpanRecord& record, std::string& bytes) const {
  const std::string_view id(ref.span_id, sizeof ref.span_id);
  return read_line(ref, bytes) && queue_line_span_id(bytes) == id && record_text(bytes, id, record);
}

bool SpanQueue::read_line(const RecordRef& ref, std::string& bytes) const {
  bytes.clear();
  int fd = fs::open_private(queue_path_, O_RDONLY);  // queue read (flusher)
  if (fd < 0) return false;
  bytes.resize(ref.size);
  size_t got = 0;
  while (got < bytes.size()) {
    ssize_t n =
        ::pread(fd, bytes.data() + got, bytes.size() - got, static_cast<off_t>(ref.offset + got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  ::close(fd);
  if (got != bytes.size()) {
    bytes.clear();
    return false;
  }
  return true;
}

Result<QueueSnapshot> SpanQueue::read(size_t max_records, size_t max_record_bytes, bool refs) {
  QueueSnapshot snap;
  OpenQueue q;
  {
    // Under the lock only to learn a size at which no append is half-written, and to fold in
    // the side files of appends that did not get the lock in time.
    auto lock = StateLock::acquire(state_path_, 5000);
    if (!lock) return lock.error();
    QueueCounters c = lock->read();
    const QueueCounters before = c;
    if (has_side_files()) {
      fold_slots(options_.dir, queue_path_, c);
      fold_side_files(options_.dir, queue_path_, c);
      snap.folded = static_cast<size_t>(c.deferred - before.deferred);
    }
    if (Status s = open_queue_for_read(queue_path_, q); !s.ok()) return s.error();
    if (c.head != 0 || c.head_ino != 0) {
      // The delivery head (commit): the bytes before it were answered for. It holds only for the
      // file it was set on, and only on a line boundary; anything else (the file was rewritten
      // or made anew) clears it, before any new file could reuse the inode number.
      char before_head = 0;
      if (q.fd >= 0 && static_cast<uint64_t>(c.head_ino) == static_cast<uint64_t>(q.ino) &&
          c.head > 0 && static_cast<uint64_t>(c.head) <= q.size &&
          ::pread(q.fd, &before_head, 1, static_cast<off_t>(c.head - 1)) == 1 &&
          before_head == '\n') {
        snap.head = static_cast<uint64_t>(c.head);
      } else {
        c.head = 0;
        c.head_ino = 0;
        c.stuck_off = 0;
        c.stuck_tries = 0;
      }
    }
    if (c.appended != before.appended || c.corrupt != before.corrupt || c.head != before.head ||
        c.head_ino != before.head_ino || c.stuck_tries != before.stuck_tries)
      lock->write(c);
    if (q.fd < 0) return snap;
  }
  // Reading starts at the delivery head, and only the newest max_bytes after it are ever read:
  // older bytes are dropped (counted by line).
  uint64_t start = snap.head;
  if (q.size - start > options_.max_bytes) {
    const uint64_t cut = next_line_start(q.fd, q.size - options_.max_bytes, q.size);
    snap.prefix_lines = count_newlines(q.fd, start, cut);
    start = cut;
  }
  snap.skip_bytes = start;
  snap.inode = static_cast<uint64_t>(q.ino);
  snap.size = q.size;
  size_t valid = 0;
  if (!scan_lines(q.fd, start, q.size, [&](const Line& l) { valid += l.valid ? 1 : 0; }))
    return io_error("cannot read", queue_path_);
  snap.valid_total = valid;
  const size_t over = valid > options_.max_spans ? valid - options_.max_spans : 0;
  snap.over_total = over;
  size_t index = 0, record_bytes = 0;
  bool ok = scan_lines(q.fd, start, q.size, [&](const Line& l) {
    if (!l.valid) {
      snap.corrupt_lines.emplace(corrupt_key(l));
      return;
    }
    const size_t i = index++;
    if (i < over) {
      if (snap.over_cap.size() < kMaxOverCapPerSnapshot) snap.over_cap.emplace(l.span_id);
      return;
    }
    if (refs) {
      if (snap.refs.size() >= max_records) return;
      RecordRef ref;
      ref.offset = l.offset;
      ref.size = static_cast<uint32_t>(l.bytes.size());
      std::copy(l.span_id.begin(), l.span_id.end(), ref.span_id);
      snap.refs.push_back(ref);
      return;
    }
    if (snap.records.size() >= max_records) return;
    if (!snap.records.empty() && record_bytes + l.bytes.size() > max_record_bytes) return;
    json rec;
    if (parse_record(l.bytes, l.span_id, rec)) {
      snap.records.push_back(std::move(rec));
      record_bytes += l.bytes.size();
    } else {
      snap.corrupt_lines.emplace(l.bytes);
    }
  });
  if (!ok) return io_error("cannot read", queue_path_);
  return snap;
}

Status SpanQueue::remove(const std::unordered_set<std::string>& span_ids,
                         const std::unordered_set<std::string>& corrupt_lines,
                         const QueueCounters& delta, uint64_t skip_bytes) {
  OpenQueue q;
  {
    auto lock = StateLock::acquire(state_path_, 5000);
    if (!lock) return lock.error();
    if (Status s = open_queue_for_read(queue_path_, q); !s.ok()) return s;
    // Bytes before a delivery head of this file are gone whatever the caller says.
    if (skip_bytes > 0 || !span_ids.empty() || !corrupt_lines.empty()) {
      const QueueCounters now = lock->read();
      if (q.fd >= 0 && now.head > 0 && static_cast<uint64_t>(now.head_ino) == static_cast<uint64_t>(q.ino))
        skip_bytes = std::max<uint64_t>(skip_bytes, static_cast<uint64_t>(now.head));
    }
    // Nothing to take out (a pass that delivered nothing: collector down, a retry later): the
    // counters only. The file is left alone (same inode, no copy written): a failing flusher
    // retrying through an outage must not rewrite the whole queue on every pass.
    const bool nothing = span_ids.empty() && corrupt_lines.empty() && skip_bytes == 0;
    if (q.fd < 0 || nothing) {
      QueueCounters c = lock->read();
      c.add(delta);
      const int tally = take_appended(appended_path(), c);
      if (q.fd < 0) c.lines = 0;
      fold_unwritten_marks();
  c.unwritten = unwritten();
      lock->write(c);
      settle_appended(tally);
      return {};
    }
  }
  // The rewrite is built outside the lock (appends go on meanwhile) up to the size seen under it;
  // under the lock again only what was appended since is copied, and the file replaced.
  const uint64_t from = std::min<uint64_t>(skip_bytes, q.size);
  Rewrite rw(q.fd, from,
             queue_path_ + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(name_salt()));
  int64_t kept = 0;
  if (skip_bytes > 0) rw.start(from);
  bool read_ok = scan_lines(q.fd, from, q.size, [&](const Line& l) {
    const bool drop = l.oversize || corrupt_lines.count(corrupt_key(l)) > 0 ||
                      (!l.span_id.empty() && span_ids.count(std::string(l.span_id)) > 0);
    // A kept torn fragment gets its '\n': that too is a change.
    if (!rw.changed && (drop || !l.terminated)) rw.start(l.offset);
    if (drop) return;
    ++kept;
    rw.keep_line(l.bytes);
  });
  rw.flush(true);
  if (!read_ok) return io_error("cannot read", queue_path_);
  // What was appended since the snapshot: most of it copied now, outside the lock, so that the
  // exclusive hold below (the only one appends can wait for) copies just the last few lines.
  // Whole lines only: up to the last '\n' visible. Appends are serialized by the kernel (one
  // O_APPEND write(2) each), and a reader sees the bytes of a write before the end of the file
  // grows past them, so everything before a visible '\n' is whole.
  int64_t tail_lines = 0;
  uint64_t copied_to = q.size;
  if (struct stat now {}; ::fstat(q.fd, &now) == 0 && static_cast<uint64_t>(now.st_size) > q.size) {
    copied_to = after_last_newline(q.fd, q.size, static_cast<uint64_t>(now.st_size));
    tail_lines += static_cast<int64_t>(count_newlines(q.fd, q.size, copied_to));
    if (rw.changed && rw.write_ok) rw.write_ok = copy_range(q.fd, q.size, copied_to, rw.out);
  }
  if (rw.changed && (!rw.write_ok || ::fdatasync(rw.out) != 0)) return io_error("cannot write", rw.tmp());

  auto lock = StateLock::acquire(state_path_, 5000);
  if (!lock) return lock.error();
  QueueCounters c = lock->read();
  c.add(delta);
  struct stat st {};
  if (::lstat(queue_path_.c_str(), &st) != 0 || st.st_ino != q.ino ||
      static_cast<uint64_t>(st.st_size) < copied_to)
    return make_error(ErrorCode::kIo, "queue file replaced during a rewrite: " + queue_path_);
  const uint64_t now_size = static_cast<uint64_t>(st.st_size);
  tail_lines += static_cast<int64_t>(count_newlines(q.fd, copied_to, now_size));
  if (rw.changed) {
    // The rest: copied as is (whole lines: appends happen under the lock we hold).
    if (!copy_range(q.fd, copied_to, now_size, rw.out))
      return io_error("cannot copy the tail of", queue_path_);
    if (::rename(rw.tmp().c_str(), queue_path_.c_str()) != 0)
      return io_error("cannot rename onto", queue_path_);
    rw.keep = true;
    // The consumed bytes went with the old file: the head starts over on the new one (and so do
    // the failures of the batch that stood there).
    c.head = 0;
    c.head_ino = 0;
    c.stuck_off = 0;
    c.stuck_tries = 0;
  }
  const int tally = take_appended(appended_path(), c);
  c.lines = kept + tail_lines;
  fold_unwritten_marks();
  c.unwritten = unwritten();
  lock->write(c);
  settle_appended(tally);
  return {};
}

Status SpanQueue::commit(uint64_t head, uint64_t inode, const QueueCounters& delta) {
  auto lock = StateLock::acquire(state_path_, 5000);
  if (!lock) return lock.error();
  QueueCounters c = lock->read();
  c.add(delta);
  struct stat st {};
  const bool same = ::lstat(queue_path_.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
                    static_cast<uint64_t>(st.st_ino) == inode &&
                    static_cast<uint64_t>(st.st_size) >= head;
  if (same && (static_cast<uint64_t>(c.head_ino) != inode || static_cast<uint64_t>(c.head) < head)) {
    c.head = static_cast<int64_t>(head);
    c.head_ino = static_cast<int64_t>(inode);
    c.stuck_off = 0;  // the head moved: whatever was stuck there was answered for
    c.stuck_tries = 0;
  }
  const int tally = take_appended(appended_path(), c);
  lock->write(c);  // in place: the state file's block is already there (a full disk is no matter)
  settle_appended(tally);
  if (!same) return make_error(ErrorCode::kIo, "queue file replaced before a commit: " + queue_path_);
  return {};
}

int64_t SpanQueue::note_stuck(uint64_t offset, bool reset) {
  auto lock = StateLock::acquire(state_path_, 5000);
  if (!lock) return 0;
  QueueCounters c = lock->read();
  if (reset) {
    c.stuck_off = 0;
    c.stuck_tries = 0;
  } else if (c.stuck_tries > 0 && static_cast<uint64_t>(c.stuck_off) == offset) {
    c.stuck_tries += 1;
  } else {
    c.stuck_off = static_cast<int64_t>(offset);
    c.stuck_tries = 1;
  }
  lock->write(c);
  return c.stuck_tries;
}

size_t SpanQueue::quarantine(const std::vector<RecordRef>& refs) const {
  const std::string path = fs::join(options_.dir, kQueuePoisonFile);
  int in = fs::open_private(queue_path_, O_RDONLY);  // queue read (flusher)
  if (in < 0) return 0;
  int out = fs::open_private(path, O_WRONLY | O_APPEND | O_CREAT, 0600);  // poison file
  size_t kept = 0;
  struct stat st {};
  if (out >= 0 && ::fstat(out, &st) == 0) {
    uint64_t size = static_cast<uint64_t>(st.st_size);
    for (const RecordRef& r : refs) {
      if (size + r.size + 1 > kMaxPoisonFileBytes) break;  // full: the rest is only counted
      std::string line(r.size + 1, '\n');
      if (::pread(in, line.data(), r.size, static_cast<off_t>(r.offset)) != static_cast<ssize_t>(r.size)) continue;
      if (!write_all(out, line)) {
        (void)!::ftruncate(out, static_cast<off_t>(size));  // no torn line left
        break;
      }
      size += line.size();
      ++kept;
    }
  }
  if (out >= 0) ::close(out);
  ::close(in);
  return kept;
}

Status SpanQueue::count(const QueueCounters& delta) {
  auto lock = StateLock::acquire(state_path_, 5000);
  if (!lock) return lock.error();
  QueueCounters c = lock->read();
  c.add(delta);
  const int tally = take_appended(appended_path(), c);
  fold_unwritten_marks();
  c.unwritten = unwritten();
  lock->write(c);
  settle_appended(tally);
  return {};
}

Result<QueueCounters> SpanQueue::counters() {
  auto lock = StateLock::acquire(state_path_, 5000);
  if (!lock) return lock.error();
  QueueCounters c = lock->read();
  const int tally = take_appended(appended_path(), c);
  if (tally >= 0) {
    lock->write(c);
    settle_appended(tally);
  }
  return c;
}

}  // namespace pinta::adapter
