// Harness: env-file parser (pinta/adapter/config.h parse_env_file).
// Properties, for any file content:
//  1. total: every line is either an entry or a bad line, never both, and bad line numbers are
//     increasing and within the file;
//  2. keys are valid shell names ([A-Za-z_][A-Za-z0-9_]*);
//  3. round trip: render(entries) (one KEY="escaped" line each, written here, independently of the
//     parser) parses back to exactly the same entries with no bad line, so
//     parse(render(parse(x))) == parse(x);
//  4. deterministic.
#include <string>

#include "fuzz_support.h"
#include "pinta/adapter/config.h"

namespace {

std::string render(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out;
  for (const auto& [k, v] : entries) {
    out += k;
    out += "=\"";
    for (char c : v) {
      switch (c) {
        case '\n':
          out += "\\n";
          break;
        case '\t':
          out += "\\t";
          break;
        case '\r':
          out += "\\r";
          break;
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '$':
          out += "\\$";
          break;
        default:
          out += c;
      }
    }
    out += "\"\n";
  }
  return out;
}

bool shell_name(const std::string& k) {
  if (k.empty()) return false;
  for (size_t i = 0; i < k.size(); ++i) {
    const char c = k[i];
    const bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto first = pinta::adapter::parse_env_file(text);
  size_t lines = 0;
  for (char c : text) lines += c == '\n';
  if (!text.empty() && text.back() != '\n') ++lines;
  FUZZ_CHECK(first.entries.size() + first.bad_lines.size() <= lines, "more results than lines");
  for (size_t i = 0; i < first.bad_lines.size(); ++i) {
    FUZZ_CHECK(first.bad_lines[i] >= 1 && first.bad_lines[i] <= lines, "bad line out of range");
    if (i > 0) FUZZ_CHECK(first.bad_lines[i] > first.bad_lines[i - 1], "bad lines not increasing");
  }
  for (const auto& [k, v] : first.entries) FUZZ_CHECK(shell_name(k), "invalid key accepted: " + k);

  const std::string rendered = render(first.entries);
  const auto second = pinta::adapter::parse_env_file(rendered);
  FUZZ_CHECK(second.bad_lines.empty(), "rendered file has a bad line: " + rendered);
  FUZZ_CHECK(second.entries == first.entries, "round trip changed the entries: " + rendered);

  const auto again = pinta::adapter::parse_env_file(text);
  FUZZ_CHECK(again.entries == first.entries && again.bad_lines == first.bad_lines,
             "not deterministic");
  return 0;
}
