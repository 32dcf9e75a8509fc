// The serving part both scripted model servers share (model_server.cc: Gemini's streaming API,
// messages_server.cc: Anthropic's Messages API): cpp-httplib on 127.0.0.1 on a thread of its own,
// every GET, POST and PUT given to one handler, stop() from any thread and wait() for it.
#pragma once

#include <httplib.h>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

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

}  // namespace pinta::emu
