// Codex CLI version profiles (pinta/hosts/codex/codex.h, "version profiles"): reading
// hosts/codex/profiles/*.json and finding the one for a release. What each switch means and its
// evidence: the profiles' own "evidence" and docs/hosts/codex-0.171.md "Releases".
#include <algorithm>
#include <filesystem>

#include "pinta/common/data_dir.h"
#include "pinta/common/fs.h"
#include "pinta/hosts/codex/codex.h"
#include "pinta/hosts/profile_file.h"
#include "pinta/hosts/codex/family.h"

namespace pinta::hosts::codex {
namespace {

using nlohmann::json;

// "0.145.0" → {0,145,0}; a release line "0.171" → {0,171}; empty when not such a version (a
// prerelease tag such as 0.172.0-alpha.1 is not a release the profiles are measured on).
std::vector<long> parts(const std::string& v) {
  std::vector<long> out;
  std::size_t i = 0;
  while (i < v.size()) {
    std::size_t j = i;
    while (j < v.size() && v[j] >= '0' && v[j] <= '9') ++j;
    if (j == i || j - i > 9) return {};
    out.push_back(std::stol(v.substr(i, j - i)));
    if (j == v.size()) break;
    if (v[j] != '.' || j + 1 == v.size()) return {};
    i = j + 1;
  }
  return out.size() >= 2 && out.size() <= 3 ? out : std::vector<long>{};
}

// version ≤ through, where a two-part `through` names a release line (0.171 ≥ 0.171.9).
bool within(const std::vector<long>& v, const std::vector<long>& through) {
  return std::vector<long>(v.begin(), v.begin() + static_cast<long>(through.size())) <= through;
}

Result<Profile> parse(const std::string& file) {
  auto bad = [&](const std::string& why) {
    return make_error(ErrorCode::kInvalidArgument, "Codex profile " + file + ": " + why);
  };
  auto text = pinta::fs::read_file(file);
  if (!text) return text.error();
  const json j = json::parse(*text, nullptr, false);
  if (!j.is_object()) return bad("not a JSON object");
  Profile p;
  p.file = file;
  for (const char* k : {"name", "applies_from", "applies_through"})
    if (!j.contains(k) || !j[k].is_string()) return bad(std::string("no string \"") + k + "\"");
  p.name = j["name"];
  p.applies_from = j["applies_from"];
  p.applies_through = j["applies_through"];
  p.description = j.value("description", "");
  if (j.contains("graded_as")) {
    if (!j["graded_as"].is_string()) return bad("\"graded_as\" must be a profile name");
    p.graded_as = j["graded_as"];
  }
  if (parts(p.applies_from).size() != 3) return bad("applies_from must be a release (0.145.0)");
  if (parts(p.applies_through).empty()) return bad("applies_through must be a release or a line");
  if (!j.contains("switches") || !j["switches"].is_object()) return bad("no \"switches\" object");
  for (auto it = j["switches"].begin(); it != j["switches"].end(); ++it) {
    const std::string& k = it.key();
    const json& v = it.value();
    bool* flag = k == "hooks_run"         ? &p.rules.hooks_run
                 : k == "hook_trust"      ? &p.rules.hook_trust
                 : k == "updated_input"   ? &p.rules.updated_input
                 : k == "startup_notices" ? &p.rules.startup_notices
                 : k == "deny_race"       ? &p.rules.deny_race
                                          : nullptr;
    if (flag) {
      if (!v.is_boolean()) return bad("switch " + k + " must be true or false");
      *flag = v.get<bool>();
    } else if (k == "events") {
      if (!v.is_array() || v.empty()) return bad("switch events must be a non-empty list");
      for (const auto& e : v) {
        if (!e.is_string() || !is_event(e.get<std::string>()))
          return bad("switch events: unknown event " + e.dump());
        p.rules.events.push_back(e.get<std::string>());
      }
    } else {
      return bad("unknown switch " + k);
    }
  }
  return p;
}

}  // namespace

bool fires(const Rules& rules, const std::string& event) {
  if (!is_event(event)) return false;
  return rules.events.empty() ||
         std::find(rules.events.begin(), rules.events.end(), event) != rules.events.end();
}

std::string default_profile_dir() {
  const auto& src = kDescriptor.hosts.value;
  return pinta::data::find_dir(std::string(src.profiles_env).c_str(), src.profiles_share,
                               src.profiles_source);
}

Result<std::vector<Profile>> read_profiles(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(dir, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    if (it->path().extension() == ".json") files.push_back(it->path().string());
  if (ec || files.empty())
    return make_error(ErrorCode::kNotFound, "no Codex profiles in " + dir);
  std::vector<Profile> out;
  for (const auto& f : files) {
    auto p = parse(f);
    if (!p) return p.error();
    out.push_back(std::move(*p));
  }
  std::sort(out.begin(), out.end(), [](const Profile& a, const Profile& b) {
    return parts(a.applies_from) < parts(b.applies_from);
  });
  for (std::size_t i = 1; i < out.size(); ++i)
    if (within(parts(out[i].applies_from), parts(out[i - 1].applies_through)))
      return make_error(ErrorCode::kInvalidArgument, "Codex profiles " + out[i - 1].file +
                                                         " and " + out[i].file + " overlap");
  return out;
}

Result<Profile> profile_named(const std::string& dir, const std::string& name) {
  return named_profile<Profile>(dir, name, "Codex profile", parse, read_profiles);
}

Result<Profile> profile_for_version(const std::string& dir, const std::string& version) {
  const auto want = parts(version);
  if (want.size() != 3)
    return make_error(ErrorCode::kInvalidArgument,
                      "not a release: '" + version + "' (an npm version such as 0.145.0)");
  auto all = read_profiles(dir);
  if (!all) return all.error();
  for (auto& p : *all)
    if (parts(p.applies_from) <= want && within(want, parts(p.applies_through))) return p;
  std::string known = all->front().applies_from + " .. " + all->back().applies_through;
  if (parts(all->back().applies_through).size() == 2) known += ".x";
  return make_error(ErrorCode::kNotFound,
                    "no Codex profile covers " + version + " (profiled: " + known + ")");
}

}  // namespace pinta::hosts::codex
