// File: pinta/common/version.h
// What `--version` prints for every program of the project: the project version (CMake
// project(VERSION)) and the git revision it was built from ("-dirty" with uncommitted changes,
// "unknown" outside a git checkout). Stamped at build time by cmake/PintaVersion.cmake.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace pinta {

std::string_view version() noexcept;
std::string_view git_revision() noexcept;

// "<program> <version> (<revision>)\n", the one line every `--version` prints.
inline std::string version_line(std::string_view program) {
  std::string s(program);
  s += ' ';
  s += version();
  s += " (";
  s += git_revision();
  s += ")\n";
  return s;
}

// For a program without an argument parser (the developer tools, the fuzz replays): when argv is
// exactly `--version`, or `--help` / `-h`, prints version_line(program) or `usage` on stdout and
// returns the exit status (0; 1 when stdout cannot take it); otherwise returns -1 and the program
// goes on. `usage` should fit one screen and end with a newline.
inline int answer_version_or_help(int argc, char** argv, std::string_view program,
                                  std::string_view usage) {
  if (argc != 2) return -1;
  const std::string_view a = argv[1];
  std::string text;
  if (a == "--version")
    text = version_line(program);
  else if (a == "--help" || a == "-h")
    text = usage;
  else
    return -1;
  const bool ok = std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
  return ok && std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace pinta
