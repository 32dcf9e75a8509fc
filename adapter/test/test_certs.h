// Test certificates for the TLS tests (http_test in-process, guard_process_test through the built
// adapter): two CAs, "trusted" (handed to the client via SSL_CERT_FILE) and "other" (never
// trusted), and three leaf certificates: good (SAN 127.0.0.1 + localhost), wronghost (SAN
// other.example only) and untrusted (from the other CA). Files: <dir>/<name>.pem / .key and
// <dir>/trusted-ca.pem. Made with the openssl CLI, once per suite (EC keys: fast to generate).
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace pinta::testing {

// Writes the certificates into `dir`; returns "" or why they could not be made (a skip reason).
inline std::string make_test_certificates(const std::string& dir) {
  if (std::system("command -v openssl >/dev/null 2>&1") != 0) return "openssl CLI not installed";
  const std::string script = "set -e; cd '" + dir + "'\n" + R"(
    q() { "$@" >/dev/null 2>&1; }
    for ca in trusted other; do
      q openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout $ca-ca.key -out $ca-ca.pem -days 2 -subj "/CN=pinta $ca CA"
    done
    leaf() { # name ca san
      q openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout $1.key -out $1.csr -subj "/CN=$1"
      printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\n' "$3" > $1.ext
      q openssl x509 -req -in $1.csr -CA $2-ca.pem -CAkey $2-ca.key -CAcreateserial -out $1.pem -days 2 -extfile $1.ext
    }
    leaf good trusted "IP:127.0.0.1,DNS:localhost"
    leaf wronghost trusted "DNS:other.example"
    leaf untrusted other "IP:127.0.0.1,DNS:localhost"
  )";
  std::ofstream(dir + "/gen.sh") << script;
  if (std::system(("sh '" + dir + "/gen.sh'").c_str()) != 0) return "openssl could not create test certificates";
  return "";
}

// A loopback https server (cpp-httplib) presenting <dir>/<leaf>.pem; every POST is answered by
// `body(request body)` as JSON and counted (and counted as resumed when its TLS session was). Stops and joins on destruction.
class TlsServer {
 public:
  TlsServer(const std::string& dir, const std::string& leaf, std::function<std::string(const std::string&)> body)
      : server_((dir + "/" + leaf + ".pem").c_str(), (dir + "/" + leaf + ".key").c_str()), body_(std::move(body)) {
    server_.Post(".*", [this](const httplib::Request& req, httplib::Response& res) {
      ++requests_;
      if (req.ssl != nullptr && SSL_session_reused(req.ssl) == 1) ++resumed_;
      {
        std::lock_guard<std::mutex> lock(m_);
        ports_.insert(req.remote_port);
        if (req.has_header("x-pinta-relay-token")) last_token_ = req.get_header_value("x-pinta-relay-token");
      }
      res.set_content(body_(req.body), "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 2000 && !server_.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~TlsServer() {
    server_.stop();
    thread_.join();
  }
  TlsServer(const TlsServer&) = delete;
  TlsServer& operator=(const TlsServer&) = delete;
  int port() const { return port_; }
  std::string url(const std::string& host, const std::string& path) const {
    return "https://" + host + ":" + std::to_string(port_) + path;
  }
  int requests() const { return requests_; }
  // Requests that came over a resumed TLS session (SSL_session_reused on the server side).
  int resumed() const { return resumed_; }
  // Connections that carried at least one request (told apart by the client's port).
  int connections() const {
    std::lock_guard<std::mutex> lock(m_);
    return static_cast<int>(ports_.size());
  }
  std::string last_relay_token() const {
    std::lock_guard<std::mutex> lock(m_);
    return last_token_;
  }

 private:
  httplib::SSLServer server_;
  std::function<std::string(const std::string&)> body_;
  int port_ = 0;
  std::atomic<int> requests_{0};
  std::atomic<int> resumed_{0};
  mutable std::mutex m_;
  std::set<int> ports_;
  std::string last_token_;
  std::thread thread_;
};

}  // namespace pinta::testing
