// The flusher: delivery of the span queue to the collector, in a process the host does not wait
// for. See telemetry.h for the design; docs/contract.md OTLP for the rules.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <thread>

#include "pinta/adapter/detach.h"
#include "pinta/adapter/telemetry.h"
#include "pinta/common/fs.h"
#include "pinta/common/version.h"

namespace pinta::adapter {
namespace {

using nlohmann::json;

int64_t wall_ms() {
  struct timespec ts {};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

// flusher.lock content: "<next attempt, unix ms> <consecutive failures>\n", written by the
// flusher for whoever looks (doctor, tests). Adapters do not read it: a live flusher is told by
// the flock alone, and with none alive the next event starts one whatever the last back-off was.
struct Backoff {
  int64_t next_ms = 0;
  int64_t failures = 0;
};

void write_backoff(int fd, const Backoff& b) {
  char buf[64];
  int n = std::snprintf(buf, sizeof buf, "%lld %lld\n", static_cast<long long>(b.next_ms),
                        static_cast<long long>(b.failures));
  if (n > 0 && ::pwrite(fd, buf, static_cast<size_t>(n), 0) == n) (void)!::ftruncate(fd, n);
}

void sleep_for(std::chrono::milliseconds d) {
  if (d.count() > 0) std::this_thread::sleep_for(d);
}

using Clock = std::chrono::steady_clock;

std::chrono::milliseconds until(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t - Clock::now());
}

}  // namespace

// Back-off before retry `failures` (1-based): initial doubling up to the cap, then "equal jitter"
// (a uniform pick in [wait/2, wait]) so the flushers of many hosts do not hit a recovering
// collector in step. The computed wait is the floor, whatever Retry-After says: a Retry-After can
// lengthen the wait up to the cap (PINTA_OTLP_BACKOFF_MAX_MS), never shorten it. (A collector
// answering 429 with `Retry-After: 0`, or a date in the past, got thousands of POSTs a second when
// it replaced the computed wait.) And never under kMinBackoffMs (or the cap, when smaller).
std::chrono::milliseconds backoff_wait(const TelemetryOptions& o, int64_t failures,
                                       std::chrono::milliseconds retry_after, uint32_t random) {
  const int64_t cap = std::max<int64_t>(1, o.backoff_max.count());
  int64_t wait = std::max<int64_t>(1, o.backoff_initial.count());
  for (int64_t i = 1; i < failures && wait < cap; ++i) wait *= 2;
  wait = std::min<int64_t>(wait, cap);
  wait = wait / 2 + static_cast<int64_t>(random % static_cast<uint64_t>(wait / 2 + 1));
  wait = std::max<int64_t>(wait, std::min<int64_t>(kMinBackoffMs, cap));
  if (retry_after.count() > 0) wait = std::max<int64_t>(wait, std::min<int64_t>(retry_after.count(), cap));
  return std::chrono::milliseconds(wait);
}

// The wait before in-pass retry `attempt` (0-based) of one batch: 250 ms doubling, lengthened
// (never shortened) by a Retry-After.
std::chrono::milliseconds retry_wait_in_pass(int attempt, std::chrono::milliseconds retry_after) {
  int64_t wait = kInPassRetryMs;
  for (int i = 0; i < attempt && i < 20; ++i) wait *= 2;
  return std::chrono::milliseconds(std::max<int64_t>(wait, retry_after.count()));
}

namespace {

enum class Exit { kIdle, kFailing, kLife, kGone };

// Holding the flusher lock: deliver, retry through an outage, stay a while when idle.
Exit serve(const TelemetryOptions& options, int lock_fd, Clock::time_point life_end) {
  SendFn send = [](const http::Request& r, Deadline d) { return http::send(r, d); };
  QueueOptions qopts;
  qopts.dir = options.data_dir;
  qopts.max_spans = options.max_queue_spans;
  SpanQueue queue(qopts);
  std::minstd_rand rng(static_cast<uint32_t>(::getpid()) ^ static_cast<uint32_t>(wall_ms()));
  Backoff b;
  std::optional<Clock::time_point> failing_since;  // first failure with no progress since
  for (;;) {
    if (Clock::now() >= life_end) return Exit::kLife;
    // One pass: until the queue is empty, the collector fails, or the no-progress budget (or the
    // life) runs out.
    const Clock::time_point budget_end =
        (failing_since ? *failing_since : Clock::now()) + options.flush_budget;
    const auto pass = std::max(until(std::min(budget_end, life_end)), std::chrono::milliseconds(1));
    FlushReport rep = flush_queue(options, send, Deadline::after(pass));
    if (!rep.gave_up) {
      failing_since.reset();
      if (b.failures != 0) write_backoff(lock_fd, b = Backoff{});
      // Idle: watch the queue (one stat per poll) for spans that later events append.
      const Clock::time_point idle_end = std::min(Clock::now() + options.idle_window, life_end);
      bool work = false;
      while (!(work = queue.pending()) && Clock::now() < idle_end) {
        if (!sleep_unless_unlinked(lock_fd, std::min(options.idle_poll,
                                                 std::max(until(idle_end), std::chrono::milliseconds(1)))))
          return Exit::kGone;
      }
      if (!work) return Exit::kIdle;
      continue;
    }
    // The collector is down, hanging, saying "later" or redirecting: retry after a back-off. Any
    // progress in the pass (a batch taken) restarts the no-progress budget.
    if (rep.delivered + rep.rejected + rep.dropped_http > 0 || !failing_since)
      failing_since = Clock::now();
    b.failures += 1;
    const auto wait = options.backoff_max.count() == 0
                          ? std::chrono::milliseconds(0)
                          : backoff_wait(options, b.failures, rep.retry_after,
                                         static_cast<uint32_t>(rng()));
    b.next_ms = wall_ms() + wait.count();
    write_backoff(lock_fd, b);
    if (options.backoff_max.count() == 0) return Exit::kFailing;  // not staying: next event retries
    const Clock::time_point resume = Clock::now() + wait;
    if (resume >= *failing_since + options.flush_budget) return Exit::kFailing;
    if (resume >= life_end) return Exit::kLife;
    if (!sleep_unless_unlinked(lock_fd, wait)) return Exit::kGone;
  }
}

// The flusher's life once it holds the flusher lock on `lock_fd`.
void flusher_main(const TelemetryOptions& options, int lock_fd) {
  const Clock::time_point life_end = Clock::now() + options.max_life;
  QueueOptions qopts;
  qopts.dir = options.data_dir;
  SpanQueue q(qopts);
  for (;;) {
    const Exit why = serve(options, lock_fd, life_end);
    ::flock(lock_fd, LOCK_UN);
    // An adapter that appended while we held the lock saw it taken and left its span to us: look
    // once more after letting go (telemetry.h). With nothing left, or still failing after the
    // no-progress budget (the next event starts a fresh flusher), we are done.
    if (why == Exit::kFailing || why == Exit::kGone || !q.pending()) return;
    if (why == Exit::kLife) {
      // Work left at the end of our life: hand over to a fresh flusher (it takes the lock).
      (void)start_flusher_if_needed(options, true);
      return;
    }
    if (::flock(lock_fd, LOCK_EX | LOCK_NB) != 0) return;  // another flusher took over
  }
}

// This process image's peak RSS (VmHWM), in KiB; -1 if unknown. Not getrusage: its ru_maxrss
// includes the pre-exec image of whoever spawned us.
int64_t peak_rss_kib() {
  int fd = ::open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[4096];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  const char* at = std::strstr(buf, "VmHWM:");
  return at ? std::strtoll(at + 6, nullptr, 10) : -1;
}

// One round of flush_queue: the batches of one snapshot of the queue, sent in order while the
// deadline allows. What was answered for is collected in `done` and `delta`, for the caller's
// SpanQueue::remove.
class Round {
 public:
  Round(const TelemetryOptions& options, const SendFn& send, const Deadline& deadline,
        const http::Headers& headers, SpanQueue& queue, QueueSnapshot& snap, FlushReport& rep)
      : options_(options), send_(send), deadline_(deadline), headers_(headers), queue_(queue),
        snap_(snap), rep_(rep), done(snap.over_cap), committed(snap.head) {
    delta.dropped_cap = static_cast<int64_t>(snap.over_cap.size() + snap.prefix_lines);
    rep.dropped_cap += snap.over_cap.size() + snap.prefix_lines;
  }

