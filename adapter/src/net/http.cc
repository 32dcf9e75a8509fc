// HTTP/1.1 client on plain sockets (see http.h for why not cpp-httplib). send(): one request per
// connection (Connection: close); Connection: a kept connection for a long-lived caller. Every
// blocking step waits in poll() for at most what is left of
// the caller's Deadline.
#include "pinta/adapter/http.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <memory>
#include <string_view>
#include <vector>

#include "pinta/adapter/resolver.h"
#include "tls.h"
#include "wait.h"

namespace pinta::http {
namespace {

constexpr size_t kMaxHeaderBytes = 64u << 10;

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// Waits until `fd` is ready for `events` (wait.h). kTimeout when the deadline passes first.
Status wait_fd(int fd, short events, const Deadline& deadline) {
  const int e = detail::wait_ready(fd, events, deadline);
  if (e == 0) return {};
  if (e == ETIMEDOUT) return make_error(ErrorCode::kTimeout, "deadline passed");
  return make_error(ErrorCode::kUnavailable, std::string("poll: ") + std::strerror(e));
}

class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      if (fd_ >= 0) ::close(fd_);
      fd_ = o.fd_;
      o.fd_ = -1;
    }
    return *this;
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// ---- name resolution: resolver.h (no getaddrinfo: it loads NSS modules into the static adapter)

using Address = SocketAddress;

// ---- connection --------------------------------------------------------------------------

Result<Fd> connect_one(const Address& a, const Deadline& deadline) {
  Fd fd(::socket(a.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (fd.get() < 0)
    return make_error(ErrorCode::kUnavailable, std::string("socket: ") + std::strerror(errno));
  int one = 1;
  (void)::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&a.addr), a.len) != 0) {
    if (errno != EINPROGRESS && errno != EINTR) {
      return make_error(ErrorCode::kUnavailable, std::string("connect: ") + std::strerror(errno));
    }
    Status ready = wait_fd(fd.get(), POLLOUT, deadline);
    if (!ready) return ready.error();
    int err = 0;
    socklen_t len = sizeof err;
    if (::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
    if (err != 0)
      return make_error(ErrorCode::kUnavailable, std::string("connect: ") + std::strerror(err));
  }
  return fd;
}

// Plain or TLS byte stream over a connected socket.
class Transport {
 public:
  Transport(Fd fd, std::unique_ptr<detail::TlsConnection> tls)
      : fd_(std::move(fd)), tls_(std::move(tls)) {}

  Status write_all(const std::string& data, const Deadline& deadline) {
    if (tls_) return tls_->write_all(data.data(), data.size(), deadline);
    size_t done = 0;
    while (done < data.size()) {
      ssize_t n = ::send(fd_.get(), data.data() + done, data.size() - done, MSG_NOSIGNAL);
      if (n > 0) {
        done += static_cast<size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        Status ready = wait_fd(fd_.get(), POLLOUT, deadline);
        if (!ready) return ready;
        continue;
      }
      return make_error(ErrorCode::kUnavailable, std::string("send: ") + std::strerror(errno));
    }
    return {};
  }

  Result<size_t> read_some(char* buf, size_t size, const Deadline& deadline) {
    if (tls_) return tls_->read_some(buf, size, deadline);
    for (;;) {
      ssize_t n = ::recv(fd_.get(), buf, size, 0);
      if (n >= 0) return static_cast<size_t>(n);
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        Status ready = wait_fd(fd_.get(), POLLIN, deadline);
        if (!ready) return ready.error();
        continue;
      }
      return make_error(ErrorCode::kUnavailable, std::string("recv: ") + std::strerror(errno));
    }
  }

  // True when a kept connection can carry another request: nothing arrived since the last
  // response (a TLS 1.3 session ticket is consumed and does not count), no end of stream, no error.
  bool still_idle() {
    struct pollfd p {
      fd_.get(), static_cast<short>(POLLIN | POLLRDHUP), 0
    };
    const int r = ::poll(&p, 1, 0);
    if (r == 0) return true;
    if (r < 0 || (p.revents & (POLLERR | POLLHUP | POLLRDHUP | POLLNVAL)) != 0) return false;
    char b[512];
    auto n = read_some(b, sizeof b, Deadline(Deadline::Clock::now()));
    return !n && n.error().code == ErrorCode::kTimeout;
  }

