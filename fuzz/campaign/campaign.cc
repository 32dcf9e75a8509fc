// The process-level campaign engine behind `pinta-fuzz-campaign` and `conformance fuzz`.
//
// Each run i (seeded with S+i, so a run is reproducible whatever --jobs is) picks an event and a
// fixture of that host (fixtures/<host>/<version>/<Event>/*.json), mutates it (bytes, structure,
// planted secrets, nesting, invalid UTF-8, lone surrogates, truncation, huge strings) or
// generates a payload, picks a stdin behaviour (closed after write, left open as the Antigravity
// app does, dripped, closed before anything is written, huge), sometimes an env file with a
// small input cap, a guard behaviour and a collector behaviour, spawns the adapter the way a host
// does (no shell, clean environment, its own process group; runner.h) and checks the contract
// (docs/contract.md), judged by the one reply check (pinta/hosts/reply_check.h, through
// fuzz/common/host_table.h), which is written from the host references, not from the adapter:
//   exit status 0, no signal; nothing on stderr; stdout is exactly one line holding one JSON
//   object valid for the host and event; the pipes close when the adapter exits (a Gemini host
//   waits for EOF, GEM§4); the reply arrives within --budget-ms; no planted secret in stdout,
//   stderr or anything the collector received; and the reply means what the guard said:
//     - guard consulted only on the gate event (GUARD-1);
//     - DENY (consulted) → the host's deny with the guard's reason (GUARD-7), REVIEW with
//       PINTA_GUARD_REVIEW=ask → ask; everything else (no guard, ALLOW, 500, garbage, slow beyond
//       PINTA_GUARD_TIMEOUT_MS, never answering, closing, refused) → the allow reply (GUARD-5).
// Guard and collector are loopback fakes (common/fakes FakeServer, 127.0.0.1 port 0), started once
// per worker, one per behaviour, and reused for every run; each worker also reuses its two homes.
// Each finding is minimised (chunk deletion while the same violation reproduces) and saved in
// --out as <n>-<violation>.json (what was observed), .bin (stdin) and INPUT/INPUT-9<nnn>.case.json, a
// conformance case that `conformance run --cases <out> --adapter ...` replays.
#include "pinta/fuzz/campaign.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "host_table.h"
#include "pinta/common/data_dir.h"
#include "pinta/fakes/fake_server.h"
#include "runner.h"

namespace pinta::fuzz::campaign {
namespace {

namespace stdfs = std::filesystem;
using nlohmann::json;
using pinta::fuzz::Host;

struct Fixture {
  std::string event;
  std::string bytes;
};

// Guard behaviours. kNone: no guard configured.
enum GuardMode { kGuardNone, kGuardAllow, kGuardDeny, kGuardReviewAsk, kGuard500, kGuardGarbage,
                 kGuardSlow, kGuardNever, kGuardClose, kGuardRefused, kGuardModes };
const char* const kGuardNames[] = {"none", "allow", "deny", "review-ask", "http-500", "garbage",
                                   "slow", "never-answers", "closes", "refused"};
enum CollectorMode { kCollectorNone, kCollectorOk, kCollector500, kCollectorGarbage,
                     kCollectorNever, kCollectorModes };
const char* const kCollectorNames[] = {"none", "ok", "http-500", "garbage", "never-answers"};
constexpr const char* kDenyReason = "campaign deny P-8";
constexpr const char* kReviewReason = "campaign review P-8";
constexpr int kGuardTimeoutMs = 50;

struct Case {
  std::string event;
  std::string stdin_bytes;
  Stdin mode = Stdin::kClosed;
  size_t drip_chunk = 1;
  bool capped_home = false;  // HOME carries an env file with PINTA_MAX_INPUT_BYTES=4096
  std::string planted;       // a secret placed in the payload ("" = none)
  std::string mutation;
  GuardMode guard = kGuardNone;
  CollectorMode collector = kCollectorNone;
  int stdin_timeout_ms = 0;  // PINTA_STDIN_TIMEOUT_MS for this run (0: the default, 1000 ms)
};

const std::vector<std::string> kSecrets = {
    "AKIAQWERTYUIOPASDFGH", "ghp_Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0EdCbA9",
    "sk_live_Qw3Er5Ty7Ui9Op1As3Df5Gh7", "xoxb-1111222233-4444555566667-QwErTy"};

std::string hex(const std::string& in) {
  static const char* d = "0123456789abcdef";
  std::string out;
  out.reserve(in.size() * 2);
  for (unsigned char c : in) {
    out += d[c >> 4];
    out += d[c & 15];
  }
  return out;
}

std::vector<Fixture> load_fixtures(const std::string& root, Host host) {
  std::vector<Fixture> v;
  const stdfs::path dir = stdfs::path(root) / (host == Host::kGemini ? "gemini" : "antigravity");
  std::error_code ec;
  if (!stdfs::is_directory(dir, ec)) return v;
  for (const auto& e : stdfs::recursive_directory_iterator(dir, ec)) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    std::ifstream in(e.path(), std::ios::binary);
    v.push_back(
        {e.path().parent_path().filename().string(),
         std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>())});
  }
  std::sort(v.begin(), v.end(), [](const Fixture& a, const Fixture& b) {
    return a.event != b.event ? a.event < b.event : a.bytes < b.bytes;
  });
  return v;
}

