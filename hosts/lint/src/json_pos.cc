// A single forward scan of JSON text that records where each value starts, keyed by JSON pointer.
#include "pinta/hostlint/json_pos.h"

#include "pinta/common/text.h"

#include <string>

namespace pinta::hostlint {
namespace {

class Scanner {
 public:
  Scanner(std::string_view t, std::unordered_map<std::string, Position>& values,
          std::unordered_map<std::string, Position>& keys)
      : t_(t), values_(values), keys_(keys) {}

  void run() {
    if (t_.substr(0, 3) == "\xEF\xBB\xBF") advance(3);
    skip();
    value("", 0);
  }

 private:
  static constexpr int kMaxDepth = 512;

  bool at_end() const { return i_ >= t_.size(); }
  void advance(size_t n = 1) {
    for (size_t k = 0; k < n && i_ < t_.size(); ++k, ++i_) {
      auto c = static_cast<unsigned char>(t_[i_]);
      if (c == '\n') {
        ++line_;
        col_ = 1;
      } else if ((c & 0xC0) != 0x80) {
        ++col_;
      }
    }
  }
  Position here() const { return {line_, col_}; }
  char peek() const { return at_end() ? '\0' : t_[i_]; }

  // Whitespace and comments.
  void skip() {
    while (!at_end()) {
      char c = t_[i_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        advance();
      } else if (c == '/' && i_ + 1 < t_.size() && t_[i_ + 1] == '/') {
        while (!at_end() && t_[i_] != '\n') advance();
      } else if (c == '/' && i_ + 1 < t_.size() && t_[i_ + 1] == '*') {
        advance(2);
        while (!at_end() && !(t_[i_] == '*' && i_ + 1 < t_.size() && t_[i_ + 1] == '/')) advance();
        advance(2);
      } else {
        return;
      }
    }
  }

  // A string at i_ (opening quote); returns its decoded text, false on error.
  bool string(std::string& out) {
    if (peek() != '"') return false;
    advance();
    while (!at_end()) {
      char c = t_[i_];
      if (c == '"') {
        advance();
        return true;
      }
      if (c == '\\') {
        if (i_ + 1 >= t_.size()) return false;
        char e = t_[i_ + 1];
        advance(2);
        switch (e) {
          case 'n':
            out += '\n';
            break;
          case 't':
            out += '\t';
            break;
          case 'r':
            out += '\r';
            break;
          case 'b':
            out += '\b';
            break;
          case 'f':
            out += '\f';
            break;
          case 'u': {
            unsigned cp = 0;
            if (!hex4(cp)) return false;
            if (cp >= 0xD800 && cp < 0xDC00 && i_ + 1 < t_.size() && t_[i_] == '\\' &&
                t_[i_ + 1] == 'u') {
              size_t save = i_;
              int sl = line_, sc = col_;
              advance(2);
              unsigned lo = 0;
              if (hex4(lo) && lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
              } else {
                i_ = save;
                line_ = sl;
                col_ = sc;
              }
            }
            pinta::text::append_utf8(out, cp);
            break;
          }
          default:
            out += e;
        }
        continue;
      }
      out += c;
      advance();
    }
    return false;
  }
  bool hex4(unsigned& v) {
    if (i_ + 4 > t_.size()) return false;
    for (int k = 0; k < 4; ++k) {
      char h = t_[i_ + static_cast<size_t>(k)];
      v <<= 4;
      if (h >= '0' && h <= '9')
        v |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f')
        v |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        v |= static_cast<unsigned>(h - 'A' + 10);
      else
        return false;
    }
    advance(4);
    return true;
  }

  // A value at i_ (whitespace skipped); records it under `ptr`. false: stop scanning.
  bool value(const std::string& ptr, int depth) {
    if (at_end() || depth > kMaxDepth) return false;
    const Position start_pos = here();
    char c = peek();
    if (c == '{' || c == '[' || c == '"') values_[ptr] = start_pos;
    if (c == '{') {
      advance();
      skip();
      if (peek() == '}') {
        advance();
        return true;
      }
      while (true) {
        skip();
        Position kp = here();
        std::string k;
        if (!string(k)) return false;
        std::string child = ptr + "/" + pointer_token(k);
        keys_[child] = kp;
        skip();
        if (peek() != ':') return false;
        advance();
        skip();
        if (!value(child, depth + 1)) return false;
        skip();
        if (peek() == ',') {
          advance();
          skip();
          if (peek() == '}') {  // trailing comma (JSON5-ish): accept for positions
            advance();
            return true;
          }
          continue;
        }
        if (peek() == '}') {
          advance();
          return true;
        }
        return false;
      }
    }
    if (c == '[') {
      advance();
      skip();
      if (peek() == ']') {
        advance();
        return true;
      }
      for (size_t n = 0;; ++n) {
        skip();
        if (!value(ptr + "/" + std::to_string(n), depth + 1)) return false;
        skip();
        if (peek() == ',') {
          advance();
          skip();
          if (peek() == ']') {
            advance();
            return true;
          }
          continue;
        }
        if (peek() == ']') {
          advance();
          return true;
        }
        return false;
      }
    }
    if (c == '"') {
      std::string ignored;
      return string(ignored);
    }
    // number, true, false, null (or anything else up to a delimiter)
    size_t start = i_;
    while (!at_end()) {
      char d = t_[i_];
      if (d == ',' || d == '}' || d == ']' || d == ' ' || d == '\t' || d == '\n' || d == '\r' ||
          d == '/')
        break;
      advance();
    }
    if (i_ == start) return false;
    values_[ptr] = start_pos;
    return true;
  }

  std::string_view t_;
  size_t i_ = 0;
  int line_ = 1, col_ = 1;
  std::unordered_map<std::string, Position>& values_;
  std::unordered_map<std::string, Position>& keys_;
};

}  // namespace

PositionIndex PositionIndex::build(std::string_view text) {
  PositionIndex idx;
  Scanner(text, idx.values_, idx.keys_).run();
  return idx;
}

std::optional<Position> PositionIndex::value(const std::string& pointer) const {
  auto it = values_.find(pointer);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::optional<Position> PositionIndex::key(const std::string& pointer) const {
  auto it = keys_.find(pointer);
  if (it == keys_.end()) return std::nullopt;
  return it->second;
}

Position PositionIndex::locate(const std::string& pointer) const {
  std::string p = pointer;
  while (true) {
    if (auto v = value(p)) return *v;
    if (p.empty()) return {1, 1};
    p.erase(p.rfind('/'));
  }
}

Position position_of_offset(std::string_view text, size_t offset) {
  Position pos{1, 1};
  for (size_t i = 0; i < text.size() && i < offset; ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++pos.line;
      pos.col = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++pos.col;
    }
  }
  return pos;
}

}  // namespace pinta::hostlint