 private:
  Fd fd_;
  std::unique_ptr<detail::TlsConnection> tls_;
};

// ---- response parsing ----------------------------------------------------------------------

// Where the parser's bytes come from: the connection (send) or a buffer (parse_response).
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Up to `size` bytes into buf; 0 at end of stream.
  virtual Result<size_t> read_some(char* buf, size_t size) = 0;
};

class TransportSource final : public ByteSource {
 public:
  TransportSource(Transport& t, const Deadline& d) : t_(t), d_(d) {}
  Result<size_t> read_some(char* buf, size_t size) override {
    auto n = t_.read_some(buf, size, d_);
    if (n) received_ += *n;
    return n;
  }
  size_t received() const { return received_; }

 private:
  Transport& t_;
  const Deadline& d_;
  size_t received_ = 0;
};

// Bytes already received, handed out in pieces of at most `chunk` (0: as large as asked).
class BufferSource final : public ByteSource {
 public:
  BufferSource(std::string_view bytes, size_t chunk) : bytes_(bytes), chunk_(chunk) {}
  Result<size_t> read_some(char* buf, size_t size) override {
    size_t n = std::min(size, bytes_.size() - pos_);
    if (chunk_ > 0) n = std::min(n, chunk_);
    std::memcpy(buf, bytes_.data() + pos_, n);
    pos_ += n;
    return n;
  }

 private:
  std::string_view bytes_;
  size_t chunk_;
  size_t pos_ = 0;
};

// Buffered reader over a byte source with a total byte cap.
class Reader {
 public:
  Reader(ByteSource& src, size_t cap) : src_(src), cap_(cap) {}

  // Reads more bytes into buf_. Returns false at end of stream.
  Result<bool> fill() {
    if (total_ > cap_) return make_error(ErrorCode::kTooLarge, "response larger than the cap");
    char tmp[16384];
    auto n = src_.read_some(tmp, sizeof tmp);
    if (!n) return n.error();
    if (*n == 0) return false;
    total_ += *n;
    if (total_ > cap_) return make_error(ErrorCode::kTooLarge, "response larger than the cap");
    buf_.append(tmp, *n);
    return true;
  }

  std::string buf_;

 private:
  ByteSource& src_;
  size_t cap_;
  size_t total_ = 0;
};

Error truncated(const char* what) {
  return make_error(ErrorCode::kProtocol, std::string("connection closed in ") + what);
}

// Reads one line ending in CRLF (or LF) from reader.buf_ starting at pos; returns it without EOL.
Result<std::string> read_line(Reader& r, size_t& pos, size_t max, const char* what) {
  for (;;) {
    size_t eol = r.buf_.find('\n', pos);
    // The cap holds whatever the reads delivered at once (a long line found whole in one read
    // is as long as one that arrives in pieces).
    if (eol != std::string::npos && eol - pos > max)
      return make_error(ErrorCode::kProtocol, std::string(what) + " line too long");
    if (eol != std::string::npos) {
      std::string line = r.buf_.substr(pos, eol - pos);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      pos = eol + 1;
      return line;
    }
    if (r.buf_.size() - pos > max)
      return make_error(ErrorCode::kProtocol, std::string(what) + " line too long");
    auto more = r.fill();
    if (!more) return more.error();
    if (!*more) return truncated(what);
  }
}

Result<size_t> parse_size(std::string_view s, int base) {
  s = trim(s);
  if (s.empty() || s.size() > 15) return make_error(ErrorCode::kProtocol, "bad length");
  size_t v = 0;
  for (char c : s) {
    int d = (c >= '0' && c <= '9')                 ? c - '0'
            : (base == 16 && c >= 'a' && c <= 'f') ? c - 'a' + 10
            : (base == 16 && c >= 'A' && c <= 'F') ? c - 'A' + 10
                                                   : -1;
    if (d < 0) return make_error(ErrorCode::kProtocol, "bad length");
    v = v * static_cast<size_t>(base) + static_cast<size_t>(d);
  }
  return v;
}

