// Benign strings that redaction must leave exactly as they are: code, configuration, hashes,
// UUIDs, base64 blobs, CLI flags and assignments whose names merely contain a secret word. The
// false-positive rate of redact_string on this corpus is measured by redact_test (at most 2%) and
// reported in docs/benchmarks.md. ordinary_traffic() is what coding agents' tools print every day
// (git, lock files, package managers, builds, containers, minified JS, base64 images): with the
// strings of fixtures/ it is the corpus of the 1 % false-positive budget
// (RedactBenign.FalsePositiveRateOnOrdinaryTrafficIsAtMostOnePercent, and the false-positive row
// of ci/bench.sh through `pinta-redact-bench --false-positives`).
#pragma once

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pinta::adapter::benign {

inline std::vector<std::string> corpus() {
  return {
      // Names that contain a secret word but are no secret.
      "max_tokens=1024",
      "--max-tokens=4096",
      "TOKEN_LIMIT=4096",
      "token_type=bearer",
      "fn(secret=None, token=None)",
      "def login(user, password=None):",
      "def f(token: str, secret: Optional[str] = None) -> bool:",
      "const token = getToken();",
      "token = self.token",
      "api_key = os.environ[\"API_KEY\"]",
      "password = config.password",
      "TOKEN=$GITHUB_TOKEN ./run",
      "export API_KEY=${API_KEY:-}",
      "secret: ${{ secrets.DEPLOY_KEY }}",
      "password: <your-password>",
      "api_key: ****",
      R"({"max_tokens": 1024, "token_type": "bearer", "tokens": 5})",
      R"({"usage": {"prompt_tokens": 12, "completion_tokens": 40, "total_tokens": 52}})",
      R"({"is_secret": false, "secret_count": 3, "password_policy": "strong"})",
      "The token: see the docs for how to create one.",
      "Tokens are counted per request; the secret sauce is caching.",
      "tokenizer.encode(text, max_length=512)",
      "if (password.length < 8) throw new Error('too short');",
      "grep -rn 'password' src/",
      "git commit -m 'fix: the password prompt'",
      "Bearer tokens are described in RFC 6750",
      "curl -H \"Authorization: Bearer $TOKEN\" https://api",
      "key=value sort_key=name",
      "PATH=/usr/local/bin:/usr/bin HOME=/root",
      "secretlint --format json .",
      // Code.
      "for (int i = 0; i < n; ++i) { sum += a[i]; }",
      "import numpy as np; x = np.zeros((3, 4))",
      "SELECT id, name FROM users WHERE created_at > NOW() - INTERVAL '1 day';",
      "fn main() { println!(\"{}\", 42); }",
      "const re = /^[a-z0-9_-]{3,16}$/;",
      "std::vector<std::string> keys = {\"a\", \"b\"};",
      "/home/user/project/src/main.cc:42:7: error: expected ';'",
      "ls -la /tmp && mkdir -p build/out",
      "pip install scikit-learn sk-learn",
      "npm install --save-dev eslint@8",
      "docker run --rm -p 8080:80 nginx:1.25",
      "kubectl get pods -n kube-system -o wide",
      "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release",
      // Config.
      "[server]\nport = 8080\nhost = \"0.0.0.0\"",
      "retries: 3\ntimeout_ms: 5000\nlog_level: debug",
      "https://example.com/path?query=1&page=2",
      "ssh://git@github.com/org/repo.git",
      "git@github.com:org/repo.git",
      "email me at alice@example.com",
      // Hashes, ids, encodings.
      "7f3c2a4e-1b2d-4b1d-9a0e-123456789abc",
      "6016446a3b9f0c2d1e4f5a6b7c8d9e0f12345678",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",
      "commit 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b",
      "data:image/"
      "png;base64,"
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJg"
      "gg==",
      "SGVsbG8sIFdvcmxkISBUaGlzIGlzIGEgYmFzZTY0IGJsb2Iu",
      "task-1234567890abcdefghijklmnop",
      "AKIA is a prefix; AKIASHORT",
      "eyJ alone, and a.b.c",
      "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
      "日本語のテキスト — émigré naïve café",
      "[REDACTED:github_token] …[TRUNCATED:12]",
      // Look-alikes of the secrets found by structure and by name (issue "Guard integrity", item 4).
      R"({"model": "gemini-2.5-pro", "max_tokens": 8192, "temperature": 0.2})",
      R"({"usageMetadata": {"promptTokenCount": 120, "candidatesTokenCount": 33}})",
      "token_count = len(tokenizer.encode(prompt))",
      "tokenizer = AutoTokenizer.from_pretrained(\"gpt2\")",
      R"({"author": "Jane Developer", "authority": "https://login.example.com"})",
      "Author: Jane Developer <jane@example.com>",
      "git log --author=jane --since=2.weeks",
      "All 42 tests passed; 0 failed.",
      "passenger_count = 3",
      "bypass_cache=true",
      "compass_heading=270",
      "oauth_provider=github",
      "session_count: 12",
      "cookie_policy: strict",
      "The session id is shown in the status bar.",
      "Set the Cookie header only over HTTPS.",
      "export PWD=/home/user/project",
      R"({"pwd": "/workspace/app"})",
      "cd \"$PWD\" && make",
      "pass: true",
      "auth: none",
      "otp_length=6",
      "dsn_format: url",
      "DATABASE_URL=$DATABASE_URL npm run migrate",
      "connection_string: ${CONNECTION_STRING}",
      "mnemonic: null",
      "--password-file /run/secrets/db_password",
      "pg_dump --no-password -h db app > app.sql",
      "sort --key=2,2 -t, data.csv",
      "gpg --recv-keys 0x1234ABCD",
      "ssh-keygen -t ed25519 -C ci@example.com -f ~/.ssh/id_ed25519",
      "--ssh-key ~/.ssh/id_ed25519.pub",
      "docker run -p 5432:5432 -e POSTGRES_DB=app postgres:16",
      "mysql -p appdb < schema.sql",
      "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl ci@host",
      "client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM=",
      "certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t",
      "b3f1c0a9e7d2 fix: handle empty payloads (#412)",
      "commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: CI <ci@example.com>",
      "git checkout 4e1243bd22c66e76c2ba9eddc1f91394e57f9f83",
      "550e8400-e29b-41d4-a716-446655440000",
      "{\"id\": \"c9bf9e57-1685-4c89-bafb-ff5af830be8a\", \"status\": \"ok\"}",
      "/home/user/.config/gcloud/application_default_credentials.json",
      "src/auth/session_store.ts:118:14",
      "C:\\Users\\dev\\AppData\\Local\\Temp\\build-1234",
      "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/",
      "12:30:45.123 INFO server listening on 0.0.0.0:8080",
      "00:1A:2B:3C:4D:5E",
      "2024-05-01T12:00:00Z",
      "fe80::1ff:fe23:4567:890a",
      "main.cc:42:7: error: use of undeclared identifier 'tokn'",
      "kubectl create secret generic db --from-file=./password.txt",
      "The API key goes in the X-Api-Key header; see docs/auth.md.",
      "Use --token to pass a personal access token.",
      "$HOME/.pgpass must have mode 0600",
      "grep -r 'Private-Lines' docs/",
      "echo $2 $5 $6",
      "price: $5 per month, $1 off",
      "MTU=1500 NIC=eth0",
      "model.generate(max_new_tokens=256, do_sample=False)",
      "key_id: 3",
      "sort_key=created_at primary_key=id",
      "machine learning pipelines",
      "re_compile = re.compile(r'^[a-z]+$')",
      "access-control-allow-origin: *",
      "API-Version: 2024-01-01",
      "EAA is an abbreviation",
      "cio_region=eu",
      "keyboard layout: us",
  };
}

// Tool output of ordinary work, one string per tool result or line, as the hosts send it.
inline std::vector<std::string> ordinary_traffic() {
  return {
      // git
      "commit 3766929f0b5e8d7c1a2b4c6d8e0f1a3b5c7d9e1f\nAuthor: Jane Developer <jane@example.com>\n"
      "Date:   Mon Dec 7 05:12:44 2026 +0000\n\n    review mends: bench-telemetry runs its adapter env\n",
      "3766929 review mends: bench-telemetry runs its adapter env and queue count from one helper each",
      "c00c821 .ci/run: fuzz-smoke keeps its 7-minute budget (measured 317-325 s)",
      "Merge: 1a2b3c4 5d6e7f8\nAuthor: CI Bot <ci-bot@users.noreply.github.com>",
      " adapter/src/redact/redact.cc | 412 ++++++++++++++++++++++++-----\n 3 files changed, 380 insertions(+), 32 deletions(-)",
      "diff --git a/src/app.ts b/src/app.ts\nindex 83db48f..bf269f4 100644\n--- a/src/app.ts\n+++ b/src/app.ts",
      "HEAD is now at 9fceb02d0ae598e95dc970b74767f19372d61af8 fix: handle empty payloads",
      "Switched to a new branch 'feature/redact-generic-detectors-48'",
      "remote: Resolving deltas: 100% (1024/1024), completed with 37 local objects.",
      "To github.com:example-org/example-repo.git\n   1a2b3c4..5d6e7f8  main -> main",
      "https://github.com/example-org/example-repo/blob/9fceb02d0ae598e95dc970b74767f19372d61af8/src/main.cc#L42",
      "https://github.com/example-org/example-repo/pull/412/commits/4e1243bd22c66e76c2ba9eddc1f91394e57f9f83",
      "^4e1243b (Jane Developer 2026-11-30 14:02:11 +0000 118)   return redact(value);",
      "gpg: Signature made Mon Dec  7 05:12:44 2026 UTC using EDDSA key ID 4AEE18F83AFDEB23",
      // lock files and package managers
      R"("node_modules/react-dom": {"version": "18.2.0", "resolved": "https://registry.npmjs.org/react-dom/-/react-dom-18.2.0.tgz", "integrity": "sha512-arLSmz5djjRbTuoNv6+xxvucuJPppD7TcPcvBlnLKIH88YRUmpVXEyefWUdxxX9ifE9Balpf4XnVB/801UQL/w=="})",
      "typescript@^5.3.3:\n  version \"5.3.3\"\n  resolved \"https://registry.yarnpkg.com/typescript/-/typescript-5.3.3.tgz#b3ce6ba258e72e6305ba66f019c79b2a37f1d3ba\"\n"
      "  integrity sha512-GVTYNd8jWtXWYHEIBHh3foq5FOhxAwFk2+pUXTd/oVQXTyAsDn9A8RjiuW3i+KR8rhIxwA4waWXGC/DRK3AAdA==",
      "  /@babel/core@7.23.6:\n    resolution: {integrity: sha512-49wxYh8yEGRgYq9ZpXDF/0LhLv+slQtQyAL+P7Gy7WmPTDHJx9fLhkLUqN+4IawOy1qGMExQyPnlS9Q9BceOJg==}",
      "golang.org/x/sys v0.15.0 h1:ZBp+0iZyO/e41nPfreLTIgRX7F9tkH/lVLJ3N0zTkBI=",
      "github.com/stretchr/testify v1.8.4/go.mod h1:34/qEjNLZHNyU0QRUqReqbS5hC3Shk1B4lOk5RkFHQo=",
      "[[package]]\nname = \"serde\"\nversion = \"1.0.193\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n"
      "checksum = \"9f609d7fc7cadc9ad4dbaff8bed5bf2cdff35958c496d6052ab5346855eac388\"",
      "requests==2.31.0 \\\n    --hash=sha256:58cd2187c01e70e6e26505bca751777aa9f2ee0b7f4300988b709f44e013003f",
      "added 1245 packages, and audited 1246 packages in 32s\n\n214 packages are looking for funding",
      "Successfully installed numpy-1.26.2 pandas-2.1.4 python-dateutil-2.8.2 pytz-2023.3.post1",
      "Downloading https://files.pythonhosted.org/packages/a4/2b/3a3b5c5e7b3c4f9f1e6b2d8d0a1c3e5f7/torch-2.1.2-cp311-cp311-manylinux1_x86_64.whl (670.2 MB)",
      // builds, tests, paths
      "/usr/lib/python3/dist-packages/yaml/_yaml.cpython-311-x86_64-linux-gnu.so",
      "/usr/lib/debug/.build-id/bb/041ebded782553e04c1ad5d90a1a7058b4af43.debug",
      "/home/user/.gemini/tmp/project/chats/session-2026-12-02T10-10-7b3e9f20.jsonl",
      "/tmp/pinta-real-host-c3mHyY/home/.gemini/tmp/ws",
      "/home/user/.cache/pip/wheels/7b/3f/9a/4e1c8d2b6f0a9e7d5c3b1a2f4e6d8c0b9a7f5e3d1c2b4a6/",
      "node_modules/.pnpm/@types+node@20.10.5/node_modules/@types/node/index.d.ts",
      "    at Object.<anonymous> (/home/user/app/node_modules/jest-circus/build/utils.js:298:28)",
      "  File \"/home/user/app/.venv/lib/python3.11/site-packages/django/core/handlers/exception.py\", line 55, in inner",
      "PASS  src/components/__tests__/Header.test.tsx (5.214 s)",
      "--- PASS: TestRedactGenericDetectors (0.02s)",
      "dist/assets/index-D8kLm2Qp.css   12.41 kB │ gzip: 3.10 kB\ndist/assets/index-BkZ3pQ9x.js   142.87 kB │ gzip: 45.96 kB",
      "static/js/main.8f3a9c2e4b1d6f7a.js  187.3 kB  build/static/js/main.8f3a9c2e4b1d6f7a.js.map",
      "[100%] Linking CXX executable tests/redact_test\n[100%] Built target redact_test",
      "ok  \tgithub.com/example-org/example-repo/internal/redact\t0.412s\tcoverage: 91.2% of statements",
      "x86_64-linux-gnu-gcc -pthread -Wno-unused-result -fwrapv -O2 -Wall -fPIC -I/usr/include/python3.11 -c src/ext.c",
      // containers and clouds
      "REPOSITORY   TAG       IMAGE ID       CREATED        SIZE\nnginx        1.25      a6bd71f48f68   2 weeks ago    187MB",
      "Digest: sha256:10d1f5b58f74683ad34eb29287e07dab1e90f10af243f151bb50aa5dbb4d62ee\nStatus: Downloaded newer image for nginx:1.25",
      "NAME                          READY   STATUS    RESTARTS   AGE\napi-7d9f8c6b5-x2x7q           1/1     Running   0          3d2h",
      "arn:aws:iam::123456789012:role/service-role/lambda-execution-role-8k2j4h",
      "{\"RequestId\": \"c6a5f4b1-2d3e-4f5a-8b9c-0d1e2f3a4b5c\", \"InstanceId\": \"i-0abcd1234efab5678\"}",
      "< x-amz-id-2: uP8BSBAXCDNj1XzJQc5OOO88eTiJtElPydn+xWywr9Q=1HNeOiZeFu7gP1lxi5tdAwGcB9i2xR+Q\n< x-amz-request-id: 4442587FB7D0A2F9",
      "< Content-MD5: vo+AGC4MmDkW2nM4wsHAQA==\n< ETag: \"686897696a7c876b7e\"",
      "256 SHA256:Rf7MJRGKaRm3Kj58onbM6EW5LFG+jhx3skYs3nXzw2U jane@laptop (ED25519)",
      "github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
      // APIs and AI tools: ids that look random but are identifiers
      R"({"id": "msg_01XFDUDYJgAACzvnptvVoYEL", "type": "message", "role": "assistant"})",
      R"({"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather"})",
      R"({"tool_call_id": "call_Fp2bX8Jq3nKm6tRv9yWz1AcD", "role": "tool"})",
      R"({"id": "chatcmpl-8Xk2nLq9Vb3mTp7Rw1Yz4Hc6Jd0F", "object": "chat.completion"})",
      R"({"node_id": "PR_kwDOA8WJ1M5Fyxx0", "number": 412, "state": "open"})",
      R"({"node_id": "MDEwOlJlcG9zaXRvcnkxMjk2MjY5", "full_name": "octocat/Hello-World"})",
      R"({"traceId": "4bf92f3577b34da6a3ce929d0e0e4736", "spanId": "00f067aa0ba902b7"})",
      R"({"id": "evt_1OZb3kLkdIwHu7ixsN3Jr2Qp", "object": "event", "type": "payment_intent.succeeded"})",
      R"({"requestId": "01HGW2N7EHJ5Z8R4X0YQKC3T9M", "status": 200})",
      // minified JS
      "!function(e,t){\"object\"==typeof exports&&\"undefined\"!=typeof module?module.exports=t():\"function\"==typeof define&&define.amd?define(t):(e=e||self).Vue=t()}(this,function(){\"use strict\";var e=Object.freeze({});",
      "var n=Object.defineProperty,r=Object.getOwnPropertyDescriptor,o=Object.getOwnPropertyNames,a=Object.prototype.hasOwnProperty;function getServerSideProps2(e){return e.__reactInternalInstance$k8s9d7f6g5}",
      "const XMLHttpRequestUpload=window.XMLHttpRequestUpload,createElementNS2024=document.createElementNS;export{Xe as a,Ze as b};",
      "//# sourceMappingURL=data:application/json;charset=utf-8;base64,eyJ2ZXJzaW9uIjozLCJzb3VyY2VzIjpbImFwcC50cyJdLCJtYXBwaW5ncyI6IkFBQUEifQ==",
      R"({"version":3,"sources":["app.ts"],"mappings":"AAAA,SAASA,EAAEC,GAAG;AACd,OAAOA,EAAE,CAAC"})",
      // base64 images, wrapped and not
      "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQAgMAAABinRfyAAAACVBMVEXAAAAAgAD///+K/HwIAAAA\n"
      "JUlEQVQI12NYBQQM2IgGBQ4mCIEQW7oyK4phampkGIQAc1G1AQCRxCNbyW92oQAAAABJRU5ErkJg\ngg==",
      "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQAgMAAABinRfyAAAACVBMVEXAAAAAgAD///+K/HwIAAAAJUlEQVQI12NYBQQM2IgGBQ4mCIEQW7oyK4phampkGIQAc1G1AQCRxCNbyW92oQAAAABJRU5ErkJggg==",
      "background-image: url(data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQAgMAAABinRfyAAAACVBMVEXAAAAAgAD///+K/HwIAAAAJUlEQVQI12NYBQQM2IgGBQ4mCIEQW7oyK4phampkGIQAc1G1AQCRxCNbyW92oQAAAABJRU5ErkJggg==);",
      // prose and code
      "The redactor runs after the reply, in the flusher, so the host never waits on it.",
      "Use `redis-cli -a` only with a password from the environment; see docs/security.md.",
      "password_policy = PasswordPolicy(min_length=12, require_digit=True)",
      "<add key=\"ClientValidationEnabled\" value=\"true\" />",
      "<password-strength-meter min=\"12\"></password-strength-meter>",
      "ENV NODE_ENV production",
      "define('WP_DEBUG', false);",
      "https://example.com/search?q=redaction+entropy&page=2&code=js",
  };
}

// Look-alikes of the generic shapes (capitals-and-digits ids, dash groups, hex with a suffix, a
// version then hex, ids then hex, sk/rk words), each measured to stay; also part of ordinary_traffic().
inline std::vector<std::string> look_alikes() {
  return {
      "ECDHE-ECDSA-AES256-GCM-SHA384  TLSv1.2 Kx=ECDH     Au=ECDSA Enc=AESGCM(256)            Mac=AEAD",
      "ECDHE-ECDSA-CHACHA20-POLY1305  TLSv1.2 Kx=ECDH     Au=ECDSA Enc=CHACHA20/POLY1305(256) Mac=AEAD",
      "DHE-RSA-AES128-GCM-SHA256 ECDHE-RSA-AES256-SHA384 TLS_AES_256_GCM_SHA384",
      "#define R_CKCORE_PCRELIMM8BY4       2\n#define R_CKCORE_PCRELIMM11BY2      3",
      "\tL2TP_L2SPECTYPE_NONE,\n    GCRY_MD_GOSTR3411_94  = 308,",
      "ETHTOOL_LINK_MODE_1000baseT1_Full_BIT = 68,",
      "/usr/share/ca-certificates/mozilla/OISTE_WISeKey_Global_Root_GC_CA.crt",
      "{3F2504E0-4F89-11D3-9A0C-0305E82C3301}",
      "ETag: \"d41d8cd98f00b204e9800998ecf8427e-12\"",
      "/var/lib/docker/overlay2/3f4e5d6c7b8a99887766554433221100ffeeddccbbaa00112233445566778899-init/diff",
      "image: registry.example.com/app:1.2.3-9fceb02d0ae598e95dc970b74767f19372d61af8",
      "go: downloading golang.org/x/tools v0.0.0-20231010123456-abcdef123456",
      "{\"UserId\": \"AIDAJQABLZS4A3QDU576Q\", \"Account\": \"123456789012\", \"Arn\": \"arn:aws:iam::123456789012:user/dev\"}",
      "{\"AssumedRoleId\": \"AROA3XFRBF535PLBIFPI4:session\"}",
      "gpg: key 4AEE18F83AFDEB23: public key \"Jane Developer <jane@example.com>\" imported",
      "Serial Number: C02XK0ABJGH5  Hardware UUID: 9B5B5C3E-1C2D-4E5F-8A9B-0C1D2E3F4A5B",
      "ISO-8859-1 UTF-8 X-AMZ-CONTENT-SHA256 RFC-2616-SECTION-14",
      "#define TLS1_TXT_ECDH_ECDSA_WITH_AES_256_SHA384 \"ECDH-ECDSA-AES256-SHA384\"",
      "#define TLS1_TXT_ECDH_ECDSA_WITH_CAMELLIA_256_CBC_SHA384 \"ECDH-ECDSA-CAMELLIA256-SHA384\"",
      "GLAPI void GLAPIENTRY glMultiTexCoord1dARB(GLenum target, GLdouble s);",
      "GLAPI void GLAPIENTRY glMultiTexCoord4fvARB(GLenum target, const GLfloat *v);",
      // sk / rk words that start no key: kernel names, placeholders, locales, packages.
      "static int sk_psock_skb_ingress_enqueue(struct sk_buff *skb, struct sk_psock *psock)",
      "client = OpenAI()  # reads sk-REPLACEWITHYOURKEYHERE from the environment",
      "Locales: sk-SK, sl-SI; pip install scikit-learn==1.4.2  # not sk-learn-1.4.2-py3-none-any",
      "rk_tree_node_balance_factor rk_insert_rebalance_left",
  };
}

// Shapes that look random and must stay exactly as they are.
inline std::vector<std::string> must_stay() {
  return {
      "9fceb02d0ae598e95dc970b74767f19372d61af8",
      "commit 4e1243bd22c66e76c2ba9eddc1f91394e57f9f83",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "550e8400-e29b-41d4-a716-446655440000",
      "{\"conversationId\":\"a92be0d9-af14-4e03-bcae-c3b13571e09f\"}",
      "01ARZ3NDEKTSV4RRFFQ69G5FAV",
      "/home/user/.gemini/antigravity/brain/5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f/.system_generated/logs/transcript.jsonl",
      "/tmp/claude-diff-1demhmq2/ups-ctx/home/.claude/projects/-tmp-claude-diff-1demhmq2-ups-ctx-proj/a92be0d9-af14-4e03-bcae-c3b13571e09f.jsonl",
      "C:\\Users\\dev\\AppData\\Local\\Temp\\build-1234\\obj\\Release\\net8.0\\MyApp.AssemblyInfo.cs",
      "sha512-arLSmz5djjRbTuoNv6+xxvucuJPppD7TcPcvBlnLKIH88YRUmpVXEyefWUdxxX9ifE9Balpf4XnVB/801UQL/w==",
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQAgMAAABinRfyAAAACVBMVEXAAAAAgAD///+K/HwIAAAAJUlEQVQI12NYBQQM2IgGBQ4mCIEQW7oyK4phampkGIQAc1G1AQCRxCNbyW92oQAAAABJRU5ErkJggg==",
      "toolu_01A09q90qw90lq917835lq9",
      "msg_01XFDUDYJgAACzvnptvVoYEL",
  };
}

// Every string of every JSON file under `root` (fixtures/: the hosts' captured and constructed
// payloads), object keys included.
inline std::vector<std::string> json_file_strings(const std::filesystem::path& root) {
  using nlohmann::json;
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file() || it->path().extension() != ".json") continue;
    std::ifstream f(it->path(), std::ios::binary);
    std::stringstream text;
    text << f.rdbuf();
    const json doc = json::parse(text.str(), nullptr, false);
    if (doc.is_discarded()) continue;
    std::vector<const json*> todo = {&doc};
    while (!todo.empty()) {
      const json* j = todo.back();
      todo.pop_back();
      if (j->is_string()) out.push_back(j->get<std::string>());
      if (!j->is_structured()) continue;
      for (auto e = j->begin(); e != j->end(); ++e) {
        if (j->is_object()) out.push_back(e.key());
        todo.push_back(&*e);
      }
    }
  }
  return out;
}

