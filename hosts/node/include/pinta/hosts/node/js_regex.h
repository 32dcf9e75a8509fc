// File: pinta/hosts/node/js_regex.h
// JavaScript regular expressions as Node.js 20 (V8 11.3) runs them, for the hosts written in
// JavaScript (Gemini CLI: `new RegExp(matcher).test(toolName)`; deel-local-cli:
// `new RegExp(`^(?:${s})$`).test(tool)`). Only the flag-less form: no `u`, `i`, `m`, `s`, `y`, `g`
// (neither host passes flags), so a pattern and a subject are sequences of UTF-16 code units and
// the grammar is ECMAScript's with Annex B (legacy octal escapes, `\8`, identity escapes, a lone
// `{`, `}` or `]`, a quantified lookahead, a class escape as a range end).
//
// How: the pattern is parsed here (what V8 rejects is rejected here, with V8's message) and
// re-written as an explicit PCRE2 pattern for the 16-bit library without UTF (code units, as JS
// without `u`): every literal, class and class escape spelled out as code-unit ranges, so none of
// PCRE2's own escape, newline or locale rules takes part. PCRE2 cannot say three things the way JS
// means them, handled in the rewrite:
//  - a back-reference to a group that is not closed where it stands (a forward reference, or one
//    inside its own group) always matches the empty string in JS (captures of a repeated group
//    are cleared on each iteration); it is written as nothing;
//  - a lookbehind of unbounded or varying length (PCRE2 10.42 wants fixed-length alternatives) is
//    checked by a callout that searches for its body ending at the current position;
//  - `.` and `\s` are JS's sets (line terminators U+2028/U+2029; U+FEFF and the Zs spaces).
// What stays different is listed in docs/fuzzing.md ("JavaScript regular expressions") with the
// differential fuzz against Node that measures it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace pinta::hosts::node {

// UTF-8 (or WTF-8: a surrogate encoded on its own) to UTF-16 code units; a byte that starts no
// valid sequence becomes U+FFFD, as Node's decoder makes it.
std::u16string utf16_units(std::string_view utf8);

class JsRegExp {
 public:
  // new RegExp(source). On a SyntaxError: nullptr and V8's message in *error
  // ("Invalid regular expression: /…/: Nothing to repeat").
  static std::shared_ptr<const JsRegExp> compile(std::u16string_view source,
                                                 std::string* error = nullptr);
  static std::shared_ptr<const JsRegExp> compile_utf8(std::string_view source,
                                                      std::string* error = nullptr);
  ~JsRegExp();
  JsRegExp(const JsRegExp&) = delete;
  JsRegExp& operator=(const JsRegExp&) = delete;

  // re.test(subject) with lastIndex 0. A match that runs past PCRE2's backtracking limit (where
  // Node would keep going for a very long time) is reported as no match.
  bool test(std::u16string_view subject) const;
  bool test_utf8(std::string_view subject) const { return test(utf16_units(subject)); }

  // The PCRE2 pattern this compiled to (UTF-8 rendering, for tests and diagnostics).
  std::string translated() const;

  struct Impl;

 private:
  explicit JsRegExp(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// new RegExp(pattern).test(subject): nullopt when the constructor throws.
std::optional<bool> js_regexp_test(std::string_view pattern, std::string_view subject);

}  // namespace pinta::hosts::node
