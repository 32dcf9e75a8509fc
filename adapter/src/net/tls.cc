// TLS for pinta::http through OpenSSL 3 loaded with dlopen on first https use. A dynamically
// linked adapter never links OpenSSL: linking the shared library (directly or through
// cpp-httplib) costs every hook process start-up time (shared/reference/real-hosts.md, "Cost of a
// hook process"), and most events never need TLS. The fully static adapter (PINTA_TLS_STATIC)
// links the static archives instead: untouched code costs a static executable nothing at start.
//
// Only a handful of stable OpenSSL 3 ABI symbols are used; macros (SSL_set_tlsext_host_name,
// SSL_CTX_set_min_proto_version) are expanded to the SSL_ctrl / SSL_CTX_ctrl calls they stand for.
#include "tls.h"
#include "wait.h"

#include "pinta/common/env.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <string_view>

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
constexpr int kSslCtrlSetSessCacheMode = 44;
constexpr long kSslSessCacheClientNoInternalStore = 0x0001 | 0x0200;
constexpr int kX509LFileLoad = 1;
constexpr int kX509LAddDir = 2;
constexpr long kX509FiletypeDefault = 3;
// Bound on a kept session (a TLS 1.3 ticket with one P-256 certificate is ~0.8 KiB; a long chain
// or a large ticket stays far below this).
constexpr size_t kMaxSessionBytes = 16u << 10;
// A resumed session older than this is not offered: at least once an hour the chain is verified
// again against the current trust store, whatever lifetime the server gave its ticket.
constexpr long kMaxSessionAgeSeconds = 3600;
[[maybe_unused]] constexpr uint64_t kOpensslInitNoLoadConfig = 0x00000080L;

// Callback types (opaque pointers): SSL_CTX_set_cert_verify_callback's int (*)(X509_STORE_CTX*,
// void*), SSL_CTX_sess_set_new_cb's int (*)(SSL*, SSL_SESSION*).
using VerifyFn = int (*)(void*, void*);
using NewSessionFn = int (*)(void*, void*);

