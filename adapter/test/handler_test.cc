#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "pinta/adapter/debug_log.h"
#include "pinta/adapter/handler.h"
#include "pinta/common/fs.h"
#include "pinta/common/test_support.h"
#include "handler_support.h"

namespace pinta::adapter {
namespace {
using test::FakeGuard;
using test::ok;
using test::args;

using nlohmann::json;


struct FakeSink : SpanSink {
  std::vector<std::string> replies;
  std::vector<std::string> hooks;
  void submit(const SpanInput& s) override {
    replies.push_back(s.reply);
    hooks.push_back(s.event->hook);
  }
};


TEST(Args, BothFormsAndUnknowns) {
  const char* argv[] = {"x", "--agent=gemini", "--event", "BeforeTool", "--what", "--event"};
  Args a = parse_args(6, argv);
  EXPECT_EQ(a.agent, "gemini");
  EXPECT_EQ(a.event, "BeforeTool");
  EXPECT_EQ(a.unknown.size(), 2u);
  const char* none[] = {"x"};
  EXPECT_FALSE(parse_args(1, none).has_agent);
}

TEST(Handler, AllowRepliesPerHost) {
  Services s{&system_clock()};
  EXPECT_EQ(handle(args("gemini", "BeforeTool"), ok("{}"), s).reply, "{}");
  EXPECT_EQ(handle(args("agy", "PreToolUse"), ok("{}"), s).reply, R"({"decision":"allow"})");
  EXPECT_EQ(handle(args("antigravity", "Stop"), ok("{}"), s).reply, "{}");
}

TEST(Handler, BadInputGivesFailSafe) {
  Services s{&system_clock()};  // no guard: invalid UTF-8 is not repaired (GUARD-14 is for the gate)
  auto o = handle(args("agy", "PreToolUse"), ok("{\"a\":\"\xff\"}"), s);  // invalid UTF-8
  EXPECT_EQ(o.reply, R"({"decision":"allow"})");
  EXPECT_FALSE(o.parsed);
  RawInput timeout;
  timeout.status = InputStatus::kTimeout;
  EXPECT_EQ(handle(args("agy", "PreToolUse"), timeout, s).reply, R"({"decision":"allow"})");
  const char* argv[] = {"x"};
  EXPECT_EQ(handle(parse_args(1, argv), ok("{}"), s).reply, "{}");
}

// The budget bounds what the hook adds to the host's wait: the event's own work before the guard
// call and a reply reserve count against it, capped so that the guard keeps >= 90 % of it.
TEST(GuardDeadline, CountsTheEventsOwnWorkAndAReplyReserve) {
  using namespace std::chrono;
  Services s{&system_clock()};
  s.guard_policy.timeout = 50ms;
  const auto now = steady_clock::now();
  // Unset: the whole budget from the call.
  EXPECT_EQ(guard_deadline(s, now).at(), now + 50ms);
  // 300 us of own work: the deadline is 300 us + the reserve earlier.
  s.work_started = now - 300us;
  EXPECT_EQ(guard_deadline(s, now).at(), now + 50ms - 300us - kGuardReplyReserve);
  // A payload that took 80 ms to parse does not starve the guard: the head start is capped.
  s.work_started = now - 80ms;
  EXPECT_EQ(guard_deadline(s, now).at(), now + 50ms - kGuardMaxHeadStart);
  // A small budget keeps 90 % of itself.
  s.guard_policy.timeout = 5ms;
  EXPECT_EQ(guard_deadline(s, now).at(), now + 5ms - 500us);
  // A start in the future (clock misuse) is ignored.
  s.work_started = now + 1s;
  EXPECT_EQ(guard_deadline(s, now).at(), now + 5ms);
}

TEST(GuardDeadline, TheHandlerPassesItToTheGuard) {
  using namespace std::chrono;
  FakeGuard g;
  Services s{&system_clock(), &g};
  s.guard_policy.timeout = 50ms;
  s.work_started = steady_clock::now() - 1s;  // long ago: the capped head start applies
  const auto before = steady_clock::now();
  handle(args("gemini", "BeforeTool"), ok(R"({"tool_name":"x","tool_input":{}})"), s);
  const auto after = steady_clock::now();
  ASSERT_EQ(g.calls, 1);
  EXPECT_GE(g.last_deadline.at(), before + 50ms - kGuardMaxHeadStart);
  EXPECT_LE(g.last_deadline.at(), after + 50ms - kGuardMaxHeadStart);
}

TEST(Handler, GuardDenyReasonPrecedence) {
  FakeGuard g;
  Services s{&system_clock(), &g};
  g.verdict.decision = GuardVerdict::Decision::kDeny;
  g.verdict.reason = "rule 7";
  g.verdict.user_message = "Not allowed";
  auto o = handle(args("gemini", "BeforeTool"), ok(R"({"tool_name":"run_shell_command"})"), s);
  EXPECT_EQ(json::parse(o.reply),
            (json{{"decision", "deny"}, {"reason", "Not allowed"}, {"systemMessage", "Not allowed"}}));
  EXPECT_EQ(g.last_tool, "run_shell_command");
  g.verdict.user_message.clear();
  o = handle(args("agy", "PreToolUse"), ok(R"({"toolCall":{"name":"run_command","args":{}}})"), s);
  EXPECT_EQ(json::parse(o.reply), (json{{"decision", "deny"}, {"reason", "rule 7"}}));
  g.verdict.reason.clear();
  o = handle(args("agy", "PreToolUse"), ok("{}"), s);
  EXPECT_EQ(json::parse(o.reply), (json{{"decision", "deny"}, {"reason", "guard_deny"}}));
}

TEST(Handler, GuardOnlyOnGateEventsAndFailOpen) {
  FakeGuard g;
  g.verdict.decision = GuardVerdict::Decision::kDeny;
  Services s{&system_clock(), &g};
  for (auto ev : {"AfterTool", "BeforeAgent", "SessionStart"}) handle(args("gemini", ev), ok("{}"), s);
  for (auto ev : {"PostToolUse", "PreInvocation", "Stop"}) handle(args("agy", ev), ok("{}"), s);
  EXPECT_EQ(g.calls, 0);
  g.verdict.decision = GuardVerdict::Decision::kUnavailable;
  EXPECT_EQ(handle(args("agy", "PreToolUse"), ok("{}"), s).reply, R"({"decision":"allow"})");
  EXPECT_EQ(g.calls, 1);
}

TEST(Handler, ReviewIsAllowUnlessAskMode) {
  FakeGuard g;
  g.verdict.decision = GuardVerdict::Decision::kReview;
  g.verdict.reason = "check";
  Services s{&system_clock(), &g};
  EXPECT_EQ(handle(args("agy", "PreToolUse"), ok("{}"), s).reply, R"({"decision":"allow"})");
  EXPECT_EQ(json::parse(handle(args("agy", "PreToolUse"), ok("{}"), s, "ask").reply)["decision"], "ask");
}

TEST(Handler, DeelAllowIsSilentAndDenyExitsTwoOnPreToolUseOnly) {
  FakeGuard g;
  Services s{&system_clock(), &g};
  g.verdict.decision = GuardVerdict::Decision::kAllow;
  auto o = handle(args("deel", "PreToolUse"), ok(R"({"자리":"도구전","도구":"Bash","command":"ls"})"), s);
  EXPECT_EQ(o.reply, "");
  EXPECT_EQ(o.exit_status, 0);
  EXPECT_EQ(g.last_tool, "Bash");
  g.verdict.decision = GuardVerdict::Decision::kDeny;
  g.verdict.reason = "rm is not allowed here";
  o = handle(args("deel", "도구전"), ok(R"({"자리":"도구전","도구":"Bash","command":"rm -rf /"})"), s);
  EXPECT_EQ(o.reply, "rm is not allowed here");
  EXPECT_EQ(o.exit_status, 2);
  EXPECT_EQ(g.calls, 2);
  for (auto ev : {"PostToolUse", "UserPromptSubmit", "Stop", "말전"}) {
    o = handle(args("deel", ev), ok(R"({"도구":"Bash"})"), s);
    EXPECT_EQ(o.reply, "") << ev;
    EXPECT_EQ(o.exit_status, 0) << ev;
  }
  EXPECT_EQ(g.calls, 2);  // the guard judges tool calls only
  g.verdict.decision = GuardVerdict::Decision::kReview;
  o = handle(args("deel", "PreToolUse"), ok("{}"), s, "ask");
  EXPECT_EQ(o.reply, "");
  EXPECT_EQ(o.exit_status, 0);
  // Bad input: the fail-safe, which for an exit-code host is silence and exit 0.
  g.verdict.decision = GuardVerdict::Decision::kDeny;
  o = handle(args("deel", "PreToolUse"), ok("not json"), s);
  EXPECT_EQ(o.reply, "");
  EXPECT_EQ(o.exit_status, 0);
}

bool cannot_prompt(const pinta::hosts::PrintMode&) noexcept { return true; }
bool can_prompt(const pinta::hosts::PrintMode&) noexcept { return false; }

// synara PR #1096: under `agy -p` an ask fails every tool call, so a REVIEW stays allow there even
// with PINTA_GUARD_REVIEW=ask; interactive agy and Gemini CLI still get the ask.
TEST(Handler, ReviewAskIsNotAppliedWhereAgyCannotPrompt) {
  FakeGuard g;
  g.verdict.decision = GuardVerdict::Decision::kReview;
  g.verdict.reason = "check";
  Services s{&system_clock(), &g};
  s.host_cannot_prompt = &cannot_prompt;
  Outcome o = handle(args("agy", "PreToolUse"), ok("{}"), s, "ask");
  EXPECT_EQ(o.reply, R"({"decision":"allow"})");
  EXPECT_EQ(o.guard_decision, "review");
  EXPECT_NE(o.note.find("print mode"), std::string::npos);
  EXPECT_EQ(handle(args("antigravity", "PreToolUse"), ok("{}"), s, "ask").reply,
            R"({"decision":"allow"})");
  // The gate is Antigravity's: Gemini's BeforeTool keeps the configured ask.
  EXPECT_EQ(json::parse(handle(args("gemini", "BeforeTool"), ok("{}"), s, "ask").reply)["decision"],
            "ask");
  s.host_cannot_prompt = &can_prompt;
  EXPECT_EQ(json::parse(handle(args("agy", "PreToolUse"), ok("{}"), s, "ask").reply)["decision"],
            "ask");
  // A DENY is a DENY in print mode too.
  s.host_cannot_prompt = &cannot_prompt;
  g.verdict.decision = GuardVerdict::Decision::kDeny;
  EXPECT_EQ(json::parse(handle(args("agy", "PreToolUse"), ok("{}"), s, "ask").reply)["decision"],
            "deny");
}

TEST(Handler, SpanSinkSeesEveryParsedEventWithItsReply) {
  FakeSink sink;
  Services s{&system_clock(), nullptr, &sink};
  handle(args("gemini", "AfterTool"), ok("{}"), s);
  handle(args("agy", "PreToolUse"), ok("{}"), s);
  handle(args("agy", "PreToolUse"), ok("garbage"), s);  // not parsed: no span
  EXPECT_EQ(sink.hooks, (std::vector<std::string>{"AfterTool", "PreToolUse"}));
  EXPECT_EQ(sink.replies[1], R"({"decision":"allow"})");
}

TEST(DebugLog, RecordHasTheDocumentedFields) {
  Services s{&system_clock()};
  const char* argv[] = {"pinta-gemini", "--agent", "gemini", "--event", "AfterTool"};
  Outcome o = handle(parse_args(5, argv), ok(R"({"session_id":"s"})"), s);
  EnvFileLoad env;
  json r = debug_record(env, 5, argv, o, std::chrono::microseconds(42));
  for (auto key : {"argv", "payload", "normalized", "reply", "duration_us", "input", "env_file"}) {
    EXPECT_TRUE(r.contains(key)) << key;
  }
  EXPECT_EQ(r["normalized"]["session_id"], "s");
  EXPECT_EQ(r["argv"].size(), 5u);
}

// Identifier fields of the debug log's payload are those of the event's family (identifiers.h):
// never masked for their name, yet redacted like every value. deel spreads the tool's arguments
// at the top level (DEEL l.427), so an argument named session_id or cwd is masked there as
// anywhere else; a token in a Gemini identifier field is still redacted.
TEST(DebugLog, IdentifiersAreThoseOfTheFamilysSchemaAndAreRedacted) {
  Services s{&system_clock()};
  EnvFileLoad env;
  const std::string tok = "ghp_" + std::string("16C7e42F292c6912E7710c838347Ae178B4a");
  const char* gv[] = {"pinta-gemini", "--agent", "gemini", "--event", "AfterTool"};
  const json g = debug_record(
      env, 5, gv,
      handle(parse_args(5, gv),
             ok(R"({"session_id":"abc12345","cwd":")" + tok + R"(","tool_name":"run_shell_command","password":"hunter2pass"})"),
             s),
      std::chrono::microseconds(1));
  EXPECT_EQ(g["payload"]["session_id"], "abc12345");
  EXPECT_EQ(g["payload"]["cwd"], "[REDACTED:github_token]");
  EXPECT_EQ(g["payload"]["tool_name"], "run_shell_command");
  EXPECT_EQ(g["payload"]["password"], "[REDACTED:secret_field]");
  EXPECT_EQ(g["normalized"]["session_id"], "abc12345");
  EXPECT_EQ(g["normalized"]["cwd"], "[REDACTED:github_token]");
  const char* dv[] = {"pinta-gemini", "--agent", "deel", "--event", "PreToolUse"};
  const json d = debug_record(
      env, 5, dv,
      handle(parse_args(5, dv),
             ok(R"({"자리":"PreToolUse","도구":"Bash","session_id":"abc12345","cwd":")" + tok +
                R"(","command":"ls"})"),
             s),
      std::chrono::microseconds(1));
  EXPECT_EQ(d["payload"]["도구"], "Bash");
  EXPECT_EQ(d["payload"]["자리"], "PreToolUse");
  EXPECT_EQ(d["payload"]["session_id"], "[REDACTED:secret_field]");
  EXPECT_EQ(d["payload"]["cwd"], "[REDACTED:github_token]");
  EXPECT_EQ(d["payload"]["command"], "ls");
  EXPECT_EQ(d.dump().find(tok), std::string::npos);
  EXPECT_EQ(d.dump().find("abc12345"), std::string::npos);
  // Not parsed into an event: no identifiers at all.
  const json n = debug_record(env, 5, gv, handle(parse_args(5, gv), ok("[1]"), s), std::chrono::microseconds(1));
  EXPECT_TRUE(n["payload"].is_null());
}

