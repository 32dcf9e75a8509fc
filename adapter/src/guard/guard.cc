// Guard client (seed SPEC §8). Built only when PINTA_GUARD_ENDPOINT is set; consulted only on gate
// events (handler.cc). Every failure is a kUnavailable verdict: the hot path fails open.
#include "pinta/adapter/guard.h"

#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <optional>
#include <utility>

#include "pinta/adapter/bounded_json.h"
#include "pinta/adapter/guard_keeper.h"
#include "pinta/adapter/handler.h"
#include "pinta/adapter/http.h"
#include "pinta/common/fs.h"
#include "pinta/common/env.h"

namespace pinta::adapter {
namespace {

const char* env(const char* name) {
  const char* v = pinta::env::get(name);  // NOLINT(concurrency-mt-unsafe): read once, single-threaded
  return v != nullptr ? v : "";
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

// JSON text that cannot throw on invalid UTF-8 (the payload was parsed, so it is valid already;
// replace is belt and braces).
std::string dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
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
      http::Request req;
      req.method = "POST";
      req.url = config_.endpoint;
      req.headers.emplace_back("Content-Type", "application/json");
      req.headers.emplace_back("Accept", "application/json");
      if (!config_.relay_token.empty())
        req.headers.emplace_back("x-pinta-relay-token", config_.relay_token);
      GuardRequest request = build_guard_request(event, span_id);
      if (request.truncated && config_.deny_unjudgeable) {
        v.decision = GuardVerdict::Decision::kDeny;
        v.reason = std::string(kUnjudgeableReason);
        return v;
      }
      req.body = dump(request.body);
      req.max_response_bytes = kGuardMaxResponseBytes;
      req.tls_sessions = sessions_.get();
      MinimalTimerSlack slack;
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
        asked_directly_ = static_cast<bool>(resp) || resp.error().code == ErrorCode::kTimeout;
      }
      if (!resp) {
        v.error = std::string(error_code_name(resp.error().code)) + ": " + resp.error().message;
        return v;
      }
      if (resp->status != 200) {
        v.error = "status " + std::to_string(resp->status);
        return v;
      }
      return parse_guard_response(resp->body);
    } catch (...) {
      v = GuardVerdict{};
      v.error = "internal error";
      return v;
    }
  }

 private:
  GuardConfig config_;
  std::unique_ptr<DataDirTlsSessions> sessions_;  // https endpoints only
  KeeperPlace keeper_;                            // https with a data dir and the keeper on
  bool asked_directly_ = false;
};

}  // namespace

GuardConfig guard_config_from_environment() {
  GuardConfig c;
  const char* endpoint = env("PINTA_GUARD_ENDPOINT");
  if (*endpoint == '\0') return c;  // the common case: nothing more to read
  c.endpoint = endpoint;
  c.enabled = !truthy(env("PINTA_GUARD_DISABLED"));
  c.relay_token = env("PINTA_RELAY_TOKEN");
  c.keeper = keeper_enabled_from_environment();
  std::string_view t = env("PINTA_GUARD_TIMEOUT_MS");
  if (!t.empty()) {
    int64_t ms = 0;
    bool ok = t.size() <= 9;
    for (char ch : t) ok = ok && ch >= '0' && ch <= '9';
    if (ok) {
      for (char ch : t) ms = ms * 10 + (ch - '0');
      if (ms < GuardConfig::kMinTimeoutMs) {
        ms = GuardConfig::kMinTimeoutMs;
        c.note = "PINTA_GUARD_TIMEOUT_MS raised to 1";
      } else if (ms > GuardConfig::kMaxTimeoutMs) {
        ms = GuardConfig::kMaxTimeoutMs;
        c.note = "PINTA_GUARD_TIMEOUT_MS lowered to 10000";
      }
      c.timeout = std::chrono::milliseconds(ms);
    } else {
      c.note = "PINTA_GUARD_TIMEOUT_MS is not a number of milliseconds; using 50";
    }
  }
  std::string_view unjudgeable = env("PINTA_GUARD_ON_UNJUDGEABLE");
  if (unjudgeable == "deny") {
    c.deny_unjudgeable = true;
  } else if (!unjudgeable.empty() && unjudgeable != "guard") {
    c.note += (c.note.empty() ? "" : "; ");
    c.note += "PINTA_GUARD_ON_UNJUDGEABLE must be guard or deny; using guard";
  }
  std::string_view review = env("PINTA_GUARD_REVIEW");
  if (review == "ask") {
    c.review_mode = "ask";
  } else if (!review.empty() && review != "allow") {
    c.note += (c.note.empty() ? "" : "; ");
    c.note += "PINTA_GUARD_REVIEW must be allow or ask; using allow";
  }
  return c;
}

