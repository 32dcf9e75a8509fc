#include "pinta/adapter/telemetry.h"

#include <algorithm>
#include <cstdlib>

#include "pinta/adapter/config.h"
#include "pinta/adapter/otlp.h"
#include "pinta/adapter/trace_store.h"

namespace pinta::adapter {
namespace {

// SpanInput gets a span_id from the handler once the guard is wired (the guard request carries
// the same id); until then, and whenever it is empty, the sink makes one.
template <typename T>
std::string span_id_of(const T& input) {
  if constexpr (requires { input.span_id; }) {
    std::string id = input.span_id;
    bool ok = id.size() == 16 && id.find_first_not_of("0123456789abcdef") == std::string::npos &&
              id != "0000000000000000";
    if (ok) return id;
  }
  return new_span_id();
}

std::string session_key(const CanonicalEvent& ev) {
  if (ev.session_id.empty()) return {};
  // One map for both families: a Gemini session and an Antigravity conversation never collide.
  return std::string(family_prefix(ev.family)) + ":" + ev.session_id;
}

}  // namespace

TelemetryOptions telemetry_options_from_environment(const AdapterConfig& config) {
  TelemetryOptions o;
  o.exporter = otlp::export_config_from_environment();
  o.data_dir = config.data_dir;
  o.max_queue_spans = static_cast<size_t>(env_int("PINTA_QUEUE_MAX_SPANS", 1000, 1, 1000000));
  // The byte cap is there for big spans: by default it holds max_queue_spans spans of
  // kQueueBytesPerSpan (at least 16 MiB), so raising the span cap keeps that many typical spans
  // (about 2 KB each) instead of silently dropping them at a fixed 16 MiB.
  const int64_t bytes_for_spans = std::min<int64_t>(
      static_cast<int64_t>(o.max_queue_spans) * static_cast<int64_t>(kQueueBytesPerSpan),
      kMaxQueueBytes);
  o.max_queue_bytes = static_cast<uint64_t>(
      env_int("PINTA_QUEUE_MAX_BYTES", std::max<int64_t>(16L << 20, bytes_for_spans),
              static_cast<int64_t>(kMaxQueueLineBytes), kMaxQueueBytes));
  o.append_lock_ms = static_cast<int>(env_int("PINTA_QUEUE_LOCK_MS", o.append_lock_ms, 1, 10000));
  o.max_request_bytes =
      static_cast<size_t>(env_int("PINTA_OTLP_MAX_REQUEST_BYTES", 512L << 10, 4096, 64L << 20));
  o.request_timeout = std::chrono::milliseconds(env_int("PINTA_OTLP_TIMEOUT_MS", 5000, 1, 60000));
  o.flush_budget =
      std::chrono::milliseconds(env_int("PINTA_OTLP_FLUSH_MAX_MS", 360000, 1, 3600000));
  o.backoff_max = std::chrono::milliseconds(env_int("PINTA_OTLP_BACKOFF_MAX_MS", 8000, 0, 3600000));
  o.backoff_initial =
      std::chrono::milliseconds(env_int("PINTA_OTLP_BACKOFF_INITIAL_MS", 500, 1, 3600000));
  if (o.backoff_initial > o.backoff_max) o.backoff_initial = o.backoff_max;
  o.idle_window = std::chrono::milliseconds(env_int("PINTA_FLUSHER_IDLE_MS", 5000, 0, 600000));
  o.idle_poll = std::chrono::milliseconds(env_int("PINTA_FLUSHER_POLL_MS", 20, 1, 1000));
  o.max_life =
      std::chrono::milliseconds(env_int("PINTA_FLUSHER_MAX_LIFE_MS", 600000, 1000, 86400000));
  return o;
}

QueueOptions queue_options(const TelemetryOptions& o) {
  QueueOptions q;
  q.dir = o.data_dir;
  q.max_spans = o.max_queue_spans;
  q.max_bytes = o.max_queue_bytes;
  q.lock_timeout_ms = o.append_lock_ms;
  return q;
}

void QueueSpanSink::submit(const SpanInput& input) {
  if (!deferred_) return write(input);
  if (input.event == nullptr) return;
  try {
    pending_.emplace(Pending{std::nullopt, input});
    if (input.guard != nullptr) pending_->guard = *input.guard;
  } catch (...) {
    pending_.reset();
    error_ = "telemetry: internal error";
  }
}

void QueueSpanSink::commit() {
  if (!pending_) return;
  Pending p = std::move(*pending_);
  pending_.reset();
  p.span.guard = p.guard ? &*p.guard : nullptr;
  write(p.span);
}

void QueueSpanSink::write(const SpanInput& input) {
  queued_ = false;
  try {
    if (input.event == nullptr || !options_.enabled()) return;
    const CanonicalEvent& ev = *input.event;
    const int64_t now_ms = input.start_unix_nanos / 1000000;
    std::string trace_error;
    otlp::SpanIds ids;
    if (auto parent = host_parent(ev, [](const char* name) { return std::getenv(name); })) {
      // The host's trace (docs/contract.md TRACE-4): our span is a child of the host's span, and
      // the session's stored trace is left alone.
      ids = {std::move(parent->trace_id), span_id_of(input), std::move(parent->span_id)};
    } else {
      TraceOptions topts;
      topts.dir = options_.data_dir;
      TraceLookup trace = trace_for(topts, session_key(ev), starts_new_trace(ev), now_ms, &trace_error);
      ids = {std::move(trace.trace_id), span_id_of(input), {}};
    }
    span_id_ = ids.span_id;
    const std::string line =
        otlp::queue_line(ids.span_id, otlp::resource_attributes(otlp::local_resource(ev.family)),
                         otlp::encode_span(input, ids));
    SpanQueue queue(queue_options(options_));
    Status s = queue.append(line);
    queued_ = s.ok();
    error_ = s.ok() ? trace_error : s.error().message;
  } catch (...) {
    error_ = "telemetry: internal error";
  }
}

}  // namespace pinta::adapter
