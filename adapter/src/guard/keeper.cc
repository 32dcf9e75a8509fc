// The guard keeper (guard_keeper.h; docs/contract.md GUARD-13).
//
// Wire format on the Unix socket (keeper_wire): one netstring whose bytes are the fields,
//   request:  "pinta-guard-keeper 1", key, budget in µs, response cap, method, url,
//             header count, (name, value)..., body
//   reply:    "pinta-guard-keeper 1", "ok", status, header count, (name, value)..., body
//           | "pinta-guard-keeper 1", "error", error code, message     (the guard was not reached)
//           | "pinta-guard-keeper 1", "refused", reason               (the event asks the guard)
#include "pinta/adapter/guard_keeper.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "../net/wait.h"
#include "pinta/adapter/detach.h"
#include "pinta/common/fs.h"
#include "pinta/common/env.h"

namespace pinta::adapter {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::string_view kMagic = "pinta-guard-keeper 1";
constexpr int64_t kMaxBudgetUs = 10'000'000;  // GuardPolicy::kMaxTimeoutMs (seams.h)
constexpr int64_t kMaxHeaders = 256;

// ---- framing ------------------------------------------------------------------------------

void put(std::string& out, std::string_view field) {
  out.append(std::to_string(field.size())).push_back(':');
  out.append(field).push_back(',');
}

// Takes the next netstring off the front of `in`: digits without a leading zero (but "0"), ':',
// that many bytes, ','.
bool take(std::string_view& in, std::string_view& field) {
  size_t i = 0;
  size_t n = 0;
  while (i < in.size() && i < 10 && in[i] >= '0' && in[i] <= '9') n = n * 10 + static_cast<size_t>(in[i++] - '0');
  if (i == 0 || i >= in.size() || in[i] != ':' || (in[0] == '0' && i > 1)) return false;
  ++i;
  if (n > in.size() - i || in.size() - i - n < 1 || in[i + n] != ',') return false;
  field = in.substr(i, n);
  in.remove_prefix(i + n + 1);
  return true;
}

bool take_number(std::string_view& in, int64_t& out, int64_t max) {
  std::string_view f;
  if (!take(in, f) || f.empty() || f.size() > 18 || (f[0] == '0' && f.size() > 1)) return false;
  int64_t v = 0;
  for (char c : f) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  if (v > max) return false;
  out = v;
  return true;
}

// The fields of a whole message (exactly one netstring), or nullopt.
std::optional<std::string_view> fields_of(std::string_view message) {
  std::string_view fields;
  if (message.size() > keeper_wire::kMaxMessageBytes + 16 || !take(message, fields) || !message.empty())
    return std::nullopt;
  std::string_view magic;
  if (!take(fields, magic) || magic != kMagic) return std::nullopt;
  return fields;
}

std::string as_message(const std::string& fields) {
  std::string m;
  m.reserve(fields.size() + 16);
  put(m, fields);
  return m;
}

std::string refusal(std::string_view why) {
  keeper_wire::KeeperReply r;
  r.kind = keeper_wire::KeeperReply::Kind::kRefused;
  r.refusal = std::string(why);
  return keeper_wire::encode_reply(r);
}

// ---- socket I/O within a deadline (the socket is non-blocking) ------------------------------

bool write_all(int fd, std::string_view data, const Deadline& deadline) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n > 0) {
      data.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (http::detail::wait_ready(fd, POLLOUT, deadline) != 0) return false;
      continue;
    }
    return false;
  }
  return true;
}

