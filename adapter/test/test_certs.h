// Test certificates for the TLS tests (http_test in-process, guard_process_test through the built
// adapter): two CAs, "trusted" (handed to the client via SSL_CERT_FILE) and "other" (never
// trusted), and three leaf certificates: good (SAN 127.0.0.1 + localhost), wronghost (SAN
// other.example only) and untrusted (from the other CA). Files: <dir>/<name>.pem / .key and
// <dir>/trusted-ca.pem. Made with the openssl CLI, once per suite (EC keys: fast to generate).
#pragma once

#include <cstdlib>
#include <fstream>
#include <string>

namespace pinta::testing {

// Writes the certificates into `dir`; returns "" or why they could not be made (a skip reason).
inline std::string make_test_certificates(const std::string& dir) {
  if (std::system("command -v openssl >/dev/null 2>&1") != 0) return "openssl CLI not installed";
  const std::string script = "set -e; cd '" + dir + "'\n" + R"(
    q() { "$@" >/dev/null 2>&1; }
    for ca in trusted other; do
      q openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout $ca-ca.key -out $ca-ca.pem -days 2 -subj "/CN=pinta $ca CA"
    done
    leaf() { # name ca san
      q openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout $1.key -out $1.csr -subj "/CN=$1"
      printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\n' "$3" > $1.ext
      q openssl x509 -req -in $1.csr -CA $2-ca.pem -CAkey $2-ca.key -CAcreateserial -out $1.pem -days 2 -extfile $1.ext
    }
    leaf good trusted "IP:127.0.0.1,DNS:localhost"
    leaf wronghost trusted "DNS:other.example"
    leaf untrusted other "IP:127.0.0.1,DNS:localhost"
  )";
  std::ofstream(dir + "/gen.sh") << script;
  if (std::system(("sh '" + dir + "/gen.sh'").c_str()) != 0) return "openssl could not create test certificates";
  return "";
}

}  // namespace pinta::testing
