// Differential lane, session level: every scenario in test/sessions/*.json is played
// twice from identical fresh homes and workspaces, once through the REAL Gemini CLI 0.61.0 offline
// (`gemini -p` with --fake-responses, recipe in shared/reference/real-hosts.md) and once through
// `hostemu gemini session` with the same model turns. Compared:
//   hooks    — the lines the hooks appended to a log (event from their stdin + tag), in order;
//              within one event of a parallel plan the order is the finish order, so those lines
//              are compared as a set unless the scenario says "ordered"
//   files    — what the tools left in the workspace (path → content; .gemini/ excluded)
//   exit     — the CLI's exit code vs the transcript's exit_code
//   stderr   — the CLI's stderr without its start-up noise vs the transcript's stderr lines
// Any difference fails. SKIPPED (with the reason) when npm / the packages are unavailable.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iostream>
#include <regex>
#include <thread>

#include "real_support.h"

namespace g = pinta::emu::gemini;
namespace gt = pinta::emu::gemini::testing;
namespace sfs = std::filesystem;
using g::ojson;

namespace {

using gt::replace_all;

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

// The recipe's settings (real-hosts.md step 2): fixed model, no telemetry/update/IDE, API-key
// auth, folder trust off and hooks on unless the scenario overrides them.
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

void write_json(const std::string& path, const ojson& v) {
  sfs::create_directories(sfs::path(path).parent_path());
  gt::spit(path, v.dump(1));
}

struct Root {
  std::string dir, home, ws, log;
};

// Lays out one fresh root: H/.gemini/{settings,state,trustedFolders}.json, extensions, W and its
// settings, the recorder. Both sides get their own root built from the same scenario.
Root lay_out(const ojson& sc, const std::string& dir) {
  Root r;
  r.dir = dir;
  r.home = dir + "/h";
  r.ws = dir + "/" + sc.value("workspace_name", std::string("w"));
  r.log = dir + "/hooks.log";
  sfs::create_directories(r.home + "/.gemini");
  sfs::create_directories(r.ws);
  gt::spit(dir + "/rec.sh", kRecorder);
  sfs::permissions(dir + "/rec.sh", sfs::perms::owner_all);
  std::map<std::string, std::string> vars = {
      {"@REC@", dir + "/rec.sh"}, {"@W@", r.ws}, {"@H@", r.home}};
  ojson settings = base_settings();
  if (sc.contains("settings")) settings.merge_patch(substitute(sc["settings"], vars));
  write_json(r.home + "/.gemini/settings.json", settings);
  gt::spit(r.home + "/.gemini/state.json", R"({"terminalSetupPromptShown":true})");
  if (sc.contains("trusted_folders"))
    write_json(r.home + "/.gemini/trustedFolders.json", substitute(sc["trusted_folders"], vars));
  if (sc.contains("workspace_settings"))
    write_json(r.ws + "/.gemini/settings.json", substitute(sc["workspace_settings"], vars));
  if (sc.contains("extension_enablement"))
    write_json(r.home + "/.gemini/extensions/extension-enablement.json",
               substitute(sc["extension_enablement"], vars));
  if (sc.contains("extensions"))
    for (auto& [name, ext] : sc["extensions"].items()) {
      std::string ed = r.home + "/.gemini/extensions/" + name;
      ojson man = ext.contains("manifest") ? ext["manifest"]
                                           : ojson::object({{"name", name}, {"version", "1.0.0"}});
      write_json(ed + "/gemini-extension.json", substitute(man, vars));
      if (ext.contains("hooks")) write_json(ed + "/hooks/hooks.json", substitute(ext["hooks"], vars));
    }
  return r;
}

// The two sides live in different roots; paths are compared relative to them.
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
    if (t.contains("function_call")) part["functionCall"] = t["function_call"];
    else part["text"] = t.value("text", "Done.");
    ojson cand = ojson::object(
        {{"content", ojson::object({{"parts", ojson::array({part})}, {"role", "model"}})},
         {"finishReason", "STOP"},
         {"index", 0}});
    ojson line = ojson::object({{"method", "generateContentStream"},
                                {"response", ojson::array({ojson::object({{"candidates",
                                                                           ojson::array({cand})}})})}});
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

// The real CLI's stderr minus what every run prints regardless of hooks (real-hosts.md, §8
// harness notes), minus the duration-bearing summary line, which no emulator can reproduce, and
// minus the CLI's own start-up profiler complaints ("[STARTUP] Phase 'cleanup_ops' was started but
// never ended…"), which some runs print depending on timing and which no hook influences.
std::vector<std::string> real_stderr_lines(const std::string& err, const Root& r) {
  static const std::regex noise(
      R"(^(Warning: 256-color support not detected.*|YOLO mode is enabled.*|Ripgrep is not available.*|Hook execution for \w+: \d+ succeeded, \d+ failed .*|Loaded cached credentials\..*|\[STARTUP\] .*|\s*)$)");
  // Colour is the terminal's business, not the message's: SGR sequences are dropped (the trust
  // error is printed red).
  static const std::regex sgr("\x1b\\[[0-9;]*m");
  // The profiler's complaint can also come glued to the end of another line (written without
  // its own newline while another write was pending): cut it out wherever it stands.
  static const std::regex startup(
      R"(\[STARTUP\] Phase '[^']*' was started but never ended\.[^\n]*)");
  std::vector<std::string> out;
  for (auto l : lines_of(std::regex_replace(std::regex_replace(err, sgr, ""), startup, ""))) {
    l = std::regex_replace(l, sgr, "");
    if (std::regex_match(l, noise)) continue;
    out.push_back(scrub(l, r));
  }
  return out;
}

std::vector<std::string> normalize_lines(const ojson& arr, const Root& r) {
  std::vector<std::string> out;
  for (const auto& x : arr)
    for (auto& l : lines_of(x.get<std::string>())) {
      if (l.find_first_not_of(" \t") == std::string::npos) continue;
      out.push_back(scrub(l, r));
    }
  return out;
}

// Hook log → comparable lines; consecutive lines of one event are sorted unless `ordered`.
std::vector<std::string> hook_lines(const Root& r, bool ordered) {
  auto v = lines_of(gt::slurp(r.log));
  std::vector<std::string> out;
  for (auto& l : v) out.push_back(scrub(l, r));
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
    if (it->is_regular_file()) m[rel] = gt::slurp(it->path().string());
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
  std::string failure;  // the side could not run at all
};

}  // namespace

