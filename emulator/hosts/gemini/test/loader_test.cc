// Unit tests: loading (§1–2), planning (§3) and aggregation (§5) of the Gemini CLI 0.61.0 emulator.
// Each expectation names the experiment or source line of gemini-cli-0.61-hooks.md it encodes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "pinta/common/test_support.h"
#include "pinta/emulator/gemini/gemini.h"

namespace g = pinta::emu::gemini;
using g::ojson;

namespace {
void write(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}
struct Env {
  pinta::testing::TempDir td;
  std::string home = td.sub("home"), ws = td.sub("ws");
  Env() {
    std::filesystem::create_directories(home + "/.gemini");
    std::filesystem::create_directories(ws);
  }
  g::LoadResult load(std::optional<bool> trusted = true,
                     std::map<std::string, std::string> env = {}) {
    g::LoadOptions o;
    o.home = home;
    o.workspace = ws;
    o.trusted = trusted;
    o.cli_env = env;
    o.system_settings_path = td.sub("none/settings.json");
    return g::load_hooks(o);
  }
};
std::vector<std::string> commands(const g::Plan& p) {
  std::vector<std::string> v;
  for (auto& h : p.hooks) v.push_back(h.spec.command);
  return v;
}
}  // namespace

TEST(Loader, OrderUserWorkspaceExtensionAndDedup) {  // exp a04, g02
  Env e;
  write(
      e.home + "/.gemini/settings.json",
      R"({"hooks":{"BeforeTool":[{"hooks":[{"type":"command","command":"same","name":"same"},{"type":"command","command":"u"}]}]}})");
  write(
      e.ws + "/.gemini/settings.json",
      R"({"hooks":{"BeforeTool":[{"hooks":[{"type":"command","command":"same","name":"same"},{"type":"command","command":"same","name":"renamed"},{"type":"command","command":"w"}]}]}})");
  write(e.home + "/.gemini/extensions/extA/gemini-extension.json",
        R"({"name":"extA","version":"1"})");
  write(
      e.home + "/.gemini/extensions/extA/hooks/hooks.json",
      R"({"hooks":{"BeforeTool":[{"hooks":[{"type":"command","command":"${extensionPath}${/}h.sh ${nope}"}]}]}})");
  auto l = e.load();
  auto p = g::plan_event(l, "BeforeTool", {.tool_name = "write_file"});
  EXPECT_EQ(commands(p),
            (std::vector<std::string>{"same", "u", "same", "w",
                                      e.home + "/.gemini/extensions/extA/h.sh ${nope}"}));
  EXPECT_EQ(p.hooks[2].spec.name, "renamed");
  EXPECT_EQ(p.hooks.back().source, "extensions");
  EXPECT_EQ(p.hooks.front().source, "project");
}

TEST(Loader, UntrustedKeepsOnlyExtensionsAndHeadlessExits55) {  // exp g01, a10a
  Env e;
  write(e.home + "/.gemini/settings.json",
        R"({"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"user"}]}]}})");
  write(e.home + "/.gemini/extensions/x/gemini-extension.json", R"({"name":"x","version":"1"})");
  write(e.home + "/.gemini/extensions/x/hooks/hooks.json",
        R"({"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"ext"}]}]}})");
  g::LoadOptions o;
  o.home = e.home;
  o.workspace = e.ws;
  o.cli_env = std::map<std::string, std::string>{};
  o.system_settings_path = e.td.sub("none.json");
  o.headless = false;
  auto l = g::load_hooks(o);  // folder trust on by default, no trustedFolders.json → untrusted
  EXPECT_FALSE(l.trusted);
  EXPECT_EQ(commands(g::plan_event(l, "SessionStart", {})), (std::vector<std::string>{"ext"}));
  o.headless = true;
  EXPECT_EQ(g::load_hooks(o).fatal_exit.value_or(0), 55);
  write(e.home + "/.gemini/trustedFolders.json", "{\"" + e.ws + "\":\"TRUST_FOLDER\"}");
  auto t = g::load_hooks(o);
  EXPECT_FALSE(t.fatal_exit.has_value());
  EXPECT_EQ(commands(g::plan_event(t, "SessionStart", {})),
            (std::vector<std::string>{"user", "ext"}));
}

TEST(Loader, SyntaxErrorExits52AndEnvExpansion) {  // exp a07, x13b
  Env e;
  write(e.home + "/.gemini/settings.json", R"({ "hooks": { )");
  EXPECT_EQ(e.load().fatal_exit.value_or(0), 52);
  write(
      e.home + "/.gemini/settings.json",
      R"({/*c*/"hooks":{"BeforeTool":{"hooks":[{"type":"command","command":"echo '$X ${NOPE:-dflt} $NOPE_Y'"}]}}})");
  auto l = e.load(true, {{"X", "ex"}});
  EXPECT_EQ(commands(g::plan_event(l, "BeforeTool", {})),
            (std::vector<std::string>{"echo 'ex dflt $NOPE_Y'"}));
}

TEST(Loader, DisabledAndHooksConfigEnabled) {  // exp a05, a11, f09
  Env e;
  write(
      e.home + "/.gemini/settings.json",
      R"({"hooksConfig":{"disabled":["h1","plain cmd"]},"hooks":{"BeforeTool":[{"hooks":[{"type":"command","command":"a","name":"h1"},{"type":"command","command":"plain cmd"},{"type":"command","command":"kept"}]}]}})");
  EXPECT_EQ(commands(g::plan_event(e.load(), "BeforeTool", {})),
            (std::vector<std::string>{"kept"}));
  write(
      e.home + "/.gemini/settings.json",
      R"({"hooksConfig":{"enabled":false},"hooks":{"BeforeTool":[{"hooks":[{"type":"command","command":"a"}]}]}})");
  EXPECT_TRUE(g::plan_event(e.load(), "BeforeTool", {}).hooks.empty());
}

