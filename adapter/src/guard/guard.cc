// Guard client (seed SPEC §8). Built only when PINTA_GUARD_ENDPOINT is set; consulted only on gate
// events (handler.cc). Every failure is a kUnavailable verdict: the hot path fails open.
#include "pinta/adapter/guard.h"

#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>
#include <utility>

#include "pinta/adapter/bounded_json.h"
#include "pinta/adapter/guard_keeper.h"
#include "pinta/adapter/handler.h"
#include "pinta/adapter/http.h"
#include "pinta/adapter/input.h"
#include "pinta/common/fs.h"
#include "pinta/common/env.h"

namespace pinta::adapter {
namespace {

const char* env(const char* name) {
  const char* v = pinta::env::get(name);  // NOLINT(concurrency-mt-unsafe): read once, single-threaded
  return v != nullptr ? v : "";
}

// A setting of at most `max_digits` decimal digits and nothing else, or none.
std::optional<uint64_t> decimal(std::string_view v, size_t max_digits) {
  if (v.empty() || v.size() > max_digits) return std::nullopt;
  uint64_t n = 0;
  for (char ch : v) {
    if (ch < '0' || ch > '9') return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(ch - '0');
  }
  return n;
}

bool truthy(std::string_view v) {
  return v == "1" || v == "true" || v == "TRUE" || v == "True" || v == "yes";
}

// Cuts `s` to at most `max` bytes without splitting a UTF-8 sequence.
std::string cap_utf8(std::string s, size_t max) {
  if (s.size() <= max) return s;
  size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  s.resize(cut);
  return s;
}

bool ascii_iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i] >= 'a' && a[i] <= 'z' ? static_cast<char>(a[i] - 32) : a[i];
    if (x != b[i]) return false;
  }
  return true;
}

// The guard budget is the whole wait (DNS to last byte). The kernel lets a timed wait of a normal
// task end up to its timer slack (50 us by default) late; during the guard call the slack is the
// minimum, so a guard that never answers is given up on at the budget, not 50 us after it. The
// previous slack is restored afterwards (children, e.g. the telemetry flusher, inherit it).
class MinimalTimerSlack {
 public:
  MinimalTimerSlack() : old_(::prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0)) {
    if (old_ > 1) (void)::prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  }
  ~MinimalTimerSlack() {
    if (old_ > 1) (void)::prctl(PR_SET_TIMERSLACK, static_cast<unsigned long>(old_), 0, 0, 0);
  }
  MinimalTimerSlack(const MinimalTimerSlack&) = delete;
  MinimalTimerSlack& operator=(const MinimalTimerSlack&) = delete;

 private:
  long old_;
};

// The https guard's TLS session, kept between adapter processes in the data dir
// (<data dir>/guard-tls-session, docs/contract.md GUARD-9) so that the next gate event resumes it
// instead of running a full handshake. Read through fs::open_private (no links followed; only a
// regular file of ours, not writable by others, with one link); a file that fails those checks is
// neither used nor replaced. The session the server issues is written after the reply (the
// destructor runs when main's guard client goes), atomically, 0600, without fsync: losing it
// costs one full handshake. The file is text: a header line, the cache key (http.h
// TlsSessionCache: host, port, SNI, trust settings), the DER session in hex; anything else, or
// another key, is ignored.
class DataDirTlsSessions final : public http::TlsSessionCache {
 public:
  explicit DataDirTlsSessions(std::string dir)
      : dir_(std::move(dir)), path_(dir_.empty() ? std::string() : fs::join(dir_, kFileName)) {}
  ~DataDirTlsSessions() override { flush(); }
  DataDirTlsSessions(const DataDirTlsSessions&) = delete;
  DataDirTlsSessions& operator=(const DataDirTlsSessions&) = delete;

  std::string load(const std::string& key) override {
    if (path_.empty()) return {};
    auto text = fs::read_private_file(path_, kMaxFileBytes);
    if (!text) return {};
    std::string_view t = *text;
    auto header = next_line(t);
    auto stored_key = next_line(t);
    auto hex_line = next_line(t);
    if (!header || !stored_key || !hex_line || *header != kHeader || *stored_key != key ||
        !t.empty() || hex_line->size() % 2 != 0) {
      return {};
    }
    std::string_view hex = *hex_line;
    std::string der;
    der.reserve(hex.size() / 2);
    for (size_t i = 0; i < hex.size(); i += 2) {
      int hi = hex_value(hex[i]), lo = hex_value(hex[i + 1]);
      if (hi < 0 || lo < 0) return {};
      der.push_back(static_cast<char>(hi * 16 + lo));
    }
    return der;
  }

  void save(const std::string& key, std::string der) override {
    pending_ = true;
    key_ = key;
    der_ = std::move(der);
  }

 private:
  static constexpr const char* kFileName = "guard-tls-session";
  static constexpr std::string_view kHeader = "pinta-gemini guard TLS session 1";
  static constexpr size_t kMaxFileBytes = 64u << 10;

  // The next '\n'-terminated line of `t` without its newline; nullopt when there is none.
  static std::optional<std::string_view> next_line(std::string_view& t) {
    size_t nl = t.find('\n');
    if (nl == std::string_view::npos) return std::nullopt;
    std::string_view line = t.substr(0, nl);
    t.remove_prefix(nl + 1);
    return line;
  }

