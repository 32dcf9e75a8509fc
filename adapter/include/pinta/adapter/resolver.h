// File: pinta/adapter/resolver.h
// Host-name resolution for the guard and collector URLs without NSS (docs/contract.md ENV-8).
//
// Why not getaddrinfo: pinta-gemini is a static executable, and a static glibc answers a lookup by
// dlopen'ing the NSS modules /etc/nsswitch.conf names (`mdns4_minimal`, `systemd`, `resolve`,
// `sss`, ...). Those are shared objects built for the system's shared glibc; loaded into a static
// process they crash it or hang, and the host gets no reply (a non-zero exit fails an Antigravity
// tool call). So the adapter resolves names itself, the way `files dns` would:
//
//   1. a numeric IPv4/IPv6 address, and `localhost` (RFC 6761 §6.3), need no lookup;
//   2. /etc/hosts, parsed here (names case-insensitive, a trailing dot ignored);
//   3. a DNS stub: A and AAAA queries over UDP (TCP when the answer is truncated) to the
//      nameservers of /etc/resolv.conf (127.0.0.1 when none, as resolv.conf(5) says), with its
//      `search`/`domain` list and `options ndots: timeout: attempts:`. Replies must come from the
//      server asked (connected socket), carry the query's random id and echo its question; CNAME
//      chains are followed inside one answer.
//
// What it does not do: mDNS (`.local`), LDAP/NIS or systemd-resolved's own API, DNSSEC
// validation, LOCALDOMAIN/RES_OPTIONS. Everything runs within the caller's Deadline.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include <string>
#include <string_view>
#include <vector>

#include "pinta/common/deadline.h"
#include "pinta/common/result.h"

namespace pinta::http {

struct SocketAddress {
  sockaddr_storage addr{};
  socklen_t len = 0;
  int family = AF_INET;
};

// A numeric IPv4 or IPv6 address (IPv6 without brackets) with `port`; false when `host` is not one.
bool numeric_address(std::string_view host, uint16_t port, SocketAddress& out);

struct ResolverConfig {
  std::vector<SocketAddress> nameservers;  // with their port (53 from resolv.conf)
  std::vector<std::string> search;         // search domains, in order
  int ndots = 1;
  int timeout_ms = 5000;  // per query round to one server (resolv.conf `timeout:` seconds)
  int attempts = 2;       // rounds over the server list
};

// resolv.conf(5) text → config. At most 3 nameservers; none → 127.0.0.1:53.
ResolverConfig parse_resolv_conf(std::string_view text, uint16_t dns_port = 53);

// Addresses for `name` in hosts(5) text, in file order (port 0).
std::vector<SocketAddress> hosts_lookup(std::string_view hosts_text, std::string_view name);

// A and AAAA records for `name` from the DNS servers in `config` (port 0 in the results).
// kUnavailable: no such name / no address / every server failed; kTimeout: the deadline passed.
Result<std::vector<SocketAddress>> dns_lookup(const std::string& name, const ResolverConfig& config,
                                              const Deadline& deadline);

struct ResolverFiles {
  std::string hosts = "/etc/hosts";
  std::string resolv_conf = "/etc/resolv.conf";
};

// The whole order above; every result carries `port`.
Result<std::vector<SocketAddress>> resolve_host(const std::string& host, uint16_t port,
                                                const Deadline& deadline,
                                                const ResolverFiles& files = {});

}  // namespace pinta::http
