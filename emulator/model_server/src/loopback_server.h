// The base every scripted model server dialect shares (model_server.cc: Gemini's streaming API,
// messages_server.cc: Anthropic's Messages API, responses_server.cc: OpenAI's Responses API):
// cpp-httplib on 127.0.0.1 on a thread of its own, every GET, POST and PUT given to one handler,
// stop() from any thread and wait() for it; the request log; the cursor over the scripted turns;
// what every dialect records of a request before it judges it; and start() of a dialect's Impl.
#pragma once

#include <httplib.h>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "pinta/common/fs.h"
#include "pinta/common/result.h"

namespace pinta::emu {

class LoopbackServer {
 public:
  using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;
  // Listens on 127.0.0.1:port (0 = a free port) and serves `handler` until stop().
  static Result<std::unique_ptr<LoopbackServer>> start(Handler handler, int port);
  ~LoopbackServer();
  int port() const { return port_; }
  void stop();
  void wait();  // until stop() (from another thread or a signal handler's thread)

 private:
  LoopbackServer() = default;
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::mutex mu_;
  std::condition_variable stopped_cv_;
  bool stopped_ = false;
};

// The requests a server has answered, in order, each also appended as a JSON line to `log_path`
// when one is given (what `hostemu … --log` and the real-host lanes read).
template <typename Request>
class RequestLog {
 public:
  explicit RequestLog(std::string log_path) : log_path_(std::move(log_path)) {}
  void record(Request r) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!log_path_.empty()) (void)fs::append_locked(log_path_, r.to_json().dump() + "\n");
    requests_.push_back(std::move(r));
  }
  std::vector<Request> since(size_t from) const {
    std::lock_guard<std::mutex> lock(mu_);
    if (from >= requests_.size()) return {};
    return {requests_.begin() + static_cast<std::ptrdiff_t>(from), requests_.end()};
  }
  size_t size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_.size();
  }

 private:
  std::string log_path_;
  mutable std::mutex mu_;
  std::vector<Request> requests_;
};

// The scripted turns in order: each accepted request takes the next one; past the end every request
// gets `when_exhausted` when the script has one, else nothing (the dialect answers its error).
template <typename Turn>
class TurnCursor {
 public:
  TurnCursor(std::vector<Turn> turns, std::optional<Turn> when_exhausted)
      : turns_(std::move(turns)), when_exhausted_(std::move(when_exhausted)) {}
  // The turn for this request; `index` is its position in the script (-1: beyond it).
  std::optional<Turn> next(int& index) {
    std::lock_guard<std::mutex> lock(mu_);
    index = -1;
    if (next_ < turns_.size()) {
      index = static_cast<int>(next_);
      return turns_[next_++];
    }
    return when_exhausted_;
  }

 private:
  std::mutex mu_;
  std::vector<Turn> turns_;
  std::optional<Turn> when_exhausted_;
  size_t next_ = 0;
};

// A dialect's script, {"turns": [turn...], "whenExhausted": turn}, each turn read by
// parse_turn(json, where, index) (whenExhausted: where "whenExhausted", index 999).
template <typename Script, typename ParseTurn>
Result<Script> parse_turns_script(const nlohmann::json& j, ParseTurn parse_turn) {
  if (!j.is_object()) return make_error(ErrorCode::kInvalidArgument, "script is not a JSON object");
  if (!j.contains("turns") || !j["turns"].is_array())
    return make_error(ErrorCode::kInvalidArgument, "script needs a \"turns\" array");
  Script s;
  for (size_t i = 0; i < j["turns"].size(); ++i) {
    auto t = parse_turn(j["turns"][i], "turns[" + std::to_string(i) + "]", i);
    if (!t) return t.error();
    s.turns.push_back(std::move(*t));
  }
  if (j.contains("whenExhausted")) {
    auto t = parse_turn(j["whenExhausted"], "whenExhausted", 999);
    if (!t) return t.error();
    s.has_when_exhausted = true;
    s.when_exhausted = std::move(*t);
  }
  return s;
}

// A script file: `parse` of its JSON; not JSON is an error naming the file.
template <typename Parse>
auto load_script_file(const std::string& path, Parse parse) -> decltype(parse(nlohmann::json())) {
  auto text = fs::read_file(path);
  if (!text) return text.error();
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  if (j.is_discarded()) return make_error(ErrorCode::kParse, path + " is not valid JSON");
  return parse(j);
}

// The fields every dialect's request record has, filled from what arrived: method, path, the query
// as k=v&k=v, and the body parsed as JSON (null when it is not JSON).
template <typename Record>
void read_request(const httplib::Request& req, Record& rec) {
  rec.method = req.method;
  rec.path = req.path;
  for (const auto& [k, v] : req.params) rec.query += (rec.query.empty() ? "" : "&") + k + "=" + v;
  rec.body = nlohmann::json::parse(req.body, nullptr, false);
  if (rec.body.is_discarded()) rec.body = nullptr;
}

// start() of a dialect: listens with `impl->handle` as the handler and keeps the server in
// `impl->http` (declared last in Impl, so it stops before what the handler uses is destroyed).
template <typename Impl>
Result<std::unique_ptr<Impl>> serve_dialect(std::unique_ptr<Impl> impl, int port) {
  Impl* p = impl.get();
  auto http = LoopbackServer::start(
      [p](const httplib::Request& req, httplib::Response& res) { p->handle(req, res); }, port);
  if (!http) return http.error();
  impl->http = std::move(*http);
  return impl;
}

}  // namespace pinta::emu
