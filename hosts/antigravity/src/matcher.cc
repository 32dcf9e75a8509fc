// Matcher semantics (shared/reference/antigravity-hooks.md §4) and the hooks_run switch.
#include <re2/re2.h>

#include "pinta/hosts/antigravity/antigravity.h"

namespace pinta::hosts::agy {
namespace {

RE2::Options re2_options() {
  RE2::Options o;
  o.set_log_errors(false);
  return o;
}

}  // namespace

bool matcher_valid(const std::string& matcher) {
  if (matcher.empty() || matcher == "*") return true;
  RE2 re(matcher, re2_options());
  return re.ok();
}

bool matcher_matches(const Profile& profile, const std::string& matcher, const std::string& tool) {
  if (matcher.empty() || matcher == "*") return true;  // special-cased match-all (§4)
  RE2 re(matcher, re2_options());
  if (!re.ok()) return profile.invalid_matcher == "match-all";
  return profile.matcher_anchored ? RE2::FullMatch(tool, re) : RE2::PartialMatch(tool, re);
}

std::optional<std::string> hooks_not_run_reason(const Profile& profile) {
  if (profile.hooks_run) return std::nullopt;
  return "hooks do not run: " + profile.name +
         " loads and lists hooks.json but never spawns a hook (profile switch hooks_run)";
}

}  // namespace pinta::hosts::agy