// ---- mutation -------------------------------------------------------------------------------

json random_value(std::mt19937_64& rng, int depth);

std::string random_string(std::mt19937_64& rng) {
  static const std::vector<std::string> pieces = {"a",     "rm -rf /", "é",     "😀",      "\\",
                                                  "\"",    "\n",       "\t",    "\u2028", "/tmp/x",
                                                  "../..", "%s",       "$(id)", "`id`",   " "};
  std::string s;
  const int n = static_cast<int>(rng() % 8);
  for (int i = 0; i < n; ++i) s += pieces[rng() % pieces.size()];
  return s;
}

json random_value(std::mt19937_64& rng, int depth) {
  switch (rng() % (depth > 0 ? 7 : 4)) {
    case 0:
      return nullptr;
    case 1:
      return static_cast<int64_t>(rng());
    case 2:
      return random_string(rng);
    case 3:
      return (rng() & 1) != 0;
    case 4:
      return 1.5e308 * ((rng() & 1) ? 1 : -1);
    case 5: {
      json a = json::array();
      for (int i = 0, n = static_cast<int>(rng() % 4); i < n; ++i)
        a.push_back(random_value(rng, depth - 1));
      return a;
    }
    default: {
      json o = json::object();
      for (int i = 0, n = static_cast<int>(rng() % 4); i < n; ++i)
        o[random_string(rng)] = random_value(rng, depth - 1);
      return o;
    }
  }
}

// Top-level identifier fields are copied into spans unredacted by design (SPEC§11 skip-list;
// docs/contract.md REDACT): a secret planted there is not a leak, so plant() stays out of them.
const char* const kIdentifierFields[] = {
    "hook", "hook_event_name", "tool_name", "session_id", "conversationId", "cwd",
    "transcript_path", "transcriptPath", "artifactDirectoryPath", "workspacePaths", "timestamp"};
bool identifier_field(const std::string& k) {
  for (const char* f : kIdentifierFields)
    if (k == f) return true;
  return false;
}

// Places `secret` in a string somewhere inside `j` (or adds a field).
void plant(json& j, const std::string& secret, std::mt19937_64& rng, bool top = true) {
  if (j.is_object() && !j.empty() && (rng() % 3) != 0) {
    auto it = j.begin();
    std::advance(it, static_cast<long>(rng() % j.size()));
    if (top && identifier_field(it.key())) {
      j["note"] = "token " + secret;
      return;
    }
    if (it->is_string()) {
      *it = it->get<std::string>() + " " + secret + " ";
      return;
    }
    if (it->is_object() || it->is_array()) return plant(*it, secret, rng, false);
  }
  if (j.is_array() && !j.empty()) return plant(j[rng() % j.size()], secret, rng, false);
  if (j.is_object())
    j["note"] = "token " + secret;
  else if (j.is_array())
    j.push_back("token " + secret);
}

