// Planted secret formats shared by redact_test and telemetry_process_test, so every test plants
// the same fakes.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace pinta::adapter::planted {

struct Planted {
  std::string text;    // input
  std::string secret;  // must not survive
  std::string type;    // marker type expected
  std::string format = {};  // the format it stands for, where neither type nor text says it
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


// Fake values made at test time from a fixed seed (`salt`): random-looking, so entropy-based
// scanners see them as secrets, yet no literal secret of these formats sits in the repository.
inline std::string fake(const std::string& alphabet, std::size_t n, const std::string& salt) {
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (unsigned char c : salt) x = (x ^ c) * 0x100000001B3ull;
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    out += alphabet[static_cast<std::size_t>(x % alphabet.size())];
  }
  return out;
}
inline const std::string kA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
inline const std::string kH = "0123456789abcdef";
inline const std::string kU = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
inline const std::string kD = "0123456789";
inline const std::string kUrl = kA + "_-";
inline const std::string kB64 = kA + "+/";
inline std::string base64(const std::string& in) {
  static const std::string t = kB64;
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    out += {t[(v >> 18) & 63], t[(v >> 12) & 63], t[(v >> 6) & 63], t[v & 63]};
  }
  if (i + 1 == in.size()) {
    const unsigned v = static_cast<unsigned char>(in[i]) << 16;
    out += {t[(v >> 18) & 63], t[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == in.size()) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8);
    out += {t[(v >> 18) & 63], t[(v >> 12) & 63], t[(v >> 6) & 63], '='};
  }
  return out;
}

