// Scripted Gemini API server: the streamGenerateContent?alt=sse contract of seed 003 as a caller
// sees it (frames, parts, finishReason, usage only when scripted, auth, error envelope, prefix).
#include "pinta/emulator/model_server.h"
#include "pinta/emulator/messages_server.h"
#include "pinta/emulator/responses_server.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>
#include <fstream>
#include <nlohmann/json.hpp>

#include "pinta/common/process.h"
#include "pinta/common/test_support.h"

using namespace pinta::emu;
using nlohmann::json;

namespace {

const char* kBody = R"({"contents":[{"role":"user","parts":[{"text":"hi"}]}]})";
const char* kPath = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse";

std::unique_ptr<ModelServer> start(const json& script) {
  auto s = parse_model_script(script);
  EXPECT_TRUE(s) << s.error().message;
  auto srv = ModelServer::start(*s);
  EXPECT_TRUE(srv) << srv.error().message;
  return std::move(*srv);
}

std::vector<json> frames(const std::string& body) {
  std::vector<json> out;
  size_t pos = 0;
  while ((pos = body.find("data: ", pos)) != std::string::npos) {
    size_t end = body.find("\r\n\r\n", pos);
    out.push_back(json::parse(body.substr(pos + 6, end - pos - 6)));
    pos = end;
  }
  return out;
}

httplib::Result post(ModelServer& s, const std::string& path, httplib::Headers h,
                     const std::string& body = kBody) {
  httplib::Client c("127.0.0.1", s.port());
  return c.Post(path, h, body, "application/json");
}

}  // namespace

TEST(ModelServer, StreamsScriptedTurnsAsSseFrames) {
  auto s =
      start({{"apiKey", "k"},
             {"turns",
              {{{"parts",
                 {{{"thought", "plan"}},
                  {{"functionCall", {{"name", "write_file"}, {"args", {{"file_path", "a"}}}}}}}}},
               {{"parts", {{{"text", "done"}}}},
                {"finishReason", "MAX_TOKENS"},
                {"usageMetadata", {{"promptTokenCount", 3}}}}}}});
  auto r = post(*s, kPath, {{"x-goog-api-key", "k"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/event-stream");
  auto f = frames(r->body);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0]["candidates"][0]["content"]["parts"][0]["thought"], true);
  EXPECT_FALSE(f[0]["candidates"][0].contains("finishReason"));
  EXPECT_EQ(f[1]["candidates"][0]["content"]["parts"][0]["functionCall"]["name"], "write_file");
  EXPECT_EQ(f[1]["candidates"][0]["finishReason"], "STOP");
  EXPECT_FALSE(f[1].contains("usageMetadata"));  // not scripted: never invented
  r = post(*s, kPath, {{"x-goog-api-key", "k"}, {"Authorization", "Bearer k"}});
  ASSERT_TRUE(r);
  f = frames(r->body);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]["candidates"][0]["content"]["parts"][0]["text"], "done");
  EXPECT_EQ(f[0]["candidates"][0]["finishReason"], "MAX_TOKENS");
  EXPECT_EQ(f[0]["usageMetadata"]["promptTokenCount"], 3);
  r = post(*s, kPath, {{"x-goog-api-key", "k"}});  // beyond the script
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 502);
  EXPECT_EQ(json::parse(r->body)["error"]["status"], "UNAVAILABLE");
  auto reqs = s->requests();
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_EQ(reqs[0].model, "gemini-2.5-flash");
  EXPECT_EQ(reqs[0].body["contents"][0]["parts"][0]["text"], "hi");
  EXPECT_EQ(reqs[1].turn, 1);
}

