// The NSS-free resolver (resolver.h): resolv.conf and hosts parsing, and the DNS stub against a
// scripted DNS server on 127.0.0.1 (UDP and TCP on one port 0 pick).
#include "pinta/adapter/resolver.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "pinta/common/fs.h"
#include "pinta/common/test_support.h"

namespace pinta::http {
namespace {

using namespace std::chrono_literals;

std::string ip_of(const SocketAddress& a) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (a.family == AF_INET)
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&a.addr)->sin_addr, buf, sizeof buf);
  else
    ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&a.addr)->sin6_addr, buf,
                sizeof buf);
  return buf;
}
int port_of(const SocketAddress& a) {
  return ntohs(a.family == AF_INET ? reinterpret_cast<const sockaddr_in*>(&a.addr)->sin_port
                                   : reinterpret_cast<const sockaddr_in6*>(&a.addr)->sin6_port);
}
std::vector<std::string> ips(const std::vector<SocketAddress>& v) {
  std::vector<std::string> out;
  for (const auto& a : v) out.push_back(ip_of(a));
  return out;
}

TEST(ResolvConf, NameserversSearchAndOptions) {
  auto c = parse_resolv_conf(
      "# comment\n; other comment\nnameserver 10.0.0.1\nnameserver ::1 # trailing\n"
      "nameserver fe80::1%eth0\nnameserver not-an-ip\nnameserver 10.0.0.2\nnameserver 10.0.0.3\n"
      "nameserver 10.0.0.4\ndomain first.test\nsearch Corp.Test. lab.test\n"
      "options ndots:2 timeout:3 attempts:4 rotate\n");
  ASSERT_EQ(c.nameservers.size(), 3u);  // MAXNS
  EXPECT_EQ(ip_of(c.nameservers[0]), "10.0.0.1");
  EXPECT_EQ(ip_of(c.nameservers[1]), "::1");
  EXPECT_EQ(ip_of(c.nameservers[2]), "10.0.0.2");
  EXPECT_EQ(port_of(c.nameservers[0]), 53);
  EXPECT_EQ(c.search, (std::vector<std::string>{"corp.test", "lab.test"}));
  EXPECT_EQ(c.ndots, 2);
  EXPECT_EQ(c.timeout_ms, 3000);
  EXPECT_EQ(c.attempts, 4);
}

TEST(ResolvConf, NoNameserverMeansLocalhost) {
  auto c = parse_resolv_conf("");
  ASSERT_EQ(c.nameservers.size(), 1u);
  EXPECT_EQ(ip_of(c.nameservers[0]), "127.0.0.1");
  EXPECT_EQ(c.ndots, 1);
  EXPECT_TRUE(c.search.empty());
}

TEST(HostsFile, NamesAndAliasesCaseInsensitive) {
  const std::string hosts =
      "127.0.0.1 localhost\n# 10.9.9.9 guard.test\n10.1.1.1\tGuard.Test  g-alias # comment\n"
      "fd00::5 guard.test\nbogus guard.test\n10.1.1.2 guard.test.other\n";
  EXPECT_EQ(ips(hosts_lookup(hosts, "guard.test")),
            (std::vector<std::string>{"10.1.1.1", "fd00::5"}));
  EXPECT_EQ(ips(hosts_lookup(hosts, "G-ALIAS.")), (std::vector<std::string>{"10.1.1.1"}));
  EXPECT_TRUE(hosts_lookup(hosts, "guard").empty());
  EXPECT_TRUE(hosts_lookup(hosts, "10.9.9.9").empty());
}

// ---- a scripted DNS server ----

struct Rr {
  std::string name;
  uint16_t type;
  std::string rdata;  // raw bytes
};