Case make_case(const std::vector<Fixture>& fixtures, Host host, uint64_t seed, bool misbehave) {
  std::mt19937_64 rng(seed);
  Case c;
  const Fixture& fx = fixtures[rng() % fixtures.size()];
  c.event = fx.event;
  const unsigned ev_roll = rng() % 20;
  if (ev_roll == 0)
    c.event = "NotAnEvent";
  else if (ev_roll == 1)
    c.event = "";
  else if (ev_roll == 2) {
    const auto& evs = pinta::fuzz::events(host);
    c.event = evs[rng() % evs.size()];
  }
  std::string bytes = fx.bytes;
  json doc = json::parse(bytes, nullptr, false);
  switch (rng() % 12) {
    case 0:
      c.mutation = "none";
      break;
    case 1:
    case 2: {  // byte mutations
      c.mutation = "bytes";
      for (int i = 0, n = 1 + static_cast<int>(rng() % 8); i < n && !bytes.empty(); ++i) {
        const size_t at = rng() % bytes.size();
        switch (rng() % 4) {
          case 0:
            bytes[at] = static_cast<char>(rng());
            break;
          case 1:
            bytes.erase(at, 1 + rng() % 16);
            break;
          case 2:
            bytes.insert(at, std::string(1, "{}[]\":,\\\x80\xff\x00"[rng() % 12]));
            break;
          default:
            bytes.insert(at, bytes.substr(rng() % bytes.size(), rng() % 32));
            break;
        }
      }
      break;
    }
    case 3:
    case 4: {  // structural
      c.mutation = "structure";
      if (doc.is_object()) {
        for (int i = 0, n = 1 + static_cast<int>(rng() % 4); i < n; ++i) {
          if (!doc.empty() && (rng() & 1)) {
            auto it = doc.begin();
            std::advance(it, static_cast<long>(rng() % doc.size()));
            *it = random_value(rng, 3);
          } else {
            doc[random_string(rng)] = random_value(rng, 3);
          }
        }
        bytes = doc.dump();
      }
      break;
    }
    case 5:
    case 6: {  // planted secret, valid JSON
      c.mutation = "secret";
      c.planted = kSecrets[rng() % kSecrets.size()];
      if (doc.is_object()) {
        plant(doc, c.planted, rng);
        bytes = doc.dump();
      } else {
        bytes += " " + c.planted;
      }
      break;
    }
    case 7: {  // nesting
      c.mutation = "nesting";
      const int depth = static_cast<int>(rng() % 600);
      std::string deep = std::string(depth, '[') + "1" + std::string(depth, ']');
      bytes = R"({"tool_name":"x","tool_input":)" + deep + "}";
      break;
    }
    case 8: {  // text-level hazards
      static const std::vector<std::string> hz = {
          "\"\\ud800\"",      "\"\\udc00x\"", "\"\xff\xfe\"", "\"\xc0\xaf\"",
          "\"\xed\xa0\x80\"", "NaN",          "1e99999",      "\"\\u0000\""};
      c.mutation = "hazard";
      bytes = R"({"session_id":"s","tool_input":{"v":)" + hz[rng() % hz.size()] + "}}";
      break;
    }
    case 9: {  // truncation / trailing
      c.mutation = "truncate";
      if (!bytes.empty())
        bytes =
            (rng() & 1) ? bytes.substr(0, rng() % bytes.size()) : bytes + (rng() & 1 ? "{}" : "x");
      break;
    }
    case 10: {  // huge
      c.mutation = "huge";
      const size_t n = (1u << 20) + rng() % (2u << 20);
      bytes = R"({"session_id":"s","tool_input":{"content":")" + std::string(n, 'a') + "\"}}";
      break;
    }
    default: {  // generated from nothing
      c.mutation = "generated";
      bytes = random_value(rng, 4).dump();
      break;
    }
  }
  if (rng() % 8 == 0) bytes = "\xEF\xBB\xBF" + bytes;  // BOM
  if (rng() % 4 == 0) bytes += "\n";
  c.stdin_bytes = std::move(bytes);
  switch (rng() % 8) {
    case 0:
    case 1:
    case 2:
      c.mode = Stdin::kClosed;
      break;
    case 3:
    case 4:
      c.mode = Stdin::kOpen;
      break;
    case 5:
      c.mode = Stdin::kDripped;
      c.drip_chunk = 1 + rng() % 4096;
      break;
    case 6:
      c.mode = Stdin::kNone;
      break;
    default:
      c.mode = Stdin::kClosed;
      c.capped_home = true;
      break;
  }
  // Dripping a megabyte a few bytes at a time would take minutes: drip big inputs in big chunks.
  if (c.mode == Stdin::kDripped && c.stdin_bytes.size() > 64 * 1024)
    c.drip_chunk = 256 * 1024;
  // Most runs shorten the stdin deadline (INPUT-2): an open or dripped stdin holding no complete
  // object then costs 100 ms instead of 1 s. One run in 16 keeps the default deadline.
  if (rng() % 16 != 0) c.stdin_timeout_ms = 100;
  // Guard and collector behaviour (an independent roll, so every mutation meets every one).
  if (misbehave) {
    c.guard = static_cast<GuardMode>(rng() % kGuardModes);
    if (rng() % 4 == 0) c.collector = static_cast<CollectorMode>(1 + rng() % (kCollectorModes - 1));
  }
  return c;
}

// ---- one worker's fixed world: homes and fake servers -----------------------------------------

using pinta::fakes::FakeServer;
using pinta::fakes::Reply;

Reply json_reply(int status, const json& body) {
  Reply r;
  r.status = status;
  r.body = body.dump();
  return r;
}

Reply guard_reply(GuardMode m) {
  Reply r = json_reply(200, {{"decision", "ALLOW"}});
  switch (m) {
    case kGuardDeny:
      return json_reply(200, {{"decision", "DENY"}, {"reason", kDenyReason}});
    case kGuardReviewAsk:
      return json_reply(200, {{"decision", "REVIEW"}, {"reason", kReviewReason}});
    case kGuard500:
      return json_reply(500, {{"error", "boom"}});
    case kGuardGarbage:
      r.raw = "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n{\"decisio\xff";
      return r;
    case kGuardSlow:
      r.delay = std::chrono::milliseconds(kGuardTimeoutMs * 4);
      return r;
    case kGuardNever:
      r.never_answer = true;
      return r;
    case kGuardClose:
      r.close_without_reply = true;
      return r;
    default:
      return r;
  }
}

