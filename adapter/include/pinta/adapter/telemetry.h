// File: pinta/adapter/telemetry.h
// Telemetry off the critical path (seed SPEC §9, §10, §13). The adapter process only
// encodes the span (redacted), finds its trace (trace_store.h) and appends it to the on-disk queue
// (span_queue.h). Delivery is the flusher's job: a detached process (double fork + setsid, stdio
// on /dev/null, every inherited fd closed) started after the reply, only when no flusher is alive
// (exclusive flock on `flusher.lock`, held for the flusher's whole life). The host's wait
// therefore ends when the adapter exits: no child holds its pipes.
//
// Delivery: the flusher stays. Through an outage it retries with a jittered back-off until the
// queue is empty or PINTA_OTLP_FLUSH_MAX_MS passes without progress; with an empty queue it stays
// an idle window and serves what later events append, so the steady state starts no process per
// event. An adapter that appends while a flusher holds the lock leaves its span to it; the
// flusher looks at the queue once more after letting go of the lock, so none is stranded.
// docs/contract.md OTLP-5a/5b state the delivery bound.
//
// Delivery is at least once: a span leaves the queue only after a collector answered for it, so a
// flusher killed mid-POST means the span is sent again later. The spanId is the dedupe key.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "pinta/adapter/config.h"
#include "pinta/adapter/http.h"
#include "pinta/adapter/otlp.h"
#include "pinta/adapter/seams.h"
#include "pinta/adapter/span_queue.h"
#include "pinta/common/deadline.h"

namespace pinta::adapter {

inline constexpr std::string_view kFlusherLockFile = "flusher.lock";
inline constexpr size_t kMaxSpansPerRequest = 512;
// The default byte cap allows this much per span of the span cap: a typical queue line is ~2 KB
// (docs/benchmarks-history.md, "Telemetry regressions"), a tool result can make it tens of KB.
inline constexpr uint64_t kQueueBytesPerSpan = 16u << 10;
inline constexpr int64_t kMaxQueueBytes = int64_t{1} << 30;

struct TelemetryOptions {
  otlp::ExportConfig exporter;
  std::string data_dir;
  size_t max_queue_spans = 1000;                    // PINTA_QUEUE_MAX_SPANS (1..1000000)
  // PINTA_QUEUE_MAX_BYTES (2 MiB..1 GiB); default max(16 MiB, max_queue_spans x
  // kQueueBytesPerSpan), up to kMaxQueueBytes.
  uint64_t max_queue_bytes = 16u << 20;
  int append_lock_ms = 5;  // PINTA_QUEUE_LOCK_MS: an append's lock wait (then a side file)
  // PINTA_OTLP_MAX_REQUEST_BYTES: one POST's span bytes (a single bigger span goes alone; a
  // queue line is at most kMaxQueueLineBytes).
  size_t max_request_bytes = 512u << 10;
  std::chrono::milliseconds request_timeout{5000};  // PINTA_OTLP_TIMEOUT_MS: one POST, all in
  // PINTA_OTLP_FLUSH_MAX_MS: how long a flusher keeps retrying without progress (the collector
  // down) before it gives the spans to the next event; also `--pinta-flush`'s whole budget.
  std::chrono::milliseconds flush_budget{360000};
  // PINTA_OTLP_BACKOFF_MAX_MS: cap of the wait between retries (jittered: half to all of it);
  // 0 = a flusher does not stay after a failure (the next event retries).
  std::chrono::milliseconds backoff_max{8000};
  std::chrono::milliseconds backoff_initial{500};  // PINTA_OTLP_BACKOFF_INITIAL_MS
  // PINTA_FLUSHER_IDLE_MS: how long a flusher with an empty queue stays, watching for spans
  // later events append (they then start no process of their own); 0 = leave at once.
  std::chrono::milliseconds idle_window{5000};
  std::chrono::milliseconds idle_poll{20};  // PINTA_FLUSHER_POLL_MS: queue-size check
  // PINTA_FLUSHER_MAX_LIFE_MS: a flusher that keeps finding work hands over to a fresh one after
  // this long (picks up a changed environment, bounds any leak).
  std::chrono::milliseconds max_life{600000};
  bool enabled() const { return exporter.enabled && !data_dir.empty(); }
};

// From the (env-file-merged) environment and the adapter's data dir.
TelemetryOptions telemetry_options_from_environment(const AdapterConfig& config);
// The queue settings these options imply.
QueueOptions queue_options(const TelemetryOptions& o);

// The SpanSink the adapter installs when telemetry is enabled: encode, correlate, enqueue.
class QueueSpanSink final : public SpanSink {
 public:
  // deferred: submit() only keeps the span (its event by pointer: the caller keeps the event
  // alive until commit(), as main does through Outcome::event) and commit() writes it (trace
  // store and queue), so the adapter prints its reply before touching the disk (contract OUT-2).
  explicit QueueSpanSink(TelemetryOptions options, bool deferred = false)
      : options_(std::move(options)), deferred_(deferred) {}
  void submit(const SpanInput& span) override;
  void commit();  // writes a deferred span, if any; no-op otherwise
  bool queued() const { return queued_; }
  const std::string& last_error() const { return error_; }
  const std::string& last_span_id() const { return span_id_; }