// Secrets recognised by their structure or by the name they sit under, and formats that
// secretlint's preset does not know (issue "Guard integrity", item 4: each of these reached the
// collector, the queue and the debug log before).
inline std::vector<Planted> structural_corpus() {
  std::vector<Planted> v;
  auto add = [&](std::string text, std::string secret, std::string type) {
    v.push_back({std::move(text), std::move(secret), std::move(type)});
  };
  // Files whose lines are credentials.
  const std::string pg = fake(kA, 20, "pgpass");
  add("cat ~/.pgpass\ndb.internal:5432:appdb:app:" + pg + "\n", pg, "pgpass");
  const std::string pg2 = fake(kA + "!#%", 16, "pgpass2");
  add("*:*:*:replicator:" + pg2, pg2, "pgpass");
  const std::string nrc = fake(kA, 24, "netrc");
  add("machine api.example.com login bob password " + nrc, nrc, "netrc");
  const std::string ckd = base64("-----BEGIN RSA PRIVATE KEY-----\n" + fake(kB64, 64, "ckd"));
  add("users:\n- name: admin\n  user:\n    client-key-data: " + ckd + "\n", ckd.substr(0, 60), "private_key");
  const std::string docker_auth = base64("deploy:" + fake(kA, 20, "dockerauth"));
  add(R"({"auths":{"https://index.docker.io/v1/":{"auth":")" + docker_auth + R"("}}})", docker_auth,
      "secret_field");
  const std::string ppk_body = fake(kB64, 64, "ppk");
  add("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 2\n" +
          fake(kB64, 64, "ppkpub") + "\nAAAA\nPrivate-Lines: 1\n" + ppk_body + "\nPrivate-MAC: " +
          fake(kH, 64, "ppkmac") + "\n",
      ppk_body, "private_key");
  // Password hashes (crypt formats).
  const std::string cs = kA + "./";
  add("root:$6$" + fake(cs, 16, "s6") + "$" + fake(cs, 86, "h6") + ":19000:0:99999:7:::",
      fake(cs, 86, "h6"), "password_hash");
  add("user:$5$" + fake(cs, 16, "s5") + "$" + fake(cs, 43, "h5"), fake(cs, 43, "h5"), "password_hash");
  add("old:$1$" + fake(cs, 8, "s1") + "$" + fake(cs, 22, "h1"), fake(cs, 22, "h1"), "password_hash");
  add("web:$apr1$" + fake(cs, 8, "sa") + "$" + fake(cs, 22, "ha"), fake(cs, 22, "ha"), "password_hash");
  add("deb:$y$j9T$" + fake(cs, 22, "sy") + "$" + fake(cs, 43, "hy"), fake(cs, 43, "hy"), "password_hash");
  add(R"({"password_hash": "$2y$12$)" + fake(cs, 53, "b2y") + R"("})", fake(cs, 53, "b2y"), "password_hash");
  add("hash = '$2b$10$" + fake(cs, 53, "b2b") + "'", fake(cs, 53, "b2b"), "password_hash");
  add("$2a$08$" + fake(cs, 53, "b2a"), fake(cs, 53, "b2a"), "password_hash");
  add("$argon2id$v=19$m=65536,t=3,p=4$" + fake(kB64, 22, "ar_s") + "$" + fake(kB64, 43, "ar_h"),
      fake(kB64, 43, "ar_h"), "password_hash");
  // Environment variables that tools read a password from.
  const std::string sshp = fake(kA, 14, "sshpass");
  add("SSHPASS=" + sshp + " sshpass -e ssh deploy@host", sshp, "env_assignment");
  const std::string mpwd = fake(kA, 14, "mysqlpwd");
  add("MYSQL_PWD=" + mpwd + " mysql -u root", mpwd, "env_assignment");
  // Secret-named flags.
  const std::string k1 = fake(kA, 32, "flagkey");
  add("tool upload --key " + k1 + " --bucket b", k1, "cli_password");
  add("tool upload --key=" + fake(kA, 24, "flagkey2"), fake(kA, 24, "flagkey2"), "cli_password");
  const std::string ak = "tskey-auth-" + fake(kA, 12, "tsa") + "-" + fake(kA, 30, "tsb");
  add("tailscale up --auth-key " + ak, ak, "tailscale_key");
  add("tailscale up --auth-key=" + fake(kA, 30, "tsc"), fake(kA, 30, "tsc"), "cli_password");
  add("deploy --private-key " + fake(kB64, 44, "pk"), fake(kB64, 44, "pk"), "cli_password");
  add("az login --service-principal --client-secret " + fake(kA, 30, "cs1"), fake(kA, 30, "cs1"),
      "cli_password");
  add("app --secret " + fake(kA, 20, "sec1"), fake(kA, 20, "sec1"), "cli_password");
  add("app --api-key " + fake(kA, 28, "apik"), fake(kA, 28, "apik"), "cli_password");
  add("app --passwd=" + fake(kA, 12, "pwdf"), fake(kA, 12, "pwdf"), "cli_password");
  add("curl --cookie 'sid=" + fake(kA, 24, "ck") + "' https://x", fake(kA, 24, "ck"), "cli_password");
  add("openssl enc -aes-256-cbc -passin pass:" + fake(kA, 16, "ossl") + " -in f", fake(kA, 16, "ossl"),
      "cli_password");
  add("docker login -u bot -p " + fake(kA, 20, "dlp") + " registry.example", fake(kA, 20, "dlp"),
      "cli_password");
  // Secret-named fields in text: KEY=value, key: value, headers.
  add("Authorization: " + fake(kA, 40, "authz"), fake(kA, 40, "authz"), "authorization");
  add("Proxy-Authorization: Digest " + fake(kA, 32, "dig"), fake(kA, 32, "dig"), "authorization");
  const std::string cookie = "sid=" + fake(kA, 32, "cookie") + "; csrftoken=" + fake(kA, 32, "csrf");
  add("Cookie: " + cookie, fake(kA, 32, "cookie"), "cookie");
  add("set-cookie: session=" + fake(kA, 40, "setck") + "; Path=/; HttpOnly", fake(kA, 40, "setck"),
      "cookie");
  add("pass: " + fake(kA, 14, "pass"), fake(kA, 14, "pass"), "secret_field");
  add("pwd=" + fake(kA, 14, "pwd"), fake(kA, 14, "pwd"), "env_assignment");
  add("auth: " + fake(kA, 24, "auth"), fake(kA, 24, "auth"), "secret_field");
  add("sessionid=" + fake(kA, 32, "sessid"), fake(kA, 32, "sessid"), "env_assignment");
  add("X-Session-Id: " + fake(kA, 32, "xsid"), fake(kA, 32, "xsid"), "secret_field");
  add("SESSION_TOKEN=" + fake(kA, 40, "stok"), fake(kA, 40, "stok"), "env_assignment");
  add("SENTRY_DSN=" + fake(kA, 32, "dsn"), fake(kA, 32, "dsn"), "env_assignment");
  add("DATABASE_URL=" + fake(kA, 24, "dburl"), fake(kA, 24, "dburl"), "env_assignment");
  add("connection_string: \"Server=db;Password=" + fake(kA, 16, "cstr") + "\"", fake(kA, 16, "cstr"),
      "secret_field");
  add("mnemonic: abandon ability able about above absent absorb abstract absurd abuse access accident",
      "absent absorb abstract absurd", "seed_phrase");
  add("Seed phrase = \"legal winner thank year wave sausage worth useful legal winner thank yellow\"",
      "wave sausage worth useful", "seed_phrase");
  add("OTP=" + fake(kD, 8, "otp"), fake(kD, 8, "otp"), "env_assignment");
  add("passcode: " + fake(kD, 6, "passcode") + fake(kA, 4, "pc"), fake(kD, 6, "passcode") + fake(kA, 4, "pc"),
      "secret_field");
  add("CLIENT_KEY=" + fake(kA, 32, "clk"), fake(kA, 32, "clk"), "env_assignment");
  add(R"({"private_key_id": ")" + fake(kH, 40, "pkid") + R"("})", fake(kH, 40, "pkid"), "secret_field");
  add("apiKey: " + fake(kA, 32, "apikeycamel"), fake(kA, 32, "apikeycamel"), "secret_field");
  // Provider formats (documented prefix and shape).
  const std::string azs = fake(kA, 3, "az") + "8Q~" + fake(kA + "_~.-", 34, "azb");
  add("AZURE_CLIENT_SECRET_VALUE " + azs, azs, "azure_ad_secret");
  const std::string dct = "MT" + fake(kA, 24, "dc1") + "." + fake(kUrl, 6, "dc2") + "." + fake(kUrl, 38, "dc3");
  add("client.login('" + dct + "')", dct, "discord_token");
  const std::string okta = "00" + fake(kUrl, 40, "okta");
  add("curl -H 'Authorization: SSWS " + okta + "' https://x.okta.com", okta, "okta_token");
  add("ntn_" + fake(kD, 11, "ntn1") + fake(kA, 35, "ntn2"), "ntn_" + fake(kD, 11, "ntn1") + fake(kA, 35, "ntn2"),
      "notion_token");
  add("notion secret_" + fake(kA, 43, "notion"), "secret_" + fake(kA, 43, "notion"), "notion_token");
  add("pulumi login pul-" + fake(kH, 40, "pul"), "pul-" + fake(kH, 40, "pul"), "pulumi_token");
  add("r8_" + fake(kA, 37, "r8"), "r8_" + fake(kA, 37, "r8"), "replicate_token");
  add("dropbox sl." + fake(kUrl, 138, "sl"), "sl." + fake(kUrl, 138, "sl"), "dropbox_token");
  add("mailgun key-" + fake(kH, 32, "mg"), "key-" + fake(kH, 32, "mg"), "mailgun_key");
  add("sbp_" + fake(kH, 40, "sbp"), "sbp_" + fake(kH, 40, "sbp"), "supabase_token");
  add("gsk_" + fake(kA, 52, "gsk"), "gsk_" + fake(kA, 52, "gsk"), "groq_key");
  add("xai-" + fake(kA, 80, "xai"), "xai-" + fake(kA, 80, "xai"), "xai_key");
  add("pplx-" + fake(kA, 48, "pplx"), "pplx-" + fake(kA, 48, "pplx"), "perplexity_key");
  add("lsv2_pt_" + fake(kH, 32, "ls1") + "_" + fake(kH, 10, "ls2"),
      "lsv2_pt_" + fake(kH, 32, "ls1") + "_" + fake(kH, 10, "ls2"), "langsmith_key");
  add("pcsk_" + fake(kA, 6, "pc1") + "_" + fake(kA, 64, "pc2"), "pcsk_" + fake(kA, 6, "pc1") + "_" + fake(kA, 64, "pc2"),
      "pinecone_key");
  add("fly fo1_" + fake(kUrl, 43, "fly"), "fo1_" + fake(kUrl, 43, "fly"), "fly_token");
  add("nfp_" + fake(kA, 40, "nfp"), "nfp_" + fake(kA, 40, "nfp"), "netlify_token");
  add("figd_" + fake(kUrl, 40, "figd"), "figd_" + fake(kUrl, 40, "figd"), "figma_token");
  add("CFPAT-" + fake(kUrl, 43, "cfpat"), "CFPAT-" + fake(kUrl, 43, "cfpat"), "contentful_token");
  add("sgp_" + fake(kH, 16, "sgp1") + "_" + fake(kH, 40, "sgp2"), "sgp_" + fake(kH, 16, "sgp1") + "_" + fake(kH, 40, "sgp2"),
      "sourcegraph_token");
  add("bkua_" + fake(kH, 40, "bk"), "bkua_" + fake(kH, 40, "bk"), "buildkite_token");
  add("CCIPAT_" + fake(kA, 22, "cci1") + "_" + fake(kH, 40, "cci2"),
      "CCIPAT_" + fake(kA, 22, "cci1") + "_" + fake(kH, 40, "cci2"), "circleci_token");
  add("rnd_" + fake(kA, 32, "rnd"), "rnd_" + fake(kA, 32, "rnd"), "render_key");
  add("pscale_tkn_" + fake(kUrl, 43, "ps"), "pscale_tkn_" + fake(kUrl, 43, "ps"), "planetscale_token");
  add("napi_" + fake("abcdefghijklmnopqrstuvwxyz0123456789", 64, "napi"),
      "napi_" + fake("abcdefghijklmnopqrstuvwxyz0123456789", 64, "napi"), "neon_key");
  add("mapbox sk.eyJ1Ijoi" + fake(kUrl, 30, "mb1") + "." + fake(kUrl, 22, "mb2"),
      "sk.eyJ1Ijoi" + fake(kUrl, 30, "mb1") + "." + fake(kUrl, 22, "mb2"), "mapbox_token");
  add("OP_SERVICE_ACCOUNT ops_eyJ" + fake(kUrl, 60, "ops"), "ops_eyJ" + fake(kUrl, 60, "ops"), "onepassword_token");
  const std::string a3 = "A3-" + fake(kU, 6, "a31") + "-" + fake(kU, 11, "a32") + "-" + fake(kU, 5, "a33") + "-" +
                         fake(kU, 5, "a34") + "-" + fake(kU, 5, "a35");
  add("1password " + a3, a3, "onepassword_secret_key");
  add("ATBB" + fake(kA, 32, "atbb"), "ATBB" + fake(kA, 32, "atbb"), "bitbucket_token");
  add("glft-" + fake(kUrl, 20, "glft"), "glft-" + fake(kUrl, 20, "glft"), "gitlab_token");
  add("--registration-token GR1348941" + fake(kUrl, 20, "glrr"), "GR1348941" + fake(kUrl, 20, "glrr"), "gitlab_token");
  add("HRKU-" + fake(kUrl, 60, "hrku"), "HRKU-" + fake(kUrl, 60, "hrku"), "heroku_key");
  add("LTAI5t" + fake(kA, 18, "ltai"), "LTAI5t" + fake(kA, 18, "ltai"), "alibaba_key");
  add("AKID" + fake(kA, 32, "akid"), "AKID" + fake(kA, 32, "akid"), "tencent_key");
  add("SCW" + fake(kU, 16, "scw") + "7", "SCW" + fake(kU, 16, "scw") + "7", "scaleway_key");
  add("AKCp" + fake(kA, 69, "akcp"), "AKCp" + fake(kA, 69, "akcp"), "jfrog_token");
  add("cmVmdGtu" + fake(kA, 56, "reft"), "cmVmdGtu" + fake(kA, 56, "reft"), "jfrog_token");
  add("xkeysib-" + fake(kH, 64, "brevo") + "-" + fake(kA, 16, "brevo2"),
      "xkeysib-" + fake(kH, 64, "brevo") + "-" + fake(kA, 16, "brevo2"), "brevo_key");
  add("mailchimp " + fake(kH, 32, "mc") + "-us21", fake(kH, 32, "mc") + "-us21", "mailchimp_key");
  add("fb EAAB" + fake(kA, 120, "eaa"), "EAAB" + fake(kA, 120, "eaa"), "facebook_token");
  add("AAAAAAAAAAAAAAAAAAAAA" + fake(kA, 80, "tw"), "AAAAAAAAAAAAAAAAAAAAA" + fake(kA, 80, "tw"), "twitter_bearer");
  add("v1.0-" + fake(kH, 24, "cf1") + "-" + fake(kH, 146, "cf2"), "v1.0-" + fake(kH, 24, "cf1") + "-" + fake(kH, 146, "cf2"),
      "cloudflare_origin_ca_key");
  add("cargo login cio" + fake(kA, 31, "cio") + "a", "cio" + fake(kA, 31, "cio") + "a", "cargo_token");
  add("re_" + fake(kA, 8, "re1") + "_" + fake(kA, 24, "re2"), "re_" + fake(kA, 8, "re1") + "_" + fake(kA, 24, "re2"),
      "resend_key");
  add("pnu_" + fake(kA, 36, "pnu"), "pnu_" + fake(kA, 36, "pnu"), "prefect_key");
  add("ico-" + fake(kA, 32, "ico"), "ico-" + fake(kA, 32, "ico"), "infracost_key");
  add("tfp_" + fake(kA, 44, "tfp"), "tfp_" + fake(kA, 44, "tfp"), "typeform_token");
  add("EZAK" + fake(kA, 54, "ezak"), "EZAK" + fake(kA, 54, "ezak"), "easypost_key");
  add("shippo_live_" + fake(kH, 40, "shippo"), "shippo_live_" + fake(kH, 40, "shippo"), "shippo_token");
  add("duffel_test_" + fake(kUrl, 43, "duffel"), "duffel_test_" + fake(kUrl, 43, "duffel"), "duffel_token");
  add("FLWSECK_TEST-" + fake(kH, 32, "flw") + "-X", "FLWSECK_TEST-" + fake(kH, 32, "flw") + "-X", "flutterwave_key");
  const std::string plaid = "access-sandbox-" + fake(kH, 8, "p1") + "-" + fake(kH, 4, "p2") + "-" + fake(kH, 4, "p3") +
                            "-" + fake(kH, 4, "p4") + "-" + fake(kH, 12, "p5");
  add(plaid, plaid, "plaid_token");
  add("API-" + fake(kU, 25, "octo") + "7", "API-" + fake(kU, 25, "octo") + "7", "octopus_key");
  add("aio_" + fake(kA, 28, "aio"), "aio_" + fake(kA, 28, "aio"), "adafruit_key");
  add("fio-u-" + fake(kUrl, 64, "fio"), "fio-u-" + fake(kUrl, 64, "fio"), "frameio_token");
  return v;
}

