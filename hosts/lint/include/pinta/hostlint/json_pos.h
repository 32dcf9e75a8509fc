// File: pinta/hostlint/json_pos.h
// Where a JSON value sits in its text. nlohmann keeps no positions, and the hosts' loaders read
// parsed values; lint maps the JSON pointer a loader reports back to line:col by scanning the text
// once. This is a position index, not a second parser: it accepts what the loaders accept (plus
// // and /* */ comments, which Gemini's settings loader strips) and stops quietly on anything else,
// keeping what it has indexed so far.
#pragma once

#include "pinta/common/text.h"
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace pinta::hostlint {

// 1-based line and column; the column counts Unicode code points (UTF-8 lead bytes), so a
// multi-byte character is one column. {0,0}: unknown.
struct Position {
  int line = 0;
  int col = 0;
  bool known() const { return line > 0; }
  bool operator==(const Position& o) const { return line == o.line && col == o.col; }
};

// RFC 6901: "~" → "~0", "/" → "~1".
inline std::string pointer_token(std::string_view key) { return pinta::text::json_pointer_token(key); }

class PositionIndex {
 public:
  // Scans `text` once. Every value gets the position of its first character; every object member
  // also gets the position of its key's opening quote. A duplicate key keeps its last occurrence
  // (what nlohmann keeps).
  static PositionIndex build(std::string_view text);

  std::optional<Position> value(const std::string& pointer) const;
  std::optional<Position> key(const std::string& pointer) const;
  // The value's position, else that of the nearest ancestor that was indexed, else 1:1.
  Position locate(const std::string& pointer) const;
  size_t size() const { return values_.size(); }

 private:
  std::unordered_map<std::string, Position> values_;
  std::unordered_map<std::string, Position> keys_;
};

// The position of byte `offset` in `text` (an offset past the end maps to the end).
Position position_of_offset(std::string_view text, size_t offset);

}  // namespace pinta::hostlint
