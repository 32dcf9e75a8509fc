#include <sys/stat.h>

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

}  // namespace
}  // namespace pinta::fs
