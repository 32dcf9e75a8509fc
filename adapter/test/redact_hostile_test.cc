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
  };
  constexpr std::size_t kSmall = 64 * 1024;
  for (const std::string& unit : units) {
    const double small = std::max(redact_cost(unit, kSmall), 1e-4);
    const double big = redact_cost(unit, 8 * kSmall);
    // 8x the input: linear ≈ 8, quadratic ≈ 64. 24 leaves room for noise and cache effects.
    EXPECT_LT(big / small, 24.0) << "'" << unit << "': " << small << " s for 64 KiB, " << big
                                 << " s for 512 KiB";
    // And an absolute sanity bound on the work per MB (generous: ~100x the measured cost).
    EXPECT_LT(big * 2, 5.0) << "'" << unit << "' costs " << big * 2 << " s per MB";
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

}  // namespace
}  // namespace pinta::adapter
