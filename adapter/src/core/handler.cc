#include "pinta/adapter/handler.h"

#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>

#include "pinta/adapter/bounded_json.h"

namespace pinta::adapter {
namespace {

class SystemClock final : public Clock {
 public:
  int64_t unix_nanos() const override {
    struct timespec ts {};
    ::clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
  }
  std::chrono::steady_clock::time_point now() const override { return std::chrono::steady_clock::now(); }
};

std::string_view value_of(std::string_view arg, std::string_view flag) {
  // "--flag=value" → value; otherwise empty (caller handles the two-token form)
  if (arg.size() > flag.size() && arg.substr(0, flag.size()) == flag && arg[flag.size()] == '=') {
    return arg.substr(flag.size() + 1);
  }
  return {};
}

int hex4(std::string_view s, size_t at) {
  if (at + 4 > s.size()) return -1;
  int v = 0;
  for (size_t i = at; i < at + 4; ++i) {
    char c = s[i];
    int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

}  // namespace

bool repair_lone_surrogates(std::string& text) {
  bool changed = false;
  for (size_t i = 0; i + 5 < text.size(); ++i) {
    if (text[i] != '\\') continue;
    if (text[i + 1] != 'u') {
      ++i;  // skip the escaped character (e.g. "\\\\" or "\\\"")
      continue;
    }
    int cp = hex4(text, i + 2);
    if (cp < 0xD800 || cp > 0xDFFF) {
      i += 5;
      continue;
    }
    bool paired = false;
    if (cp <= 0xDBFF && i + 11 < text.size() && text[i + 6] == '\\' && text[i + 7] == 'u') {
      int lo = hex4(text, i + 8);
      paired = lo >= 0xDC00 && lo <= 0xDFFF;
    }
    if (paired) {
      i += 11;
      continue;
    }
    text.replace(i + 2, 4, "fffd");
    changed = true;
    i += 5;
  }
  return changed;
}

std::string guard_verdict_text(const GuardVerdict& verdict, std::string_view fallback) {
  if (!verdict.user_message.empty()) return verdict.user_message;
  if (!verdict.reason.empty()) return verdict.reason;
  return std::string(fallback);
}

Deadline guard_deadline(const Services& services, std::chrono::steady_clock::time_point now) {
  using std::chrono::steady_clock;
  const steady_clock::duration budget = services.guard_policy.timeout;
  if (services.work_started == steady_clock::time_point{} || services.work_started > now)
    return Deadline(now + budget);
  steady_clock::duration head = (now - services.work_started) + kGuardReplyReserve;
  head = std::min<steady_clock::duration>(head, kGuardMaxHeadStart);
  head = std::min<steady_clock::duration>(head, budget / 10);
  return Deadline(now + budget - head);
}

std::string new_span_id() {
  unsigned char bytes[8] = {};
  ssize_t got = -1;
  do {
    got = ::getrandom(bytes, sizeof bytes, GRND_NONBLOCK);
  } while (got < 0 && errno == EINTR);
  if (got != static_cast<ssize_t>(sizeof bytes)) {
    // No entropy yet (early boot) or no getrandom: uniqueness is what matters for a span id.
    struct timespec ts {};
    ::clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t mix = (static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec)) ^
                   (static_cast<uint64_t>(::getpid()) << 40);
    mix ^= mix >> 33;
    mix *= 0xff51afd7ed558ccdULL;
    mix ^= mix >> 33;
    for (size_t i = 0; i < sizeof bytes; ++i) bytes[i] = static_cast<unsigned char>(mix >> (8 * i));
  }
  // An all-zero span id is invalid in OTLP (trace API: SpanId of all zeroes is invalid).
  bool zero = true;
  for (unsigned char b : bytes) zero = zero && b == 0;
  if (zero) bytes[7] = 1;
  static const char kHex[] = "0123456789abcdef";
  std::string id(16, '0');
  for (size_t i = 0; i < sizeof bytes; ++i) {
    id[2 * i] = kHex[bytes[i] >> 4];
    id[2 * i + 1] = kHex[bytes[i] & 0xF];
  }
  return id;
}

const Clock& system_clock() {
  static const SystemClock clock;
  return clock;
}

Args parse_args(int argc, const char* const* argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i] ? argv[i] : "";
    if ((arg == "--agent" || arg == "--event") && i + 1 < argc && argv[i + 1]) {
      (arg == "--agent" ? a.agent : a.event) = argv[++i];
      (arg == "--agent" ? a.has_agent : a.has_event) = true;
    } else if (auto v = value_of(arg, "--agent"); !v.empty()) {
      a.agent = v;
      a.has_agent = true;
    } else if (auto w = value_of(arg, "--event"); !w.empty()) {
      a.event = w;
      a.has_event = true;
    } else {
      a.unknown.push_back(arg);
    }
  }
  // Hosts that also accept other names for their events (deel-local-cli: Korean) are answered
  // under the canonical name, so the reply table, guard and span see one spelling.
  if (a.has_agent) a.family = family_for_agent(a.agent);
  if (a.family) a.event = canonical_event(*a.family, a.event);
  return a;
}