bool is_tchar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// The body framing a response's header fields announce (RFC 9112 §6). Every Content-Length field
// and every element of a Content-Length list must be 1*DIGIT (no sign, no inner space; empty
// elements are refused) and all of them must name the same length: identical duplicates are
// taken as that one length (RFC 9110 §8.6 lets a recipient do so), differing ones are a protocol
// error (RFC 9112 §6.3: unrecoverable). Content-Length together with Transfer-Encoding is a
// protocol error too (§6.3 item 3: a sign of smuggling; a client may not trust either). The
// Transfer-Encoding fields, joined, must be exactly "chunked" or "identity" (legacy: as absent).
struct Framing {
  bool chunked = false;
  bool has_length = false;
  size_t length = 0;
};

Result<Framing> response_framing(const Response& resp) {
  Framing f;
  bool has_te = false, te_identity_only = true;
  std::vector<std::string_view> codings;
  std::string length_digits;  // the announced length, leading zeros removed
  for (const auto& [name, value] : resp.headers) {
    const bool is_cl = iequals(name, "content-length");
    const bool is_te = iequals(name, "transfer-encoding");
    if (!is_cl && !is_te) continue;
    std::string_view list = value;
    if (is_te) has_te = true;
    if (trim(list).empty()) return make_error(ErrorCode::kProtocol, "empty " + name);
    for (;;) {
      const size_t comma = list.find(',');
      std::string_view element = trim(list.substr(0, comma));
      if (is_cl) {
        if (element.empty() || element.find_first_not_of("0123456789") != std::string_view::npos)
          return make_error(ErrorCode::kProtocol, "malformed content-length");
        const size_t nz = element.find_first_not_of('0');
        const std::string_view digits = nz == std::string_view::npos ? "0" : element.substr(nz);
        if (f.has_length && digits != length_digits)
          return make_error(ErrorCode::kProtocol, "conflicting content-length values");
        f.has_length = true;
        length_digits = std::string(digits);
      } else if (!element.empty()) {
        codings.push_back(element);
        te_identity_only = te_identity_only && iequals(element, "identity");
      }
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
    }
  }
  if (has_te && f.has_length)
    return make_error(ErrorCode::kProtocol, "both content-length and transfer-encoding");
  if (has_te && (codings.empty() || !te_identity_only)) {
    if (codings.size() != 1 || !iequals(codings[0], "chunked"))
      return make_error(ErrorCode::kProtocol, "unsupported transfer-encoding");
    f.chunked = true;
  }
  if (f.has_length) {
    // Over 15 digits is past any cap this client has: the length saturates (kTooLarge below).
    f.length = SIZE_MAX;
    if (length_digits.size() <= 15) {
      f.length = 0;
      for (char c : length_digits) f.length = f.length * 10 + static_cast<size_t>(c - '0');
    }
  }
  return f;
}

// The response parser, over any byte source: everything it knows comes from the bytes, so
// parse_response (a buffer) and send (the connection) run the same code.
// `reusable` (optional) is set when the response was framed (Content-Length, chunked, or no body
// by rule), came as HTTP/1.1 without "Connection: close", and no byte followed it: the connection
// can carry the next request (RFC 9112 §9.3).
// One parser reads one response, in phases: the head (status line and header fields, interim
// 1xx skipped), then the body as its framing says (chunked, a length, or to the end).
class ResponseParser {
 public:
  ResponseParser(ByteSource& src, size_t max_body, bool* reusable, bool truncate_body)
      : r_(src, max_body + kMaxHeaderBytes), max_body_(max_body), reusable_(reusable),
        truncate_body_(truncate_body) {
    if (reusable_ != nullptr) *reusable_ = false;
  }

  Result<Response> read(bool head_request) {
    if (Status head = read_head(); !head) return head.error();
    // Checked on every final response, bodiless ones too: a server that announces two lengths is
    // not trusted with a kept connection either.
    auto framing = response_framing(resp_);
    if (!framing) return framing.error();
    if (head_request || resp_.status == 204 || resp_.status == 304) {
      framed_end();
      return std::move(resp_);
    }
    if (framing->chunked) return read_chunked();
    if (framing->has_length) return read_sized(framing->length);
    return read_to_close();
  }

 private:
  // Sets *reusable_ at the end of a framed response (see above).
  void framed_end() {
    if (reusable_ == nullptr) return;
    std::string conn = resp_.header("connection");
    bool close = false;
    std::string_view c = conn;
    while (!c.empty()) {
      size_t comma = c.find(',');
      if (iequals(trim(c.substr(0, comma)), "close")) close = true;
      c.remove_prefix(comma == std::string_view::npos ? c.size() : comma + 1);
    }
    *reusable_ = http11_ && !close && pos_ == r_.buf_.size();
  }

