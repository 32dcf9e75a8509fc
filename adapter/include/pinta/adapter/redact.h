// File: pinta/adapter/redact.h
// Secret masking before anything leaves the process or touches disk (seed SPEC §11,
// docs/contract.md REDACT-4). Three detectors, each independent of the others:
//  - the rules (`kRules` in adapter/src/redact/redact.cc): provider formats by their documented
//    prefix and shape, JWTs, PEM private keys, crypt(3) hashes, credential files;
//  - context: a value next to a secret-sounding name in any syntax (JSON/YAML keys, NAME=value,
//    INI, XML elements and attributes, PHP define, Dockerfile ENV, HTTP headers, `config set`,
//    URL query parameters) and the password flags of common CLIs (a table with evidence);
//  - shape: random-looking tokens by length, alphabet and entropy, vendor-prefix shapes
//    (`<word>_<random>`), URL userinfo, base64 that decodes to text holding a secret, DER private
//    keys without their armour (adapter/src/redact/generic.cc);
// all three run on the text with its escapes undone (`\n`, `\"`, `\u0026`, `&amp;`: word
// boundaries fall where a reader sees them), and a match replaces the original bytes whole by
// `[REDACTED:<type>]`. Strings longer than kMaxStringBytes are then cut UTF-8-safely and end in
// `…[TRUNCATED:<n>]` (n = bytes removed); the result, marker included, fits the limit.
// Matching uses RE2 (linear time, no recursion) and hand-written linear scans because the input
// is untrusted; each pattern is compiled once, on first use, and only run when a cheap literal
// prefilter says it can match. Every rule is applied in one left-to-right pass that never
// rescans inside a match, so the work is linear in the input on any text (docs/contract.md
// REDACT-5); a WorkBudget bounds it in time as well.
// Redaction is idempotent (redact(redact(x)) == redact(x)) and keeps valid UTF-8 valid.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace pinta::adapter {

inline constexpr std::size_t kMaxStringBytes = 102400;

// Names (object keys, NAME= and name: assignments, header names, --flags) whose value is a
// secret. A name is split into lowercase segments at `_`, `-`, `.`, spaces and camelCase humps
// (apiKey → api key, DATABASE_URL → database url, X-Auth-Token → x auth token). It is secret when
//  - its letters and digits, run together, END in one of kSecretNameSuffixes anywhere (DB_PASSWORD,
//    MYSECRET, apiKey, x-auth-token; not max_tokens, token_type, TOKEN_LIMIT, tokenizer), or
//  - its last segments spell one of kSecretNameWords exactly (Cookie, set-cookie, pass, pwd, auth,
//    session_id, DSN, DATABASE_URL, otp, mnemonic, seed phrase, clientKey, creds, pw,
//    Ocp-Apim-Subscription-Key, APP_KEY; not passed, passenger, author, authority, bypass,
//    compass, oauth, session_count),
// after trailing qualifiers are set aside, up to three of them: digits (password2), a
// kSecretNameQualifiers segment (DB_PASSWORD_PROD, password_confirmation, SECRET_KEY_BASE,
// client_secret.value) and a plural s on keys, passwords, passphrases, passcodes (api_keys[];
// never tokens: max_tokens).
// accesskeyid: the id half of a cloud credential pair (AWS_ACCESS_KEY_ID, AccessKeyId), which
// secret scanners report with its secret (secretlint's preset, AWS's own git-secrets).
inline constexpr std::array<std::string_view, 19> kSecretNameSuffixes = {
    "password",      "passwd",       "passphrase",  "secret",     "token",      "apikey",
    "accesskey",     "privatekey",   "secretkey",   "authkey",    "signingkey", "encryptionkey",
    "accountkey",    "masterkey",    "credential",  "credentials", "passcode",  "privatekeyid",
    "accesskeyid"};
inline constexpr std::array<std::string_view, 32> kSecretNameWords = {
    "authorization", "cookie",         "setcookie",  "pass",           "pwd",
    "auth",          "sessionid",      "sessiontoken", "sessionkey",   "dsn",
    "databaseurl",   "connectionstring", "connstr",  "mnemonic",       "seedphrase",
    "recoveryphrase", "otp",           "clientkey",  "clientkeydata",  "sshpass",
    "pgpass",        "sessioncookie",  "creds",      "cred",           "pw",
    "appkey",        "subscriptionkey", "functionkey", "functionskey", "licensekey",
    "hmackey",       "privkey"};
// Trailing name segments that qualify a secret name without changing what it names.
inline constexpr std::array<std::string_view, 44> kSecretNameQualifiers = {
    "prod",    "production", "dev",      "development", "staging",   "stage",   "stg",
    "test",    "testing",    "qa",       "uat",         "local",     "live",    "sandbox",
    "old",     "new",        "current",  "curr",        "previous",  "prev",    "next",
    "backup",  "bak",        "primary",  "secondary",   "main",      "default", "confirmation",
    "confirm", "again",      "repeat",   "retype",      "verify",    "value",   "val",
    "base",    "raw",        "plain",    "plaintext",   "encrypted", "encoded", "b64",
    "base64",  "hex"};
// What a string becomes when the time budget ran out before its redaction finished (nothing of
// it is kept), and what the value of a secret-named field becomes.
inline constexpr std::string_view kDeadlineMarker = "[REDACTED:deadline]";
inline constexpr std::string_view kSecretFieldMarker = "[REDACTED:secret_field]";

