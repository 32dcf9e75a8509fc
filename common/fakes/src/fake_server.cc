// FakeServer on cpp-httplib 0.11 (Debian 12). httplib parses requests; the behaviours it cannot
// express (raw bytes instead of a response, closing without a status line) need the connection's
// socket, so the server overrides process_and_close_socket with its own Stream over the socket and
// lets the handler "hijack" it: once hijacked, httplib's own response write is refused.
#include "pinta/fakes/fake_server.h"

#include <httplib.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "pinta/common/thread_signals.h"
#include "pinta/common/text.h"

namespace pinta::fakes {
namespace {

using pinta::text::ascii_lower;

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// A socket stream whose reads wake up every 50 ms to notice a stopping server (an idle client must
// not keep the destructor waiting for httplib's 5 s read timeout).
class SockStream final : public httplib::Stream {
 public:
  SockStream(int sock, const std::atomic<bool>& stopping) : sock_(sock), stopping_(stopping) {}

  bool is_readable() const override { return wait(POLLIN, 5000); }
  bool is_writable() const override { return !hijacked_ && wait(POLLOUT, 5000); }
  ssize_t read(char* ptr, size_t size) override {
    if (!wait(POLLIN, 5000)) return -1;
    for (;;) {
      ssize_t n = ::recv(sock_, ptr, size, 0);
      if (n < 0 && errno == EINTR) continue;
      return n;
    }
  }
  ssize_t write(const char* ptr, size_t size) override {
    if (hijacked_) return -1;
    return write_raw(ptr, size);
  }
  ssize_t write_raw(const char* ptr, size_t size) {
    size_t done = 0;
    while (done < size) {
      if (!wait(POLLOUT, 5000)) return -1;
      ssize_t n = ::send(sock_, ptr + done, size - done, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return -1;
      done += static_cast<size_t>(n);
    }
    return static_cast<ssize_t>(done);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 0;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 0;
  }
  socket_t socket() const override { return sock_; }
  void hijack() { hijacked_ = true; }

 private:
  bool wait(short events, int total_ms) const {
    for (int waited = 0; waited < total_ms; waited += 50) {
      if (stopping_.load()) return false;
      struct pollfd p {
        sock_, events, 0
      };
      int r = ::poll(&p, 1, 50);
      if (r > 0) return true;
      if (r < 0 && errno != EINTR) return false;
    }
    return false;
  }

  int sock_;
  const std::atomic<bool>& stopping_;
  bool hijacked_ = false;
};

thread_local SockStream* t_stream = nullptr;

class ScriptedHttpServer final : public httplib::Server {
 public:
  explicit ScriptedHttpServer(const std::atomic<bool>& stopping) : stopping_(stopping) {}

 private:
  // One request per connection: the adapter's client sends Connection: close anyway.
  bool process_and_close_socket(socket_t sock) override {
    SockStream strm(sock, stopping_);
    t_stream = &strm;
    bool closed = false;
    bool ok = process_request(strm, true, closed, [](httplib::Request&) {});
    t_stream = nullptr;
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return ok;
  }

  const std::atomic<bool>& stopping_;
};

}  // namespace

std::string Recorded::header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (iequals(k, name)) return v;
  }
  return {};
}

