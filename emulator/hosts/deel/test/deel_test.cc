// Unit tests of the deel-local-cli 1.17.1 emulator (the loader, matchers and coercions are tested
// with hosts/deel, hosts_deel_test): the runner with a fake spawner (paths the differential test
// cannot reach: a shell that cannot start), the report's JSON escaping, and the hostemu CLI
// contract.
#include "pinta/emulator/deel/deel.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "pinta/common/process.h"

namespace deel = pinta::emu::deel;
using deel::ojson;
namespace fs = std::filesystem;

namespace {

class FakeSpawner : public pinta::proc::Spawner {
 public:
  pinta::proc::SpawnResult next;
  std::vector<pinta::proc::SpawnRequest> seen;
  pinta::proc::SpawnResult run(const pinta::proc::SpawnRequest& rq) override {
    seen.push_back(rq);
    return next;
  }
};

deel::Hook hook(const std::string& event, const std::string& cmd, bool pass = false) {
  deel::Hook h;
  h.event = event;
  h.command = cmd;
  h.source = "이 PC";
  h.pass_on_failure = pass;
  return h;
}

TEST(DeelRun, ShellThatCannotStartBlocksUnlessPass) {
  FakeSpawner sp;
  sp.next.started = false;
  std::vector<deel::Hook> hooks = {hook("도구전", "x")};
  auto o = deel::run_event(hooks, "도구전", std::string("Bash"), ojson::object(), sp, std::nullopt);
  ASSERT_EQ(o.results.size(), 1u);
  EXPECT_TRUE(o.results[0].blocked);
  EXPECT_FALSE(o.results[0].code);
  EXPECT_EQ(*o.results[0].why, "훅을 못 돌렸습니다 — spawn bash ENOENT");
  EXPECT_EQ(sp.seen[0].argv, (std::vector<std::string>{"bash", "-c", "x", "bash"}));
  EXPECT_EQ(sp.seen[0].timeout, std::chrono::milliseconds(15000));
  EXPECT_EQ(sp.seen[0].timeout_signal, SIGKILL);
  EXPECT_TRUE(sp.seen[0].signal_group);
  hooks = {hook("도구전", "x", true), hook("말전", "y")};
  o = deel::run_event(hooks, "도구전", std::string("Bash"), ojson::object(), sp, std::nullopt);
  EXPECT_FALSE(o.results[0].blocked);
  o = deel::run_event(hooks, "턴끝", std::nullopt, ojson::object(), sp, std::nullopt);
  EXPECT_TRUE(o.results.empty());
}

// Node's spawn reports a cwd it cannot enter either as the 'error' event ("spawn bash ENOENT") or
// by throwing ("spawn ENOTDIR", no program name): node v20.20 (pinta/hosts/node/node_spawn.h).
TEST(DeelRun, SpawnFailureTextIsNodes) {
  FakeSpawner sp;
  sp.next.started = false;
  std::vector<deel::Hook> hooks = {hook("도구전", "x")};
  sp.next.spawn_errno = ENOTDIR;
  auto o = deel::run_event(hooks, "도구전", std::string("Bash"), ojson::object(), sp, std::nullopt);
  EXPECT_EQ(*o.results[0].why, "훅을 못 돌렸습니다 — spawn ENOTDIR");
  sp.next.spawn_errno = ENAMETOOLONG;
  o = deel::run_event(hooks, "도구전", std::string("Bash"), ojson::object(), sp, std::nullopt);
  EXPECT_EQ(*o.results[0].why, "훅을 못 돌렸습니다 — spawn ENAMETOOLONG");
  sp.next.spawn_errno = EACCES;
  o = deel::run_event(hooks, "도구전", std::string("Bash"), ojson::object(), sp, std::nullopt);
  EXPECT_EQ(*o.results[0].why, "훅을 못 돌렸습니다 — spawn bash EACCES");
}

// The timer runs until both pipes close (a background child holding stdout times the hook out),
// and the hook's environment keeps the host's order (process.env as spawn passes it on).
TEST(DeelRun, TimeoutCoversThePipesAndEnvKeepsItsOrder) {
  FakeSpawner sp;
  sp.next.started = true;
  sp.next.exit_code = 0;
  std::vector<deel::Hook> hooks = {hook("턴끝", "x")};
  deel::EnvPairs env = {{"ZED", "1"}, {"HOME", "/h"}, {"7", "index"}, {"ABC", "2"}, {"ZED", "3"}};
  auto o = deel::run_event(hooks, "턴끝", std::nullopt, ojson::object(), sp, env);
  ASSERT_EQ(sp.seen.size(), 1u);
  EXPECT_TRUE(sp.seen[0].timeout_until_close);
  ASSERT_TRUE(sp.seen[0].env_list);
  EXPECT_EQ(*sp.seen[0].env_list,
            (deel::EnvPairs{{"ZED", "1"}, {"HOME", "/h"}, {"ABC", "2"}}));
  EXPECT_FALSE(o.results[0].blocked);
}

TEST(DeelRun, TimeoutIsBrokenWithTheHostsText) {
  FakeSpawner sp;
  sp.next.started = true;
  sp.next.timed_out = true;
  sp.next.term_signal = SIGKILL;
  auto h = hook("말전", "sleep 9");
  h.timeout_ms = 300;
  std::vector<deel::Hook> hooks = {h};
  auto o = deel::run_event(hooks, "말전", std::nullopt, ojson::object(), sp, std::nullopt);
  EXPECT_TRUE(o.results[0].blocked);
  EXPECT_EQ(*o.results[0].why, "훅을 못 돌렸습니다 — timed out after 300 ms");
  EXPECT_EQ(deel::block_message(o.results[0]),
            "말전 훅이 막았습니다 (이 PC: sleep 9).\n"
            "  훅을 못 돌렸습니다 — timed out after 300 ms — 문지기가 쓰러져 있으면 통과시키지 "
            "않습니다.\n\n같은 것을 다시 부르지 마세요. 다른 길을 찾거나, 왜 필요한지 사용자에게 "
            "말하세요.");
}

TEST(DeelRun, StdinKeyOrderIsJavaScripts) {
  EXPECT_EQ(deel::stdin_line("도구전", std::string("Bash"),
                             ojson::parse(R"({"b":1,"7":2,"자리":"x","도구":null})")),
            "{\"7\":2,\"자리\":\"x\",\"도구\":null,\"b\":1}\n");
  EXPECT_EQ(deel::stdin_line("턴끝", std::nullopt, ojson(nullptr)),
            "{\"자리\":\"턴끝\",\"도구\":null}\n");
}

TEST(DeelRun, MessageCutInsideASurrogatePairIsEscapedLikeJsonStringify) {
  FakeSpawner sp;
  sp.next.started = true;
  sp.next.exit_code = 0;
  sp.next.out = std::string(16383, 'a') + "\xF0\x9F\x98\x80";
  std::vector<deel::Hook> hooks = {hook("턴끝", "x")};
  auto o = deel::run_event(hooks, "턴끝", std::nullopt, ojson::object(), sp, std::nullopt);
  ASSERT_TRUE(o.results[0].truncated);
  deel::Loaded l;
  l.hooks = hooks;
  std::string rep = deel::report_json(l, &o);
  EXPECT_NE(rep.find("aaa\\ud83d\\n…(훅이 뱉은 글이"), std::string::npos) << rep.substr(0, 200);
}

std::string hostemu() { return std::string(std::getenv("PINTA_BIN_DIR")) + "/hostemu"; }

TEST(DeelCli, BadArgumentsOneStderrLineExit2) {
  auto sp = pinta::proc::make_spawner();
  const std::string tmp = fs::temp_directory_path().string();
  for (std::vector<std::string> args :
       {std::vector<std::string>{"deel", "run", "--home", tmp, "--workspace", tmp, "--event",
                                 "SessionStart"},
        {"deel", "run", "--home", tmp, "--workspace", "/nonexistent-deel-ws", "--event", "Stop"},
        {"deel", "run", "--home", tmp, "--workspace", tmp, "--event", "Stop", "--env", "NOEQ"},
        {"deel", "run", "--workspace", tmp, "--event", "Stop"}}) {
    pinta::proc::SpawnRequest rq;
    rq.argv = args;
    rq.argv.insert(rq.argv.begin(), hostemu());
    auto r = sp->run(rq);
    EXPECT_EQ(r.exit_code, 2) << args[7 < args.size() ? 7 : 0];
    EXPECT_TRUE(r.out.empty());
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  pinta::proc::SpawnRequest rq;
  rq.argv = {hostemu(), "deel", "run", "--home", tmp, "--workspace", tmp, "--event", "Stop"};
  rq.stdin_data = "{not json";
  auto r = sp->run(rq);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(DeelCli, EnvReachesOnlyTheLoader) {
  char tmpl[] = "/tmp/deel-cli-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  fs::path root = tmpl;
  fs::create_directories(root / "h");
  fs::create_directories(root / "w");
  fs::create_directories(root / "alt");
  std::ofstream(root / "alt/hooks.json") << R"([{"때":"턴끝","명령":"echo \"[$DEEL_HOME]\""}])";
  auto sp = pinta::proc::make_spawner();
  pinta::proc::SpawnRequest rq;
  rq.argv = {hostemu(),
             "deel",
             "run",
             "--home",
             (root / "h").string(),
             "--workspace",
             (root / "w").string(),
             "--event",
             "Stop",
             "--env",
             "DEEL_HOME=../alt"};
  auto r = sp->run(rq);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["results"].size(), 1u) << r.out;
  EXPECT_EQ(j["results"][0]["message"], "[]");
  EXPECT_EQ(j["loaded"][0]["source"], "이 PC");
  fs::remove_all(root);
}

}  // namespace
