// TLS for pinta::http through OpenSSL 3 loaded with dlopen on first https use. A dynamically
// linked adapter never links OpenSSL: linking the shared library (directly or through
// cpp-httplib) costs every hook process start-up time (shared/reference/real-hosts.md, "Cost of a
// hook process"), and most events never need TLS. The fully static adapter (PINTA_TLS_STATIC)
// links the static archives instead: untouched code costs a static executable nothing at start.
//
// Only a handful of stable OpenSSL 3 ABI symbols are used; macros (SSL_set_tlsext_host_name,
// SSL_CTX_set_min_proto_version) are expanded to the SSL_ctrl / SSL_CTX_ctrl calls they stand for.
#include "tls.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <mutex>

namespace pinta::http::detail {
namespace {

// OpenSSL constants (openssl/ssl.h, openssl/x509_vfy.h, OpenSSL 3.0 ABI).
constexpr int kSslErrorWantRead = 2;
constexpr int kSslErrorWantWrite = 3;
constexpr int kSslErrorSyscall = 5;
constexpr int kSslErrorZeroReturn = 6;
constexpr int kSslVerifyPeer = 0x01;
constexpr int kSslCtrlSetTlsextHostname = 55;
constexpr long kTlsextNametypeHostName = 0;
constexpr int kSslCtrlSetMinProtoVersion = 123;
constexpr long kTls12Version = 0x0303;
constexpr long kX509VOk = 0;
constexpr uint64_t kOpensslInitLoadSslStrings = 0x00200000L;
[[maybe_unused]] constexpr uint64_t kOpensslInitNoLoadConfig = 0x00000080L;

// Every OpenSSL function used: library, return type, name, parameters (OpenSSL 3.0 ABI; opaque
// pointers as void*).
#define PINTA_TLS_FUNCTIONS(X)                                                     \
  X(ssl, int, OPENSSL_init_ssl, (uint64_t, const void*))                           \
  X(ssl, const void*, TLS_client_method, ())                                       \
  X(ssl, void*, SSL_CTX_new, (const void*))                                        \
  X(ssl, void, SSL_CTX_free, (void*))                                              \
  X(ssl, int, SSL_CTX_set_default_verify_paths, (void*))                           \
  X(ssl, void, SSL_CTX_set_verify, (void*, int, void*))                            \
  X(ssl, long, SSL_CTX_ctrl, (void*, int, long, void*))                            \
  X(ssl, void*, SSL_new, (void*))                                                  \
  X(ssl, void, SSL_free, (void*))                                                  \
  X(ssl, int, SSL_set_fd, (void*, int))                                            \
  X(ssl, long, SSL_ctrl, (void*, int, long, void*))                                \
  X(ssl, int, SSL_set1_host, (void*, const char*))                                 \
  X(ssl, void*, SSL_get0_param, (void*))                                           \
  X(ssl, int, SSL_connect, (void*))                                                \
  X(ssl, int, SSL_read, (void*, void*, int))                                       \
  X(ssl, int, SSL_write, (void*, const void*, int))                                \
  X(ssl, int, SSL_get_error, (const void*, int))                                   \
  X(ssl, long, SSL_get_verify_result, (const void*))                               \
  X(crypto, int, X509_VERIFY_PARAM_set1_ip_asc, (void*, const char*))              \
  X(crypto, const char*, X509_verify_cert_error_string, (long))                    \
  X(crypto, unsigned long, ERR_get_error, ())                                      \
  X(crypto, void, ERR_clear_error, ())                                             \
  X(crypto, void, ERR_error_string_n, (unsigned long, char*, size_t))

struct Api {
  bool loaded = false;
  std::string load_error;
#define PINTA_TLS_MEMBER(lib, ret, name, params) ret(*name) params = nullptr;
  PINTA_TLS_FUNCTIONS(PINTA_TLS_MEMBER)
#undef PINTA_TLS_MEMBER
};

}  // namespace
}  // namespace pinta::http::detail

#if defined(PINTA_TLS_STATIC)
// The fully static pinta-gemini (adapter/CMakeLists.txt, PINTA_ADAPTER_STATIC) links libssl.a and
// libcrypto.a: a static executable cannot dlopen the shared OpenSSL (it would bring a second libc).
extern "C" {
#define PINTA_TLS_DECLARE(lib, ret, name, params) ret name params;
PINTA_TLS_FUNCTIONS(PINTA_TLS_DECLARE)
#undef PINTA_TLS_DECLARE
}
#endif