bool reply_from_json(const nlohmann::json& j, Reply& out, std::string& error) {
  out = Reply{};
  if (!j.is_object()) {
    error = "reply must be a JSON object";
    return false;
  }
  for (const auto& [key, value] : j.items()) {
    if (key == "status") {
      if (!value.is_number_integer() || value.get<int64_t>() < 100 || value.get<int64_t>() > 999) {
        error = "reply.status must be an integer 100..999";
        return false;
      }
      out.status = value.get<int>();
    } else if (key == "body") {
      if (value.is_string()) {
        out.body = value.get<std::string>();
      } else if (value.is_object() || value.is_array()) {
        out.body = value.dump();
      } else {
        error = "reply.body must be a string, object or array";
        return false;
      }
    } else if (key == "contentType") {
      if (!value.is_string()) {
        error = "reply.contentType must be a string";
        return false;
      }
      out.content_type = value.get<std::string>();
    } else if (key == "headers") {
      if (!value.is_object()) {
        error = "reply.headers must be an object of strings";
        return false;
      }
      for (const auto& [hk, hv] : value.items()) {
        if (!hv.is_string()) {
          error = "reply.headers." + hk + " must be a string";
          return false;
        }
        out.headers.emplace_back(hk, hv.get<std::string>());
      }
    } else if (key == "delayMs") {
      if (!value.is_number_integer() || value.get<int64_t>() < 0 || value.get<int64_t>() > 600000) {
        error = "reply.delayMs must be an integer 0..600000";
        return false;
      }
      out.delay = std::chrono::milliseconds(value.get<int64_t>());
    } else if (key == "neverAnswer" || key == "closeWithoutReply") {
      if (!value.is_boolean()) {
        error = "reply." + key + " must be a boolean";
        return false;
      }
      (key == "neverAnswer" ? out.never_answer : out.close_without_reply) = value.get<bool>();
    } else if (key == "maxRequestBody") {
      if (!value.is_number_unsigned()) {
        error = "reply.maxRequestBody must be a non-negative integer";
        return false;
      }
      out.max_request_body = value.get<size_t>();
    } else if (key == "raw") {
      if (!value.is_string()) {
        error = "reply.raw must be a string";
        return false;
      }
      out.raw = value.get<std::string>();
    } else {
      error = "unknown reply field '" + key + "'";
      return false;
    }
  }
  return true;
}

bool script_from_json(const nlohmann::json& j, std::vector<Reply>& replies, Reply& fallback,
                      std::string& error) {
  replies.clear();
  fallback = Reply{};
  if (!j.is_object()) {
    error = "script must be a JSON object";
    return false;
  }
  for (const auto& [key, value] : j.items()) {
    if (key == "replies") {
      if (!value.is_array()) {
        error = "script.replies must be an array";
        return false;
      }
      for (size_t i = 0; i < value.size(); ++i) {
        Reply r;
        if (!reply_from_json(value[i], r, error)) {
          error = "script.replies[" + std::to_string(i) + "]: " + error;
          return false;
        }
        replies.push_back(std::move(r));
      }
    } else if (key == "fallback") {
      if (!reply_from_json(value, fallback, error)) {
        error = "script.fallback: " + error;
        return false;
      }
    } else if (key != "comment" && key != "_comment") {
      error = "unknown script field '" + key + "'";
      return false;
    }
  }
  return true;
}

