// File: pinta/fakes/fake_server.h
// A scriptable HTTP server on 127.0.0.1, port 0, for tests, benchmarks and the conformance suite:
// the fake guard and the fake OTLP collector are both this server with a script. It records every
// request. Behaviours: status codes, bodies, headers (e.g. Retry-After), delays, garbage bytes,
// closing without a reply, and accepting a request but never answering (until the server stops).
// Built on cpp-httplib; never linked into the adapter.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pinta::fakes {

using Headers = std::vector<std::pair<std::string, std::string>>;

struct Reply {
  int status = 200;
  std::string body;  // sent as-is
  std::string content_type = "application/json";
  Headers headers;                     // extra response headers (e.g. {"Retry-After","1"})
  std::chrono::milliseconds delay{0};  // wait before answering
  bool never_answer = false;           // hold the request until the server stops
  bool close_without_reply = false;    // drop the connection without a status line
  std::string raw;                     // when non-empty: these raw bytes are the whole response
  // When non-zero: a request whose body is longer gets nginx's answer to a body over
  // client_max_body_size instead (413 with an HTML page), as a guard behind a proxy would.
  size_t max_request_body = 0;
};
// JSON form used by scripts and the CLI: {"status":200,"body":"..."|{...},"contentType":"...",
// "headers":{"k":"v"},"delayMs":0,"neverAnswer":false,"closeWithoutReply":false,"raw":"...",
// "maxRequestBody":0}.
// A JSON object/array `body` is serialized compactly.
bool reply_from_json(const nlohmann::json& j, Reply& out, std::string& error);

struct Recorded {
  std::string method;
  std::string path;  // path with query
  Headers headers;   // as received (names lower-cased)
  std::string body;
  std::chrono::steady_clock::time_point received;
  std::string header(std::string_view name) const;  // case-insensitive, "" when absent
};

// Script form used by the CLI and the conformance suite: {"replies":[Reply...],"fallback":Reply}
// (both optional; the default fallback is 200 with an empty body).
bool script_from_json(const nlohmann::json& j, std::vector<Reply>& replies, Reply& fallback,
                      std::string& error);

// JSON form of a recorded request (the CLI's --log line): {"index","method","path","headers":{},
// "body"}; invalid UTF-8 in the body is replaced by U+FFFD.
nlohmann::json recorded_to_json(const Recorded& r, size_t index);

// Called on the serving thread for every request as it arrives, before the reply is sent.
using RequestObserver = std::function<void(const Recorded&, size_t index)>;

class FakeServer {
 public:
  // script[i] answers the i-th request (0-based, counted over all paths); later requests get
  // `fallback`. Starts listening before the constructor returns; port() is then valid.
  explicit FakeServer(std::vector<Reply> script = {}, Reply fallback = {});
  ~FakeServer();  // stops; never-answer handlers are released; joins every thread
  FakeServer(const FakeServer&) = delete;
  FakeServer& operator=(const FakeServer&) = delete;

  int port() const;
  std::string url(std::string_view path = "/") const;  // "http://127.0.0.1:PORT" + path

  void set_script(std::vector<Reply> script, Reply fallback);  // resets the request counter
  void set_observer(RequestObserver observer);
  std::vector<Recorded> requests() const;
  size_t request_count() const;
  // Blocks until at least n requests were received or `timeout` passed; returns whether they were.
  bool wait_for_requests(size_t n, std::chrono::milliseconds timeout) const;
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pinta::fakes
