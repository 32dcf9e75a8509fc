// Runs the built hostemu binary: plan on a temp home, profiles, lint, --help, bad arguments.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "pinta/common/fs.h"
#include "pinta/common/process.h"
#include "pinta/common/test_support.h"

namespace {
pinta::proc::SpawnResult run(std::vector<std::string> args) {
  args.insert(args.begin(), pinta::testing::bin_dir() + "/hostemu");
  pinta::proc::SpawnRequest rq;
  rq.argv = std::move(args);
  rq.timeout = std::chrono::milliseconds(20000);
  return pinta::proc::make_spawner()->run(rq);
}
}  // namespace

TEST(HostemuProcess, PlanOnTempHome) {
  pinta::testing::TempDir home;
  ASSERT_TRUE(pinta::fs::make_dirs(home.sub(".gemini/config")).ok());
  ASSERT_TRUE(
      pinta::fs::atomic_write(
          home.sub(".gemini/config/hooks.json"),
          R"({"hooks":{"PreToolUse":[{"matcher":"run_command","hooks":[{"command":"echo hi","timeout":9}]}]}})")
          .ok());
  auto r = run({"antigravity", "plan", "--profile", "agy-1.1", "--home", home.path(), "--event",
                "PreToolUse", "--tool", "run_command"});
  ASSERT_TRUE(r.started) << r.spawn_error;
  ASSERT_EQ(r.exit_code.value_or(-1), 0) << r.err;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  ASSERT_TRUE(j["files"].is_array());
  EXPECT_EQ(j["files"][0]["path"], home.sub(".gemini/config/hooks.json"));
  EXPECT_EQ(j["files"][0]["status"], "loaded");
  EXPECT_EQ(j["files"][0]["error"], "");
  ASSERT_EQ(j["run"].size(), 1u);
  EXPECT_EQ(j["run"][0]["hook"], "hooks");
  EXPECT_EQ(j["run"][0]["command"], "echo hi");
  EXPECT_EQ(j["run"][0]["timeoutSeconds"], 9);
  EXPECT_EQ(j["run"][0]["cwd"], home.sub(".gemini/config"));

  r = run({"antigravity", "plan", "--profile", "agy-1.1", "--home", home.path(), "--event",
           "PreToolUse", "--tool", "view_file"});
  EXPECT_EQ(nlohmann::json::parse(r.out)["run"].size(), 0u);
}

TEST(HostemuProcess, ProfilesAndLint) {
  auto r = run({"antigravity", "profiles"});
  ASSERT_EQ(r.exit_code.value_or(-1), 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["profiles"].size(), 6u);
  EXPECT_TRUE(j["profiles"][0]["switches"]["shell"].contains("evidence"));

  pinta::testing::TempDir d;
  ASSERT_TRUE(pinta::fs::atomic_write(d.sub("hooks.json"), R"({"PreToolUse":[]})").ok());
  r = run({"antigravity", "lint", d.sub("hooks.json")});
  ASSERT_EQ(r.exit_code.value_or(-1), 0) << r.err;
  j = nlohmann::json::parse(r.out);
  for (const auto& p : j["profiles"]) EXPECT_EQ(p["status"], "rejected");
}

TEST(HostemuProcess, HelpAndBadArguments) {
  for (auto args : std::vector<std::vector<std::string>>{{"--help"},
                                                         {"antigravity", "--help"},
                                                         {"antigravity", "plan", "--help"},
                                                         {"antigravity", "lint", "--help"},
                                                         {"antigravity", "profiles", "--help"}}) {
    auto r = run(args);
    EXPECT_EQ(r.exit_code.value_or(-1), 0) << args.back();
    EXPECT_FALSE(r.out.empty());
  }
  pinta::testing::TempDir home;
  for (auto args : std::vector<std::vector<std::string>>{
           {},
           {"nosuch"},
           {"antigravity"},
           {"antigravity", "plan", "--profile", "agy-9", "--home", home.path(), "--event", "Stop"},
           {"antigravity", "plan", "--profile", "agy-1.1", "--home", home.path(), "--event",
            "BeforeTool"},
           {"antigravity", "plan", "--profile", "agy-1.1", "--event", "Stop"},
           {"antigravity", "plan", "--profile", "agy-1.1", "--home", "/nonexistent-x", "--event",
            "Stop"},
           {"antigravity", "lint", "/nonexistent-file"},
           {"antigravity", "plan", "--bogus"}}) {
    auto r = run(args);
    EXPECT_EQ(r.exit_code.value_or(-1), 2) << (args.empty() ? "" : args.back());
    EXPECT_TRUE(r.out.empty());
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;  // exactly one line
  }
}
