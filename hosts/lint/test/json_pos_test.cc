// The position index: JSON pointer → line:col from one scan of the text.
#include "pinta/hostlint/json_pos.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

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
  const std::string t =
      "{\"\xED\x9B\x85\": \"\xEA\xB0\x80\xEA\xB0\x80\", \"x\": 1}";  // {"훅": "가가", "x": 1}
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

// Against nlohmann: for generated documents printed compact and indented, every JSON pointer
// nlohmann knows maps to a position where the text of that value (as nlohmann prints it) starts.
nlohmann::ordered_json random_value(std::mt19937& rng, int depth) {
  std::uniform_int_distribution<int> kind(0, depth > 4 ? 3 : 5);
  switch (kind(rng)) {
    case 0:
      return static_cast<int>(rng() % 1000) - 500;
    case 1:
      return rng() % 2 == 0;
    case 2:
      return nullptr;
    case 3: {
      static const char* words[] = {"a", "x/y", "m~n", "\xED\x9B\x85", "q\"t", "line\nbreak", ""};
      return std::string(words[rng() % 7]);
    }
    case 4: {
      nlohmann::ordered_json a = nlohmann::ordered_json::array();
      for (unsigned i = rng() % 4; i > 0; --i) a.push_back(random_value(rng, depth + 1));
      return a;
    }
    default: {
      nlohmann::ordered_json o = nlohmann::ordered_json::object();
      static const char* keys[] = {"k", "a/b", "t~0", "\xEA\xB0\x80", "sp ace", "hooks"};
      for (unsigned i = rng() % 4; i > 0; --i)
        o[std::string(keys[rng() % 6]) + std::to_string(rng() % 3)] = random_value(rng, depth + 1);
      return o;
    }
  }
}

size_t offset_of(const std::string& text, hl::Position p) {
  size_t i = 0;
  for (int line = 1; line < p.line; ++line) i = text.find('\n', i) + 1;
  for (int col = 1; col < p.col; ++col) {
    ++i;
    while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;
  }
  return i;
}

void collect(const nlohmann::ordered_json& v, const std::string& ptr,
             std::vector<std::pair<std::string, const nlohmann::ordered_json*>>& out) {
  out.emplace_back(ptr, &v);
  if (v.is_object())
    for (auto it = v.begin(); it != v.end(); ++it)
      collect(it.value(), ptr + "/" + hl::pointer_token(it.key()), out);
  else if (v.is_array())
    for (size_t i = 0; i < v.size(); ++i) collect(v[i], ptr + "/" + std::to_string(i), out);
}

TEST(JsonPos, AgreesWithNlohmannOnGeneratedDocuments) {
  std::mt19937 rng(20261204);
  for (int n = 0; n < 300; ++n) {
    auto doc = random_value(rng, 0);
    for (int indent : {-1, 2}) {
      const std::string text = doc.dump(indent);
      auto idx = hl::PositionIndex::build(text);
      std::vector<std::pair<std::string, const nlohmann::ordered_json*>> all;
      collect(doc, "", all);
      for (const auto& [ptr, v] : all) {
        auto pos = idx.value(ptr);
        ASSERT_TRUE(pos) << ptr << " in " << text;
        const std::string printed = v->dump(indent);
        const std::string first_line = printed.substr(0, printed.find('\n'));
        ASSERT_EQ(text.compare(offset_of(text, *pos), first_line.size(), first_line), 0)
            << ptr << " at " << pos->line << ":" << pos->col << " in " << text;
      }
    }
  }
}

}  // namespace
