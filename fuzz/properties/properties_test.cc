// Cross-component properties (issue 8), rapidcheck. The seed is printed on failure and
// RC_PARAMS="seed=N" replays (pinta_add_test sets RC_PARAMS=max_success=200 by default).
// Replies are judged against the independent host table in fuzz/common/host_table.h.
//  1. normalize is total for any object, agent and event, and its known_event agrees with the
//     host references' event lists;
//  2. normalize reads its own family's identifiers and treats wrong-typed ones as absent;
//  3. handle(): for any host, event, valid payload and guard verdict, the reply matches the host
//     table and means what the verdict says;
//  4. deny_reply is a valid deny (or the allow reply where deny has no meaning) for any reason,
//     and keeps a valid-UTF-8 reason verbatim;
//  5. ask_reply is a valid ask on gate events and the allow reply elsewhere;
//  6. fail_safe_reply is the table's allow reply for any event string;
//  7. env file: render(entries) parses back to the entries, for any valid keys and any values;
//  8. env file: lines are independent — parse(a ⧺ b) = parse(a) followed by parse(b);
//  9. redaction never lengthens a string beyond its markers;
// 10. redact_json keeps the document's shape and every non-string value;
// 11. read_event_from_bytes accepts any object padded with whitespace and returns its bytes;
// 12. two objects back to back are never accepted as one;
// 13. the Antigravity loader loads any well-formed named-hook file whole, under every profile,
//     and is deterministic;
// 14. the Antigravity reply interpreter reads the adapter's deny reply as a deny, for any reason
//     and any profile;
// 15. "" and "*" matchers match every tool under every profile (reference §4).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <regex>

#include "host_table.h"
#include "pinta/adapter/config.h"
#include "pinta/adapter/handler.h"
#include "pinta/adapter/redact.h"
#include "pinta/emulator/antigravity/antigravity.h"

namespace {

using nlohmann::json;
namespace ad = pinta::adapter;
namespace agy = pinta::emu::agy;
using pinta::fuzz::Host;
using pinta::fuzz::ReplyKind;

const std::vector<std::string> kAgents = {"gemini", "antigravity", "agy", "antigravity2",
                                          "antigravity1"};

std::vector<std::string> all_events() {
  std::vector<std::string> v;
  for (auto e : pinta::fuzz::kGeminiEvents) v.emplace_back(e);
  for (auto e : pinta::fuzz::kAgyEvents) v.emplace_back(e);
  v.insert(v.end(), {"", "Nope", "beforeTool", "PRETOOLUSE"});
  return v;
}

rc::Gen<json> gen_json(int depth) {
  auto scalar = rc::gen::oneOf(
      rc::gen::map(rc::gen::arbitrary<int>(), [](int i) { return json(i); }),
      rc::gen::map(rc::gen::arbitrary<double>(), [](double d) { return json(d); }),
      rc::gen::map(rc::gen::string<std::string>(),
                   [](std::string s) { return json(ad::valid_utf8(s) ? s : std::string("x")); }),
      rc::gen::just(json(nullptr)), rc::gen::just(json(true)));
  if (depth <= 0) return scalar;
  return rc::gen::oneOf(
      scalar,
      rc::gen::map(rc::gen::container<std::vector<json>>(
                       rc::gen::lazy([depth] { return gen_json(depth - 1); })),
                   [](std::vector<json> v) { return json(v); }),
      rc::gen::map(rc::gen::container<std::vector<std::pair<std::string, json>>>(
                       rc::gen::pair(rc::gen::elementOf(std::vector<std::string>{
                                         "a", "tool_input", "command", "b", "args", "x"}),
                                     rc::gen::lazy([depth] { return gen_json(depth - 1); }))),
                   [](const std::vector<std::pair<std::string, json>>& kv) {
                     json o = json::object();
                     for (const auto& [k, v] : kv) o[k] = v;  // few distinct keys: later ones win
                     return o;
                   }));
}

// Payload objects with the identifier keys of both families, sometimes with the wrong type.
rc::Gen<json> gen_payload() {
  const std::vector<std::string> keys = {"session_id",      "cwd",
                                         "transcript_path", "tool_name",
                                         "tool_input",      "conversationId",
                                         "workspacePaths",  "transcriptPath",
                                         "toolCall",        "hook_event_name",
                                         "other",           "timestamp"};
  return rc::gen::map(rc::gen::container<std::vector<std::pair<std::string, json>>>(
                          rc::gen::pair(rc::gen::elementOf(keys), rc::gen::resize(6, gen_json(2)))),
                      [](const std::vector<std::pair<std::string, json>>& kv) {
                        json o = json::object();
                        for (const auto& [k, v] : kv) o[k] = v;
                        return o;
                      });
}

class FixedGuard final : public ad::GuardClient {
 public:
  explicit FixedGuard(ad::GuardVerdict v) : v_(std::move(v)) {}
  ad::GuardVerdict check(const ad::CanonicalEvent&, const std::string&, pinta::Deadline) override {
    return v_;
  }

