// Payload shapes against the payloads observed in shared/reference/antigravity-hooks.md §8 and
// seed 000 PART F.3/F.4: key sets, zero values present, toolCall null, no event-name field.
#include <gtest/gtest.h>

#include "pinta/emulator/antigravity/antigravity.h"

namespace agy = pinta::emu::agy;
using nlohmann::json;

namespace {

std::set<std::string> keys(const json& j) {
  std::set<std::string> k;
  for (auto it = j.begin(); it != j.end(); ++it) k.insert(it.key());
  return k;
}

const std::vector<agy::Profile>& profiles() {
  static auto p = agy::load_profiles(agy::default_profile_dir());
  return *p;
}
const agy::Profile& profile(const std::string& n) { return *agy::find_profile(profiles(), n); }

const std::set<std::string> kCommon = {"conversationId", "workspacePaths", "transcriptPath",
                                       "artifactDirectoryPath", "modelName"};
std::set<std::string> with(std::set<std::string> s, std::initializer_list<const char*> more) {
  for (const char* m : more) s.insert(m);
  return s;
}

}  // namespace

// [OBS 1.1.7] sigil #208: {"conversationId","modelName","stepIdx":3,"toolCall":{"name":
// "run_command","args":{"CommandLine":"echo hi","Cwd":…}},"transcriptPath","workspacePaths":[]}.
TEST(AgyPayload, PreToolUseMatchesSigil208On11) {
  agy::PayloadOptions o;
  json j = agy::make_payload(profile("agy-1.1"), agy::Event::kPreToolUse, o);
  EXPECT_EQ(keys(j), (std::set<std::string>{"conversationId", "modelName", "stepIdx", "toolCall",
                                            "transcriptPath", "workspacePaths"}));
  EXPECT_EQ(j["stepIdx"], 3);
  EXPECT_EQ(j["toolCall"]["name"], "run_command");
  EXPECT_EQ(j["toolCall"]["args"]["CommandLine"], "echo hi");
  EXPECT_TRUE(j["toolCall"]["args"].contains("Cwd"));
  EXPECT_EQ(j["workspacePaths"], json::array());  // [] when no workspace [OBS 1.1.18]
  // Other profiles follow the documented common fields.
  for (const char* n : {"agy-1.0", "agy-1.2", "antigravity-2.0", "docs"})
    EXPECT_EQ(keys(agy::make_payload(profile(n), agy::Event::kPreToolUse, o)),
              with(kCommon, {"stepIdx", "toolCall"}))
        << n;
}

// [OBS 1.1.18] Irrlicht #1723: artifactDirectoryPath, conversationId, error:"", modelName,
// stepIdx, toolCall, transcriptPath, workspacePaths:[]; [OBS 1.0.5] toolCall may be null.
TEST(AgyPayload, PostToolUseMatchesIrrlicht) {
  agy::PayloadOptions o;
  o.tool = "find_by_name";
  for (const auto& p : profiles()) {
    json j = agy::make_payload(p, agy::Event::kPostToolUse, o);
    EXPECT_EQ(keys(j), with(kCommon, {"error", "stepIdx", "toolCall"})) << p.name;
    EXPECT_EQ(j["error"], "");
    EXPECT_EQ(keys(j["toolCall"]["args"]),
              (std::set<std::string>{"Pattern", "SearchDirectory", "toolAction", "toolSummary"}));
  }
  o.tool_call_null = true;
  json j = agy::make_payload(profile("agy-1.0"), agy::Event::kPostToolUse, o);
  ASSERT_TRUE(j.contains("toolCall"));
  EXPECT_TRUE(j["toolCall"].is_null());
  EXPECT_NE(agy::payload_line(profile("agy-1.0"), j).find("\"toolCall\":null"), std::string::npos);
}

