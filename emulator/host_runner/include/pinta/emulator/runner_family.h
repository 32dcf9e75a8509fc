// File: pinta/emulator/runner_family.h
// What each family's folder implements for HostRunner (pinta/emulator/host_runner.h): how a host
// of the family is made and what a replay golden records of a run, as
// `pinta::emu::<folder>::kRunner` in emulator/hosts/<folder>/src/runner.cc, collected through
// hosts/families.def (emulator/host_runner/src/host_runner.cc). Every field is Required: a family
// without one does not build. Also the spawning shared by every family's runner.
#pragma once

#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "pinta/common/process.h"
#include "pinta/emulator/host_runner.h"
#include "pinta/hosts/family_types.h"
#include "pinta/hosts/hosts.h"

namespace pinta::emu {

struct FamilyRunner {
  // A runner for `host` (a host of this family in the registry), or null with `error` set.
  hosts::Required<std::unique_ptr<HostRunner> (*)(const std::string& host,
                                                  const HostRunnerOptions& options,
                                                  std::string& error)>
      make;
  // What a replay golden records of a run: the effect kind plus what the host does next, in the
  // family's own terms; canonical JSON, so a golden file changes only when the host would act
  // differently.
  hosts::Required<nlohmann::json (*)(const HookOutcome& outcome, const nlohmann::json& payload)>
      golden;
};

// Wraps the real spawner: replaces the host's stdin bytes/mode when the case asks for hostile
// input, and caps the timeouts so that a broken adapter cannot stall the suite (the hosts' own
// timeouts are 30 s / 60 s; a case states its own budget in timeout_ms).
class CaseSpawner : public pinta::proc::Spawner {
 public:
  explicit CaseSpawner(const HookCall& call)
      : in_(call.input),
        timeout_ms_(call.timeout_ms),
        pipe_grace_ms_(call.pipe_grace_ms),
        host_parent_(call.host_parent),
        cancel_(call.cancel) {}
  pinta::proc::SpawnResult run(const pinta::proc::SpawnRequest& request) override;
  const std::string& sent() const { return sent_; }

 private:
  HookInput in_;
  int timeout_ms_;
  int pipe_grace_ms_;
  std::vector<std::string> host_parent_;
  const std::atomic<bool>* cancel_;
  std::string sent_;
  std::unique_ptr<pinta::proc::Spawner> inner_ = pinta::proc::make_spawner();

  static pinta::proc::SpawnRequest under_parent(const std::vector<std::string>& parent,
                                                pinta::proc::SpawnRequest rq);
};

// The spawn's facts for an outcome's detail.
nlohmann::json spawn_json(const pinta::proc::SpawnResult& r);

// The rules of a host that is a family's version profile, read once per process and folder:
// `load(dir, host)` (a Result of the profile, with its `rules`) over options.profiles_dir when
// that folder holds <host>.json (the option is shared by every family's runner, so a folder of
// another family's profiles is not this one's), else the family's own folder. None, with `error`
// set, when the profile cannot be read.
template <typename Rules, typename Load>
std::optional<Rules> profile_rules(hosts::Family family, const std::string& host,
                                   const HostRunnerOptions& options, Load load, std::string& error) {
  static std::mutex mu;
  static std::map<std::string, Rules> cache;
  std::error_code ec;
  const std::string dir =
      !options.profiles_dir.empty() &&
              std::filesystem::exists(std::filesystem::path(options.profiles_dir) / (host + ".json"), ec)
          ? options.profiles_dir
          : hosts::profile_dir(family);
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(dir + "\n" + host);
  if (it == cache.end()) {
    auto prof = load(dir, host);
    if (!prof) {
      error = prof.error().message;
      return std::nullopt;
    }
    it = cache.emplace(dir + "\n" + host, prof->rules).first;
  }
  return it->second;
}

}  // namespace pinta::emu
