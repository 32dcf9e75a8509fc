// File: SHA-256 (FIPS 180-4) as lowercase hex, small and self-contained. Used where a host names
// something by a hash (Gemini CLI before 0.29 names a project's temp folder by the SHA-256 of its
// path) and by the fixture manifest's checksums. Not for secrets: no constant-time guarantees.
#pragma once

#include <string>
#include <string_view>

namespace pinta {

// The SHA-256 digest of `data` as 64 lowercase hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace pinta
