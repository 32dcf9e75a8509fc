#include "pinta/adapter/redact.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <bitset>
#include <mutex>
#include <span>
#include <tuple>
#include <cctype>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace pinta::adapter {
namespace {

using re2::RE2;

// One high-confidence pattern. The span of capture `group` (0: the whole match) becomes the
// marker. `any_of` are literals one of which must occur for a match to be possible (the cheap
// prefilter; `ci`: compared ignoring ASCII case). `accept` rejects look-alikes the regex cannot.
struct Rule {
  const char* type;
  const char* pattern;
  int group;
  std::array<const char*, 6> any_of;
  bool ci = false;
  bool (*accept)(std::string_view) = nullptr;
  std::string_view (*type_of)(const re2::StringPiece* groups) = nullptr;
};

bool has_digit(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}
bool has_digit_and_letter(std::string_view s) {
  if (s.substr(0, 3) == "sk-") s.remove_prefix(3);
  return has_digit(s) &&
         std::any_of(s.begin(), s.end(), [](unsigned char c) { return std::isalpha(c) != 0; });
}

std::string_view url_type(const re2::StringPiece* groups) {
  std::string scheme(groups[1].data(), groups[1].size());
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* db : {"postgres", "mysql", "mariadb", "mongodb", "redis", "amqp", "mssql",
                         "sqlserver", "oracle", "cockroach", "clickhouse"}) {
    if (scheme.find(db) != std::string::npos) return "connection_string";
  }
  return "url_credentials";
}

// A value that starts a secret: not a marker we wrote (`[`), not our truncation mark (`…`), not a
// shell reference (`$`).
#define PINTA_VALUE R"(("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$][^\s"']*))"
#define PINTA_ENV_VALUE R"(("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$;&|][^\s"';&|]*))"