nlohmann::json recorded_to_json(const Recorded& r, size_t index) {
  nlohmann::json headers = nlohmann::json::object();
  for (const auto& [k, v] : r.headers) headers[k] = v;
  nlohmann::json j = {{"index", index},
                      {"method", r.method},
                      {"path", r.path},
                      {"headers", headers},
                      {"body", r.body}};
  // Round-trip through dump() with replacement so that a non-UTF-8 body cannot make logging throw.
  return nlohmann::json::parse(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

struct FakeServer::Impl {
  std::atomic<bool> stopping{false};
  ScriptedHttpServer server{stopping};
  std::thread listener;
  int port = -1;

  mutable std::mutex mu;
  mutable std::condition_variable cv;  // new request recorded, or stopping
  std::vector<Reply> script;
  Reply fallback;
  size_t counter = 0;
  std::vector<Recorded> requests;
  RequestObserver observer;
  bool stopped = false;

  void handle(const httplib::Request& req, httplib::Response& res) {
    Recorded rec;
    rec.method = req.method;
    rec.path = req.target.empty() ? req.path : req.target;
    for (const auto& [k, v] : req.headers) {
      // httplib adds these pseudo headers itself; they were not sent by the client.
      if (k == "REMOTE_ADDR" || k == "REMOTE_PORT" || k == "LOCAL_ADDR" || k == "LOCAL_PORT")
        continue;
      rec.headers.emplace_back(ascii_lower(k), v);
    }
    rec.body = req.body;
    rec.received = std::chrono::steady_clock::now();
    Reply reply;
    size_t index = 0;
    RequestObserver obs;
    {
      std::lock_guard<std::mutex> lock(mu);
      index = counter++;
      reply = index < script.size() ? script[index] : fallback;
      requests.push_back(rec);
      obs = observer;
    }
    cv.notify_all();
    if (obs) obs(rec, index);
    if (reply.max_request_body != 0 && req.body.size() > reply.max_request_body) {
      res.status = 413;
      res.set_content(
          "<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n"
          "<center><h1>413 Request Entity Too Large</h1></center>\r\n</body>\r\n</html>\r\n",
          "text/html");
      return;
    }

    SockStream* strm = t_stream;
    if (reply.delay.count() > 0 || reply.never_answer) {
      std::unique_lock<std::mutex> lock(mu);
      if (reply.never_answer) {
        // Held until the server stops or the client gives up (so that a benchmark's many timed-out
        // clients do not pin every worker thread).
        while (!cv.wait_for(lock, std::chrono::milliseconds(20), [&] { return stopping.load(); })) {
          if (strm == nullptr) continue;
          struct pollfd p {
            strm->socket(), POLLRDHUP, 0
          };
          if (::poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0) break;
        }
      } else {
        cv.wait_for(lock, reply.delay, [&] { return stopping.load(); });
      }
    }
    if (reply.never_answer || reply.close_without_reply || stopping.load()) {
      if (strm) {
        strm->hijack();
        ::shutdown(strm->socket(), SHUT_RDWR);
      }
      return;
    }
    if (!reply.raw.empty()) {
      if (strm) {
        strm->write_raw(reply.raw.data(), reply.raw.size());
        strm->hijack();
        ::shutdown(strm->socket(), SHUT_RDWR);
      }
      return;
    }
    res.status = reply.status;
    for (const auto& [k, v] : reply.headers) res.set_header(k, v);
    res.set_content(reply.body, reply.content_type);
  }
};

FakeServer::FakeServer(std::vector<Reply> script, Reply fallback)
    : impl_(std::make_unique<Impl>()) {
  impl_->script = std::move(script);
  impl_->fallback = std::move(fallback);
  // Never-answering handlers hold a worker each; 8 default workers would starve quickly.
  impl_->server.new_task_queue = [] { return new httplib::ThreadPool(32); };
  // Regular routes (not the pre-routing hook, which runs before httplib has read the body).
  auto handler = [impl = impl_.get()](const httplib::Request& req, httplib::Response& res) {
    impl->handle(req, res);
  };
  impl_->server.Get(".*", handler);
  impl_->server.Post(".*", handler);
  impl_->server.Put(".*", handler);
  impl_->server.Patch(".*", handler);
  impl_->server.Delete(".*", handler);
  impl_->server.Options(".*", handler);
  impl_->port = impl_->server.bind_to_any_port("127.0.0.1");
  if (impl_->port > 0) {
    impl_->listener = std::thread([impl = impl_.get()] {
      block_async_signals_in_this_thread();
      impl->server.listen_after_bind();
    });
    // stop() is a no-op until the accept loop runs; wait for it so an early stop cannot hang.
    for (int i = 0; i < 5000 && !impl_->server.is_running(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
}

FakeServer::~FakeServer() { stop(); }

int FakeServer::port() const { return impl_->port; }

std::string FakeServer::url(std::string_view path) const {
  return "http://127.0.0.1:" + std::to_string(impl_->port) + std::string(path);
}

void FakeServer::set_script(std::vector<Reply> script, Reply fallback) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->script = std::move(script);
  impl_->fallback = std::move(fallback);
  impl_->counter = 0;
}

void FakeServer::set_observer(RequestObserver observer) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->observer = std::move(observer);
}

std::vector<Recorded> FakeServer::requests() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->requests;
}

size_t FakeServer::request_count() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->requests.size();
}

bool FakeServer::wait_for_requests(size_t n, std::chrono::milliseconds timeout) const {
  std::unique_lock<std::mutex> lock(impl_->mu);
  return impl_->cv.wait_for(lock, timeout, [&] { return impl_->requests.size() >= n; });
}

void FakeServer::stop() {
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    if (impl_->stopped) return;
    impl_->stopped = true;
    impl_->stopping = true;
  }
  impl_->cv.notify_all();
  impl_->server.stop();
  if (impl_->listener.joinable()) impl_->listener.join();
}

}  // namespace pinta::fakes
