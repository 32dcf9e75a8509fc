// The concrete hosts the project emulates and grades, by name: the one host list that the
// conformance suite, `hostemu replay` and the host runner share (docs/architecture.md).
#pragma once

#include <string>
#include <vector>

namespace pinta::hosts {

// Concrete hosts, in report order. "gemini-0.61" is the Gemini CLI 0.61 emulator, "deel-1.17" the
// deel-local-cli 1.17 emulator (emulator/hosts/deel); the others are Antigravity profiles
// (emulator/hosts/antigravity/profiles/<name>.json).
const std::vector<std::string>& all_hosts();
bool is_gemini_host(const std::string& host);
bool is_deel_host(const std::string& host);      // "deel-1.17": deel-local-cli, exit-code protocol
std::string family_of(const std::string& host);  // "gemini" | "antigravity" | "deel"

}  // namespace pinta::hosts
