// File: pinta/admin/doctor.h
// `pinta-gemini doctor`: for each host, where hooks are read from, whether ours is registered and
// would fire (each host's own loader and planner, from hosts/, run on the user's files; every
// Antigravity profile), stale entries at legacy paths, files a host would drop, double
// registration, the env file, endpoint and guard reachability, and the data directory. Each
// finding that breaks something carries the fix in one line.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pinta::admin {

struct DoctorOptions {
  std::string home;           // $HOME
  std::string gemini_home;    // $GEMINI_CLI_HOME or home
  std::string workspace;      // cwd (Gemini workspace settings, agy .agents/hooks.json)
  std::string env_file;       // default: home/.gemini/pinta-gemini.env
  std::string data_dir;       // default: $GEMINI_PLUGIN_DATA or home/.gemini/pinta-gemini-data
  std::string profile_dir;    // Antigravity profiles (default: the emulator's)
  std::string host;           // only this host's checks (install.h parse_host names); "" = all
  bool probe_network = true;  // contact PINTA_GUARD_ENDPOINT / OTLP endpoint
  int probe_timeout_ms = 1000;
};

struct Finding {
  std::string area;   // gemini | antigravity | deel | claude-code | env | endpoint | guard | data
  std::string level;  // ok | info | warn | broken
  std::string message;
  std::string fix;  // one line; empty for ok/info
  nlohmann::json detail = nlohmann::json::object();
};

struct DoctorReport {
  std::vector<Finding> findings;
  bool broken() const;
  nlohmann::json to_json() const;
  std::string to_text() const;
};

DoctorReport run_doctor(const DoctorOptions& options);

// Gemini CLI 0.61.0 extension enablement (bundle extension-manager.ts isEnabled): exposed for
// tests.
bool gemini_extension_enabled(const nlohmann::json& enablement, const std::string& name,
                              const std::string& cwd);

}  // namespace pinta::admin