std::string_view fail_safe_for(const Args& args) noexcept {
  // Missing, empty or unregistered --agent: no family is assumed (unknown_agent_reply).
  if (!args.family) return unknown_agent_reply(args.event);
  return fail_safe_reply(*args.family, args.event);
}

NamePath tool_name_path(Family family, std::string_view agent) noexcept {
  const hosts::PayloadShape& shape = hosts::payload_shape(family, agent);
  if (shape.tool_object.empty()) return NamePath{shape.tool_name, {}};
  return NamePath{shape.tool_object, shape.tool_name};
}

namespace {

// Payloads up to this size are parsed by nlohmann's DOM parser (at most ~1 M values: bounded);
// larger ones by parse_bounded, which caps the values it builds.
constexpr size_t kDirectParseMaxBytes = size_t{2} << 20;

// What a gate event's payload can still be read as when it did not arrive whole (GUARD-14): the
// host's framing failed after an object had started (input cap, EOF, deadline, bytes after it).
bool partial_view_possible(InputStatus status) {
  return status == InputStatus::kTooLarge || status == InputStatus::kTruncated ||
         status == InputStatus::kTimeout || status == InputStatus::kTrailingGarbage;
}

// Reads the payload from stdin's bytes: whole when it is a JSON object (depth cuts aside), else,
// at a judged gate event, the members that arrived (GUARD-14). False when there is nothing to
// read (a stdin status with no object started, off the gate): then `out.note` says why. True
// with `payload` discarded when what arrived is not JSON. Frees the raw bytes.
bool read_payload(RawInput& input, bool judged, Outcome& out, nlohmann::json& payload, bool& whole) {
  whole = false;
  if (input.status == InputStatus::kOk) {
    // Up to a few MiB the DOM cannot outgrow its bound, and nlohmann's own parser is used;
    // beyond, and for a deep payload, the bounded parser (kMaxPayloadValues, kMaxPayloadDepth).
    const bool small = input.bytes.size() <= kDirectParseMaxBytes;
    if (!input.deep && small) {
      // allow_exceptions=false: invalid JSON or invalid UTF-8 gives a discarded value.
      payload = nlohmann::json::parse(input.bytes, nullptr, false);
      // JavaScript's JSON.stringify (Gemini CLI) escapes lone surrogates as "\ud800"; that is
      // valid JSON text but not Unicode, and nlohmann rejects it. Such a payload must not skip
      // the guard, so they become U+FFFD and the payload is parsed again (only on this failure
      // path); at a judged gate event so do invalid UTF-8 bytes (GUARD-14).
      if (payload.is_discarded()) {
        bool repaired = repair_lone_surrogates(input.bytes);
        if (judged) repaired = repair_utf8(input.bytes) || repaired;
        if (repaired) payload = nlohmann::json::parse(input.bytes, nullptr, false);
        // NaN, Infinity, 1e400 (a number no double holds) among the arguments: read as
        // strings, so the members after them are not lost to the guard (GUARD-14).
        if (payload.is_discarded() && judged && quote_bare_tokens(input.bytes))
          payload = nlohmann::json::parse(input.bytes, nullptr, false);
      }
      whole = !payload.is_discarded();
    }
    if (!whole && (judged || (!input.deep && !small))) {
      // Deep, large, or still not JSON past some point: the bounded parser keeps what it can;
      // at a judged gate event the guard is asked on that (GUARD-14). Off the gate a deep
      // payload or one that is not JSON gets the fail-safe reply (INPUT-3, INPUT-5).
      if (input.deep || !small) {
        (void)repair_lone_surrogates(input.bytes);
        if (judged) (void)repair_utf8(input.bytes);
      }
      BoundedParse bounded = parse_bounded(input.bytes, kMaxPayloadDepth);
      if (!bounded.complete && judged && quote_bare_tokens(input.bytes))
        bounded = parse_bounded(input.bytes, kMaxPayloadDepth);
      out.cut_values = bounded.cut_values;
      whole = bounded.complete;
      payload = std::move(bounded.value);
      if (!whole && !judged) payload = nlohmann::json(nlohmann::json::value_t::discarded);
    } else if (!whole) {
      payload = nlohmann::json(nlohmann::json::value_t::discarded);
      if (input.deep) out.input = InputStatus::kTooDeep;
    }
  } else if (judged && partial_view_possible(input.status) && !input.bytes.empty()) {
    // The members that arrived, an argument cut by the cap with its start (complete_prefix).
    (void)complete_prefix(input.bytes);
    (void)quote_bare_tokens(input.bytes);
    (void)repair_lone_surrogates(input.bytes);
    (void)repair_utf8(input.bytes);
    BoundedParse bounded = parse_bounded(input.bytes, kMaxPayloadDepth);
    out.cut_values = bounded.cut_values;
    payload = std::move(bounded.value);
  } else {
    out.note = std::string("stdin: ") + std::string(input_status_name(input.status));
    return false;
  }
  std::string().swap(input.bytes);  // free the raw bytes before the DOM is used
  return true;
}

// The normalized event, shared with the Outcome: a deferred span sink writes the span after the
// reply, from this same event (no copy of the payload).
std::shared_ptr<const CanonicalEvent> make_event(Family family, const Args& args, nlohmann::json payload,
                                                 RawInput& input, bool whole, size_t cut_values) {
  CanonicalEvent normalized = normalize(family, args.agent, args.event, std::move(payload));
  // A payload read only in part, or cut by the value budget, may have lost its tool name with
  // the cut (Antigravity writes toolCall.args before toolCall.name): the reader saw the name go
  // by (input.h NamePath).
  if (normalized.tool_name.empty() && input.tool_name && !input.tool_name->empty())
    normalized.tool_name = std::move(*input.tool_name);
  normalized.payload_incomplete = !whole;
  normalized.cut_values += cut_values;  // normalize() counts a tool input's own cuts
  return std::make_shared<const CanonicalEvent>(std::move(normalized));
}

// The guard's verdict as the host's reply (GUARD-8 for REVIEW).
void apply_verdict(const GuardVerdict& verdict, Family family, const Args& args, const ReplyRow& row,
                   const Services& services, Outcome& out) {
  out.guard_error = verdict.error;
  switch (verdict.decision) {
    case GuardVerdict::Decision::kDeny: {
      out.reply = deny_reply(family, args.event, guard_deny_reason(verdict));
      if (row.deny_allowed) out.exit_status = deny_exit_status(family);
      out.guard_decision = "deny";
      break;
    }
    case GuardVerdict::Decision::kReview: {
      out.guard_decision = "review";
      const bool ask = services.guard_policy.review == GuardPolicy::Review::kAsk;
      // A host in print mode cannot answer a prompt: an ask fails the tool call there (the
      // family's PrintMode, with its evidence), so REVIEW stays allow, as it does by default
      // (docs/contract.md GUARD-8).
      const hosts::PrintMode& print = hosts::descriptor(family).print_mode;
      if (ask && !print.program.empty() && services.host_cannot_prompt != nullptr &&
          services.host_cannot_prompt(print)) {
        out.note = "PINTA_GUARD_REVIEW=ask not applied: " + std::string(print.program) +
                   " print mode cannot answer ask";
      } else if (ask) {
        out.reply = ask_reply(family, args.event, guard_verdict_text(verdict, "guard_review"));
      }
      break;
    }
    case GuardVerdict::Decision::kAllow: out.guard_decision = "allow"; break;
    case GuardVerdict::Decision::kUnavailable: out.guard_decision = "unavailable"; break;
  }
}

void submit_span(Services& services, const CanonicalEvent& ev, const Outcome& out,
                 const GuardVerdict* verdict) {
  SpanInput span;
  span.event = &ev;
  span.span_id = out.span_id;
  span.guard = verdict;
  span.reply = out.reply;
  span.start_unix_nanos = services.clock ? services.clock->unix_nanos() : 0;
  span.end_unix_nanos = span.start_unix_nanos;
  services.spans->submit(span);
}

// PINTA_GUARD_ON_UNJUDGEABLE=deny: what cannot be put to the guard is denied (GUARD-14).
void deny_unjudgeable(Family family, const Args& args, const ReplyRow& row, Outcome& out) {
  out.reply = deny_reply(family, args.event, kUnjudgeableReason);
  if (row.deny_allowed) out.exit_status = deny_exit_status(family);
  out.guard_decision = "deny";
  out.note += "; denied: PINTA_GUARD_ON_UNJUDGEABLE=deny";
}

// After an internal error, security first (PINTA_GUARD_ON_UNJUDGEABLE=deny): a gate event that
// could not be judged for any reason is denied (GUARD-14).
void deny_after_internal_error(const Args& args, Outcome& out) {
  try {
    const Family family = args.family.value();
    out.reply = deny_reply(family, args.event, kUnjudgeableReason);
    const ReplyRow* row = find_reply_row(family, args.event);
    if (row != nullptr && row->deny_allowed) out.exit_status = deny_exit_status(family);
    out.guard_decision = "deny";
  } catch (...) {
    out.reply = std::string(fail_safe_for(args));
    out.exit_status = 0;
  }
}

}  // namespace

