#include "pinta/adapter/normalize.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace pinta::adapter {
namespace {

using nlohmann::json;

const auto kAgyProducts = pinta::hosts::descriptor(Family::kAntigravity).payload.products;

TEST(Normalize, GeminiBeforeTool) {
  // Verbatim shape of gemini-cli-0.61-hooks.md §7 [exp e01_payload].
  json p = json::parse(R"({"session_id":"s1","transcript_path":"/h/.gemini/tmp/ws/chats/x.jsonl","cwd":"/w",
    "hook_event_name":"BeforeTool","timestamp":"2026-12-02T10:10:11.342Z","tool_name":"write_file",
    "tool_input":{"content":"x","file_path":"a.txt"}})");
  auto e = normalize(Family::kGemini, "gemini", "BeforeTool", p);
  EXPECT_TRUE(e.known_event);
  EXPECT_EQ(e.session_id, "s1");
  EXPECT_EQ(e.cwd, "/w");
  EXPECT_EQ(e.transcript_path, "/h/.gemini/tmp/ws/chats/x.jsonl");
  EXPECT_EQ(e.tool_name, "write_file");
  EXPECT_EQ(e.tool_input, (json{{"content", "x"}, {"file_path", "a.txt"}}));
  EXPECT_EQ(e.raw, p);
  EXPECT_TRUE(e.product.empty());
}

TEST(Normalize, EventComesFromArgumentNotPayload) {
  json p = {{"hook_event_name", "AfterTool"}};
  auto e = normalize(Family::kGemini, "gemini", "BeforeTool", p);
  EXPECT_EQ(e.hook, "BeforeTool");
}

TEST(Normalize, AntigravityPreToolUse) {
  json p = json::parse(R"({"conversationId":"c1","modelName":"auto","stepIdx":3,
    "toolCall":{"name":"run_command","args":{"CommandLine":"echo hi","Cwd":"/w"}},
    "transcriptPath":"/h/.gemini/antigravity-cli/brain/c1/.system_generated/logs/transcript_full.jsonl",
    "workspacePaths":["/w","/w2"]})");
  auto e = normalize(Family::kAntigravity, "agy", "PreToolUse", p);
  EXPECT_EQ(e.session_id, "c1");
  EXPECT_EQ(e.cwd, "/w");
  EXPECT_EQ(e.tool_name, "run_command");
  EXPECT_EQ(e.tool_input["CommandLine"], "echo hi");
  EXPECT_EQ(e.product, "agy");
}

TEST(Normalize, DeelToolIsDoguAndTheRestIsTheToolInput) {
  // Stdin of a deel-local-cli 1.17 hook: JSON.stringify({자리, 도구, ...rest}) (seed 004 l.427).
  json p = json::parse(R"({"자리":"도구전","도구":"Bash","command":"ls -la","description":"list"})");
  auto e = normalize(Family::kDeel, "deel", "PreToolUse", p);
  EXPECT_TRUE(e.known_event);
  EXPECT_EQ(e.tool_name, "Bash");
  EXPECT_EQ(e.tool_input, (json{{"command", "ls -la"}, {"description", "list"}}));
  EXPECT_EQ(e.raw, p);
  EXPECT_TRUE(e.session_id.empty());
  EXPECT_TRUE(e.product.empty());
  // Off tool events 도구 is null: no tool, no input.
  auto stop = normalize(Family::kDeel, "deel", "Stop", json::parse(R"({"자리":"턴끝","도구":null})"));
  EXPECT_EQ(stop.tool_name, "");
  EXPECT_TRUE(stop.tool_input.is_null());
  EXPECT_EQ(to_json(stop)["family"], "deel");
}

TEST(Normalize, ToolEventsPerHost) {
  // Every known event of every host: exactly the tool-call events are tool events.
  const ReplyTable t = reply_table();
  std::set<std::string> tool;
  for (size_t i = 0; i < t.size; ++i) {
    const ReplyRow& r = t.rows[i];
    const auto e = normalize(r.family, "x", r.event, json::object());
    if (e.tool_event)
      tool.insert(std::string(family_prefix(r.family)) + ":" + std::string(r.event));
  }
  // Exactly the events each family's descriptor lists as tool events (with their evidence).
  std::set<std::string> want;
  for (const auto& d : hosts::families())
    for (const auto ev : d.tool_events) want.insert(std::string(d.prefix) + ":" + std::string(ev));
  EXPECT_EQ(tool, want);
  // The tool events of the first families, as measured (a check of the descriptors themselves).
  for (const char* e : {"gemini:BeforeTool", "gemini:AfterTool", "antigravity:PreToolUse",
                        "antigravity:PostToolUse", "deel:PreToolUse", "deel:PostToolUse",
                        "claude_code:PreToolUse", "claude_code:PostToolUse",
                        "claude_code:PostToolUseFailure"})
    EXPECT_TRUE(tool.count(e)) << e;
  // Event names are case-sensitive (protocol table); an unknown event is never a tool event.
  EXPECT_FALSE(normalize(Family::kGemini, "gemini", "beforetool", json::object()).tool_event);
  EXPECT_FALSE(normalize(Family::kGemini, "gemini", "PreToolUse", json::object()).tool_event);
  EXPECT_FALSE(normalize(Family::kAntigravity, "agy", "BeforeTool", json::object()).tool_event);
}

TEST(Normalize, AntigravityNullToolCallAndEmptyWorkspaces) {
  json p = json::parse(R"({"conversationId":"c1","stepIdx":1,"error":"","toolCall":null,"workspacePaths":[]})");
  auto e = normalize(Family::kAntigravity, "antigravity", "PostToolUse", p);
  EXPECT_EQ(e.tool_name, "");
  EXPECT_TRUE(e.tool_input.is_null());
  EXPECT_EQ(e.cwd, "");
  EXPECT_EQ(e.product, "unknown");
}

TEST(Normalize, WrongTypesAreAbsentNotErrors) {
  json p = json::parse(R"({"session_id":7,"cwd":["x"],"tool_name":{"a":1}})");
  auto e = normalize(Family::kGemini, "gemini", "BeforeTool", p);
  EXPECT_EQ(e.session_id, "");
  EXPECT_EQ(e.cwd, "");
  EXPECT_EQ(e.tool_name, "");
  auto a = normalize(Family::kAntigravity, "agy", "PreToolUse",
                     json::parse(R"({"workspacePaths":[1],"toolCall":{"name":5}})"));
  EXPECT_EQ(a.cwd, "");
  EXPECT_EQ(a.tool_name, "");
}

TEST(Normalize, ProductFromTranscriptPath) {
  EXPECT_EQ(product_from_transcript_path(kAgyProducts, "/h/.gemini/antigravity-cli/brain/1/x/transcript_full.jsonl"), "agy");
  EXPECT_EQ(product_from_transcript_path(kAgyProducts, "/h/.gemini/antigravity/brain/1/x/transcript.jsonl"), "antigravity2");
  EXPECT_EQ(product_from_transcript_path(kAgyProducts, "/h/.gemini/antigravity-ide/brain/1/t.jsonl"), "antigravity2");
  EXPECT_EQ(product_from_transcript_path(kAgyProducts, "C:\\Users\\u\\.gemini\\antigravity-cli\\brain\\1\\t.jsonl"), "agy");
  EXPECT_EQ(product_from_transcript_path(kAgyProducts, "/tmp/antigravity-clix/t"), "unknown");
  EXPECT_EQ(product_from_transcript_path(kAgyProducts, ""), "unknown");
}

}  // namespace
}  // namespace pinta::adapter