TEST(ModelServer, AuthFailuresAnswer401EnvelopeAndConsumeNoTurn) {
  auto s = start({{"apiKey", "k"}, {"turns", {{{"parts", {{{"text", "x"}}}}}}}});
  for (const httplib::Headers& h :
       {httplib::Headers{}, httplib::Headers{{"x-goog-api-key", "wrong"}},
        httplib::Headers{{"x-goog-api-key", "k"}, {"Authorization", "Bearer other"}},
        httplib::Headers{{"x-goog-api-key", "k"}, {"Authorization", "Basic k"}}}) {
    auto r = post(*s, kPath, h);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 401);
    json e = json::parse(r->body);
    EXPECT_EQ(e["error"]["code"], 401);
    EXPECT_EQ(e["error"]["status"], "UNAUTHENTICATED");
    EXPECT_TRUE(e["error"]["message"].is_string());
  }
  auto r = post(*s, kPath, {{"x-goog-api-key", "k"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
}

TEST(ModelServer, InvalidRequestsAnswer400) {
  auto s = start({{"turns", {{{"parts", {{{"text", "x"}}}}}}}});
  httplib::Headers k{{"x-goog-api-key", "any"}};
  for (auto [path, body] : std::vector<std::pair<std::string, std::string>>{
           {kPath, "not json"},
           {kPath, "{}"},
           {"/v1beta/models/m:generateContent", kBody},
           {"/v1beta/models/m:streamGenerateContent", kBody},
           {"/v1beta/models/%20m:streamGenerateContent?alt=sse", kBody}}) {
    auto r = post(*s, path, k, body);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << path << " " << body;
    EXPECT_EQ(json::parse(r->body)["error"]["status"], "INVALID_ARGUMENT");
  }
  // A model label with an inner (encoded) space is accepted (seed 003).
  auto r = post(*s, "/v1beta/models/Gemini%203.6%20Flash:streamGenerateContent?alt=sse", k);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(s->requests().back().model, "Gemini 3.6 Flash");
}

TEST(ModelServer, RoutePrefixRequiredWhenScripted) {
  auto s = start({{"routeId", "r1"}, {"turns", {{{"parts", {{{"text", "x"}}}}}}}});
  httplib::Headers k{{"x-goog-api-key", "any"}};
  auto r = post(*s, kPath, k);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  r = post(*s, std::string("/gemini/r1") + kPath, k);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(s->requests().back().route_id, "r1");
  EXPECT_NE(s->base_url().find("/gemini/r1"), std::string::npos);
}

TEST(ModelServer, ScriptedErrorTurnsAndScriptValidation) {
  auto s = start({{"turns", {{{"error", {{"code", 502}}}}}}});
  auto r = post(*s, kPath, {{"x-goog-api-key", "a"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 502);
  EXPECT_EQ(json::parse(r->body)["error"]["code"], 502);
  EXPECT_FALSE(parse_model_script(json{{"turns", {{{"error", {{"code", 500}}}}}}}));
  EXPECT_FALSE(parse_model_script(json{{"turns", {{{"parts", {{{"image", 1}}}}}}}}));
  EXPECT_FALSE(parse_model_script(json::array()));
}

TEST(ModelServerCli, PrintsPortServesAndLogs) {
  if (!std::filesystem::exists(pinta::testing::bin_dir() + "/hostemu"))
    GTEST_SKIP() << "hostemu not built";
  pinta::testing::TempDir t;
  std::string script = t.sub("turns.json"), log = t.sub("log.jsonl");
  { std::ofstream(script) << R"({"apiKey":"k","turns":[{"parts":[{"text":"hello"}]}]})"; }
  auto sp = pinta::proc::make_spawner();
  // The CLI runs until a signal; the shell script reads its port, calls it once, then stops it.
  std::string sh = "set -e; " + pinta::testing::bin_dir() + "/hostemu model-server --script " +
                   script + " --log " + log + " > " + t.sub("out") +
                   " & pid=$!; for i in $(seq 100); do [ -s " + t.sub("out") +
                   " ] && break; sleep 0.05; done; port=$(cut -d' ' -f2 " + t.sub("out") +
                   "); curl -s -H 'x-goog-api-key: k' -d '" + kBody +
                   "' \"http://127.0.0.1:$port/v1beta/models/m:streamGenerateContent?alt=sse\"; "
                   "kill $pid; wait $pid";
  pinta::proc::SpawnRequest req;
  req.argv = {"sh", "-c", sh};
  req.timeout = std::chrono::milliseconds(20000);
  auto r = sp->run(req);
  ASSERT_TRUE(r.exit_code.has_value()) << r.spawn_error;
  EXPECT_EQ(*r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("data: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hello"), std::string::npos);
  std::ifstream in(log);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  json rec = json::parse(line);
  EXPECT_EQ(rec["status"], 200);
  EXPECT_EQ(rec["apiKeyPresent"], true);
  EXPECT_EQ(line.find("\"k\""), std::string::npos);  // the key itself is never recorded
}

// A '?' inside the query is legal (RFC 3986 §3.4); cpp-httplib 0.11 answers such a request only
// when the connection's keep-alive wait ends. ModelServer bounds that wait at 1 s (the library's
// default is 5 s), so a caller is never held much longer (libFuzzer finding, fuzz/
// model_server_request/regressions/query-with-second-question-mark*). Not a speed target: the
// bound checked is the 5 s default being gone.
TEST(ModelServer, QueryWithASecondQuestionMarkIsAnsweredWithoutTheDefaultKeepAliveWait) {
  auto s = start({{"turns", {{{"parts", {{{"text", "x"}}}}}}}});
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(s->port()));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  const std::string req =
      "POST /v1beta/models/m:streamGenerateContent?alt?alt=sse HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "Connection: close\r\nx-goog-api-key: any\r\nContent-Length: 0\r\n\r\n";
  ASSERT_EQ(::send(fd, req.data(), req.size(), MSG_NOSIGNAL), static_cast<ssize_t>(req.size()));
  const auto t0 = std::chrono::steady_clock::now();
  std::string reply;
  char buf[4096];
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 10000) <= 0) break;
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    reply.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  const auto waited = std::chrono::steady_clock::now() - t0;
  EXPECT_EQ(reply.rfind("HTTP/1.1 400", 0), 0u) << reply;
  EXPECT_LT(waited, std::chrono::milliseconds(4500));
}

// The Messages dialect (messages_server.h) over the same loopback server: a turn per accepted
// request, SSE when asked to stream, the Anthropic error envelope for a missing key, another path
// or an exhausted script, each request recorded (and logged) in order; stop() ends wait().
TEST(MessagesServer, AnswersTurnsInOrderAndRecordsEveryRequest) {
  pinta::testing::TempDir dir;
  const std::string log = dir.path() + "/requests.jsonl";
  auto script = parse_messages_script(json::parse(R"({"turns":[
      {"content":[{"type":"text","text":"first"}]},
      {"content":[{"type":"tool_use","name":"Bash","input":{"command":"ls"}}]}]})"));
  ASSERT_TRUE(script) << script.error().message;
  auto srv = MessagesServer::start(*script, 0, log);
  ASSERT_TRUE(srv) << srv.error().message;
  MessagesServer& s = **srv;
  httplib::Client c("127.0.0.1", s.port());
  const std::string body = R"({"model":"claude-test","stream":false,"messages":[{"role":"user","content":"hi"}]})";
  httplib::Headers key = {{"x-api-key", "k"}};

  auto r1 = c.Post("/v1/messages", key, body, "application/json");
  ASSERT_TRUE(r1);
  EXPECT_EQ(r1->status, 200);
  json m1 = json::parse(r1->body);
  EXPECT_EQ(m1["content"][0]["text"], "first");
  EXPECT_EQ(m1["stop_reason"], "end_turn");
  EXPECT_EQ(m1["model"], "claude-test");

  auto streamed = json::parse(body);
  streamed["stream"] = true;
  auto r2 = c.Post("/v1/messages", key, streamed.dump(), "application/json");
  ASSERT_TRUE(r2);
  EXPECT_EQ(r2->status, 200);
  EXPECT_NE(r2->body.find("event: message_start"), std::string::npos) << r2->body;
  EXPECT_NE(r2->body.find("\"tool_use\""), std::string::npos) << r2->body;

  auto no_key = c.Post("/v1/messages", body, "application/json");
  ASSERT_TRUE(no_key);
  EXPECT_EQ(no_key->status, 401);
  EXPECT_EQ(json::parse(no_key->body)["type"], "error");
  auto other = c.Get("/v1/models");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->status, 404);
  auto exhausted = c.Post("/v1/messages", key, body, "application/json");
  ASSERT_TRUE(exhausted);
  EXPECT_EQ(exhausted->status, 500);

  auto reqs = s.requests();
  ASSERT_EQ(reqs.size(), 5u);
  EXPECT_EQ(reqs[0].turn, 0);
  EXPECT_EQ(reqs[1].turn, 1);
  EXPECT_EQ(reqs[2].status, 401);
  EXPECT_EQ(reqs[3].status, 404);
  EXPECT_EQ(reqs[4].error, "script exhausted");
  std::ifstream in(log);
  size_t lines = 0;
  for (std::string l; std::getline(in, l);) {
    EXPECT_EQ(json::parse(l)["status"], reqs[lines].status);
    ++lines;
  }
  EXPECT_EQ(lines, 5u);

  std::thread stopper([&s] { s.stop(); });
  s.wait();  // returns once stop() ran
  stopper.join();
  EXPECT_FALSE(httplib::Client("127.0.0.1", s.port()).Get("/v1/models"));
}