// The debug log is bounded: past the cap it is rotated to invocations.jsonl.1 (one generation).
TEST(DebugLog, RotatesPastTheCapKeepingOneGeneration) {
  pinta::testing::TempDir d;
  const std::string path = d.sub("invocations.jsonl");
  const std::string line(1000, 'x');
  for (int i = 0; i < 30; ++i) {
    rotate_debug_log_if_needed(path, 8192, line.size() + 1);
    ASSERT_TRUE(fs::append_locked(path, line + "\n").ok());
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_LE(st.st_size, 8192);
  }
  struct stat st {};
  ASSERT_EQ(::stat((path + ".1").c_str(), &st), 0);
  EXPECT_GT(st.st_size, 8192 - 1001);
  EXPECT_LE(st.st_size, 8192);
  EXPECT_FALSE(fs::exists(path + ".2"));
}

// A full disk (here RLIMIT_FSIZE) mid-line: the writer cuts the fragment back, so the log never
// keeps a torn last line.
TEST(DebugLog, AFailedAppendLeavesNoTornLine) {
  pinta::testing::TempDir d;
  const std::string path = d.sub("invocations.jsonl");
  ASSERT_TRUE(fs::append_locked(path, "{\"a\":1}\n").ok());
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    const struct rlimit rl = {100, 100};
    ::setrlimit(RLIMIT_FSIZE, &rl);
    ::_exit(fs::append_locked(path, std::string(300, 'y') + "\n").ok() ? 1 : 0);
  }
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "the append should have failed";
  EXPECT_EQ(fs::read_file(path).value_or(""), "{\"a\":1}\n");
}

}  // namespace
}  // namespace pinta::adapter

