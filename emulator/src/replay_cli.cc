// `hostemu replay`: feeds recorded host payloads (fixtures/<folder>/<version>/<event>/{y,n,i}_*.json,
// <folder> the registered family's folder, pinta/hosts/family.h)
// through an adapter exactly as one emulated host would run it, prints what that host would do
// with each reply, checks the hook contract and compares the host's effect with a golden file.
//
//   hostemu replay --host H --adapter "<cmd>" [--update-golden] [--golden-dir DIR]
//                  [--timeout-ms N] [--quiet] PATH...
//
// H is a host of the registry (pinta/hosts/hosts.h) whose hooks run: a Gemini CLI version
// (gemini-0.61, …), an Antigravity profile (agy-1.0, …, antigravity-2.0, docs), deel-1.17 or
// claude-code-2.1.
// Spawning and reply reading are the HostRunner the conformance suite uses too
// (emulator/host_runner), i.e. the emulator libraries: Gemini = emu::gemini::run_hook (bash -c, stdin written then closed, GEM§4), Antigravity =
// emu::agy::spawn_request_for + interpret_reply under the profile (sh -c or whitespace split,
// stdin closed or left open, no stdin on Stop where the profile says so, AGY§5-§7), deel-local-cli
// and Claude Code their emulators' runners. The fixture's bytes go to stdin unchanged (plus the
// newline a profile appends, AGY§5.4); the command is `<cmd> --agent <family name> --event <E>` as
// the installer registers it.
//
// Each fixture runs in a fresh scratch directory: HOME, GEMINI_CLI_HOME and GEMINI_PLUGIN_DATA
// point into it and every PINTA_*, OTEL_* and GEMINI_PLUGIN_* variable of the caller is removed,
// so a developer's configuration cannot change the result or reach the network.
//
// Checks per fixture:
//   contract  no signal / timeout, nothing on stderr, and the reply framed as the host reads it
//             (pinta/hosts/reply_check.h: exactly one stdout line holding a JSON object on the
//             JSON-line hosts, docs/contract.md OUT-*, EXIT-*; DEEL-1..3; CLAUDE-1..2);
//   fail-safe n_ fixtures: the host's effect equals the effect of the fail-safe reply for that
//             host/event (docs/contract.md FMT-4: `{"decision":"allow"}` on Antigravity PreToolUse,
//             `{}` elsewhere; no output at all where the host's allow is silence, deel-local-cli
//             and Claude Code), computed by running that reply through the same host;
//   golden    the canonical JSON of the host's effect equals <golden-dir>/<H>/<fixture path> where
//             host H has an override, else <golden-dir>/shared/<fixture path>, the golden every
//             host replaying the fixture shares (default golden dir: <fixtures root>/golden);
//             rewritten only with --update-golden, which writes the shared golden if there is
//             none, an override where H's effect differs from it, and removes an override that
//             agrees with it again.
// i_ fixtures may get any effect but must keep the contract. Exit 0 when every check passes,
// 1 otherwise, 2 (one line on stderr) on bad arguments.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hostemu_cli.h"
#include "pinta/common/fs.h"
#include "pinta/emulator/antigravity/antigravity.h"
#include "pinta/emulator/host_runner.h"  // HostRunner: the one place per host that spawns a hook
#include "pinta/hosts/effects.h"
#include "pinta/hosts/hosts.h"
#include "pinta/hosts/reply_check.h"
#include "pinta/common/text.h"

extern char** environ;  // NOLINT(readability-redundant-declaration)

