// Shared set-up for the adapter tests that talk to pinta::fakes::FakeServer (common/fakes):
// scripted replies and a loopback port nobody listens on. Header-only, test code only.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <utility>

#include "pinta/fakes/fake_server.h"

namespace pinta::testing_fakes {

// A scripted reply with a status and a body (the fake adds the headers).
inline fakes::Reply body_reply(int status, std::string body) {
  fakes::Reply r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

// A reply sent byte for byte as given (malformed responses, HTTP/1.0, ...).
inline fakes::Reply raw_reply(std::string raw) {
  fakes::Reply r;
  r.raw = std::move(raw);
  return r;
}

// A loopback port that was just bound and closed: connecting to it is refused.
inline int closed_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  (void)::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

// "http://127.0.0.1:<port>/<path>" for a fake server's port.
inline std::string loopback_url(int port, const std::string& path = "/") {
  return "http://127.0.0.1:" + std::to_string(port) + path;
}

}  // namespace pinta::testing_fakes
