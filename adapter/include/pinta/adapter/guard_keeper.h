// File: pinta/adapter/guard_keeper.h
// The guard keeper (docs/contract.md GUARD-13): a detached process that holds the https guard's
// TLS connection open between gate events, so that an event does not pay for TLS start-up (OpenSSL
// 3 builds its provider tables in every new process: ~8 M instructions, then ~10 M for a resumed
// handshake; docs/benchmarks-history.md "https guard"). An event hands its guard request to the keeper
// over a Unix socket in the data dir and gets the guard's response back; with no keeper there (or
// one that does not answer the socket), the event talks to the guard itself, as before, and
// starts a keeper after its reply.
//
// Trust: the socket lives in the data dir (ours, 0700, ENV-9) and is created 0600; each side
// checks the other's uid (SO_PEERCRED) and refuses any but its own. The keeper serves one
// trust key (http::tls_trust_key: origin, CA settings and CA files' identity): it is named by the
// key's hash, and a request carrying another key is refused. A change of CA files or settings
// therefore starts a new keeper; the old one leaves when idle. The name also covers the wire
// version and the binary (dev, inode, size and mtime of /proc/self/exe): a keeper serves only
// events of the binary it was forked from, and leaves within 250 ms of that file being deleted
// or replaced (an upgrade), instead of serving on for up to its life.
//
// Hardening (detach.h): not dumpable, no core file, cwd "/" (it never pins the host's cwd).
//
// Bounds: at most kMaxInFlight requests at once, each on its own connection (more wait in the
// socket's backlog within their own budget; a full backlog makes the event ask the guard itself),
// each within the event's own remaining budget; the keeper leaves after `idle` without a
// request, after `life`, or within 250 ms of its lock file or socket being removed or replaced,
// or of its binary being deleted or replaced.
// A kept connection is reused for at most 5 minutes (http::Connection) and never across a change
// of trust key.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pinta/adapter/http.h"
#include "pinta/common/deadline.h"
#include "pinta/common/result.h"

namespace pinta::adapter {

struct KeeperPlace {
  std::string socket_path;  // "" when no keeper can be used (no data dir, path too long, not https)
  std::string lock_path;
  std::string key;  // http::tls_trust_key of the guard's origin
  std::string data_dir;  // where both live; it may not exist yet (start_keeper_if_needed makes it)
};

// Where the keeper for the https guard `url` lives in `data_dir`:
// <data dir>/guard-keeper.<16 hex of the hash of key, wire version and binary>.{sock,lock}.
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
// to; it is not sent). A data dir that does not exist yet is created first, as every writer in it
// creates it (fs::make_private_dir: 0700, missing parents too, then checked: one that someone
// else made first is refused, docs/contract.md ENV-4, ENV-9); a guard-only setup (no telemetry, no
// debug log) has nothing else that would. Never throws; false when none was started.
bool start_keeper_if_needed(const KeeperPlace& place, const http::Request& warm_request,
                            const KeeperOptions& options) noexcept;

// The wire format between an event and the keeper (exposed for the fuzz harness
// fuzz/keeper_wire and the tests). Each message is one netstring ("<length>:<bytes>,") whose bytes
// are a sequence of netstrings, the fields; binary-safe, and its size is known from the first
// bytes. Decoders are total: anything but a well-formed message of the kind asked for is nullopt.
namespace keeper_wire {

inline constexpr size_t kMaxMessageBytes = 64u << 20;  // a request carries the tool input

struct KeeperRequest {
  std::string key;       // the trust key the event computed (must equal the keeper's)
  int64_t budget_us = 0; // time left in the event's budget, at most 10 s
  http::Request request; // method, url, headers, body, max_response_bytes (tls_sessions unset)
};

// The response kinds: the guard's response, why the guard was not reached (the event fails
// open), or a refusal (the event asks the guard itself).
struct KeeperReply {
  enum class Kind { kResponse, kError, kRefused } kind = Kind::kRefused;
  http::Response response;  // kResponse
  Error error;              // kError
  std::string refusal;      // kRefused
};

std::string encode_request(const KeeperRequest& r);
std::optional<KeeperRequest> decode_request(std::string_view message);
std::string encode_reply(const KeeperReply& r);
// `max_body`: a response body over it is malformed (the event's response cap).
std::optional<KeeperReply> decode_reply(std::string_view message, size_t max_body);
// How many bytes of `buffered` make the first whole message: 0 while more are needed, SIZE_MAX
// when the bytes cannot start a message within kMaxMessageBytes.
size_t message_size(std::string_view buffered);

}  // namespace keeper_wire

}  // namespace pinta::adapter
