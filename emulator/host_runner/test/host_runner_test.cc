// HostRunner (pinta/emulator/host_runner.h) as a library of its own: unknown hosts are refused with
// a reason, each family runs a small sh hook and reports what its host does with the reply, and
// absolute_command anchors only a relative program path that names a file.
#include "pinta/emulator/host_runner.h"

#include <gtest/gtest.h>

#include "pinta/emulator/gemini/gemini.h"
#include "pinta/hosts/hosts.h"
#include <unistd.h>

#include <filesystem>
#include <string>

namespace emu = pinta::emu;

namespace {

emu::HostRunnerOptions options() {
  return {PINTA_SOURCE_DIR "/fixtures", PINTA_SOURCE_DIR "/hosts/antigravity/profiles"};
}

emu::HookCall call_for(const std::string& host, const std::string& event, const std::string& cmd) {
  emu::HookCall c;
  c.host = host;
  c.event = event;
  c.command = cmd;
  c.cwd = std::filesystem::temp_directory_path().string();
  c.env = {{"PATH", "/usr/bin:/bin"}};
  c.timeout_ms = 5000;
  return c;
}

TEST(HostRunner, UnknownHostIsRefusedWithAReason) {
  std::string error;
  EXPECT_EQ(emu::make_host_runner("no-such-host", options(), error), nullptr);
  EXPECT_NE(error.find("no-such-host"), std::string::npos) << error;
  EXPECT_NE(error.find("unknown host"), std::string::npos) << error;  // not "no Antigravity profile"
  error.clear();
  emu::HostRunnerOptions bad = options();
  bad.profiles_dir = "/nonexistent/profiles";
  EXPECT_EQ(emu::make_host_runner("agy-1.1", bad, error), nullptr);
  EXPECT_NE(error.find("/nonexistent/profiles"), std::string::npos) << error;
}

TEST(HostRunner, GeminiDenyIsDeniedAndAllowIsAllowed) {
  std::string error;
  auto r = emu::make_host_runner("gemini-0.61", options(), error);
  ASSERT_NE(r, nullptr) << error;
  auto c = call_for("gemini-0.61", "BeforeTool",
                    R"(printf '{"decision":"deny","reason":"stop here"}\n')");
  c.input.payload = r->default_payload("BeforeTool", {{"tool", "run_shell_command"}}, "", c.cwd);
  auto o = r->run(c);
  EXPECT_EQ(o.effect, "denied");
  EXPECT_EQ(o.effect_message, "stop here");
  EXPECT_NE(o.stdin_sent.find("run_shell_command"), std::string::npos) << o.stdin_sent;
  c.command = R"(printf '{"decision":"allow"}\n')";
  EXPECT_EQ(r->run(c).effect, "allowed");
}

// A Gemini host named after a version profile (hosts/gemini/profiles/<host>.json) runs the
// hook under that profile's per-hook switches: 0.26 reads a non-zero exit's stderr with exit 2 =
// deny and any other code = warning, and words a blocked tool's error with the bare reason.
TEST(HostRunner, GeminiProfileHostsApplyTheirPerHookSwitches) {
  std::string error;
  EXPECT_EQ(emu::make_host_runner("gemini-0.99", options(), error), nullptr);
  EXPECT_NE(error.find("gemini-0.99"), std::string::npos) << error;
  auto r61 = emu::make_host_runner("gemini-0.61", options(), error);
  auto r26 = emu::make_host_runner("gemini-0.26", options(), error);
  auto r35 = emu::make_host_runner("gemini-0.35", options(), error);
  ASSERT_NE(r61, nullptr) << error;
  ASSERT_NE(r26, nullptr) << error;
  ASSERT_NE(r35, nullptr) << error;
  auto c = call_for("gemini-0.26", "BeforeTool", "echo 'not json' >&2; exit 3");
  c.env["HOME"] = "/nonexistent";  // socket stdio: bash would read ~/.bashrc
  c.input.payload = r26->default_payload("BeforeTool", {{"tool", "write_file"}}, "", c.cwd);
  EXPECT_EQ(r61->run(c).effect, "text_denied");
  auto o26 = r26->run(c);
  EXPECT_EQ(o26.effect, "text_shown");  // "Warning: not json", the tool runs
  c.command = R"(printf '{"decision":"deny","reason":"R"}\n')";
  EXPECT_EQ(r61->run(c).detail.value("tool_error", ""), "Tool execution blocked: R");
  EXPECT_EQ(r26->run(c).detail.value("tool_error", ""), "R");
  c.command = R"(printf '{"hookSpecificOutput":{"tool_input":{"content":"M"}}}\n')";
  c.input.payload["tool_input"] = {{"file_path", "a"}, {"content", "b"}};
  EXPECT_EQ(r61->run(c).detail["tool_input"], emu::json({{"content", "M"}}));
  EXPECT_EQ(r35->run(c).detail["tool_input"], emu::json({{"file_path", "a"}, {"content", "M"}}));
}

TEST(HostRunner, DeelExitTwoBlocks) {
  std::string error;
  auto r = emu::make_host_runner("deel-1.17", options(), error);
  ASSERT_NE(r, nullptr) << error;
  auto c = call_for("deel-1.17", "PreToolUse", "echo no; exit 2");
  c.input.payload = r->default_payload("PreToolUse", {{"tool", "Bash"}}, "", c.cwd);
  auto o = r->run(c);
  EXPECT_EQ(o.effect, "blocked") << o.detail.dump();
  c.command = "exit 0";
  EXPECT_EQ(r->run(c).effect, "passed") << o.detail.dump();
}

// Claude Code 2.1 (docs/hosts/claude-code-2.1.md): the JSON deny reaches the model as the
// tool error; exit 2 is a blocking error quoting the command and stderr; no output is no opinion;
// other statuses are errors; text after the tool is shown only; a reply naming another event is
// rejected. The payload is the host's (snake_case fields, tool_use_id) and the hook gets its
// environment additions.
TEST(HostRunner, ClaudeCodeReadsBothExitStatusAndJson) {
  std::string error;
  auto r = emu::make_host_runner("claude-code-2.1", options(), error);
  ASSERT_NE(r, nullptr) << error;
  auto c = call_for("claude-code-2.1", "PreToolUse",
                    R"(printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse",)"
                    R"("permissionDecision":"deny","permissionDecisionReason":"no rm"}}\n')");
  c.input.payload = r->default_payload("PreToolUse", {{"tool", "Bash"}}, "/h", c.cwd);
  EXPECT_EQ(c.input.payload["tool_name"], "Bash");
  EXPECT_EQ(c.input.payload["hook_event_name"], "PreToolUse");
  EXPECT_TRUE(c.input.payload.contains("tool_use_id"));
  EXPECT_EQ(c.input.payload["cwd"], c.cwd);
  auto o = r->run(c);
  EXPECT_EQ(o.effect, "denied");
  EXPECT_EQ(o.effect_message, "PreToolUse:Bash hook error: no rm");
  EXPECT_NE(o.stdin_sent.find("\"tool_name\":\"Bash\""), std::string::npos) << o.stdin_sent;
  c.command = R"(printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse",)"
              R"("permissionDecision":"ask","permissionDecisionReason":"sure?"}}')";
  o = r->run(c);
  EXPECT_EQ(o.effect, "asked");
  EXPECT_EQ(o.effect_message, "sure?");
  c.command = "echo no bash >&2; exit 2";
  o = r->run(c);
  EXPECT_EQ(o.effect, "blocking_error");
  EXPECT_EQ(o.effect_message, "PreToolUse:Bash hook error: [echo no bash >&2; exit 2]: no bash\n");
  c.command = "cat >/dev/null; exit 0";
  EXPECT_EQ(r->run(c).effect, "no_opinion");
  c.command = "echo oops >&2; exit 1";
  o = r->run(c);
  EXPECT_EQ(o.effect, "hook_error");
  EXPECT_EQ(o.effect_message, "oops\n");
  c.command = "test \"$CLAUDECODE\" = 1 && test \"$CLAUDE_PROJECT_DIR\" = \"$PWD\" || exit 1";
  EXPECT_EQ(r->run(c).effect, "no_opinion");
  c.command = R"(printf '{"continue":false,"stopReason":"enough"}')";
  o = r->run(c);
  EXPECT_EQ(o.effect, "stopped");  // pre-continue-false: the session ends after this step
  EXPECT_EQ(o.effect_message, "enough");
  c.command = R"(printf '{"hookSpecificOutput":{"hookEventName":"PostToolUse"}}')";
  EXPECT_EQ(r->run(c).effect, "hook_error");  // pre-json-wrong-event
  c.event = "PostToolUse";
  c.command = "echo done";
  EXPECT_EQ(r->run(c).effect, "text_shown");
  c.event = "SessionStart";
  c.command = "exit 2";
  EXPECT_EQ(r->run(c).effect, "error_shown");  // SessionStart cannot block
}