namespace {

// The SSE events of a Responses stream as parsed JSON, in order (`event:` line and `data:` agree).
std::vector<json> responses_events(const std::string& body) {
  std::vector<json> out;
  size_t pos = 0;
  while ((pos = body.find("event: ", pos)) != std::string::npos) {
    size_t nl = body.find('\n', pos);
    std::string name = body.substr(pos + 7, nl - pos - 7);
    size_t data = body.find("data: ", nl);
    size_t end = body.find("\n\n", data);
    json e = json::parse(body.substr(data + 6, end - data - 6));
    EXPECT_EQ(e["type"], name);
    out.push_back(e);
    pos = end;
  }
  return out;
}

}  // namespace

// The Responses dialect (responses_server.h) over the same loopback base: a streamed turn is
// response.created, one output_item.added/done pair per item (a text delta for messages) and
// response.completed carrying the output and usage; function_call arguments go out as a JSON
// text; the next request's function_call_output items are logged as toolOutputs; a missing
// bearer, another path, a scripted error and the end of the script answer the OpenAI error shape.
TEST(ResponsesServer, StreamsTurnsAndLogsTheToolOutputsTheModelRead) {
  pinta::testing::TempDir dir;
  const std::string log = dir.path() + "/requests.jsonl";
  auto script = parse_responses_script(json::parse(R"({"turns":[
      {"content":[{"type":"text","text":"running"},
                  {"type":"function_call","name":"exec_command","arguments":{"cmd":"ls"},"id":"c1"},
                  {"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch"}]},
      {"error":{"code":429,"message":"slow down"}},
      {"content":[{"type":"text","text":"done"}]}]})"));
  ASSERT_TRUE(script) << script.error().message;
  auto srv = ResponsesServer::start(*script, 0, log);
  ASSERT_TRUE(srv) << srv.error().message;
  ResponsesServer& s = **srv;
  EXPECT_EQ(s.base_url(), "http://127.0.0.1:" + std::to_string(s.port()) + "/v1");
  httplib::Client c("127.0.0.1", s.port());
  httplib::Headers bearer = {{"Authorization", "Bearer sk-test"}};
  json body = {{"model", "gpt-test"}, {"stream", true},
               {"input", {{{"type", "message"}, {"role", "user"},
                           {"content", {{{"type", "input_text"}, {"text", "hi"}}}}}}}};

  auto r1 = c.Post("/v1/responses", bearer, body.dump(), "application/json");
  ASSERT_TRUE(r1);
  EXPECT_EQ(r1->status, 200);
  EXPECT_EQ(r1->get_header_value("Content-Type"), "text/event-stream");
  auto ev = responses_events(r1->body);
  ASSERT_EQ(ev.size(), 9u) << r1->body;
  EXPECT_EQ(ev[0]["type"], "response.created");
  EXPECT_EQ(ev[1]["type"], "response.output_item.added");
  EXPECT_EQ(ev[2]["type"], "response.output_text.delta");
  EXPECT_EQ(ev[2]["delta"], "running");
  EXPECT_EQ(ev[3]["type"], "response.output_item.done");
  EXPECT_EQ(ev[3]["item"]["content"][0]["text"], "running");
  const json& call = ev[5]["item"];
  EXPECT_EQ(call["type"], "function_call");
  EXPECT_EQ(call["call_id"], "c1");
  ASSERT_TRUE(call["arguments"].is_string());
  EXPECT_EQ(json::parse(call["arguments"].get<std::string>()), json({{"cmd", "ls"}}));
  EXPECT_EQ(ev[7]["item"]["type"], "custom_tool_call");
  EXPECT_EQ(ev[7]["item"]["input"], "*** Begin Patch");
  EXPECT_FALSE(ev[7]["item"]["call_id"].get<std::string>().empty());
  EXPECT_EQ(ev[8]["type"], "response.completed");
  EXPECT_EQ(ev[8]["response"]["status"], "completed");
  EXPECT_EQ(ev[8]["response"]["output"].size(), 3u);
  EXPECT_EQ(ev[8]["response"]["usage"]["total_tokens"], 15);

  auto no_key = c.Post("/v1/responses", body.dump(), "application/json");
  ASSERT_TRUE(no_key);
  EXPECT_EQ(no_key->status, 401);
  EXPECT_EQ(json::parse(no_key->body)["error"]["type"], "authentication_error");
  auto other = c.Post("/v1/chat/completions", bearer, body.dump(), "application/json");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->status, 404);

  auto r2 = c.Post("/v1/responses", bearer, body.dump(), "application/json");
  ASSERT_TRUE(r2);
  EXPECT_EQ(r2->status, 429);
  EXPECT_EQ(json::parse(r2->body)["error"]["message"], "slow down");

  json next = body;
  next["input"].push_back({{"type", "function_call_output"}, {"call_id", "c1"},
                           {"output", "Command blocked by PreToolUse hook: no. Command: ls"}});
  auto r3 = c.Post("/v1/responses", bearer, next.dump(), "application/json");
  ASSERT_TRUE(r3);
  EXPECT_EQ(r3->status, 200);
  EXPECT_NE(r3->body.find("\"done\""), std::string::npos);
  auto exhausted = c.Post("/v1/responses", bearer, body.dump(), "application/json");
  ASSERT_TRUE(exhausted);
  EXPECT_EQ(exhausted->status, 500);

  auto reqs = s.requests();
  ASSERT_EQ(reqs.size(), 6u);
  EXPECT_EQ(reqs[0].turn, 0);
  EXPECT_EQ(reqs[1].status, 401);
  EXPECT_EQ(reqs[1].turn, -1);  // rejected requests consume no turn
  EXPECT_EQ(reqs[2].status, 404);
  EXPECT_EQ(reqs[3].turn, 1);
  EXPECT_EQ(reqs[4].turn, 2);
  EXPECT_EQ(reqs[5].error, "script exhausted");
  std::ifstream in(log);
  std::vector<json> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(json::parse(l));
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0]["toolOutputs"], json::array());
  EXPECT_EQ(lines[4]["toolOutputs"],
            json::parse(R"([{"call_id":"c1","output":"Command blocked by PreToolUse hook: no. Command: ls"}])"));
  EXPECT_EQ(lines[0].dump().find("sk-test"), std::string::npos);  // the key is never recorded
}

