// Unit tests of `hostemu gemini session` (run_session): the event order a scripted model produces,
// the built-in tools it runs for real, and the start-up lines. The same behaviours are checked
// against the real CLI by the real-host lane (real_session_diff_test.cc, scenarios s01–s25); these
// run everywhere and pin the emulator's side.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "pinta/common/sha256.h"
#include "pinta/common/test_support.h"
#include "pinta/emulator/gemini/gemini.h"

namespace g = pinta::emu::gemini;
using g::ojson;

namespace {

std::string slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

struct Session {
  pinta::testing::TempDir td;
  std::string home = td.sub("h"), ws = td.sub("w"), log = td.sub("hooks.log");
  Session() {
    std::filesystem::create_directories(home + "/.gemini");
    std::filesystem::create_directories(ws);
  }
  // A hook that logs "<event>:<tag>" and then runs `action`.
  std::string rec(const std::string& tag, const std::string& action = "") const {
    std::string c = "cat >/dev/null; echo " + tag + " >> " + log;
    return action.empty() ? c : c + "; " + action;
  }
  void settings(const ojson& hooks, const ojson& extra = ojson::object()) const {
    ojson s = ojson::parse(R"({"security":{"folderTrust":{"enabled":false}},
                               "hooksConfig":{"enabled":true}})");
    s["hooks"] = hooks;
    s.merge_patch(extra);
    std::ofstream(home + "/.gemini/settings.json") << s.dump();
  }
  ojson run(const ojson& script) const {
    g::RunContext ctx;
    // HOME: hooks get socket stdio like Node's, so bash reads $HOME/.bashrc; keep it the temp one.
    ctx.env =
        std::vector<std::pair<std::string, std::string>>{{"PATH", "/usr/bin:/bin"}, {"HOME", home}};
    auto r = g::run_session(home, ws, script, ctx);
    EXPECT_TRUE(r) << (r ? "" : r.error().message);
    return r ? *r : ojson();
  }
  std::vector<std::string> logged() const {
    std::vector<std::string> v;
    std::istringstream in(slurp(log));
    for (std::string l; std::getline(in, l);) v.push_back(l);
    return v;
  }
};

ojson hook(const std::string& cmd) {
  ojson h = ojson::object({{"type", "command"}, {"command", cmd}});
  ojson def = ojson::object();
  def["hooks"] = ojson::array({h});
  return ojson::array({def});
}

ojson write_turns(const std::string& path = "test.txt", const std::string& content = "Hello") {
  ojson call = ojson::object({{"name", "write_file"},
                              {"args", ojson::object({{"file_path", path}, {"content", content}})}});
  ojson turns = ojson::array();
  turns.push_back(ojson::object({{"function_call", call}}));
  turns.push_back(ojson::object({{"text", "Done."}}));
  return turns;
}

std::vector<std::string> event_names(const ojson& t) {
  std::vector<std::string> v;
  for (const auto& e : t["events"])
    if (!e.contains("skipped")) v.push_back(e["event"].get<std::string>());
  return v;
}

}  // namespace

// §6 "Order in one headless run with one tool call" (exp e01_payload; lane s03).
TEST(GeminiSession, ModelTurnsExpandToTheHeadlessEventOrder) {
  Session s;
  s.settings(ojson::object());
  auto t = s.run({{"model_turns", write_turns()}});
  std::vector<std::string> want = {
      "SessionStart", "BeforeAgent", "PreCompress", "BeforeModel", "BeforeToolSelection",
      "AfterModel",   "BeforeTool",  "AfterTool",   "PreCompress", "BeforeModel",
      "BeforeToolSelection", "AfterModel", "AfterAgent", "SessionEnd"};
  EXPECT_EQ(event_names(t), want);
  // AfterModel fires once per streamed chunk (§6 AfterModel, exp e08).
  auto t2 = s.run({{"model_turns", ojson::parse(R"([{"text":"a","chunks":3}])")}});
  auto names2 = event_names(t2);
  EXPECT_EQ(std::count(names2.begin(), names2.end(), "AfterModel"), 3);
}

TEST(GeminiSession, ScriptNeedsExactlyOneOfEventsAndTurns) {
  Session s;
  g::RunContext ctx;
  EXPECT_FALSE(g::run_session(s.home, s.ws, ojson::object(), ctx));
  EXPECT_FALSE(g::run_session(s.home, s.ws, ojson::parse(R"({"events":[],"model_turns":[]})"), ctx));
  EXPECT_FALSE(g::run_session(s.home, s.ws, ojson::array(), ctx));
}

// write_file really runs in the workspace when nothing blocks it (lane s02); a deny leaves no
// file and AfterTool does not fire (§6 BeforeTool 2, exp x07a; lane s01).
TEST(GeminiSession, WriteFileRunsUnlessBlocked) {
  Session s;
  s.settings({{"AfterTool", hook(s.rec("at"))}});
  auto t = s.run({{"model_turns", write_turns("sub/test.txt", "Hello World")}});
  EXPECT_EQ(slurp(s.ws + "/sub/test.txt"), "Hello World");
  EXPECT_EQ(s.logged(), std::vector<std::string>{"at"});

  Session d;
  d.settings({{"BeforeTool", hook(d.rec("bt", R"(echo '{"decision":"deny","reason":"R"}')"))},
              {"AfterTool", hook(d.rec("at"))}});
  auto td = d.run({{"model_turns", write_turns()}});
  EXPECT_FALSE(std::filesystem::exists(d.ws + "/test.txt"));
  EXPECT_EQ(d.logged(), std::vector<std::string>{"bt"});
  EXPECT_NE(std::find(td["stderr"].begin(), td["stderr"].end(),
                      ojson("Error executing tool write_file: Tool execution blocked: R")),
            td["stderr"].end());
}