 private:
  ad::GuardVerdict v_;
};

const std::vector<agy::Profile>& agy_profiles() {
  static const std::vector<agy::Profile> all = [] {
    auto r = agy::load_profiles(agy::default_profile_dir());
    return r ? *r : std::vector<agy::Profile>{};
  }();
  return all;
}

std::string render_env(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out;
  for (const auto& [k, v] : entries) {
    out += k + "=\"";
    for (char c : v) {
      if (c == '\n')
        out += "\\n";
      else if (c == '\t')
        out += "\\t";
      else if (c == '\r')
        out += "\\r";
      else if (c == '"' || c == '\\' || c == '$')
        out += std::string("\\") + c;
      else
        out += c;
    }
    out += "\"\n";
  }
  return out;
}

rc::Gen<std::string> gen_key() {
  return rc::gen::map(
      rc::gen::pair(rc::gen::elementOf(std::string("ABCXYZ_abz")),
                    rc::gen::container<std::string>(rc::gen::elementOf(std::string("AZ_az09")))),
      [](std::pair<char, std::string> p) { return std::string(1, p.first) + p.second; });
}

// Same structure: types, keys and sizes at every path, non-strings equal.
bool same_shape(const json& a, const json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      if (!b.contains(it.key()) || !same_shape(it.value(), b[it.key()])) return false;
    }
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!same_shape(a[i], b[i])) return false;
    }
    return true;
  }
  return a.is_string() || a == b;
}

// 1
RC_GTEST_PROP(Normalize, TotalAndKnowsTheHostsEvents, ()) {
  const json payload = *gen_payload();
  const std::string agent = *rc::gen::elementOf(kAgents);
  const std::string event = *rc::gen::elementOf(all_events());
  const ad::CanonicalEvent e = ad::normalize(ad::family_for_agent(agent), agent, event, payload);
  const Host h = pinta::fuzz::host_for_agent(agent);
  RC_ASSERT(e.known_event == pinta::fuzz::known_event(h, event));
  RC_ASSERT(e.raw == payload);
  RC_ASSERT(ad::to_json(e).is_object());
}

// 2
RC_GTEST_PROP(Normalize, ReadsItsFamilysIdentifiers, ()) {
  json payload = *gen_payload();
  const std::string agent = *rc::gen::elementOf(kAgents);
  const ad::CanonicalEvent e = ad::normalize(ad::family_for_agent(agent), agent, "X", payload);
  const char* sid_key = agent == "gemini" ? "session_id" : "conversationId";
  if (payload.contains(sid_key) && payload[sid_key].is_string()) {
    RC_ASSERT(e.session_id == payload[sid_key].get<std::string>());
  } else {
    RC_ASSERT(e.session_id.empty());
  }
  if (agent == "gemini") {
    if (payload.contains("tool_name") && payload["tool_name"].is_string())
      RC_ASSERT(e.tool_name == payload["tool_name"].get<std::string>());
    else
      RC_ASSERT(e.tool_name.empty());
  }
}

// 3
RC_GTEST_PROP(Reply, AnyHostEventVerdictMatchesTheHostTable, ()) {
  const std::string agent = *rc::gen::elementOf(kAgents);
  const std::string event = *rc::gen::elementOf(all_events());
  ad::GuardVerdict v;
  v.decision = static_cast<ad::GuardVerdict::Decision>(*rc::gen::inRange(0, 4));
  v.reason = *rc::gen::string<std::string>();
  v.user_message = *rc::gen::oneOf(rc::gen::just(std::string()), rc::gen::string<std::string>());
  const bool ask = *rc::gen::arbitrary<bool>();
  const bool with_guard = *rc::gen::arbitrary<bool>();
  FixedGuard guard(v);
  ad::Services s{&ad::system_clock(), with_guard ? &guard : nullptr, nullptr};
  const char* argv[] = {"pinta-gemini", "--agent", agent.c_str(), "--event", event.c_str()};
  ad::Args args = ad::parse_args(5, argv);
  ad::Outcome o = ad::handle(args, ad::read_event_from_bytes((*gen_payload()).dump(), {}), s,
                             ask ? "ask" : "allow");
  const Host h = pinta::fuzz::host_for_agent(agent);
  ReplyKind kind{};
  const std::string why = pinta::fuzz::judge_reply(h, event, o.reply, &kind);
  RC_ASSERT(why.empty());
  ReplyKind want = ReplyKind::kAllow;
  if (with_guard && pinta::fuzz::gate_event(h, event)) {
    if (v.decision == ad::GuardVerdict::Decision::kDeny) want = ReplyKind::kDeny;
    if (v.decision == ad::GuardVerdict::Decision::kReview && ask) want = ReplyKind::kAsk;
  }
  RC_ASSERT(kind == want);
}