  static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  }

  void flush() noexcept {
    if (!pending_ || path_.empty()) return;
    pending_ = false;
    try {
      struct stat st {};
      if (::lstat(path_.c_str(), &st) == 0) {
        // Someone else's file, a link, a FIFO...: not ours to replace or remove (ENV-10).
        if (S_ISLNK(st.st_mode) || !fs::untrusted_reason(st, fs::TrustKind::kDataFile).empty())
          return;
        if (der_.empty()) {
          (void)::unlink(path_.c_str());
          return;
        }
      } else if (errno != ENOENT || der_.empty()) {
        return;
      }
      if (!fs::make_private_dir(dir_).ok()) return;
      static const char kHex[] = "0123456789abcdef";
      std::string text;
      text.reserve(kHeader.size() + key_.size() + 2 * der_.size() + 3);
      text.append(kHeader).append("\n").append(key_).append("\n");
      for (char c : der_) {
        auto u = static_cast<unsigned char>(c);
        text.push_back(kHex[u >> 4]);
        text.push_back(kHex[u & 0xF]);
      }
      text.push_back('\n');
      (void)fs::atomic_write(path_, text, 0600, /*durable=*/false);
    } catch (...) {
    }
  }

  std::string dir_;
  std::string path_;
  bool pending_ = false;
  std::string key_;
  std::string der_;
};

bool is_https(std::string_view url) {
  return url.size() > 8 && ascii_iequals(url.substr(0, 8), "HTTPS://");
}

class HttpGuardClient final : public GuardClient {
 public:
  explicit HttpGuardClient(GuardConfig config) : config_(std::move(config)) {
    if (is_https(config_.endpoint)) {
      sessions_ = std::make_unique<DataDirTlsSessions>(config_.data_dir);
      if (config_.keeper) keeper_ = keeper_place(config_.data_dir, config_.endpoint);
    }
  }

  // After the reply: an https check that the keeper did not carry starts one (GUARD-13), so the
  // next gate event finds the guard connection open.
  void after_reply() noexcept override {
    if (!asked_directly_ || keeper_.socket_path.empty()) return;
    asked_directly_ = false;
    http::Request warm;
    warm.method = "POST";
    warm.url = config_.endpoint;
    (void)start_keeper_if_needed(keeper_, warm, keeper_options_from_environment());
  }

  GuardVerdict check(const CanonicalEvent& event, const std::string& span_id,
                     Deadline deadline) override {
    GuardVerdict v;
    try {
      GuardRequest full =
          build_guard_request(event, span_id, config_.policy.max_request_bytes, RequestForm::kFull);
      if (full.truncated && config_.policy.deny_unjudgeable) {
        v.decision = GuardVerdict::Decision::kDeny;
        v.reason = std::string(kUnjudgeableReason);
        return v;
      }
      MinimalTimerSlack slack;
      // A request the minimal one would not shrink or plainify (small, ASCII) gets the whole
      // budget; a larger one leaves a quarter of it for the minimal request (GUARD-16).
      const bool second_chance = full.text.size() > kGuardMinimalRequestBytes / 2 ||
                                 std::any_of(full.text.begin(), full.text.end(), [](char c) {
                                   return static_cast<unsigned char>(c) >= 0x80;
                                 });
      Deadline first = deadline;
      if (second_chance && !deadline.is_never()) {
        const auto left = deadline.at() - Deadline::Clock::now();
        if (left > Deadline::Clock::duration::zero()) first = Deadline(deadline.at() - left / 4);
      }
      std::string fault;
      if (exchange(std::move(full.text), first, v, fault)) return v;
      if (!second_chance || fault_is_configuration_ || deadline.expired()) {
        v = GuardVerdict{};
        v.error = std::move(fault);
        return v;
      }
      GuardRequest minimal =
          build_guard_request(event, span_id, config_.policy.max_request_bytes, RequestForm::kMinimal);
      std::string second_fault;
      if (exchange(std::move(minimal.text), deadline, v, second_fault)) {
        v.error = "full request: " + fault + "; the minimal request was answered";
        return v;
      }
      v = GuardVerdict{};
      v.error = "full request: " + fault + "; minimal request: " + second_fault;
      return v;
    } catch (...) {
      v = GuardVerdict{};
      v.error = "internal error";
      return v;
    }
  }

