#include "pinta/adapter/bounded_json.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace pinta::adapter {
namespace {

using nlohmann::json;

// A DOM builder for nlohmann's SAX interface that stops building below max_depth. Pointers on
// `stack_` stay valid: a parent container only grows after its open child has been closed.
class BoundedBuilder {
 public:
  BoundedBuilder(int max_depth, size_t max_values)
      : max_depth_(max_depth < 1 ? 1 : max_depth), max_values_(max_values) {}

  bool null() { return value(json(nullptr)); }
  bool boolean(bool v) { return value(json(v)); }
  bool number_integer(json::number_integer_t v) { return value(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return value(json(v)); }
  bool number_float(json::number_float_t v, const json::string_t& /*text*/) { return value(json(v)); }
  bool string(json::string_t& v) { return value(json(std::move(v))); }
  bool binary(json::binary_t& v) { return value(json::binary(std::move(v))); }

  bool start_object(std::size_t /*size*/) { return open(json::value_t::object); }
  bool start_array(std::size_t /*size*/) { return open(json::value_t::array); }
  bool key(json::string_t& k) {
    if (skip_depth_ != 0) return true;
    pending_key_ = std::move(k);
    return true;
  }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& /*ex*/) {
    failed_ = true;
    return false;
  }

  json& root() { return root_; }
  bool failed() const { return failed_; }
  size_t cut_values() const { return cut_values_; }

 private:
  // Where the next value goes; null when skipping.
  json* place(json v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    json* top = stack_.back();
    if (top->is_array()) {
      top->push_back(std::move(v));
      return &top->back();
    }
    json& slot = (*top)[pending_key_];  // a repeated key: the last one wins, as json::parse does
    slot = std::move(v);
    return &slot;
  }

  // Over the value budget: the rest of the current container is left out; one marker closes it.
  bool over_budget() {
    if (built_ < max_values_ || stack_.empty()) return false;
    skip_depth_ = depth_;
    skip_inside_ = true;
    skipped_ = 0;
    return true;
  }

  bool value(json v) {
    if (skip_depth_ != 0 || over_budget()) {
      ++skipped_;
      return true;
    }
    ++built_;
    place(std::move(v));
    return true;
  }

  bool open(json::value_t type) {
    if (skip_depth_ != 0 || over_budget()) {
      ++depth_;
      ++skipped_;
      return true;
    }
    ++depth_;
    if (depth_ > max_depth_) {
      skip_depth_ = depth_;
      skip_inside_ = false;
      skipped_ = 1;  // the cut container itself
      return true;
    }
    ++built_;
    stack_.push_back(place(json(type)));
    return true;
  }

  bool close() {
    if (skip_depth_ != 0 && depth_ == skip_depth_) {
      skip_depth_ = 0;
      cut_values_ += skipped_;
      if (!skip_inside_) {
        place(json{{kTruncatedKey, skipped_}});  // stands where the cut container was
        --depth_;
        return true;
      }
      json* top = stack_.back();  // the container whose rest was left out gets the marker last
      if (top->is_array()) {
        top->push_back(json{{kTruncatedKey, skipped_}});
      } else {
        (*top)[kTruncatedKey] = skipped_;
      }
    } else if (skip_depth_ != 0) {
      --depth_;
      return true;
    }
    --depth_;
    if (!stack_.empty()) stack_.pop_back();
    return true;
  }

  int max_depth_;
  size_t max_values_;
  size_t built_ = 0;    // values placed in the DOM
  int depth_ = 0;
  int skip_depth_ = 0;  // depth of the container being cut; 0: not cutting
  bool skip_inside_ = false;  // cutting the rest of a built container (budget), not the container
  size_t skipped_ = 0;
  size_t cut_values_ = 0;
  bool failed_ = false;
  json root_;
  std::vector<json*> stack_;
  json::string_t pending_key_;
};

// Length of the well-formed UTF-8 sequence at s[i], or 0 when it is not one (RFC 3629 table).
size_t utf8_sequence(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  if (c < 0x80) return 1;
  size_t n = s.size() - i;
  auto cont = [&](size_t k, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
    return k < s.size() && b(k) >= lo && b(k) <= hi;
  };
  if (c >= 0xC2 && c <= 0xDF) return n >= 2 && cont(i + 1) ? 2 : 0;
  if (c == 0xE0) return n >= 3 && cont(i + 1, 0xA0, 0xBF) && cont(i + 2) ? 3 : 0;
  if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
    return n >= 3 && cont(i + 1) && cont(i + 2) ? 3 : 0;
  if (c == 0xED) return n >= 3 && cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;  // no surrogates
  if (c == 0xF0) return n >= 4 && cont(i + 1, 0x90, 0xBF) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return n >= 4 && cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (c == 0xF4) return n >= 4 && cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  return 0;
}

}  // namespace

