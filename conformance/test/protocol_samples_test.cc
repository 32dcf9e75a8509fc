// The calls a registration is graded on (conformance/src/protocol/samples.h): benign and hostile
// calls of the tools its matcher selects, MCP calls in the host's naming, a note for a matcher
// that selects no known tool, the author's --payload files, and payloads whose parts belong to
// the one call they describe. The run-level tests grade real one-line hooks (bash) through
// run_protocol.
#include "protocol/samples.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "pinta/conformance/protocol.h"
#include "pinta/emulator/host_runner.h"
#include "pinta/hosts/family.h"

namespace pinta::conformance::protocol {
namespace {

namespace stdfs = std::filesystem;
using pinta::hosts::Family;

ProtocolHook hook(const std::string& host, const std::string& event, const std::string& matcher) {
  ProtocolHook h;
  h.host = host;
  h.event = event;
  h.matcher = matcher;
  h.command = "true";
  h.timeout_ms = 5000;
  h.origin = "/nowhere/settings.json";
  return h;
}

bool has_call(const CallPlan& p, const std::string& label) {
  for (const auto& c : p.calls)
    if (c.label == label) return true;
  return false;
}

// A temp folder, removed at the end of the test.
struct TempDir {
  std::string path;
  TempDir() {
    path = (stdfs::temp_directory_path() / "pinta-samples-XXXXXX").string();
    EXPECT_NE(::mkdtemp(path.data()), nullptr);
  }
  ~TempDir() {
    std::error_code ec;
    stdfs::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path + "/" + name, std::ios::binary) << text;
    return path + "/" + name;
  }
};

// A `*` matcher on Claude Code's PreToolUse: the first call is the benign Bash call one sample
// used to be, then the deny paths: a hostile call of every kind of input, an MCP call; bounded.
TEST(ProtocolSamples, EveryKindOfInputGetsABenignAndAHostileCall) {
  const auto p = plan_calls(Family::kClaude, hook("claude-code-2.1", "PreToolUse", "*"));
  ASSERT_FALSE(p.calls.empty());
  EXPECT_EQ(p.calls.front().label, "Bash `ls -la`");
  EXPECT_LT(p.calls.front().hostile, 0);
  for (const char* l : {"Bash `rm -rf /` (hostile)", "Bash `curl … | sh` (hostile)",
                        "Write .env (hostile)", "Edit ../../../etc/passwd (out of the project) (hostile)",
                        "Read ~/.ssh/id_rsa (hostile)",
                        "mcp__filesystem__write_file ~/.ssh/authorized_keys (hostile)",
                        "Write a write of notes.txt", "Read notes.txt"})
    EXPECT_TRUE(has_call(p, l)) << l;
  EXPECT_EQ(p.calls.size(), kMaxSampleCalls);
  ASSERT_EQ(p.notes.size(), 1u);  // the tools left out by the bound, named
  EXPECT_NE(p.notes[0].find("WebFetch"), std::string::npos) << p.notes[0];
  // A matcher of one tool: that tool only, benign and hostile.
  const auto bash = plan_calls(Family::kClaude, hook("claude-code-2.1", "PreToolUse", "Bash"));
  ASSERT_EQ(bash.calls.size(), 3u);
  for (const auto& c : bash.calls) EXPECT_EQ(c.tool, "Bash");
  EXPECT_TRUE(bash.notes.empty());
  // The hostile inputs are what they say (none is ever executed: only the hook runs).
  const auto sh = hostile_args(ToolArgs::kShell, "/w", "/h");
  ASSERT_EQ(sh.size(), 2u);
  EXPECT_EQ(sh[0].value("command", ""), "rm -rf /");
  EXPECT_EQ(hostile_args(ToolArgs::kPath, "/w", "/h")[0].value("file_path", ""), "/h/.ssh/id_rsa");
  EXPECT_EQ(hostile_args(ToolArgs::kWriteFile, "/w", "/h")[0].value("file_path", ""), "/w/.env");
  // Off tool events: the event's one payload.
  const auto stop = plan_calls(Family::kClaude, hook("claude-code-2.1", "Stop", ""));
  ASSERT_EQ(stop.calls.size(), 1u);
  EXPECT_TRUE(stop.calls[0].tool.empty());
}

// A matcher of MCP tools gets MCP calls in the host's own naming, never a built-in tool.
TEST(ProtocolSamples, McpMatchersGetMcpCalls) {
  const auto cl = plan_calls(Family::kClaude, hook("claude-code-2.1", "PreToolUse", "mcp__github__.*"));
  ASSERT_EQ(cl.calls.size(), 2u);
  for (const auto& c : cl.calls) EXPECT_EQ(c.tool, "mcp__github__write_file");
  EXPECT_TRUE(cl.notes.empty()) << cl.notes.front();
  const auto gm = plan_calls(Family::kGemini, hook("gemini-0.61", "BeforeTool", "mcp_github_.*"));
  ASSERT_EQ(gm.calls.size(), 2u);
  EXPECT_EQ(gm.calls[0].tool, "mcp_github_write_file");
  EXPECT_EQ(gm.calls[1].hostile, 0);
  // A named MCP tool: that name.
  const auto one =
      plan_calls(Family::kClaude, hook("claude-code-2.1", "PreToolUse", "mcp__github__create_issue"));
  ASSERT_FALSE(one.calls.empty());
  EXPECT_EQ(one.calls[0].tool, "mcp__github__create_issue");
  // Gemini's MCP payload carries the call's mcp_context (fixtures/gemini/0.61.0/BeforeTool/
  // y_mcp_tool.json).
  std::string err;
  auto runner = pinta::emu::make_host_runner(
      "gemini-0.61", {std::string(PINTA_SOURCE_DIR) + "/fixtures", ""}, err);
  ASSERT_TRUE(runner) << err;
  const auto h = hook("gemini-0.61", "BeforeTool", "mcp_github_.*");
  const json p = call_payload(*runner, Family::kGemini, h, gm.calls[0], "/h", "/w");
  EXPECT_EQ(p.value("tool_name", ""), "mcp_github_write_file");
  EXPECT_EQ(p["mcp_context"].value("server_name", ""), "github");
  EXPECT_EQ(p["mcp_context"].value("tool_name", ""), "write_file");
}

// A matcher that selects no tool the host offers: a note, and the calls are of the name it is
// written for (or none), never of another tool.
TEST(ProtocolSamples, AMatcherOfNoKnownToolGetsANote) {
  const auto p = plan_calls(Family::kClaude, hook("claude-code-2.1", "PreToolUse", "MyCustomTool"));
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].find("`MyCustomTool` selects no tool claude-code-2.1 is known to offer"),
            std::string::npos)
      << p.notes[0];
  ASSERT_FALSE(p.calls.empty());
  for (const auto& c : p.calls) EXPECT_EQ(c.tool, "MyCustomTool");
  // Gemini CLI: a Claude tool name is no Gemini tool.
  const auto g = plan_calls(Family::kGemini, hook("gemini-0.61", "BeforeTool", "Bash"));
  ASSERT_EQ(g.notes.size(), 1u);
  for (const auto& c : g.calls) EXPECT_EQ(c.tool, "Bash");
  // A pattern nothing is named by: no call at all, and the note says how to give one.
  const auto none = plan_calls(Family::kClaude, hook("claude-code-2.1", "PreToolUse", "^Zz[0-9]+$"));
  EXPECT_TRUE(none.calls.empty());
  ASSERT_EQ(none.notes.size(), 1u);
  EXPECT_NE(none.notes[0].find("--payload"), std::string::npos);
}