Reply collector_reply(CollectorMode m) {
  Reply r = json_reply(200, json::object());
  switch (m) {
    case kCollector500:
      return json_reply(500, json::object());
    case kCollectorGarbage:
      r.raw = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n\x00\xff{[";
      return r;
    case kCollectorNever:
      r.never_answer = true;
      return r;
    default:
      return r;
  }
}

struct World {
  std::string home, capped_home;
  std::unique_ptr<FakeServer> guards[kGuardModes];
  long guard_uses[kGuardModes] = {};
  std::unique_ptr<FakeServer> collectors[kCollectorModes];
  long collector_uses[kCollectorModes] = {};
  std::string refused_url;
  long serial = 0;  // runs of this worker (minimisation included): each gets its own guard path
  long telemetry_requests = 0, telemetry_bytes = 0;
  std::vector<std::string> leaked;  // collector bodies holding a planted secret

  World(const stdfs::path& base, bool misbehave) {
    home = (base / "home").string();
    capped_home = (base / "home-capped").string();
    stdfs::create_directories(home);
    stdfs::create_directories(stdfs::path(capped_home) / ".gemini");
    const std::string env = (stdfs::path(capped_home) / ".gemini" / "pinta-gemini.env").string();
    std::ofstream(env) << "PINTA_MAX_INPUT_BYTES=4096\n";
    stdfs::permissions(env, stdfs::perms::owner_read | stdfs::perms::owner_write);
    if (!misbehave) return;
    for (int m = kGuardAllow; m < kGuardModes; ++m)
      if (m != kGuardRefused) guards[m] = make_guard(static_cast<GuardMode>(m));
    for (int m = kCollectorOk; m < kCollectorModes; ++m)
      collectors[m] = make_collector(static_cast<CollectorMode>(m));
    FakeServer dead;  // a port nobody listens on any more: connection refused
    refused_url = dead.url("/guard");
    dead.stop();
  }
  ~World() {
    for (auto& c : collectors) harvest(c);
  }
  static std::unique_ptr<FakeServer> make_guard(GuardMode m) {
    return std::make_unique<FakeServer>(std::vector<Reply>{}, guard_reply(m));
  }
  static std::unique_ptr<FakeServer> make_collector(CollectorMode m) {
    return std::make_unique<FakeServer>(std::vector<Reply>{}, collector_reply(m));
  }
  // Servers are reused across runs but recycled now and then: they record every request, and one
  // that holds requests (never answers) keeps a handler thread and a socket per request until it
  // stops. A recycled collector is scanned first.
  void after_guard_use(GuardMode m) {
    if (!guards[m] || ++guard_uses[m] < (m == kGuardNever || m == kGuardSlow ? 32 : 256)) return;
    guards[m] = make_guard(m);
    guard_uses[m] = 0;
  }
  void after_collector_use(CollectorMode m) {
    if (!collectors[m] || ++collector_uses[m] < 128) return;
    harvest(collectors[m]);
    collectors[m] = make_collector(m);
    collector_uses[m] = 0;
  }
  void harvest(std::unique_ptr<FakeServer>& c) {
    if (!c) return;
    for (const auto& r : c->requests()) {
      ++telemetry_requests;
      telemetry_bytes += static_cast<long>(r.body.size());
      for (const auto& secret : kSecrets)
        if (r.body.find(secret) != std::string::npos) leaked.push_back(r.body);
    }
    c.reset();
  }
};

// ---- running and judging ----------------------------------------------------------------------

struct Observed {
  SpawnOutcome r;
  size_t guard_requests = 0;  // requests the guard server got during this run
};

std::string expected_reply(Host host, const Case& c, bool consulted) {
  if (consulted && c.guard == kGuardDeny) {
    json d = {{"decision", "deny"}, {"reason", kDenyReason}};
    if (host == Host::kGemini) d["systemMessage"] = kDenyReason;
    return d.dump();
  }
  if (consulted && c.guard == kGuardReviewAsk)
    return json{{"decision", "ask"}, {"reason", kReviewReason}}.dump();
  return pinta::fuzz::allow_reply(host, c.event).dump();
}

std::string violation(const Options& o, Host host, const Case& c, const Observed& ob) {
  const SpawnOutcome& r = ob.r;
  if (!r.started) return "spawn-failed";
  if (r.term_signal) return "killed-by-signal";
  if (r.timed_out) return "hung";
  if (!r.exit_code || *r.exit_code != 0) return "nonzero-exit";
  if (!r.err.empty()) return "stderr-output";
  if (r.pipes_held) return "pipes-held-open";
  // The one reply check (pinta/hosts/reply_check.h): bytes first, then what the host reads.
  const pinta::hosts::ReplyCheck rc = pinta::hosts::check_reply(host, c.event, {r.out, 0});
  if (!rc.framing.empty()) return "not-one-line";
  if (!rc.shape.empty()) return "reply-shape";
  const std::string line = r.out.substr(0, r.out.size() - 1);
  if (ob.guard_requests > 0 && !pinta::fuzz::gate_event(host, c.event)) return "guard-off-gate";
  if (ob.guard_requests > 1) return "guard-asked-twice";
  const json got = json::parse(line);
  const auto replied_after = std::chrono::duration_cast<std::chrono::milliseconds>(
      r.first_stdout_after.count() >= 0 ? r.first_stdout_after : r.exited_after);
  // The guard counts a request when it arrives, not when the adapter reads the answer: under load
  // (many --jobs on few cores) the answer can come back after the adapter's guard deadline, and
  // failing open is then the contract. So an allow reply after a consulted guard is accepted
  // when the reply came no sooner than that deadline (a 100k-run campaign at --jobs 16 on 2
  // cores saw 3 such runs; none reproduced when re-run).
  const bool failed_open = ob.guard_requests == 1 &&
                           got == json::parse(expected_reply(host, c, false)) &&
                           replied_after.count() >= kGuardTimeoutMs;
  if (!failed_open && got != json::parse(expected_reply(host, c, ob.guard_requests == 1)))
    return c.guard == kGuardNone ? "not-allow-without-guard" : "reply-ignores-guard";
  if (!c.planted.empty() &&
      (r.out.find(c.planted) != std::string::npos || r.err.find(c.planted) != std::string::npos))
    return "secret-leak";
  if (replied_after.count() > o.budget_ms) return "over-budget";
  return "";
}

std::string family_agent(const std::string& host) {
  return pinta::fuzz::host_for_agent(host) == Host::kGemini || host.rfind("gemini", 0) == 0
             ? "gemini"
             : "antigravity";
}

Observed run_case(const Options& o, World& w, const Case& c) {
  const long serial = ++w.serial;
  SpawnSpec sp;
  sp.argv = o.adapter;
  sp.argv.insert(sp.argv.end(), {"--agent", family_agent(o.host), "--event", c.event});
  const std::string& home = c.capped_home ? w.capped_home : w.home;
  sp.env = {"HOME=" + home, "PATH=/usr/bin:/bin"};
  if (c.stdin_timeout_ms > 0)
    sp.env.push_back("PINTA_STDIN_TIMEOUT_MS=" + std::to_string(c.stdin_timeout_ms));
  FakeServer* guard = nullptr;
  if (c.guard != kGuardNone) {
    guard = w.guards[c.guard].get();
    // A path of its own per run: a request the adapter gave up on may reach the server late,
    // and must not be counted for the next run.
    sp.env.push_back("PINTA_GUARD_ENDPOINT=" +
                     (guard ? guard->url("/guard/" + std::to_string(serial)) : w.refused_url));
    sp.env.push_back("PINTA_GUARD_TIMEOUT_MS=" + std::to_string(kGuardTimeoutMs));
    if (c.guard == kGuardReviewAsk) sp.env.push_back("PINTA_GUARD_REVIEW=ask");
  }
  if (c.collector != kCollectorNone && w.collectors[c.collector]) {
    sp.env.push_back("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=" +
                     w.collectors[c.collector]->url("/v1/traces"));
    // Bounded flushers: a never-answering collector must not pile up processes (OTLP-5).
    sp.env.push_back("PINTA_OTLP_TIMEOUT_MS=200");
    sp.env.push_back("PINTA_OTLP_FLUSH_MAX_MS=1000");
  }
  sp.cwd = home;
  sp.stdin_data = c.stdin_bytes;
  sp.mode = c.mode;
  sp.drip_chunk = c.drip_chunk;
  sp.timeout = std::chrono::milliseconds(o.budget_ms * 3);
  Observed ob;
  ob.r = spawn_and_wait(sp);
  if (guard) {
    // A server records a request before it answers, so a deny or ask the adapter received is
    // always counted; a request still in flight when the run ended can only be missed, and a
    // missed one only makes the expected reply the allow reply, which every fail-open path gives.
    const std::string path = "/guard/" + std::to_string(serial);
    for (const auto& r : guard->requests()) ob.guard_requests += r.path == path;
    w.after_guard_use(c.guard);
  }
  if (c.collector != kCollectorNone) w.after_collector_use(c.collector);
  return ob;
}

// Deletes chunks of stdin while the same violation still reproduces (bounded number of runs).
Case minimise(const Options& o, Host host, World& w, Case c, const std::string& v) {
  int budget = 150;
  for (size_t chunk = std::max<size_t>(c.stdin_bytes.size() / 2, 1); chunk >= 1 && budget > 0;
       chunk /= 2) {
    for (size_t at = 0; at < c.stdin_bytes.size() && budget > 0;) {
      Case t = c;
      t.stdin_bytes.erase(at, chunk);
      if (!t.planted.empty() && t.stdin_bytes.find(t.planted) == std::string::npos) {
        at += chunk;
        continue;
      }
      --budget;
      if (violation(o, host, t, run_case(o, w, t)) == v)
        c = std::move(t);
      else
        at += chunk;
    }
    if (chunk == 1) break;
  }
  return c;
}

std::string case_host(const std::string& host) {
  if (host == "gemini" || host == "antigravity") return host;
  if (host == "agy") return "antigravity";
  return host;  // a conformance host name (gemini-0.61, agy-1.2, ...)
}

// A conformance case (conformance/cases schema, conformance/src/case.cc) replaying the finding.
json reproducer_case(const Options& o, Host host, int n, const std::string& v, const Case& c,
                     bool consulted) {
  char id[16];
  std::snprintf(id, sizeof id, "INPUT-9%03d", n % 1000);
  const std::string fam = host == Host::kGemini ? "gemini" : "antigravity";
  json expect = {{"stdout", "one_json_line"}, {"stderr", "empty"},       {"exit_code", 0},
                 {"signaled", false},         {"pipes_closed", true},
                 {"reply", {{fam, json::parse(expected_reply(host, c, consulted))}}}};
  json k = {{"id", id},
            {"area", "INPUT"},
            {"title", "pinta-fuzz-campaign finding: " + v},
            {"requirement", "The contract holds for this generated input (campaign seed " +
                                std::to_string(o.seed) + ", mutation " + c.mutation + ")."},
            {"source", "fuzz/campaign (process-level campaign)"},
            {"level", "must"},
            {"hosts", json::array({case_host(o.host)})},
            {"event", c.event},
            {"stdin", stdin_name(c.mode)},
            {"input", {{"hex", hex(c.stdin_bytes)}}},
            {"expect", expect}};
  if (c.capped_home) k["env_file"] = "PINTA_MAX_INPUT_BYTES=4096\n";
  k["env"] = json::object();
  if (c.stdin_timeout_ms > 0) k["env"]["PINTA_STDIN_TIMEOUT_MS"] = std::to_string(c.stdin_timeout_ms);
  if (c.guard != kGuardNone) {
    const Reply g = guard_reply(c.guard);
    json fb = {{"status", g.status}, {"body", g.body}};
    if (g.delay.count()) fb["delayMs"] = g.delay.count();
    if (g.never_answer) fb["neverAnswer"] = true;
    if (g.close_without_reply) fb["closeWithoutReply"] = true;
    if (!g.raw.empty()) fb["raw"] = json(g.raw).dump(-1, ' ', false, json::error_handler_t::replace);
    k["guard"] = {{"fallback", fb}};
    k["env"]["PINTA_GUARD_ENDPOINT"] =
        c.guard == kGuardRefused ? "${DEAD_URL}/guard" : "${GUARD_URL}/guard";
    k["env"]["PINTA_GUARD_TIMEOUT_MS"] = std::to_string(kGuardTimeoutMs);
    if (c.guard == kGuardReviewAsk) k["env"]["PINTA_GUARD_REVIEW"] = "ask";
  }
  return k;
}

void save(const Options& o, Host host, int n, const std::string& v, const Case& c, const Observed& ob) {
  const SpawnOutcome& r = ob.r;
  const stdfs::path base = stdfs::path(o.out) / (std::to_string(n) + "-" + v);
  json j = {{"kind", "pinta-fuzz-campaign reproducer"},
            {"violation", v},
            {"host", o.host},
            {"event", c.event},
            {"argv", o.adapter},
            {"stdin_mode", stdin_name(c.mode)},
            {"drip_chunk", c.drip_chunk},
            {"stdin_timeout_ms", c.stdin_timeout_ms},
            {"env_file", c.capped_home ? "PINTA_MAX_INPUT_BYTES=4096" : ""},
            {"guard", kGuardNames[c.guard]},
            {"collector", kCollectorNames[c.collector]},
            {"planted_secret", c.planted},
            {"mutation", c.mutation},
            {"observed",
             {{"exit_code", r.exit_code ? json(*r.exit_code) : json(nullptr)},
              {"signal", r.term_signal ? json(*r.term_signal) : json(nullptr)},
              {"guard_requests", ob.guard_requests},
              {"pipes_held", r.pipes_held},
              {"stdout", json(r.out).dump(-1, ' ', false, json::error_handler_t::replace)},
              {"stderr",
               json(r.err.substr(0, 4096)).dump(-1, ' ', false, json::error_handler_t::replace)},
              {"ms", r.exited_after.count() / 1000.0}}}};
  std::ofstream(base.string() + ".json") << j.dump(2) << "\n";
  std::ofstream(base.string() + ".bin", std::ios::binary) << c.stdin_bytes;
  const json k = reproducer_case(o, host, n, v, c, ob.guard_requests == 1);
  // `conformance run --cases <out>` wants each case under its area's directory.
  std::error_code ec;
  stdfs::create_directories(stdfs::path(o.out) / "INPUT", ec);
  std::ofstream((stdfs::path(o.out) / "INPUT" / (k["id"].get<std::string>() + ".case.json")).string())
      << k.dump(2) << "\n";
}

int usage(const std::string& msg) {
  std::fprintf(stderr,
               "pinta-fuzz-campaign: %s (usage: --adapter \"<cmd>\" --host "
               "gemini|antigravity|<conformance host> [--runs N] [--seed S] [--jobs J] [--out DIR] "
               "[--fixtures DIR] [--budget-ms B] [--no-misbehave] [--quiet] "
               "[--progress-interval-ms MS] | --version)\n",
               msg.c_str());
  return 2;
}

}  // namespace

std::vector<std::string> adapter_argv(const std::string& command, std::string* error) {
  std::vector<std::string> words;
  std::string cur;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < command.size(); ++i) {
    const char ch = command[i];
    if (quote) {
      if (ch == quote) {
        quote = 0;
      } else if (ch == '\\' && quote == '"' && i + 1 < command.size()) {
        cur += command[++i];
      } else {
        cur += ch;
      }
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
      in_word = true;
    } else if (ch == '\\' && i + 1 < command.size()) {
      cur += command[++i];
      in_word = true;
    } else if (ch == ' ' || ch == '\t' || ch == '\n') {
      if (in_word) words.push_back(cur);
      cur.clear();
      in_word = false;
    } else {
      cur += ch;
      in_word = true;
    }
  }
  if (quote) {
    if (error) *error = "unterminated quote in --adapter";
    return {};
  }
  if (in_word) words.push_back(cur);
  if (words.empty()) {
    if (error) *error = "--adapter is empty";
    return {};
  }
  std::string& exe = words[0];
  std::error_code ec;
  if (exe.find('/') == std::string::npos) {
    // A bare name: looked up in this process's PATH now (each run gets PATH=/usr/bin:/bin).
    const char* path = std::getenv("PATH");  // NOLINT(concurrency-mt-unsafe)
    std::string found;
    std::stringstream dirs(path ? path : "");
    for (std::string d; std::getline(dirs, d, ':');) {
      const stdfs::path p = stdfs::path(d.empty() ? "." : d) / exe;
      if (::access(p.c_str(), X_OK) == 0 && !stdfs::is_directory(p, ec)) {
        found = stdfs::absolute(p, ec).string();
        break;
      }
    }
    if (found.empty()) {
      if (error) *error = "adapter '" + exe + "' not found in PATH";
      return {};
    }
    exe = found;
  } else if (!stdfs::path(exe).is_absolute()) {
    // Relative to where the campaign was started, not to the scratch home a run uses as cwd.
    exe = stdfs::absolute(exe, ec).lexically_normal().string();
  }
  if (::access(exe.c_str(), X_OK) != 0) {
    if (error) *error = "adapter '" + exe + "' is not an executable file";
    return {};
  }
  return words;
}

