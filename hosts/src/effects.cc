// Effect wording per family (pinta/hosts/effects.h): each family's model words its own effects.
#include "pinta/hosts/effects.h"

#include "pinta/hosts/family_model.h"

namespace pinta::hosts {

std::string clip_line(std::string s, std::size_t n) {
  for (auto& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  if (s.size() > n) s = s.substr(0, n - 3) + "...";
  return s;
}

std::string describe_effect(Family f, std::string_view event, const std::string& k,
                            const std::string& m, const std::string& error) {
  return model(f).describe_effect.value(event, k, m, error);
}

bool same_failsafe(Family f, const std::string& got, const std::string& want) {
  return model(f).same_failsafe.value(got, want);
}

}  // namespace pinta::hosts
