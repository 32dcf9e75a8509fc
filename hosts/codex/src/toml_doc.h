// Internal to pinta::hosts_codex: a TOML document (config.toml) as JSON, through toml++ 3.3. The
// one translation unit that includes toml++ (header-only, slow to compile) is toml_doc.cc, so
// editing codex.cc does not rebuild it.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "pinta/common/result.h"

namespace pinta::hosts::codex::detail {

struct TomlDoc {
  // The document as JSON: integers ≥ 0 unsigned (as serde reads u64 fields), negative ones
  // signed; a date or time becomes a string no hook field accepts.
  nlohmann::json root;
  // With `positions`: every value's line and column by JSON pointer ("/hooks/PreToolUse/0"),
  // and every key's under "<pointer>#key".
  std::map<std::string, std::pair<int, int>> positions;
};

// Error (kParse, "path:line:col: description") when `text` is not TOML or not UTF-8.
Result<TomlDoc> parse_toml(const std::string& text, const std::string& path, bool positions);

}  // namespace pinta::hosts::codex::detail
