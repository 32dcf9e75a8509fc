// Execution of the campaign's runs (execute.h).
#include "execute.h"
#include "generate.h"

#include <chrono>
#include <filesystem>
#include <fstream>

#include "host_table.h"

namespace pinta::fuzz::campaign {
namespace {

namespace stdfs = std::filesystem;
using nlohmann::json;
using pinta::fakes::FakeServer;
using pinta::fakes::Reply;

Reply json_reply(int status, const json& body) {
  Reply r;
  r.status = status;
  r.body = body.dump();
  return r;
}

// The --agent label `install` writes for the host's family (the registry's first label).
std::string family_agent(const std::string& host) {
  const auto family = campaign_host(host);
  return family ? std::string(pinta::hosts::descriptor(*family).agent_labels[0]) : host;
}

}  // namespace

Reply guard_reply(GuardMode m) {
  Reply r = json_reply(200, {{"decision", "ALLOW"}});
  switch (m) {
    case kGuardDeny:
      return json_reply(200, {{"decision", "DENY"}, {"reason", kDenyReason}});
    case kGuardDenyCapped: {
      Reply capped = json_reply(200, {{"decision", "DENY"}, {"reason", kDenyReason}});
      capped.max_request_body = 16u << 10;
      return capped;
    }
    case kGuardDenyDecorated:
      r.status = 403;
      r.body = std::string(R"({"decision":"DENY\n","reason":")") + kDenyReason +
               R"(","score":NaN,"ms":1e400})" + "\n{\"next\":1}\n";
      return r;
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

World::World(const stdfs::path& base, bool misbehave) {
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

World::~World() {
  for (auto& c : collectors) harvest(c);
}

std::unique_ptr<FakeServer> World::make_guard(GuardMode m) {
  return std::make_unique<FakeServer>(std::vector<Reply>{}, guard_reply(m));
}

std::unique_ptr<FakeServer> World::make_collector(CollectorMode m) {
  return std::make_unique<FakeServer>(std::vector<Reply>{}, collector_reply(m));
}

void World::after_guard_use(GuardMode m) {
  if (!guards[m] || ++guard_uses[m] < (m == kGuardNever || m == kGuardSlow ? 32 : 256)) return;
  guards[m] = make_guard(m);
  guard_uses[m] = 0;
}

void World::after_collector_use(CollectorMode m) {
  if (!collectors[m] || ++collector_uses[m] < 128) return;
  harvest(collectors[m]);
  collectors[m] = make_collector(m);
  collector_uses[m] = 0;
}

void World::harvest(std::unique_ptr<FakeServer>& c) {
  if (!c) return;
  for (const auto& r : c->requests()) {
    ++telemetry_requests;
    telemetry_bytes += static_cast<long>(r.body.size());
    for (const auto& secret : kSecrets)
      if (r.body.find(secret) != std::string::npos) leaked.push_back(r.body);
  }
  c.reset();
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
    sp.env.push_back("PINTA_GUARD_TIMEOUT_MS=" + std::to_string(c.guard_timeout_ms));
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

}  // namespace pinta::fuzz::campaign