namespace pinta::hostemu {
namespace {

namespace stdfs = std::filesystem;
namespace agy = pinta::emu::agy;
using json = nlohmann::json;

// The hosts replay can run: every registry host whose hooks run (the graded hosts and the
// Antigravity "docs" profile; not a profile that never spawns a hook, agy-1.2.1-darwin-arm64).
std::vector<std::string> replay_hosts() {
  std::vector<std::string> out;
  auto profiles = agy::load_profiles(agy::default_profile_dir());
  for (const auto& h : pinta::hosts::registry()) {
    if (h.family == pinta::hosts::Family::kAntigravity) {
      const agy::Profile* p = profiles ? agy::find_profile(*profiles, h.name) : nullptr;
      if (p == nullptr || agy::hooks_not_run_reason(*p)) continue;
    }
    out.push_back(h.name);
  }
  return out;
}
std::string host_names() {
  std::string s;
  for (const auto& h : replay_hosts()) s += (s.empty() ? "" : "|") + h;
  return s;
}

std::string family_of_host(const std::string& host) { return pinta::hosts::family_of(host); }

struct Fixture {
  std::string file;  // as found on disk
  std::string root;  // the fixtures root (directory holding <folder>/)
  std::string rel;   // <folder>/<version>/<event>/<name>
  std::string family;  // the family's name (pinta/hosts/family.h), e.g. claude-code
  std::string folder;  // the family's folder, e.g. claude
  std::string version, event, name;
  char kind = '?';
};

// The registered family whose fixtures are under `folder` (its descriptor's folder), or none.
std::optional<pinta::hosts::Family> family_for_folder(const std::string& folder) {
  for (const auto& d : pinta::hosts::families())
    if (d.folder == folder) return d.id;
  return std::nullopt;
}
// "gemini|antigravity|…": the fixture folders, for messages.
std::string folder_names() {
  std::string s;
  for (const auto& d : pinta::hosts::families()) s += (s.empty() ? "" : "|") + std::string(d.folder);
  return s;
}

// The host's allow is no output at all: every host that does not read exactly one JSON line
// (the registry's ReplyReading; docs/contract.md DEEL-1, CLAUDE-1).
bool allow_is_silence(pinta::hosts::Family f) {
  return pinta::hosts::descriptor(f).reads != pinta::hosts::ReplyReading::kJsonStdout;
}

// The last four components of `path` are <folder>/<version>/<event>/<kind>_<name>.
std::optional<Fixture> parse_fixture_path(const stdfs::path& path) {
  stdfs::path p = path.lexically_normal();
  std::vector<std::string> parts;
  for (const auto& c : p) parts.push_back(c.string());
  if (parts.size() < 4) return std::nullopt;
  size_t n = parts.size();
  Fixture f;
  f.folder = parts[n - 4];
  f.version = parts[n - 3];
  f.event = parts[n - 2];
  f.name = parts[n - 1];
  const auto fam = family_for_folder(f.folder);
  if (!fam) return std::nullopt;
  f.family = std::string(pinta::hosts::descriptor(*fam).name);
  if (f.name.size() < 3 || f.name[1] != '_' || std::string("yni").find(f.name[0]) == std::string::npos)
    return std::nullopt;
  f.kind = f.name[0];
  f.file = path.string();
  stdfs::path root = p.parent_path().parent_path().parent_path().parent_path();
  f.root = root.empty() ? "." : root.string();
  f.rel = f.folder + "/" + f.version + "/" + f.event + "/" + f.name;
  return f;
}

// Removes the caller's adapter configuration and points every home/data variable into `scratch`.
std::map<std::string, std::string> scrubbed_env(const std::string& scratch) {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string kv(*e);
    auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    std::string k = kv.substr(0, eq);
    if (k.starts_with("PINTA_") || k.starts_with("OTEL_") || k.starts_with("GEMINI_PLUGIN_") ||
        k == "GEMINI_CLI_HOME" || k == "HOME" || k.starts_with("XDG_"))
      continue;
    env[k] = kv.substr(eq + 1);
  }
  env["HOME"] = scratch + "/home";
  env["GEMINI_CLI_HOME"] = scratch + "/home";
  env["GEMINI_PLUGIN_DATA"] = scratch + "/data";
  return env;
}

class Scratch {
 public:
  Scratch() {
    std::string tmpl = (stdfs::temp_directory_path() / "pinta-replay-XXXXXX").string();
    if (char* p = ::mkdtemp(tmpl.data())) path_ = p;
    std::error_code ec;
    for (const char* d : {"home/.gemini/config", "data", "workspace"})
      stdfs::create_directories(path_ + "/" + d, ec);
  }
  ~Scratch() {
    std::error_code ec;
    if (!path_.empty()) stdfs::remove_all(path_, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

using pinta::text::replace_all;

std::string clip(std::string s, size_t n) {
  for (auto& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  if (s.size() > n) s = s.substr(0, n - 3) + "...";
  return s;
}

// Contract problems of one run (empty: the contract holds): how the process ended, stderr, then
// the one reply check's framing layer (pinta/hosts/reply_check.h: one JSON object line for the
// JSON-line hosts; for deel-local-cli, an exit-code host, docs/contract.md DEEL-1..3, no output
// on exit 0 and a reason on exit 2). The reply's meaning is judged by the fail-safe and golden
// checks, through the emulated host.
std::vector<std::string> contract_problems(const pinta::proc::SpawnResult& r, json* reply,
                                           const std::string& family, const std::string& event) {
  std::vector<std::string> p;
  if (!r.started) {
    p.push_back("did not start: " + r.spawn_error);
    return p;
  }
  if (r.timed_out || r.hard_limited) p.push_back("timed out (killed by the host)");
  if (r.term_signal) p.push_back("killed by signal " + std::to_string(*r.term_signal));
  if (!r.err.empty())
    p.push_back("stderr: " +
                clip(json(r.err).dump(-1, ' ', false, json::error_handler_t::replace), 120));
  const auto fam = pinta::hosts::family_named(family);
  if (!fam) {
    p.push_back("unknown host family " + family);
    return p;
  }
  if (!r.exit_code) return p;  // the end was reported above
  pinta::hosts::ReplyCheck c = pinta::hosts::check_reply(*fam, event, {r.out, r.exit_code, r.err});
  if (!c.framing.empty()) p.push_back(c.framing);
  else *reply = std::move(c.reply);
  return p;
}

// The host's effect as canonical JSON (what the golden file holds): the family's runner says
// what a golden records (emu::golden_effect).
json effect_json(pinta::hosts::Family family, const emu::HookOutcome& o, const std::string& scratch,
                 const json& payload) {
  json e = emu::golden_effect(family, o, payload);
  // Temp paths of this run never reach a golden.
  std::string text = replace_all(e.dump(), scratch, "<scratch>");
  return json::parse(text);
}

std::string read_or_empty(const std::string& path, bool* ok) {
  auto r = pinta::fs::read_file(path);
  *ok = static_cast<bool>(r);
  return r ? *r : std::string();
}

// Goldens and scripts: parent directories made, then written atomically (tmp + rename).
bool write_file(const std::string& path, const std::string& text, unsigned mode = 0644) {
  return pinta::fs::make_dirs(stdfs::path(path).parent_path().string(), 0755).ok() &&
         pinta::fs::atomic_write(path, text, mode).ok();
}

struct Options {
  std::string host, adapter, golden_dir;
  std::vector<std::string> paths;
  bool update_golden = false, quiet = false;
  int timeout_ms = 0;
};

class Replayer {
 public:
  explicit Replayer(const Options& o) : o_(o) {}

  int run() {
    // ---- arguments ----
    const auto hosts = replay_hosts();
    if (std::find(hosts.begin(), hosts.end(), o_.host) == hosts.end())
      return usage_error("replay: unknown --host '" + o_.host + "' (" + host_names() + ")");
    if (o_.adapter.find_first_not_of(" \t") == std::string::npos)
      return usage_error("replay: --adapter is empty");
    if (o_.paths.empty()) return usage_error("replay: no fixture PATH given");
    if (o_.timeout_ms < 0 || o_.timeout_ms > 600000)
      return usage_error("replay: --timeout-ms must be 1..600000");
    family_ = family_of_host(o_.host);
    fam_ = *pinta::hosts::host_family(o_.host);  // a replay host is a registered one (above)
    adapter_ = emu::absolute_command(o_.adapter);
    // The timeout our installer registers for the host (the family registry).
    timeout_ms_ = o_.timeout_ms > 0 ? o_.timeout_ms
                                    : pinta::hosts::descriptor(fam_).install_timeout_ms;
    if (family_ == "antigravity") {
      auto ps = agy::load_profiles(agy::default_profile_dir());
      if (!ps) return usage_error("replay: cannot load Antigravity profiles: " + ps.error().message);
      const agy::Profile* p = agy::find_profile(*ps, o_.host);
      if (!p) return usage_error("replay: no Antigravity profile named " + o_.host);
      profile_ = *p;
    }
    std::vector<Fixture> fixtures;
    size_t other_family = 0;
    for (const auto& path : o_.paths) {
      std::error_code ec;
      if (stdfs::is_directory(path, ec)) {
        std::vector<Fixture> found;
        for (auto it = stdfs::recursive_directory_iterator(path, ec);
             !ec && it != stdfs::recursive_directory_iterator(); it.increment(ec)) {
          std::string leaf = it->path().filename().string();
          if (it->is_directory(ec) && (leaf == "golden" || leaf == "tools" || leaf == "test")) {
            it.disable_recursion_pending();
            continue;
          }
          if (!it->is_regular_file(ec) || it->path().extension() != ".json") continue;
          auto f = parse_fixture_path(it->path());
          if (!f) continue;  // not a fixture (e.g. MANIFEST.json)
          if (f->family != family_) {
            ++other_family;
            continue;
          }
          found.push_back(*f);
        }
        if (ec) return usage_error("replay: cannot walk " + path + ": " + ec.message());
        fixtures.insert(fixtures.end(), found.begin(), found.end());
      } else if (stdfs::is_regular_file(path, ec)) {
        auto f = parse_fixture_path(path);
        if (!f)
          return usage_error("replay: " + path +
                             " is not at <" + folder_names() + ">/<version>/<event>/{y,n,i}_<name>");
        if (f->family != family_)
          return usage_error("replay: " + path + " is a " + f->family + " fixture, not for --host " +
                             o_.host);
        fixtures.push_back(*f);
      } else {
        return usage_error("replay: no such file or directory: " + path);
      }
    }
    std::sort(fixtures.begin(), fixtures.end(),
              [](const Fixture& a, const Fixture& b) { return a.file < b.file; });
    fixtures.erase(std::unique(fixtures.begin(), fixtures.end(),
                               [](const Fixture& a, const Fixture& b) { return a.file == b.file; }),
                   fixtures.end());
    if (fixtures.empty())
      return usage_error("replay: no " + family_ + " fixtures under the given PATH (" +
                         std::to_string(other_family) + " of another host family skipped)");

    // ---- replay ----
    int passed = 0, failed = 0, contract_fail = 0, failsafe_fail = 0, golden_fail = 0, written = 0;
    for (const auto& f : fixtures) {
      Result res;
      try {
        res = replay_one(f);
      } catch (const std::exception& e) {
        res.contract.push_back(std::string("host emulator error: ") + e.what());
      }
      if (res.internal_error) return usage_error("replay: " + res.internal_message);
      bool ok = res.contract.empty() && res.failsafe.empty() && res.golden.empty();
      ok ? ++passed : ++failed;
      if (!res.contract.empty()) ++contract_fail;
      if (!res.failsafe.empty()) ++failsafe_fail;
      if (!res.golden.empty()) ++golden_fail;
      if (res.golden_written) ++written;
      if (!ok || !o_.quiet) {
        std::cout << (ok ? "PASS" : "FAIL") << "  " << f.rel << "  reply "
                  << (res.reply_text.empty() ? std::string("-") : clip(res.reply_text, 60)) << "  -> "
                  << clip(res.description, 160) << "\n";
        for (const auto& p : res.contract) std::cout << "      contract: " << p << "\n";
        for (const auto& p : res.failsafe) std::cout << "      fail-safe: " << p << "\n";
        for (const auto& p : res.golden) std::cout << "      golden: " << p << "\n";
      }
    }
    std::cout << "replay --host " << o_.host << ": " << fixtures.size() << " fixtures, " << passed
              << " passed, " << failed << " failed (" << contract_fail << " contract, "
              << failsafe_fail << " fail-safe, " << golden_fail << " golden)";
    if (o_.update_golden) std::cout << ", " << written << " goldens written";
    if (other_family) std::cout << ", " << other_family << " fixtures of another host skipped";
    std::cout << "\n";
    return failed == 0 ? 0 : 1;
  }

 private:
  struct Result {
    std::vector<std::string> contract, failsafe, golden;
    std::string reply_text, description;
    bool golden_written = false;
    bool internal_error = false;
    std::string internal_message;
  };

  emu::HookOutcome run_host(const std::string& command, const std::string& event,
                             const std::string& bytes, const json& payload, const Scratch& s,
                             std::string* error) {
    emu::HostRunnerOptions ro;
    auto runner = emu::make_host_runner(o_.host, ro, *error);
    if (!runner) return {};
    emu::HookCall call;
    call.host = o_.host;
    call.command = command;
    call.event = event;
    call.env = scrubbed_env(s.path());
    call.cwd = s.path() + "/workspace";
    call.timeout_ms = timeout_ms_;
    call.input.payload = payload;
    std::string raw = bytes;
    // AGY§5.4: profiles that end the stdin line with a newline add it to the recorded line.
    if (family_ == "antigravity" && profile_.stdin_trailing_newline) raw += "\n";
    call.input.raw = raw;
    call.input.stdin_mode = "host";
    return runner->run(call);
  }

  // The effect of the fail-safe reply (docs/contract.md FMT-4) for this host and event, by running
  // a script that prints it through the same host (cached per event).
  bool failsafe_kind(const std::string& event, std::string* kind, std::string* error) {
    auto it = failsafe_.find(event);
    if (it != failsafe_.end()) {
      *kind = it->second;
      return true;
    }
    Scratch s;
    const auto fam = pinta::hosts::family_named(family_);
    std::string reply = fam ? pinta::hosts::allow_reply(*fam, event).dump() : "{}";
    std::string script = s.path() + "/failsafe.sh";
    // Where the host's allow is silence the fail-safe is no output at all and exit 0 (contract
    // DEEL-1, CLAUDE-1).
    std::string body = fam && allow_is_silence(*fam)
                           ? "#!/bin/sh\nexit 0\n"
                           : "#!/bin/sh\nprintf '%s\\n' '" + reply + "'\n";
    if (!write_file(script, body, 0755)) {
      *error = "cannot write " + script;
      return false;
    }
    auto o = run_host(script, event, "{}", json::object(), s, error);
    if (!error->empty()) return false;
    failsafe_[event] = o.effect;
    *kind = o.effect;
    return true;
  }

  Result replay_one(const Fixture& f) {
    Result res;
    bool ok = false;
    std::string bytes = read_or_empty(f.file, &ok);
    if (!ok) {
      res.internal_error = true;
      res.internal_message = "cannot read " + f.file;
      return res;
    }
    json payload = json::parse(bytes, nullptr, false);
    if (payload.is_discarded() || !payload.is_object()) payload = json::object();
    // The parsed payload only gives the host its view of the tool (name, original args) for
    // reading the reply; the bytes on stdin are the file's. HostRunner reads toolCall.name as a
    // string, so a fixture with another type there is read as "no tool name".
    if (payload.contains("toolCall") && payload["toolCall"].is_object() &&
        payload["toolCall"].contains("name") && !payload["toolCall"]["name"].is_string())
      payload["toolCall"].erase("name");
    Scratch s;
    if (s.path().empty()) {
      res.internal_error = true;
      res.internal_message = "cannot create a scratch directory";
      return res;
    }
    std::string command = adapter_ + " --agent " + family_ + " --event " + f.event;
    std::string error;
    auto o = run_host(command, f.event, bytes, payload, s, &error);
    if (!error.empty()) {
      res.internal_error = true;
      res.internal_message = error;
      return res;
    }
    json reply;
    res.contract = contract_problems(o.raw, &reply, family_, f.event);
    res.reply_text = o.raw.out;
    while (!res.reply_text.empty() && res.reply_text.back() == '\n') res.reply_text.pop_back();
    res.description = pinta::hosts::describe_effect(
        fam_, f.event, o.effect, o.effect_message,
        o.detail.contains("error") && o.detail["error"].is_string()
            ? o.detail["error"].get<std::string>()
            : std::string());

    if (f.kind == 'n') {
      std::string want;
      if (!failsafe_kind(f.event, &want, &error)) {
        res.internal_error = true;
        res.internal_message = error;
        return res;
      }
      if (!pinta::hosts::same_failsafe(fam_, o.effect, want))
        res.failsafe.push_back("effect " + o.effect + ", the fail-safe reply gives " + want);
    }

    // Golden: one file per fixture, shared by every host that replays it (golden/shared/<fixture
    // path>), and an override per host where its effect differs (golden/<H>/<fixture path>): the
    // five Antigravity profiles agree on every fixture today, so each fixture has one golden
    // (FileCheck's --check-prefixes idea: what is common is written once).
    json golden = effect_json(fam_, o, s.path(), payload);
    golden["fixture"] = f.rel;
    std::string text = golden.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    std::string dir = o_.golden_dir.empty() ? f.root + "/golden" : o_.golden_dir;
    const std::string shared_path = dir + "/shared/" + f.rel;
    const std::string own_path = dir + "/" + o_.host + "/" + f.rel;
    bool have_shared = false, have_own = false;
    std::string shared = read_or_empty(shared_path, &have_shared);
    std::string own = read_or_empty(own_path, &have_own);
    const std::string& want = have_own ? own : shared;
    const std::string& gpath = have_own ? own_path : shared_path;
    if (o_.update_golden) {
      // A golden records a good run only: never the effect of a broken reply.
      if (!res.contract.empty() || !res.failsafe.empty()) {
        res.golden.push_back("not written: fix the failures above first");
      } else if (!have_shared) {
        if (!write_file(shared_path, text)) return internal(res, "cannot write " + shared_path);
        res.golden_written = true;
      } else if (text == shared) {
        // This host agrees with the shared golden again: its override goes.
        std::error_code ec;
        if (have_own && !stdfs::remove(own_path, ec))
          return internal(res, "cannot remove " + own_path + ": " + ec.message());
        res.golden_written = have_own;
      } else if (!have_own || own != text) {
        if (!write_file(own_path, text)) return internal(res, "cannot write " + own_path);
        res.golden_written = true;
      }
    } else if (!have_shared && !have_own) {
      res.golden.push_back("no golden at " + shared_path + " (run with --update-golden)");
    } else if (want != text) {
      json was = json::parse(want, nullptr, false);
      std::string diff = was.is_discarded() ? std::string("(golden is not JSON)")
                                            : json::diff(was, golden).dump();
      res.golden.push_back("differs from " + gpath + ": " + clip(diff, 300));
    }
    return res;
  }

  static Result internal(Result& res, const std::string& message) {
    res.internal_error = true;
    res.internal_message = message;
    return res;
  }

  Options o_;
  std::string family_, adapter_;
  pinta::hosts::Family fam_ = pinta::hosts::Family::kGemini;  // set by run()
  int timeout_ms_ = 0;
  agy::Profile profile_;
  std::map<std::string, std::string> failsafe_;
};

}  // namespace

void add_replay_commands(CLI::App& app, Action& action) {
  auto o = std::make_shared<Options>();
  auto* rp = app.add_subcommand(
      "replay",
      "feed fixture files (or every fixture under a directory) through an adapter as one host "
      "would; print what the host does with each reply; check the contract and the goldens");
  rp->add_option("--host", o->host, host_names())
      ->required();
  rp->add_option("--adapter", o->adapter,
                 "adapter command line; `--agent <family> --event <E>` is appended")
      ->required();
  rp->add_flag("--update-golden", o->update_golden, "write the goldens instead of comparing");
  rp->add_option("--golden-dir", o->golden_dir,
                 "golden directory (default: <fixtures root>/golden; files shared/<fixture path>, overrides <H>/<fixture path>)");
  rp->add_option("--timeout-ms", o->timeout_ms,
                 "hook timeout (default: what the installer registers, 10000 Gemini / 30000 agy; "
                 "10000 elsewhere)");
  rp->add_flag("--quiet", o->quiet, "print failures and the summary only");
  rp->add_option("paths", o->paths, "fixture files or directories")->required();
  rp->callback([o, &action] { action = [o]() { return Replayer(*o).run(); }; });
}

}  // namespace pinta::hostemu
