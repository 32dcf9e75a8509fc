#include "pinta/adapter/redact.h"

#include "generic.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <bitset>
#include <mutex>
#include <optional>
#include <span>
#include <tuple>
#include <cctype>
#include <cstring>
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace pinta::adapter {
namespace {

using re2::RE2;

constexpr std::string_view kEllipsisText = "\xE2\x80\xA6";  // …

// One high-confidence pattern. The span of capture `group` (0: the whole match) becomes the
// marker. `any_of` are literals one of which must occur for a match to be possible (the cheap
// prefilter; `ci`: compared ignoring ASCII case). `accept` rejects look-alikes the regex cannot.
struct Rule {
  const char* type;
  const char* pattern;
  int group;
  std::array<const char*, 16> any_of;
  bool ci = false;
  bool (*accept)(std::string_view) = nullptr;
  std::string_view (*type_of)(const re2::StringPiece* groups) = nullptr;
  // Like accept, with every capture group (the name of an assignment as well as its value).
  bool (*accept_match)(const re2::StringPiece* groups) = nullptr;
  // One of these characters must also occur for a match to be possible (nullptr: no such
  // condition). The secret-name rules need an `=` or `:`: a bare key name such as `session_id`
  // (every span redacts its attribute keys) then costs no compile of their large patterns
  // (2.75 M instructions, +1.5 ms per telemetry event; docs/benchmarks-history.md 2026-12-05).
  const char* needs_one_of = nullptr;
  // A cheap scan of the whole text that is true wherever the pattern can match (a necessary
  // condition, never a substitute for the regex), run once the literal occurs; nullptr: none.
  // For rules whose literal is in almost every span (`:`), it spares the compile of their pattern.
  bool (*may_match)(std::string_view text) = nullptr;
};

bool has_digit(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](unsigned char c) { return c >= '0' && c <= '9'; });
}
bool has_alpha(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](unsigned char c) { return std::isalpha(c) != 0; });
}
bool has_digit_and_letter(std::string_view s) {
  if (s.substr(0, 3) == "sk-") s.remove_prefix(3);
  return has_digit(s) && has_alpha(s);
}
bool has_upper_and_lower(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](unsigned char c) { return c >= 'A' && c <= 'Z'; }) &&
         std::any_of(s.begin(), s.end(), [](unsigned char c) { return c >= 'a' && c <= 'z'; });
}
// A 40-character AWS secret access key: base64 alphabet, mixed case, and a digit or '/' or '+'
// (an ordinary 40-letter word or a hex SHA-1 is not one).
bool aws_secret_shape(std::string_view s) {
  return has_upper_and_lower(s) &&
         (has_digit(s) || s.find_first_of("/+") != std::string_view::npos);
}

// Shannon entropy in bits per byte.
double entropy(std::string_view s) {
  std::array<int, 256> count{};
  for (unsigned char c : s) ++count[c];
  double h = 0;
  for (int c : count) {
    if (c == 0) continue;
    const double p = static_cast<double>(c) / static_cast<double>(s.size());
    h -= p * std::log2(p);
  }
  return h;
}
// A random-looking token: letters and digits mixed, and at least 3.5 bits of entropy per byte
// (English words, identifiers and hex-free prose stay below it).
bool high_entropy(std::string_view s) {
  return s.size() >= 16 && has_digit(s) && has_alpha(s) && entropy(s) >= 3.5;
}

std::string_view unquote(std::string_view v) {
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) {
    v.remove_prefix(1);
    v.remove_suffix(1);
  }
  return v;
}

bool equal_ci_words(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
  }
  return true;
}

}  // namespace

bool is_placeholder_value(std::string_view raw) {
  const std::string_view v = unquote(raw);
  if (v.empty()) return true;
  for (std::string_view word : {"none", "null", "nil", "true", "false", "undefined", "empty",
                                "required", "optional", "string", "str", "redacted"}) {
    if (equal_ci_words(v, word)) return true;
  }
  // Our own markers, references ($VAR, ${VAR}, %VAR%, {{ x }}, <your-token>), masks (****).
  if (v.front() == '[' || v.front() == '$' || v.front() == '%' || v.front() == '<' ||
      v.substr(0, 2) == "{{" || v.substr(0, 3) == kEllipsisText) {
    return true;
  }
  if (v.find_first_not_of(std::string_view(v.data(), 1)) == std::string_view::npos &&
      (v.front() == '*' || v.front() == 'x' || v.front() == 'X' || v.front() == '.')) {
    return true;
  }
  // Code, not a value: a dotted identifier path (self.token, process.env.API_KEY, config.secret)
  // or a call (get_token(, os.getenv().
  std::size_t i = 0;
  const auto ident_start = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  const auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  if (!ident_start(v[0])) return false;
  std::size_t dots = 0;
  const bool digits = has_digit(v);
  while (i < v.size()) {
    if (!ident_start(v[i])) return false;
    while (i < v.size() && ident(v[i])) ++i;
    if (i == v.size()) return dots > 0 && !digits;
    if (v[i] == '(' || (v[i] == '[' && dots > 0)) return true;  // f(  a.b[
    if (v[i] != '.') return false;
    ++dots;
    ++i;
  }
  return false;
}

namespace {

// The name's letters and digits, lowercased and run together (at most 64, the last ones), and for
// each of them whether a segment starts there: after a separator, at a lower→Upper camelCase hump,
// or at the last capital of an acronym followed by lowercase (APIKey → API Key).
struct NameSegments {
  char text[64];
  bool starts[64];
  std::size_t n = 0;
};

NameSegments segment_name(std::string_view key) {
  NameSegments out;
  // Only the tail matters (every rule looks at how the name ends): keep the last 64 characters.
  if (key.size() > 256) key = key.substr(key.size() - 256);
  char prev = 0;  // previous alphanumeric character of the raw name, 0 after a separator
  for (std::size_t i = 0; i < key.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(key[i]);
    if (!std::isalnum(c)) {
      prev = 0;
      continue;
    }
    const unsigned char next = i + 1 < key.size() ? static_cast<unsigned char>(key[i + 1]) : 0;
    bool start = prev == 0;
    if (!start && std::isupper(c) && (std::islower(static_cast<unsigned char>(prev)) ||
                                      (std::isupper(static_cast<unsigned char>(prev)) && std::islower(next)))) {
      start = true;
    }
    if (out.n == sizeof out.text) {  // drop the oldest character
      std::memmove(out.text, out.text + 1, out.n - 1);
      std::memmove(out.starts, out.starts + 1, out.n - 1);
      --out.n;
    }
    out.text[out.n] = static_cast<char>(std::tolower(c));
    out.starts[out.n] = start;
    ++out.n;
    prev = static_cast<char>(c);
  }
  return out;
}

bool ends_with(std::string_view s, std::string_view w) {
  return s.size() >= w.size() && s.substr(s.size() - w.size()) == w;
}

// The kSecretNameWords entry the name ends in at a segment boundary, or empty.
std::string_view secret_word_of(const NameSegments& seg) {
  const std::string_view name(seg.text, seg.n);
  for (std::string_view word : kSecretNameWords) {
    if (ends_with(name, word) && seg.starts[name.size() - word.size()]) return word;
  }
  return {};
}

bool path_like(std::string_view v) {
  v = unquote(v);
  return !v.empty() && (v.front() == '/' || v.front() == '~' || v.substr(0, 2) == "./" ||
                        (v.size() > 2 && std::isalpha(static_cast<unsigned char>(v[0])) &&
                         v[1] == ':' && (v[2] == '\\' || v[2] == '/')));
}

}  // namespace

namespace {

bool secret_tail(const NameSegments& seg) {
  const std::string_view name(seg.text, seg.n);
  for (std::string_view word : kSecretNameSuffixes) {
    if (ends_with(name, word)) return true;
  }
  return !secret_word_of(seg).empty();
}

// Sets one trailing qualifier aside (kSecretNameQualifiers, digits, a plural s); false when the
// name ends in none.
bool drop_qualifier(NameSegments& seg) {
  std::size_t n = seg.n;
  while (n > 0 && seg.text[n - 1] >= '0' && seg.text[n - 1] <= '9') --n;
  if (n < seg.n && n > 0) {
    seg.n = n;
    return true;
  }
  std::size_t last = seg.n;
  while (last > 0 && !seg.starts[last - 1]) --last;
  if (last > 1) {
    const std::string_view tail(seg.text + last - 1, seg.n - last + 1);
    for (std::string_view q : kSecretNameQualifiers) {
      if (tail == q) {
        seg.n = last - 1;
        return true;
      }
    }
  }
  const std::string_view name(seg.text, seg.n);
  for (std::string_view plural : {"keys", "passwords", "passphrases", "passcodes"}) {
    if (ends_with(name, plural)) {
      --seg.n;
      return true;
    }
  }
  return false;
}

}  // namespace

bool is_secret_name(std::string_view key) {
  NameSegments seg = segment_name(key);
  // A qualifier that is a whole property after a dot belongs to code (token.prev, secret.next):
  // only `value` is set aside there (client_secret.value); config.api_keys is still a name.
  const std::size_t dot = key.rfind('.');
  bool dotted_tail = false;
  if (dot != std::string_view::npos) {
    std::string tail(key.substr(dot + 1));
    for (char& c : tail) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (std::string_view q : kSecretNameQualifiers) dotted_tail = dotted_tail || (tail == q && q != "value" && q != "val");
  }
  for (int strip = 0; strip <= 3; ++strip) {
    if (seg.n == 0) return false;
    if (secret_tail(seg)) return true;
    if (strip == 3 || (dotted_tail && strip == 0) || !drop_qualifier(seg)) return false;
  }
  return false;
}

bool is_secret_value(std::string_view key, std::string_view value) {
  if (is_placeholder_value(value)) return false;
  // `Basic [REDACTED:bearer]`: a scheme word and one of our markers, already redacted.
  if (const std::string_view v = unquote(value); v.size() > 12 && v.back() == ']') {
    const std::size_t sp = v.find(' ');
    if (sp != std::string_view::npos && sp > 0 && v.substr(sp + 1, 10) == "[REDACTED:" &&
        v.find_first_of(" ]", sp + 1) == v.size() - 1) {
      return false;
    }
  }
  // PWD / pwd is also the shell's working directory: a path under it is no password.
  const NameSegments seg = segment_name(key);
  const std::string_view name(seg.text, seg.n);
  if (secret_word_of(seg) == "pwd" && path_like(value)) {
    bool strong = false;
    for (std::string_view word : kSecretNameSuffixes) strong = strong || ends_with(name, word);
    if (!strong) return false;
  }
  return true;
}

