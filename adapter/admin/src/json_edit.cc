// Span scanner and splicing edits for users' JSON files (see json_edit.h for why).
#include "pinta/admin/json_edit.h"

namespace pinta::admin::jsonedit {
namespace {

using ojson = nlohmann::ordered_json;

constexpr int kMaxDepth = 512;  // deeper than any hook file; keeps the recursion bounded

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

std::string line_col(std::string_view text, size_t offset) {
  int line = 1, col = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++line;
      col = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++col;  // a continuation byte is part of the previous column
    }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

class Scanner {
 public:
  explicit Scanner(Doc& d) : d_(d), t_(d.text_) {}

  Status run() {
    skip_ws();
    auto r = value(0);
    if (!r) return r.error();
    skip_ws();
    if (p_ != t_.size()) return fail("unexpected text after the JSON value");
    return {};
  }

 private:
  Error fail(const std::string& what) const {
    return Error{ErrorCode::kParse, line_col(t_, p_) + ": " + what};
  }
  void skip_ws() {
    while (p_ < t_.size() && is_ws(t_[p_])) ++p_;
  }
  bool at(char c) const { return p_ < t_.size() && t_[p_] == c; }

  Result<size_t> value(int depth) {
    if (depth > kMaxDepth) return fail("nesting too deep");
    if (p_ >= t_.size()) return fail("unexpected end of file, expected a value");
    size_t idx = d_.nodes_.size();
    d_.nodes_.emplace_back();
    d_.nodes_[idx].begin = p_;
    char c = t_[p_];
    Status s;
    if (c == '{') {
      d_.nodes_[idx].kind = Node::Kind::kObject;
      s = object(idx, depth);
    } else if (c == '[') {
      d_.nodes_[idx].kind = Node::Kind::kArray;
      s = array(idx, depth);
    } else if (c == '"') {
      s = string();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      s = number();
    } else if (t_.compare(p_, 4, "true") == 0 || t_.compare(p_, 4, "null") == 0) {
      p_ += 4;
    } else if (t_.compare(p_, 5, "false") == 0) {
      p_ += 5;
    } else {
      return fail(std::string("unexpected ") + (c == '/' ? "comment (JSON has none)" : "character") +
                  ", expected a value");
    }
    if (!s) return s.error();
    d_.nodes_[idx].end = p_;
    return idx;
  }

  Status object(size_t idx, int depth) {
    ++p_;
    skip_ws();
    if (at('}')) {
      ++p_;
      return {};
    }
    for (;;) {
      if (!at('"')) return fail("expected a member name in double quotes");
      Node::Member m;
      m.key_begin = p_;
      if (auto s = string(); !s) return s;
      m.key_end = p_;
      ojson k = ojson::parse(t_.substr(m.key_begin, m.key_end - m.key_begin), nullptr, false);
      if (!k.is_string()) return fail("invalid member name");
      m.key = k.get<std::string>();
      skip_ws();
      if (!at(':')) return fail("expected ':' after the member name");
      ++p_;
      skip_ws();
      auto v = value(depth + 1);
      if (!v) return v.error();
      m.value = *v;
      d_.nodes_[idx].members.push_back(std::move(m));
      skip_ws();
      if (at(',')) {
        ++p_;
        skip_ws();
        if (at('}')) return fail("trailing comma before '}'");
        continue;
      }
      if (at('}')) {
        ++p_;
        return {};
      }
      return fail("expected ',' or '}'");
    }
  }

  Status array(size_t idx, int depth) {
    ++p_;
    skip_ws();
    if (at(']')) {
      ++p_;
      return {};
    }
    for (;;) {
      auto v = value(depth + 1);
      if (!v) return v.error();
      d_.nodes_[idx].elements.push_back(*v);
      skip_ws();
      if (at(',')) {
        ++p_;
        skip_ws();
        if (at(']')) return fail("trailing comma before ']'");
        continue;
      }
      if (at(']')) {
        ++p_;
        return {};
      }
      return fail("expected ',' or ']'");
    }
  }

  Status string() {
    ++p_;
    while (p_ < t_.size()) {
      unsigned char c = static_cast<unsigned char>(t_[p_]);
      if (c == '"') {
        ++p_;
        return {};
      }
      if (c < 0x20) return fail("control character in a string");
      if (c == '\\') {
        ++p_;
        if (p_ >= t_.size()) break;
        char e = t_[p_];
        if (e == 'u') {
          for (int i = 1; i <= 4; ++i)
            if (p_ + i >= t_.size() || !std::isxdigit(static_cast<unsigned char>(t_[p_ + i])))
              return fail("bad \\u escape");
          p_ += 4;
        } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
          return fail("bad escape in a string");
        }
      }
      ++p_;
    }
    return fail("unterminated string");
  }

  Status number() {
    auto digits = [&] {
      size_t s = p_;
      while (p_ < t_.size() && t_[p_] >= '0' && t_[p_] <= '9') ++p_;
      return p_ > s;
    };
    if (at('-')) ++p_;
    if (at('0')) {
      ++p_;
    } else if (!digits()) {
      return fail("bad number");
    }
    if (at('.')) {
      ++p_;
      if (!digits()) return fail("bad number");
    }
    if (at('e') || at('E')) {
      ++p_;
      if (at('+') || at('-')) ++p_;
      if (!digits()) return fail("bad number");
    }
    return {};
  }

