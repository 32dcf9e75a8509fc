// File: pinta/hosts/profile_file.h
// The head of a family's version profile file (hosts/<folder>/profiles/*.json), read the same way
// by every family that keeps one: a JSON object with the strings name, applies_from and
// applies_through (and an optional description). What a range means and which switches a profile
// may set are the family's (its own loader reads the rest of the object).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "pinta/common/fs.h"
#include "pinta/common/result.h"

namespace pinta::hosts {

struct ProfileFile {
  std::string file, name, applies_from, applies_through, description;
  nlohmann::json object;  // the whole file (its "switches", "evidence", …)
};

// An error about `file`, named as the family names its profiles ("Copilot profile").
inline Error profile_error(const std::string& what, const std::string& file, const std::string& why) {
  return make_error(ErrorCode::kInvalidArgument, what + " " + file + ": " + why);
}

inline Result<ProfileFile> read_profile_file(const std::string& file, const std::string& what) {
  auto text = pinta::fs::read_file(file);
  if (!text) return text.error();
  ProfileFile p;
  p.file = file;
  p.object = nlohmann::json::parse(*text, nullptr, false);
  if (!p.object.is_object()) return profile_error(what, file, "not a JSON object");
  for (auto [key, field] : {std::pair<const char*, std::string*>{"name", &p.name},
                            {"applies_from", &p.applies_from},
                            {"applies_through", &p.applies_through}}) {
    if (!p.object.contains(key) || !p.object[key].is_string())
      return profile_error(what, file, std::string("no string \"") + key + "\"");
    *field = p.object[key].get<std::string>();
  }
  p.description = p.object.value("description", "");
  return p;
}

// The profile `name` of a family's folder `dir` (read_all: the family's loader of the whole
// folder), or, when `name` holds a '/', the profile file at that path (parse: its file reader).
// `what` names the family's profiles in the error ("Copilot profile").
template <class Profile, class Parse, class ReadAll>
Result<Profile> named_profile(const std::string& dir, const std::string& name,
                              const std::string& what, Parse parse, ReadAll read_all) {
  if (name.find('/') != std::string::npos) return parse(name);
  auto all = read_all(dir);
  if (!all) return all.error();
  for (auto& p : *all)
    if (p.name == name) return std::move(p);
  return make_error(ErrorCode::kNotFound, "no " + what + " named " + name + " in " + dir);
}

}  // namespace pinta::hosts