namespace pinta::http::detail {
namespace {

#if !defined(PINTA_TLS_STATIC)
template <typename F>
bool bind(void* lib, const char* name, F& fn, std::string& missing) {
  fn = reinterpret_cast<F>(::dlsym(lib, name));
  if (fn == nullptr && missing.empty()) missing = name;
  return fn != nullptr;
}
#endif

const Api& api() {
  static Api a;
  static std::once_flag once;
  std::call_once(once, [] {
#if defined(PINTA_TLS_STATIC)
#define PINTA_TLS_ASSIGN(lib, ret, name, params) a.name = &::name;
    PINTA_TLS_FUNCTIONS(PINTA_TLS_ASSIGN)
#undef PINTA_TLS_ASSIGN
    // No openssl.cnf: a configuration that loads a provider or engine module would dlopen a
    // shared OpenSSL into this static process. CA paths stay the system's (SSL_CERT_FILE /
    // SSL_CERT_DIR honoured), protocol floor TLS 1.2 is set below either way.
    const uint64_t init_flags = kOpensslInitLoadSslStrings | kOpensslInitNoLoadConfig;
#else
    // RTLD_LOCAL: the symbols stay private to our lookups; nothing else in the process sees them.
    void* crypto = ::dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    void* ssl = crypto ? ::dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL) : nullptr;
    if (crypto == nullptr || ssl == nullptr) {
      const char* e = ::dlerror();
      a.load_error = std::string("cannot load OpenSSL 3: ") + (e ? e : "unknown dlopen error");
      return;
    }
    std::string missing;
#define PINTA_TLS_BIND(lib, ret, name, params) bind(lib, #name, a.name, missing);
    PINTA_TLS_FUNCTIONS(PINTA_TLS_BIND)
#undef PINTA_TLS_BIND
    if (!missing.empty()) {
      a.load_error = "OpenSSL 3 lacks " + missing;
      return;
    }
    const uint64_t init_flags = kOpensslInitLoadSslStrings;
#endif
    if (a.OPENSSL_init_ssl(init_flags, nullptr) != 1) {
      a.load_error = "OPENSSL_init_ssl failed";
      return;
    }
    a.loaded = true;
  });
  return a;
}

std::string last_ssl_error(const Api& a) {
  unsigned long e = a.ERR_get_error();
  if (e == 0) return "no detail";
  char buf[256];
  a.ERR_error_string_n(e, buf, sizeof buf);
  return buf;
}

// SSL_write on a socket whose peer is gone raises SIGPIPE. Library code must not change the
// process's signal disposition, so SIGPIPE is blocked in this thread around the call and a pending
// one is consumed before unblocking (the usual technique for libraries without MSG_NOSIGNAL).
class SigpipeBlock {
 public:
  SigpipeBlock() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigpending(&pending_before_);
    was_pending_ = sigismember(&pending_before_, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~SigpipeBlock() {
    if (!was_pending_) {
      sigset_t pending;
      sigpending(&pending);
      if (sigismember(&pending, SIGPIPE) == 1) {
        struct timespec zero {
          0, 0
        };
        while (sigtimedwait(&pipe_, nullptr, &zero) == -1 && errno == EINTR) {
        }
      }
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }

 private:
  sigset_t pipe_{}, old_{}, pending_before_{};
  bool was_pending_ = false;
};

// ppoll with the time left in nanoseconds (http.cc wait_fd: a millisecond timeout rounded up
// overshot the budget).
Status wait_io(int fd, short events, const Deadline& deadline) {
  for (;;) {
    struct timespec left {};
    const struct timespec* timeout = nullptr;
    if (!deadline.is_never()) {
      auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline.at() -
                                                                     Deadline::Clock::now())
                    .count();
      if (ns <= 0) return make_error(ErrorCode::kTimeout, "deadline passed during TLS");
      left.tv_sec = static_cast<time_t>(ns / 1000000000);
      left.tv_nsec = static_cast<long>(ns % 1000000000);
      timeout = &left;
    }
    struct pollfd p {
      fd, events, 0
    };
    int r = ::ppoll(&p, 1, timeout, nullptr);
    if (r > 0) return {};
    if (r < 0 && errno != EINTR)
      return make_error(ErrorCode::kUnavailable, "poll failed during TLS");
  }
}

class OpenSslConnection final : public TlsConnection {
 public:
  OpenSslConnection(const Api& a, void* ctx, void* ssl, int fd)
      : a_(a), ctx_(ctx), ssl_(ssl), fd_(fd) {}
  ~OpenSslConnection() override {
    // No close_notify: the request is complete either way, and a shutdown could block or SIGPIPE.
    a_.SSL_free(ssl_);
    a_.SSL_CTX_free(ctx_);
  }

  Status write_all(const char* data, size_t size, Deadline deadline) override {
    size_t done = 0;
    while (done < size) {
      int chunk = static_cast<int>(std::min<size_t>(size - done, 1 << 30));
      int n;
      int err;
      {
        SigpipeBlock block;
        a_.ERR_clear_error();
        n = a_.SSL_write(ssl_, data + done, chunk);
        err = n > 0 ? 0 : a_.SSL_get_error(ssl_, n);
      }
      if (n > 0) {
        done += static_cast<size_t>(n);
        continue;
      }
      if (err == kSslErrorWantWrite || err == kSslErrorWantRead) {
        Status s = wait_io(fd_, err == kSslErrorWantWrite ? POLLOUT : POLLIN, deadline);
        if (!s) return s;
        continue;
      }
      return make_error(ErrorCode::kUnavailable, "TLS write failed: " + last_ssl_error(a_));
    }
    return {};
  }