  // Sends the batches until all are answered for, or the round stops (no answer, the deadline).
  void send_batches() {
    while (i_ < snap_.refs.size() && !stop) {
      size_t next = i_;
      std::vector<SpanRecord> records = load_batch(next);
      if (records.empty()) {
        i_ = next;
        continue;
      }
      const size_t batch_size = records.size();
      send_batch(export_request(std::move(records)), next, batch_size);
    }
    if (probing_) {
      // No batch after the stuck one could be tried: nothing moved, retry after a back-off.
      stop = true;
      rep_.gave_up = true;
    }
  }

  std::unordered_set<std::string> done;
  QueueCounters delta;
  bool stop = false;
  // Where the spans answered for end (the delivery head, SpanQueue::commit): moved after each
  // batch, so a flusher killed mid-round re-sends at most the batch it was sending. Before,
  // spans left the file once per round of up to kRound: 40 kills re-sent 901 spans 4,123 times.
  uint64_t committed;

 private:
  // One batch from refs[i_] on: up to 512 spans and about max_body bytes of queue lines (a bigger
  // span goes alone; a queue line is at most kMaxQueueLineBytes). Read now (load), freed after.
  // `next` is set past the refs it covers.
  std::vector<SpanRecord> load_batch(size_t& next) {
    std::vector<SpanRecord> records;
    size_t bytes = 0;
    std::string text;
    for (; next < snap_.refs.size() && records.size() < kMaxSpansPerRequest; ++next) {
      const RecordRef& ref = snap_.refs[next];
      if (!records.empty() && bytes + ref.size > options_.max_request_bytes) break;
      SpanRecord rec;
      if (!queue_.load(ref, rec, text)) {
        if (!text.empty())
          snap_.corrupt_lines.emplace(std::move(text));  // not a record after all
        continue;
      }
      records.push_back(std::move(rec));
      bytes += ref.size;
    }
    return records;
  }

