// JavaScript semantics the Node hosts rely on, reproduced exactly: String.prototype.trim (ECMA-262
// WhiteSpace + LineTerminator), JSON.stringify (key order incl. array-index keys first, Number
// formatting), JSON.parse and Node's Buffer.toString('utf8') (WHATWG decoder, U+FFFD per maximal
// subpart). Gemini CLI's core hooks/hookRunner.js executeCommandHook uses all four
// (gemini-cli-0.61-hooks.md §4.1, §4.5); deel-local-cli's hooks.js reads its file, trims its
// values and writes its payload with the same calls (seed 004 L332-335, L427).
#include <locale.h>
#include <stdlib.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "pinta/common/text.h"
#include "pinta/hosts/node/js.h"

namespace pinta::hosts::node {
namespace {

// Decodes one UTF-8 sequence at s[i]; returns code point or -1 and advances i (WHATWG).
long decode_one(std::string_view s, size_t& i) {
  auto b = static_cast<unsigned char>(s[i]);
  if (b < 0x80) {
    ++i;
    return b;
  }
  int need = 0;
  unsigned long cp = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b >= 0xC2 && b <= 0xDF) {
    need = 1;
    cp = b & 0x1F;
  } else if (b >= 0xE0 && b <= 0xEF) {
    need = 2;
    cp = b & 0x0F;
    if (b == 0xE0) lo = 0xA0;
    if (b == 0xED) hi = 0x9F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    need = 3;
    cp = b & 0x07;
    if (b == 0xF0) lo = 0x90;
    if (b == 0xF4) hi = 0x8F;
  } else {
    ++i;
    return -1;
  }
  size_t j = i + 1;
  for (int k = 0; k < need; ++k) {
    if (j >= s.size()) {
      i = j;
      return -1;
    }
    auto c = static_cast<unsigned char>(s[j]);
    if (c < lo || c > hi) {
      i = j;  // the offending byte is not consumed
      return -1;
    }
    lo = 0x80;
    hi = 0xBF;
    cp = (cp << 6) | (c & 0x3F);
    ++j;
  }
  i = j;
  return static_cast<long>(cp);
}

// ECMA-262 WhiteSpace and LineTerminator code points (what trim() and /\s/ remove).
bool is_js_space(unsigned long cp) {
  switch (cp) {
    case 0x09:
    case 0x0A:
    case 0x0B:
    case 0x0C:
    case 0x0D:
    case 0x20:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
    case 0xFEFF:
      return true;
    default:
      return cp >= 0x2000 && cp <= 0x200A;
  }
}

// Is `k` an array index (canonical uint32 < 2^32-1)? Such keys come first in JS objects.
std::optional<uint32_t> array_index(const std::string& k) {
  if (k.empty() || k.size() > 10) return std::nullopt;
  if (k.size() > 1 && k[0] == '0') return std::nullopt;
  uint64_t v = 0;
  for (char c : k) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (v >= 4294967295ull) return std::nullopt;
  return static_cast<uint32_t>(v);
}

// ECMA-262 Number::toString(10) from the shortest round-trip digits.
std::string js_number(double d) {
  if (std::isnan(d) || std::isinf(d)) return "null";  // JSON.stringify
  if (d == 0) return "0";
  std::string out;
  if (d < 0) {
    out = "-";
    d = -d;
  }
  std::array<char, 64> buf{};
  auto res = std::to_chars(buf.data(), buf.data() + buf.size(), d, std::chars_format::scientific);
  std::string sci(buf.data(), res.ptr);
  // sci = "D[.DDD]e[+-]XX"
  auto epos = sci.find('e');
  std::string mant = sci.substr(0, epos);
  int exp10 = std::stoi(sci.substr(epos + 1));
  std::string digits;
  for (char c : mant)
    if (c != '.') digits += c;
  int k = static_cast<int>(digits.size());
  int n = exp10 + 1;
  if (k <= n && n <= 21) {
    out += digits + std::string(static_cast<size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out += digits.substr(0, static_cast<size_t>(n)) + "." + digits.substr(static_cast<size_t>(n));
  } else if (-6 < n && n <= 0) {
    out += "0." + std::string(static_cast<size_t>(-n), '0') + digits;
  } else {
    int e = n - 1;
    std::string es = (e >= 0 ? "+" : "-") + std::to_string(e >= 0 ? e : -e);
    if (k == 1)
      out += digits + "e" + es;
    else
      out += digits.substr(0, 1) + "." + digits.substr(1) + "e" + es;
  }
  return out;
}

// A UTF-16 surrogate code unit stored WTF-8 style (ED A0..BF xx) at s[i]; -1 if none.
long surrogate_at(std::string_view s, size_t i) {
  if (i + 3 > s.size()) return -1;
  auto b0 = static_cast<unsigned char>(s[i]), b1 = static_cast<unsigned char>(s[i + 1]),
       b2 = static_cast<unsigned char>(s[i + 2]);
  if (b0 != 0xED || b1 < 0xA0 || b1 > 0xBF || (b2 & 0xC0) != 0x80) return -1;
  return 0xD000 | ((b1 & 0x3F) << 6) | (b2 & 0x3F);
}

// JSON.stringify's QuoteJSONString (ES2019 well-formed): quote, backslash, BS FF LF CR TAB as
// two-character escapes, other controls as u00xx escapes, lone surrogates as udxxx escapes
// (lower-case hex); everything else as is.
void quote_string(std::string& out, const std::string& s) {
  out += '"';
  for (size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == 0xED) {
      long hi = surrogate_at(s, i);
      if (hi >= 0) {
        long lo = hi < 0xDC00 ? surrogate_at(s, i + 3) : -1;
        if (lo >= 0xDC00) {  // a pair split over two stored units is one character
          text::append_utf8(out, 0x10000 + ((static_cast<unsigned long>(hi) - 0xD800) << 10) +
                               (static_cast<unsigned long>(lo) - 0xDC00));
          i += 5;
        } else {
          char tmp[16];  // hi is a lone surrogate, 0xD800..0xDFFF: four hex digits
          std::snprintf(tmp, sizeof tmp, "\\u%04x", static_cast<unsigned>(hi));
          out += tmp;
          i += 2;
        }
        continue;
      }
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char tmp[8];
          std::snprintf(tmp, sizeof tmp, "\\u%04x", c);
          out += tmp;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

void stringify(std::string& out, const ojson& v) {
  switch (v.type()) {
    case ojson::value_t::null:
      out += "null";
      break;
    case ojson::value_t::boolean:
      out += v.get<bool>() ? "true" : "false";
      break;
    case ojson::value_t::number_integer:
      out += js_number(static_cast<double>(v.get<int64_t>()));
      break;
    case ojson::value_t::number_unsigned:
      out += js_number(static_cast<double>(v.get<uint64_t>()));
      break;
    case ojson::value_t::number_float:
      out += js_number(v.get<double>());
      break;
    case ojson::value_t::string:
      quote_string(out, v.get_ref<const std::string&>());
      break;
    case ojson::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& e : v) {
        if (!first) out += ',';
        first = false;
        stringify(out, e);
      }
      out += ']';
      break;
    }
    case ojson::value_t::object: {
      // JS property order: array-index keys ascending, then string keys in insertion order.
      std::vector<std::pair<uint32_t, const std::string*>> idx;
      std::vector<const std::string*> rest;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (auto i = array_index(it.key()))
          idx.emplace_back(*i, &it.key());
        else
          rest.push_back(&it.key());
      }
      std::sort(idx.begin(), idx.end());
      out += '{';
      bool first = true;
      auto emit = [&](const std::string& k) {
        if (!first) out += ',';
        first = false;
        quote_string(out, k);
        out += ':';
        stringify(out, v.at(k));
      };
      for (auto& [i, k] : idx) emit(*k);
      for (auto* k : rest) emit(*k);
      out += '}';
      break;
    }
    default:
      out += "null";
      break;
  }
}

// ECMA-262 JSON.parse (25.5.1) over UTF-8 text, iterative (V8's parser has no depth limit short of
// memory). Where it differs from nlohmann's parser (each seen as a differential finding against
// the real HookRunner): only TAB LF CR SPACE are whitespace and a leading U+FEFF is not skipped;
// numbers beyond double range become +-Infinity (1e400) instead of an error; integers are doubles
// (|n| > 2^53 is stored as the nearest double, -0 as -0.0); a \u escape of a lone surrogate is
// kept (stored WTF-8 style: ED A0..BF xx) instead of an error, and a high/low pair made of escapes
// or of an escape next to a stored unit is one character; duplicate keys keep their first
// position with the last value.
class JsonParser {
 public:
  explicit JsonParser(std::string_view s) : s_(s) {}