TEST(ResponsesServer, ScriptValidationNamesTheField) {
  auto bad = [](const char* text) {
    auto s = parse_responses_script(json::parse(text));
    return s ? std::string("accepted") : s.error().message;
  };
  EXPECT_NE(bad(R"({})").find("turns"), std::string::npos);
  EXPECT_NE(bad(R"({"turns":[{"content":[]}]})").find("turns[0]"), std::string::npos);
  EXPECT_NE(bad(R"({"turns":[{"content":[{"type":"image"}]}]})").find("turns[0].content[0].type"),
            std::string::npos);
  EXPECT_NE(bad(R"({"turns":[{"content":[{"type":"function_call","name":"x","arguments":3}]}]})")
                .find("arguments"),
            std::string::npos);
  EXPECT_NE(bad(R"({"turns":[{"error":{"code":418}}]})").find("error.code"), std::string::npos);
  EXPECT_NE(bad(R"({"turns":[],"whenExhausted":{"content":[{"type":"text"}]}})").find("whenExhausted"),
            std::string::npos);
  auto ok = parse_responses_script(json::parse(
      R"({"turns":[],"whenExhausted":{"content":[{"type":"function_call","name":"f","arguments":"{}"}]}})"));
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_TRUE(ok->has_when_exhausted);
  EXPECT_EQ(ok->when_exhausted.output[0]["arguments"], "{}");
}

