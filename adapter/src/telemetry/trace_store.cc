#include "pinta/adapter/trace_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "pinta/common/fs.h"

namespace pinta::adapter {
namespace {

using nlohmann::json;

void random_bytes(unsigned char* out, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = ::getrandom(out + got, n - got, 0);
    if (r < 0) {
      if (errno == EINTR) continue;
      break;
    }
    got += static_cast<size_t>(r);
  }
  if (got < n) {
    // No getrandom (old kernel, seccomp): time and pid mixed by a splitmix64 step.
    uint64_t x = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                 (static_cast<uint64_t>(::getpid()) << 32);
    for (size_t i = got; i < n; ++i) {
      x += 0x9E3779B97F4A7C15ULL;
      uint64_t z = x;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      out[i] = static_cast<unsigned char>(z ^ (z >> 31));
    }
  }
}

std::string hex(const unsigned char* p, size_t n) {
  static const char* kDigits = "0123456789abcdef";
  std::string s(n * 2, '0');
  for (size_t i = 0; i < n; ++i) {
    s[2 * i] = kDigits[p[i] >> 4];
    s[2 * i + 1] = kDigits[p[i] & 15];
  }
  return s;
}

// An exclusive flock held on an open lock file; released (and the file closed) when it goes.
struct HeldLock {
  int fd = -1;
  HeldLock() = default;
  HeldLock(const HeldLock&) = delete;
  HeldLock& operator=(const HeldLock&) = delete;
  ~HeldLock() {
    if (fd >= 0) ::close(fd);  // closing the only descriptor releases the flock
  }
};

bool valid_hex_id(const std::string& s, size_t len) {
  if (s.size() != len) return false;
  bool nonzero = false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    nonzero |= c != '0';
  }
  return nonzero;
}

struct Entry {
  std::string key;
  std::string trace_id;
  int64_t created = 0;
  int64_t updated = 0;
};

// One entry per line: `"<key>":{"traceId":"…","created":ms,"updated":ms}`.
std::string serialize(const std::vector<Entry>& entries) {
  std::string out = "{\n";
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    out += json(e.key).dump(-1, ' ', false, json::error_handler_t::replace);
    out += ":";
    out += json{{"traceId", e.trace_id}, {"created", e.created}, {"updated", e.updated}}.dump();
    out += i + 1 < entries.size() ? ",\n" : "\n";
  }
  out += "}\n";
  return out;
}

bool entry_from(const std::string& key, const json& v, Entry& out) {
  if (!v.is_object()) return false;
  auto t = v.find("traceId");
  if (t == v.end() || !t->is_string() || !valid_hex_id(t->get<std::string>(), 32)) return false;
  out.key = key;
  out.trace_id = t->get<std::string>();
  out.created = v.value("created", int64_t{0});
  out.updated = v.value("updated", out.created);
  return true;
}

// The value exactly as serialize() writes it, `{"created":N,"traceId":"<32 hex>","updated":N}`,
// read without the JSON parser (every non-BeforeAgent event reads its entry). Anything else —
// a hand-edited or foreign file — returns false and goes through the full parser.
bool parse_own_value(std::string_view v, const std::string& key, Entry& out) {
  auto take = [&v](std::string_view lit) {
    if (v.substr(0, lit.size()) != lit) return false;
    v.remove_prefix(lit.size());
    return true;
  };
  auto number = [&v](int64_t& n) {
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc() || p == v.data() || n < 0) return false;
    v.remove_prefix(static_cast<size_t>(p - v.data()));
    return true;
  };
  Entry e;
  if (!take("{\"created\":") || !number(e.created) || !take(",\"traceId\":\"") || v.size() < 33) return false;
  e.trace_id = std::string(v.substr(0, 32));
  v.remove_prefix(32);
  if (!valid_hex_id(e.trace_id, 32) || !take("\",\"updated\":") || !number(e.updated) || v != "}") return false;
  e.key = key;
  out = std::move(e);
  return true;
}

// Fast path: find the key's line without parsing the whole map.
bool find_line(const std::string& text, const std::string& key, Entry& out) {
  // The key as serialize() writes it; printable ASCII without quote or backslash (every real
  // session id) needs no escaping, so the serializer only runs for the rest.
  const bool plain = std::all_of(key.begin(), key.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
  std::string needle = plain ? "\n\"" + key + "\":"
                             : "\n" + json(key).dump(-1, ' ', false, json::error_handler_t::replace) + ":";
  size_t at = text.find(needle);
  if (at == std::string::npos) return false;
  size_t start = at + needle.size();
  size_t end = text.find('\n', start);
  if (end == std::string::npos) return false;
  std::string_view value(text.data() + start, end - start);
  if (!value.empty() && value.back() == ',') value.remove_suffix(1);
  if (parse_own_value(value, key, out)) return true;
  return entry_from(key, json::parse(value, nullptr, false), out);
}

// temp + rename without fsync (fs::atomic_write with durable = false): losing trace.json in a
// power cut only starts new traces, while an fsync would cost milliseconds on the hot path of
// every BeforeAgent. The temp name is random and created O_EXCL|O_NOFOLLOW (ENV-10).
Status replace_file(const std::string& path, const std::string& data) {
  return fs::atomic_write(path, data, 0600, /*durable=*/false);
}

}  // namespace

