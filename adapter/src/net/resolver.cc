// Name resolution without NSS: numeric, localhost, /etc/hosts, then a DNS stub (resolver.h).
#include "pinta/adapter/resolver.h"

#include <arpa/inet.h>
#include <poll.h>
#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "pinta/common/fs.h"

namespace pinta::http {
namespace {

constexpr uint16_t kTypeA = 1;
constexpr uint16_t kTypeCname = 5;
constexpr uint16_t kTypeAaaa = 28;
constexpr uint16_t kClassIn = 1;
constexpr size_t kMaxNameservers = 3;  // MAXNS in resolv.h

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Lower case, without one trailing dot.
std::string canonical(std::string_view name) {
  if (!name.empty() && name.back() == '.') name.remove_suffix(1);
  std::string out(name);
  for (char& c : out) c = lower(c);
  return out;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// Calls fn(fields) for each line of `text`, comments (`#`, and `;` when `semicolon`) removed.
template <typename Fn>
void for_each_line(std::string_view text, bool semicolon, Fn fn) {
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    size_t hash = line.find(semicolon ? std::string_view("#;") : std::string_view("#"));
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    auto f = fields(line);
    if (!f.empty()) fn(f);
  }
}

int small_int(std::string_view s, int lo, int hi, int fallback) {
  if (s.empty() || s.size() > 4) return fallback;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return fallback;
    v = v * 10 + (c - '0');
  }
  return std::clamp(v, lo, hi);
}

void set_port(SocketAddress& a, uint16_t port) {
  if (a.family == AF_INET)
    reinterpret_cast<sockaddr_in*>(&a.addr)->sin_port = htons(port);
  else
    reinterpret_cast<sockaddr_in6*>(&a.addr)->sin6_port = htons(port);
}

uint16_t random_id() {
  uint16_t v = 0;
  if (::getrandom(&v, sizeof v, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof v)) {
    v = static_cast<uint16_t>(std::chrono::steady_clock::now().time_since_epoch().count() ^
                              ::getpid());
  }
  return v;
}

// ---- wire format (RFC 1035 §4) ----

bool encode_name(std::string_view name, std::string& out) {
  if (name.empty() || name.size() > 253) return false;
  while (!name.empty()) {
    size_t dot = name.find('.');
    std::string_view label = name.substr(0, dot);
    if (label.empty() || label.size() > 63) return false;
    out.push_back(static_cast<char>(label.size()));
    out.append(label);
    name.remove_prefix(dot == std::string_view::npos ? name.size() : dot + 1);
  }
  out.push_back('\0');
  return true;
}

std::string build_query(uint16_t id, std::string_view name, uint16_t qtype) {
  std::string q;
  q.reserve(18 + name.size());
  q.push_back(static_cast<char>(id >> 8));
  q.push_back(static_cast<char>(id & 0xff));
  q.append("\x01\x00", 2);                          // RD
  q.append("\x00\x01\x00\x00\x00\x00\x00\x00", 8);  // QDCOUNT 1
  if (!encode_name(name, q)) return {};
  q.push_back(static_cast<char>(qtype >> 8));
  q.push_back(static_cast<char>(qtype & 0xff));
  q.append("\x00\x01", 2);  // IN
  return q;
}

uint16_t u16(std::string_view m, size_t at) {
  return static_cast<uint16_t>((static_cast<unsigned char>(m[at]) << 8) |
                               static_cast<unsigned char>(m[at + 1]));
}

// Reads a (possibly compressed) name at `at`; `next` gets the offset after it in place.
bool read_name(std::string_view m, size_t at, std::string& out, size_t& next) {
  out.clear();
  bool jumped = false;
  for (int hops = 0; hops < 64; ++hops) {
    if (at >= m.size()) return false;
    auto len = static_cast<unsigned char>(m[at]);
    if (len == 0) {
      if (!jumped) next = at + 1;
      return out.size() <= 255;
    }
    if ((len & 0xc0) == 0xc0) {
      if (at + 1 >= m.size()) return false;
      if (!jumped) next = at + 2;
      jumped = true;
      at = static_cast<size_t>(((len & 0x3f) << 8) | static_cast<unsigned char>(m[at + 1]));
      continue;
    }
    if ((len & 0xc0) != 0 || at + 1 + len > m.size()) return false;
    if (!out.empty()) out.push_back('.');
    for (size_t i = 0; i < len; ++i) out.push_back(lower(m[at + 1 + i]));
    at += 1 + len;
  }
  return false;
}

struct Answer {
  bool valid = false;  // a reply to our question
  int rcode = -1;
  bool truncated = false;
  std::vector<SocketAddress> addresses;
};

Answer parse_answer(std::string_view m, uint16_t id, const std::string& qname, uint16_t qtype) {
  Answer a;
  if (m.size() < 12 || u16(m, 0) != id) return a;
  uint16_t flags = u16(m, 2);
  if ((flags & 0x8000) == 0 || ((flags >> 11) & 0xf) != 0) return a;  // not a response / opcode
  if (u16(m, 4) != 1) return a;
  size_t at = 12;
  std::string name;
  if (!read_name(m, at, name, at) || at + 4 > m.size()) return a;
  if (name != qname || u16(m, at) != qtype || u16(m, at + 2) != kClassIn) return a;
  at += 4;
  a.valid = true;
  a.rcode = flags & 0xf;
  a.truncated = (flags & 0x0200) != 0;
  if (a.rcode != 0 || a.truncated) return a;
  std::vector<std::string> owners = {qname};  // the name and its CNAME chain
  const uint16_t ancount = u16(m, 6);
  for (uint16_t i = 0; i < ancount; ++i) {
    if (!read_name(m, at, name, at) || at + 10 > m.size()) break;
    uint16_t type = u16(m, at), klass = u16(m, at + 2), rdlen = u16(m, at + 8);
    at += 10;
    if (at + rdlen > m.size()) break;
    const bool ours = std::find(owners.begin(), owners.end(), name) != owners.end();
    if (ours && klass == kClassIn) {
      if (type == kTypeCname) {
        std::string target;
        size_t ignored = 0;
        if (read_name(m, at, target, ignored) && owners.size() < 16) owners.push_back(target);
      } else if (type == qtype && type == kTypeA && rdlen == 4) {
        SocketAddress s;
        auto* sa = reinterpret_cast<sockaddr_in*>(&s.addr);
        sa->sin_family = AF_INET;
        std::memcpy(&sa->sin_addr, m.data() + at, 4);
        s.len = sizeof(sockaddr_in);
        s.family = AF_INET;
        a.addresses.push_back(s);
      } else if (type == qtype && type == kTypeAaaa && rdlen == 16) {
        SocketAddress s;
        auto* sa = reinterpret_cast<sockaddr_in6*>(&s.addr);
        sa->sin6_family = AF_INET6;
        std::memcpy(&sa->sin6_addr, m.data() + at, 16);
        s.len = sizeof(sockaddr_in6);
        s.family = AF_INET6;
        a.addresses.push_back(s);
      }
    }
    at += rdlen;
  }
  return a;
}

// ---- transport ----

class Socket {
 public:
  explicit Socket(int fd) : fd_(fd) {}
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// ppoll() for `events` until `until` (nanosecond timeout: no rounding past it); false when it
// passed first (or poll failed).
bool wait_until(int fd, short events, Deadline::Clock::time_point until) {
  for (;;) {
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(until - Deadline::Clock::now())
                  .count();
    if (ns <= 0) return false;
    struct timespec left {
      static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)
    };
    struct pollfd p {
      fd, events, 0
    };
    int r = ::ppoll(&p, 1, &left, nullptr);
    if (r > 0) return true;
    if (r < 0 && errno != EINTR) return false;
  }
}

// One query over TCP (RFC 7766), for answers that did not fit a UDP datagram.
Answer tcp_query(const SocketAddress& ns, const std::string& query, uint16_t id,
                 const std::string& qname, uint16_t qtype, Deadline::Clock::time_point until) {
  Socket s(::socket(ns.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (s.get() < 0) return {};
  if (::connect(s.get(), reinterpret_cast<const sockaddr*>(&ns.addr), ns.len) != 0) {
    if (errno != EINPROGRESS || !wait_until(s.get(), POLLOUT, until)) return {};
    int err = 0;
    socklen_t len = sizeof err;
    if (::getsockopt(s.get(), SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) return {};
  }
  std::string framed;
  framed.push_back(static_cast<char>(query.size() >> 8));
  framed.push_back(static_cast<char>(query.size() & 0xff));
  framed += query;
  size_t sent = 0;
  while (sent < framed.size()) {
    ssize_t n = ::send(s.get(), framed.data() + sent, framed.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<size_t>(n);
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (!wait_until(s.get(), POLLOUT, until)) return {};
    } else {
      return {};
    }
  }
  std::string in;
  size_t want = 2;
  char buf[4096];
  while (in.size() < want) {
    ssize_t n = ::recv(s.get(), buf, sizeof buf, 0);
    if (n > 0) {
      in.append(buf, static_cast<size_t>(n));
      if (want == 2 && in.size() >= 2) want = 2 + u16(in, 0);
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (!wait_until(s.get(), POLLIN, until)) return {};
    } else {
      return {};
    }
  }
  return parse_answer(std::string_view(in).substr(2, want - 2), id, qname, qtype);
}

enum class Round { kAddresses, kNoSuchName, kServerFailed, kTimeout };

// A and AAAA for `qname` from one server, until `until`.
Round ask(const SocketAddress& ns, const std::string& qname, Deadline::Clock::time_point until,
          std::vector<SocketAddress>& out) {
  const uint16_t types[2] = {kTypeA, kTypeAaaa};
  uint16_t ids[2] = {random_id(), 0};
  do ids[1] = random_id();
  while (ids[1] == ids[0]);
  std::string queries[2] = {build_query(ids[0], qname, types[0]),
                            build_query(ids[1], qname, types[1])};
  if (queries[0].empty()) return Round::kNoSuchName;  // not a valid DNS name
  Socket s(::socket(ns.family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (s.get() < 0) return Round::kServerFailed;
  // Connected: the kernel drops datagrams from any other address or port.
  if (::connect(s.get(), reinterpret_cast<const sockaddr*>(&ns.addr), ns.len) != 0)
    return Round::kServerFailed;
  for (const auto& q : queries)
    if (::send(s.get(), q.data(), q.size(), 0) < 0) return Round::kServerFailed;
  Answer got[2];
  char buf[65536];
  while (!(got[0].valid && got[1].valid)) {
    if (!wait_until(s.get(), POLLIN, until)) return Round::kTimeout;
    ssize_t n = ::recv(s.get(), buf, sizeof buf, 0);
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      return Round::kServerFailed;  // e.g. ECONNREFUSED: nothing listens there
    }
    for (int i = 0; i < 2; ++i) {
      if (got[i].valid) continue;
      Answer a =
          parse_answer(std::string_view(buf, static_cast<size_t>(n)), ids[i], qname, types[i]);
      if (a.valid) got[i] = std::move(a);
    }
  }
  for (int i = 0; i < 2; ++i)
    if (got[i].truncated) got[i] = tcp_query(ns, queries[i], ids[i], qname, types[i], until);
  for (const Answer& a : got)
    if (!a.valid || (a.rcode != 0 && a.rcode != 3)) return Round::kServerFailed;
  if (got[0].rcode == 3 && got[1].rcode == 3) return Round::kNoSuchName;
  for (const Answer& a : got) out.insert(out.end(), a.addresses.begin(), a.addresses.end());
  return out.empty() ? Round::kNoSuchName : Round::kAddresses;  // NODATA: try the next candidate
}

}  // namespace

bool numeric_address(std::string_view host, uint16_t port, SocketAddress& out) {
  if (host.empty() || host.size() > 63) return false;
  char text[64];
  std::memcpy(text, host.data(), host.size());
  text[host.size()] = '\0';
  in_addr v4{};
  in6_addr v6{};
  out = SocketAddress{};
  if (::inet_pton(AF_INET, text, &v4) == 1) {
    auto* sa = reinterpret_cast<sockaddr_in*>(&out.addr);
    sa->sin_family = AF_INET;
    sa->sin_port = htons(port);
    sa->sin_addr = v4;
    out.len = sizeof(sockaddr_in);
    out.family = AF_INET;
    return true;
  }
  if (::inet_pton(AF_INET6, text, &v6) == 1) {
    auto* sa = reinterpret_cast<sockaddr_in6*>(&out.addr);
    sa->sin6_family = AF_INET6;
    sa->sin6_port = htons(port);
    sa->sin6_addr = v6;
    out.len = sizeof(sockaddr_in6);
    out.family = AF_INET6;
    return true;
  }
  return false;
}

ResolverConfig parse_resolv_conf(std::string_view text, uint16_t dns_port) {
  ResolverConfig c;
  for_each_line(text, /*semicolon=*/true, [&](const std::vector<std::string_view>& f) {
    if (f[0] == "nameserver" && f.size() >= 2 && c.nameservers.size() < kMaxNameservers) {
      std::string_view addr = f[1];
      size_t pct =
          addr.find('%');  // fe80::1%eth0: the zone needs if_nametoindex (NSS-free, but rare)
      if (pct != std::string_view::npos) return;
      SocketAddress a;
      if (numeric_address(addr, dns_port, a)) c.nameservers.push_back(a);
    } else if ((f[0] == "search" || f[0] == "domain") && f.size() >= 2) {
      c.search.clear();  // the last search/domain line wins
      for (size_t i = 1; i < f.size() && c.search.size() < 32; ++i) {
        std::string d = canonical(f[i]);
        if (!d.empty()) c.search.push_back(d);
      }
    } else if (f[0] == "options") {
      for (size_t i = 1; i < f.size(); ++i) {
        std::string_view o = f[i];
        if (o.substr(0, 6) == "ndots:") c.ndots = small_int(o.substr(6), 0, 15, c.ndots);
        if (o.substr(0, 8) == "timeout:")
          c.timeout_ms = 1000 * small_int(o.substr(8), 1, 30, c.timeout_ms / 1000);
        if (o.substr(0, 9) == "attempts:") c.attempts = small_int(o.substr(9), 1, 5, c.attempts);
      }
    }
  });
  if (c.nameservers.empty()) {
    SocketAddress a;
    numeric_address("127.0.0.1", dns_port, a);
    c.nameservers.push_back(a);
  }
  return c;
}

std::vector<SocketAddress> hosts_lookup(std::string_view hosts_text, std::string_view name) {
  std::vector<SocketAddress> out;
  const std::string want = canonical(name);
  if (want.empty()) return out;
  for_each_line(hosts_text, /*semicolon=*/false, [&](const std::vector<std::string_view>& f) {
    if (f.size() < 2) return;
    SocketAddress a;
    if (!numeric_address(f[0], 0, a)) return;
    for (size_t i = 1; i < f.size(); ++i) {
      if (canonical(f[i]) == want) {
        out.push_back(a);
        return;
      }
    }
  });
  return out;
}

Result<std::vector<SocketAddress>> dns_lookup(const std::string& name, const ResolverConfig& config,
                                              const Deadline& deadline) {
  const std::string base = canonical(name);
  if (base.empty()) return make_error(ErrorCode::kUnavailable, "cannot resolve an empty name");
  std::vector<std::string> candidates;
  if (!name.empty() && name.back() == '.') {
    candidates.push_back(base);
  } else {
    const bool enough_dots = std::count(base.begin(), base.end(), '.') >= config.ndots;
    if (enough_dots) candidates.push_back(base);
    for (const auto& d : config.search) candidates.push_back(base + "." + d);
    if (!enough_dots) candidates.push_back(base);
  }
  bool timed_out = false;
  for (const std::string& qname : candidates) {
    bool answered = false;  // a server said "no such name" for this candidate
    for (int attempt = 0; attempt < std::max(1, config.attempts) && !answered; ++attempt) {
      for (const SocketAddress& ns : config.nameservers) {
        if (deadline.expired()) {
          return make_error(ErrorCode::kTimeout,
                            "DNS lookup of " + name + " did not finish by the deadline");
        }
        auto until = std::min(
            deadline.at(), Deadline::Clock::now() + std::chrono::milliseconds(config.timeout_ms));
        std::vector<SocketAddress> found;
        Round r = ask(ns, qname, until, found);
        if (r == Round::kAddresses) return found;
        if (r == Round::kNoSuchName) {
          answered = true;
          break;
        }
        if (r == Round::kTimeout) timed_out = true;
      }
    }
  }
  if (deadline.expired()) {
    return make_error(ErrorCode::kTimeout,
                      "DNS lookup of " + name + " did not finish by the deadline");
  }
  return make_error(ErrorCode::kUnavailable,
                    "cannot resolve " + name + (timed_out ? ": no DNS answer" : ": no address"));
}

Result<std::vector<SocketAddress>> resolve_host(const std::string& host, uint16_t port,
                                                const Deadline& deadline,
                                                const ResolverFiles& files) {
  SocketAddress a;
  if (numeric_address(host, port, a)) return std::vector<SocketAddress>{a};
  const std::string name = canonical(host);
  if (name == "localhost") {
    // RFC 6761 §6.3: localhost is loopback; no resolver needed.
    numeric_address("127.0.0.1", port, a);
    return std::vector<SocketAddress>{a};
  }
  std::vector<SocketAddress> found;
  // Never a blocking open of a FIFO or device (fs::read_regular_file; docs/contract.md ENV-12).
  if (auto hosts = fs::read_regular_file(files.hosts, 16u << 20)) found = hosts_lookup(*hosts, name);
  if (found.empty()) {
    auto conf = fs::read_regular_file(files.resolv_conf, 1u << 20);
    ResolverConfig config = parse_resolv_conf(conf ? std::string_view(*conf) : std::string_view());
    auto dns = dns_lookup(host, config, deadline);
    if (!dns) return dns.error();
    found = std::move(*dns);
  }
  for (auto& f : found) set_port(f, port);
  return found;
}

}  // namespace pinta::http
