// Private to pinta::http: a TLS client connection over an already connected non-blocking socket,
// with OpenSSL 3 loaded by dlopen (libssl.so.3, libcrypto.so.3) on first use, so that a dynamically
// linked program never links OpenSSL and plain-http or network-free events pay nothing for it; the
// fully static pinta-gemini links the OpenSSL archives instead (tls.cc, PINTA_TLS_STATIC).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

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
Result<std::unique_ptr<TlsConnection>> tls_connect(int fd, const std::string& host,
                                                   Deadline deadline);

}  // namespace pinta::http::detail
