#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <thread>

#include <gtest/gtest.h>

#include "pinta/adapter/input.h"

namespace pinta::adapter {
namespace {

InputLimits limits() {
  InputLimits l;
  l.deadline = std::chrono::milliseconds(200);
  return l;
}

TEST(Input, CompleteObject) {
  auto r = read_event_from_bytes(R"({"a":"}{\"","b":[1,{"c":2}]})", limits());
  EXPECT_EQ(r.status, InputStatus::kOk);
  EXPECT_EQ(r.bytes, R"({"a":"}{\"","b":[1,{"c":2}]})");
}

TEST(Input, WhitespaceAroundIsFineAndBomIsStripped) {
  EXPECT_EQ(read_event_from_bytes(" \n{}\n ", limits()).status, InputStatus::kOk);
  auto r = read_event_from_bytes("\xEF\xBB\xBF{\"a\":1}", limits());
  EXPECT_EQ(r.status, InputStatus::kOk);
  EXPECT_EQ(r.bytes, "{\"a\":1}");
}

TEST(Input, HostileShapes) {
  EXPECT_EQ(read_event_from_bytes("", limits()).status, InputStatus::kEmpty);
  EXPECT_EQ(read_event_from_bytes("  \n", limits()).status, InputStatus::kEmpty);
  EXPECT_EQ(read_event_from_bytes("not json", limits()).status, InputStatus::kNotObject);
  EXPECT_EQ(read_event_from_bytes("[1,2]", limits()).status, InputStatus::kNotObject);
  EXPECT_EQ(read_event_from_bytes("42", limits()).status, InputStatus::kNotObject);
  EXPECT_EQ(read_event_from_bytes("\xEF\xBB{}", limits()).status, InputStatus::kNotObject);
  EXPECT_EQ(read_event_from_bytes("{\"a\":", limits()).status, InputStatus::kTruncated);
  EXPECT_EQ(read_event_from_bytes("{}{}", limits()).status, InputStatus::kTrailingGarbage);
  EXPECT_EQ(read_event_from_bytes("{} x", limits()).status, InputStatus::kTrailingGarbage);
}

// Nesting is measured, never a reason to stop reading: a deep payload is read whole and marked
// `deep` (the parser cuts it, GUARD-14). It was refused here before, which let the model skip the
// guard with one deep argument.
TEST(Input, NestingIsMeasuredNotRefused) {
  std::string deep = "{\"a\":" + std::string(300, '[') + std::string(300, ']') + "}";
  RawInput r = read_event_from_bytes(deep, limits());
  EXPECT_EQ(r.status, InputStatus::kOk);
  EXPECT_TRUE(r.deep);
  EXPECT_EQ(r.bytes, deep);
  std::string ok = "{\"a\":" + std::string(200, '[') + std::string(200, ']') + "}";
  r = read_event_from_bytes(ok, limits());
  EXPECT_EQ(r.status, InputStatus::kOk);
  EXPECT_FALSE(r.deep);
}

TEST(Input, AFailedReadKeepsThePrefixOfAStartedObject) {
  InputLimits l = limits();
  l.max_bytes = 1024;
  std::string big = " \n{\"tool_name\":\"x\",\"a\":\"" + std::string(2000, 'x') + "\"}";
  RawInput r = read_event_from_bytes(big, l);
  EXPECT_EQ(r.status, InputStatus::kTooLarge);
  EXPECT_EQ(r.bytes, big.substr(2, 1022));  // leading whitespace dropped, up to the cap
  r = read_event_from_bytes("{\"a\":", limits());
  EXPECT_EQ(r.status, InputStatus::kTruncated);
  EXPECT_EQ(r.bytes, "{\"a\":");
  r = read_event_from_bytes("{\"a\":1} x", limits());
  EXPECT_EQ(r.status, InputStatus::kTrailingGarbage);
  EXPECT_EQ(r.bytes, "{\"a\":1}");
  EXPECT_TRUE(read_event_from_bytes("not json", limits()).bytes.empty());
}

TEST(Input, SizeIsCapped) {
  InputLimits l = limits();
  l.max_bytes = 1024;
  std::string big = "{\"a\":\"" + std::string(2000, 'x') + "\"}";
  EXPECT_EQ(read_event_from_bytes(big, l).status, InputStatus::kTooLarge);
}

TEST(Input, BoundaryIsFoundAcrossAnySplit) {
  std::string doc = R"({"k":"a\\\"}","n":{"m":[1,2,"]"]}})";
  for (size_t cut = 0; cut <= doc.size(); ++cut) {
    ObjectBoundary b(256);
    auto s1 = b.feed(std::string_view(doc).substr(0, cut));
    auto s2 = s1 == ObjectBoundary::State::kComplete ? s1 : b.feed(std::string_view(doc).substr(cut));
    EXPECT_EQ(s2, ObjectBoundary::State::kComplete) << cut;
    EXPECT_EQ(b.end(), doc.size()) << cut;
  }
}

TEST(Input, AnswersWithoutEofWhenObjectIsComplete) {
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  ASSERT_EQ(::write(p[1], "{\"a\":1}", 7), 7);
  InputLimits l;
  l.deadline = std::chrono::milliseconds(5000);
  auto t0 = std::chrono::steady_clock::now();
  auto r = read_event(p[0], l);  // write end still open: a reader waiting for EOF would block
  auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_EQ(r.status, InputStatus::kOk);
  EXPECT_FALSE(r.saw_eof);
  EXPECT_LT(took, std::chrono::milliseconds(2000));
  ::close(p[0]);
  ::close(p[1]);
}

