#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "pinta/common/fs.h"
#include "pinta/common/test_support.h"

namespace pinta::fs {
namespace {

TEST(Fs, AtomicWriteCreatesFileWithMode) {
  testing::TempDir dir;
  std::string p = dir.sub("a.json");
  ASSERT_TRUE(atomic_write(p, "{}", 0600).ok());
  auto r = read_file(p);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, "{}");
  struct stat st {};
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(Fs, ReadFileReportsMissingAndTooLarge) {
  testing::TempDir dir;
  EXPECT_EQ(read_file(dir.sub("nope")).error().code, ErrorCode::kNotFound);
  ASSERT_TRUE(atomic_write(dir.sub("big"), std::string(100, 'x')).ok());
  EXPECT_EQ(read_file(dir.sub("big"), 10).error().code, ErrorCode::kTooLarge);
}

// What the adapter reads before its reply (/etc/passwd, the env file, /etc/hosts) must not block
// on a FIFO nobody writes (docs/contract.md ENV-12): refused after a non-blocking open, at once.
// A regular file (also through a symlink) reads as with read_file.
TEST(Fs, ReadRegularFileRefusesAFifoWithoutBlocking) {
  testing::TempDir dir;
  ASSERT_EQ(::mkfifo(dir.sub("fifo").c_str(), 0600), 0);
  EXPECT_EQ(read_regular_file(dir.sub("fifo"), 1024).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(read_regular_file(dir.path(), 1024).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(read_regular_file(dir.sub("nope"), 1024).error().code, ErrorCode::kNotFound);
  ASSERT_TRUE(atomic_write(dir.sub("f"), "abc").ok());
  ASSERT_EQ(::symlink(dir.sub("f").c_str(), dir.sub("link").c_str()), 0);
  EXPECT_EQ(read_regular_file(dir.sub("link"), 1024).value_or(""), "abc");
  EXPECT_EQ(read_regular_file(dir.sub("f"), 2).error().code, ErrorCode::kTooLarge);
  struct stat st {};
  int fd = open_regular(dir.sub("f"), st);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(::fcntl(fd, F_GETFL) & O_NONBLOCK, 0) << "O_NONBLOCK cleared for the read";
  EXPECT_EQ(read_all_and_close(fd, dir.sub("f"), 1024).value_or(""), "abc");
  EXPECT_EQ(open_regular(dir.sub("fifo"), st), -1);
  EXPECT_EQ(errno, EINVAL);
}

TEST(Fs, MakeDirsCreatesNestedWithMode) {
  testing::TempDir dir;
  std::string p = dir.sub("x/y/z");
  ASSERT_TRUE(make_dirs(p, 0700).ok());
  struct stat st {};
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_TRUE(atomic_write(dir.sub("file"), "x").ok());
  EXPECT_FALSE(make_dirs(dir.sub("file"), 0700).ok());
}

TEST(Fs, AppendLockedNeverInterleavesLines) {
  testing::TempDir dir;
  std::string p = dir.sub("log.jsonl");
  constexpr int kThreads = 8, kLines = 200;
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t) {
    ts.emplace_back([&, t] {
      std::string line(1000, static_cast<char>('a' + t));
      line.push_back('\n');
      for (int i = 0; i < kLines; ++i) ASSERT_TRUE(append_locked(p, line).ok());
    });
  }
  for (auto& t : ts) t.join();
  auto r = read_file(p);
  ASSERT_TRUE(r.has_value());
  size_t lines = 0, pos = 0;
  while (pos < r->size()) {
    size_t nl = r->find('\n', pos);
    ASSERT_NE(nl, std::string::npos);
    std::string_view l(r->data() + pos, nl - pos);
    ASSERT_EQ(l.size(), 1000u);
    EXPECT_EQ(l.find_first_not_of(l[0]), std::string_view::npos);
    pos = nl + 1;
    ++lines;
  }
  EXPECT_EQ(lines, size_t{kThreads * kLines});
}

TEST(Fs, FileLockExcludesAndTimesOut) {
  testing::TempDir dir;
  auto a = FileLock::acquire(dir.sub("l"), 100);
  ASSERT_TRUE(a.has_value());
  std::thread other([&] {
    auto b = FileLock::acquire(dir.sub("l"), 50);
    EXPECT_FALSE(b.has_value());
    EXPECT_EQ(b.error().code, ErrorCode::kTimeout);
  });
  other.join();
}

TEST(Fs, PasswdHomeWithoutNss) {
  const std::string text =
      "root:x:0:0:root:/root:/bin/bash\n+::::::\nbroken line\nrel:x:1001:1001::home/rel:/bin/sh\n"
      "app:x:1000:1000:App,,,:/home/app:/bin/bash\ndup:x:1000:1000::/home/dup:/bin/sh\nnohome:x:1002:1002\n";
  EXPECT_EQ(passwd_home(text, 0), "/root");
  EXPECT_EQ(passwd_home(text, 1000), "/home/app");  // the first entry wins, as for `files`
  EXPECT_EQ(passwd_home(text, 1001), "");           // not absolute: no home
  EXPECT_EQ(passwd_home(text, 1002), "");           // too few fields
  EXPECT_EQ(passwd_home(text, 4242), "");
  EXPECT_EQ(passwd_home("", 0), "");
}

TEST(Fs, OpenPrivateRefusesLinksFifosAndSharedFiles) {
  testing::TempDir dir;
  ASSERT_TRUE(atomic_write(dir.sub("target"), "keep\n", 0600).ok());
  ASSERT_EQ(::symlink(dir.sub("target").c_str(), dir.sub("sym").c_str()), 0);
  ASSERT_EQ(::symlink(dir.sub("absent").c_str(), dir.sub("dangling").c_str()), 0);
  ASSERT_EQ(::link(dir.sub("target").c_str(), dir.sub("hard").c_str()), 0);
  ASSERT_EQ(::mkfifo(dir.sub("fifo").c_str(), 0600), 0);
  ASSERT_TRUE(atomic_write(dir.sub("shared"), "x", 0600).ok());
  ::chmod(dir.sub("shared").c_str(), 0620);

  errno = 0;
  EXPECT_EQ(open_private(dir.sub("sym"), O_WRONLY | O_APPEND | O_CREAT), -1);
  EXPECT_EQ(errno, ELOOP);
  EXPECT_EQ(open_private(dir.sub("dangling"), O_RDWR | O_CREAT), -1);  // no file created through it
  EXPECT_FALSE(exists(dir.sub("absent")));
  EXPECT_EQ(open_private(dir.sub("hard"), O_RDWR), -1);
  EXPECT_EQ(errno, EPERM);
  EXPECT_EQ(open_private(dir.sub("fifo"), O_WRONLY), -1);  // does not block on a FIFO
  EXPECT_EQ(errno, ENXIO);                                  // (no reader: non-blocking open fails)
  EXPECT_EQ(open_private(dir.sub("fifo"), O_RDONLY), -1);
  EXPECT_EQ(errno, EINVAL);
  EXPECT_EQ(open_private(dir.sub("shared"), O_RDONLY), -1);
  EXPECT_EQ(errno, EPERM);
  EXPECT_EQ(read_file(dir.sub("target")).value_or(""), "keep\n");
  EXPECT_EQ(read_private_file(dir.sub("sym")).error().code, ErrorCode::kPermission);
  EXPECT_EQ(append_private(dir.sub("sym"), "x\n").error().code, ErrorCode::kPermission);
  EXPECT_EQ(read_file(dir.sub("target")).value_or(""), "keep\n");

  ASSERT_TRUE(append_private(dir.sub("log"), "a\n").ok());
  ASSERT_TRUE(append_private(dir.sub("log"), "b\n").ok());
  EXPECT_EQ(read_private_file(dir.sub("log")).value_or(""), "a\nb\n");
  EXPECT_EQ(read_private_file(dir.sub("nope")).error().code, ErrorCode::kNotFound);
}

TEST(Fs, PrivateDirIsOursAndUnshared) {
  testing::TempDir dir;
  EXPECT_TRUE(make_private_dir(dir.sub("a/b")).ok());
  struct stat st {};
  ASSERT_EQ(::stat(dir.sub("a/b").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  EXPECT_EQ(check_private_dir(dir.sub("none")).error().code, ErrorCode::kNotFound);
  ::chmod(dir.sub("a/b").c_str(), 0770);
  auto shared = check_private_dir(dir.sub("a/b"));
  ASSERT_FALSE(shared.ok());
  EXPECT_EQ(shared.error().code, ErrorCode::kPermission);
  EXPECT_FALSE(make_private_dir(dir.sub("a/b")).ok());  // existing and shared: refused, not used
  ASSERT_TRUE(atomic_write(dir.sub("file"), "x").ok());
  EXPECT_EQ(check_private_dir(dir.sub("file")).error().code, ErrorCode::kPermission);
}

TEST(Fs, AtomicWriteIgnoresPlantedTempNames) {
  // Links at every name a pid-based temp file could have are neither followed nor truncated.
  testing::TempDir dir;
  ASSERT_TRUE(atomic_write(dir.sub("victim"), "victim\n", 0600).ok());
  const std::string pid_name = dir.sub("out.tmp." + std::to_string(::getpid()));
  ASSERT_EQ(::symlink(dir.sub("victim").c_str(), pid_name.c_str()), 0);
  ASSERT_TRUE(atomic_write(dir.sub("out"), "new\n", 0600, /*durable=*/false).ok());
  EXPECT_EQ(read_file(dir.sub("out")).value_or(""), "new\n");
  EXPECT_EQ(read_file(dir.sub("victim")).value_or(""), "victim\n");
}

}  // namespace
}  // namespace pinta::fs
