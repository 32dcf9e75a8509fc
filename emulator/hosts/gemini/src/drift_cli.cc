// `hostemu drift --host gemini --version V`: the version drift probe. It installs
// @google/gemini-cli@V (cached by ci/npm-hosts.sh), plays every session scenario
// (emulator/hosts/gemini/test/sessions/*.json) twice from identical fresh homes and workspaces —
// once through the REAL CLI offline (`gemini -p --fake-responses`, shared/reference/real-hosts.md)
// and once through `hostemu gemini session --profile P` with P the emulator's version profile for
// V (hosts/gemini/profiles/) — and prints every difference:
//   hooks   the lines the hooks appended to a log ("<event>:<tag>"), in order; lines of one event
//           are compared as a set unless the scenario is "ordered" (parallel plans finish in any
//           order)
//   files   what the tools left in the workspace (.gemini/ excluded)
//   exit    the CLI's exit code vs the transcript's exit_code
//   stderr  the CLI's stderr minus start-up noise vs the transcript's stderr lines
//   hook_calls  the CLI's own gemini_cli.hook_call telemetry records vs the transcript's
//           "hook_calls" (timing-free attributes; session_lane/)
//   payload every hook's stdin (hook_call's hook_input) field by field, volatile values
//           normalized (session_lane normalize_payload)
// The profile is the one profile_for_version gives for V (an error outside the profiled range,
// unless --assume-profile names one), or --profile.
// The scenario layout, both plays and the comparison are the session lane's
// (pinta/emulator/session_lane.h), shared with ctest emulator_gemini_real_session_test.
// Exit 0: no difference; 1: differences (one line each on stdout); 2: usage or install error (one
// stderr line). The same comparison as the real-host session lane, for any published version.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "hostemu_cli.h"
#include "pinta/common/data_dir.h"
#include "pinta/hosts/hosts.h"
#include "pinta/common/fs.h"
#include "pinta/common/process.h"
#include "pinta/emulator/gemini/gemini.h"
#include "pinta/emulator/session_lane.h"

namespace gem = pinta::emu::gemini;
namespace sfs = std::filesystem;
namespace lane = pinta::emu::session_lane;
using gem::ojson;