namespace pinta::adapter {
namespace {
using test::FakeGuard;
using test::ok;
using test::args;
using test::expect_tool_call;
using test::hook_specific_deny;

TEST(Surrogates, LoneSurrogatesBecomeReplacementCharacter) {
  std::string s = R"({"a":"x\ud800y","b":"\udc00","c":"\ud83d\ude00","d":"\\ud800"})";
  EXPECT_TRUE(repair_lone_surrogates(s));
  EXPECT_EQ(s, R"({"a":"x\ufffdy","b":"\ufffd","c":"\ud83d\ude00","d":"\\ud800"})");
  std::string fine = R"({"c":"\ud83d\ude00"})";
  EXPECT_FALSE(repair_lone_surrogates(fine));
}

TEST(Surrogates, PayloadWithLoneSurrogateStillReachesTheGuard) {
  FakeGuard g;
  g.verdict.decision = GuardVerdict::Decision::kDeny;
  g.verdict.reason = "no";
  Services s{&system_clock(), &g};
  auto o = handle(args("gemini", "BeforeTool"), ok(R"({"tool_name":"write_file","tool_input":{"content":"\ud800"}})"), s);
  EXPECT_TRUE(o.parsed);
  EXPECT_EQ(g.calls, 1);
  EXPECT_EQ(nlohmann::json::parse(o.reply)["decision"], "deny");
}

// ---- GUARD-14: no payload shape the model controls skips the guard ----------------------------
// Each of these replied with the allow reply before, without asking the guard (say: depth 300
// gave `{}` to `rm -rf ~`; an input over the cap and invalid UTF-8 likewise).

struct DenyAll {
  FakeGuard guard;
  Services services{&system_clock(), &guard};
  DenyAll() {
    guard.verdict.decision = GuardVerdict::Decision::kDeny;
    guard.verdict.reason = "no";
  }
};

std::string nested(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(GuardIntegrity, DeepNestingIsCutNotAReasonToSkipTheGuard) {
  DenyAll d;
  const std::string payload =
      R"({"tool_name":"run_shell_command","tool_input":{"command":"rm -rf ~","pad":)" + nested(300) + "}}";
  auto o = handle(args("gemini", "BeforeTool"), ok(payload), d.services);
  EXPECT_EQ(json::parse(o.reply)["decision"], "deny");
  EXPECT_EQ(d.guard.calls, 1);
  EXPECT_EQ(d.guard.last_tool, "run_shell_command");
  EXPECT_TRUE(o.parsed);
  EXPECT_GT(o.cut_values, 0u);
  ASSERT_NE(o.event, nullptr);
  EXPECT_EQ(o.event->tool_input["command"], "rm -rf ~");
  EXPECT_GT(o.event->cut_values, 0u);
  // 20000 levels: no stack overflow, still judged.
  auto o2 = handle(args("agy", "PreToolUse"),
                   ok(R"({"toolCall":{"name":"run_command","args":{"CommandLine":"x","p":)" + nested(20000) + "}}}"),
                   d.services);
  EXPECT_EQ(json::parse(o2.reply)["decision"], "deny");
  // Off the gate (or without a guard) a too-deep payload still gets the fail-safe reply (INPUT-3).
  Services plain{&system_clock()};
  auto o3 = handle(args("gemini", "BeforeTool"), ok(payload), plain);
  EXPECT_EQ(o3.reply, "{}");
  EXPECT_FALSE(o3.parsed);
  EXPECT_EQ(o3.input, InputStatus::kTooDeep);
}

TEST(GuardIntegrity, AnInputOverTheCapIsJudgedOnWhatArrived) {
  DenyAll d;
  InputLimits small;
  small.max_bytes = 4096;
  const std::string payload = R"({"session_id":"s","tool_name":"write_file","tool_input":{"file_path":"/etc/x","content":")" +
                              std::string(100000, 'c') + "\"}}";
  RawInput in = read_event_from_bytes(payload, small);
  ASSERT_EQ(in.status, InputStatus::kTooLarge);
  auto o = handle(args("gemini", "BeforeTool"), std::move(in), d.services);
  EXPECT_EQ(json::parse(o.reply)["decision"], "deny");
  EXPECT_EQ(d.guard.last_tool, "write_file");
  EXPECT_FALSE(o.parsed);
  EXPECT_TRUE(o.partial);
  ASSERT_NE(o.event, nullptr);
  EXPECT_TRUE(o.event->payload_incomplete);
  EXPECT_EQ(o.event->tool_input["file_path"], "/etc/x");
  // deel-local-cli: the deny is exit 2 with the reason, here too.
  RawInput deel = read_event_from_bytes(
      R"({"자리":"도구전","도구":"Bash","command":")" + std::string(100000, 'x') + "\"}", small);
  auto od = handle(args("deel", "PreToolUse"), std::move(deel), d.services);
  EXPECT_EQ(od.exit_status, 2);
  EXPECT_EQ(od.reply, "no");
}

// A prefix whose tool name was cut off was allowed without asking the guard before (GUARD-14,
// a deny-all guard showed it): the guard is asked with what is known and told the name is
// missing; PINTA_GUARD_ON_UNJUDGEABLE=deny denies it without asking.
TEST(GuardIntegrity, APrefixWithoutAToolNameIsStillJudged) {
  DenyAll d;
  InputLimits small;
  small.max_bytes = 2048;
  const std::string payload =
      R"({"tool_input":{"command":")" + std::string(10000, 'x') + R"("},"tool_name":"run_shell_command"})";
  auto o = handle(args("gemini", "BeforeTool"), read_event_from_bytes(payload, small), d.services);
  EXPECT_EQ(json::parse(o.reply)["decision"], "deny");
  EXPECT_EQ(d.guard.calls, 1);
  EXPECT_EQ(d.guard.last_tool, "");
  // With the name watched (as the adapter reads stdin) and the rest scanned, the name is known.
  small.tool_name = tool_name_path(Family::kGemini);
  small.scan_past_cap = true;
  RawInput watched = read_event_from_bytes(payload, small);
  ASSERT_EQ(watched.status, InputStatus::kTooLarge);
  auto named = handle(args("gemini", "BeforeTool"), std::move(watched), d.services);
  EXPECT_EQ(json::parse(named.reply)["decision"], "deny");
  EXPECT_EQ(d.guard.last_tool, "run_shell_command");
  EXPECT_EQ(d.guard.calls, 2);
  d.services.guard_policy.deny_unjudgeable = true;
  small = InputLimits{};
  small.max_bytes = 2048;
  auto o2 = handle(args("gemini", "BeforeTool"), read_event_from_bytes(payload, small), d.services);
  EXPECT_EQ(json::parse(o2.reply)["decision"], "deny");
  EXPECT_EQ(json::parse(o2.reply)["reason"], std::string(kUnjudgeableReason));
  EXPECT_EQ(d.guard.calls, 2);
  // The setting never touches other events, nor whole payloads.
  EXPECT_EQ(handle(args("gemini", "AfterTool"), read_event_from_bytes(payload, small), d.services).reply, "{}");
  RawInput empty;
  empty.status = InputStatus::kEmpty;
  EXPECT_EQ(json::parse(handle(args("agy", "PreToolUse"), empty, d.services).reply)["decision"], "deny");
}

TEST(GuardIntegrity, InvalidUtf8AndTruncatedObjectsStillReachTheGuard) {
  DenyAll d;
  auto o = handle(args("gemini", "BeforeTool"),
                  ok("{\"tool_name\":\"run_shell_command\",\"tool_input\":{\"command\":\"rm -rf ~ \xff\xfe\"}}"),
                  d.services);
  EXPECT_EQ(json::parse(o.reply)["decision"], "deny");
  EXPECT_EQ(d.guard.calls, 1);
  EXPECT_TRUE(o.parsed);
  // EOF inside the object (the host stopped writing): the members that arrived whole are judged.
  RawInput cut = read_event_from_bytes(R"({"tool_name":"run_shell_command","tool_input":{"command":"rm -rf ~","x":"unfini)",
                                       InputLimits{});
  ASSERT_EQ(cut.status, InputStatus::kTruncated);
  auto o2 = handle(args("gemini", "BeforeTool"), std::move(cut), d.services);
  EXPECT_EQ(json::parse(o2.reply)["decision"], "deny");
  EXPECT_EQ(d.guard.calls, 2);
  // Not an object at all: nothing to judge; the fail-safe reply, as before.
  EXPECT_EQ(handle(args("gemini", "BeforeTool"), ok("[1,2]"), d.services).reply, "{}");
  EXPECT_EQ(d.guard.calls, 2);
}

