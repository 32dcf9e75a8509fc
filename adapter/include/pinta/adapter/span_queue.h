// File: pinta/adapter/span_queue.h
// The on-disk span queue, `failed-spans.jsonl` in the data dir (the Node prototype's retry-queue
// file, seed SPEC §12/§13, DG6). Every span is appended here by the adapter and removed by the
// flusher once a collector took it (or refused it for good), so the host never waits on the
// network. One line per span (otlp::queue_line), written with one write(2).
//
// Concurrency: a flock on `failed-spans.state`, a small JSON file that also holds the counters
// (lines, dropped, corrupt, ...). The queue file itself is replaced by rename when it is
// rewritten, so the lock lives on the separate state file. Appends take it SHARED and never wait
// for each other: one append at a time writes the queue file (a non-blocking exclusive flock on
// the queue file itself, held for one O_APPEND write(2) of one whole line and one byte added to
// `failed-spans.appended`, which the next exclusive holder folds into the counters); an append
// that finds it busy writes to the first free overflow slot instead (kQueueSlotPrefix), and with
// every slot busy to a side file (below). Without that flock, concurrent write(2)s queued on the
// file's inode lock in the kernel, and a writer preempted while holding it stalled all others
// (100-400 ms with 64 adapters on 2 cores). Everything else takes the state lock EXCLUSIVE. Only
// the flusher (one at a time: flusher.lock) reads or rewrites the queue.
//
// Short lock holds: an append holds the lock for a few syscalls (no compaction: the caps are the
// flusher's). The flusher takes it only to learn a size at which no append is half-written, reads
// and builds a rewrite without it (with the whole lines appended meanwhile), and takes it again
// to copy the last lines appended since and rename. An append that cannot get the lock within `lock_timeout_ms` (a few ms: only a flusher's
// hold, or another append fixing a torn tail, can stop it) does not wait longer and does not lose
// the span: it writes it to a side file of its own, `failed-spans.side.<pid>.<random>` (written
// under a `.part` name and renamed, so a side file is always whole), counted as `deferred`. The
// flusher folds side files into the queue under its exclusive lock at the start of each pass
// (snapshot), then deletes them. Only when the side file cannot be written either (disk full) is
// the span lost: counted in `failed-spans.unwritten` (one byte per span, lock-free; the flusher
// copies the count into the state file as `unwritten`).
//
// Caps: at most `max_spans` spans and `max_bytes` bytes; the oldest are dropped first and counted
// (`dropped_cap`). Appends never enforce them: between two flusher passes the file may hold more;
// readers only ever see (and send) the newest max_spans within the newest max_bytes, and never read
// more than that (streaming, 256 KiB at a time): the flusher's memory does not depend on the file.
//
// Delivery head: after each batch a collector answered for, the flusher records in the state file
// how many bytes at the start of the queue file (by inode) are done (commit); readers start there
// and the next rewrite cuts them off. A flusher killed mid-round re-sends at most one batch, and a
// rewrite that cannot be written (a full disk) never makes answered spans go out again.
//
// Torn, corrupt or oversize lines (a crash or a full disk in the middle of a write, foreign bytes,
// a line over kMaxQueueLineBytes) are skipped, counted (`corrupt`) and removed by the next
// rewrite; they never block the rest.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "pinta/common/result.h"

