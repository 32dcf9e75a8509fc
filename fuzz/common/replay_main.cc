// File: fuzz/common/replay_main.cc
// main() for the default (gcc) build of every harness: runs LLVMFuzzerTestOneInput once per file
// of the directories (or files) named on the command line, so ctest replays the committed corpora
// and regressions (label fuzz-replay) without libFuzzer. A broken property aborts inside the
// harness; an empty corpus is itself an error (a replay that ran nothing checked nothing).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "pinta/common/version.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));

int main(int argc, char** argv) {
  // The harness's name is its program's (fuzz_<entry>, one target per harness, one main for all).
  const std::string self = argc > 0 ? argv[0] : "fuzz";
  const std::string name = self.substr(self.rfind('/') == std::string::npos ? 0 : self.rfind('/') + 1);
  const std::string help =
      "usage: " + name + " CORPUS-DIR|FILE...\n"
      "Replays every file given (directories recursively) through this fuzz harness once; a\n"
      "broken property aborts. Built with clang and -DPINTA_FUZZ=ON it is a libFuzzer binary\n"
      "instead (-help=1). docs/fuzzing.md has the harnesses and how to run a campaign.\n"
      "Exit status: 0 every input held, 2 no inputs or an unreadable one.\n";
  if (int rc = pinta::answer_version_or_help(argc, argv, name, help); rc >= 0) return rc;
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  namespace stdfs = std::filesystem;
  std::vector<stdfs::path> files;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (!arg.empty() && arg[0] == '-') continue;  // libFuzzer flags are accepted and ignored
    std::error_code ec;
    if (stdfs::is_directory(arg, ec)) {
      for (const auto& e : stdfs::recursive_directory_iterator(arg, ec)) {
        if (e.is_regular_file()) files.push_back(e.path());
      }
    } else if (stdfs::is_regular_file(arg, ec)) {
      files.push_back(arg);
    } else {
      std::fprintf(stderr, "replay: no such file or directory: %s\n", arg.c_str());
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "replay: no inputs (give corpus directories or files)\n");
    return 2;
  }
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
      std::fprintf(stderr, "replay: cannot read %s\n", f.c_str());
      return 2;
    }
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("replay: %zu inputs, all properties held\n", files.size());
  return 0;
}
