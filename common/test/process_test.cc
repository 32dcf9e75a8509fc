#include "pinta/common/process.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <future>
#include <thread>
#include <sstream>

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

// cancel: a flag set while the child runs ends the run within a poll (the group killed, pipes
// abandoned, the child reaped); set before the spawn, the child is ended at once; never set,
// it changes nothing.
TEST(Spawner, CancelEndsTheRunAndItsGroup) {
  std::atomic<bool> cancel{false};
  SpawnRequest req;
  req.argv = {"sh", "-c", "(sleep 30) & echo started; sleep 30"};
  req.stdin_mode = StdinMode::kKeepOpen;
  req.timeout = milliseconds(20000);
  req.hard_limit = milliseconds(25000);
  req.cancel = &cancel;
  std::thread setter([&] {
    std::this_thread::sleep_for(milliseconds(300));
    cancel = true;
  });
  const auto t0 = std::chrono::steady_clock::now();
  auto r = make_spawner()->run(req);
  setter.join();
  EXPECT_TRUE(r.cancelled);
  EXPECT_FALSE(r.timed_out);
  EXPECT_FALSE(r.hard_limited);
  EXPECT_EQ(r.out, "started\n");
  ASSERT_TRUE(r.term_signal.has_value());
  EXPECT_EQ(*r.term_signal, SIGKILL);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));

  auto again = make_spawner()->run(req);  // the flag is already set
  EXPECT_TRUE(again.cancelled);
  EXPECT_TRUE(again.term_signal.has_value());

  std::atomic<bool> never{false};
  SpawnRequest ok;
  ok.argv = {"sh", "-c", "echo hi"};
  ok.cancel = &never;
  auto o = make_spawner()->run(ok);
  EXPECT_FALSE(o.cancelled);
  EXPECT_EQ(o.out, "hi\n");
  EXPECT_EQ(o.exit_code, 0);
}

// A cancel flag that is never set must not keep a finished run alive: its 10 ms poll may expire
// in the same loop turn as the child's end (it then re-armed itself for ever). Runs that end
// near a poll boundary, many times; each must return.
TEST(Spawner, CancelPollEndsWithTheRun) {
  std::atomic<bool> never{false};
  for (int i = 0; i < 300; ++i) {
    SpawnRequest req;
    req.argv = {"sh", "-c", i % 2 ? "sleep 0.01" : "exit 0"};
    req.stdin_mode = StdinMode::kNone;
    req.cancel = &never;
    auto f = std::async(std::launch::async, [req] { return make_spawner()->run(req); });
    if (f.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
      ADD_FAILURE() << "run " << i << " did not return after its child ended";
      std::_Exit(1);  // the stuck thread cannot be joined
    }
    EXPECT_EQ(f.get().exit_code, 0);
  }
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

// argv0: the program is still the one argv[0] resolves to in PATH, but it sees the given name
// (Node's spawn("bash", …) gives bash argv[0] "bash", not /usr/bin/bash); by default the path.
TEST(Spawner, Argv0IsTheGivenNameOrThePath) {
  SpawnRequest req;
  req.argv = {"bash", "-c", "printf '%s|' \"$0\" \"$SHLVL\"; tr '\\0' ' ' </proc/$$/cmdline", "x"};
  req.env = std::map<std::string, std::string>{{"PATH", "/usr/bin:/bin"}};
  req.argv0 = "bash";
  auto r = make_spawner()->run(req);
  ASSERT_TRUE(r.started) << r.spawn_error;
  // $0 is the operand after the script; the process's own argv[0] is "bash"; one shell level.
  EXPECT_EQ(r.out, "x|1|bash -c printf '%s|' \"$0\" \"$SHLVL\"; tr '\\0' ' ' </proc/$$/cmdline x ");
  req.argv0.clear();
  r = make_spawner()->run(req);
  EXPECT_EQ(r.out.substr(0, 4), "x|1|");
  EXPECT_EQ(r.out.substr(4, r.out.find(' ') - 4), find_in_path("bash")) << r.out;
}

// The child gets only fds 0-2, whatever the caller has open (a pipe end of a concurrent spawn, a
// fake server's socket), and the default SIGPIPE disposition although the caller ignores it.
TEST(Spawner, ChildSeesOnlyItsStdioAndDefaultSigpipe) {
  int extra[2];
  ASSERT_EQ(::pipe(extra), 0);  // not close-on-exec
  SpawnRequest req;
  req.argv = {"sh", "-c",
              "ls /proc/self/fd | sort -n | tr '\\n' ' '; grep SigIgn /proc/self/status"};
  req.hard_limit = milliseconds(10000);
  auto r = make_spawner()->run(req);
  ::close(extra[0]);
  ::close(extra[1]);
  ASSERT_TRUE(r.started) << r.spawn_error;
  // `ls` itself has 0-2 and the directory it reads (3).
  EXPECT_EQ(r.out.substr(0, r.out.find('S')), "0 1 2 3 ") << r.out;
  // SigIgn is a hex mask; SIGPIPE (13) is bit 12 = 0x1000.
  auto at = r.out.find("SigIgn:");
  ASSERT_NE(at, std::string::npos) << r.out;
  unsigned long long mask = std::stoull(r.out.substr(at + 7), nullptr, 16);
  EXPECT_EQ(mask & (1ull << (SIGPIPE - 1)), 0u) << r.out;
  // Nor are signals 32 and 33 (glibc's internal ones) ignored, as after a fork + exec.
  EXPECT_EQ(mask & (3ull << 31), 0u) << r.out;
}

// Whatever the caller ignores or blocks (a host started from a script's background job ignores INT
// and QUIT, nohup ignores HUP), the child starts as the host's runtime starts it: under Node every
// signal below 34 at its default, under Go HUP and INT still ignored; none blocked either way
// (checked with Node 20 and Go 1.19 from a parent with SigIgn 0x4207 and USR2, ALRM blocked).
TEST(Spawner, ChildStartsWithSignalsAsTheRuntimeStartsIt) {
  struct sigaction ign;
  std::memset(&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  struct sigaction old[5];
  const int ignored[5] = {SIGINT, SIGQUIT, SIGHUP, SIGTERM, SIGUSR1};
  for (int i = 0; i < 5; ++i) ASSERT_EQ(::sigaction(ignored[i], &ign, &old[i]), 0);
  sigset_t block, was;
  sigemptyset(&block);
  sigaddset(&block, SIGUSR2);
  sigaddset(&block, SIGALRM);
  ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, &block, &was), 0);
  SpawnRequest req;
  req.argv = {"grep", "-E", "^Sig(Ign|Blk):", "/proc/self/status"};
  req.hard_limit = milliseconds(10000);
  auto node = make_spawner()->run(req);
  req.child_signals = SpawnRequest::ChildSignals::kGo;
  auto go = make_spawner()->run(req);
  ::pthread_sigmask(SIG_SETMASK, &was, nullptr);
  for (int i = 0; i < 5; ++i) ::sigaction(ignored[i], &old[i], nullptr);
  auto field = [](const SpawnResult& r, const char* name) {
    auto at = r.out.find(name);
    EXPECT_NE(at, std::string::npos) << r.out;
    return at == std::string::npos ? ~0ull
                                   : std::stoull(r.out.substr(at + std::strlen(name)), nullptr, 16);
  };
  constexpr unsigned long long kBelow34 = (1ull << 33) - 1;
  ASSERT_TRUE(node.started) << node.spawn_error;
  EXPECT_EQ(field(node, "SigIgn:") & kBelow34, 0u) << node.out;
  EXPECT_EQ(field(node, "SigBlk:"), 0u) << node.out;
  ASSERT_TRUE(go.started) << go.spawn_error;
  EXPECT_EQ(field(go, "SigIgn:") & kBelow34, (1ull << (SIGHUP - 1)) | (1ull << (SIGINT - 1)))
      << go.out;
  EXPECT_EQ(field(go, "SigBlk:"), 0u) << go.out;
}

