// `hostemu lint` and `hostemu explain` as processes: exit codes (0 clean or warnings, 1 errors,
// 2 usage / unreadable / undetectable), the three formats, and explain's order checked against
// what each emulator actually runs (hooks append to a log file in run order).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "pinta/common/fs.h"
#include "pinta/common/process.h"
#include "pinta/common/test_support.h"
#include "temp_home.h"

namespace {

using json = nlohmann::json;

struct Ran {
  int code = -1;
  std::string out, err;
};

class LintCli : public pinta::hostlint::testing::TempHomeTest {
 protected:
  void SetUp() override {
    TempHomeTest::SetUp();
    if (HasFatalFailure()) return;
    log_ = tmp_.sub("run.log");
  }
  static void write(const std::string& path, const std::string& text) { write_file(path, text); }
  Ran hostemu(std::vector<std::string> args, const std::string& stdin_data = "") {
    args.insert(args.begin(), pinta::testing::bin_dir() + "/hostemu");
    pinta::proc::SpawnRequest rq;
    rq.argv = std::move(args);
    rq.stdin_data = stdin_data;
    rq.env = std::map<std::string, std::string>{
        {"HOME", home_}, {"PATH", "/usr/bin:/bin"}, {"GEMINI_CLI_TRUST_WORKSPACE", "true"},
        // Claude Code's managed policy folder, kept inside the temp dir.
        {"PINTA_CLAUDE_MANAGED_DIR", tmp_.sub("managed")}};
    rq.timeout = std::chrono::milliseconds(30000);
    auto r = pinta::proc::make_spawner()->run(rq);
    EXPECT_TRUE(r.started) << r.spawn_error;
    return {r.exit_code.value_or(-1), r.out, r.err};
  }
  // A hook command that records `tag` in the run log.
  std::string rec(const std::string& tag) { return "echo " + tag + " >> " + log_; }
  std::vector<std::string> log_lines() {
    std::vector<std::string> v;
    std::ifstream in(log_);
    for (std::string l; std::getline(in, l);) v.push_back(l);
    return v;
  }
  static std::vector<std::string> tags_of(const json& section) {
    std::vector<std::string> v;
    for (const auto& h : section["hooks"]) {
      std::string c = h["command"];
      v.push_back(c.substr(5, c.find(' ', 5) - 5));
    }
    return v;
  }

  std::string log_;
};

TEST_F(LintCli, ExitCodesAndOneLineErrors) {
  const std::string clean = home_ + "/.gemini/config/hooks.json";
  write(clean, R"({"h": {"Stop": [{"command": "echo hi", "timeout": 5}]}})");
  auto ok = hostemu({"lint", clean});
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
  EXPECT_EQ(ok.out, "");
  EXPECT_EQ(ok.err, "");

  const std::string warn = ws_ + "/.agents/hooks.json";
  write(warn, R"({"h": {"Stop": [{"command": "echo hi", "timeout": 5000}]}})");
  auto w = hostemu({"lint", warn});
  EXPECT_EQ(w.code, 0) << w.out;
  EXPECT_NE(w.out.find(warn + ":1:51: warning: timeout-unit: "), std::string::npos) << w.out;
  EXPECT_NE(w.out.find("\n  fix: "), std::string::npos) << w.out;

  const std::string err = home_ + "/.gemini/settings.json";
  write(err,
        "{\n  \"hooks\": {\"BeforeTool\": [\n    {\"type\": \"command\", \"command\": \"echo "
        "hi\"}]}\n}\n");
  auto e = hostemu({"lint", err, warn});
  EXPECT_EQ(e.code, 1) << e.out;
  EXPECT_NE(e.out.find(err + ":3:5: error: event-shape: "), std::string::npos) << e.out;
  EXPECT_NE(e.out.find(warn + ":"), std::string::npos) << "every path is reported";

  for (const auto& bad : std::vector<std::vector<std::string>>{{"lint", tmp_.sub("missing.json")},
                                                               {"lint", "--host", "claud", clean},
                                                               {"lint", "--format", "xml", clean},
                                                               {"lint"},
                                                               {"lint", tmp_.path()}}) {
    auto b = hostemu(bad);
    EXPECT_EQ(b.code, 2) << bad.back() << ": " << b.out;
    EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << b.err;
    EXPECT_EQ(b.out, "");
  }
  // A file no host can be told from: one line asking for --host; with --host it is linted.
  const std::string odd = tmp_.sub("claude.json");
  write(
      odd,
      R"({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi"}]}]}})");
  auto u = hostemu({"lint", odd});
  EXPECT_EQ(u.code, 2);
  EXPECT_NE(u.err.find("cannot tell which host"), std::string::npos) << u.err;
  auto d = hostemu({"lint", "--host", "deel", odd});
  EXPECT_EQ(d.code, 0) << d.out << d.err;
}