  Doc& d_;
  const std::string& t_;
  size_t p_ = 0;
};

Result<Doc> Doc::scan(std::string text) {
  Doc d;
  d.text_ = std::move(text);
  Scanner s(d);
  if (auto st = s.run(); !st) return st.error();
  // One level of indentation: the whitespace opening the first indented line inside the root.
  const Node& r = d.nodes_[0];
  std::string_view body(d.text_.data() + r.begin, r.end - r.begin);
  size_t nl = body.find('\n');
  if (nl != std::string_view::npos) {
    size_t i = nl + 1;
    while (i < body.size() && (body[i] == ' ' || body[i] == '\t')) ++i;
    d.unit_ = std::string(body.substr(nl + 1, i - nl - 1));
    if (d.unit_.empty()) d.unit_ = "  ";
  }
  return d;
}

const Node* Doc::member(const Node& object, std::string_view key) const {
  auto i = member_index(object, key);
  return i ? &nodes_[object.members[*i].value] : nullptr;
}

std::optional<size_t> Doc::member_index(const Node& object, std::string_view key) const {
  std::optional<size_t> out;
  for (size_t i = 0; i < object.members.size(); ++i)
    if (object.members[i].key == key) out = i;
  return out;
}

ojson Doc::value(const Node& n) const {
  return ojson::parse(text_.substr(n.begin, n.end - n.begin), nullptr, false);
}

std::string Doc::line_indent(size_t at) const {
  size_t s = text_.rfind('\n', at == 0 ? 0 : at - 1);
  s = (s == std::string::npos || s >= at) ? 0 : s + 1;
  size_t e = s;
  while (e < text_.size() && (text_[e] == ' ' || text_[e] == '\t')) ++e;
  return text_.substr(s, e - s);
}

std::string Doc::render(const ojson& value, const std::string& indent) const {
  if (unit_.empty()) return value.dump(-1, ' ', false, ojson::error_handler_t::replace);
  std::string s =
      value.dump(static_cast<int>(unit_.size()), unit_[0], false, ojson::error_handler_t::replace);
  std::string out;
  for (char c : s) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out;
}

std::string Doc::splice(size_t begin, size_t end, std::string_view with) const {
  std::string out = text_.substr(0, begin);
  out += with;
  out += text_.substr(end);
  return out;
}

std::string Doc::append_item(const Node& c, const std::string* key, const ojson& value) const {
  std::vector<size_t> starts, ends;
  if (c.kind == Node::Kind::kObject) {
    for (const auto& m : c.members) {
      starts.push_back(m.key_begin);
      ends.push_back(nodes_[m.value].end);
    }
  } else {
    for (size_t e : c.elements) {
      starts.push_back(nodes_[e].begin);
      ends.push_back(nodes_[e].end);
    }
  }
  std::string colon = unit_.empty() ? ":" : ": ";
  if (!c.members.empty()) {
    const auto& m = c.members.back();
    colon = text_.substr(m.key_end, nodes_[m.value].begin - m.key_end);
  }
  auto item = [&](const std::string& indent) {
    std::string s;
    if (key) s = ojson(*key).dump(-1, ' ', false, ojson::error_handler_t::replace) + colon;
    return s + render(value, indent);
  };
  if (!starts.empty()) {
    size_t last = starts.back();
    size_t ws = last;
    while (ws > c.begin + 1 && is_ws(text_[ws - 1])) --ws;
    // Whitespace before the last item, after its separator: copied so the new item lines up.
    std::string lead = text_.substr(ws, last - ws);
    return splice(ends.back(), ends.back(), "," + lead + item(line_indent(last)));
  }
  if (unit_.empty()) return splice(c.begin + 1, c.end - 1, item(""));
  std::string base = line_indent(c.begin);
  return splice(c.begin + 1, c.end - 1,
                "\n" + base + unit_ + item(base + unit_) + "\n" + base);
}

std::string Doc::remove_item(const Node& c, size_t index) const {
  std::vector<size_t> starts, ends;
  if (c.kind == Node::Kind::kObject) {
    for (const auto& m : c.members) {
      starts.push_back(m.key_begin);
      ends.push_back(nodes_[m.value].end);
    }
  } else {
    for (size_t e : c.elements) {
      starts.push_back(nodes_[e].begin);
      ends.push_back(nodes_[e].end);
    }
  }
  size_t n = starts.size();
  if (index >= n) return text_;
  if (n == 1) return splice(c.begin + 1, c.end - 1, "");
  // The last item goes with the separator before it, any other with the one after it: the exact
  // inverse of append_item.
  if (index == n - 1) return splice(ends[index - 1], ends[index], "");
  return splice(starts[index], starts[index + 1], "");
}

std::string Doc::set_member(const Node& object, std::string_view key, const ojson& value) const {
  if (const Node* v = member(object, key)) return replace(*v, value);
  std::string k(key);
  return append_item(object, &k, value);
}

std::string Doc::remove_member(const Node& object, size_t index) const {
  return remove_item(object, index);
}

std::string Doc::replace(const Node& n, const ojson& value) const {
  return splice(n.begin, n.end, render(value, line_indent(n.begin)));
}

std::string Doc::append_element(const Node& array, const ojson& value) const {
  return append_item(array, nullptr, value);
}

std::string Doc::remove_element(const Node& array, size_t index) const {
  return remove_item(array, index);
}

}  // namespace pinta::admin::jsonedit
