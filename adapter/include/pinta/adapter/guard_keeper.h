// File: pinta/adapter/guard_keeper.h
// The guard keeper (docs/contract.md GUARD-13): a detached process that holds the https guard's
// TLS connection open between gate events, so that an event does not pay for TLS start-up (OpenSSL
// 3 builds its provider tables in every new process: ~8 M instructions, then ~10 M for a resumed
// handshake; docs/benchmarks.md "https guard"). An event hands its guard request to the keeper
// over a Unix socket in the data dir and gets the guard's response back; with no keeper there (or
// one that does not answer the socket), the event talks to the guard itself, as before, and
// starts a keeper after its reply.
//
// Trust: the socket lives in the data dir (ours, 0700, ENV-9) and is created 0600; each side
// checks the other's uid (SO_PEERCRED) and refuses any but its own. The keeper serves one
// trust key (http::tls_trust_key: origin, CA settings and CA files' identity): it is named by the
// key's hash, and a request carrying another key is refused. A change of CA files or settings
// therefore starts a new keeper; the old one leaves when idle.
//
// Bounds: at most kMaxInFlight requests at once (beyond: refused, the event asks the guard
// itself), each within the event's own remaining budget; the keeper leaves after `idle` without a
// request, after `life`, or within 250 ms of its lock file or socket being removed or replaced.
// A kept connection is reused for at most 5 minutes (http::Connection) and never across a change
// of trust key.
#pragma once

#include <chrono>
#include <string>

#include "pinta/adapter/http.h"
#include "pinta/common/deadline.h"
#include "pinta/common/result.h"

namespace pinta::adapter {

struct KeeperPlace {
  std::string socket_path;  // "" when no keeper can be used (no data dir, path too long, not https)
  std::string lock_path;
  std::string key;  // http::tls_trust_key of the guard's origin
};

// Where the keeper for the https guard `url` lives in `data_dir`:
// <data dir>/guard-keeper.<16 hex of the key's hash>.{sock,lock}.
KeeperPlace keeper_place(const std::string& data_dir, const std::string& url);

struct KeeperOptions {
  std::chrono::milliseconds idle{std::chrono::minutes(5)};
  std::chrono::milliseconds life{std::chrono::hours(1)};
  static constexpr int kMaxInFlight = 8;
};

// PINTA_GUARD_KEEPER: "0", "off", "false" or "no" turn the keeper off (every https gate event then
// connects itself); PINTA_GUARD_KEEPER_IDLE_MS shortens or lengthens the idle window (tests).
bool keeper_enabled_from_environment();
KeeperOptions keeper_options_from_environment();

struct KeeperExchange {
  // False when no keeper took the request (none listening, refused, wrong owner, wrong key, gone
  // before answering): the caller asks the guard itself. True when the keeper answered; then
  // `response` is what the guard said or why the keeper could not reach it.
  bool reached = false;
  Result<http::Response> response = make_error(ErrorCode::kUnavailable, "no keeper");
};

// Hands `request` (an https guard request) to the keeper at `place` and waits for its answer
// within `deadline`. Never throws.
KeeperExchange send_via_keeper(const KeeperPlace& place, const http::Request& request,
                               Deadline deadline);

// The pid of the keeper listening at `place` (a socket of our uid, served by a process of our
// uid), or -1. For doctor and tests; connects once and sends nothing.
int keeper_pid(const KeeperPlace& place);

// Starts a keeper for `place` in a detached process (detach.h) unless one holds its lock. The
// keeper opens its guard connection at once (`warm_request`: the request whose origin to connect
// to; it is not sent). Never throws; false when none was started.
bool start_keeper_if_needed(const KeeperPlace& place, const http::Request& warm_request,
                            const KeeperOptions& options) noexcept;

}  // namespace pinta::adapter
