// The host registry (pinta/hosts/hosts.h): every family registers how it lists its hosts; version
// hosts come from the profile data files.
#include "pinta/hosts/hosts.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "pinta/common/data_dir.h"

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

// ---- Family host lists, in report order ----------------------------------------------------
// A family (its descriptor: pinta/hosts/family.h) lists its hosts from its data. Adding a family:
// its descriptor, a folder hosts/<family>/ with its facts and one entry here.

struct Dirs {
  const std::string& gemini;
  const std::string& antigravity;
};
struct Registration {
  Family family;
  void (*list)(const Dirs& dirs, std::vector<HostInfo>& out);
};

const Registration kHostLists[] = {
    // Gemini CLI: one host per version profile (hosts/gemini/profiles/gemini-0.XX.json).
    {Family::kGemini,
     [](const Dirs& d, std::vector<HostInfo>& out) { add_profiles(Family::kGemini, d.gemini, out); }},
    // Antigravity: one host per version profile (hosts/antigravity/profiles/*.json).
    {Family::kAntigravity,
     [](const Dirs& d, std::vector<HostInfo>& out) {
       add_profiles(Family::kAntigravity, d.antigravity, out);
     }},
    // deel-local-cli 1.17 (seed 004): one version, no profiles (emulator/hosts/deel).
    {Family::kDeel,
     [](const Dirs&, std::vector<HostInfo>& out) {
       out.push_back(HostInfo{"deel-1.17", Family::kDeel, "", true});
     }},
    // Claude Code 2.1.x (shared/reference/real-hosts.md, "Claude Code 2.1.332"): one version, no
    // profiles; run by its emulator (emulator/hosts/claude/) through HostRunner.
    {Family::kClaude,
     [](const Dirs&, std::vector<HostInfo>& out) {
       out.push_back(HostInfo{"claude-code-2.1", Family::kClaude, "", true});
     }},
};
static_assert(sizeof kHostLists / sizeof kHostLists[0] == kFamilyCount,
              "every registered family (pinta/hosts/family.h) lists its hosts here");

}  // namespace

std::string gemini_profile_dir() {
  return data::find_dir("PINTA_GEMINI_PROFILES", "gemini/profiles", "hosts/gemini/profiles");
}
std::string antigravity_profile_dir() {
  return data::find_dir("PINTA_AGY_PROFILES", "antigravity/profiles",
                        "hosts/antigravity/profiles");
}

std::vector<HostInfo> read_registry(const std::string& gemini_profiles,
                                    const std::string& antigravity_profiles) {
  std::vector<HostInfo> out;
  const Dirs dirs{gemini_profiles, antigravity_profiles};
  for (const auto& r : kHostLists) {
    std::vector<HostInfo> mine;
    r.list(dirs, mine);
    for (auto& h : mine) {
      const bool dup = std::any_of(out.begin(), out.end(),
                                   [&](const HostInfo& o) { return o.name == h.name; });
      if (!dup) out.push_back(std::move(h));
    }
  }
  return out;
}

const std::vector<HostInfo>& registry() {
  static const std::vector<HostInfo> r = read_registry(gemini_profile_dir(),
                                                       antigravity_profile_dir());
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
bool is_gemini_host(const std::string& host) { return host_family(host) == Family::kGemini; }
bool is_deel_host(const std::string& host) { return host_family(host) == Family::kDeel; }
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

}  // namespace pinta::hosts
