// JavaScript (Node.js 20 / V8 11.3) regular expressions without flags, on PCRE2's 16-bit library.
// The grammar followed is ECMAScript 2023 §22.2.1 with Annex B.1.2 (what V8 accepts without the
// `u` flag); each V8-specific choice is noted where it is made. See js_regex.h for the approach.
#define PCRE2_CODE_UNIT_WIDTH 0
#include "pinta/hosts/node/js_regex.h"
#include "pinta/common/text.h"

#include <pcre2.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <utility>
#include <vector>

namespace pinta::hosts::node {
namespace {

using U16 = std::u16string;
using Range = std::pair<char32_t, char32_t>;  // inclusive code-unit range
using Set = std::vector<Range>;

constexpr char32_t kMaxUnit = 0xFFFF;
constexpr uint32_t kInfinity = INT_MAX;   // V8's RegExpTree::kInfinity
constexpr uint32_t kPcreMaxRepeat = 65535;
constexpr uint32_t kEndCallout = 255;     // sub-pattern of a lookbehind: "ends here?"
constexpr size_t kMaxLookbehindCallouts = 254;

Set normalize(Set s) {
  std::sort(s.begin(), s.end());
  Set out;
  for (const auto& r : s) {
    if (!out.empty() && r.first <= out.back().second + 1)
      out.back().second = std::max(out.back().second, r.second);
    else
      out.push_back(r);
  }
  return out;
}

Set complement(const Set& in) {
  Set s = normalize(in), out;
  char32_t next = 0;
  for (const auto& r : s) {
    if (r.first > next) out.emplace_back(next, r.first - 1);
    next = r.second + 1;
  }
  if (next <= kMaxUnit) out.emplace_back(next, kMaxUnit);
  return out;
}

// ECMAScript's sets for the class escapes (§22.2.2.9: \d, \w without /i /u are ASCII; \s is
// WhiteSpace + LineTerminator, Unicode 15 Zs as in V8 11.3's ICU).
const Set& digit_set() {
  static const Set s = {{'0', '9'}};
  return s;
}
const Set& word_set() {
  static const Set s = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
  return s;
}
const Set& space_set() {
  static const Set s = normalize({{0x09, 0x0D}, {0x20, 0x20}, {0xA0, 0xA0}, {0x1680, 0x1680},
                                   {0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F},
                                   {0x205F, 0x205F}, {0x3000, 0x3000}, {0xFEFF, 0xFEFF}});
  return s;
}
// `.` without /s: anything but a LineTerminator.
const Set& dot_set() {
  static const Set s = complement({{0x0A, 0x0A}, {0x0D, 0x0D}, {0x2028, 0x2029}});
  return s;
}

void append_ascii(U16& out, std::string_view a) {
  for (char c : a) out += static_cast<char16_t>(c);
}

void append_unit(U16& out, char32_t c) {
  const bool alnum = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  if (alnum) {
    out += static_cast<char16_t>(c);
    return;
  }
  static const char* hex = "0123456789abcdef";
  std::string h;
  for (int shift = 12; shift >= 0; shift -= 4) h += hex[(c >> shift) & 0xF];
  append_ascii(out, "\\x{" + h + "}");
}

void append_set(U16& out, const Set& in) {
  Set s = normalize(in);
  if (s.empty()) {
    append_ascii(out, "(?!)");
    return;
  }
  out += u'[';
  for (const auto& [a, b] : s) {
    append_unit(out, a);
    if (b != a) {
      out += u'-';
      append_unit(out, b);
    }
  }
  out += u']';
}

bool is_hex(char16_t c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int hex_value(char16_t c) {
  return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}
bool is_ascii_letter(char16_t c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
bool is_digit(char16_t c) { return c >= '0' && c <= '9'; }

// Identifier characters of a group name (ID_Start / ID_Continue with `$`, `_`, ZWNJ, ZWJ), asked
// of PCRE2's own Unicode tables (Unicode 14 in PCRE2 10.42; V8 11.3's ICU has 15).
bool id_char(char32_t cp, bool start) {
  if (cp == '$' || cp == '_') return true;
  if (cp < 0x80) return is_ascii_letter(static_cast<char16_t>(cp)) || (!start && is_digit(static_cast<char16_t>(cp)));
  if (!start && (cp == 0x200C || cp == 0x200D)) return true;
  struct Classifier {
    pcre2_code_32* code[2] = {nullptr, nullptr};
    Classifier() {
      const char32_t* pats[2] = {
          U"^[\\p{L}\\p{Nl}\\x{1885}\\x{1886}\\x{2118}\\x{212e}\\x{309b}\\x{309c}]$",
          U"^[\\p{L}\\p{Nl}\\p{Mn}\\p{Mc}\\p{Nd}\\p{Pc}\\x{1885}\\x{1886}\\x{2118}\\x{212e}"
          U"\\x{309b}\\x{309c}\\x{b7}\\x{387}\\x{1369}-\\x{1371}\\x{19da}]$"};
      for (int k = 0; k < 2; ++k) {
        int err = 0;
        PCRE2_SIZE off = 0;
        code[k] = pcre2_compile_32(reinterpret_cast<PCRE2_SPTR32>(pats[k]), PCRE2_ZERO_TERMINATED,
                                   PCRE2_UTF | PCRE2_UCP, &err, &off, nullptr);
      }
    }
  };
  static const Classifier cls;
  pcre2_code_32* code = cls.code[start ? 0 : 1];
  if (!code) return false;
  // Pattern_Syntax letters are no identifier characters (U+2E2F VERTICAL TILDE is the one Lm).
  if (cp == 0x2E2F) return false;
  pcre2_match_data_32* md = pcre2_match_data_create_from_pattern_32(code, nullptr);
  const uint32_t subject = cp;
  int rc = pcre2_match_32(code, &subject, 1, 0, 0, md, nullptr);
  pcre2_match_data_free_32(md);
  return rc >= 0;
}

struct Syntax {
  std::string message;
};

class Translator {
 public:
  // native_ok(first capture number of a lookbehind, its translated body, negative): can PCRE2
  // run it as a lookbehind of its own? (Asked in callout mode only.)
  using NativeOk = bool (*)(int, int, const U16&, bool, int);
  Translator(std::u16string_view src, bool callout_mode, NativeOk native_ok = nullptr)
      : s_(src), callout_mode_(callout_mode), native_ok_fn_(native_ok) {}

  // Returns false with error() set on a SyntaxError.
  bool run() {
    if (!prescan()) return false;
    if (!disjunction()) return false;
    if (i_ < s_.size()) {  // a ')' with nothing open
      return fail("Unmatched ')'");
    }
    return true;
  }
  const std::string& error() const { return error_; }
  const U16& out() const { return out_; }
  bool has_lookbehind() const { return has_lookbehind_; }
  // Callout mode: the PCRE2 pattern of lookbehind n (callout n + 1) and whether it is negative.
  const std::vector<U16>& subpatterns() const { return subs_; }
  const std::vector<bool>& sub_negative() const { return sub_negative_; }
  bool too_many_lookbehinds() const { return too_many_; }

 private:
  struct Look {
    bool behind;
    int first_group;  // first capture number inside it
    int last_group;   // last capture number inside it (first - 1 when none)
  };

  std::u16string_view s_;
  bool callout_mode_;
  NativeOk native_ok_fn_;
  bool native_ok_(int first, int last, const U16& body, bool negative) const {
    return native_ok_fn_ && native_ok_fn_(first, last, body, negative, total_groups_);
  }
  size_t i_ = 0;
  U16 out_;
  std::string error_;
  int total_groups_ = 0;
  std::vector<std::u32string> names_;  // by capture number - 1; empty: unnamed
  bool has_named_ = false;
  int opened_ = 0;
  std::vector<int> open_;
  std::vector<Look> looks_;
  std::vector<U16> subs_;
  std::vector<bool> sub_negative_;
  bool has_lookbehind_ = false;
  bool too_many_ = false;

  bool fail(const std::string& m) {
    if (error_.empty()) error_ = m;
    return false;
  }
  bool at(size_t k, char16_t c) const { return k < s_.size() && s_[k] == c; }
  bool starts(size_t k, std::u16string_view p) const {
    return s_.size() >= k + p.size() && s_.substr(k, p.size()) == p;
  }

  // Counts the captures from `k` (just inside a group when `until_close`) to the end of the
  // pattern or to the ')' closing that group; records names when `record`. Skips escapes and
  // classes the way V8's ScanForCaptures does.
  int scan_groups(size_t k, bool until_close, bool record) {
    int n = 0, depth = 0;
    while (k < s_.size()) {
      char16_t c = s_[k];
      if (c == '\\') {
        k += 2;
        continue;
      }
      if (c == '[') {
        ++k;
        while (k < s_.size() && s_[k] != ']') k += s_[k] == '\\' ? 2 : 1;
        ++k;
        continue;
      }
      if (c == '(') {
        ++depth;
        if (!at(k + 1, '?')) {
          ++n;
          if (record) names_.emplace_back();
        } else if (at(k + 2, '<') && !at(k + 3, '=') && !at(k + 3, '!')) {
          ++n;
          if (record) {
            names_.emplace_back();
            has_named_ = true;
          }
        }
      } else if (c == ')') {
        if (until_close && depth == 0) return n;
        --depth;
      }
      ++k;
    }
    return n;
  }

  bool prescan() {
    total_groups_ = scan_groups(0, false, true);
    return true;
  }

  // {n}, {n,}, {n,m} at k: its length, else 0 (Annex B: then `{` is a literal).
  size_t braced(size_t k, uint32_t* min = nullptr, uint32_t* max = nullptr) const {
    if (!at(k, '{')) return 0;
    size_t j = k + 1;
    auto number = [&](uint32_t& v) {
      size_t d = 0;
      uint64_t x = 0;
      while (j < s_.size() && is_digit(s_[j])) {
        x = std::min<uint64_t>(x * 10 + (s_[j] - '0'), kInfinity);
        ++j, ++d;
      }
      v = static_cast<uint32_t>(x);
      return d > 0;
    };
    uint32_t a = 0, b = 0;
    if (!number(a)) return 0;
    if (at(j, '}')) {
      b = a;
    } else if (at(j, ',')) {
      ++j;
      if (at(j, '}')) {
        b = kInfinity;
      } else {
        if (!number(b)) return 0;
        if (!at(j, '}')) return 0;
      }
    } else {
      return 0;
    }
    if (min) *min = a;
    if (max) *max = b;
    return j + 1 - k;
  }

  bool quantifier_at(size_t k) const {
    return at(k, '*') || at(k, '+') || at(k, '?') || braced(k) > 0;
  }

  bool disjunction() {
    for (;;) {
      if (!alternative()) return false;
      if (at(i_, '|')) {
        out_ += u'|';
        ++i_;
        continue;
      }
      return true;
    }
  }

  bool alternative() {
    while (i_ < s_.size() && s_[i_] != '|' && s_[i_] != ')')
      if (!term()) return false;
    return true;
  }

  bool no_quantifier(const char* message = "Nothing to repeat") {
    if (quantifier_at(i_)) return fail(message);
    return true;
  }

  bool term() {
    const char16_t c = s_[i_];
    if (c == '^' || c == '$') {
      out_ += c;
      ++i_;
      return no_quantifier();
    }
    if (c == '\\' && (at(i_ + 1, 'b') || at(i_ + 1, 'B'))) {
      out_ += u'\\';
      out_ += s_[i_ + 1];
      i_ += 2;
      return no_quantifier();
    }
    if (c == '*' || c == '+' || c == '?') return fail("Nothing to repeat");
    if (c == '{' && braced(i_)) return fail("Nothing to repeat");
    if (starts(i_, u"(?<=") || starts(i_, u"(?<!")) return lookbehind();
    const size_t atom_start = out_.size();
    bool lookahead = false;
    if (starts(i_, u"(?=") || starts(i_, u"(?!")) {
      lookahead = true;
      out_.append(s_.substr(i_, 3));
      i_ += 3;
      looks_.push_back({false, opened_ + 1, opened_});
      if (!disjunction()) return false;
      looks_.pop_back();
      if (!at(i_, ')')) return fail("Unterminated group");
      out_ += u')';
      ++i_;
    } else if (c == '(') {
      if (!group()) return false;
    } else if (c == '[') {
      if (!char_class()) return false;
    } else if (c == '.') {
      append_set(out_, dot_set());
      ++i_;
    } else if (c == '\\') {
      if (!atom_escape()) return false;
    } else {
      // Annex B ExtendedPatternCharacter: `{` (no quantifier), `}` and `]` stand for themselves.
      append_unit(out_, c);
      ++i_;
    }
    return quantifier(atom_start, lookahead);
  }

  bool quantifier(size_t atom_start, bool lookahead) {
    uint32_t min = 0, max = 0;
    size_t len = 0;
    if (at(i_, '*')) {
      min = 0, max = kInfinity, len = 1;
    } else if (at(i_, '+')) {
      min = 1, max = kInfinity, len = 1;
    } else if (at(i_, '?')) {
      min = 0, max = 1, len = 1;
    } else if ((len = braced(i_, &min, &max)) != 0) {
      if (min > max) return fail("numbers out of order in {} quantifier");
    } else {
      return true;
    }
    i_ += len;
    bool lazy = false;
    if (at(i_, '?')) {
      lazy = true;
      ++i_;
    }
    if (quantifier_at(i_)) return fail("Nothing to repeat");
    if (lookahead) {
      // A repeated lookahead (Annex B QuantifiableAssertion): its required iterations all give
      // the same answer, and an optional iteration consumes nothing, so RepeatMatcher's
      // empty-iteration check always rejects it (its captures are then cleared): min 0 is
      // the empty pattern, min >= 1 is the lookahead once.
      if (min == 0) {
        U16 la = out_.substr(atom_start);
        out_.resize(atom_start);
        append_ascii(out_, "(?:(?!)");
        out_ += la;
        append_ascii(out_, "|)");
      }
      return true;
    }
    // PCRE2 counts to 65535. Above it: an upper bound is taken as none; a lower bound that large
    // cannot be met by a tool name (docs/fuzzing.md lists both).
    if (min > kPcreMaxRepeat) {
      U16 atom = out_.substr(atom_start);
      out_.resize(atom_start);
      append_ascii(out_, "(?:(?!)");
      out_ += atom;
      append_ascii(out_, ")");
      return true;
    }
    if (max > kPcreMaxRepeat) max = kInfinity;
    if (min == 0 && max == kInfinity) {
      out_ += u'*';
    } else if (min == 1 && max == kInfinity) {
      out_ += u'+';
    } else if (min == 0 && max == 1) {
      out_ += u'?';
    } else {
      std::string q = "{" + std::to_string(min);
      if (max == kInfinity)
        q += ",";
      else if (max != min)
        q += "," + std::to_string(max);
      append_ascii(out_, q + "}");
    }
    if (lazy) out_ += u'?';
    return true;
  }

  // `(?<name>` at i_ (after "(?<"): the name and its end.
  bool group_name(size_t& k, std::u32string& name) {
    name.clear();
    for (;;) {
      if (k >= s_.size()) return fail("Invalid capture group name");
      char32_t cp = s_[k];
      if (cp == '>') {
        ++k;
        break;
      }
      if (cp == '\\') {
        // \uXXXX or \u{X…} (V8 takes both in a group name whatever the flags).
        if (!at(k + 1, 'u')) return fail("Invalid capture group name");
        size_t j = k + 2;
        if (at(j, '{')) {
          uint32_t v = 0;
          size_t d = 0;
          ++j;
          while (j < s_.size() && is_hex(s_[j])) {
            v = v * 16 + hex_value(s_[j]);
            if (v > 0x10FFFF) return fail("Invalid capture group name");
            ++j, ++d;
          }
          if (!d || !at(j, '}')) return fail("Invalid capture group name");
          cp = v;
          k = j + 1;
        } else {
          if (j + 4 > s_.size()) return fail("Invalid capture group name");
          uint32_t v = 0;
          for (size_t t = 0; t < 4; ++t) {
            if (!is_hex(s_[j + t])) return fail("Invalid capture group name");
            v = v * 16 + hex_value(s_[j + t]);
          }
          k = j + 4;
          cp = v;
          // An escaped lead surrogate followed by an escaped trail surrogate is one code point.
          if (cp >= 0xD800 && cp <= 0xDBFF && starts(k, u"\\u") && k + 6 <= s_.size()) {
            uint32_t w = 0;
            bool ok = true;
            for (size_t t = 0; t < 4; ++t) {
              if (!is_hex(s_[k + 2 + t])) ok = false;
              else w = w * 16 + hex_value(s_[k + 2 + t]);
            }
            if (ok && w >= 0xDC00 && w <= 0xDFFF) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (w - 0xDC00);
              k += 6;
            }
          }
        }
      } else {
        ++k;
        if (cp >= 0xD800 && cp <= 0xDBFF && k < s_.size() && s_[k] >= 0xDC00 && s_[k] <= 0xDFFF) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (s_[k] - 0xDC00);
          ++k;
        }
      }
      if (!id_char(cp, name.empty())) return fail("Invalid capture group name");
      name += cp;
    }
    if (name.empty()) return fail("Invalid capture group name");
    return true;
  }

  bool group() {
    if (starts(i_, u"(?:")) {
      i_ += 3;
      append_ascii(out_, "(?:");
      if (!disjunction()) return false;
      if (!at(i_, ')')) return fail("Unterminated group");
      ++i_;
      out_ += u')';
      return true;
    }
    std::u32string name;
    if (at(i_ + 1, '?')) {
      if (!at(i_ + 2, '<')) return fail("Invalid group");
      size_t k = i_ + 3;
      if (!group_name(k, name)) return false;
      i_ = k;
    } else {
      ++i_;
    }
    const int n = ++opened_;
    if (!name.empty()) {
      for (const auto& other : names_)
        if (other == name) return fail("Duplicate capture group name");
      names_[n - 1] = name;
    }
    open_.push_back(n);
    out_ += u'(';
    if (!disjunction()) return false;
    if (!at(i_, ')')) return fail("Unterminated group");
    ++i_;
    out_ += u')';
    open_.pop_back();
    return true;
  }

  bool lookbehind() {
    has_lookbehind_ = true;
    const bool negative = s_[i_ + 3] == '!';
    const size_t body = i_ + 4;
    const int inside = scan_groups(body, true, false);
    looks_.push_back({true, opened_ + 1, opened_ + inside});
    const int first = opened_ + 1;
    i_ = body;
    if (!callout_mode_) {
      append_ascii(out_, negative ? "(?<!" : "(?<=");
      if (!disjunction()) return false;
      if (!at(i_, ')')) return fail("Unterminated group");
      out_ += u')';
    } else {
      // The body becomes its own pattern: captures before it as never-set groups (so numbers
      // agree), the body, then a callout that accepts only a match ending where this callout
      // was reached. Here: a callout, and the body's captures as never-set groups.
      U16 saved;
      saved.swap(out_);
      if (!disjunction()) return false;
      if (!at(i_, ')')) return fail("Unterminated group");
      if (native_ok_(first, first + inside - 1, out_, negative)) {
        // PCRE2 runs this one itself (fixed-length alternatives): its captures stay visible.
        U16 body;
        body.swap(out_);
        out_.swap(saved);
        append_ascii(out_, negative ? "(?<!" : "(?<=");
        out_ += body;
        out_ += u')';
        ++i_;
        looks_.pop_back();
        return no_quantifier("Invalid quantifier");
      }
      U16 sub;
      append_ascii(sub, "(?:(?!)");
      for (int g = 1; g < first; ++g) append_ascii(sub, "()");
      append_ascii(sub, ")?(?:");
      sub += out_;
      append_ascii(sub, ")(?C" + std::to_string(kEndCallout) + ")");
      out_.swap(saved);
      if (subs_.size() >= kMaxLookbehindCallouts) {
        too_many_ = true;
        return fail("too many lookbehinds for this engine");
      }
      subs_.push_back(std::move(sub));
      sub_negative_.push_back(negative);
      append_ascii(out_, "(?:(?C" + std::to_string(subs_.size()) + ")|(?!)");
      for (int g = 0; g < inside; ++g) append_ascii(out_, "()");
      out_ += u')';
    }
    ++i_;
    looks_.pop_back();
    // A lookbehind cannot be repeated (V8: "Invalid quantifier").
    return no_quantifier("Invalid quantifier");
  }

  // \N or \k<name> to capture n.
  void backreference(int n) {
    const bool closed = n <= opened_ && std::find(open_.begin(), open_.end(), n) == open_.end();
    bool emit = closed;
    if (!looks_.empty() && looks_.back().behind) {
      // A lookbehind matches right to left (§22.2.2.4): inside it, a capture to the right of
      // the reference is already set, one to its left (or around it) is not.
      const Look& lb = looks_.back();
      if (n < lb.first_group)
        emit = closed;
      else if (n <= lb.last_group)
        emit = n > opened_;
      else
        emit = false;
    }
    if (emit)
      append_ascii(out_, "(?:\\g{" + std::to_string(n) + "})");
    else
      append_ascii(out_, "(?:)");  // matches the empty string, as an unset capture does in JS
  }

  // V8's ParseOctalLiteral: up to three octal digits, value below 256.
  char32_t octal(size_t& k) const {
    char32_t v = s_[k] - '0';
    ++k;
    if (k < s_.size() && s_[k] >= '0' && s_[k] <= '7') {
      v = v * 8 + (s_[k] - '0');
      ++k;
      if (v < 32 && k < s_.size() && s_[k] >= '0' && s_[k] <= '7') {
        v = v * 8 + (s_[k] - '0');
        ++k;
      }
    }
    return v;
  }

  // Escapes that mean one code unit, shared by atoms and classes: \f \n \r \t \v, \xHH, \uHHHH,
  // \cX (letter), octal. k is at the character after '\'. Returns false when it is none of them.
  bool unit_escape(size_t& k, char32_t& v) const {
    const char16_t e = s_[k];
    switch (e) {
      case 'f': v = 0x0C; ++k; return true;
      case 'n': v = 0x0A; ++k; return true;
      case 'r': v = 0x0D; ++k; return true;
      case 't': v = 0x09; ++k; return true;
      case 'v': v = 0x0B; ++k; return true;
      case 'x':
        if (k + 2 < s_.size() && is_hex(s_[k + 1]) && is_hex(s_[k + 2])) {
          v = static_cast<char32_t>(hex_value(s_[k + 1]) * 16 + hex_value(s_[k + 2]));
          k += 3;
          return true;
        }
        return false;
      case 'u':
        if (k + 4 < s_.size() && is_hex(s_[k + 1]) && is_hex(s_[k + 2]) && is_hex(s_[k + 3]) &&
            is_hex(s_[k + 4])) {
          v = 0;
          for (size_t t = 1; t <= 4; ++t) v = v * 16 + hex_value(s_[k + t]);
          k += 5;
          return true;
        }
        return false;
      case 'c':
        if (k + 1 < s_.size() && is_ascii_letter(s_[k + 1])) {
          v = s_[k + 1] % 32;
          k += 2;
          return true;
        }
        return false;
      default:
        return false;
    }
  }

  bool atom_escape() {
    size_t k = i_ + 1;
    if (k >= s_.size()) return fail("\\ at end of pattern");
    const char16_t e = s_[k];
    switch (e) {
      case 'd': append_set(out_, digit_set()); i_ = k + 1; return true;
      case 'D': append_set(out_, complement(digit_set())); i_ = k + 1; return true;
      case 'w': append_set(out_, word_set()); i_ = k + 1; return true;
      case 'W': append_set(out_, complement(word_set())); i_ = k + 1; return true;
      case 's': append_set(out_, space_set()); i_ = k + 1; return true;
      case 'S': append_set(out_, complement(space_set())); i_ = k + 1; return true;
      default: break;
    }
    if (e >= '1' && e <= '9') {
      // DecimalEscape: a back-reference when the number (all its digits) is at most the number
      // of captures in the whole pattern; otherwise (Annex B) \8 and \9 are the digits and the
      // rest a legacy octal escape.
      size_t j = k;
      uint64_t n = 0;
      while (j < s_.size() && is_digit(s_[j])) {
        n = std::min<uint64_t>(n * 10 + (s_[j] - '0'), kInfinity);
        ++j;
      }
      if (n <= static_cast<uint64_t>(total_groups_)) {
        backreference(static_cast<int>(n));
        i_ = j;
        return true;
      }
      if (e >= '8') {
        append_unit(out_, e);
        i_ = k + 1;
        return true;
      }
      char32_t v = octal(k);
      append_unit(out_, v);
      i_ = k;
      return true;
    }
    if (e == '0') {
      char32_t v = octal(k);  // \0 alone is NUL; \0 followed by octal digits: legacy octal
      append_unit(out_, v);
      i_ = k;
      return true;
    }
    if (e == 'k' && has_named_) {
      if (!at(k + 1, '<')) return fail("Invalid named reference");
      size_t j = k + 2;
      std::u32string name;
      if (!group_name(j, name)) return false;
      int n = 0;
      for (size_t g = 0; g < names_.size(); ++g)
        if (names_[g] == name) n = static_cast<int>(g) + 1;
      // Names are recorded as their groups are parsed; a later group's name is known from the
      // scan only by position, so look it up by re-reading the pattern.
      if (!n) n = find_named_group(name);
      if (!n) return fail("Invalid named capture referenced");
      backreference(n);
      i_ = j;
      return true;
    }
    char32_t v = 0;
    size_t j = k;
    if (unit_escape(j, v)) {
      append_unit(out_, v);
      i_ = j;
      return true;
    }
    if (e == 'c') {
      // Annex B: `\c` not followed by a letter is a backslash; the `c` is read next.
      append_unit(out_, '\\');
      i_ = k;
      return true;
    }
    // IdentityEscape (Annex B: any character but `c`, and `k` when there are named groups).
    append_unit(out_, e);
    i_ = k + 1;
    return true;
  }

  // The capture number of a named group anywhere in the pattern (0: none).
  int find_named_group(const std::u32string& want) {
    int n = 0;
    size_t k = 0;
    while (k < s_.size()) {
      char16_t c = s_[k];
      if (c == '\\') {
        k += 2;
        continue;
      }
      if (c == '[') {
        ++k;
        while (k < s_.size() && s_[k] != ']') k += s_[k] == '\\' ? 2 : 1;
        ++k;
        continue;
      }
      if (c == '(') {
        if (!at(k + 1, '?')) {
          ++n;
        } else if (at(k + 2, '<') && !at(k + 3, '=') && !at(k + 3, '!')) {
          ++n;
          size_t j = k + 3;
          std::u32string name;
          std::string keep = error_;
          if (group_name(j, name) && name == want) return n;
          error_ = keep;
        }
      }
      ++k;
    }
    return 0;
  }

  // One ClassAtom at i_: either a single code unit (is_set false) or a set.
  bool class_atom(char32_t& unit, Set& set, bool& is_set) {
    is_set = false;
    const char16_t c = s_[i_];
    if (c != '\\') {
      unit = c;
      ++i_;
      return true;
    }
    size_t k = i_ + 1;
    if (k >= s_.size()) return fail("\\ at end of pattern");
    const char16_t e = s_[k];
    switch (e) {
      case 'd': set = digit_set(); is_set = true; i_ = k + 1; return true;
      case 'D': set = complement(digit_set()); is_set = true; i_ = k + 1; return true;
      case 'w': set = word_set(); is_set = true; i_ = k + 1; return true;
      case 'W': set = complement(word_set()); is_set = true; i_ = k + 1; return true;
      case 's': set = space_set(); is_set = true; i_ = k + 1; return true;
      case 'S': set = complement(space_set()); is_set = true; i_ = k + 1; return true;
      case 'b': unit = 0x08; i_ = k + 1; return true;
      case '-': unit = '-'; i_ = k + 1; return true;
      default: break;
    }
    if (e >= '0' && e <= '7') {
      unit = octal(k);
      i_ = k;
      return true;
    }
    if (e == 'k' && has_named_) return fail("Invalid escape");
    if (e == 'c' && k + 1 < s_.size() && (is_digit(s_[k + 1]) || s_[k + 1] == '_')) {
      unit = s_[k + 1] % 32;  // Annex B ClassControlLetter
      i_ = k + 2;
      return true;
    }
    char32_t v = 0;
    size_t j = k;
    if (unit_escape(j, v)) {
      unit = v;
      i_ = j;
      return true;
    }
    if (e == 'c') {  // a backslash; the `c` is the next atom
      unit = '\\';
      i_ = k;
      return true;
    }
    unit = e;  // identity escape (\8, \9 included)
    i_ = k + 1;
    return true;
  }

  bool char_class() {
    ++i_;
    bool negated = false;
    if (at(i_, '^')) {
      negated = true;
      ++i_;
    }
    Set set;
    for (;;) {
      if (i_ >= s_.size()) return fail("Unterminated character class");
      if (s_[i_] == ']') {
        ++i_;
        break;
      }
      char32_t a = 0, b = 0;
      Set sa, sb;
      bool a_set = false, b_set = false;
      if (!class_atom(a, sa, a_set)) return false;
      if (at(i_, '-') && i_ + 1 < s_.size() && s_[i_ + 1] != ']') {
        ++i_;
        if (!class_atom(b, sb, b_set)) return false;
        if (a_set || b_set) {
          // Annex B: a class escape at either end makes no range: both ends and the '-'.
          if (a_set) set.insert(set.end(), sa.begin(), sa.end()); else set.emplace_back(a, a);
          if (b_set) set.insert(set.end(), sb.begin(), sb.end()); else set.emplace_back(b, b);
          set.emplace_back('-', '-');
          continue;
        }
        if (a > b) return fail("Range out of order in character class");
        set.emplace_back(a, b);
        continue;
      }
      if (a_set) set.insert(set.end(), sa.begin(), sa.end()); else set.emplace_back(a, a);
    }
    append_set(out_, negated ? complement(set) : set);
    return true;
  }
};

std::string to_utf8(std::u16string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    char32_t c = s[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.size() && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF) {
      c = 0x10000 + ((c - 0xD800) << 10) + (s[i + 1] - 0xDC00);
      ++i;
    }
    pinta::text::append_utf8(out, c);
  }
  return out;
}

struct CodeDeleter {
  void operator()(pcre2_code_16* c) const { pcre2_code_free_16(c); }
};
using Code = std::unique_ptr<pcre2_code_16, CodeDeleter>;

}  // namespace

