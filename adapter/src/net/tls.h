// Private to pinta::http: a TLS client connection over an already connected non-blocking socket,
// with OpenSSL 3 loaded by dlopen (libssl.so.3, libcrypto.so.3) on first use, so that a dynamically
// linked program never links OpenSSL and plain-http or network-free events pay nothing for it; the
// fully static pinta-gemini links the OpenSSL archives instead (tls.cc, PINTA_TLS_STATIC).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "pinta/adapter/http.h"
#include "pinta/common/deadline.h"
#include "pinta/common/result.h"

namespace pinta::http::detail {

class TlsConnection {
 public:
  virtual ~TlsConnection() = default;
  // Writes everything or fails (kTimeout, kUnavailable).
  virtual Status write_all(const char* data, size_t size, Deadline deadline) = 0;
  // Reads up to `size` bytes; 0 = clean end of stream. Fails with kTimeout / kUnavailable /
  // kProtocol.
  virtual Result<size_t> read_some(char* data, size_t size, Deadline deadline) = 0;
};

// Handshake on `fd` (non-blocking, connected; not owned) verifying the peer certificate chain
// against the system default verify paths (OpenSSL honours SSL_CERT_FILE / SSL_CERT_DIR) and
// `host` (DNS name or IP literal). kUnavailable when OpenSSL cannot be loaded, kProtocol when the
// handshake or verification fails, kTimeout when the deadline passes.
//
// The CA certificates are loaded only when a chain has to be verified (a resumed session has none),
// and then the hashed CA directory first: the default CA bundle file (144 certificates on Debian
// 12) is parsed only when the directory does not verify the chain (or SSL_CERT_FILE names it), so
// the accepted chains are those of SSL_CTX_set_default_verify_paths.
//
// With `sessions`, a session saved under the same key (tls_session_key) is offered for resumption,
// and a resumed session is accepted only when its certificate still names `host` and is within
// its validity period; the session the server issues is handed to `sessions->save`.
Result<std::unique_ptr<TlsConnection>> tls_connect(int fd, const std::string& host, uint16_t port,
                                                   TlsSessionCache* sessions, Deadline deadline);

// The cache key for (host, port): host, port, SNI, SSL_CERT_FILE / SSL_CERT_DIR and the identity
// (device, inode, size, mtime, ctime) of the CA file and directory they select, the OpenSSL
// version and this key format's version. One line, printable ASCII.
std::string tls_session_key(const std::string& host, uint16_t port);

}  // namespace pinta::http::detail