namespace pinta::adapter {

inline constexpr std::string_view kQueueFile = "failed-spans.jsonl";
inline constexpr std::string_view kQueueStateFile = "failed-spans.state";
inline constexpr std::string_view kQueueUnwrittenFile = "failed-spans.unwritten";
// Appends since the flusher last folded them into the state (one byte each; written under the
// shared lock, folded and emptied under the exclusive one).
inline constexpr std::string_view kQueueAppendedFile = "failed-spans.appended";
// Side files of appends that did not get the lock in time (one span each), and the name they
// are written under before the rename that makes them visible.
inline constexpr std::string_view kQueueSidePrefix = "failed-spans.side.";
inline constexpr std::string_view kQueueSidePartSuffix = ".part";
// Overflow slots, `failed-spans.slot.<n>`: an append that finds the queue file busy (another
// append is writing it: the queue's own flock) appends to the first free slot instead (a flock on
// each slot), under the same shared state lock. The flusher moves whole lines from the slots into
// the queue under its exclusive lock at the start of each pass and empties them (truncation: a
// slot is never unlinked, so the data dir's own lock is not taken). Counted `deferred`.
inline constexpr std::string_view kQueueSlotPrefix = "failed-spans.slot.";
inline constexpr int kQueueSlots = 8;
// Side files one snapshot folds in at most (the rest wait for the next pass): bounds the hold.
inline constexpr size_t kMaxSideFilesPerFold = 256;
// A `.part` side file older than this was left by a writer that died: removed, counted corrupt.
// Also the age after which a queue rewrite's temp file (`failed-spans.jsonl.tmp.<pid>.<n>`) of a
// flusher that was killed is removed (at once when its writer is known to be gone). See
// SpanQueue::sweep_leftovers.
inline constexpr int kStaleSidePartSeconds = 60;
inline constexpr std::string_view kQueueTmpInfix = ".tmp.";
// A span that could not be written and whose count could not be written either (a full disk, a
// file-size limit): an empty file `failed-spans.unwritten.<pid>.<n>` (needs no data block),
// folded into failed-spans.unwritten by the flusher once there is room.
inline constexpr std::string_view kQueueUnwrittenMarkPrefix = "failed-spans.unwritten.";
// A poison batch: the batch at the head failed kPoisonTries times in a row while the collector took
// the batch after it. Its lines go here (at most kMaxPoisonFileBytes; beyond that only counted).
inline constexpr std::string_view kQueuePoisonFile = "failed-spans.poison.jsonl";
inline constexpr uint64_t kMaxPoisonFileBytes = 16u << 20;
inline constexpr int64_t kPoisonTries = 8;
// A queue line (one span) longer than this is refused by append and skipped by readers.
inline constexpr size_t kMaxQueueLineBytes = 2u << 20;
// Over-cap spanIds one snapshot reports at most (the rest are dropped by the next pass).
inline constexpr size_t kMaxOverCapPerSnapshot = 4096;

struct QueueOptions {
  std::string dir;            // the data dir
  size_t max_spans = 1000;    // SPEC §13 cap (PINTA_QUEUE_MAX_SPANS)
  // How long an append waits for the lock before it writes its span to a side file instead
  // (counted `deferred`; folded in by the flusher). Appends share the lock, so only a flusher's
  // short exclusive holds make an append wait (docs/benchmarks-history.md "Append lock budget").
  int lock_timeout_ms = 5;
  // Byte cap (PINTA_QUEUE_MAX_BYTES): readers see only the newest max_bytes of the file; at
  // least kMaxQueueLineBytes.
  uint64_t max_bytes = 16u << 20;
};

struct QueueCounters {
  int64_t lines = 0;          // physical lines in the queue file (approximate between rewrites)
  int64_t appended = 0;       // spans ever appended
  int64_t dropped_cap = 0;    // oldest spans dropped because the queue was full
  int64_t corrupt = 0;        // torn / corrupt lines skipped and removed
  int64_t delivered = 0;      // spans a collector accepted
  int64_t rejected = 0;       // spans a collector rejected in a partial success (not retried)
  int64_t dropped_http = 0;   // spans dropped on a non-retryable HTTP status (4xx other than 429)
  int64_t retries = 0;        // export attempts that will be retried
  int64_t redirects = 0;      // 3xx answers (the batch stays queued; a misconfigured endpoint)
  // The last HTTP status a collector answered (-1: no answer at all; 0: none recorded). Not a
  // count: add() overwrites it with a non-zero delta.
  int64_t last_status = 0;
  int64_t unwritten = 0;  // appends that gave up (lock wait, line cap): a value, set by remove
  // Appends that did not get the lock within the budget and went to a side file (not lost: the
  // flusher folds them into the queue, and counts them then, in `appended` too).
  int64_t deferred = 0;
  // Not counts: the delivery head. The first `head` bytes of the queue file whose inode is
  // `head_ino` were answered for (delivered, refused, dropped) and are skipped by readers until
  // the next rewrite cuts them off (then both go back to 0). Written by SpanQueue::commit after
  // each acknowledged batch, so a flusher killed between two batches re-sends at most one batch.
  int64_t head = 0;
  int64_t head_ino = 0;
  // Spans taken out as a poison batch (SpanQueue::quarantine): a count.
  int64_t poisoned = 0;
  // Values: consecutive failed attempts (`stuck_tries`) of the batch that starts at byte
  // `stuck_off` of the head's file (note_stuck); cleared when the head moves or the file changes.
  int64_t stuck_off = 0;
  int64_t stuck_tries = 0;
  nlohmann::json to_json() const;
  static QueueCounters from_json(const nlohmann::json& j);
  void add(const QueueCounters& d);
};

// Where a record's line is in the queue file (snapshot_refs): read and parsed only when sent.
struct RecordRef {
  uint64_t offset = 0;
  uint32_t size = 0;  // without the '\n'
  char span_id[16] = {};
};

// A queue record as the two JSON texts a request is made of: the resource's attributes (an
// array) and the span (an object), valid JSON each (load); otlp::encode_request splices them.
struct SpanRecord {
  std::string resource;
  std::string span;
};

struct QueueSnapshot {
  std::vector<nlohmann::json> records;          // oldest first, at most max_records
  std::vector<RecordRef> refs;                  // instead of records, from snapshot_refs()
  std::unordered_set<std::string> over_cap;      // spanIds beyond the cap (to drop)
  std::unordered_set<std::string> corrupt_lines; // exact bytes of lines that did not parse
  size_t valid_total = 0;                        // valid lines in the region read
  uint64_t skip_bytes = 0;    // bytes before the region read (over the byte cap): to drop
  uint64_t prefix_lines = 0;  // lines in those bytes (counted as dropped_cap when dropped)
  uint64_t head = 0;          // the delivery head the read started from (0: none)
  size_t over_total = 0;      // valid lines beyond the span cap (over_cap holds at most 4096)
  size_t folded = 0;          // side files folded into the queue before it was read
  uint64_t size = 0;          // file size and inode the snapshot read
  uint64_t inode = 0;
};

class SpanQueue {
 public:
  explicit SpanQueue(QueueOptions options);