namespace {

std::string_view url_type(const re2::StringPiece* groups) {
  std::string scheme(groups[1].data(), groups[1].size());
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* db : {"postgres", "mysql", "mariadb", "mongodb", "redis", "amqp", "mssql",
                         "sqlserver", "oracle", "cockroach", "clickhouse", "rediss", "jdbc"}) {
    if (scheme.find(db) != std::string::npos) return "connection_string";
  }
  return "url_credentials";
}

// `name: value` (YAML, JSON, headers, prose) is weaker evidence than `name=value`: an unquoted
// value must also look like a secret (a digit or a symbol), so `token: Optional[str]` and
// `secret: see below` pass.
bool colon_value(std::string_view v) {
  if (is_placeholder_value(v)) return false;
  if (v.front() == '"' || v.front() == '\'') return true;
  return has_digit(v) || v.find_first_of("!#%&*+/=?@^_~-") != std::string_view::npos;
}

std::string_view piece(const re2::StringPiece& p) { return {p.data(), p.size()}; }

// NAME=value / name: value, groups (name, value): the whole name is secret and the value is one.
bool named_assignment(const re2::StringPiece* g) {
  return is_secret_name(piece(g[1])) && is_secret_value(piece(g[1]), piece(g[2]));
}
bool named_colon(const re2::StringPiece* g) {
  return named_assignment(g) && colon_value(piece(g[2]));
}
// --flag value / --flag=value, groups (flag name, value). `--key` alone names a key too, but
// `sort --key=2,2` does not: its value must be 8 characters or more. `--no-password` is a switch.
bool secret_flag(const re2::StringPiece* g) {
  const std::string_view name = piece(g[1]);
  const std::string_view value = unquote(piece(g[2]));
  if (name.size() > 3 && equal_ci_words(name.substr(0, 3), "no-")) return false;
  if (equal_ci_words(name, "key")) return value.size() >= 8 && !is_placeholder_value(value);
  return is_secret_name(name) && is_secret_value(name, value);
}
// --flag value (space form): prose says "use --token to pass …", so an unquoted value must also
// look like a credential: a digit, a capital or a symbol, or 8 characters or more.
bool secret_flag_spaced(const re2::StringPiece* g) {
  const std::string_view v = piece(g[2]);
  const bool quoted = !v.empty() && (v.front() == '"' || v.front() == '\'');
  const bool shaped = v.size() >= 8 || has_digit(v) ||
                      std::any_of(v.begin(), v.end(), [](unsigned char c) { return !std::islower(c); });
  return (quoted || shaped) && secret_flag(g);
}
// Authorization: <value>, group 1: the value after an optional scheme word (Bearer, Basic, SSWS,
// token, …) is neither a placeholder nor one of our markers, and looks like a credential (a digit
// or a symbol), so `Authorization: Bearer $TOKEN` and prose pass.
bool authorization_value(std::string_view v) {
  v = unquote(v);
  const std::size_t sp = v.find_first_of(" \t");
  if (sp != std::string_view::npos) {
    v.remove_prefix(sp);
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  }
  if (v.size() < 6 || is_placeholder_value(v)) return false;
  return has_digit(v) || v.find_first_of("+/=_-.~") != std::string_view::npos;
}
// A whole multi-word value (cookie header, seed phrase) that is not a placeholder.
bool whole_value(std::string_view v) { return unquote(v).size() >= 4 && !is_placeholder_value(v); }
// A CLI's password argument: anything but a placeholder (`-p ''`, `-a $REDIS_PASS`, `*`).
bool cli_value(std::string_view v) { return unquote(v).size() >= 1 && !is_placeholder_value(v); }
// <name>value</name> and the like, groups (name, value): a secret name and a value with text.
bool named_text(const re2::StringPiece* g) {
  const std::string_view v = piece(g[2]);
  if (v.find_first_not_of(" \t\r\n") == std::string_view::npos) return false;
  std::string_view trimmed = v.substr(v.find_first_not_of(" \t\r\n"));
  trimmed = trimmed.substr(0, trimmed.find_last_not_of(" \t\r\n") + 1);
  return is_secret_name(piece(g[1])) && is_secret_value(piece(g[1]), trimmed);
}
// URL query and fragment parameters that carry a credential whatever their vendor (OAuth `code`
// and `access_token`, Azure SAS `sig` and Functions `code`, AWS/GCS presigned `X-Amz-Signature` /
// `X-Goog-Signature`, `key`, `token`, `ticket`, `jwt`), or any secret name (is_secret_name).
// The short, generic names need a value that looks like a credential: 8+ characters with a
// digit or both letter cases (`?code=200`, `?key=name` stay).
bool query_credential(const re2::StringPiece* g) {
  std::string name(piece(g[1]));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string_view v = piece(g[2]);
  if (is_placeholder_value(v)) return false;
  static constexpr std::array<std::string_view, 14> kWeak = {
      "code", "sig", "signature", "key", "k", "st", "sk", "sid", "session", "hmac", "ticket",
      "sas", "jwt", "x-amz-signature"};
  bool weak = false;
  for (std::string_view w : kWeak) weak = weak || name == w || ends_with(name, std::string("-") + std::string(w));
  if (weak || name == "x-goog-signature") {
    return v.size() >= 8 && (has_digit(v) || has_upper_and_lower(v) || v.find('%') != std::string_view::npos);
  }
  return is_secret_name(name) && is_secret_value(name, v);
}
// Whether the text has `?name=`, `&name=` or `#name=` (name: 1-64 characters of the rule's
// class): the query rule needs it, and `&&`, `a & b` in shell and code do not have it.
bool query_chain(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '?' && s[i] != '&' && s[i] != '#') continue;
    std::size_t j = i + 1;
    while (j < s.size() && j - i <= 64 &&
           (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_' || s[j] == '.' || s[j] == '-' ||
            s[j] == '[' || s[j] == ']'))
      ++j;
    if (j > i + 1 && j - i <= 65 && j < s.size() && s[j] == '=') return true;
  }
  return false;
}
// Whether some `open` bracket follows a secret name and its `:` (or `=`, when `equals`), as the
// list and nested-object rules need (`"api_keys": [`, `client_secret: {`): JSON text has brackets
// everywhere, and a secret-sounding word somewhere in it, so without this their patterns would be
// compiled for nearly every span. The name is the whole run of [A-Za-z0-9_.-] before the
// separator, which is where the rules' name starts (their leftmost match).
bool secret_opening(std::string_view s, char open, bool equals) {
  for (std::size_t at = s.find(open); at != std::string_view::npos; at = s.find(open, at + 1)) {
    // What follows: a quoted string for a list, a quote or a member name for an object (so our
    // own `name: [REDACTED:…]` is no opening).
    std::size_t j = at + 1;
    while (j < s.size() && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '\n')) ++j;
    if (j == s.size() || !(s[j] == '"' || s[j] == '\'' || (open == '{' && std::isalpha(static_cast<unsigned char>(s[j])))))
      continue;
    std::size_t i = at;
    while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t')) --i;
    if (i == 0 || !(s[i - 1] == ':' || (equals && s[i - 1] == '='))) continue;
    --i;
    while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t')) --i;
    if (i > 0 && (s[i - 1] == '"' || s[i - 1] == '\'')) --i;
    const std::size_t end = i;
    while (i > 0 && end - i < 256 &&
           (std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_' || s[i - 1] == '.' ||
            s[i - 1] == '-'))
      --i;
    // The patterns' name needs one of their words (PINTA_NAME_LITERALS); whether the whole name is
    // secret is for their accept, so this stays a necessary condition of the regex alone.
    std::string name(s.substr(i, end - i));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (std::string_view w : {"pass", "pw", "secret", "token", "key", "cred", "auth", "cookie", "dsn", "otp",
                               "mnemonic", "phrase", "session", "database", "connection", "connstr"}) {
      if (name.find(w) != std::string::npos) return true;
    }
  }
  return false;
}
// The may_match scans of the rules below whose literals are common words (`key`, `token`,
// `pass`): on ordinary text (source code, logs) the literal occurs but the rule cannot match, and
// compiling their patterns was most of a telemetry event with a 2 KB tool response (~1.3 M of
// 2.5 M instructions: the NAME=value rule alone ~0.25 ms; ci/bench.sh, independent collector).
// Each is a necessary condition of its regex alone (accept predicates aside), and linear.
bool ascii_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool name_char(char c) { return ascii_alnum(c) || c == '_' || c == '.' || c == '-'; }
// Whether `hay` holds one of `words` (lowercase ASCII), ignoring ASCII case; no allocation.
bool contains_ci(std::string_view hay, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words) {
    if (w.size() > hay.size()) continue;
    for (std::size_t i = 0; i + w.size() <= hay.size(); ++i) {
      std::size_t k = 0;
      while (k < w.size() && (hay[i + k] | 0x20) == w[k]) ++k;
      if (k == w.size()) return true;
    }
  }
  return false;
}
// NAME=value (also `:=`, `=>`) and name: value: before some `op` come [ \t]*, an optional quote
// and a name holding one of the secret words (PINTA_NAME_LITERALS). The name is the run of
// [A-Za-z0-9_.-] there, with the run before it when one space joins them (`seed phrase`,
// `session id`).
bool secret_name_before(std::string_view s, char op) {
  for (std::size_t at = s.find(op); at != std::string_view::npos; at = s.find(op, at + 1)) {
    std::size_t i = at;
    if (op == '=' && i > 0 && s[i - 1] == ':') --i;
    while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t')) --i;
    if (i > 0 && (s[i - 1] == '"' || s[i - 1] == '\'')) --i;
    const std::size_t end = i;
    while (i > 0 && name_char(s[i - 1])) --i;
    if (i == end) continue;
    // The one space a name may hold is inside seed/recovery phrase, session id, database url,
    // connection string: the run after it starts with the second word.
    if (i > 1 && s[i - 1] == ' ' && name_char(s[i - 2])) {
      std::string head(s.substr(i, std::min<std::size_t>(end - i, 6)));
      for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (head.starts_with("phrase") || head.starts_with("id") || head.starts_with("url") ||
          head.starts_with("string")) {
        --i;
        while (i > 0 && name_char(s[i - 1])) --i;
      }
    }
    if (contains_ci(s.substr(i, end - i), {"pass", "pw", "secret", "token", "key", "cred", "auth", "cookie", "dsn",
                                           "otp", "mnemonic", "phrase", "session", "database", "connection",
                                           "connstr"}))
      return true;
  }
  return false;
}
bool secret_assignment_chain(std::string_view s) { return secret_name_before(s, '='); }
bool secret_colon_chain(std::string_view s) { return secret_name_before(s, ':'); }
// --flag: a run of [A-Za-z0-9_-] holding `--`, then one of the flag words (PINTA_FLAG_LITERALS).
bool secret_flag_chain(std::string_view s) {
  std::size_t i = s.find("--");
  if (i == std::string_view::npos) return false;
  while (i > 0 && (ascii_alnum(s[i - 1]) || s[i - 1] == '_' || s[i - 1] == '-')) --i;
  while (i < s.size()) {
    auto flag_char = [&](std::size_t k) { return ascii_alnum(s[k]) || s[k] == '_' || s[k] == '-'; };
    if (!flag_char(i)) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < s.size() && flag_char(j)) ++j;
    const std::size_t dashes = s.substr(i, j - i).find("--");
    if (dashes != std::string_view::npos &&
        contains_ci(s.substr(i + dashes + 2, j - i - dashes - 2),
                    {"pass", "pwd", "secret", "token", "key", "credential", "auth", "cookie", "dsn", "otp"}))
      return true;
    i = j;
  }
  return false;
}
// A value after a secret word in prose: whitespace, an optional quote, then 16+ characters of
// [A-Za-z0-9_+/=.~-].
bool spaced_long_token(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\f' && c != '\r') continue;
    std::size_t j = i + 1;
    if (j < s.size() && (s[j] == '"' || s[j] == '\'')) ++j;
    const std::size_t from = j;
    while (j < s.size() && (ascii_alnum(s[j]) || s[j] == '_' || s[j] == '+' || s[j] == '/' || s[j] == '=' ||
                            s[j] == '.' || s[j] == '~' || s[j] == '-'))
      ++j;
    if (j - from >= 16) return true;
    if (j > i + 1) i = j - 1;
  }
  return false;
}
// <name>value</: a closing tag.
bool closing_tag(std::string_view s) { return s.find("</") != std::string_view::npos; }
bool secret_list_opening(std::string_view s) { return secret_opening(s, '[', true); }
bool secret_object_opening(std::string_view s) { return secret_opening(s, '{', false); }
// A URL's user part with no password (`https://<token>@host`): a token, not a user name.
bool url_token(std::string_view v) {
  if (is_placeholder_value(v)) return false;
  if (v.size() >= 16 && has_digit(v) && has_alpha(v)) return true;
  return generic::classify(v) != generic::Shape::kNone;
}