// ---- Over the family registry: every registered family's gate event, whatever shape the model
// gave the tool call, reaches the guard and a DENY is the host's deny (a new family is covered by
// registering it). The payload is built from the family's payload shape (pinta/hosts/family.h),
// tool name first so that a cut-off payload still names the tool.
nlohmann::ordered_json gate_payload(Family f, const std::string& tool, const std::string& command,
                                    const std::string& pad_value) {
  const auto& d = hosts::descriptor(f);
  const auto& sh = d.payload;
  nlohmann::ordered_json p = nlohmann::ordered_json::object();
  if (!sh.event_key.empty()) p[std::string(sh.event_key)] = std::string(d.gate_event);
  if (!sh.session_id.empty()) p[std::string(sh.session_id)] = "s1";
  if (!sh.tool_call_id.empty()) p[std::string(sh.tool_call_id)] = "toolu_1";
  nlohmann::ordered_json tool_fields = nlohmann::ordered_json::object();
  tool_fields[std::string(sh.tool_name)] = tool;
  nlohmann::ordered_json input = {{"command", command}, {"pad", pad_value}};
  if (!sh.tool_input.empty()) {
    tool_fields[std::string(sh.tool_input)] = input;
  } else {
    for (auto it = input.begin(); it != input.end(); ++it) tool_fields[it.key()] = it.value();
  }
  if (sh.tool_object.empty()) {
    for (auto it = tool_fields.begin(); it != tool_fields.end(); ++it) p[it.key()] = it.value();
  } else {
    p[std::string(sh.tool_object)] = tool_fields;
  }
  return p;
}

