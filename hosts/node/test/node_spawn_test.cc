// Node 20's child_process.spawn: the hook environment's order and the cwd failures, as read from
// node v20.20 here (node_spawn.h).
#include "pinta/hosts/node/node_spawn.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace {

namespace node = pinta::hosts::node;

TEST(NodeSpawn, ProcessEnvKeepsOrderDropsIndexNames) {
  // execve with {"B=1","A=2","B=3","C=4","7=x","=v"}: {...process.env} is {"B":"1","A":"2","C":"4"}.
  node::EnvPairs raw = {{"B", "1"}, {"A", "2"}, {"B", "3"}, {"C", "4"}, {"7", "x"}, {"", "v"},
                        {"01", "y"}, {"4294967295", "z"}};
  node::EnvPairs want = {{"B", "1"}, {"A", "2"}, {"C", "4"}, {"01", "y"}, {"4294967295", "z"}};
  EXPECT_EQ(node::process_env(raw), want);
  EXPECT_EQ(node::process_env({{"N", "\xff\xfe"}}), (node::EnvPairs{{"N", "\xef\xbf\xbd\xef\xbf\xbd"}}));
}

TEST(NodeSpawn, SpreadAppendsInOrderIndexNamesFirst) {
  // {...{B:1, A:2, Z:3}, A:"new", NEW:"n", 5:"five"} → 5=five B=1 A=new Z=3 NEW=n
  node::EnvPairs base = {{"B", "1"}, {"A", "2"}, {"Z", "3"}};
  auto env = node::spread_env(base, {{"A", "new"}, {"NEW", "n"}, {"5", "five"}, {"U", std::nullopt}});
  node::EnvPairs want = {{"5", "five"}, {"B", "1"}, {"A", "new"}, {"Z", "3"}, {"NEW", "n"}};
  EXPECT_EQ(env, want);
  // undefined drops an inherited name
  EXPECT_EQ(node::spread_env(base, {{"A", std::nullopt}}),
            (node::EnvPairs{{"B", "1"}, {"Z", "3"}}));
}

TEST(NodeSpawn, CwdFailures) {
  auto dir = std::filesystem::temp_directory_path() / ("node_spawn_test." + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "file") << "x";
  EXPECT_FALSE(node::cwd_failure("bash", dir.string()).has_value());
  EXPECT_FALSE(node::cwd_failure("bash", "").has_value());
  auto f = node::cwd_failure("bash", (dir / "missing").string());
  ASSERT_TRUE(f);
  EXPECT_FALSE(f->thrown);
  EXPECT_EQ(f->message, "spawn bash ENOENT");
  f = node::cwd_failure("bash", (dir / "file").string());
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->thrown);
  EXPECT_EQ(f->message, "spawn ENOTDIR");
  f = node::cwd_failure("bash", (dir / "file" / "sub").string());
  ASSERT_TRUE(f);
  EXPECT_EQ(f->message, "spawn ENOTDIR");
  f = node::cwd_failure("bash", "/tmp/" + std::string(300, 'x'));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->message, "spawn ENAMETOOLONG");
  std::filesystem::create_symlink(dir / "l1", dir / "l2");
  std::filesystem::create_symlink(dir / "l2", dir / "l1");
  f = node::cwd_failure("bash", (dir / "l1").string());
  ASSERT_TRUE(f);
  EXPECT_EQ(f->message, "spawn ELOOP");
  f = node::cwd_failure("bash", std::string("/tmp/a\0b", 8));
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->thrown);
  EXPECT_EQ(f->message,
            "The property 'options.cwd' must be a string, Uint8Array, or URL without null bytes. "
            "Received '/tmp/a\\x00b'");
  EXPECT_EQ(node::spawn_failure("bash", ENOENT).message, "spawn bash ENOENT");
  EXPECT_EQ(node::spawn_failure("bash", EACCES).message, "spawn bash EACCES");
  std::filesystem::remove_all(dir);
}

}  // namespace
