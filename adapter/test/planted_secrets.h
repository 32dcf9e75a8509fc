// Planted secret formats shared by redact_test and telemetry_process_test, so every test plants
// the same fakes.
#pragma once

#include <string>
#include <vector>

namespace pinta::adapter::planted {

struct Planted {
  std::string text;    // input
  std::string secret;  // must not survive
  std::string type;    // marker type expected
};

inline std::string rep(const std::string& unit, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += unit;
  return s;
}

inline const std::string kAlnum36 = "16C7e42F292c6912E7710c838347Ae178B4a";  // 36
inline const std::string kJwt =
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0"
    "IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
inline const std::string kKeyBody = "MIIEowIBAAKCAQEA7bq98xFAKEFAKEFAKEq8ZpWJ3nM0Q2vXbYkR";

inline std::string pem(const std::string& kind) {
  return "-----BEGIN " + kind + "-----\n" + kKeyBody + "\nT1hYWlpZWVhYWFha\n-----END " + kind + "-----";
}

inline std::vector<Planted> corpus() {
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


}  // namespace pinta::adapter::planted
