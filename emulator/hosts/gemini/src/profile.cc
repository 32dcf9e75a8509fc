// Gemini CLI version profiles (hosts/gemini/profiles/gemini-0.XX.json,
// docs/gemini-versions.md): finding one by name or file, and what one hook run does under it.
#include "pinta/common/data_dir.h"
#include "pinta/common/fs.h"
#include "pinta/emulator/gemini/gemini.h"
#include "pinta/hosts/hosts.h"

namespace pinta::emu::gemini {

std::string default_profile_dir() { return pinta::hosts::gemini_profile_dir(); }

std::string profile_path(const std::string& name_or_file) {
  if (name_or_file.find('/') != std::string::npos ||
      name_or_file.find(".json") != std::string::npos)
    return name_or_file;
  return default_profile_dir() + "/" + name_or_file + ".json";
}

Result<ojson> load_profile(const std::string& name_or_file) {
  const std::string path = profile_path(name_or_file);
  auto text = pinta::fs::read_file(path);
  if (!text)
    return make_error(ErrorCode::kNotFound,
                      "cannot read Gemini CLI profile " + path + ": " + text.error().message);
  auto prof = js_parse(*text);
  if (!prof || !prof->is_object() ||
      (prof->contains("switches") && !(*prof)["switches"].is_object()))
    return make_error(ErrorCode::kInvalidArgument, "not a Gemini CLI profile object: " + path);
  return *prof;
}

const ojson& profile_switches(const ojson& profile) {
  static const ojson kNone = ojson::object();
  return profile.is_object() && profile.contains("switches") && profile["switches"].is_object()
             ? profile["switches"]
             : kNone;
}

std::string tool_error_text(const ojson& switches, std::string_view event, const ojson& output) {
  // 0.30+: core/coreToolHookTriggers.js prefixes the reason in the tool's error; 0.26 reports the
  // bare reason (0.26.0 coreToolHookTriggers.js:208-231, 296-320; drift s01, s13, s16, s17).
  const bool bare = switches.is_object() && switches.contains("blocked_tool_error") &&
                    switches["blocked_tool_error"] == "bare";
  if (!output.is_object() || (event != "BeforeTool" && event != "AfterTool")) return "";
  const bool stop = output.contains("continue") && output["continue"].is_boolean() &&
                    !output["continue"].get<bool>();
  const char* prefix = nullptr;
  if (stop)
    prefix = "Agent execution stopped by hook: ";
  else if (is_blocking(output))
    prefix = event == "BeforeTool" ? "Tool execution blocked: " : "Tool result blocked: ";
  else
    return "";
  return bare ? effective_reason(output) : prefix + effective_reason(output);
}

ojson rewritten_tool_input(const ojson& switches, const ojson& tool_input, const ojson& output) {
  // hookSpecificOutput.tool_input replaces the arguments (0.61) or is merged into them
  // (tool_input_rewrite "merge", 0.26 .. 0.35: Object.assign, coreToolHookTriggers.js:236).
  if (!output.is_object() || !output.contains("hookSpecificOutput")) return nullptr;
  const ojson& hso = output["hookSpecificOutput"];
  if (!hso.is_object() || !hso.contains("tool_input") || !hso["tool_input"].is_object())
    return nullptr;
  const bool merge = switches.is_object() && switches.contains("tool_input_rewrite") &&
                     switches["tool_input_rewrite"] == "merge";
  if (!merge || !tool_input.is_object()) return hso["tool_input"];
  ojson merged = tool_input;
  for (auto& [k, v] : hso["tool_input"].items()) merged[k] = v;
  return merged;
}

}  // namespace pinta::emu::gemini
