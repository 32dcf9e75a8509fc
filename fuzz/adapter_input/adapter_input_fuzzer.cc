// Harness: adapter input → normalize → reply (pinta/adapter/{input,normalize,handler}.h).
// Properties, for any stdin bytes, any --agent/--event pair and any guard verdict:
//  1. the reply (with its exit status) is valid for that host and event under the independent
//     host table (fuzz/common/host_table.h, not adapter/src/core/protocol.cc), for every family
//     of the registry (pinta/hosts/family.h): one JSON object line, or no output / the reason
//     with exit 2 for an exit-code host, no output / the JSON decision for Claude Code;
//  2. it means what it must (without a registered --agent: `{}`, or Antigravity's allow on Antigravity-only
//     events, see below): stdin that is not one JSON object, a missing agent, a non-gate event,
//     no guard, an allow/unavailable verdict or a review in "allow" mode → the table's allow reply;
//     a deny verdict on a gate event → a deny carrying the guard's message (or "guard_deny");
//     a review in "ask" mode on a gate event → an ask;
//  3. a parsed payload is kept whole: every top-level field of stdin is in Outcome::payload;
//  4. the incremental object boundary agrees with itself for any two-way split of the bytes;
//  5. repairing lone surrogates never touches text nlohmann already accepts, and is idempotent;
//  6. GUARD-14: a gate event with a guard is judged whenever an object (or the part of it that
//     was read) arrived, with or without a tool name; UTF-8 repair yields valid UTF-8 and is idempotent; the bounded
//     parser never builds a DOM deeper than its cap.
// Input layout: agent byte, event byte, verdict byte, reason string, user-message string, split
// byte, then the stdin bytes (fuzz/tools/seed-corpora.sh writes fixtures in this form).
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_support.h"
#include "host_table.h"
#include "pinta/adapter/bounded_json.h"
#include "pinta/adapter/handler.h"

namespace {

using pinta::fuzz::Bytes;
using pinta::fuzz::Host;
using pinta::fuzz::ReplyKind;
namespace ad = pinta::adapter;

// Every registered family's labels and events (all spellings), and ones no host uses: a new
// family is fuzzed by registering it (pinta/hosts/family.h).
const std::vector<std::string>& agents() {
  static const std::vector<std::string> v = pinta::fuzz::agent_labels_with_unknowns();
  return v;
}
const std::vector<std::string>& events() {
  static const std::vector<std::string> v = pinta::fuzz::event_names_with_unknowns();
  return v;
}

class FixedGuard final : public ad::GuardClient {
 public:
  explicit FixedGuard(ad::GuardVerdict v) : v_(std::move(v)) {}
  ad::GuardVerdict check(const ad::CanonicalEvent&, const std::string&, pinta::Deadline) override {
    ++calls;
    return v_;
  }
  int calls = 0;