  // Appends one line (no newline inside; it is added). Creates the data dir (0700) and files
  // (0600) as needed. Fails (kIo, kTimeout, kInvalidArgument) without leaving a partial line
  // behind when it can help it.
  Status append(std::string_view line);

  // Reads the queue: the oldest max_records valid records within the caps, and at most about
  // max_record_bytes of them (at least one). corrupt_lines holds the bytes of each corrupt line
  // (an oversize one: a key naming its place).
  Result<QueueSnapshot> snapshot(size_t max_records, size_t max_record_bytes = SIZE_MAX);
  // The same, with `refs` instead of parsed `records` (quick-valid lines, not parsed): the
  // flusher reads one request's worth at a time (load), so its memory is one batch.
  Result<QueueSnapshot> snapshot_refs(size_t max_records);
  // Reads and fully validates the referenced line. false: `bytes` holds the line (corrupt:
  // report it in remove's corrupt_lines) or is empty (unreadable).
  bool load(const RecordRef& ref, nlohmann::json& record, std::string& bytes) const;
  // The same, the record as its two texts (what the flusher sends): a line in the layout
  // otlp::queue_line writes is validated and cut without building a document; any other valid
  // record is parsed and its parts written out again. Valid in exactly the cases load() is.
  bool load(const RecordRef& ref, SpanRecord& record, std::string& bytes) const;

