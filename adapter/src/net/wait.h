// Private to pinta::http and its TLS half (net/http.cc, net/tls.cc): waiting for a socket within
// a deadline.
#pragma once

#include <poll.h>

#include <cerrno>
#include <chrono>
#include <ctime>

#include "pinta/common/deadline.h"

namespace pinta::http::detail {

// Waits until `fd` is ready for `events`: 0 when it is, ETIMEDOUT once the deadline has passed
// (checked before every wait, so a wait that times out is followed by that check), or the errno
// of a failed ppoll (EINTR is waited again). ppoll with the time left in nanoseconds: a
// millisecond poll() timeout would have to be rounded up (or spin), and rounding up overshot the
// guard budget by up to a millisecond on every never-answering guard.
inline int wait_ready(int fd, short events, const Deadline& deadline) {
  for (;;) {
    struct timespec left {};
    const struct timespec* timeout = nullptr;
    if (!deadline.is_never()) {
      auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline.at() -
                                                                     Deadline::Clock::now())
                    .count();
      if (ns <= 0) return ETIMEDOUT;
      left.tv_sec = static_cast<time_t>(ns / 1000000000);
      left.tv_nsec = static_cast<long>(ns % 1000000000);
      timeout = &left;
    }
    struct pollfd p {
      fd, events, 0
    };
    int r = ::ppoll(&p, 1, timeout, nullptr);
    if (r > 0) return 0;
    if (r < 0 && errno != EINTR) return errno;
  }
}

}  // namespace pinta::http::detail
