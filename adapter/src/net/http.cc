// HTTP/1.1 client on plain sockets (see http.h for why not cpp-httplib). One request per
// connection (Connection: close); every blocking step waits in poll() for at most what is left of
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
#include <cstring>
#include <ctime>
#include <memory>

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
  Result<size_t> read_some(char* buf, size_t size) override { return t_.read_some(buf, size, d_); }

 private:
  Transport& t_;
  const Deadline& d_;
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

// The response parser, over any byte source: everything it knows comes from the bytes, so
// parse_response (a buffer) and send (the connection) run the same code.
Result<Response> read_response(ByteSource& src, size_t max_body, bool head_request) {
  Reader r(src, max_body + kMaxHeaderBytes);
  size_t pos = 0;
  Response resp;
  // Status line and headers; interim 1xx responses are skipped.
  for (;;) {
    if (r.buf_.size() == pos) {
      auto more = r.fill();
      if (!more) return more.error();
      if (!*more)
        return make_error(ErrorCode::kUnavailable, "connection closed without a response");
    }
    auto status_line = read_line(r, pos, kMaxHeaderBytes, "status");
    if (!status_line) return status_line.error();
    const std::string& sl = *status_line;
    if (sl.size() < 12 || sl.compare(0, 7, "HTTP/1.") != 0 || sl[8] != ' ' || sl[9] < '1' ||
        sl[9] > '9' || sl[10] < '0' || sl[10] > '9' || sl[11] < '0' || sl[11] > '9' ||
        (sl.size() > 12 && sl[12] != ' ')) {
      return make_error(ErrorCode::kProtocol, "malformed status line");
    }
    resp.status = (sl[9] - '0') * 100 + (sl[10] - '0') * 10 + (sl[11] - '0');
    resp.headers.clear();
    size_t header_bytes = 0;
    for (;;) {
      auto line = read_line(r, pos, kMaxHeaderBytes, "headers");
      if (!line) return line.error();
      header_bytes += line->size();
      if (header_bytes > kMaxHeaderBytes)
        return make_error(ErrorCode::kProtocol, "response headers too large");
      if (line->empty()) break;
      size_t colon = line->find(':');
      // A bare CR or a NUL inside a field is invalid (RFC 9112 §2.2: reject or replace): rejected.
      if (colon == std::string::npos || colon == 0 ||
          line->find_first_of(std::string_view("\r\0", 2)) != std::string::npos)
        return make_error(ErrorCode::kProtocol, "malformed header line");
      resp.headers.emplace_back(line->substr(0, colon),
                                std::string(trim(std::string_view(*line).substr(colon + 1))));
    }
    if (resp.status >= 200 || resp.status == 101) break;
  }
  if (head_request || resp.status == 204 || resp.status == 304) return resp;

  std::string te = resp.header("transfer-encoding");
  std::string cl = resp.header("content-length");
  if (!te.empty() && !iequals(trim(te), "identity")) {
    if (!iequals(trim(te), "chunked"))
      return make_error(ErrorCode::kProtocol, "unsupported transfer-encoding " + te);
    for (;;) {
      auto size_line = read_line(r, pos, 1024, "chunk size");
      if (!size_line) return size_line.error();
      std::string_view sv = *size_line;
      sv = sv.substr(0, sv.find(';'));  // chunk extensions are ignored
      auto size = parse_size(sv, 16);
      if (!size) return make_error(ErrorCode::kProtocol, "malformed chunk size");
      if (*size == 0) break;  // trailers (if any) are not needed: the connection closes
      if (resp.body.size() + *size > max_body)
        return make_error(ErrorCode::kTooLarge, "response body over the cap");
      while (r.buf_.size() - pos < *size + 2) {
        auto more = r.fill();
        if (!more) return more.error();
        if (!*more) return truncated("chunk");
      }
      resp.body.append(r.buf_, pos, *size);
      if (r.buf_.compare(pos + *size, 2, "\r\n") != 0)
        return make_error(ErrorCode::kProtocol, "chunk not followed by CRLF");
      pos += *size + 2;
      r.buf_.erase(0, pos);
      pos = 0;
    }
    return resp;
  }
  if (!cl.empty()) {
    auto len = parse_size(cl, 10);
    if (!len) return make_error(ErrorCode::kProtocol, "malformed content-length");
    if (*len > max_body) return make_error(ErrorCode::kTooLarge, "content-length over the cap");
    while (r.buf_.size() - pos < *len) {
      auto more = r.fill();
      if (!more) return more.error();
      if (!*more) return truncated("body");
    }
    resp.body.assign(r.buf_, pos, *len);
    return resp;
  }
  // No length: the body runs to the end of the connection.
  for (;;) {
    if (r.buf_.size() - pos > max_body)
      return make_error(ErrorCode::kTooLarge, "response body over the cap");
    auto more = r.fill();
    if (!more) return more.error();
    if (!*more) break;
  }
  if (r.buf_.size() - pos > max_body)
    return make_error(ErrorCode::kTooLarge, "response body over the cap");
  resp.body.assign(r.buf_, pos, std::string::npos);
  return resp;
}