// hookSpecificOutput.tool_input replaces the arguments (exp x11b; lane s14); a partial object
// fails validation and the tool does not run (exp x11; lane s15).
TEST(GeminiSession, HookRewrittenArgumentsAreValidatedAndUsed) {
  Session s;
  s.settings({{"BeforeTool",
               hook(R"(echo '{"hookSpecificOutput":{"tool_input":{"file_path":"other.txt","content":"MOD"}}}')")}});
  s.run({{"model_turns", write_turns()}});
  EXPECT_FALSE(std::filesystem::exists(s.ws + "/test.txt"));
  EXPECT_EQ(slurp(s.ws + "/other.txt"), "MOD");

  Session p;
  p.settings({{"BeforeTool", hook(R"(echo '{"hookSpecificOutput":{"tool_input":{"content":"MOD"}}}')")},
              {"AfterTool", hook(p.rec("at"))}});
  auto t = p.run({{"model_turns", write_turns()}});
  EXPECT_TRUE(p.logged().empty());
  EXPECT_FALSE(std::filesystem::exists(p.ws + "/test.txt"));
  EXPECT_NE(std::find(t["stderr"].begin(), t["stderr"].end(),
                      ojson("Error executing tool write_file: Tool parameter modification by hook "
                            "failed validation: params must have required property 'file_path'")),
            t["stderr"].end());
}

// §1.5: the project-hooks warning is printed once; the keys go to trusted_hooks.json (exp a08).
TEST(GeminiSession, ProjectHooksWarningOnceThenRecorded) {
  Session s;
  s.settings(ojson::object());
  std::filesystem::create_directories(s.ws + "/.gemini");
  ojson ws = ojson::parse(R"({"hooks":{"BeforeTool":[{"hooks":[
      {"type":"command","name":"p1","command":"true"},{"type":"command","command":"echo {}"}]}]}})");
  std::ofstream(s.ws + "/.gemini/settings.json") << ws.dump();
  auto t1 = s.run({{"model_turns", write_turns()}});
  std::vector<std::string> lines;
  for (const auto& l : t1["stderr"]) lines.push_back(l.get<std::string>());
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], "WARNING: The following project-level hooks have been detected in this workspace:");
  EXPECT_EQ(lines[1], "  - p1");
  EXPECT_EQ(lines[2], "  - echo {}");
  auto rec = ojson::parse(slurp(s.home + "/.gemini/trusted_hooks.json"));
  EXPECT_EQ(rec[s.ws], ojson::array({"p1:true", ":echo {}"}));
  auto t2 = s.run({{"model_turns", write_turns()}});
  for (const auto& l : t2["stderr"]) EXPECT_EQ(l.get<std::string>().rfind("WARNING: The following", 0), std::string::npos);
}

// Hook-failure feedback: plain outside runNonInteractive, plain + "[WARNING] " inside it (lanes
// s22, s25).
TEST(GeminiSession, FailureFeedbackIsDoubledOnlyInsideTheAgentRun) {
  Session s;
  s.settings({{"SessionStart", hook("exit 3")}, {"BeforeAgent", hook("exit 1")}});
  auto t = s.run({{"model_turns", ojson::parse(R"([{"text":"hi"}])")}});
  int plain_ss = 0, warn_ss = 0, plain_ba = 0, warn_ba = 0;
  for (const auto& l : t["stderr"]) {
    std::string x = l.get<std::string>();
    if (x.find("failed for event SessionStart") != std::string::npos) (x[0] == '[' ? warn_ss : plain_ss)++;
    if (x.find("failed for event BeforeAgent") != std::string::npos) (x[0] == '[' ? warn_ba : plain_ba)++;
  }
  EXPECT_EQ(plain_ss, 1);
  EXPECT_EQ(warn_ss, 0);
  EXPECT_EQ(plain_ba, 1);
  EXPECT_EQ(warn_ba, 1);
}

// bundle config.ts: an untrusted folder drops a non-default approval mode, printed twice (s04).
TEST(GeminiSession, UntrustedFolderOverridesApprovalMode) {
  Session s;
  s.settings(ojson::object(), ojson::parse(R"({"security":{"folderTrust":{"enabled":true}}})"));
  auto t = s.run({{"model_turns", write_turns()}, {"approval_mode", "yolo"}});
  EXPECT_EQ(t["exit_code"], 55);
  ASSERT_GE(t["stderr"].size(), 3u);
  EXPECT_EQ(t["stderr"][0], t["stderr"][1]);
  EXPECT_EQ(t["stderr"][0],
            "Approval mode overridden to \"default\" because the current folder is not trusted.");
  auto d = s.run({{"model_turns", write_turns()}});
  EXPECT_EQ(d["stderr"].size(), 1u);
}