// Every OpenSSL function used: library, return type, name, parameters (OpenSSL 3.0 ABI; opaque
// pointers as void*).
#define PINTA_TLS_FUNCTIONS(X)                                                                    \
  X(ssl, int, OPENSSL_init_ssl, (uint64_t, const void*))                                          \
  X(ssl, const void*, TLS_client_method, ())                                                      \
  X(ssl, void*, SSL_CTX_new, (const void*))                                                       \
  X(ssl, void, SSL_CTX_free, (void*))                                                             \
  X(ssl, int, SSL_CTX_set_default_verify_paths, (void*))                                          \
  X(ssl, void, SSL_CTX_set_verify, (void*, int, void*))                                           \
  X(ssl, long, SSL_CTX_ctrl, (void*, int, long, void*))                                           \
  X(ssl, void*, SSL_new, (void*))                                                                 \
  X(ssl, void, SSL_free, (void*))                                                                 \
  X(ssl, int, SSL_set_fd, (void*, int))                                                           \
  X(ssl, long, SSL_ctrl, (void*, int, long, void*))                                               \
  X(ssl, int, SSL_set1_host, (void*, const char*))                                                \
  X(ssl, void*, SSL_get0_param, (void*))                                                          \
  X(ssl, int, SSL_connect, (void*))                                                               \
  X(ssl, int, SSL_read, (void*, void*, int))                                                      \
  X(ssl, int, SSL_write, (void*, const void*, int))                                               \
  X(ssl, int, SSL_get_error, (const void*, int))                                                  \
  X(ssl, long, SSL_get_verify_result, (const void*))                                              \
  X(ssl, void, SSL_CTX_set_cert_verify_callback, (void*, ::pinta::http::detail::VerifyFn, void*)) \
  X(ssl, void*, SSL_CTX_get_cert_store, (const void*))                                            \
  X(ssl, void, SSL_CTX_sess_set_new_cb, (void*, ::pinta::http::detail::NewSessionFn))             \
  X(ssl, int, SSL_set_ex_data, (void*, int, void*))                                               \
  X(ssl, void*, SSL_get_ex_data, (const void*, int))                                              \
  X(ssl, int, SSL_set_session, (void*, void*))                                                    \
  X(ssl, int, SSL_session_reused, (const void*))                                                  \
  X(ssl, void*, SSL_get0_peer_certificate, (const void*))                                         \
  X(ssl, int, i2d_SSL_SESSION, (const void*, unsigned char**))                                    \
  X(ssl, void*, d2i_SSL_SESSION, (void**, const unsigned char**, long))                           \
  X(ssl, void, SSL_SESSION_free, (void*))                                                         \
  X(ssl, const char*, SSL_SESSION_get0_hostname, (const void*))                                   \
  X(ssl, long, SSL_SESSION_get_time, (const void*))                                               \
  X(ssl, int, SSL_SESSION_is_resumable, (const void*))                                            \
  X(crypto, int, X509_VERIFY_PARAM_set1_ip_asc, (void*, const char*))                             \
  X(crypto, const char*, X509_verify_cert_error_string, (long))                                   \
  X(crypto, unsigned long, ERR_get_error, ())                                                     \
  X(crypto, void, ERR_clear_error, ())                                                            \
  X(crypto, void, ERR_error_string_n, (unsigned long, char*, size_t))                             \
  X(crypto, void*, X509_STORE_add_lookup, (void*, const void*))                                   \
  X(crypto, const void*, X509_LOOKUP_hash_dir, ())                                                \
  X(crypto, const void*, X509_LOOKUP_file, ())                                                    \
  X(crypto, int, X509_LOOKUP_ctrl, (void*, int, const char*, long, char**))                       \
  X(crypto, int, X509_verify_cert, (void*))                                                       \
  X(crypto, void*, X509_STORE_CTX_new, ())                                                        \
  X(crypto, void, X509_STORE_CTX_free, (void*))                                                   \
  X(crypto, int, X509_STORE_CTX_init, (void*, void*, void*, void*))                               \
  X(crypto, void*, X509_STORE_CTX_get0_cert, (const void*))                                       \
  X(crypto, void*, X509_STORE_CTX_get0_untrusted, (const void*))                                  \
  X(crypto, void*, X509_STORE_CTX_get0_param, (const void*))                                      \
  X(crypto, int, X509_VERIFY_PARAM_set1, (void*, const void*))                                    \
  X(crypto, int, X509_check_host, (void*, const char*, size_t, unsigned, char**))                 \
  X(crypto, int, X509_check_ip_asc, (void*, const char*, unsigned))                               \
  X(crypto, const void*, X509_get0_notBefore, (const void*))                                      \
  X(crypto, const void*, X509_get0_notAfter, (const void*))                                       \
  X(crypto, int, X509_cmp_current_time, (const void*))                                            \
  X(crypto, const char*, X509_get_default_cert_file_env, ())                                      \
  X(crypto, const char*, X509_get_default_cert_dir_env, ())                                       \
  X(crypto, const char*, X509_get_default_cert_file, ())                                          \
  X(crypto, const char*, X509_get_default_cert_dir, ())                                           \
  X(crypto, unsigned long, OpenSSL_version_num, ())