std::string label_of(Family f) { return std::string(hosts::descriptor(f).agent_labels[0]); }

void expect_deny(Family f, const Outcome& o, const std::string& reason, const std::string& what) {
  const std::string gate(hosts::descriptor(f).gate_event);
  EXPECT_EQ(o.reply, deny_reply(f, gate, reason)) << what;
  EXPECT_EQ(o.exit_status, deny_exit_status(f)) << what;
  EXPECT_EQ(o.guard_decision, "deny") << what;
}

TEST(GuardIntegrityAllFamilies, WholeDeepHugeAndInvalidUtf8PayloadsReachTheGuard) {
  for (const auto& d : hosts::families()) {
    const Family f = d.id;
    const std::string label = label_of(f), gate(d.gate_event), name(d.name);
    {
      DenyAll g;
      const auto whole = gate_payload(f, "Bash", "rm -rf ~", "x").dump();
      Args a = args(label.c_str(), gate.c_str());
      expect_deny(f, handle(a, ok(whole), g.services), "no", name + " whole");
      EXPECT_EQ(g.guard.last_tool, "Bash") << name;
    }
    {
      DenyAll g;  // 20000 levels of nesting in an argument: cut, still judged
      std::string deep = gate_payload(f, "Bash", "rm -rf ~", "@PAD@").dump();
      deep.replace(deep.find("\"@PAD@\""), 7, nested(20000));
      expect_deny(f, handle(args(label.c_str(), gate.c_str()), ok(deep), g.services), "no",
                  name + " deep");
      EXPECT_EQ(g.guard.calls, 1) << name;
    }
    {
      DenyAll g;  // over the input cap: judged on what arrived
      InputLimits small;
      small.max_bytes = 4096;
      const auto huge = gate_payload(f, "Bash", "rm -rf ~", std::string(100000, 'c')).dump();
      RawInput in = read_event_from_bytes(huge, small);
      ASSERT_EQ(in.status, InputStatus::kTooLarge);
      expect_deny(f, handle(args(label.c_str(), gate.c_str()), std::move(in), g.services), "no",
                  name + " huge");
      EXPECT_EQ(g.guard.last_tool, "Bash") << name;
    }
    {
      DenyAll g;  // invalid UTF-8 in an argument
      std::string bad = gate_payload(f, "Bash", "rm -rf ~ @BAD@", "x").dump();
      bad.replace(bad.find("@BAD@"), 5, "\xff\xfe");
      expect_deny(f, handle(args(label.c_str(), gate.c_str()), ok(bad), g.services), "no",
                  name + " utf8");
    }
    {
      // Garbage on stdin: the fail-safe reply (no deny, exit 0), the guard not called.
      DenyAll g;
      const Outcome o = handle(args(label.c_str(), gate.c_str()), ok("not json {"), g.services);
      EXPECT_EQ(o.reply, fail_safe_reply(f, gate)) << name;
      EXPECT_EQ(o.exit_status, 0) << name;
      EXPECT_EQ(g.guard.calls, 0) << name;
    }
  }
}