TEST(HostRunner, AntigravityProfileRunsTheHook) {
  std::string error;
  auto r = emu::make_host_runner("agy-1.1", options(), error);
  ASSERT_NE(r, nullptr) << error;
  auto c = call_for("agy-1.1", "PreToolUse", "cat >/dev/null; printf 'not json\\n'");
  c.input.payload = r->default_payload("PreToolUse", {{"tool", "run_command"}}, "/tmp", c.cwd);
  auto o = r->run(c);
  ASSERT_TRUE(o.raw.started);
  EXPECT_FALSE(o.effect.empty());
  EXPECT_NE(o.effect, "allowed") << "garbage on stdout is not an allow: " << o.detail.dump();
  EXPECT_EQ(r->run(call_for("agy-1.1", "NoSuchEvent", "true")).effect, "unknown_event");
}

TEST(HostRunner, AbsoluteCommandAnchorsOnlyARelativeProgramThatExists) {
  char tmpl[] = "/tmp/host_runner_test.XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  std::filesystem::path dir(tmpl);
  std::filesystem::create_directories(dir / "bin");
  std::FILE* f = std::fopen((dir / "bin/adapter").c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  auto old = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  EXPECT_EQ(emu::absolute_command("bin/adapter --agent gemini"),
            (dir / "bin/adapter").string() + " --agent gemini");
  EXPECT_EQ(emu::absolute_command("./bin/missing --x"), "./bin/missing --x");
  EXPECT_EQ(emu::absolute_command("adapter"), "adapter");  // a name on PATH, kept
  EXPECT_EQ(emu::absolute_command("'bin/adapter' --x"), "'bin/adapter' --x");  // quoted, kept
  EXPECT_EQ(emu::absolute_command("/usr/bin/true"), "/usr/bin/true");
  std::filesystem::current_path(old);
  std::filesystem::remove_all(dir);
}

}  // namespace