// One whole message; false on end of stream, error, timeout or a message over the cap.
bool read_message(int fd, const Deadline& deadline, std::string& message) {
  message.clear();
  char tmp[16384];
  for (;;) {
    const size_t need = keeper_wire::message_size(message);
    if (need == SIZE_MAX) return false;
    if (need != 0 && message.size() >= need) return message.size() == need;
    const size_t want = need == 0 ? 16 : std::min(sizeof tmp, need - message.size());
    ssize_t n = ::recv(fd, tmp, want, 0);
    if (n > 0) {
      message.append(tmp, static_cast<size_t>(n));
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return false;
    if (http::detail::wait_ready(fd, POLLIN, deadline) != 0) return false;
  }
}

// The process at the other end of `fd` runs as our effective uid.
bool peer_is_us(int fd) {
  struct ucred cred {};
  socklen_t len = sizeof cred;
  return ::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && len == sizeof cred &&
         cred.uid == ::geteuid();
}

uint64_t fnv1a(std::string_view s) {
  uint64_t h = 1469598103934665603ull;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

// The binary this process runs: dev, inode, size and mtime of /proc/self/exe (the file the
// kernel maps, even once deleted). Part of the keeper's name, so an event only ever talks to a
// keeper forked from the very same binary (an upgrade starts a new keeper; the old one leaves).
struct ExeIdentity {
  bool known = false;
  dev_t dev = 0;
  ino_t ino = 0;
  off_t size = 0;
  int64_t mtime_ns = 0;
  bool operator==(const ExeIdentity& o) const {
    return known == o.known && dev == o.dev && ino == o.ino && size == o.size && mtime_ns == o.mtime_ns;
  }
};

ExeIdentity identity_of(const struct stat& st) {
  ExeIdentity id;
  id.known = true;
  id.dev = st.st_dev;
  id.ino = st.st_ino;
  id.size = st.st_size;
  id.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  return id;
}

const ExeIdentity& own_exe() {
  static const ExeIdentity id = [] {
    struct stat st {};
    return ::stat("/proc/self/exe", &st) == 0 ? identity_of(st) : ExeIdentity{};
  }();
  return id;
}

std::string exe_identity_text() {
  const ExeIdentity& id = own_exe();
  if (!id.known) return "exe unknown";
  return std::to_string(id.dev) + ":" + std::to_string(id.ino) + ":" + std::to_string(id.size) + ":" +
         std::to_string(id.mtime_ns);
}

// True once the file this process was started from is no longer at its path: deleted (the
// kernel marks the link " (deleted)") or replaced by another file (a new inode, size or mtime:
// an upgrade). False when it cannot tell (no /proc).
bool own_exe_gone() {
  const ExeIdentity& was = own_exe();
  if (!was.known) return false;
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return false;
  // A deleted file shows as "<path> (deleted)": no such file, or one that is not ours.
  buf[n] = '\0';
  struct stat st {};
  return ::stat(buf, &st) != 0 || !(identity_of(st) == was);
}

bool set_sockaddr(const std::string& path, struct sockaddr_un& a) {
  std::memset(&a, 0, sizeof a);
  a.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof a.sun_path) return false;
  std::memcpy(a.sun_path, path.data(), path.size());
  return true;
}

// ---- the keeper process ---------------------------------------------------------------------

// TLS sessions the keeper's connections were issued, in memory: a new connection (the server
// closed the last one, or the pool grew) resumes instead of running a full handshake.
class MemorySessions final : public http::TlsSessionCache {
 public:
  std::string load(const std::string& key) override {
    std::lock_guard<std::mutex> lock(m_);
    return key == key_ ? der_ : std::string();
  }
  void save(const std::string& key, std::string der) override {
    std::lock_guard<std::mutex> lock(m_);
    key_ = key;
    der_ = std::move(der);
  }

 private:
  std::mutex m_;
  std::string key_;
  std::string der_;
};

class Keeper {
 public:
  Keeper(KeeperPlace place, KeeperOptions options)
      : place_(std::move(place)), options_(options) {}

  void run(int lock_fd, const http::Request& warm) {
    // The keeper holds the relay token, TLS keys and, in freed memory, the requests it carried
    // (tool inputs) for up to an hour: no core dump of it, and no ptrace or /proc/<pid>/mem by
    // other processes of the same user (only root).
    (void)::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    ::umask(0177);  // the socket file: 0600
    // Listen under a temporary name first (we hold the lock: no other keeper uses it), open the
    // first connection, then rename the socket into place: events never wait for this handshake
    // (until the socket appears they ask the guard themselves, as with no keeper), and the first
    // one that finds the socket finds the connection open.
    const std::string fresh = place_.socket_path.substr(0, place_.socket_path.size() - 5) + ".new";
    struct sockaddr_un addr {};
    if (!set_sockaddr(fresh, addr)) return;
    (void)::unlink(fresh.c_str());
    listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(listen_fd_, 64) != 0) {
      // No Unix socket here (a file system without them, no room...): stay, holding the lock, so
      // that events do not start a keeper each (they ask the guard themselves), and look again
      // after the idle window.
      (void)::unlink(fresh.c_str());
      (void)sleep_unless_unlinked(lock_fd, options_.idle);
      return;
    }
    {
      auto conn = std::make_unique<http::Connection>();
      http::Request w = warm;
      w.tls_sessions = &sessions_;
      if (conn->open(w, Deadline::after(std::chrono::seconds(2)))) give_back(std::move(conn));
    }
    // A socket file left at the place is a dead keeper's (we hold the lock); rename replaces it.
    struct stat st {};
    if (::rename(fresh.c_str(), place_.socket_path.c_str()) != 0 ||
        ::lstat(place_.socket_path.c_str(), &st) != 0) {
      (void)::unlink(fresh.c_str());
      return;
    }
    bound_dev_ = st.st_dev;
    bound_ino_ = st.st_ino;
    last_request_ = Clock::now();
    const Clock::time_point life_end = Clock::now() + options_.life;
    if (!spawn_worker()) return;

    // Housekeeping; the workers serve.
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      if (gone(lock_fd)) break;
      // The binary we were forked from was deleted or replaced (an upgrade): events of the new
      // one use a keeper of their own (another name); we leave rather than serve for an hour.
      if (own_exe_gone()) break;
      const auto now = Clock::now();
      if (in_flight_.load() == 0 && (now - last_request_.load() > options_.idle || now > life_end))
        break;
    }
    // Leaving: new events no longer find us (a connection still in the backlog is reset when we
    // exit: that event asks the guard itself); requests in flight get up to their budget.
    if (!replaced()) (void)::unlink(place_.socket_path.c_str());
    for (int i = 0; i < 1100 && in_flight_.load() > 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }

 private:
  // Workers wait in accept(2) on the listening socket, each serving one request at a time; one
  // more is started when a worker takes a connection and none is left waiting, up to
  // kMaxInFlight (so a slow guard does not make concurrent events queue behind each other).
  bool spawn_worker() {
    if (workers_.fetch_add(1) >= KeeperOptions::kMaxInFlight) {
      --workers_;
      return false;
    }
    try {
      std::thread([this] { work(); }).detach();
      return true;
    } catch (...) {
      --workers_;
      return false;
    }
  }

  void work() {
    for (;;) {
      ++waiting_;
      int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
      --waiting_;
      if (fd < 0) {
        if (errno != EINTR && errno != ECONNABORTED)
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        continue;
      }
      ++in_flight_;
      last_request_ = Clock::now();
      if (waiting_.load() == 0) (void)spawn_worker();
      if (peer_is_us(fd)) {
        serve(fd);
      } else {
        (void)write_all(fd, refusal("not our user"), Deadline::after(std::chrono::milliseconds(5)));
      }
      ::close(fd);
      last_request_ = Clock::now();
      --in_flight_;
    }
  }

  // The lock file was removed (the data dir deleted) or the socket removed or replaced.
  bool gone(int lock_fd) const {
    struct stat st {};
    if (::fstat(lock_fd, &st) != 0 || st.st_nlink == 0) return true;
    return replaced();
  }
  bool replaced() const {
    struct stat st {};
    return ::lstat(place_.socket_path.c_str(), &st) != 0 || st.st_dev != bound_dev_ ||
           st.st_ino != bound_ino_;
  }

  std::unique_ptr<http::Connection> take_connection() {
    std::lock_guard<std::mutex> lock(pool_m_);
    if (pool_.empty()) return std::make_unique<http::Connection>();
    auto c = std::move(pool_.back());
    pool_.pop_back();
    return c;
  }
  void give_back(std::unique_ptr<http::Connection> c) {
    if (!c->is_open()) return;
    std::lock_guard<std::mutex> lock(pool_m_);
    if (pool_.size() < static_cast<size_t>(KeeperOptions::kMaxInFlight)) pool_.push_back(std::move(c));
  }

  void serve(int fd) {
    try {
      std::string message;
      if (!read_message(fd, Deadline::after(std::chrono::seconds(2)), message)) return;
      auto in = keeper_wire::decode_request(message);
      message.clear();
      if (!in) return;
      const Deadline deadline(Clock::now() + std::chrono::microseconds(in->budget_us));
      // Only the trust key and origin this keeper verifies for.
      if (in->key != place_.key || keeper_place("/", in->request.url).key != place_.key) {
        (void)write_all(fd, refusal("another trust key"), Deadline::after(std::chrono::milliseconds(100)));
        return;
      }
      http::Request& req = in->request;
      req.tls_sessions = &sessions_;
      auto conn = take_connection();
      auto resp = conn->send(req, deadline);
      give_back(std::move(conn));

      keeper_wire::KeeperReply out;
      if (resp) {
        out.kind = keeper_wire::KeeperReply::Kind::kResponse;
        out.response = std::move(resp.value());
      } else {
        out.kind = keeper_wire::KeeperReply::Kind::kError;
        out.error = resp.error();
      }
      (void)write_all(fd, keeper_wire::encode_reply(out), Deadline::after(std::chrono::seconds(1)));
    } catch (...) {
    }
  }

  KeeperPlace place_;
  KeeperOptions options_;
  MemorySessions sessions_;
  int listen_fd_ = -1;
  dev_t bound_dev_ = 0;
  ino_t bound_ino_ = 0;
  std::atomic<int> in_flight_{0};
  std::atomic<int> workers_{0};
  std::atomic<int> waiting_{0};
  std::atomic<Clock::time_point> last_request_{};
  std::mutex pool_m_;
  std::vector<std::unique_ptr<http::Connection>> pool_;
};

