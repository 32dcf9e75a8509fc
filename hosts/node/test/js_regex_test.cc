// JavaScript RegExp (no flags) as Node 20 runs it: each expectation below was read from
// `node -e 'new RegExp(p).test(s)'` (v20.20).
#include "pinta/hosts/node/js_regex.h"

#include <gtest/gtest.h>

namespace {

using pinta::hosts::node::js_regexp_test;
using pinta::hosts::node::JsRegExp;

bool throws(const std::string& p) { return !js_regexp_test(p, "").has_value(); }
bool test(const std::string& p, const std::string& s) {
  auto r = js_regexp_test(p, s);
  EXPECT_TRUE(r.has_value()) << p;
  return r.value_or(false);
}

TEST(JsRegex, SyntaxErrorsV8Reports) {
  for (const char* p : {"^*", "$*", "\\b*", "(?<=a)*", "a**", "a{2}{3}", "{1}", "x{2,1}",
                        "(?<a>.)\\k", "(?<a>.)\\k<b>", "(?<a>.)(?<a>.)", "(?<a>.)[\\k]", "(?i)a",
                        "\\", "[z-a]", "(?<1a>x)", "a*??", "(?<a>x)|(?<a>y)", "(", ")", "[a",
                        "*", "a|*", "(?<=a){2}"})
    EXPECT_TRUE(throws(p)) << p;
  std::string err;
  EXPECT_EQ(JsRegExp::compile_utf8("a**", &err), nullptr);
  EXPECT_EQ(err, "Invalid regular expression: /a**/: Nothing to repeat");
}

TEST(JsRegex, AnnexBAccepted) {
  for (const char* p : {"(?=a)*", "a{,5}", "{", "}", "]", "\\k", "\\k<a>", "[\\k]", "\\u{2}",
                        "[\\d-z]", "[a-\\d]", "(?<$x>a)", "(?<도구>a)", "[\\c1]", "\\c1", "[\\c]",
                        "\\c", "[\\B]", "\\8", "\\18", "a{99999}", "\\p{L}", "\\a\\e\\z"})
    EXPECT_FALSE(throws(p)) << p;
}

TEST(JsRegex, Semantics) {
  EXPECT_TRUE(test("\\u{2}", "uu"));        // \u without digits is `u`, {2} repeats it
  EXPECT_FALSE(test("\\u{2}", "u{2}"));
  EXPECT_TRUE(test("\\k<a>", "k<a>"));      // no named groups: \k is `k`
  EXPECT_TRUE(test("[a-\\d]", "-"));        // a class escape at a range end: no range
  EXPECT_TRUE(test("[a-\\d]", "5"));
  EXPECT_FALSE(test("[a-\\d]", "b"));
  EXPECT_TRUE(test("\\8", "8"));
  EXPECT_TRUE(test("^\\18$", "\x01" "8"));  // legacy octal \1 then 8 (no groups)
  EXPECT_TRUE(test("^(a)\\12$", "a\n"));    // 12 > groups: octal 012
  EXPECT_TRUE(test("^\\0$", std::string(1, '\0')));
  EXPECT_TRUE(test("^\\c$", "\\c"));        // \c without a letter: a backslash
  EXPECT_TRUE(test("^\\cJ$", "\n"));
  EXPECT_TRUE(test("^[\\c1]$", "\x11"));
  EXPECT_TRUE(test("^\\x4$", "x4"));
  EXPECT_TRUE(test("^[\\b]$", "\b"));
  EXPECT_TRUE(test("^\\e$", "e"));          // identity escapes, not PCRE2's \e, \z, \A
  EXPECT_TRUE(test("^\\z\\A$", "zA"));
  EXPECT_TRUE(test("^a{,5}$", "a{,5}"));
  EXPECT_TRUE(test("^[]|x", "x"));
  EXPECT_FALSE(test("[]", "a"));
  EXPECT_TRUE(test("^[^]$", "\n"));
  EXPECT_FALSE(test("^.$", "\xe2\x80\xa8"));  // U+2028 is a line terminator
  EXPECT_TRUE(test("^\\s$", "\xef\xbb\xbf"));  // U+FEFF is white space
  EXPECT_FALSE(test("^\\s$", "\xc2\x85"));     // U+0085 is not
  EXPECT_FALSE(test("\\w", "\xea\xb0\x80"));   // \w is ASCII
  EXPECT_TRUE(test("^.$", "\xea\xb0\x80"));
  EXPECT_FALSE(test("^.$", "\xf0\x9f\x98\x80"));  // an astral character is two code units
  EXPECT_TRUE(test("^..$", "\xf0\x9f\x98\x80"));
  EXPECT_TRUE(test("a$", "a"));
  EXPECT_FALSE(test("a$", "a\n"));          // $ is the very end
}

TEST(JsRegex, LookbehindAndNamedGroups) {
  EXPECT_TRUE(test("(?<=a+)b", "aab"));      // variable length: through the callout
  EXPECT_FALSE(test("(?<=a+)b", "b"));
  EXPECT_TRUE(test("(?<!a+)b", "cb"));
  EXPECT_FALSE(test("(?<!a+)b", "ab"));
  EXPECT_TRUE(test("(?<=^a*)b", "aaab"));
  EXPECT_FALSE(test("(?<=^a*)b", "cab"));
  EXPECT_TRUE(test("(?<=(?<!x)a{1,3})b", "aab"));
  EXPECT_FALSE(test("(?<=(?<!x)a{1,3})b", "xab"));  // a{1,3} may take "a" only: x before it
  EXPECT_TRUE(test("(?<=\\1(a))b", "aab"));  // right to left: \1 is already set
  EXPECT_TRUE(test("(?<=(a)\\1)b", "ab"));   // ... and here not yet (empty)
  EXPECT_TRUE(test("^(?<n>a)\\k<n>$", "aa"));
  EXPECT_TRUE(test("^\\k<n>(?<n>a)$", "a"));  // forward reference: empty
  EXPECT_TRUE(test("^(a\\1)+$", "aa"));       // inside its own group: empty on every iteration
  EXPECT_TRUE(test("^(?<도구>b)\\k<도구>$", "bb"));
}

TEST(JsRegex, QuantifiedLookahead) {
  EXPECT_TRUE(test("^(?=(a))?\\1b$", "b"));  // min 0: the iteration is dropped, captures too
  EXPECT_TRUE(test("^(?=(a))+\\1$", "a"));
  EXPECT_FALSE(test("^(?=a){2}b", "b"));
}

TEST(JsRegex, Subjects) {
  // Lone surrogates (WTF-8) are code units.
  EXPECT_TRUE(test("^\\ud83d$", "\xed\xa0\xbd"));
  // Invalid UTF-8 is U+FFFD.
  EXPECT_TRUE(test("^\\ufffd$", "\xff"));
}

}  // namespace