struct Api {
  bool bound = false;   // every function found (symbols())
  bool loaded = false;  // bound and OPENSSL_init_ssl done (api())
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

// The functions, found but OpenSSL not initialised: enough for the getters tls_session_key needs
// (version, default CA paths). OPENSSL_init_ssl and the clean-up it registers at exit cost ~1 M
// instructions, more than the rest of a gate event that hands its request to the guard keeper.
Api& symbols() {
  static Api a;
  static std::once_flag once;
  std::call_once(once, [] {
#if defined(PINTA_TLS_STATIC)
#define PINTA_TLS_ASSIGN(lib, ret, name, params) a.name = &::name;
    PINTA_TLS_FUNCTIONS(PINTA_TLS_ASSIGN)
#undef PINTA_TLS_ASSIGN
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
#endif
    a.bound = true;
  });
  return a;
}

const Api& api() {
  static std::once_flag once;
  Api& a = symbols();
  std::call_once(once, [&a] {
    if (!a.bound) return;
#if defined(PINTA_TLS_STATIC)
    // No openssl.cnf: a configuration that loads a provider or engine module would dlopen a
    // shared OpenSSL into this static process. CA paths stay the system's (SSL_CERT_FILE /
    // SSL_CERT_DIR honoured), protocol floor TLS 1.2 is set below either way.
    const uint64_t init_flags = kOpensslInitLoadSslStrings | kOpensslInitNoLoadConfig;
#else
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

// Waits until `fd` is ready for `events` (wait.h, as http.cc's wait_fd).
Status wait_io(int fd, short events, const Deadline& deadline) {
  const int e = wait_ready(fd, events, deadline);
  if (e == 0) return {};
  if (e == ETIMEDOUT) return make_error(ErrorCode::kTimeout, "deadline passed during TLS");
  return make_error(ErrorCode::kUnavailable, "poll failed during TLS");
}

// Per-connection state the OpenSSL callbacks reach (the verify callback through its argument, the
// new-session callback through the SSL's ex data slot 0). Owned by the connection: TLS 1.3
// session tickets arrive after the handshake, while the response is read.
struct ConnState {
  const Api* a = nullptr;
  void* ctx = nullptr;
  bool file_loaded = false;  // the CA file lookup is in the store
  bool dir_loaded = false;   // the hashed CA directory lookup is in the store
  TlsSessionCache* sessions = nullptr;
  std::string key;
};

bool add_default_file(ConnState& st) {
  if (st.file_loaded) return true;
  st.file_loaded = true;
  void* lookup =
      st.a->X509_STORE_add_lookup(st.a->SSL_CTX_get_cert_store(st.ctx), st.a->X509_LOOKUP_file());
  // X509_FILETYPE_DEFAULT: $SSL_CERT_FILE, else the built-in default file; a missing file is not
  // an error (as in X509_STORE_set_default_paths).
  if (lookup != nullptr)
    (void)st.a->X509_LOOKUP_ctrl(lookup, kX509LFileLoad, nullptr, kX509FiletypeDefault, nullptr);
  st.a->ERR_clear_error();
  return lookup != nullptr;
}

bool add_default_dir(ConnState& st) {
  if (st.dir_loaded) return true;
  st.dir_loaded = true;
  void* lookup = st.a->X509_STORE_add_lookup(st.a->SSL_CTX_get_cert_store(st.ctx),
                                             st.a->X509_LOOKUP_hash_dir());
  if (lookup != nullptr)
    (void)st.a->X509_LOOKUP_ctrl(lookup, kX509LAddDir, nullptr, kX509FiletypeDefault, nullptr);
  st.a->ERR_clear_error();
  return lookup != nullptr;
}

// The certificate verification OpenSSL runs on a full handshake (SSL_CTX_set_cert_verify_callback;
// `x` is the X509_STORE_CTX it set up with the SSL's verify parameters: host or IP, purpose).
// The trust store starts empty and is filled here, so a resumed handshake never loads it.
// Trust is what SSL_CTX_set_default_verify_paths gives (CA file + hashed CA dir), but parsing
// the default bundle file costs ~60 ms (144 certificates through OpenSSL 3's decoders, 245 M
// instructions), more than the guard budget: unless SSL_CERT_FILE names a file, the chain is
// first tried against the directory alone (the issuer certificates are loaded by hash, one file
// each) on a scratch context; only if that fails is the file added and the chain verified
// against both. Either way the verdict is that of the real context `x` on a store holding a
// subset of (or all of) the default paths, so nothing outside them is ever trusted.
int verify_chain(void* x, void* arg) {
  auto& st = *static_cast<ConnState*>(arg);
  const Api& a = *st.a;
  const char* file_env = a.X509_get_default_cert_file_env();
  const char* explicit_file = file_env != nullptr ? pinta::env::get(file_env) : nullptr;
  if (explicit_file != nullptr && *explicit_file != '\0') add_default_file(st);
  add_default_dir(st);
  if (!st.file_loaded) {
    void* trial = a.X509_STORE_CTX_new();
    bool dir_is_enough = false;
    if (trial != nullptr &&
        a.X509_STORE_CTX_init(trial, a.SSL_CTX_get_cert_store(st.ctx),
                              a.X509_STORE_CTX_get0_cert(x),
                              a.X509_STORE_CTX_get0_untrusted(x)) == 1 &&
        a.X509_VERIFY_PARAM_set1(a.X509_STORE_CTX_get0_param(trial),
                                 a.X509_STORE_CTX_get0_param(x)) == 1) {
      dir_is_enough = a.X509_verify_cert(trial) == 1;
    }
    if (trial != nullptr) a.X509_STORE_CTX_free(trial);
    a.ERR_clear_error();
    if (!dir_is_enough) add_default_file(st);
  }
  return a.X509_verify_cert(x);
}

// SSL_CTX_sess_set_new_cb: the server issued a session (TLS 1.3: a ticket after the handshake).
// Serialized and handed to the cache; 0 = OpenSSL keeps ownership of `session`.
int on_new_session(void* ssl, void* session) {
  auto* st = static_cast<ConnState*>(api().SSL_get_ex_data(ssl, 0));
  if (st == nullptr || st->sessions == nullptr) return 0;
  const Api& a = *st->a;
  if (a.SSL_SESSION_is_resumable(session) != 1) return 0;
  int len = a.i2d_SSL_SESSION(session, nullptr);
  if (len <= 0 || len > static_cast<int>(kMaxSessionBytes)) return 0;
  std::string der(static_cast<size_t>(len), '\0');
  auto* p = reinterpret_cast<unsigned char*>(der.data());
  if (a.i2d_SSL_SESSION(session, &p) != len) return 0;
  try {
    st->sessions->save(st->key, std::move(der));
  } catch (...) {
  }
  return 0;
}

class OpenSslConnection final : public TlsConnection {
 public:
  OpenSslConnection(const Api& a, void* ctx, void* ssl, int fd, std::unique_ptr<ConnState> state)
      : a_(a), ctx_(ctx), ssl_(ssl), fd_(fd), state_(std::move(state)) {}
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
  std::unique_ptr<ConnState> state_;  // after ssl_ is freed (declared last, destroyed first: the
                                      // SSL is freed in the destructor body, before members)
};

}  // namespace

namespace {

// Appends `text` with every byte outside printable ASCII (and '%') as %XX: the key stays one line.
void append_escaped(std::string& out, std::string_view text) {
  static const char kHex[] = "0123456789ABCDEF";
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x21 || u > 0x7e || c == '%') {
      out.push_back('%');
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 0xF]);
    } else {
      out.push_back(c);
    }
  }
}