TEST(Input, TimesOutOnIncompleteInputLeftOpen) {
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  ASSERT_EQ(::write(p[1], "{\"a\":", 5), 5);
  auto r = read_event(p[0], limits());
  EXPECT_EQ(r.status, InputStatus::kTimeout);
  ::close(p[0]);
  ::close(p[1]);
}

TEST(Input, ClosedDescriptorIsAnIoError) {
  auto r = read_event(987, limits());  // not an open descriptor: poll reports POLLNVAL, read EBADF
  EXPECT_EQ(r.status, InputStatus::kIoError);
}

// ---- the tool name, found as the bytes go by (GUARD-14) ----------------------------------------

std::optional<std::string> name_in(std::string_view text, NamePath path, size_t cap = 32u << 20,
                                   bool scan = true) {
  InputLimits l;
  l.max_bytes = cap;
  l.tool_name = path;
  l.scan_past_cap = scan;
  return read_event_from_bytes(text, l).tool_name;
}

TEST(InputName, TheWatchedMemberIsReadWhereverItStands) {
  const NamePath top{"tool_name", {}};
  const NamePath agy{"toolCall", "name"};
  EXPECT_EQ(name_in(R"({"tool_name":"run_shell_command"})", top), "run_shell_command");
  EXPECT_EQ(name_in(R"({"a":{"tool_name":"inner"},"b":["tool_name","x"],"tool_name":"real"})", top), "real");
  EXPECT_EQ(name_in(R"({"toolCall":{"args":{"name":"evil","x":{"name":"deeper"}},"name":"run_command"}})", agy),
            "run_command");
  // A key that only contains the name as text, a value that looks like a member: not the member.
  EXPECT_EQ(name_in(R"({"x":"\"tool_name\":\"fake\"","tool_name_2":"no"})", top), std::nullopt);
  EXPECT_EQ(name_in(R"({"name":"not under toolCall","toolCall":{"args":{}}})", agy), std::nullopt);
  // Escapes: in the key (a parser reads the same member) and in the value (decoded).
  EXPECT_EQ(name_in(R"({"tool\u005fname":"esc\u0061ped \"q\""})", top), "escaped \"q\"");
  // The last one wins, as for a JSON parser; a name that is not a string leaves none.
  EXPECT_EQ(name_in(R"({"tool_name":"first","tool_name":"second"})", top), "second");
  EXPECT_EQ(name_in(R"({"tool_name":7})", top), std::nullopt);
  // Nothing watched: nothing found.
  EXPECT_EQ(name_in(R"({"tool_name":"x"})", NamePath{}), std::nullopt);
}

TEST(InputName, FoundAcrossAnySplitAndPastTheCap) {
  const NamePath agy{"toolCall", "name"};
  const std::string text = R"({"toolCall":{"args":{"CommandLine":")" + std::string(200000, 'a') +
                           R"(\"x"},"name":"run_command"}})";
  // Past the cap: found when the rest is scanned, not when reading stops at the cap.
  InputLimits l;
  l.max_bytes = 4096;
  l.tool_name = agy;
  l.scan_past_cap = true;
  RawInput in = read_event_from_bytes(text, l);
  EXPECT_EQ(in.status, InputStatus::kTooLarge);
  EXPECT_EQ(in.bytes.size(), 4096u);
  EXPECT_EQ(in.tool_name, "run_command");
  EXPECT_EQ(name_in(text, agy, 4096, /*scan=*/false), std::nullopt);
  // Any split of the bytes gives the same name.
  const std::string small = R"({"toolCall":{"args":{"a":"b\\\"c"},"na\u006de":"run_\"command"}})";
  for (size_t step : {1u, 2u, 3u, 7u}) {
    ObjectBoundary b(256, agy);
    for (size_t i = 0; i < small.size(); i += step) (void)b.feed(std::string_view(small).substr(i, step));
    ASSERT_TRUE(b.watched().has_value()) << step;
    EXPECT_EQ(decode_json_string_text(*b.watched()), "run_\"command") << step;
  }
  // A name longer than the cap is kept cut, and says so.
  InputLimits w;
  w.tool_name = NamePath{"tool_name", {}};
  RawInput big = read_event_from_bytes(R"({"tool_name":")" + std::string(20000, 'n') + "\"}", w);
  ASSERT_TRUE(big.tool_name.has_value());
  EXPECT_TRUE(big.name_cut);
  EXPECT_EQ(big.tool_name->size(), kMaxWatchedNameBytes);
}

TEST(InputName, BrokenEscapesDecodeToWhatCanBeRead) {
  EXPECT_EQ(decode_json_string_text("plain"), "plain");
  EXPECT_EQ(decode_json_string_text("cut \\u00"), "cut ");
  EXPECT_EQ(decode_json_string_text("lone \\ud800 x"), "lone \xEF\xBF\xBD x");
  EXPECT_EQ(decode_json_string_text("bad \xff"), "bad \xEF\xBF\xBD");
}

}  // namespace
}  // namespace pinta::adapter
