// The protocol profile's family readings (conformance/src/protocol/reading.h): one per registered
// family, in the registry's order, each complete.
#include "protocol/reading.h"

#include <gtest/gtest.h>

#include "pinta/hosts/family.h"
#include "pinta/hosts/hosts.h"

namespace pinta::conformance::protocol {
namespace {

TEST(ProtocolReading, EveryFamilyHasItsOwnCompleteReading) {
  for (const auto& d : pinta::hosts::families()) {
    const auto& fr = family_reading(d.id);
    EXPECT_EQ(fr.family, d.id) << d.name << ": kReadings is out of the registry's order";
    ASSERT_NE(fr.hook_timeout_ms, nullptr) << d.name;
    for (const auto& host : pinta::hosts::hosts_of(d.id))
      EXPECT_GT(fr.hook_timeout_ms(host), 0) << host;
    EXPECT_FALSE(fr.tools.empty()) << d.name;
    EXPECT_NE(fr.selects, nullptr) << d.name;
    EXPECT_NE(fr.judge, nullptr) << d.name;
    EXPECT_NE(fr.gate_call, nullptr) << d.name << ": the cross-host matrix needs its reading";
    // A family that reads a config file names the project folder it lives in.
    if (fr.read_config) {
      EXPECT_FALSE(fr.project_folder.empty()) << d.name;
    }
  }
}

// Each host's own default: Gemini CLI 60 s, deel-local-cli 15 s, Antigravity its profile's (30 s).
TEST(ProtocolReading, DefaultHookTimeoutIsTheHosts) {
  using pinta::hosts::Family;
  EXPECT_EQ(family_reading(Family::kGemini).hook_timeout_ms("gemini-0.61"), 60000);
  EXPECT_EQ(family_reading(Family::kDeel).hook_timeout_ms("deel-1.17"), 15000);
  EXPECT_EQ(family_reading(Family::kAntigravity).hook_timeout_ms("antigravity-2.0"), 30000);
}

TEST(ProtocolReading, SampleArgsByShape) {
  EXPECT_EQ(sample_args(ToolArgs::kShell, "/w"), (json{{"command", "ls -la"}}));
  EXPECT_EQ(sample_args(ToolArgs::kWriteFile, "/w").value("file_path", ""), "/w/notes.txt");
  EXPECT_TRUE(sample_args(ToolArgs::kEdit, "/w").contains("old_string"));
  EXPECT_EQ(sample_args(ToolArgs::kPath, "/w"), (json{{"file_path", "/w/notes.txt"}}));
}

TEST(ProtocolReading, SharedHelpers) {
  EXPECT_FALSE(nonblank(" \t\r\n"));
  EXPECT_TRUE(nonblank(" x"));
  EXPECT_TRUE(has_json_line("log line\n{\"decision\":\"deny\"}\n"));
  EXPECT_FALSE(has_json_line("log line\n[1]\n"));
  pinta::proc::SpawnResult r;
  EXPECT_EQ(exit_text(r), "no exit status");
  r.exit_code = 3;
  EXPECT_EQ(exit_text(r), "exit 3");
}

TEST(ProtocolReading, DefaultHostIsTheFirstFamilysNewest) {
  EXPECT_EQ(default_protocol_host(), "gemini-0.61");
}

}  // namespace
}  // namespace pinta::conformance::protocol