  std::optional<ojson> run() {
    struct Frame {
      ojson val;
      std::string key;
      bool obj;
    };
    std::vector<Frame> st;
    ojson value;
    while (true) {
      ws();
      if (i_ >= s_.size()) return std::nullopt;
      char c = s_[i_];
      bool have = false;
      if (c == '{' || c == '[') {
        ++i_;
        ws();
        bool obj = c == '{';
        if (i_ < s_.size() && s_[i_] == (obj ? '}' : ']')) {
          ++i_;
          value = obj ? ojson::object() : ojson::array();
          have = true;
        } else {
          st.push_back(Frame{obj ? ojson::object() : ojson::array(), {}, obj});
          if (obj && !member_key(st.back().key)) return std::nullopt;
          continue;
        }
      } else if (!primitive(value)) {
        return std::nullopt;
      }
      (void)have;
      // A complete value: attach it to the open containers, closing as many as end here.
      while (true) {
        if (st.empty()) {
          ws();
          if (i_ != s_.size()) return std::nullopt;
          return value;
        }
        Frame& f = st.back();
        if (f.obj)
          f.val[f.key] = std::move(value);  // ordered_map: an existing key keeps its place
        else
          f.val.push_back(std::move(value));
        ws();
        if (i_ >= s_.size()) return std::nullopt;
        if (s_[i_] == ',') {
          ++i_;
          if (f.obj) {
            ws();
            f.key.clear();
            if (!member_key(f.key)) return std::nullopt;
          }
          break;  // next value
        }
        if (s_[i_] != (f.obj ? '}' : ']')) return std::nullopt;
        ++i_;
        value = std::move(f.val);
        st.pop_back();
      }
    }
  }