// The tool name after the arguments (Antigravity writes toolCall.args before toolCall.name: sorted
// keys), and the arguments cut at the input cap, refused by the parser (NaN, 1e400), past the value
// budget (1.1 M small values) or never finished (a stalled stdin): 7 of 7 were allowed on
// Antigravity before (measured with a deny-all guard before this change). Each shape on every family, name last.
nlohmann::ordered_json name_last_payload(Family f, const std::string& tool, const std::string& args_json) {
  const auto& d = hosts::descriptor(f);
  const auto& sh = d.payload;
  nlohmann::ordered_json p = nlohmann::ordered_json::object();
  if (!sh.event_key.empty()) p[std::string(sh.event_key)] = std::string(d.gate_event);
  if (!sh.session_id.empty()) p[std::string(sh.session_id)] = "s1";
  // @ARGS@ stands for the arguments' text, spliced in after dumping.
  if (!sh.tool_input.empty()) {
    nlohmann::ordered_json call = nlohmann::ordered_json::object();
    call[std::string(sh.tool_input)] = "@ARGS@";
    call[std::string(sh.tool_name)] = tool;
    if (sh.tool_object.empty()) {
      for (auto it = call.begin(); it != call.end(); ++it) p[it.key()] = it.value();
    } else {
      p[std::string(sh.tool_object)] = call;
    }
  } else {
    p["@SPREAD@"] = 0;  // deel: the arguments are members of the payload itself
    p[std::string(sh.tool_name)] = tool;
  }
  (void)args_json;
  return p;
}

