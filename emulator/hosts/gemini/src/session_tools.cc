// The built-in tools a scripted session runs for real in its workspace (session.cc run_session,
// `run_tools`): write_file, and read_file / list_directory for the shapes the session lane uses,
// each returning what the 0.61.0 CLI reports to the model and to AfterTool.
#include <filesystem>
#include <fstream>

#include "session_parts.h"

namespace pinta::emu::gemini::session_detail {
namespace {

namespace sfs = std::filesystem;

// read_file of a small text file: the content as llmContent, an empty returnDisplay (lane
// u05: the real CLI's AfterTool tool_response {"llmContent":"Original content",
// "returnDisplay":""}; core tools/read-file.js). Ranges, truncation and binary files are not
// modelled; a missing file keeps the script's response.
ToolRun read_file_tool(const ojson& args, const std::string& workspace) {
  ToolRun r;
  std::filesystem::path p(args["file_path"].get<std::string>());
  if (p.is_relative()) p = std::filesystem::path(workspace) / p;
  std::ifstream in(p, std::ios::binary);
  r.ok = true;
  if (in)
    r.response = ojson::object(
        {{"llmContent", std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>())},
         {"returnDisplay", ""}});
  return r;
}

// list_directory of an empty folder (lane u29 on 0.61.0: AfterTool tool_response
// {"llmContent":"Directory <abs> is empty.","returnDisplay":"Directory is empty."}; core
// tools/ls.js). The listing of a folder with entries is not modelled: the script's response.
ToolRun list_directory_tool(const ojson& args, const std::string& workspace) {
  ToolRun r;
  std::filesystem::path p(args["dir_path"].get<std::string>());
  if (p.is_relative()) p = std::filesystem::path(workspace) / p;
  p = p.lexically_normal();
  if (!p.empty() && p.native().size() > 1 && p.native().back() == '/') p = p.parent_path();
  std::error_code ec;
  r.ok = true;
  if (std::filesystem::is_directory(p, ec) && std::filesystem::is_empty(p, ec) && !ec)
    r.response = ojson::object({{"llmContent", "Directory " + p.string() + " is empty."},
                                {"returnDisplay", "Directory is empty."}});
  return r;
}

// write_file's parameter check (ajv); "" when file_path and content are both strings.
std::string write_file_params_error(const ojson& args, bool modified) {
  const std::string prefix = modified ? "Tool parameter modification by hook failed validation: " : "";
  for (const char* k : {"file_path", "content"}) {
    if (!args.is_object() || !args.contains(k)) return prefix + "params must have required property '" + k + "'";
    // Same validator (ajv) wording for a wrong type; not exercised by the lane.
    if (!args[k].is_string()) return prefix + "params/" + k + " must be string";
  }
  return "";
}

// The returnDisplay FileDiff of a new file (see write_file_tool): a patch adding every line, and
// the diffStat of those lines.
ojson new_file_display(const sfs::path& path, const std::string& original, const ojson& args) {
  const std::string content = args["content"].get<std::string>();
  const std::string base = path.filename().string();
  ojson display = ojson::object();
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl; (nl = content.find('\n', start)) != std::string::npos; start = nl + 1)
    lines.push_back(content.substr(start, nl - start));
  const bool final_newline = start == content.size();
  if (!final_newline) lines.push_back(content.substr(start));
  std::string diff = "Index: " + base +
                     "\n===================================================================\n--- " +
                     base + "\tOriginal\n+++ " + base + "\tWritten\n";
  long chars = 0;
  if (!lines.empty()) {
    diff += "@@ -0,0 +1," + std::to_string(lines.size()) + " @@\n";
    for (const auto& l : lines) {
      diff += "+" + l + "\n";
      chars += static_cast<long>(l.size());
    }
    if (!final_newline) diff += "\\ No newline at end of file\n";
  }
  display["fileDiff"] = diff;
  display["fileName"] = base;
  display["filePath"] = path.string();
  display["originalContent"] = original;
  display["newContent"] = args["content"];
  display["diffStat"] = ojson::object({{"model_added_lines", lines.size()},
                                       {"model_removed_lines", 0},
                                       {"model_added_chars", chars},
                                       {"model_removed_chars", 0},
                                       {"user_added_lines", 0},
                                       {"user_removed_lines", 0},
                                       {"user_added_chars", 0},
                                       {"user_removed_chars", 0}});
  display["isNewFile"] = true;
  // utils/buildFileUtils.js isBuildFile: package manifests and build scripts; the lane writes
  // none of them.
  display["isBuildFile"] = false;
  return display;
}