struct JsRegExp::Impl {
  U16 pattern;  // PCRE2 pattern
  Code code;
  std::vector<Code> subs;  // lookbehind bodies (callout mode)
  std::vector<bool> negative;

  struct CalloutData {
    const Impl* impl;
    size_t target;  // sub-pattern: the position its match must end at
  };

  // Match limit: Node would backtrack on (for a very long time); the hosts get "no match".
  static constexpr uint32_t kMatchLimit = 20'000'000;

  static int callout(pcre2_callout_block_16* b, void* data) {
    auto* d = static_cast<CalloutData*>(data);
    if (b->callout_number == kEndCallout) return b->current_position == d->target ? 0 : 1;
    const size_t n = b->callout_number - 1;
    if (n >= d->impl->subs.size()) return 1;
    const bool found = d->impl->run(d->impl->subs[n].get(), b->subject, b->subject_length,
                                    b->current_position);
    return found != d->impl->negative[n] ? 0 : 1;
  }

  bool run(const pcre2_code_16* c, PCRE2_SPTR16 subject, size_t len, size_t target) const {
    pcre2_match_data_16* md = pcre2_match_data_create_from_pattern_16(c, nullptr);
    pcre2_match_context_16* mc = pcre2_match_context_create_16(nullptr);
    pcre2_set_match_limit_16(mc, kMatchLimit);
    CalloutData data{this, target};
    if (!subs.empty()) pcre2_set_callout_16(mc, &Impl::callout, &data);
    const int rc = pcre2_match_16(c, subject, len, 0, 0, md, mc);
    pcre2_match_context_free_16(mc);
    pcre2_match_data_free_16(md);
    return rc >= 0;
  }
};

