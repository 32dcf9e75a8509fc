// File: adapter/src/redact/generic.cc
// The detectors that do not need to know the vendor (generic.h says what each does). Kept out of
// the header so redact.cc and its tests compile them once; nothing here runs before main (no
// namespace-scope object with a dynamic initializer: ci/check-static-init.sh).
#include "generic.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pinta::adapter::generic {
namespace {

// ---- the escaped view -----------------------------------------------------------------------

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void put_utf8(std::string& out, std::uint32_t cp) {
  if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Whether the text may hold an escape the view undoes (one cheap pass).
bool may_have_escapes(std::string_view s) {
  for (std::size_t i = 0; i + 1 < s.size(); ++i) {
    const char c = s[i];
    if (c == '\\') return true;
    if (c == '&' && (s[i + 1] == 'a' || s[i + 1] == 'q' || s[i + 1] == '#')) return true;
    if (c == '%' && i + 2 < s.size() &&
        ((s[i + 1] == '2' && (s[i + 2] == '6' || s[i + 2] == '2')) ||
         (s[i + 1] == '3' && (s[i + 2] == 'D' || s[i + 2] == 'd' || s[i + 2] == 'F' || s[i + 2] == 'f'))))
      return true;
  }
  return false;
}

// The original offset of `in[i]` (`in_map` nullptr: the identity).
inline std::uint32_t orig_at(const std::uint32_t* in_map, std::size_t i) {
  return in_map ? in_map[i] : static_cast<std::uint32_t>(i);
}

inline void emit(View& out, char c, std::uint32_t at) {
  out.text += c;
  out.map.push_back(at);
}

// Copies in[from, to) (no escape in it) whole: one append, one fill of the map.
void copy_run(std::string_view in, const std::uint32_t* in_map, std::size_t from, std::size_t to,
              View& out) {
  out.text.append(in.data() + from, to - from);
  const std::size_t at = out.map.size();
  out.map.resize(at + (to - from));
  if (in_map == nullptr) {
    for (std::size_t k = 0; k < to - from; ++k)
      out.map[at + k] = static_cast<std::uint32_t>(from + k);
  } else {
    std::copy(in_map + from, in_map + to, out.map.begin() + static_cast<std::ptrdiff_t>(at));
  }
}

// The backslash escape at in[i] (i + 1 < in.size()), undone into `out`: the characters it took
// (0: none, nothing written).
std::size_t undo_backslash(std::string_view in, std::size_t i, const std::uint32_t* in_map,
                           View& out) {
  const std::size_t n = in.size();
  const char e = in[i + 1];
  char plain = 0;
  switch (e) {
    case 'n': plain = '\n'; break;
    case 't': plain = '\t'; break;
    case 'r': plain = '\r'; break;
    case 'b': case 'f': case 'v': plain = ' '; break;
    case '"': case '\'': case '\\': case '/': case '`': plain = e; break;
    default: break;
  }
  if (plain != 0) {
    emit(out, plain, orig_at(in_map, i));
    return 2;
  }
  if (e == 'u' && i + 5 < n) {
    std::uint32_t cp = 0;
    bool ok = true;
    for (std::size_t k = 2; k < 6 && ok; ++k) {
      const int h = hex_value(in[i + k]);
      ok = h >= 0;
      cp = cp * 16 + static_cast<std::uint32_t>(h < 0 ? 0 : h);
    }
    if (ok && cp != 0) {
      const std::size_t before = out.text.size();
      put_utf8(out.text, cp);
      for (std::size_t k = before; k < out.text.size(); ++k) out.map.push_back(orig_at(in_map, i));
      return 6;
    }
  }
  if (e == 'x' && i + 3 < n) {
    const int a = hex_value(in[i + 2]), b = hex_value(in[i + 3]);
    if (a >= 0 && b >= 0 && a < 8 && (a | b) != 0) {
      emit(out, static_cast<char>(a * 16 + b), orig_at(in_map, i));
      return 4;
    }
  }
  return 0;
}

// The HTML entity at in[i] (`&`), undone into `out`: the characters it took (0: none).
std::size_t undo_entity(std::string_view in, std::size_t i, const std::uint32_t* in_map,
                        View& out) {
  static constexpr std::array<std::pair<std::string_view, char>, 6> kEntities = {
      {{"&amp;", '&'}, {"&quot;", '"'}, {"&#39;", '\''}, {"&apos;", '\''}, {"&lt;", '<'},
       {"&gt;", '>'}}};
  for (const auto& [name, plain] : kEntities) {
    if (in.substr(i, name.size()) == name) {
      emit(out, plain, orig_at(in_map, i));
      return name.size();
    }
  }
  return 0;
}

// The percent escape at in[i] (i + 2 < in.size()), undone into `out`: 3, or 0 when it is not one
// the view undoes. Only the query structure (& = ? "): a value's other escapes stay as they are.
std::size_t undo_percent(std::string_view in, std::size_t i, const std::uint32_t* in_map,
                         View& out) {
  const int a = hex_value(in[i + 1]), b = hex_value(in[i + 2]);
  const int v = a * 16 + b;
  if (a >= 0 && b >= 0 && (v == '&' || v == '=' || v == '?' || v == '"')) {
    emit(out, static_cast<char>(v), orig_at(in_map, i));
    return 3;
  }
  return 0;
}

// One level of unescaping. `in_map` maps `in` to the original (nullptr: identity). Returns
// whether anything was undone.
bool unescape_once(std::string_view in, const std::uint32_t* in_map, View& out) {
  out.text.clear();
  out.map.clear();
  out.text.reserve(in.size());
  out.map.reserve(in.size() + 1);
  bool changed = false;
  const std::size_t n = in.size();
  std::size_t i = 0;
  while (i < n) {
    // A run without `\`, `&` or `%` is copied whole (the common case).
    std::size_t run = i;
    while (run < n && in[run] != '\\' && in[run] != '&' && in[run] != '%') ++run;
    if (run > i) {
      copy_run(in, in_map, i, run, out);
      i = run;
      if (i == n) break;
    }
    const char c = in[i];
    std::size_t used = 0;
    if (c == '\\' && i + 1 < n)
      used = undo_backslash(in, i, in_map, out);
    else if (c == '&')
      used = undo_entity(in, i, in_map, out);
    else if (c == '%' && i + 2 < n)
      used = undo_percent(in, i, in_map, out);
    if (used > 0) {
      i += used;
      changed = true;
      continue;
    }
    emit(out, c, orig_at(in_map, i));
    ++i;
  }
  out.map.push_back(orig_at(in_map, n));
  return changed;
}

}  // namespace

// The view of `s` with up to three levels of escapes undone, or false when it has none (then
// the text itself is the view).
bool make_view(std::string_view s, View& view) {
  if (!may_have_escapes(s)) return false;
  if (!unescape_once(s, nullptr, view)) return false;
  for (int level = 1; level < 3 && may_have_escapes(view.text); ++level) {
    View next;
    if (!unescape_once(view.text, view.map.data(), next)) break;
    view = std::move(next);
  }
  return true;
}

// ---- the shape detector ---------------------------------------------------------------------

namespace {

bool is_lower(unsigned char c) { return c >= 'a' && c <= 'z'; }
bool is_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool is_alnum(unsigned char c) { return is_lower(c) || is_upper(c) || is_digit(c); }
bool is_hex(unsigned char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
// Characters of a token: base64 (standard and URL-safe) and the joints of prefixed and dotted
// tokens. `=` only as trailing padding, `$` only inside (Braintree's access_token$production$…).
bool token_char(unsigned char c) {
  return is_alnum(c) || c == '+' || c == '/' || c == '_' || c == '-' || c == '.' || c == '~';
}

double shannon(std::string_view s) {
  std::array<std::uint16_t, 256> count{};
  for (unsigned char c : s) ++count[c];
  double h = 0;
  const double n = static_cast<double>(s.size());
  for (std::uint16_t c : count) {
    if (c == 0) continue;
    const double p = c / n;
    h -= p * std::log2(p);
  }
  return h;
}

// Six characters in a row that follow each other in the alphabet (abcdef, 123456, UVWXYZ): an
// alphabet table or a made-up example, not a random value (for a random base62 token of 40
// characters the chance is below 1e-8).
bool has_alphabet_run(std::string_view s) {
  int run = 1;
  for (std::size_t i = 1; i < s.size(); ++i) {
    const unsigned char a = static_cast<unsigned char>(s[i - 1]), b = static_cast<unsigned char>(s[i]);
    run = (b == a + 1 && is_alnum(a) && is_alnum(b)) ? run + 1 : 1;
    if (run >= 6) return true;
  }
  return false;
}

// How words-like a token is: the mean length of its runs (camelCase words, acronyms, digit runs),
// and the share of its letters and digits in pronounceable words (an optional capital, then 3+
// lowercase letters with a vowel). Measured on 20,000 random tokens per length (2026-12-07): a
// random base62 token of 20-64 characters has mean run ≤ 3.3 in 99 % (median 1.8); identifiers
// such as getServerSideProps2, XMLHttpRequestUpload, createElementNS2024 have 3.8-5.
struct Wordiness {
  double mean_run = 0;
  double word_share = 0;
};
Wordiness wordiness(std::string_view s) {
  std::size_t runs = 0, alnum = 0, in_words = 0;
  std::size_t i = 0;
  const std::size_t n = s.size();
  auto vowel = [](unsigned char c) {
    c = static_cast<unsigned char>(c | 0x20);
    return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y';
  };
  while (i < n) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (!is_alnum(c)) {
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    if (is_digit(c)) {
      while (j < n && is_digit(static_cast<unsigned char>(s[j]))) ++j;
    } else if (is_upper(c)) {
      if (j < n && is_lower(static_cast<unsigned char>(s[j]))) {
        while (j < n && is_lower(static_cast<unsigned char>(s[j]))) ++j;
      } else {
        // An acronym: capitals up to the last one before a lowercase letter (HTTPServer → HTTP).
        while (j < n && is_upper(static_cast<unsigned char>(s[j])) &&
               !(j + 1 < n && is_lower(static_cast<unsigned char>(s[j + 1]))))
          ++j;
      }
    } else {
      while (j < n && is_lower(static_cast<unsigned char>(s[j]))) ++j;
    }
    ++runs;
    alnum += j - i;
    // A word: 3+ letters (a capital, then lowercase) with a vowel and no more than 4 consonants in a row (a random
    // lowercase run has long consonant clusters: qvljkhhskt).
    const std::size_t lower_from = is_upper(c) ? i + 1 : i;
    if (!is_digit(c) && j - i >= 3 && j > lower_from) {
      bool v = false;
      int cluster = 0, worst = 0;
      for (std::size_t k = lower_from; k < j; ++k) {
        const bool is_v = vowel(static_cast<unsigned char>(s[k]));
        v = v || is_v;
        cluster = is_v ? 0 : cluster + 1;
        worst = std::max(worst, cluster);
      }
      if (v && worst <= 4) in_words += j - i;
    }
    i = j;
  }
  Wordiness w;
  if (runs > 0) w.mean_run = static_cast<double>(alnum) / static_cast<double>(runs);
  if (alnum > 0) w.word_share = static_cast<double>(in_words) / static_cast<double>(alnum);
  return w;
}

// Prefix words that name an identifier, not a credential: ids of tool calls, messages, requests
// and objects that AI hosts and APIs put in ordinary traffic (Claude toolu_/msg_/srvtoolu_,
// OpenAI call_/chatcmpl-/resp_/run_/thread_/asst_/file-, Stripe object ids), and hash names.
bool id_word(std::string_view w) {
  static constexpr std::array<std::string_view, 46> kIds = {
      "toolu", "srvtoolu", "msg", "call", "chatcmpl", "resp", "req", "request", "run", "thread",
      "asst", "file", "evt", "cus", "pi", "ch", "in", "sub", "prod", "price", "txn", "acct", "id",
      "uuid", "obj", "span", "trace", "job", "task", "build", "commit", "rev", "sha", "sha1",
      "sha256", "sha384", "sha512", "md5", "hash", "digest", "checksum", "etag", "batch", "step",
      "item", "seti"};
  for (std::string_view id : kIds)
    if (w == id) return true;
  return false;
}

// A leading vendor prefix: up to three short segments of one letter case (sk_, dckr_oat_,
// mdb_sa_sk_, tvly-, e2b_, pat., s., access_token$production$), each ended by _ - . or $.
struct Prefixed {
  std::size_t prefix_len = 0;  // bytes of the prefix, separators included (0: none)
  bool id_only = true;         // every prefix word names an identifier
  bool secret_word = false;    // a prefix word says "secret" (sk, secret, pat, key, token, …)
  std::size_t after_secret_word = 0;  // where the text after that word's separator begins
  bool key_word = false;       // the first word is `sk` or `rk` (secret key, restricted key)
};
bool secret_prefix_word(std::string_view w) {
  static constexpr std::array<std::string_view, 10> kWords = {"sk", "secret", "pat", "key", "token", "pwd",
                                                              "pass", "priv", "private", "rk"};
  for (std::string_view k : kWords)
    if (w == k) return true;
  return false;
}
Prefixed split_prefix(std::string_view t) {
  Prefixed p;
  std::size_t i = 0;
  for (int seg = 0; seg < 3; ++seg) {
    std::size_t j = i;
    bool lower = false, upper = false, letter = false;
    while (j < t.size() && j - i <= 12 && is_alnum(static_cast<unsigned char>(t[j]))) {
      const unsigned char c = static_cast<unsigned char>(t[j]);
      lower = lower || is_lower(c);
      upper = upper || is_upper(c);
      letter = letter || !is_digit(c);
      ++j;
    }
    if (j == i || j - i > 12 || j >= t.size() || !letter || (lower && upper)) break;
    const char sep = t[j];
    if (sep != '_' && sep != '-' && sep != '.' && sep != '$') break;
    if (t.size() - (j + 1) < 16) break;  // the rest is too short to be a body
    std::string w(t.substr(i, j - i));
    for (char& c : w) c = static_cast<char>(c | 0x20);
    if (!id_word(w)) p.id_only = false;
    if (secret_prefix_word(w) && !p.secret_word) {
      p.secret_word = true;
      p.after_secret_word = j + 1;
    }
    if (seg == 0 && (w == "sk" || w == "rk")) p.key_word = true;
    i = j + 1;
    p.prefix_len = i;
  }
  if (p.prefix_len == 0) p.id_only = false;
  return p;
}

// ---- base64 and DER -------------------------------------------------------------------------

int b64_value(unsigned char c) {
  if (is_upper(c)) return c - 'A';
  if (is_lower(c)) return c - 'a' + 26;
  if (is_digit(c)) return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

// Whether every byte of `s` is of the base64 alphabet (with `=`), standard or URL-safe: one
// table look-up per byte (find_first_not_of with a 65-character set searched that set per byte,
// a quarter of the time of redacting 1 MB of base64).
bool only_b64(std::string_view s, bool url_safe) {
  for (unsigned char c : s) {
    if (is_alnum(c) || c == '=') continue;
    if (url_safe ? (c == '-' || c == '_') : (c == '+' || c == '/')) continue;
    return false;
  }
  return true;
}

// The bytes of a base64 (standard or URL-safe) token, at most `limit` of them; false when it is
// not base64 (a character outside the alphabet, or a length no encoder produces).
bool b64_decode(std::string_view t, std::size_t limit, std::string& out) {
  while (!t.empty() && t.back() == '=') t.remove_suffix(1);
  if (t.size() % 4 == 1) return false;
  out.clear();
  std::uint32_t acc = 0;
  int bits = 0;
  for (unsigned char c : t) {
    const int v = b64_value(c);
    if (v < 0) return false;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
      if (out.size() >= limit) return true;
    }
  }
  return true;
}

// Whether decoded bytes are text: printable ASCII, whitespace or UTF-8, no control bytes.
bool looks_like_text(std::string_view d) {
  if (d.size() < 4) return false;
  std::size_t bad = 0;
  for (unsigned char c : d) {
    if (c == '\n' || c == '\r' || c == '\t' || (c >= 0x20 && c < 0x7F) || c >= 0x80) continue;
    ++bad;
  }
  std::size_t high = 0;
  for (unsigned char c : d) high += c >= 0x80;
  return bad == 0 && high * 4 <= d.size();
}

// A file format's magic number at the start (images, fonts, archives, documents): file content.
bool file_magic(std::string_view d) {
  using namespace std::string_view_literals;  // "\0…"sv keeps its NUL bytes
  static constexpr std::array<std::string_view, 14> kMagic = {
      "\x89PNG"sv, "\xFF\xD8\xFF"sv, "GIF8"sv, "RIFF"sv, "%PDF"sv, "PK\x03\x04"sv, "\x1F\x8B"sv, "BM"sv,
      "wOFF"sv, "wOF2"sv, "\x00\x00\x01\x00"sv, "OTTO"sv, "\x7F" "ELF"sv, "<svg"sv};
  for (std::string_view m : kMagic)
    if (!m.empty() && d.substr(0, m.size()) == m) return true;
  return false;
}

// DER: 0 = not DER, 1 = a private key (a SEQUENCE that opens with a small INTEGER: PKCS#1,
// PKCS#8, SEC 1 EC keys, PKCS#12), 2 = other DER (certificates, public keys, CSRs: a SEQUENCE
// that opens with a SEQUENCE or an OID).
int der_kind(std::string_view d) {
  if (d.size() < 8 || static_cast<unsigned char>(d[0]) != 0x30) return 0;
  std::size_t i = 1;
  const unsigned char l = static_cast<unsigned char>(d[i]);
  if (l < 0x80) i += 1;
  else if (l == 0x81) i += 2;
  else if (l == 0x82) i += 3;
  else if (l == 0x83) i += 4;
  else return 0;
  if (i + 3 > d.size()) return 0;
  const unsigned char tag = static_cast<unsigned char>(d[i]);
  if (tag == 0x02 && static_cast<unsigned char>(d[i + 1]) == 0x01 && static_cast<unsigned char>(d[i + 2]) <= 3)
    return 1;
  if (tag == 0x30 || tag == 0x06) return 2;
  return 0;
}

// An SSH public key blob: uint32 length, then the key type name (ssh-ed25519, ecdsa-…, sk-…).
bool ssh_public_blob(std::string_view d) {
  if (d.size() < 8 || d[0] != 0 || d[1] != 0 || d[2] != 0) return false;
  const std::string_view name = d.substr(4, 4);
  return name == "ssh-" || name == "ecds" || name == "sk-s" || name == "sk-e" || name == "rsa-";
}

// ---- the token classifier -------------------------------------------------------------------

// The thresholds, measured on 20,000 random tokens per alphabet and length (2026-12-07). The
// entropy floor is about the 0.1st percentile of random tokens of that length: log2(L) - 1.0
// bits for mixed case (base62: 3.48 at 20 characters, 4.08 at 32, 4.32 at 40), log2(L) - 1.25
// for one letter case and digits (base36: 3.24 at 20, 3.78 at 32), capped at detect-secrets'
// 4.5 (base64) and 3.9; hex bodies need detect-secrets' 3.0 and a vendor prefix.
constexpr std::size_t kMinMixed = 20;         // a bare token, both letter cases
constexpr std::size_t kMinSingleCase = 24;    // a bare token, one letter case and digits
// A bare token of capitals and digits only, without a separator (AWS key ids: 4 letters then 16,
// 20 in all). Constants join their words with `_` (R_CKCORE_PCRELIMM8BY4, L2TP_L2SPECTYPE_NONE:
// taken at 20 when the separator was allowed) and lowercase runs make names (slugs, package
// names), so only this alphabet, unjoined, goes below 24, with the one-case word bound from 20.
// Random tokens of 20-23 capitals and digits: 0 % caught before, 95.6-97 % now. The cost: names
// of capitals joined without a separator pass too, OpenGL's function-pointer types
// (PFNGLUNIFORM1UI64NVPROC: 46 of 476,211 lines of /usr/include/*/*.h).
constexpr std::size_t kMinCapitals = 20;
constexpr std::size_t kMinPrefixedBody = 16;  // the body after a vendor prefix
constexpr std::size_t kMinPrefixedHex = 32;   // a hex body after a vendor prefix
constexpr double kMaxMeanRun = 3.3;
// Word share: random base62 tokens have a median of 0.15-0.2 and a 99th percentile of 0.53-0.65
// (20-40 characters); identifiers 0.68-0.95 (Argv0IsTheGivenNameOrThePath 0.68).
constexpr double kMaxWordShare = 0.6;
// ... but with short runs (mean ≤ 3.0: random base62 has a median of 1.8; names of whole words
// 3.1-5, Argv0IsTheGivenNameOrThePath 3.1) "words" are 3-5 letter runs that came up by chance
// (KID, Xofms, Laovc, uvens in a Tencent key: 0.61, mean run 2.8): the bound is then 0.65, for a
// token of 28+ characters without separators (names joined by `_` have short runs too,
// OISTE_WISeKey_Global_Root_GC_CA, and so do short camelCase names, glMultiTexCoord1dARB: 0.65,
// mean run 2.9, 20 characters).
constexpr double kShortRuns = 3.0;
constexpr double kMaxWordShareShortRuns = 0.65;
constexpr std::size_t kMinShortRunsLength = 28;
// One letter case: a run of letters is a whole run of capitals or of lowercase, so random base36
// runs are longer (3.6 letters on average) and most of them hold a vowel: word share median 0.3,
// 99th percentile 0.79 at 24 characters, 0.75 at 32, 0.70 at 40, 0.64-0.66 at 58, 0.62-0.64 at
// 64; 99.9th 0.92, 0.84-0.88, 0.82, 0.74, 0.72 (20,000 random tokens per length, upper and lower
// case, 2026-12-07). The base62 bound rejected 5-12 % of random base36 tokens of 24-32 characters
// (an age key's body has 0.64). From 24 characters the bound is that 0.1st percentile, at most
// 0.8 (names joined without a separator: urlsafe_b64decode 0.81, element_i18nattrs 0.81); shorter
// bodies keep the base62 bound, where random and names overlap.
double max_word_share_one_case(std::size_t n, std::size_t floor = kMinSingleCase) {
  if (n < floor) return kMaxWordShare;
  return std::min(0.8, std::max(0.72, 1.06 - 0.0055 * static_cast<double>(n)));
}

// A hex body in segments after a vendor prefix (PMAK-<24>-<34>, lsv2_pt_<32>_<10>,
// sgp_<16>_<40>): every segment hex of 8+ digits, one of 24+, 32+ in all, digits and letters
// mixed, 3.0+ bits per character. A UUID (8-4-4-4-12) has 4-digit segments and stays an
// identifier after any prefix (session-<uuid>); so do dates, versions and counters (short or
// decimal segments).
bool hex_segments(std::string_view body) {
  std::size_t total = 0, longest = 0, digits = 0, k = 0;
  std::string joined;
  while (k < body.size()) {
    std::size_t e = k;
    while (e < body.size() && is_hex(static_cast<unsigned char>(body[e]))) ++e;
    if (e - k < 8 || (e < body.size() && body[e] != '-' && body[e] != '_')) return false;
    for (std::size_t i = k; i < e; ++i) digits += is_digit(static_cast<unsigned char>(body[i]));
    joined.append(body.data() + k, e - k);
    total += e - k;
    longest = std::max(longest, e - k);
    k = e + 1;
  }
  return total >= kMinPrefixedHex && longest >= 24 && digits > 0 && digits < total && shannon(joined) >= 3.0;
}

// The character classes of a token body.
struct Counts {
  std::size_t lower = 0, upper = 0, digit = 0, hex = 0, alnum = 0, other = 0;
};

Counts count_chars(std::string_view body) {
  Counts c;
  for (unsigned char ch : body) {
    c.lower += is_lower(ch);
    c.upper += is_upper(ch);
    c.digit += is_digit(ch);
    c.hex += is_hex(ch);
    if (is_alnum(ch))
      ++c.alnum;
    else
      ++c.other;
  }
  return c;
}

// A structured identifier: segments (between - _ . $) of which half or more are numbers or hex
// (session-2026-12-02T10-10-7b3e9f20, api-7d9f8c6b5-x2x7q, 1.2.3-rc.4): dates, versions and
// generated names, not a random body (whose - and _ fall at random inside long segments).
bool structured_identifier(std::string_view body) {
  const std::size_t n = body.size();
  std::size_t segments = 0, typed = 0, k = 0;
  while (k <= n) {
    std::size_t e = k;
    bool only_hex = true, only_digits = true;
    while (e < n && is_alnum(static_cast<unsigned char>(body[e]))) {
      only_hex = only_hex && is_hex(static_cast<unsigned char>(body[e]));
      only_digits = only_digits && is_digit(static_cast<unsigned char>(body[e]));
      ++e;
    }
    if (e > k) {
      ++segments;
      const std::string_view seg = body.substr(k, e - k);
      const bool date_time = seg.size() <= 6 && seg.find('T') != std::string_view::npos &&
                             seg.find_first_not_of("0123456789T") == std::string_view::npos;
      if (only_digits || (only_hex && seg.size() >= 4) || date_time) ++typed;
    }
    k = e + 1;
  }
  return segments >= 3 && typed * 2 >= segments;
}

bool random_body(std::string_view body, bool prefixed);

// Whether a segment of a structured identifier after a vendor prefix is a random body of its own
// (Slack's xoxb-<team>-<user>-<24 random>): ids, then the secret, which decides.
bool random_segment(std::string_view body) {
  const std::size_t n = body.size();
  bool random = false;
  for (std::size_t a = 0; a < n && !random;) {
    std::size_t e = a;
    while (e < n && is_alnum(static_cast<unsigned char>(body[e]))) ++e;
    const std::string_view seg = body.substr(a, e - a);
    // A hex segment counts as it does right after a prefix: 32+ digits, letters and
    // numbers mixed (Slack's xapp-1-<id>-<number>-<64 hex>).
    const bool hex_seg = seg.find_first_not_of("0123456789abcdefABCDEF") == std::string_view::npos;
    random = hex_seg ? seg.size() >= kMinPrefixedHex &&
                           seg.find_first_of("0123456789") != std::string_view::npos &&
                           seg.find_first_not_of("0123456789") != std::string_view::npos &&
                           shannon(seg) >= 3.0
                     : seg.size() >= kMinPrefixedBody && random_body(seg, true);
    a = e + 1;
  }
  return random;
}

// A hash with words joined to it (docker's <64 hex>-init layer, <sha>-dirty): a name derived
// from a digest, as bare hex is. (A tag with digits is no word: <32 hex>-us21 is a key,
// hex_then_tag.)
bool hash_and_words(std::string_view body) {
  const std::size_t n = body.size();
  std::size_t k = 0, longest_hex = 0;
  bool only_hash_and_words = true;
  while (k < n && only_hash_and_words) {
    std::size_t e = k;
    bool only_hex = true, only_letters = true;
    while (e < n && is_alnum(static_cast<unsigned char>(body[e]))) {
      only_hex = only_hex && is_hex(static_cast<unsigned char>(body[e]));
      only_letters = only_letters && !is_digit(static_cast<unsigned char>(body[e]));
      ++e;
    }
    if (only_hex && e - k >= 24)
      longest_hex = std::max(longest_hex, e - k);
    else
      only_hash_and_words = only_letters;
    k = e + 1;
  }
  return only_hash_and_words && longest_hex > 0;
}

// A key in groups of capitals and digits joined by `-` (a 1Password secret key
// A3-<6>-<11>-<5>-<5>-<5>, licence and recovery keys): four or more groups of 4+ characters,
// digits in more than half the groups (ECDH-ECDSA-AES256-SHA384 has them in half: a cipher
// suite in OpenSSL's headers), and the groups joined random as a token of capitals and
// digits (the word measure on the groups as they stand), with the entropy floor of two letter
// cases, log2(L) - 1.0 (at most 3.9): about the 1st percentile of random groups of 25
// characters, the 0.1st of 34. Names have words and put their numbers in few groups: the cipher
// suites ECDHE-ECDSA-AES256-GCM-SHA384 (2 of 5 groups, 3.59 bits against 3.64) and
// ECDHE-ECDSA-CHACHA20-POLY1305 stay, as do constants, which join their words with `_`.
// The verdict, or none when `body` is not four or more such groups.
std::optional<bool> capital_groups(std::string_view body) {
  const std::size_t n = body.size();
  std::string joined;
  std::size_t groups = 0, long_groups = 0, with_digit = 0, k = 0;
  bool only_groups = true;
  while (k <= n && only_groups) {
    std::size_t e = k;
    bool digit_seen = false;
    while (e < n && (is_upper(static_cast<unsigned char>(body[e])) ||
                     is_digit(static_cast<unsigned char>(body[e])))) {
      digit_seen = digit_seen || is_digit(static_cast<unsigned char>(body[e]));
      ++e;
    }
    only_groups = e > k && (e == n || body[e] == '-');
    ++groups;
    long_groups += e - k >= 4;
    with_digit += digit_seen;
    joined.append(body.data() + k, e - k);
    k = e + 1;
  }
  if (!only_groups || long_groups < 4) return std::nullopt;
  if (with_digit * 2 <= groups || joined.size() < kMinCapitals || has_alphabet_run(joined))
    return false;
  std::size_t digits = 0;
  for (unsigned char c : joined) digits += is_digit(c);
  const double len = static_cast<double>(joined.size());
  const Wordiness wg = wordiness(body);  // runs end at the dashes
  return digits * 10 >= joined.size() && digits * 10 <= joined.size() * 9 &&
         wg.word_share <= max_word_share_one_case(joined.size(), kMinCapitals) &&
         wg.mean_run <= 5.0 && shannon(joined) >= std::min(3.9, std::log2(len) - 1.0);
}

// A name joined with - _ . $: half or more of its letters and digits in plain segments (one
// letter case, with digits only up to 8 characters: real, host, x86, crc32c, PKIX, P256), as in
// pinta-real-host-c3mHyY, cpython-311-x86_64-linux-gnu, PKIX_ECDSA_P256_SHA_256. A random
// URL-safe body's segments mix the cases (LeJbeLO6XQ_87xZsU79es-…).
bool joined_name(std::string_view body, std::size_t alnum) {
  const std::size_t n = body.size();
  std::size_t plain = 0, k = 0;
  while (k < n) {
    std::size_t e = k;
    bool upper_seen = false, lower_seen = false, digit_seen = false;
    while (e < n && is_alnum(static_cast<unsigned char>(body[e]))) {
      upper_seen = upper_seen || is_upper(static_cast<unsigned char>(body[e]));
      lower_seen = lower_seen || is_lower(static_cast<unsigned char>(body[e]));
      digit_seen = digit_seen || is_digit(static_cast<unsigned char>(body[e]));
      ++e;
    }
    if (e > k && !(upper_seen && lower_seen) && (!digit_seen || e - k <= 8)) plain += e - k;
    k = e + 1;
  }
  return plain * 2 >= alnum;
}

// Both letter cases in earnest: the thresholds of base62/base64. `h`: the body's entropy.
bool random_mixed_case(std::size_t n, const Counts& c, const Wordiness& w, double h,
                       bool prefixed) {
  if (w.word_share > (c.other == 0 && n >= kMinShortRunsLength && w.mean_run <= kShortRuns
                          ? kMaxWordShareShortRuns
                          : kMaxWordShare))
    return false;
  if (n < (prefixed ? kMinPrefixedBody : kMinMixed)) return false;
  if (h < std::min(4.5, std::log2(static_cast<double>(n)) - 1.0) - (prefixed ? 0.3 : 0.0))
    return false;
  return w.mean_run <= kMaxMeanRun;
}

// One letter case and digits (base36, Crockford base32).
// (The one-case bound only where there is truly one case: camelCase with a few capitals,
// reactInternalInstance, keeps the bound of words.)
bool random_one_case(std::string_view body, const Counts& c, const Wordiness& w, double h,
                     bool prefixed) {
  const std::size_t n = body.size();
  const std::size_t one_case_floor = c.lower == 0 && c.other == 0 ? kMinCapitals : kMinSingleCase;
  if (w.word_share > (std::min(c.lower, c.upper) == 0 ? max_word_share_one_case(n, one_case_floor)
                                                      : kMaxWordShare))
    return false;
  if (n < (prefixed ? kMinPrefixedBody : one_case_floor)) return false;
  // 10-90 % digits; capitals unjoined need one digit only (an AWS key id's 16 base32 characters
  // after AKIA have none or one digit in 17 % of keys; QZRB + 16-19 random capitals and digits:
  // 88 % caught with the 10 % floor, 92.5 % with this one).
  if (c.lower == 0 && c.other == 0 && n >= kMinCapitals ? c.digit == 0 : c.digit * 10 < c.alnum)
    return false;
  if (c.digit * 10 > c.alnum * 9) return false;
  // A ULID (26 Crockford base32 characters, a timestamp first) is an identifier.
  if (n == 26 && c.lower == 0 && body[0] >= '0' && body[0] <= '7') return false;
  if (h < std::min(3.9, std::log2(static_cast<double>(n)) - 1.25) - (prefixed ? 0.3 : 0.0))
    return false;
  // Base36 runs are longer (letters are 72 % of the alphabet): median 2.5, 99th percentile 5.3
  // at 32 characters.
  return w.mean_run <= 5.0;
}

// Whether `body` (a token without its prefix) is random-looking. `prefixed`: a vendor prefix came
// before it (shorter bodies and hex count then).
bool random_body(std::string_view body, bool prefixed) {
  const Counts c = count_chars(body);
  const std::size_t n = body.size();
  if (c.alnum < n * 3 / 4) return false;  // mostly punctuation: not a token
  // A structured identifier is no random body, unless a segment is one after a vendor prefix.
  if (c.other > 0 && structured_identifier(body)) return prefixed && random_segment(body);
  if (has_alphabet_run(body)) return false;
  // A hash with words joined to it, unless a vendor prefix came first.
  if (!prefixed && c.other > 0 && hash_and_words(body)) return false;
  const double h = shannon(body);
  if (c.hex == c.alnum) {  // bare hex: hashes, ids, SHAs, UUIDs
    if (!prefixed) return false;
    if (body.find_first_of("-_.$") != std::string_view::npos) return hex_segments(body);
    return c.alnum >= kMinPrefixedHex && c.digit > 0 && c.digit < c.alnum && h >= 3.0;
  }
  if (c.other > 0 && c.lower == 0) {
    if (const std::optional<bool> key = capital_groups(body)) return *key;
  }
  if (c.other > 0 && joined_name(body, c.alnum)) return false;
  const Wordiness w = wordiness(body);
  // Both letter cases in earnest (the rarer one at least 15 % of the letters): base62/base64.
  // Else one case and digits, with the thresholds of base36 (Qx9-qtev870sveo49… is lowercase).
  if (std::min(c.lower, c.upper) * 20 >= (c.lower + c.upper) * 3)
    return random_mixed_case(n, c, w, h, prefixed);
  return random_one_case(body, c, w, h, prefixed);
}

// <32+ hex, digits and letters mixed, 3.0+ bits>-<2-4 letters><1-3 digits>.
bool hex_then_tag(std::string_view t) {
  const std::size_t dash = t.rfind('-');
  if (dash == std::string_view::npos || dash < kMinPrefixedHex) return false;
  const std::string_view hex = t.substr(0, dash), tag = t.substr(dash + 1);
  std::size_t letters = 0;
  while (letters < tag.size() && (is_lower(static_cast<unsigned char>(tag[letters])) ||
                                  is_upper(static_cast<unsigned char>(tag[letters]))))
    ++letters;
  const std::size_t digits = tag.size() - letters;
  if (letters < 2 || letters > 4 || digits < 1 || digits > 3 ||
      tag.substr(letters).find_first_not_of("0123456789") != std::string_view::npos)
    return false;
  std::size_t digit_count = 0;
  for (unsigned char c : hex) {
    if (!is_hex(c)) return false;
    digit_count += is_digit(c);
  }
  return digit_count > 0 && digit_count < hex.size() && shannon(hex) >= 3.0;
}

// A version then a key: `v1.0-` (digits joined by dots, an optional v, then `-` or `_`) before
// hex in two or more segments or a random body (Cloudflare's origin CA key v1.0-<24 hex>-<146
// hex>). One hex run stays: 1.2.3-<git SHA> names a build.
bool version_prefixed(std::string_view t) {
  std::size_t i = (!t.empty() && (t[0] == 'v' || t[0] == 'V')) ? 1 : 0;
  std::size_t dots = 0;
  while (true) {
    const std::size_t from = i;
    while (i < t.size() && i - from < 4 && is_digit(static_cast<unsigned char>(t[i]))) ++i;
    if (i == from) return false;
    if (i < t.size() && t[i] == '.') {
      ++dots;
      ++i;
      continue;
    }
    break;
  }
  if (dots == 0 || i >= t.size() || (t[i] != '-' && t[i] != '_')) return false;
  const std::string_view body = t.substr(i + 1);
  if (body.size() < kMinPrefixedBody || body.find('.') != std::string_view::npos) return false;
  if (body.find_first_not_of("0123456789abcdefABCDEF-_") == std::string_view::npos)
    return body.find_first_of("-_") != std::string_view::npos && hex_segments(body);
  return random_body(body, true);
}

// The body of a token whose first word is `sk` or `rk`: how vendors name a secret or restricted
// key whatever the vendor (sk-, sk-proj-, sk-ant-api03-, sk_live_, rk_live_, sk_<48 hex>,
// sk-lf-…). After those words a body need not look random to be a key: a hand-made or test value
// (rk_live_51H8abcdEFGHijklMNOP: paired alphabet runs, 0.65 in "words"; a repeated triple; the
// alphabet backwards) is still the key's value, so neither the entropy floor nor the word bound
// applies. A body is 16+ letters and digits without a separator (names after these words join
// their parts: sk_psock_skb_ingress_enqueue, sk-learn-1-4-2), with letters and digits both or
// both letter cases (sk-REPLACEWITHYOURKEYHERE stays), 3+ distinct characters and none in more
// than half of it (a placeholder, sk_live_XXXXXXXXXXXXXXXX, stays).
bool key_body(std::string_view body) {
  if (body.size() < kMinPrefixedBody) return false;
  std::array<std::uint16_t, 256> count{};
  std::size_t lower = 0, upper = 0, digit = 0, distinct = 0, most = 0;
  for (unsigned char c : body) {
    if (!is_alnum(c)) return false;
    lower += is_lower(c);
    upper += is_upper(c);
    digit += is_digit(c);
    distinct += count[c]++ == 0;
    most = std::max<std::size_t>(most, count[c]);
  }
  const bool mixed = (lower > 0 && upper > 0) || (digit > 0 && digit < body.size());
  return mixed && distinct >= 3 && most * 2 <= body.size();
}

}  // namespace

Shape classify(std::string_view t) {
  if (t.size() < kMinPrefixedBody) return Shape::kNone;
  const Prefixed p = split_prefix(t);
  if (p.prefix_len > 0 && p.id_only) return Shape::kNone;
  // A short word glued to 32+ hex digits without a separator (Twilio SK<32 hex>, Databricks
  // dapi<32 hex>): the word ends at the last character that is no hex digit, and has 2-8 letters.
  if (p.prefix_len == 0) {
    const std::size_t last = t.find_last_not_of("0123456789abcdefABCDEF");
    if (last != std::string_view::npos && last >= 1 && last < 8) {
      const std::string_view word = t.substr(0, last + 1), body = t.substr(last + 1);
      std::string lower_word;
      bool letters = true;
      for (unsigned char c : word) {
        letters = letters && (is_lower(c) || is_upper(c));
        lower_word += static_cast<char>(c | 0x20);
      }
      std::size_t digits = 0;
      for (unsigned char c : body) digits += is_digit(c);
      if (letters && !id_word(lower_word) && body.size() >= kMinPrefixedHex && digits > 0 &&
          digits < body.size() && shannon(body) >= 3.0)
        return Shape::kPrefixed;
    }
  }
  // 32+ hex digits then a routing tag: `-`, 2-4 letters, 1-3 digits (a datacenter or region:
  // Mailchimp's <32 hex>-us21). A hash's own suffixes have no such tag: S3's multipart ETag
  // <md5>-<parts> is digits, docker's <64 hex>-init and git's -dirty are letters.
  if (p.prefix_len == 0 && hex_then_tag(t)) return Shape::kPrefixed;
  // GitHub's GraphQL node ids (PR_kwDOA8WJ1M5Fyxx0, U_kgDOBz…): a type, then msgpack that starts
  // kgDO / kwDO.
  if (p.prefix_len > 0 && p.prefix_len <= 5 &&
      (t.substr(p.prefix_len, 4) == "kgDO" || t.substr(p.prefix_len, 4) == "kwDO"))
    return Shape::kNone;
  if (p.prefix_len > 0 && random_body(t.substr(p.prefix_len), true)) return Shape::kPrefixed;
  if (p.key_word && key_body(t.substr(p.prefix_len))) return Shape::kPrefixed;
  // A secret-named prefix before 32+ hex digits, dashes allowed (sk-lf-<uuid>).
  if (p.prefix_len > 0 && p.secret_word) {
    std::string_view body = t.substr(p.after_secret_word);
    // Short prefix words after the secret word (sk-lf-): not part of the hex.
    while (true) {
      const std::size_t sep = body.find('-');
      if (sep == std::string_view::npos || sep > 4 || body.substr(0, sep).find_first_not_of("abcdefghijklmnopqrstuvwxyz") != std::string_view::npos ||
          body.substr(0, sep).find_first_not_of("abcdef") == std::string_view::npos)
        break;
      body.remove_prefix(sep + 1);
    }
    std::size_t hex = 0;
    bool only = true;
    for (unsigned char c : body) {
      if (is_hex(c)) ++hex;
      else if (c != '-') only = false;
    }
    if (only && hex >= 32 && shannon(body) >= 3.0) return Shape::kPrefixed;
  }
  return random_body(t, false) ? Shape::kRandom : Shape::kNone;
}

namespace {

// ---- the scan -------------------------------------------------------------------------------

// Whether the token at `start` is the value of a field whose name says identifier or public
// digest (`"request_id": "…"`, `x-amz-id-2: …`, `buildId=…`, `integrity …`, `etag`): the shape
// detector leaves such values alone (the rules and the name-based context still apply).
bool identifier_context(std::string_view t, std::size_t start) {
  std::size_t i = start;
  std::size_t budget = 8;  // quotes, spaces, one `:` or `=`
  bool sep = false;
  while (i > 0 && budget-- > 0) {
    const char c = t[i - 1];
    if (c == '"' || c == '\'' || c == ' ' || c == '\t') {
      --i;
    } else if ((c == ':' || c == '=') && !sep) {
      sep = true;
      --i;
    } else {
      break;
    }
  }
  if (!sep) return false;
  std::size_t e = i;
  while (i > 0 && e - i < 64 &&
         (is_alnum(static_cast<unsigned char>(t[i - 1])) || t[i - 1] == '_' || t[i - 1] == '-' || t[i - 1] == '.'))
    --i;
  std::string name;
  for (std::size_t k = i; k < e; ++k) {
    const unsigned char c = static_cast<unsigned char>(t[k]);
    if (is_alnum(c)) name += static_cast<char>(is_upper(c) ? c + 32 : c);
    else name += '_';
  }
  // A trailing _<digits> is a counter (x-amz-id-2); md5, sha256, crc32c keep their digits.
  {
    std::size_t k = name.size();
    while (k > 0 && is_digit(static_cast<unsigned char>(name[k - 1]))) --k;
    if (k < name.size() && k > 0 && name[k - 1] == '_') name.resize(k - 1);
  }
  // A key's id is how a credential pair names its key (AWS_ACCESS_KEY_ID, `key id: AKIA…`): not
  // an identifier of something else, so the shape detector judges it like any value.
  const auto lower_at = [&](std::size_t k) { return static_cast<char>(t[k] | 0x20); };
  if (name.ends_with("key_id") || name.ends_with("keyid") ||
      (name == "id" && i >= 4 && lower_at(i - 4) == 'k' && lower_at(i - 3) == 'e' && lower_at(i - 2) == 'y' &&
       (t[i - 1] == ' ' || t[i - 1] == '-')))
    return false;
  static constexpr std::array<std::string_view, 16> kIdSuffixes = {
      "id", "_ids", "uuid", "guid", "hash", "etag", "digest", "checksum", "integrity", "sha", "sha1", "sha256",
      "sha512", "md5", "crc32c", "nonce"};
  for (std::string_view sfx : kIdSuffixes) {
    if (name.size() < sfx.size() || name.compare(name.size() - sfx.size(), sfx.size(), sfx) != 0) continue;
    // `id` alone or at a word end (request_id, buildId → buildid), not `paid`, `void`.
    if (sfx == "id" && name.size() > 2) {
      const char before = name[name.size() - 3];
      const std::string_view raw = t.substr(i, e - i);
      const bool camel = raw.size() >= 2 && raw[raw.size() - 2] == 'I';
      if (before != '_' && before != '-' && !camel) continue;
    }
    return true;
  }
  return false;
}

// The spans of PEM blocks that hold no private key (certificates, public keys, signatures): their
// base64 lines are public. Linear: each BEGIN is matched with the next END.
std::vector<std::pair<std::size_t, std::size_t>> public_pem_blocks(std::string_view t) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::size_t at = 0;
  while ((at = t.find("-----BEGIN ", at)) != std::string_view::npos) {
    const std::size_t label_end = t.find("-----", at + 11);
    if (label_end == std::string_view::npos) break;
    const std::string_view label = t.substr(at + 11, label_end - at - 11);
    const std::size_t end = t.find("-----END ", label_end + 5);
    const std::size_t stop = end == std::string_view::npos ? t.size() : end;
    if (label.find("PRIVATE") == std::string_view::npos && label.size() < 64) out.emplace_back(at, stop);
    at = stop == t.size() ? stop : stop + 9;
  }
  return out;
}

// Wrapped base64 (`base64` wraps at 76, PEM at 64): runs of 2+ lines of base64 characters only,
// 40+ long, all but the last of one length. Each block is decoded from its first line: a file
// (image, font, archive), a certificate or public key, or text is skipped whole (`skip`); a DER
// private key is cut line by line (`cuts`); anything else is left to the token scan.
void base64_blocks(std::string_view t, std::vector<std::pair<std::size_t, std::size_t>>& skip,
                          std::vector<Cut>& cuts) {
  auto b64_line = [](std::string_view l) {
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    return l.size() >= 40 && only_b64(l, false);
  };
  std::size_t at = 0;
  while (at < t.size()) {
    std::size_t nl = t.find('\n', at);
    if (nl == std::string_view::npos) nl = t.size();
    std::string_view first = t.substr(at, nl - at);
    if (!b64_line(first)) {
      at = nl + 1;
      continue;
    }
    if (first.back() == '\r') first.remove_suffix(1);
    // Extend the block while the lines keep the first one's length.
    std::vector<std::pair<std::size_t, std::size_t>> lines = {{at, at + first.size()}};
    std::size_t next = nl + 1;
    while (next < t.size()) {
      std::size_t e = t.find('\n', next);
      if (e == std::string_view::npos) e = t.size();
      std::string_view l = t.substr(next, e - next);
      if (!b64_line(l)) break;
      if (l.back() == '\r') l.remove_suffix(1);
      lines.emplace_back(next, next + l.size());
      next = e + 1;
      if (l.size() != first.size()) break;  // the last, shorter line
    }
    if (lines.size() >= 2) {
      std::string d;
      b64_decode(first.substr(0, first.size() / 4 * 4), 64, d);
      if (der_kind(d) == 1) {
        for (const auto& [a, b] : lines) cuts.push_back({a, b, "private_key"});
        skip.emplace_back(lines.front().first, lines.back().second);
      } else if (file_magic(d) || der_kind(d) == 2 || ssh_public_blob(d) || looks_like_text(d)) {
        skip.emplace_back(lines.front().first, lines.back().second);
      }
    }
    at = lines.back().second + 1;
  }
}

// What a decoded base64 token is: a secret (`type`), or not (empty). `holds_secret(text)` says
// whether decoded text holds a secret (the redactor, one level deeper).
std::string_view decoded_verdict(std::string_view token, bool random, SecretTest holds_secret) {
  std::string d;
  if (!b64_decode(token, 1 << 20, d) || d.size() < 8) return random ? "high_entropy" : "";
  if (looks_like_text(d)) {
    // user:password (a Basic credential, a docker auth), else whatever the redactor finds in it.
    const std::size_t colon = d.find(':');
    // The user part has a letter: GitHub's legacy node ids are base64 of `010:Repository1296269`.
    const bool pair = colon > 0 && colon < 64 && colon != std::string::npos && d.size() - colon > 4 &&
                      d.find_first_of(" \t\r\n", 0) == std::string::npos && d.size() < 256 &&
                      d.substr(0, colon).find_first_not_of("0123456789") != std::string::npos;
    return pair || holds_secret(std::string_view(d)) ? "base64_secret" : "";
  }
  if (der_kind(d) == 1) return "private_key";
  if (der_kind(d) == 2 || ssh_public_blob(d) || file_magic(d)) return "";
  // Binary: key material is short; a long blob of unknown binary is file content.
  return random && d.size() <= 1024 ? "high_entropy" : "";
}

// Spans the token scan passes over, in order: public PEM blocks, wrapped base64 of files and
// keys (the cuts of wrapped private keys go to `cuts`).
std::vector<std::pair<std::size_t, std::size_t>> skipped_spans(std::string_view t,
                                                               std::vector<Cut>& cuts) {
  auto pem = public_pem_blocks(t);
  std::vector<std::pair<std::size_t, std::size_t>> blocks;
  base64_blocks(t, blocks, cuts);
  if (!blocks.empty()) {
    pem.insert(pem.end(), blocks.begin(), blocks.end());
    std::sort(pem.begin(), pem.end());
  }
  return pem;
}

// Public hashes: SRI (sha512-…), go.sum (h1:…), digests (sha256:…), data: URIs (…;base64,).
// (SHA256:… is also how ssh prints a key's fingerprint.) Whether the token at `start` follows
// one of their labels.
bool after_digest_label(std::string_view t, std::size_t start) {
  std::string before(t.substr(start >= 8 ? start - 8 : 0, start >= 8 ? 8 : start));
  for (char& c : before) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  return before.ends_with(";base64,") || before.ends_with("h1:") || before.ends_with("sha256:") ||
         before.ends_with("sha512:") || before.ends_with("sha384:") || before.ends_with("sha1:") ||
         before.ends_with("md5:");
}

// Trims sentence punctuation and markup around the token; `tok_start` moves with its front.
std::string_view trim_token(std::string_view tok, std::size_t& tok_start) {
  while (!tok.empty() &&
         (tok.front() == '.' || tok.front() == '-' || tok.front() == '_' || tok.front() == '~')) {
    tok.remove_prefix(1);
    ++tok_start;
  }
  while (!tok.empty() &&
         (tok.back() == '.' || tok.back() == '-' || tok.back() == '_' || tok.back() == '~'))
    tok.remove_suffix(1);
  return tok;
}

// Base64 of a file, a certificate or public key (a PNG has `///` in it, a JPEG starts with
// `/9j/`): skipped whole, never a path.
bool public_base64(std::string_view tok) {
  if (tok.size() < 24 || !only_b64(tok, false)) return false;
  std::string d;
  return b64_decode(tok, 1 << 20, d) && d.size() >= 8 &&
         (file_magic(d) || der_kind(d) == 2 || ssh_public_blob(d));
}

// A path: starts with / . ~, has // or a dot, or joins names with _ or - (and has no +, which
// base64 has and names rarely do). A vendor prefix then base64 (kord_pat_8kH/Sn+…) is none.
bool path_token(std::string_view tok) {
  if (tok.find('/') == std::string_view::npos) return false;
  const Prefixed pre = split_prefix(tok);
  const std::string_view rest = tok.substr(pre.prefix_len);
  const bool prefixed_b64 =
      pre.prefix_len > 0 && rest.find_first_of("._-~$") == std::string_view::npos;
  return !prefixed_b64 && (tok.front() == '/' || tok.find("//") != std::string_view::npos ||
                           tok.find_first_of(".~$") != std::string_view::npos ||
                           (tok.find_first_of("_-") != std::string_view::npos &&
                            tok.find('+') == std::string_view::npos));
}

// The shape of a dotted token (pat.<id>.<random>, s.<random>, a.b.c), piece by piece: a random
// piece takes the whole dotted token.
Shape dotted_shape(std::string_view piece) {
  Shape shape = Shape::kNone;
  std::size_t k = 0;
  std::string_view prev;
  while (k <= piece.size() && shape == Shape::kNone) {
    std::size_t dot = piece.find('.', k);
    if (dot == std::string_view::npos) dot = piece.size();
    const std::string_view part = piece.substr(k, dot - k);
    // After a short word (s., pat., nx.) a part is a body: hex and 16+ characters count.
    const Prefixed pre = split_prefix(std::string(prev) + "." + std::string(part));
    if (k > 0 && pre.prefix_len == prev.size() + 1 && !pre.id_only) {
      if (random_body(part, true)) shape = Shape::kPrefixed;
    } else if (classify(part) != Shape::kNone) {
      shape = k > 0 ? Shape::kPrefixed : Shape::kRandom;
    }
    prev = part;
    k = dot + 1;
  }
  return shape;
}

// Judges one piece of a token (at `at` in the text) and cuts it when it is a secret.
void consider_piece(std::string_view piece, std::size_t at, bool decode, std::vector<Cut>& cuts,
                    const SecretTest& holds_secret) {
  // A dotted token: whole, else piece by piece.
  const bool dotted = piece.find('.') != std::string_view::npos;
  Shape shape = version_prefixed(piece) ? Shape::kPrefixed
                : dotted                ? Shape::kNone
                                        : classify(piece);
  if (dotted && shape == Shape::kNone) shape = dotted_shape(piece);
  std::string_view type;
  const bool b64 = only_b64(piece, false);
  const bool b64url = only_b64(piece, true);
  if (shape == Shape::kPrefixed) {
    type = "prefixed_token";
  } else if (decode && (b64 || b64url) && piece.size() >= 16 &&
             (shape == Shape::kRandom || (b64 && piece.size() % 4 == 0))) {
    type = decoded_verdict(piece, shape == Shape::kRandom, holds_secret);
  } else if (shape == Shape::kRandom) {
    type = "high_entropy";
  }
  if (!type.empty()) cuts.push_back({at, at + piece.size(), type});
}

}  // namespace

// Appends the cuts of the shape detector for `t` (a view: escapes already undone). `decode`:
// whether base64 tokens are decoded (false one level down, so the work stays linear).
void shape_scan(std::string_view t, bool decode, std::vector<Cut>& cuts, SecretTest holds_secret) {
  const std::size_t first_cut = cuts.size();
  struct Sorted {  // the cuts leave in text order (block cuts come first)
    std::vector<Cut>& cuts;
    std::size_t from;
    ~Sorted() {
      std::sort(cuts.begin() + static_cast<std::ptrdiff_t>(from), cuts.end(),
                [](const Cut& a, const Cut& b) { return a.start < b.start; });
    }
  } sorted{cuts, first_cut};
  const auto pem = skipped_spans(t, cuts);
  std::size_t pem_i = 0;
  std::size_t id_value_end = static_cast<std::size_t>(-1);
  const std::size_t n = t.size();
  std::size_t i = 0;
  while (i < n) {
    if (!token_char(static_cast<unsigned char>(t[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    // `$` joins two token runs (access_token$production$…), never starts or ends one.
    while (j < n &&
           (token_char(static_cast<unsigned char>(t[j])) ||
            (t[j] == '$' && j > i && j + 1 < n && is_alnum(static_cast<unsigned char>(t[j + 1])))))
      ++j;
    // Base64 padding: up to two `=` not followed by more of the token (`KEY=value` is no padding).
    std::size_t end = j;
    while (end < n && end - j < 2 && t[end] == '=') ++end;
    if (end < n && end > j && (token_char(static_cast<unsigned char>(t[end])) || t[end] == '='))
      end = j;
    const std::size_t start = i;
    i = end > j ? end : j;
    if (end - start < kMinPrefixedBody) continue;
    while (pem_i < pem.size() && pem[pem_i].second <= start) ++pem_i;
    if (pem_i < pem.size() && pem[pem_i].first <= start) continue;  // a certificate's body, a file
    if (after_digest_label(t, start)) continue;
    // An identifier's value, and the rest of it after an inner `=` (x-amz-id-2: …Q=1HNe…).
    const bool continues = start > 0 && t[start - 1] == '=' && start - 1 == id_value_end;
    if (continues || identifier_context(t, start)) {
      id_value_end = end;
      continue;
    }
    std::size_t tok_start = start;
    const std::string_view tok = trim_token(t.substr(start, end - start), tok_start);
    if (tok.size() < kMinPrefixedBody) continue;
    if (tok.starts_with("sha512-") || tok.starts_with("sha384-") || tok.starts_with("sha256-") ||
        tok.starts_with("sha1-"))
      continue;  // Subresource Integrity (package-lock.json `integrity`): a public digest
    // Pieces evaluated alone: a path or URL's segments (a token with `/` and any of `._-~`, or
    // one that starts with `/`), else the token whole. Base64 of a file or public key is
    // skipped whole first.
    if (decode && public_base64(tok)) continue;
    if (path_token(tok)) {
      std::size_t k = 0;
      while (k < tok.size()) {
        std::size_t slash_at = tok.find('/', k);
        if (slash_at == std::string_view::npos) slash_at = tok.size();
        if (slash_at - k >= kMinPrefixedBody)
          consider_piece(tok.substr(k, slash_at - k), tok_start + k, decode, cuts, holds_secret);
        k = slash_at + 1;
      }
    } else {
      consider_piece(tok, tok_start, decode, cuts, holds_secret);
    }
  }
}

}  // namespace pinta::adapter::generic
