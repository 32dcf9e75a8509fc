// The host registry (pinta/hosts/hosts.h): every family registers how it lists its hosts; version
// hosts come from the profile data files.
#include "pinta/hosts/hosts.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "pinta/common/data_dir.h"
#include "pinta/hosts/family_model.h"

namespace pinta::hosts {
namespace {

// The *.json files of dir, sorted by name; none when dir cannot be read.
std::vector<std::string> json_files(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(dir, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    if (it->path().extension() == ".json") out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// One host per profile file: its "name" (a string, not empty), its optional "graded" (a
// boolean, default true) and "graded_as" (the graded host with the same hook rules). Files that are not such an object are skipped: the family's own
// loader reports them (`hostemu antigravity profiles`, `hostemu drift`).
void add_profiles(Family family, const std::string& dir, std::vector<HostInfo>& out) {
  for (const auto& file : json_files(dir)) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const auto j = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
    if (!j.is_object() || !j.contains("name") || !j["name"].is_string()) continue;
    HostInfo h{j["name"].get<std::string>(), family, file, true};
    if (h.name.empty()) continue;
    if (j.contains("graded") && j["graded"].is_boolean()) h.graded = j["graded"].get<bool>();
    if (j.contains("graded_as") && j["graded_as"].is_string()) {
      h.graded_as = j["graded_as"].get<std::string>();
      h.graded = false;
    }
    const bool dup = std::any_of(out.begin(), out.end(),
                                 [&](const HostInfo& o) { return o.name == h.name; });
    if (!dup) out.push_back(std::move(h));
  }
}

}  // namespace

// Each family's model (hosts/<folder>/src/model.cc), in registration order.
#define PINTA_FAMILY(Id, folder, name) namespace folder { extern const FamilyModel kModel; }
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY
namespace {
const FamilyModel* const kModels[] = {
#define PINTA_FAMILY(Id, folder, name) &folder::kModel,
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY
};
static_assert(std::size(kModels) == kFamilyCount);
}  // namespace

std::string profile_dir(Family f) {
  const HostSource src = descriptor(f).hosts;
  if (src.profiles_source.empty()) return {};
  return data::find_dir(std::string(src.profiles_env).c_str(), src.profiles_share,
                        src.profiles_source);
}

std::vector<std::string> profile_dirs() {
  std::vector<std::string> dirs;
  for (const auto& d : families()) dirs.push_back(profile_dir(d.id));
  return dirs;
}

std::vector<HostInfo> read_registry(const std::vector<std::string>& dirs) {
  std::vector<HostInfo> out;
  for (const auto& d : families()) {
    std::vector<HostInfo> mine;
    const HostSource src = d.hosts;
    if (!src.fixed_host.empty()) {
      mine.push_back(HostInfo{std::string(src.fixed_host), d.id, "", true});
    } else {
      const auto i = static_cast<std::size_t>(d.id);
      add_profiles(d.id, i < dirs.size() ? dirs[i] : std::string(), mine);
    }
    for (auto& h : mine) {
      const bool dup = std::any_of(out.begin(), out.end(),
                                   [&](const HostInfo& o) { return o.name == h.name; });
      if (!dup) out.push_back(std::move(h));
    }
  }
  return out;
}

const std::vector<HostInfo>& registry() {
  static const std::vector<HostInfo> r = read_registry(profile_dirs());
  return r;
}

const std::vector<std::string>& all_hosts() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& h : registry())
      if (h.graded) v.push_back(h.name);
    return v;
  }();
  return names;
}

const HostInfo* find_host(const std::string& host) {
  for (const auto& h : registry())
    if (h.name == host) return &h;
  return nullptr;
}

std::optional<Family> host_family(const std::string& host) {
  const HostInfo* h = find_host(host);
  if (!h) return std::nullopt;
  return h->family;
}
bool is_exit_code_host(const std::string& host) {
  const auto f = host_family(host);
  return f && answers_by_exit_status(*f);
}
bool is_json_line_host(const std::string& host) {
  const auto f = host_family(host);
  return f && descriptor(*f).reads == ReplyReading::kJsonStdout;
}
std::string family_of(const std::string& host) {
  const auto f = host_family(host);
  return f ? family_name(*f) : std::string();
}

std::vector<std::string> hosts_of(Family f) {
  std::vector<std::string> v;
  for (const auto& h : registry())
    if (h.graded && h.family == f) v.push_back(h.name);
  return v;
}

std::string host_list(const char* sep) {
  std::string s;
  for (const auto& h : all_hosts()) s += (s.empty() ? "" : sep) + h;
  return s;
}

const FamilyModel& model(Family f) { return *kModels[static_cast<std::size_t>(f)]; }

}  // namespace pinta::hosts
