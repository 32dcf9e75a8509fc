// File: pinta/adapter/http.h
// The adapter's own HTTP/1.1 client (guard checks, OTLP export). Why not cpp-httplib: linking it
// pulls OpenSSL, zlib and brotli into every start (+4 ms per hook process, real-hosts.md "Cost of
// a hook process"). This client uses plain sockets for http:// and loads TLS only when an https://
// URL is actually used, so events that never touch the network pay nothing.
//
// One Deadline covers the whole exchange: DNS, connect, TLS handshake, send and read.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pinta/common/deadline.h"
#include "pinta/common/result.h"

namespace pinta::http {

struct Url {
  std::string scheme;  // "http" | "https"
  std::string host;    // without brackets for IPv6 literals
  std::string port;    // defaulted from the scheme when absent
  std::string target;  // path + query, at least "/"
};
// Accepts http:// and https:// URLs only; userinfo is rejected (secrets do not belong in URLs).
Result<Url> parse_url(std::string_view text);

using Headers = std::vector<std::pair<std::string, std::string>>;

// Where an https client keeps one TLS session between processes, so that the next process can
// resume it (an abbreviated handshake: no certificate chain sent, parsed or verified). The key
// names everything the session's verification depended on (host, port, SNI, trust settings and
// the CA files' identity, TLS library version): a session is offered only under the same key.
// Implementations must not throw.
class TlsSessionCache {
 public:
  virtual ~TlsSessionCache() = default;
  // The DER session saved under exactly `key`, or "" (none, unreadable, another key).
  virtual std::string load(const std::string& key) = 0;
  // Keeps `der` under `key` (may be deferred); an empty `der` forgets the session.
  virtual void save(const std::string& key, std::string der) = 0;
};

// What send() accepts in a request header (anything else: kInvalidArgument, nothing sent, so a
// configured value can never split the request or add a header). A name is a token (RFC 9110
// §5.1: letters, digits, !#$%&'*+-.^_`|~). A value holds no control character but HTAB: CR, LF,
// NUL, the other C0 controls and DEL are refused (RFC 9110 §5.5 field-value); octets 0x80-0xFF
// (obs-text) pass, as RFC 9110 allows, and so does leading or trailing whitespace (which a
// receiver strips: doctor warns about both in a secret).
bool valid_header_name(std::string_view name);
bool valid_header_value(std::string_view value);

struct Request {
  std::string method = "POST";
  std::string url;
  Headers headers;  // Host, Content-Length and Connection: close are added by send()
  std::string body;
  size_t max_response_bytes = 1u << 20;     // larger responses fail with kTooLarge, unless:
  // true: a body over max_response_bytes is cut there (Response::body_truncated) and the rest is
  // not read; the status and headers stand (the OTLP export: a 2xx is success whatever follows).
  bool truncate_body = false;
  TlsSessionCache* tls_sessions = nullptr;  // https only; null: every handshake is a full one
};

struct Response {
  int status = 0;
  Headers headers;
  std::string body;
  bool body_truncated = false;  // Request::truncate_body: the body went over the cap and was cut
  // Case-insensitive lookup; "" when absent.
  std::string header(std::string_view name) const;
};

// The response parser send() runs over the connection, here over bytes already received (no
// I/O): the status line, headers (1xx interim responses skipped), then a body by
// Transfer-Encoding: chunked, Content-Length or the end of the bytes; at most `max_body` body
// bytes (kTooLarge; with `truncate_body` the body cut there instead, Response::body_truncated),
// 64 KiB of headers (kProtocol). `chunk` > 0 hands the bytes to the parser in
// pieces of at most that size, as a socket's reads might; the result must not depend on it.
// `head_request`: a response to HEAD has no body.
Result<Response> parse_response(std::string_view bytes, size_t max_body,
                                bool head_request = false, size_t chunk = 0,
                                bool truncate_body = false);

// Error codes: kInvalidArgument (bad URL), kUnavailable (DNS failure, refused, reset, TLS load
// failure), kTimeout (deadline passed), kProtocol (malformed response, certificate rejected),
// kTooLarge. Never throws; never blocks past `deadline` (plus scheduling noise).
Result<Response> send(const Request& request, Deadline deadline);

// What a TLS session's verification depended on, for `host`:`port` in this process's
// environment: host, port, SNI, SSL_CERT_FILE / SSL_CERT_DIR and the identity of the CA files they
// select, the TLS library's version. One line of printable ASCII. Two processes with the same key
// verify a server the same way.
std::string tls_trust_key(const std::string& host, uint16_t port);

// An HTTP/1.1 persistent connection (RFC 9112 §9.3) for a long-lived caller (the guard keeper,
// guard_keeper.h): send() reuses the open connection when it goes to the same scheme, host and
// port, is younger than `max_age` and is still idle (nothing arrived since the last response, no
// end of stream); otherwise it connects anew. The connection is kept only after a response that
// was framed (Content-Length, chunked), HTTP/1.1 and without "Connection: close". A kept
// connection that the server closed while idle (no response byte before end of stream or reset)
// is retried once on a new connection within the same deadline. One request at a time.
class Connection {
 public:
  explicit Connection(std::chrono::seconds max_age = std::chrono::seconds(300));
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // The same contract as http::send.
  Result<Response> send(const Request& request, Deadline deadline);
  // Connects (DNS, TCP, TLS) to the origin of `request` without sending it, so that a later
  // send() finds the connection open; an open connection to that origin is kept as it is.
  Status open(const Request& request, Deadline deadline);
  bool is_open() const;
  // Requests sent over the connection open now (0 when none is open).
  int uses() const;
  void close();

 private:
  struct State;
  std::unique_ptr<State> s_;
  std::chrono::seconds max_age_;
};

}  // namespace pinta::http