const char* env(const char* name) {
  const char* v = pinta::env::get(name);  // NOLINT(concurrency-mt-unsafe): read before any thread
  return v != nullptr ? v : "";
}

}  // namespace

namespace keeper_wire {

size_t message_size(std::string_view buffered) {
  size_t i = 0;
  size_t n = 0;
  while (i < buffered.size() && buffered[i] >= '0' && buffered[i] <= '9') {
    if (i == 9 || (i == 1 && buffered[0] == '0')) return SIZE_MAX;
    n = n * 10 + static_cast<size_t>(buffered[i++] - '0');
  }
  if (i == buffered.size()) return 0;  // the length is still arriving
  if (i == 0 || buffered[i] != ':' || n > kMaxMessageBytes) return SIZE_MAX;
  return i + 1 + n + 1;
}

std::string encode_request(const KeeperRequest& r) {
  std::string f;
  f.reserve(r.request.body.size() + r.request.url.size() + r.key.size() + 256);
  put(f, kMagic);
  put(f, r.key);
  put(f, std::to_string(r.budget_us));
  put(f, std::to_string(r.request.max_response_bytes));
  put(f, r.request.method);
  put(f, r.request.url);
  put(f, std::to_string(r.request.headers.size()));
  for (const auto& [k, v] : r.request.headers) {
    put(f, k);
    put(f, v);
  }
  put(f, r.request.body);
  return as_message(f);
}

std::optional<KeeperRequest> decode_request(std::string_view message) {
  auto fields = fields_of(message);
  if (!fields) return std::nullopt;
  std::string_view in = *fields, key, method, url, name, value, body;
  int64_t budget = 0, cap = 0, headers = 0;
  if (!take(in, key) || !take_number(in, budget, kMaxBudgetUs) ||
      !take_number(in, cap, static_cast<int64_t>(kMaxMessageBytes)) || !take(in, method) ||
      !take(in, url) || !take_number(in, headers, kMaxHeaders))
    return std::nullopt;
  KeeperRequest r;
  r.key = std::string(key);
  r.budget_us = budget;
  r.request.max_response_bytes = static_cast<size_t>(cap);
  r.request.method = std::string(method);
  r.request.url = std::string(url);
  for (int64_t i = 0; i < headers; ++i) {
    if (!take(in, name) || !take(in, value)) return std::nullopt;
    r.request.headers.emplace_back(std::string(name), std::string(value));
  }
  if (!take(in, body) || !in.empty()) return std::nullopt;
  r.request.body = std::string(body);
  return r;
}

std::string encode_reply(const KeeperReply& r) {
  std::string f;
  put(f, kMagic);
  switch (r.kind) {
    case KeeperReply::Kind::kResponse:
      f.reserve(r.response.body.size() + 256);
      put(f, "ok");
      put(f, std::to_string(r.response.status));
      put(f, std::to_string(r.response.headers.size()));
      for (const auto& [k, v] : r.response.headers) {
        put(f, k);
        put(f, v);
      }
      put(f, r.response.body);
      break;
    case KeeperReply::Kind::kError:
      put(f, "error");
      put(f, std::to_string(static_cast<int>(r.error.code)));
      put(f, r.error.message);
      break;
    case KeeperReply::Kind::kRefused:
      put(f, "refused");
      put(f, r.refusal);
      break;
  }
  return as_message(f);
}

std::optional<KeeperReply> decode_reply(std::string_view message, size_t max_body) {
  auto fields = fields_of(message);
  if (!fields) return std::nullopt;
  std::string_view in = *fields, kind, field, name, value;
  if (!take(in, kind)) return std::nullopt;
  KeeperReply r;
  if (kind == "refused") {
    if (!take(in, field) || !in.empty()) return std::nullopt;
    r.kind = KeeperReply::Kind::kRefused;
    r.refusal = std::string(field);
    return r;
  }
  if (kind == "error") {
    int64_t code = 0;
    if (!take_number(in, code, static_cast<int64_t>(ErrorCode::kInternal)) || code == 0 ||
        !take(in, field) || !in.empty())
      return std::nullopt;
    r.kind = KeeperReply::Kind::kError;
    r.error = Error{static_cast<ErrorCode>(code), std::string(field)};
    return r;
  }
  if (kind != "ok") return std::nullopt;
  int64_t status = 0, headers = 0;
  if (!take_number(in, status, 999) || status < 100 || !take_number(in, headers, kMaxHeaders))
    return std::nullopt;
  r.kind = KeeperReply::Kind::kResponse;
  r.response.status = static_cast<int>(status);
  for (int64_t i = 0; i < headers; ++i) {
    if (!take(in, name) || !take(in, value)) return std::nullopt;
    r.response.headers.emplace_back(std::string(name), std::string(value));
  }
  if (!take(in, field) || !in.empty() || field.size() > max_body) return std::nullopt;
  r.response.body = std::string(field);
  return r;
}

}  // namespace keeper_wire

