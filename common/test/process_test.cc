#include "pinta/common/process.h"

#include <gtest/gtest.h>

namespace pinta::proc {
namespace {

using std::chrono::milliseconds;

SpawnResult sh(const std::string& script, const std::string& in = "",
               StdinMode mode = StdinMode::kCloseAfterWrite,
               milliseconds timeout = milliseconds(0)) {
  SpawnRequest r;
  r.argv = {"sh", "-c", script};
  r.stdin_data = in;
  r.stdin_mode = mode;
  r.timeout = timeout;
  r.hard_limit = milliseconds(10000);
  return make_spawner()->run(r);
}

TEST(Spawner, CapturesStdoutStderrAndExitCode) {
  auto r = sh("cat; echo err >&2; exit 3", "hello");
  ASSERT_TRUE(r.started) << r.spawn_error;
  EXPECT_EQ(r.out, "hello");
  EXPECT_EQ(r.err, "err\n");
  ASSERT_TRUE(r.exit_code.has_value());
  EXPECT_EQ(*r.exit_code, 3);
  EXPECT_FALSE(r.term_signal.has_value());
  EXPECT_FALSE(r.timed_out);
}

TEST(Spawner, ReportsSignalDeath) {
  auto r = sh("kill -SEGV $$");
  ASSERT_TRUE(r.term_signal.has_value());
  EXPECT_EQ(*r.term_signal, SIGSEGV);
  EXPECT_FALSE(r.exit_code.has_value());
}

TEST(Spawner, TimeoutSendsSignal) {
  auto r = sh("exec sleep 5", "", StdinMode::kCloseAfterWrite, milliseconds(100));
  EXPECT_TRUE(r.timed_out);
  ASSERT_TRUE(r.term_signal.has_value());
  EXPECT_LT(r.exited_after, std::chrono::seconds(4));
}

TEST(Spawner, KeepOpenStdinIsNotClosedUntilExit) {
  // `head -c 3` returns after 3 bytes even though stdin stays open; `cat` would hang.
  auto r = sh("head -c 3", "abcdef", StdinMode::kKeepOpen, milliseconds(3000));
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.out, "abc");
  auto hang = sh("cat >/dev/null; echo eof", "x", StdinMode::kKeepOpen, milliseconds(200));
  EXPECT_TRUE(hang.timed_out);
  EXPECT_EQ(hang.out, "");
}

TEST(Spawner, DripDeliversEveryByte) {
  SpawnRequest req;
  req.argv = {"cat"};
  req.stdin_data = "0123456789";
  req.stdin_mode = StdinMode::kDrip;
  req.drip_interval = milliseconds(2);
  req.drip_chunk = 3;
  auto r = make_spawner()->run(req);
  EXPECT_EQ(r.out, "0123456789");
  EXPECT_EQ(r.stdin_bytes_written, 10u);
}

TEST(Spawner, SeesGrandchildHoldingPipes) {
  auto r = sh("(sleep 0.3; echo late) & echo early");
  EXPECT_TRUE(r.pipes_outlived_child);
  EXPECT_EQ(r.out, "early\nlate\n");
  EXPECT_GE(r.closed_after, milliseconds(250));
  EXPECT_LT(r.exited_after, milliseconds(250));
}

TEST(Spawner, SocketStdioLikeNode) {
  // Node's child_process stdio are socketpairs: /dev/std* cannot be opened (ENXIO), the pipes still
  // carry stdin and output and close like pipes.
  SpawnRequest r;
  r.argv = {"bash", "-c", "cat; echo x > /dev/stderr; test -S /dev/stdout && echo sock"};
  r.stdin_data = "in";
  r.socket_stdio = true;
  r.hard_limit = milliseconds(10000);
  auto s = make_spawner()->run(r);
  ASSERT_TRUE(s.started) << s.spawn_error;
  EXPECT_EQ(s.out, "insock\n");
  EXPECT_NE(s.err.find("No such device or address"), std::string::npos) << s.err;
  r.socket_stdio = false;
  s = make_spawner()->run(r);
  EXPECT_EQ(s.err, "x\n");
}

TEST(Spawner, RecordsReadChunks) {
  auto r = sh("printf ab; sleep 0.2; printf cde");
  ASSERT_EQ(r.out, "abcde");
  EXPECT_EQ(r.out_chunks, (std::vector<size_t>{2, 3}));
  EXPECT_TRUE(r.err_chunks.empty());
}

// pipe_grace: once the child has exited, pipes a grandchild still holds are abandoned after the
// grace (the grandchild is killed with the group) instead of waited for.
TEST(Spawner, PipeGraceAbandonsHeldPipesAfterExit) {
  SpawnRequest req;
  req.argv = {"sh", "-c", "(sleep 5; echo late) & echo early"};
  req.stdin_mode = StdinMode::kNone;
  req.pipe_grace = milliseconds(200);
  auto r = make_spawner()->run(req);
  EXPECT_EQ(r.out, "early\n");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.pipes_outlived_child);
  EXPECT_FALSE(r.hard_limited);
  EXPECT_GE(r.closed_after - r.exited_after, milliseconds(150));
  EXPECT_LT(r.closed_after, milliseconds(3000));
}

TEST(Spawner, MissingProgramIsASpawnError) {
  SpawnRequest req;
  req.argv = {"/nonexistent/program"};
  auto r = make_spawner()->run(req);
  // Either the spawn itself fails or the child reports exec failure (127), never a success.
  EXPECT_TRUE(!r.started || r.exit_code.value_or(0) != 0) << r.spawn_error;
  EXPECT_FALSE(r.started && r.exit_code.value_or(-1) == 0);
}

TEST(Spawner, ExplicitEnvironmentReplacesInherited) {
  SpawnRequest req;
  req.argv = {"/bin/sh", "-c", "echo \"$ONLY:$HOME\""};
  req.env = std::map<std::string, std::string>{{"ONLY", "yes"}, {"PATH", "/usr/bin:/bin"}};
  auto r = make_spawner()->run(req);
  EXPECT_EQ(r.out, "yes:\n");
}

}  // namespace
}  // namespace pinta::proc