 private:
  // One request and its reading. True with `v` set when the guard gave a verdict; false with
  // `fault` saying why not.
  bool exchange(std::string body, Deadline deadline, GuardVerdict& v, std::string& fault) {
    http::Request req;
    req.method = "POST";
    req.url = config_.endpoint;
    req.headers.emplace_back("Content-Type", "application/json");
    req.headers.emplace_back("Accept", "application/json");
    if (!config_.relay_token.empty())
      req.headers.emplace_back("x-pinta-relay-token", config_.relay_token);
    req.body = std::move(body);
    req.max_response_bytes = kGuardMaxResponseBytes;
    req.tls_sessions = sessions_.get();
    Result<http::Response> resp = make_error(ErrorCode::kUnavailable, "not sent");
    KeeperExchange via_keeper;
    if (!keeper_.socket_path.empty()) via_keeper = send_via_keeper(keeper_, req, deadline);
    if (via_keeper.reached) {
      resp = std::move(via_keeper.response);
    } else {
      resp = http::send(req, deadline);
      // Worth a keeper: a guard that answered, and one that did not answer in time — the kept
      // connection saves the handshake that may be what did not fit the budget, so the next
      // event is judged (GUARD-13: "out of budget"). A refused or unresolvable guard is not.
      asked_directly_ =
          asked_directly_ || static_cast<bool>(resp) || resp.error().code == ErrorCode::kTimeout;
    }
    if (!resp) {
      // A URL or header the client refuses is the deployment's fault: no request can fix it.
      fault_is_configuration_ = resp.error().code == ErrorCode::kInvalidArgument;
      fault = std::string(error_code_name(resp.error().code)) + ": " + resp.error().message;
      return false;
    }
    v = read_guard_reply(resp->status, resp->body);
    if (v.decision != GuardVerdict::Decision::kUnavailable) return true;
    fault = std::move(v.error);
    return false;
  }

  GuardConfig config_;
  std::unique_ptr<DataDirTlsSessions> sessions_;  // https endpoints only
  KeeperPlace keeper_;                            // https with a data dir and the keeper on
  bool asked_directly_ = false;
  bool fault_is_configuration_ = false;
};

}  // namespace

namespace {

// A note for the debug log, after any before it.
void add_note(std::string& notes, const std::string& note) {
  notes += (notes.empty() ? "" : "; ");
  notes += note;
}

// PINTA_GUARD_TIMEOUT_MS: whole milliseconds, clamped to [kMinTimeoutMs, kMaxTimeoutMs].
void read_timeout(std::string_view t, GuardPolicy& p, std::string& note) {
  if (t.empty()) return;
  const std::optional<uint64_t> parsed = decimal(t, 9);
  if (!parsed) {
    add_note(note, "PINTA_GUARD_TIMEOUT_MS is not a number of milliseconds; using " +
                       std::to_string(GuardPolicy::kDefaultTimeoutMs));
    return;
  }
  auto ms = static_cast<int64_t>(*parsed);
  if (ms < GuardPolicy::kMinTimeoutMs) {
    ms = GuardPolicy::kMinTimeoutMs;
    add_note(note, "PINTA_GUARD_TIMEOUT_MS raised to " + std::to_string(ms));
  } else if (ms > GuardPolicy::kMaxTimeoutMs) {
    ms = GuardPolicy::kMaxTimeoutMs;
    add_note(note, "PINTA_GUARD_TIMEOUT_MS lowered to " + std::to_string(ms));
  }
  p.timeout = std::chrono::milliseconds(ms);
}

// PINTA_GUARD_MAX_REQUEST_BYTES: bytes, clamped to [kGuardMinRequestBytes, kGuardMaxRequestBytesCap].
void read_max_request(std::string_view v, GuardPolicy& p, std::string& note) {
  if (v.empty()) return;
  const std::optional<uint64_t> parsed = decimal(v, 12);
  if (!parsed) {
    add_note(note, "PINTA_GUARD_MAX_REQUEST_BYTES is not a number of bytes; using " +
                       std::to_string(kGuardDefaultMaxRequestBytes));
    return;
  }
  p.max_request_bytes = static_cast<size_t>(
      std::clamp<uint64_t>(*parsed, kGuardMinRequestBytes, kGuardMaxRequestBytesCap));
  if (p.max_request_bytes != *parsed)
    add_note(note, "PINTA_GUARD_MAX_REQUEST_BYTES clamped to " + std::to_string(p.max_request_bytes));
}

// The four settings of the gate, each read here and nowhere else.
GuardPolicy guard_policy_from_environment(std::string& note) {
  GuardPolicy p;
  read_timeout(env("PINTA_GUARD_TIMEOUT_MS"), p, note);
  read_max_request(env("PINTA_GUARD_MAX_REQUEST_BYTES"), p, note);
  std::string_view unjudgeable = env("PINTA_GUARD_ON_UNJUDGEABLE");
  if (unjudgeable == "deny") {
    p.deny_unjudgeable = true;
  } else if (!unjudgeable.empty() && unjudgeable != "guard") {
    add_note(note, "PINTA_GUARD_ON_UNJUDGEABLE must be guard or deny; using guard");
  }
  std::string_view review = env("PINTA_GUARD_REVIEW");
  if (review == "ask") {
    p.review = GuardPolicy::Review::kAsk;
  } else if (!review.empty() && review != "allow") {
    add_note(note, "PINTA_GUARD_REVIEW must be allow or ask; using allow");
  }
  return p;
}

}  // namespace

GuardConfig guard_config_from_environment() {
  GuardConfig c;
  const char* endpoint = env("PINTA_GUARD_ENDPOINT");
  if (*endpoint == '\0') return c;  // the common case: nothing more to read
  c.endpoint = endpoint;
  c.enabled = !truthy(env("PINTA_GUARD_DISABLED"));
  c.relay_token = env("PINTA_RELAY_TOKEN");
  c.keeper = keeper_enabled_from_environment();
  c.policy = guard_policy_from_environment(c.note);
  return c;
}

