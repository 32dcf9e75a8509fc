// Harness: redactor (pinta/adapter/redact.h).
// Properties, for any text and any truncation limit:
//  1. a planted secret (chosen by the input from a fixed set, placed between separators inside
//     arbitrary fuzzed text) never survives redact_string, and redact_json masks it in any string
//     value below a non-identifier key;
//  2. idempotent: redact(redact(x)) == redact(x);
//  3. never longer than max(limit, input) and valid UTF-8 stays valid UTF-8;
//  4. redact_json keeps the document's shape (same keys, same types); an identifier key's value is
//     redacted as a string, never masked for its name.
// Input layout: secret byte, separator byte, limit byte, then "prefix\0suffix" text.
#include <array>
#include <string>

#include "fuzz_support.h"
#include "pinta/adapter/redact.h"

namespace {

const std::array<std::string, 12> kSecrets = {
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hI6",
    "gho_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hI6",
    "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
    "glpat-9aB3cD4eF5gH6iJ7kL8m",
    "xoxb-2048123456-1234567890123-AbCdEf",
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW",
    "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
    "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk",
    "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"};
constexpr std::array<char, 7> kLeft = {' ', '\n', '\t', '"', '\'', '(', ','};
constexpr std::array<char, 7> kRight = {' ', '\n', '\t', '"', '\'', ')', ','};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pinta::adapter;
  pinta::fuzz::Bytes in(data, size);
  const std::string& secret = kSecrets[in.byte() % kSecrets.size()];
  const uint8_t sep = in.byte();
  const uint8_t lim = in.byte();
  const size_t limit = lim < 128 ? kMaxStringBytes : 24 + lim * 4;
  const std::string text = in.rest();
  const size_t nul = text.find('\0');
  const std::string prefix = text.substr(0, nul);
  const std::string suffix = nul == std::string::npos ? std::string() : text.substr(nul + 1);

  // 2, 3 on the raw fuzzed text.
  const std::string once = redact_string(text, limit);
  FUZZ_CHECK(redact_string(once, limit) == once, "not idempotent on: " + text);
  FUZZ_CHECK(once.size() <= std::max(limit, text.size()), "output grew past the limit");
  if (valid_utf8(text)) FUZZ_CHECK(valid_utf8(once), "valid UTF-8 became invalid");

  // 1. Planted secret (no truncation, so only redaction can remove it). Fuzzed text that already
  // holds the secret glued to other word characters is skipped: patterns anchor at token
  // boundaries by design, so that copy is not a planted one (finding 1 of docs/fuzzing.md).
  if (text.find(secret) != std::string::npos) return 0;
  const std::string planted =
      prefix + kLeft[sep % kLeft.size()] + secret + kRight[(sep >> 4) % kRight.size()] + suffix;
  const std::string masked = redact_string(planted, 0);
  FUZZ_CHECK(masked.find(secret) == std::string::npos, "secret survived: " + masked);
  FUZZ_CHECK(redact_string(masked, 0) == masked, "not idempotent after planting");

  // 1, 4 through JSON (only valid UTF-8 can be a JSON string that nlohmann dumps).
  if (valid_utf8(planted)) {
    nlohmann::json doc = {{"session_id", prefix},
                          {"tool_input", {{"command", planted}, {"n", 1}}},
                          {"list", {planted, true}}};
    static constexpr std::array<std::string_view, 1> kIds = {"session_id"};
    RedactOptions ids;
    ids.skip_top_level_keys = kIds;
    nlohmann::json red = redact_json(doc, ids);
    FUZZ_CHECK(red["session_id"] == redact_string(prefix), "identifier value not redacted as a string");
    FUZZ_CHECK(red.size() == doc.size() && red["tool_input"].size() == 2 && red["list"].size() == 2,
               "shape changed");
    FUZZ_CHECK(red["tool_input"]["n"] == 1 && red["list"][1] == true, "non-string value changed");
    const std::string dumped = red["tool_input"].dump() + red["list"].dump();
    FUZZ_CHECK(dumped.find(secret) == std::string::npos, "secret survived redact_json");
    FUZZ_CHECK(redact_json(red, ids) == red, "redact_json not idempotent");
    // A secret used as an object key is redacted like a value (it reached invocations.jsonl raw).
    const nlohmann::json keyed = {{"tool_response", {{planted, 1}, {"k", {{planted, "v"}}}}}};
    FUZZ_CHECK(redact_json(keyed).dump().find(secret) == std::string::npos,
               "secret used as a key survived redact_json");
  }
  return 0;
}
