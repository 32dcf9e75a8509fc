// File: fuzz/keeper_wire/keeper_wire_fuzzer.cc
// The guard keeper's wire format (pinta::adapter::keeper_wire, docs/contract.md GUARD-13): the
// messages an event and its keeper exchange over the Unix socket in the data dir.
// Layout: byte 0 = flags (bit0: decode as a reply, else as a request; bits1-7: the reply's body
// cap, 0..127 × 16 bytes), rest = the message bytes.
// Properties (besides no crash / UB / leak):
//  1. total and deterministic: the same bytes decode to the same value, or to nothing, twice;
//  2. message_size agrees with decoding: a message that decodes is exactly message_size bytes,
//     and message_size of any prefix of it is 0 (more needed) or that size;
//  3. round trip: encoding what was decoded and decoding that again gives the same value, and
//     the encoding is canonical (byte-equal to the input);
//  4. bounds: budget <= 10 s, header counts <= 256, a reply body within the cap, a reply status
//     100..999, an error code among the known ones (never kOk).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "pinta/adapter/guard_keeper.h"

namespace {

namespace kw = pinta::adapter::keeper_wire;

std::string describe(const kw::KeeperRequest& r) {
  std::string s = "key " + r.key + " budget " + std::to_string(r.budget_us) + " cap " +
                  std::to_string(r.request.max_response_bytes) + " " + r.request.method + " " +
                  r.request.url + "\n";
  for (const auto& [k, v] : r.request.headers) s += k + ": " + v + "\n";
  return s + "body " + r.request.body;
}

std::string describe(const kw::KeeperReply& r) {
  std::string s = "kind " + std::to_string(static_cast<int>(r.kind)) + " status " +
                  std::to_string(r.response.status) + " code " +
                  std::to_string(static_cast<int>(r.error.code)) + " " + r.error.message + " " +
                  r.refusal + "\n";
  for (const auto& [k, v] : r.response.headers) s += k + ": " + v + "\n";
  return s + "body " + r.response.body;
}

bool same(const kw::KeeperRequest& a, const kw::KeeperRequest& b) {
  return a.key == b.key && a.budget_us == b.budget_us &&
         a.request.max_response_bytes == b.request.max_response_bytes &&
         a.request.method == b.request.method && a.request.url == b.request.url &&
         a.request.headers == b.request.headers && a.request.body == b.request.body;
}

bool same(const kw::KeeperReply& a, const kw::KeeperReply& b) {
  return a.kind == b.kind && a.response.status == b.response.status &&
         a.response.headers == b.response.headers && a.response.body == b.response.body &&
         a.error.code == b.error.code && a.error.message == b.error.message && a.refusal == b.refusal;
}

void check_size(std::string_view bytes) {
  const size_t n = kw::message_size(bytes);
  FUZZ_CHECK(n == bytes.size(), "size " + std::to_string(n) + " of " + std::to_string(bytes.size()));
  for (size_t cut = 0; cut < bytes.size(); cut += 1 + cut / 4) {
    const size_t m = kw::message_size(bytes.substr(0, cut));
    FUZZ_CHECK(m == 0 || m == n, "prefix " + std::to_string(cut) + " -> " + std::to_string(m));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const bool as_reply = (data[0] & 1) != 0;
  const size_t max_body = static_cast<size_t>(data[0] >> 1) * 16;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);

  if (as_reply) {
    auto a = kw::decode_reply(bytes, max_body);
    auto b = kw::decode_reply(bytes, max_body);
    FUZZ_CHECK(a.has_value() == b.has_value() && (!a || same(*a, *b)), "not deterministic");  // 1.
    if (!a) return 0;
    check_size(bytes);  // 2.
    if (a->kind == kw::KeeperReply::Kind::kResponse) {  // 4.
      FUZZ_CHECK(a->response.status >= 100 && a->response.status <= 999, describe(*a));
      FUZZ_CHECK(a->response.body.size() <= max_body, describe(*a));
      FUZZ_CHECK(a->response.headers.size() <= 256, describe(*a));
    } else if (a->kind == kw::KeeperReply::Kind::kError) {
      const int code = static_cast<int>(a->error.code);
      FUZZ_CHECK(code >= 1 && code <= static_cast<int>(pinta::ErrorCode::kInternal), describe(*a));
    }
    const std::string again = kw::encode_reply(*a);  // 3.
    FUZZ_CHECK(again == bytes, "not canonical: " + describe(*a));
    auto c = kw::decode_reply(again, max_body);
    FUZZ_CHECK(c && same(*a, *c), describe(*a));
  } else {
    auto a = kw::decode_request(bytes);
    auto b = kw::decode_request(bytes);
    FUZZ_CHECK(a.has_value() == b.has_value() && (!a || same(*a, *b)), "not deterministic");  // 1.
    if (!a) return 0;
    check_size(bytes);  // 2.
    FUZZ_CHECK(a->budget_us >= 0 && a->budget_us <= 10'000'000, describe(*a));  // 4.
    FUZZ_CHECK(a->request.headers.size() <= 256, describe(*a));
    const std::string again = kw::encode_request(*a);  // 3.
    FUZZ_CHECK(again == bytes, "not canonical: " + describe(*a));
    auto c = kw::decode_request(again);
    FUZZ_CHECK(c && same(*a, *c), describe(*a));
  }
  return 0;
}
