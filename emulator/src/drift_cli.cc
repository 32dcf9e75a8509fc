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
// Exit 0: no difference; 1: differences (one line each on stdout); 2: usage or install error (one
// stderr line). The same comparison as the real-host session lane, for any published version.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
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

namespace gem = pinta::emu::gemini;
namespace sfs = std::filesystem;
using gem::ojson;

namespace pinta::hostemu {
namespace {

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

std::string slurp(const std::string& path) {
  auto r = pinta::fs::read_file(path);
  return r ? *r : std::string();
}

bool spit(const std::string& path, const std::string& data) {
  std::error_code ec;
  sfs::create_directories(sfs::path(path).parent_path(), ec);
  std::ofstream f(path, std::ios::binary);
  f << data;
  return static_cast<bool>(f);
}

// Every hook of a scenario starts with `@REC@ TAG [JS-EXPR]`: the recorder appends
// "<hook_event_name>:<TAG>" (and, with an expression over the parsed stdin `i`, its JSON value)
// to the log. It reads all of stdin, as most real hooks do.
const char* kRecorder = R"(#!/bin/bash
in=$(cat)
ev=${in#*\"hook_event_name\":\"}; ev=${ev%%\"*}
if [ -n "$2" ]; then
  v=$(printf '%s' "$in" | node -e 'const i=JSON.parse(require("fs").readFileSync(0,"utf8")); process.stdout.write(JSON.stringify(eval(process.argv[1])))' "$2")
  printf '%s:%s %s\n' "$ev" "$1" "$v" >> "$(dirname "$0")/hooks.log"
else
  printf '%s:%s\n' "$ev" "$1" >> "$(dirname "$0")/hooks.log"
fi
)";

// shared/reference/real-hosts.md step 2: fixed model (no router call), no telemetry, updates or
// IDE, API-key auth, folder trust off and hooks on unless the scenario overrides them.
ojson base_settings() {
  return ojson::parse(R"({"general":{"enableAutoUpdate":false},"telemetry":{"enabled":false},
    "security":{"auth":{"selectedType":"gemini-api-key"},"folderTrust":{"enabled":false}},
    "ide":{"enabled":false,"hasSeenNudge":true},"model":{"name":"gemini-2.5-flash"},
    "hooksConfig":{"enabled":true}})");
}

ojson substitute(const ojson& v, const std::map<std::string, std::string>& vars) {
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    for (const auto& [k, val] : vars) s = replace_all(s, k, val);
    return s;
  }
  if (v.is_object()) {
    ojson o = ojson::object();
    for (auto& [k, x] : v.items()) {
      std::string key = k;
      for (const auto& [from, to] : vars) key = replace_all(key, from, to);
      o[key] = substitute(x, vars);
    }
    return o;
  }
  if (v.is_array()) {
    ojson a = ojson::array();
    for (const auto& x : v) a.push_back(substitute(x, vars));
    return a;
  }
  return v;
}

struct Root {
  std::string dir, home, ws, log;
};

