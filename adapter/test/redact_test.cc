// Redaction (seed SPEC §11): a corpus of planted secret formats (fake values), negatives that must
// pass untouched, UTF-8-safe truncation, and rapidcheck properties (idempotence, planted secrets
// never survive, valid UTF-8 stays valid).
#include "pinta/adapter/redact.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

namespace pinta::adapter {
namespace {

using nlohmann::json;

struct Planted {
  std::string text;    // input
  std::string secret;  // must not survive
  std::string type;    // marker type expected
};

std::string rep(const std::string& unit, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += unit;
  return s;
}

const std::string kAlnum36 = "16C7e42F292c6912E7710c838347Ae178B4a";  // 36
const std::string kJwt =
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0"
    "IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const std::string kKeyBody = "MIIEowIBAAKCAQEA7bq98xFAKEFAKEFAKEq8ZpWJ3nM0Q2vXbYkR";

std::string pem(const std::string& kind) {
  return "-----BEGIN " + kind + "-----\n" + kKeyBody + "\nT1hYWlpZWVhYWFha\n-----END " + kind + "-----";
}

std::vector<Planted> corpus() {
  const std::string aws_secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  return {
      {"aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE", "aws_access_key_id"},
      {"export AWS_ACCESS_KEY_ID=ASIAY34FZKBOKMUTVV7A", "ASIAY34FZKBOKMUTVV7A", "aws_access_key_id"},
      {"key id: \"AKIAJ5Q7R2D9FAKEKEY1\",", "AKIAJ5Q7R2D9FAKEKEY1", "aws_access_key_id"},
      {"aws_secret_access_key = " + aws_secret, aws_secret, "aws_secret"},
      {"export AWS_SECRET_ACCESS_KEY=" + aws_secret + " && aws s3 ls", aws_secret, "aws_secret"},
      {R"({"aws_secret_access_key": ")" + aws_secret + R"("})", aws_secret, "aws_secret"},
      {"git clone https://x.invalid --token ghp_" + kAlnum36, "ghp_" + kAlnum36, "github_token"},
      {"gho_" + kAlnum36, "gho_" + kAlnum36, "github_token"},
      {"token: ghu_" + kAlnum36 + "\n", "ghu_" + kAlnum36, "github_token"},
      {"GH=ghs_" + kAlnum36, "ghs_" + kAlnum36, "github_token"},
      {"refresh ghr_" + kAlnum36 + ".", "ghr_" + kAlnum36, "github_token"},
      {"GITHUB_TOKEN=github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVW",
       "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVW", "github_token"},
      {"git push https://oauth2:glpat-9aB3cD4eF5gH6iJ7kL8m@gitlab.com/x.git", "glpat-9aB3cD4eF5gH6iJ7kL8m", "url_credentials"},
      {"use glpat-9aB3cD4eF5gH6iJ7kL8mNoP now", "glpat-9aB3cD4eF5gH6iJ7kL8mNoP", "gitlab_token"},
      {"SLACK=xoxb-2048123456-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-2048123456-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "slack_token"},
      {"xoxp-1111-2222-3333-abcdef0123456789", "xoxp-1111-2222-3333-abcdef0123456789", "slack_token"},
      {"\"xoxa-2-abcdefghij1234\"", "xoxa-2-abcdefghij1234", "slack_token"},
      {"curl -X POST https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX -d x",
       "T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX", "slack_webhook"},
      {"stripe.api_key = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "stripe_key"},
      {"sk_test_4eC39HqLyjWDarjtT1zdp7dc", "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "stripe_key"},
      {"rk_live_51H8abcdEFGHijklMNOP", "rk_live_51H8abcdEFGHijklMNOP", "stripe_key"},
      {"?key=AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW&x=1", "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW", "google_api_key"},
      {"OPENAI: sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z_AbCdEf", "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z_AbCdEf", "openai_key"},
      {"sk-" + rep("aB3", 16), "sk-" + rep("aB3", 16), "openai_key"},
      {"sk-svcacct-ZZ9yy8XX7ww6VV5uu4TT3ss2", "sk-svcacct-ZZ9yy8XX7ww6VV5uu4TT3ss2", "openai_key"},
      {"x-api-key: sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcdEFGH", "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcdEFGH", "anthropic_key"},
      {"sk-ant-admin01-Zyxwvutsrqponmlkjihg987654", "sk-ant-admin01-Zyxwvutsrqponmlkjihg987654", "anthropic_key"},
      {"cookie=" + kJwt, kJwt, "jwt"},
      {"id_token: " + kJwt + "\n", kJwt, "jwt"},
      {"cat key.pem\n" + pem("RSA PRIVATE KEY") + "\ndone", kKeyBody, "private_key"},
      {pem("OPENSSH PRIVATE KEY"), kKeyBody, "private_key"},
      {pem("EC PRIVATE KEY"), kKeyBody, "private_key"},
      {"x" + pem("PRIVATE KEY"), kKeyBody, "private_key"},
      {pem("ENCRYPTED PRIVATE KEY"), kKeyBody, "private_key"},
      {pem("PGP PRIVATE KEY BLOCK"), kKeyBody, "private_key"},
      {"-----BEGIN RSA PRIVATE KEY-----\n" + kKeyBody + "\n(cut off", kKeyBody, "private_key"},
      {"open https://alice:hunter2pass@example.com/path", "hunter2pass", "url_credentials"},
      {"postgres://admin:S3cr3tPw@db.internal:5432/app", "S3cr3tPw", "connection_string"},
      {"DATABASE_URL=postgresql://app:pa55@w0rd@10.0.0.5/app?sslmode=require", "pa55@w0rd", "connection_string"},
      {"mysql://root:MyPw0rdX@localhost/db", "MyPw0rdX", "connection_string"},
      {"mongodb+srv://user:Pa55wordMongo@cluster0.mongodb.net/test", "Pa55wordMongo", "connection_string"},
      {"redis://:r3dispassw@cache:6379/0", "r3dispassw", "connection_string"},
      {"curl -H 'Authorization: Bearer abc123def456ghi789' https://api", "abc123def456ghi789", "bearer"},
      {R"({"authorization": "Basic dXNlcjpwYXNzd29yZA=="})", "dXNlcjpwYXNzd29yZA==", "bearer"},
      {"bearer Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5", "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5", "bearer"},
      {"app --password=Tr0ub4dor&3 --verbose", "Tr0ub4dor&3", "cli_password"},
      {"app --password 'correct horse battery'", "correct horse battery", "cli_password"},
      {"mysql -u root -pS3cretPass mydb", "S3cretPass", "cli_password"},
      {"mysqldump -h db -u u -p'qu0ted pw' app > dump.sql", "qu0ted pw", "cli_password"},
      {"tool --token=abcd1234efgh5678", "abcd1234efgh5678", "cli_password"},
      {"tool --api-key=k3y-v4lu3-xyz", "k3y-v4lu3-xyz", "cli_password"},
      {"sshpass -p 'SshPw_42' ssh deploy@host", "SshPw_42", "cli_password"},
      {"curl -u admin:AdminPw9 https://internal/api", "AdminPw9", "cli_password"},
      {"export DB_PASSWORD=hunter2xyz; run", "hunter2xyz", "env_assignment"},
      {"API_KEY=\"quoted api value\" ./run", "quoted api value", "env_assignment"},
      {"MY_SECRET=s3kr1tV4l PGPASSWORD=pgpw1 psql", "s3kr1tV4l", "env_assignment"},
      {"MY_SECRET=s3kr1tV4l PGPASSWORD=pgpw1 psql", "pgpw1", "env_assignment"},
      {"GOOGLE_CREDENTIALS='{json-ish}' gcloud", "{json-ish}", "env_assignment"},
      {"https://svc/cb?user=a&password=qwerty123&x=1", "qwerty123", "env_assignment"},
      {"SERVICE_PRIVATE_KEY=MIIBVgIBADANBg", "MIIBVgIBADANBg", "env_assignment"},
      {"slack_token=plainvalue123", "plainvalue123", "env_assignment"},
  };
}

TEST(Redact, CorpusIsLargeEnough) { EXPECT_GE(corpus().size(), 40u); }

TEST(Redact, EveryPlantedSecretIsReplacedByItsMarker) {
  for (const auto& p : corpus()) {
    const std::string out = redact_string(p.text);
    EXPECT_EQ(out.find(p.secret), std::string::npos) << p.text << "\n→ " << out;
    EXPECT_NE(out.find("[REDACTED:" + p.type + "]"), std::string::npos) << p.text << "\n→ " << out;
    EXPECT_EQ(redact_string(out), out) << "not idempotent: " << p.text;
  }
}

TEST(Redact, UrlsKeepSchemeAndHost) {
  EXPECT_EQ(redact_string("postgres://admin:S3cr3t@db.internal:5432/app"),
            "postgres://[REDACTED:connection_string]@db.internal:5432/app");
  EXPECT_EQ(redact_string("see https://bob:pw12345@example.com/x?y=1"),
            "see https://[REDACTED:url_credentials]@example.com/x?y=1");
}

TEST(Redact, AssignmentsKeepTheName) {
  EXPECT_EQ(redact_string("DB_PASSWORD=hunter2 make"), "DB_PASSWORD=[REDACTED:env_assignment] make");
  EXPECT_EQ(redact_string("GITHUB_TOKEN=ghp_" + kAlnum36), "GITHUB_TOKEN=[REDACTED:github_token]");
  EXPECT_EQ(redact_string("mysql -uroot -psecret db"), "mysql -uroot -p[REDACTED:cli_password] db");
}

TEST(Redact, OrdinaryTextIsUntouched) {
  const std::vector<std::string> negatives = {
      "",
      "the quick brown fox jumps over the lazy dog",
      "/home/user/project/src/main.cc:42:7: error: expected ';'",
      "7f3c2a4e-1b2d-4b1d-9a0e-123456789abc",
      "6016446a3b9f0c2d1e4f5a6b7c8d9e0f12345678",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "ls -la /tmp && mkdir -p build/out",
      "https://example.com/path?query=1&page=2",
      "ssh://git@github.com/org/repo.git",
      "git@github.com:org/repo.git",
      "task-1234567890abcdefghijklmnop",
      "pip install scikit-learn sk-learn",
      "Bearer tokens are described in RFC 6750",
      "curl -H \"Authorization: Bearer $TOKEN\" https://api",
      "TOKEN=$GITHUB_TOKEN ./run",
      "PATH=/usr/local/bin:/usr/bin HOME=/root",
      "key=value sort_key=name",
      "git commit -m 'fix: the password prompt'",
      R"({"tool_name":"read_file","args":{"path":"a.txt"}})",
      "AKIA is a prefix; AKIASHORT",
      "grep -p foo file | mysql_config",
      "email me at alice@example.com",
      "日本語のテキスト — émigré naïve café",
      "eyJ alone, and a.b.c",
      "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
      "[REDACTED:github_token] …[TRUNCATED:12]",
  };
  for (const auto& n : negatives) EXPECT_EQ(redact_string(n), n) << n;
}

TEST(Truncate, ExactlyTheLimitIsKept) {
  const std::string s(kMaxStringBytes, 'a');
  EXPECT_EQ(redact_string(s), s);
}

TEST(Truncate, LongStringIsCutWithTheRemovedCount) {
  const std::string s(kMaxStringBytes + 1, 'a');
  const std::string out = redact_string(s);
  EXPECT_LE(out.size(), kMaxStringBytes);
  const std::string marker = "\xE2\x80\xA6[TRUNCATED:";
  const auto at = out.rfind(marker);
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(out.substr(0, at), std::string(at, 'a'));
  const std::size_t n = std::stoul(out.substr(at + marker.size()));
  EXPECT_EQ(at + n, s.size());
  EXPECT_EQ(out.back(), ']');
  EXPECT_EQ(redact_string(out), out);
}

TEST(Truncate, NeverSplitsAMultibyteCharacter) {
  for (const std::string unit : {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"}) {
    for (std::size_t lead = 0; lead < 4; ++lead) {
      const std::string s = std::string(lead, 'x') + rep(unit, (kMaxStringBytes + 100) / unit.size());
      const std::string out = redact_string(s);
      EXPECT_LE(out.size(), kMaxStringBytes);
      EXPECT_TRUE(valid_utf8(out)) << unit.size() << " " << lead;
      const auto at = out.rfind("\xE2\x80\xA6[TRUNCATED:");
      ASSERT_NE(at, std::string::npos);
      EXPECT_EQ((at - lead) % unit.size(), 0u);
      EXPECT_EQ(redact_string(out), out);
    }
  }
}

TEST(Truncate, SecretsAroundTheCutDoNotSurvive) {
  const std::string secret = "ghp_" + kAlnum36;
  for (std::size_t back : {0, 5, 10, 20, 30, 45, 60}) {
    const std::string s = std::string(kMaxStringBytes - back, ' ') + secret + " tail";
    const std::string out = redact_string(s);
    EXPECT_EQ(out.find("ghp_16C7"), std::string::npos) << back;
    EXPECT_EQ(out.find("ghp_"), std::string::npos) << back;
    EXPECT_LE(out.size(), kMaxStringBytes);
    EXPECT_EQ(redact_string(out), out) << back;
  }
  // Past the pre-cut margin of huge strings too.
  const std::string huge = std::string(3 * kMaxStringBytes, 'b') + " AKIAIOSFODNN7EXAMPLE";
  EXPECT_EQ(redact_string(huge).find("AKIA"), std::string::npos);
}

TEST(RedactJson, WalksValuesAndSkipsIdentifiers) {
  const std::string tok = "ghp_" + kAlnum36;
  json in = {{"session_id", tok},
             {"cwd", "/work/AKIAIOSFODNN7EXAMPLE"},
             {"hook_event_name", "BeforeTool"},
             {"workspacePaths", {tok}},
             {"tool_input", {{"command", "export API_KEY=abc123 && run"}, {tok, {1, tok, true}}}},
             {"n", 3}};
  json out = redact_json(in);
  EXPECT_EQ(out["session_id"], tok);
  EXPECT_EQ(out["cwd"], in["cwd"]);
  EXPECT_EQ(out["workspacePaths"], in["workspacePaths"]);
  EXPECT_EQ(out["tool_input"]["command"], "export API_KEY=[REDACTED:env_assignment] && run");
  ASSERT_TRUE(out["tool_input"].contains(tok));  // keys are left as is
  EXPECT_EQ(out["tool_input"][tok], json({1, "[REDACTED:github_token]", true}));
  EXPECT_EQ(out["n"], 3);
  // Nested identifier-named keys are not skipped: only top-level ones are identifiers.
  EXPECT_EQ(redact_json(json{{"x", {{"cwd", tok}}}})["x"]["cwd"], "[REDACTED:github_token]");
  EXPECT_EQ(redact_json(json(tok)), "[REDACTED:github_token]");
  EXPECT_EQ(redact_json(json::array({tok})), json::array({"[REDACTED:github_token]"}));
}

// ---- properties -------------------------------------------------------------------------------

const std::vector<std::string> kFragments = {
    "ghp_", "AKIA", "IOSFODNN7EXAMPLE", "sk-", "sk-ant-", "proj-", "=", "TOKEN", "password", "--password",
    " ", "\n", "://", "u:p@", "@", ":", "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----",
    "eyJhbGciOiJIUzI1NiJ9", ".", "[REDACTED:x]", "[", "]", "\xE2\x80\xA6", "Bearer ", "Authorization: ",
    "mysql ", " -p", "'", "\"", "$", "curl -u ", "xoxb-", "glpat-", "AIza", "sk_live_", "é", "日本",
    "0123456789abcdefABCDEF", "aws_secret_access_key=", "postgres://", "https://hooks.slack.com/services/",
    "&", ";", "|", "-"};

rc::Gen<std::string> gen_text() {
  return rc::gen::map(
      rc::gen::container<std::vector<std::string>>(rc::gen::oneOf(
          rc::gen::elementOf(kFragments), rc::gen::arbitrary<std::string>(),
          rc::gen::container<std::string>(rc::gen::elementOf(std::string("abcXYZ0189_-/+"))))),
      [](const std::vector<std::string>& parts) {
        std::string s;
        for (const auto& p : parts) s += p;
        return s;
      });
}

std::string encode_utf8(std::uint32_t cp) {
  std::string s;
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    s += static_cast<char>(0xC0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    s += static_cast<char>(0xE0 | (cp >> 12));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (cp >> 18));
    s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return s;
}

rc::Gen<std::string> gen_valid_utf8() {
  auto cp = rc::gen::oneOf(rc::gen::inRange<std::uint32_t>(0, 0x80), rc::gen::inRange<std::uint32_t>(0x80, 0xD800),
                           rc::gen::inRange<std::uint32_t>(0xE000, 0x110000));
  auto chunk = rc::gen::oneOf(
      rc::gen::elementOf(kFragments),
      rc::gen::map(rc::gen::container<std::vector<std::uint32_t>>(cp), [](const std::vector<std::uint32_t>& cps) {
        std::string s;
        for (auto c : cps) s += encode_utf8(c);
        return s;
      }));
  return rc::gen::map(rc::gen::container<std::vector<std::string>>(chunk), [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& p : v) s += p;
    return s;
  });
}

RC_GTEST_PROP(RedactProperty, Idempotent, ()) {
  const std::string s = *gen_text();
  const std::size_t max = *rc::gen::oneOf(rc::gen::just(kMaxStringBytes), rc::gen::inRange<std::size_t>(24, 400));
  const std::string once = redact_string(s, max);
  RC_ASSERT(redact_string(once, max) == once);
  RC_ASSERT(once.size() <= std::max(max, s.size()));
}

RC_GTEST_PROP(RedactProperty, PlantedSecretNeverSurvives, ()) {
  const std::vector<std::string> secrets = {
      "AKIAIOSFODNN7EXAMPLE", "ghp_" + kAlnum36, "gho_" + kAlnum36,
      "github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "glpat-9aB3cD4eF5gH6iJ7kL8m",
      "xoxb-2048123456-1234567890123-AbCdEf", "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
      "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW", "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
      "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", kJwt,
      "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"};
  const std::string secret = *rc::gen::elementOf(secrets);
  const std::string body = *rc::gen::container<std::string>(
      rc::gen::elementOf(std::string("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")));
  // A random body keeps the prefix's shape: AKIA + 16 upper-case alphanumerics, ghp_ + 36+.
  std::string planted = secret;
  if (secret.rfind("AKIA", 0) == 0 && body.size() >= 16) planted = "AKIA" + body.substr(0, 16);
  if (secret.rfind("ghp_", 0) == 0 && body.size() >= 36) planted = "ghp_" + body;
  const std::string sep1 = *rc::gen::elementOf(std::vector<std::string>{" ", "\n", "\t", "\"", "'", "(", ","});
  const std::string sep2 = *rc::gen::elementOf(std::vector<std::string>{" ", "\n", "\t", "\"", "'", ")", ","});
  const std::string text = *gen_text() + sep1 + planted + sep2 + *gen_text();
  const std::string out = redact_string(text);
  RC_ASSERT(out.find(planted) == std::string::npos);
}

RC_GTEST_PROP(RedactProperty, ValidUtf8StaysValid, ()) {
  const std::string s = *gen_valid_utf8();
  RC_PRE(valid_utf8(s));
  const std::size_t max = *rc::gen::oneOf(rc::gen::just(kMaxStringBytes), rc::gen::inRange<std::size_t>(24, 300));
  const std::string out = redact_string(s, max);
  RC_ASSERT(valid_utf8(out));
  RC_ASSERT(redact_string(out, max) == out);
}

TEST(Utf8, Validator) {
  EXPECT_TRUE(valid_utf8("abc é € 😀"));
  EXPECT_FALSE(valid_utf8("\xC3"));
  EXPECT_FALSE(valid_utf8("\xC0\xAF"));
  EXPECT_FALSE(valid_utf8("\xED\xA0\x80"));
  EXPECT_FALSE(valid_utf8("\xF4\x90\x80\x80"));
}

}  // namespace
}  // namespace pinta::adapter