// write_file with checked parameters: writes the content, then reports as core
// tools/write-file.js:266-306 (0.61.0): llmContent is the success sentence and "Here is
// the updated code:\n<snippet>" joined by ' ' (for a new file the snippet is the whole content,
// tools/diff-utils.js getDiffContextSnippet); returnDisplay is the FileDiff object. For a new
// file the patch (npm diff createPatch, 'Original' / 'Written') is one hunk adding every line,
// and diffStat counts those lines and their characters (tools/diffOptions.js getDiffStat; the
// user side is empty: the content was not edited). An overwrite's patch and snippet need a line
// diff, which is not modelled: its fileDiff/diffStat are left out (no lane scenario overwrites).
// `response` (switch write_file_response): "build_flag" as above; "snippet" (0.31 .. 0.60) without
// returnDisplay.isBuildFile (0.60.0 bundle chunk-M6NSK26M.js:309746-309754; added in core 0.61.0
// tools/write-file.js:302); "plain" (< 0.31) also without the "Here is the updated code" part
// (core 0.30.1 tools/write-file.js:199-224; added in core 0.31.0 tools/write-file.js:206) — lane
// s23 on 0.27.4, 0.28.1 and 0.29.0.
ToolRun write_file_tool(const ojson& args, const std::string& workspace,
                        const std::string& response) {
  ToolRun r;
  sfs::path path(args["file_path"].get<std::string>());
  if (path.is_relative()) path = sfs::path(workspace) / path;
  std::error_code ec;
  const bool existed = sfs::exists(path, ec);
  std::string original;
  if (existed) {
    std::ifstream in(path, std::ios::binary);
    original.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  sfs::create_directories(path.parent_path(), ec);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << args["content"].get<std::string>();
  if (!f) {
    r.error = "cannot write " + path.string();  // emulator's own wording: no lane scenario
    return r;
  }
  const std::string content = args["content"].get<std::string>();
  const std::string base = path.filename().string();
  const std::string msg = existed ? "Successfully overwrote file: " + path.string() + "."
                                  : "Successfully created and wrote to new file: " + path.string() + ".";
  ojson display = ojson::object();
  std::string llm = msg;
  if (!existed) {
    display = new_file_display(path, original, args);
    if (response != "build_flag") display.erase("isBuildFile");
    if (response != "plain") llm += " Here is the updated code:\n" + content;
  } else {
    display = ojson::object({{"fileName", base},
                             {"filePath", path.string()},
                             {"originalContent", original},
                             {"newContent", args["content"]},
                             {"isNewFile", false}});
  }
  r.response = ojson::object({{"llmContent", llm}, {"returnDisplay", display}});
  r.ok = true;
  return r;
}

}  // namespace

// write_file, the built-in tool the differential lane's scenarios call, run for real in the
// workspace. `modified` = the arguments came from a hook's hookSpecificOutput.tool_input: the tool
// is then rebuilt from them and validated (scheduler/hook-utils.js; exp x11: a partial object
// fails with "Tool parameter modification by hook failed validation: params must have required
// property 'file_path'"; lane s15). Other tools are not run: their response is the script's.
ToolRun run_builtin_tool(const std::string& name, const ojson& args, const std::string& workspace,
                         bool modified, const std::string& write_file_response) {
  if (name == "read_file" && args.is_object() && args.contains("file_path") &&
      args["file_path"].is_string())
    return read_file_tool(args, workspace);
  if (name == "list_directory" && args.is_object() && args.contains("dir_path") &&
      args["dir_path"].is_string())
    return list_directory_tool(args, workspace);
  ToolRun r;
  if (name != "write_file") {
    r.ok = true;
    return r;
  }
  r.error = write_file_params_error(args, modified);
  if (!r.error.empty()) return r;
  return write_file_tool(args, workspace, write_file_response);
}

}  // namespace pinta::emu::gemini::session_detail