TEST_F(LintCli, JsonAndGithubFormats) {
  const std::string f = home_ + "/.gemini/config/hooks.json";
  write(f,
        "{\"h\": {\n\"PreToolUse\": [{\"matcher\": \"\", \"hooks\": [{\"command\": \"echo "
        "'{}'\"}]}]}}");
  auto j = hostemu({"lint", "--format", "json", f});
  EXPECT_EQ(j.code, 1);
  auto doc = json::parse(j.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << j.out;
  ASSERT_GE(doc["findings"].size(), 1u);
  EXPECT_EQ(doc["errors"], 1);
  EXPECT_EQ(doc["findings"][0]["rule"], "empty-object-deny");
  EXPECT_EQ(doc["findings"][0]["line"], 2);
  EXPECT_EQ(doc["findings"][0]["severity"], "error");

  auto g = hostemu({"lint", "--format", "github", f});
  EXPECT_EQ(g.code, 1);
  EXPECT_EQ(g.out.rfind("::error file=" + f + ",line=2,col=", 0), 0u) << g.out;
  EXPECT_NE(g.out.find(",title=empty-object-deny::"), std::string::npos) << g.out;
  EXPECT_EQ(std::count(g.out.begin(), g.out.end(), '\n'), 1) << "one line per finding";
}

TEST_F(LintCli, OldAntigravityLintStillWorks) {
  const std::string f = home_ + "/.gemini/config/hooks.json";
  write(f, R"({"h": {"Stop": [{"command": "echo hi"}]}})");
  auto r = hostemu({"antigravity", "lint", f});
  EXPECT_EQ(r.code, 0) << r.err;
  auto doc = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded());
  EXPECT_EQ(doc["file"], f);
  EXPECT_FALSE(doc["profiles"].empty());
  // With --format it is `hostemu lint --host antigravity`.
  write(f, R"({"h": {"Stop": [{"command": "echo hi", "timeout": "5"}]}})");
  auto t = hostemu({"antigravity", "lint", "--format", "text", f});
  EXPECT_EQ(t.code, 1) << t.out << t.err;
  EXPECT_NE(t.out.find(f + ":1:51: error: file-rejected: "), std::string::npos) << t.out;
  EXPECT_EQ(t.out, hostemu({"lint", "--host", "antigravity", f}).out);
}

TEST_F(LintCli, ExplainAntigravityMatchesFireOrder) {
  write(
      home_ + "/.gemini/config/hooks.json",
      "{\"b-user\": {\"PreToolUse\": [{\"matcher\": \"run_command\", \"hooks\": [{\"command\": \"" +
          rec("u1") + "\", \"timeout\": 7}, {\"command\": \"" + rec("u2") +
          "\"}]}, {\"matcher\": \"view_file\", \"hooks\": [{\"command\": \"" + rec("nope") +
          "\"}]}]},\n \"a-user\": {\"PreToolUse\": [{\"matcher\": \"*\", \"hooks\": [{\"command\": "
          "\"" +
          rec("u0") + "\"}]}]}}");
  write(ws_ + "/.agents/hooks.json",
        "{\"p\": {\"PreToolUse\": [{\"matcher\": \"\", \"hooks\": [{\"command\": \"" + rec("p1") +
            "\"}]}]}}");
  auto ex = hostemu({"explain", "--host", "antigravity", "--profile", "agy-1.2", "--home", home_,
                     "--workspace", ws_, "--event", "PreToolUse", "--tool", "run_command",
                     "--format", "json"});
  ASSERT_EQ(ex.code, 0) << ex.err;
  auto doc = json::parse(ex.out);
  ASSERT_EQ(doc.size(), 1u);
  auto tags = tags_of(doc[0]);
  EXPECT_EQ(tags, (std::vector<std::string>{"u0", "u1", "u2", "p1"})) << ex.out;
  EXPECT_EQ(doc[0]["hooks"][1]["timeout"], "7 s");
  EXPECT_EQ(doc[0]["hooks"][1]["layer"], "user");
  EXPECT_EQ(doc[0]["hooks"][1]["line"], 1);
  EXPECT_EQ(doc[0]["hooks"][3]["layer"], "project");
  EXPECT_EQ(doc[0]["hooks"][1]["matcher"], "run_command");
  EXPECT_NE(doc[0]["hooks"][0]["onFailure"].get<std::string>().find("non-zero exit"),
            std::string::npos);

  auto fire = hostemu({"antigravity", "fire", "--profile", "agy-1.2", "--home", home_,
                       "--workspace", ws_, "--event", "PreToolUse", "--tool", "run_command"});
  ASSERT_EQ(fire.code, 0) << fire.err;
  EXPECT_EQ(log_lines(), tags) << fire.out;
}

