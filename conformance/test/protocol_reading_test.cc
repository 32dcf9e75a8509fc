// The protocol profile's family readings (conformance/src/protocol/reading.h): one per registered
// family, in the registry's order, each complete.
#include "protocol/reading.h"

#include <gtest/gtest.h>

#include "pinta/hosts/family.h"

namespace pinta::conformance::protocol {
namespace {

TEST(ProtocolReading, EveryFamilyHasItsOwnCompleteReading) {
  for (const auto& d : pinta::hosts::families()) {
    const auto& fr = family_reading(d.id);
    EXPECT_EQ(fr.family, d.id) << d.name << ": kReadings is out of the registry's order";
    EXPECT_GT(fr.hook_timeout_ms, 0) << d.name;
    EXPECT_FALSE(fr.tools.empty()) << d.name;
    EXPECT_NE(fr.selects, nullptr) << d.name;
    EXPECT_NE(fr.judge, nullptr) << d.name;
    // A family that reads a config file names the project folder it lives in.
    if (fr.read_config) {
      EXPECT_FALSE(fr.project_folder.empty()) << d.name;
    }
  }
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
