// Shared by the rule tests (rules_test.cc, claude_rules_test.cc): a temp home and workspace, a bin
// folder on a fixed PATH holding an executable `myhook`, and helpers that lint a file written at a
// path and pick findings by rule ID.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

#include "pinta/hostlint/lint.h"
#include "temp_home.h"

namespace pinta::hostlint::testing {

class LintRulesTest : public TempHomeTest {
 protected:
  void SetUp() override {
    TempHomeTest::SetUp();
    if (HasFatalFailure()) return;
    bin_ = tmp_.sub("bin");
    std::filesystem::create_directories(bin_);
    write(bin_ + "/myhook", "#!/bin/sh\nexit 0\n", 0755);
    opts_.home = home_;
    opts_.env = {{"HOME", home_}, {"PATH", bin_ + ":/usr/bin:/bin"}};
  }
  static void write(const std::string& path, const std::string& text, unsigned mode = 0644) {
    write_file(path, text);
    ::chmod(path.c_str(), mode);
  }
  // `rel` under home, or under the workspace when it starts with "ws/".
  std::string path_of(const std::string& rel) const {
    return rel.rfind("ws/", 0) == 0 ? ws_ + rel.substr(2) : home_ + "/" + rel;
  }
  // Lints `text` written at `rel` (the host told from the path).
  std::vector<Finding> lint(const std::string& rel, const std::string& text) {
    const std::string path = path_of(rel);
    write(path, text);
    auto r = lint_paths({path}, opts_);
    EXPECT_TRUE(r) << (r ? "" : r.error().message);
    return r ? *r : std::vector<Finding>{};
  }
  static int count(const std::vector<Finding>& f, const std::string& rule) {
    int n = 0;
    for (const auto& x : f) n += x.rule == rule;
    return n;
  }
  static const Finding* find(const std::vector<Finding>& f, const std::string& rule) {
    for (const auto& x : f)
      if (x.rule == rule) return &x;
    return nullptr;
  }
  static std::string dump(const std::vector<Finding>& f) { return format_findings(f, "text"); }

  std::string bin_;
  LintOptions opts_;
};

}  // namespace pinta::hostlint::testing