TEST_F(LintCli, ExplainGeminiMatchesSessionOrder) {
  write(home_ + "/.gemini/settings.json",
        "{\n  \"hooks\": {\"BeforeTool\": [{\"sequential\": true, \"matcher\": \"write_file\", "
        "\"hooks\": [{\"type\": \"command\", \"command\": \"" +
            rec("u1") + "\", \"timeout\": 5000}]}]}\n}");
  write(ws_ + "/.gemini/settings.json",
        "{\"hooks\": {\"BeforeTool\": [{\"sequential\": true, \"hooks\": [{\"type\": \"command\", "
        "\"command\": \"" +
            rec("p1") +
            "\"}]}, {\"matcher\": \"read_file\", \"hooks\": [{\"type\": \"command\", "
            "\"command\": \"" +
            rec("nope") + "\"}]}]}}");
  auto ex = hostemu({"explain", "--host", "gemini", "--home", home_, "--workspace", ws_, "--event",
                     "BeforeTool", "--tool", "write_file", "--format", "json"});
  ASSERT_EQ(ex.code, 0) << ex.err;
  auto doc = json::parse(ex.out);
  auto tags = tags_of(doc[0]);
  EXPECT_EQ(tags, (std::vector<std::string>{"u1", "p1"})) << ex.out;
  EXPECT_EQ(doc[0]["hooks"][0]["timeout"], "5000 ms");
  EXPECT_EQ(doc[0]["hooks"][0]["layer"], "user");
  EXPECT_EQ(doc[0]["hooks"][0]["line"], 2);
  EXPECT_EQ(doc[0]["hooks"][1]["layer"], "project");

  const std::string script = tmp_.sub("script.json");
  write(script, R"({"prompt": "p", "events": [{"event": "BeforeTool", "tool_name": "write_file",
                   "tool_input": {"file_path": "x.txt", "content": "c"}}]})");
  auto s = hostemu({"gemini", "session", "--home", home_, "--workspace", ws_, "--script", script});
  ASSERT_EQ(s.code, 0) << s.err << s.out;
  EXPECT_EQ(log_lines(), tags) << s.out;
}

