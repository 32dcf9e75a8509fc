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
      // Formats added with the independent-scanner check (fake values of each format's shape).
      {"echo npm_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d > .npmrc",
       "npm_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d", "npm_token"},
      {"twine upload -p pypi-AgEIcHlwaS5vcmcYgCfrL1spNxnyVmihA-2O76UMFxFkM-R5Kjp1vRt_1fjORS-6ilI8ihN5KXS",
       "pypi-AgEIcHlwaS5vcmcYgCfrL1spNxnyVmihA-2O76UMFxFkM-R5Kjp1vRt_1fjORS-6ilI8ihN5KXS", "pypi_token"},
      {"HF says hf_b8DwkNhFdnXsiVpzz63FfkCzJr4i0B3JrT ok",
       "hf_b8DwkNhFdnXsiVpzz63FfkCzJr4i0B3JrT", "huggingface_token"},
      {"sendgrid 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",
       "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", "sendgrid_key"},
      {"shopify 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",
       "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", "shopify_token"},
      {"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",
       "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", "shopify_token"},
      {"doctl auth init -t dop_v1_f6a6f0fb23c6f5da2cec255404e4fb440034d6608697a8d41bed440e50454f31",
       "dop_v1_f6a6f0fb23c6f5da2cec255404e4fb440034d6608697a8d41bed440e50454f31", "digitalocean_token"},
      {"twilio SKaf3176813e02ea68ef786e4d3cea27d2",
       "SKaf3176813e02ea68ef786e4d3cea27d2", "twilio_key"},
      {"square sq0atp-nQtYh5Xj8TPQxjq4i9DoV8",
       "sq0atp-nQtYh5Xj8TPQxjq4i9DoV8", "square_token"},
      {"jira ATATT3xFfGF0gz4FkQ1okTBGzvAmwufUxbvJDCTbyvHNsG9eh6Yo4gfqrc5XlrWi0B26R08q",
       "ATATT3xFfGF0gz4FkQ1okTBGzvAmwufUxbvJDCTbyvHNsG9eh6Yo4gfqrc5XlrWi0B26R08q", "atlassian_token"},
      {"databricks dapic4fa2815d2802827283e0ad841735815",
       "dapic4fa2815d2802827283e0ad841735815", "databricks_token"},
      {"docker login -p dckr_pat_m7tOtHWnsCGRlrwZbqcabUGJmGE",
       "dckr_pat_m7tOtHWnsCGRlrwZbqcabUGJmGE", "docker_token"},
      {"vault hvs.p7CgQ0PBQFI14zGtSnovm14TUOizwd1iaeOV4qBkdfQ1y3GQsMpSscDlkrCaqx9vJupc94tnwlavyfErGPmpGXafq0",
       "hvs.p7CgQ0PBQFI14zGtSnovm14TUOizwd1iaeOV4qBkdfQ1y3GQsMpSscDlkrCaqx9vJupc94tnwlavyfErGPmpGXafq0", "vault_token"},
      {"terraform fjzLczbttOofL9.atlasv1.H2WjQ5TY4MyWuUFjsUNPjc01T5GOBUSZGi6HWGK10Zb0RLZ5TR9SPofbciOx9gy1",
       "fjzLczbttOofL9.atlasv1.H2WjQ5TY4MyWuUFjsUNPjc01T5GOBUSZGi6HWGK10Zb0RLZ5TR9SPofbciOx9gy1", "terraform_token"},
      {"grafana glsa_CJdObOIRpFqaDZeV7G5IfQHeVVEqZe2q_767efc2f",
       "glsa_CJdObOIRpFqaDZeV7G5IfQHeVVEqZe2q_767efc2f", "grafana_token"},
      {"newrelic NRAK-SCMEJVQTIA4D5RGN5S7S333H9MT",
       "NRAK-SCMEJVQTIA4D5RGN5S7S333H9MT", "newrelic_key"},
      {"sentry sntrys_f7EbsDe0G9Cryn687neLfjVHq8xiM0OGr4hTxoF54Fzbka8FRCztUjAwyuh1",
       "sntrys_f7EbsDe0G9Cryn687neLfjVHq8xiM0OGr4hTxoF54Fzbka8FRCztUjAwyuh1", "sentry_token"},
      {"linear lin_api_vauWv1zh87mTa5Vsqxezy3Lex7BWr2drgd1QsO7j",
       "lin_api_vauWv1zh87mTa5Vsqxezy3Lex7BWr2drgd1QsO7j", "linear_key"},
      {"postman PMAK-78da6bd0c621de49f145fda9-988c79fc35526f7eaed46725a2a7b860dc",
       "PMAK-78da6bd0c621de49f145fda9-988c79fc35526f7eaed46725a2a7b860dc", "postman_key"},
      {"age AGE-SECRET-KEY-107NYRVD5RXI67NFRPYZ21TBIC145AEZ732PGOJJ7G3F9CAIOCTIQ71HGET",
       "AGE-SECRET-KEY-107NYRVD5RXI67NFRPYZ21TBIC145AEZ732PGOJJ7G3F9CAIOCTIQ71HGET", "age_secret_key"},
      {"gem rubygems_6c87009e8a7f770d9106fd287db7f1adbc60926f6967e789",
       "rubygems_6c87009e8a7f770d9106fd287db7f1adbc60926f6967e789", "rubygems_key"},
      {"doppler dp.pt.mlP7HVDctQUy1xvCkgafrfwA94hJ9WnywX0t0ZBfdTE",
       "dp.pt.mlP7HVDctQUy1xvCkgafrfwA94hJ9WnywX0t0ZBfdTE", "doppler_token"},
      {"telegram bot 123456789:AAmxI6CmuxV5EbOApZOXzcycDeZ6dqmVe5M",
       "123456789:AAmxI6CmuxV5EbOApZOXzcycDeZ6dqmVe5M", "telegram_token"},
      {"https://discord.com/api/webhooks/123456789012345678/RUIQfHOJMaidDn87XG3-q-xbMtEPO6UkzYuF0ie9Pu2njHkAm1-5wDr16EpLLJIVGHz4",
       "RUIQfHOJMaidDn87XG3-q-xbMtEPO6UkzYuF0ie9Pu2njHkAm1-5wDr16EpLLJIVGHz4", "discord_webhook"},
      {"stripe listen whsec_plppjs46LmuezqpGHoPZgPDcgaE40o1C",
       "whsec_plppjs46LmuezqpGHoPZgPDcgaE40o1C", "stripe_key"},
      {"gcloud token ya29.VfLDpgyyjVw5HanSBeVRsfAGeAbP0VxNjAe-9i0mYtluYI0KN1gNT11cUzYZ",
       "ya29.VfLDpgyyjVw5HanSBeVRsfAGeAbP0VxNjAe-9i0mYtluYI0KN1gNT11cUzYZ", "google_oauth"},
      {"client 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",
       "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", "google_oauth"},
      {"xapp-1-A0123456789-1234567890123-b54b95523cf6941fa1c257c6f561c5",
       "xapp-1-A0123456789-1234567890123-b54b95523cf6941fa1c257c6f561c5", "slack_token"},
      {"deploy gldt-ywhjpU05mc4J1WRcQ1uh",
       "gldt-ywhjpU05mc4J1WRcQ1uh", "gitlab_token"},
      {"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=yMDJ2OXtPAtLpByQxCGClbaNFDpCWNX0D1lZEzgeiwBxfZCGGQccOif7UuXUGfdWG5yP8Yib2eNUS0hmi4Fs9Z==;EndpointSuffix=core.windows.net",
       "yMDJ2OXtPAtLpByQxCGClbaNFDpCWNX0D1lZEzgeiwBxfZCGGQccOif7UuXUGfdWG5yP8Yib2eNUS0hmi4Fs9Z==", "azure_key"},
      {"Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=6YkRYU7oe1wNWqku5Nr50DjqG96EnLqNGpuxcmlzkO7=",
       "6YkRYU7oe1wNWqku5Nr50DjqG96EnLqNGpuxcmlzkO7=", "azure_key"},
      {"https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sig=zVZxqyxKjxvWfColNV9ds0HqtO93L7Q5uUaVcojs%3D&se=2030",
       "zVZxqyxKjxvWfColNV9ds0HqtO93L7Q5uUaVcojs%3D", "azure_sas"},
      {"AKIA106XDI5OCBDAWTG7,wIoALtLinxN1Ekia7ZpTjCgeOj3QYrzZq9adP0/+",
       "wIoALtLinxN1Ekia7ZpTjCgeOj3QYrzZq9adP0/+", "aws_secret"},
      {"Access key ID: AKIA106XDI5OCBDAWTG7  Secret access key: J5wMPLCM7HUFpk5acdIbzlpkd6XgaNJQ8mjAmHMP",
       "J5wMPLCM7HUFpk5acdIbzlpkd6XgaNJQ8mjAmHMP", "high_entropy_secret"},
      {"{\"password\": \"hunter2!x\"}",
       "hunter2!x", "secret_field"},
      {"password: Xy7#pQ9z",
       "Xy7#pQ9z", "secret_field"},
      {"api_key: 'k9Lmn0pQrs'",
       "k9Lmn0pQrs", "secret_field"},
      {"client_secret = \"cs_Q8r7T6y5U4i3\"",
       "cs_Q8r7T6y5U4i3", "env_assignment"},
      {"clientSecret: c1i3ntS3cr3tV4lu3",
       "c1i3ntS3cr3tV4lu3", "secret_field"},
      {"access_token=ya28b.Zx9Yw8Vu7",
       "ya28b.Zx9Yw8Vu7", "env_assignment"},
      {"the client secret is GPPA0NlGte7Od4UYETIay2BV6DfV",
       "GPPA0NlGte7Od4UYETIay2BV6DfV", "high_entropy_secret"},
      {"auth token PClog4oPchv5V7S82qTdrOJR expires soon",
       "PClog4oPchv5V7S82qTdrOJR", "high_entropy_secret"},
      {"x-api-key: Zk4Tq9Wm2Lp7",
       "Zk4Tq9Wm2Lp7", "api_key_header"},
      {"PRIVATE-TOKEN: Yh6Tg5Rf4Ed3",
       "Yh6Tg5Rf4Ed3", "api_key_header"},
      {"rediss://default:R3disCloudPw@redis.example:6380",
       "R3disCloudPw", "connection_string"},
      {"amqp://guest:Rabb1tPw@mq:5672/",
       "Rabb1tPw", "connection_string"},
  };
}


}  // namespace pinta::adapter::planted
