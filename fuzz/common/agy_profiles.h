// File: fuzz/common/agy_profiles.h
// The Antigravity profiles the agy harnesses run under, loaded once: every shipped profile
// (hosts/antigravity/profiles, via default_profile_dir() / $PINTA_AGY_PROFILES), plus,
// on request, two synthetic variants (lenient and strict) so the harness still covers both
// shapes where no profile file is installed (OSS-Fuzz runners see only the binary).
// Also the LLVMFuzzerInitialize both agy harnesses share: OSS-Fuzz ships the profile files in
// agy-profiles/ next to the binary (fuzz/oss-fuzz/build.sh).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "pinta/emulator/antigravity/antigravity.h"

namespace pinta::fuzz {

enum class Synthetic { kNone, kLenientAndStrict, kDefaultsIfNone };

inline std::vector<emu::agy::Profile> load_agy_profiles(Synthetic extra) {
  namespace agy = emu::agy;
  std::vector<agy::Profile> v;
  auto loaded = agy::load_profiles(agy::default_profile_dir());
  if (loaded) v = *loaded;
  if (extra == Synthetic::kLenientAndStrict) {
    agy::Profile lenient;
    lenient.name = "synthetic-lenient";
    lenient.invalid_matcher = "no-match";
    agy::Profile strict = lenient;
    strict.name = "synthetic-strict";
    strict.strict_shape = true;
    strict.matcher_anchored = true;
    strict.invalid_matcher = "match-all";
    v.push_back(lenient);
    v.push_back(strict);
  } else if (extra == Synthetic::kDefaultsIfNone && v.empty()) {
    v.emplace_back();
  }
  return v;
}

// Points the emulator at <dir of argv[0]>/agy-profiles unless PINTA_AGY_PROFILES is set.
inline void use_profiles_next_to_binary(int argc, char** argv) {
  if (argc > 0 && std::getenv("PINTA_AGY_PROFILES") == nullptr) {  // NOLINT(concurrency-mt-unsafe)
    std::error_code ec;
    const auto dir = std::filesystem::path(argv[0]).parent_path() / "agy-profiles";
    if (std::filesystem::is_directory(dir, ec)) setenv("PINTA_AGY_PROFILES", dir.c_str(), 0);
  }
}

}  // namespace pinta::fuzz
