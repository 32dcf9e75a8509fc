// Differential test: the seed's own hooks.js (deel-local-cli 1.17.1, extracted at test time from
// shared/seeds/004_*.txt — never copied into the repository) runs under Node with our stand-ins
// for the three modules the seed omits (test/oracle/), and every configuration in
// test/configs/*.json is compared with `hostemu deel run`. Node runs all configurations in one
// process. SKIPPED (with the reason) when Node or the seed is missing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "pinta/common/process.h"

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
void spit(const fs::path& p, const std::string& s) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << s;
}

// hooks.js from the seed: the `@@ -0,0 +1,N @@` hunk after the "package/src/safety/hooks.js"
// header, each line without its leading '+'. Empty on failure.
std::string extract_hooks_js(const fs::path& seed) {
  std::istringstream in(slurp(seed));
  std::string line;
  bool header = false;
  while (std::getline(in, line)) {
    if (line == "package/src/safety/hooks.js") header = true;
    std::smatch m;
    if (header && std::regex_match(line, m, std::regex(R"(@@ -0,0 \+1,(\d+) @@)"))) {
      int n = std::stoi(m[1]);
      std::string out;
      for (int i = 0; i < n && std::getline(in, line); ++i) {
        if (line.empty() || line[0] != '+') return "";
        out += line.substr(1) + "\n";
      }
      return out;
    }
  }
  return "";
}

// Lone-surrogate escapes (\udXXX not in a pair; JSON.stringify writes them, nlohmann rejects
// them) become the text <lone dXXX> on both sides before parsing.
std::string tame_surrogates(const std::string& s) {
  std::string out;
  auto hex4 = [&](size_t i, unsigned& v) {
    if (i + 6 > s.size() || s[i] != '\\' || s[i + 1] != 'u') return false;
    v = static_cast<unsigned>(std::stoul(s.substr(i + 2, 4), nullptr, 16));
    return true;
  };
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    unsigned v = 0;
    if (hex4(i, v) && v >= 0xD800 && v <= 0xDFFF) {
      unsigned w = 0;
      if (v < 0xDC00 && hex4(i + 6, w) && w >= 0xDC00 && w <= 0xDFFF) {
        out += s.substr(i, 12);
        i += 11;
        continue;
      }
      out += "<lone " + s.substr(i + 2, 4) + ">";
      i += 5;
      continue;
    }
    out += s.substr(i, 2);
    ++i;
  }
  return out;
}

// Both sides start with HUP, INT, QUIT and USR1 ignored, as a CLI started from a script's
// background job or nohup would: configuration run-process-start compares what the hook then
// inherits (Node's spawn resets them to the default; so must the emulator).
constexpr const char* kIgnoreSignals = "trap '' HUP INT QUIT USR1; exec \"$0\" \"$@\"";