void append_identity(std::string& out, const char* path) {
  struct stat st {};
  out.push_back(' ');
  if (path == nullptr || ::stat(path, &st) != 0) {
    out += "absent";
    return;
  }
  out += std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" +
         std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec) + ":" + std::to_string(st.st_ctim.tv_sec) + "." +
         std::to_string(st.st_ctim.tv_nsec);
}

bool is_ip_literal(const std::string& host) {
  in_addr v4{};
  in6_addr v6{};
  return ::inet_pton(AF_INET, host.c_str(), &v4) == 1 ||
         ::inet_pton(AF_INET6, host.c_str(), &v6) == 1;
}

// A resumed session skips certificate verification: accept it only if its certificate still
// names `host` and is inside its validity period now.
bool resumed_session_still_valid(const Api& a, void* ssl, const std::string& host, bool ip) {
  void* cert = a.SSL_get0_peer_certificate(ssl);
  if (cert == nullptr) return false;
  if (a.X509_cmp_current_time(a.X509_get0_notBefore(cert)) >= 0) return false;
  if (a.X509_cmp_current_time(a.X509_get0_notAfter(cert)) <= 0) return false;
  return ip ? a.X509_check_ip_asc(cert, host.c_str(), 0) == 1
            : a.X509_check_host(cert, host.c_str(), host.size(), 0, nullptr) == 1;
}

}  // namespace

std::string tls_session_key(const std::string& host, uint16_t port) {
  const Api& a = symbols();  // getters only: no OpenSSL initialisation
  std::string key = "v1 host=";
  append_escaped(key, host);
  key += " port=" + std::to_string(port) + " sni=";
  if (is_ip_literal(host)) {
    key += "-";
  } else {
    append_escaped(key, host);
  }
  if (!a.bound) return key + " openssl=unloaded";
  key += " openssl=" + std::to_string(a.OpenSSL_version_num());
  const char* file_env = a.X509_get_default_cert_file_env();
  const char* dir_env = a.X509_get_default_cert_dir_env();
  const char* file = file_env != nullptr ? pinta::env::get(file_env) : nullptr;
  const char* dir = dir_env != nullptr ? pinta::env::get(dir_env) : nullptr;
  key += " cert_file=";
  append_escaped(key, file != nullptr ? file : "(default)");
  key += " cert_dir=";
  append_escaped(key, dir != nullptr ? dir : "(default)");
  if (file == nullptr || *file == '\0') file = a.X509_get_default_cert_file();
  if (dir == nullptr || *dir == '\0') dir = a.X509_get_default_cert_dir();
  key += " file_id=";
  append_identity(key, file);
  key += " dir_id=";
  // SSL_CERT_DIR may be a list (':'-separated): every directory's identity counts.
  std::string_view dirs = dir != nullptr ? dir : "";
  while (!dirs.empty()) {
    size_t colon = dirs.find(':');
    std::string one(dirs.substr(0, colon));
    append_identity(key, one.c_str());
    dirs.remove_prefix(colon == std::string_view::npos ? dirs.size() : colon + 1);
  }
  return key;
}

