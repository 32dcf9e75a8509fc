// The host list (pinta/hosts/hosts.h).
#include "pinta/hosts/hosts.h"

namespace pinta::hosts {

const std::vector<std::string>& all_hosts() {
  // agy-1.2.1-darwin-arm64 loads hooks but never runs them (profile switch hooks_run): it is
  // listed so the matrix shows that, and grades nothing.
  static const std::vector<std::string> h = {
      "gemini-0.61", "agy-1.0",         "agy-1.1",  "agy-1.2.1-darwin-arm64",
      "agy-1.2",     "antigravity-2.0", "deel-1.17"};
  return h;
}
bool is_gemini_host(const std::string& host) { return host == "gemini-0.61"; }
bool is_deel_host(const std::string& host) { return host == "deel-1.17"; }
std::string family_of(const std::string& host) {
  if (is_deel_host(host)) return "deel";
  return is_gemini_host(host) ? "gemini" : "antigravity";
}

}  // namespace pinta::hosts
