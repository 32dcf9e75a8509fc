#include "pinta/adapter/span_queue.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <chrono>
#include <cstdio>
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
  static constexpr Field kFields[] = {
      {"\"appended\":", &QueueCounters::appended},   {"\"corrupt\":", &QueueCounters::corrupt},
      {"\"delivered\":", &QueueCounters::delivered}, {"\"dropped_cap\":", &QueueCounters::dropped_cap},
      {"\"dropped_http\":", &QueueCounters::dropped_http},
      {"\"last_status\":", &QueueCounters::last_status}, {"\"lines\":", &QueueCounters::lines},
      {"\"redirects\":", &QueueCounters::redirects}, {"\"rejected\":", &QueueCounters::rejected},
      {"\"retries\":", &QueueCounters::retries}};
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
  static Result<StateLock> acquire(const std::string& path, int timeout_ms) {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
      if (errno == ENOENT) return make_error(ErrorCode::kNotFound, "no directory for " + path);
      return io_error("cannot open", path);
    }
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    // Back off from 200 us to 4 ms: dozens of waiters polling every 500 us kept waking on two
    // cores and starved each other past the timeout (telemetry_load_64x100 lost appends).
    auto pause = std::chrono::microseconds(200);
    while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK && errno != EINTR) {
        Error e = io_error("cannot lock", path);
        ::close(fd);
        return e;
      }
      if (std::chrono::steady_clock::now() >= until) {
        ::close(fd);
        return make_error(ErrorCode::kTimeout, "timed out waiting for " + path);
      }
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::microseconds(4000));
    }
    return StateLock(fd);
  }
  StateLock(StateLock&& o) noexcept : fd_(o.fd_), size_read_(o.size_read_) { o.fd_ = -1; }
  StateLock& operator=(StateLock&&) = delete;
  ~StateLock() {
    if (fd_ >= 0) ::close(fd_);  // closing the only fd releases the flock
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
    char buf[512];
    char* p = buf;
    char* const end = buf + sizeof buf;
    const std::pair<std::string_view, int64_t> fields[] = {
        {"{\"appended\":", c.appended},        {",\"corrupt\":", c.corrupt},   {",\"delivered\":", c.delivered},
        {",\"dropped_cap\":", c.dropped_cap}, {",\"dropped_http\":", c.dropped_http},
        {",\"last_status\":", c.last_status}, {",\"lines\":", c.lines},
        {",\"redirects\":", c.redirects},     {",\"rejected\":", c.rejected}, {",\"retries\":", c.retries}};
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

struct Line {
  std::string_view bytes;
  std::string_view span_id;
  bool valid = false;
};

// Splits the file into lines; a final fragment without '\n' is a torn line.
std::vector<Line> split_lines(std::string_view data) {
  std::vector<Line> out;
  while (!data.empty()) {
    size_t nl = data.find('\n');
    std::string_view l = data.substr(0, nl);
    data = nl == std::string_view::npos ? std::string_view() : data.substr(nl + 1);
    if (l.empty()) continue;
    Line line;
    line.bytes = l;
    line.span_id = queue_line_span_id(l);
    line.valid = nl != std::string_view::npos && !line.span_id.empty();
    out.push_back(line);
  }
  return out;
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

Status rewrite(const std::string& path, const std::vector<std::string_view>& keep) {
  std::string data;
  size_t total = 0;
  for (auto l : keep) total += l.size() + 1;
  data.reserve(total);
  for (auto l : keep) {
    data.append(l);
    data.push_back('\n');
  }
  return fs::atomic_write(path, data, 0600);
}

}  // namespace

json QueueCounters::to_json() const {
  return {{"lines", lines},         {"appended", appended},   {"dropped_cap", dropped_cap},
          {"corrupt", corrupt},     {"delivered", delivered}, {"rejected", rejected},
          {"dropped_http", dropped_http}, {"retries", retries},     {"redirects", redirects},
          {"last_status", last_status}};
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
  if (d.last_status != 0) last_status = d.last_status;  // a value, not a count
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
}

bool SpanQueue::maybe_nonempty() const {
  struct stat st {};
  return ::stat(queue_path_.c_str(), &st) == 0 && st.st_size > 0;
}

Status SpanQueue::append(std::string_view line) {
  if (line.empty() || line.find('\n') != std::string_view::npos) {
    return make_error(ErrorCode::kInvalidArgument, "a queue line must be one non-empty line");
  }
  if (options_.dir.empty()) return make_error(ErrorCode::kNotFound, "no data dir");
  // The data dir normally exists: create it only when the state file cannot be opened for want
  // of it (saves a mkdir per path component and a stat on every event).
  auto lock = [&]() -> Result<StateLock> {
    auto first = StateLock::acquire(state_path_, options_.lock_timeout_ms);
    if (first || first.error().code != ErrorCode::kNotFound) return first;
    if (Status d = fs::make_dirs(options_.dir, 0700); !d.ok()) return d.error();
    return StateLock::acquire(state_path_, options_.lock_timeout_ms);
  }();
  if (!lock) return lock.error();
  QueueCounters c = lock->read();

  int fd = ::open(queue_path_.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return io_error("cannot open", queue_path_);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    Error e = io_error("cannot stat", queue_path_);
    ::close(fd);
    return e;
  }
  std::string buf;
  buf.reserve(line.size() + 2);
  if (st.st_size > 0) {
    // A torn last line (no '\n') must not swallow ours: start on a fresh line.
    char last = '\n';
    if (::pread(fd, &last, 1, st.st_size - 1) == 1 && last != '\n') buf.push_back('\n');
  }
  buf.append(line);
  buf.push_back('\n');
  if (!write_all(fd, buf)) {
    Error e = io_error("cannot append to", queue_path_);
    // Do not leave a fragment (disk full): cut back to where we started.
    (void)!::ftruncate(fd, st.st_size);
    ::close(fd);
    return e;
  }
  ::close(fd);
  c.lines += 1;
  c.appended += 1;

  if (c.lines > static_cast<int64_t>(2 * options_.max_spans)) {
    // Compaction: keep the newest max_spans valid lines (amortised over max_spans appends).
    auto data = fs::read_file(queue_path_, size_t{1} << 31);
    if (data) {
      std::vector<Line> lines = split_lines(*data);
      std::vector<std::string_view> valid;
      for (const Line& l : lines) {
        if (l.valid) valid.push_back(l.bytes);
        else c.corrupt += 1;
      }
      size_t drop = valid.size() > options_.max_spans ? valid.size() - options_.max_spans : 0;
      std::vector<std::string_view> keep(valid.begin() + static_cast<std::ptrdiff_t>(drop), valid.end());
      if (rewrite(queue_path_, keep).ok()) {
        c.dropped_cap += static_cast<int64_t>(drop);
        c.lines = static_cast<int64_t>(keep.size());
      }
    }
  }
  lock->write(c);
  return {};
}

Result<QueueSnapshot> SpanQueue::snapshot(size_t max_records) {
  QueueSnapshot snap;
  std::string data;
  {
    auto lock = StateLock::acquire(state_path_, 5000);
    if (!lock) return lock.error();
    auto r = fs::read_file(queue_path_, size_t{1} << 31);
    if (!r) {
      if (r.error().code == ErrorCode::kNotFound || !fs::exists(queue_path_)) return snap;
      return r.error();
    }
    data = std::move(*r);
  }
  std::vector<Line> lines = split_lines(data);
  std::vector<const Line*> valid;
  for (const Line& l : lines) {
    if (l.valid) valid.push_back(&l);
    else snap.corrupt_lines.emplace(l.bytes);
  }
  snap.valid_total = valid.size();
  size_t start = valid.size() > options_.max_spans ? valid.size() - options_.max_spans : 0;
  for (size_t i = 0; i < start; ++i) snap.over_cap.emplace(valid[i]->span_id);
  for (size_t i = start; i < valid.size() && snap.records.size() < max_records; ++i) {
    json rec;
    if (parse_record(valid[i]->bytes, valid[i]->span_id, rec)) {
      snap.records.push_back(std::move(rec));
    } else {
      snap.corrupt_lines.emplace(valid[i]->bytes);
    }
  }
  return snap;
}

Status SpanQueue::remove(const std::unordered_set<std::string>& span_ids,
                         const std::unordered_set<std::string>& corrupt_lines, const QueueCounters& delta) {
  auto lock = StateLock::acquire(state_path_, 5000);
  if (!lock) return lock.error();
  QueueCounters c = lock->read();
  c.add(delta);
  auto data = fs::read_file(queue_path_, size_t{1} << 31);
  if (data) {
    std::vector<Line> lines = split_lines(*data);
    std::vector<std::string_view> keep;
    keep.reserve(lines.size());
    bool changed = false;
    for (const Line& l : lines) {
      bool drop = corrupt_lines.count(std::string(l.bytes)) > 0 ||
                  (!l.span_id.empty() && span_ids.count(std::string(l.span_id)) > 0);
      if (drop) changed = true;
      else keep.push_back(l.bytes);
    }
    if (changed) {
      Status s = rewrite(queue_path_, keep);
      if (!s.ok()) return s;
    }
    c.lines = static_cast<int64_t>(keep.size());
  }
  lock->write(c);
  return {};
}

Status SpanQueue::count(const QueueCounters& delta) {
  auto lock = StateLock::acquire(state_path_, 5000);
  if (!lock) return lock.error();
  QueueCounters c = lock->read();
  c.add(delta);
  lock->write(c);
  return {};
}

Result<QueueCounters> SpanQueue::counters() {
  auto lock = StateLock::acquire(state_path_, 5000);
  if (!lock) return lock.error();
  return lock->read();
}

}  // namespace pinta::adapter
