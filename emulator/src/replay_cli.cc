// `hostemu replay`: feeds recorded host payloads (fixtures/<folder>/<version>/<event>/{y,n,i}_*.json,
// <folder> the registered family's folder, pinta/hosts/family.h)
// through an adapter exactly as one emulated host would run it, prints what that host would do
// with each reply, checks the hook contract and compares the host's effect with a golden file.
//
//   hostemu replay --host H --adapter "<cmd>" [--deny-guard URL] [--update-golden]
//                  [--golden-dir DIR] [--timeout-ms N] [--quiet] PATH...
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
// so a developer's configuration cannot change the result or reach the network. With --deny-guard
// (a loopback guard that denies every request: pinta-fake-server, ci/replay-fixtures.sh) the hook
// gets PINTA_GUARD_ENDPOINT for it: the deny pass, with golden sets of its own.
//
// Checks per fixture:
//   contract  no signal / timeout, nothing on stderr, and the reply framed as the host reads it
//             (pinta/hosts/reply_check.h: exactly one stdout line holding a JSON object on the
//             JSON-line hosts, docs/contract.md OUT-*, EXIT-*; DEEL-1..3; CLAUDE-1..2);
//   fail-safe n_ fixtures, allow pass only (under the deny guard a cut payload is judged on what
//             arrived, GUARD-14): the host's effect equals the effect of the fail-safe reply for that
//             host/event (docs/contract.md FMT-4: `{"decision":"allow"}` on Antigravity PreToolUse,
//             `{}` elsewhere; no output at all where the host's allow is silence, deel-local-cli
//             and Claude Code), computed by running that reply through the same host;
//   golden    the canonical JSON of the host's effect equals what the pass's golden set for the
//             family says of the fixture: host H's own line, else the family's exception, else
//             its event's default, else the effect the host gives the family's allow reply
//             (default golden dir: <fixtures root>/golden; "goldens" below, fixtures/README.md);
//             rewritten only with --update-golden (update_goldens).
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
std::map<std::string, std::string> scrubbed_env(const std::string& scratch,
                                                const std::map<std::string, std::string>& extra) {
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
  for (const auto& [k, v] : extra) env[k] = v;
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
                 const std::string& adapter, const json& payload) {
  json e = emu::golden_effect(family, o, payload);
  // Temp paths of this run never reach a golden, nor the adapter's path (a host that names the
  // hook's command in its message, deel-local-cli).
  std::string text =
      replace_all(e.dump(-1, ' ', false, json::error_handler_t::replace), scratch, "<scratch>");
  if (!adapter.empty()) text = replace_all(text, adapter, "<adapter>");
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

// ---- goldens ----
// One golden set per pass and family: <golden-dir>/<pass>/<folder>/, pass `allow` (no guard) or
// `deny` (--deny-guard), each file optional, one `<key> <effect as canonical JSON>` per line:
//   default.txt     key <event>: what every fixture of that event records unless listed below;
//   exceptions.txt  key <version>/<event>/<name>: a fixture whose effect differs from its event's;
//   <host>.txt      either key, for one host where its effect differs from the family's.
// A fixture expects: this host's line for it, the family's exception, this host's line for its
// event, the family's default for its event, and with none of these the derived default.
// An event without a default line records the derived default: the effect the host gives the
// family's allow reply for that event (the fail-safe, docs/contract.md FMT-4), computed by the
// replay itself, so a family whose fixtures all get the allow reply needs no golden file at all
// (FileCheck's --check-prefixes idea carried one step further: what is common is not written).
using Lines = std::map<std::string, std::string>;  // key -> effect JSON (one line)

const char* const kDefaultFile = "default.txt";
const char* const kExceptionsFile = "exceptions.txt";

// Reads `path` into `out` (a missing file is an empty set); false with `error` on a bad line.
bool read_lines(const std::string& path, Lines* out, std::string* error) {
  bool ok = false;
  std::string text = read_or_empty(path, &ok);
  if (!ok) return !stdfs::exists(path);
  size_t n = 0, pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    ++n;
    if (line.empty() || line[0] == '#') continue;
    size_t sp = line.find(' ');
    json j = sp == std::string::npos ? json() : json::parse(line.substr(sp + 1), nullptr, false);
    if (sp == 0 || sp == std::string::npos || j.is_discarded() || !j.is_object()) {
      *error = path + ":" + std::to_string(n) + ": not `<key> <effect JSON object>`";
      return false;
    }
    (*out)[line.substr(0, sp)] = j.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  return true;
}

// Writes `lines` under `header` (removes the file when there are none); whether the file changed.
bool write_lines(const std::string& path, const std::string& header, const Lines& lines,
                 bool* changed, std::string* error) {
  bool had = false;
  std::string old = read_or_empty(path, &had);
  std::string text;
  if (!lines.empty()) {
    text = header;
    for (const auto& [k, v] : lines) text += k + " " + v + "\n";
  }
  *changed = text != old || (had && lines.empty());
  if (!*changed) return true;
  std::error_code ec;
  if (lines.empty()) {
    if (had && !stdfs::remove(path, ec)) *error = "cannot remove " + path + ": " + ec.message();
    return error->empty();
  }
  if (!write_file(path, text)) *error = "cannot write " + path;
  return error->empty();
}

struct GoldenSet {
  std::string dir;   // <golden-dir>/<pass>/<folder>
  Lines defaults, exceptions, host;
};

// The most common effect among `bodies`; a tie goes to `derived`, then to the smallest text.
std::string most_common(const std::vector<std::string>& bodies, const std::string& derived) {
  std::map<std::string, int> count;
  for (const auto& b : bodies) ++count[b];
  std::string best;
  int n = -1;
  for (const auto& [b, c] : count)
    if (c > n || (c == n && b == derived)) best = b, n = c;
  return best;
}

struct Options {
  std::string host, adapter, golden_dir;
  std::string deny_guard;  // URL of a guard that denies every request; empty: no guard
  std::vector<std::string> paths;
  bool update_golden = false, quiet = false;
  int timeout_ms = 0;
};

class Replayer {
 public:
  explicit Replayer(const Options& o) : o_(o) {}

  // The fixtures of this host's family named by the PATH arguments (a directory is walked, its
  // golden/, tools/ and test/ folders left out), sorted, each once; a message on a bad PATH.
  std::string collect_fixtures(std::vector<Fixture>* fixtures, size_t* other_family) const {
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
            ++*other_family;
            continue;
          }
          found.push_back(*f);
        }
        if (ec) return "cannot walk " + path + ": " + ec.message();
        fixtures->insert(fixtures->end(), found.begin(), found.end());
      } else if (stdfs::is_regular_file(path, ec)) {
        auto f = parse_fixture_path(path);
        if (!f)
          return path + " is not at <" + folder_names() + ">/<version>/<event>/{y,n,i}_<name>";
        if (f->family != family_)
          return path + " is a " + f->family + " fixture, not for --host " + o_.host;
        fixtures->push_back(*f);
      } else {
        return "no such file or directory: " + path;
      }
    }
    std::sort(fixtures->begin(), fixtures->end(),
              [](const Fixture& a, const Fixture& b) { return a.file < b.file; });
    fixtures->erase(std::unique(fixtures->begin(), fixtures->end(),
                                [](const Fixture& a, const Fixture& b) { return a.file == b.file; }),
                    fixtures->end());
    return {};
  }

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
    pass_ = o_.deny_guard.empty() ? "allow" : "deny";
    if (!o_.deny_guard.empty()) {
      if (!o_.deny_guard.starts_with("http://127.0.0.1:"))
        return usage_error("replay: --deny-guard must be a loopback http://127.0.0.1:PORT URL");
      // The guard answers at once on loopback: a budget far above the adapter's default (50 ms)
      // keeps a loaded machine from turning a scripted deny into a fail-open allow (GUARD-5).
      guard_env_ = {{"PINTA_GUARD_ENDPOINT", o_.deny_guard}, {"PINTA_GUARD_TIMEOUT_MS", "5000"}};
    }
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
    if (std::string e = collect_fixtures(&fixtures, &other_family); !e.empty())
      return usage_error("replay: " + e);
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
      if (o_.update_golden && res.contract.empty() && res.failsafe.empty())
        good_.push_back({&f, res.effect});
      bool ok = res.contract.empty() && res.failsafe.empty() && res.golden.empty();
      ok ? ++passed : ++failed;
      if (!res.contract.empty()) ++contract_fail;
      if (!res.failsafe.empty()) ++failsafe_fail;
      if (!res.golden.empty()) ++golden_fail;
      if (!ok || !o_.quiet) {
        std::cout << (ok ? "PASS" : "FAIL") << "  " << f.rel << "  reply "
                  << (res.reply_text.empty() ? std::string("-") : clip(res.reply_text, 60)) << "  -> "
                  << clip(res.description, 160) << "\n";
        for (const auto& p : res.contract) std::cout << "      contract: " << p << "\n";
        for (const auto& p : res.failsafe) std::cout << "      fail-safe: " << p << "\n";
        for (const auto& p : res.golden) std::cout << "      golden: " << p << "\n";
      }
    }
    if (o_.update_golden) {
      std::string error;
      if (!update_goldens(&written, &error)) return usage_error("replay: " + error);
    }
    std::cout << "replay --host " << o_.host << (pass_ == "deny" ? " (deny guard)" : "") << ": " << fixtures.size() << " fixtures, " << passed
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
    std::string effect;  // the golden form of the host's effect (one line of canonical JSON)
    bool internal_error = false;
    std::string internal_message;
  };

  // `host_writes`: the host writes `bytes` itself (a payload captured from it: its runner's
  // writer, with the host's key order and line end); otherwise the bytes go to stdin as they are.
  emu::HookOutcome run_host(const std::string& command, const std::string& event,
                             const std::string& bytes, bool host_writes, const json& payload,
                             const Scratch& s, std::string* error) {
    emu::HostRunnerOptions ro;
    auto runner = emu::make_host_runner(o_.host, ro, *error);
    if (!runner) return {};
    emu::HookCall call;
    call.host = o_.host;
    call.command = command;
    call.event = event;
    call.env = scrubbed_env(s.path(), guard_env_);
    call.cwd = s.path() + "/workspace";
    call.timeout_ms = timeout_ms_;
    call.input.payload = payload;
    call.input.stdin_mode = "host";
    if (host_writes) {
      call.input.payload = emu::payload_json::parse(bytes);
      return runner->run(call);
    }
    std::string raw = bytes;
    // AGY§5.4: profiles that end the stdin line with a newline add it to the recorded line.
    if (family_ == "antigravity" && profile_.stdin_trailing_newline) raw += "\n";
    call.input.raw = raw;
    return runner->run(call);
  }

  // The fail-safe reply (docs/contract.md FMT-4) for this host and event, run through the same
  // host by a script that prints it (cached per event): its effect kind for the n_ check and its
  // golden form, the derived default of every golden set.
  struct AllowEffect {
    std::string kind, golden;
  };
  bool allow_effect(const std::string& event, AllowEffect* out, std::string* error) {
    auto it = failsafe_.find(event);
    if (it != failsafe_.end()) {
      *out = it->second;
      return true;
    }
    Scratch s;
    std::string reply = pinta::hosts::allow_reply(fam_, event).dump();
    std::string script = s.path() + "/failsafe.sh";
    // Where the host's allow is silence the fail-safe is no output at all and exit 0 (contract
    // DEEL-1, CLAUDE-1).
    std::string body = allow_is_silence(fam_) ? "#!/bin/sh\nexit 0\n"
                                               : "#!/bin/sh\nprintf '%s\\n' '" + reply + "'\n";
    if (!write_file(script, body, 0755)) {
      *error = "cannot write " + script;
      return false;
    }
    auto o = run_host(script, event, "{}", false, json::object(), s, error);
    if (!error->empty()) return false;
    AllowEffect a{o.effect, effect_json(fam_, o, s.path(), adapter_, json::object())
                                .dump(-1, ' ', false, json::error_handler_t::replace)};
    failsafe_[event] = a;
    *out = a;
    return true;
  }

  // The golden set of this pass and host for fixture `f`, read once.
  const GoldenSet* golden_set(const Fixture& f, std::string* error) {
    std::string dir = (o_.golden_dir.empty() ? f.root + "/golden" : o_.golden_dir) + "/" + pass_ +
                      "/" + f.folder;
    auto it = sets_.find(dir);
    if (it != sets_.end()) return &it->second;
    GoldenSet g;
    g.dir = dir;
    if (!read_lines(dir + "/" + kDefaultFile, &g.defaults, error) ||
        !read_lines(dir + "/" + kExceptionsFile, &g.exceptions, error) ||
        !read_lines(dir + "/" + o_.host + ".txt", &g.host, error))
      return nullptr;
    return &sets_.emplace(dir, std::move(g)).first->second;
  }

  static std::string key_of(const Fixture& f) { return f.version + "/" + f.event + "/" + f.name; }

  // What the golden set expects of `f`, and where that is said: this host's line for the fixture,
  // the family's exception, this host's line for the event, the family's default for the event,
  // the derived default. `with_host` false: the family's expectation alone.
  std::string expectation(const GoldenSet& g, const Fixture& f, const std::string& derived,
                          bool with_host, std::string* source) const {
    const std::string key = key_of(f), own = g.dir + "/" + o_.host + ".txt ";
    auto line = [&](const Lines& l, const std::string& k, const std::string& where) {
      auto it = l.find(k);
      if (it == l.end()) return false;
      *source = where + k;
      return true;
    };
    if (with_host && line(g.host, key, own)) return g.host.at(key);
    if (line(g.exceptions, key, g.dir + "/" + kExceptionsFile + " ")) return g.exceptions.at(key);
    if (with_host && line(g.host, f.event, own)) return g.host.at(f.event);
    if (line(g.defaults, f.event, g.dir + "/" + kDefaultFile + " ")) return g.defaults.at(f.event);
    *source = "the derived default (the allow reply's effect on " + f.event + "; no line in " +
              g.dir + "/" + kDefaultFile + ")";
    return derived;
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
    // A y_ payload is one the host writes (an object): its runner writes it as the host does
    // (key order, line end; emulator_stdin_bytes_test holds that to the file's bytes); the
    // constructed fixtures (i_, n_) keep their own bytes.
    const bool host_writes = f.kind == 'y' && json::accept(bytes) && payload.is_object() &&
                             !payload.empty();
    auto o = run_host(command, f.event, bytes, host_writes, payload, s, &error);
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

    // n_ files get the fail-safe where no guard judges them; under the deny guard what arrived
    // whole may be judged (GUARD-14), and the deny goldens record what happened.
    if (f.kind == 'n' && pass_ == "allow") {
      AllowEffect want;
      if (!allow_effect(f.event, &want, &error)) return internal(res, error);
      if (!pinta::hosts::same_failsafe(fam_, o.effect, want.kind))
        res.failsafe.push_back("effect " + o.effect + ", the fail-safe reply gives " + want.kind);
    }

    // Golden: the host's effect against its golden set (above); the writing is update_goldens.
    res.effect = effect_json(fam_, o, s.path(), adapter_, payload)
                     .dump(-1, ' ', false, json::error_handler_t::replace);
    if (o_.update_golden) {
      // A golden records a good run only: never the effect of a broken reply.
      if (!res.contract.empty() || !res.failsafe.empty())
        res.golden.push_back("not written: fix the failures above first");
      return res;
    }
    AllowEffect allow;
    if (!allow_effect(f.event, &allow, &error)) return internal(res, error);
    const GoldenSet* g = golden_set(f, &error);
    if (g == nullptr) return internal(res, error);
    std::string source;
    const std::string want = expectation(*g, f, allow.golden, true, &source);
    if (want != res.effect)
      res.golden.push_back("differs from " + source + ": " +
                           clip(json::diff(json::parse(want), json::parse(res.effect)).dump(), 300));
    return res;
  }

  // --update-golden: rewrites the golden sets of the fixtures replayed, minimally. The family's
  // first host (owner_of_family) owns default.txt and exceptions.txt: an event's default is the
  // most common effect of its fixtures (no line where that is the derived default), recomputed
  // only when every fixture of the event under the fixtures root was replayed; a fixture is listed
  // where it differs. Every host writes <host>.txt the same way against the family's lines: an
  // event line where most of its fixtures differ alike, fixture lines for the rest. Fixtures not
  // replayed, or replayed with a failure, keep their lines. `written`: files changed.
  bool update_goldens(int* written, std::string* error) {
    std::map<std::string, std::vector<const Row*>> by_set;
    for (const auto& r : good_) {
      const GoldenSet* g = golden_set(*r.f, error);
      if (g == nullptr) return false;
      by_set[g->dir].push_back(&r);
    }
    for (auto& [dir, rows] : by_set) {
      GoldenSet& g = sets_[dir];
      const bool owner = owner_of_family(*rows.front()->f) == o_.host;
      std::map<std::string, AllowEffect> derived;
      std::map<std::string, std::vector<const Row*>> by_event;
      std::set<std::string> replayed;
      for (const Row* r : rows) {
        if (!allow_effect(r->f->event, &derived[r->f->event], error)) return false;
        by_event[r->f->event].push_back(r);
        replayed.insert(key_of(*r->f));
      }
      std::string source;
      // An event's line (the family's default, or this host's) is the most common effect of the
      // fixtures that follow it, rewritten only when all of the event's fixtures were replayed.
      auto event_line = [&](Lines& lines, const std::string& event, const std::string& below) {
        std::vector<std::string> bodies;
        for (const Row* r : by_event[event])
          if (!g.exceptions.contains(key_of(*r->f))) bodies.push_back(r->effect);
        std::string d = bodies.empty() ? below : most_common(bodies, below);
        if (d == below) lines.erase(event);
        else lines[event] = d;
      };
      for (const auto& [event, list] : by_event) {
        if (!every_fixture_replayed(*list.front()->f, event, replayed)) continue;
        if (owner) {
          for (const Row* r : list) g.exceptions.erase(key_of(*r->f));
          event_line(g.defaults, event, derived[event].golden);
        }
        const auto d = g.defaults.find(event);
        event_line(g.host, event, d != g.defaults.end() ? d->second : derived[event].golden);
      }
      for (const Row* r : rows) {
        const std::string key = key_of(*r->f);
        if (owner) {
          g.exceptions.erase(key);
          g.host.erase(r->f->event);  // the family's first host is the family
          if (expectation(g, *r->f, derived[r->f->event].golden, false, &source) != r->effect)
            g.exceptions[key] = r->effect;
        }
        g.host.erase(key);
        if (expectation(g, *r->f, derived[r->f->event].golden, true, &source) != r->effect)
          g.host[key] = r->effect;
      }
      const std::string what = pass_ == "deny" ? "under a guard that denies every request"
                                               : "without a guard";
      struct File {
        std::string name, header;
        const Lines* lines;
      };
      std::vector<File> files = {
          {o_.host + ".txt",
           "# " + o_.host + ", " + what + ": events and fixtures where this host's effect "
           "differs from the family's (fixtures/README.md)\n", &g.host}};
      if (owner) {
        files.push_back({kDefaultFile,
                         "# Replay " + what + ": the effect per event (an event not listed gets "
                         "its allow reply's effect; fixtures/README.md)\n", &g.defaults});
        files.push_back({kExceptionsFile,
                         "# Replay " + what + ": fixtures whose effect differs from their "
                         "event's default (fixtures/README.md)\n", &g.exceptions});
      }
      for (const auto& file : files) {
        bool changed = false;
        if (!write_lines(dir + "/" + file.name, file.header, *file.lines, &changed, error))
          return false;
        if (changed) ++*written;
      }
    }
    return true;
  }

  // The host that writes the family's default.txt and exceptions.txt: the first of the family's
  // replay hosts in <fixtures root>/<folder>/family.json (fixtures/README.md), else its first
  // replay host in registry order.
  std::string owner_of_family(const Fixture& f) const {
    std::vector<std::string> listed;
    bool ok = false;
    json spec = json::parse(read_or_empty(f.root + "/" + f.folder + "/family.json", &ok), nullptr,
                            false);
    if (ok && spec.is_object() && spec.contains("replay_hosts") && spec["replay_hosts"].is_array())
      for (const auto& h : spec["replay_hosts"])
        if (h.is_string()) listed.push_back(h.get<std::string>());
    for (const auto& h : replay_hosts()) listed.push_back(h);
    for (const auto& h : listed)
      if (pinta::hosts::host_family(h) == fam_) return h;
    return o_.host;
  }

  // Whether every fixture of `event` (any version) under the fixtures root of `any` is in `keys`.
  static bool every_fixture_replayed(const Fixture& any, const std::string& event,
                                     const std::set<std::string>& keys) {
    std::error_code ec;
    for (const auto& v : stdfs::directory_iterator(any.root + "/" + any.folder, ec)) {
      for (const auto& e : stdfs::directory_iterator(v.path() / event, ec)) {
        auto f = parse_fixture_path(e.path());
        if (f && e.path().extension() == ".json" && !keys.contains(key_of(*f))) return false;
      }
      ec.clear();
    }
    return true;
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
  std::map<std::string, AllowEffect> failsafe_;
  std::string pass_;                                 // golden set: allow or deny
  std::map<std::string, std::string> guard_env_;     // the hook's guard variables (deny pass)
  struct Row {
    const Fixture* f;
    std::string effect;
  };
  std::vector<Row> good_;                  // --update-golden: the fixtures replayed without failure
  std::map<std::string, GoldenSet> sets_;  // by directory
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
                 "golden directory (default: <fixtures root>/golden; golden sets "
                 "<allow|deny>/<family folder>/{default,exceptions,<H>}.txt)");
  rp->add_option("--deny-guard", o->deny_guard,
                 "replay under this guard (http://127.0.0.1:PORT, one that denies every request, "
                 "e.g. pinta-fake-server with golden/deny/guard.json) against the deny goldens");
  rp->add_option("--timeout-ms", o->timeout_ms,
                 "hook timeout (default: what the installer registers, 10000 Gemini / 30000 agy; "
                 "10000 elsewhere)");
  rp->add_flag("--quiet", o->quiet, "print failures and the summary only");
  rp->add_option("paths", o->paths, "fixture files or directories")->required();
  rp->callback([o, &action] { action = [o]() { return Replayer(*o).run(); }; });
}

}  // namespace pinta::hostemu