// A base64 text that decodes to a PEM private key (kubeconfig client-key-data, k8s Secrets).
bool base64_private_key(std::string_view s) {
  static constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string decoded;
  std::uint32_t acc = 0;
  int bits = 0;
  for (std::size_t i = 0; i < s.size() && i < 96; ++i) {
    const std::size_t v = kAlphabet.find(s[i]);
    if (v == std::string_view::npos) break;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      decoded += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  const std::size_t nl = decoded.find('\n');
  return decoded.find("PRIVATE KEY") < nl;
}
// RE2's \s: [\t\n\f\r ] (re2/syntax.txt), exactly: a wider set here could reject a real match.
bool re2_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }
// Whether the text holds the pgpass rule's colon chain `:PORT:DB:USER:P` (PORT digits or `*`, DB and
// USER runs of [^:\s"'/] ended by `:`, then one character of [^\s"']): the rule's regex needs it,
// and a span's timestamps and JSON (`"a":1,"b":2`, `10:10:11`) do not have it. Linear: from each
// colon the scan stops at the fourth colon after it or earlier.
bool pgpass_chain(std::string_view s) {
  const std::size_t n = s.size();
  auto field = [&](std::size_t j) {  // end of a run of [^:\s"'/] starting at j
    while (j < n && s[j] != ':' && s[j] != '"' && s[j] != '\'' && s[j] != '/' && !re2_space(s[j])) ++j;
    return j;
  };
  for (std::size_t i = s.find(':'); i != std::string_view::npos; i = s.find(':', i + 1)) {
    std::size_t j = i + 1;
    if (j < n && s[j] == '*') {
      ++j;
    } else {
      const std::size_t d = j;
      while (j < n && s[j] >= '0' && s[j] <= '9') ++j;
      if (j == d) continue;
    }
    bool chain = j < n && s[j] == ':';
    for (int f = 0; chain && f < 2; ++f) {  // database, user
      const std::size_t e = field(j + 1);
      chain = e > j + 1 && e < n && s[e] == ':';
      j = e;
    }
    if (chain && j + 1 < n && s[j + 1] != '"' && s[j + 1] != '\'' && !re2_space(s[j + 1])) return true;
  }
  return false;
}

// A .pgpass line host:port:database:user:password, groups (host, port, db, user, password): the
// port is a number or `*`, and the host is a host name (no path, not a time of day).
bool pgpass_line(const re2::StringPiece* g) {
  const std::string_view port = piece(g[2]);
  const std::string_view host = piece(g[1]);
  const bool host_name = host == "*" || host.find('.') != std::string_view::npos || has_alpha(host);
  return host_name &&
         (port == "*" || (port.size() >= 2 && port.find_first_not_of("0123456789") == std::string_view::npos)) &&
         !is_placeholder_value(piece(g[5]));
}

