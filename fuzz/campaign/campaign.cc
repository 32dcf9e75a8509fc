// pinta-fuzz-campaign: process-level fuzzing of the adapter binary, run the way hosts run it.
//
//   pinta-fuzz-campaign --adapter "<cmd>" --host gemini|antigravity [--runs N] [--seed S]
//                       [--jobs J] [--out DIR] [--fixtures DIR] [--budget-ms B]
//
// Each run i (seeded with S+i, so a run is reproducible whatever --jobs is) picks an event and a
// fixture of that host (fixtures/<host>/<version>/<Event>/*.json), mutates it (bytes, structure,
// planted secrets, nesting, invalid UTF-8, lone surrogates, truncation, huge strings) or
// generates a payload, picks a stdin behaviour (closed after write, left open as the Antigravity
// app does, dripped, closed before anything is written, huge) and sometimes an env file with a
// small input cap, spawns the adapter with pinta::process and checks the contract
// (docs/contract.md), judged with the independent table in fuzz/common/host_table.h:
//   exit status 0, no signal; nothing on stderr; stdout is exactly one line holding one JSON
//   object valid for the host and event, and (no guard configured) the allow reply; the reply
//   arrives within --budget-ms; no planted secret in stdout or stderr.
// Each finding is minimised (chunk deletion while the same violation reproduces) and saved in
// --out as <n>-<violation>.json (a case: host, event, argv, stdin mode, stdin base64) plus .bin.
// Progress goes to stderr when it is a TTY. Exit: 0 no finding, 1 findings, 2 usage error.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "host_table.h"
#include "pinta/common/process.h"

namespace {

namespace stdfs = std::filesystem;
using nlohmann::json;
using pinta::fuzz::Host;

struct Options {
  std::vector<std::string> adapter;
  std::string host;
  long runs = 1000;
  uint64_t seed = 1;
  int jobs = 2;
  std::string out = "fuzz-campaign-out";
  std::string fixtures;
  long budget_ms = 3000;
};

struct Fixture {
  std::string event;
  std::string bytes;
};

struct Case {
  std::string event;
  std::string stdin_bytes;
  pinta::proc::StdinMode mode = pinta::proc::StdinMode::kCloseAfterWrite;
  size_t drip_chunk = 1;
  bool capped_home = false;  // HOME carries an env file with PINTA_MAX_INPUT_BYTES=4096
  std::string planted;       // a secret placed in the payload ("" = none)
  std::string mutation;
};

const std::vector<std::string> kSecrets = {
    "AKIAQWERTYUIOPASDFGH", "ghp_Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0EdCbA9",
    "sk_live_Qw3Er5Ty7Ui9Op1As3Df5Gh7", "xoxb-1111222233-4444555566667-QwErTy"};

const char* mode_name(pinta::proc::StdinMode m) {
  switch (m) {
    case pinta::proc::StdinMode::kCloseAfterWrite:
      return "closed";
    case pinta::proc::StdinMode::kKeepOpen:
      return "open";
    case pinta::proc::StdinMode::kDrip:
      return "dripped";
    case pinta::proc::StdinMode::kNone:
      return "none";
  }
  return "?";
}

std::string base64(const std::string& in) {
  static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t n = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    out += {t[n >> 18], t[(n >> 12) & 63], t[(n >> 6) & 63], t[n & 63]};
  }
  if (i + 1 == in.size()) {
    uint32_t n = uint8_t(in[i]) << 16;
    out += {t[n >> 18], t[(n >> 12) & 63], '=', '='};
  } else if (i + 2 == in.size()) {
    uint32_t n = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8);
    out += {t[n >> 18], t[(n >> 12) & 63], t[(n >> 6) & 63], '='};
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

// Places `secret` in a string somewhere inside `j` (or adds a field).
void plant(json& j, const std::string& secret, std::mt19937_64& rng) {
  if (j.is_object() && !j.empty() && (rng() % 3) != 0) {
    auto it = j.begin();
    std::advance(it, static_cast<long>(rng() % j.size()));
    if (it->is_string()) {
      *it = it->get<std::string>() + " " + secret + " ";
      return;
    }
    if (it->is_object() || it->is_array()) return plant(*it, secret, rng);
  }
  if (j.is_array() && !j.empty()) return plant(j[rng() % j.size()], secret, rng);
  if (j.is_object())
    j["note"] = "token " + secret;
  else if (j.is_array())
    j.push_back("token " + secret);
}

Case make_case(const std::vector<Fixture>& fixtures, Host host, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Case c;
  const Fixture& fx = fixtures[rng() % fixtures.size()];
  c.event = fx.event;
  const unsigned ev_roll = rng() % 20;
  if (ev_roll == 0)
    c.event = "NotAnEvent";
  else if (ev_roll == 1)
    c.event = "";
  else if (ev_roll == 2)
    c.event = std::string(host == Host::kGemini ? pinta::fuzz::kGeminiEvents[rng() % 11]
                                                : pinta::fuzz::kAgyEvents[rng() % 6]);
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
      c.mode = pinta::proc::StdinMode::kCloseAfterWrite;
      break;
    case 3:
    case 4:
      c.mode = pinta::proc::StdinMode::kKeepOpen;
      break;
    case 5:
      c.mode = pinta::proc::StdinMode::kDrip;
      c.drip_chunk = 1 + rng() % 4096;
      break;
    case 6:
      c.mode = pinta::proc::StdinMode::kNone;
      break;
    default:
      c.mode = pinta::proc::StdinMode::kCloseAfterWrite;
      c.capped_home = true;
      break;
  }
  // Dripping a megabyte a few bytes at a time would take minutes: drip big inputs in big chunks.
  if (c.mode == pinta::proc::StdinMode::kDrip && c.stdin_bytes.size() > 64 * 1024)
    c.drip_chunk = 256 * 1024;
  return c;
}

