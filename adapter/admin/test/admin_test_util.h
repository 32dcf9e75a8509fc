// Helpers for the admin tests: write files, snapshot a directory tree, a family's install options
// under a temp dir, apply a plan.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "pinta/admin/install.h"
#include "pinta/common/test_support.h"

inline void write_text(const std::string& path, const std::string& text, unsigned mode = 0644) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
  ::chmod(path.c_str(), mode);
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every file (with content) and directory (with "<dir>") under root, by relative path.
inline std::map<std::string, std::string> snapshot(const std::string& root) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
       it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    std::string rel = std::filesystem::relative(it->path(), root).string();
    out[rel] = it->is_directory() ? std::string("<dir>") : read_text(it->path().string());
  }
  return out;
}

// Installing `host` for a user whose home (and Gemini home) is `t`/home, the adapter at
// /opt/pinta/bin/pinta-gemini, the install state under that home (XDG_STATE_HOME unset).
inline pinta::admin::InstallOptions family_options(const pinta::testing::TempDir& t,
                                                   pinta::admin::Host host) {
  pinta::admin::InstallOptions o;
  o.host = host;
  o.home = t.sub("home");
  o.gemini_home = o.home;
  o.adapter_path = "/opt/pinta/bin/pinta-gemini";
  std::filesystem::create_directories(o.home);
  ::unsetenv("XDG_STATE_HOME");
  return o;
}

// The plan built and applied (a failure to build or apply fails the test).
inline void run(const pinta::Result<pinta::admin::Plan>& p) {
  ASSERT_TRUE(p) << p.error().message;
  ASSERT_TRUE(pinta::admin::apply(*p));
}