std::string wire_name(const std::string& name) {
  std::string out;
  size_t i = 0;
  while (i < name.size()) {
    size_t dot = name.find('.', i);
    if (dot == std::string::npos) dot = name.size();
    out.push_back(static_cast<char>(dot - i));
    out.append(name, i, dot - i);
    i = dot + 1;
  }
  out.push_back('\0');
  return out;
}
std::string be16(uint16_t v) { return {static_cast<char>(v >> 8), static_cast<char>(v & 0xff)}; }
std::string v4(const char* ip) {
  in_addr a{};
  ::inet_pton(AF_INET, ip, &a);
  return std::string(reinterpret_cast<const char*>(&a), 4);
}
std::string v6(const char* ip) {
  in6_addr a{};
  ::inet_pton(AF_INET6, ip, &a);
  return std::string(reinterpret_cast<const char*>(&a), 16);
}

struct Query {
  uint16_t id = 0;
  std::string name;  // dotted, as sent
  uint16_t type = 0;
  std::string question;  // the raw question section
};

Query parse_query(const std::string& q) {
  Query out;
  out.id = static_cast<uint16_t>((static_cast<unsigned char>(q[0]) << 8) |
                                 static_cast<unsigned char>(q[1]));
  size_t at = 12;
  while (at < q.size() && q[at] != 0) {
    size_t len = static_cast<unsigned char>(q[at]);
    if (!out.name.empty()) out.name.push_back('.');
    out.name.append(q, at + 1, len);
    at += 1 + len;
  }
  out.type = static_cast<uint16_t>((static_cast<unsigned char>(q[at + 1]) << 8) |
                                   static_cast<unsigned char>(q[at + 2]));
  out.question = q.substr(12, at + 5 - 12);
  return out;
}

// A response to `q`: rcode, tc bit, answer records (owner "@" = a pointer to the question name).
std::string response(const Query& q, int rcode, const std::vector<Rr>& answers, bool tc = false,
                     uint16_t id_override = 0) {
  std::string m = be16(id_override ? id_override : q.id);
  m += be16(static_cast<uint16_t>(0x8180 | (tc ? 0x0200 : 0) | rcode));
  m += be16(1) + be16(static_cast<uint16_t>(answers.size())) + be16(0) + be16(0);
  m += q.question;
  for (const Rr& r : answers) {
    m += r.name == "@" ? std::string("\xc0\x0c", 2) : wire_name(r.name);
    m += be16(r.type) + be16(1) + std::string("\0\0\0\x3c", 4) +
         be16(static_cast<uint16_t>(r.rdata.size())) + r.rdata;
  }
  return m;
}

