// hostemu: host emulators on the command line. This slice: `hostemu antigravity profiles|plan|lint`.
#include <filesystem>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "pinta/common/fs.h"
#include "pinta/emulator/antigravity/antigravity.h"

namespace agy = pinta::emu::agy;

namespace {

int usage_error(const std::string& msg) {
  std::string line = msg;
  for (auto& c : line)
    if (c == '\n') c = ' ';
  std::cerr << "hostemu: " << line << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hostemu: run hooks the way a host does (Antigravity profiles, plan, lint)", "hostemu"};
  app.require_subcommand(1);
  std::string profiles_dir = agy::default_profile_dir();
  auto* ag = app.add_subcommand("antigravity", "Antigravity (agy) host emulator");
  ag->require_subcommand(1);
  ag->add_option("--profiles-dir", profiles_dir, "directory of profile *.json files")->capture_default_str();

  auto* profiles_cmd = ag->add_subcommand("profiles", "list profiles and their switches (with evidence)");

  std::string profile, home, workspace, event, tool;
  auto* plan_cmd = ag->add_subcommand("plan", "print which hooks.json files are read and which commands run");
  plan_cmd->add_option("--profile", profile, "profile name (see `hostemu antigravity profiles`)")->required();
  plan_cmd->add_option("--home", home, "home directory to read ~/.gemini from")->required();
  plan_cmd->add_option("--workspace", workspace, "open workspace directory");
  plan_cmd->add_option("--event", event, "PreToolUse|PostToolUse|PreInvocation|PostInvocation|Stop|SessionStart")
      ->required();
  plan_cmd->add_option("--tool", tool, "tool name for PreToolUse/PostToolUse (e.g. run_command)");

  std::string lint_file;
  auto* lint_cmd = ag->add_subcommand("lint", "per profile: which hooks load, which never fire, what drops the file");
  lint_cmd->add_option("FILE", lint_file, "a hooks.json file")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }

  auto profs = agy::load_profiles(profiles_dir);
  if (!profs) return usage_error(profs.error().message);

  if (*profiles_cmd) {
    nlohmann::json out;
    out["profiles"] = nlohmann::json::array();
    for (const auto& p : *profs)
      out["profiles"].push_back({{"name", p.name}, {"description", p.description}, {"switches", p.switches}});
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  if (*plan_cmd) {
    const agy::Profile* p = agy::find_profile(*profs, profile);
    if (!p) return usage_error("unknown profile '" + profile + "'");
    auto ev = agy::parse_event(event);
    if (!ev) return usage_error("unknown event '" + event + "'");
    if (!tool.empty() && !agy::is_tool_event(*ev)) return usage_error("--tool only applies to PreToolUse/PostToolUse");
    std::error_code ec;
    if (!std::filesystem::is_directory(home, ec)) return usage_error("--home " + home + " is not a directory");
    if (!workspace.empty() && !std::filesystem::is_directory(workspace, ec))
      return usage_error("--workspace " + workspace + " is not a directory");
    agy::PlanRequest rq;
    rq.home = home;
    rq.workspace = workspace;
    rq.event = *ev;
    rq.tool = tool;
    rq.launch_dir = std::filesystem::current_path(ec).string();
    std::cout << agy::plan_to_json(agy::plan(*p, rq)).dump() << "\n";
    return 0;
  }
  if (*lint_cmd) {
    auto text = pinta::fs::read_file(lint_file);
    if (!text) return usage_error(lint_file + ": " + text.error().message);
    std::cout << agy::lint(*profs, *text, lint_file).dump(2) << "\n";
    return 0;
  }
  return usage_error("no command");
}