// [OBS 1.1.18] Stop: terminationReason "NO_TOOL_CALL", fullyIdle true, executionNum 0, error "".
TEST(AgyPayload, StopMatchesIrrlicht) {
  json j = agy::make_payload(profile("agy-1.1"), agy::Event::kStop, {});
  EXPECT_EQ(keys(j), with(kCommon, {"terminationReason", "fullyIdle", "executionNum", "error"}));
  EXPECT_EQ(j["terminationReason"], "NO_TOOL_CALL");
  EXPECT_EQ(j["fullyIdle"], true);
  EXPECT_EQ(j["executionNum"], 0);
  EXPECT_EQ(j["error"], "");
  // [DOC] example values are lowercase (model_stop) — the docs profile keeps them.
  EXPECT_EQ(agy::make_payload(profile("docs"), agy::Event::kStop, {})["terminationReason"],
            "model_stop");
}

// [DOC] PreInvocation/PostInvocation: invocationNum (zero-based, OBS glint), initialNumSteps.
TEST(AgyPayload, InvocationEventsAndSessionStart) {
  for (auto ev : {agy::Event::kPreInvocation, agy::Event::kPostInvocation}) {
    json j = agy::make_payload(profile("agy-1.2"), ev, {});
    EXPECT_EQ(keys(j), with(kCommon, {"invocationNum", "initialNumSteps"}));
    EXPECT_EQ(j["invocationNum"], 0);
    EXPECT_EQ(j["initialNumSteps"], 0);
  }
  EXPECT_EQ(keys(agy::make_payload(profile("agy-1.2"), agy::Event::kSessionStart, {})), kCommon);
}

// No event-name field [OBS 1.0.5 websentry; claude-mem PR #3397]; one compact line.
TEST(AgyPayload, NoEventNameAndOneLine) {
  for (const auto& p : profiles())
    for (auto ev : {agy::Event::kPreToolUse, agy::Event::kPostToolUse, agy::Event::kPreInvocation,
                    agy::Event::kPostInvocation, agy::Event::kStop, agy::Event::kSessionStart}) {
      json j = agy::make_payload(p, ev, {});
      for (const auto& k : keys(j)) {
        EXPECT_EQ(k.find("vent"), std::string::npos) << p.name << " " << k;
        EXPECT_EQ(k.find('_'), std::string::npos) << "camelCase only: " << k;
      }
      std::string line = agy::payload_line(p, j);
      EXPECT_EQ(line.find('\n'), p.stdin_trailing_newline ? line.size() - 1 : std::string::npos);
      EXPECT_EQ(json::parse(line), j);
    }
}

// Transcript paths tell agy and the 2.0 app apart (seed 000 PART F.4).
TEST(AgyPayload, TranscriptPathsPerRuntime) {
  agy::PayloadOptions o;
  o.home = "/h";
  o.conversation_id = "c1";
  o.workspace_paths = {"/w"};
  json cli = agy::make_payload(profile("agy-1.1"), agy::Event::kStop, o);
  EXPECT_EQ(cli["transcriptPath"],
            "/h/.gemini/antigravity-cli/brain/c1/.system_generated/logs/transcript_full.jsonl");
  EXPECT_EQ(cli["artifactDirectoryPath"], "/h/.gemini/antigravity-cli/brain/c1");
  EXPECT_EQ(cli["workspacePaths"], json::array({"/w"}));
  json app = agy::make_payload(profile("antigravity-2.0"), agy::Event::kStop, o);
  EXPECT_EQ(app["transcriptPath"],
            "/h/.gemini/antigravity/brain/c1/.system_generated/logs/transcript.jsonl");
}

TEST(AgyPayload, DocsRenderCoversEverySwitchOfEveryProfile) {
  std::string md = agy::render_docs(profiles());
  for (const auto& p : profiles()) {
    EXPECT_NE(md.find("| `" + p.name + "` |"), std::string::npos);
    for (auto it = p.switches.begin(); it != p.switches.end(); ++it)
      EXPECT_NE(md.find("### `" + it.key() + "`"), std::string::npos) << it.key();
  }
  EXPECT_EQ(md, agy::render_docs(profiles()));  // deterministic
}