Outcome handle(const Args& args, RawInput input, Services& services) {
  Outcome out;
  out.reply = std::string(fail_safe_for(args));
  out.input = input.status;
  out.guard_decision = "skipped";
  bool judged_event = false;  // for the catch below
  try {
    if (!args.has_agent || args.agent.empty()) {
      out.note = "missing --agent";
      return out;
    }
    const std::optional<Family> known = args.family;
    if (!known) {
      // No family is assumed for a label no family registers (FMT-1): the fail-safe reply, and
      // the debug log says why.
      out.note = "unknown --agent (not one of " + hosts::agent_label_list() + ")";
      return out;
    }
    const Family family = *known;
    const ReplyRow* row = find_reply_row(family, args.event);
    // A gate event with a guard: the tool call is put to the guard whatever shape its payload has
    // (GUARD-14); the model writes the tool arguments and must not be able to skip the guard.
    const bool judged = row != nullptr && row->gate && services.guard != nullptr;
    judged_event = judged;
    const bool deny_unjudged = judged && services.guard_policy.deny_unjudgeable;

    // Phase 1: the payload.
    nlohmann::json payload;
    bool whole = false;  // the payload was read and parsed whole (depth cuts aside)
    if (!read_payload(input, judged, out, payload, whole)) {
      if (deny_unjudged) deny_unjudgeable(family, args, *row, out);
      return out;
    }
    if (payload.is_discarded() || !payload.is_object()) {
      if (out.input == InputStatus::kOk) out.input = InputStatus::kNotObject;
      out.note = input.status == InputStatus::kOk
                     ? std::string("stdin: invalid JSON")
                     : std::string("stdin: ") + std::string(input_status_name(input.status));
      if (deny_unjudged) deny_unjudgeable(family, args, *row, out);
      return out;
    }
    out.partial = !whole;
    out.parsed = whole;
    if (services.keep_debug_copies) out.payload = payload;
    if (!args.has_event || args.event.empty()) out.note = "missing --event";

    // Phase 2: the normalized event.
    out.event = make_event(family, args, std::move(payload), input, whole, out.cut_values);
    const CanonicalEvent& ev = *out.event;
    if (services.keep_debug_copies) out.normalized = to_json(ev);
    if (row == nullptr && out.note.empty()) out.note = "unknown event";

    // Phase 3: the guard. One id for the guard request and the span (the guard's decision log
    // and the trace join on it).
    GuardVerdict verdict;
    const GuardVerdict* verdict_ptr = nullptr;
    if (services.guard != nullptr || services.spans != nullptr) out.span_id = new_span_id();
    // A payload that arrived only in part is judged even when no tool name could be read: the
    // guard is asked with what is known, and the request says the name is missing (GUARD-14).
    const bool nameless = judged && !whole && ev.tool_name.empty();
    if (nameless) out.note = "stdin: " + std::string(input_status_name(input.status)) + "; no tool name";
    if (nameless && deny_unjudged) {
      deny_unjudgeable(family, args, *row, out);
    } else if (judged) {
      verdict = services.guard->check(ev, out.span_id,
                                     guard_deadline(services, std::chrono::steady_clock::now()));
      verdict_ptr = &verdict;
      apply_verdict(verdict, family, args, *row, services, out);
    }

    // Phase 4: the span.
    if (services.spans != nullptr) submit_span(services, ev, out, verdict_ptr);
  } catch (...) {
    out.reply = std::string(fail_safe_for(args));
    out.exit_status = 0;
    out.note = "internal error";
    if (judged_event && services.guard_policy.deny_unjudgeable) deny_after_internal_error(args, out);
  }
  return out;
}

Outcome handle(const Args& args, RawInput input, Services& services, std::string_view review_mode) {
  services.guard_policy.review =
      review_mode == "ask" ? GuardPolicy::Review::kAsk : GuardPolicy::Review::kAllow;
  return handle(args, std::move(input), services);
}

}  // namespace pinta::adapter