TEST(Planner, MatcherSemantics) {  // exp x12a-f, e01, e02, g11
  g::PlanContext wf{.tool_name = "write_file"};
  EXPECT_TRUE(g::matcher_matches("BeforeTool", "write", wf));
  EXPECT_FALSE(g::matcher_matches("BeforeTool", "^write$", wf));
  EXPECT_FALSE(g::matcher_matches("BeforeTool", "write_file(", wf));
  EXPECT_TRUE(g::matcher_matches("BeforeTool", "read_file|write_file", wf));
  EXPECT_TRUE(g::matcher_matches("BeforeTool", " * ", wf));
  EXPECT_FALSE(g::matcher_matches("BeforeTool", "WRITE_FILE", wf));
  EXPECT_TRUE(g::matcher_matches("SessionStart", "startup", {.trigger = "startup"}));
  EXPECT_FALSE(g::matcher_matches("SessionStart", "start", {.trigger = "startup"}));
  EXPECT_TRUE(g::matcher_matches("BeforeAgent", "zzz-nomatch", {}));
  Env e;
  write(
      e.home + "/.gemini/settings.json",
      R"({"hooks":{"BeforeTool":[{"hooks":[{"type":"command","command":"good"}]},{"matcher":5,"hooks":[{"type":"command","command":"x"}]}]}})");
  auto p = g::plan_event(e.load(), "BeforeTool", wf);
  EXPECT_TRUE(p.hooks.empty());
  EXPECT_TRUE(p.error.has_value());
}

TEST(Planner, SequentialChaining) {  // exp a03, f05
  auto in = ojson::parse(R"({"tool_input":{"file_path":"t","content":"x"},"prompt":"p"})");
  auto out = ojson::parse(
      R"({"hookSpecificOutput":{"tool_input":{"content":"FROM1"},"additionalContext":"CTX1"}})");
  EXPECT_EQ(g::js_stringify(g::apply_output_to_input(in, out, "BeforeTool")["tool_input"]),
            R"({"file_path":"t","content":"FROM1"})");
  EXPECT_EQ(g::apply_output_to_input(in, out, "BeforeAgent")["prompt"], "p\n\nCTX1");
}

TEST(Aggregate, OrMergeJoinsAndBlockWins) {  // exp a01, f01, f03, x07b
  std::vector<ojson> outs = {
      ojson::parse(
          R"({"decision":"deny","reason":"r1","systemMessage":"s1","hookSpecificOutput":{"additionalContext":"c<1>"}})"),
      ojson::parse(
          R"({"decision":"allow","reason":"r2","systemMessage":"s2","hookSpecificOutput":{"additionalContext":"c2"}})"),
      ojson::parse(R"({"decision":"ask","reason":"r3"})")};
  auto m = *g::aggregate("BeforeTool", outs);
  EXPECT_EQ(m["decision"], "deny");
  EXPECT_EQ(m["reason"], "r1\nr2\nr3");
  EXPECT_EQ(m["systemMessage"], "s1\ns2");
  EXPECT_EQ(*g::additional_context(m), "c&lt;1&gt;\nc2");
  auto s =
      *g::aggregate("BeforeTool", {ojson::parse(R"({"continue":false,"stopReason":"stopA"})"),
                                   ojson::parse(R"({"continue":false,"stopReason":"stopB"})")});
  EXPECT_EQ(g::effective_reason(s), "stopA\nstopB");
  EXPECT_FALSE(s.contains("decision"));
  EXPECT_EQ(g::effective_reason(ojson::parse(R"({"decision":"deny"})")), "No reason provided");
  EXPECT_FALSE(g::aggregate("BeforeTool", {}).has_value());
  auto ts = *g::aggregate(
      "BeforeToolSelection",
      {ojson::parse(
          R"({"hookSpecificOutput":{"toolConfig":{"mode":"ANY","allowedFunctionNames":["b","a"]}}})")});
  EXPECT_EQ(g::js_stringify(ts["hookSpecificOutput"]["toolConfig"]),
            R"({"mode":"ANY","allowedFunctionNames":["a","b"]})");
}

TEST(Payload, KeyOrderPerEvent) {  // §7, exp e01_payload
  g::PayloadOptions po;
  po.session_id = "s";
  po.cwd = "/w";
  po.timestamp = "T";
  po.tool_input = ojson::parse(R"({"file_path":"a","content":"b"})");
  EXPECT_EQ(
      g::js_stringify(g::make_payload("BeforeTool", po)),
      R"({"session_id":"s","transcript_path":"","cwd":"/w","hook_event_name":"BeforeTool","timestamp":"T","tool_name":"write_file","tool_input":{"file_path":"a","content":"b"}})");
  po.prompt = "p";
  po.prompt_response = "r";
  EXPECT_EQ(
      g::js_stringify(g::make_payload("AfterAgent", po)),
      R"({"session_id":"s","transcript_path":"","cwd":"/w","hook_event_name":"AfterAgent","timestamp":"T","prompt":"p","prompt_response":"r","stop_hook_active":false})");
  EXPECT_EQ(g::make_payload("SessionEnd", po)["reason"], "exit");
}