namespace {

// Builds the view of guard_view() (guard.h) within one shared text budget.
class ViewBuilder {
 public:
  nlohmann::json view(const nlohmann::json& v, int depth) {
    using nlohmann::json;
    switch (v.type()) {
      case json::value_t::string: return text(v.get_ref<const std::string&>(), kGuardViewMaxString);
      case json::value_t::object: {
        if (depth >= kGuardViewMaxDepth) return marker(v.size() + 1);
        json out = json::object();
        // The top level keeps every argument name (up to kGuardViewMaxNames), whatever the budget.
        const bool top = depth == 0;
        const size_t max_members = top ? kGuardViewMaxNames : kGuardViewMaxMembers;
        size_t n = 0;
        for (auto it = v.begin(); it != v.end(); ++it, ++n) {
          if (n >= max_members || (!top && left_ == 0)) {
            out[kTruncatedKey] = v.size() - n;
            ++markers_;
            break;
          }
          std::string key = it.key().size() > 1024 ? cut_text(it.key(), 1024) : it.key();
          take(key.size());
          out[key] = view(it.value(), depth + 1);
        }
        return out;
      }
      case json::value_t::array: {
        if (depth >= kGuardViewMaxDepth) return marker(v.size() + 1);
        json out = json::array();
        size_t n = 0;
        for (const auto& e : v) {
          if (n >= kGuardViewMaxMembers || left_ == 0) {
            out.push_back(marker(v.size() - n));
            break;
          }
          take(8);
          out.push_back(view(e, depth + 1));
          ++n;
        }
        return out;
      }
      case json::value_t::binary: return marker(1);
      default:
        take(8);
        return v;  // numbers, booleans, null (discarded cannot occur in a parsed DOM)
    }
  }
  size_t markers() const { return markers_; }

