// Cross-component properties, rapidcheck. The seed is printed on failure and
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
// 15. "" and "*" matchers match every tool under every profile (reference §4);
// 16. span queue, model-based: any sequence of appends, flusher-style drains (snapshot + remove),
//     torn tails and foreign lines agrees, line by line and counter by counter, with an in-test
//     model of the file; readers see at most the cap, the newest kept, every span accounted for
//     exactly once (visible, pending over-cap, dropped, delivered or torn); appends never compact;
// 17. span queue, concurrent writers: forked processes appending to one dir never tear a line;
//     the queue keeps min(total, cap) distinct written ids, each writer's survivors its newest;
// 18. installer merge (Antigravity hooks.json): foreign hooks and keys kept in order and value,
//     install twice = byte-identical home, uninstall gives back the foreign content;
// 19. installer (Gemini): settings.json with foreign keys and hooks and foreign extensions are
//     never touched, foreign extension-enablement entries kept, idempotent, uninstall restores.
// 20. guard request (GUARD-15): for any family, any tool input a model could write (long runs of
//     quotes, backslashes, control characters, non-ASCII; many or long names; nesting), any bound
//     and both forms, the request text is within its bound, is the body, keeps the command
//     argument and the tool name, and the minimal form is ASCII.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_set>

#include "host_table.h"
#include "pinta/admin/claude_code.h"
#include "pinta/admin/install.h"
#include "pinta/adapter/config.h"
#include "pinta/adapter/guard.h"
#include "pinta/adapter/handler.h"
#include "pinta/adapter/redact.h"
#include "pinta/adapter/span_queue.h"
#include "pinta/common/test_support.h"
#include "pinta/emulator/antigravity/antigravity.h"

namespace {

using nlohmann::json;
namespace ad = pinta::adapter;
namespace agy = pinta::emu::agy;
using pinta::fuzz::Host;
using pinta::fuzz::ReplyKind;

// Every registered family's --agent labels (pinta/hosts/family.h): a new family is covered by
// registering it.
const std::vector<std::string> kAgents = [] {
  std::vector<std::string> v;
  for (const auto& d : pinta::hosts::families())
    for (auto l : d.agent_labels)
      if (!l.empty()) v.emplace_back(l);
  return v;
}();

std::vector<std::string> all_events() { return pinta::fuzz::event_names_with_unknowns(); }

Host family_of_label(const std::string& agent) { return *pinta::fuzz::host_for_agent(agent); }

// The reply as the host receives it: an empty reply is no output ({} stands for it).
json reply_json(std::string_view r) { return r.empty() ? json::object() : json::parse(r); }

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
  const Host h = family_of_label(agent);
  // As the handler does (parse_args): another spelling of an event is normalized under its name.
  const ad::CanonicalEvent e = ad::normalize(h, agent, ad::canonical_event(h, event), payload);
  RC_ASSERT(e.known_event == pinta::fuzz::known_event(h, event));
  RC_ASSERT(e.raw == payload);
  RC_ASSERT(ad::to_json(e).is_object());
}