 private:
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }

  // At a member: "key" ws ':' (the value follows).
  bool member_key(std::string& key) {
    if (i_ >= s_.size() || s_[i_] != '"' || !string(key)) return false;
    ws();
    if (i_ >= s_.size() || s_[i_] != ':') return false;
    ++i_;
    return true;
  }

  static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool string(std::string& out) {
    ++i_;  // opening quote
    bool surrogates = false;
    while (true) {
      if (i_ >= s_.size()) return false;
      auto c = static_cast<unsigned char>(s_[i_]);
      if (c == '"') {
        ++i_;
        break;
      }
      if (c < 0x20) return false;
      if (c == 0xED && surrogate_at(s_, i_) >= 0) surrogates = true;
      if (c != '\\') {
        out += static_cast<char>(c);
        ++i_;
        continue;
      }
      if (++i_ >= s_.size()) return false;
      char e = s_[i_++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          if (i_ + 4 > s_.size()) return false;
          unsigned long u = 0;
          for (int k = 0; k < 4; ++k) {
            int h = hex(s_[i_ + static_cast<size_t>(k)]);
            if (h < 0) return false;
            u = (u << 4) | static_cast<unsigned long>(h);
          }
          i_ += 4;
          if (u >= 0xD800 && u <= 0xDFFF) {
            surrogates = true;
            out += static_cast<char>(0xE0 | (u >> 12));
            out += static_cast<char>(0x80 | ((u >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (u & 0x3F));
          } else {
            text::append_utf8(out, u);
          }
          break;
        }
        default:
          return false;
      }
    }
    if (surrogates) out = join_surrogate_pairs(out);
    return true;
  }

  // JS strings are UTF-16: a high unit followed by a low unit is one character.
  static std::string join_surrogate_pairs(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size();) {
      long hi = surrogate_at(s, i);
      long lo = hi >= 0xD800 && hi < 0xDC00 ? surrogate_at(s, i + 3) : -1;
      if (lo >= 0xDC00) {
        text::append_utf8(out, 0x10000 + ((static_cast<unsigned long>(hi) - 0xD800) << 10) +
                             (static_cast<unsigned long>(lo) - 0xDC00));
        i += 6;
      } else {
        out += s[i++];
      }
    }
    return out;
  }

