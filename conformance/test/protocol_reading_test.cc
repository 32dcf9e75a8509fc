// The protocol profile's family readings (conformance/src/protocol/reading.h): one per registered
// family, in the registry's order, each complete.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "pinta/hosts/family.h"
#include "pinta/hosts/hosts.h"
#include "protocol/reading.h"
#include "protocol/workspace.h"

namespace pinta::conformance::protocol {
namespace {

TEST(ProtocolReading, EveryFamilyHasItsOwnCompleteReading) {
  for (const auto& d : pinta::hosts::families()) {
    const auto& fr = family_reading(d.id);
    EXPECT_EQ(fr.family, d.id) << d.name << ": kReadings is out of the registry's order";
    ASSERT_NE(fr.hook_timeout_ms, nullptr) << d.name;
    for (const auto& host : pinta::hosts::hosts_of(d.id))
      EXPECT_GT(fr.hook_timeout_ms(host), 0) << host;
    EXPECT_FALSE(fr.tools.empty()) << d.name;
    EXPECT_NE(fr.selects, nullptr) << d.name;
    EXPECT_NE(fr.judge, nullptr) << d.name;
    EXPECT_NE(fr.gate_call, nullptr) << d.name << ": the cross-host matrix needs its reading";
    // A family that reads a config file names the project folder it lives in.
    if (fr.read_config) {
      EXPECT_FALSE(fr.project_folder.empty()) << d.name;
    }
  }
}

// Every family states the order a session fires its events in, naming only its own events, each
// once: the profile runs a config's hooks in that order (protocol.cc run_protocol).
TEST(ProtocolReading, SessionOrderIsTheFamilysOwn) {
  using pinta::hosts::Family;
  for (const auto& d : pinta::hosts::families()) {
    const auto& fr = family_reading(d.id);
    ASSERT_GE(fr.session_order.size(), 2u) << d.name;
    for (size_t i = 0; i < fr.session_order.size(); ++i) {
      EXPECT_TRUE(pinta::hosts::sends_event(d.id, fr.session_order[i]))
          << d.name << ": " << fr.session_order[i] << " is no event of this host";
      EXPECT_EQ(session_rank(d.id, std::string(fr.session_order[i])), 2 * i) << d.name;
    }
    // The gate comes before the session's end; an event not listed runs before the end too.
    const auto end = session_rank(d.id, std::string(fr.session_order.back()));
    EXPECT_LT(session_rank(d.id, std::string(d.gate_event)), end) << d.name;
    EXPECT_LT(session_rank(d.id, "NoSuchEvent"), end) << d.name;
  }
  EXPECT_LT(session_rank(Family::kGemini, "SessionStart"), session_rank(Family::kGemini, "BeforeTool"));
  EXPECT_LT(session_rank(Family::kGemini, "AfterTool"), session_rank(Family::kGemini, "SessionEnd"));
}

// --hook's project (workspace.h hook_project): the current folder when the script is in it, the
// work tree of a script elsewhere (named by its absolute path), none for a lone script, and an
// interpreter named by its path is not the hook's script.
TEST(ProtocolWorkspace, HookProject) {
  namespace fs = std::filesystem;
  char tmpl[] = "/tmp/pinta-hookproj-XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  const fs::path t = tmpl;
  fs::create_directories(t / "here/hooks");
  fs::create_directories(t / "repo/.git");
  fs::create_directories(t / "repo/hooks");
  fs::create_directories(t / "lone");
  for (const auto& f : {t / "here/hooks/a.sh", t / "repo/hooks/b.sh", t / "lone/c.sh"})
    std::ofstream(f) << "#!/bin/sh\n";
  std::ofstream(t / "lone/interp") << "ELF";
  const std::string here = (t / "here").string();
  auto hp = hook_project("sh hooks/a.sh", here);
  EXPECT_EQ(hp.root, here);
  EXPECT_EQ(hp.command, "sh hooks/a.sh");
  hp = hook_project("sh ../repo/hooks/b.sh --x", here);
  EXPECT_EQ(hp.root, (t / "repo").string());
  EXPECT_EQ(hp.command, "sh " + (t / "repo/hooks/b.sh").string() + " --x");
  hp = hook_project((t / "lone/c.sh").string(), here);
  EXPECT_EQ(hp.root, "");
  EXPECT_NE(hp.why.find("no git work tree"), std::string::npos) << hp.why;
  // An interpreter by its path is no script: no script here, and `here` is no project.
  hp = hook_project((t / "lone/interp").string() + " hooks/missing.py", here);
  EXPECT_EQ(hp.root, "");
  EXPECT_EQ(hp.command, (t / "lone/interp").string() + " hooks/missing.py");
  fs::create_directories(t / "here/.git");
  EXPECT_EQ(hook_project("cat >/dev/null; echo {}", here).root, here);
  std::error_code ec;
  fs::remove_all(t, ec);
}

// Each host's own default: Gemini CLI 60 s, deel-local-cli 15 s, Antigravity its profile's (30 s).
TEST(ProtocolReading, DefaultHookTimeoutIsTheHosts) {
  using pinta::hosts::Family;
  EXPECT_EQ(family_reading(Family::kGemini).hook_timeout_ms("gemini-0.61"), 60000);
  EXPECT_EQ(family_reading(Family::kDeel).hook_timeout_ms("deel-1.17"), 15000);
  EXPECT_EQ(family_reading(Family::kAntigravity).hook_timeout_ms("antigravity-2.0"), 30000);
}

TEST(ProtocolReading, SampleArgsByShape) {
  EXPECT_EQ(sample_args(ToolArgs::kShell, "/w"), (json{{"command", "ls -la"}}));
  EXPECT_EQ(sample_args(ToolArgs::kWriteFile, "/w").value("file_path", ""), "/w/notes.txt");
  EXPECT_TRUE(sample_args(ToolArgs::kEdit, "/w").contains("old_string"));
  EXPECT_EQ(sample_args(ToolArgs::kPath, "/w"), (json{{"file_path", "/w/notes.txt"}}));
}

TEST(ProtocolReading, SharedHelpers) {
  EXPECT_FALSE(nonblank(" \t\r\n"));
  EXPECT_TRUE(nonblank(" x"));
  EXPECT_TRUE(has_json_line("log line\n{\"decision\":\"deny\"}\n"));
  EXPECT_FALSE(has_json_line("log line\n[1]\n"));
  pinta::proc::SpawnResult r;
  EXPECT_EQ(exit_text(r), "no exit status");
  r.exit_code = 3;
  EXPECT_EQ(exit_text(r), "exit 3");
}

TEST(ProtocolReading, DefaultHostIsTheFirstFamilysNewest) {
  EXPECT_EQ(default_protocol_host(), "gemini-0.61");
}

// One ended run of `command` on `event` as never_ran reads it.
std::optional<Finding> ran(pinta::hosts::Family f, const std::string& event,
                           const std::string& command, std::optional<int> code,
                           const std::string& err, const std::string& effect,
                           const std::map<std::string, std::string>& env = {}) {
  ProtocolHook h;
  h.event = event;
  h.command = command;
  HookOutcome o;
  o.raw.started = true;
  o.raw.exit_code = code;
  o.raw.err = err;
  o.effect = effect;
  return never_ran(f, h, env, o);
}

// The evidence a shell or an interpreter leaves when the hook's own program cannot start, worded
// with what each host then does on every call (its gate reading of the run).
TEST(ProtocolNeverRan, InterpreterCannotOpenTheScript) {
  using pinta::hosts::Family;
  // python3 exits 2: Gemini CLI reads exit 2 as a block (its stderr the reason).
  auto nr = ran(Family::kGemini, "BeforeTool", "python3 hooks/policy.py", 2,
                "/usr/bin/python3: can't open file '/p/hooks/policy.py': [Errno 2] No such file "
                "or directory\n",
                "denied");
  ASSERT_TRUE(nr);
  EXPECT_EQ(nr->check, "PROTO-0");
  EXPECT_NE(nr->message.find("could not open `/p/hooks/policy.py`"), std::string::npos)
      << nr->message;
  EXPECT_NE(nr->message.find("Gemini CLI blocks every tool call"), std::string::npos)
      << nr->message;
  EXPECT_NE(nr->message.find("$GEMINI_PROJECT_DIR/"), std::string::npos) << nr->message;
  // dash's own words for `sh file`, exit 2, on every registered family's gate event: never ran,
  // and what that host then does is said by its name (each host's wording: protocol-run.sh).
  for (const auto& d : pinta::hosts::families()) {
    SCOPED_TRACE(std::string(d.display_name));
    nr = ran(d.id, std::string(d.gate_event), "sh hooks/x.sh", 2,
             "sh: 0: cannot open hooks/x.sh: No such file\n", "denied");
    ASSERT_TRUE(nr);
    EXPECT_EQ(nr->check, "PROTO-0");
    EXPECT_NE(nr->message.find(std::string(d.display_name)), std::string::npos) << nr->message;
  }
  // Node: the main module, and a dependency.
  const std::string node =
      "node:internal/modules/cjs/loader:1210\n  throw err;\n\nError: Cannot find "
      "module '/p/x.js'\n  code: 'MODULE_NOT_FOUND',\n";
  nr = ran(Family::kClaude, "PreToolUse", "node x.js", 1, node, "hook_error");
  ASSERT_TRUE(nr);
  EXPECT_NE(nr->message.find("could not open `/p/x.js`"), std::string::npos) << nr->message;
  EXPECT_NE(nr->message.find("runs every tool call"), std::string::npos) << nr->message;
  nr = ran(Family::kClaude, "PreToolUse", "node x.js", 1,
           "Error: Cannot find module 'lodash'\nRequire stack:\n  code: 'MODULE_NOT_FOUND'\n",
           "hook_error");
  ASSERT_TRUE(nr);
  EXPECT_NE(nr->message.find("npm install"), std::string::npos) << nr->message;
  // perl's words; bash's for a missing script (exit 127).
  EXPECT_TRUE(ran(Family::kDeel, "PreToolUse", "perl h.pl", 2,
                  "Can't open perl script \"h.pl\": No such file or directory\n", "blocked"));
  nr = ran(Family::kDeel, "PreToolUse", "bash hooks/x.sh", 127,
           "bash: hooks/x.sh: No such file or directory\n", "blocked_broken");
  ASSERT_TRUE(nr);
  EXPECT_NE(nr->message.find("could not open `hooks/x.sh`"), std::string::npos) << nr->message;
  EXPECT_NE(nr->message.find("deel-local-cli blocks every tool call"), std::string::npos)
      << nr->message;
}

TEST(ProtocolNeverRan, CommandNotFoundOrNotExecutable) {
  using pinta::hosts::Family;
  auto nr = ran(Family::kCodex, "PreToolUse", "uvx policy", 127,
                "bash: line 1: uvx: command not found\n", "failed");
  ASSERT_TRUE(nr);
  EXPECT_NE(nr->message.find("`uvx` must be on the PATH"), std::string::npos) << nr->message;
  EXPECT_NE(nr->message.find("Codex CLI counts a broken hook and runs every tool call"),
            std::string::npos)
      << nr->message;
  nr = ran(Family::kClaude, "PreToolUse", "./hook.sh", 126,
           "/bin/sh: 1: ./hook.sh: Permission denied\n", "hook_error");
  ASSERT_TRUE(nr);
  EXPECT_NE(nr->message.find("chmod +x"), std::string::npos) << nr->message;
  // Off the gate: the host's effect, not a tool call.
  nr = ran(Family::kGemini, "AfterTool", "nope", 127, "bash: line 1: nope: command not found\n",
           "hook_failed");
  ASSERT_TRUE(nr);
  EXPECT_NE(nr->message.find("reads every run of it as hook_failed"), std::string::npos)
      << nr->message;
}

// A hook that ran and failed, or blocked on purpose, is the hook's answer: the other checks read
// it.
TEST(ProtocolNeverRan, AHookThatRanIsNotNeverRan) {
  using pinta::hosts::Family;
  EXPECT_FALSE(ran(Family::kGemini, "BeforeTool", "bash hooks/x.sh", 1,
                   "hooks/x.sh: line 5: jq: command not found\n", "hook_failed"));
  EXPECT_FALSE(ran(Family::kDeel, "PreToolUse", "bash guard.sh", 2,
                   "guard: cannot open /etc/policy: No such file or directory\n", "blocked"));
  EXPECT_FALSE(ran(Family::kClaude, "PreToolUse", "python3 guard.py", 2,
                   "refusing: can't open file outside src/\n", "blocking_error"));
  EXPECT_FALSE(ran(Family::kGemini, "BeforeTool", "python3 ok.py", 0, "", "no_opinion"));
  HookOutcome o;
  o.raw.started = true;
  o.raw.timed_out = true;  // killed at the timeout: PROTO-1's, not this
  o.raw.err = "sh: 1: x: not found\n";
  ProtocolHook h;
  h.event = "BeforeTool";
  h.command = "x";
  EXPECT_FALSE(never_ran(Family::kGemini, h, {}, o));
}

// A host variable the host does not set for this hook expands to nothing: never ran as written,
// whatever the exit status.
TEST(ProtocolNeverRan, UnsetHostVariable) {
  using pinta::hosts::Family;
  auto nr = ran(Family::kClaude, "PreToolUse", "python3 ${CLAUDE_PLUGIN_ROOT}/hooks/x.py", 0, "",
                "no_opinion");
  ASSERT_TRUE(nr);
  EXPECT_NE(nr->message.find("$CLAUDE_PLUGIN_ROOT, which Claude Code does not set"),
            std::string::npos)
      << nr->message;
  EXPECT_NE(nr->message.find("grade that folder"), std::string::npos) << nr->message;
  // Set for a plugin's own hooks (the run's environment says so).
  EXPECT_FALSE(ran(Family::kClaude, "PreToolUse", "python3 ${CLAUDE_PLUGIN_ROOT}/hooks/x.py", 0, "",
                   "no_opinion", {{"CLAUDE_PLUGIN_ROOT", "/p"}}));
  // Each host's own variables; another host's is empty there.
  EXPECT_FALSE(
      ran(Family::kGemini, "BeforeTool", "sh $GEMINI_PROJECT_DIR/h.sh", 0, "", "no_opinion"));
  EXPECT_FALSE(
      ran(Family::kClaude, "PreToolUse", "sh \"$CLAUDE_PROJECT_DIR\"/h.sh", 0, "", "no_opinion"));
  EXPECT_TRUE(ran(Family::kDeel, "PreToolUse", "sh $CLAUDE_PROJECT_DIR/h.sh", 0, "", "passed"));
  // An extension's ${extensionPath} outside an extension (a settings.json: not replaced).
  EXPECT_TRUE(
      ran(Family::kGemini, "BeforeTool", "node ${extensionPath}/x.js", 0, "", "no_opinion"));
  // Not a variable the shell expands, or not a host's.
  EXPECT_FALSE(ran(Family::kDeel, "PreToolUse", "echo '$CLAUDE_PROJECT_DIR'", 0, "", "passed"));
  EXPECT_FALSE(ran(Family::kDeel, "PreToolUse", "echo $HOME $USER", 0, "", "passed"));
}

TEST(ProtocolWorkspace, ShellVariables) {
  EXPECT_EQ(shell_variables("a $X ${Y:-d} '$Z' \\$W \"$V\" $1 $ ${}"),
            (std::set<std::string>{"X", "Y", "V"}));
}

TEST(ProtocolWorkspace, ReplacePathOnlyWholePaths) {
  EXPECT_EQ(replace_path("/a/proj /a/proj/x /a/project2 '/a/proj'", "/a/proj", "/t/c"),
            "/t/c /t/c/x /a/project2 '/t/c'");
  EXPECT_EQ(substitute("bash \"${CLAUDE_PLUGIN_ROOT}/h.sh\" $CLAUDE_PLUGIN_ROOT",
                       {{"CLAUDE_PLUGIN_ROOT", "/p"}}, false),
            "bash \"/p/h.sh\" $CLAUDE_PLUGIN_ROOT");
}

// The project a config's hooks run in: a host's project folder's parent, a package's root, else
// the file's folder; the copy leaves the author's tree as it is.
TEST(ProtocolWorkspace, ProjectRootAndCopy) {
  namespace stdfs = std::filesystem;
  const stdfs::path t =
      stdfs::temp_directory_path() / ("pinta-ws-test-" + std::to_string(::getpid()));
  stdfs::create_directories(t / "proj/.claude");
  stdfs::create_directories(t / "proj/.github/hooks");
  stdfs::create_directories(t / "proj/node_modules/dep");
  stdfs::create_directories(t / "plug/.claude-plugin");
  stdfs::create_directories(t / "plug/hooks");
  for (const char* f :
       {"proj/.claude/settings.json", "proj/.github/hooks/h.json", "proj/node_modules/dep/index.js",
        "plug/.claude-plugin/plugin.json", "plug/hooks/hooks.json", "loose.json"})
    std::ofstream(t / f) << "{}";
  auto root = [](const stdfs::path& p) {
    ProtocolHook h;
    h.origin = p.string();
    return project_root({h});
  };
  EXPECT_EQ(root(t / "proj/.claude/settings.json"), (t / "proj").string());
  EXPECT_EQ(root(t / "proj/.github/hooks/h.json"), (t / "proj").string());
  EXPECT_EQ(root(t / "plug/hooks/hooks.json"), (t / "plug").string());
  EXPECT_EQ(root(t / "loose.json"), t.string());
  auto w = Workspace::make((t / "proj").string(), false);
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_NE((*w)->dir(), (t / "proj").string());
  EXPECT_TRUE(stdfs::is_regular_file(stdfs::path((*w)->dir()) / ".claude/settings.json"));
  EXPECT_TRUE(stdfs::is_symlink(stdfs::path((*w)->dir()) / "node_modules"));
  EXPECT_EQ((*w)->map("sh " + (t / "proj").string() + "/x.sh"), "sh " + (*w)->dir() + "/x.sh");
  EXPECT_NE((*w)->line().find("node_modules"), std::string::npos) << (*w)->line();
  const std::string copy = (*w)->dir();
  w->reset();
  EXPECT_FALSE(stdfs::exists(copy));  // the copy goes with the last registration holding it
  auto in = Workspace::make((t / "proj").string(), true);
  ASSERT_TRUE(in);
  EXPECT_EQ((*in)->dir(), (t / "proj").string());
  std::error_code ec;
  stdfs::remove_all(t, ec);
}

}  // namespace
}  // namespace pinta::conformance::protocol
