#include "loopback_server.h"

#include <chrono>

#include "pinta/common/thread_signals.h"

namespace pinta::emu {

Result<std::unique_ptr<LoopbackServer>> LoopbackServer::start(Handler handler, int port) {
  std::unique_ptr<LoopbackServer> s(new LoopbackServer());
  s->server_.Post(".*", handler);
  s->server_.Get(".*", handler);
  s->server_.Put(".*", handler);
  // cpp-httplib 0.11 answers a request target with a "?" inside its query ("?a?b") only when its
  // keep-alive wait (default 5 s) expires; clients of these servers send whole requests at once
  // on loopback, so 1 s bounds that wait without cutting any real request
  // (fuzz/model_server_request regression query-with-second-question-mark).
  s->server_.set_keep_alive_timeout(1);
  if (port == 0) {
    s->port_ = s->server_.bind_to_any_port("127.0.0.1");
  } else {
    s->port_ = s->server_.bind_to_port("127.0.0.1", port) ? port : -1;
  }
  if (s->port_ <= 0)
    return make_error(ErrorCode::kUnavailable, "cannot listen on 127.0.0.1:" + std::to_string(port));
  LoopbackServer* p = s.get();
  s->thread_ = std::thread([p] {
    block_async_signals_in_this_thread();
    p->server_.listen_after_bind();
  });
  // Debian's cpp-httplib has no wait_until_ready(): poll is_running() (bounded, 5 s).
  for (int i = 0; i < 500 && !s->server_.is_running(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return s;
}

LoopbackServer::~LoopbackServer() { stop(); }

void LoopbackServer::stop() {
  server_.stop();
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mu_);
  stopped_ = true;
  stopped_cv_.notify_all();
}

void LoopbackServer::wait() {
  std::unique_lock<std::mutex> lock(mu_);
  stopped_cv_.wait(lock, [this] { return stopped_; });
}

}  // namespace pinta::emu
