// FakeServer: every scripted behaviour is observable on the wire (status, body, headers, delay,
// raw bytes, close without reply, never answering until stop), requests are recorded in order, and
// the pinta-fake-server CLI serves a script file, writes its port file and logs requests.
#include "pinta/fakes/fake_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

#include "pinta/common/process.h"
#include "pinta/common/test_support.h"

namespace pinta::fakes {
namespace {

using namespace std::chrono_literals;

// Sends raw bytes to 127.0.0.1:port and reads until EOF or `limit`. Returns what was read;
// `eof` tells whether the peer closed.
std::string exchange(int port, const std::string& bytes, std::chrono::milliseconds limit,
                     bool* eof = nullptr) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string out;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return "<connect failed>";
  }
  (void)!::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  auto end = std::chrono::steady_clock::now() + limit;
  if (eof) *eof = false;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    end - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) break;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) break;
    char buf[4096];
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) {
      if (eof) *eof = true;
      break;
    }
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

std::string post(const std::string& path, const std::string& body,
                 const std::string& extra_headers = "") {
  return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
         extra_headers + "Content-Length: " + std::to_string(body.size()) +
         "\r\nConnection: close\r\n\r\n" + body;
}

TEST(FakeServer, ScriptedRepliesInOrderThenFallback) {
  Reply first;
  first.status = 201;
  first.body = R"({"decision":"ALLOW"})";
  first.headers = {{"Retry-After", "7"}};
  Reply fallback;
  fallback.status = 503;
  fallback.body = "later";
  fallback.content_type = "text/plain";
  FakeServer server({first}, fallback);
  ASSERT_GT(server.port(), 0);

  bool eof = false;
  std::string a = exchange(
      server.port(), post("/v1/check?x=1", "{\"a\":1}", "X-Pinta-Relay-Token: tok\r\n"), 5s, &eof);
  EXPECT_TRUE(eof);
  EXPECT_EQ(a.rfind("HTTP/1.1 201", 0), 0u) << a;
  EXPECT_NE(a.find("Retry-After: 7"), std::string::npos) << a;
  EXPECT_NE(a.find(R"({"decision":"ALLOW"})"), std::string::npos) << a;

  std::string b = exchange(server.port(), post("/other", ""), 5s);
  EXPECT_EQ(b.rfind("HTTP/1.1 503", 0), 0u) << b;
  EXPECT_NE(b.find("text/plain"), std::string::npos) << b;
  EXPECT_NE(b.find("later"), std::string::npos) << b;

  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].path, "/v1/check?x=1");
  EXPECT_EQ(reqs[0].body, "{\"a\":1}");
  EXPECT_EQ(reqs[0].header("x-pinta-relay-token"), "tok");
  EXPECT_EQ(reqs[0].header("X-PINTA-RELAY-TOKEN"), "tok");
  EXPECT_EQ(reqs[0].header("remote_addr"), "");
  EXPECT_EQ(reqs[1].path, "/other");
}

TEST(FakeServer, SetScriptResetsTheCounter) {
  Reply r500;
  r500.status = 500;
  FakeServer server({r500});
  EXPECT_EQ(exchange(server.port(), post("/", ""), 5s).rfind("HTTP/1.1 500", 0), 0u);
  Reply r204;
  r204.status = 204;
  server.set_script({r204}, Reply{});
  EXPECT_EQ(exchange(server.port(), post("/", ""), 5s).rfind("HTTP/1.1 204", 0), 0u);
  EXPECT_EQ(exchange(server.port(), post("/", ""), 5s).rfind("HTTP/1.1 200", 0), 0u);
  EXPECT_EQ(server.request_count(), 3u);
}

TEST(FakeServer, RawBytesAreTheWholeResponse) {
  Reply raw;
  raw.raw = "garbage\x01\x02 not http";
  FakeServer server({raw});
  bool eof = false;
  EXPECT_EQ(exchange(server.port(), post("/", "x"), 5s, &eof), raw.raw);
  EXPECT_TRUE(eof);
}

TEST(FakeServer, CloseWithoutReplySendsNothing) {
  Reply close;
  close.close_without_reply = true;
  FakeServer server({close});
  bool eof = false;
  EXPECT_EQ(exchange(server.port(), post("/", "x"), 5s, &eof), "");
  EXPECT_TRUE(eof);
  EXPECT_EQ(server.request_count(), 1u);
}

TEST(FakeServer, DelayHoldsTheReply) {
  Reply slow;
  slow.delay = 300ms;
  FakeServer server({slow});
  // Within 50 ms nothing has arrived; with a generous wait the reply does.
  EXPECT_EQ(exchange(server.port(), post("/", ""), 50ms), "");
  EXPECT_EQ(exchange(server.port(), post("/", ""), 5s).rfind("HTTP/1.1 200", 0), 0u);
}

TEST(FakeServer, NeverAnswerHoldsUntilStop) {
  Reply never;
  never.never_answer = true;
  FakeServer server({}, never);
  bool eof = true;
  EXPECT_EQ(exchange(server.port(), post("/", ""), 300ms, &eof), "");
  EXPECT_FALSE(eof);
  EXPECT_TRUE(server.wait_for_requests(1, 5s));

  // A held request is released by stop(): the client then sees the connection close.
  std::string got = "unset";
  bool eof2 = false;
  std::thread client([&] { got = exchange(server.port(), post("/", ""), 10s, &eof2); });
  ASSERT_TRUE(server.wait_for_requests(2, 5s));
  auto t0 = std::chrono::steady_clock::now();
  server.stop();
  client.join();
  EXPECT_EQ(got, "");
  EXPECT_TRUE(eof2);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
}

