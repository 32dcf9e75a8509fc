// Data-directory lookup (pinta/common/data_dir.h): env override, installed copy, source tree.
#include "pinta/common/data_dir.h"
#include "pinta/common/env.h"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>

// Set by common/CMakeLists.txt: the relative path from the install bindir to the project's data
// dir (e.g. "../share/pinta-gemini", from GNUInstallDirs) and the source tree.
#ifndef PINTA_DATA_FROM_BINDIR
#define PINTA_DATA_FROM_BINDIR "../share/pinta-gemini"
#endif
#ifndef PINTA_DATA_SOURCE_DIR
#define PINTA_DATA_SOURCE_DIR "."
#endif

namespace pinta::data {
namespace {

bool is_dir(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string join(std::string_view a, std::string_view b) {
  std::string s(a);
  if (!s.empty() && s.back() != '/') s += '/';
  s += b;
  return s;
}

}  // namespace

std::string_view source_dir() { return PINTA_DATA_SOURCE_DIR; }

std::string share_dir() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  buf[n] = 0;
  const std::filesystem::path exe(buf);
  const std::filesystem::path rel(PINTA_DATA_FROM_BINDIR);
  const auto p = rel.is_absolute() ? rel : exe.parent_path() / rel;
  return p.lexically_normal().string();
}

std::string find_dir(const char* env_var, std::string_view share_rel, std::string_view source_rel) {
  if (env_var) {
    const char* v = pinta::env::get(env_var);  // NOLINT(concurrency-mt-unsafe)
    if (v && *v) return v;
  }
  const std::string share = share_dir();
  const std::string installed = share.empty() ? "" : join(share, share_rel);
  if (!installed.empty() && is_dir(installed)) return installed;
  const std::string source = join(source_dir(), source_rel);
  if (is_dir(source)) return source;
  return installed.empty() ? source : installed;
}

}  // namespace pinta::data
