// The bounded parser and the UTF-8 repair (bounded_json.h; docs/contract.md GUARD-14).
#include "pinta/adapter/bounded_json.h"

#include <gtest/gtest.h>

namespace pinta::adapter {
namespace {

using nlohmann::json;

std::string nested(int depth, const std::string& core = "1") {
  return std::string(depth, '[') + core + std::string(depth, ']');
}

TEST(BoundedJson, AShallowDocumentIsParsedExactlyAsJsonParseDoes) {
  const std::string text =
      R"({"a":1,"b":[true,null,2.5,-3,18446744073709551615],"c":{"d":"é\u0000x"},"a":2})";
  BoundedParse p = parse_bounded(text, 256);
  EXPECT_TRUE(p.complete);
  EXPECT_EQ(p.cut_values, 0u);
  EXPECT_EQ(p.value, json::parse(text));
}

TEST(BoundedJson, ContainersBelowTheCapBecomeMarkers) {
  // Level 1 is the object; the array opening at level 4 is cut with everything in it.
  BoundedParse p = parse_bounded(R"({"a":[[["x",["y",["z"]]]]],"b":"kept"})", 3);
  EXPECT_TRUE(p.complete);
  EXPECT_EQ(p.value["b"], "kept");
  // The cut array counts itself, its two inner arrays and "x", "y", "z".
  EXPECT_EQ(p.value["a"][0][0], (json{{kTruncatedKey, 6}}));
  EXPECT_EQ(p.cut_values, 6u);
  // 20000 levels: linear, no recursion, no stack overflow.
  BoundedParse deep = parse_bounded("{\"p\":" + nested(20000) + ",\"q\":true}", 256);
  EXPECT_TRUE(deep.complete);
  EXPECT_EQ(deep.value["q"], true);
  EXPECT_EQ(deep.cut_values, 20000u - 255u + 1u);  // 19745 arrays and the number
}

// Memory is bounded too: past the value budget the rest of every open container is left out and
// one marker closes each (32 MiB of `0,` would otherwise be 16 M DOM nodes).
TEST(BoundedJson, PastTheValueBudgetContainersAreClosedWithAMarker) {
  BoundedParse p = parse_bounded(R"({"tool":"x","a":[1,2,3,4,5,6,7,8],"b":{"c":1,"d":2},"e":3})", 256, 5);
  EXPECT_TRUE(p.complete);
  // Built: the object, "x", the array, 1, 2 (5 values); then the array's rest, "b" and "e" are cut.
  EXPECT_EQ(p.value["tool"], "x");
  EXPECT_EQ(p.value["a"], (json{1, 2, {{kTruncatedKey, 6}}}));
  EXPECT_EQ(p.value[kTruncatedKey], 4u);  // "b" (object + 2 values) and "e"
  EXPECT_FALSE(p.value.contains("b"));
  EXPECT_EQ(p.cut_values, 10u);
  std::string wide = "[";
  for (int i = 0; i < 100000; ++i) wide += i ? ",0" : "0";
  BoundedParse w = parse_bounded("{\"w\":" + wide + "]}", 256, 1000);
  EXPECT_TRUE(w.complete);
  EXPECT_EQ(w.value["w"].size(), 999u);  // 998 zeros and the marker (the object and array count)
  EXPECT_EQ(w.value["w"].back(), (json{{kTruncatedKey, 100000 - 998}}));
}

TEST(BoundedJson, APrefixKeepsEveryMemberCompletedBeforeTheCut) {
  BoundedParse p = parse_bounded(R"({"tool_name":"run","tool_input":{"command":"rm -rf ~","x":"unfin)", 256);
  EXPECT_FALSE(p.complete);
  EXPECT_EQ(p.value["tool_name"], "run");
  EXPECT_EQ(p.value["tool_input"]["command"], "rm -rf ~");
  EXPECT_FALSE(p.value["tool_input"].contains("x"));
  // Garbage after a value, or a syntax error: what came before is kept, complete is false.
  BoundedParse g = parse_bounded(R"({"a":1} {"b":2})", 256);
  EXPECT_FALSE(g.complete);
  EXPECT_EQ(g.value, (json{{"a", 1}}));
  BoundedParse none = parse_bounded("", 256);
  EXPECT_FALSE(none.complete);
  EXPECT_TRUE(none.value.is_null());
}

// An argument cut by the input cap keeps its start: the model cannot hide `rm -rf ~` from the
// guard by padding it past the cap (GUARD-14). Before, the whole cut member was dropped.
TEST(BoundedJson, APrefixIsFinishedSoThatTheCutArgumentKeepsItsStart) {
  struct Case {
    std::string in, out;
  } cases[] = {
      {R"({"tool_name":"run","tool_input":{"command":"rm -rf ~ aaaa)",
       R"({"tool_name":"run","tool_input":{"command":"rm -rf ~ aaaa…[truncated]"}})"},
      {R"({"a":[1,2,)", R"({"a":[1,2]})"},
      {R"({"a":[1,2,3)", R"({"a":[1,2]})"},  // a number cut short is dropped
      {R"({"a":tru)", R"({"a":null})"},
      {R"({"a")", R"({"a":null})"},
      {R"({"a":)", R"({"a":null})"},
      {R"({"ke)", R"({"ke…[truncated]":null})"},
      {R"({"a":"x\)", R"({"a":"x…[truncated]"})"},
      {R"({"a":"x\u12)", R"({"a":"x…[truncated]"})"},
      {"{\"a\":\"x\xE2\x9C", "{\"a\":\"x…[truncated]\"}"},  // half a UTF-8 sequence
      {R"({"a":{"b":[{"c":"d"},{)", R"({"a":{"b":[{"c":"d"},{}]}})"},
      {R"({"a":"}]\"{",)", R"({"a":"}]\"{"})"},
  };
  for (auto& c : cases) {
    std::string s = c.in;
    EXPECT_TRUE(complete_prefix(s)) << c.in;
    EXPECT_EQ(s, c.out) << c.in;
    EXPECT_TRUE(parse_bounded(s, 256).complete) << s;
  }
  for (std::string whole : {std::string(R"({"a":1})"), std::string(R"({"a":1} x)"), std::string("  "),
                            std::string("")}) {
    std::string s = whole;
    EXPECT_FALSE(complete_prefix(s)) << whole;
    EXPECT_EQ(s, whole);
  }
}

TEST(BoundedJson, Utf8RepairReplacesEachBadByteAndKeepsValidText) {
  std::string valid = "plain é ✓ 😀";
  EXPECT_FALSE(repair_utf8(valid));
  EXPECT_EQ(valid, "plain é ✓ 😀");
  const std::string fffd = "\xEF\xBF\xBD";
  struct Case {
    std::string in, out;
  } cases[] = {
      {"a\xff" "b", "a" + fffd + "b"},
      {"\xc0\xaf", fffd + fffd},                    // overlong '/'
      {"\xed\xa0\x80", fffd + fffd + fffd},         // a UTF-16 surrogate written as UTF-8
      {"\xf4\x90\x80\x80", fffd + fffd + fffd + fffd},  // over U+10FFFF
      {"end\xe2\x9c", "end" + fffd + fffd},         // truncated sequence at the end
      {"\x80x", fffd + "x"},                        // a lone continuation byte
  };
  for (auto& c : cases) {
    std::string s = c.in;
    EXPECT_TRUE(repair_utf8(s));
    EXPECT_EQ(s, c.out);
    EXPECT_NO_THROW((void)json(s).dump());
  }
}

}  // namespace
}  // namespace pinta::adapter