  // Status line and headers; interim 1xx responses are skipped.
  Status read_head() {
    for (;;) {
      if (r_.buf_.size() == pos_) {
        auto more = r_.fill();
        if (!more) return more.error();
        if (!*more)
          return make_error(ErrorCode::kUnavailable, "connection closed without a response");
      }
      auto status_line = read_line(r_, pos_, kMaxHeaderBytes, "status");
      if (!status_line) return status_line.error();
      const std::string& sl = *status_line;
      if (sl.size() < 12 || sl.compare(0, 7, "HTTP/1.") != 0 || sl[8] != ' ' || sl[9] < '1' ||
          sl[9] > '9' || sl[10] < '0' || sl[10] > '9' || sl[11] < '0' || sl[11] > '9' ||
          (sl.size() > 12 && sl[12] != ' ')) {
        return make_error(ErrorCode::kProtocol, "malformed status line");
      }
      resp_.status = (sl[9] - '0') * 100 + (sl[10] - '0') * 10 + (sl[11] - '0');
      http11_ = sl[7] == '1';
      if (Status fields = read_header_fields(); !fields) return fields;
      if (resp_.status >= 200 || resp_.status == 101) return {};
    }
  }

  // The header fields of one response, up to the empty line.
  Status read_header_fields() {
    resp_.headers.clear();
    size_t header_bytes = 0;
    for (;;) {
      auto line = read_line(r_, pos_, kMaxHeaderBytes, "headers");
      if (!line) return line.error();
      header_bytes += line->size();
      if (header_bytes > kMaxHeaderBytes)
        return make_error(ErrorCode::kProtocol, "response headers too large");
      if (line->empty()) return {};
      size_t colon = line->find(':');
      // A bare CR or a NUL inside a field is invalid (RFC 9112 §2.2: reject or replace): rejected.
      // The name must be a token (RFC 9110 §5.1): no whitespace before the colon (RFC 9112 §5.1),
      // no obs-fold continuation line (a line starting with whitespace, §5.2): both refused.
      if (colon == std::string::npos || colon == 0 ||
          line->find_first_of(std::string_view("\r\0", 2)) != std::string::npos ||
          !std::all_of(line->begin(), line->begin() + static_cast<std::ptrdiff_t>(colon), is_tchar))
        return make_error(ErrorCode::kProtocol, "malformed header line");
      resp_.headers.emplace_back(line->substr(0, colon),
                                 std::string(trim(std::string_view(*line).substr(colon + 1))));
    }
  }

  // A body over the cap: an error, or (truncate_body) the response with the body cut at the cap
  // and the rest never read (the connection is not reused).
  Result<Response> over_cap(const char* what) {
    if (!truncate_body_) return make_error(ErrorCode::kTooLarge, what);
    if (resp_.body.size() > max_body_) resp_.body.resize(max_body_);
    resp_.body_truncated = true;
    if (reusable_ != nullptr) *reusable_ = false;
    return std::move(resp_);
  }

  Result<Response> fill_failed(const Error& e) {
    if (e.code == ErrorCode::kTooLarge) return over_cap("response larger than the cap");
    return e;
  }

  Result<Response> read_chunked() {
    for (;;) {
      auto size_line = read_line(r_, pos_, 1024, "chunk size");
      if (!size_line) return size_line.error();
      std::string_view sv = *size_line;
      sv = sv.substr(0, sv.find(';'));  // chunk extensions are ignored
      auto size = parse_size(sv, 16);
      if (!size) return make_error(ErrorCode::kProtocol, "malformed chunk size");
      if (*size == 0) break;
      if (resp_.body.size() + *size > max_body_) return over_cap("response body over the cap");
      while (r_.buf_.size() - pos_ < *size + 2) {
        auto more = r_.fill();
        if (!more) return fill_failed(more.error());
        if (!*more) return truncated("chunk");
      }
      resp_.body.append(r_.buf_, pos_, *size);
      if (r_.buf_.compare(pos_ + *size, 2, "\r\n") != 0)
        return make_error(ErrorCode::kProtocol, "chunk not followed by CRLF");
      pos_ += *size + 2;
      r_.buf_.erase(0, pos_);
      pos_ = 0;
    }
    if (reusable_ != nullptr) {
      // Trailer fields (ignored) up to the empty line that ends the message.
      for (;;) {
        auto trailer = read_line(r_, pos_, kMaxHeaderBytes, "trailer");
        if (!trailer) return std::move(resp_);  // the body is whole; the connection is not reused
        if (trailer->empty()) break;
      }
      framed_end();
    }
    return std::move(resp_);
  }

