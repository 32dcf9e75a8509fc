// Benign strings that redaction must leave exactly as they are: code, configuration, hashes,
// UUIDs, base64 blobs, CLI flags and assignments whose names merely contain a secret word. The
// false-positive rate of redact_string on this corpus is measured by redact_test (at most 2%) and
// reported in docs/benchmarks.md.
#pragma once

#include <string>
#include <vector>

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
  };
}

}  // namespace pinta::adapter::benign
