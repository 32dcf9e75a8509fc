#include "pinta/emulator/session_lane.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "pinta/common/fs.h"
#include "pinta/common/process.h"
#include "pinta/common/text.h"

namespace pinta::emu::session_lane {
namespace sfs = std::filesystem;
namespace {

using pinta::text::replace_all;

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

const std::map<std::string, std::string> kBaseEnv = {{"PATH", "/usr/local/bin:/usr/bin:/bin"},
                                                     {"LANG", "C.UTF-8"}};

}  // namespace

Root lay_out(const ojson& sc, const std::string& dir, bool telemetry) {
  Root r;
  r.dir = dir;
  r.home = dir + "/h";
  r.ws = dir + "/" + sc.value("workspace_name", std::string("w"));
  r.log = dir + "/hooks.log";
  r.telemetry = dir + "/telemetry.json";
  sfs::create_directories(r.home + "/.gemini");
  sfs::create_directories(r.ws);
  spit(dir + "/rec.sh", kRecorder);
  sfs::permissions(dir + "/rec.sh", sfs::perms::owner_all);
  std::map<std::string, std::string> vars = {
      {"@REC@", dir + "/rec.sh"}, {"@W@", r.ws}, {"@H@", r.home}};
  ojson settings = base_settings();
  if (telemetry)
    settings["telemetry"] = ojson::object(
        {{"enabled", true}, {"target", "local"}, {"outfile", r.telemetry}, {"logPrompts", true}});
  if (sc.contains("settings")) settings.merge_patch(substitute(sc["settings"], vars));
  spit(r.home + "/.gemini/settings.json", settings.dump(1));
  spit(r.home + "/.gemini/state.json", R"({"terminalSetupPromptShown":true})");
  if (sc.contains("trusted_folders"))
    spit(r.home + "/.gemini/trustedFolders.json", substitute(sc["trusted_folders"], vars).dump(1));
  if (sc.contains("workspace_settings"))
    spit(r.ws + "/.gemini/settings.json", substitute(sc["workspace_settings"], vars).dump(1));
  if (sc.contains("workspace_files"))
    for (auto& [rel, content] : sc["workspace_files"].items())
      spit(r.ws + "/" + rel, content.get<std::string>());
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

std::string scrub(const std::string& text, const Root& r) {
  return replace_all(replace_all(replace_all(text, r.ws, "@W@"), r.home, "@H@"), r.dir, "@ROOT@");
}

ojson model_turns(const ojson& sc) {
  if (sc.contains("model_turns")) return sc["model_turns"];
  return ojson::parse(R"([{"function_call":{"name":"write_file",
      "args":{"file_path":"test.txt","content":"Hello World"}}},{"text":"Done."}])");
}

std::string prompt_of(const ojson& sc) {
  return sc.value("prompt", std::string("Create test.txt"));
}