namespace pinta::hostemu {
namespace {

std::string slurp(const std::string& path) {
  auto r = pinta::fs::read_file(path);
  return r ? *r : std::string();
}

struct Opts {
  std::string host, version, profile, assume_profile, scenarios, only, keep, json_out,
      npm_hosts, payloads = "compare";
  int jobs = 2;
};

// The emulator profile for --version (or --profile): its path and its content. "" or the error.
std::string resolve_profile(const Opts& o, std::string& profile_path, ojson& profile) {
  const std::string profiles_dir = pinta::hosts::profile_dir(pinta::hosts::Family::kGemini);
  profile_path = o.profile;
  if (profile_path.empty()) {
    auto p = gem::profile_for_version(profiles_dir, o.version);
    if (p)
      profile_path = p->path;
    else if (!o.assume_profile.empty() && p.error().code == ErrorCode::kNotFound)
      profile_path = gem::profile_path(o.assume_profile);
    else
      return "drift: " + p.error().message;
  } else if (profile_path.find('/') == std::string::npos &&
             profile_path.find(".json") == std::string::npos) {
    profile_path = profiles_dir + "/" + profile_path + ".json";
  }
  profile = ojson::parse(slurp(profile_path), nullptr, false);
  if (profile.is_discarded() || !profile.is_object())
    return "drift: cannot read profile " + profile_path;
  return "";
}

// A profile's list of regular expressions under `key` (absent: none); "" when all compile, else
// the error line.
std::string profile_regexes(const ojson& profile, const std::string& profile_path, const char* key,
                            std::vector<std::regex>& out) {
  if (!profile.contains(key)) return "";
  for (const auto& re : profile[key]) {
    try {
      out.emplace_back(re.get<std::string>());
    } catch (const std::exception& e) {
      return std::string("drift: bad ") + key + " in " + profile_path + ": " + e.what();
    }
  }
  return "";
}

// The session scenarios to play (all of --scenarios, or the one of --only), by id. "" or the error.
std::string load_scenarios(const Opts& o, std::vector<ojson>& scenarios) {
  const std::string scen_dir =
      !o.scenarios.empty() ? o.scenarios
                           : pinta::data::find_dir("PINTA_GEMINI_SESSIONS", "gemini/sessions",
                                                   "emulator/hosts/gemini/test/sessions");
  std::error_code ec;
  for (auto it = sfs::directory_iterator(scen_dir, ec); !ec && it != sfs::directory_iterator();
       it.increment(ec)) {
    if (it->path().extension() != ".json") continue;
    auto j = ojson::parse(slurp(it->path().string()), nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j["id"].is_string())
      return "drift: not a scenario: " + it->path().string();
    scenarios.push_back(std::move(j));
  }
  if (ec) return "drift: cannot read scenarios " + scen_dir + ": " + ec.message();
  if (scenarios.empty()) return "drift: no scenarios in " + scen_dir;
  if (!o.only.empty()) {
    // --only names an id, or its number part when that is unique ("s01" for
    // "s01-deny-blocks-tool").
    std::vector<ojson> exact, prefixed;
    for (auto& j : scenarios) {
      const std::string id = j["id"].get<std::string>();
      if (id == o.only) exact.push_back(j);
      else if (id.rfind(o.only + "-", 0) == 0) prefixed.push_back(j);
    }
    if (!exact.empty()) scenarios = std::move(exact);
    else if (prefixed.size() == 1) scenarios = std::move(prefixed);
    else if (prefixed.empty())
      return "drift: no scenario with id " + o.only + " in " + scen_dir;
    else
      return "drift: --only " + o.only + " names " + std::to_string(prefixed.size()) +
             " scenarios in " + scen_dir + "; give the whole id";
  }
  std::sort(scenarios.begin(), scenarios.end(),
            [](const ojson& a, const ojson& b) { return a["id"] < b["id"]; });
  return "";
}

// Installs (or finds cached) the real CLI of --version; `cli` is its entry script. "" or the error.
std::string install_real_cli(const Opts& o, std::string& cli) {
  std::string script = o.npm_hosts;
  if (script.empty()) {
    const char* env = std::getenv("PINTA_NPM_HOSTS");
    script = env && *env ? std::string(env)
                         : std::string(pinta::data::source_dir()) + "/ci/npm-hosts.sh";
  }
  auto sp = pinta::proc::make_spawner();
  pinta::proc::SpawnRequest inst;
  inst.argv = {"bash", script, o.version};
  inst.timeout = std::chrono::milliseconds(900000);
  inst.hard_limit = std::chrono::milliseconds(910000);
  auto ir = sp->run(inst);
  if (ir.exit_code.value_or(-1) != 0) {
    std::string why = ir.err.empty() ? ir.spawn_error : ir.err;
    while (!why.empty() && why.back() == '\n') why.pop_back();
    return "drift: cannot install @google/gemini-cli@" + o.version + " (" + script + " exit " +
           std::to_string(ir.exit_code.value_or(-1)) + "): " + why;
  }
  std::string prefix = ir.out;
  while (!prefix.empty() && (prefix.back() == '\n' || prefix.back() == '\r')) prefix.pop_back();
  const std::string pkg = prefix + "/node_modules/@google/gemini-cli";
  auto pj = ojson::parse(slurp(pkg + "/package.json"), nullptr, false);
  std::string entry;
  if (!pj.is_discarded() && pj.is_object() && pj.contains("bin")) {
    if (pj["bin"].is_string())
      entry = pj["bin"].get<std::string>();
    else if (pj["bin"].is_object() && pj["bin"]["gemini"].is_string())
      entry = pj["bin"]["gemini"].get<std::string>();
  }
  if (entry.empty()) return "drift: no gemini bin in " + pkg + "/package.json";
  cli = pkg + "/" + entry;
  return "";
}

// Prints every difference between the plays (one line each) and the summary line; the record
// --json writes. `differing`: the scenarios with a counted difference.
ojson report_differences(const Opts& o, const std::vector<ojson>& scenarios,
                         std::vector<lane::Outcome>& real, std::vector<lane::Outcome>& emu,
                         const std::vector<std::regex>& unglue, const ojson& profile,
                         const std::string& profile_path, bool hook_calls, int& differing) {
  ojson record = ojson::object({{"host", "gemini"},
                                {"version", o.version},
                                {"profile", profile.value("name", profile_path)},
                                {"hook_calls_compared", hook_calls},
                                {"payloads", o.payloads},
                                {"scenarios", ojson::array()}});
  differing = 0;
  size_t total_diffs = 0;
  for (size_t i = 0; i < scenarios.size(); ++i) {
    const std::string id = scenarios[i]["id"].get<std::string>();
    lane::unglue_lines(real[i].stderr_lines, unglue);
    lane::unglue_lines(emu[i].stderr_lines, unglue);
    std::vector<std::string> all = lane::compare(real[i], emu[i]), d;
    for (auto& line : all) {
      std::string one = line;
      for (auto& c : one)
        if (c == '\n') c = ' ';
      const bool uncounted = o.payloads == "report" && one.rfind("payload[", 0) == 0;
      std::cout << id << ": " << (uncounted ? "(payload, not counted) " : "") << one << "\n";
      if (!uncounted) d.push_back(line);
    }
    if (!d.empty()) ++differing;
    total_diffs += d.size();
    record["scenarios"].push_back(ojson::object({{"id", id},
                                                 {"hooks", lane::to_json(real[i].hooks)},
                                                 {"exit", real[i].exit_code},
                                                 {"differences", lane::to_json(d)}}));
  }
  std::cout << "gemini " << o.version << " vs profile " << profile.value("name", profile_path)
            << ": " << scenarios.size() << " scenarios, " << differing << " differ ("
            << total_diffs << " differences)\n";
  return record;
}

int drift(const Opts& o) {
  if (o.host != "gemini") return usage_error("drift: unknown --host " + o.host + " (gemini)");
  if (gem::version_key(o.version).empty())
    return usage_error("drift: --version must be an exact version such as 0.40.1: " + o.version);
  if (o.jobs < 1 || o.jobs > 8) return usage_error("drift: --jobs must be 1..8");
  std::string profile_path;
  ojson profile;
  if (std::string bad = resolve_profile(o, profile_path, profile); !bad.empty())
    return usage_error(bad);
  // real_stderr_noise: real-CLI lines no hook influences (dropped from the real side);
  // stderr_unglue: lines the CLI writes without their newline where the next write is a race
  // (both sides are split after them before comparing).
  std::vector<std::regex> extra_noise, unglue;
  for (const std::string& bad :
       {profile_regexes(profile, profile_path, "real_stderr_noise", extra_noise),
        profile_regexes(profile, profile_path, "stderr_unglue", unglue)})
    if (!bad.empty()) return usage_error(bad);
  // A profile may turn the hook_call comparison off for releases whose telemetry cannot be
  // compared; it must say why ("hook_calls_skipped": "reason"), and the probe prints it.
  const bool hook_calls = !profile.contains("hook_calls_skipped");
  if (!hook_calls)
    std::cout << "hook_calls not compared for " << o.version << ": "
              << profile["hook_calls_skipped"].dump() << "\n";

  std::vector<ojson> scenarios;
  if (std::string bad = load_scenarios(o, scenarios); !bad.empty()) return usage_error(bad);
  std::string cli;
  if (std::string bad = install_real_cli(o, cli); !bad.empty()) return usage_error(bad);

  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return usage_error("drift: cannot find this program (/proc/self/exe)");
  const std::string hostemu(self, static_cast<size_t>(n));

  // The plays run in their own workspaces: a relative --keep is made absolute first.
  std::error_code ec;
  std::string base = o.keep.empty() ? std::string() : sfs::absolute(o.keep, ec).string();
  std::string tmp_created;
  if (base.empty()) {
    std::string tmpl = (sfs::temp_directory_path() / "hostemu-drift-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) return usage_error("drift: cannot create a temp directory");
    base = tmp_created = tmpl;
  }

  std::vector<lane::Outcome> real(scenarios.size()), emu(scenarios.size());
  lane::RealOptions ro;
  ro.cli = cli;
  ro.extra_noise = extra_noise;
  ro.hook_calls = hook_calls;
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < scenarios.size();) {
      const std::string id = scenarios[i]["id"].get<std::string>();
      real[i] = lane::play_real(scenarios[i], base + "/real/" + id, ro, nullptr);
      emu[i] = lane::play_emulator(scenarios[i], base + "/emu/" + id, hostemu, profile_path,
                                   nullptr);
    }
  };
  std::vector<std::thread> th;
  for (int k = 0; k < o.jobs; ++k) th.emplace_back(worker);
  for (auto& t : th) t.join();

