// Span edits (json_edit.h): the bytes outside an edited member never change, an appended member
// copies its siblings' layout, removing it again gives back the original bytes, scan errors carry
// line:col.
#include "pinta/admin/json_edit.h"

#include <gtest/gtest.h>

using pinta::admin::jsonedit::Doc;
using pinta::admin::jsonedit::Node;
using ojson = nlohmann::ordered_json;

namespace {

Doc scan(const std::string& t) {
  auto d = Doc::scan(t);
  EXPECT_TRUE(d) << d.error().message;
  return d ? std::move(*d) : *Doc::scan("{}");
}

// Appends member k=v to the root, then removes it again: must give back `text`.
std::string add_then_check_roundtrip(const std::string& text, const std::string& k,
                                     const ojson& v) {
  Doc d = scan(text);
  std::string added = d.set_member(d.root(), k, v);
  Doc a = scan(added);
  EXPECT_EQ(ojson::parse(added)[k], v);
  auto i = a.member_index(a.root(), k);
  EXPECT_TRUE(i.has_value());
  if (i) {
    EXPECT_EQ(a.remove_member(a.root(), *i), text);
  }
  return added;
}

}  // namespace

TEST(JsonEdit, CompactFileStaysCompact) {
  std::string t = "{\"a\":1,\"b\":[true,null]}\n";
  std::string added = add_then_check_roundtrip(t, "k", ojson{{"x", ojson::array({1, 2})}});
  EXPECT_EQ(added, "{\"a\":1,\"b\":[true,null],\"k\":{\"x\":[1,2]}}\n");
}

TEST(JsonEdit, PrettyFileKeepsIndentUnitAndColonStyle) {
  std::string t = "{\n    \"a\" : 1,\n    \"b\" : \"x\"\n}\n";
  std::string added = add_then_check_roundtrip(t, "k", ojson{{"x", 1}});
  EXPECT_EQ(added, "{\n    \"a\" : 1,\n    \"b\" : \"x\",\n    \"k\" : {\n        \"x\": 1\n    }\n}\n");
}

TEST(JsonEdit, TabsAndCrlfOutsideTheEditAreKept) {
  std::string t = "{\r\n\t\"a\": 1\r\n}";
  std::string added = add_then_check_roundtrip(t, "k", 2);
  EXPECT_EQ(added, "{\r\n\t\"a\": 1,\r\n\t\"k\": 2\r\n}");
}

TEST(JsonEdit, MiddleMemberRemovalTakesItsSeparator) {
  Doc d = scan("{ \"a\": 1, \"b\": 2, \"c\": 3 }");
  EXPECT_EQ(d.remove_member(d.root(), 1), "{ \"a\": 1, \"c\": 3 }");
  EXPECT_EQ(d.remove_member(d.root(), 0), "{ \"b\": 2, \"c\": 3 }");
  EXPECT_EQ(d.remove_member(d.root(), 2), "{ \"a\": 1, \"b\": 2 }");
}

TEST(JsonEdit, EmptyObjectGetsTheFilesIndentation) {
  Doc d = scan("{\n  \"hooks\": {}\n}\n");
  const Node* h = d.member(d.root(), "hooks");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(d.set_member(*h, "Stop", ojson::array({1})),
            "{\n  \"hooks\": {\n    \"Stop\": [\n      1\n    ]\n  }\n}\n");
}

TEST(JsonEdit, ArrayAppendAndRemoveRoundTrip) {
  std::string t = "[\n  {\"a\": 1}\n]";
  Doc d = scan(t);
  std::string added = d.append_element(d.root(), ojson{{"b", 2}});
  EXPECT_EQ(added, "[\n  {\"a\": 1},\n  {\n    \"b\": 2\n  }\n]");
  Doc a = scan(added);
  EXPECT_EQ(a.remove_element(a.root(), 1), t);
}

TEST(JsonEdit, ReplaceKeepsNeighboursAndKoreanText) {
  std::string t = "{\"훅\": {\"말전\": 1}, \"z\": \"고장나면\"}";
  Doc d = scan(t);
  const Node* v = d.member(*d.member(d.root(), "훅"), "말전");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(d.replace(*v, "통과"), "{\"훅\": {\"말전\": \"통과\"}, \"z\": \"고장나면\"}");
}

TEST(JsonEdit, DuplicateKeyFindsTheLastOne) {
  Doc d = scan("{\"a\": 1, \"a\": 2}");
  EXPECT_EQ(d.value(*d.member(d.root(), "a")), 2);
}

TEST(JsonEdit, ErrorsNameLineAndColumn) {
  struct Case {
    std::string text, where;
  } cases[] = {
      {"{\n  \"a\": 1,\n}", "3:1"},           // trailing comma
      {"{\n  \"가\": x\n}", "2:8"},            // columns count code points
      {"{\"a\": 1} x", "1:10"},               // text after the value
      {"{\n  // c\n  \"a\": 1}", "2:3"},      // comments are not JSON
      {"{\"a\": \"\x01\"}", "1:8"},           // control character
      {"[1, 2", "1:6"},                       // unterminated
      {"", "1:1"},
  };
  for (const auto& c : cases) {
    auto d = Doc::scan(c.text);
    ASSERT_FALSE(d) << c.text;
    EXPECT_EQ(d.error().code, pinta::ErrorCode::kParse);
    EXPECT_EQ(d.error().message.substr(0, c.where.size() + 1), c.where + ":") << c.text << " -> "
                                                                              << d.error().message;
  }
}

TEST(JsonEdit, DeepNestingIsAnErrorNotACrash) {
  std::string t(100000, '[');
  auto d = Doc::scan(t);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("too deep"), std::string::npos);
}

TEST(JsonEdit, ScanAgreesWithNlohmannOnValidity) {
  const char* texts[] = {"1",       "-0.5e+3", "\"\\u00e9\"", "[]",     "{}", "01", "1.",
                         "[1,]",    "{\"a\"}", "tru",        "\"\\x\"", "-",  "[\"a\" \"b\"]",
                         "{\"a\":1}"};
  for (const char* t : texts) {
    bool ours = static_cast<bool>(Doc::scan(t));
    bool theirs = !ojson::parse(t, nullptr, false).is_discarded();
    EXPECT_EQ(ours, theirs) << t;
  }
}