bool starts_new_trace(const CanonicalEvent& event) {
  // The event that opens a user turn is the registry's (pinta/hosts/family.h turn_start_event):
  // Gemini BeforeAgent; deel-local-cli 말전 (UserPromptSubmit, once per user turn, seed 004
  // hooks.js l.213-221); Claude Code UserPromptSubmit; Antigravity PreInvocation, and only its
  // first invocation of the turn (invocationNum 0).
  const hosts::PayloadShape& shape = hosts::payload_shape(event.family, event.agent);
  if (event.hook != shape.turn_start_event) return false;
  if (shape.turn_start_counter.empty()) return true;
  if (!event.raw.is_object()) return false;
  auto it = event.raw.find(shape.turn_start_counter);
  return it != event.raw.end() && it->is_number_integer() && it->get<int64_t>() == 0;
}

std::string new_trace_id(int64_t now_unix_ms) {
  unsigned char b[16];
  uint64_t ms = static_cast<uint64_t>(now_unix_ms) & 0xFFFFFFFFFFFFULL;
  for (int i = 0; i < 6; ++i) b[i] = static_cast<unsigned char>(ms >> (8 * (5 - i)));
  random_bytes(b + 6, 10);
  return hex(b, 16);
}


TraceLookup trace_for(const TraceOptions& options, const std::string& session_key, bool force_new,
                      int64_t now_ms, std::string* error) {
  TraceLookup out;
  auto fresh = [&](const std::string& why) {
    if (error && !why.empty()) *error = why;
    out.trace_id = new_trace_id(now_ms);
    out.created = true;
    return out;
  };
  if (session_key.empty() || options.dir.empty()) return fresh("");
  const std::string path = fs::join(options.dir, kTraceFile);

  if (!force_new) {
    // Readers need no lock: the file is only ever replaced whole (rename).
    auto text = fs::read_private_file(path, 16u << 20);
    Entry e;
    if (text && find_line(*text, session_key, e) && now_ms - e.updated <= options.max_age_ms &&
        now_ms - e.updated < options.refresh_ms) {
      out.trace_id = e.trace_id;
      return out;
    }
  }

  if (Status d = fs::make_private_dir(options.dir); !d.ok()) return fresh(d.error().message);
  // The lock, tried without blocking; between tries the file is read again: events of a new
  // session start together (parallel tool calls), and all but the first find the entry the first
  // one wrote while they waited and take it without the lock. Taking the lock in turn cost each
  // of 64 concurrent events a wake-up per holder before it (up to ~100 ms on 2 cores).
  const std::string lock_path = path + ".lock";
  HeldLock lock;
  lock.fd = fs::open_private(lock_path, O_RDWR | O_CREAT, 0600);  // no link followed, ours only
  if (lock.fd < 0) return fresh("cannot open " + lock_path + ": " + std::strerror(errno));
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(options.lock_timeout_ms);
  auto pause = std::chrono::microseconds(100);
  for (;;) {
    if (::flock(lock.fd, LOCK_EX | LOCK_NB) == 0) break;
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK) return fresh("cannot lock " + lock_path + ": " + std::strerror(errno));
    if (!force_new) {
      auto text = fs::read_private_file(path, 16u << 20);
      Entry e;
      // An entry only due for its refresh is taken too: the holder may be refreshing it, and
      // otherwise the next event will.
      if (text && find_line(*text, session_key, e) && now_ms - e.updated <= options.max_age_ms) {
        out.trace_id = e.trace_id;
        return out;
      }
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= until) return fresh("timed out waiting for lock " + lock_path);
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(pause, until - now));
    pause = std::min(pause * 2, std::chrono::microseconds(4000));
  }
  std::vector<Entry> entries;
  if (auto text = fs::read_private_file(path, 16u << 20)) {
    // Checked again under the lock: events of a new session start together, and all but the first
    // find the entry the first one wrote while they waited; they take it without rewriting the
    // file (each rewrite held the lock the others were waiting for).
    Entry e;
    if (!force_new && find_line(*text, session_key, e) && now_ms - e.updated <= options.max_age_ms &&
        now_ms - e.updated < options.refresh_ms) {
      out.trace_id = e.trace_id;
      return out;
    }
    json map = json::parse(*text, nullptr, false);
    if (map.is_object()) {
      for (auto it = map.begin(); it != map.end(); ++it) {
        Entry e;
        if (entry_from(it.key(), it.value(), e)) entries.push_back(std::move(e));
      }
    }
    // A corrupt file is replaced by a valid one below (its entries are lost, never the event).
  }
  // Expire idle entries.
  std::erase_if(entries, [&](const Entry& e) { return now_ms - e.updated > options.max_age_ms; });
  auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.key == session_key; });
  if (it == entries.end() || force_new) {
    Entry e{session_key, new_trace_id(now_ms), now_ms, now_ms};
    if (it != entries.end()) *it = e;
    else entries.push_back(e);
    out.trace_id = e.trace_id;
    out.created = true;
  } else {
    it->updated = std::max(it->updated, now_ms);
    out.trace_id = it->trace_id;
  }
  if (entries.size() > options.max_sessions) {
    // Least recently used first out; the entry just touched is the newest.
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.updated > b.updated; });
    entries.resize(options.max_sessions);
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.created < b.created; });
  }
  Status w = replace_file(path, serialize(entries));
  if (!w.ok()) {
    if (error) *error = w.error().message;
    return out;  // the trace id is still good for this event
  }
  out.stored = true;
  return out;
}

}  // namespace pinta::adapter