KeeperPlace keeper_place(const std::string& data_dir, const std::string& url) {
  KeeperPlace p;
  if (data_dir.empty()) return p;
  auto u = http::parse_url(url);
  if (!u || u->scheme != "https") return p;
  int port = 0;
  for (char c : u->port) port = port * 10 + (c - '0');
  if (port <= 0 || port > 65535) return p;
  std::string key = http::tls_trust_key(u->host, static_cast<uint16_t>(port));
  static const char kHex[] = "0123456789abcdef";
  // The name covers the trust key, the wire version and this binary (own_exe): a keeper serves
  // only events of the binary it was forked from.
  uint64_t h = fnv1a(key + '\n' + std::string(kMagic) + '\n' + exe_identity_text());
  std::string name = "guard-keeper.";
  for (int shift = 60; shift >= 0; shift -= 4) name.push_back(kHex[(h >> shift) & 0xF]);
  std::string sock = fs::join(data_dir, name + ".sock");
  struct sockaddr_un a {};
  if (!set_sockaddr(sock, a)) return p;
  p.socket_path = std::move(sock);
  p.lock_path = fs::join(data_dir, name + ".lock");
  p.key = std::move(key);
  p.data_dir = data_dir;
  return p;
}

bool keeper_enabled_from_environment() {
  std::string_view v = env("PINTA_GUARD_KEEPER");
  return !(v == "0" || v == "off" || v == "false" || v == "no" || v == "OFF" || v == "FALSE");
}