class FakeDns {
 public:
  // handler(query, over_tcp) → datagrams to send back (in order).
  using Handler = std::function<std::vector<std::string>(const Query&, bool)>;
  explicit FakeDns(Handler h) : handler_(std::move(h)) {
    for (int tries = 0; tries < 20 && tcp_ < 0; ++tries) {
      if (udp_ >= 0) ::close(udp_);
      udp_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
      sockaddr_in a{};
      a.sin_family = AF_INET;
      a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      ::bind(udp_, reinterpret_cast<sockaddr*>(&a), sizeof a);
      socklen_t len = sizeof a;
      ::getsockname(udp_, reinterpret_cast<sockaddr*>(&a), &len);
      port_ = ntohs(a.sin_port);
      int t = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      if (::bind(t, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && ::listen(t, 8) == 0)
        tcp_ = t;
      else
        ::close(t);
    }
    thread_ = std::thread([this] { serve(); });
  }
  ~FakeDns() {
    stop_ = true;
    thread_.join();
    ::close(udp_);
    if (tcp_ >= 0) ::close(tcp_);
  }
  SocketAddress address() const {
    SocketAddress s;
    numeric_address("127.0.0.1", static_cast<uint16_t>(port_), s);
    return s;
  }
  int queries() const { return queries_; }
  bool has_tcp() const { return tcp_ >= 0; }

 private:
  void serve() {
    while (!stop_) {
      struct pollfd p[2] = {{udp_, POLLIN, 0}, {tcp_, POLLIN, 0}};
      if (::poll(p, tcp_ >= 0 ? 2 : 1, 20) <= 0) continue;
      if (p[0].revents & POLLIN) {
        char buf[2048];
        sockaddr_storage from{};
        socklen_t fl = sizeof from;
        ssize_t n = ::recvfrom(udp_, buf, sizeof buf, 0, reinterpret_cast<sockaddr*>(&from), &fl);
        if (n > 12) {
          ++queries_;
          for (const auto& out :
               handler_(parse_query(std::string(buf, static_cast<size_t>(n))), false))
            ::sendto(udp_, out.data(), out.size(), 0, reinterpret_cast<sockaddr*>(&from), fl);
        }
      }
      if (tcp_ >= 0 && (p[1].revents & POLLIN)) {
        int c = ::accept(tcp_, nullptr, nullptr);
        if (c < 0) continue;
        std::string in;
        char buf[2048];
        for (;;) {
          ssize_t n = ::recv(c, buf, sizeof buf, 0);
          if (n <= 0) break;
          in.append(buf, static_cast<size_t>(n));
          if (in.size() >= 2 && in.size() >= 2u + ((static_cast<unsigned char>(in[0]) << 8) |
                                                   static_cast<unsigned char>(in[1])))
            break;
        }
        if (in.size() > 14) {
          ++queries_;
          for (const auto& out : handler_(parse_query(in.substr(2)), true)) {
            std::string framed = be16(static_cast<uint16_t>(out.size())) + out;
            (void)!::send(c, framed.data(), framed.size(), MSG_NOSIGNAL);
          }
        }
        ::close(c);
      }
    }
  }
  Handler handler_;
  int udp_ = -1, tcp_ = -1, port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> queries_{0};
  std::thread thread_;
};

ResolverConfig config_for(std::initializer_list<const FakeDns*> servers) {
  ResolverConfig c;
  for (const FakeDns* s : servers) c.nameservers.push_back(s->address());
  c.timeout_ms = 2000;
  c.attempts = 1;
  return c;
}

TEST(Dns, AAndAaaaAnswers) {
  FakeDns dns([](const Query& q, bool) -> std::vector<std::string> {
    if (q.name != "guard.example.test") return {response(q, 3, {})};
    if (q.type == 1) return {response(q, 0, {{"@", 1, v4("192.0.2.7")}})};
    return {response(q, 0, {{"@", 28, v6("2001:db8::7")}})};
  });
  auto r = dns_lookup("Guard.Example.Test", config_for({&dns}), Deadline::after(5s));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(ips(*r), (std::vector<std::string>{"192.0.2.7", "2001:db8::7"}));
}

TEST(Dns, CnameChainIsFollowedAndStrangersIgnored) {
  FakeDns dns([](const Query& q, bool) -> std::vector<std::string> {
    if (q.type != 1) return {response(q, 0, {})};
    return {response(q, 0,
                     {{"other.test", 1, v4("203.0.113.66")},  // not ours: ignored
                      {"@", 5, wire_name("edge.cdn.test")},
                      {"edge.cdn.test", 1, v4("192.0.2.8")}})};
  });
  auto r = dns_lookup("guard.example.test", config_for({&dns}), Deadline::after(5s));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(ips(*r), (std::vector<std::string>{"192.0.2.8"}));
}

TEST(Dns, SearchListBeforeTheBareNameWithFewDots) {
  std::mutex mu;
  std::vector<std::string> asked;
  FakeDns dns([&](const Query& q, bool) -> std::vector<std::string> {
    {
      std::lock_guard<std::mutex> l(mu);
      if (q.type == 1) asked.push_back(q.name);
    }
    if (q.name == "guard.lab.test" && q.type == 1)
      return {response(q, 0, {{"@", 1, v4("192.0.2.9")}})};
    if (q.name == "guard.lab.test") return {response(q, 0, {})};
    return {response(q, 3, {})};
  });
  ResolverConfig c = config_for({&dns});
  c.search = {"corp.test", "lab.test"};
  auto r = dns_lookup("guard", c, Deadline::after(5s));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(ips(*r), (std::vector<std::string>{"192.0.2.9"}));
  std::lock_guard<std::mutex> l(mu);
  EXPECT_EQ(asked, (std::vector<std::string>{"guard.corp.test", "guard.lab.test"}));
}

TEST(Dns, NxdomainEverywhereIsUnavailable) {
  FakeDns dns(
      [](const Query& q, bool) -> std::vector<std::string> { return {response(q, 3, {})}; });
  auto r = dns_lookup("nothing.test.", config_for({&dns}), Deadline::after(5s));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kUnavailable);
}