Root lay_out(const ojson& sc, const std::string& dir) {
  Root r;
  r.dir = dir;
  r.home = dir + "/h";
  r.ws = dir + "/" + sc.value("workspace_name", std::string("w"));
  r.log = dir + "/hooks.log";
  sfs::create_directories(r.home + "/.gemini");
  sfs::create_directories(r.ws);
  spit(dir + "/rec.sh", kRecorder);
  sfs::permissions(dir + "/rec.sh", sfs::perms::owner_all);
  std::map<std::string, std::string> vars = {
      {"@REC@", dir + "/rec.sh"}, {"@W@", r.ws}, {"@H@", r.home}};
  ojson settings = base_settings();
  if (sc.contains("settings")) settings.merge_patch(substitute(sc["settings"], vars));
  spit(r.home + "/.gemini/settings.json", settings.dump(1));
  spit(r.home + "/.gemini/state.json", R"({"terminalSetupPromptShown":true})");
  if (sc.contains("trusted_folders"))
    spit(r.home + "/.gemini/trustedFolders.json", substitute(sc["trusted_folders"], vars).dump(1));
  if (sc.contains("workspace_settings"))
    spit(r.ws + "/.gemini/settings.json", substitute(sc["workspace_settings"], vars).dump(1));
  if (sc.contains("extension_enablement"))
    spit(r.home + "/.gemini/extensions/extension-enablement.json",
         substitute(sc["extension_enablement"], vars).dump(1));
  if (sc.contains("extensions"))
    for (auto& [name, ext] : sc["extensions"].items()) {
      std::string ed = r.home + "/.gemini/extensions/" + name;
      ojson man = ext.contains("manifest") ? ext["manifest"]
                                           : ojson::object({{"name", name}, {"version", "1.0.0"}});
      spit(ed + "/gemini-extension.json", substitute(man, vars).dump(1));
      if (ext.contains("hooks"))
        spit(ed + "/hooks/hooks.json", substitute(ext["hooks"], vars).dump(1));
    }
  return r;
}

std::string scrub(const std::string& line, const Root& r) {
  return replace_all(replace_all(replace_all(line, r.ws, "@W@"), r.home, "@H@"), r.dir, "@ROOT@");
}

ojson model_turns(const ojson& sc) {
  if (sc.contains("model_turns")) return sc["model_turns"];
  return ojson::parse(R"([{"function_call":{"name":"write_file",
      "args":{"file_path":"test.txt","content":"Hello World"}}},{"text":"Done."}])");
}

// The --fake-responses file: one generateContentStream line per model call (real-hosts.md step 4).
std::string fake_responses(const ojson& turns) {
  std::string out;
  for (const auto& t : turns) {
    ojson part = ojson::object();
    if (t.contains("function_call"))
      part["functionCall"] = t["function_call"];
    else
      part["text"] = t.value("text", "Done.");
    ojson cand = ojson::object(
        {{"content", ojson::object({{"parts", ojson::array({part})}, {"role", "model"}})},
         {"finishReason", "STOP"},
         {"index", 0}});
    ojson chunk = ojson::object({{"candidates", ojson::array({cand})}});
    ojson line = ojson::object(
        {{"method", "generateContentStream"}, {"response", ojson::array({chunk})}});
    out += line.dump() + "\n";
  }
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    v.push_back(l);
  }
  return v;
}

// The real CLI's stderr minus what every run prints regardless of hooks, the duration-bearing
// hook summary line and the start-up profiler's timing-dependent complaints (as the real-host
// session lane filters them); `extra_noise` is the profile's list of further version-specific
// lines that no hook influences.
std::vector<std::string> real_stderr_lines(const std::string& err, const Root& r,
                                           const std::vector<std::regex>& extra_noise) {
  static const std::regex noise(
      R"(^(Warning: 256-color support not detected.*|YOLO mode is enabled.*|Ripgrep is not available.*|Hook execution for \w+: \d+ succeeded, \d+ failed .*|Loaded cached credentials\..*|\[STARTUP\] .*|\s*)$)");
  static const std::regex sgr("\x1b\\[[0-9;]*m");
  // The profiler's complaint can also come glued to the end of another line (written without
  // its own newline while another write was pending): cut it out wherever it stands.
  static const std::regex startup(
      R"(\[STARTUP\] Phase '[^']*' was started but never ended\.[^\n]*)");
  std::vector<std::string> out;
  for (auto l : lines_of(std::regex_replace(std::regex_replace(err, sgr, ""), startup, ""))) {
    l = std::regex_replace(l, sgr, "");
    if (std::regex_match(l, noise)) continue;
    if (std::any_of(extra_noise.begin(), extra_noise.end(),
                    [&](const std::regex& re) { return std::regex_match(l, re); }))
      continue;
    out.push_back(scrub(l, r));
  }
  return out;
}