bool has_ctl(std::string_view s) {
  return std::any_of(s.begin(), s.end(),
                     [](char c) { return c == '\r' || c == '\n' || c == '\0'; });
}

Result<Response> send_impl(const Request& request, const Deadline& deadline) {
  auto url = parse_url(request.url);
  if (!url) return url.error();
  if (request.method.empty() || has_ctl(request.method) ||
      request.method.find(' ') != std::string::npos) {
    return make_error(ErrorCode::kInvalidArgument, "bad method");
  }
  for (const auto& [k, v] : request.headers) {
    if (k.empty() || has_ctl(k) || k.find(':') != std::string::npos || has_ctl(v)) {
      return make_error(ErrorCode::kInvalidArgument, "bad header " + k);
    }
  }
  auto port = parse_size(url->port, 10);
  if (!port || *port == 0 || *port > 65535)
    return make_error(ErrorCode::kInvalidArgument, "bad port");
  if (deadline.expired())
    return make_error(ErrorCode::kTimeout, "deadline passed before the request");

  auto addresses = resolve_host(url->host, static_cast<uint16_t>(*port), deadline);
  if (!addresses) return addresses.error();
  Result<Fd> fd = make_error(ErrorCode::kUnavailable, "no address");
  for (const Address& a : *addresses) {
    fd = connect_one(a, deadline);
    if (fd || fd.error().code == ErrorCode::kTimeout) break;
  }
  if (!fd) return fd.error();

  std::unique_ptr<detail::TlsConnection> tls;
  if (url->scheme == "https") {
    auto t = detail::tls_connect(fd->get(), url->host, static_cast<uint16_t>(*port),
                                 request.tls_sessions, deadline);
    if (!t) return t.error();
    tls = std::move(t.value());
  }
  Transport transport(std::move(fd.value()), std::move(tls));

  bool default_port = (url->scheme == "http" && url->port == "80") ||
                      (url->scheme == "https" && url->port == "443");
  std::string host_header =
      url->host.find(':') != std::string::npos ? "[" + url->host + "]" : url->host;
  if (!default_port) host_header += ":" + url->port;
  std::string head;
  head.reserve(256 + request.body.size());
  head.append(request.method)
      .append(" ")
      .append(url->target)
      .append(" HTTP/1.1\r\nHost: ")
      .append(host_header)
      .append("\r\n");
  for (const auto& [k, v] : request.headers) {
    if (iequals(k, "host") || iequals(k, "content-length") || iequals(k, "connection")) continue;
    head.append(k).append(": ").append(v).append("\r\n");
  }
  head.append("Content-Length: ")
      .append(std::to_string(request.body.size()))
      .append("\r\nConnection: close\r\n\r\n");
  head.append(request.body);
  Status sent = transport.write_all(head, deadline);
  if (!sent) return sent.error();
  TransportSource source(transport, deadline);
  return read_response(source, request.max_response_bytes, request.method == "HEAD");
}

}  // namespace

Result<Response> parse_response(std::string_view bytes, size_t max_body, bool head_request,
                                size_t chunk) {
  BufferSource source(bytes, chunk);
  return read_response(source, max_body, head_request);
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
