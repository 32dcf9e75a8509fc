// Copilot CLI version profiles (pinta/hosts/copilot/copilot.h, "version profiles"): reading
// hosts/copilot/profiles/*.json and finding the one for a release. What each switch means: the
// header; the measurements behind each profile's values: its "evidence" and docs/hosts/copilot-1.0.md
// "Other releases".
#include <algorithm>
#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>

#include "pinta/hosts/copilot/copilot.h"
#include "pinta/hosts/profile_file.h"

namespace pinta::hosts::copilot {
namespace {

using nlohmann::json;
using Release = std::array<long, 3>;

// "1.0.73" → {1, 0, 73}; none for anything else (a prerelease such as 1.0.64-1 is not a release
// the profiles are measured on, and a profile's range names whole releases).
std::optional<Release> release(const std::string& v) {
  static const std::regex kRelease(R"((\d{1,6})\.(\d{1,6})\.(\d{1,6}))");
  std::smatch m;
  if (!std::regex_match(v, m, kRelease)) return std::nullopt;
  return Release{std::stol(m[1]), std::stol(m[2]), std::stol(m[3])};
}

// The switches a profile may set, each a rule of Rules.
constexpr std::pair<const char*, bool Rules::*> kSwitches[] = {
    {"exit2_denies", &Rules::exit2_denies},
    {"timeout_denies", &Rules::timeout_denies},
    {"errored_names_file", &Rules::errored_names_file},
    {"claude_settings", &Rules::claude_settings},
    {"tool_args_text", &Rules::tool_args_text},
    {"claude_tool_names", &Rules::claude_tool_names},
    {"prompt_transformed", &Rules::prompt_transformed},
    {"stop_hook_active", &Rules::stop_hook_active},
    {"hook_dir_env", &Rules::hook_dir_env},
    {"post_exit2_notice", &Rules::post_exit2_notice},
};

Result<Profile> parse(const std::string& file) {
  auto head = read_profile_file(file, "Copilot profile");
  if (!head) return head.error();
  auto bad = [&](const std::string& why) { return profile_error("Copilot profile", file, why); };
  const json& j = head->object;
  Profile p{head->name, file, head->applies_from, head->applies_through, head->description, {}};
  const auto from = release(p.applies_from), through = release(p.applies_through);
  if (!from || !through) return bad("applies_from and applies_through must be releases (1.0.73)");
  if (*through < *from) return bad("applies_through is before applies_from");
  // Every profile says what its values rest on (a measured rule without its evidence is not one).
  if (!j.contains("evidence") || !j["evidence"].is_array() || j["evidence"].empty() ||
      !std::all_of(j["evidence"].begin(), j["evidence"].end(),
                   [](const json& e) { return e.is_string() && !e.get<std::string>().empty(); }))
    return bad("\"evidence\" must be a non-empty list of texts");
  if (!j.contains("switches") || !j["switches"].is_object()) return bad("no \"switches\" object");
  for (const auto& item : j["switches"].items()) {
    const std::string& k = item.key();
    const json& v = item.value();
    auto it = std::find_if(std::begin(kSwitches), std::end(kSwitches),
                           [&](const auto& sw) { return k == sw.first; });
    if (it == std::end(kSwitches)) return bad("unknown switch " + k);
    if (!v.is_boolean()) return bad("switch " + k + " must be true or false");
    p.rules.*(it->second) = v.get<bool>();
  }
  return p;
}

}  // namespace

bool fires(const Rules& rules, const std::string& event) {
  const std::string ev = canonical_event(event);
  if (ev.empty()) return false;
  return ev != "userPromptTransformed" || rules.prompt_transformed;
}

std::vector<std::pair<std::string, bool>> switch_values(const Rules& rules) {
  std::vector<std::pair<std::string, bool>> out;
  for (const auto& [name, rule] : kSwitches) out.emplace_back(name, rules.*rule);
  return out;
}

Result<std::vector<Profile>> read_profiles(const std::string& dir) {
  std::vector<Profile> out;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(dir, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    if (it->path().extension() != ".json") continue;
    auto p = parse(it->path().string());
    if (!p) return p.error();
    out.push_back(std::move(*p));
  }
  if (out.empty()) return make_error(ErrorCode::kNotFound, "no Copilot profiles in " + dir);
  std::sort(out.begin(), out.end(), [](const Profile& a, const Profile& b) {
    return *release(a.applies_from) < *release(b.applies_from);
  });
  for (size_t i = 1; i < out.size(); ++i)
    if (*release(out[i].applies_from) <= *release(out[i - 1].applies_through))
      return make_error(ErrorCode::kInvalidArgument, "Copilot profiles " + out[i - 1].file +
                                                         " and " + out[i].file + " overlap");
  return out;
}

Result<Profile> profile_named(const std::string& dir, const std::string& name) {
  return named_profile<Profile>(dir, name, "Copilot profile", parse, read_profiles);
}

Result<Profile> profile_for_version(const std::string& dir, const std::string& version) {
  const auto want = release(version);
  if (!want)
    return make_error(ErrorCode::kInvalidArgument,
                      "not a release: '" + version + "' (an npm version such as 1.0.73)");
  auto all = read_profiles(dir);
  if (!all) return all.error();
  std::string ranges;
  for (auto& p : *all) {
    if (*release(p.applies_from) <= *want && *want <= *release(p.applies_through))
      return std::move(p);
    ranges += (ranges.empty() ? "" : ", ") + p.applies_from + " .. " + p.applies_through;
  }
  return make_error(ErrorCode::kNotFound, "no Copilot profile covers " + version +
                                              " (profiled: " + ranges + ")");
}

}  // namespace pinta::hosts::copilot
