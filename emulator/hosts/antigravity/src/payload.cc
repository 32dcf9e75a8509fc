// stdin payloads per event (shared/reference/antigravity-hooks.md §8; seed 000 PART F.3): camelCase
// protojson, zero values present, an absent message is null, no event-name field.
#include "pinta/emulator/antigravity/antigravity.h"

namespace pinta::emu::agy {

using nlohmann::json;

json default_tool_args(const std::string& tool) {
  // §8 "Args keys seen" (PascalCase), plus toolAction/toolSummary on every call [OBS 1.1.18].
  json a = json::object();
  if (tool == "run_command") {
    a = {{"CommandLine", "echo hi"}, {"Cwd", "/tmp"}, {"WaitMsBeforeAsync", 0}};
  } else if (tool == "view_file") {
    a = {{"AbsolutePath", "/tmp/a.txt"}, {"StartLine", 0}, {"EndLine", 0}};
  } else if (tool == "write_to_file" || tool == "edit_file") {
    a = {{"TargetFile", "/tmp/a.txt"}, {"CodeMarkdownLanguage", "text"}};
    if (tool == "edit_file") a["Instruction"] = "edit";
  } else if (tool == "list_dir") {
    a = {{"DirectoryPath", "/tmp"}};
  } else if (tool == "find_by_name") {
    a = {{"Pattern", "*.txt"}, {"SearchDirectory", "/tmp"}};
  } else if (tool == "codebase_search") {
    a = {{"Query", "main"}, {"TargetDirectories", json::array({"/tmp"})}};
  } else if (tool == "ask_permission") {
    a = {{"Action", "command"}, {"Target", "ls"}, {"Reason", "list"}};
  } else if (tool == "call_mcp_tool") {
    a = {{"ToolName", "tool"}};
  }
  a["toolAction"] = "";
  a["toolSummary"] = "";
  return a;
}

json make_payload(const Profile& p, Event ev, const PayloadOptions& o) {
  json j = json::object();
  // Common fields [DOC]; paths under ~/.gemini/<root>/brain/<conversationId>/ (§8, PART F.4).
  const std::string brain =
      o.home + "/.gemini/" + p.transcript_root + "/brain/" + o.conversation_id;
  j["conversationId"] = o.conversation_id;
  j["workspacePaths"] = o.workspace_paths;
  j["transcriptPath"] = brain + "/.system_generated/logs/" + p.transcript_file;
  j["artifactDirectoryPath"] = brain;
  j["modelName"] = o.model_name;
  json call =
      json{{"name", o.tool}, {"args", o.args.is_null() ? default_tool_args(o.tool) : o.args}};
  switch (ev) {
    case Event::kPreToolUse:
      // [OBS 1.1.7 sigil #208] stepIdx + toolCall; artifactDirectoryPath per profile.
      j["stepIdx"] = o.step_idx;
      j["toolCall"] = call;
      if (!p.pretooluse_artifact_dir) j.erase("artifactDirectoryPath");
      break;
    case Event::kPostToolUse:
      // [OBS 1.1.18 Irrlicht #1723] error:"" + stepIdx + toolCall; null on non-tool steps (1.0.5).
      j["stepIdx"] = o.step_idx;
      j["error"] = o.error;
      j["toolCall"] = o.tool_call_null ? json(nullptr) : call;
      break;
    case Event::kPreInvocation:
    case Event::kPostInvocation:
      // [DOC] invocationNum (zero-based, OBS glint PR #116), initialNumSteps.
      j["invocationNum"] = o.invocation_num;
      j["initialNumSteps"] = o.initial_num_steps;
      break;
    case Event::kStop:
      // [OBS 1.1.18] terminationReason, fullyIdle, executionNum, error.
      j["terminationReason"] =
          o.termination_reason.empty() ? p.stop_termination_reason : o.termination_reason;
      j["fullyIdle"] = o.fully_idle;
      j["executionNum"] = o.execution_num;
      j["error"] = o.error;
      break;
    case Event::kSessionStart:
      break;  // field list not captured (§8): common fields only
  }
  return j;
}

std::string payload_line(const Profile& p, const json& payload) {
  std::string s = payload.dump(-1, ' ', false, json::error_handler_t::replace);
  if (p.stdin_trailing_newline) s += "\n";
  return s;
}

}  // namespace pinta::emu::agy
