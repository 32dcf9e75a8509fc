// JavaScript coercions the loader relies on, reproduced exactly: String(x) (ECMA-262 ToString,
// Array.prototype.join for arrays), Number(x) (ToNumber / StringToNumber incl. 0x, 0o, 0b,
// Infinity and JavaScript's whitespace set), and JSON.stringify's string escaping for WTF-8 text
// (a message cut inside a surrogate pair ends in a lone surrogate, which JSON.stringify writes as
// \udXXX). The trim and the number formatting are Node's (pinta/hosts/node/js.h, shared with
// Gemini CLI), which reproduce ECMA-262 exactly.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "pinta/hosts/deel/deel.h"
#include "pinta/hosts/node/js.h"

namespace pinta::hosts::deel {
namespace {

double string_to_number(const std::string& raw) {
  const std::string s = node::js_trim(raw);
  if (s.empty()) return 0;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (s.size() > 2 && s[0] == '0') {
    int base = 0;
    if (s[1] == 'x' || s[1] == 'X') base = 16;
    if (s[1] == 'o' || s[1] == 'O') base = 8;
    if (s[1] == 'b' || s[1] == 'B') base = 2;
    if (base) {
      double v = 0;
      for (size_t i = 2; i < s.size(); ++i) {
        int d = -1;
        char c = s[i];
        if (c >= '0' && c <= '9') d = c - '0';
        if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        if (d < 0 || d >= base) return nan;
        v = v * base + d;
      }
      return v;
    }
  }
  size_t i = 0;
  bool neg = false;
  if (s[i] == '+' || s[i] == '-') neg = s[i++] == '-';
  if (s.compare(i, std::string::npos, "Infinity") == 0)
    return neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  // StrUnsignedDecimalLiteral: digits [. digits] | . digits, then an optional exponent.
  size_t j = i, int_digits = 0, frac_digits = 0;
  while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j, ++int_digits;
  if (j < s.size() && s[j] == '.') {
    ++j;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j, ++frac_digits;
  }
  if (int_digits + frac_digits == 0) return nan;
  if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
    ++j;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    size_t e = 0;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j, ++e;
    if (!e) return nan;
  }
  if (j != s.size()) return nan;
  return std::strtod(s.c_str(), nullptr);  // glibc strtod rounds correctly, as JS does
}

}  // namespace

std::string js_number_text(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  return node::js_stringify(node::ojson(d));
}

std::string js_string(const ojson& v) {
  switch (v.type()) {
    case ojson::value_t::null:
      return "null";
    case ojson::value_t::boolean:
      return v.get<bool>() ? "true" : "false";
    case ojson::value_t::number_integer:
      return js_number_text(static_cast<double>(v.get<int64_t>()));
    case ojson::value_t::number_unsigned:
      return js_number_text(static_cast<double>(v.get<uint64_t>()));
    case ojson::value_t::number_float:
      return js_number_text(v.get<double>());
    case ojson::value_t::string:
      return v.get<std::string>();
    case ojson::value_t::array: {
      // Array.prototype.join(','): null and undefined elements become "".
      std::string out;
      bool first = true;
      for (const auto& e : v) {
        if (!first) out += ',';
        first = false;
        if (!e.is_null()) out += js_string(e);
      }
      return out;
    }
    default:
      return "[object Object]";
  }
}

double js_number_of(const ojson& v) {
  switch (v.type()) {
    case ojson::value_t::null:
      return 0;
    case ojson::value_t::boolean:
      return v.get<bool>() ? 1 : 0;
    case ojson::value_t::number_integer:
      return static_cast<double>(v.get<int64_t>());
    case ojson::value_t::number_unsigned:
      return static_cast<double>(v.get<uint64_t>());
    case ojson::value_t::number_float:
      return v.get<double>();
    case ojson::value_t::string:
      return string_to_number(v.get<std::string>());
    case ojson::value_t::array:  // ToPrimitive -> join(',')
      return string_to_number(js_string(v));
    default:
      return std::numeric_limits<double>::quiet_NaN();
  }
}

std::string json_quote_wtf8(const std::string& s) {
  // The one JSON.stringify string quoting of the emulators (lone surrogates as \udXXX).
  return node::js_quote(s);
}

}  // namespace pinta::hosts::deel