TEST(Dns, ForgedRepliesAreIgnored) {
  // Wrong id, and the right id for another question, arrive before the real answer.
  FakeDns dns([](const Query& q, bool) -> std::vector<std::string> {
    Query other = q;
    other.question = wire_name("evil.test") + be16(q.type) + be16(1);
    std::vector<std::string> out = {
        response(q, 0, {{"@", 1, v4("203.0.113.1")}}, false, static_cast<uint16_t>(q.id ^ 0x5a5a)),
        response(other, 0, {{"evil.test", 1, v4("203.0.113.2")}})};
    if (q.type == 1)
      out.push_back(response(q, 0, {{"@", 1, v4("192.0.2.10")}}));
    else
      out.push_back(response(q, 0, {}));
    return out;
  });
  auto r = dns_lookup("guard.example.test", config_for({&dns}), Deadline::after(5s));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(ips(*r), (std::vector<std::string>{"192.0.2.10"}));
}

TEST(Dns, TruncatedAnswerIsRetriedOverTcp) {
  FakeDns dns([](const Query& q, bool tcp) -> std::vector<std::string> {
    if (q.type != 1) return {response(q, 0, {})};
    if (!tcp) return {response(q, 0, {}, /*tc=*/true)};
    return {response(q, 0, {{"@", 1, v4("192.0.2.11")}})};
  });
  if (!dns.has_tcp()) GTEST_SKIP() << "could not bind TCP on the fake DNS server's UDP port";
  auto r = dns_lookup("guard.example.test", config_for({&dns}), Deadline::after(5s));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(ips(*r), (std::vector<std::string>{"192.0.2.11"}));
}

TEST(Dns, FailingServerFallsThroughToTheNext) {
  FakeDns bad(
      [](const Query& q, bool) -> std::vector<std::string> { return {response(q, 2, {})}; });
  FakeDns good([](const Query& q, bool) -> std::vector<std::string> {
    return {response(
        q, 0, q.type == 1 ? std::vector<Rr>{{"@", 1, v4("192.0.2.12")}} : std::vector<Rr>{})};
  });
  auto r = dns_lookup("guard.example.test", config_for({&bad, &good}), Deadline::after(5s));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(ips(*r), (std::vector<std::string>{"192.0.2.12"}));
  EXPECT_GE(bad.queries(), 1);
}

TEST(Dns, SilentServerEndsAtTheDeadline) {
  FakeDns silent([](const Query&, bool) -> std::vector<std::string> { return {}; });
  auto t0 = std::chrono::steady_clock::now();
  auto r = dns_lookup("guard.example.test", config_for({&silent}), Deadline::after(150ms));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kTimeout) << r.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);  // bounded, not a timing target
}

TEST(ResolveHost, NumericLocalhostAndHostsFileNeedNoDns) {
  testing::TempDir dir;
  ASSERT_TRUE(fs::atomic_write(dir.sub("hosts"), "10.4.4.4 guard.internal\n").ok());
  // DNS would fail here (nothing listens on 127.0.0.1:53 in the test), so an answer can only come
  // from the hosts file.
  ResolverFiles files{dir.sub("hosts"), dir.sub("resolv.conf")};
  ASSERT_TRUE(fs::atomic_write(files.resolv_conf, "nameserver 127.0.0.1\n").ok());
  auto a = resolve_host("guard.internal", 8443, Deadline::after(2s), files);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(ips(*a), (std::vector<std::string>{"10.4.4.4"}));
  EXPECT_EQ(port_of((*a)[0]), 8443);
  auto l = resolve_host("LOCALHOST", 80, Deadline::after(2s), files);
  ASSERT_TRUE(l);
  EXPECT_EQ(ips(*l), (std::vector<std::string>{"127.0.0.1"}));
  auto n = resolve_host("::1", 80, Deadline::after(2s), files);
  ASSERT_TRUE(n);
  EXPECT_EQ(ips(*n), (std::vector<std::string>{"::1"}));
}

}  // namespace
}  // namespace pinta::http