namespace {

// What a value costs in the request, in bytes (GUARD-15). A view's string appears twice: once in
// toolInput and once inside rawTextFields.toolInput, the view's JSON text escaped again; other
// fields appear once. `ascii`: the request is sent with every non-ASCII character escaped.
struct Costs {
  bool ascii = false;
  int copies = 2;

  // One byte of a string's contents.
  size_t byte(unsigned char c) const {
    if (copies == 2) {
      if (c == '"' || c == '\\') return 6;  // \" then \\\"
      if (c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t') return 5;
      if (c < 0x20) return 13;              // \u0001 then \\u0001
      if (c >= 0x80) return ascii ? 7 : 2;  // \u00e9 then \\u00e9: 13 for two bytes
      return 2;
    }
    if (c == '"' || c == '\\') return 2;
    if (c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t') return 2;
    if (c < 0x20) return 6;
    if (c >= 0x80) return ascii ? 3 : 1;
    return 1;
  }
  // A string's two quotes, and one punctuation character ({ } [ ] : ,).
  size_t quotes() const { return copies == 2 ? 6 : 2; }
  size_t punct() const { return static_cast<size_t>(copies); }

  // The cost of s, or of its first bytes until the cost passes `stop` (then a value > stop).
  size_t text(std::string_view s, size_t stop = SIZE_MAX) const {
    size_t c = quotes();
    for (char ch : s) {
      c += byte(static_cast<unsigned char>(ch));
      if (c > stop) return c;
    }
    return c;
  }
  // The exact cost of a small JSON value (a number, a marker object).
  size_t fragment(const nlohmann::json& j) const {
    std::string t = j.dump(-1, ' ', ascii, nlohmann::json::error_handler_t::replace);
    size_t c = t.size();
    if (copies == 2)
      for (char ch : t) c += Costs{true, 1}.byte(static_cast<unsigned char>(ch));
    return c;
  }
};

// A name in a view over this cost keeps its head and its tail.
constexpr size_t kViewMaxKeyCost = 512;

bool utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// s within `budget` (its cost, quotes included): whole when it fits; else its head and its tail
// (what runs last) around "…[truncated N bytes]…", cut at UTF-8 boundaries. `cut` counts a cut.
std::string head_and_tail(std::string_view s, size_t budget, const Costs& costs, bool& cut) {
  if (costs.text(s, budget) <= budget) return std::string(s);
  cut = true;
  // The marker's cost with the most digits N can have.
  const std::string widest = "\xE2\x80\xA6[truncated " + std::to_string(s.size()) + " bytes]\xE2\x80\xA6";
  const size_t fixed = costs.text(widest);
  const size_t room = budget > fixed ? budget - fixed : 0;
  size_t head = 0, spent = 0;
  while (head < s.size() && spent + costs.byte(static_cast<unsigned char>(s[head])) <= room / 2) {
    spent += costs.byte(static_cast<unsigned char>(s[head]));
    ++head;
  }
  while (head > 0 && head < s.size() && utf8_continuation(s[head])) --head;
  spent = 0;
  for (size_t i = 0; i < head; ++i) spent += costs.byte(static_cast<unsigned char>(s[i]));
  size_t tail = s.size();  // the tail is s[tail, size)
  while (tail > head && spent + costs.byte(static_cast<unsigned char>(s[tail - 1])) <= room) {
    spent += costs.byte(static_cast<unsigned char>(s[tail - 1]));
    --tail;
  }
  while (tail < s.size() && utf8_continuation(s[tail])) ++tail;
  std::string out;
  out.reserve(head + (s.size() - tail) + widest.size());
  out.append(s.substr(0, head));
  out.append("\xE2\x80\xA6[truncated ").append(std::to_string(tail - head)).append(" bytes]\xE2\x80\xA6");
  out.append(s.substr(tail));
  return out;
}

// Builds the view of guard_view() (guard.h) within one budget of request bytes.
class ViewBuilder {
 public:
  ViewBuilder(const ViewOptions& options, int copies)
      : costs_{options.ascii, copies}, priority_(options.priority) {
    marker_cost_ = costs_.fragment(nlohmann::json{{kTruncatedKey, size_t{999999999999}}});
    // The least a value can be shown as: a marker, or a string cut to nothing but its marker.
    min_value_ = std::max(marker_cost_,
                          costs_.text("\xE2\x80\xA6[truncated 999999999999 bytes]\xE2\x80\xA6"));
  }

  nlohmann::json build(const nlohmann::json& v, size_t budget) {
    size_t left = budget;
    if (left < min_value_) {
      ++markers_;
      return nlohmann::json{{kTruncatedKey, count(v)}};
    }
    return view(v, 0, left);
  }
  size_t markers() const { return markers_; }

 private:
  static size_t count(const nlohmann::json& v) {
    return v.is_structured() ? v.size() + 1 : 1;
  }
  static void spend(size_t& left, size_t n) { left = n >= left ? 0 : left - n; }

  nlohmann::json marker(size_t n, size_t& left) {
    ++markers_;
    spend(left, marker_cost_);
    return nlohmann::json{{kTruncatedKey, n}};
  }

  nlohmann::json view(const nlohmann::json& v, int depth, size_t& left) {
    using nlohmann::json;
    switch (v.type()) {
      case json::value_t::string: {
        bool cut = false;
        std::string out = head_and_tail(v.get_ref<const std::string&>(), left, costs_, cut);
        if (cut) ++markers_;
        spend(left, costs_.text(out));
        return out;
      }
      case json::value_t::object:
      case json::value_t::array:
        if (depth >= kGuardViewMaxDepth) return marker(count(v), left);
        return container(v, depth, left);
      case json::value_t::binary: return marker(1, left);
      default: {
        const size_t c = costs_.fragment(v);  // numbers, booleans, null
        if (c > left) return marker(1, left);
        spend(left, c);
        return v;
      }
    }
  }

  // An object or array: members in turn, each within its share of what is left, a marker for
  // what did not fit. At the top level the command arguments go first (each up to half of what is
  // left); the others share the rest in key order, at least kMinShare each while it lasts.
  nlohmann::json container(const nlohmann::json& v, int depth, size_t& left) {
    using nlohmann::json;
    const bool object = v.is_object();
    json out = object ? json::object() : json::array();
    spend(left, 2 * costs_.punct());
    const size_t reserve = marker_cost_ + costs_.punct();  // for the closing marker
    std::vector<json::const_iterator> order;
    order.reserve(std::min(v.size(), kGuardViewMaxMembers));
    size_t first_others = 0;
    if (object && depth == 0) {
      for (std::string_view name : priority_) {
        auto it = v.find(std::string(name));
        if (it != v.end()) order.push_back(it);
      }
      first_others = order.size();
    }
    size_t taken = 0;
    size_t remaining = v.size();
    auto it = v.begin();
    for (size_t i = 0;; ++i) {
      json::const_iterator member;
      bool priority = false;
      if (i < first_others) {
        member = order[i];
        priority = true;
      } else {
        while (it != v.end() && first_others != 0 &&
               std::find(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(first_others), it) !=
                   order.begin() + static_cast<std::ptrdiff_t>(first_others)) {
          ++it;
        }
        if (it == v.end()) break;
        member = it++;
      }
      if (taken >= kGuardViewMaxMembers || left < reserve + 2 * costs_.punct() + costs_.quotes()) break;
      const size_t usable = left - reserve;
      // A command argument takes what it needs, leaving the others kMinShare each (at most half);
      // the others share what is left, at least kMinShare each while it lasts.
      size_t share = priority ? usable - std::min((remaining - 1) * kMinShare, usable / 2)
                              : std::max(usable / remaining, kMinShare);
      share = std::min(share, usable);
      size_t sub = share - costs_.punct();  // the comma
      std::string key;
      if (object) {
        bool cut = false;
        const size_t key_room = std::min(kViewMaxKeyCost, sub / 2);
        key = head_and_tail(member.key(), key_room, costs_, cut);
        if (cut) ++markers_;
        const size_t key_cost = costs_.text(key) + costs_.punct();  // the colon
        if (key_cost >= sub) break;
        sub -= key_cost;
      }
      // The value must fit whole, or leave room for what stands for it when cut.
      if (sub < min_value_ && !fits_whole(member.value(), sub)) break;
      const size_t before = sub;
      json value = view(member.value(), depth + 1, sub);
      const size_t used = (share - before) + (before - sub);
      spend(left, used);
      if (object) {
        out[key] = std::move(value);
      } else {
        out.push_back(std::move(value));
      }
      ++taken;
      --remaining;
    }
    if (taken < v.size()) {
      ++markers_;
      spend(left, marker_cost_);
      if (object) {
        out[kTruncatedKey] = v.size() - taken;
      } else {
        out.push_back(json{{kTruncatedKey, v.size() - taken}});
      }
    }
    return out;
  }

  // Whether v, a scalar, is shown whole within `room` (containers may need a marker: no).
  bool fits_whole(const nlohmann::json& v, size_t room) const {
    if (v.is_string()) return costs_.text(v.get_ref<const std::string&>(), room) <= room;
    if (v.is_structured() || v.is_binary()) return false;
    return costs_.fragment(v) <= room;
  }

  static constexpr size_t kMinShare = 128;  // what each argument gets at least while it lasts

  Costs costs_;
  std::span<const std::string_view> priority_;
  size_t marker_cost_ = 0;
  size_t min_value_ = 0;
  size_t markers_ = 0;
};

std::string dump_as(const nlohmann::json& j, bool ascii) {
  return j.dump(-1, ' ', ascii, nlohmann::json::error_handler_t::replace);
}

// A string field outside the view (tool name, session id, cwd, ...), cut to what costs
// kGuardFieldMaxBytes of the request (a quarter of that in the minimal request).
std::string bounded_field(std::string_view s, bool ascii, size_t& markers) {
  bool cut = false;
  std::string out = head_and_tail(s, ascii ? kGuardFieldMaxBytes / 4 : kGuardFieldMaxBytes,
                                  Costs{ascii, 1}, cut);
  if (cut) ++markers;
  return out;
}

}  // namespace

GuardView guard_view(const nlohmann::json& value, const ViewOptions& options) {
  ViewBuilder b(options, 2);
  GuardView out;
  out.value = b.build(value, options.budget);
  out.markers = b.markers();
  return out;
}

namespace {

// The fields outside the views (spanId, toolName, agent, hook, sessionId, cwd, and
// originalRequestName or product): the model's too (the tool name) or the host's, so each is
// bounded; a cut one counts in `markers`.
nlohmann::json request_fields(const CanonicalEvent& event, const std::string& span_id, bool ascii,
                              size_t& markers) {
  // Members set one by one: an initializer list copies each value once more.
  nlohmann::json input = nlohmann::json::object();
  input["spanId"] = span_id;
  input["toolName"] = bounded_field(event.tool_name, ascii, markers);
  input["agent"] = std::string(family_prefix(event.family));
  input["hook"] = bounded_field(event.hook, ascii, markers);
  input["sessionId"] = bounded_field(event.session_id, ascii, markers);
  input["cwd"] = bounded_field(event.cwd, ascii, markers);
  // The family's members passed as sent (its PayloadShape, with their evidence: e.g. an MCP
  // tool's original name), and the product where the family has one. Tool input keys stay as
  // sent.
  const hosts::PayloadShape& shape = hosts::payload_shape(event.family, event.agent);
  if (!shape.original_name.empty() && event.raw.is_object()) {
    auto orig = event.raw.find(shape.original_name);
    if (orig != event.raw.end() && orig->is_string())
      input["originalRequestName"] = bounded_field(orig->get_ref<const std::string&>(), ascii, markers);
  }
  if (!shape.products.empty()) input["product"] = bounded_field(event.product, ascii, markers);
  return input;
}

// The family's context object for the tool call (PayloadShape::context_object, e.g. an MCP
// tool's server context), passed as sent within the same bounds as the tool input. Null when the
// family has none or the event carries none.
const nlohmann::json* mcp_context_of(const CanonicalEvent& event) {
  const std::string_view key = hosts::payload_shape(event.family, event.agent).context_object;
  if (key.empty() || !event.raw.is_object()) return nullptr;
  auto it = event.raw.find(key);
  return it != event.raw.end() && it->is_object() ? &*it : nullptr;
}

// The request from its fields and views: rawTextFields holds each view's JSON text, and a view
// that is not the whole input is said (GUARD-14). `view_markers` counts every cut, fields' too.
GuardRequest assemble_request(nlohmann::json input, nlohmann::json tool_view,
                              const nlohmann::json* mcp_view, size_t view_markers,
                              const CanonicalEvent& event, bool minimal) {
  const bool ascii = minimal;
  nlohmann::json raw_text = nlohmann::json::object();
  if (mcp_view != nullptr) {
    raw_text["mcpContext"] = dump_as(*mcp_view, ascii);
    input["mcpContext"] = *mcp_view;
  }
  raw_text["toolInput"] = dump_as(tool_view, ascii);
  input["toolInput"] = std::move(tool_view);
  input["rawTextFields"] = std::move(raw_text);
  GuardRequest out;
  out.truncated = view_markers != 0 || event.payload_incomplete || event.cut_values != 0;
  if (out.truncated) {
    // GUARD-14: the guard judges a view, and is told so (and what kind of cut it was).
    input["truncated"] = true;
    nlohmann::json truncation = {{"payloadComplete", !event.payload_incomplete},
                                 {"cutByDepth", event.cut_values},
                                 {"viewMarkers", view_markers}};
    if (event.tool_name.empty() && event.payload_incomplete) truncation["toolNameMissing"] = true;
    if (minimal) truncation["minimalRequest"] = true;
    input["truncation"] = std::move(truncation);
  }
  out.body = nlohmann::json{{"input", std::move(input)}};
  out.text = dump_as(out.body, ascii);
  return out;
}

// The cost of a number, boolean or null in the request, both copies, erring high: the widest
// text a double prints as ("-2.2250738585072014e-308") is 24 bytes.
size_t scalar_cost(const nlohmann::json& v, const Costs& costs) {
  using nlohmann::json;
  size_t chars = 25;
  switch (v.type()) {
    case json::value_t::null:
    case json::value_t::boolean: chars = 5; break;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: chars = 20; break;
    default: break;
  }
  return chars * static_cast<size_t>(costs.copies);
}

// Whether `v` is its own view: no container at kGuardViewMaxDepth levels or past
// kGuardViewMaxMembers members, no name the view would cut, nothing but JSON values, and a cost
// within `left` (spent from it, erring high). Stops at the first thing that fails, so the work is
// bounded by `left`, not by the input.
bool shown_whole(const nlohmann::json& v, int depth, const Costs& costs, size_t& left) {
  using nlohmann::json;
  auto spend = [&left](size_t n) {
    if (n > left) return false;
    left -= n;
    return true;
  };
  switch (v.type()) {
    case json::value_t::string: {
      const std::string& s = v.get_ref<const std::string&>();
      // Every byte costs at least one per copy: a string far over the budget is told at once.
      if (s.size() > left / static_cast<size_t>(costs.copies)) return false;
      return spend(costs.text(s, left));
    }
    case json::value_t::object:
    case json::value_t::array: {
      if (depth >= kGuardViewMaxDepth || v.size() > kGuardViewMaxMembers) return false;
      if (!spend(2 * costs.punct())) return false;
      if (v.is_object()) {
        for (auto it = v.begin(); it != v.end(); ++it) {
          const size_t key = costs.text(it.key(), kViewMaxKeyCost);
          if (key > kViewMaxKeyCost || !spend(key + 2 * costs.punct()) ||
              !shown_whole(it.value(), depth + 1, costs, left))
            return false;
        }
      } else {
        for (const json& e : v)
          if (!spend(costs.punct()) || !shown_whole(e, depth + 1, costs, left)) return false;
      }
      return true;
    }
    case json::value_t::binary:
    case json::value_t::discarded: return false;
    default: return spend(scalar_cost(v, costs));
  }
}

// Room for the members around the fields and views, with their widest values: "toolInput":{},
// "rawTextFields":{"toolInput":"{}","mcpContext":"{}"}, "mcpContext":{}, "truncated":true and the
// truncation object, and {"input":…} take 248 bytes, ASCII or not.
constexpr size_t kRequestFrame = 320;

// What the fields cost in the request (their JSON text; every field is a string), and room for
// the members added around the views ("toolInput", "rawTextFields", "mcpContext", "truncated",
// the truncation object, {"input":…}).
size_t fields_cost(const nlohmann::json& input, bool ascii) {
  const Costs once{ascii, 1};
  size_t c = kRequestFrame;
  for (auto it = input.begin(); it != input.end(); ++it)
    c += once.text(it.key()) + once.text(it->get_ref<const std::string&>()) + 2;
  return c;
}

}  // namespace

GuardRequest build_guard_request(const CanonicalEvent& event, const std::string& span_id,
                                 size_t max_bytes, RequestForm form) {
  const bool minimal = form == RequestForm::kMinimal;
  const bool ascii = minimal;
  const size_t bound = minimal ? std::min(max_bytes, kGuardMinimalRequestBytes) : max_bytes;
  const nlohmann::json* mcp_context = mcp_context_of(event);
  const nlohmann::json empty = nlohmann::json::object();
  const nlohmann::json& tool_input = event.tool_input.is_null() ? empty : event.tool_input;
  size_t markers = 0;
  nlohmann::json input = request_fields(event, span_id, ascii, markers);
  {
    // The common case: the tool input (and MCP context) fit whole. They are their own view, sent
    // as they are, after one measured dump (GUARD-15: the text is checked against the bound).
    const size_t fixed = fields_cost(input, ascii);
    size_t left = bound > fixed ? bound - fixed : 0;
    const Costs twice{ascii, 2};
    if (shown_whole(tool_input, 0, twice, left) &&
        (mcp_context == nullptr || shown_whole(*mcp_context, 0, twice, left))) {
      GuardRequest whole =
          assemble_request(std::move(input), tool_input, mcp_context, markers, event, minimal);
      if (whole.text.size() <= bound) return whole;
      markers = 0;  // the fields again, for the bounded views below
      input = request_fields(event, span_id, ascii, markers);
    }
  }
  // The fixed part: the fields above and the frame around them. The views get the rest; the text
  // is measured once built, so this only has to be close.
  const size_t fixed = dump_as(input, ascii).size() + kRequestFrame;
  ViewOptions options;
  options.ascii = ascii;
  options.priority = hosts::payload_shape(event.family, event.agent).command_args;
  size_t view_budget = bound > fixed ? bound - fixed : 0;
  GuardRequest out;
  for (int attempt = 0;; ++attempt) {
    size_t view_markers = markers;
    size_t tool_budget = view_budget;
    std::optional<GuardView> mcp;
    if (mcp_context != nullptr) {
      ViewOptions mcp_options = options;
      mcp_options.priority = {};
      mcp_options.budget = view_budget / 4;
      mcp = guard_view(*mcp_context, mcp_options);
      view_markers += mcp->markers;
      const size_t used = Costs{ascii, 2}.fragment(mcp->value);
      tool_budget = view_budget > used ? view_budget - used : 0;
    }
    options.budget = tool_budget;
    GuardView view = guard_view(tool_input, options);
    view_markers += view.markers;
    out = assemble_request(input, std::move(view.value), mcp ? &mcp->value : nullptr, view_markers,
                           event, minimal);
    // The accounting above is exact or errs high; this is the hard bound all the same.
    if (out.text.size() <= bound || view_budget == 0 || attempt >= 3) break;
    const size_t over = out.text.size() - bound;
    view_budget = view_budget > 2 * over + 256 ? view_budget - 2 * over - 256 : 0;
  }
  if (out.text.size() > bound) {
    // Never reached by the accounting; if it were, the views give way to their markers (the
    // fields around them are bounded far below the smallest bound).
    nlohmann::json& in = out.body["input"];
    in["toolInput"] = nlohmann::json{{kTruncatedKey, tool_input.size() + 1}};
    in["rawTextFields"] = {{"toolInput", dump_as(in["toolInput"], ascii)}};
    if (mcp_context != nullptr) {
      in["mcpContext"] = nlohmann::json{{kTruncatedKey, mcp_context->size() + 1}};
      in["rawTextFields"]["mcpContext"] = dump_as(in["mcpContext"], ascii);
    }
    in["truncated"] = true;
    if (!in.contains("truncation"))
      in["truncation"] = {{"payloadComplete", !event.payload_incomplete},
                          {"cutByDepth", event.cut_values}, {"viewMarkers", 1}};
    out.truncated = true;
    out.text = dump_as(out.body, ascii);
  }
  return out;
}

nlohmann::json guard_request_body(const CanonicalEvent& event, const std::string& span_id) {
  return build_guard_request(event, span_id).body;
}

namespace {

// The body as a JSON value, read leniently where that can only keep a verdict (GUARD-6): repaired
// escapes and UTF-8, bare tokens (NaN, Infinity, 1e400) as strings, and, when something follows
// the first object (a second document, a newline and a log line), that object alone.
nlohmann::json read_reply_json(std::string_view body) {
  nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (!j.is_discarded()) return j;
  std::string text(body);
  // A BOM, whitespace and NULs before the document are not part of it.
  size_t from = 0;
  for (;;) {
    if (text.compare(from, 3, "\xEF\xBB\xBF") == 0) {
      from += 3;
    } else if (from < text.size() && (text[from] == '\0' || text[from] == ' ' || text[from] == '\t' ||
                                      text[from] == '\r' || text[from] == '\n')) {
      ++from;
    } else {
      break;
    }
  }
  text.erase(0, from);
  bool changed = from != 0;
  changed = repair_lone_surrogates(text) || changed;
  changed = repair_utf8(text) || changed;
  if (changed) {
    j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_discarded()) return j;
  }
  if (quote_bare_tokens(text)) {
    j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_discarded()) return j;
  }
  ObjectBoundary boundary(kMaxPayloadDepth);
  if (boundary.feed(text) == ObjectBoundary::State::kComplete) {
    text.resize(boundary.end());
    j = nlohmann::json::parse(text, nullptr, false);
  }
  return j;
}

bool verdict_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0' || c == '\v' || c == '\f';
}

}  // namespace

