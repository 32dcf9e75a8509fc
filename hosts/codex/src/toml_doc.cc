// config.toml through toml++ 3.3 (header-only here: see hosts/codex/CMakeLists.txt).
#include "toml_doc.h"

#include <toml++/toml.h>  // Debian 12 libtomlplusplus-dev 3.3 (no toml.hpp)

#include <cstdint>

namespace pinta::hosts::codex::detail {
namespace {

using json = nlohmann::json;

std::string token(const std::string& k) {  // RFC 6901
  std::string o;
  for (char c : k) {
    if (c == '~')
      o += "~0";
    else if (c == '/')
      o += "~1";
    else
      o += c;
  }
  return o;
}

std::pair<int, int> at(const toml::source_region& r) {
  return {static_cast<int>(r.begin.line), static_cast<int>(r.begin.column)};
}

json to_json(const toml::node& n, const std::string& ptr,
             std::map<std::string, std::pair<int, int>>* pos) {
  if (pos) (*pos)[ptr] = at(n.source());
  if (auto t = n.as_table()) {
    json o = json::object();
    for (const auto& [k, v] : *t) {
      std::string key(k.str());
      if (pos) (*pos)[ptr + "/" + token(key) + "#key"] = at(k.source());
      o[key] = to_json(v, ptr + "/" + token(key), pos);
    }
    return o;
  }
  if (auto a = n.as_array()) {
    json o = json::array();
    size_t i = 0;
    for (const auto& v : *a) o.push_back(to_json(v, ptr + "/" + std::to_string(i++), pos));
    return o;
  }
  if (auto s = n.as_string()) return s->get();
  if (auto i = n.as_integer()) {
    std::int64_t v = i->get();
    return v >= 0 ? json(static_cast<std::uint64_t>(v)) : json(v);
  }
  if (auto f = n.as_floating_point()) return f->get();
  if (auto b = n.as_boolean()) return b->get();
  return json("<date-time>");
}

}  // namespace

Result<TomlDoc> parse_toml(const std::string& text, const std::string& path, bool positions) {
  TomlDoc out;
  toml::table tbl;
  try {
    tbl = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    return make_error(ErrorCode::kParse, path + ":" + std::to_string(b.line) + ":" +
                                             std::to_string(b.column) + ": " +
                                             std::string(e.description()));
  }
  out.root = to_json(tbl, "", positions ? &out.positions : nullptr);
  return out;
}

}  // namespace pinta::hosts::codex::detail