TEST(GeminiRealSessionDiff, EmulatorMatchesRealCli) {
  auto hosts = gt::find_npm_hosts();
  if (hosts.skip) GTEST_SKIP() << "real Gemini CLI unavailable: " << hosts.reason;
  ASSERT_TRUE(hosts.ok) << hosts.reason;
  const std::string src = pinta::testing::source_dir();
  const std::string cli = hosts.prefix + "/node_modules/@google/gemini-cli/bundle/gemini.js";
  std::vector<ojson> scenarios;
  for (auto& e : sfs::directory_iterator(src + "/emulator/hosts/gemini/test/sessions"))
    if (e.path().extension() == ".json")
      scenarios.push_back(ojson::parse(gt::slurp(e.path().string())));
  std::sort(scenarios.begin(), scenarios.end(),
            [](const ojson& a, const ojson& b) { return a["id"] < b["id"]; });
  ASSERT_GE(scenarios.size(), 15u);
  if (const char* only = std::getenv("PINTA_SESSION_ONLY"))
    scenarios.erase(std::remove_if(scenarios.begin(), scenarios.end(),
                                   [&](const ojson& s) { return s["id"] != only; }),
                    scenarios.end());

  pinta::testing::TempDir tmp;
  // PINTA_KEEP_SESSION_DIRS=DIR keeps every root (real/<id>, emu/<id>) under DIR for inspection.
  const char* keep = std::getenv("PINTA_KEEP_SESSION_DIRS");
  const std::string base = keep && *keep ? std::string(keep) : tmp.path();
  auto sub = [&](const std::string& rel) { return base + "/" + rel; };
  std::vector<Outcome> real(scenarios.size()), emu(scenarios.size());
  std::vector<Root> real_roots(scenarios.size()), emu_roots(scenarios.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    auto sp = pinta::proc::make_spawner();
    for (size_t i; (i = next++) < scenarios.size();) {
      const ojson& sc = scenarios[i];
      const std::string id = sc["id"].get<std::string>();
      const ojson turns = model_turns(sc);
      // Real CLI.
      Root rr = lay_out(sc, sub("real/" + id));
      real_roots[i] = rr;
      gt::spit(rr.dir + "/responses.jsonl", fake_responses(turns));
      pinta::proc::SpawnRequest q;
      q.argv = {"node", cli, "--approval-mode=yolo", "--fake-responses", rr.dir + "/responses.jsonl",
                "-p", sc.value("prompt", std::string("Create test.txt"))};
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
      auto r = sp->run(q);
      if (r.timed_out) real[i].failure = "real CLI timed out";
      real[i].exit_code = r.exit_code.value_or(-1);
      real[i].hooks = hook_lines(rr, sc.value("ordered", false));
      real[i].files = workspace_files(rr);
      real[i].stderr_lines = real_stderr_lines(r.err, rr);
      gt::spit(rr.dir + "/cli.stderr", r.err);
      gt::spit(rr.dir + "/cli.stdout", r.out);

      // Emulator.
      Root er = lay_out(sc, sub("emu/" + id));
      emu_roots[i] = er;
      ojson script = ojson::object({{"model_turns", turns},
                                    {"prompt", sc.value("prompt", std::string("Create test.txt"))},
                                    {"approval_mode", "yolo"}});
      write_json(er.dir + "/script.json", script);
      pinta::proc::SpawnRequest e;
      e.argv = {pinta::testing::bin_dir() + "/hostemu", "gemini", "session", "--home", er.home,
                "--workspace", er.ws, "--script", er.dir + "/script.json"};
      e.env = std::map<std::string, std::string>{
          {"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"HOME", er.home}, {"LANG", "C.UTF-8"}};
      e.cwd = er.ws;
      e.timeout = std::chrono::milliseconds(90000);
      auto x = sp->run(e);
      auto t = ojson::parse(x.out, nullptr, false);
      if (x.exit_code.value_or(-1) != 0 || t.is_discarded() || !t.is_object()) {
        emu[i].failure = "hostemu exit " + std::to_string(x.exit_code.value_or(-1)) + ": " + x.err;
        continue;
      }
      gt::spit(er.dir + "/transcript.json", t.dump(1));
      emu[i].exit_code = t.value("exit_code", -1);
      emu[i].hooks = hook_lines(er, sc.value("ordered", false));
      emu[i].files = workspace_files(er);
      emu[i].stderr_lines = normalize_lines(t["stderr"], er);
    }
  };
  std::vector<std::thread> th;
  for (int k = 0; k < 2; ++k) th.emplace_back(worker);
  for (auto& t : th) t.join();

  ojson report = ojson::array();
  int diffs = 0;
  for (size_t i = 0; i < scenarios.size(); ++i) {
    const ojson& sc = scenarios[i];
    std::vector<std::string> d;
    auto cmp = [&](const char* what, const ojson& a, const ojson& b) {
      if (a != b) d.push_back(std::string(what) + ": real " + a.dump() + " emulator " + b.dump());
    };
    if (!real[i].failure.empty()) d.push_back(real[i].failure);
    if (!emu[i].failure.empty()) d.push_back(emu[i].failure);
    if (emu[i].failure.empty()) {
      cmp("hooks", to_json(real[i].hooks), to_json(emu[i].hooks));
      cmp("files", ojson(real[i].files), ojson(emu[i].files));
      cmp("exit", real[i].exit_code, emu[i].exit_code);
      cmp("stderr", to_json(real[i].stderr_lines), to_json(emu[i].stderr_lines));
    }
    ojson row = ojson::object({{"id", sc["id"]},
                               {"behaviour", sc["behaviour"]},
                               {"evidence", sc.value("evidence", std::string())},
                               {"hooks", to_json(real[i].hooks)},
                               {"exit", real[i].exit_code},
                               {"differences", to_json(d)}});
    report.push_back(row);
    if (!d.empty()) {
      ++diffs;
      std::string msg;
      for (auto& x : d) msg += "\n    " + x;
      ADD_FAILURE() << "[" << sc["id"].get<std::string>() << "] "
                    << sc["behaviour"].get<std::string>() << msg << "\n    (real: "
                    << real_roots[i].dir << ", emulator: " << emu_roots[i].dir << ")";
    }
  }
  gt::spit(gt::diff_dir() + "/session.json", report.dump(1));
  EXPECT_EQ(diffs, 0) << diffs << " of " << scenarios.size() << " session scenarios differ";
}