TEST_F(LintCli, ExplainDeelMatchesRunOrder) {
  write(home_ + "/.deel/hooks.json",
        "[{\"event\": \"PreToolUse\", \"matcher\": \"Bash\", \"command\": \"" + rec("u1") +
            "\", \"timeout\": 3}, {\"event\": \"PreToolUse\", \"matcher\": \"Edit\", \"command\": "
            "\"" +
            rec("nope") + "\"}]");
  write(ws_ + "/.deel/hooks.json", "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"command\": \"" +
                                       rec("p1") + "\", \"onError\": \"pass\"}]}]}}");
  auto ex = hostemu({"explain", "--host", "deel", "--home", home_, "--workspace", ws_, "--event",
                     "PreToolUse", "--tool", "Bash", "--deel-trusted", "yes", "--format", "json"});
  ASSERT_EQ(ex.code, 0) << ex.err;
  auto doc = json::parse(ex.out);
  auto tags = tags_of(doc[0]);
  EXPECT_EQ(tags, (std::vector<std::string>{"u1", "p1"})) << ex.out;
  EXPECT_EQ(doc[0]["hooks"][0]["timeout"], "3 s");
  EXPECT_NE(doc[0]["hooks"][0]["onFailure"].get<std::string>().find("fail-closed"),
            std::string::npos);
  EXPECT_NE(doc[0]["hooks"][1]["onFailure"].get<std::string>().find("pass"), std::string::npos);
  // Untrusted (the default): the project file is not read, and explain says so.
  auto un = hostemu({"explain", "--host", "deel", "--home", home_, "--workspace", ws_, "--event",
                     "PreToolUse", "--tool", "Bash", "--format", "json"});
  auto udoc = json::parse(un.out);
  EXPECT_EQ(tags_of(udoc[0]), (std::vector<std::string>{"u1"}));
  EXPECT_FALSE(udoc[0]["notes"].empty());

  auto r = hostemu({"deel", "run", "--home", home_, "--workspace", ws_, "--event", "PreToolUse",
                    "--tool", "Bash", "--trusted"},
                   "{}");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_EQ(log_lines(), tags) << r.out;
}

TEST_F(LintCli, ExplainBadUsage) {
  for (const auto& bad : std::vector<std::vector<std::string>>{
           {"explain", "--host", "gemini", "--home", home_, "--event", "PreToolUse"},
           {"explain", "--host", "antigravity", "--home", home_, "--event", "Stop", "--tool", "x"},
           {"explain", "--host", "deel", "--home", tmp_.sub("nope"), "--event", "Stop"},
           {"explain", "--host", "gemini", "--event", "BeforeTool"}}) {
    auto b = hostemu(bad);
    EXPECT_EQ(b.code, 2) << b.out;
    EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << b.err;
  }
}

// Profiles that agree print once, under all their names; hooks a profile loads but never runs
// are listed with why (before: six identical blocks, and a bad-matcher hook simply absent).
TEST_F(LintCli, ExplainCollapsesIdenticalProfilesAndShowsDroppedHooks) {
  write(home_ + "/.gemini/config/hooks.json",
        "{\"ok\": {\"Stop\": [{\"command\": \"" + rec("s1") + "\"}]},\n"
        " \"off\": {\"enabled\": false, \"Stop\": [{\"command\": \"" + rec("s2") + "\"}]}}");
  auto ex = hostemu({"explain", "--host", "antigravity", "--home", home_, "--event", "Stop"});
  ASSERT_EQ(ex.code, 0) << ex.err;
  auto json_ex = hostemu(
      {"explain", "--host", "antigravity", "--home", home_, "--event", "Stop", "--format", "json"});
  auto doc = json::parse(json_ex.out);
  ASSERT_GT(doc.size(), 1u);
  // Fewer headers than profiles; every profile is named once.
  size_t headers = 0;
  for (size_t p = 0; (p = ex.out.find("antigravity ", p)) != std::string::npos; ++p)
    if (p == 0 || ex.out[p - 1] == '\n') ++headers;
  EXPECT_LT(headers, doc.size()) << ex.out;
  for (const auto& s : doc) {
    std::string name = s["host"].get<std::string>().substr(std::string("antigravity ").size());
    EXPECT_NE(ex.out.find(name), std::string::npos) << name;
    bool off_listed = false;
    for (const auto& d : s["dropped"]) off_listed |= d.get<std::string>().find("'off'") != std::string::npos;
    EXPECT_TRUE(off_listed) << s.dump();
  }
  EXPECT_NE(ex.out.find("  dropped: " + home_ + "/.gemini/config/hooks.json:2:"), std::string::npos)
      << ex.out;
}

TEST_F(LintCli, LintTextIsUncolouredOnAPipeAndColouredWhenAsked) {
  write(home_ + "/.gemini/config/hooks.json", "{\"h\": {\"Stop\": [{\"command\": \"/no/x\"}]}}");
  auto plain = hostemu({"lint", home_ + "/.gemini/config/hooks.json"});
  EXPECT_EQ(plain.out.find('\033'), std::string::npos) << plain.out;
  EXPECT_NE(plain.out.find("command-not-found"), std::string::npos) << plain.out;
  auto col = hostemu({"lint", "--color", "always", home_ + "/.gemini/config/hooks.json"});
  EXPECT_NE(col.out.find('\033'), std::string::npos) << col.out;
  auto bad = hostemu({"lint", "--color", "sometimes", home_ + "/.gemini/config/hooks.json"});
  EXPECT_EQ(bad.code, 2);
}

}  // namespace