  http::Request export_request(std::vector<SpanRecord> records) const {
    http::Request req;
    req.url = options_.exporter.endpoint;
    req.headers = headers_;
    req.body = otlp::encode_request(records);
    // A 2xx is a 2xx whatever follows it: a body over the cap is cut, not a failed export (a
    // 200 with a 1 MiB+ body counted as no answer, and the accepted spans were sent again).
    req.max_response_bytes = 1u << 20;
    req.truncate_body = true;
    return req;  // the records are freed here: the body holds them now
  }

  // Posts refs [i_, next) until the collector answers for them, or the round stops.
  void send_batch(const http::Request& req, size_t next, size_t batch_size) {
    int64_t tries = 0;
    for (int attempt = 0;; ++attempt) {
      if (deadline_.expired()) {
        stop = true;
        rep_.gave_up = true;
        return;
      }
      auto left = std::chrono::milliseconds(deadline_.remaining_ms());
      auto res = send_(req, Deadline::after(std::min(left, options_.request_timeout)));
      rep_.requests += 1;
      int status = res ? res->status : 0;
      otlp::ExportResult r = otlp::classify_response(status, res ? res->header("Retry-After") : "",
                                                     res ? std::string_view(res->body) : "", wall_ms() / 1000);
      rep_.last_status = status;
      delta.last_status = status != 0 ? status : -1;
      // OTLP/HTTP clients do not follow redirects and a 3xx is no verdict on the spans (a proxy
      // or a wrong endpoint): keep the batch, count it for doctor, retry after a back-off.
      const bool redirect = status >= 300 && status < 400;
      if (redirect) {
        r.verdict = otlp::Verdict::kRetry;
        rep_.redirects += 1;
        delta.redirects += 1;
      }
      if (r.verdict == otlp::Verdict::kDelivered || r.verdict == otlp::Verdict::kDrop) {
        answered(r, next, batch_size);
        return;
      }
      // Retryable.
      rep_.retries += 1;
      delta.retries += 1;
      const std::chrono::milliseconds wait = retry_wait_in_pass(attempt, r.retry_after);
      // 429 is about volume and a 3xx about the endpoint: neither says anything of this batch.
      const bool may_be_poison = !redirect && status != 429;
      if (may_be_poison && !probing_) tries = queue_.note_stuck(snap_.refs[i_].offset);
      // No answer at all (collector down or hanging): stop now and leave it to the back-off.
      // A retryable status: wait here if the budget allows, a few times.
      if (status == 0 || redirect || attempt >= 4 || wait.count() >= deadline_.remaining_ms()) {
        if (may_be_poison && !probing_ && tries >= kPoisonTries && next < snap_.refs.size()) {
          probing_ = true;  // try the batch after it once
          poison_from_ = i_;
          poison_to_ = next;
          i_ = next;
          return;
        }
        if (probing_) (void)queue_.note_stuck(0, /*reset=*/true);  // both fail: an outage
        rep_.gave_up = true;
        rep_.retry_after = r.retry_after;
        if (!res) rep_.error = res.error().message;
        stop = true;
        return;
      }
      sleep_for(wait);
    }
  }

