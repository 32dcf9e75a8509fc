// agy_docs: prints docs/hosts/antigravity.md from the profile data (same text as
// `hostemu antigravity docs`), or with --check FILE exits 1 when FILE is stale. A separate binary
// so the docs-freshness test depends on nothing but the Antigravity emulator library.
#include <cstring>
#include <iostream>
#include <string>

#include "pinta/common/fs.h"
#include "pinta/common/version.h"
#include "pinta/emulator/antigravity/antigravity.h"

int main(int argc, char** argv) {
  if (int rc = pinta::answer_version_or_help(
          argc, argv, "agy_docs",
          "usage: agy_docs [--profiles-dir D] [--check FILE] | --help | --version\n"
          "Prints docs/hosts/antigravity.md from the Antigravity version profiles (the text of\n"
          "`hostemu antigravity docs`). --check FILE: exit 1 when FILE differs from it.\n"
          "--profiles-dir D: read the profiles from D (default: the installed or source copy).\n");
      rc >= 0)
    return rc;
  std::string check, dir = pinta::emu::agy::default_profile_dir();
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "--check" || a == "--profiles-dir") && i + 1 < argc) {
      (a == "--check" ? check : dir) = argv[++i];
    } else {
      std::cerr << "agy_docs: unknown argument '" << a
                << "' (usage: agy_docs [--profiles-dir D] [--check FILE] | --help | --version)\n";
      return 2;
    }
  }
  auto profs = pinta::emu::agy::load_profiles(dir);
  if (!profs) {
    std::cerr << "agy_docs: " << profs.error().message << "\n";
    return 2;
  }
  std::string text = pinta::emu::agy::render_docs(*profs);
  if (check.empty()) {
    std::cout << text;
    return 0;
  }
  auto cur = pinta::fs::read_file(check);
  if (!cur) {
    std::cerr << "agy_docs: " << check << ": " << cur.error().message << "\n";
    return 2;
  }
  if (*cur != text) {
    std::cerr << "agy_docs: " << check << " is stale: regenerate with `hostemu antigravity docs > "
              << check << "` (or agy_docs)\n";
    return 1;
  }
  return 0;
}
