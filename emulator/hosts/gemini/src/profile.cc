// Gemini CLI version profiles (hosts/gemini/profiles/gemini-0.XX.json,
// docs/gemini-versions.md): finding one by name or file, and what one hook run does under it.
#include <algorithm>
#include <filesystem>

#include "pinta/common/data_dir.h"
#include "pinta/common/fs.h"
#include "pinta/emulator/gemini/gemini.h"
#include "pinta/hosts/hosts.h"

namespace pinta::emu::gemini {

std::string default_profile_dir() { return pinta::hosts::profile_dir(pinta::hosts::Family::kGemini); }

std::string profile_path(const std::string& name_or_file) {
  if (name_or_file.find('/') != std::string::npos ||
      name_or_file.find(".json") != std::string::npos)
    return name_or_file;
  return default_profile_dir() + "/" + name_or_file + ".json";
}

namespace {

struct ProfileRange {
  std::string path, name, from, through;
  std::vector<long> from_key, through_key;
};

// Every profile of `dir` with a valid range, sorted by applies_from; `bad` collects the files
// that have none (a profile without a range would silently never match).
std::vector<ProfileRange> read_ranges(const std::string& dir, std::string* bad) {
  std::vector<ProfileRange> out;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(dir, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    if (it->path().extension() != ".json") continue;
    auto text = pinta::fs::read_file(it->path().string());
    auto j = text ? ojson::parse(*text, nullptr, false) : ojson();
    ProfileRange r;
    r.path = it->path().string();
    if (j.is_object() && j["applies_from"].is_string() && j["applies_through"].is_string()) {
      r.name = j.value("name", it->path().stem().string());
      r.from = j["applies_from"].get<std::string>();
      r.through = j["applies_through"].get<std::string>();
      r.from_key = version_key(r.from);
      r.through_key = version_key(r.through);
    }
    if (r.from_key.empty() || r.through_key.empty()) {
      if (bad && bad->empty()) *bad = r.path;
      continue;
    }
    out.push_back(std::move(r));
  }
  std::sort(out.begin(), out.end(),
            [](const ProfileRange& a, const ProfileRange& b) { return a.from_key < b.from_key; });
  return out;
}

// v <= through, where `through` names a release line: only its own components count
// ("0.34" >= 0.34.9; "0.34.2" >= 0.34.2 only).
bool within_through(const std::vector<long>& v, const std::vector<long>& through) {
  std::vector<long> cut(v.begin(), v.begin() + static_cast<long>(std::min(v.size(), through.size())));
  return cut <= through;
}

std::string range_text(const std::vector<ProfileRange>& rs) {
  if (rs.empty()) return "(no profiles)";
  const ProfileRange* hi = &rs.front();
  for (const auto& r : rs)
    if (r.through_key > hi->through_key) hi = &r;
  std::string through = hi->through;
  if (hi->through_key.size() < 3) through += ".x";
  return rs.front().from + " .. " + through;
}

}  // namespace

std::vector<long> version_key(const std::string& v) {
  std::vector<long> k;
  std::string cur;
  for (char c : v) {
    if (c == '-' || c == '+') break;
    if (c == '.') {
      if (cur.empty() || cur.size() > 9) return {};
      k.push_back(std::stol(cur));
      cur.clear();
    } else if (c >= '0' && c <= '9') {
      cur += c;
    } else {
      return {};
    }
  }
  if (cur.empty() || cur.size() > 9) return {};
  k.push_back(std::stol(cur));
  return k;
}

std::string known_version_range(const std::string& dir) {
  return range_text(read_ranges(dir, nullptr));
}

Result<VersionMatch> profile_for_version(const std::string& dir, const std::string& version) {
  const auto want = version_key(version);
  if (want.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      "not a version: '" + version + "' (an npm version such as 0.40.1)");
  std::string bad;
  const auto ranges = read_ranges(dir, &bad);
  if (!bad.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      "Gemini CLI profile without a valid applies_from/applies_through: " + bad);
  std::vector<const ProfileRange*> hits;
  for (const auto& r : ranges)
    if (r.from_key <= want && within_through(want, r.through_key)) hits.push_back(&r);
  if (hits.size() > 1)
    return make_error(ErrorCode::kInvalidArgument, "Gemini CLI " + version +
                                                       " is covered by two profiles: " +
                                                       hits[0]->path + " and " + hits[1]->path);
  if (hits.empty())
    return make_error(ErrorCode::kNotFound,
                      "Gemini CLI " + version + " is outside the profiled range " +
                          range_text(ranges) + " (profiles in " + dir +
                          "); name a profile explicitly (--assume-profile NAME) to run it anyway");
  return VersionMatch{hits[0]->path, hits[0]->name};
}

Result<ojson> load_profile(const std::string& name_or_file) {
  const std::string path = profile_path(name_or_file);
  auto text = pinta::fs::read_file(path);
  if (!text && path != name_or_file) {
    // A name that is no profile: say which names exist and that versions map through --version.
    std::string names;
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator(default_profile_dir(), ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
      if (it->path().extension() == ".json")
        names += (names.empty() ? "" : ", ") + it->path().stem().string();
    return make_error(ErrorCode::kNotFound,
                      "no Gemini CLI profile named '" + name_or_file + "' (profiles: " + names +
                          "; to pick one by release use --version V)");
  }
  if (!text)
    return make_error(ErrorCode::kNotFound,
                      "cannot read Gemini CLI profile " + path + ": " + text.error().message);
  auto prof = js_parse(*text);
  if (!prof || !prof->is_object() ||
      (prof->contains("switches") && !(*prof)["switches"].is_object()))
    return make_error(ErrorCode::kInvalidArgument, "not a Gemini CLI profile object: " + path);
  return *prof;
}

const ojson& profile_switches(const ojson& profile) {
  static const ojson kNone = ojson::object();
  return profile.is_object() && profile.contains("switches") && profile["switches"].is_object()
             ? profile["switches"]
             : kNone;
}

std::string tool_error_text(const ojson& switches, std::string_view event, const ojson& output) {
  // 0.30+: core/coreToolHookTriggers.js prefixes the reason in the tool's error; 0.26 reports the
  // bare reason (0.26.0 coreToolHookTriggers.js:208-231, 296-320; drift s01, s13, s16, s17).
  const bool bare = switches.is_object() && switches.contains("blocked_tool_error") &&
                    switches["blocked_tool_error"] == "bare";
  if (!output.is_object() || (event != "BeforeTool" && event != "AfterTool")) return "";
  const bool stop = output.contains("continue") && output["continue"].is_boolean() &&
                    !output["continue"].get<bool>();
  const char* prefix = nullptr;
  if (stop)
    prefix = "Agent execution stopped by hook: ";
  else if (is_blocking(output))
    prefix = event == "BeforeTool" ? "Tool execution blocked: " : "Tool result blocked: ";
  else
    return "";
  return bare ? effective_reason(output) : prefix + effective_reason(output);
}

ojson rewritten_tool_input(const ojson& switches, const ojson& tool_input, const ojson& output) {
  // hookSpecificOutput.tool_input replaces the arguments (0.61) or is merged into them
  // (tool_input_rewrite "merge", 0.26 .. 0.35: Object.assign, coreToolHookTriggers.js:236).
  if (!output.is_object() || !output.contains("hookSpecificOutput")) return nullptr;
  const ojson& hso = output["hookSpecificOutput"];
  if (!hso.is_object() || !hso.contains("tool_input") || !hso["tool_input"].is_object())
    return nullptr;
  const bool merge = switches.is_object() && switches.contains("tool_input_rewrite") &&
                     switches["tool_input_rewrite"] == "merge";
  if (!merge || !tool_input.is_object()) return hso["tool_input"];
  ojson merged = tool_input;
  for (auto& [k, v] : hso["tool_input"].items()) merged[k] = v;
  return merged;
}

}  // namespace pinta::emu::gemini