std::string splice_args(Family f, const std::string& tool, const std::string& args_json) {
  std::string text = name_last_payload(f, tool, args_json).dump();
  size_t at = text.find("\"@ARGS@\"");
  if (at != std::string::npos) return text.replace(at, 8, args_json);
  at = text.find("\"@SPREAD@\":0");
  // deel: the object's members without its braces
  return text.replace(at, 12, args_json.substr(1, args_json.size() - 2));
}

InputLimits watched(Family f, size_t max_bytes = 32u << 20) {
  InputLimits l;
  l.max_bytes = max_bytes;
  l.tool_name = tool_name_path(f);
  l.scan_past_cap = true;
  return l;
}

TEST(GuardIntegrityAllFamilies, ANameAfterTheArgumentsIsFoundWhateverBecameOfThem) {
  for (const auto& d : hosts::families()) {
    const Family f = d.id;
    const std::string label = label_of(f), gate(d.gate_event), name(d.name);
    const Args a = args(label.c_str(), gate.c_str());
    struct Shape {
      std::string what;
      std::string args_json;
      size_t cap;
    };
    std::string many = R"({"command":"rm -rf ~","v":[)";
    for (int i = 0; i < 1100000; ++i) many += i == 0 ? "0" : ",0";
    many += "]}";
    const std::vector<Shape> shapes = {
        {"cut at the cap", R"({"command":"rm -rf ~","pad":")" + std::string(300000, 'p') + "\"}", 65536},
        {"NaN", R"({"command":"rm -rf ~","score":NaN,"z":1})", 32u << 20},
        {"1e400", R"({"command":"rm -rf ~","score":1e400})", 32u << 20},
        {"-Infinity", R"({"score":-Infinity,"command":"rm -rf ~"})", 32u << 20},
        {"1.1 M values", many, 32u << 20},
    };
    for (const auto& shape : shapes) {
      DenyAll g;
      const std::string payload = splice_args(f, "run_command", shape.args_json);
      RawInput in = read_event_from_bytes(payload, watched(f, shape.cap));
      ASSERT_TRUE(in.tool_name.has_value()) << name << " " << shape.what;
      expect_deny(f, handle(a, std::move(in), g.services), "no", name + " " + shape.what);
      EXPECT_EQ(g.guard.calls, 1) << name << " " << shape.what;
      EXPECT_EQ(g.guard.last_tool, "run_command") << name << " " << shape.what;
    }
    {
      // The host stops writing in the middle of the arguments and keeps the pipe open: no name
      // ever arrives, and the guard is still asked (with the name missing).
      int fds[2];
      ASSERT_EQ(::pipe(fds), 0);
      const std::string payload = splice_args(f, "run_command", R"({"command":"rm -rf ~","pad":"aaaa"})");
      const std::string part = payload.substr(0, payload.find("aaaa"));
      ASSERT_EQ(::write(fds[1], part.data(), part.size()), static_cast<ssize_t>(part.size()));
      InputLimits l = watched(f);
      l.deadline = std::chrono::milliseconds(100);
      RawInput in = read_event(fds[0], l);
      ::close(fds[0]);
      ::close(fds[1]);
      ASSERT_EQ(in.status, InputStatus::kTimeout) << name;
      DenyAll g;
      expect_deny(f, handle(a, std::move(in), g.services), "no", name + " stalled");
      EXPECT_EQ(g.guard.calls, 1) << name;
    }
  }
}