// ---- running and judging ----------------------------------------------------------------------

struct Homes {
  std::string plain, capped;
};

Homes make_homes(const stdfs::path& base) {
  Homes h{(base / "home").string(), (base / "home-capped").string()};
  stdfs::create_directories(h.plain);
  stdfs::create_directories(stdfs::path(h.capped) / ".gemini");
  const std::string env = (stdfs::path(h.capped) / ".gemini" / "pinta-gemini.env").string();
  std::ofstream(env) << "PINTA_MAX_INPUT_BYTES=4096\n";
  stdfs::permissions(env, stdfs::perms::owner_read | stdfs::perms::owner_write);
  return h;
}

std::string violation(const Options& o, Host host, const Case& c,
                      const pinta::proc::SpawnResult& r) {
  if (!r.started) return "spawn-failed";
  if (r.term_signal) return "killed-by-signal";
  if (r.timed_out || r.hard_limited) return "hung";
  if (!r.exit_code || *r.exit_code != 0) return "nonzero-exit";
  if (!r.err.empty()) return "stderr-output";
  if (r.out.empty() || r.out.back() != '\n' || r.out.find('\n') != r.out.size() - 1)
    return "not-one-line";
  const std::string line = r.out.substr(0, r.out.size() - 1);
  if (!pinta::fuzz::judge_reply(host, c.event, line).empty()) return "reply-shape";
  if (json::parse(line) != pinta::fuzz::allow_reply(host, c.event))
    return "not-allow-without-guard";
  if (!c.planted.empty() &&
      (r.out.find(c.planted) != std::string::npos || r.err.find(c.planted) != std::string::npos))
    return "secret-leak";
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
      r.first_stdout_after.count() >= 0 ? r.first_stdout_after : r.exited_after);
  if (took.count() > o.budget_ms) return "over-budget";
  return "";
}

pinta::proc::SpawnResult run_case(const Options& o, Host host, const Homes& homes, const Case& c,
                                  pinta::proc::Spawner& sp) {
  pinta::proc::SpawnRequest rq;
  rq.argv = o.adapter;
  rq.argv.insert(rq.argv.end(), {"--agent", o.host, "--event", c.event});
  const std::string home = c.capped_home ? homes.capped : homes.plain;
  rq.env = std::map<std::string, std::string>{{"HOME", home}, {"PATH", "/usr/bin:/bin"}};
  rq.cwd = home;
  rq.stdin_data = c.stdin_bytes;
  rq.stdin_mode = c.mode;
  rq.drip_chunk = c.drip_chunk;
  rq.drip_interval = std::chrono::milliseconds(1);
  rq.timeout = std::chrono::milliseconds(o.budget_ms * 3);
  rq.timeout_signal = SIGKILL;
  rq.hard_limit = std::chrono::milliseconds(o.budget_ms * 5);
  rq.max_capture = 1u << 20;
  (void)host;
  return sp.run(rq);
}

// Deletes chunks of stdin while the same violation still reproduces (bounded number of runs).
Case minimise(const Options& o, Host host, const Homes& homes, Case c, const std::string& v,
              pinta::proc::Spawner& sp) {
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
      if (violation(o, host, t, run_case(o, host, homes, t, sp)) == v)
        c = std::move(t);
      else
        at += chunk;
    }
    if (chunk == 1) break;
  }
  return c;
}

