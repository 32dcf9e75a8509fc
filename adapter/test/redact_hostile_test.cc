// Redaction regressions found by outside testing: work that grew with the square of the input on
// hostile text, benign text that was altered (and punctuation eaten), and secrets that left
// unredacted in JSON keys and secret-named fields. Uses only redact_string / redact_json.
#include <gtest/gtest.h>

#include <algorithm>
#include <ctime>
#include <string>
#include <vector>

#include "benign_corpus.h"
#include "pinta/adapter/redact.h"

namespace pinta::adapter {
namespace {

using nlohmann::json;

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// CPU time of redact_string on `unit` repeated to `bytes`, best of 3 (the minimum is the least
// disturbed by other processes on the machine).
double redact_cost(const std::string& unit, std::size_t bytes) {
  std::string text;
  text.reserve(bytes + unit.size());
  while (text.size() < bytes) text += unit;
  double best = 1e9;
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = cpu_seconds();
    const std::string out = redact_string(text, 0);
    const double t = cpu_seconds() - t0;
    best = std::min(best, t);
    EXPECT_FALSE(out.empty());
  }
  return best;
}

// Texts that repeat a rule's trigger so that every position starts a candidate that the rule
// then rejects (or that runs to the end of the text). Linear work: 8x the input costs ~8x the
// time; the quadratic engine cost ~64x (150 KB of "sk-" took 15 s).
TEST(RedactScaling, WorkIsLinearOnHostileText) {
  const std::vector<std::string> units = {
      "sk-",
      "sk-a",
      "bearer ",
      "Bearer x",
      "AKIAIOSFODNN7EXAMPLE ",
      "token=",
      "token=a",
      "password: ",
      "secret ",
      "auth token ",
      "mysql -p",
      "curl -u a:",
      "x://a:b",
      "-----BEGIN RSA PRIVATE KEY-----",
      "eyJaaaaaaaaa.eyJbbbbbbbbb.",
      "--password ",
      "sshpass ",
      "&sig=",
      "hf_",
      "SK0",
      "AccountKey=",
      "a_key: \"",
      "ghp_",
      "xoxb-",
      "glpat-",
      "x-api-key: ",
      "hooks.slack.com/services/",
      // Rules added for secrets by structure (issue "Guard integrity", item 4).
      "Private-Lines: 1\n",
      "$6$",
      "$2b$10$",
      "a:1:b:c:",
      "db:5432:x:y:z\n",
      "--key ",
      "--auth-key=",
      "Cookie: ",
      "authorization: x ",
      "MTaaaaaaaaaaaaaaaaaaaaaaaa.",
      "aaa8Q~",
      "machine h login u password ",
      "LS0tLS1CRUdJT",
      "mnemonic: ",
      "SSWS ",
      "pass=",
      "x_session_id: ",
      "-passin pass:",
  };
  constexpr std::size_t kSmall = 64 * 1024;
  // The same amount of benign prose through the same rules, in this run: what the redactor costs
  // on text that holds no secret with this build (an ASan build is ~10x slower) and this machine.
  const double prose = std::max(redact_cost("the quick brown fox jumps over the lazy dog ", 8 * kSmall), 1e-4);
  for (const std::string& unit : units) {
    const double small = std::max(redact_cost(unit, kSmall), 1e-4);
    const double big = redact_cost(unit, 8 * kSmall);
    // 8x the input: linear ≈ 8, quadratic ≈ 64. 24 leaves room for noise and cache effects.
    EXPECT_LT(big / small, 24.0) << "'" << unit << "': " << small << " s for 64 KiB, " << big
                                 << " s for 512 KiB";
    // And a bound on the work itself, relative to prose of the same size in the same run (it
    // replaced an absolute 5 s per MB, which an ASan build on a busy machine exceeded): a hostile
    // unit may cost more than prose (its matches are masked). Measured 2026-12-06, RelWithDebInfo:
    // at most 37x ('curl -u a:', 0.5 s for 512 KiB), most units 2-13x.
    EXPECT_LT(big / prose, 100.0) << "'" << unit << "': " << big << " s for 512 KiB, prose "
                                 << prose << " s";
  }
}

TEST(RedactBenign, FalsePositiveRateIsAtMostTwoPercent) {
  const auto corpus = benign::corpus();
  std::size_t changed = 0;
  for (const std::string& s : corpus) {
    const std::string out = redact_string(s);
    if (out != s) {
      ++changed;
      ADD_FAILURE() << "benign text altered:\n  " << s << "\n→ " << out;
    }
  }
  EXPECT_LE(changed * 100, corpus.size() * 2) << changed << " of " << corpus.size();
  EXPECT_GE(corpus.size(), 50u);
}

TEST(RedactBenign, TheReportedStringsAreUntouched) {
  for (const std::string s : {"max_tokens=1024", "TOKEN_LIMIT=4096", "token_type=bearer",
                              "--max-tokens=4096", "fn(secret=None, token=None)"}) {
    EXPECT_EQ(redact_string(s), s);
  }
}

TEST(RedactBenign, RedactionNeverEatsSurroundingPunctuation) {
  EXPECT_EQ(redact_string("fn(secret=s3cr3tV4lue, token=abc123def)"),
            "fn(secret=[REDACTED:env_assignment], token=[REDACTED:env_assignment])");
  EXPECT_EQ(redact_string("{password=Hunt3r2}."), "{password=[REDACTED:env_assignment]}.");
  EXPECT_EQ(redact_string("[api_key=k3y]"), "[api_key=[REDACTED:env_assignment]]");
  EXPECT_EQ(redact_string("call(\"x\", token=\"t0k3n\")"),
            "call(\"x\", token=[REDACTED:env_assignment])");
}

TEST(RedactJsonFields, SecretNamedFieldsAreRedactedWhole) {
  const json in = {{"tool_input",
                    {{"password", "hunter2"},
                     {"api_key", "plain words"},
                     {"clientSecret", "abc"},
                     {"nested", {{"auth_token", "t"}, {"list", {{{"db_password", "pw"}}}}}},
                     {"token_type", "bearer"},
                     {"max_tokens", 1024},
                     {"password_policy", "strong"},
                     {"token", nullptr},
                     {"secret", "${SECRET}"}}}};
  const json out = redact_json(in);
  const json& t = out["tool_input"];
  for (const char* k : {"password", "api_key", "clientSecret"})
    EXPECT_EQ(t[k], "[REDACTED:secret_field]") << k;
  EXPECT_EQ(t["nested"]["auth_token"], "[REDACTED:secret_field]");
  EXPECT_EQ(t["nested"]["list"][0]["db_password"], "[REDACTED:secret_field]");
  EXPECT_EQ(t["token_type"], "bearer");
  EXPECT_EQ(t["max_tokens"], 1024);
  EXPECT_EQ(t["password_policy"], "strong");
  EXPECT_EQ(t["token"], nullptr);
  EXPECT_EQ(t["secret"], "${SECRET}");
  EXPECT_EQ(redact_json(out), out);
}

TEST(RedactJsonFields, SecretsUsedAsKeysAreRedacted) {
  const std::string tok = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
  const std::string aws = "AKIAIOSFODNN7EXAMPLE";
  const json in = {{"tool_response", {{tok, 1}, {"deep", {{{aws, {{"x", "y"}}}}}}}}};
  const std::string dumped = redact_json(in).dump();
  EXPECT_EQ(dumped.find(tok), std::string::npos) << dumped;
  EXPECT_EQ(dumped.find(aws), std::string::npos) << dumped;
  EXPECT_NE(dumped.find("[REDACTED:github_token]"), std::string::npos) << dumped;
}

// The secret-sounding field names an outside test used: a random value under each was forwarded
// whole before (29 of 40); now every one is replaced, as a JSON key and in text.
const std::vector<std::string> kSecretNames = {
    "Authorization", "authorization", "Cookie", "cookie", "set-cookie", "Set-Cookie", "pass",
    "pwd", "passwd", "password", "passphrase", "auth", "sessionid", "session_id", "sessionId",
    "session-token", "dsn", "DSN", "DATABASE_URL", "databaseUrl", "connection_string",
    "connectionString", "mnemonic", "seed_phrase", "seedPhrase", "otp", "OTP", "passcode",
    "client_key", "clientKey", "client_secret", "private_key", "private_key_id", "privateKeyId",
    "api_key", "apiKey", "access_key", "secret", "token", "x-auth-token"};
// Names that merely contain a secret word: their values stay.
const std::vector<std::string> kLookAlikeNames = {
    "token_count", "max_tokens", "tokenizer", "passed", "passenger", "author", "authority",
    "bypass", "compass", "oauth_provider", "session_count", "cookie_policy", "passport", "otp_length",
    "dsn_format", "mnemonics_help", "authored_by", "token_type", "password_policy", "keyboard"};

TEST(RedactSecretNames, EverySecretNamedJsonKeyIsRedactedWhateverTheValue) {
  const std::string value = "Zq7vK2mW9xLp4RtN8cYb";
  for (const std::string& name : kSecretNames) {
    EXPECT_TRUE(is_secret_name(name)) << name;
    const json out = redact_json(json{{"tool_input", {{name, value}}}});
    EXPECT_EQ(out["tool_input"][name], "[REDACTED:secret_field]") << name;
  }
  for (const std::string& name : kLookAlikeNames) {
    EXPECT_FALSE(is_secret_name(name)) << name;
    const json out = redact_json(json{{"tool_input", {{name, "plain value"}}}});
    EXPECT_EQ(out["tool_input"][name], "plain value") << name;
  }
}

TEST(RedactSecretNames, SecretNamesInTextAreRedacted) {
  const std::string value = "Zq7vK2mW9xLp4RtN8cYb";
  for (const std::string& name : kSecretNames) {
    for (const std::string& sep : {std::string("="), std::string(": "), std::string("=\""), std::string("\": \"")}) {
      const std::string text = (sep[0] == '"' ? "{\"" : "") + name + sep + value +
                               (sep.back() == '"' ? "\"" : "") + " end";
      const std::string out = redact_string(text);
      EXPECT_EQ(out.find(value), std::string::npos) << text << "\n→ " << out;
      EXPECT_EQ(redact_string(out), out) << text;
    }
  }
  for (const std::string& name : kLookAlikeNames) {
    const std::string text = name + "=" + value;
    EXPECT_EQ(redact_string(text), text);
  }
}

TEST(RedactSecretNames, SecretFlagsAndPasswordEnvironment) {
  const std::string v = "Zq7vK2mW9xLp4RtN";
  for (const std::string flag : {"--key", "--auth-key", "--private-key", "--password", "--passwd",
                                 "--token", "--secret", "--api-key", "--client-secret", "--pass",
                                 "--cookie", "--otp", "--dsn"}) {
    for (const std::string sep : {" ", "="}) {
      const std::string text = "tool " + flag + sep + v + " --verbose";
      EXPECT_EQ(redact_string(text), "tool " + flag + sep + "[REDACTED:cli_password] --verbose") << text;
    }
  }
  for (const std::string env : {"SSHPASS", "PGPASSWORD", "MYSQL_PWD"}) {
    EXPECT_EQ(redact_string(env + "=" + v + " run"), env + "=[REDACTED:env_assignment] run");
  }
  // -p is a password only for the mysql family (attached), sshpass and docker login.
  EXPECT_EQ(redact_string("sshpass -p " + v + " ssh h"), "sshpass -p [REDACTED:cli_password] ssh h");
  EXPECT_EQ(redact_string("docker login -u u -p " + v), "docker login -u u -p [REDACTED:cli_password]");
  // Not secrets: sort keys, --no-password switches, files holding a secret, -p as a port or path.
  for (const std::string benign : {"sort --key=2,2 f.txt", "sort --key 1 f", "pg_dump --no-password db",
                                   "app --password-file /run/secrets/pw", "app --token-file ./tok",
                                   "docker run -p 8080:80 nginx", "mkdir -p build/out",
                                   "mysql -p appdb", "app --max-tokens 4096", "PWD=/home/user/project",
                                   "gpg --recv-keys 0x1234ABCD"}) {
    EXPECT_EQ(redact_string(benign), benign);
  }
  EXPECT_EQ(redact_json(json{{"x", {{"pwd", "/srv/app"}}}})["x"]["pwd"], "/srv/app");
}

TEST(RedactSecretNames, HeadersKeepTheirSchemeAndPlaceholders) {
  EXPECT_EQ(redact_string("Authorization: Zq7vK2mW9xLp4RtN8cYb"), "Authorization: [REDACTED:authorization]");
  EXPECT_EQ(redact_string("curl -H \"Authorization: Bearer $TOKEN\" https://api"),
            "curl -H \"Authorization: Bearer $TOKEN\" https://api");
  EXPECT_EQ(redact_string("Cookie: a=Zq7vK2mW9x; b=Lp4RtN8cYb"), "Cookie: [REDACTED:cookie]");
  const std::string once = redact_string(R"({"authorization": "Basic dXNlcjpwYXNzd29yZA=="})");
  EXPECT_EQ(once, R"({"authorization": "Basic [REDACTED:bearer]"})");
}

TEST(RedactStructure, HashesKeysAndCredentialFiles) {
  // A PuTTY key loses its key lines and MAC, not its header; a base64 certificate is no private key.
  const std::string ppk = "PuTTY-User-Key-File-2: ssh-rsa\nPublic-Lines: 1\nAAAAB3Nza\nPrivate-Lines: 1\n"
                          "QUJDREVGR0hJSktMTU5PUA==\nPrivate-MAC: 0a1b2c\n";
  const std::string out = redact_string(ppk);
  EXPECT_EQ(out.find("AAAAB3Nza"), std::string::npos) << out;
  EXPECT_EQ(out.rfind("PuTTY-User-Key-File-2: ssh-rsa\n", 0), 0u) << out;
  EXPECT_EQ(out.find("QUJDREVGR0hJSktMTU5PUA"), std::string::npos) << out;
  const std::string cert = "client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM=";
  EXPECT_EQ(redact_string(cert), cert);
  // .pgpass lines, but not MAC addresses, times or compiler locations.
  EXPECT_EQ(redact_string("localhost:5432:db:me:Zq7vK2mW"), "localhost:5432:db:me:[REDACTED:pgpass]");
  for (const std::string benign : {"00:11:22:33:44:55", "12:30:45", "main.cc:42:7: error: x",
                                   "fe80::1ff:fe23:4567:890a", "a:b:c:d:e"}) {
    EXPECT_EQ(redact_string(benign), benign);
  }
}

// The pgpass rule's literal is `:`, in nearly every span (timestamps, JSON values); its colon-chain
// prefilter keeps such text from compiling the rule (the telemetry event's largest cost,
// docs/benchmarks-history.md 2026-12-06) and never skips a line the regex takes.
TEST(RedactStructure, PgpassPrefilterSkipsTimesAndJsonButNeverALine) {
  for (const std::string plain : {"2026-12-02T10:10:11.342Z", R"({"llmContent":"hello","n":1})",
                                  "12:30:45", "a:1:b", "x:*:y"}) {
    EXPECT_TRUE(redaction_is_identity(plain)) << plain;
  }
  for (const std::string line :
       {"localhost:5432:db:me:Zq7vK2mW", "db.example.com:*:*:admin:s3cr3tPw", "h:65:d:u:p",
        "say \"a:1:b:c:d\"", "h:5432:d:u::", "h:5432:d\x0bx:u:p", "\nh:12:d:u:/p"}) {
    EXPECT_TRUE(redaction_prefilter_misses(line).empty()) << line;
  }
  EXPECT_EQ(redact_string("pg: db.example.com:*:*:admin:s3cr3tPw"),
            "pg: db.example.com:*:*:admin:[REDACTED:pgpass]");
}

}  // namespace
}  // namespace pinta::adapter
