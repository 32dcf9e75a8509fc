// Shared helpers of the real-host differential tests (ctest label real-host): locate the pinned
// npm install via ci/npm-hosts.sh (exit 3/4 → the test is SKIPPED with the reason), run processes.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "pinta/common/process.h"
#include "pinta/common/test_support.h"
#include "pinta/emulator/gemini/gemini.h"

namespace pinta::emu::gemini::testing {

struct NpmHosts {
  bool ok = false;
  bool skip = false;
  std::string prefix;
  std::string reason;
};

inline NpmHosts find_npm_hosts() {
  NpmHosts h;
  auto sp = pinta::proc::make_spawner();
  pinta::proc::SpawnRequest req;
  req.argv = {"bash", pinta::testing::source_dir() + "/ci/npm-hosts.sh"};
  req.timeout = std::chrono::milliseconds(600000);
  req.hard_limit = std::chrono::milliseconds(610000);
  auto r = sp->run(req);
  int rc = r.exit_code.value_or(-1);
  if (rc == 0) {
    h.ok = true;
    h.prefix = r.out;
    while (!h.prefix.empty() && (h.prefix.back() == '\n' || h.prefix.back() == '\r'))
      h.prefix.pop_back();
  } else if (rc == 3 || rc == 4) {
    h.skip = true;
    h.reason = "ci/npm-hosts.sh exit " + std::to_string(rc) + ": " + r.err;
  } else {
    h.reason = "ci/npm-hosts.sh failed (exit " + std::to_string(rc) + "): " + r.err;
  }
  return h;
}

inline std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

inline std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline void spit(const std::string& path, const std::string& data) {
  std::ofstream f(path, std::ios::binary);
  f << data;
}

// Where differential results go for tools/gen-gemini-doc (build tree).
inline std::string diff_dir() {
  std::string d = pinta::testing::bin_dir() + "/../gemini-diff";
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace pinta::emu::gemini::testing