// A value that starts a secret: not a marker we wrote (`[`), not our truncation mark (`…`), not a
// shell reference (`$`).
#define PINTA_VALUE R"(("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$][^\s"']*))"
// An assigned value: quoted, or a run up to whitespace or a shell separator, without the trailing
// punctuation that closes the surrounding code (`f(token=None)`, `{secret=x}`, `a=b, c=d`).
#define PINTA_ENV_VALUE \
  R"(("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$;&|,)\]}>][^\s"';&|]*?)[,.)\]}>:/]*(?:[\s"';&|]|\z))"
// The name part of a secret-named assignment, captured: anything that ends in one of the secret
// words (kSecretNameSuffixes and kSecretNameWords, as a pattern; `pass` also stands for passw…,
// `key` for every *key). The pattern only finds candidates: is_secret_name() decides on the whole
// name (so `bypass=`, `author:`, `sort_key=` are found and let go).
#define PINTA_SECRET_NAME                                                                      \
  R"((?i)\b([A-Za-z0-9_.-]*?(?:pass(?:word|wd|phrase|code)?|pwd?|secret|token|key|key[_.-]?id|)" \
  R"(key[_.-]?data|cred(?:entials?|s)?|authorization|auth|cookie|dsn|otp|mnemonic|)"              \
  R"((?:seed|recovery)[ _.-]?phrase|session[ _.-]?id|database[ _.-]?url|connection[ _.-]?string|connstr))" \
  R"([A-Za-z0-9_.-]*))"
// A --flag name that may name a secret; secret_flag() decides.
#define PINTA_FLAG_NAME \
  R"(([A-Za-z0-9_-]*?(?:pass(?:word|wd|phrase|code)?|pwd|secret|token|key|credentials?|auth|cookie|dsn|otp)))"
#define PINTA_FLAG_LITERALS {"pass", "pwd", "secret", "token", "key", "credential", "auth", "cookie", "dsn", "otp"}
#define PINTA_NAME_LITERALS                                                                     \
  {"pass", "pw", "secret", "token", "key", "cred", "auth", "cookie", "dsn", "otp",               \
   "mnemonic", "phrase", "session", "database", "connection", "connstr"}

// The rules, in order. Order matters: specific formats first, so `GITHUB_TOKEN=ghp_…` is reported
// as github_token and the generic rules then see only the marker (which no value class accepts).
// Every rule must be safe to resume after its whole match (apply() never rescans a rejected
// match): an `accept` predicate that fails on a match fails on every later match inside it.
// docs/contract.md (REDACT-4) lists the formats; fixtures in adapter/test/planted_secrets.h.
constexpr Rule kRules[] = {
    {"private_key",
     R"(-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z))",
     0, {"PRIVATE KEY"}},
    // PuTTY .ppk: the key lines (public too: random-looking base64) and the MAC; the header stays.
    {"private_key",
     R"((?s)(?:Public-Lines:[ \t]*[0-9]+.*?)?Private-Lines:[ \t]*[0-9]+.*?(?:Private-(?:MAC|Hash):[ \t]*[0-9A-Fa-f]*|\z))", 0,
     {"Private-Lines"}},
    // A PEM private key, base64-encoded once more (kubeconfig client-key-data, k8s Secret data).
    {"private_key", R"(\bLS0tLS1CRUdJT[A-Za-z0-9+/]{16,}={0,2})", 0, {"LS0tLS1CRUdJT"}, false,
     base64_private_key},
    // crypt(3) password hashes: bcrypt $2a$/$2b$/$2y$, MD5 $1$ and Apache $apr1$, SHA-256 $5$,
    // SHA-512 $6$, yescrypt $y$ / $gy$, scrypt $7$, Argon2 (/etc/shadow, htpasswd, user tables).
    {"password_hash",
     R"(\$(?:2[abxy]?\$[0-9]{2}\$[./A-Za-z0-9]{53}|(?:1|apr1)\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{22}|)"
     R"([56]\$(?:rounds=[0-9]+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{43,86}|)"
     R"(g?y\$[./A-Za-z0-9]+\$[./A-Za-z0-9]*\$[./A-Za-z0-9]{43}|7\$[./A-Za-z0-9]{14,}\$[./A-Za-z0-9]{43}|)"
     R"(argon2(?:id|i|d)\$v=[0-9]+\$[a-z0-9=,]+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]{16,}))",
     0, {"$1$", "$2", "$5$", "$6$", "$y$", "$gy$", "$7$", "$apr1$", "$argon2"}},
    {"jwt", R"(\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)", 0, {"eyJ"}},
    {"slack_webhook",
     R"(https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{8,})", 0,
     {"hooks.slack.com"}},
    {"discord_webhook",
     R"(discord(?:app)?\.com/api/webhooks/[0-9]+/([A-Za-z0-9_-]{20,}))", 1, {"discord"}},
    {nullptr, R"(([A-Za-z][A-Za-z0-9+.-]*)://([^\s/?#@\[\]:"'<>]*:[^\s/?#"'<>]+)@)", 2, {"://"},
     false, nullptr, url_type},
    // A token as the whole user part (`https://<token>@host`, any vendor): a user name stays.
    {nullptr, R"(([A-Za-z][A-Za-z0-9+.-]*)://([^\s/?#@\[\]:"'<>]{8,})@)", 2, {"://"}, false, url_token,
     url_type},
    // A bare secret access key right after its key id (CSV exports, `aws configure` echoes).
    {"aws_secret",
     R"(\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b["'\x60]?[\s,;:|=]{1,8}["'\x60]?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|\z))",
     1, {"AKIA", "ASIA", "ABIA", "ACCA"}, false, aws_secret_shape},
    {"aws_access_key_id", R"(\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b)", 0,
     {"AKIA", "ASIA", "ABIA", "ACCA"}},
    {"aws_secret",
     R"((?i)aws_?secret(?:_?access)?(?:_?key)?["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{16,}))", 1,
     {"aws"}, true},
    {"azure_key",
     R"((?i)\b(?:AccountKey|SharedAccessKey|SharedSecretValue)\s*=\s*([A-Za-z0-9+/=]{16,}))", 1,
     {"accountkey", "sharedaccesskey", "sharedsecret"}, true},
    {"azure_sas", R"([?&;]sig=([A-Za-z0-9%+/=]{16,}))", 1, {"sig="}},
    {"github_token", R"((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,})", 0,
     {"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}},
    {"github_token", R"(github_pat_[A-Za-z0-9_]{22,})", 0, {"github_pat_"}},
    {"gitlab_token", R"(\bgl(?:pat|dt|rt|ptt|cbt|soat)-[A-Za-z0-9_-]{20,})", 0,
     {"glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glsoat-"}},
    {"slack_token", R"(\b(?:xox[abposr]|xoxe(?:\.xox[bp])?|xapp)-[A-Za-z0-9-]{10,})", 0,
     {"xox", "xapp-"}},
    {"stripe_key", R"(\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,})", 0, {"_live_", "_test_"}},
    {"stripe_key", R"(\bwhsec_[A-Za-z0-9]{24,})", 0, {"whsec_"}},
    {"google_api_key", R"(\bAIza[0-9A-Za-z_-]{35})", 0, {"AIza"}},
    {"google_oauth", R"(\b(?:ya29\.[0-9A-Za-z_-]{20,}|GOCSPX-[0-9A-Za-z_-]{20,}|1//0[0-9A-Za-z_-]{30,}))",
     0, {"ya29.", "GOCSPX-", "1//0"}},
    {"anthropic_key", R"(\bsk-ant-[A-Za-z0-9_-]{20,})", 0, {"sk-ant-"}},
    {"openai_key", R"(\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,})", 0, {"sk-"}, false,
     has_digit_and_letter},
    // Context-free provider prefixes (each format's documented prefix and length).
    {"npm_token", R"(\bnpm_[A-Za-z0-9]{36}\b)", 0, {"npm_"}},
    {"pypi_token", R"(\bpypi-AgE[A-Za-z0-9_-]{50,})", 0, {"pypi-"}},
    {"huggingface_token", R"(\bhf_[A-Za-z0-9]{30,}\b)", 0, {"hf_"}, false, has_upper_and_lower},
    {"sendgrid_key", R"(\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b)", 0, {"SG."}},
    {"shopify_token", R"(\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b)", 0, {"shp"}},
    {"digitalocean_token", R"(\bdo[opr]_v1_[a-f0-9]{64}\b)", 0, {"_v1_"}},
    {"twilio_key", R"(\bSK[0-9a-fA-F]{32}\b)", 0, {"SK"}, false, has_digit},
    {"square_token", R"(\bsq0(?:atp|csp)-[0-9A-Za-z_-]{22,})", 0, {"sq0"}},
    {"atlassian_token", R"(\bATATT[A-Za-z0-9_=-]{50,})", 0, {"ATATT"}},
    {"databricks_token", R"(\bdapi[a-f0-9]{32}(?:-[0-9])?\b)", 0, {"dapi"}},
    {"docker_token", R"(\bdckr_pat_[A-Za-z0-9_-]{20,})", 0, {"dckr_pat_"}},
    {"vault_token", R"(\bhv[sbr]\.[A-Za-z0-9_-]{24,})", 0, {"hvs.", "hvb.", "hvr."}},
    {"terraform_token", R"(\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,})", 0, {".atlasv1."}},
    {"grafana_token", R"(\b(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2}))",
     0, {"glsa_", "glc_"}},
    {"newrelic_key", R"(\bNRAK-[A-Z0-9]{27}\b)", 0, {"NRAK-"}},
    {"sentry_token", R"(\bsntry[su]_[A-Za-z0-9+/=_-]{30,})", 0, {"sntrys_", "sntryu_"}},
    {"linear_key", R"(\blin_(?:api|oauth)_[A-Za-z0-9]{40}\b)", 0, {"lin_"}},
    {"postman_key", R"(\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b)", 0, {"PMAK-"}},
    {"age_secret_key", R"(AGE-SECRET-KEY-1[0-9A-Z]{58})", 0, {"AGE-SECRET-KEY-"}},
    {"rubygems_key", R"(\brubygems_[a-f0-9]{48}\b)", 0, {"rubygems_"}},
    {"doppler_token", R"(\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,})", 0, {"dp."}},
    {"telegram_token", R"(\b[0-9]{8,10}:AA[0-9A-Za-z_-]{33}\b)", 0, {":AA"}},
    // Formats without a secretlint rule (each format's documented prefix and shape).
    {"azure_ad_secret", R"(\b[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34})", 0, {"Q~"}},
    // Discord bot token: base64 of the numeric bot id (so it starts MT…OT), a timestamp, an HMAC.
    {"discord_token", R"(\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b)", 0,
     {"MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT"}},
    {"okta_token", R"(\bSSWS[ \t]+([A-Za-z0-9_-]{20,}))", 1, {"SSWS"}},
    {"notion_token", R"(\b(?:ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43}\b))", 0, {"ntn_", "secret_"}},
    {"pulumi_token", R"(\bpul-[a-f0-9]{40}\b)", 0, {"pul-"}},
    {"replicate_token", R"(\br8_[A-Za-z0-9]{37}\b)", 0, {"r8_"}},
    {"dropbox_token", R"(\bsl\.(?:u\.)?[A-Za-z0-9_-]{60,})", 0, {"sl."}},
    {"mailgun_key", R"(\bkey-[a-f0-9]{32}\b)", 0, {"key-"}},
    {"tailscale_key", R"(\btskey-[a-z]+-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,})", 0, {"tskey-"}},
    {"supabase_token", R"(\bsbp_[a-f0-9]{40}\b)", 0, {"sbp_"}},
    {"groq_key", R"(\bgsk_[A-Za-z0-9]{48,})", 0, {"gsk_"}},
    {"xai_key", R"(\bxai-[A-Za-z0-9]{60,})", 0, {"xai-"}},
    {"perplexity_key", R"(\bpplx-[A-Za-z0-9]{40,})", 0, {"pplx-"}},
    {"langsmith_key", R"(\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}\b)", 0, {"lsv2_"}},
    {"pinecone_key", R"(\bpcsk_[A-Za-z0-9]{5,}_[A-Za-z0-9]{40,})", 0, {"pcsk_"}},
    {"fly_token", R"(\b(?:fo1_[A-Za-z0-9_-]{39,}|fm[12]_[A-Za-z0-9+/=_-]{40,}))", 0, {"fo1_", "fm1_", "fm2_"}},
    {"netlify_token", R"(\bnf[pc]_[A-Za-z0-9]{36,})", 0, {"nfp_", "nfc_"}},
    {"figma_token", R"(\bfig[dpu]_[A-Za-z0-9_-]{38,})", 0, {"figd_", "figp_", "figu_"}},
    {"contentful_token", R"(\bCFPAT-[A-Za-z0-9_-]{43,})", 0, {"CFPAT-"}},
    {"sourcegraph_token", R"(\bsgp_(?:[a-f0-9]{16}_)?[a-f0-9]{40}\b)", 0, {"sgp_"}},
    {"buildkite_token", R"(\bbk(?:ua|ma|ca)_[a-f0-9]{40}\b)", 0, {"bkua_", "bkma_", "bkca_"}},
    {"circleci_token", R"(\bCCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}\b)", 0, {"CCIPAT_"}},
    {"render_key", R"(\brnd_[A-Za-z0-9]{28,})", 0, {"rnd_"}},
    {"planetscale_token", R"(\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9_=.-]{32,})", 0, {"pscale_"}},
    {"neon_key", R"(\bnapi_[a-z0-9]{60,})", 0, {"napi_"}},
    {"mapbox_token", R"(\bsk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,})", 0, {"sk.eyJ"}},
    {"onepassword_token", R"(\bops_eyJ[A-Za-z0-9_-]{40,})", 0, {"ops_eyJ"}},
    {"onepassword_secret_key", R"(\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b)", 0, {"A3-"}},
    {"bitbucket_token", R"(\bATBB[A-Za-z0-9_=.-]{32,})", 0, {"ATBB"}},
    {"gitlab_token", R"(\b(?:gl(?:ft|imt|agent|oas|ffct)-[A-Za-z0-9_-]{20,}|GR1348941[A-Za-z0-9_-]{20,}))", 0,
     {"glft-", "glimt-", "glagent-", "gloas-", "glffct-", "GR1348941"}},
    {"heroku_key", R"(\bHRKU-[A-Za-z0-9_-]{40,})", 0, {"HRKU-"}},
    {"alibaba_key", R"(\bLTAI[A-Za-z0-9]{16,22}\b)", 0, {"LTAI"}, false, has_digit},
    {"tencent_key", R"(\bAKID[A-Za-z0-9]{32}\b)", 0, {"AKID"}},
    {"scaleway_key", R"(\bSCW[A-Z0-9]{17}\b)", 0, {"SCW"}, false, has_digit},
    {"jfrog_token", R"(\b(?:AKCp[A-Za-z0-9]{64,}|cmVmdGtu[A-Za-z0-9]{48,}))", 0, {"AKCp", "cmVmdGtu"}},
    {"brevo_key", R"(\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b)", 0, {"xkeysib-"}},
    {"mailchimp_key", R"(\b[a-f0-9]{32}-us[0-9]{1,2}\b)", 0, {"-us"}},
    {"facebook_token", R"(\bEAA[A-Za-z0-9]{90,})", 0, {"EAA"}, false, has_upper_and_lower},
    {"twitter_bearer", R"(\bAAAAAAAAAAAAAAAAAAAAA[A-Za-z0-9%]{30,})", 0, {"AAAAAAAAAAAAAAAAAAAAA"}},
    {"cloudflare_origin_ca_key", R"(\bv1\.0-[a-f0-9]{24}-[a-f0-9]{100,})", 0, {"v1.0-"}},
    {"cargo_token", R"(\bcio[A-Za-z0-9]{32}\b)", 0, {"cio"}, false, has_upper_and_lower},
    {"resend_key", R"(\bre_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}\b)", 0, {"re_"}},
    {"prefect_key", R"(\bpnu_[A-Za-z0-9]{36}\b)", 0, {"pnu_"}},
    {"infracost_key", R"(\bico-[A-Za-z0-9]{32}\b)", 0, {"ico-"}},
    {"typeform_token", R"(\btfp_[A-Za-z0-9_.=-]{40,})", 0, {"tfp_"}},
    {"easypost_key", R"(\bEZ[AT]K[A-Za-z0-9]{54}\b)", 0, {"EZAK", "EZTK"}},
    {"shippo_token", R"(\bshippo_(?:live|test)_[a-f0-9]{40}\b)", 0, {"shippo_"}},
    {"duffel_token", R"(\bduffel_(?:test|live)_[A-Za-z0-9_=-]{43})", 0, {"duffel_"}},
    {"flutterwave_key", R"(\bFLWSECK(?:_TEST)?-[a-f0-9]{32}-X\b)", 0, {"FLWSECK"}},
    {"plaid_token", R"(\baccess-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b)", 0, {"access-"}},
    {"octopus_key", R"(\bAPI-[A-Z0-9]{26}\b)", 0, {"API-"}, false, has_digit},
    {"adafruit_key", R"(\baio_[A-Za-z0-9]{28}\b)", 0, {"aio_"}},
    {"frameio_token", R"(\bfio-u-[A-Za-z0-9_=-]{64}\b)", 0, {"fio-u-"}},
    // A ~/.pgpass line: host:port:database:user:password (one per line).
    {"pgpass",
     R"((?m)(?:^|[\s"'])([A-Za-z0-9*][A-Za-z0-9.*_-]*):([0-9]+|\*):([^:\s"'/]+):([^:\s"'/]+):([^\s"']+)$)",
     5, {":"}, false, nullptr, nullptr, pgpass_line, nullptr, pgpass_chain},
    // ~/.netrc: machine host login user password secret.
    {"netrc", R"((?i)\bmachine\s+\S+\s+login\s+\S+\s+password\s+([^\s"']+))", 1, {"machine"}, true},
    // OpenSSL pass phrase arguments: -pass/-passin/-passout pass:secret.
    {"cli_password", R"((?i)\s-pass(?:in|out|word)?\s+pass:([^\s"']+))", 1, {"pass:"}, true},
    {"bearer",
     R"((?i)authorization["']?\s*[:=]\s*["']?\s*(?:bearer|token|basic)\s+([A-Za-z0-9._~+/=-]+))", 1,
     {"authorization"}, true},
    {"bearer", R"((?i)\bbearer\s+([A-Za-z0-9._~+/-]{16,}=*))", 1, {"bearer"}, true, has_digit},
    {"api_key_header",
     R"((?i)\b(?:x-api-key|api-key|x-auth-token|private-token|x-goog-api-key|x-pinta-relay-token)["']?\s*:\s*["']?([A-Za-z0-9._~+/=-]{8,}))",
     1, {"api-key", "auth-token", "private-token", "relay-token"}, true},
    // Authorization: <anything> (a bare credential without a scheme, SSWS, Digest, …).
    {"authorization",
     R"((?i)\b(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*("[^"\n]*"|'[^'\n]*'|[^\s"',;]+(?:[ \t]+[^\s"',;]+)?))",
     1, {"authorization"}, true, authorization_value},
    // Cookie / Set-Cookie headers, seed phrases: the whole value, spaces and all.
    {"cookie", R"((?i)\b(?:set-)?cookie["']?[ \t]*:[ \t]*("[^"\n]*"|'[^'\n]*'|[^\r\n"']+))", 1,
     {"cookie"}, true, whole_value},
    {"seed_phrase",
     R"((?i)\b(?:mnemonic|(?:seed|recovery)[ _.-]?phrase)["']?[ \t]*[:=][ \t]*("[^"\n]*"|'[^'\n]*'|[^\r\n"',;]+))",
     1, {"mnemonic", "phrase"}, true, whole_value},
    // --flag=value and --flag value where the flag names a secret (is_secret_name, or --key).
    {"cli_password", R"((?i)--)" PINTA_FLAG_NAME "=" PINTA_VALUE, 2, PINTA_FLAG_LITERALS, true,
     nullptr, nullptr, secret_flag, nullptr, secret_flag_chain},
    {"cli_password",
     R"((?i)--)" PINTA_FLAG_NAME R"([ \t]+("[^"]*"|'[^'"]*'|[^\s"'\[\x{2026}$-][^\s"']*))", 2,
     PINTA_FLAG_LITERALS, true, nullptr, nullptr, secret_flag_spaced, nullptr, secret_flag_chain},
    // docker login -p secret (docker's -p is the password; elsewhere -p is a port or a path).
    {"cli_password",
     R"(\bdocker\s+login\b[^\n|;&]*?\s-p\s*("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))", 1,
     {"docker"}},
    {"cli_password",
     R"(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb|mariadb-dump)\b[^\n|;&]*?\s-p)" PINTA_VALUE,
     1, {"-p"}},
    {"cli_password",
     R"(\bsshpass\b[^\n|;&]*?\s-p\s*("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))", 1,
     {"sshpass"}},
    {"cli_password",
     R"(\bcurl\b[^\n|;&]*?\s(?:-u\s*|--user[=\s]\s*)["']?[^\s:"'\[]*:([^\s"'@\[\x{2026}$][^\s"']*))",
     1, {"curl"}},
    // The password arguments of common CLIs, each from the tool's own documentation: redis-cli
    // `-a <password>` (redis.io/docs/connect/cli), sqlcmd/bcp `-P password` (learn.microsoft.com
    // sqlcmd utility), `az login -p` (az login reference: --password -p), keytool/jarsigner
    // `-storepass`/`-keypass` (JDK keytool docs), OpenLDAP `-w passwd` (ldapsearch(1)), zip/unzip
    // `-P password` (zip(1); unzip's -p is "pipe"), 7-Zip `-p{password}`, PuTTY plink/pscp `-pw`,
    // MongoDB shells and tools `-p <password>`, mosquitto_pub/sub `-P`, ipmitool `-P`, Net-SNMP
    // `-A`/`-X` (auth and privacy pass phrases), influx 1.x `-password`, smbclient `-U user%pass`,
    // FreeRDP `/p:`, sqlplus `user/password@db`, htpasswd `-b file user password`, Windows
    // `net user <name> <password>`, FTP's `PASS` command (RFC 959 §4.1.1).
    {"cli_password", R"(\bredis-cli\b[^\n|;&]*?\s-a[ \t]+("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))", 1, {"redis-cli"}, false, cli_value},
    {"cli_password", R"(\b(?:sqlcmd|bcp|osql|isql)\b[^\n|;&]*?\s-P[ \t]*("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))", 1,
     {"sqlcmd", "bcp", "osql", "isql"}, false, cli_value},
    {"cli_password", R"(\baz login\b[^\n|;&]*?\s-p[ \t]+("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))", 1, {"az login"}, false, cli_value},
    {"cli_password",
     R"(\b(?:keytool|jarsigner)\b[^\n|;&]*?\s-(?:storepass|keypass|srcstorepass|deststorepass|srckeypass|destkeypass|new)[ \t]+("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))",
     1, {"keytool", "jarsigner"}, false, cli_value},
    {"cli_password", R"(\bldap[a-z]+\b[^\n|;&]*?\s-w[ \t]*("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))", 1, {"ldap"}, false, cli_value},
    {"cli_password", R"(\b(?:zip|unzip)\b[^\n|;&]*?\s-P[ \t]*("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))", 1, {"zip"}, false, cli_value},
    {"cli_password", R"(\b7z[ar]?\b[^\n|;&]*?\s-p([^\s"'\[\x{2026}$-][^\s"']*))", 1, {"7z"}, false, cli_value},
    {"cli_password", R"(\b(?:plink|pscp|psftp)\b[^\n|;&]*?\s-pw[ \t]+("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))", 1, {"plink", "pscp", "psftp"},
     false, cli_value},
    {"cli_password",
     R"(\b(?:mongosh|mongo|mongodump|mongorestore|mongoexport|mongoimport|mongostat|mongotop|mongofiles)\b[^\n|;&]*?\s-p[ \t]+("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))",
     1, {"mongo"}, false, cli_value},
    {"cli_password", R"(\b(?:mosquitto_(?:pub|sub|rr)|ipmitool)\b[^\n|;&]*?\s-P[ \t]+("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))", 1,
     {"mosquitto_", "ipmitool"}, false, cli_value},
    {"cli_password", R"(\bsnmp[a-z]*\b[^\n|;&]*?\s-[AX][ \t]+("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))", 1, {"snmp"}, false, cli_value},
    {"cli_password", R"(\binflux\b[^\n|;&]*?\s-password[ \t]+("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))", 1, {"influx"}, false, cli_value},
    {"cli_password", R"(\bsmbclient\b[^\n|;&]*?\s(?:-U|--user)[ \t=]*[^\s%"']+%([^\s"']+))", 1, {"smbclient"},
     false, cli_value},
    {"cli_password", R"((?i)\bx?freerdp\b[^\n|;&]*?\s/p:("[^"]*"|[^\s"']+))", 1, {"freerdp"}, true, cli_value},
    {"cli_password", R"(\bsqlplus\b[^\n|;&]*?\s[A-Za-z0-9_$#]+/("[^"]*"|[^\s@/"']+))", 1, {"sqlplus"}, false,
     cli_value},
    {"cli_password", R"(\bhtpasswd\b[^\n|;&]*?\s-[a-zA-Z]*b[a-zA-Z]*[ \t]+(?:-\S+[ \t]+)*\S+[ \t]+\S+[ \t]+("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))",
     1, {"htpasswd"}, false, cli_value},
    {"cli_password", R"((?i)\bnet user[ \t]+("[^"]*"|[^\s/"']+)[ \t]+("[^"]*"|[^\s/"'*][^\s"']*))", 2,
     {"net user"}, true, cli_value},
    {"cli_password", R"((?m)^[ \t>-]*USER[ \t]+\S+[ \t\r]*\n(?:[^\n]*\n){0,4}?[ \t>-]*PASS[ \t]+([^\s]+))", 1,
     {"PASS"}, false, cli_value},
    // `aws configure set aws_secret_access_key V`, `npm config set //r/:_authToken V`,
    // `dotnet user-secrets set "Db:Password" V`, `git config user.password V`: a secret name, then
    // its value.
    {"cli_password",
     R"((?i)\b(?:configure|config|user-secrets) set[ \t]+(?:-{1,2}[A-Za-z-]+[ \t]+)*["']?([A-Za-z0-9_.:/@-]+)["']?[ \t]+("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))",
     2, {"configure set", "config set", "user-secrets set"}, true, nullptr, nullptr, named_assignment},
    // XML: <password>v</password>, <add key="ApiKey" value="v"/>, <entry name="secret" value="v">.
    {"secret_field",
     R"(<([A-Za-z_][A-Za-z0-9_.:-]*)(?:\s[^<>]*)?>([^<>]+)</)", 2, PINTA_NAME_LITERALS, true,
     nullptr, nullptr, named_text, "<", closing_tag},
    {"secret_field",
     R"((?i)\b(?:key|name)[ \t]*=[ \t]*["']([^"'<>]+)["'][ \t]+value=("[^"]*"|'[^']*'))", 2,
     {"value="}, true, nullptr, nullptr, named_assignment},
    // PHP define('DB_PASSWORD', 'v').
    {"secret_field",
     R"((?i)\bdefine[ \t]*\([ \t]*["']([^"']+)["'][ \t]*,[ \t]*("[^"]*"|'[^']*'|[^\s,)]+))", 2,
     {"define"}, true, nullptr, nullptr, named_assignment},
    // Dockerfile ENV/ARG in the space form (ENV API_TOKEN v: the value runs to the end of the line).
    {"env_assignment", R"((?m)^[ \t]*(?:ENV|ARG)[ \t]+([A-Za-z_][A-Za-z0-9_.-]*)[ \t]+([^\s=\\][^\r\n]*))", 2,
     {"ENV", "ARG"}, false, nullptr, nullptr, named_text},
    // A list or an object under a secret name in JSON/YAML text: "api_keys": ["a", "b"],
    // "client_secret": {"value": "v"}.
    {"secret_field",
     PINTA_SECRET_NAME
     R"(["']?[ \t]*[:=][ \t]*\[[ \t\r\n]*((?:"[^"\n]*"|'[^'\n]*')(?:[ \t\r\n]*,[ \t\r\n]*(?:"[^"\n]*"|'[^'\n]*'))*))",
     2, PINTA_NAME_LITERALS, true, nullptr, nullptr, named_assignment, "[", secret_list_opening},
    {"secret_field",
     PINTA_SECRET_NAME
     R"(["']?[ \t]*:[ \t]*\{[ \t\r\n]*["']?(?i:value|secret|key|data|current|plaintext|token|password)["']?[ \t]*:[ \t]*("[^"\n]*"|'[^'\n]*'|[^\s,}"']+))",
     2, PINTA_NAME_LITERALS, true, nullptr, nullptr, named_assignment, "{", secret_object_opening},
    // NAME=value where NAME ends in a secret word (DB_PASSWORD=, api_key=, ?password=, sig keys).
    {"env_assignment", PINTA_SECRET_NAME R"(["']?[ \t]*(?::=|=>|=)[ \t]*)" PINTA_ENV_VALUE, 2,
     PINTA_NAME_LITERALS, true, nullptr, nullptr, named_assignment, "=", secret_assignment_chain},
    // name: value (YAML, JSON text, headers).
    {"secret_field",
     PINTA_SECRET_NAME
     R"(["']?[ \t]*:[ \t]*("[^"\n]*"|'[^'\n]*'|[^\s"'\[\x{2026}$,;)\]}>][^\s"',;)\]}>]{5,}))",
     2, PINTA_NAME_LITERALS, true, nullptr, nullptr, named_colon, ":", secret_colon_chain},
    // Credential query and fragment parameters (?code=, &sig=, #access_token=, X-Amz-Signature=).
    {"query_credential", R"([?&#]([A-Za-z0-9_.\[\]-]+)=([^&#\s"'<>\[\x{2026}$][^&#\s"'<>]*))", 2,
     {"?", "&", "#"}, false, nullptr, nullptr, query_credential, "=", query_chain},
    // A random-looking value right after the word secret / token / password in prose or logs
    // ("the client secret is 8f3k…", "auth token 9a8b…").
    {"high_entropy_secret",
     R"((?i)\b(?:secret|token|password|passwd|api[ _-]?key|access[ _-]?key)(?:\s+(?:is|was|of|for|value|key))?\s*[:=]?\s+["']?([A-Za-z0-9_+/=.~-]{16,}))",
     1, {"secret", "token", "passw", "key"}, true, high_entropy, nullptr, nullptr, nullptr, spaced_long_token},
};