  bool primitive(ojson& v) {
    char c = s_[i_];
    if (c == '"') {
      std::string str;
      if (!string(str)) return false;
      v = std::move(str);
      return true;
    }
    for (auto [lit, val] :
         {std::pair<std::string_view, int>{"true", 1}, {"false", 0}, {"null", 2}}) {
      if (s_.substr(i_, lit.size()) == lit) {
        i_ += lit.size();
        v = val == 2 ? ojson(nullptr) : ojson(val == 1);
        return true;
      }
    }
    return number(v);
  }

  bool number(ojson& v) {
    size_t start = i_;
    auto digit = [&](size_t k) { return k < s_.size() && s_[k] >= '0' && s_[k] <= '9'; };
    bool neg = false, integral = true;
    if (i_ < s_.size() && s_[i_] == '-') {
      neg = true;
      ++i_;
    }
    if (!digit(i_)) return false;
    if (s_[i_] == '0') {
      ++i_;
    } else {
      while (digit(i_)) ++i_;
    }
    if (i_ < s_.size() && s_[i_] == '.') {
      integral = false;
      ++i_;
      if (!digit(i_)) return false;
      while (digit(i_)) ++i_;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      integral = false;
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (!digit(i_)) return false;
      while (digit(i_)) ++i_;
    }
    std::string lit(s_.substr(start, i_ - start));
    // glibc strtod rounds correctly (like V8) and gives +-HUGE_VAL (= Infinity) on overflow.
    static locale_t c_locale = newlocale(LC_ALL_MASK, "C", nullptr);
    double d = strtod_l(lit.c_str(), nullptr, c_locale);
    if (integral && std::fabs(d) <= 9007199254740992.0 && !(d == 0 && neg)) {
      v = static_cast<int64_t>(d);
    } else {
      v = d;
    }
    return true;
  }

  std::string_view s_;
  size_t i_ = 0;
};
}  // namespace

std::string node_utf8_decode(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  size_t i = 0;
  while (i < bytes.size()) {
    long cp = decode_one(bytes, i);
    if (cp < 0)
      out += "\xEF\xBF\xBD";
    else
      text::append_utf8(out, static_cast<unsigned long>(cp));
  }
  return out;
}

std::string js_trim(std::string_view s) {
  // s is valid UTF-8 (node_utf8_decode output).
  size_t start = 0, end = s.size();
  while (start < end) {
    size_t j = start;
    long cp = decode_one(s, j);
    if (cp < 0 || !is_js_space(static_cast<unsigned long>(cp))) break;
    start = j;
  }
  while (end > start) {
    size_t b = end - 1;
    while (b > start && (static_cast<unsigned char>(s[b]) & 0xC0) == 0x80) --b;
    size_t j = b;
    long cp = decode_one(s, j);
    if (cp < 0 || j != end || !is_js_space(static_cast<unsigned long>(cp))) break;
    end = b;
  }
  return std::string(s.substr(start, end - start));
}

bool js_is_space_cp(unsigned long cp) { return is_js_space(cp); }

ojson keys_first(const ojson& in, const std::vector<std::string>& order) {
  if (!in.is_object()) return in;
  ojson out = ojson::object();
  for (const auto& key : order)
    if (auto it = in.find(key); it != in.end()) out[key] = *it;
  for (const auto& [key, v] : in.items())
    if (!out.contains(key)) out[key] = v;
  return out;
}

std::string js_stringify(const ojson& v) {
  std::string out;
  stringify(out, v);
  return out;
}

std::optional<ojson> js_parse(std::string_view text) {
  JsonParser p(text);
  return p.run();
}

std::string now_iso8601() {
  auto now = std::chrono::system_clock::now();
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[96];  // room for any int in every field (GCC's -Wformat-truncation counts so)
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(ms % 1000));
  return buf;
}

std::string js_quote(const std::string& wtf8) {
  std::string out;
  out.reserve(wtf8.size() + 2);
  quote_string(out, wtf8);
  return out;
}

}  // namespace pinta::hosts::node