int run(const Options& o) {
  // Setup errors name the program that was run (`conformance fuzz` or pinta-fuzz-campaign);
  // each front end prints its own usage.
  const auto fail = [&o](const std::string& msg) {
    std::fprintf(stderr, "%s: %s\n", o.program.c_str(), msg.c_str());
    return 2;
  };
  if (o.adapter.empty()) return fail("--adapter is required");
  const std::string& h = o.host;
  const bool gemini = h == "gemini" || h.rfind("gemini-", 0) == 0;
  const bool agy = h == "antigravity" || h == "agy" || h.rfind("agy-", 0) == 0 ||
                   h.rfind("antigravity-", 0) == 0;
  if (!gemini && !agy)
    return fail("--host must be gemini, antigravity, agy or a conformance host "
                "(gemini-0.61, agy-1.2, antigravity-2.0, ...), not '" + h + "'");
  const Host host = gemini ? Host::kGemini : Host::kAntigravity;
  const auto fixtures = load_fixtures(o.fixtures, host);
  if (fixtures.empty()) return fail("no fixtures for " + o.host + " under " + o.fixtures);
  std::error_code ec;
  stdfs::create_directories(o.out, ec);
  if (ec) return fail("cannot create --out " + o.out + ": " + ec.message());
  ::signal(SIGPIPE, SIG_IGN);  // a child closing stdin early must not kill the campaign
  const stdfs::path scratch =
      stdfs::temp_directory_path() / ("pinta-campaign-" + std::to_string(::getpid()));

  std::atomic<long> next{0}, done{0};
  std::atomic<int> findings{0};
  std::mutex mu;
  std::map<std::string, long> by_violation;
  std::map<std::string, long> by_guard;
  std::map<std::string, double> ms_by_kind;
  std::vector<std::string> leaked;
  long telemetry_requests = 0, telemetry_bytes = 0;
  // Progress: a redrawn line on a TTY, a plain line every progress_interval_ms otherwise,
  // nothing with --quiet. `tty` also decides whether a finding line first clears the bar.
  const bool tty = !o.quiet && ::isatty(2) != 0;
  const auto t0 = std::chrono::steady_clock::now();
  auto last_progress = t0;
  auto record = [&](const std::string& v, const Case& m, const Observed& rm, long i) {
    std::lock_guard<std::mutex> lock(mu);
    const int n = ++findings;
    ++by_violation[v];
    save(o, host, n, v, m, rm);
    std::fprintf(stderr, "%sfinding %d: %s (run %ld, seed %llu) → %s/%d-%s.json\n",
                 tty ? "\r\033[K" : "", n, v.c_str(), i,
                 static_cast<unsigned long long>(o.seed + static_cast<uint64_t>(i)), o.out.c_str(),
                 n, v.c_str());
  };
  auto worker = [&](int id) {
    World w(scratch / std::to_string(id), o.misbehave);
    std::map<std::string, long> guards;
    std::map<std::string, double> ms;  // wall time per run kind (where a campaign spends its time)
    for (long i; (i = next.fetch_add(1)) < o.runs;) {
      const Case c = make_case(fixtures, host, o.seed + static_cast<uint64_t>(i), o.misbehave);
      ++guards[kGuardNames[c.guard]];
      const auto r0 = std::chrono::steady_clock::now();
      const Observed r = run_case(o, w, c);
      const double took =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - r0).count();
      ms[std::string("stdin:") + stdin_name(c.mode)] += took;
      ms["mutation:" + c.mutation] += took;
      ms[std::string("guard:") + kGuardNames[c.guard]] += took;
      const std::string v = violation(o, host, c, r);
      if (!v.empty()) {
        const Case m = v == "over-budget" ? c : minimise(o, host, w, c, v);
        record(v, m, run_case(o, w, m), i);
      }
      const long d = ++done;
      if (!o.quiet) {
        const auto now = std::chrono::steady_clock::now();
        const auto every = tty ? std::chrono::milliseconds(200)
                               : std::chrono::milliseconds(o.progress_interval_ms);
        std::lock_guard<std::mutex> lock(mu);
        if (now - last_progress >= every || (tty && d == o.runs)) {
          last_progress = now;
          const double s = std::chrono::duration<double>(now - t0).count();
          if (tty) {
            const int width = 30;
            const int fill = static_cast<int>(width * d / o.runs);
            std::fprintf(stderr, "\r[%s%s] %ld/%ld  %.0f runs/s  %d findings",
                         std::string(fill, '#').c_str(), std::string(width - fill, '.').c_str(), d,
                         o.runs, d / s, findings.load());
          } else {
            std::fprintf(stderr, "%s: %ld/%ld runs, %.0f runs/s, %d findings, %.0f s\n",
                         o.program.c_str(), d, o.runs, d / s, findings.load(), s);
          }
        }
      }
    }
    // Give the last detached flushers a moment to deliver, then read what the collectors got.
    if (o.misbehave) std::this_thread::sleep_for(std::chrono::milliseconds(300));
    for (auto& c : w.collectors) w.harvest(c);
    std::lock_guard<std::mutex> lock(mu);
    for (auto& [k, n] : guards) by_guard[k] += n;
    for (auto& [k, t] : ms) ms_by_kind[k] += t;
    telemetry_requests += w.telemetry_requests;
    telemetry_bytes += w.telemetry_bytes;
    for (auto& b : w.leaked) leaked.push_back(std::move(b));
  };
  std::vector<std::thread> pool;
  for (int j = 0; j < o.jobs; ++j) pool.emplace_back(worker, j);
  for (auto& t : pool) t.join();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // No planted secret may reach the collector (REDACT: spans are redacted before they are queued).
  for (const auto& body : leaked) {
    const int n = ++findings;
    ++by_violation["secret-in-telemetry"];
    std::ofstream((stdfs::path(o.out) / (std::to_string(n) + "-secret-in-telemetry.body")).string(),
                  std::ios::binary)
        << body;
    std::fprintf(stderr, "finding %d: secret-in-telemetry → %s/%d-secret-in-telemetry.body\n", n,
                 o.out.c_str(), n);
  }
  stdfs::remove_all(scratch, ec);
  if (tty) std::fprintf(stderr, "\n");  // ends the redrawn progress line
  json summary = {{"host", o.host},
                  {"runs", done.load()},
                  {"seconds", secs},
                  {"runs_per_second", done.load() / secs},
                  {"jobs", o.jobs},
                  {"seed", o.seed},
                  {"findings", findings.load()},
                  {"by_violation", by_violation},
                  {"by_guard", by_guard},
                  {"ms_by_kind", ms_by_kind},
                  {"collector_requests", telemetry_requests},
                  {"collector_bytes", telemetry_bytes},
                  {"out", o.out}};
  std::printf("%s\n", summary.dump().c_str());
  return findings.load() == 0 ? 0 : 1;
}

