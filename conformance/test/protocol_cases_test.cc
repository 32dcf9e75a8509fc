// What the protocol profile says about the hooks it reads (protocol.h): the host a --config is read
// as when --host is not given (the one `hostemu lint` reads it as), why a file registers no command
// hook, and each registration named and placed (its title, file and line) for the reports.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "pinta/common/fs.h"
#include "pinta/common/test_support.h"
#include "pinta/conformance/protocol.h"
#include "pinta/hosts/family.h"
#include "pinta/hosts/hosts.h"

namespace pinta::conformance {
namespace {

namespace stdfs = std::filesystem;

// The newest graded host of the family named `name` (as --host NAME grades).
std::string newest(const std::string& name) {
  auto f = pinta::hosts::family_by_name(name);
  if (!f) return "";
  const auto hs = pinta::hosts::hosts_of(*f);
  return hs.empty() ? "" : hs.back();
}

void write(const std::string& path, const std::string& text) {
  stdfs::create_directories(stdfs::path(path).parent_path());
  ASSERT_TRUE(pinta::fs::atomic_write(path, text, 0644));
}

const char* kClaudeSettings = R"({
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {"type": "command", "command": "true"}
        ]
      }
    ]
  }
}
)";

// Before, a Claude Code file without --host was read as Gemini settings and the run said only
// "no command hook registered".
TEST(ProtocolHost, AConfigIsReadAsTheHostLintReadsItAs) {
  pinta::testing::TempDir d;
  const std::string cfg = d.sub("proj/.claude/settings.json");
  write(cfg, kClaudeSettings);
  const auto choice = infer_protocol_host(cfg);
  EXPECT_EQ(choice.host, newest("claude-code"));
  EXPECT_NE(choice.said.find("read as " + choice.host), std::string::npos) << choice.said;
  EXPECT_NE(choice.said.find("hostemu lint"), std::string::npos) << choice.said;
  ProtocolOptions po;
  po.host = choice.host;
  po.config = cfg;
  auto hooks = protocol_hooks(po);
  ASSERT_TRUE(hooks) << hooks.error().message;
  ASSERT_EQ(hooks->size(), 1u);

  // A file lint cannot place keeps the default host and says why.
  const std::string odd = d.sub("odd.json");
  write(odd, "[not json");
  const auto fallback = infer_protocol_host(odd);
  EXPECT_EQ(fallback.host, default_protocol_host());
  EXPECT_NE(fallback.said.find("the default"), std::string::npos) << fallback.said;
  EXPECT_NE(fallback.said.find("--host"), std::string::npos) << fallback.said;
}

// "No command hook registered" says why: the file is another host's (and which --host reads it),
// or what the host's loader drops in it, by the lint's rule IDs.
TEST(ProtocolHost, NoHookRegisteredSaysWhy) {
  pinta::testing::TempDir d;
  const std::string cfg = d.sub("settings.json");
  write(cfg, kClaudeSettings);
  ProtocolOptions po;
  po.host = default_protocol_host();
  po.config = cfg;
  auto wrong = protocol_hooks(po);
  ASSERT_FALSE(wrong);
  const std::string& m = wrong.error().message;
  EXPECT_NE(m.find("no command hook registered for " + po.host), std::string::npos) << m;
  EXPECT_NE(m.find("unknown-event"), std::string::npos) << m;  // PreToolUse, not its event
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;

  // A handler the default host's loader drops: no `type`.
  write(cfg, R"({
  "hooks": {
    "BeforeTool": [
      {"matcher": "write_file", "hooks": [{"command": "true"}]}
    ]
  }
}
)");
  auto untyped = protocol_hooks(po);
  ASSERT_FALSE(untyped);
  // The handler at line 4, and what the host's loader says of it.
  EXPECT_NE(untyped.error().message.find("; 4:"), std::string::npos) << untyped.error().message;
  EXPECT_NE(untyped.error().message.find("invalid-handler"), std::string::npos)
      << untyped.error().message;
  EXPECT_NE(untyped.error().message.find("type"), std::string::npos) << untyped.error().message;
}

// Each registration is named by its event, matcher and command, and placed at its line in the
// config (GitHub annotations point there).
TEST(ProtocolCases, EachHookIsNamedAndPlacedAtItsLine) {
  pinta::testing::TempDir d;
  const std::string cfg = d.sub(".claude/settings.json");
  write(cfg, kClaudeSettings);
  ProtocolOptions po;
  po.host = newest("claude-code");
  po.config = cfg;
  auto hooks = protocol_hooks(po);
  ASSERT_TRUE(hooks) << hooks.error().message;
  std::vector<Case> cases;
  protocol_cases(*hooks, cases);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].id, "HOOK-0001");
  EXPECT_EQ(cases[0].title, "PreToolUse [Bash]: true");
  EXPECT_EQ(cases[0].line, 7);  // {"type": "command", "command": "true"}
  EXPECT_EQ(stdfs::path(cases[0].file).filename(), "settings.json");

  // --hook has no file and no line.
  ProtocolOptions one;
  one.host = default_protocol_host();
  one.hook = "true";
  auto h = protocol_hooks(one);
  ASSERT_TRUE(h);
  protocol_cases(*h, cases);
  ASSERT_FALSE(cases.empty());
  EXPECT_EQ(cases[0].line, 0);
}

}  // namespace
}  // namespace pinta::conformance
