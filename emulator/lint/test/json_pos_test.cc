// The position index: JSON pointer → line:col from one scan of the text.
#include <gtest/gtest.h>

#include "pinta/hostlint/json_pos.h"

namespace hl = pinta::hostlint;

namespace {

hl::Position P(int l, int c) { return {l, c}; }

TEST(JsonPos, ObjectsArraysAndKeys) {
  const std::string t =
      "{\n"
      "  \"a\": 1,\n"
      "  \"b\": [10, {\"c\": \"x\"}],\n"
      "  \"d\": {}\n"
      "}\n";
  auto idx = hl::PositionIndex::build(t);
  EXPECT_EQ(idx.value(""), P(1, 1));
  EXPECT_EQ(idx.value("/a"), P(2, 8));
  EXPECT_EQ(idx.key("/a"), P(2, 3));
  EXPECT_EQ(idx.value("/b"), P(3, 8));
  EXPECT_EQ(idx.value("/b/0"), P(3, 9));
  EXPECT_EQ(idx.value("/b/1"), P(3, 13));
  EXPECT_EQ(idx.value("/b/1/c"), P(3, 19));
  EXPECT_EQ(idx.value("/d"), P(4, 8));
  EXPECT_FALSE(idx.value("/e"));
  // locate: the nearest indexed ancestor.
  EXPECT_EQ(idx.locate("/b/1/c/zz"), P(3, 19));
  EXPECT_EQ(idx.locate("/nope"), P(1, 1));
}

TEST(JsonPos, PointerEscapingAndEscapedKeys) {
  const std::string t = R"({"a/b": 1, "m~n": 2, "q\"u\u00e9": 3})";
  auto idx = hl::PositionIndex::build(t);
  EXPECT_EQ(hl::pointer_token("a/b"), "a~1b");
  EXPECT_EQ(hl::pointer_token("m~n"), "m~0n");
  EXPECT_EQ(idx.value("/a~1b"), P(1, 9));
  EXPECT_EQ(idx.value("/m~0n"), P(1, 19));
  EXPECT_EQ(idx.value("/q\"u\xC3\xA9"), P(1, 36));
}

TEST(JsonPos, ColumnsCountCodePointsNotBytes) {
  const std::string t = "{\"\xED\x9B\x85\": \"\xEA\xB0\x80\xEA\xB0\x80\", \"x\": 1}";  // {"훅": "가가", "x": 1}
  auto idx = hl::PositionIndex::build(t);
  EXPECT_EQ(idx.value("/\xED\x9B\x85"), P(1, 7));
  EXPECT_EQ(idx.value("/x"), P(1, 18));
}

TEST(JsonPos, CommentsAndCrLfAndBom) {
  const std::string t =
      "\xEF\xBB\xBF{ // settings\r\n"
      "  /* block\r\n  */ \"hooks\": {\"BeforeTool\": []}\r\n"
      "}";
  auto idx = hl::PositionIndex::build(t);
  EXPECT_EQ(idx.key("/hooks"), P(3, 6));
  EXPECT_EQ(idx.value("/hooks/BeforeTool"), P(3, 30));
}

TEST(JsonPos, DuplicateKeyKeepsTheLastLikeNlohmann) {
  auto idx = hl::PositionIndex::build(R"({"a": 1, "a": 2})");
  EXPECT_EQ(idx.value("/a"), P(1, 15));
}

TEST(JsonPos, StopsQuietlyOnBrokenTextKeepingWhatItHas) {
  auto idx = hl::PositionIndex::build("{\"a\": 1, \"b\": [1, 2,, ]}");
  EXPECT_EQ(idx.value("/a"), P(1, 7));
  EXPECT_EQ(idx.value("/b/1"), P(1, 19));
  EXPECT_FALSE(idx.value("/b/2"));
  auto empty = hl::PositionIndex::build("");
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.locate("/x"), P(1, 1));
  // Deep nesting is bounded, not a stack overflow.
  std::string deep(100000, '[');
  auto d = hl::PositionIndex::build(deep);
  EXPECT_LT(d.size(), 1000u);
}

TEST(JsonPos, OffsetToPosition) {
  const std::string t = "ab\n\xEA\xB0\x80x\n";
  EXPECT_EQ(hl::position_of_offset(t, 0), P(1, 1));
  EXPECT_EQ(hl::position_of_offset(t, 3), P(2, 1));
  EXPECT_EQ(hl::position_of_offset(t, 6), P(2, 2));
  EXPECT_EQ(hl::position_of_offset(t, 999), P(3, 1));
}

}  // namespace