Result<std::unique_ptr<TlsConnection>> tls_connect(int fd, const std::string& host, uint16_t port,
                                                   TlsSessionCache* sessions, Deadline deadline) {
  const Api& a = api();
  if (!a.loaded) return make_error(ErrorCode::kUnavailable, a.load_error);
  a.ERR_clear_error();
  void* ctx = a.SSL_CTX_new(a.TLS_client_method());
  if (ctx == nullptr) return make_error(ErrorCode::kUnavailable, "SSL_CTX_new failed");
  void* ssl = nullptr;
  auto state = std::make_unique<ConnState>();
  state->a = &a;
  state->ctx = ctx;
  auto fail = [&](ErrorCode code, std::string message) -> Error {
    if (ssl != nullptr) a.SSL_free(ssl);
    a.SSL_CTX_free(ctx);
    return make_error(code, std::move(message));
  };
  a.SSL_CTX_set_verify(ctx, kSslVerifyPeer, nullptr);
  // The trust store is filled by verify_chain when a chain is actually verified (default verify
  // paths: SSL_CERT_FILE and SSL_CERT_DIR honoured, OpenSSL X509_get_default_cert_file_env).
  a.SSL_CTX_set_cert_verify_callback(ctx, &verify_chain, state.get());
  a.SSL_CTX_ctrl(ctx, kSslCtrlSetMinProtoVersion, kTls12Version, nullptr);
  if (sessions != nullptr) {
    a.SSL_CTX_ctrl(ctx, kSslCtrlSetSessCacheMode, kSslSessCacheClientNoInternalStore, nullptr);
    a.SSL_CTX_sess_set_new_cb(ctx, &on_new_session);
  }
  ssl = a.SSL_new(ctx);
  if (ssl == nullptr) return fail(ErrorCode::kUnavailable, "SSL_new failed");
  if (a.SSL_set_fd(ssl, fd) != 1) return fail(ErrorCode::kUnavailable, "SSL_set_fd failed");

  const bool is_ip = is_ip_literal(host);
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

  bool offered = false;
  if (sessions != nullptr) {
    state->sessions = sessions;
    state->key = tls_session_key(host, port);
    a.SSL_set_ex_data(ssl, 0, state.get());
    std::string der;
    try {
      der = sessions->load(state->key);
    } catch (...) {
      der.clear();
    }
    if (!der.empty() && der.size() <= kMaxSessionBytes) {
      const auto* p = reinterpret_cast<const unsigned char*>(der.data());
      void* session = a.d2i_SSL_SESSION(nullptr, &p, static_cast<long>(der.size()));
      if (session != nullptr) {
        const char* sni = a.SSL_SESSION_get0_hostname(session);
        const bool same_sni = is_ip ? sni == nullptr : (sni != nullptr && host == sni);
        const long age = static_cast<long>(::time(nullptr)) - a.SSL_SESSION_get_time(session);
        if (same_sni && age >= 0 && age <= kMaxSessionAgeSeconds &&
            a.SSL_SESSION_is_resumable(session) == 1) {
          offered = a.SSL_set_session(ssl, session) == 1;
        }
        a.SSL_SESSION_free(session);
      }
      a.ERR_clear_error();
    }
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
    // A kept session that led to a failed handshake is not offered again.
    if (offered) sessions->save(state->key, std::string());
    long verify = a.SSL_get_verify_result(ssl);
    if (verify != kX509VOk) {
      return fail(ErrorCode::kProtocol,
                  std::string("certificate rejected: ") + a.X509_verify_cert_error_string(verify));
    }
    return fail(ErrorCode::kProtocol, "TLS handshake failed: " + last_ssl_error(a));
  }
  if (a.SSL_session_reused(ssl) == 1 && !resumed_session_still_valid(a, ssl, host, is_ip)) {
    sessions->save(state->key, std::string());
    return fail(ErrorCode::kProtocol, "resumed TLS session no longer valid for " + host);
  }
  return std::unique_ptr<TlsConnection>(new OpenSslConnection(a, ctx, ssl, fd, std::move(state)));
}

}  // namespace pinta::http::detail