namespace {

Code compile_pcre(const U16& pattern, bool callouts, int& err) {
  pcre2_compile_context_16* cc = pcre2_compile_context_create_16(nullptr);
  pcre2_set_parens_nest_limit_16(cc, 100000);
  uint32_t opts = PCRE2_DOLLAR_ENDONLY | PCRE2_MATCH_UNSET_BACKREF | PCRE2_NEVER_UTF |
                  PCRE2_NEVER_UCP | PCRE2_NEVER_BACKSLASH_C;
  // Callouts are predicates on the position: no optimization may skip or reorder them.
  if (callouts) opts |= PCRE2_NO_AUTO_POSSESS | PCRE2_NO_START_OPTIMIZE | PCRE2_NO_DOTSTAR_ANCHOR;
  PCRE2_SIZE off = 0;
  pcre2_code_16* c = pcre2_compile_16(reinterpret_cast<PCRE2_SPTR16>(pattern.data()),
                                      pattern.size(), opts, &err, &off, cc);
  pcre2_compile_context_free_16(cc);
  return Code(c);
}

std::string source_for_message(std::u16string_view src) { return to_utf8(src); }

// Can PCRE2 compile this lookbehind body as a lookbehind, with every capture number it may
// name defined (never-set groups stand in for the others)?
bool lookbehind_native(int first, int last, const U16& body, bool negative, int total_groups) {
  if (body.find(u"(?C") != U16::npos) return false;  // holds a callout lookbehind itself
  U16 p;
  append_ascii(p, "(?:(?!)");
  for (int g = 1; g < first; ++g) append_ascii(p, "()");
  append_ascii(p, ")?");
  append_ascii(p, negative ? "(?<!" : "(?<=");
  p += body;
  append_ascii(p, ")(?:(?!)");
  for (int g = last + 1; g <= total_groups; ++g) append_ascii(p, "()");
  append_ascii(p, ")?");
  int err = 0;
  return compile_pcre(p, false, err) != nullptr;
}

}  // namespace