 private:
  nlohmann::json marker(size_t n) {
    ++markers_;
    return nlohmann::json{{kTruncatedKey, n}};
  }
  void take(size_t n) { left_ = n >= left_ ? 0 : left_ - n; }
  // s cut to `keep` bytes at a UTF-8 boundary, with the suffix naming what was left out.
  std::string cut_text(const std::string& s, size_t keep) {
    size_t cut = std::min(keep, s.size());
    while (cut > 0 && cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    ++markers_;
    return s.substr(0, cut) + "\xE2\x80\xA6[truncated " + std::to_string(s.size() - cut) + " bytes]";
  }
  nlohmann::json text(const std::string& s, size_t cap) {
    size_t keep = std::min(cap, left_);
    if (s.size() <= keep) {
      take(s.size());
      return s;
    }
    take(keep);
    return cut_text(s, keep);
  }

  size_t left_ = kGuardViewMaxBytes;
  size_t markers_ = 0;
};

}  // namespace

GuardView guard_view(const nlohmann::json& value) {
  ViewBuilder b;
  GuardView out;
  out.value = b.view(value, 0);
  out.markers = b.markers();
  return out;
}

GuardRequest build_guard_request(const CanonicalEvent& event, const std::string& span_id) {
  GuardRequest out;
  GuardView tool_input =
      guard_view(event.tool_input.is_null() ? nlohmann::json::object() : event.tool_input);
  size_t markers = tool_input.markers;
  // The tool name is the model's too: bounded like any argument (it is never dropped).
  std::string tool_name = event.tool_name;
  if (tool_name.size() > 4096) {
    GuardView name = guard_view(nlohmann::json(tool_name.substr(0, 4096 + 64)));
    tool_name = name.value.get<std::string>();
    ++markers;
  }
  nlohmann::json raw_text = {{"toolInput", dump(tool_input.value)}};
  nlohmann::json input = {
      {"spanId", span_id},       {"toolName", tool_name},
      {"toolInput", std::move(tool_input.value)}, {"agent", std::string(family_prefix(event.family))},
      {"hook", event.hook},      {"sessionId", event.session_id},
      {"cwd", event.cwd},
  };
  if (event.family == Family::kGemini) {
    // Gemini CLI 0.61 BeforeTool: mcp_context {server_name, tool_name, command?, args?, cwd?, url?,
    // tcp?} on MCP tools only (gemini-cli-0.61-hooks.md §7 payload table). Passed as sent, within
    // the same bounds as the tool input.
    if (event.raw.is_object()) {
      auto it = event.raw.find("mcp_context");
      if (it != event.raw.end() && it->is_object()) {
        GuardView mcp = guard_view(*it);
        markers += mcp.markers;
        raw_text["mcpContext"] = dump(mcp.value);
        input["mcpContext"] = std::move(mcp.value);
      }
      auto orig = event.raw.find("original_request_name");
      if (orig != event.raw.end() && orig->is_string()) {
        GuardView name = guard_view(*orig);
        markers += name.markers;
        input["originalRequestName"] = std::move(name.value);
      }
    }
  } else if (event.family == Family::kAntigravity) {
    // Antigravity: toolCall.args keys are PascalCase (CommandLine, TargetFile, AbsolutePath, ...;
    // antigravity-hooks.md "Args keys seen"), kept as sent; MCP tools arrive as
    // mcp_<server>_<tool>.
    input["product"] = event.product;
  }
  input["rawTextFields"] = std::move(raw_text);
  out.truncated = markers != 0 || event.payload_incomplete || event.cut_values != 0;
  if (out.truncated) {
    // GUARD-14: the guard judges a view, and is told so (and what kind of cut it was).
    input["truncated"] = true;
    input["truncation"] = {{"payloadComplete", !event.payload_incomplete},
                           {"cutByDepth", event.cut_values},
                           {"viewMarkers", markers}};
  }
  out.body = nlohmann::json{{"input", std::move(input)}};
  return out;
}

nlohmann::json guard_request_body(const CanonicalEvent& event, const std::string& span_id) {
  return build_guard_request(event, span_id).body;
}

GuardVerdict parse_guard_response(std::string_view body) {
  GuardVerdict v;
  if (body.size() > kGuardMaxResponseBytes) {
    v.error = "reply over the size cap";
    return v;
  }
  nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded()) {
    // A reason cut mid-emoji by JavaScript (a lone-surrogate escape) or raw invalid UTF-8 must not
    // turn a DENY into "no verdict": repair to U+FFFD and read again (GUARD-6).
    std::string repaired(body);
    bool changed = repair_lone_surrogates(repaired);
    changed = repair_utf8(repaired) || changed;
    if (changed) j = nlohmann::json::parse(repaired, nullptr, false);
  }
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
  while (!decision.empty() && (decision.front() == ' ' || decision.front() == '\t')) decision.remove_prefix(1);
  while (!decision.empty() && (decision.back() == ' ' || decision.back() == '\t')) decision.remove_suffix(1);
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

std::unique_ptr<GuardClient> make_http_guard_client(GuardConfig config) {
  return std::make_unique<HttpGuardClient>(std::move(config));
}

}  // namespace pinta::adapter