namespace {

// What a Gemini host runner does with one hook under a profile (GeminiRunner): the profile's
// per-hook rules, the tool error of a deny and of a stop, and a partial tool_input rewrite, as
// one string. Two profiles with the same fingerprint give every conformance case the same verdict.
std::string hook_fingerprint(const std::string& profile) {
  namespace gem = pinta::emu::gemini;
  auto p = gem::load_profile(profile);
  if (!p) return "unreadable: " + p.error().message;
  const gem::ojson& sw = gem::profile_switches(*p);
  const gem::HookRules r = gem::hook_rules_from_switches(sw);
  std::string f = std::to_string(r.legacy_output_reading) + std::to_string(r.session_env_vars) +
                  std::to_string(r.hook_env_field);
  const gem::ojson deny = {{"decision", "deny"}, {"reason", "R"}};
  const gem::ojson stop = {{"continue", false}, {"stopReason", "S"}};
  for (const char* ev : {"BeforeTool", "AfterTool"})
    for (const auto* out : {&deny, &stop}) f += "|" + gem::tool_error_text(sw, ev, *out);
  const gem::ojson rewrite = {{"hookSpecificOutput", {{"tool_input", {{"a", 3}}}}}};
  f += "|" + gem::rewritten_tool_input(sw, gem::ojson{{"a", 1}, {"b", 2}}, rewrite).dump();
  return f;
}

}  // namespace

// A Gemini profile graded as another host ("graded_as") has exactly that host's hook rules, and
// the graded Gemini hosts all differ from each other: no column of the suite repeats another.
TEST(HostRunner, GeminiProfilesGradedAsAnotherHostShareItsHookRules) {
  std::vector<std::pair<std::string, std::string>> graded;
  size_t shared = 0;
  for (const auto& h : pinta::hosts::registry()) {
    if (h.family != pinta::hosts::Family::kGemini) continue;
    const std::string fp = hook_fingerprint(h.name);
    if (!h.graded_as.empty()) {
      const auto* g = pinta::hosts::find_host(h.graded_as);
      ASSERT_NE(g, nullptr) << h.name << " graded as unknown " << h.graded_as;
      EXPECT_TRUE(g->graded) << h.graded_as;
      EXPECT_EQ(fp, hook_fingerprint(h.graded_as)) << h.name << " is not graded as " << h.graded_as;
      ++shared;
    } else if (h.graded) {
      for (const auto& [name, other] : graded)
        EXPECT_NE(fp, other) << h.name << " and " << name << " have the same hook rules";
      graded.push_back({h.name, fp});
    }
  }
  EXPECT_GE(graded.size(), 2u);
  EXPECT_GE(shared, 1u);
}