 private:
  void write(const SpanInput& span);
  TelemetryOptions options_;
  bool deferred_ = false;
  struct Pending {
    std::optional<GuardVerdict> guard;  // copied: the handler's verdict is a local
    SpanInput span;
  };
  std::optional<Pending> pending_;
  bool queued_ = false;
  std::string error_;
  std::string span_id_;
};

using SendFn = std::function<Result<http::Response>(const http::Request&, Deadline)>;

struct FlushReport {
  size_t requests = 0;
  size_t delivered = 0;
  size_t rejected = 0;
  size_t dropped_http = 0;
  size_t dropped_cap = 0;
  size_t corrupt = 0;
  size_t retries = 0;
  bool gave_up = false;  // stopped with spans left (collector down / retry later)
  std::chrono::milliseconds retry_after{-1};  // how long the collector asked us to wait
  int last_status = 0;                        // the last HTTP status seen (0: no answer)
  size_t redirects = 0;  // 3xx answers: the batch stays queued (OTLP/HTTP does not redirect)
  size_t poisoned = 0;   // spans of poison batches moved to the poison file (span_queue.h)
  std::string error;
};

// Delivers the queue until it is empty, the collector says "later", or `deadline` passes.
// Batches of at most kMaxSpansPerRequest spans. Retryable answers are retried within the
// deadline after retry_wait_in_pass (a Retry-After lengthens it, never shortens it); no answer at
// all (refused, timeout) stops at once. Each answered batch moves the queue's delivery head
// (SpanQueue::commit), so a kill re-sends at most the batch in flight. Starts with
// SpanQueue::sweep_leftovers.
FlushReport flush_queue(const TelemetryOptions& options, const SendFn& send, Deadline deadline);

// After the reply: start a detached flusher unless one is alive (it holds flusher.lock: it will
// send our span) or the queue is empty. Returns whether one was started. Never throws, never
// blocks on the network; costs an open() and a non-blocking flock() while a flusher is alive.
// `just_appended`: the caller has just queued a span, so the queue is known to be non-empty.
bool start_flusher_if_needed(const TelemetryOptions& options, bool just_appended = false) noexcept;

// The flusher's wait after `failures` (1-based) consecutive failed passes: PINTA_OTLP_BACKOFF_*
// doubling with equal jitter (`random` picks in [half, all]); never under kMinBackoffMs (or the
// max back-off when smaller), whatever Retry-After says; a Retry-After lengthens it up to the max
// back-off, never shortens it.
inline constexpr int64_t kMinBackoffMs = 100;
std::chrono::milliseconds backoff_wait(const TelemetryOptions& o, int64_t failures,
                                       std::chrono::milliseconds retry_after, uint32_t random);
// Within one pass, the wait before retrying a batch after retryable answer number `attempt + 1`:
// kInPassRetryMs doubling per attempt, lengthened (never shortened) by a Retry-After.
inline constexpr int64_t kInPassRetryMs = 250;
std::chrono::milliseconds retry_wait_in_pass(int attempt, std::chrono::milliseconds retry_after);

// `pinta-gemini --pinta-flush`: flush in the foreground (waits for a running flusher's lock up to
// the flush budget). Prints one JSON summary line; exit 0 when nothing is left.
int run_flush_command();

}  // namespace pinta::adapter