KeeperOptions keeper_options_from_environment() {
  KeeperOptions o;
  std::string_view v = env("PINTA_GUARD_KEEPER_IDLE_MS");
  if (!v.empty() && v.size() <= 9) {
    int64_t ms = 0;
    bool ok = true;
    for (char c : v) {
      ok = ok && c >= '0' && c <= '9';
      ms = ms * 10 + (c - '0');
    }
    if (ok && ms > 0) o.idle = std::chrono::milliseconds(ms);
  }
  return o;
}

KeeperExchange send_via_keeper(const KeeperPlace& place, const http::Request& request,
                               Deadline deadline) {
  KeeperExchange x;
  try {
    struct sockaddr_un addr {};
    if (!set_sockaddr(place.socket_path, addr)) return x;
    struct stat st {};
    if (::lstat(place.socket_path.c_str(), &st) != 0 || !S_ISSOCK(st.st_mode) ||
        st.st_uid != ::geteuid())
      return x;
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return x;
    struct Closer {
      int fd;
      ~Closer() { ::close(fd); }
    } closer{fd};
    // A Unix stream connect completes at once or fails (EAGAIN: the backlog is full).
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 || !peer_is_us(fd))
      return x;

    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline.at() - Clock::now()).count();
    if (left <= 0) return x;
    keeper_wire::KeeperRequest kr;
    kr.key = place.key;
    kr.budget_us = std::min<int64_t>(left, kMaxBudgetUs);
    kr.request = request;
    kr.request.tls_sessions = nullptr;
    if (!write_all(fd, keeper_wire::encode_request(kr), deadline)) return x;

    std::string message;
    if (!read_message(fd, deadline, message)) {
      // Out of time: the keeper had the request, and there is no budget left to ask the guard.
      if (deadline.expired()) {
        x.reached = true;
        x.response = make_error(ErrorCode::kTimeout, "deadline passed (guard keeper)");
      }
      return x;
    }
    auto reply = keeper_wire::decode_reply(message, request.max_response_bytes);
    if (!reply || reply->kind == keeper_wire::KeeperReply::Kind::kRefused) return x;
    x.reached = true;
    if (reply->kind == keeper_wire::KeeperReply::Kind::kError) {
      x.response = make_error(reply->error.code, reply->error.message + " (guard keeper)");
    } else {
      x.response = std::move(reply->response);
    }
    return x;
  } catch (...) {
    return KeeperExchange{};
  }
}