// DER of a private key (PKCS#1 RSAPrivateKey: SEQUENCE, INTEGER 0, ...) then random bytes: the
// body of a PEM private key without its armour.
inline std::string der_private_key_b64(const std::string& salt, std::size_t random_bytes = 90) {
  std::string der = {'\x30', '\x82', '\x04', '\xa3', '\x02', '\x01', '\x00', '\x02', '\x82', '\x01', '\x01', '\x00'};
  der += fake(std::string("\x01\x17\x2a\x3f\x51\x66\x7b\x8c\x9d\xae\xbf\xc0\xd1\xe2\xf3\xff", 16), random_bytes, salt);
  return base64(der);
}

// Formats, structures and names that no rule of the table names (639 of 1,026 such
// placements reached the collector). Each value is made at test time; every entry is caught by
// the context or shape detector alone (RedactGeneric.HeldOutCorpusWithoutVendorRules).
inline std::vector<Planted> generic_corpus() {
  std::vector<Planted> v;
  auto add = [&](std::string text, std::string secret, std::string type) {
    v.push_back({std::move(text), std::move(secret), std::move(type)});
  };
  const std::string kUrlB64 = kA + "-_";
  // Token formats issued 2024-2026 that the rules do not name (22 of 49 leaked before these detectors).
  const std::string sb = "sb_secret_" + fake(kUrlB64, 31, "g-sb");
  add("SUPABASE_SERVICE_ROLE=" + sb, sb, "prefixed_token");
  add("use " + sb + " for the admin client", sb, "prefixed_token");
  const std::string absk = "ABSK" + base64(fake(kA + "!#", 96, "g-absk"));
  add("bedrock key " + absk, absk.substr(0, 60), "high_entropy");
  const std::string dckr = "dckr_oat_" + fake(kUrlB64, 32, "g-dckr");
  add("echo " + dckr + " | docker login -u bot --password-stdin", dckr, "prefixed_token");
  const std::string tvly = "tvly-" + fake(kA, 32, "g-tvly");
  add("TavilyClient(api_key=\"" + tvly + "\")", tvly, "env_assignment");
  add("search with " + tvly, tvly, "prefixed_token");
  const std::string e2b = "e2b_" + fake(kH, 40, "g-e2b");
  add("sandbox = Sandbox(\"" + e2b + "\")", e2b, "prefixed_token");
  const std::string xi = "sk_" + fake(kH, 48, "g-eleven");
  add("elevenlabs " + xi, xi, "prefixed_token");
  const std::string squ = "squ_" + fake(kH, 40, "g-squ");
  add("sonar-scanner -Dsonar.token=" + squ, squ, "env_assignment");
  add("sonar " + squ, squ, "prefixed_token");
  const std::string square = "EAAA" + fake(kUrlB64, 60, "g-square");
  add("square " + square, square, "high_entropy");
  const std::string mdb = "mdb_sa_sk_" + fake(kA, 40, "g-mdb");
  add("atlas auth " + mdb, mdb, "prefixed_token");
  const std::string vault = "s." + fake(kA, 24, "g-vault");
  add("VAULT_TOKEN " + vault, vault, "prefixed_token");
  const std::string harness = "pat." + fake(kUrlB64, 22, "g-h1") + "." + fake(kH, 24, "g-h2") + "." + fake(kA, 20, "g-h3");
  add("harness " + harness, harness, "prefixed_token");
  const std::string bt = "access_token$production$" + fake("abcdefghijklmnopqrstuvwxyz0123456789", 16, "g-bt1") + "$" + fake(kH, 32, "g-bt2");
  add("braintree " + bt, bt, "prefixed_token");
  const std::string fn = fake(kUrlB64, 54, "g-func") + "==";
  add("curl https://app.azurewebsites.net/api/HttpTrigger?code=" + fn, fn, "query_credential");
  const std::string userinfo = fake(kA, 40, "g-userinfo");
  add("git clone https://" + userinfo + "@github.com/org/private.git", userinfo, "url_credentials");
  add("remote: https://x-oauth-basic-" + fake(kA, 30, "g-ui2") + "@git.example.com/r.git",
      "x-oauth-basic-" + fake(kA, 30, "g-ui2"), "url_credentials");
  const std::string fw = "fw_" + fake(kA, 24, "g-fw");
  add("fireworks " + fw, fw, "prefixed_token");
  const std::string cohere = fake(kA, 40, "g-cohere");
  add("co = cohere.Client('" + cohere + "')", cohere, "high_entropy");
  const std::string mistral = fake(kA, 32, "g-mistral");
  add("MistralClient: " + mistral, mistral, "high_entropy");
  const std::string orkey = "or-v1-" + fake(kH, 64, "g-or");
  add("openrouter " + orkey, orkey, "prefixed_token");
  const std::string lf = "sk-lf-" + fake(kH, 8, "g-lf1") + "-" + fake(kH, 4, "g-lf2") + "-" + fake(kH, 4, "g-lf3") + "-" +
                         fake(kH, 4, "g-lf4") + "-" + fake(kH, 12, "g-lf5");
  add("langfuse " + lf, lf, "openai_key");
  const std::string unkey = "unkey_" + fake(kA, 24, "g-unkey");
  add("unkey " + unkey, unkey, "prefixed_token");
  const std::string clerk = "sk_live_" + fake(kA, 40, "g-clerk");
  add("clerk " + clerk, clerk, "stripe_key");
  const std::string upst = "AX" + fake(kA, 60, "g-upstash") + "=";
  add("UPSTASH_REDIS_REST_TOKEN " + upst, upst, "high_entropy");
  const std::string hex_key = fake(kH, 64, "g-together");
  add("TOGETHER_API_KEY=" + hex_key, hex_key, "env_assignment");
  add("DD_API_KEY: " + fake(kH, 32, "g-dd"), fake(kH, 32, "g-dd"), "secret_field");
  add("PINECONE_API_KEY=" + fake(kH, 8, "g-pc1") + "-" + fake(kH, 4, "g-pc2") + "-" + fake(kH, 4, "g-pc3") + "-" +
          fake(kH, 4, "g-pc4") + "-" + fake(kH, 12, "g-pc5"),
      fake(kH, 8, "g-pc1") + "-" + fake(kH, 4, "g-pc2"), "env_assignment");
  // Structures.
  const std::string b1 = der_private_key_b64("g-pem1").substr(0, 64), b2 = fake(kB64, 64, "g-pem2"), b3 = fake(kB64, 64, "g-pem3");
  add("[\"-----BEGIN RSA PRIVATE KEY-----\", \"" + b1 + "\", \"" + b2 + "\", \"" + b3 +
          "\", \"-----END RSA PRIVATE KEY-----\"]",
      b2, "private_key");
  add("key body:\n" + b1 + "\n" + b2 + "\n" + b3 + "\n", b1, "private_key");
  add("[\"" + b1 + "\", \"" + b2 + "\"]", b2, "high_entropy");
  const std::string sas = fake(kB64, 43, "g-sas") + "%3D";
  add("{\"url\": \"https://acct.blob.core.windows.net/c/b?sv=2022-11-02\\u0026ss=b\\u0026sp=r\\u0026sig=" + sas + "\"}",
      fake(kB64, 43, "g-sas"), "azure_sas");
  const std::string after_nl = "ghp_" + fake(kA, 36, "g-nl");
  add(R"({"output": "cloned\n)" + after_nl + R"(\nremote: done"})", after_nl, "github_token");
  const std::string after_nl2 = "tvly-" + fake(kA, 32, "g-nl2");
  add(R"("stdout": "key:\n)" + after_nl2 + R"(\n")", after_nl2, "prefixed_token");
  const std::string aws_own = fake(kB64, 40, "g-awsown");
  add(R"({"key_id": "AKIA)" + fake(kU, 16, "g-awsid") + R"(", "value": ")" + aws_own + R"("})", aws_own, "high_entropy");
  const std::string dotenv = base64("DB_PASSWORD=" + fake(kA, 18, "g-env1") + "\nAPI_KEY=" + fake(kA, 32, "g-env2") + "\n");
  add("data:\n  .env: " + dotenv + "\n", dotenv.substr(0, 40), "base64_secret");
  const std::string basic = base64("deploy:" + fake(kA, 12, "g-basic"));
  add("echo " + basic + " | base64 -d", basic, "base64_secret");
  const std::string sig_pct = fake(kB64, 44, "g-pct");
  add("redirect=https%3A%2F%2Fapp%2Fcb%3Fx%3D1%26sig%3D" + sig_pct, sig_pct, "azure_sas");
  const std::string amp = fake(kA, 32, "g-amp");
  add("<a href=\"https://api.example/v1?user=7&amp;token=" + amp + "\">", amp, "env_assignment");
  const std::string frag = fake(kUrlB64, 40, "g-frag");
  add("https://app.example/callback#access_token=" + frag + "&token_type=bearer", frag, "env_assignment");
  const std::string amzsig = fake(kH, 64, "g-amzsig");
  add("https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=" + amzsig, amzsig,
      "query_credential");
  const std::string oauth_code = fake(kUrlB64, 40, "g-code");
  add("GET /callback?code=" + oauth_code + "&state=xyz", oauth_code, "query_credential");
  // Names, syntaxes and flags (all 25 leaked).
  const std::string pv = fake(kA, 16, "g-pv");
  add("password_confirmation: " + pv, pv, "secret_field");
  add("{\"password_confirmation\": \"" + fake(kA, 14, "g-pc") + "\"}", fake(kA, 14, "g-pc"), "secret_field");
  add("password2=" + fake(kA, 12, "g-pw2"), fake(kA, 12, "g-pw2"), "env_assignment");
  add("api_keys: [\"" + fake(kA, 24, "g-ak1") + "\", \"" + fake(kA, 24, "g-ak2") + "\"]", fake(kA, 24, "g-ak2"),
      "secret_field");
  add("client_secret: {value: " + fake(kA, 20, "g-csv") + "}", fake(kA, 20, "g-csv"), "secret_field");
  add("{\"client_secret\": {\"value\": \"" + fake(kA, 20, "g-csv2") + "\"}}", fake(kA, 20, "g-csv2"), "secret_field");
  add("creds=" + fake(kA, 14, "g-creds"), fake(kA, 14, "g-creds"), "env_assignment");
  add("{\"creds\": \"" + fake(kA, 14, "g-creds2") + "\"}", fake(kA, 14, "g-creds2"), "secret_field");
  add("DB_PASSWORD_PROD=" + fake(kA, 14, "g-dbpp"), fake(kA, 14, "g-dbpp"), "env_assignment");
  add("SECRET_KEY_BASE=" + fake(kH, 128, "g-skb"), fake(kH, 128, "g-skb"), "env_assignment");
  const std::string appkey = "base64:" + base64(fake(kA, 32, "g-appkey"));
  add("APP_KEY=" + appkey, appkey, "env_assignment");
  add("define('DB_PASSWORD', '" + fake(kA, 14, "g-define") + "');", fake(kA, 14, "g-define"), "secret_field");
  add("<password>" + fake(kA, 14, "g-xmlpw") + "</password>", fake(kA, 14, "g-xmlpw"), "secret_field");
  add("<add key=\"ApiKey\" value=\"" + fake(kA, 24, "g-netkey") + "\" />", fake(kA, 24, "g-netkey"), "secret_field");
  add("<entry name=\"db.password\" value=\"" + fake(kA, 12, "g-entry") + "\"/>", fake(kA, 12, "g-entry"), "secret_field");
  add("<user name=\"svc\" password=\"" + fake(kA, 12, "g-xmlattr") + "\"/>", fake(kA, 12, "g-xmlattr"), "env_assignment");
  add("FROM node:20\nENV API_TOKEN " + fake(kA, 24, "g-envtok") + "\nRUN npm ci", fake(kA, 24, "g-envtok"),
      "env_assignment");
  add("aws configure set aws_secret_access_key " + fake(kB64, 40, "g-awscfg"), fake(kB64, 40, "g-awscfg"),
      "cli_password");
  add("npm config set //registry.npmjs.org/:_authToken " + fake(kA, 36, "g-npmcfg"), fake(kA, 36, "g-npmcfg"),
      "cli_password");
  add("dotnet user-secrets set \"Db:Password\" \"" + fake(kA, 14, "g-dotnet") + "\"", fake(kA, 14, "g-dotnet"),
      "cli_password");
  add("Ocp-Apim-Subscription-Key: " + fake(kH, 32, "g-apim"), fake(kH, 32, "g-apim"), "secret_field");
  add("x-functions-key: " + fake(kUrlB64, 40, "g-fkey"), fake(kUrlB64, 40, "g-fkey"), "secret_field");
  add("redis-cli -h cache -a " + fake(kA, 16, "g-redis") + " ping", fake(kA, 16, "g-redis"), "cli_password");
  add("sqlcmd -S db -U sa -P " + fake(kA, 14, "g-sqlcmd") + " -Q \"select 1\"", fake(kA, 14, "g-sqlcmd"), "cli_password");
  add("az login -u bob@example.com -p " + fake(kA, 14, "g-azp"), fake(kA, 14, "g-azp"), "cli_password");
  add("keytool -list -keystore ks.jks -storepass " + fake(kA, 12, "g-ktool"), fake(kA, 12, "g-ktool"), "cli_password");
  add("220 ready\r\nUSER bob\r\n331 need password\r\nPASS " + fake(kA, 12, "g-ftp") + "\r\n230 ok",
      fake(kA, 12, "g-ftp"), "cli_password");
  add("ldapsearch -x -D cn=admin,dc=ex -w " + fake(kA, 12, "g-ldap") + " -b dc=ex", fake(kA, 12, "g-ldap"),
      "cli_password");
  add("zip -P " + fake(kA, 12, "g-zip") + " out.zip report.pdf", fake(kA, 12, "g-zip"), "cli_password");
  add("7z a -p" + fake(kA, 12, "g-7z") + " out.7z dir", fake(kA, 12, "g-7z"), "cli_password");
  add("plink -ssh admin@h -pw " + fake(kA, 12, "g-plink"), fake(kA, 12, "g-plink"), "cli_password");
  add("mongosh mongodb://h/db -u admin -p " + fake(kA, 12, "g-mongo"), fake(kA, 12, "g-mongo"), "cli_password");
  add("mosquitto_pub -h b -u dev -P " + fake(kA, 12, "g-mqtt") + " -t t -m x", fake(kA, 12, "g-mqtt"), "cli_password");
  add("ipmitool -I lanplus -H bmc -U admin -P " + fake(kA, 12, "g-ipmi") + " power status", fake(kA, 12, "g-ipmi"),
      "cli_password");
  add("snmpwalk -v3 -l authPriv -u u -a SHA -A " + fake(kA, 12, "g-snmpA") + " -x AES -X " + fake(kA, 12, "g-snmpX") + " h",
      fake(kA, 12, "g-snmpX"), "cli_password");
  add("smbclient //srv/share -U bob%" + fake(kA, 12, "g-smb"), fake(kA, 12, "g-smb"), "cli_password");
  add("xfreerdp /u:bob /p:" + fake(kA, 12, "g-rdp") + " /v:host", fake(kA, 12, "g-rdp"), "cli_password");
  add("sqlplus scott/" + fake(kA, 12, "g-sqlplus") + "@orcl", fake(kA, 12, "g-sqlplus"), "cli_password");
  add("htpasswd -b .htpasswd bob " + fake(kA, 12, "g-htp"), fake(kA, 12, "g-htp"), "cli_password");
  add("net user svc " + fake(kA, 12, "g-netuser") + " /add", fake(kA, 12, "g-netuser"), "cli_password");
  add("influx -username admin -password " + fake(kA, 12, "g-influx"), fake(kA, 12, "g-influx"), "cli_password");
  add("[database]\nhost = db\npassword = " + fake(kA, 12, "g-ini"), fake(kA, 12, "g-ini"), "env_assignment");
  add("{\"dbPasswordProd\": \"" + fake(kA, 12, "g-camel") + "\"}", fake(kA, 12, "g-camel"), "secret_field");
  add("export STRIPE_SECRET_KEY_LIVE=" + fake(kA, 24, "g-keylive"), fake(kA, 24, "g-keylive"), "env_assignment");
  add("SMTP_PW=" + fake(kA, 12, "g-smtppw"), fake(kA, 12, "g-smtppw"), "env_assignment");
  return v;
}