  Result<Response> read_sized(size_t len) {
    if (len > max_body_) return over_cap("content-length over the cap");
    while (r_.buf_.size() - pos_ < len) {
      auto more = r_.fill();
      if (!more) return more.error();
      if (!*more) return truncated("body");
    }
    resp_.body.assign(r_.buf_, pos_, len);
    pos_ += len;
    framed_end();
    return std::move(resp_);
  }

  // No length: the body runs to the end of the connection.
  Result<Response> read_to_close() {
    auto cut = [&]() {
      resp_.body.assign(r_.buf_, pos_, max_body_);
      return over_cap("response body over the cap");
    };
    for (;;) {
      if (r_.buf_.size() - pos_ > max_body_) return cut();
      auto more = r_.fill();
      if (!more) {
        if (more.error().code == ErrorCode::kTooLarge) return cut();
        return more.error();
      }
      if (!*more) break;
    }
    if (r_.buf_.size() - pos_ > max_body_) return cut();
    resp_.body.assign(r_.buf_, pos_, std::string::npos);
    return std::move(resp_);
  }

  Reader r_;
  size_t pos_ = 0;
  Response resp_;
  bool http11_ = false;
  const size_t max_body_;
  bool* const reusable_;
  const bool truncate_body_;
};

Result<Response> read_response(ByteSource& src, size_t max_body, bool head_request,
                               bool* reusable = nullptr, bool truncate_body = false) {
  return ResponseParser(src, max_body, reusable, truncate_body).read(head_request);
}

struct Target {
  Url url;
  uint16_t port = 0;
};

// The request's URL, method and headers checked; nothing sent.
Result<Target> check_request(const Request& request) {
  auto url = parse_url(request.url);
  if (!url) return url.error();
  if (!valid_header_name(request.method))  // a method is a token too (RFC 9110 §9.1)
    return make_error(ErrorCode::kInvalidArgument, "bad method");
  for (const auto& [k, v] : request.headers) {
    // The name is not echoed: a refused name may hold anything (a secret pasted in the wrong place).
    if (!valid_header_name(k)) return make_error(ErrorCode::kInvalidArgument, "bad header name");
    if (!valid_header_value(v)) return make_error(ErrorCode::kInvalidArgument, "bad value of header " + k);
  }
  auto port = parse_size(url->port, 10);
  if (!port || *port == 0 || *port > 65535)
    return make_error(ErrorCode::kInvalidArgument, "bad port");
  Target t;
  t.url = std::move(url.value());
  t.port = static_cast<uint16_t>(*port);
  return t;
}

// DNS, connect and (https) the TLS handshake.
Result<std::unique_ptr<Transport>> open_transport(const Target& t, TlsSessionCache* sessions,
                                                  const Deadline& deadline) {
  if (deadline.expired())
    return make_error(ErrorCode::kTimeout, "deadline passed before the request");
  auto addresses = resolve_host(t.url.host, t.port, deadline);
  if (!addresses) return addresses.error();
  Result<Fd> fd = make_error(ErrorCode::kUnavailable, "no address");
  for (const Address& a : *addresses) {
    fd = connect_one(a, deadline);
    if (fd || fd.error().code == ErrorCode::kTimeout) break;
  }
  if (!fd) return fd.error();

  std::unique_ptr<detail::TlsConnection> tls;
  if (t.url.scheme == "https") {
    auto tc = detail::tls_connect(fd->get(), t.url.host, t.port, sessions, deadline);
    if (!tc) return tc.error();
    tls = std::move(tc.value());
  }
  return std::make_unique<Transport>(std::move(fd.value()), std::move(tls));
}

