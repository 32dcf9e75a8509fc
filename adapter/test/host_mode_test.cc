// Print-mode detection for agy (host_mode.h): the flag reading, and the ancestor walk over a fake
// procfs tree in a temp dir (so the test does not depend on how it was itself started).
#include "pinta/adapter/host_mode.h"

#include <gtest/gtest.h>

#include <string>

#include "pinta/common/fs.h"
#include "pinta/common/test_support.h"
#include "pinta/hosts/family.h"

namespace pinta::adapter {
namespace {

// The registry's print mode for agy (its descriptor's evidence).
const hosts::PrintMode& kAgy = hosts::descriptor(hosts::Family::kAntigravity).print_mode;
bool print_mode(const std::vector<std::string_view>& args) {
  return args_select_print_mode(kAgy, args);
}

TEST(HostMode, AgyFlags) {
  using V = std::vector<std::string_view>;
  EXPECT_TRUE(print_mode(V{"-p", "hi"}));
  EXPECT_TRUE(print_mode(V{"--model", "x", "--print", "hi"}));
  EXPECT_TRUE(print_mode(V{"--prompt=hi"}));
  EXPECT_TRUE(print_mode(V{"-p=hi"}));
  EXPECT_FALSE(print_mode(V{}));
  EXPECT_FALSE(print_mode(V{"-i", "hi"}));
  EXPECT_FALSE(print_mode(V{"--prompt-interactive", "hi"}));
  EXPECT_FALSE(print_mode(V{"--print-timeout", "2m"}));
  EXPECT_FALSE(print_mode(V{"--mode", "accept-edits"}));
  EXPECT_FALSE(print_mode(V{"--", "-p"}));  // after `--`: an argument, not a flag
}

class FakeProc : public ::testing::Test {
 protected:
  // pid's parent and argv (NUL-separated in cmdline, as procfs has it).
  void add(int pid, int ppid, const std::vector<std::string>& argv, const std::string& comm = "x") {
    std::string dir = root_.sub(std::to_string(pid));
    ASSERT_TRUE(fs::make_dirs(dir).ok());
    std::string cmdline;
    for (const auto& a : argv) cmdline += a + std::string(1, '\0');
    ASSERT_TRUE(fs::atomic_write(dir + "/cmdline", cmdline).ok());
    ASSERT_TRUE(fs::atomic_write(dir + "/stat", std::to_string(pid) + " (" + comm + ") S " +
                                                    std::to_string(ppid) + " 1 1 0 -1 4194304 0")
                    .ok());
  }
  bool walk(int pid) { return ancestor_in_print_mode(kAgy, pid, root_.path().c_str()); }
  testing::TempDir root_;
};

TEST_F(FakeProc, FindsPrintModeAgyAboveTheShell) {
  add(100, 1, {"/home/u/.local/bin/agy", "-p", "fix it"});
  add(200, 100, {"sh", "-c", "pinta-gemini --agent antigravity --event PreToolUse"});
  EXPECT_TRUE(walk(200));
  EXPECT_TRUE(walk(100));
}

TEST_F(FakeProc, InteractiveAgyOrNoAgy) {
  add(100, 1, {"agy", "--mode", "accept-edits"});
  add(200, 100, {"sh", "-c", "x -p"});  // a -p below agy is not agy's
  EXPECT_FALSE(walk(200));
  add(300, 1, {"bash"});
  add(400, 300, {"make", "-p"});
  EXPECT_FALSE(walk(400));
  EXPECT_FALSE(walk(999));  // no such process
}

TEST_F(FakeProc, StopsAtTheNearestAgyAndWithinEightLevels) {
  add(10, 1, {"agy", "-p", "outer"});
  add(11, 10, {"agy", "inner interactive"});  // nested interactive agy decides
  add(12, 11, {"sh", "-c", "x"});
  EXPECT_FALSE(walk(12));
  add(20, 1, {"agy", "-p", "far"});
  int parent = 20;
  for (int pid = 21; pid <= 29; ++pid) {  // nine shells between agy and the adapter
    add(pid, parent, {"sh"});
    parent = pid;
  }
  EXPECT_FALSE(walk(29));
  EXPECT_TRUE(walk(22));
}

TEST_F(FakeProc, OddStatLinesAndLoopsEndTheWalk) {
  add(50, 50, {"sh"});  // its own parent
  EXPECT_FALSE(walk(50));
  add(60, 1, {"agy", "-p", "x"});
  add(61, 60, {"sh"}, "a) b (c");  // comm with parentheses and spaces
  EXPECT_TRUE(walk(61));
  ASSERT_TRUE(fs::atomic_write(root_.sub("61/stat"), "61 (sh) S").ok());
  EXPECT_FALSE(walk(61));
}

}  // namespace
}  // namespace pinta::adapter