// Order matters: specific formats first, so `GITHUB_TOKEN=ghp_…` is reported as github_token and
// the generic rules then see only the marker (which no value class accepts).
constexpr Rule kRules[] = {
    {"private_key",
     R"(-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z))",
     0, {"PRIVATE KEY"}},
    {"jwt", R"(\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)", 0, {"eyJ"}},
    {"slack_webhook",
     R"(https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{8,})", 0,
     {"hooks.slack.com"}},
    {nullptr, R"(([A-Za-z][A-Za-z0-9+.-]*)://([^\s/?#@\[\]:"'<>]*:[^\s/?#"'<>]+)@)", 2, {"://"},
     false, nullptr, url_type},
    {"aws_access_key_id", R"(\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b)", 0,
     {"AKIA", "ASIA", "ABIA", "ACCA"}},
    {"aws_secret",
     R"((?i)aws_?secret(?:_?access)?(?:_?key)?["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{16,}))", 1,
     {"aws"}, true},
    {"github_token", R"((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,})", 0,
     {"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}},
    {"github_token", R"(github_pat_[A-Za-z0-9_]{22,})", 0, {"github_pat_"}},
    {"gitlab_token", R"(glpat-[A-Za-z0-9_-]{20,})", 0, {"glpat-"}},
    {"slack_token", R"(\bxox[abprs]-[A-Za-z0-9-]{10,})", 0, {"xox"}},
    {"stripe_key", R"(\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,})", 0, {"_live_", "_test_"}},
    {"google_api_key", R"(\bAIza[0-9A-Za-z_-]{35})", 0, {"AIza"}},
    {"anthropic_key", R"(\bsk-ant-[A-Za-z0-9_-]{20,})", 0, {"sk-ant-"}},
    {"openai_key", R"(\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,})", 0, {"sk-"}, false,
     has_digit_and_letter},
    {"bearer",
     R"((?i)authorization["']?\s*[:=]\s*["']?\s*(?:bearer|token|basic)\s+([A-Za-z0-9._~+/=-]+))", 1,
     {"authorization"}, true},
    {"bearer", R"((?i)\bbearer\s+([A-Za-z0-9._~+/-]{16,}=*))", 1, {"bearer"}, true, has_digit},
    {"cli_password",
     R"((?i)--(?:password|passwd|pass|token|api-key|api_key|apikey|secret|client-secret|access-token|auth-token)=)" PINTA_VALUE,
     1, {"--"}},
    {"cli_password",
     R"((?i)--(?:password|passwd|token|api-key|api_key|apikey|client-secret|access-token|auth-token)\s+("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))",
     1, {"--"}},
    {"cli_password",
     R"(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb|mariadb-dump)\b[^\n|;&]*?\s-p)" PINTA_VALUE,
     1, {"-p"}},
    {"cli_password",
     R"(\bsshpass\b[^\n|;&]*?\s-p\s*("[^"]*"|'[^']*'|[^\s"'\[\x{2026}$-][^\s"']*))", 1,
     {"sshpass"}},
    {"cli_password",
     R"(\bcurl\b[^\n|;&]*?\s(?:-u\s*|--user[=\s]\s*)["']?[^\s:"'\[]*:([^\s"'@\[\x{2026}$][^\s"']*))",
     1, {"curl"}},
    {"env_assignment",
     R"((?i)\b[A-Za-z0-9_.-]*(?:secret|token|password|passwd|api[_-]?key|private_key|credentials?)[A-Za-z0-9_.-]*=)" PINTA_ENV_VALUE,
     1, {"secret", "token", "passw", "key", "credential"}, true},
};

#undef PINTA_VALUE
#undef PINTA_ENV_VALUE

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
  };
  static constexpr std::size_t kCapacity = kRuleCount * std::tuple_size_v<decltype(Rule::any_of)> * 2;
  std::array<std::uint16_t, 257> start{};  // entries[start[b], start[b + 1]) begin with byte b
  std::array<Entry, kCapacity> entries{};
  constexpr std::span<const Entry> by_first(unsigned char b) const {
    return {entries.data() + start[b], static_cast<std::size_t>(start[b + 1] - start[b])};
  }
};

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
        f(first, LiteralIndex::Entry{l, r, kRules[r].ci});
        if (kRules[r].ci && first >= 'a' && first <= 'z') {
          f(static_cast<unsigned char>(first - 'a' + 'A'), LiteralIndex::Entry{l, r, true});
        }
      }
    }
  };
  std::array<std::uint16_t, 257> count{};
  each([&](unsigned char b, const LiteralIndex::Entry&) { ++count[b + 1u]; });
  for (std::size_t b = 0; b < 256; ++b) count[b + 1] = static_cast<std::uint16_t>(count[b + 1] + count[b]);
  idx.start = count;
  each([&](unsigned char b, const LiteralIndex::Entry& e) { idx.entries[count[b]++] = e; });
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
  RuleSet out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    for (const auto& e : idx.by_first(static_cast<unsigned char>(s[i]))) {
      if (out.test(e.rule) || e.literal.size() > s.size() - i) continue;
      const std::string_view at = s.substr(i, e.literal.size());
      if (e.ci ? equal_ci(at, e.literal) : at == e.literal) out.set(e.rule);
    }
  }
  return out;
}

// Applies one rule; returns whether anything was replaced.
bool apply(std::size_t rule_index, std::string& s) {
  const Rule& rule = kRules[rule_index];
  const RE2& re = compiled(rule_index);
  if (!re.ok()) return false;
  const int ngroups = re.NumberOfCapturingGroups() + 1;
  std::vector<re2::StringPiece> groups(static_cast<std::size_t>(ngroups));
  const re2::StringPiece text(s.data(), s.size());
  std::string out;
  std::size_t pos = 0, copied = 0;
  bool changed = false;
  while (pos <= s.size() &&
         re.Match(text, pos, s.size(), RE2::UNANCHORED, groups.data(), ngroups)) {
    const re2::StringPiece whole = groups[0];
    const re2::StringPiece target = groups[static_cast<std::size_t>(rule.group)];
    const std::size_t start = static_cast<std::size_t>(whole.data() - s.data());
    const std::size_t end = start + whole.size();
    if (target.data() == nullptr || target.empty() ||
        (rule.accept && !rule.accept(std::string_view(target.data(), target.size())))) {
      // Try again one character further on (UTF-8: skip continuation bytes).
      pos = start + 1;
      while (pos < s.size() && (static_cast<unsigned char>(s[pos]) & 0xC0) == 0x80) ++pos;
      continue;
    }
    const std::size_t t_start = static_cast<std::size_t>(target.data() - s.data());
    out.append(s, copied, t_start - copied);
    out += "[REDACTED:";
    out += rule.type_of ? rule.type_of(groups.data()) : std::string_view(rule.type);
    out += ']';
    copied = t_start + target.size();
    changed = true;
    pos = end > start ? end : end + 1;
  }
  if (!changed) return false;
  out.append(s, copied, std::string::npos);
  s = std::move(out);
  return true;
}