std::u16string utf16_units(std::string_view s) {
  std::u16string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    auto cont = [&](size_t k) {
      return k < s.size() && (static_cast<unsigned char>(s[k]) & 0xC0) == 0x80;
    };
    if (c < 0x80) {
      out += static_cast<char16_t>(c);
      ++i;
    } else if (c >= 0xC2 && c <= 0xDF && cont(i + 1)) {
      out += static_cast<char16_t>(((c & 0x1F) << 6) | (s[i + 1] & 0x3F));
      i += 2;
    } else if (c >= 0xE0 && c <= 0xEF && cont(i + 1) && cont(i + 2)) {
      char32_t cp = ((c & 0x0F) << 12) | ((s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F);
      if (cp < 0x800) {
        out += u'\uFFFD';
        ++i;
        continue;
      }
      out += static_cast<char16_t>(cp);  // a surrogate here is WTF-8: kept as that code unit
      i += 3;
    } else if (c >= 0xF0 && c <= 0xF4 && cont(i + 1) && cont(i + 2) && cont(i + 3)) {
      char32_t cp = ((c & 0x07) << 18) | ((s[i + 1] & 0x3F) << 12) | ((s[i + 2] & 0x3F) << 6) |
                    (s[i + 3] & 0x3F);
      if (cp < 0x10000 || cp > 0x10FFFF) {
        out += u'\uFFFD';
        ++i;
        continue;
      }
      cp -= 0x10000;
      out += static_cast<char16_t>(0xD800 + (cp >> 10));
      out += static_cast<char16_t>(0xDC00 + (cp & 0x3FF));
      i += 4;
    } else {
      out += u'\uFFFD';
      ++i;
    }
  }
  return out;
}