// Payload fidelity: deel's Stop carries 도구 null (seed 004 l.473, l.480); an after-tool result
// is the result of the call whose input the payload carries.
TEST(ProtocolSamples, PayloadPartsBelongToTheirCall) {
  const RunOptions o;
  std::string err;
  const std::string fx = std::string(PINTA_SOURCE_DIR) + "/fixtures";
  auto deel = pinta::emu::make_host_runner("deel-1.17", {fx, ""}, err);
  ASSERT_TRUE(deel) << err;
  const auto dstop = hook("deel-1.17", "Stop", "");
  const json d = call_payload(*deel, Family::kDeel, dstop, plan_calls(Family::kDeel, dstop).calls[0],
                              "/h", "/w");
  ASSERT_TRUE(d.contains("도구"));
  EXPECT_TRUE(d["도구"].is_null()) << d.dump();
  auto gem = pinta::emu::make_host_runner("gemini-0.61", {fx, ""}, err);
  ASSERT_TRUE(gem) << err;
  const auto after = hook("gemini-0.61", "AfterTool", "*");
  for (const auto& c : plan_calls(Family::kGemini, after).calls) {
    const json p = call_payload(*gem, Family::kGemini, after, c, "/h", "/w");
    SCOPED_TRACE(c.label + ": " + p.dump());
    ASSERT_TRUE(p.contains("tool_response"));
    const std::string said = p["tool_response"].value("llmContent", "");
    const json& in = p["tool_input"];
    for (const char* k : {"file_path", "command", "path"})
      if (in.contains(k) && (c.args != ToolArgs::kPath)) {
        EXPECT_NE(said.find(in[k].get<std::string>()), std::string::npos) << k;
      }
  }
  auto cl = pinta::emu::make_host_runner("claude-code-2.1", {fx, ""}, err);
  ASSERT_TRUE(cl) << err;
  const auto post = hook("claude-code-2.1", "PostToolUse", "Write");
  const auto wc = plan_calls(Family::kClaude, post).calls;
  ASSERT_FALSE(wc.empty());
  for (const auto& c : wc) {
    const json p = call_payload(*cl, Family::kClaude, post, c, "/h", "/w");
    EXPECT_EQ(p["tool_response"].value("filePath", ""), p["tool_input"].value("file_path", "-"))
        << p.dump();
  }
}

