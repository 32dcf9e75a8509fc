// pinta/common/text.h: the markup entities the conformance reports (HTML, JUnit XML, the
// Markdown job summary) share.
#include "pinta/common/text.h"

#include <gtest/gtest.h>

namespace {

TEST(Text, MarkupEntityNamesExactlyTheMarkupCharacters) {
  EXPECT_STREQ(pinta::text::markup_entity('<'), "&lt;");
  EXPECT_STREQ(pinta::text::markup_entity('>'), "&gt;");
  EXPECT_STREQ(pinta::text::markup_entity('&'), "&amp;");
  EXPECT_STREQ(pinta::text::markup_entity('"'), "&quot;");
  EXPECT_EQ(pinta::text::markup_entity('\''), nullptr);
  EXPECT_STREQ(pinta::text::markup_entity('\'', true), "&#39;");
  for (int c = 0; c < 256; ++c) {
    const char ch = static_cast<char>(c);
    if (ch == '<' || ch == '>' || ch == '&' || ch == '"' || ch == '\'') continue;
    EXPECT_EQ(pinta::text::markup_entity(ch, true), nullptr) << c;
  }
}

TEST(Text, MarkupEscapeKeepsEveryOtherByte) {
  EXPECT_EQ(pinta::text::markup_escape("<a href=\"x\">&amp;</a> it's"),
            "&lt;a href=&quot;x&quot;&gt;&amp;amp;&lt;/a&gt; it's");
  const std::string bytes("\x01\n\t\x7f\xc3\xa9\xff", 7);
  EXPECT_EQ(pinta::text::markup_escape(bytes), bytes);
  EXPECT_EQ(pinta::text::markup_escape(""), "");
}

}  // namespace

TEST(Text, AsciiLowerFoldsOnlyAsciiLetters) {
  EXPECT_EQ(pinta::text::ascii_lower("Content-TYPE: X9"), "content-type: x9");
  // Bytes above 0x7F (UTF-8 of 'Ä', the Kelvin sign) are left as they are.
  EXPECT_EQ(pinta::text::ascii_lower("\xC3\x84K\xE2\x84\xAA"), "\xC3\x84k\xE2\x84\xAA");
  EXPECT_EQ(pinta::text::ascii_lower(""), "");
}

TEST(Text, TrimBothEndsWithTheGivenSet) {
  EXPECT_EQ(pinta::text::trim(" \t\r\n\f\v{}\n "), "{}");
  EXPECT_EQ(pinta::text::trim(" \t \n"), "");
  EXPECT_EQ(pinta::text::trim("a b"), "a b");
  // A narrower set keeps what it does not name (Go's reply trimming in the Antigravity emulator).
  EXPECT_EQ(pinta::text::trim("\f x \v", " \t\r\n"), "\f x \v");
  EXPECT_EQ(pinta::text::trim("\n x \n", " \t\r\n"), "x");
}

TEST(Text, ReplaceAllLeftToRightWithoutOverlap) {
  EXPECT_EQ(pinta::text::replace_all("aaaa", "aa", "b"), "bb");
  EXPECT_EQ(pinta::text::replace_all("/tmp/x/tmp", "/tmp", "<scratch>"), "<scratch>/x<scratch>");
  // The replacement is not searched again, even when it contains `from`.
  EXPECT_EQ(pinta::text::replace_all("ab", "a", "aa"), "aab");
  EXPECT_EQ(pinta::text::replace_all("abc", "", "x"), "abc");
}