// Made-up vendor formats: prefixes no rule knows, bodies of every alphabet the shape detector
// handles, in the places tokens turn up. None is in the rule table, so what catches them is the
// shape detector alone.
inline std::vector<Planted> made_up_vendor_corpus() {
  std::vector<Planted> v;
  const std::vector<std::string> prefixes = {"zq_live_", "acme-", "Qx9-", "wbt_", "plm_sk_", "nx.", "kord_pat_",
                                             "vmx-prod-", "qrk_", "blz_"};
  const std::vector<std::pair<std::string, std::size_t>> bodies = {
      {kA, 32}, {kA + "-_", 40}, {kH, 40}, {"abcdefghijklmnopqrstuvwxyz0123456789", 32}, {kB64, 44}};
  const std::vector<std::string> places = {"token: @", "Use @ to call the API.", "{\"k\": \"@\"}", "curl -H 'X-K: @'",
                                           "'@'", "line1\\n@\\nline3"};
  std::size_t i = 0;
  for (const std::string& prefix : prefixes) {
    for (const auto& [alphabet, n] : bodies) {
      const std::string secret = prefix + fake(alphabet, n, "mu-" + prefix + std::to_string(i));
      std::string text = places[i % places.size()];
      text.replace(text.find('@'), 1, secret);
      v.push_back({text, secret, "", "made-up " + prefix + " " + std::to_string(i % bodies.size())});
      ++i;
    }
  }
  return v;
}

