// File: pinta/admin/json_edit.h
// Minimal edits to a user's JSON file. The installer owns a few members of files the user also
// edits (~/.claude/settings.json, agy's hooks.json, deel's hooks.json); re-serialising the parsed
// value would rewrite the user's layout, spacing and key order. Instead the text is scanned once
// into a tree of byte spans, and an edit splices text at those spans: everything outside the
// members we own stays byte for byte. An inserted member copies the layout of its siblings
// (separator, indentation, colon spacing), so removing it again gives back the original bytes.
//
// Strict JSON only (RFC 8259): the files edited here are read by strict parsers (agy, Claude Code,
// deel's JSON.parse). A scan error names line:col (1-based, columns in code points).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pinta/common/result.h"

namespace pinta::admin::jsonedit {

struct Node {
  enum class Kind { kObject, kArray, kScalar };
  Kind kind = Kind::kScalar;
  size_t begin = 0;  // first byte of the value
  size_t end = 0;    // one past its last byte
  struct Member {
    std::string key;  // decoded
    size_t key_begin = 0;
    size_t key_end = 0;
    size_t value = 0;  // node index
  };
  std::vector<Member> members;  // objects, in text order
  std::vector<size_t> elements;  // arrays: node indices
};

class Doc {
 public:
  // Scans `text` (strict JSON, one value, whitespace around it). Error kParse:
  // "<line>:<col>: <what>".
  static Result<Doc> scan(std::string text);

  const std::string& text() const { return text_; }
  const Node& root() const { return nodes_[0]; }
  const Node& node(size_t i) const { return nodes_[i]; }
  // The member's value node (last occurrence of a duplicate key), or nullptr.
  const Node* member(const Node& object, std::string_view key) const;
  std::optional<size_t> member_index(const Node& object, std::string_view key) const;
  nlohmann::ordered_json value(const Node& n) const;  // the node's text parsed

  // Each edit returns the whole new text (scan it again for the next edit).
  std::string set_member(const Node& object, std::string_view key,
                         const nlohmann::ordered_json& value) const;  // replace or append
  std::string remove_member(const Node& object, size_t index) const;
  std::string replace(const Node& n, const nlohmann::ordered_json& value) const;
  std::string append_element(const Node& array, const nlohmann::ordered_json& value) const;
  std::string remove_element(const Node& array, size_t index) const;

 private:
  std::string render(const nlohmann::ordered_json& value, const std::string& indent) const;
  std::string line_indent(size_t at) const;
  std::string splice(size_t begin, size_t end, std::string_view with) const;
  std::string append_item(const Node& c, const std::string* key,
                          const nlohmann::ordered_json& value) const;
  std::string remove_item(const Node& c, size_t index) const;

  std::string text_;
  std::vector<Node> nodes_;
  std::string unit_;  // one level of indentation ("" when the file is on one line)
  friend class Scanner;
};

// The text a file install creates starts from: an empty object laid out on lines, so what is
// spliced in is indented (two spaces) rather than written on one line.
inline constexpr const char* kFreshFile = "{\n}\n";

// "<line>:<col>" of byte `offset` (1-based; columns count UTF-8 code points).
std::string line_col(std::string_view text, size_t offset);

}  // namespace pinta::admin::jsonedit