// A child in its own process group (the default) leads it; without it, it stays in ours.
TEST(Spawner, NewProcessGroupIsOptional) {
  SpawnRequest req;
  req.argv = {"sh", "-c", "ps -o pgid= -p $$ | tr -d ' '; echo $$"};
  auto r = make_spawner()->run(req);
  ASSERT_TRUE(r.started) << r.spawn_error;
  std::istringstream in(r.out);
  std::string pgid, pid;
  in >> pgid >> pid;
  EXPECT_EQ(pgid, pid) << r.out;
  req.new_process_group = false;
  r = make_spawner()->run(req);
  std::istringstream in2(r.out);
  in2 >> pgid >> pid;
  EXPECT_EQ(pgid, std::to_string(::getpgrp())) << r.out;
}

// A detached child (new_session, Node's `detached: true`) leads a new session and its group, and
// a timeout with signal_group still reaches the whole group: the grandchild holding the pipes dies.
TEST(Spawner, NewSessionLeadsSessionAndGroup) {
  SpawnRequest req;
  req.argv = {"sh", "-c", "ps -o sid=,pgid= -p $$ | tr -s ' ' | sed 's/^ //'; echo $$"};
  req.new_session = true;
  auto r = make_spawner()->run(req);
  ASSERT_TRUE(r.started) << r.spawn_error;
  std::istringstream in(r.out);
  std::string sid, pgid, pid;
  in >> sid >> pgid >> pid;
  EXPECT_EQ(sid, pid) << r.out;
  EXPECT_EQ(pgid, pid) << r.out;
  EXPECT_NE(sid, std::to_string(::getsid(0))) << r.out;

  SpawnRequest hang;
  hang.argv = {"sh", "-c", "sleep 30 & sleep 30"};
  hang.new_session = true;
  hang.signal_group = true;
  hang.timeout = milliseconds(200);
  hang.timeout_signal = SIGKILL;
  hang.hard_limit = milliseconds(20000);
  auto h = make_spawner()->run(hang);
  EXPECT_TRUE(h.timed_out);
  EXPECT_FALSE(h.hard_limited);
  EXPECT_LT(h.closed_after, std::chrono::microseconds(10000000));
}

TEST(Spawner, CwdIsTheRequestedDirectory) {
  SpawnRequest req;
  req.argv = {"pwd"};
  req.cwd = "/";
  auto r = make_spawner()->run(req);
  EXPECT_EQ(r.out, "/\n");
  req.cwd = "/nonexistent-dir-for-spawn-test";
  r = make_spawner()->run(req);
  EXPECT_FALSE(r.started);
  EXPECT_FALSE(r.spawn_error.empty());
}

}  // namespace
}  // namespace pinta::proc