// The request as sent: Host and Content-Length from us, and "Connection: close" unless the
// connection is to be kept.
std::string build_message(const Target& t, const Request& request, bool keep_alive) {
  const Url& url = t.url;
  bool default_port = (url.scheme == "http" && url.port == "80") ||
                      (url.scheme == "https" && url.port == "443");
  std::string host_header =
      url.host.find(':') != std::string::npos ? "[" + url.host + "]" : url.host;
  if (!default_port) host_header += ":" + url.port;
  std::string head;
  head.reserve(256 + request.body.size());
  head.append(request.method)
      .append(" ")
      .append(url.target)
      .append(" HTTP/1.1\r\nHost: ")
      .append(host_header)
      .append("\r\n");
  for (const auto& [k, v] : request.headers) {
    if (iequals(k, "host") || iequals(k, "content-length") || iequals(k, "connection")) continue;
    head.append(k).append(": ").append(v).append("\r\n");
  }
  head.append("Content-Length: ").append(std::to_string(request.body.size())).append("\r\n");
  if (!keep_alive) head.append("Connection: close\r\n");
  head.append("\r\n");
  head.append(request.body);
  return head;
}

Result<Response> send_impl(const Request& request, const Deadline& deadline) {
  auto target = check_request(request);
  if (!target) return target.error();
  auto transport = open_transport(*target, request.tls_sessions, deadline);
  if (!transport) return transport.error();
  Status sent = (*transport)->write_all(build_message(*target, request, false), deadline);
  if (!sent) return sent.error();
  TransportSource source(**transport, deadline);
  return read_response(source, request.max_response_bytes, request.method == "HEAD", nullptr,
                       request.truncate_body);
}

}  // namespace

namespace {

std::string origin_of(const Target& t) { return t.url.scheme + "://" + t.url.host + ":" + t.url.port; }

}  // namespace

struct Connection::State {
  std::string origin;  // scheme://host:port of the open transport
  std::unique_ptr<Transport> transport;
  Deadline::Clock::time_point opened{};
  int uses = 0;

  void close() {
    transport.reset();
    uses = 0;
  }

  // Keeps the open transport when it goes to `t`'s origin, is younger than `max_age` and still
  // idle; otherwise closes it and connects anew. `reused` says which.
  Status ensure_open(const Target& t, TlsSessionCache* sessions, const Deadline& deadline,
                     std::chrono::seconds max_age, bool& reused) {
    const std::string want = origin_of(t);
    reused = transport && origin == want && Deadline::Clock::now() - opened <= max_age &&
             transport->still_idle();
    if (reused) return {};
    close();
    auto fresh = open_transport(t, sessions, deadline);
    if (!fresh) return fresh.error();
    transport = std::move(fresh.value());
    origin = want;
    opened = Deadline::Clock::now();
    return {};
  }
};

Connection::Connection(std::chrono::seconds max_age)
    : s_(std::make_unique<State>()), max_age_(max_age) {}
Connection::~Connection() = default;

bool Connection::is_open() const { return s_->transport != nullptr; }
int Connection::uses() const { return s_->uses; }
void Connection::close() { s_->close(); }

std::string tls_trust_key(const std::string& host, uint16_t port) {
  return detail::tls_session_key(host, port);
}

Status Connection::open(const Request& request, Deadline deadline) {
  try {
    auto target = check_request(request);
    if (!target) return target.error();
    bool reused = false;
    return s_->ensure_open(*target, request.tls_sessions, deadline, max_age_, reused);
  } catch (...) {
    close();
    return make_error(ErrorCode::kInternal, "unexpected exception");
  }
}

Result<Response> Connection::send(const Request& request, Deadline deadline) {
  try {
    auto target = check_request(request);
    if (!target) return target.error();
    State& s = *s_;
    const std::string message = build_message(*target, request, true);
    const bool head = request.method == "HEAD";
    for (int attempt = 0;; ++attempt) {
      bool reused = false;
      Status ready = s.ensure_open(*target, request.tls_sessions, deadline, max_age_, reused);
      if (!ready) return ready.error();
      ++s.uses;
      Status sent = s.transport->write_all(message, deadline);
      Result<Response> resp = sent ? Result<Response>(Response{}) : Result<Response>(sent.error());
      bool reusable = false;
      size_t received = 0;
      if (sent) {
        TransportSource source(*s.transport, deadline);
        resp = read_response(source, request.max_response_bytes, head, &reusable,
                             request.truncate_body);
        received = source.received();
      }
      if (resp && reusable) return resp;
      close();
      // A kept connection the server closed while it was idle fails before any response byte
      // (reset, or end of stream): the request is sent once more on a new connection. A timeout
      // is not retried (the budget is spent), nor is a failure on a connection of our own making.
      const bool closed_under_us = !resp && resp.error().code != ErrorCode::kTimeout &&
                                   resp.error().code != ErrorCode::kTooLarge && received == 0;
      if (resp || !reused || attempt > 0 || !closed_under_us) return resp;
    }
  } catch (const std::bad_alloc&) {
    close();
    return make_error(ErrorCode::kInternal, "out of memory");
  } catch (...) {
    close();
    return make_error(ErrorCode::kInternal, "unexpected exception");
  }
}