std::vector<std::string> normalize_lines(const ojson& arr, const Root& r) {
  std::vector<std::string> out;
  if (!arr.is_array()) return out;
  for (const auto& x : arr)
    for (auto& l : lines_of(x.is_string() ? x.get<std::string>() : x.dump())) {
      if (l.find_first_not_of(" \t") == std::string::npos) continue;
      out.push_back(scrub(l, r));
    }
  return out;
}

std::vector<std::string> hook_lines(const Root& r, bool ordered) {
  std::vector<std::string> out;
  for (auto& l : lines_of(slurp(r.log))) out.push_back(scrub(l, r));
  if (ordered) return out;
  auto event_of = [](const std::string& l) { return l.substr(0, l.find(':')); };
  for (size_t i = 0; i < out.size();) {
    size_t j = i;
    while (j < out.size() && event_of(out[j]) == event_of(out[i])) ++j;
    std::sort(out.begin() + static_cast<long>(i), out.begin() + static_cast<long>(j));
    i = j;
  }
  return out;
}

std::map<std::string, std::string> workspace_files(const Root& r) {
  std::map<std::string, std::string> m;
  std::error_code ec;
  for (auto it = sfs::recursive_directory_iterator(r.ws, ec);
       !ec && it != sfs::recursive_directory_iterator(); it.increment(ec)) {
    auto rel = sfs::relative(it->path(), r.ws).string();
    if (rel.rfind(".gemini", 0) == 0) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) m[rel] = slurp(it->path().string());
  }
  return m;
}

ojson to_json(const std::vector<std::string>& v) {
  ojson a = ojson::array();
  for (auto& s : v) a.push_back(s);
  return a;
}

struct Outcome {
  std::vector<std::string> hooks, stderr_lines;
  std::map<std::string, std::string> files;
  int exit_code = -1;
  std::string failure;
};

// "0.40.1" → {0, 40, 1}; a pre-release tail is ignored (a nightly counts as its base release).
std::vector<long> version_key(const std::string& v) {
  std::vector<long> k;
  std::string cur;
  for (char c : v) {
    if (c == '-' || c == '+') break;
    if (c == '.') {
      k.push_back(cur.empty() ? 0 : std::stol(cur));
      cur.clear();
    } else if (c >= '0' && c <= '9') {
      cur += c;
    } else {
      return {};
    }
  }
  if (cur.empty()) return {};
  k.push_back(std::stol(cur));
  return k;
}

}  // namespace

// The profile for `version`: the file in `dir` whose "applies_from" is the greatest one ≤ version
// (profiles cover a contiguous range of releases up to the next profile's "applies_from").
Result<std::string> pick_gemini_profile(const std::string& dir, const std::string& version) {
  auto want = version_key(version);
  if (want.empty()) return make_error(ErrorCode::kInvalidArgument, "bad version: " + version);
  std::string best;
  std::vector<long> best_key;
  std::error_code ec;
  for (auto it = sfs::directory_iterator(dir, ec); !ec && it != sfs::directory_iterator();
       it.increment(ec)) {
    if (it->path().extension() != ".json") continue;
    auto j = ojson::parse(slurp(it->path().string()), nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j["applies_from"].is_string()) continue;
    auto k = version_key(j["applies_from"].get<std::string>());
    if (k.empty() || k > want) continue;
    if (best.empty() || k > best_key) {
      best = it->path().string();
      best_key = k;
    }
  }
  if (ec)
    return make_error(ErrorCode::kNotFound, "cannot read profiles " + dir + ": " + ec.message());
  if (best.empty())
    return make_error(ErrorCode::kNotFound,
                      "no Gemini CLI profile in " + dir + " covers " + version);
  return best;
}