JsRegExp::JsRegExp(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
JsRegExp::~JsRegExp() = default;

std::shared_ptr<const JsRegExp> JsRegExp::compile(std::u16string_view source, std::string* error) {
  auto syntax = [&](const std::string& m) -> std::shared_ptr<const JsRegExp> {
    if (error) *error = "Invalid regular expression: /" + source_for_message(source) + "/: " + m;
    return nullptr;
  };
  Translator native(source, false);
  if (!native.run()) return syntax(native.error());
  auto impl = std::make_unique<Impl>();
  int err = 0;
  impl->pattern = native.out();
  impl->code = compile_pcre(impl->pattern, false, err);
  if (!impl->code && native.has_lookbehind()) {
    // A lookbehind PCRE2 cannot run backwards itself: every lookbehind through a callout.
    Translator t(source, true, &lookbehind_native);
    if (!t.run()) return syntax(t.error());
    impl->pattern = t.out();
    impl->code = compile_pcre(impl->pattern, true, err);
    for (size_t n = 0; impl->code && n < t.subpatterns().size(); ++n) {
      int e2 = 0;
      impl->subs.push_back(compile_pcre(t.subpatterns()[n], true, e2));
      if (!impl->subs.back()) {
        impl->code.reset();
        err = e2;
      }
    }
    impl->negative = t.sub_negative();
  }
  if (!impl->code) {
    // Not a JavaScript error: something this engine cannot express (docs/fuzzing.md).
    PCRE2_UCHAR16 buf[256];
    pcre2_get_error_message_16(err, buf, 256);
    std::u16string_view msg(reinterpret_cast<const char16_t*>(buf));
    return syntax("unsupported by the PCRE2 engine: " + to_utf8(msg));
  }
  return std::shared_ptr<const JsRegExp>(new JsRegExp(std::move(impl)));
}

std::shared_ptr<const JsRegExp> JsRegExp::compile_utf8(std::string_view source,
                                                       std::string* error) {
  return compile(utf16_units(source), error);
}

bool JsRegExp::test(std::u16string_view subject) const {
  return impl_->run(impl_->code.get(), reinterpret_cast<PCRE2_SPTR16>(subject.data()),
                    subject.size(), 0);
}

std::string JsRegExp::translated() const { return to_utf8(impl_->pattern); }

std::optional<bool> js_regexp_test(std::string_view pattern, std::string_view subject) {
  auto re = JsRegExp::compile_utf8(pattern);
  if (!re) return std::nullopt;
  return re->test_utf8(subject);
}

}  // namespace pinta::hosts::node