// extension-enablement.json (bundle extensionEnablement.ts; lanes s26, s27): "!W/*" disables an
// extension for the workspace, the last matching rule wins, a malformed file is reported once per
// extension and ignored.
TEST(GeminiSession, ExtensionEnablementRules) {
  Session s;
  s.settings(ojson::object());
  auto ext = [&](const std::string& name) {
    std::string d = s.home + "/.gemini/extensions/" + name;
    std::filesystem::create_directories(d + "/hooks");
    std::ofstream(d + "/gemini-extension.json") << R"({"name":")" << name << R"(","version":"1.0.0"})";
    std::ofstream(d + "/hooks/hooks.json")
        << R"({"hooks":{"BeforeTool":[{"hooks":[{"type":"command","command":"echo )" << name
        << " >> " << s.log << R"("}]}]}})";
  };
  ext("ext-off");
  ext("ext-on");
  ext("ext-plain");
  const std::string en = s.home + "/.gemini/extensions/extension-enablement.json";
  std::ofstream(en) << ojson({{"ext-off", {{"overrides", {"!" + s.ws + "/*"}}}},
                              {"ext-on", {{"overrides", {"!" + s.ws + "/*", s.ws + "/"}}}},
                              {"ext-plain", {{"overrides", {"!/elsewhere/*"}}}}})
                           .dump();
  s.run({{"model_turns", write_turns()}});
  auto got = s.logged();
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"ext-on", "ext-plain"}));

  std::ofstream(en, std::ios::trunc) << R"({"ext-off":{"overrides":"!/*"}})";
  std::filesystem::remove(s.log);
  auto t = s.run({{"model_turns", write_turns()}});
  EXPECT_EQ(s.logged().size(), 3u);
  EXPECT_EQ(std::count(t["stderr"].begin(), t["stderr"].end(),
                       ojson("Failed to read extension enablement config.")),
            3);
}

// The gemini-0.26 profile (docs/gemini-versions.md; drift record of 0.26.0): each session switch
// against the 0.61 default on the same home + workspace.
namespace {

ojson with_profile(ojson script, const std::string& name) {
  auto p = g::load_profile(name);
  EXPECT_TRUE(p) << (p ? "" : p.error().message);
  if (p) script["profile"] = *p;
  return script;
}

std::vector<std::string> lines_of(const ojson& t) {
  std::vector<std::string> v;
  for (const auto& l : t["stderr"]) v.push_back(l.get<std::string>());
  return v;
}

}  // namespace

TEST(GeminiSession026, RegistrySizeLineAndBareToolErrors) {
  Session s;
  ojson bt = hook(s.rec("bt", R"(echo '{"decision":"deny","reason":"R"}')"));
  bt[0]["hooks"].push_back(ojson::parse(R"({"type":"command","name":"off","command":"true"})"));
  s.settings({{"BeforeTool", bt}, {"AfterTool", hook(s.rec("at"))}},
             ojson::parse(R"({"hooksConfig":{"disabled":["off"]}})"));
  auto t61 = s.run({{"model_turns", write_turns()}});
  EXPECT_EQ(lines_of(t61),
            std::vector<std::string>{"Error executing tool write_file: Tool execution blocked: R"});
  auto t26 = s.run(with_profile({{"model_turns", write_turns()}}, "gemini-0.26"));
  // 3 entries: the disabled hook is registered too (hookRegistry.js:150-165).
  EXPECT_EQ(lines_of(t26),
            (std::vector<std::string>{"Hook registry initialized with 3 hook entries",
                                      "Error executing tool write_file: R"}));
  EXPECT_EQ(t26["events"][6]["effect"]["tool_error"], "R");

  Session a;  // AfterTool stop: bare reason in the tool error, stop request logged first
  a.settings({{"AfterTool", hook(R"(echo '{"continue":false,"stopReason":"S"}')")}});
  auto ta = a.run(with_profile({{"model_turns", write_turns()}}, "gemini-0.26"));
  EXPECT_EQ(lines_of(ta), (std::vector<std::string>{"Hook registry initialized with 1 hook entries",
                                                    "Hook requested to stop execution: S",
                                                    "Error executing tool write_file: S",
                                                    "Agent execution stopped: S"}));
}

// The registry line is written right after the project-hooks warning, which has no newline.
TEST(GeminiSession026, RegistryLineGluedToTheProjectHooksWarning) {
  Session s;
  s.settings(ojson::object());
  std::filesystem::create_directories(s.ws + "/.gemini");
  std::ofstream(s.ws + "/.gemini/settings.json")
      << R"({"hooks":{"BeforeTool":[{"hooks":[{"type":"command","name":"p1","command":"true"}]}]}})";
  auto t = s.run(with_profile({{"model_turns", write_turns()}}, "gemini-0.26"));
  auto l = lines_of(t);
  ASSERT_FALSE(l.empty());
  EXPECT_EQ(l.back(),
            "please review the project settings (.gemini/settings.json) and remove them.Hook "
            "registry initialized with 1 hook entries");
}

// 0.26 headless in an untrusted folder: no exit 55; settings hooks off, extension hooks on, and no
// write_file (non-interactive default approval mode excludes it).
TEST(GeminiSession026, UntrustedFolderRunsWithoutSettingsHooksOrWriteFile) {
  Session s;
  s.settings({{"SessionStart", hook(s.rec("ss"))}, {"BeforeTool", hook(s.rec("bt"))}},
             ojson::parse(R"({"security":{"folderTrust":{"enabled":true}}})"));
  std::string d = s.home + "/.gemini/extensions/ext";
  std::filesystem::create_directories(d + "/hooks");
  std::ofstream(d + "/gemini-extension.json") << R"({"name":"ext","version":"1.0.0"})";
  std::ofstream(d + "/hooks/hooks.json")
      << ojson({{"hooks", {{"SessionEnd", hook(s.rec("se"))}}}}).dump();
  auto t = s.run(
      with_profile({{"model_turns", write_turns()}, {"approval_mode", "yolo"}}, "gemini-0.26"));
  EXPECT_EQ(t["exit_code"], 0);
  EXPECT_FALSE(std::filesystem::exists(s.ws + "/test.txt"));
  EXPECT_EQ(s.logged(), (std::vector<std::string>{"se", "se"}));  // SessionEnd fires twice
  auto l = lines_of(t);
  ASSERT_EQ(l.size(), 6u);
  EXPECT_EQ(l[2], "Loading extension: ext");
  EXPECT_EQ(l[3], "Project hooks disabled because the folder is not trusted.");
  EXPECT_EQ(l[4], "Hook registry initialized with 1 hook entries");
  EXPECT_EQ(
      l[5].rfind("Error executing tool write_file: Tool \"write_file\" not found in registry.", 0),
      0u);
}

// 0.27 refuses the untrusted run's write_file in the event-driven scheduler, with its shorter
// wording (switch tool_not_found_error; core 0.27.4 scheduler/scheduler.js:181; drift s04).
TEST(GeminiSession026, Untrusted027WriteFileNotFoundWording) {
  Session s;
  s.settings({{"BeforeTool", hook(s.rec("bt"))}},
             ojson::parse(R"({"security":{"folderTrust":{"enabled":true}}})"));
  auto t = s.run({{"model_turns", write_turns()},
                  {"approval_mode", "yolo"},
                  {"profile", ojson::parse(R"({"switches":{"headless_folder_trust":
                       "settings_hooks_off","tool_not_found_error":"scheduler"}})")}});
  EXPECT_EQ(t["exit_code"], 0);
  auto l = lines_of(t);
  ASSERT_FALSE(l.empty());
  EXPECT_EQ(l.back(),
            "Error executing tool write_file: Tool \"write_file\" not found. Did you mean one of: "
            "\"read_file\", \"write_todos\", \"cli_help\"?");
}

// Before 0.39.1 a start-up feedback warning is written without its newline: the next stderr line
// continues it (switch feedback_newline; cli 0.26.0 gemini.js:526-528; drift s33 on 0.35.3), as
// the registry-size line does in 0.26; from 0.41 (and 0.61) the lines stay apart, and an open
// warning with nothing after it just ends.
TEST(GeminiSession026, FeedbackWarningWithoutNewlineGluesTheNextLine) {
  const std::string invalid =
      "Invalid hook event name: \"BeforeEverything\" from project config. Skipping.";
  for (const char* profile : {"gemini-0.35", "gemini-0.61"}) {
    SCOPED_TRACE(profile);
    Session s;
    s.settings({{"BeforeEverything", hook("true")},
                {"SessionEnd", hook("echo 'se text' >&2; exit 1")}});
    auto t =
        s.run(with_profile({{"model_turns", ojson::parse(R"([{"text":"hi"}])")}}, profile));
    auto l = lines_of(t);
    ASSERT_GE(l.size(), 2u);
    if (std::string(profile) == "gemini-0.35") {
      EXPECT_EQ(l[0], invalid + "Hook system message: Warning: se text");
    } else {
      EXPECT_EQ(l[0], invalid);
      EXPECT_EQ(l[1], "Hook system message: Warning: se text");
    }
    for (const auto& x : l) EXPECT_EQ(x.find('\x1e'), std::string::npos) << x;
  }
  Session s;
  s.settings({{"BeforeEverything", hook("true")}});
  auto t = s.run(
      with_profile({{"model_turns", ojson::parse(R"([{"text":"hi"}])")}}, "gemini-0.35"));
  EXPECT_EQ(lines_of(t), (std::vector<std::string>{invalid}));
}

// One console stream: SessionStart's systemMessage (a direct write) comes before every start-up
// line, and an event's "Hook system message" precedes its failure warning; exit 4 with stderr
// text is a warning in 0.26 (a deny in 0.30+).
TEST(GeminiSession026, OneConsoleStreamOrderAndOldExitCodeReading) {
  Session s;
  s.settings({{"SessionStart", hook(R"(echo '{"systemMessage":"ss-sys"}')")},
              {"SessionEnd", hook("echo 'se text' >&2; exit 4")}});
  auto t =
      s.run(with_profile({{"model_turns", ojson::parse(R"([{"text":"hi"}])")}}, "gemini-0.26"));
  const std::string fail =
      "Hook(s) [echo 'se text' >&2; exit 4] failed for event SessionEnd. Press F12 to see the "
      "debug drawer for more details.";
  EXPECT_EQ(lines_of(t), (std::vector<std::string>{
                             "ss-sys", "Hook registry initialized with 2 hook entries",
                             "Hook system message: ss-sys", "Hook system message: Warning: se text",
                             fail, "Hook system message: Warning: se text", fail}));
  auto t61 = s.run({{"model_turns", ojson::parse(R"([{"text":"hi"}])")}});
  EXPECT_EQ(lines_of(t61),
            (std::vector<std::string>{"ss-sys", "Hook system message: ss-sys", fail}));
}

// AfterAgent decision:block re-enters the agent loop with the reason as the prompt: BeforeAgent
// fires again, the next scripted model call is made, and AfterAgent sees stop_hook_active and the
// accumulated answer (core client.js sendMessageStream; lane u28). Without a block the leftover
// model turns are never requested.
TEST(GeminiSession, AfterAgentBlockContinuesTheAgentLoop) {
  Session s;
  s.settings({{"BeforeAgent", hook("cat >/dev/null; echo ba >> " + s.log)},
              {"AfterAgent",
               hook("in=$(cat); echo \"$in\" > " + s.td.sub("aa.json") + "; echo aa >> " + s.log +
                    R"(; case "$in" in *'"stop_hook_active":true'*) echo '{}' ;; *) echo '{"decision":"block","reason":"again"}' ;; esac)")}});
  auto t = s.run({{"model_turns", ojson::parse(R"([{"text":"one","chunks":2},{"text":"two"}])")}});
  EXPECT_EQ(s.logged(), (std::vector<std::string>{"ba", "aa", "ba", "aa"}));
  auto last = ojson::parse(slurp(s.td.sub("aa.json")));
  EXPECT_EQ(last["stop_hook_active"], true);
  EXPECT_EQ(last["prompt"], "Create test.txt");
  // Each call's text is its chunks' text joined by ' ' (a thought chunk gives ''), calls by '\n'.
  EXPECT_EQ(last["prompt_response"], " one\ntwo");

  Session n;
  n.settings({{"BeforeModel", hook(n.rec("bm"))}, {"AfterAgent", hook(n.rec("aa"))}});
  n.run({{"model_turns", ojson::parse(R"([{"text":"one"},{"text":"never requested"}])")}});
  EXPECT_EQ(n.logged(), (std::vector<std::string>{"bm", "aa"}));
}

// A blocking BeforeModel answer means no model call: no BeforeToolSelection / AfterModel / tool
// events for the rest of that agent iteration, but AfterAgent fires (lane u07, u08).
TEST(GeminiSession, BeforeModelBlockEndsTheModelCall) {
  Session s;
  s.settings({{"BeforeModel", hook(s.rec("bm", R"(echo '{"decision":"deny","reason":"no"}')"))},
              {"BeforeToolSelection", hook(s.rec("bts"))},
              {"AfterModel", hook(s.rec("am"))},
              {"BeforeTool", hook(s.rec("bt"))},
              {"AfterAgent", hook(s.rec("aa"))}});
  s.run({{"model_turns", write_turns()}});
  EXPECT_EQ(s.logged(), (std::vector<std::string>{"bm", "aa"}));
  EXPECT_FALSE(std::filesystem::exists(s.ws + "/test.txt"));
}

// AfterTool hookSpecificOutput.tailToolCallRequest replaces the call with a new one that runs with
// its own BeforeTool / AfterTool hooks (core scheduler.js; lane u05).
TEST(GeminiSession, AfterToolTailCallRunsTheRequestedTool) {
  Session s;
  ojson at = hook(s.rec("at", R"(echo '{"hookSpecificOutput":{"hookEventName":"AfterTool","tailToolCallRequest":{"name":"write_file","args":{"file_path":"tail.txt","content":"T"}}}}')"));
  at[0]["matcher"] = "read_file";
  s.settings({{"BeforeTool", hook(s.rec("bt"))}, {"AfterTool", at}});
  auto turns = ojson::parse(
      R"([{"function_call":{"name":"read_file","args":{"file_path":"x"}}},{"text":"ok"}])");
  auto t = s.run({{"model_turns", turns}});
  EXPECT_EQ(s.logged(), (std::vector<std::string>{"bt", "at", "bt"}));
  EXPECT_EQ(slurp(s.ws + "/tail.txt"), "T");
}

// The transcript's hook_calls: one gemini_cli.hook_call record per hook run, in run order, with
// the attributes the CLI logs (core hookEventHandler.js / telemetry types.js HookCallEvent).
TEST(GeminiSession, HookCallRecords) {
  Session s;
  ojson named = hook("cat >/dev/null; echo out; echo err >&2; exit 1");
  named[0]["hooks"][0]["name"] = "failing";
  s.settings({{"BeforeAgent", named},
              {"AfterAgent", hook(R"(cat >/dev/null; echo '{"systemMessage":"m"}')")}});
  auto t = s.run({{"model_turns", ojson::parse(R"([{"text":"hi"}])")}});
  ASSERT_EQ(t["hook_calls"].size(), 2u);
  const ojson& a = t["hook_calls"][0];
  EXPECT_EQ(a["event.name"], "gemini_cli.hook_call");
  EXPECT_EQ(a["hook_event_name"], "BeforeAgent");
  EXPECT_EQ(a["hook_name"], "failing");
  EXPECT_EQ(a["hook_type"], "command");
  EXPECT_EQ(a["success"], false);
  EXPECT_EQ(a["exit_code"], 1);
  EXPECT_EQ(a["stdout"], "out\n");
  // Ends with: a login shell's own start-up noise may come first on some machines.
  const std::string err = a["stderr"].get<std::string>();
  EXPECT_EQ(err.substr(err.size() >= 4 ? err.size() - 4 : 0), "err\n") << err;
  const ojson& b = t["hook_calls"][1];
  EXPECT_EQ(b["hook_name"], R"(cat >/dev/null; echo '{"systemMessage":"m"}')");
  EXPECT_EQ(b["success"], true);
  EXPECT_EQ(b["hook_output"], ojson::parse(R"({"systemMessage":"m"})"));
  EXPECT_FALSE(b.contains("error"));
}

// Profile switch after_agent_continuation = nested (< 0.35; drift u28 on 0.30.0): the continuation
// makes the next model call, but neither BeforeAgent nor AfterAgent fire in it.
TEST(GeminiSession, NestedAfterAgentContinuationFiresNoAgentHooks) {
  Session s;
  s.settings({{"BeforeAgent", hook(s.rec("ba"))},
              {"BeforeModel", hook(s.rec("bm"))},
              {"AfterAgent", hook(s.rec("aa", R"(echo '{"decision":"block","reason":"again"}')"))}});
  auto script = ojson::object(
      {{"model_turns", ojson::parse(R"([{"text":"one"},{"text":"two"}])")},
       {"profile", ojson::parse(R"({"switches":{"after_agent_continuation":"nested"}})")}});
  s.run(script);
  EXPECT_EQ(s.logged(), (std::vector<std::string>{"ba", "bm", "aa", "bm"}));
}

// Profile switch tail_tool_calls = false (< 0.35): tailToolCallRequest is ignored.
TEST(GeminiSession, TailCallsOffIgnoresTheRequest) {
  Session s;
  s.settings({{"BeforeTool", hook(s.rec("bt"))},
              {"AfterTool", hook(s.rec("at", R"(echo '{"hookSpecificOutput":{"hookEventName":"AfterTool","tailToolCallRequest":{"name":"write_file","args":{"file_path":"tail.txt","content":"T"}}}}')"))}});
  auto script = ojson::object(
      {{"model_turns", ojson::parse(
            R"([{"function_call":{"name":"read_file","args":{"file_path":"x"}}},{"text":"ok"}])")},
       {"profile", ojson::parse(R"({"switches":{"tail_tool_calls":false}})")}});
  s.run(script);
  EXPECT_EQ(s.logged(), (std::vector<std::string>{"bt", "at"}));
  EXPECT_FALSE(std::filesystem::exists(s.ws + "/tail.txt"));
}

// What the hooks receive (drift's payload comparison against the real 0.61.0, hook_input of its
// hook_call records): transcript_path, the model request with the session context, the response
// per streamed chunk, and the hook_call record's hook_input / hook_type.
TEST(GeminiSessionPayload, TranscriptPathRequestAndChunks) {
  Session s;
  ojson hooks = ojson::object();
  for (const char* ev : {"SessionStart", "BeforeAgent", "BeforeModel", "AfterModel", "AfterTool"})
    hooks[ev] = hook(s.rec(ev));
  hooks["BeforeAgent"] = hook(s.rec("ba", R"(echo '{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"CTX"}}')"));
  s.settings(hooks);
  std::ofstream(s.ws + "/b.txt") << "x";
  std::ofstream(s.ws + "/A.txt") << "x";
  std::filesystem::create_directories(s.ws + "/sub");
  std::ofstream(s.ws + "/sub/c.txt") << "x";
  ojson turns = write_turns("new.txt", "one\ntwo");
  turns[1]["chunks"] = 2;
  auto t = s.run({{"model_turns", turns}, {"prompt", "Do it"}});
  std::map<std::string, std::vector<ojson>> in;
  for (const auto& c : t["hook_calls"]) {
    ASSERT_TRUE(c.contains("hook_input")) << c.dump();
    EXPECT_EQ(c["hook_type"], "command");
    in[c["hook_event_name"].get<std::string>()].push_back(c["hook_input"]);
  }
  // <home>/.gemini/tmp/<slug of the workspace name>/chats/session-<time>-<id8>.jsonl
  const std::string tp = in["SessionStart"][0]["transcript_path"].get<std::string>();
  EXPECT_EQ(tp.rfind(s.home + "/.gemini/tmp/w/chats/session-", 0), 0u) << tp;
  EXPECT_EQ(tp.substr(tp.size() - 15), "-00000000.jsonl") << tp;
  // The request: one user message, the session context + the prompt + BeforeAgent's context.
  const ojson& req = in["BeforeModel"][0]["llm_request"];
  EXPECT_EQ(req["model"], "gemini-2.5-flash");
  EXPECT_EQ(req["config"], ojson::parse(R"({"temperature":1,"topP":0.95,"topK":64})"));
  ASSERT_EQ(req["messages"].size(), 1u);
  const std::string content = req["messages"][0]["content"].get<std::string>();
  EXPECT_EQ(content.rfind("<session_context>\nThis is the Gemini CLI.", 0), 0u) << content;
  EXPECT_NE(content.find("\n\nShowing up to 200 items (files + folders).\n\n" + s.ws +
                         "/\n├───A.txt\n├───b.txt\n└───sub/\n    └───c.txt\n\n\n</session_context>"
                         "Do it<hook_context>CTX</hook_context>"),
            std::string::npos)
      << content;
  EXPECT_NE(content.find("The project's temporary directory is: " + s.home + "/.gemini/tmp/w\n"),
            std::string::npos);
  // The later model call sees the same history (the call and its response carry no text).
  EXPECT_EQ(in["BeforeModel"][1]["llm_request"], req);
  // AfterModel per chunk: the function call chunk has no part; the thought chunk's part shows,
  // its text does not count; the last chunk carries the answer.
  ASSERT_EQ(in["AfterModel"].size(), 3u);
  EXPECT_EQ(in["AfterModel"][0]["llm_response"]["text"], "");
  EXPECT_EQ(in["AfterModel"][0]["llm_response"]["candidates"][0]["content"]["parts"], ojson::array());
  EXPECT_EQ(in["AfterModel"][1]["llm_response"]["text"], "");
  EXPECT_EQ(in["AfterModel"][1]["llm_response"]["candidates"][0]["content"]["parts"],
            ojson::array({"Thinking (1)."}));
  EXPECT_EQ(in["AfterModel"][2]["llm_response"]["text"], "Done.");
  // write_file's response for a new file: the content echoed and the creation patch.
  const ojson& tr = in["AfterTool"][0]["tool_response"];
  EXPECT_EQ(tr["llmContent"], "Successfully created and wrote to new file: " + s.ws +
                                  "/new.txt. Here is the updated code:\none\ntwo");
  EXPECT_EQ(tr["returnDisplay"]["fileDiff"],
            "Index: new.txt\n==================================================================="
            "\n--- new.txt\tOriginal\n+++ new.txt\tWritten\n@@ -0,0 +1,2 @@\n+one\n+two\n"
            "\\ No newline at end of file\n");
  EXPECT_EQ(tr["returnDisplay"]["diffStat"]["model_added_lines"], 2);
  EXPECT_EQ(tr["returnDisplay"]["diffStat"]["model_added_chars"], 6);
  EXPECT_EQ(tr["returnDisplay"]["isBuildFile"], false);
}

TEST(GeminiSessionPayload, OlderProfilesNameTheTranscriptJsonAndSplitTheContext) {
  Session s;
  s.settings(ojson::object({{"BeforeModel", hook(s.rec("bm"))}}));
  auto t = s.run({{"model_turns", write_turns()},
                  {"profile", ojson::parse(R"({"switches":{"transcript_file":"json",
                       "session_context_message":"separate","llm_request_model":"m-x"}})")}});
  ASSERT_FALSE(t["hook_calls"].empty());
  const ojson& in = t["hook_calls"][0]["hook_input"];
  const std::string tp = in["transcript_path"].get<std::string>();
  EXPECT_EQ(tp.substr(tp.size() - 14), "-00000000.json") << tp;
  EXPECT_EQ(in["llm_request"]["model"], "m-x");
  ASSERT_EQ(in["llm_request"]["messages"].size(), 2u);
  EXPECT_EQ(in["llm_request"]["messages"][1], ojson::parse(R"({"role":"user","content":"Create test.txt"})"));
}

// Before 0.29 (gemini-0.26 .. gemini-0.28): the project's temp folder is the SHA-256 of the
// workspace path (switch project_temp_dir, core 0.28.2 config/storage.js:100-116) and the session
// context has the older wording (switch session_context_text; bisect boundary 0.29.0, u06/u28).
TEST(GeminiSessionPayload, Pre029HashFolderAndWorkingDirContext) {
  Session s;
  s.settings(ojson::object({{"BeforeModel", hook(s.rec("bm"))}}));
  auto t = s.run({{"model_turns", write_turns()},
                  {"profile", ojson::parse(R"({"switches":{"project_temp_dir":"sha256",
                       "session_context_text":"working_dir","session_context_message":"separate"}})")}});
  ASSERT_FALSE(t["hook_calls"].empty());
  const ojson& in = t["hook_calls"][0]["hook_input"];
  const std::string folder = s.home + "/.gemini/tmp/" + pinta::sha256_hex(s.ws);
  EXPECT_EQ(in["transcript_path"].get<std::string>().rfind(folder + "/chats/session-", 0), 0u)
      << in["transcript_path"];
  const std::string ctx = in["llm_request"]["messages"][0]["content"].get<std::string>();
  EXPECT_EQ(ctx.rfind("This is the Gemini CLI. We are setting up the context for our chat.\n", 0),
            0u)
      << ctx;
  const std::string tail = "The project's temporary directory is: " + folder +
                           "\nI'm currently working in the directory: " + s.ws +
                           "\nHere is the folder structure of the current working directories:\n\n"
                           "Showing up to 200 items (files + folders).\n\n" +
                           s.ws +
                           "/\n\nReminder: Do not return an empty response when a tool call is "
                           "required.\n\nMy setup is complete. I will provide my first command in "
                           "the next turn.";
  ASSERT_GE(ctx.size(), tail.size());
  EXPECT_EQ(ctx.substr(ctx.size() - tail.size()), tail) << ctx;
}

// A BeforeModel llm_request rewrite: 0.42+ merge the hook's messages into the request in place
// (core 0.61.0 hooks/hookTranslator.js:118-200), so with the session context as its own message
// (0.42 .. 0.52) the prompt stays after the rewritten message; before 0.42 they replace it
// (switch llm_request_rewrite "replace"). Bisect boundary 0.42.0, lane u06.
TEST(GeminiSessionPayload, BeforeModelRewriteMergesIntoTheRequest) {
  auto run = [](const char* switches) {
    Session s;
    s.settings(ojson::object(
        {{"BeforeModel",
          hook(s.rec(
              "bm",
              R"(echo '{"hookSpecificOutput":{"hookEventName":"BeforeModel","llm_request":{"messages":[{"role":"user","content":"RW"}]}}}')"))},
         {"AfterModel", hook(s.rec("am"))}}));
    ojson turns = ojson::array({ojson::object({{"text", "Done."}})});
    auto t = s.run({{"model_turns", turns}, {"prompt", "P"}, {"profile", ojson::parse(switches)}});
    for (const auto& c : t["hook_calls"])
      if (c["hook_event_name"] == "AfterModel") return c["hook_input"]["llm_request"]["messages"];
    return ojson();
  };
  EXPECT_EQ(run(R"({"switches":{"session_context_message":"separate"}})"),
            ojson::parse(R"([{"role":"user","content":"RW"},{"role":"user","content":"P"}])"));
  EXPECT_EQ(
      run(R"({"switches":{"session_context_message":"separate","llm_request_rewrite":"replace"}})"),
      ojson::parse(R"([{"role":"user","content":"RW"}])"));
  EXPECT_EQ(run(R"({"switches":{}})"), ojson::parse(R"([{"role":"user","content":"RW"}])"));
}

// write_file's response for a new file before 0.61 has no isBuildFile, and before 0.31 no
// "Here is the updated code" (switch write_file_response; lane s23 on 0.27.4 .. 0.29.0).
TEST(GeminiSessionPayload, OlderWriteFileResponses) {
  auto run = [](const char* mode) {
    Session s;
    s.settings(ojson::object({{"AfterTool", hook(s.rec("at"))}}));
    ojson prof = ojson::object({{"switches", ojson::object({{"write_file_response", mode}})}});
    auto t = s.run({{"model_turns", write_turns("n.txt", "x")}, {"profile", prof}});
    for (const auto& c : t["hook_calls"])
      if (c["hook_event_name"] == "AfterTool") {
        // llmContent as "snippet" or "plain": whether it echoes the content.
        const ojson& r = c["hook_input"]["tool_response"];
        const bool snip = r["llmContent"].get<std::string>().find("Here is the updated code:\nx") !=
                          std::string::npos;
        return ojson::object(
            {{"llmContent", snip ? "snippet" : "plain"}, {"returnDisplay", r["returnDisplay"]}});
      }
    return ojson();
  };
  auto full = run("build_flag"), snippet = run("snippet"), plain = run("plain");
  EXPECT_EQ(full["llmContent"], "snippet");
  EXPECT_EQ(full["returnDisplay"]["isBuildFile"], false);
  EXPECT_EQ(snippet["llmContent"], "snippet");
  EXPECT_FALSE(snippet["returnDisplay"].contains("isBuildFile"));
  EXPECT_TRUE(snippet["returnDisplay"].contains("fileDiff"));
  EXPECT_EQ(plain["llmContent"], "plain");
  EXPECT_FALSE(plain["returnDisplay"].contains("isBuildFile"));
}

// Before 0.36 AfterTool sees the notice of a BeforeTool tool_input rewrite at the end of
// llmContent, naming the keys the hook set (switch tool_input_notice; core 0.35.3
// core/coreToolHookTriggers.js:119-134; drift s15 on 0.27.4); 0.36+ append it after the hooks.
TEST(GeminiSessionPayload, ToolInputNoticeBefore036) {
  auto run = [](const char* switches) {
    Session s;
    s.settings(
        {{"BeforeTool",
          hook(s.rec("bt", R"(echo '{"hookSpecificOutput":{"tool_input":{"content":"MOD"}}}')"))},
         {"AfterTool", hook(s.rec("at"))}});
    auto t = s.run({{"model_turns", write_turns()}, {"profile", ojson::parse(switches)}});
    for (const auto& c : t["hook_calls"])
      if (c["hook_event_name"] == "AfterTool")
        return c["hook_input"]["tool_response"]["llmContent"].get<std::string>();
    return std::string("(no AfterTool)");
  };
  const std::string old = run(
      R"({"switches":{"tool_input_rewrite":"merge","tool_input_notice":"in_tool_response","write_file_response":"plain"}})");
  EXPECT_EQ(
      old.substr(old.find(".\n\n[System]")),
      ".\n\n[System] Tool input parameters (content) were modified by a hook before execution.")
      << old;
  const std::string now = run(R"({"switches":{"tool_input_rewrite":"merge"}})");
  EXPECT_EQ(now.find("[System]"), std::string::npos) << now;
}

// Registry warnings go to stderr as the CLI prints them (lane s30), a plugin hook is recorded as
// a plugin.
TEST(GeminiSessionPayload, RegistryWarningsOnStderrAndPluginHookType) {
  Session s;
  ojson hooks = ojson::parse(R"({"BeforeAgent":[{"matcher":"*"},
      {"hooks":[{"type":"script","command":"true"},{"type":"command"}]}],
      "BeforeTool":[{"hooks":[{"type":"plugin","command":"cat >/dev/null","name":"plug"}]}]})");
  s.settings(hooks);
  auto t = s.run({{"model_turns", write_turns()}});
  std::vector<std::string> err;
  for (const auto& l : t["stderr"]) err.push_back(l.get<std::string>());
  const std::vector<std::string> want = {
      "Discarding invalid hook definition for BeforeAgent from project: { matcher: '*' }",
      "Invalid hook BeforeAgent from project type: script",
      "Discarding invalid hook configuration for BeforeAgent from project: { type: 'script', "
      "command: 'true' }",
      "Command hook BeforeAgent from project missing command field",
      "Discarding invalid hook configuration for BeforeAgent from project: { type: 'command' }"};
  ASSERT_GE(err.size(), want.size());
  EXPECT_EQ(std::vector<std::string>(err.begin(), err.begin() + static_cast<long>(want.size())), want);
  bool plugin = false;
  for (const auto& c : t["hook_calls"])
    if (c["hook_name"] == "plug") plugin = c["hook_type"] == "plugin";
  EXPECT_TRUE(plugin) << t["hook_calls"].dump();
}

// An event's system message comes before its failure warning (lane s31 on the real 0.61.0).
TEST(GeminiSessionPayload, SystemMessageBeforeTheFailureWarning) {
  Session s;
  s.settings({{"BeforeTool", hook("cat >/dev/null; echo 'bt text' >&2; exit 1")}});
  auto t = s.run({{"model_turns", write_turns()}});
  std::vector<std::string> err;
  for (const auto& l : t["stderr"]) err.push_back(l.get<std::string>());
  const std::string fail = "Hook(s) [cat >/dev/null; echo 'bt text' >&2; exit 1] failed for event "
                           "BeforeTool. Press F12 to see the debug drawer for more details.";
  EXPECT_EQ(err, (std::vector<std::string>{"Hook system message: Warning: bt text", fail,
                                           "[WARNING] " + fail}));
}

// AfterAgent block with clearContext: the continuation's request starts over from the session
// context (lane u28 on the real 0.61.0); without it the history keeps the answer and the prompt.
TEST(GeminiSessionPayload, ClearContextResetsTheContinuationHistory) {
  for (bool clear : {true, false}) {
    Session s;
    const std::string block =
        std::string(R"X(case "$(cat)" in *'"stop_hook_active":true'*) echo '{}' ;; *) echo '{"decision":"block","reason":"again")X") +
        (clear ? R"X(,"hookSpecificOutput":{"hookEventName":"AfterAgent","clearContext":true})X" : "") +
        "}' ;; esac";
    s.settings({{"AfterAgent", hook(block)}, {"BeforeModel", hook("cat >/dev/null")}});
    auto t = s.run({{"model_turns", ojson::parse(R"([{"text":"first"},{"text":"second"}])")},
                    {"prompt", "go"}});
    std::vector<ojson> reqs;
    for (const auto& c : t["hook_calls"])
      if (c["hook_event_name"] == "BeforeModel") reqs.push_back(c["hook_input"]["llm_request"]["messages"]);
    ASSERT_EQ(reqs.size(), 2u) << t["hook_calls"].dump();
    if (clear) {
      ASSERT_EQ(reqs[1].size(), 1u) << reqs[1].dump();
      const std::string c = reqs[1][0]["content"].get<std::string>();
      EXPECT_EQ(c.rfind("<session_context>", 0), 0u);
      EXPECT_EQ(c.substr(c.size() - 23), "</session_context>again");
    } else {
      ASSERT_EQ(reqs[1].size(), 3u) << reqs[1].dump();
      EXPECT_EQ(reqs[1][1], ojson::parse(R"({"role":"model","content":"first"})"));
      EXPECT_EQ(reqs[1][2], ojson::parse(R"({"role":"user","content":"again"})"));
    }
  }
}