TEST(FakeServer, WaitForRequestsTimesOut) {
  FakeServer server;
  EXPECT_FALSE(server.wait_for_requests(1, 20ms));
}

TEST(FakeServer, ReplyFromJson) {
  Reply r;
  std::string error;
  ASSERT_TRUE(reply_from_json(
      nlohmann::json::parse(R"({"status":429,"body":{"a":[1]},"headers":{"Retry-After":"2"},
      "delayMs":5,"contentType":"text/x","neverAnswer":false,"closeWithoutReply":true,"raw":""})"),
      r, error))
      << error;
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(r.body, R"({"a":[1]})");
  EXPECT_EQ(r.delay, 5ms);
  EXPECT_EQ(r.content_type, "text/x");
  EXPECT_TRUE(r.close_without_reply);
  ASSERT_EQ(r.headers.size(), 1u);
  EXPECT_EQ(r.headers[0].second, "2");
  for (const char* bad :
       {R"([])", R"({"status":"200"})", R"({"status":42})", R"({"delayMs":-1})", R"({"body":3})",
        R"({"headers":{"a":1}})", R"({"bogus":1})", R"({"neverAnswer":1})"}) {
    EXPECT_FALSE(reply_from_json(nlohmann::json::parse(bad), r, error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
  std::vector<Reply> replies;
  Reply fb;
  ASSERT_TRUE(script_from_json(
      nlohmann::json::parse(R"({"replies":[{"status":500},{}],"fallback":{"status":204}})"),
      replies, fb, error));
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_EQ(replies[0].status, 500);
  EXPECT_EQ(replies[1].status, 200);
  EXPECT_EQ(fb.status, 204);
  EXPECT_FALSE(script_from_json(nlohmann::json::parse(R"({"replies":{}})"), replies, fb, error));
  EXPECT_FALSE(
      script_from_json(nlohmann::json::parse(R"({"replies":[{"status":1}]})"), replies, fb, error));
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(FakeServerCli, ServesScriptWritesPortFileAndLog) {
  pinta::testing::TempDir dir;
  {
    std::ofstream(dir.sub("script.json"))
        << R"({"replies":[{"status":418,"body":"teapot"}],"fallback":{"status":202}})";
  }
  std::string bin = pinta::testing::bin_dir() + "/pinta-fake-server";
  // posix_spawn rather than pinta::proc: the test needs the pid to send SIGTERM, as scripts do.
  std::vector<std::string> args = {
      bin,     "--script",          dir.sub("script.json"), "--port-file", dir.sub("port"),
      "--log", dir.sub("log.jsonl")};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, dir.sub("out").c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, dir.sub("err").c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = -1;
  ASSERT_EQ(posix_spawn(&pid, bin.c_str(), &fa, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&fa);

  std::string port_text;
  for (int i = 0; i < 1000 && port_text.empty(); ++i) {
    std::this_thread::sleep_for(10ms);
    port_text = slurp(dir.sub("port"));
  }
  if (port_text.empty()) ::kill(pid, SIGKILL);
  ASSERT_FALSE(port_text.empty()) << slurp(dir.sub("err"));
  int port = std::stoi(port_text);
  EXPECT_EQ(exchange(port, post("/a", "{\"k\":\"v\"}"), 5s).rfind("HTTP/1.1 418", 0), 0u);
  EXPECT_EQ(exchange(port, post("/b", ""), 5s).rfind("HTTP/1.1 202", 0), 0u);
  ::kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_EQ(slurp(dir.sub("out")), "port " + std::to_string(port) + "\n");
  EXPECT_EQ(slurp(dir.sub("err")), "");

  std::string log = slurp(dir.sub("log.jsonl"));
  std::istringstream lines(log);
  std::string l1, l2;
  std::getline(lines, l1);
  std::getline(lines, l2);
  auto j1 = nlohmann::json::parse(l1, nullptr, false);
  auto j2 = nlohmann::json::parse(l2, nullptr, false);
  ASSERT_TRUE(j1.is_object()) << log;
  ASSERT_TRUE(j2.is_object()) << log;
  EXPECT_EQ(j1["index"], 0);
  EXPECT_EQ(j1["method"], "POST");
  EXPECT_EQ(j1["path"], "/a");
  EXPECT_EQ(j1["body"], "{\"k\":\"v\"}");
  EXPECT_EQ(j1["headers"]["content-type"], "application/json");
  EXPECT_EQ(j2["index"], 1);
  EXPECT_EQ(j2["path"], "/b");
}

TEST(FakeServerCli, BadInputIsOneLineErrorAndNonZeroExit) {
  pinta::testing::TempDir dir;
  { std::ofstream(dir.sub("bad.json")) << R"({"replies":[{"status":"x"}]})"; }
  { std::ofstream(dir.sub("notjson.json")) << "{"; }
  std::string bin = pinta::testing::bin_dir() + "/pinta-fake-server";
  for (std::vector<std::string> argv : {std::vector<std::string>{bin},
                                        {bin, "--bogus"},
                                        {bin, "--script"},
                                        {bin, "--script", dir.sub("missing.json")},
                                        {bin, "--script", dir.sub("bad.json")},
                                        {bin, "--script", dir.sub("notjson.json")}}) {
    proc::SpawnRequest req;
    req.argv = argv;
    req.stdin_mode = proc::StdinMode::kNone;
    req.timeout = 10s;
    auto r = proc::make_spawner()->run(req);
    EXPECT_NE(r.exit_code.value_or(0), 0) << argv.size();
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("pinta-fake-server: ", 0), 0u) << r.err;
  }
}

}  // namespace
}  // namespace pinta::fakes