#undef PINTA_VALUE
#undef PINTA_ENV_VALUE
#undef PINTA_SECRET_NAME
#undef PINTA_NAME_LITERALS
#undef PINTA_FLAG_NAME
#undef PINTA_FLAG_LITERALS

constexpr std::size_t kRuleCount = sizeof(kRules) / sizeof(kRules[0]);

// Each rule is compiled on first use, and only once its prefilter literal has been seen: a span of
// an ordinary event touches one or two rules, not all of them (compiling the whole table cost
// ~6.8 M instructions, 30x the rest of an invocation; ci/bench.sh "collector down").
const RE2& compiled(std::size_t i) {
  static std::array<std::once_flag, kRuleCount> once;
  static std::array<std::unique_ptr<RE2>, kRuleCount> table;
  std::call_once(once[i], [i] {
    RE2::Options options;
    options.set_log_errors(false);
    table[i] = std::make_unique<RE2>(kRules[i].pattern, options);
  });
  return *table[i];
}

// The prefilter for all rules in one pass: an index of every literal by its first byte (both
// cases for the case-insensitive rules, whose literals are written in lowercase), so a text is
// scanned once instead of once per literal (one find() per literal was the largest cost of
// redacting an ordinary span: ~35 searches per string).
using RuleSet = std::bitset<kRuleCount>;