int keeper_pid(const KeeperPlace& place) {
  struct sockaddr_un addr {};
  if (!set_sockaddr(place.socket_path, addr)) return -1;
  struct stat st {};
  if (::lstat(place.socket_path.c_str(), &st) != 0 || !S_ISSOCK(st.st_mode) || st.st_uid != ::geteuid())
    return -1;
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  int pid = -1;
  struct ucred cred {};
  socklen_t len = sizeof cred;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0 &&
      ::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && len == sizeof cred &&
      cred.uid == ::geteuid())
    pid = static_cast<int>(cred.pid);
  ::close(fd);
  return pid;
}

bool start_keeper_if_needed(const KeeperPlace& place, const http::Request& warm_request,
                            const KeeperOptions& options) noexcept {
  try {
    if (place.socket_path.empty()) return false;
    int fd = fs::open_private(place.lock_path, O_RDWR | O_CREAT, 0600);  // no link followed, ours only
    // No data dir yet: nothing else writes one when telemetry and the debug log are off, and a
    // guard beyond one handshake is judged only through a keeper (0 of 8 denies until
    // the dir existed). Made as every writer makes it, after the reply (this runs in after_reply).
    if (fd < 0 && errno == ENOENT && !place.data_dir.empty() && fs::make_private_dir(place.data_dir).ok())
      fd = fs::open_private(place.lock_path, O_RDWR | O_CREAT, 0600);
    if (fd < 0) return false;
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {  // a keeper is there (or starting)
      ::close(fd);
      return false;
    }
    http::Request warm = warm_request;
    warm.body.clear();
    const bool started = run_detached(fd, [&](int lock_fd) {
      Keeper keeper(place, options);
      keeper.run(lock_fd, warm);
    });
    ::close(fd);
    return started;
  } catch (...) {
    return false;
  }
}

}  // namespace pinta::adapter
