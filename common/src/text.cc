#include "pinta/common/text.h"

namespace pinta::text {

std::string json_pointer_token(std::string_view key) {
  std::string o;
  o.reserve(key.size());
  for (char c : key) {
    if (c == '~')
      o += "~0";
    else if (c == '/')
      o += "~1";
    else
      o += c;
  }
  return o;
}

const char* markup_entity(char c, bool apostrophe) {
  switch (c) {
    case '<':
      return "&lt;";
    case '>':
      return "&gt;";
    case '&':
      return "&amp;";
    case '"':
      return "&quot;";
    case '\'':
      return apostrophe ? "&#39;" : nullptr;
    default:
      return nullptr;
  }
}

std::string markup_escape(std::string_view s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    if (const char* e = markup_entity(c))
      o += e;
    else
      o += c;
  }
  return o;
}

std::string github_escape_data(std::string_view s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    if (c == '%')
      o += "%25";
    else if (c == '\r')
      o += "%0D";
    else if (c == '\n')
      o += "%0A";
    else
      o += c;
  }
  return o;
}

std::string github_escape_property(std::string_view s) {
  std::string o;
  for (char c : github_escape_data(s)) {
    if (c == ':')
      o += "%3A";
    else if (c == ',')
      o += "%2C";
    else
      o += c;
  }
  return o;
}

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string trim(std::string_view s, std::string_view chars) {
  const size_t b = s.find_first_not_of(chars);
  if (b == std::string_view::npos) return std::string();
  return std::string(s.substr(b, s.find_last_not_of(chars) - b + 1));
}

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  if (from.empty()) return s;
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
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

}  // namespace pinta::text