TEST(DeelDiff, SeedHooksJsAgreesWithHostemu) {
  const std::string node = pinta::proc::find_in_path("node");
  if (node.empty()) GTEST_SKIP() << "node is not on PATH: the seed's hooks.js cannot run";
  fs::path seed;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(PINTA_DEEL_SEEDS_DIR, ec))
    if (e.path().filename().string().rfind("004_", 0) == 0) seed = e.path();
  if (seed.empty())
    GTEST_SKIP() << "no seed " PINTA_DEEL_SEEDS_DIR "/004_*.txt (deel-local-cli 1.17.1 hooks.js)";
  const std::string hooks_js = extract_hooks_js(seed);
  ASSERT_FALSE(hooks_js.empty()) << "cannot find package/src/safety/hooks.js in " << seed;
  ASSERT_NE(hooks_js.find("export async function 자리돌리기"), std::string::npos);

  char tmpl[] = "/tmp/deel-diff-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const fs::path tmp = tmpl;
  const fs::path oracle = fs::path(PINTA_DEEL_TEST_DIR) / "oracle";
  spit(tmp / "src/safety/hooks.js", hooks_js);
  spit(tmp / "src/safety/trust.js", slurp(oracle / "trust.js"));
  spit(tmp / "src/tools/spawn.js", slurp(oracle / "spawn.js"));
  spit(tmp / "src/tools/shell.js", slurp(oracle / "shell.js"));
  spit(tmp / "harness.mjs", slurp(oracle / "harness.mjs"));

  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(PINTA_DEEL_TEST_DIR) / "configs"))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());

  const char* bin_dir = std::getenv("PINTA_BIN_DIR");
  ASSERT_NE(bin_dir, nullptr) << "PINTA_BIN_DIR is not set (run under ctest)";
  const std::string hostemu = fs::absolute(std::string(bin_dir) + "/hostemu").string();
  auto spawner = pinta::proc::make_spawner();

  std::map<std::string, std::string> ours;
  std::map<std::string, std::string> known;  // name -> the documented difference
  ojson for_node = ojson::array();
  std::set<std::string> names;
  for (const auto& f : files) {
    ojson configs = ojson::parse(slurp(f));
    for (const auto& c : configs) {
      const std::string name = c.at("name");
      ASSERT_TRUE(names.insert(name).second) << "duplicate configuration name " << name;
      const fs::path root = tmp / "cases" / name;
      fs::create_directories(root / "home");
      fs::create_directories(root / "ws");
      if (c.contains("files"))
        for (auto it = c["files"].begin(); it != c["files"].end(); ++it)
          spit(root / it.key(), it.value().dump(1, ' ', false));
      if (c.contains("raw"))
        for (auto it = c["raw"].begin(); it != c["raw"].end(); ++it)
          spit(root / it.key(), it.value().get<std::string>());
      if (c.contains("dirs"))
        for (const auto& d : c["dirs"]) fs::create_directories(root / d.get<std::string>());
      ojson env = ojson::object();
      if (c.contains("env"))
        for (auto it = c["env"].begin(); it != c["env"].end(); ++it)
          env[it.key()] = std::regex_replace(it.value().get<std::string>(), std::regex("\\$ROOT"),
                                             root.string());

      pinta::proc::SpawnRequest rq;
      rq.argv = {
          "sh",      "-c",         kIgnoreSignals,           hostemu,       "deel",
          "run",     "--home",     (root / "home").string(), "--workspace", (root / "ws").string(),
          "--event", c.at("event")};
      if (c.contains("tool")) rq.argv.insert(rq.argv.end(), {"--tool", c["tool"]});
      if (c.value("trusted", false)) rq.argv.push_back("--trusted");
      if (c.value("noHooks", false)) rq.argv.push_back("--no-hooks");
      for (auto it = env.begin(); it != env.end(); ++it)
        rq.argv.insert(rq.argv.end(), {"--env", it.key() + "=" + it.value().get<std::string>()});
      if (c.contains("payload")) rq.stdin_data = c["payload"].dump();
      rq.timeout = std::chrono::seconds(60);
      auto r = spawner->run(rq);
      ASSERT_TRUE(r.exit_code && *r.exit_code == 0) << name << ": hostemu failed: " << r.err;
      ours[name] = r.out;
      if (c.contains("knownDifference")) known[name] = c["knownDifference"];

      ojson nc = {{"name", name},
                  {"home", (root / "home").string()},
                  {"ws", (root / "ws").string()},
                  {"event", c.at("event")},
                  {"trusted", c.value("trusted", false)},
                  {"noHooks", c.value("noHooks", false)},
                  {"env", env}};
      if (c.contains("tool")) nc["tool"] = c["tool"];
      if (c.contains("payload")) nc["payload"] = c["payload"];
      for_node.push_back(nc);
    }
  }
  EXPECT_GE(names.size(), 60u);
  spit(tmp / "configs.json", for_node.dump());

  pinta::proc::SpawnRequest nrq;
  nrq.argv = {"sh",
              "-c",
              kIgnoreSignals,
              node,
              (tmp / "harness.mjs").string(),
              (tmp / "configs.json").string()};
  nrq.timeout = std::chrono::seconds(90);
  auto nr = spawner->run(nrq);
  ASSERT_TRUE(nr.exit_code && *nr.exit_code == 0) << "node harness failed: " << nr.err;

  std::map<std::string, std::string> theirs;
  std::istringstream lines(nr.out);
  std::string line;
  while (std::getline(lines, line)) {
    auto v = nlohmann::json::parse(tame_surrogates(line));
    theirs[v.at("name")] = v.at("out").dump();
  }
  int differences = 0;
  for (const auto& [name, text] : ours) {
    auto a = nlohmann::json::parse(tame_surrogates(text), nullptr, false);
    ASSERT_FALSE(a.is_discarded()) << name << ": hostemu printed no JSON: " << text;
    ASSERT_TRUE(theirs.count(name)) << name << ": no line from the seed";
    auto b = nlohmann::json::parse(theirs[name]);
    if (known.count(name)) {
      // A documented difference (docs/hosts/deel-local-cli-1.17.md) must still be one; when it
      // is not, the documentation is wrong.
      EXPECT_NE(a, b) << name << " was a known difference (" << known[name]
                      << ") but now agrees: update the configuration and the docs";
      std::cout << "[ known    ] " << name << ": " << known[name] << "\n";
      continue;
    }
    if (a != b) {
      ++differences;
      ADD_FAILURE() << name << " differs (JSON patch from the seed's to hostemu's): "
                    << nlohmann::json::diff(b, a).dump() << "\n  seed: " << b.dump();
    }
  }
  EXPECT_EQ(differences, 0);
  std::cout << "[ deel diff ] " << ours.size() << " configurations, " << differences
            << " differences, " << known.size() << " known (documented) differences\n";
  if (!::testing::Test::HasFailure()) fs::remove_all(tmp, ec);
}

}  // namespace