  // The collector answered for refs [i_, next) (delivered, or dropped as it said): they are done,
  // a stuck batch before them is poison, and the head moves past them.
  void answered(const otlp::ExportResult& r, size_t next, size_t batch_size) {
    for (size_t k = i_; k < next; ++k)
      done.emplace(snap_.refs[k].span_id, sizeof snap_.refs[k].span_id);
    if (r.verdict == otlp::Verdict::kDelivered) {
      int64_t rejected = std::min<int64_t>(r.rejected_spans, static_cast<int64_t>(batch_size));
      rep_.delivered += batch_size - static_cast<size_t>(rejected);
      rep_.rejected += static_cast<size_t>(rejected);
      delta.delivered += static_cast<int64_t>(batch_size) - rejected;
      delta.rejected += rejected;
    } else {
      rep_.dropped_http += batch_size;
      delta.dropped_http += static_cast<int64_t>(batch_size);
    }
    if (probing_) {
      // The batch after the stuck one went through: the stuck one is poison.
      const std::vector<RecordRef> bad(snap_.refs.begin() + static_cast<std::ptrdiff_t>(poison_from_),
                                       snap_.refs.begin() + static_cast<std::ptrdiff_t>(poison_to_));
      (void)queue_.quarantine(bad);
      for (const RecordRef& b : bad) done.emplace(b.span_id, sizeof b.span_id);
      delta.poisoned += static_cast<int64_t>(bad.size());
      rep_.poisoned += bad.size();
      probing_ = false;
    }
    // Answered for: move the head past the batch (and count it) before the next POST.
    const RecordRef& last = snap_.refs[next - 1];
    const uint64_t end = last.offset + last.size + 1;
    if (first_commit_ && snap_.over_total > snap_.over_cap.size()) {
      // Over-cap lines the snapshot did not name: the head passes them too.
      const size_t more = snap_.over_total - snap_.over_cap.size();
      delta.dropped_cap += static_cast<int64_t>(more);
      rep_.dropped_cap += more;
    }
    if (queue_.commit(end, snap_.inode, delta).ok()) {
      committed = end;
      first_commit_ = false;
      delta = QueueCounters{};
    }
    i_ = next;
  }

