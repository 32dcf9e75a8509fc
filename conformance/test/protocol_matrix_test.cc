// The protocol profile's cross-host matrix (protocol_matrix, `conformance run --profile protocol
// --matrix`): per host family that would load a hook, what its reply does to the tool call, each
// cell the family's own runner and reading (protocol/reading.h FamilyReading::gate_call).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "pinta/conformance/protocol.h"
#include "pinta/hosts/family.h"
#include "pinta/hosts/hosts.h"

namespace pinta::conformance {
namespace {

// --hook runs in a copy of the current folder (the author's): an empty one here, not the build's.
struct InTempDir {
  std::filesystem::path old = std::filesystem::current_path();
  std::filesystem::path dir = [] {
    char d[] = "/tmp/pinta-matrix-cwd-XXXXXX";
    return std::filesystem::path(::mkdtemp(d) ? d : "/tmp");
  }();
  InTempDir() { std::filesystem::current_path(dir); }
  ~InTempDir() {
    std::error_code ec;
    std::filesystem::current_path(old, ec);
    if (dir != "/tmp") std::filesystem::remove_all(dir, ec);
  }
};

// The cross-host matrix (protocol_matrix, `--matrix`) on one-line hooks whose fate differs by
// host, each cell held to the measured PreToolUse outcome matrix (shared/reference/real-hosts.md
// "Codex 0.171.0, Copilot 1.0.102, … hook rules") and the hosts' documented exit codes. A host
// whose emulator does not run hooks yet reads "?" (never a verdict); every other cell is a verdict.
TEST(ProtocolMatrix, EachHostsReadingOfTheSameReply) {
  const std::string hso =
      R"(printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse",)"
      R"("permissionDecision":"deny","permissionDecisionReason":"no"}}')";
  const std::string top =
      R"(printf '%s' '{"permissionDecision":"deny","permissionDecisionReason":"no"}')";
  const std::string gem = R"(printf '%s' '{"decision":"deny","reason":"no"}')";
  const std::string exit1 = "echo oops >&2; exit 1";
  const std::string exit2 = "echo no >&2; exit 2";
  const std::string quiet = "true";
  // Host family -> command -> verdict: the two columns of the measured matrix whose families
  // are registered with their own runners (Codex CLI 0.171, Copilot CLI 1.0 in a camelCase
  // config, which is what --hook registers on its gate event). The other families' verdicts are
  // their own protocol lanes' (conformance_protocol_hooks, conformance_protocol_hooks_claude).
  const std::map<std::string, std::map<std::string, std::string>> want = {
      {"codex", {{hso, "blocks"}, {exit2, "blocks"}, {exit1, "runs"}, {gem, "runs"},
                 {quiet, "runs"}}},
      {"copilot", {{hso, "runs"}, {top, "blocks"}, {exit2, "blocks"}, {exit1, "blocks"},
                   {gem, "runs"}, {quiet, "runs"}}},
  };
  std::map<std::string, std::set<std::string>> seen;  // command -> verdicts across hosts
  InTempDir cwd;
  RunOptions o;
  o.fixtures_dir = std::string(PINTA_SOURCE_DIR) + "/fixtures";
  o.jobs = 4;
  size_t verdicts = 0;
  for (const auto& cmd : {hso, top, gem, exit1, exit2, quiet}) {
    ProtocolOptions po;
    po.hook = cmd;
    auto rows = protocol_matrix(po, o);
    ASSERT_TRUE(rows) << rows.error().message;
    ASSERT_EQ(rows->size(), 1u) << cmd;
    const auto& row = rows->front();
    EXPECT_EQ(row.command, cmd);
    ASSERT_EQ(row.cells.size(), pinta::hosts::families().size());
    for (size_t i = 0; i < row.cells.size(); ++i) {
      const auto& d = pinta::hosts::families()[i];
      const auto& c = row.cells[i];
      SCOPED_TRACE(std::string(d.name) + " (" + c.host + "): " + cmd);
      EXPECT_EQ(c.host, pinta::hosts::hosts_of(d.id).back());
      // --hook: every family loads the command on its gate event.
      ASSERT_FALSE(c.verdict.empty()) << c.why;
      if (c.verdict == "?") {
        EXPECT_FALSE(c.why.empty());
        continue;
      }
      EXPECT_TRUE(c.verdict == "blocks" || c.verdict == "runs" || c.verdict == "asks") << c.verdict;
      EXPECT_FALSE(c.effect.empty());
      ++verdicts;
      seen[cmd].insert(c.verdict);
      auto f = want.find(std::string(d.name));
      if (f == want.end()) continue;
      auto w = f->second.find(cmd);
      if (w != f->second.end()) {
        EXPECT_EQ(c.verdict, w->second) << "effect " << c.effect;
      }
    }
  }
  // Every family but one whose emulator does not run hooks yet: at least 5 x 6 verdicts.
  EXPECT_GE(verdicts, 5u * 6u);
  // The point of the matrix: the same reply blocks on one host and runs on another.
  EXPECT_EQ(seen[hso].size(), 2u);
  EXPECT_EQ(seen[exit1].size(), 2u);
  EXPECT_EQ(seen[quiet], std::set<std::string>{"runs"});
  // The same reply is not read alike everywhere: the matrix is worth printing.
  ProtocolOptions po;
  po.hook = hso;
  auto rows = protocol_matrix(po, o);
  ASSERT_TRUE(rows);
  const std::string text = render_matrix(*rows);
  EXPECT_NE(text.find("blocks"), std::string::npos) << text;
  EXPECT_NE(text.find("runs"), std::string::npos) << text;
  for (const auto& c : rows->front().cells) EXPECT_NE(text.find(c.host), std::string::npos) << text;
}

// A config one family reads: the other families' columns say they do not load it ("-"), with the
// loader's reason, never a verdict.
TEST(ProtocolMatrix, AConfigOnlyItsReadersLoad) {
  char dir[] = "/tmp/pinta-matrix-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::filesystem::path folder = std::filesystem::path(dir) / ".deel";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "hooks.json") << R"([{"때":"도구전","이름":"stop","명령":"echo no; exit 2"}])";
  ProtocolOptions po;
  po.config = (folder / "hooks.json").string();
  RunOptions o;
  o.fixtures_dir = std::string(PINTA_SOURCE_DIR) + "/fixtures";
  auto rows = protocol_matrix(po, o);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  ASSERT_TRUE(rows) << rows.error().message;
  // One family reads a deel-local-cli hooks.json; exit 2 at its tool gate blocks there.
  size_t loaded = 0;
  for (const auto& r : *rows)
    for (size_t i = 0; i < r.cells.size(); ++i) {
      const auto& c = r.cells[i];
      if (c.verdict == "blocks" || c.verdict == "runs" || c.verdict == "asks") {
        EXPECT_EQ(c.verdict, "blocks") << c.host << " " << c.effect;
        ++loaded;
      } else {
        EXPECT_FALSE(c.why.empty()) << c.host << ": a column without a verdict says why";
      }
    }
  EXPECT_EQ(loaded, 1u);
  const std::string text = render_matrix(*rows);
  EXPECT_NE(text.find("echo no; exit 2"), std::string::npos) << text;
}

}  // namespace
}  // namespace pinta::conformance
