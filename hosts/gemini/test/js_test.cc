// Unit tests of pinta::hosts_gemini's JavaScript semantics (trim, JSON.stringify / JSON.parse,
// Buffer.toString) that the loader, the planner and the emulator rely on (§4.1, §4.5 of
// gemini-cli-0.61-hooks.md). Expected values were computed with node 20 (`JSON.stringify`,
// `" ".trim()`). Links the hosts library alone: no emulator.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "pinta/hosts/gemini/gemini.h"

namespace g = pinta::hosts::gemini;
using g::ojson;

namespace {

TEST(JsTrim, RemovesUnicodeWhitespaceIncludingBomAndNbsp) {
  EXPECT_EQ(g::js_trim("\xEF\xBB\xBF {\"a\":1}\xC2\xA0\n"), "{\"a\":1}");
  EXPECT_EQ(g::js_trim("\xE2\x80\xA8x\xE3\x80\x80"), "x");
  EXPECT_EQ(g::js_trim("\x1Cx"), "\x1Cx");  // U+001C is not JS whitespace
  EXPECT_EQ(g::js_trim(" \t\r\n"), "");
}

TEST(JsStringify, KeyOrderAndNumbers) {
  auto v = g::ojson::parse(R"({"b":1,"10":2,"a":[1.0,1e21,1.5e-7,0.1,-0.0],"1":"x\u0001\u007f"})");
  EXPECT_EQ(g::js_stringify(v),
            "{\"1\":\"x\\u0001\x7f\",\"10\":2,\"b\":1,\"a\":[1,1e+21,1.5e-7,0.1,0]}");
}

TEST(NodeUtf8, ReplacesInvalidSequences) {
  EXPECT_EQ(g::node_utf8_decode("a\xFF"
                                "b"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(g::node_utf8_decode("\xE2\x82"), "\xEF\xBF\xBD");
  EXPECT_EQ(g::node_utf8_decode("\xE2\x82\xAC"), "\xE2\x82\xAC");
}

// JSON.parse then JSON.stringify, as node 20 prints them (differential fuzzing findings, see
// test/cases/hookrunner_fuzz_regressions.json); nullopt = JSON.parse throws.
std::optional<std::string> js_round_trip(std::string_view text) {
  auto v = g::js_parse(text);
  if (!v) return std::nullopt;
  return g::js_stringify(*v);
}

TEST(JsParse, NumbersAtTheEdgesOfDouble) {
  EXPECT_EQ(js_round_trip(R"({"a":1e400,"b":-1e400,"c":1e-400})"), R"({"a":null,"b":null,"c":0})");
  EXPECT_EQ(js_round_trip("[-0,-0.0,1.0,9007199254740993,12345678901234567890123]"),
            "[0,0,1,9007199254740992,1.2345678901234568e+22]");
  EXPECT_TRUE(g::js_parse("-0")->get<double>() == 0 &&
              std::signbit(g::js_parse("-0")->get<double>()));
  for (const char* bad : {"01", "1.", ".5", "+1", "0x10", "NaN", "Infinity", "1e", "-"})
    EXPECT_FALSE(g::js_parse(bad)) << bad;
}

TEST(JsParse, StringsKeepLoneSurrogatesAndJoinPairs) {
  EXPECT_EQ(js_round_trip(R"(["\ud800","\udc00x","\ud83d\ude00","\ude00\ud83d","\u0000"])"),
            "[\"\\ud800\",\"\\udc00x\",\"\xF0\x9F\x98\x80\",\"\\ude00\\ud83d\",\"\\u0000\"]");
  // A stored lone half next to an escaped one (a JSON string parsed twice) is one character.
  auto once = g::js_parse(R"("\"\\ud83d\ude00\"")");
  ASSERT_TRUE(once);
  EXPECT_EQ(js_round_trip(once->get<std::string>()), "\"\xF0\x9F\x98\x80\"");
  for (const char* bad : {"\"\\x41\"", "\"\\u12\"", "\"a\tb\"", "\"\\'\""})
    EXPECT_FALSE(g::js_parse(bad)) << bad;
}

TEST(JsParse, WhitespaceDuplicatesAndDepth) {
  EXPECT_FALSE(g::js_parse("\xEF\xBB\xBF{}"));  // no BOM skipping
  EXPECT_FALSE(g::js_parse("{}\xE2\x80\xA8"));  // U+2028 is not JSON whitespace
  EXPECT_FALSE(g::js_parse("{\"a\":1\xC2\xA0}"));
  EXPECT_TRUE(g::js_parse(" \t\r\n{ \"a\" :\n1 }\r\n"));
  EXPECT_EQ(js_round_trip(R"({"a":1,"b":2,"a":3,"__proto__":{"x":1}})"),
            R"({"a":3,"b":2,"__proto__":{"x":1}})");
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_TRUE(g::js_parse(deep));  // V8's parser is iterative
  EXPECT_FALSE(g::js_parse(deep.substr(1)));
  EXPECT_FALSE(g::js_parse("[1,]"));
  EXPECT_FALSE(g::js_parse("{\"a\":1,}"));
  EXPECT_FALSE(g::js_parse("{} {}"));
}

}  // namespace