  const TelemetryOptions& options_;
  const SendFn& send_;
  const Deadline& deadline_;
  const http::Headers& headers_;
  SpanQueue& queue_;
  QueueSnapshot& snap_;
  FlushReport& rep_;
  size_t i_ = 0;
  bool first_commit_ = true;
  // Poison: the batch at the head failed kPoisonTries times in a row (note_stuck, across passes
  // and flushers); the batch after it is tried once. If the collector takes that one, the stuck
  // batch is poison: moved to the poison file, counted, and the queue goes on. If not, it is an
  // outage: the count starts over and nothing is moved.
  bool probing_ = false;
  size_t poison_from_ = 0, poison_to_ = 0;
};

}  // namespace

FlushReport flush_queue(const TelemetryOptions& options, const SendFn& send, Deadline deadline) {
  FlushReport rep;
  SpanQueue queue(queue_options(options));
  // Per pass over the file: the places of up to 16 requests' worth of spans (24 bytes each); the
  // lines are read and parsed one request at a time, so the flusher's memory is about one
  // request (max_body), not what the file holds.
  constexpr size_t kRound = 16 * kMaxSpansPerRequest;

  http::Headers headers = {{"Content-Type", "application/json"},
                           {"User-Agent", "pinta-gemini/" + std::string(pinta::version())}};
  for (const auto& h : options.exporter.headers) headers.push_back(h);

  // What killed flushers and writers left behind (rewrite temp files, `.part` side files).
  if (size_t parts = queue.sweep_leftovers(); parts > 0) {
    QueueCounters lost;
    lost.corrupt = static_cast<int64_t>(parts);
    rep.corrupt += parts;
    (void)queue.count(lost);
  }

  while (!deadline.expired()) {
    auto snap = queue.snapshot_refs(kRound);
    if (!snap) {
      rep.error = snap.error().message;
      rep.gave_up = true;
      return rep;
    }
    Round round(options, send, deadline, headers, queue, *snap, rep);
    if (snap->refs.empty()) {
      round.delta.corrupt = static_cast<int64_t>(snap->corrupt_lines.size());
      rep.corrupt += snap->corrupt_lines.size();
      if (!round.done.empty() || !snap->corrupt_lines.empty() || snap->skip_bytes > 0) {
        if (Status s = queue.remove(round.done, snap->corrupt_lines, round.delta, snap->skip_bytes);
            !s.ok()) {
          // Nothing left to send, but the answered bytes could not be cut off (a full disk): try
          // again after a back-off (the head keeps them from being sent again meanwhile).
          rep.error = s.error().message;
          rep.gave_up = true;
          return rep;
        }
      }
      if (queue.has_side_files()) {
        // More side files than one fold takes, or new ones: fold again. None folded this time
        // (no room for them in the queue: disk full): work left, for after a back-off.
        if (snap->folded > 0) continue;
        rep.gave_up = true;
      }
      return rep;
    }
    round.send_batches();
    round.delta.corrupt = static_cast<int64_t>(snap->corrupt_lines.size());
    rep.corrupt += snap->corrupt_lines.size();
    Status s = queue.remove(round.done, snap->corrupt_lines, round.delta,
                            std::max(snap->skip_bytes, round.committed));
    if (!s.ok()) {
      rep.error = s.error().message;
      rep.gave_up = true;
      return rep;
    }
    if (round.stop) return rep;
  }
  if (queue.pending()) rep.gave_up = true;
  return rep;
}

bool start_flusher_if_needed(const TelemetryOptions& options, bool just_appended) noexcept {
  try {
    if (!options.enabled()) return false;
    if (!just_appended) {
      QueueOptions qopts;
      qopts.dir = options.data_dir;
      SpanQueue queue(qopts);
      // The queue file only (one lstat): a side file's writer starts a flusher itself (it
      // appended), so events that append nothing do not pay for a directory scan.
      if (!queue.maybe_nonempty()) return false;
    }
    std::string lock_path = fs::join(options.data_dir, kFlusherLockFile);
    int fd = fs::open_private(lock_path, O_RDWR | O_CREAT, 0600);  // no link followed, ours only
    if (fd < 0) return false;
    // A live flusher (delivering, in back-off, or idle) holds the lock and will see our span:
    // the steady state costs this open + flock, no process.
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd);
      return false;
    }
    // The grandchild keeps the lock (same open file description) and delivers; this process
    // waits only for the intermediate child, which never waits for the flusher to be scheduled
    // (under load that wait was the slowest step of the event that starts one).
    const bool started = run_detached(fd, [&options](int lock_fd) { flusher_main(options, lock_fd); });
    ::close(fd);
    return started;
  } catch (...) {
    return false;
  }
}

int run_flush_command() {
  AdapterConfig config = config_from_environment();
  TelemetryOptions options = telemetry_options_from_environment(config);
  json out;
  if (!options.enabled()) {
    out = {{"ok", true}, {"enabled", false}};
    std::string s = out.dump() + "\n";
    (void)!::write(STDOUT_FILENO, s.data(), s.size());
    return 0;
  }
  // A background flusher may hold the lock for its idle window or through an outage: wait at
  // most 30 s (or the budget) for it, then say so.
  auto lock = fs::FileLock::acquire(
      fs::join(options.data_dir, kFlusherLockFile),
      static_cast<int>(std::min<int64_t>(options.flush_budget.count(), 30000)));
  if (!lock) {
    std::string s = json{{"ok", false}, {"error", lock.error().message}}.dump() + "\n";
    (void)!::write(STDOUT_FILENO, s.data(), s.size());
    return 1;
  }
  SendFn send = [](const http::Request& r, Deadline d) { return http::send(r, d); };
  FlushReport rep = flush_queue(options, send, Deadline::after(options.flush_budget));
  out = {{"ok", !rep.gave_up},
         {"enabled", true},
         {"requests", rep.requests},
         {"delivered", rep.delivered},
         {"rejected", rep.rejected},
         {"dropped_http", rep.dropped_http},
         {"dropped_cap", rep.dropped_cap},
         {"corrupt", rep.corrupt},
         {"retries", rep.retries},
         {"redirects", rep.redirects},
         {"poisoned", rep.poisoned},
         {"peak_rss_kib", peak_rss_kib()}};
  std::string s = out.dump() + "\n";
  (void)!::write(STDOUT_FILENO, s.data(), s.size());
  return rep.gave_up ? 1 : 0;
}

}  // namespace pinta::adapter