// Claude Code: lint finds its settings files by path (exit 1 on an error, one line per usage
// error), and explain lists exactly the hooks `hostemu claude run` starts for the same event and
// tool (they start at once, so the run log is compared as a set).
TEST_F(LintCli, ClaudeLintExitCodesAndFormats) {
  const std::string user = home_ + "/.claude/settings.json";
  write(user, R"({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}})");
  auto ok = hostemu({"lint", user});
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
  EXPECT_EQ(ok.out, "");
  const std::string project = ws_ + "/.claude/settings.json";
  write(project, "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"(Bash\", \"hooks\": [\n"
                 "  {\"type\": \"command\", \"command\": \"echo hi\", \"timeout\": 5000}]}]}}");
  auto bad = hostemu({"lint", "--format", "json", project});
  EXPECT_EQ(bad.code, 1) << bad.out << bad.err;
  auto doc = json::parse(bad.out);
  std::set<std::string> rules;
  for (const auto& f : doc["findings"]) rules.insert(f["rule"].get<std::string>());
  EXPECT_EQ(rules, (std::set<std::string>{"matcher-invalid", "timeout-unit"})) << bad.out;
  EXPECT_EQ(doc["errors"], 1);
  // --host takes the registry's names and labels; anything else is one line, exit 2.
  auto label = hostemu({"lint", "--host", "claude", user});
  EXPECT_EQ(label.code, 0) << label.err;
  auto nope = hostemu({"lint", "--host", "claude-cod", user});
  EXPECT_EQ(nope.code, 2);
  EXPECT_EQ(std::count(nope.err.begin(), nope.err.end(), '\n'), 1) << nope.err;
  EXPECT_NE(nope.err.find("claude-code"), std::string::npos) << nope.err;
  auto ev = hostemu({"explain", "--host", "claude-code", "--home", home_, "--event", "Stp"});
  EXPECT_EQ(ev.code, 2);
  EXPECT_EQ(std::count(ev.err.begin(), ev.err.end(), '\n'), 1) << ev.err;
}

TEST_F(LintCli, ExplainClaudeMatchesRun) {
  write(home_ + "/.claude/settings.json",
        "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": "
        "\"command\", \"command\": \"" + rec("u1") + "\", \"timeout\": 7}]},\n"
        "  {\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"" +
            rec("nope") + "\"}]}]}}");
  write(ws_ + "/.claude/settings.json",
        "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Ba.*\", \"hooks\": [{\"type\": "
        "\"command\", \"command\": \"" + rec("p1") + "\"}, {\"type\": \"command\", "
        "\"command\": \"" + rec("u1") + "\"}]}]}}");
  write(ws_ + "/.claude/settings.local.json",
        "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"" +
            rec("l1") + "\"}]}]}}");
  auto ex = hostemu({"explain", "--host", "claude-code", "--home", home_, "--workspace", ws_,
                     "--event", "PreToolUse", "--tool", "Bash", "--format", "json"});
  ASSERT_EQ(ex.code, 0) << ex.err;
  auto doc = json::parse(ex.out);
  auto tags = tags_of(doc[0]);
  EXPECT_EQ(tags, (std::vector<std::string>{"u1", "p1", "l1"})) << ex.out;
  EXPECT_EQ(doc[0]["hooks"][0]["timeout"], "7 s");
  EXPECT_EQ(doc[0]["hooks"][0]["layer"], "user");
  EXPECT_EQ(doc[0]["hooks"][2]["layer"], "local");
  EXPECT_EQ(doc[0]["dropped"].size(), 2u) << ex.out;  // the Edit matcher, the second u1

  auto r = hostemu({"claude", "run", "--home", home_, "--project", ws_, "--event", "PreToolUse",
                    "--tool", "Bash"},
                   R"({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}})");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  auto ran = log_lines();
  std::sort(ran.begin(), ran.end());
  std::sort(tags.begin(), tags.end());
  EXPECT_EQ(ran, tags) << r.out;
}