// Claude Code 2.1.x (real-hosts.md "Claude Code 2.1.332"): allow = exit 0 and no output; DENY =
// the hookSpecificOutput deny on stdout, exit 0; REVIEW + ask mode = permissionDecision "ask";
// every other event silent; garbage silent; never exit 2.
TEST(Handler, ClaudeCodeAllowIsSilentDenyIsHookSpecificOutput) {
  FakeGuard g;
  Services s{&system_clock(), &g};
  const std::string pre =
      R"({"session_id":"s1","transcript_path":"/h/.claude/projects/-w/s1.jsonl","cwd":"/w",)"
      R"("hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},)"
      R"("tool_use_id":"toolu_01"})";
  g.verdict.decision = GuardVerdict::Decision::kAllow;
  for (auto label : {"claude-code", "claude"}) {
    Outcome o = handle(args(label, "PreToolUse"), ok(pre), s);
    EXPECT_EQ(o.reply, "") << label;
    EXPECT_EQ(o.exit_status, 0);
    expect_tool_call(o, "Bash", "rm -rf /", "s1", "/w", "toolu_01");
  }
  g.verdict.decision = GuardVerdict::Decision::kDeny;
  g.verdict.reason = "no rm";
  Outcome d = handle(args("claude-code", "PreToolUse"), ok(pre), s);
  EXPECT_EQ(json::parse(d.reply), hook_specific_deny("PreToolUse", "no rm"));
  EXPECT_EQ(d.exit_status, 0);
  g.verdict.decision = GuardVerdict::Decision::kReview;
  g.verdict.reason = "check";
  EXPECT_EQ(handle(args("claude", "PreToolUse"), ok(pre), s).reply, "");  // REVIEW default: allow
  Outcome ask = handle(args("claude", "PreToolUse"), ok(pre), s, "ask");
  EXPECT_EQ(json::parse(ask.reply)["hookSpecificOutput"]["permissionDecision"], "ask");
  EXPECT_EQ(ask.exit_status, 0);
  const int calls = g.calls;
  g.verdict.decision = GuardVerdict::Decision::kDeny;
  for (const auto ev : hosts::descriptor(Family::kClaude).events) {
    if (std::string_view(ev) == "PreToolUse") continue;
    const std::string e(ev);
    Outcome o = handle(args("claude-code", e.c_str()), ok(pre), s);
    EXPECT_EQ(o.reply, "") << e;
    EXPECT_EQ(o.exit_status, 0) << e;
  }
  EXPECT_EQ(g.calls, calls);  // the guard judges the gate only
  for (auto garbage : {"", "not json", "[1,2]"}) {
    Outcome o = handle(args("claude-code", "PreToolUse"), ok(garbage), s);
    EXPECT_EQ(o.reply, "") << garbage;
    EXPECT_EQ(o.exit_status, 0) << garbage;
  }
  // An object cut short is a tool call that arrived in part: put to the guard, name or not
  // (GUARD-14), and its deny is the hookSpecificOutput line.
  const int before = g.calls;
  Outcome cut = handle(args("claude-code", "PreToolUse"), ok("{\"a\":"), s);
  EXPECT_EQ(g.calls, before + 1);
  EXPECT_EQ(json::parse(cut.reply)["hookSpecificOutput"]["permissionDecision"], "deny");
  EXPECT_EQ(cut.exit_status, 0);
}


// No silent default family: an unregistered --agent gets the fail-safe reply (safe for every
// host: {"decision":"allow"} on PreToolUse, {} elsewhere), is never put to the guard, and the
// debug log's note says why.
TEST(Handler, UnknownAgentIsTheFailSafeReplyAndANote) {
  FakeGuard g;
  g.verdict.decision = GuardVerdict::Decision::kDeny;
  Services s{&system_clock(), &g};
  for (auto label : {"Gemini", "claude_code", "antigravity3", "x"}) {
    Outcome o = handle(args(label, "PreToolUse"), ok(R"({"toolCall":{"name":"run_command"}})"), s);
    EXPECT_EQ(o.reply, R"({"decision":"allow"})") << label;
    EXPECT_EQ(o.exit_status, 0);
    EXPECT_NE(o.note.find("unknown --agent"), std::string::npos) << o.note;
    EXPECT_EQ(handle(args(label, "Stop"), ok("{}"), s).reply, "{}") << label;
  }
  EXPECT_EQ(g.calls, 0);
}

TEST(Args, MissingAgentOnPreToolUseStillAllows) {
  const char* argv[] = {"x", "--event", "PreToolUse"};
  EXPECT_EQ(fail_safe_for(parse_args(3, argv)), R"({"decision":"allow"})");
  const char* argv2[] = {"x", "--event", "BeforeTool"};
  EXPECT_EQ(fail_safe_for(parse_args(3, argv2)), "{}");
}

}  // namespace
}  // namespace pinta::adapter