// All rules, repeated until nothing changes (normally one extra pass at most), so the result is
// a fixed point and redaction is idempotent by construction.
std::string redact_secrets(std::string_view in) {
  std::string s(in);
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    RuleSet candidates = candidate_rules(s);
    for (std::size_t i = 0; i < kRuleCount; ++i) {
      if (!candidates.test(i) || !apply(i, s)) continue;
      changed = true;
      candidates = candidate_rules(s);  // the text changed: look again (rare)
    }
    if (!changed) break;
  }
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

bool redaction_is_identity(std::string_view s, std::size_t max_bytes) {
  if (max_bytes > 0 && s.size() > max_bytes) return false;
  return candidate_rules(s).none();  // redact_secrets applies candidate rules only
}

std::string redact_string(std::string_view s, std::size_t max_bytes) {
  // Huge strings: redact only a generous head (a secret cannot hide the cut unless redaction
  // shrinks the head below the limit, in which case the whole string is redacted).
  std::size_t dropped_raw = 0;
  std::string r;
  if (max_bytes > 0 && s.size() > max_bytes + kPrecutMargin) {
    const std::size_t head = utf8_cut(s, max_bytes + kPrecutMargin);
    r = redact_secrets(s.substr(0, head));
    dropped_raw = s.size() - head;
    if (r.size() <= max_bytes + 4096) {
      r = redact_secrets(s);
      dropped_raw = 0;
    }
  } else {
    r = redact_secrets(s);
  }
  if (max_bytes == 0 || (r.size() <= max_bytes && dropped_raw == 0)) return r;

  const std::size_t total = r.size() + dropped_raw;
  const std::size_t fixed = kEllipsis.size() + std::string_view("[TRUNCATED:]").size();
  const std::size_t reserve = fixed + decimal_digits(total);  // n <= total
  const std::size_t budget = max_bytes > reserve ? max_bytes - reserve : 0;
  std::string kept = r.substr(0, utf8_cut(r, budget));
  // The cut may leave the head of a secret that now matches on its own: redact the prefix again
  // (it can grow, so cut and repeat; each round keeps a prefix of the previous one).
  for (int round = 0; round < 4; ++round) {
    std::string again = redact_secrets(kept);
    if (again == kept) break;
    kept = again.substr(0, utf8_cut(again, budget));
  }
  const std::size_t removed = total - std::min(total, kept.size());
  kept += kEllipsis;
  kept += "[TRUNCATED:";
  kept += std::to_string(removed);
  kept += ']';
  return kept;
}

nlohmann::json redact_json(const nlohmann::json& j, const RedactOptions& options) {
  nlohmann::json out = j;
  std::vector<nlohmann::json*> stack;
  auto skipped = [&](const std::string& key) {
    return std::find(options.skip_top_level_keys.begin(), options.skip_top_level_keys.end(), key) !=
           options.skip_top_level_keys.end();
  };
  if (out.is_object()) {
    for (auto it = out.begin(); it != out.end(); ++it) {
      if (!skipped(it.key())) stack.push_back(&it.value());
    }
  } else {
    stack.push_back(&out);
  }
  while (!stack.empty()) {
    nlohmann::json* v = stack.back();
    stack.pop_back();
    if (v->is_string()) {
      auto& str = v->get_ref<std::string&>();
      str = redact_string(str, options.max_string_bytes);
    } else if (v->is_object() || v->is_array()) {
      for (auto& child : *v) stack.push_back(&child);
    }
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
