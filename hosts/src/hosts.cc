// The host list (pinta/hosts/hosts.h).
#include "pinta/hosts/hosts.h"

namespace pinta::hosts {

const std::vector<std::string>& all_hosts() {
  // agy-1.2.1-darwin-arm64 loads hooks but never runs them (profile switch hooks_run): it is
  // listed so the matrix shows that, and grades nothing.
  // gemini-0.26/0.35/0.40: the Gemini CLI version profiles (emulator/hosts/gemini/profiles/), one
  // column each; gemini-0.61 is the emulator's default (docs/gemini-versions.md).
  static const std::vector<std::string> h = {"gemini-0.61",
                                             "gemini-0.40",
                                             "gemini-0.35",
                                             "gemini-0.26",
                                             "agy-1.0",
                                             "agy-1.1",
                                             "agy-1.2.1-darwin-arm64",
                                             "agy-1.2",
                                             "antigravity-2.0",
                                             "deel-1.17"};
  return h;
}
// Any listed "gemini-" host: each has a profile file (the host runner loads it by this name).
bool is_gemini_host(const std::string& host) {
  if (host.rfind("gemini-", 0) != 0) return false;
  for (const auto& x : all_hosts())
    if (x == host) return true;
  return false;
}
bool is_deel_host(const std::string& host) { return host == "deel-1.17"; }
std::string family_of(const std::string& host) {
  if (is_deel_host(host)) return "deel";
  return is_gemini_host(host) ? "gemini" : "antigravity";
}

}  // namespace pinta::hosts