// Flat and computed at compile time (entries grouped by first byte, counting sort), so a process
// neither builds nor destroys it: a table of 256 vectors built at run time cost ~14 K instructions
// and a dozen allocations per event.
struct LiteralIndex {
  struct Entry {
    std::string_view literal;
    std::size_t rule = 0;
    bool ci = false;
    unsigned char second = 0;  // the literal's second byte (0: a one-byte literal)
  };
  static constexpr std::size_t kCapacity = kRuleCount * std::tuple_size_v<decltype(Rule::any_of)> * 2;
  std::array<std::uint16_t, 257> start{};  // entries[start[b], start[b + 1]) begin with byte b
  std::array<Entry, kCapacity> entries{};
  // Every pair of bytes a literal can begin with (a one-byte literal: its byte and any byte), as
  // 65,536 bits: most positions of a text are passed over on one bit test instead of a walk through
  // the entries of their first byte (for a letter, dozens).
  std::array<std::uint64_t, 1024> pairs{};
  constexpr bool may_begin(unsigned char a, unsigned char b) const {
    const unsigned bit = (static_cast<unsigned>(a) << 8) | b;
    return (pairs[bit >> 6] >> (bit & 63)) & 1u;
  }
  // The entries that begin with byte a, ordered by their second byte (one-byte literals first).
  constexpr std::span<const Entry> by_first(unsigned char b) const {
    return {entries.data() + start[b], static_cast<std::size_t>(start[b + 1] - start[b])};
  }
};

// The entries of `bucket` whose second byte is `second` (a binary search: a letter's bucket holds
// dozens of entries, and walking all of them at every position where a literal may begin was
// most of the prefilter's cost, ~155 instructions per byte of ordinary text).
constexpr std::span<const LiteralIndex::Entry> with_second(std::span<const LiteralIndex::Entry> bucket,
                                                           unsigned char second) {
  std::size_t lo = 0, hi = bucket.size();
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (bucket[mid].second < second) lo = mid + 1;
    else hi = mid;
  }
  std::size_t end = lo;
  while (end < bucket.size() && bucket[end].second == second) ++end;
  return bucket.subspan(lo, end - lo);
}