// 4
RC_GTEST_PROP(Reply, DenyReplyIsValidForAnyReason, (const std::string& reason)) {
  const std::string agent = *rc::gen::elementOf(kAgents);
  const std::string event = *rc::gen::elementOf(all_events());
  RC_PRE(!reason.empty());
  const Host h = pinta::fuzz::host_for_agent(agent);
  const std::string r = ad::deny_reply(ad::family_for_agent(agent), event, reason);
  ReplyKind kind{};
  RC_ASSERT(pinta::fuzz::judge_reply(h, event, r, &kind).empty());
  RC_ASSERT((kind == ReplyKind::kDeny) == pinta::fuzz::deny_meaningful(h, event));
  if (kind == ReplyKind::kDeny && ad::valid_utf8(reason))
    RC_ASSERT(json::parse(r)["reason"] == reason);
}

// 5
RC_GTEST_PROP(Reply, AskReplyOnlyOnTheGate, (const std::string& reason)) {
  const std::string agent = *rc::gen::elementOf(kAgents);
  const std::string event = *rc::gen::elementOf(all_events());
  const Host h = pinta::fuzz::host_for_agent(agent);
  const std::string r = ad::ask_reply(ad::family_for_agent(agent), event, reason);
  ReplyKind kind{};
  RC_ASSERT(pinta::fuzz::judge_reply(h, event, r, &kind).empty());
  RC_ASSERT((kind == ReplyKind::kAsk) == pinta::fuzz::gate_event(h, event));
}

// 6
RC_GTEST_PROP(Reply, FailSafeIsTheAllowReply, (const std::string& any_event)) {
  const std::string event =
      *rc::gen::oneOf(rc::gen::just(any_event), rc::gen::elementOf(all_events()));
  const std::string agent = *rc::gen::elementOf(kAgents);
  const Host h = pinta::fuzz::host_for_agent(agent);
  RC_ASSERT(json::parse(ad::fail_safe_reply(ad::family_for_agent(agent), event)) ==
            pinta::fuzz::allow_reply(h, event));
}

// 7
RC_GTEST_PROP(EnvFile, RenderParsesBack, ()) {
  const auto entries = *rc::gen::container<std::vector<std::pair<std::string, std::string>>>(
      rc::gen::pair(gen_key(), rc::gen::string<std::string>()));
  const auto parsed = ad::parse_env_file(render_env(entries));
  RC_ASSERT(parsed.bad_lines.empty());
  RC_ASSERT(parsed.entries == entries);
}

// 8
RC_GTEST_PROP(EnvFile, LinesAreIndependent, (const std::string& a0, const std::string& b)) {
  const std::string a = a0 + "\n";
  const auto pa = ad::parse_env_file(a), pb = ad::parse_env_file(b),
             pab = ad::parse_env_file(a + b);
  auto want = pa.entries;
  want.insert(want.end(), pb.entries.begin(), pb.entries.end());
  RC_ASSERT(pab.entries == want);
  RC_ASSERT(pab.bad_lines.size() == pa.bad_lines.size() + pb.bad_lines.size());
}

// 9
RC_GTEST_PROP(Redact, NeverLengthensBeyondItsMarkers, ()) {
  const std::vector<std::string> parts = {"AKIAIOSFODNN7EXAMPLE",
                                          "ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hI6",
                                          " password=hunter2 ",
                                          "Bearer abcdefghijklmnop",
                                          "https://u:p@h/x",
                                          " ",
                                          "\n",
                                          "plain text",
                                          "é"};
  const std::string s =
      *rc::gen::map(rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(parts)),
                    [](const std::vector<std::string>& v) {
                      std::string out;
                      for (const auto& p : v) out += p;
                      return out;
                    });
  const std::string out = ad::redact_string(s, 0);
  static const std::regex marker(R"(\[REDACTED:[A-Za-z0-9_\-]+\])");
  const std::string stripped = std::regex_replace(out, marker, "");
  RC_ASSERT(stripped.size() <= s.size());
}