// The false-positive budget's two rates: of the ordinary strings over 16 characters (the strings
// of `fixtures`, corpus(), ordinary_traffic(), look_alikes()), how many `redact` altered; of the
// shapes that must stay (must_stay(): git SHAs, UUIDs, ULIDs, paths, SRI, data: URIs, tool ids),
// how many it altered. `altered` is told each string that changed.
struct FalsePositives {
  std::size_t ordinary = 0, ordinary_altered = 0;
  std::size_t shapes = 0, shapes_altered = 0;
};
inline FalsePositives false_positives(const std::filesystem::path& fixtures,
                                      const std::function<std::string(const std::string&)>& redact,
                                      const std::function<void(const std::string&, const std::string&)>& altered) {
  FalsePositives r;
  std::vector<std::string> strings = json_file_strings(fixtures);
  for (auto* set : {&corpus, &ordinary_traffic, &look_alikes})
    for (std::string& s : (*set)()) strings.push_back(std::move(s));
  for (const std::string& s : strings) {
    if (s.size() <= 16) continue;
    ++r.ordinary;
    const std::string out = redact(s);
    if (out == s) continue;
    ++r.ordinary_altered;
    altered(s, out);
  }
  for (const std::string& s : must_stay()) {
    ++r.shapes;
    const std::string out = redact(s);
    if (out == s) continue;
    ++r.shapes_altered;
    altered(s, out);
  }
  return r;
}

}  // namespace pinta::adapter::benign