void add_drift_commands(CLI::App& app, Action& action) {
  struct Opts {
    std::string host, version, profile, scenarios, only, keep, json_out, npm_hosts;
    int jobs = 2;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = app.add_subcommand(
      "drift",
      "play the session scenarios through a published real host version (installed and cached "
      "via ci/npm-hosts.sh, offline) and through the emulator's profile for it; print every "
      "difference (exit 0 none, 1 differences, 2 usage/install error)");
  cmd->add_option("--host", o->host, "host to probe (gemini)")->required();
  cmd->add_option("--version", o->version, "exact npm version, e.g. 0.40.1")->required();
  cmd->add_option("--profile", o->profile,
                  "emulator profile: a name (gemini-0.61) or a file (default: the profile whose "
                  "applies_from is the greatest one <= --version)");
  cmd->add_option("--scenarios", o->scenarios, "directory of session scenarios (*.json)");
  cmd->add_option("--only", o->only, "run only the scenario with this id");
  cmd->add_option("--keep", o->keep, "keep every root (real/<id>, emu/<id>) under this directory");
  cmd->add_option("--json", o->json_out, "also write the per-scenario record to this file");
  cmd->add_option("--npm-hosts", o->npm_hosts,
                  "the installer script (default: $PINTA_NPM_HOSTS or <source>/ci/npm-hosts.sh)");
  cmd->add_option("--jobs", o->jobs, "scenarios in parallel (1..8)")->capture_default_str();
  cmd->callback([o, &action] {
    action = [o]() -> int {
      if (o->host != "gemini") return usage_error("drift: unknown --host " + o->host + " (gemini)");
      if (version_key(o->version).empty())
        return usage_error("drift: --version must be an exact version such as 0.40.1: " +
                           o->version);
      if (o->jobs < 1 || o->jobs > 8) return usage_error("drift: --jobs must be 1..8");
      const std::string profiles_dir = pinta::hosts::gemini_profile_dir();
      std::string profile_path = o->profile;
      if (profile_path.empty()) {
        auto p = pick_gemini_profile(profiles_dir, o->version);
        if (!p) return usage_error("drift: " + p.error().message);
        profile_path = *p;
      } else if (profile_path.find('/') == std::string::npos &&
                 profile_path.find(".json") == std::string::npos) {
        profile_path = profiles_dir + "/" + profile_path + ".json";
      }
      auto profile = ojson::parse(slurp(profile_path), nullptr, false);
      if (profile.is_discarded() || !profile.is_object())
        return usage_error("drift: cannot read profile " + profile_path);
      std::vector<std::regex> extra_noise;
      if (profile.contains("real_stderr_noise"))
        for (const auto& re : profile["real_stderr_noise"]) {
          try {
            extra_noise.emplace_back(re.get<std::string>());
          } catch (const std::exception& e) {
            return usage_error("drift: bad real_stderr_noise in " + profile_path + ": " + e.what());
          }
        }

      const std::string scen_dir =
          !o->scenarios.empty()
              ? o->scenarios
              : pinta::data::find_dir("PINTA_GEMINI_SESSIONS", "gemini/sessions",
                                      "emulator/hosts/gemini/test/sessions");
      std::vector<ojson> scenarios;
      std::error_code ec;
      for (auto it = sfs::directory_iterator(scen_dir, ec); !ec && it != sfs::directory_iterator();
           it.increment(ec)) {
        if (it->path().extension() != ".json") continue;
        auto j = ojson::parse(slurp(it->path().string()), nullptr, false);
        if (j.is_discarded() || !j.is_object() || !j["id"].is_string())
          return usage_error("drift: not a scenario: " + it->path().string());
        if (o->only.empty() || j["id"] == o->only) scenarios.push_back(std::move(j));
      }
      if (ec) return usage_error("drift: cannot read scenarios " + scen_dir + ": " + ec.message());
      if (scenarios.empty()) return usage_error("drift: no scenarios in " + scen_dir);
      std::sort(scenarios.begin(), scenarios.end(),
                [](const ojson& a, const ojson& b) { return a["id"] < b["id"]; });

      // Install (or find cached) the real CLI.
      std::string script = o->npm_hosts;
      if (script.empty()) {
        const char* env = std::getenv("PINTA_NPM_HOSTS");
        script = env && *env ? std::string(env)
                             : std::string(pinta::data::source_dir()) + "/ci/npm-hosts.sh";
      }
      auto sp = pinta::proc::make_spawner();
      pinta::proc::SpawnRequest inst;
      inst.argv = {"bash", script, o->version};
      inst.timeout = std::chrono::milliseconds(900000);
      inst.hard_limit = std::chrono::milliseconds(910000);
      auto ir = sp->run(inst);
      if (ir.exit_code.value_or(-1) != 0) {
        std::string why = ir.err.empty() ? ir.spawn_error : ir.err;
        while (!why.empty() && why.back() == '\n') why.pop_back();
        return usage_error("drift: cannot install @google/gemini-cli@" + o->version + " (" +
                           script + " exit " + std::to_string(ir.exit_code.value_or(-1)) +
                           "): " + why);
      }
      std::string prefix = ir.out;
      while (!prefix.empty() && (prefix.back() == '\n' || prefix.back() == '\r')) prefix.pop_back();
      const std::string pkg = prefix + "/node_modules/@google/gemini-cli";
      auto pj = ojson::parse(slurp(pkg + "/package.json"), nullptr, false);
      std::string entry;
      if (!pj.is_discarded() && pj.is_object() && pj.contains("bin")) {
        if (pj["bin"].is_string()) entry = pj["bin"].get<std::string>();
        else if (pj["bin"].is_object() && pj["bin"]["gemini"].is_string())
          entry = pj["bin"]["gemini"].get<std::string>();
      }
      if (entry.empty()) return usage_error("drift: no gemini bin in " + pkg + "/package.json");
      const std::string cli = pkg + "/" + entry;

      char self[4096];
      ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
      if (n <= 0) return usage_error("drift: cannot find this program (/proc/self/exe)");
      const std::string hostemu(self, static_cast<size_t>(n));

      std::string base = o->keep;
      std::string tmp_created;
      if (base.empty()) {
        std::string tmpl = (sfs::temp_directory_path() / "hostemu-drift-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) return usage_error("drift: cannot create a temp directory");
        base = tmp_created = tmpl;
      }

      std::vector<Outcome> real(scenarios.size()), emu(scenarios.size());
      std::vector<Root> real_roots(scenarios.size()), emu_roots(scenarios.size());
      std::atomic<size_t> next{0};
      auto worker = [&] {
        auto wsp = pinta::proc::make_spawner();
        for (size_t i; (i = next++) < scenarios.size();) {
          const ojson& sc = scenarios[i];
          const std::string id = sc["id"].get<std::string>();
          const ojson turns = model_turns(sc);
          const std::string prompt = sc.value("prompt", std::string("Create test.txt"));
          Root rr = lay_out(sc, base + "/real/" + id);
          real_roots[i] = rr;
          spit(rr.dir + "/responses.jsonl", fake_responses(turns));
          pinta::proc::SpawnRequest q;
          q.argv = {"node", cli, "--approval-mode=yolo", "--fake-responses",
                    rr.dir + "/responses.jsonl", "-p", prompt};
          q.env = std::map<std::string, std::string>{{"PATH", "/usr/local/bin:/usr/bin:/bin"},
                                                     {"HOME", rr.home},
                                                     {"LANG", "C.UTF-8"},
                                                     {"GEMINI_CLI_HOME", rr.home},
                                                     {"GEMINI_API_KEY", "fake"},
                                                     {"GEMINI_PTY_INFO", "child_process"}};
          q.cwd = rr.ws;
          q.stdin_mode = pinta::proc::StdinMode::kNone;
          q.timeout = std::chrono::milliseconds(90000);
          q.hard_limit = std::chrono::milliseconds(95000);
          auto r = wsp->run(q);
          if (!r.started) real[i].failure = "real CLI did not start: " + r.spawn_error;
          if (r.timed_out) real[i].failure = "real CLI timed out";
          real[i].exit_code = r.exit_code.value_or(-1);
          real[i].hooks = hook_lines(rr, sc.value("ordered", false));
          real[i].files = workspace_files(rr);
          real[i].stderr_lines = real_stderr_lines(r.err, rr, extra_noise);
          spit(rr.dir + "/cli.stderr", r.err);
          spit(rr.dir + "/cli.stdout", r.out);

          Root er = lay_out(sc, base + "/emu/" + id);
          emu_roots[i] = er;
          ojson sscript = ojson::object(
              {{"model_turns", turns}, {"prompt", prompt}, {"approval_mode", "yolo"}});
          spit(er.dir + "/script.json", sscript.dump(1));
          pinta::proc::SpawnRequest e;
          e.argv = {hostemu, "gemini", "session", "--home", er.home, "--workspace", er.ws,
                    "--script", er.dir + "/script.json", "--profile", profile_path};
          e.env = std::map<std::string, std::string>{
              {"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"HOME", er.home}, {"LANG", "C.UTF-8"}};
          e.cwd = er.ws;
          e.stdin_mode = pinta::proc::StdinMode::kNone;
          e.timeout = std::chrono::milliseconds(90000);
          e.hard_limit = std::chrono::milliseconds(95000);
          auto x = wsp->run(e);
          auto t = ojson::parse(x.out, nullptr, false);
          if (x.exit_code.value_or(-1) != 0 || t.is_discarded() || !t.is_object()) {
            emu[i].failure =
                "hostemu exit " + std::to_string(x.exit_code.value_or(-1)) + ": " + x.err;
            continue;
          }
          spit(er.dir + "/transcript.json", t.dump(1));
          emu[i].exit_code = t.value("exit_code", -1);
          emu[i].hooks = hook_lines(er, sc.value("ordered", false));
          emu[i].files = workspace_files(er);
          emu[i].stderr_lines = normalize_lines(t["stderr"], er);
        }
      };
      std::vector<std::thread> th;
      for (int k = 0; k < o->jobs; ++k) th.emplace_back(worker);
      for (auto& t : th) t.join();

      ojson record = ojson::object({{"host", "gemini"},
                                    {"version", o->version},
                                    {"profile", profile.value("name", profile_path)},
                                    {"scenarios", ojson::array()}});
      int differing = 0;
      size_t total_diffs = 0;
      for (size_t i = 0; i < scenarios.size(); ++i) {
        const std::string id = scenarios[i]["id"].get<std::string>();
        std::vector<std::string> d;
        auto cmp = [&](const char* what, const ojson& a, const ojson& b) {
          if (a != b)
            d.push_back(std::string(what) + ": real " + a.dump() + " emulator " + b.dump());
        };
        if (!real[i].failure.empty()) d.push_back(real[i].failure);
        if (!emu[i].failure.empty()) d.push_back(emu[i].failure);
        if (emu[i].failure.empty()) {
          cmp("hooks", to_json(real[i].hooks), to_json(emu[i].hooks));
          cmp("files", ojson(real[i].files), ojson(emu[i].files));
          cmp("exit", real[i].exit_code, emu[i].exit_code);
          cmp("stderr", to_json(real[i].stderr_lines), to_json(emu[i].stderr_lines));
        }
        for (auto& line : d) {
          std::string one = line;
          for (auto& c : one)
            if (c == '\n') c = ' ';
          std::cout << id << ": " << one << "\n";
        }
        if (!d.empty()) ++differing;
        total_diffs += d.size();
        record["scenarios"].push_back(ojson::object({{"id", id},
                                                     {"hooks", to_json(real[i].hooks)},
                                                     {"exit", real[i].exit_code},
                                                     {"differences", to_json(d)}}));
      }
      std::cout << "gemini " << o->version << " vs profile "
                << profile.value("name", profile_path) << ": " << scenarios.size()
                << " scenarios, " << differing << " differ (" << total_diffs << " differences)\n";
      if (!o->json_out.empty() && !spit(o->json_out, record.dump(1) + "\n"))
        return usage_error("drift: cannot write --json " + o->json_out);
      if (!tmp_created.empty()) sfs::remove_all(tmp_created, ec);
      return differing == 0 ? 0 : 1;
    };
  });
}

}  // namespace pinta::hostemu
