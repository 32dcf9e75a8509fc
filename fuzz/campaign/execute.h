// Execution: one worker's fixed world (two homes, one fake guard per guard behaviour and one fake
// collector per collector behaviour, reused across runs) and one run of a case in it, spawned the
// way a host spawns a hook (runner.h).
#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "campaign_case.h"
#include "pinta/fakes/fake_server.h"
#include "pinta/fuzz/campaign.h"
#include "runner.h"

namespace pinta::fuzz::campaign {

// What a fake guard answers in a behaviour (also written into reproducer cases), and a collector.
pinta::fakes::Reply guard_reply(GuardMode m);
pinta::fakes::Reply collector_reply(CollectorMode m);

struct World {
  using FakeServer = pinta::fakes::FakeServer;
  std::string home, capped_home;
  std::unique_ptr<FakeServer> guards[kGuardModes];
  long guard_uses[kGuardModes] = {};
  std::unique_ptr<FakeServer> collectors[kCollectorModes];
  long collector_uses[kCollectorModes] = {};
  std::string refused_url;
  long serial = 0;  // runs of this worker (minimisation included): each gets its own guard path
  long telemetry_requests = 0, telemetry_bytes = 0;
  std::vector<std::string> leaked;  // collector bodies holding a planted secret

  World(const std::filesystem::path& base, bool misbehave);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;
  static std::unique_ptr<FakeServer> make_guard(GuardMode m);
  static std::unique_ptr<FakeServer> make_collector(CollectorMode m);
  // Servers are reused across runs but recycled now and then: they record every request, and one
  // that holds requests (never answers) keeps a handler thread and a socket per request until it
  // stops. A recycled collector is scanned first.
  void after_guard_use(GuardMode m);
  void after_collector_use(CollectorMode m);
  // Counts a collector's requests, keeps the bodies holding a planted secret, drops the server.
  void harvest(std::unique_ptr<FakeServer>& c);
};

struct Observed {
  SpawnOutcome r;
  size_t guard_requests = 0;  // requests the guard server got during this run
};

// Runs one case in a worker's world.
Observed run_case(const Options& o, World& w, const Case& c);

}  // namespace pinta::fuzz::campaign