constexpr LiteralIndex kLiteralIndex = [] {
  LiteralIndex idx;
  // Every (first byte, entry) pair: the literal's own first byte, plus its upper-case first byte
  // for the case-insensitive rules (their literals are written in lowercase ASCII).
  auto each = [](auto&& f) {
    for (std::size_t r = 0; r < kRuleCount; ++r) {
      for (const char* lit : kRules[r].any_of) {
        if (lit == nullptr || *lit == '\0') continue;
        const std::string_view l(lit);
        const auto first = static_cast<unsigned char>(l[0]);
        const auto second = l.size() > 1 ? static_cast<unsigned char>(l[1]) : static_cast<unsigned char>(0);
        f(first, LiteralIndex::Entry{l, r, kRules[r].ci, second});
        if (kRules[r].ci && first >= 'a' && first <= 'z') {
          f(static_cast<unsigned char>(first - 'a' + 'A'), LiteralIndex::Entry{l, r, true, second});
        }
      }
    }
  };
  std::array<std::uint16_t, 257> count{};
  each([&](unsigned char b, const LiteralIndex::Entry&) { ++count[b + 1u]; });
  for (std::size_t b = 0; b < 256; ++b) count[b + 1] = static_cast<std::uint16_t>(count[b + 1] + count[b]);
  idx.start = count;
  each([&](unsigned char b, const LiteralIndex::Entry& e) { idx.entries[count[b]++] = e; });
  // Each bucket by second byte (insertion sort: stable, so the rule order within a key is kept).
  for (std::size_t b = 0; b < 256; ++b) {
    for (std::size_t k = idx.start[b] + 1u; k < idx.start[b + 1]; ++k) {
      const LiteralIndex::Entry e = idx.entries[k];
      std::size_t j = k;
      while (j > idx.start[b] && idx.entries[j - 1].second > e.second) {
        idx.entries[j] = idx.entries[j - 1];
        --j;
      }
      idx.entries[j] = e;
    }
  }
  auto set_pair = [&](unsigned a, unsigned b) {
    const unsigned bit = (a << 8) | b;
    idx.pairs[bit >> 6] |= std::uint64_t{1} << (bit & 63);
  };
  each([&](unsigned char first, const LiteralIndex::Entry& e) {
    if (e.literal.size() == 1) {
      for (unsigned b = 0; b < 256; ++b) set_pair(first, b);
      return;
    }
    const auto second = static_cast<unsigned char>(e.literal[1]);
    set_pair(first, second);
    if (e.ci && second >= 'a' && second <= 'z') set_pair(first, second - 'a' + 'A');
  });
  return idx;
}();

bool equal_ci(std::string_view text, std::string_view lower_literal) {
  for (std::size_t i = 0; i < lower_literal.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower_literal[i]) return false;
  }
  return true;
}

// The rules whose prefilter literal occurs in `s`.
RuleSet candidate_rules(std::string_view s) {
  const LiteralIndex& idx = kLiteralIndex;
  RuleSet out, ruled_out;  // ruled_out: the literal occurs, the rule's may_match says no
  std::bitset<256> present;  // the bytes of s, for Rule::needs_one_of (one pass, not one per hit)
  for (char c : s) present.set(static_cast<unsigned char>(c));
  for (std::size_t i = 0; i < s.size(); ++i) {
    // The last byte can only begin a one-byte literal: its pairs with any byte are all set.
    if (!idx.may_begin(static_cast<unsigned char>(s[i]),
                       i + 1 < s.size() ? static_cast<unsigned char>(s[i + 1]) : 0))
      continue;
    auto visit = [&](const LiteralIndex::Entry& e) {
      if (out.test(e.rule) || ruled_out.test(e.rule) || e.literal.size() > s.size() - i) return;
      if (const char* needs = kRules[e.rule].needs_one_of; needs != nullptr) {
        bool found = false;
        for (const char* c = needs; *c != '\0' && !found; ++c) found = present.test(static_cast<unsigned char>(*c));
        if (!found) {
          ruled_out.set(e.rule);  // a property of the whole text: not asked again
          return;
        }
      }
      const std::string_view at = s.substr(i, e.literal.size());
      if (!(e.ci ? equal_ci(at, e.literal) : at == e.literal)) return;
      if (const auto may = kRules[e.rule].may_match; may != nullptr && !may(s)) {
        ruled_out.set(e.rule);
        return;
      }
      out.set(e.rule);
    };
    const auto bucket = idx.by_first(static_cast<unsigned char>(s[i]));
    // One-byte literals, then the literals whose second byte is the next byte (as it is, and in
    // lower case for the case-insensitive ones, which are written in lower case).
    for (const auto& e : with_second(bucket, 0)) visit(e);
    if (i + 1 < s.size() && s[i + 1] != '\0') {
      const auto next = static_cast<unsigned char>(s[i + 1]);
      for (const auto& e : with_second(bucket, next)) visit(e);
      if (next >= 'A' && next <= 'Z')
        for (const auto& e : with_second(bucket, static_cast<unsigned char>(next - 'A' + 'a'))) visit(e);
    }
  }
  return out;
}

// Whether each rule is a provider format (off in set_vendor_rules_for_testing(false)): every rule
// but the vendor-agnostic ones (structure, names, flags, headers, URLs, JWTs, PEM armour).
constexpr bool vendor_type(const char* type) {
  if (type == nullptr) return false;  // URL userinfo and connection strings
  for (std::string_view generic :
       {"private_key", "password_hash", "jwt", "pgpass", "netrc", "cli_password", "bearer",
        "api_key_header", "authorization", "cookie", "seed_phrase", "env_assignment", "secret_field",
        "query_credential", "high_entropy_secret"}) {
    if (std::string_view(type) == generic) return false;
  }
  return true;
}
// Built on first use, only where the vendor rules are switched off (tests): as a namespace-scope
// initializer it ran in every adapter process, ~78,000 instructions of start-up on every event.
const RuleSet& vendor_rules() {
  static const RuleSet r = [] {
    RuleSet v;
    for (std::size_t i = 0; i < kRuleCount; ++i)
      if (vendor_type(kRules[i].type)) v.set(i);
    return v;
  }();
  return r;
}
bool g_vendor_rules = true;

// The rules that may match `t`: their prefilter says so, and they are switched on.
RuleSet enabled_candidates(std::string_view t) {
  RuleSet c = candidate_rules(t);
  if (!g_vendor_rules) c &= ~vendor_rules();
  return c;
}

// The matches of one rule in `t`, in order and not overlapping (what becomes a marker). One
// left-to-right pass: after a match (taken or rejected by `accept`) the search resumes at its end,
// never inside it, so a text that repeats a rule's prefix (`sk-sk-sk-…`, 150 KB) costs one scan,
// not one scan per repetition (resuming one byte further on made such a text quadratic: 30 s for
// 150 KB).
void rule_cuts(std::size_t rule_index, std::string_view t, WorkBudget* budget, std::vector<generic::Cut>& cuts) {
  const Rule& rule = kRules[rule_index];
  const RE2& re = compiled(rule_index);
  if (!re.ok()) return;
  const int ngroups = re.NumberOfCapturingGroups() + 1;
  std::array<re2::StringPiece, 8> groups;
  if (ngroups > static_cast<int>(groups.size())) return;
  const re2::StringPiece text(t.data(), t.size());
  std::size_t pos = 0, copied = 0;
  std::size_t matches = 0;
  while (pos <= t.size() &&
         re.Match(text, pos, t.size(), RE2::UNANCHORED, groups.data(), ngroups)) {
    const re2::StringPiece whole = groups[0];
    const re2::StringPiece target = groups[static_cast<std::size_t>(rule.group)];
    const std::size_t start = static_cast<std::size_t>(whole.data() - t.data());
    const std::size_t end = start + whole.size();
    pos = end > start ? end : end + 1;
    // Many matches: look at the clock now and then (a match costs ~1 µs at most).
    if (budget != nullptr && (++matches & 255) == 0) budget->expired();
    if (target.data() == nullptr || target.empty() ||
        (rule.accept && !rule.accept(std::string_view(target.data(), target.size()))) ||
        (rule.accept_match && !rule.accept_match(groups.data()))) {
      continue;
    }
    const std::size_t t_start = static_cast<std::size_t>(target.data() - t.data());
    if (t_start < copied) continue;
    cuts.push_back({t_start, t_start + target.size(),
                    rule.type_of ? rule.type_of(groups.data()) : std::string_view(rule.type)});
    copied = t_start + target.size();
  }
}

// Replaces the cuts (in the coordinates of `view`, or of `s` itself when view is null) by their
// markers. A cut in the view takes the original bytes of every escape it covers.
void splice(std::string& s, const std::vector<generic::Cut>& cuts, const generic::View* view) {
  std::string out;
  out.reserve(s.size());
  std::size_t copied = 0;
  for (const generic::Cut& c : cuts) {
    const std::size_t a = view ? view->map[c.start] : c.start;
    const std::size_t b = view ? view->map[c.end] : c.end;
    if (b <= a || a < copied) continue;
    out.append(s, copied, a - copied);
    out += "[REDACTED:";
    out += c.type;
    out += ']';
    copied = b;
  }
  out.append(s, copied, std::string::npos);
  s = std::move(out);
}

std::optional<std::string> redact_secrets(std::string_view in, WorkBudget* budget, int depth = 0,
                                          bool shape = true);

// The shape detector's cuts for `t`; base64 tokens are decoded at the top level only, and their
// text redacted one level down (so the work stays linear).
void shape_cuts(std::string_view t, int depth, WorkBudget* budget, std::vector<generic::Cut>& cuts) {
  generic::shape_scan(t, depth == 0, cuts, [&](std::string_view decoded) {
    const std::optional<std::string> r = redact_secrets(decoded, budget, depth + 1);
    return !r || *r != decoded;
  });
}

// All detectors, repeated until nothing changes (normally one extra pass at most), so the result
// is a fixed point and redaction is idempotent by construction. Each pass is linear in the text
// (the escaped view, one prefilter scan, one RE2 scan per rule whose literal occurs, one token
// scan), and there are at most 4. When the budget runs out the text is not returned
// half-redacted: the caller gets nullopt. `shape` false: the rules alone (redact_joined).
std::optional<std::string> redact_secrets(std::string_view in, WorkBudget* budget, int depth, bool shape) {
  std::string s(in);
  generic::View view;
  std::vector<generic::Cut> cuts;
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    bool escaped = generic::make_view(s, view);
    std::string_view t = escaped ? std::string_view(view.text) : std::string_view(s);
    RuleSet candidates = enabled_candidates(t);
    for (std::size_t i = 0; i < kRuleCount; ++i) {
      if (!candidates.test(i)) continue;
      if (budget != nullptr && budget->expired()) return std::nullopt;
      cuts.clear();
      rule_cuts(i, t, budget, cuts);
      if (cuts.empty()) continue;
      splice(s, cuts, escaped ? &view : nullptr);
      changed = true;
      // The text changed: look again (rare).
      escaped = generic::make_view(s, view);
      t = escaped ? std::string_view(view.text) : std::string_view(s);
      candidates = enabled_candidates(t);
    }
    if (budget != nullptr && budget->expired()) return std::nullopt;
    cuts.clear();
    if (shape) shape_cuts(t, depth, budget, cuts);
    if (!cuts.empty()) {
      splice(s, cuts, escaped ? &view : nullptr);
      changed = true;
    }
    if (!changed) break;
  }
  if (budget != nullptr && budget->expired()) return std::nullopt;
  return s;
}