// `hostemu codex model-server` serves the Responses dialect: prints its port, answers a streamed
// request with the scripted turn and logs it with the tool outputs it carried.
TEST(ResponsesServerCli, PrintsPortServesAndLogs) {
  if (!std::filesystem::exists(pinta::testing::bin_dir() + "/hostemu"))
    GTEST_SKIP() << "hostemu not built";
  pinta::testing::TempDir t;
  std::string script = t.sub("turns.json"), log = t.sub("log.jsonl");
  { std::ofstream(script) << R"({"turns":[{"content":[{"type":"text","text":"hello"}]}]})"; }
  const std::string body =
      R"({"model":"m","stream":true,"input":[{"type":"function_call_output","call_id":"c","output":"seen"}]})";
  auto sp = pinta::proc::make_spawner();
  std::string sh = "set -e; " + pinta::testing::bin_dir() + "/hostemu codex model-server --script " +
                   script + " --log " + log + " > " + t.sub("out") +
                   " & pid=$!; for i in $(seq 100); do [ -s " + t.sub("out") +
                   " ] && break; sleep 0.05; done; port=$(cut -d' ' -f2 " + t.sub("out") +
                   "); curl -s -H 'Authorization: Bearer k' -d '" + body +
                   "' \"http://127.0.0.1:$port/v1/responses\"; kill $pid; wait $pid";
  pinta::proc::SpawnRequest req;
  req.argv = {"sh", "-c", sh};
  req.timeout = std::chrono::milliseconds(20000);
  auto r = sp->run(req);
  ASSERT_TRUE(r.exit_code.has_value()) << r.spawn_error;
  EXPECT_EQ(*r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("event: response.completed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hello"), std::string::npos);
  std::ifstream in(log);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  json rec = json::parse(line);
  EXPECT_EQ(rec["status"], 200);
  EXPECT_EQ(rec["toolOutputs"], json::parse(R"([{"call_id":"c","output":"seen"}])"));
}
