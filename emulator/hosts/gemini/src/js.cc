// JavaScript semantics the host relies on, reproduced exactly: String.prototype.trim (ECMA-262
// WhiteSpace + LineTerminator), JSON.stringify (key order incl. array-index keys first, Number
// formatting), JSON.parse and Node's Buffer.toString('utf8') (WHATWG decoder, U+FFFD per maximal
// subpart). core hooks/hookRunner.js executeCommandHook uses all four (§4.1, §4.5).
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>

#include "pinta/emulator/gemini/gemini.h"

namespace pinta::emu::gemini {
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

void append_utf8(std::string& out, unsigned long cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
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

void quote_string(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
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
      append_utf8(out, static_cast<unsigned long>(cp));
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

std::string js_stringify(const ojson& v) {
  std::string out;
  stringify(out, v);
  return out;
}

std::optional<ojson> js_parse(std::string_view text) {
  // JSON.parse skips JSON whitespace only (tab, LF, CR, space) — same as nlohmann.
  ojson v = ojson::parse(text.begin(), text.end(), nullptr, false);
  if (v.is_discarded()) return std::nullopt;
  return v;
}

std::string now_iso8601() {
  auto now = std::chrono::system_clock::now();
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(ms % 1000));
  return buf;
}

}  // namespace pinta::emu::gemini
