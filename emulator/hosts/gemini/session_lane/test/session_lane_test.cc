// The session lane's pure parts: the telemetry outfile reader and the hook_call comparison.
#include "pinta/emulator/session_lane.h"

#include <gtest/gtest.h>

namespace sl = pinta::emu::session_lane;
using sl::ojson;

namespace {

sl::Root root() {
  sl::Root r;
  r.dir = "/t/real/x";
  r.home = "/t/real/x/h";
  r.ws = "/t/real/x/w";
  return r;
}

// Two pretty-printed records as the CLI's local file exporter writes them (0.61.0 outfile shape),
// one of them not a hook_call; a brace inside a string must not end a document.
const char* kOutfile = R"({
  "attributes": {
    "event.name": "gemini_cli.api_request",
    "text": "a } brace and a \" quote"
  }
}
{
  "hrTime": [1, 2],
  "attributes": {
    "session.id": "b70f2df4",
    "event.name": "gemini_cli.hook_call",
    "event.timestamp": "2026-12-04T11:25:40.060Z",
    "hook_event_name": "BeforeTool",
    "hook_type": "command",
    "hook_name": "/t/real/x/rec.sh bt",
    "duration_ms": 7,
    "success": true,
    "exit_code": 0,
    "hook_input": "{\"timestamp\": \"2026\"}",
    "hook_output": "{\n  \"decision\": \"deny\",\n  \"reason\": \"R\"\n}",
    "stdout": "{\"decision\":\"deny\",\"reason\":\"R\"}\n",
    "stderr": ""
  }
}
)";

TEST(SessionLane, SplitsConcatenatedJson) {
  auto docs = sl::split_json_stream(kOutfile);
  ASSERT_TRUE(docs);
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ((*docs)[0]["attributes"]["text"], "a } brace and a \" quote");
  EXPECT_FALSE(sl::split_json_stream("{\"a\": 1} {\"b\":"));
  EXPECT_FALSE(sl::split_json_stream("garbage"));
  EXPECT_EQ(sl::split_json_stream("  \n")->size(), 0u);
}

TEST(SessionLane, ProjectsHookCallsWithoutTimingOrIds) {
  auto calls = sl::real_hook_calls(kOutfile, root());
  ASSERT_TRUE(calls);
  ASSERT_EQ(calls->size(), 1u);
  const ojson& c = (*calls)[0];
  EXPECT_EQ(c["hook_event_name"], "BeforeTool");
  EXPECT_EQ(c["hook_name"], "@ROOT@/rec.sh bt");
  EXPECT_EQ(c["exit_code"], 0);
  EXPECT_EQ(c["hook_output"], ojson::parse(R"({"decision":"deny","reason":"R"})"));
  for (const char* k : {"duration_ms", "event.timestamp", "session.id", "hook_input"})
    EXPECT_FALSE(c.contains(k)) << k;
}

TEST(SessionLane, CompareReportsEachDifferingHookCall) {
  sl::Outcome real, emu;
  real.hook_calls = sl::real_hook_calls(kOutfile, root());
  emu.hook_calls = *real.hook_calls;
  EXPECT_TRUE(sl::compare(real, emu).empty());
  (*emu.hook_calls)[0]["success"] = false;
  emu.hook_calls->push_back(ojson::object({{"hook_event_name", "AfterTool"}}));
  auto d = sl::compare(real, emu);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].rfind("hook_calls[0]: real ", 0), 0u) << d[0];
  EXPECT_EQ(d[1].rfind("hook_calls[1]: real null emulator ", 0), 0u) << d[1];
  emu.hook_calls.reset();
  d = sl::compare(real, emu);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].find("no hook_calls"), std::string::npos);
  // Not recorded on the real side (a version without the record): nothing to compare.
  real.hook_calls.reset();
  EXPECT_TRUE(sl::compare(real, emu).empty());
}

TEST(SessionLane, TelemetryNoticeIsStderrNoise) {
  auto l = sl::real_stderr_lines(
      "The 'metricReader' option is deprecated. Please use 'metricReaders' instead.\n"
      "Timeout of 30000 exceeds the interval of 10000. Clamping timeout to interval duration.\n"
      "Error executing tool write_file: Tool execution blocked: R in /t/real/x/w\n",
      root(), {});
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0], "Error executing tool write_file: Tool execution blocked: R in @W@");
}

}  // namespace

// Payloads: the volatile values normalized, everything else compared leaf by leaf.
TEST(SessionLanePayload, NormalizesVolatileValuesOnly) {
  const auto r = root();
  ojson in = ojson::parse(R"J({"session_id":"4574cf04-059b","transcript_path":
      "/t/real/x/h/.gemini/tmp/w/chats/session-2026-12-06T00-06-4574cf04.jsonl","cwd":"/t/real/x/w",
      "hook_event_name":"BeforeModel","timestamp":"2026-12-06T00:06:57.218Z",
      "llm_request":{"model":"gemini-2.5-flash","messages":[{"role":"user",
      "content":"Today's date is Sunday, December 6, 2026 (formatted)"}]}})J");
  ojson n = sl::normalize_payload(in, r);
  EXPECT_EQ(n["session_id"], "@SESSION_ID@");
  EXPECT_EQ(n["timestamp"], "@TIMESTAMP@");
  EXPECT_EQ(n["transcript_path"], "@H@/.gemini/tmp/w/chats/session-@TIME@-@ID@.jsonl");
  EXPECT_EQ(n["cwd"], "@W@");
  EXPECT_EQ(n["llm_request"]["messages"][0]["content"], "Today's date is @DATE@ (formatted)");
  EXPECT_EQ(n["llm_request"]["model"], "gemini-2.5-flash");
  // .json and .jsonl stay apart; an empty transcript_path stays empty.
  in["transcript_path"] = "/t/real/x/h/.gemini/tmp/w/chats/session-2026-12-06T00-06-4574cf04.json";
  EXPECT_EQ(sl::normalize_payload(in, r)["transcript_path"],
            "@H@/.gemini/tmp/w/chats/session-@TIME@-@ID@.json");
  in["transcript_path"] = "";
  EXPECT_EQ(sl::normalize_payload(in, r)["transcript_path"], "");
}