GuardVerdict parse_guard_response(std::string_view body) {
  GuardVerdict v;
  if (body.size() > kGuardMaxResponseBytes) {
    v.error = "reply over the size cap";
    return v;
  }
  nlohmann::json j = read_reply_json(body);
  if (j.is_discarded() || !j.is_object()) {
    v.error = "reply is not a JSON object";
    return v;
  }
  auto d = j.find("decision");
  if (d == j.end() || !d->is_string()) {
    v.error = "reply has no decision";
    return v;
  }
  std::string_view decision = d->get_ref<const std::string&>();
  while (!decision.empty() && verdict_space(decision.front())) decision.remove_prefix(1);
  while (!decision.empty() && verdict_space(decision.back())) decision.remove_suffix(1);
  GuardVerdict::Decision parsed;
  if (ascii_iequals(decision, "ALLOW")) {
    parsed = GuardVerdict::Decision::kAllow;
  } else if (ascii_iequals(decision, "DENY")) {
    parsed = GuardVerdict::Decision::kDeny;
  } else if (ascii_iequals(decision, "REVIEW")) {
    parsed = GuardVerdict::Decision::kReview;
  } else {
    v.error = "unknown decision";
    return v;
  }
  // Optional strings: null, absent or of another type are "absent" — never a reason to drop the
  // decision (a DENY with an unreadable reason is still a DENY; GUARD-6).
  auto text = [&](const char* key, size_t cap, std::string& out) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return;
    if (!it->is_string()) {
      v.error += std::string(v.error.empty() ? "" : "; ") + key + " is not a string (ignored)";
      return;
    }
    out = cap_utf8(it->get<std::string>(), cap);
  };
  text("reason", kGuardMaxReasonBytes, v.reason);
  text("userMessage", kGuardMaxReasonBytes, v.user_message);
  // matchedRule: a rule id string, or an object naming it ({id} or {name}); anything else ignored.
  auto rule = j.find("matchedRule");
  if (rule != j.end()) {
    if (rule->is_string()) {
      v.matched_rule = cap_utf8(rule->get<std::string>(), kGuardMaxRuleBytes);
    } else if (rule->is_object()) {
      for (const char* k : {"id", "name"}) {
        auto f = rule->find(k);
        if (f != rule->end() && f->is_string()) {
          v.matched_rule = cap_utf8(f->get<std::string>(), kGuardMaxRuleBytes);
          break;
        }
      }
    }
  }
  v.decision = parsed;
  return v;
}

GuardVerdict read_guard_reply(int status, std::string_view body) {
  GuardVerdict v = parse_guard_response(body);
  const bool success = status >= 200 && status <= 299;
  if (success && v.decision != GuardVerdict::Decision::kUnavailable) return v;
  // A 403 (or any status) whose body says DENY or REVIEW is the guard's verdict: a guard that
  // refuses with its reason has decided; reading it as "unavailable" would allow the call.
  if (v.decision == GuardVerdict::Decision::kDeny || v.decision == GuardVerdict::Decision::kReview)
    return v;
  GuardVerdict fault;
  fault.error = "status " + std::to_string(status) +
                (v.decision == GuardVerdict::Decision::kAllow ? " with an ALLOW body"
                 : v.error.empty()                          ? std::string()
                                                            : ": " + v.error);
  return fault;
}

std::unique_ptr<GuardClient> make_http_guard_client(GuardConfig config) {
  return std::make_unique<HttpGuardClient>(std::move(config));
}

}  // namespace pinta::adapter