BoundedParse parse_bounded(std::string_view text, int max_depth, size_t max_values) {
  BoundedParse out;
  BoundedBuilder builder(max_depth, max_values);
  bool ok = false;
  try {
    ok = json::sax_parse(text.begin(), text.end(), &builder, nlohmann::detail::input_format_t::json,
                         /*strict=*/true);
  } catch (...) {
    ok = false;  // the builder threw (out of memory): keep what was built
  }
  out.complete = ok && !builder.failed();
  out.cut_values = builder.cut_values();
  out.value = std::move(builder.root());
  return out;
}

bool repair_utf8(std::string& text) {
  size_t i = 0;
  while (i < text.size()) {  // fast scan: nothing is copied while the text is valid
    size_t n = utf8_sequence(text, i);
    if (n == 0) break;
    i += n;
  }
  if (i == text.size()) return false;
  std::string out;
  out.reserve(text.size() + 16);
  out.append(text, 0, i);
  while (i < text.size()) {
    size_t n = utf8_sequence(text, i);
    if (n == 0) {
      out.append("\xEF\xBF\xBD");
      ++i;  // one replacement per bad byte: never more than 3x the input
      continue;
    }
    out.append(text, i, n);
    i += n;
  }
  text.swap(out);
  return true;
}

namespace {

bool scalar_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
         c == '+' || c == '.';
}

}  // namespace

namespace {

bool is_delimiter(char c) {
  return c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ',' || c == '"' ||
         c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// RFC 8259 §6 number grammar, and finite as a double (what nlohmann accepts).
bool json_number(std::string_view t) {
  size_t i = 0;
  auto digits = [&] {
    size_t from = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i > from;
  };
  if (i < t.size() && t[i] == '-') ++i;
  if (i < t.size() && t[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < t.size() && t[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digits()) return false;
  }
  if (i != t.size()) return false;
  const std::string copy(t);
  const double d = std::strtod(copy.c_str(), nullptr);
  return std::isfinite(d);
}

}  // namespace

bool quote_bare_tokens(std::string& text) {
  std::string out;
  bool changed = false;
  size_t copied = 0;  // text[0, copied) is in `out` (once something changed)
  bool in_string = false, escape = false;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (in_string) {
      if (escape) {
        escape = false;
      } else if (c == '\\') {
        escape = true;
      } else if (c == '"') {
        in_string = false;
      }
      ++i;
      continue;
    }
    if (c == '"') {
      in_string = true;
      ++i;
      continue;
    }
    if (is_delimiter(c)) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && !is_delimiter(text[end])) ++end;
    std::string_view token(text.data() + i, end - i);
    if (token == "true" || token == "false" || token == "null" || json_number(token)) {
      i = end;
      continue;
    }
    if (!changed) out.reserve(text.size() + 64);
    changed = true;
    out.append(text, copied, i - copied);
    out.push_back('"');
    for (char t : token) {
      const auto u = static_cast<unsigned char>(t);
      if (t == '\\') {
        out.append("\\\\");
      } else if (u < 0x20 || u == 0x7F) {
        static const char kHex[] = "0123456789abcdef";
        out.append("\\u00");
        out.push_back(kHex[u >> 4]);
        out.push_back(kHex[u & 0xF]);
      } else {
        out.push_back(t);
      }
    }
    out.push_back('"');
    copied = i = end;
  }
  if (!changed) return false;
  out.append(text, copied, std::string::npos);
  text.swap(out);
  return true;
}

