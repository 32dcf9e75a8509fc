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