// Before 0.29 the project's temp folder is the SHA-256 of the project path: each run's own, so it
// becomes a placeholder wherever the payload names it (transcript_path, the session context); a
// slug folder, or a hex run that is not exactly 64 digits, stays.
TEST(SessionLanePayload, ProjectHashFolderIsAPlaceholder) {
  const auto r = root();
  const std::string hash = "c21ce20304131d26c11c2ce9bedb327fb96087a56c252ececebf56f5ba6cea95";
  ojson in = ojson::object(
      {{"transcript_path",
        "/t/real/x/h/.gemini/tmp/" + hash + "/chats/session-2026-12-06T00-06-4574cf04.json"},
       {"llm_request",
        {{"messages",
          ojson::array(
              {{{"role", "user"},
                {"content", "The project's temporary directory is: /t/real/x/h/.gemini/tmp/" +
                                hash + "\nI'm currently working"}}})}}}});
  ojson n = sl::normalize_payload(in, r);
  EXPECT_EQ(n["transcript_path"], "@H@/.gemini/tmp/@PROJECT_HASH@/chats/session-@TIME@-@ID@.json");
  EXPECT_EQ(n["llm_request"]["messages"][0]["content"],
            "The project's temporary directory is: @H@/.gemini/tmp/@PROJECT_HASH@\nI'm currently "
            "working");
  in["transcript_path"] = "/t/real/x/h/.gemini/tmp/w/chats/x.json";
  EXPECT_EQ(sl::normalize_payload(in, r)["transcript_path"], "@H@/.gemini/tmp/w/chats/x.json");
  in["transcript_path"] = "/t/real/x/h/.gemini/tmp/" + hash + "0/chats/x.json";
  EXPECT_EQ(sl::normalize_payload(in, r)["transcript_path"],
            "@H@/.gemini/tmp/" + hash + "0/chats/x.json");
}

TEST(SessionLanePayload, DifferencesAreLeavesWithTheirPath) {
  ojson a = ojson::parse(R"J({"x":1,"m":{"model":"a","messages":[{"role":"user"},{"role":"user"}]},"gone":true})J");
  ojson b = ojson::parse(R"J({"x":1,"m":{"model":"b","messages":[{"role":"user"}]},"new":2})J");
  auto d = sl::payload_differences(a, b);
  const std::vector<std::string> want = {
      R"J(/m/model: real "a" emulator "b")J",
      R"J(/m/messages: real [{"role":"user"},{"role":"user"}] emulator [{"role":"user"}])J",
      "/gone: real true emulator <absent>", "/new: real <absent> emulator 2"};
  EXPECT_EQ(d, want);
  EXPECT_TRUE(sl::payload_differences(a, a).empty());
}

// The payload lines of compare(): per hook run of the same event, prefixed with its index.
TEST(SessionLanePayload, CompareReportsPayloadDrift) {
  sl::Outcome real, emu;
  real.payloads = ojson::parse(R"J([{"event":"BeforeModel","input":{"llm_request":{"model":"gemini-3.5-flash"}}}])J");
  emu.payloads = ojson::parse(R"J([{"event":"BeforeModel","input":{"llm_request":{"model":"gemini-2.5-flash"}}}])J");
  auto d = sl::compare(real, emu);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0], R"J(payload[0] BeforeModel /llm_request/model: real "gemini-3.5-flash" emulator "gemini-2.5-flash")J");
  emu.payloads = real.payloads;
  EXPECT_TRUE(sl::compare(real, emu).empty());
}

// A profile's stderr_unglue: a line glued after a listed leading match is split there (again on
// the rest), whichever side it is on; lines that only hold the match, or do not start with it,
// stay as they are.
TEST(SessionLane, UnglueSplitsAfterALeadingMatchOnly) {
  const std::vector<std::regex> after = {
      std::regex(R"(Invalid hook event name: "[^"]*" from \w+ config\. Skipping\.)")};
  std::vector<std::string> glued = {
      "Invalid hook event name: \"X\" from project config. Skipping.Hook system message: W",
      "Invalid hook event name: \"Y\" from project config. Skipping.",
      "note: Invalid hook event name: \"Z\" from project config. Skipping.tail",
      "Invalid hook event name: \"A\" from project config. Skipping.Invalid hook event name: \"B\" "
      "from project config. Skipping.rest"};
  sl::unglue_lines(glued, after);
  EXPECT_EQ(glued, (std::vector<std::string>{
                       "Invalid hook event name: \"X\" from project config. Skipping.",
                       "Hook system message: W",
                       "Invalid hook event name: \"Y\" from project config. Skipping.",
                       "note: Invalid hook event name: \"Z\" from project config. Skipping.tail",
                       "Invalid hook event name: \"A\" from project config. Skipping.",
                       "Invalid hook event name: \"B\" from project config. Skipping.", "rest"}));
  std::vector<std::string> none = {"a", "b"};
  sl::unglue_lines(none, {});
  EXPECT_EQ(none, (std::vector<std::string>{"a", "b"}));
}