  Result<size_t> read_some(char* data, size_t size, Deadline deadline) override {
    for (;;) {
      a_.ERR_clear_error();
      int n = a_.SSL_read(ssl_, data, static_cast<int>(std::min<size_t>(size, 1 << 30)));
      if (n > 0) return static_cast<size_t>(n);
      int err = a_.SSL_get_error(ssl_, n);
      if (err == kSslErrorZeroReturn) return size_t{0};
      if (err == kSslErrorWantRead || err == kSslErrorWantWrite) {
        Status s = wait_io(fd_, err == kSslErrorWantWrite ? POLLOUT : POLLIN, deadline);
        if (!s) return s.error();
        continue;
      }
      // A peer that closes TCP without close_notify: treat as end of stream (Connection: close
      // servers do this); the HTTP layer notices a truncated body through its framing.
      if (err == kSslErrorSyscall) return size_t{0};
      return make_error(ErrorCode::kProtocol, "TLS read failed: " + last_ssl_error(a_));
    }
  }

 private:
  const Api& a_;
  void* ctx_;
  void* ssl_;
  int fd_;
};

}  // namespace

Result<std::unique_ptr<TlsConnection>> tls_connect(int fd, const std::string& host,
                                                   Deadline deadline) {
  const Api& a = api();
  if (!a.loaded) return make_error(ErrorCode::kUnavailable, a.load_error);
  a.ERR_clear_error();
  void* ctx = a.SSL_CTX_new(a.TLS_client_method());
  if (ctx == nullptr) return make_error(ErrorCode::kUnavailable, "SSL_CTX_new failed");
  void* ssl = nullptr;
  auto fail = [&](ErrorCode code, std::string message) -> Error {
    if (ssl != nullptr) a.SSL_free(ssl);
    a.SSL_CTX_free(ctx);
    return make_error(code, std::move(message));
  };
  a.SSL_CTX_set_verify(ctx, kSslVerifyPeer, nullptr);
  // Default verify paths honour SSL_CERT_FILE and SSL_CERT_DIR (OpenSSL
  // X509_get_default_cert_file_env).
  if (a.SSL_CTX_set_default_verify_paths(ctx) != 1) {
    return fail(ErrorCode::kUnavailable, "cannot load the default CA paths: " + last_ssl_error(a));
  }
  a.SSL_CTX_ctrl(ctx, kSslCtrlSetMinProtoVersion, kTls12Version, nullptr);
  ssl = a.SSL_new(ctx);
  if (ssl == nullptr) return fail(ErrorCode::kUnavailable, "SSL_new failed");
  if (a.SSL_set_fd(ssl, fd) != 1) return fail(ErrorCode::kUnavailable, "SSL_set_fd failed");

  in_addr v4{};
  in6_addr v6{};
  bool is_ip =
      ::inet_pton(AF_INET, host.c_str(), &v4) == 1 || ::inet_pton(AF_INET6, host.c_str(), &v6) == 1;
  if (is_ip) {
    // RFC 6066 §3: no SNI for IP literals; the certificate must carry the address as an IP SAN.
    if (a.X509_VERIFY_PARAM_set1_ip_asc(a.SSL_get0_param(ssl), host.c_str()) != 1) {
      return fail(ErrorCode::kInvalidArgument, "cannot set the expected IP address");
    }
  } else {
    a.SSL_ctrl(ssl, kSslCtrlSetTlsextHostname, kTlsextNametypeHostName,
               const_cast<char*>(host.c_str()));
    if (a.SSL_set1_host(ssl, host.c_str()) != 1)
      return fail(ErrorCode::kInvalidArgument, "cannot set the expected host");
  }

  for (;;) {
    int rc;
    int err;
    {
      SigpipeBlock block;
      a.ERR_clear_error();
      rc = a.SSL_connect(ssl);
      err = rc == 1 ? 0 : a.SSL_get_error(ssl, rc);
    }
    if (rc == 1) break;
    if (err == kSslErrorWantRead || err == kSslErrorWantWrite) {
      Status s = wait_io(fd, err == kSslErrorWantWrite ? POLLOUT : POLLIN, deadline);
      if (!s) return fail(s.error().code, s.error().message);
      continue;
    }
    long verify = a.SSL_get_verify_result(ssl);
    if (verify != kX509VOk) {
      return fail(ErrorCode::kProtocol,
                  std::string("certificate rejected: ") + a.X509_verify_cert_error_string(verify));
    }
    return fail(ErrorCode::kProtocol, "TLS handshake failed: " + last_ssl_error(a));
  }
  return std::unique_ptr<TlsConnection>(new OpenSslConnection(a, ctx, ssl, fd));
}

}  // namespace pinta::http::detail