int cli_main(int argc, char** argv) {
  Options o;
  // $PINTA_FIXTURES_DIR, the installed copy, the source tree (pinta/common/data_dir.h).
  o.fixtures = pinta::data::find_dir("PINTA_FIXTURES_DIR", "fixtures", "fixtures");
  auto number = [](const std::string& s, long lo, long* out) {
    try {
      size_t used = 0;
      long v = std::stol(s, &used);
      if (used != s.size() || v < lo) return false;
      *out = v;
      return true;
    } catch (...) {
      return false;
    }
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    std::string v;
    long n = 0;
    if (a == "-h" || a == "--help") {
      usage("help");
      return 0;
    } else if (a == "--adapter") {
      if (!value(&v)) return usage("--adapter needs a command");
      std::string err;
      o.adapter = adapter_argv(v, &err);
      if (o.adapter.empty()) return usage(err);
    } else if (a == "--host") {
      if (!value(&o.host)) return usage("--host needs gemini or antigravity");
    } else if (a == "--runs") {
      if (!value(&v) || !number(v, 1, &n)) return usage("--runs wants a positive integer");
      o.runs = n;
    } else if (a == "--seed") {
      if (!value(&v) || !number(v, 0, &n)) return usage("--seed wants a non-negative integer");
      o.seed = static_cast<uint64_t>(n);
    } else if (a == "--jobs") {
      if (!value(&v) || !number(v, 1, &n) || n > 256) return usage("--jobs wants 1..256");
      o.jobs = static_cast<int>(n);
    } else if (a == "--budget-ms") {
      if (!value(&v) || !number(v, 1, &n)) return usage("--budget-ms wants a positive integer");
      o.budget_ms = n;
    } else if (a == "--out") {
      if (!value(&o.out)) return usage("--out needs a directory");
    } else if (a == "--fixtures") {
      if (!value(&o.fixtures)) return usage("--fixtures needs a directory");
    } else if (a == "--no-misbehave") {
      o.misbehave = false;
    } else if (a == "--quiet" || a == "-q") {
      o.quiet = true;
    } else if (a == "--progress-interval-ms") {
      if (!value(&v) || !number(v, 1, &n))
        return usage("--progress-interval-ms wants a positive integer");
      o.progress_interval_ms = n;
    } else {
      return usage("unknown argument " + a);
    }
  }
  return run(o);
}

}  // namespace pinta::fuzz::campaign
