// Shared by the lint tests (rules_test.cc, cli_test.cc): a fixture with a fresh temp dir holding
// a home and a workspace, and a writer that makes a file's parent folders.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "pinta/common/test_support.h"

namespace pinta::hostlint::testing {

class TempHomeTest : public ::testing::Test {
 protected:
  // A subclass's SetUp calls this first and returns when HasFatalFailure().
  void SetUp() override {
    ASSERT_TRUE(tmp_.ok());
    home_ = tmp_.sub("home");
    ws_ = tmp_.sub("ws");
    std::filesystem::create_directories(home_);
    std::filesystem::create_directories(ws_);
  }
  // Writes `text` to `path` (its mode: the umask's), creating the parent folders.
  static void write_file(const std::string& path, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << text;
  }

  pinta::testing::TempDir tmp_;
  std::string home_, ws_;
};

}  // namespace pinta::hostlint::testing