// 10
RC_GTEST_PROP(Redact, JsonKeepsShape, ()) {
  const json doc = *gen_json(3);
  const json red = ad::redact_json(doc);
  RC_ASSERT(same_shape(doc, red));
  RC_ASSERT(ad::redact_json(red) == red);
}

// 11
RC_GTEST_PROP(Input, PaddedObjectIsRead, ()) {
  const json obj = *gen_payload();
  const std::string ws1 =
      *rc::gen::container<std::string>(rc::gen::elementOf(std::string(" \t\r\n")));
  const std::string ws2 =
      *rc::gen::container<std::string>(rc::gen::elementOf(std::string(" \t\r\n")));
  const auto r = ad::read_event_from_bytes(ws1 + obj.dump() + ws2, {});
  RC_ASSERT(r.status == ad::InputStatus::kOk);
  RC_ASSERT(json::parse(r.bytes) == obj);
}

// 12
RC_GTEST_PROP(Input, TwoObjectsAreNotOne, ()) {
  const json a = *gen_payload(), b = *gen_payload();
  const auto r = ad::read_event_from_bytes(
      a.dump() + *rc::gen::elementOf(std::vector<std::string>{"", " ", "\n"}) + b.dump(), {});
  RC_ASSERT(r.status != ad::InputStatus::kOk);
}

// 13
RC_GTEST_PROP(AgyLoader, WellFormedFileLoadsWhole, ()) {
  RC_PRE(!agy_profiles().empty());
  const auto names = *rc::gen::container<std::set<std::string>>(rc::gen::nonEmpty(
      rc::gen::container<std::string>(rc::gen::elementOf(std::string("abcxyz-_09")))));
  json doc = json::object();
  std::map<std::string, std::pair<bool, std::string>> want;
  for (const auto& n : names) {
    const bool enabled = *rc::gen::arbitrary<bool>();
    const std::string cmd =
        "echo " + *rc::gen::container<std::string>(rc::gen::elementOf(std::string("abc 123")));
    doc[n] = {{"enabled", enabled},
              {"PreToolUse",
               json::array({{{"matcher", "*"},
                             {"hooks", json::array({{{"type", "command"}, {"command", cmd}}})}}})}};
    want[n] = {enabled, cmd};
  }
  for (const auto& p : agy_profiles()) {
    auto r = agy::parse_hooks_json(doc.dump(), p);
    RC_ASSERT(r.has_value());
    RC_ASSERT(r->hooks.size() == names.size());
    for (const auto& h : r->hooks) {
      RC_ASSERT(want.count(h.name) == 1);
      RC_ASSERT(h.enabled == want[h.name].first);
      RC_ASSERT(h.events.size() == 1u);
      RC_ASSERT(h.events[0].groups.size() == 1u);
      RC_ASSERT(h.events[0].groups[0].hooks.at(0).command == want[h.name].second);
    }
    auto again = agy::parse_hooks_json(doc.dump(), p);
    RC_ASSERT(again.has_value() && again->hooks.size() == r->hooks.size());
  }
}

// 14
RC_GTEST_PROP(AgyReply, AdapterDenyIsADenyEverywhere, (const std::string& reason)) {
  RC_PRE(!agy_profiles().empty());
  RC_PRE(!reason.empty());
  const std::string line = ad::deny_reply(ad::Family::kAntigravity, "PreToolUse", reason);
  for (const auto& p : agy_profiles()) {
    agy::HookReply reply;
    reply.exit_code = 0;
    reply.stdout_text = line + "\n";
    const auto e = agy::interpret_reply(p, agy::Event::kPreToolUse, reply, json::object());
    RC_ASSERT(e.kind == std::string("denied"));
  }
}

// 15
RC_GTEST_PROP(AgyMatcher, EmptyAndStarMatchEveryTool, (const std::string& tool)) {
  RC_PRE(!agy_profiles().empty());
  for (const auto& p : agy_profiles()) {
    RC_ASSERT(agy::matcher_matches(p, "", tool));
    RC_ASSERT(agy::matcher_matches(p, "*", tool));
  }
}

TEST(Properties, ProfilesAreAvailable) {
  // The Antigravity properties skip (RC_PRE) without profiles; make that absence a failure.
  EXPECT_FALSE(agy_profiles().empty());
}

}  // namespace