  int differing = 0;
  const ojson record = report_differences(o, scenarios, real, emu, unglue, profile, profile_path,
                                          hook_calls, differing);
  if (!o.json_out.empty() &&
      (!pinta::fs::make_dirs(pinta::fs::dirname(o.json_out), 0755) ||
       !pinta::fs::atomic_write(o.json_out, record.dump(1) + "\n", 0644, false)))
    return usage_error("drift: cannot write --json " + o.json_out);
  if (!tmp_created.empty()) sfs::remove_all(tmp_created, ec);
  return differing == 0 ? 0 : 1;
}

}  // namespace

void add_drift_commands(CLI::App& app, Action& action) {
  auto o = std::make_shared<Opts>();
  auto* cmd = app.add_subcommand(
      "drift",
      "play the session scenarios through a published real host version (installed and cached "
      "via ci/npm-hosts.sh, offline) and through the emulator's profile for it; print every "
      "difference (exit 0 none, 1 differences, 2 usage/install error)");
  cmd->add_option("--host", o->host, "host to probe (gemini)")->required();
  cmd->add_option("--payloads", o->payloads,
                  "compare: payload differences count like any other (default); report: they are "
                  "printed, marked \"(payload, not counted)\", and do not make the exit status 1 "
                  "(for releases whose payloads no profile models yet)")
      ->check(CLI::IsMember({"compare", "report"}));
  cmd->add_option("--version", o->version, "exact npm version, e.g. 0.40.1")->required();
  cmd->add_option("--profile", o->profile,
                  "emulator profile: a name (gemini-0.61) or a file (default: the profile whose "
                  "applies_from..applies_through covers --version; a version outside every "
                  "profile's range is an error)");
  cmd->add_option("--assume-profile", o->assume_profile,
                  "the profile for a --version outside the profiled range (named, never picked "
                  "silently); ignored when a profile covers --version");
  cmd->add_option("--scenarios", o->scenarios, "directory of session scenarios (*.json)");
  cmd->add_option("--only", o->only, "run only the scenario with this id (or its unique number part: s01)");
  cmd->add_option("--keep", o->keep, "keep every root (real/<id>, emu/<id>) under this directory");
  cmd->add_option("--json", o->json_out, "also write the per-scenario record to this file");
  cmd->add_option("--npm-hosts", o->npm_hosts,
                  "the installer script (default: $PINTA_NPM_HOSTS or <source>/ci/npm-hosts.sh)");
  cmd->add_option("--jobs", o->jobs, "scenarios in parallel (1..8)")->capture_default_str();
  cmd->callback([o, &action] { action = [o] { return drift(*o); }; });
}

}  // namespace pinta::hostemu