// The longest prefix of s no longer than limit that does not end inside a UTF-8 sequence.
std::size_t utf8_cut(std::string_view s, std::size_t limit) {
  if (s.size() <= limit) return s.size();
  std::size_t p = limit;
  for (int back = 0; back < 3 && p > 0 && (static_cast<unsigned char>(s[p]) & 0xC0) == 0x80; ++back) {
    --p;
  }
  return p;
}

std::size_t decimal_digits(std::size_t n) {
  std::size_t d = 1;
  while (n >= 10) n /= 10, ++d;
  return d;
}

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // …
constexpr std::size_t kPrecutMargin = 64 * 1024;

}  // namespace

std::vector<std::string> redaction_rule_errors() {
  std::vector<std::string> errors;
  for (std::size_t i = 0; i < kRuleCount; ++i) {
    const RE2& re = compiled(i);
    if (!re.ok()) errors.push_back(std::string(kRules[i].pattern) + ": " + re.error());
    else if (re.NumberOfCapturingGroups() + 1 > 8 || kRules[i].group > re.NumberOfCapturingGroups())
      errors.push_back(std::string(kRules[i].pattern) + ": capture groups");
  }
  return errors;
}

std::vector<std::string> redaction_prefilter_misses(std::string_view s) {
  std::vector<std::string> misses;
  for (std::size_t i = 0; i < kRuleCount; ++i) {
    if (kRules[i].may_match == nullptr || kRules[i].may_match(s)) continue;
    if (RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), compiled(i)))
      misses.push_back(kRules[i].type);
  }
  return misses;
}

bool WorkBudget::expired() noexcept {
  if (expired_) return true;
  if (deadline_ == Clock::time_point::max()) return false;
  if (Clock::now() >= deadline_) expired_ = true;
  return expired_;
}

bool redaction_is_identity(std::string_view s, std::size_t max_bytes) {
  if (max_bytes > 0 && s.size() > max_bytes) return false;
  // redact_secrets applies candidate rules and the shape detector only, both on the view.
  generic::View view;
  const bool escaped = generic::make_view(s, view);
  const std::string_view t = escaped ? std::string_view(view.text) : s;
  if (enabled_candidates(t).any()) return false;
  std::vector<generic::Cut> cuts;
  shape_cuts(t, 0, nullptr, cuts);
  return cuts.empty();
}

std::string redact_joined(std::string text, std::size_t max_bytes, WorkBudget* budget) {
  if (max_bytes > 0 && text.size() > max_bytes) return redact_string(text, max_bytes, budget);
  generic::View view;
  const bool escaped = generic::make_view(text, view);
  if (!enabled_candidates(escaped ? std::string_view(view.text) : std::string_view(text)).any()) return text;
  if (budget != nullptr && budget->expired()) return std::string(kDeadlineMarker);
  std::optional<std::string> r = redact_secrets(text, budget, 0, /*shape=*/false);
  if (!r) return std::string(kDeadlineMarker);
  // A marker longer than what it replaced can take the text over the cap: cut as redact_string does.
  if (max_bytes > 0 && r->size() > max_bytes) return redact_string(*r, max_bytes, budget);
  return std::move(*r);
}

void set_vendor_rules_for_testing(bool on) { g_vendor_rules = on; }

std::string redact_string(std::string_view s, std::size_t max_bytes, WorkBudget* budget) {
  if (budget != nullptr && budget->expired()) return std::string(kDeadlineMarker);
  // Huge strings: redact only a generous head (a secret cannot hide the cut unless redaction
  // shrinks the head below the limit, in which case the whole string is redacted).
  std::size_t dropped_raw = 0;
  std::optional<std::string> r;
  if (max_bytes > 0 && s.size() > max_bytes + kPrecutMargin) {
    const std::size_t head = utf8_cut(s, max_bytes + kPrecutMargin);
    r = redact_secrets(s.substr(0, head), budget);
    dropped_raw = s.size() - head;
    if (r && r->size() <= max_bytes + 4096) {
      r = redact_secrets(s, budget);
      dropped_raw = 0;
    }
  } else {
    r = redact_secrets(s, budget);
  }
  if (!r) return std::string(kDeadlineMarker);
  if (max_bytes == 0 || (r->size() <= max_bytes && dropped_raw == 0)) return std::move(*r);

  const std::size_t total = r->size() + dropped_raw;
  const std::size_t fixed = kEllipsis.size() + std::string_view("[TRUNCATED:]").size();
  const std::size_t reserve = fixed + decimal_digits(total);  // n <= total
  const std::size_t budget_bytes = max_bytes > reserve ? max_bytes - reserve : 0;
  std::string kept = r->substr(0, utf8_cut(*r, budget_bytes));
  // The cut may leave the head of a secret that now matches on its own: redact the prefix again
  // (it can grow, so cut and repeat; each round keeps a prefix of the previous one).
  for (int round = 0; round < 4; ++round) {
    std::optional<std::string> again = redact_secrets(kept, budget);
    if (!again) return std::string(kDeadlineMarker);
    if (*again == kept) break;
    kept = again->substr(0, utf8_cut(*again, budget_bytes));
  }
  // The marker must not make a secret either: appended to a value cut at its head (`--password
  // x` + `…[TRUNCATED:31]`), it can make that value long enough to be one, and the output would
  // then not be its own redaction (RedactProperty.ValidUtf8StaysValid, seed 14173199351883830026).
  // Then the cut value goes whole, back to the whitespace or quote before it.
  for (int round = 0;; ++round) {
    const std::size_t removed = total - std::min(total, kept.size());
    std::string out = kept;
    out += kEllipsis;
    out += "[TRUNCATED:";
    out += std::to_string(removed);
    out += ']';
    if (kept.empty()) return out;  // the marker alone is its own redaction
    std::optional<std::string> again = redact_secrets(out, budget);
    if (!again) return std::string(kDeadlineMarker);
    if (*again == out) return out;
    // Bounded: after four values the marker goes alone.
    const std::size_t t = round < 3 ? kept.find_last_of(" \t\r\n\"'") : std::string::npos;
    kept.resize(t == std::string::npos ? 0 : t + 1);
  }
}

std::optional<std::string> redact_field(std::string_view key, std::string_view value) {
  if (!is_secret_name(key) || !is_secret_value(key, value)) return std::nullopt;
  // Already a whole marker (idempotence): keep it.
  if (value.size() > 11 && value.substr(0, 10) == "[REDACTED:" && value.back() == ']' &&
      value.find(']') == value.size() - 1) {
    return std::nullopt;
  }
  return std::string(kSecretFieldMarker);
}

std::string_view inherited_secret_name(std::string_view parent, std::string_view key) {
  if (parent.empty()) return key;
  if (key.empty()) return parent;  // an array element under a secret name (api_keys: [...])
  // A generic member of an object under a secret name (client_secret: {value: ...}).
  static constexpr std::array<std::string_view, 10> kGeneric = {
      "value", "val", "current", "data", "plaintext", "raw", "primary", "secondary", "default", "values"};
  for (std::string_view g : kGeneric)
    if (equal_ci_words(key, g)) return parent;
  return key;
}

nlohmann::json redact_json(const nlohmann::json& j, const RedactOptions& options) {
  WorkBudget own(options.time_budget);
  WorkBudget* budget = options.budget != nullptr ? options.budget : &own;
  auto skipped = [&](std::string_view key) {
    return std::find(options.skip_top_level_keys.begin(), options.skip_top_level_keys.end(), key) !=
           options.skip_top_level_keys.end();
  };
  // Rebuilt rather than edited in place: object keys are attacker text too (a token used as a
  // key is redacted like a value); two keys that redact alike keep the first value.
  struct Frame {
    const nlohmann::json* in;
    nlohmann::json* out;
    std::string_view secret;  // the secret name the container sits under ("" none)
  };
  nlohmann::json out;
  std::vector<Frame> stack;
  // `name`: the name that decides whether a string is masked whole (its key, or the secret name
  // it inherits); identifier fields of the top level are never masked for their name, but their
  // values pass the redactor like any other string.
  auto place = [&](const nlohmann::json& v, nlohmann::json& slot, std::string_view name, bool identifier) {
    if (v.is_string()) {
      const auto& str = v.get_ref<const std::string&>();
      std::optional<std::string> masked;
      if (!identifier) masked = redact_field(name, str);
      slot = masked ? std::move(*masked) : redact_string(str, options.max_string_bytes, budget);
    } else if (v.is_object() || v.is_array()) {
      slot = v.is_object() ? nlohmann::json::object() : nlohmann::json::array();
      const bool secret = !identifier && !name.empty() && is_secret_name(name);
      stack.push_back({&v, &slot, secret ? name : std::string_view()});
    } else if (v.is_number() && !identifier && !name.empty() && is_secret_name(name)) {
      slot = std::string(kSecretFieldMarker);  // a PIN or OTP sent as a number: {"otp": 951753}
    } else {
      slot = v;
    }
  };
  auto fill = [&](const Frame& f, bool top) {
    if (f.in->is_object()) {
      for (auto it = f.in->begin(); it != f.in->end(); ++it) {
        const bool identifier = top && skipped(it.key());
        std::string key = redaction_is_identity(it.key(), 256) ? it.key() : redact_string(it.key(), 256, budget);
        if (f.out->contains(key)) continue;
        place(it.value(), (*f.out)[key], inherited_secret_name(f.secret, it.key()), identifier);
      }
    } else {
      // Sized first, so the slots (which pending frames point to) never move.
      *f.out = nlohmann::json::array_t(f.in->size());
      std::size_t i = 0;
      for (const auto& e : *f.in) place(e, (*f.out)[i++], f.secret, false);
    }
  };
  if (j.is_object() || j.is_array()) {
    out = j.is_object() ? nlohmann::json::object() : nlohmann::json::array();
    fill(Frame{&j, &out, {}}, true);
    // A vector of pending frames keeps the walk iterative (no deep recursion).
    while (!stack.empty()) {
      Frame f = stack.back();
      stack.pop_back();
      fill(f, false);
    }
  } else {
    place(j, out, {}, false);
  }
  return out;
}

bool valid_utf8(std::string_view s) noexcept {
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t len;
    std::uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4, cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > n) return false;
    for (std::size_t k = 1; k < len; ++k) {
      const unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += len;
  }
  return true;
}

}  // namespace pinta::adapter