std::string fake_responses(const ojson& turns) {
  std::string out;
  auto chunk_of = [](const ojson& part) {
    ojson cand = ojson::object(
        {{"content", ojson::object({{"parts", ojson::array({part})}, {"role", "model"}})},
         {"finishReason", "STOP"},
         {"index", 0}});
    return ojson::object({{"candidates", ojson::array({cand})}});
  };
  for (const auto& t : turns) {
    // "chunks": N streams N chunks: N-1 thought parts (not shown, not part of the answer text),
    // then the turn's own part, as the upstream .responses recordings do.
    ojson stream = ojson::array();
    const int chunks = t.is_object() ? t.value("chunks", 1) : 1;
    for (int k = 1; k < chunks; ++k)
      stream.push_back(chunk_of(
          ojson::object({{"text", "Thinking (" + std::to_string(k) + ")."}, {"thought", true}})));
    ojson part = ojson::object();
    if (t.contains("function_call"))
      part["functionCall"] = t["function_call"];
    else
      part["text"] = t.value("text", "Done.");
    stream.push_back(chunk_of(part));
    ojson line = ojson::object({{"method", "generateContentStream"}, {"response", stream}});
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
// harness notes), the duration-bearing hook summary line, which no emulator can reproduce, the
// start-up profiler's timing-dependent complaints ("[STARTUP] Phase 'cleanup_ops' was started but
// never ended…") and the OpenTelemetry SDK's own warnings that local telemetry brings ("The
// 'metricReader' option is deprecated…", 0.40+; "Timeout of 30000 exceeds the interval of 10000.
// Clamping timeout to interval duration.", 0.35.3); `extra_noise` is the profile's list of
// further version-specific lines that no hook influences.
std::vector<std::string> real_stderr_lines(const std::string& err, const Root& r,
                                           const std::vector<std::regex>& extra_noise) {
  static const std::regex noise(
      R"(^(Warning: 256-color support not detected.*|YOLO mode is enabled.*|Ripgrep is not available.*|Hook execution for \w+: \d+ succeeded, \d+ failed .*|Loaded cached credentials\..*|\[STARTUP\] .*|The 'metricReader' option is deprecated.*|Timeout of \d+ exceeds the interval of \d+\. Clamping timeout to interval duration\.|\s*)$)");
  // Colour is the terminal's business, not the message's: SGR sequences are dropped (the trust
  // error is printed red).
  static const std::regex sgr("\x1b\\[[0-9;]*m");
  // The profiler's complaint can also come glued to the end of another line (written without
  // its own newline while another write was pending): cut it out wherever it stands.
  static const std::regex startup(
      R"(\[STARTUP\] Phase '[^']*' was started but never ended\.[^\n]*)");
  std::vector<std::string> out;
  for (auto l : lines_of(std::regex_replace(std::regex_replace(err, sgr, ""), startup, ""))) {
    if (std::regex_match(l, noise)) continue;
    if (std::any_of(extra_noise.begin(), extra_noise.end(),
                    [&](const std::regex& re) { return std::regex_match(l, re); }))
      continue;
    out.push_back(scrub(l, r));
  }
  return out;
}

void unglue_lines(std::vector<std::string>& lines, const std::vector<std::regex>& after) {
  if (after.empty()) return;
  std::vector<std::string> out;
  for (std::string rest : lines) {
    for (bool split = true; split;) {
      split = false;
      for (const auto& re : after) {
        std::smatch m;
        if (std::regex_search(rest, m, re, std::regex_constants::match_continuous) &&
            m.length(0) > 0 && static_cast<size_t>(m.length(0)) < rest.size()) {
          out.push_back(rest.substr(0, static_cast<size_t>(m.length(0))));
          rest = rest.substr(static_cast<size_t>(m.length(0)));
          split = true;
          break;
        }
      }
    }
    out.push_back(rest);
  }
  lines = std::move(out);
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

std::optional<std::vector<ojson>> split_json_stream(const std::string& text) {
  std::vector<ojson> out;
  size_t i = 0;
  while (true) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i == text.size()) return out;
    if (text[i] != '{' && text[i] != '[') return std::nullopt;
    // Find the end of this value: brackets outside strings.
    int depth = 0;
    bool in_str = false, esc = false;
    size_t j = i;
    for (; j < text.size(); ++j) {
      char c = text[j];
      if (in_str) {
        if (esc)
          esc = false;
        else if (c == '\\')
          esc = true;
        else if (c == '"')
          in_str = false;
        continue;
      }
      if (c == '"')
        in_str = true;
      else if (c == '{' || c == '[')
        ++depth;
      else if ((c == '}' || c == ']') && --depth == 0)
        break;
    }
    if (j == text.size()) return std::nullopt;
    auto v = ojson::parse(text.begin() + static_cast<long>(i),
                          text.begin() + static_cast<long>(j + 1), nullptr, false);
    if (v.is_discarded()) return std::nullopt;
    out.push_back(std::move(v));
    i = j + 1;
  }
}

ojson project_hook_call(const ojson& a, const Root& r) {
  ojson p = ojson::object();
  auto str = [&](const char* k) {
    if (a.contains(k) && a[k].is_string()) p[k] = scrub(a[k].get<std::string>(), r);
  };
  str("hook_event_name");
  str("hook_type");
  str("hook_name");
  if (a.contains("success")) p["success"] = a["success"];
  if (a.contains("exit_code") && !a["exit_code"].is_null()) p["exit_code"] = a["exit_code"];
  if (a.contains("hook_output")) {
    // The CLI logs the parsed output re-serialized (JSON.stringify(o, null, 2)); compare values.
    const ojson& o = a["hook_output"];
    ojson v = o.is_string() ? ojson::parse(o.get<std::string>(), nullptr, false) : o;
    if (!v.is_discarded() && !v.is_null())
      p["hook_output"] = ojson::parse(scrub(v.dump(), r), nullptr, false);
  }
  str("stdout");
  str("stderr");
  str("error");
  return p;
}

namespace {
// The array of `each(attributes)` over the CLI's gemini_cli.hook_call telemetry records in its
// --telemetry-outfile text, in order; nullopt when the text is no JSON stream.
template <class Each>
std::optional<ojson> map_hook_calls(const std::string& outfile_text, Each each) {
  auto docs = split_json_stream(outfile_text);
  if (!docs) return std::nullopt;
  ojson out = ojson::array();
  for (const auto& d : *docs) {
    if (!d.is_object() || !d.contains("attributes") || !d["attributes"].is_object()) continue;
    const ojson& a = d["attributes"];
    if (a.value("event.name", std::string()) != "gemini_cli.hook_call") continue;
    out.push_back(each(a));
  }
  return out;
}
}  // namespace

std::optional<ojson> real_hook_calls(const std::string& outfile_text, const Root& r) {
  return map_hook_calls(outfile_text, [&](const ojson& a) { return project_hook_call(a, r); });
}

ojson normalize_payload(const ojson& input, const Root& r) {
  // Before 0.29 the CLI names the project's folder under ~/.gemini/tmp by the SHA-256 of the
  // project path (core 0.28.2 config/storage.js getProjectTempDir), which differs between the two
  // runs' roots: the transcript_path and the session context's temp dir name it.
  static const std::regex project_hash(R"((\.gemini/tmp/)[0-9a-f]{64}(?![0-9a-f]))");
  ojson v = ojson::parse(
      std::regex_replace(scrub(input.dump(), r), project_hash, "$1@PROJECT_HASH@"), nullptr, false);
  if (v.is_discarded() || !v.is_object()) return v.is_discarded() ? input : v;
  static const std::regex iso(R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$)");
  static const std::regex session_file(R"(session-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-[0-9A-Za-z_-]+(\.jsonl?)$)");
  // The CLI's session context names today's date in words ("Today's date is Sunday, December 6,
  // 2026"): a date of the run, not of the version.
  static const std::regex date_words(
      R"((Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4})");
  if (v.contains("session_id") && v["session_id"].is_string() &&
      !v["session_id"].get<std::string>().empty())
    v["session_id"] = "@SESSION_ID@";
  if (v.contains("timestamp") && v["timestamp"].is_string() &&
      std::regex_match(v["timestamp"].get<std::string>(), iso))
    v["timestamp"] = "@TIMESTAMP@";
  if (v.contains("transcript_path") && v["transcript_path"].is_string())
    v["transcript_path"] =
        std::regex_replace(v["transcript_path"].get<std::string>(), session_file, "session-@TIME@-@ID@$1");
  for (const char* k : {"llm_request", "llm_response"})
    if (v.contains(k)) {
      auto d = ojson::parse(std::regex_replace(v[k].dump(), date_words, "@DATE@"), nullptr, false);
      if (!d.is_discarded()) v[k] = d;
    }
  return v;
}

std::optional<ojson> real_payloads(const std::string& outfile_text, const Root& r) {
  return map_hook_calls(outfile_text, [&](const ojson& a) {
    ojson in = a.contains("hook_input") ? a["hook_input"] : ojson(nullptr);
    if (in.is_string()) in = ojson::parse(in.get<std::string>(), nullptr, false);
    if (in.is_discarded()) in = a["hook_input"];
    return ojson::object({{"event", a.value("hook_event_name", std::string())},
                          {"input", normalize_payload(in, r)}});
  });
}

namespace {
void diff_leaves(const ojson& a, const ojson& b, const std::string& path,
                 std::vector<std::string>& out, bool a_has, bool b_has) {
  if (a_has && b_has && a.is_object() && b.is_object()) {
    for (auto& [k, x] : a.items())
      diff_leaves(x, b.contains(k) ? b[k] : ojson(), path + "/" + k, out, true, b.contains(k));
    for (auto& [k, y] : b.items())
      if (!a.contains(k)) diff_leaves(ojson(), y, path + "/" + k, out, false, true);
    return;
  }
  if (a_has && b_has && a.is_array() && b.is_array() && a.size() == b.size()) {
    for (size_t i = 0; i < a.size(); ++i)
      diff_leaves(a[i], b[i], path + "/" + std::to_string(i), out, true, true);
    return;
  }
  if (a_has == b_has && a == b) return;
  out.push_back((path.empty() ? "/" : path) + ": real " + (a_has ? a.dump() : "<absent>") +
                " emulator " + (b_has ? b.dump() : "<absent>"));
}
}  // namespace

std::vector<std::string> payload_differences(const ojson& real, const ojson& emu) {
  std::vector<std::string> out;
  diff_leaves(real, emu, "", out, true, true);
  return out;
}

Outcome play_real(const ojson& sc, const std::string& dir, const RealOptions& o, Root* root_out) {
  Outcome out;
  Root rr = lay_out(sc, dir, o.hook_calls);
  if (root_out) *root_out = rr;
  spit(rr.dir + "/responses.jsonl", fake_responses(model_turns(sc)));
  pinta::proc::SpawnRequest q;
  q.argv = {
      "node", o.cli,        "--approval-mode=yolo", "--fake-responses", rr.dir + "/responses.jsonl",
      "-p",   prompt_of(sc)};
  auto env = kBaseEnv;
  env["HOME"] = rr.home;
  env["GEMINI_CLI_HOME"] = rr.home;
  env["GEMINI_API_KEY"] = "fake";
  env["GEMINI_PTY_INFO"] = "child_process";
  q.env = env;
  q.cwd = rr.ws;
  q.stdin_mode = pinta::proc::StdinMode::kNone;
  q.timeout = std::chrono::milliseconds(90000);
  q.hard_limit = std::chrono::milliseconds(95000);
  auto r = pinta::proc::make_spawner()->run(q);
  if (!r.started) out.failure = "real CLI did not start: " + r.spawn_error;
  if (r.timed_out) out.failure = "real CLI timed out";
  out.exit_code = r.exit_code.value_or(-1);
  out.hooks = hook_lines(rr, sc.value("ordered", false));
  out.files = workspace_files(rr);
  out.stderr_lines = real_stderr_lines(r.err, rr, o.extra_noise);
  spit(rr.dir + "/cli.stderr", r.err);
  spit(rr.dir + "/cli.stdout", r.out);
  if (o.hook_calls) {
    // No outfile = the CLI logged nothing (a run that fails before telemetry starts).
    out.hook_calls = sfs::exists(rr.telemetry) ? real_hook_calls(slurp(rr.telemetry), rr)
                                               : std::optional<ojson>(ojson::array());
    out.payloads = sfs::exists(rr.telemetry) ? real_payloads(slurp(rr.telemetry), rr)
                                             : std::optional<ojson>(ojson::array());
    if (!out.hook_calls && out.failure.empty())
      out.failure = "unreadable telemetry outfile " + rr.telemetry;
  }
  return out;
}

Outcome play_emulator(const ojson& sc, const std::string& dir, const std::string& hostemu,
                      const std::string& profile_path, Root* root_out) {
  Outcome out;
  Root er = lay_out(sc, dir, false);
  if (root_out) *root_out = er;
  ojson script = ojson::object(
      {{"model_turns", model_turns(sc)}, {"prompt", prompt_of(sc)}, {"approval_mode", "yolo"}});
  spit(er.dir + "/script.json", script.dump(1));
  pinta::proc::SpawnRequest e;
  e.argv = {hostemu,  "gemini",   "session",
            "--home", er.home,    "--workspace",
            er.ws,    "--script", er.dir + "/script.json"};
  if (!profile_path.empty()) {
    e.argv.push_back("--profile");
    e.argv.push_back(profile_path);
  }
  auto env = kBaseEnv;
  env["HOME"] = er.home;
  e.env = env;
  e.cwd = er.ws;
  e.stdin_mode = pinta::proc::StdinMode::kNone;
  e.timeout = std::chrono::milliseconds(90000);
  e.hard_limit = std::chrono::milliseconds(95000);
  auto x = pinta::proc::make_spawner()->run(e);
  auto t = ojson::parse(x.out, nullptr, false);
  if (x.exit_code.value_or(-1) != 0 || t.is_discarded() || !t.is_object()) {
    out.failure = "hostemu exit " + std::to_string(x.exit_code.value_or(-1)) + ": " + x.err;
    return out;
  }
  spit(er.dir + "/transcript.json", t.dump(1));
  out.exit_code = t.value("exit_code", -1);
  out.hooks = hook_lines(er, sc.value("ordered", false));
  out.files = workspace_files(er);
  out.stderr_lines = normalize_lines(t["stderr"], er);
  if (t.contains("hook_calls") && t["hook_calls"].is_array()) {
    ojson calls = ojson::array();
    ojson payloads = ojson::array();
    for (const auto& c : t["hook_calls"]) {
      calls.push_back(project_hook_call(c, er));
      payloads.push_back(ojson::object(
          {{"event", c.value("hook_event_name", std::string())},
           {"input", normalize_payload(c.contains("hook_input") ? c["hook_input"] : ojson(), er)}}));
    }
    out.hook_calls = calls;
    out.payloads = payloads;
  }
  return out;
}

std::vector<std::string> compare(const Outcome& real, const Outcome& emu) {
  std::vector<std::string> d;
  auto cmp = [&](const char* what, const ojson& a, const ojson& b) {
    if (a != b) d.push_back(std::string(what) + ": real " + a.dump() + " emulator " + b.dump());
  };
  if (!real.failure.empty()) d.push_back(real.failure);
  if (!emu.failure.empty()) d.push_back(emu.failure);
  if (!emu.failure.empty()) return d;
  cmp("hooks", to_json(real.hooks), to_json(emu.hooks));
  cmp("files", ojson(real.files), ojson(emu.files));
  cmp("exit", real.exit_code, emu.exit_code);
  cmp("stderr", to_json(real.stderr_lines), to_json(emu.stderr_lines));
  if (real.hook_calls && !emu.hook_calls)
    d.push_back("hook_calls: the emulator's transcript has no hook_calls");
  else if (real.hook_calls && emu.hook_calls) {
    // One line per differing record keeps a long run's report readable.
    const ojson& a = *real.hook_calls;
    const ojson& b = *emu.hook_calls;
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      ojson x = i < a.size() ? a[i] : ojson(nullptr);
      ojson y = i < b.size() ? b[i] : ojson(nullptr);
      if (x != y)
        d.push_back("hook_calls[" + std::to_string(i) + "]: real " + x.dump() + " emulator " +
                    y.dump());
    }
  }
  if (real.payloads && emu.payloads) {
    // Field by field, per hook run of the same event (a missing run is the hook_calls line's).
    const ojson& a = *real.payloads;
    const ojson& b = *emu.payloads;
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
      if (a[i]["event"] != b[i]["event"]) continue;
      for (auto& l : payload_differences(a[i]["input"], b[i]["input"]))
        d.push_back("payload[" + std::to_string(i) + "] " + a[i]["event"].get<std::string>() +
                    " " + l);
    }
  }
  return d;
}

ojson to_json(const std::vector<std::string>& v) {
  ojson a = ojson::array();
  for (auto& s : v) a.push_back(s);
  return a;
}

}  // namespace pinta::emu::session_lane
