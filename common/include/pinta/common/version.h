// File: pinta/common/version.h
// What `--version` prints for every program of the project: the project version (CMake
// project(VERSION)) and the git revision it was built from ("-dirty" with uncommitted changes,
// "unknown" outside a git checkout). Stamped at build time by cmake/PintaVersion.cmake.
#pragma once

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

}  // namespace pinta
