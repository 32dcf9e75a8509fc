// File: fuzz/http_response/http_response_fuzzer.cc
// The adapter's HTTP response parser (pinta::http::parse_response, the code send() runs over the
// guard's and the collector's connections) over any bytes a server could send.
// Layout: byte 0 = flags (bit0 HEAD request; bits1-3 pick the read size the bytes arrive in:
// 1, 2, 3, 7, 16, 100, 1000 or all at once), byte 1 = max body (0..255 × 64 bytes), rest = the
// response bytes.
// Properties (besides no crash / UB / leak):
//  1. total: a Response or an error with a known code (kProtocol, kTooLarge, kUnavailable);
//  2. a Response has a status 101 or 200..999, non-empty header names without ':', CR or LF,
//     and a body within the cap; a HEAD, 204 or 304 response has no body;
//  3. read-size invariance: the same bytes delivered whole, in the chosen pieces and one byte at
//     a time give the same result (status, headers, body, or the same error);
//  4. a Content-Length body (no Transfer-Encoding) is exactly the bytes after the header block.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "pinta/adapter/http.h"

namespace {

using pinta::ErrorCode;
namespace http = pinta::http;

std::string describe(const pinta::Result<http::Response>& r) {
  if (!r) return "error " + std::to_string(static_cast<int>(r.error().code)) + ": " + r.error().message;
  std::string s = "status " + std::to_string(r->status) + "\n";
  for (const auto& [k, v] : r->headers) s += k + ": " + v + "\n";
  return s + "body " + std::to_string(r->body.size()) + ":" + r->body;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const bool head = (data[0] & 1) != 0;
  static constexpr size_t kPieces[] = {1, 2, 3, 7, 16, 100, 1000, 0};
  const size_t piece = kPieces[(data[0] >> 1) & 7];
  const size_t max_body = static_cast<size_t>(data[1]) * 64;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 2, size - 2);

  const auto whole = http::parse_response(bytes, max_body, head);
  // 1.
  if (!whole) {
    const ErrorCode c = whole.error().code;
    FUZZ_CHECK(c == ErrorCode::kProtocol || c == ErrorCode::kTooLarge || c == ErrorCode::kUnavailable,
               describe(whole));
  } else {
    // 2.
    const http::Response& r = *whole;
    FUZZ_CHECK(r.status == 101 || (r.status >= 200 && r.status <= 999), describe(whole));
    for (const auto& [k, v] : r.headers) {
      FUZZ_CHECK(!k.empty() && k.find_first_of(":\r\n") == std::string::npos, describe(whole));
      FUZZ_CHECK(v.find_first_of("\r\n") == std::string::npos, describe(whole));
    }
    FUZZ_CHECK(r.body.size() <= max_body, describe(whole));
    if (head || r.status == 204 || r.status == 304) FUZZ_CHECK(r.body.empty(), describe(whole));
    // 4.
    if (!r.header("content-length").empty() && r.header("transfer-encoding").empty() && !head &&
        r.status != 204 && r.status != 304 && bytes.size() > 9 && bytes[9] != '1') {
      // No interim response: the body starts after the first empty line ("" or "\r") past the
      // status line.
      size_t line = bytes.find('\n');
      while (line != std::string_view::npos) {
        const size_t start = line + 1;
        const size_t eol = bytes.find('\n', start);
        if (eol == std::string_view::npos) break;
        if (eol == start || (eol == start + 1 && bytes[start] == '\r')) {
          FUZZ_CHECK(bytes.substr(eol + 1, r.body.size()) == r.body, describe(whole));
          break;
        }
        line = eol;
      }
    }
  }
  // 3. (Inputs are far below the reader's cap of max body + 64 KiB, where the first read's size
  // could matter.)
  const std::string want = describe(whole);
  FUZZ_CHECK(describe(http::parse_response(bytes, max_body, head, piece)) == want,
             "pieces of " + std::to_string(piece) + " differ from whole: " + want);
  if (bytes.size() <= 4096)
    FUZZ_CHECK(describe(http::parse_response(bytes, max_body, head, 1)) == want,
               "one byte at a time differs from whole: " + want);
  return 0;
}
