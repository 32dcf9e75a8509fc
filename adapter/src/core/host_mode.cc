// Print-mode detection (see pinta/adapter/host_mode.h). A host runs a hook as `sh -c <command>`,
// so the adapter's parent is the shell or the host itself; the walk stops at the first process
// named as the mode's program. Plain read(2) on procfs: no allocation beyond the small buffers, no
// exceptions, nothing written anywhere.
#include "pinta/adapter/host_mode.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string>

namespace pinta::adapter {
namespace {

constexpr int kMaxDepth = 8;
constexpr size_t kMaxFile = 64 * 1024;

bool read_small_file(const std::string& path, std::string& out) noexcept {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  out.clear();
  char buf[4096];
  while (out.size() < kMaxFile) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return true;
}

// <pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses.
int parent_of(const std::string& stat) noexcept {
  size_t close = stat.rfind(')');
  if (close == std::string::npos || close + 4 > stat.size()) return -1;
  size_t i = close + 2;  // the state character
  if (i + 2 > stat.size() || stat[i + 1] != ' ') return -1;
  i += 2;
  long ppid = 0;
  bool any = false;
  for (; i < stat.size() && stat[i] >= '0' && stat[i] <= '9'; ++i) {
    ppid = ppid * 10 + (stat[i] - '0');
    any = true;
    if (ppid > 1L << 30) return -1;
  }
  return any ? static_cast<int>(ppid) : -1;
}

std::string_view base_name(std::string_view path) noexcept {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

bool args_select_print_mode(const hosts::PrintMode& mode,
                            const std::vector<std::string_view>& args) noexcept {
  for (std::string_view a : args) {
    if (a == "--") return false;
    for (std::string_view flag : mode.flags) {
      if (flag.empty()) continue;
      if (a == flag) return true;
      if (a.size() > flag.size() && a.substr(0, flag.size()) == flag && a[flag.size()] == '=')
        return true;
    }
  }
  return false;
}

bool ancestor_in_print_mode(const hosts::PrintMode& mode, int pid,
                            const char* proc_root) noexcept {
  if (mode.program.empty()) return false;
  try {
    std::string cmdline, stat;
    for (int depth = 0; depth < kMaxDepth && pid > 1; ++depth) {
      const std::string dir = std::string(proc_root) + "/" + std::to_string(pid);
      if (!read_small_file(dir + "/cmdline", cmdline) || cmdline.empty()) return false;
      std::vector<std::string_view> argv;
      std::string_view rest(cmdline);
      while (!rest.empty()) {
        size_t nul = rest.find('\0');
        argv.push_back(rest.substr(0, nul));
        if (nul == std::string_view::npos) break;
        rest.remove_prefix(nul + 1);
      }
      if (!argv.empty() && base_name(argv[0]) == mode.program)
        return args_select_print_mode(mode,
                                      std::vector<std::string_view>(argv.begin() + 1, argv.end()));
      if (!read_small_file(dir + "/stat", stat)) return false;
      int parent = parent_of(stat);
      if (parent <= 0 || parent == pid) return false;
      pid = parent;
    }
  } catch (...) {
    // Allocation failure: unknown, so the configured mode stands.
  }
  return false;
}

bool parent_cannot_prompt(const hosts::PrintMode& mode) noexcept {
  return ancestor_in_print_mode(mode, static_cast<int>(::getppid()));
}

}  // namespace pinta::adapter