// 2
RC_GTEST_PROP(Normalize, ReadsItsFamilysIdentifiers, ()) {
  json payload = *gen_payload();
  const std::string agent = *rc::gen::elementOf(kAgents);
  const Host h = family_of_label(agent);
  const ad::CanonicalEvent e = ad::normalize(h, agent, "X", payload);
  // Where the family keeps them: the label's payload shape in the registry (a family may read a
  // different shape per --agent label).
  const auto& shape = pinta::hosts::payload_shape(h, agent);
  const std::string sid_key(shape.session_id);
  if (!sid_key.empty() && payload.contains(sid_key) && payload[sid_key].is_string()) {
    RC_ASSERT(e.session_id == payload[sid_key].get<std::string>());
  } else {
    RC_ASSERT(e.session_id.empty());
  }
  if (shape.tool_object.empty()) {
    const std::string name_key(shape.tool_name);
    if (payload.contains(name_key) && payload[name_key].is_string())
      RC_ASSERT(e.tool_name == payload[name_key].get<std::string>());
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
  const Host h = family_of_label(agent);
  ReplyKind kind{};
  const std::string why = pinta::fuzz::judge_reply(h, event, o.reply, &kind, o.exit_status);
  RC_ASSERT(why.empty());
  ReplyKind want = ReplyKind::kAllow;
  if (with_guard && pinta::fuzz::gate_event(h, event)) {
    if (v.decision == ad::GuardVerdict::Decision::kDeny) want = ReplyKind::kDeny;
    if (v.decision == ad::GuardVerdict::Decision::kReview && ask &&
        pinta::hosts::descriptor(h).ask_on_gate)
      want = ReplyKind::kAsk;
  }
  RC_ASSERT(kind == want);
}

// 4
RC_GTEST_PROP(Reply, DenyReplyIsValidForAnyReason, (const std::string& reason)) {
  const std::string agent = *rc::gen::elementOf(kAgents);
  const std::string event = *rc::gen::elementOf(all_events());
  RC_PRE(!reason.empty());
  const Host h = family_of_label(agent);
  const std::string r = ad::deny_reply(h, event, reason);
  const auto* row = ad::find_reply_row(h, event);
  const int status = row != nullptr && row->deny_allowed ? ad::deny_exit_status(h) : 0;
  ReplyKind kind{};
  RC_ASSERT(pinta::fuzz::judge_reply(h, event, r, &kind, status).empty());
  // A deny where the adapter sends one (its gate), and only where the host honours it.
  RC_ASSERT((kind == ReplyKind::kDeny) == (row != nullptr && row->deny_allowed));
  if (kind == ReplyKind::kDeny) RC_ASSERT(pinta::fuzz::deny_meaningful(h, event));
  if (kind == ReplyKind::kDeny && ad::valid_utf8(reason) && !pinta::hosts::answers_by_exit_status(h) &&
      reason.find_first_not_of(" \t\n") != std::string::npos)
    RC_ASSERT(pinta::fuzz::deny_reason(h, r) == reason);
}

// 5
RC_GTEST_PROP(Reply, AskReplyOnlyOnTheGate, (const std::string& reason)) {
  const std::string agent = *rc::gen::elementOf(kAgents);
  const std::string event = *rc::gen::elementOf(all_events());
  const Host h = family_of_label(agent);
  const std::string r = ad::ask_reply(h, event, reason);
  ReplyKind kind{};
  RC_ASSERT(pinta::fuzz::judge_reply(h, event, r, &kind).empty());
  RC_ASSERT((kind == ReplyKind::kAsk) ==
            (pinta::fuzz::gate_event(h, event) && pinta::hosts::descriptor(h).ask_on_gate));
}

// 6
RC_GTEST_PROP(Reply, FailSafeIsTheAllowReply, (const std::string& any_event)) {
  const std::string event =
      *rc::gen::oneOf(rc::gen::just(any_event), rc::gen::elementOf(all_events()));
  const std::string agent = *rc::gen::elementOf(kAgents);
  const Host h = family_of_label(agent);
  RC_ASSERT(reply_json(ad::fail_safe_reply(h, event)) == pinta::fuzz::allow_reply(h, event));
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
// A rule's whole-text prefilter (Rule::may_match) is a necessary condition: on text built from
// the characters its scan looks at, it never says "cannot match" where the regex matches.
RC_GTEST_PROP(Redact, PrefiltersNeverSkipAMatch, ()) {
  // Tokens that end in `:` make colon chains (host:port:db:user:password) common; secret words,
  // `=`, `--`, tags and a 16-character token exercise the name, flag, tag and prose-token scans.
  const auto pieces = *rc::gen::container<std::vector<std::string>>(rc::gen::element<std::string>(
      "h:", "5432:", "1:", "*:", "db:", "u.s-e_r:", "p@ss", "/p", "/", ":", "\"", "'", " ", "\t",
      "\n", "\v", "\f", "\r", "x", "::", "=", ":=", "=>", "--", "-", "_", ".", "KEY", "token",
      "Pass", "seed", "phrase", "session", "id", "<a>", "</", "<", ">", "Zq7vK2mW9xLp4RtN"));
  std::string s;
  for (const auto& p : pieces) s += p;
  RC_ASSERT(pinta::adapter::redaction_prefilter_misses(s).empty());
}

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

// ---- Span queue (16, 17) -------------------------------------------------------------------------

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Physical lines as SpanQueue splits them: a final fragment without '\n' is a line; empty lines
// are skipped.
std::vector<std::string> file_lines(const std::string& data) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < data.size()) {
    size_t nl = data.find('\n', start);
    if (nl == std::string::npos) nl = data.size();
    if (nl > start) out.push_back(data.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

std::string hex_id(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// A queue line as the adapter writes it (otlp::queue_line layout): spanId first, '}' only at the
// very end, so cutting 3 or more bytes off it never leaves a line that looks complete.
std::string span_line(const std::string& id, size_t pad) {
  return "{\"spanId\":\"" + id + "\",\"resource\":[],\"span\":{\"spanId\":\"" + id +
         "\",\"name\":\"s\",\"pad\":\"" + std::string(pad, 'x') + "\"}}";
}

// A temp dir on tmpfs (/dev/shm) when there is one, else the usual temp dir. The installer and the
// queue's rewrites fsync every file; on tmpfs that costs nothing, which keeps 100+ cases within
// seconds. What these properties check does not depend on the file system (the concurrent-writer
// property stays on the ordinary temp dir).
// A TempDir in RAM (/dev/shm) when there is one.
class FastTempDir : public pinta::testing::TempDir {
 public:
  FastTempDir() : TempDir(shm_or_default()) {}

 private:
  static std::string shm_or_default() {
    std::error_code ec;
    return std::filesystem::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0
               ? "/dev/shm"
               : "";
  }
};

// The in-test model of the queue file: every physical line, in order, with the counters.
struct QueueModel {
  struct Entry {
    std::string bytes;
    std::string id;  // "" for a corrupt line or a torn fragment
  };
  size_t cap = 1;
  std::deque<Entry> file;
  ad::QueueCounters c;
  int64_t torn_valid = 0;  // spans the test destroyed by tearing the tail

  std::vector<const Entry*> valid() const {
    std::vector<const Entry*> v;
    for (const auto& e : file)
      if (!e.id.empty()) v.push_back(&e);
    return v;
  }
  // What a reader sees: the newest `cap` valid lines, oldest first.
  std::vector<std::string> visible() const {
    auto v = valid();
    std::vector<std::string> out;
    for (size_t i = v.size() > cap ? v.size() - cap : 0; i < v.size(); ++i) out.push_back(v[i]->id);
    return out;
  }
  std::vector<std::string> over_cap() const {
    auto v = valid();
    std::vector<std::string> out;
    for (size_t i = 0; v.size() > cap && i < v.size() - cap; ++i) out.push_back(v[i]->id);
    return out;
  }
  // Appends only append: the caps are enforced by the flusher's pass (span_queue.h "Caps").
  void append(Entry e) {
    file.push_back(std::move(e));
    c.lines += 1;
    c.appended += 1;
  }
};

// The simple specification: a deque capped at the cap, newest kept, oldest dropped first.
struct CappedDeque {
  size_t cap = 1;
  std::deque<std::string> q;
  int64_t dropped = 0;
  void push(const std::string& id) {
    q.push_back(id);
    if (q.size() > cap) {
      q.pop_front();
      ++dropped;
    }
  }
};

std::vector<std::string> record_ids(const ad::QueueSnapshot& s) {
  std::vector<std::string> out;
  for (const auto& r : s.records) out.push_back(r["spanId"].get<std::string>());
  return out;
}

template <typename C>
std::set<std::string> as_set(const C& c) {
  return std::set<std::string>(c.begin(), c.end());
}

// Every check after one step: the file line by line, the snapshot, the counters.
void check_queue(ad::SpanQueue& q, const QueueModel& m, const CappedDeque* spec) {
  const std::vector<std::string> lines = file_lines(read_all(q.queue_path()));
  std::vector<std::string> want_lines;
  for (const auto& e : m.file) want_lines.push_back(e.bytes);
  RC_ASSERT(lines == want_lines);
  auto snap = q.snapshot(1u << 20);
  RC_ASSERT(snap.has_value());
  // No torn line passes for a record: every line parses as a queue record or is reported corrupt.
  size_t valid_lines = 0;
  for (const auto& l : lines) {
    const json j = json::parse(l, nullptr, false);
    const bool record = j.is_object() && j.contains("spanId") && j["spanId"].is_string() &&
                        j["spanId"].get<std::string>() == std::string(ad::queue_line_span_id(l));
    if (record) ++valid_lines;
    else RC_ASSERT(snap->corrupt_lines.count(l) == 1u);
  }
  RC_ASSERT(snap->records.size() <= m.cap);
  RC_ASSERT(record_ids(*snap) == m.visible());
  RC_ASSERT(as_set(snap->over_cap) == as_set(m.over_cap()));
  RC_ASSERT(snap->valid_total == valid_lines);
  auto c = q.counters();
  RC_ASSERT(c.has_value());
  RC_ASSERT(c->to_json().dump() == m.c.to_json().dump());
  // Conservation: every appended span is visible, pending drop, dropped, delivered or torn.
  RC_ASSERT(c->appended == static_cast<int64_t>(snap->records.size() + snap->over_cap.size()) +
                               c->dropped_cap + c->delivered + m.torn_valid);
  if (spec != nullptr) {
    const std::vector<std::string> want(spec->q.begin(), spec->q.end());
    RC_ASSERT(record_ids(*snap) == want);
    RC_ASSERT(c->dropped_cap + static_cast<int64_t>(snap->over_cap.size()) == spec->dropped);
  }
}

// 16
RC_GTEST_PROP(SpanQueueModel, AgreesWithTheModelAfterEveryStep, ()) {
  FastTempDir tmp;
  RC_ASSERT(tmp.ok());
  const size_t cap = *rc::gen::inRange<size_t>(1, 7);
  std::filesystem::create_directories(tmp.sub("data"));  // so foreign lines can land first
  ad::SpanQueue q({tmp.sub("data"), cap, 5000});
  QueueModel m;
  m.cap = cap;
  CappedDeque spec;
  spec.cap = cap;
  bool spec_exact = true;  // a torn span can let a pending over-cap one back in view
  const uint64_t salt = *rc::gen::inRange<uint64_t>(0, 1u << 20);
  uint64_t next = 0, junk = 0;
  const int steps = *rc::gen::inRange(1, 30);
  for (int step = 0; step < steps; ++step) {
    const int op = *rc::gen::weightedElement<int>({{5, 0}, {3, 1}, {1, 2}, {1, 3}, {1, 4}});
    if (op == 0) {  // append N spans with fresh random ids and sizes
      const int n = *rc::gen::inRange(1, static_cast<int>(2 * cap) + 3);
      for (int i = 0; i < n; ++i) {
        const std::string id = hex_id((salt << 40) | (*rc::gen::inRange<uint64_t>(0, 1u << 16) << 20) | next++);
        const std::string line = span_line(id, *rc::gen::inRange<size_t>(0, 64));
        RC_ASSERT(q.append(line).ok());
        m.append({line, id});
        spec.push(id);
      }
    } else if (op == 1) {  // the flusher's pass: take k, drop over-cap, clean corrupt lines
      const size_t k = *rc::gen::inRange<size_t>(0, cap + 2);
      auto snap = q.snapshot(k);
      RC_ASSERT(snap.has_value());
      const std::vector<std::string> vis = m.visible();
      const std::vector<std::string> want(vis.begin(), vis.begin() + static_cast<std::ptrdiff_t>(std::min(k, vis.size())));
      RC_ASSERT(record_ids(*snap) == want);
      std::set<std::string> want_corrupt;
      for (const auto& e : m.file)
        if (e.id.empty()) want_corrupt.insert(e.bytes);
      RC_ASSERT(as_set(snap->corrupt_lines) == want_corrupt);
      std::unordered_set<std::string> done = snap->over_cap;
      for (const auto& id : want) done.insert(id);
      ad::QueueCounters delta;
      delta.delivered = static_cast<int64_t>(want.size());
      delta.dropped_cap = static_cast<int64_t>(snap->over_cap.size());
      delta.corrupt = static_cast<int64_t>(snap->corrupt_lines.size());
      RC_ASSERT(q.remove(done, snap->corrupt_lines, delta).ok());
      std::deque<QueueModel::Entry> keep;
      for (const auto& e : m.file)
        if (!e.id.empty() && done.count(e.id) == 0) keep.push_back(e);
      m.file = std::move(keep);
      m.c.add(delta);
      m.c.lines = static_cast<int64_t>(m.file.size());
      for (size_t i = 0; i < want.size(); ++i) spec.q.pop_front();
    } else if (op == 2 || op == 3) {  // torn write: cut the tail inside the last line
      if (m.file.empty()) continue;
      const std::string data = read_all(q.queue_path());
      QueueModel::Entry& last = m.file.back();
      if (last.bytes.size() < 4) continue;
      const size_t keep = *rc::gen::inRange<size_t>(1, last.bytes.size() - 2);
      const size_t tail = last.bytes.size() + (data.back() == '\n' ? 1 : 0);
      RC_ASSERT(data.size() >= tail);
      const size_t start = data.size() - tail;
      RC_ASSERT(data.compare(start, last.bytes.size(), last.bytes) == 0);
      std::filesystem::resize_file(q.queue_path(), start + keep);
      if (!last.id.empty()) {
        ++m.torn_valid;
        spec_exact = false;
      }
      last.bytes.resize(keep);
      last.id.clear();
    } else {  // a foreign line (another tool, a bad disk); after a torn tail it joins that line
      const std::string bytes = "not a span " + std::to_string(junk++);
      const std::string data = read_all(q.queue_path());
      { std::ofstream(q.queue_path(), std::ios::app | std::ios::binary) << bytes << "\n"; }
      if (!data.empty() && data.back() != '\n')
        m.file.back().bytes += bytes;
      else
        m.file.push_back({bytes, ""});
    }
    check_queue(q, m, spec_exact ? &spec : nullptr);
  }
  RC_CLASSIFY(m.c.dropped_cap > 0, "dropped");
  RC_CLASSIFY(m.c.corrupt > 0, "corrupt cleaned");
  RC_CLASSIFY(m.torn_valid > 0, "span torn");
}

// 17
RC_GTEST_PROP(SpanQueueModel, ConcurrentWritersNeverTearNorDuplicate, ()) {
  pinta::testing::TempDir tmp;
  const size_t cap = *rc::gen::inRange<size_t>(1, 60);
  const int writers = *rc::gen::inRange(2, 9);
  const int each = *rc::gen::inRange(1, 51);
  const std::string dir = tmp.sub("data");
  std::vector<pid_t> kids;
  for (int w = 0; w < writers; ++w) {
    const pid_t pid = ::fork();
    RC_ASSERT(pid >= 0);
    if (pid == 0) {
      ad::SpanQueue q({dir, cap, 20000});
      int bad = 0;
      for (int i = 0; i < each; ++i)
        bad += q.append(span_line(hex_id((uint64_t(w) << 32) | uint64_t(i)), size_t(i % 7) * 9)).ok() ? 0 : 1;
      ::_exit(bad == 0 ? 0 : 1);
    }
    kids.push_back(pid);
  }
  int failed = 0;
  for (pid_t k : kids) {
    int st = 0;
    ::waitpid(k, &st, 0);
    failed += WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
  }
  RC_ASSERT(failed == 0);
  const size_t total = static_cast<size_t>(writers * each);
  ad::SpanQueue q({dir, cap, 5000});
  // The snapshot first: it folds in the overflow slots (appends that found the queue busy).
  auto snap = q.snapshot(1u << 20);
  RC_ASSERT(snap.has_value());
  RC_ASSERT(!q.has_side_files());
  const std::vector<std::string> lines = file_lines(read_all(q.queue_path()));
  RC_ASSERT(lines.size() == total);  // appends never drop: the flusher enforces the cap
  for (const auto& l : lines) {
    const json j = json::parse(l, nullptr, false);
    RC_ASSERT(j.is_object());
    RC_ASSERT(!ad::queue_line_span_id(l).empty());
  }
  RC_ASSERT(snap->corrupt_lines.empty());
  RC_ASSERT(snap->records.size() == std::min(total, cap));
  std::set<std::string> seen;
  std::map<int, std::vector<int>> by_writer;
  for (const auto& id : record_ids(*snap)) {
    RC_ASSERT(seen.insert(id).second);  // no duplicates
    const uint64_t v = std::stoull(id, nullptr, 16);
    const int w = static_cast<int>(v >> 32), i = static_cast<int>(v & 0xffffffffu);
    RC_ASSERT(w < writers && i < each);  // written by one of ours
    by_writer[w].push_back(i);
  }
  auto c = q.counters();
  RC_ASSERT(c.has_value());
  // Newest kept: each writer's survivors are its last ones, in the order it wrote them. A span
  // that found the queue busy went to an overflow slot and joined the queue when the snapshot
  // folded it in, so it counts as newer than its writer's later spans (contract OTLP-6).
  RC_CLASSIFY(c->deferred > 0, "through a slot");
  if (c->deferred == 0) {
    for (const auto& [w, is] : by_writer)
      for (size_t k = 0; k < is.size(); ++k)
        RC_ASSERT(is[k] == each - static_cast<int>(is.size()) + static_cast<int>(k));
  }
  RC_ASSERT(c->appended == static_cast<int64_t>(total));
  RC_ASSERT(c->corrupt == 0);
  RC_ASSERT(c->dropped_cap + static_cast<int64_t>(snap->over_cap.size()) ==
            static_cast<int64_t>(total - std::min(total, cap)));
}

// ---- Installer merge (18, 19) --------------------------------------------------------------------

namespace adm = pinta::admin;
using ojson = nlohmann::ordered_json;

// Every file (content) and directory ("<dir>") under root.
std::map<std::string, std::string> tree(const std::string& root) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
       it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    const std::string rel = std::filesystem::relative(it->path(), root).string();
    out[rel] = it->is_directory() ? std::string("<dir>") : read_all(it->path().string());
  }
  return out;
}

void write_file(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// GEMINI_PLUGIN_DATA would move the installer's state out of the temp home: unset it for the
// property and put it back afterwards.
class NoPluginDataEnv {
 public:
  NoPluginDataEnv() {
    if (const char* v = std::getenv("GEMINI_PLUGIN_DATA")) old_ = std::string(v);
    ::unsetenv("GEMINI_PLUGIN_DATA");
  }
  ~NoPluginDataEnv() {
    if (old_) ::setenv("GEMINI_PLUGIN_DATA", old_->c_str(), 1);
  }

 private:
  std::optional<std::string> old_;
};

rc::Gen<std::string> gen_name() {
  // No 'p': never our own key "pinta-gemini".
  return rc::gen::nonEmpty(rc::gen::container<std::string>(rc::gen::elementOf(std::string("abcxyz-_09"))));
}

ojson to_ojson(const json& j) { return ojson::parse(j.dump()); }

std::string gen_text(const ojson& doc) {
  const int indent = *rc::gen::elementOf(std::vector<int>{-1, 2, 4});
  const bool nl = *rc::gen::arbitrary<bool>();
  return doc.dump(indent) + (nl ? "\n" : "");
}

// A user's Antigravity hooks.json: well-formed named hooks, sometimes keys holding anything.
ojson gen_agy_doc() {
  ojson doc = ojson::object();
  const int n = *rc::gen::inRange(0, 6);
  for (int i = 0; i < n; ++i) {
    const std::string name = *gen_name();
    ojson hook = ojson::object();
    const int kind = *rc::gen::inRange(0, 4);
    const std::string cmd = "./" + *gen_name() + ".sh";
    if (kind == 0) {
      hook["PreToolUse"] = ojson::array({ojson{
          {"matcher", *rc::gen::elementOf(std::vector<std::string>{"", "*", "run_command"})},
          {"hooks", ojson::array({ojson{{"type", "command"}, {"command", cmd}, {"timeout", *rc::gen::inRange(1, 60)}}})}}});
    } else if (kind == 1) {
      hook["Stop"] = ojson::array({ojson{{"type", "command"}, {"command", cmd}}});
    } else if (kind == 2) {
      hook["enabled"] = *rc::gen::arbitrary<bool>();
      hook["PostInvocation"] = ojson::array({ojson{{"type", "command"}, {"command", cmd}}});
    } else {
      doc[name] = to_ojson(*rc::gen::resize(5, gen_json(2)));  // foreign key, any value
      continue;
    }
    doc[name] = hook;
  }
  return doc;
}

// An install that must be planned and applied; the home's tree after it.
std::map<std::string, std::string> install_once(const adm::InstallOptions& o) {
  auto p = adm::plan_install(o);
  RC_ASSERT(p.has_value());
  RC_ASSERT(adm::apply(*p).ok());
  return tree(o.home);
}

// A second install plans nothing and changes no byte; an uninstall then gives back `before`, the
// home as it was before the first install, byte for byte.
void reinstall_then_uninstall(const adm::InstallOptions& o,
                              const std::map<std::string, std::string>& installed,
                              const std::map<std::string, std::string>& before) {
  auto again = adm::plan_install(o);
  RC_ASSERT(again.has_value());
  RC_ASSERT(again->changes.empty());
  RC_ASSERT(adm::apply(*again).ok());
  RC_ASSERT(tree(o.home) == installed);
  auto u = adm::plan_uninstall(o);
  RC_ASSERT(u.has_value());
  RC_ASSERT(adm::apply(*u).ok());
  RC_ASSERT(tree(o.home) == before);
}

// Options of an install into a fresh home under `tmp` (the installer's merge properties).
adm::InstallOptions install_options(adm::Host host, const FastTempDir& tmp) {
  adm::InstallOptions o;
  o.host = host;
  o.home = tmp.sub("home");
  o.gemini_home = o.home;
  o.adapter_path = "/opt/pinta/bin/pinta-gemini";
  o.profile_dir = agy::default_profile_dir();
  std::filesystem::create_directories(o.home);
  return o;
}

// install_options, and half the time a project (--workspace) under the home instead of the user file.
adm::InstallOptions install_options_user_or_project(adm::Host host, const FastTempDir& tmp) {
  adm::InstallOptions o = install_options(host, tmp);
  if (*rc::gen::arbitrary<bool>()) {
    o.workspace = tmp.sub("home/ws");
    std::filesystem::create_directories(o.workspace);
  }
  return o;
}

// 18
RC_GTEST_PROP(InstallMerge, AntigravityKeepsForeignHooksIdempotentAndUninstallRestores, ()) {
  NoPluginDataEnv env;
  FastTempDir tmp;
  RC_ASSERT(tmp.ok());
  const adm::InstallOptions o = install_options_user_or_project(adm::Host::kAntigravity, tmp);
  const std::string path = adm::antigravity_hooks_path(o);
  const bool existed = *rc::gen::inRange(0, 5) != 0;
  const ojson user = existed ? gen_agy_doc() : ojson::object();
  const std::string text = *rc::gen::weightedElement<int>({{1, 0}, {1, 1}}) == 0
                               ? user.dump(2) + "\n"  // the installer's own format
                               : gen_text(user);
  if (existed) write_file(path, text);
  const auto before = tree(o.home);

  auto p = adm::plan_install(o);
  if (!p) {
    // Only refusal allowed: a merged file some profile would reject; then nothing is written.
    RC_ASSERT(p.error().code == pinta::ErrorCode::kProtocol);
    RC_ASSERT(tree(o.home) == before);
    RC_TAG("refused");
    return;
  }
  RC_ASSERT(adm::apply(*p).ok());
  const auto installed = tree(o.home);
  const ojson merged = ojson::parse(read_all(path));
  RC_ASSERT(merged.is_object());
  RC_ASSERT(merged.contains(adm::kHookName));
  // Foreign keys: all kept, same values, same order, ours appended after them (or in place).
  ojson foreign = merged;
  foreign.erase(adm::kHookName);
  RC_ASSERT(foreign.dump() == user.dump());  // values and order
  if (existed) RC_ASSERT(read_all(path + ".pinta-bak") == text);  // the user's bytes, once

  // Idempotent, then byte for byte back whatever the user's layout (compact, 2 or 4 spaces, no
  // final newline): install splices our member in, uninstall puts the user's bytes back; backup
  // and state gone.
  reinstall_then_uninstall(o, installed, before);
  if (existed) {
    // The installed file differs from the user's only inside our member.
    const std::string installed_text = installed.at(std::filesystem::relative(path, o.home).string());
    RC_ASSERT(installed_text.size() > text.size());
    size_t head = 0;
    while (head < text.size() && text[head] == installed_text[head]) ++head;
    size_t tail = 0;
    while (tail < text.size() - head &&
           text[text.size() - 1 - tail] == installed_text[installed_text.size() - 1 - tail])
      ++tail;
    RC_ASSERT(head + tail >= text.size() - 1);  // at most one byte between (a comma's place)
  }
  RC_CLASSIFY(existed, "existing file");
  RC_CLASSIFY(!p->warnings.empty(), "warned");
}

// 19
RC_GTEST_PROP(InstallMerge, GeminiLeavesForeignSettingsAndExtensionsAlone, ()) {
  NoPluginDataEnv env;
  FastTempDir tmp;
  RC_ASSERT(tmp.ok());
  adm::InstallOptions o = install_options(adm::Host::kGemini, tmp);
  const std::string g = o.home + "/.gemini";

  // settings.json: foreign keys and foreign hooks (Gemini's shape).
  ojson settings = ojson::object();
  for (const auto& k : *rc::gen::container<std::vector<std::string>>(rc::gen::resize(4, gen_name())))
    settings[k] = to_ojson(*rc::gen::resize(5, gen_json(2)));
  ojson hooks = ojson::object();
  for (const auto& e : *rc::gen::container<std::set<std::string>>(rc::gen::elementOf(adm::installed_events(adm::Host::kGemini))))
    hooks[e] = ojson::array({ojson{{"matcher", ""},
                                   {"hooks", ojson::array({ojson{{"name", *gen_name()},
                                                                 {"type", "command"},
                                                                 {"command", "./" + *gen_name()}}})}}});
  if (!hooks.empty()) settings["hooks"] = hooks;
  if (*rc::gen::arbitrary<bool>()) settings["hooksConfig"] = ojson{{"enabled", *rc::gen::arbitrary<bool>()}};
  if (*rc::gen::inRange(0, 4) != 0) write_file(g + "/settings.json", gen_text(settings));
  // A foreign extension.
  if (*rc::gen::arbitrary<bool>())
    write_file(g + "/extensions/" + *gen_name() + "/gemini-extension.json", gen_text(ojson{{"name", "x"}}));
  // extension-enablement.json: foreign entries, maybe one of ours that disables or does not.
  const std::string en_path = g + "/extensions/extension-enablement.json";
  ojson en = ojson::object();
  for (const auto& k : *rc::gen::container<std::vector<std::string>>(rc::gen::resize(4, gen_name())))
    en[k] = ojson{{"overrides", ojson::array({*rc::gen::elementOf(std::vector<std::string>{"!/x/*", "/y/*", "!/home/*"})})}};
  const int ours = *rc::gen::inRange(0, 3);  // 0 none, 1 a disabling rule, 2 an enabling rule
  if (ours == 1) en[adm::kHookName] = ojson{{"overrides", ojson::array({"!/home/*"})}};
  if (ours == 2) en[adm::kHookName] = ojson{{"overrides", ojson::array({"/home/*"})}};
  const bool has_en = ours != 0 || *rc::gen::arbitrary<bool>();
  const std::string en_text = gen_text(en);
  if (has_en) write_file(en_path, en_text);
  ojson en_foreign = en;
  en_foreign.erase(adm::kHookName);
  const auto before = tree(o.home);

  auto p = adm::plan_install(o);
  RC_ASSERT(p.has_value());
  RC_ASSERT(adm::apply(*p).ok());
  const auto installed = tree(o.home);
  // Everything the user had is byte-identical, except our own enablement rule when it disabled us.
  for (const auto& [rel, content] : before) {
    if (has_en && ours == 1 && rel == std::filesystem::relative(en_path, o.home).string()) continue;
    RC_ASSERT(installed.count(rel) == 1u);
    RC_ASSERT(installed.at(rel) == content);
  }
  if (has_en && ours == 1) {
    RC_ASSERT(ojson::parse(read_all(en_path)).dump() == en_foreign.dump());
    RC_ASSERT(read_all(en_path + ".pinta-bak") == en_text);
  }
  RC_ASSERT(std::filesystem::exists(adm::gemini_extension_dir(o) + "/hooks/hooks.json"));

  auto again = adm::plan_install(o);
  RC_ASSERT(again.has_value());
  RC_ASSERT(again->changes.empty());
  RC_ASSERT(adm::apply(*again).ok());
  RC_ASSERT(tree(o.home) == installed);

  auto u = adm::plan_uninstall(o);
  RC_ASSERT(u.has_value());
  RC_ASSERT(adm::apply(*u).ok());
  auto after = tree(o.home);
  auto want = before;
  if (has_en && ours != 0) {
    // Our entry goes; every foreign entry stays, in order.
    const std::string rel = std::filesystem::relative(en_path, o.home).string();
    RC_ASSERT(ojson::parse(after.at(rel)).dump() == en_foreign.dump());
    after.erase(rel);
    want.erase(rel);
    after.erase(rel + ".pinta-bak");
  }
  RC_ASSERT(after == want);
}

// 20: Claude Code's settings.json (user or project): foreign keys, foreign hooks in Claude Code's
// shape (some on the events we register, with and without matchers), any layout. Install keeps
// every foreign byte, is idempotent, and uninstall gives the user's file back byte for byte.
RC_GTEST_PROP(InstallMerge, ClaudeCodeKeepsTheUsersSettingsAndUninstallRestoresThem, ()) {
  NoPluginDataEnv env;
  FastTempDir tmp;
  RC_ASSERT(tmp.ok());
  const adm::InstallOptions o = install_options_user_or_project(adm::Host::kClaude, tmp);
  const std::string path = adm::claude_code_settings_path(o);
  ojson settings = ojson::object();
  for (const auto& k : *rc::gen::container<std::vector<std::string>>(rc::gen::resize(4, gen_name())))
    settings[k] = to_ojson(*rc::gen::resize(5, gen_json(2)));
  ojson hooks = ojson::object();
  for (const auto& e : *rc::gen::container<std::set<std::string>>(
           rc::gen::elementOf(adm::claude_code_events()))) {
    ojson group = ojson::object();
    if (*rc::gen::arbitrary<bool>()) group["matcher"] = *rc::gen::elementOf(std::vector<std::string>{"", "*", "Bash", "Edit|Write"});
    ojson handler = {{"type", "command"}, {"command", "./" + *gen_name() + ".sh"}};
    if (*rc::gen::arbitrary<bool>()) handler["timeout"] = *rc::gen::inRange(1, 600);
    group["hooks"] = ojson::array({handler});
    hooks[e] = ojson::array({group});
  }
  if (!hooks.empty()) settings["hooks"] = hooks;
  const bool existed = *rc::gen::inRange(0, 5) != 0;
  if (!existed) settings = ojson::object(), hooks = ojson::object();  // no file: nothing foreign
  const std::string text = gen_text(settings);
  if (existed) write_file(path, text);
  const auto before = tree(o.home);

  const auto installed = install_once(o);
  const ojson merged = ojson::parse(read_all(path));
  RC_ASSERT(merged.is_object());
  // Every foreign key keeps its value and place; every foreign handler is still there.
  for (auto it = settings.begin(); it != settings.end(); ++it) {
    RC_ASSERT(merged.contains(it.key()));
    if (it.key() != "hooks") RC_ASSERT(merged[it.key()].dump() == it.value().dump());
  }
  for (auto it = hooks.begin(); it != hooks.end(); ++it) {
    const std::string want = it.value()[0]["hooks"][0].dump();
    bool kept = false;
    for (const auto& g : merged["hooks"][it.key()])
      for (const auto& h : g.value("hooks", ojson::array())) kept = kept || h.dump() == want;
    RC_ASSERT(kept);
  }
  for (const auto& e : adm::claude_code_events()) RC_ASSERT(merged["hooks"].contains(e));

  reinstall_then_uninstall(o, installed, before);
  RC_CLASSIFY(existed, "existing file");
  RC_CLASSIFY(!hooks.empty(), "foreign hooks");
}

// 21: deel-local-cli's hooks.json in both shapes it reads (an event map, its Korean names too, or
// a flat array of handlers with `event`): foreign handlers kept, idempotent, uninstall byte for byte.
RC_GTEST_PROP(InstallMerge, DeelKeepsTheUsersHooksAndUninstallRestoresThem, ()) {
  NoPluginDataEnv env;
  FastTempDir tmp;
  RC_ASSERT(tmp.ok());
  const adm::InstallOptions o = install_options_user_or_project(adm::Host::kDeel, tmp);
  const std::string path = adm::deel_hooks_path(o);
  const std::vector<std::string> names = {"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop",
                                          "도구전", "도구후", "말전", "턴끝"};
  ojson doc = ojson::object();
  for (const auto& k : *rc::gen::container<std::vector<std::string>>(rc::gen::resize(3, gen_name())))
    doc[k] = to_ojson(*rc::gen::resize(4, gen_json(2)));
  const bool flat = *rc::gen::arbitrary<bool>();
  ojson hooks = flat ? ojson::array() : ojson::object();
  for (const auto& e : *rc::gen::container<std::set<std::string>>(rc::gen::elementOf(names))) {
    ojson handler = {{"type", "command"}, {"command", "./" + *gen_name() + ".sh"}};
    if (*rc::gen::arbitrary<bool>()) handler["onError"] = *rc::gen::elementOf(std::vector<std::string>{"pass", "block"});
    const std::string matcher = *rc::gen::elementOf(std::vector<std::string>{"*", "Bash", "셸"});
    if (flat) {
      ojson f = {{"event", e}, {"matcher", matcher}};
      for (auto it = handler.begin(); it != handler.end(); ++it) f[it.key()] = it.value();
      hooks.push_back(f);
    } else {
      hooks[e] = ojson::array({ojson{{"matcher", matcher}, {"hooks", ojson::array({handler})}}});
    }
  }
  doc["hooks"] = hooks;
  const bool existed = *rc::gen::inRange(0, 5) != 0;
  const std::string text = gen_text(doc);
  if (existed) write_file(path, text);
  const auto before = tree(o.home);

  const auto installed = install_once(o);
  const ojson merged = ojson::parse(read_all(path));
  if (existed) {
    for (auto it = doc.begin(); it != doc.end(); ++it)
      if (it.key() != "hooks") RC_ASSERT(merged[it.key()].dump() == it.value().dump());
    // Every foreign handler is still there (its JSON text appears in the merged file).
    for (const auto& h : hooks) {
      const ojson one = flat ? h : h[0]["hooks"][0];
      RC_ASSERT(merged.dump().find(one.dump()) != std::string::npos);
    }
  }

  reinstall_then_uninstall(o, installed, before);
  RC_CLASSIFY(existed, "existing file");
  RC_CLASSIFY(flat, "flat array");
}

// A string a model could write: a run of one hostile unit, then a short tail.
std::string hostile_string(size_t max_run) {
  static const std::vector<std::string> units = {"a", "\"", "\\", "\x01", "\n", "\xC3\xA9",
                                                 "\xF0\x9F\x98\x80", " ", "\u2028"};
  const std::string unit = *rc::gen::elementOf(units);
  const size_t n = *rc::gen::inRange<size_t>(0, max_run);
  std::string s;
  s.reserve(unit.size() * n + 8);
  for (size_t i = 0; i < n; ++i) s += unit;
  const std::string tail = *rc::gen::string<std::string>();
  if (ad::valid_utf8(tail)) s += tail;
  return s;
}

RC_GTEST_PROP(GuardRequest, IsWithinItsBoundForAnyToolInput, ()) {
  const auto& d = *rc::gen::elementOf(std::vector<pinta::hosts::FamilyDescriptor>(
      pinta::hosts::families().begin(), pinta::hosts::families().end()));
  const std::string command(d.payload.command_args[0]);
  json args = json::object();
  // Sizes that overflow the smallest bounds (8 KiB, the 4 KiB minimal request) many times over
  // while a run stays in milliseconds.
  args[command] = hostile_string(30000);
  const size_t members = *rc::gen::inRange<size_t>(0, 800);
  const size_t key_run = *rc::gen::inRange<size_t>(1, 400);
  for (size_t i = 0; i < members; ++i) {
    json value = i % 7 == 0 ? json::array({hostile_string(500), json::array({i, hostile_string(50)})})
                            : json(hostile_string(i % 50 == 0 ? 10000 : 100));
    args[std::to_string(i) + hostile_string(key_run)] = std::move(value);
  }
  const std::string tool = *rc::gen::elementOf(std::vector<std::string>{"run_command", "Bash", hostile_string(600)});
  json payload = json::object();
  const auto& sh = d.payload;
  if (!sh.tool_input.empty()) {
    json call = {{std::string(sh.tool_name), tool}, {std::string(sh.tool_input), args}};
    if (sh.tool_object.empty()) payload.update(call); else payload[std::string(sh.tool_object)] = call;
  } else {
    payload = args;
    payload[std::string(sh.tool_name)] = tool;
  }
  const ad::CanonicalEvent ev = ad::normalize(d.id, d.agent_labels[0], d.gate_event, payload);
  const size_t bound = *rc::gen::inRange<size_t>(ad::kGuardMinRequestBytes, ad::kGuardDefaultMaxRequestBytes + 1);
  const bool minimal = *rc::gen::arbitrary<bool>();
  const ad::GuardRequest r = ad::build_guard_request(
      ev, "0000000000000001", bound, minimal ? ad::RequestForm::kMinimal : ad::RequestForm::kFull);
  RC_ASSERT(r.text.size() <= (minimal ? std::min(bound, ad::kGuardMinimalRequestBytes) : bound));
  const json sent = json::parse(r.text, nullptr, false);
  RC_ASSERT(!sent.is_discarded());
  RC_ASSERT(sent == r.body);
  const json& in = sent["input"];
  RC_ASSERT(in["toolInput"].contains(command));
  RC_ASSERT(json::parse(in["rawTextFields"]["toolInput"].get<std::string>()) == in["toolInput"]);
  // The tool name is whole when its worst-case cost fits the field's share (kGuardFieldMaxBytes,
  // a quarter in the minimal request); else it keeps its head and tail around the marker.
  const size_t field = minimal ? ad::kGuardFieldMaxBytes / 4 : ad::kGuardFieldMaxBytes;
  if (tool.size() * 6 + 2 <= field) RC_ASSERT(in["toolName"] == tool);
  else if (in["toolName"] != tool)
    RC_ASSERT(in["toolName"].get<std::string>().find("[truncated ") != std::string::npos);
  if (minimal) {
    for (char c : r.text) RC_ASSERT(static_cast<unsigned char>(c) < 0x80);
  }
  RC_CLASSIFY(r.truncated, "cut");
}

TEST(Properties, ProfilesAreAvailable) {
  // The Antigravity properties skip (RC_PRE) without profiles; make that absence a failure.
  EXPECT_FALSE(agy_profiles().empty());
}

}  // namespace

// The fuzzers' reply judge is the one reply check: bytes a JSON parser would skip (a BOM, a
// leading or trailing space) are outside the hosts' contract (docs/contract.md OUT-1), for every
// event of both JSON-line hosts. nlohmann::json::parse alone accepts all three.
TEST(ReplyFraming, BytesAroundTheObjectAreRejected) {
  for (Host h : {Host::kGemini, Host::kAntigravity})
    for (const auto& event : pinta::fuzz::events(h)) {
      const std::string allow = pinta::fuzz::allow_reply(h, event).dump();
      EXPECT_EQ(pinta::fuzz::judge_reply(h, event, allow), "") << allow;
      for (const std::string& bad : {"\xEF\xBB\xBF" + allow, " " + allow, allow + " "})
        EXPECT_NE(pinta::fuzz::judge_reply(h, event, bad), "") << event << ": " << bad;
    }
}
