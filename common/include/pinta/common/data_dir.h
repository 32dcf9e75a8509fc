// File: pinta/common/data_dir.h
// Where a program finds the data the project ships beside its binaries (the Antigravity version
// profiles, the conformance cases, the host payload fixtures), both when it runs from its build
// tree and when it runs from an installed copy (`cmake --install`, the .deb; docs/install.md
// "Where the data files live"). Never used by the adapter's hot path.
#pragma once

#include <string>
#include <string_view>

namespace pinta::data {

// The first of, in this order:
//   1. $<env_var> when it is set and not empty (the caller's explicit choice, used even when the
//      directory does not exist, so the caller's error names it);
//   2. <share_dir()>/<share_rel> when it is a directory: the installed copy;
//   3. <source tree>/<source_rel> (compiled in) when it is a directory: a program run in place;
// and, when neither 2 nor 3 exists, the installed path of 2 (or 3 when this program's own path
// cannot be read), so an error names where an installed copy should have put the data.
// env_var may be null (no override).
std::string find_dir(const char* env_var, std::string_view share_rel, std::string_view source_rel);

// <directory of this executable>/<bin-to-data>, e.g. /usr/bin/../share/pinta-gemini for
// /usr/bin/hostemu (lexically normalised: /usr/share/pinta-gemini); "" when /proc/self/exe
// cannot be read.
std::string share_dir();

// The source tree this program was built from (compiled in; it may no longer exist).
std::string_view source_dir();

}  // namespace pinta::data