// A time budget for redaction and span building, shared by every string of one piece of work.
// Once expired it stays expired (expired() reads the monotonic clock until then).
class WorkBudget {
 public:
  using Clock = std::chrono::steady_clock;
  static WorkBudget unlimited() { return WorkBudget(Clock::time_point::max()); }
  explicit WorkBudget(std::chrono::nanoseconds limit)
      : deadline_(limit.count() <= 0 ? Clock::now() : Clock::now() + limit) {}
  explicit WorkBudget(Clock::time_point deadline) : deadline_(deadline) {}
  bool expired() noexcept;
  // Whether it ran out at some point (without reading the clock).
  bool ran_out() const noexcept { return expired_; }

 private:
  Clock::time_point deadline_;
  bool expired_ = false;
};

// Time for redacting one JSON document (the debug log's payload) when the caller passes no budget.
inline constexpr std::chrono::milliseconds kDefaultRedactBudget{200};

struct RedactOptions {
  // Top-level keys that are identifiers (never masked for their name, redacted like every value):
  // none unless the caller names them (identifiers.h: those of the payload's family).
  std::span<const std::string_view> skip_top_level_keys = {};
  std::size_t max_string_bytes = kMaxStringBytes;
  std::chrono::milliseconds time_budget = kDefaultRedactBudget;  // used when budget is null
  WorkBudget* budget = nullptr;
};

// Secrets → `[REDACTED:<type>]`, then truncation to max_bytes (0: no truncation). With a budget
// that runs out before the string is done, the result is kDeadlineMarker (never a half-redacted
// text).
std::string redact_string(std::string_view s, std::size_t max_bytes = kMaxStringBytes,
                          WorkBudget* budget = nullptr);

// Whether a name (object key, assignment name) says its value is a secret (kSecretNameSuffixes,
// kSecretNameWords; see above).
bool is_secret_name(std::string_view name);
// Whether `value` under the secret name `name` is a secret: not a placeholder, and not a path
// under a name that only says "working directory" (PWD=/home/u, {"pwd": "/srv/app"}).
bool is_secret_value(std::string_view name, std::string_view value);
// Values that are no secret even under a secret name: empty, None/null/true/false/…, references
// ($VAR, ${X}, %X%, {{ x }}, <your-token>), masks (****), our own markers, and code (a dotted
// identifier path such as self.token or process.env.API_KEY, or a call such as get_token()).
bool is_placeholder_value(std::string_view value);
// The replacement for a string field named `key`: kSecretFieldMarker when the name is secret and
// the value is not a placeholder, else nullopt (redact the value as any other string).
std::optional<std::string> redact_field(std::string_view key, std::string_view value);

// Whether redact_string(s, max_bytes) is s itself: it has no escape, no rule's prefilter literal
// occurs in it, the shape detector finds nothing in it, and it needs no truncation. Lets encoders copy such strings (nearly all of them) without building a
// redacted copy first.
bool redaction_is_identity(std::string_view s, std::size_t max_bytes = kMaxStringBytes);

// The JSON text of a value whose strings and keys were each redacted already (a span attribute
// that holds an object or array): the rules once more over the whole text, for the secrets that
// span JSON tokens (a number under a secret-named key, an AWS secret in the array element after
// its key id, a PEM key split into elements), then the length cap (the text as redact_string
// would cut it). The shape detector is not run again: it judges one token at a time, and `"`, `:`,
// `,` and brackets end a token, so the text's tokens are the strings' own, each judged already
// (docs/contract.md REDACT-1). Returns `text` itself when no rule's prefilter fires.
std::string redact_joined(std::string text, std::size_t max_bytes = kMaxStringBytes, WorkBudget* budget = nullptr);

// A copy of `j` with every string value and every object key redacted (keys capped at 256 bytes;
// values of secret-named keys replaced whole, redact_field, and so are array elements and generic
// members under a secret name, inherited_secret_name); when `j` is an object, the values of its
// top-level keys listed in options.skip_top_level_keys are redacted as strings but never masked
// for their name (identifiers: session_id). Bounded by
// options.budget (or options.time_budget): strings reached after it ran out are kDeadlineMarker.
nlohmann::json redact_json(const nlohmann::json& j, const RedactOptions& options = {});

// Tests only: switches the provider-format rules off (true: on, the default) so a test can show
// that the context and shape detectors alone catch a held-out corpus. Not thread-safe; a
// process that redacts never calls it.
void set_vendor_rules_for_testing(bool on);

// One line per rule that does not compile (a broken pattern silently redacts nothing): tests.
std::vector<std::string> redaction_rule_errors();

// The rules whose regex matches `s` although their cheap whole-text prefilter (Rule::may_match)
// said it cannot: a prefilter must never skip a secret, so this is empty for every text (tests).
std::vector<std::string> redaction_prefilter_misses(std::string_view s);

// The name that decides whether a string inside a JSON value is masked whole: `key` itself, or
// the secret name of its container `parent` ("" when the container is under no secret name) for
// an array element (key "") and for a generic member (value, data, current, …):
// {"api_keys": ["…"]}, {"client_secret": {"value": "…"}}.
std::string_view inherited_secret_name(std::string_view parent, std::string_view key);

// Whether `s` is well-formed UTF-8 (no overlongs, surrogates or code points above U+10FFFF).
bool valid_utf8(std::string_view s) noexcept;

}  // namespace pinta::adapter