 private:
  ad::GuardVerdict v_;
};

// A deny carries the guard's message (its user message, else its reason, else "guard_deny").
void check_deny_reason(Host host, const ad::GuardVerdict& verdict, const ad::Outcome& o,
                       const std::string& ctx) {
  const std::string want = !verdict.user_message.empty() ? verdict.user_message
                           : !verdict.reason.empty()     ? verdict.reason
                                                         : "guard_deny";
  // The reason is JSON-escaped with invalid UTF-8 replaced, so compare only valid UTF-8 texts.
  nlohmann::json probe = nlohmann::json::parse(
      nlohmann::json(want).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  // An exit-code host's reason is plain text with control characters replaced: check it is there.
  if (pinta::hosts::answers_by_exit_status(host))
    FUZZ_CHECK(!o.reply.empty(), "deny reason lost — " + ctx);
  else
    FUZZ_CHECK(pinta::fuzz::deny_reason(host, o.reply) == probe, "deny reason lost — " + ctx);
}

// 3. Every top-level field of the stdin object is in the payload, unchanged.
void check_payload_kept(const ad::Outcome& o, const std::string& stdin_bytes, const std::string& ctx) {
  FUZZ_CHECK(o.payload.is_object(), ctx);
  FUZZ_CHECK(o.normalized.is_object(), ctx);
  nlohmann::json direct = nlohmann::json::parse(stdin_bytes, nullptr, false);
  if (direct.is_object()) {
    for (auto it = direct.begin(); it != direct.end(); ++it) {
      FUZZ_CHECK(o.payload.contains(it.key()) && o.payload[it.key()] == it.value(),
                 "field lost: " + it.key());
    }
    FUZZ_CHECK(o.payload.size() == direct.size(), "payload gained fields");
  }
}

// 4. The incremental object boundary: the same verdict whole and split in two at `split`.
void check_boundary(const std::string& stdin_bytes, uint8_t split, int max_depth) {
  ad::ObjectBoundary whole(max_depth), parts(max_depth);
  auto s1 = whole.feed(stdin_bytes);
  const size_t cut = stdin_bytes.empty() ? 0 : split % (stdin_bytes.size() + 1);
  auto s2 = parts.feed(std::string_view(stdin_bytes).substr(0, cut));
  if (s2 == ad::ObjectBoundary::State::kNeedMore)
    s2 = parts.feed(std::string_view(stdin_bytes).substr(cut));
  FUZZ_CHECK(s1 == s2, "boundary state depends on the split at " + std::to_string(cut));
  if (s1 == ad::ObjectBoundary::State::kComplete)
    FUZZ_CHECK(whole.end() == parts.end(), "boundary end differs");
}

// 5. Surrogate repair: text nlohmann accepts is left alone, and a repair is idempotent.
void check_surrogate_repair(const std::string& stdin_bytes) {
  std::string text = stdin_bytes;
  const bool accepted = nlohmann::json::accept(text);
  const bool changed = pinta::adapter::repair_lone_surrogates(text);
  // nlohmann's lexer takes a NUL byte for the end of the input, so "accepted" covers only the
  // bytes before the first NUL; the repair may touch what comes after it (regression
  // nul-ends-nlohmann-input: `5555\0...\ud800...`).
  const size_t seen = stdin_bytes.find('\0');
  if (accepted)
    FUZZ_CHECK(text.compare(0, seen, stdin_bytes, 0, seen) == 0,
               "repair changed JSON nlohmann accepts");
  if (accepted && seen == std::string::npos) FUZZ_CHECK(!changed, "repair reported a change");
  std::string again = text;
  FUZZ_CHECK(!pinta::adapter::repair_lone_surrogates(again) && again == text,
             "repair is not idempotent");
}

// 6. UTF-8 repair yields valid UTF-8 and is idempotent; the bounded parser keeps to its cap.
void check_utf8_and_bounded(const std::string& stdin_bytes) {
  std::string text = stdin_bytes;
  (void)pinta::adapter::repair_utf8(text);
  std::string again = text;
  FUZZ_CHECK(!pinta::adapter::repair_utf8(again) && again == text, "utf-8 repair is not idempotent");
  try {
    (void)nlohmann::json(text).dump();
  } catch (...) {
    FUZZ_CHECK(false, "utf-8 repair left invalid UTF-8");
  }
  const pinta::adapter::BoundedParse b = pinta::adapter::parse_bounded(text, 8);
  std::vector<std::pair<const nlohmann::json*, int>> todo = {{&b.value, 1}};
  while (!todo.empty()) {
    auto [v, depth] = todo.back();
    todo.pop_back();
    if (!v->is_structured()) continue;
    // A cut container's marker stands at level cap + 1 and holds only a number.
    FUZZ_CHECK(depth <= 8 || (depth == 9 && v->is_object() && v->size() == 1 &&
                              v->contains(pinta::adapter::kTruncatedKey)),
               "bounded parse went deeper than its cap");
    for (const auto& e : *v) todo.emplace_back(&e, depth + 1);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  const std::string agent = agents()[in.byte() % agents().size()];
  const uint8_t ev_byte = in.byte();
  const std::string event = events()[(ev_byte & 0x7Fu) % events().size()];
  const bool has_agent_flag = (ev_byte & 0x80u) == 0;  // sometimes no --agent at all
  const uint8_t vb = in.byte();
  const bool with_guard = (vb & 0x08u) == 0;
  const bool ask_mode = (vb & 0x10u) != 0;
  ad::GuardVerdict verdict;
  verdict.decision = static_cast<ad::GuardVerdict::Decision>(vb % 4);
  verdict.reason = in.string(64);
  verdict.user_message = in.string(64);
  const uint8_t split = in.byte();
  const std::string stdin_bytes = in.rest();

  std::vector<const char*> argv = {"pinta-gemini"};
  if (has_agent_flag) argv.insert(argv.end(), {"--agent", agent.c_str()});
  argv.insert(argv.end(), {"--event", event.c_str()});
  ad::Args args = ad::parse_args(static_cast<int>(argv.size()), argv.data());

  FixedGuard guard(verdict);
  ad::Services services{&ad::system_clock(), with_guard ? &guard : nullptr, nullptr};
  ad::InputLimits limits;
  limits.max_bytes = 1u << 16;
  limits.max_depth = 64;
  // As the adapter reads a gate event with a guard (main.cc): the tool name watched, the input
  // scanned past the cap.
  if (const auto f = ad::family_for_agent(agent); f && with_guard) {
    limits.tool_name = ad::tool_name_path(*f);
    limits.scan_past_cap = true;
  }
  ad::RawInput raw = ad::read_event_from_bytes(stdin_bytes, limits);
  const ad::InputStatus status = raw.status;
  ad::Outcome o = ad::handle(args, std::move(raw), services, ask_mode ? "ask" : "allow");

  // 1. Shape. Without --agent the host is unknown and `{}` is the only safe answer.
  const std::string ctx = "agent=" + (has_agent_flag ? agent : std::string("<none>")) +
                          " event=" + event + " reply=" + o.reply;
  // Without --agent the host is unknown: `{}` everywhere except on events only Antigravity sends,
  // where `{}` would read as a deny (antigravity-hooks.md §6.2), so its allow reply is the safe
  // one.
  const std::optional<Host> family = pinta::fuzz::host_for_agent(agent);
  if (!has_agent_flag || agent.empty() || !family) {
    const bool agy_only = pinta::fuzz::known_event(Host::kAntigravity, event) &&
                          !pinta::fuzz::known_event(Host::kGemini, event);
    const nlohmann::json want =
        agy_only ? pinta::fuzz::allow_reply(Host::kAntigravity, event) : nlohmann::json::object();
    FUZZ_CHECK(nlohmann::json::parse(o.reply, nullptr, false) == want, ctx);
    return 0;
  }
  const Host host = *family;
  ReplyKind kind = ReplyKind::kAllow;
  const std::string why = pinta::fuzz::judge_reply(host, event, o.reply, &kind, o.exit_status);
  FUZZ_CHECK(why.empty(), why + " — " + ctx);

  // 2. Meaning.
  const bool gate = pinta::fuzz::gate_event(host, event);
  // GUARD-14: at a gate event with a guard, a payload read whole is always judged, and so is one
  // read in part (input cap, EOF or garbage inside it, deep nesting), with or without a tool name.
  if (gate && with_guard && (o.parsed || o.partial))
    FUZZ_CHECK(guard.calls == 1, "a tool call skipped the guard — " + ctx);
  ReplyKind expected = ReplyKind::kAllow;
  if (guard.calls == 1 && gate && with_guard) {
    if (verdict.decision == ad::GuardVerdict::Decision::kDeny) expected = ReplyKind::kDeny;
    // A host without a native ask (deel-local-cli) gets the allow on a review.
    if (verdict.decision == ad::GuardVerdict::Decision::kReview && ask_mode &&
        pinta::hosts::descriptor(host).ask_on_gate)
      expected = ReplyKind::kAsk;
  }
  FUZZ_CHECK(kind == expected, "unexpected decision — " + ctx);
  if (!(o.parsed || o.partial) || !gate)
    FUZZ_CHECK(guard.calls == 0, "guard consulted off the gate — " + ctx);
  if (o.partial) FUZZ_CHECK(gate && with_guard && !o.parsed, "a partial view off the gate — " + ctx);
  if (kind == ReplyKind::kAllow) {
    // An empty reply (no output) is the allow of exit-code hosts and Claude Code ({} stands for it).
    const nlohmann::json got = o.reply.empty() ? nlohmann::json::object() : nlohmann::json::parse(o.reply);
    FUZZ_CHECK(got == pinta::fuzz::allow_reply(host, event), ctx);
    FUZZ_CHECK(o.exit_status == 0, "an allow with a non-zero exit — " + ctx);
  }
  if (kind == ReplyKind::kDeny) check_deny_reason(host, verdict, o, ctx);
  if (status != ad::InputStatus::kOk) FUZZ_CHECK(!o.parsed, ctx);

  // 3. A parsed payload keeps every top-level field (nesting cuts aside, GUARD-14).
  if (o.parsed && o.cut_values == 0) check_payload_kept(o, stdin_bytes, ctx);

  // 4. Boundary finder: same verdict for any split into two chunks.
  check_boundary(stdin_bytes, split, limits.max_depth);

  check_surrogate_repair(stdin_bytes);
  check_utf8_and_bounded(stdin_bytes);
  return 0;
}