bool valid_header_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), is_tchar);
}

bool valid_header_value(std::string_view value) {
  return std::none_of(value.begin(), value.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return (c < 0x20 && c != '\t') || c == 0x7f;
  });
}

Result<Response> parse_response(std::string_view bytes, size_t max_body, bool head_request,
                                size_t chunk, bool truncate_body) {
  BufferSource source(bytes, chunk);
  return read_response(source, max_body, head_request, nullptr, truncate_body);
}

std::string Response::header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (iequals(k, name)) return v;
  }
  return {};
}

Result<Url> parse_url(std::string_view text) {
  Url u;
  size_t sep = text.find("://");
  if (sep == std::string_view::npos)
    return make_error(ErrorCode::kInvalidArgument, "URL without scheme");
  std::string scheme(text.substr(0, sep));
  for (char& c : scheme) c = static_cast<char>((c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c);
  if (scheme != "http" && scheme != "https")
    return make_error(ErrorCode::kInvalidArgument, "URL scheme must be http or https");
  u.scheme = scheme;
  std::string_view rest = text.substr(sep + 3);
  size_t end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, end);
  std::string_view tail = end == std::string_view::npos ? std::string_view() : rest.substr(end);
  if (authority.find('@') != std::string_view::npos) {
    return make_error(ErrorCode::kInvalidArgument, "URL with user info is not accepted");
  }
  std::string_view host, port;
  if (!authority.empty() && authority.front() == '[') {
    size_t close = authority.find(']');
    if (close == std::string_view::npos)
      return make_error(ErrorCode::kInvalidArgument, "unterminated IPv6 literal");
    host = authority.substr(1, close - 1);
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':')
        return make_error(ErrorCode::kInvalidArgument, "junk after IPv6 literal");
      port = after.substr(1);
    }
    in6_addr v6{};
    if (::inet_pton(AF_INET6, std::string(host).c_str(), &v6) != 1) {
      return make_error(ErrorCode::kInvalidArgument, "bad IPv6 literal");
    }
  } else {
    size_t colon = authority.rfind(':');
    host = authority.substr(0, colon);
    if (colon != std::string_view::npos) port = authority.substr(colon + 1);
    for (char c : host) {
      bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '-' || c == '.' || c == '_';
      if (!ok) return make_error(ErrorCode::kInvalidArgument, "bad character in URL host");
    }
  }
  if (host.empty()) return make_error(ErrorCode::kInvalidArgument, "URL without host");
  if (!port.empty()) {
    auto p = parse_size(port, 10);
    if (!p || *p == 0 || *p > 65535) return make_error(ErrorCode::kInvalidArgument, "bad URL port");
    u.port = std::to_string(*p);
  } else if (authority.find(':') != std::string_view::npos && authority.front() != '[') {
    return make_error(ErrorCode::kInvalidArgument, "empty URL port");
  } else {
    u.port = u.scheme == "https" ? "443" : "80";
  }
  u.host = std::string(host);
  std::string target(tail.substr(0, tail.find('#')));
  if (target.empty() || target.front() == '?') target.insert(0, "/");
  for (char c : target) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) {
      return make_error(ErrorCode::kInvalidArgument,
                        "URL path contains spaces or control characters");
    }
  }
  u.target = std::move(target);
  return u;
}

Result<Response> send(const Request& request, Deadline deadline) {
  try {
    return send_impl(request, deadline);
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::kInternal, "out of memory");
  } catch (...) {
    return make_error(ErrorCode::kInternal, "unexpected exception");
  }
}

}  // namespace pinta::http
