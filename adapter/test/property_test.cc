// Properties of the hot path (rapidcheck; the seed is printed, RC_PARAMS="seed=N" replays):
//  1. For any bytes on stdin and any agent/event arguments, the reply is one JSON object whose
//     shape matches the host table (allow reply of that host/event).
//  2. normalize is total and keeps the payload whole.
//  3. The object boundary finder agrees with nlohmann on where a valid object ends, for any split.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "pinta/adapter/handler.h"

namespace pinta::adapter {
namespace {

using nlohmann::json;

const std::vector<std::string> kAgents = {"gemini", "antigravity", "agy", "antigravity2", ""};
const std::vector<std::string> kEvents = {"BeforeTool", "AfterTool", "PreToolUse", "PostToolUse", "Stop",
                                          "PreInvocation", "SessionStart", "Nope", ""};

rc::Gen<json> gen_json(int depth) {
  auto scalar = rc::gen::oneOf(rc::gen::map(rc::gen::arbitrary<int>(), [](int i) { return json(i); }),
                               rc::gen::map(rc::gen::arbitrary<std::string>(), [](std::string s) { return json(s); }),
                               rc::gen::just(json(nullptr)), rc::gen::just(json(true)));
  if (depth <= 0) return scalar;
  return rc::gen::oneOf(
      scalar,
      rc::gen::map(rc::gen::container<std::vector<json>>(rc::gen::lazy([depth] { return gen_json(depth - 1); })),
                   [](std::vector<json> v) { return json(v); }),
      rc::gen::map(rc::gen::container<std::map<std::string, json>>(
                       rc::gen::arbitrary<std::string>(), rc::gen::lazy([depth] { return gen_json(depth - 1); })),
                   [](std::map<std::string, json> m) { return json(m); }));
}

RC_GTEST_PROP(HotPath, AnyBytesAnyArgsGiveTheTableReply, (const std::string& bytes)) {
  const auto agent = *rc::gen::elementOf(kAgents);
  const auto event = *rc::gen::elementOf(kEvents);
  const char* argv[] = {"pinta-gemini", "--agent", agent.c_str(), "--event", event.c_str()};
  Args args = parse_args(5, argv);
  Services s{&system_clock()};
  Outcome o = handle(args, read_event_from_bytes(bytes, InputLimits{}), s);
  RC_ASSERT(o.reply.find('\n') == std::string::npos);
  json j = json::parse(o.reply);
  RC_ASSERT(j.is_object());
  RC_ASSERT(o.reply == std::string(fail_safe_for(args)));
}

RC_GTEST_PROP(HotPath, AnyObjectPayloadNormalizesAndIsKeptWhole, ()) {
  auto obj = *rc::gen::map(rc::gen::container<std::map<std::string, json>>(rc::gen::arbitrary<std::string>(), rc::gen::resize(8, gen_json(1))),
                           [](std::map<std::string, json> m) { return json(m); });
  // A registered label (an unknown one is never normalized: the handler answers it fail-safe).
  auto agent = *rc::gen::elementOf(kAgents);
  if (agent.empty()) agent = "gemini";
  auto e = normalize(*family_for_agent(agent), agent, "PreToolUse", obj);
  RC_ASSERT(e.raw == obj);
  // Every top-level field survives (Bronze flatten depends on it).
  RC_ASSERT(e.raw.size() == obj.size());
}

RC_GTEST_PROP(HotPath, BoundaryAgreesWithParserOnAnySplit, ()) {
  auto obj = *rc::gen::map(rc::gen::container<std::map<std::string, json>>(rc::gen::arbitrary<std::string>(), rc::gen::resize(8, gen_json(2))),
                           [](std::map<std::string, json> m) { return json(m); });
  std::string text = obj.dump(-1, ' ', false, json::error_handler_t::replace);
  const auto cut = *rc::gen::inRange<size_t>(0, text.size() + 1);
  ObjectBoundary b(256);
  auto st = b.feed(std::string_view(text).substr(0, cut));
  if (st != ObjectBoundary::State::kComplete) st = b.feed(std::string_view(text).substr(cut));
  RC_ASSERT(st == ObjectBoundary::State::kComplete);
  RC_ASSERT(b.end() == text.size());
}

}  // namespace
}  // namespace pinta::adapter
