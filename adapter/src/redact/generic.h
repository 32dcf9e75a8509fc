// File: adapter/src/redact/generic.h (internal to redact.cc; implemented in generic.cc)
// Detection that does not need to know the vendor, beside the rule table:
//  - the escaped view: the text with its escapes undone (`\n`, `\"`, `\u0026`, `&amp;`, `%26`, up
//    to three levels deep), with a map from each byte of the view back to the original, so every
//    detector sees word boundaries where a reader would (a token right after an escaped `\n`) and
//    every cut lands on whole escape sequences of the original;
//  - the shape detector: tokens that are random by length, alphabet and Shannon entropy (the idea
//    of detect-secrets' high-entropy plugins, with thresholds measured for short tokens), tokens
//    of the vendor-prefix shape `<word>_<random>` / `<word>-<random>` / `<word>.<random>` (hex
//    bodies too), base64 that decodes to text holding a secret, and DER private keys without
//    their PEM armour; ordinary high-entropy text (git SHAs and other bare hex, UUIDs, ULIDs,
//    paths, identifiers, SRI and go.sum hashes, data: URIs, base64 images and certificates, SSH
//    public keys, tool-call ids such as toolu_… and call_…) is left alone.
// Everything here is linear in the text: one pass over the tokens, each token looked at a
// constant number of times; a base64 token is decoded once (its text redacted at most 2 levels
// deep).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pinta::adapter::generic {

// ---- the escaped view -----------------------------------------------------------------------

struct View {
  std::string text;
  std::vector<std::uint32_t> map;  // map[i]: the original offset of text[i]; map[size]: the end
};

// The view of `s` with up to three levels of escapes undone, or false when it has none (then
// the text itself is the view).
bool make_view(std::string_view s, View& view);

// ---- the shape detector ---------------------------------------------------------------------

struct Cut {
  std::size_t start, end;  // in the text scanned
  std::string_view type;
};

enum class Shape { kNone, kRandom, kPrefixed };

// How a token looks: random (by length, alphabet, entropy and how word-like it is), a vendor
// prefix then a random body, or neither.
Shape classify(std::string_view t);

// Whether decoded text holds a secret (the redactor one level down): a callable borrowed for
// one call, without a template or an allocation.
class SecretTest {
 public:
  template <class F>
  SecretTest(const F& f)  // NOLINT(google-explicit-constructor): passed as a lambda
      : obj_(&f), call_([](const void* o, std::string_view s) { return (*static_cast<const F*>(o))(s); }) {}
  bool operator()(std::string_view s) const { return call_(obj_, s); }

 private:
  const void* obj_;
  bool (*call_)(const void*, std::string_view);
};

// Appends the cuts of the shape detector for `t` (a view: escapes already undone). `decode`:
// whether base64 tokens are decoded (false one level down, so the work stays linear).
void shape_scan(std::string_view t, bool decode, std::vector<Cut>& cuts, SecretTest holds_secret);

}  // namespace pinta::adapter::generic
