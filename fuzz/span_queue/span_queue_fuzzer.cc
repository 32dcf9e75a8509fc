// Harness: span queue line reader (pinta/adapter/span_queue.h SpanQueue::snapshot/remove and
// queue_line_span_id). The queue file is written by many adapter processes and can hold torn
// lines, foreign bytes or a crash's leftovers (header comment of span_queue.h).
// Properties, for any queue file bytes (and any cap):
//  1. total: snapshot never throws or crashes; it succeeds on any bytes;
//  2. within the cap: at most min(max_records, max_spans) records, every record a JSON object
//     whose spanId is 16 lowercase hex;
//  3. the cheap reader agrees: queue_line_span_id of every line either is "" or 16 lowercase hex;
//  4. cleaning holds: after remove(every returned id + over-cap ids, corrupt lines), a second
//     snapshot returns none of the removed corrupt lines and none of the removed ids (a line
//     only the full parse rejects is found once it is among the records read, so the second
//     pass may report one the first did not reach);
//  5. the flusher's lazy reader agrees: snapshot_refs names the same lines, in order, and load()
//     of each gives the record snapshot parsed (or, for a line only the full parse rejects,
//     false and exactly the bytes snapshot reported as corrupt);
//  6. the flusher's text reader agrees with the parse: load() into a SpanRecord succeeds exactly
//     when load() into a document does, with the same bytes, and its two texts are JSON whose
//     values are the record's resource and span.
// Input layout: cap byte, then the queue file bytes.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unordered_set>

#include "fuzz_support.h"
#include "pinta/adapter/span_queue.h"

namespace {

namespace ad = pinta::adapter;
namespace sfs = std::filesystem;

const std::string& root() { return pinta::fuzz::process_temp_dir("pinta-fuzz-span-queue"); }

bool hex16(std::string_view s) {
  if (s.size() != 16) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pinta::fuzz::Bytes in(data, size);
  const size_t cap = 1 + in.byte() % 16;
  const std::string bytes = in.rest();
  ad::QueueOptions o;
  o.dir = root();
  o.max_spans = cap;
  ad::SpanQueue q(o);
  std::error_code ec;
  sfs::remove(q.state_path(), ec);
  std::ofstream(q.queue_path(), std::ios::binary | std::ios::trunc) << bytes;

  size_t start = 0;
  while (start <= bytes.size()) {
    size_t end = bytes.find('\n', start);
    if (end == std::string::npos) end = bytes.size();
    const std::string_view id =
        ad::queue_line_span_id(std::string_view(bytes).substr(start, end - start));
    FUZZ_CHECK(id.empty() || hex16(id), "queue_line_span_id gave " + std::string(id));
    start = end + 1;
  }

  const size_t max_records = 8;
  auto snap = q.snapshot(max_records);
  FUZZ_CHECK(snap.has_value(), "snapshot failed: " + snap.error().message);
  FUZZ_CHECK(snap->records.size() <= std::min(max_records, cap),
             std::to_string(snap->records.size()) + " records over cap " + std::to_string(cap));
  auto refs = q.snapshot_refs(max_records);
  FUZZ_CHECK(refs.has_value(), "snapshot_refs failed: " + refs.error().message);
  FUZZ_CHECK(refs->over_cap == snap->over_cap, "snapshot_refs disagrees on over-cap ids");
  size_t next = 0;
  for (const auto& ref : refs->refs) {
    nlohmann::json rec;
    std::string text;
    const bool loaded = q.load(ref, rec, text);
    ad::SpanRecord parts;
    std::string parts_text;
    FUZZ_CHECK(q.load(ref, parts, parts_text) == loaded && parts_text == text,
               "the text reader and the parse disagree on a line");
    if (loaded) {
      FUZZ_CHECK(nlohmann::json::parse(parts.resource, nullptr, false) == rec["resource"] &&
                     nlohmann::json::parse(parts.span, nullptr, false) == rec["span"],
                 "the text reader's parts are not the record's resource and span");
      FUZZ_CHECK(next < snap->records.size() && rec == snap->records[next],
                 "load() gave a record snapshot() did not, or out of order");
      ++next;
    } else {
      FUZZ_CHECK(snap->corrupt_lines.count(text) == 1, "load() rejected a line snapshot() did not");
    }
  }
  FUZZ_CHECK(next == snap->records.size() || refs->refs.size() == max_records,
             "snapshot_refs missed records");
  std::unordered_set<std::string> ids = snap->over_cap;
  for (const auto& r : snap->records) {
    FUZZ_CHECK(r.is_object() && r.contains("spanId") && r["spanId"].is_string() &&
                   hex16(r["spanId"].get<std::string>()),
               "record without a valid spanId");
    ids.insert(r["spanId"].get<std::string>());
  }
  auto st = q.remove(ids, snap->corrupt_lines, ad::QueueCounters{});
  FUZZ_CHECK(st.ok(), "remove failed: " + st.error().message);
  auto again = q.snapshot(max_records);
  FUZZ_CHECK(again.has_value(), "second snapshot failed");
  // A line that only the full parse rejects is found when it is within the records read (the
  // oldest max_records), so a later pass may report one the first did not reach; what was
  // reported and removed must not come back.
  for (const auto& c : again->corrupt_lines)
    FUZZ_CHECK(snap->corrupt_lines.count(c) == 0, "a corrupt line survived remove()");
  for (const auto& r : again->records)
    FUZZ_CHECK(ids.count(r["spanId"].get<std::string>()) == 0, "a removed id came back");
  return 0;
}
