// pinta::data::find_dir: env override, installed copy, source tree (common/data_dir.h). The
// installed-copy-first order with real programs is checked by the install_prefix test.
#include <stdlib.h>
#include <unistd.h>

#include <climits>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "pinta/common/data_dir.h"
#include "pinta/common/test_support.h"

namespace pinta::data {
namespace {

std::string self_dir() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  buf[n] = 0;
  return std::filesystem::path(buf).parent_path().string();
}

TEST(DataDir, ShareDirIsBesideTheExecutable) {
  // build/tests/common_test -> build/share/pinta-gemini (GNUInstallDirs bin/ and share/).
  const std::string expected =
      (std::filesystem::path(self_dir()).parent_path() / "share" / "pinta-gemini").string();
  EXPECT_EQ(share_dir(), expected);
}

TEST(DataDir, EnvOverrideWinsEvenWhenMissing) {
  ::setenv("PINTA_DATA_DIR_TEST", "/nonexistent/pinta-data", 1);
  EXPECT_EQ(find_dir("PINTA_DATA_DIR_TEST", "conformance/cases", "conformance/cases"),
            "/nonexistent/pinta-data");
  ::setenv("PINTA_DATA_DIR_TEST", "", 1);  // empty: not an override
  EXPECT_NE(find_dir("PINTA_DATA_DIR_TEST", "conformance/cases", "conformance/cases"), "");
  ::unsetenv("PINTA_DATA_DIR_TEST");
}

TEST(DataDir, SourceTreeWhenNothingIsInstalled) {
  // No share dir next to the test binary: the source tree's directory.
  ASSERT_FALSE(std::filesystem::exists(share_dir() + "/conformance/cases"));
  EXPECT_EQ(find_dir(nullptr, "conformance/cases", "conformance/cases"),
            std::string(source_dir()) + "/conformance/cases");
}

TEST(DataDir, MissingEverywhereNamesTheInstalledPath) {
  EXPECT_EQ(find_dir(nullptr, "no-such-data", "no/such/data"), share_dir() + "/no-such-data");
}

}  // namespace
}  // namespace pinta::data