  // Rewrites the queue without its first `skip_bytes` bytes (a snapshot's skip_bytes) and the
  // lines whose spanId is in `span_ids` or whose bytes (key) are in `corrupt_lines`, and adds
  // `delta` to the counters (lines is recomputed). Lines appended since the snapshot are kept.
  // When no line goes (a pass that delivered nothing) the file is not touched: only the counters
  // are written; otherwise the copy starts at the first line that goes (streaming).
  Status remove(const std::unordered_set<std::string>& span_ids,
                const std::unordered_set<std::string>& corrupt_lines, const QueueCounters& delta,
                uint64_t skip_bytes = 0);

  // After a batch was answered for: under the exclusive lock, adds `delta` to the counters and
  // moves the delivery head to `head` (the end of the batch's last line) of the queue file with
  // inode `inode` (a snapshot's). One in-place write of the state file: no data block is needed,
  // so it works on a full disk. kIo when the queue file is no longer that inode.
  Status commit(uint64_t head, uint64_t inode, const QueueCounters& delta);

  // One more failed attempt of the batch that starts at `offset` (the head): returns how many in
  // a row, across passes and flushers (0 when the state cannot be had). `reset`: forget them.
  int64_t note_stuck(uint64_t offset, bool reset = false);
  // Copies the referenced lines to the poison file (kQueuePoisonFile), up to kMaxPoisonFileBytes;
  // returns how many it kept. The caller takes them out of the queue (commit) and counts them.
  size_t quarantine(const std::vector<RecordRef>& refs) const;

  // Adds to the counters only.
  Status count(const QueueCounters& delta);

  // Removes what killed writers left in the data dir: rewrite temp files of the queue and `.part`
  // side files, once they are older than kStaleSidePartSeconds or their writer (the pid in the
  // name) is gone. Only regular files of our uid with one link and exactly our naming pattern;
  // never a link, a directory or a foreign file. Returns how many `.part` files went (each a span
  // lost with its writer: counted corrupt by the caller).
  size_t sweep_leftovers() const;

  Result<QueueCounters> counters();
  // Whether the queue file has any bytes (no lock; cheap).
  bool maybe_nonempty() const;
  // Whether a side file waits to be folded in (a scan of the data dir; the flusher's checks).
  // Side files or non-empty overflow slots: work to fold in.
  bool has_side_files() const;
  // Work for a flusher: maybe_nonempty() or has_side_files().
  bool pending() const { return maybe_nonempty() || has_side_files(); }
  // Appends that gave up so far (the size of failed-spans.unwritten, plus its marks). Reads only.
  int64_t unwritten() const;

  const std::string& queue_path() const { return queue_path_; }
  const std::string& state_path() const { return state_path_; }

 private:
  // The referenced line's bytes (false, `bytes` empty: unreadable or cut short).
  bool read_line(const RecordRef& ref, std::string& bytes) const;
  void count_unwritten() const;
  // Turns the marks of count_unwritten into bytes of the tally when there is room (flusher).
  void fold_unwritten_marks() const;
  template <typename F>
  void for_each_unwritten_mark(F&& f) const;
  // The span to a side file (the lock was not to be had in time); counts it unwritten if even
  // that fails.
  Status append_side(std::string_view line) const;
  // The span to a free overflow slot (the queue file was busy); false when every slot is busy or
  // the write failed. Called under the shared state lock.
  bool append_slot(std::string_view line) const;
  void count_appended() const;
  void cut_back(off_t start, off_t end) const;
  std::string appended_path() const;
  Result<QueueSnapshot> read(size_t max_records, size_t max_record_bytes, bool refs);
  QueueOptions options_;
  std::string queue_path_;
  std::string state_path_;
};

// The spanId of a queue line without parsing it ("" if the line does not start like one).
std::string_view queue_line_span_id(std::string_view line);

}  // namespace pinta::adapter