void save(const Options& o, int n, const std::string& v, const Case& c,
          const pinta::proc::SpawnResult& r) {
  const stdfs::path base = stdfs::path(o.out) / (std::to_string(n) + "-" + v);
  json j = {{"kind", "pinta-fuzz-campaign reproducer"},
            {"violation", v},
            {"host", o.host},
            {"event", c.event},
            {"argv", o.adapter},
            {"stdin_mode", mode_name(c.mode)},
            {"drip_chunk", c.drip_chunk},
            {"env_file", c.capped_home ? "PINTA_MAX_INPUT_BYTES=4096" : ""},
            {"planted_secret", c.planted},
            {"mutation", c.mutation},
            {"stdin_base64", base64(c.stdin_bytes)},
            {"observed",
             {{"exit_code", r.exit_code ? json(*r.exit_code) : json(nullptr)},
              {"signal", r.term_signal ? json(*r.term_signal) : json(nullptr)},
              {"stdout", json(r.out).dump(-1, ' ', false, json::error_handler_t::replace)},
              {"stderr",
               json(r.err.substr(0, 4096)).dump(-1, ' ', false, json::error_handler_t::replace)},
              {"ms", r.exited_after.count() / 1000.0}}}};
  std::ofstream(base.string() + ".json") << j.dump(2) << "\n";
  std::ofstream(base.string() + ".bin", std::ios::binary) << c.stdin_bytes;
}

int usage(const std::string& msg) {
  std::fprintf(
      stderr,
      "pinta-fuzz-campaign: %s (usage: --adapter \"<cmd>\" --host gemini|antigravity [--runs N] "
      "[--seed S] [--jobs J] [--out DIR] [--fixtures DIR] [--budget-ms B])\n",
      msg.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  o.fixtures = PINTA_SOURCE_FIXTURES;
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
      std::istringstream words(v);
      o.adapter.assign(std::istream_iterator<std::string>(words),
                       std::istream_iterator<std::string>());
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
    } else {
      return usage("unknown argument " + a);
    }
  }
  if (o.adapter.empty()) return usage("--adapter is required");
  if (o.host != "gemini" && o.host != "antigravity" && o.host != "agy")
    return usage("--host must be gemini, antigravity or agy, not '" + o.host + "'");
  const Host host = pinta::fuzz::host_for_agent(o.host);
  const auto fixtures = load_fixtures(o.fixtures, host);
  if (fixtures.empty()) return usage("no fixtures for " + o.host + " under " + o.fixtures);
  std::error_code ec;
  stdfs::create_directories(o.out, ec);
  if (ec) return usage("cannot create --out " + o.out + ": " + ec.message());
  const stdfs::path scratch =
      stdfs::temp_directory_path() / ("pinta-campaign-" + std::to_string(::getpid()));

  std::atomic<long> next{0}, done{0};
  std::atomic<int> findings{0};
  std::mutex mu;
  std::map<std::string, long> by_violation;
  const bool tty = ::isatty(2) != 0;
  const auto t0 = std::chrono::steady_clock::now();
  auto worker = [&](int id) {
    auto sp = pinta::proc::make_spawner();
    const Homes homes = make_homes(scratch / std::to_string(id));
    for (long i; (i = next.fetch_add(1)) < o.runs;) {
      const Case c = make_case(fixtures, host, o.seed + static_cast<uint64_t>(i));
      const auto r = run_case(o, host, homes, c, *sp);
      const std::string v = violation(o, host, c, r);
      if (!v.empty()) {
        const Case m = v == "over-budget" ? c : minimise(o, host, homes, c, v, *sp);
        const auto rm = run_case(o, host, homes, m, *sp);
        std::lock_guard<std::mutex> lock(mu);
        const int n = ++findings;
        ++by_violation[v];
        save(o, n, v, m, rm);
        std::fprintf(stderr, "%sfinding %d: %s (run %ld, seed %llu) → %s/%d-%s.json\n",
                     tty ? "\r\033[K" : "", n, v.c_str(), i,
                     static_cast<unsigned long long>(o.seed + static_cast<uint64_t>(i)),
                     o.out.c_str(), n, v.c_str());
      }
      const long d = ++done;
      if (tty && (d % 25 == 0 || d == o.runs)) {
        std::lock_guard<std::mutex> lock(mu);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const int width = 30;
        const int fill = static_cast<int>(width * d / o.runs);
        std::fprintf(stderr, "\r[%s%s] %ld/%ld  %.0f runs/s  %d findings",
                     std::string(fill, '#').c_str(), std::string(width - fill, '.').c_str(), d,
                     o.runs, d / s, findings.load());
      }
    }
  };
  std::vector<std::thread> pool;
  for (int j = 0; j < o.jobs; ++j) pool.emplace_back(worker, j);
  for (auto& t : pool) t.join();
  stdfs::remove_all(scratch, ec);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (tty) std::fprintf(stderr, "\n");
  json summary = {{"host", o.host},
                  {"runs", done.load()},
                  {"seconds", secs},
                  {"runs_per_second", done.load() / secs},
                  {"jobs", o.jobs},
                  {"seed", o.seed},
                  {"findings", findings.load()},
                  {"by_violation", by_violation},
                  {"out", o.out}};
  std::printf("%s\n", summary.dump().c_str());
  return findings.load() == 0 ? 0 : 1;
}