namespace {

// complete_prefix: where each open container is, and what it waits for next.
enum State : char { kKeyOrEnd, kColon, kValue, kAfterValue, kElementOrEnd };
struct Level {
  char type;    // '{' or '['
  State state;  // objects: kKeyOrEnd, kColon, kValue, kAfterValue; arrays: kElementOrEnd, kAfterValue
};

// Cuts what cannot stand alone at the end of the open string that starts at `string_start`: a
// half escape, a half UTF-8 sequence.
void cut_open_string(std::string& text, size_t string_start, bool escape, int unicode_left) {
  size_t cut = text.size();
  if (escape) {
    cut -= 1;
  } else if (unicode_left > 0) {
    cut = text.rfind("\\u", cut);
  }
  size_t lead = cut;
  while (lead > string_start + 1 && (static_cast<unsigned char>(text[lead - 1]) & 0xC0) == 0x80) --lead;
  if (lead > string_start + 1) {
    auto b = static_cast<unsigned char>(text[lead - 1]);
    size_t need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    if (need > 1 && cut - (lead - 1) < need) cut = lead - 1;
  }
  text.resize(cut);
}

// Closes the open containers, innermost first: a key gets a null value, a trailing comma goes.
void close_levels(std::string& text, std::vector<Level>& stack) {
  while (!stack.empty()) {
    Level& top = stack.back();
    size_t last = text.find_last_not_of(" \t\r\n");
    if (top.state == kColon) {
      text += ":null";
    } else if (top.state == kValue) {
      text += "null";
    } else if ((top.state == kKeyOrEnd || top.state == kElementOrEnd) && last != std::string::npos &&
               text[last] == ',') {
      text.resize(last);
    }
    text += top.type == '{' ? '}' : ']';
    stack.pop_back();
    if (!stack.empty()) stack.back().state = kAfterValue;
  }
}

}  // namespace

bool complete_prefix(std::string& text) {
  std::vector<Level> stack;
  bool started = false, in_string = false, string_is_key = false, escape = false;
  int unicode_left = 0;                     // hex digits still due in a \uXXXX escape
  size_t string_start = 0, scalar_start = std::string::npos;
  size_t end = text.size();
  auto value_done = [&] {
    if (!stack.empty()) stack.back().state = kAfterValue;
  };
  for (size_t i = 0; i < end; ++i) {
    const char c = text[i];
    if (in_string) {
      if (unicode_left > 0) {
        --unicode_left;
      } else if (escape) {
        escape = false;
        if (c == 'u') unicode_left = 4;
      } else if (c == '\\') {
        escape = true;
      } else if (c == '"') {
        in_string = false;
        if (string_is_key) {
          stack.back().state = kColon;
        } else {
          value_done();
        }
      }
      continue;
    }
    if (scalar_start != std::string::npos) {
      if (scalar_char(c)) continue;
      scalar_start = std::string::npos;
      value_done();
    }
    switch (c) {
      case '{':
      case '[':
        started = true;
        stack.push_back({c, c == '{' ? kKeyOrEnd : kElementOrEnd});
        break;
      case '}':
      case ']':
        if (!stack.empty()) stack.pop_back();
        value_done();
        if (stack.empty()) return false;  // the top-level value is complete: nothing to finish
        break;
      case '"':
        in_string = true;
        string_start = i;
        string_is_key = !stack.empty() && stack.back().type == '{' && stack.back().state == kKeyOrEnd;
        break;
      case ':':
        if (!stack.empty()) stack.back().state = kValue;
        break;
      case ',':
        if (!stack.empty()) stack.back().state = stack.back().type == '{' ? kKeyOrEnd : kElementOrEnd;
        break;
      default:
        if (scalar_char(c)) scalar_start = i;
        break;
    }
  }
  if (!started || stack.empty()) return false;
  if (in_string) {
    cut_open_string(text, string_start, escape, unicode_left);
    text += "\xE2\x80\xA6[truncated]\"";
    if (string_is_key) {
      stack.back().state = kColon;
    } else {
      value_done();
    }
  } else if (scalar_start != std::string::npos) {
    text.resize(scalar_start);  // a number or literal cut short is not a value
  }
  close_levels(text, stack);
  return true;
}

}  // namespace pinta::adapter