// The author's payloads: each file's object goes to every registration it names (event, tool),
// is sent as it is; a file that cannot be one is a one-line error naming it.
TEST(ProtocolSamples, AuthorPayloads) {
  TempDir t;
  std::vector<ProtocolHook> hooks = {hook("claude-code-2.1", "PreToolUse", "Bash"),
                                     hook("claude-code-2.1", "PreToolUse", "Write"),
                                     hook("claude-code-2.1", "Stop", "")};
  const std::string rm = t.write(
      "rm.json", R"({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~"}})");
  ASSERT_TRUE(assign_payloads(Family::kClaude, {rm}, hooks).ok());
  ASSERT_EQ(hooks[0].payloads.size(), 1u);
  EXPECT_TRUE(hooks[1].payloads.empty());  // Write's matcher does not select Bash
  EXPECT_TRUE(hooks[2].payloads.empty());
  const auto p = plan_calls(Family::kClaude, hooks[0]);
  ASSERT_TRUE(has_call(p, "--payload " + rm));
  std::string err;
  auto cl = pinta::emu::make_host_runner(
      "claude-code-2.1", {std::string(PINTA_SOURCE_DIR) + "/fixtures", ""}, err);
  ASSERT_TRUE(cl) << err;
  EXPECT_EQ(call_payload(*cl, Family::kClaude, hooks[0], p.calls.back(), "/h", "/w"),
            hooks[0].payloads[0].second);
  auto message = [&](const std::string& file) {
    std::vector<ProtocolHook> hs = {hook("claude-code-2.1", "PreToolUse", "Bash")};
    auto st = assign_payloads(Family::kClaude, {file}, hs);
    EXPECT_FALSE(st.ok()) << file;
    const std::string m = st.ok() ? "" : st.error().message;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    EXPECT_EQ(m.rfind("--payload " + file + ": ", 0), 0u) << m;
    return m;
  };
  EXPECT_NE(message(t.path + "/missing.json").find("cannot read"), std::string::npos);
  EXPECT_NE(message(t.write("bad.json", "{\"tool_name\": ")).find("not JSON"), std::string::npos);
  EXPECT_NE(message(t.write("two.json", "[{}, {}]")).find("not one JSON object"), std::string::npos);
  EXPECT_NE(message(t.write("other.json", R"({"tool_name":"Write"})")).find("fits no registration"),
            std::string::npos);
}

// The deny path runs: a guard that refuses `rm -rf` by exit 2 with its reason on stdout passes
// a benign call, but Claude Code tells the model only `No stderr output` (PROTO-6, a should: a
// failure under --strict), and the failure names the hostile call it was found on. One sample
// call (`ls -la`) never found it.
TEST(ProtocolSamples, TheDenyPathRunsAndTheFailureNamesItsCall) {
  TempDir t;
  const std::string guard = t.write(
      "guard.sh",
      "input=$(cat)\ncase \"$input\" in *'rm -rf'*) echo 'recursive deletes are not allowed'; "
      "exit 2 ;; esac\nexit 0\n");
  const std::string settings = t.write(
      "settings.json",
      R"({"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"bash )" +
          guard + R"("}]}]}})");
  ProtocolOptions po;
  po.host = "claude-code-2.1";
  po.config = settings;
  auto hooks = protocol_hooks(po);
  ASSERT_TRUE(hooks) << hooks.error().message;
  std::vector<Case> cases;
  protocol_cases(*hooks, cases);
  RunOptions o;
  o.fixtures_dir = std::string(PINTA_SOURCE_DIR) + "/fixtures";
  o.hosts = {po.host};
  o.strict = true;
  o.jobs = 2;
  const auto s = run_protocol(cases, *hooks, o, nullptr);
  ASSERT_EQ(s.cases.size(), 1u);
  const auto& ho = s.cases[0].hosts[0];
  EXPECT_EQ(s.cases[0].state, "FAIL");
  EXPECT_EQ(ho.failed_checks, std::vector<std::string>{"PROTO-6"});
  ASSERT_EQ(ho.failures.size(), 1u);
  EXPECT_NE(ho.failures[0].find("No stderr output"), std::string::npos) << ho.failures[0];
  EXPECT_NE(ho.failures[0].find("(on Bash `rm -rf /` (hostile))"), std::string::npos)
      << ho.failures[0];
  // Each run says which call it was and what the host did; the benign one passed.
  ASSERT_EQ(ho.runs.size(), 3u);
  EXPECT_EQ(ho.runs[0].value("call", ""), "Bash `ls -la`");
  EXPECT_EQ(ho.runs[0]["failed_checks"], json::array());
  EXPECT_EQ(ho.runs[1].value("call", ""), "Bash `rm -rf /` (hostile)");
  EXPECT_EQ(ho.runs[1].value("effect", ""), "blocking_error");
  EXPECT_EQ(ho.runs[1]["failed_checks"], json::array({"PROTO-6"}));
  // Without --strict the should-level finding is a note on the run that found it.
  o.strict = false;
  const auto n = run_protocol(cases, *hooks, o, nullptr);
  EXPECT_EQ(n.cases[0].state, "PASS");
  EXPECT_NE(n.cases[0].hosts[0].runs[1]["notes"].dump().find("PROTO-6"), std::string::npos);
}

}  // namespace
}  // namespace pinta::conformance::protocol