inline std::vector<Planted> legacy_corpus();
inline std::vector<Planted> corpus() {
  std::vector<Planted> all = legacy_corpus();
  for (auto& p : structural_corpus()) all.push_back(std::move(p));
  for (auto& p : generic_corpus()) all.push_back(std::move(p));
  return all;
}

inline std::vector<Planted> legacy_corpus() {
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
      {"DATABASE_URL=postgresql://app:pa55@w0rd@10.0.0.5/app?sslmode=require", "pa55@w0rd", "env_assignment"},
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

// Marker types of the detectors that do not know the vendor (context and shape) and of the
// structural rules: an entry of such a type is a name, syntax or structure, not a provider format.
inline const std::set<std::string>& generic_types() {
  static const std::set<std::string> kTypes = {
      "private_key", "password_hash", "jwt", "pgpass", "netrc", "cli_password", "bearer", "api_key_header",
      "authorization", "cookie", "seed_phrase", "env_assignment", "secret_field", "query_credential",
      "high_entropy_secret", "url_credentials", "connection_string", "high_entropy", "prefixed_token",
      "base64_secret", ""};
  return kTypes;
}

// What an entry counts as, for counting formats honestly: a provider format is its marker type
// (ghp_, gho_, ghu_… are one format; the same format in three contexts is one); any other entry
// is its type plus its text with the secret and every other random run (12+ letters and digits)
// set aside, so the same name or structure with a fresh value counts once. Made-up vendor formats
// (no type) count by prefix and body alphabet (their `format`).
inline std::string format_key(const Planted& p) {
  if (!p.format.empty()) return p.format;
  if (!generic_types().count(p.type)) return p.type;
  std::string text = p.text;
  if (const auto at = text.find(p.secret); at != std::string::npos) text.replace(at, p.secret.size(), "<S>");
  std::string key = p.type + "|";
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t j = i;
    auto alnum = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    while (j < text.size() && alnum(text[j])) ++j;
    if (j - i >= 12) {
      key += "<R>";
      i = j;
    } else if (j > i) {
      key.append(text, i, j - i);
      i = j;
    } else {
      key += text[i++];
    }
  }
  return key;
}

// Everything the process-level scanner test plants: the corpus and the made-up vendor formats.
inline std::vector<Planted> planted_everywhere() {
  std::vector<Planted> all = corpus();
  for (auto& p : made_up_vendor_corpus()) all.push_back(std::move(p));
  return all;
}

}  // namespace pinta::adapter::planted
