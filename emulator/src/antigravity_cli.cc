// `hostemu antigravity …`: the Antigravity (agy) host emulator on the command line.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "hostemu_cli.h"
#include "pinta/common/fs.h"
#include "pinta/emulator/antigravity/antigravity.h"

namespace agy = pinta::emu::agy;

namespace pinta::hostemu {

void add_antigravity_commands(CLI::App& app, Action& action) {
  // Option storage outlives parsing: it is owned by the action closure.
  struct Opts {
    std::string profiles_dir = agy::default_profile_dir();
    std::string profile, home, workspace, event, tool, lint_file;
    CLI::App* profiles_cmd = nullptr;
    CLI::App* plan_cmd = nullptr;
    CLI::App* lint_cmd = nullptr;
  };
  auto o = std::make_shared<Opts>();
  auto* ag = app.add_subcommand("antigravity", "Antigravity (agy) host emulator");
  ag->require_subcommand(1);
  ag->add_option("--profiles-dir", o->profiles_dir, "directory of profile *.json files")
      ->capture_default_str();

  o->profiles_cmd =
      ag->add_subcommand("profiles", "list profiles and their switches (with evidence)");

  o->plan_cmd =
      ag->add_subcommand("plan", "print which hooks.json files are read and which commands run");
  o->plan_cmd
      ->add_option("--profile", o->profile, "profile name (see `hostemu antigravity profiles`)")
      ->required();
  o->plan_cmd->add_option("--home", o->home, "home directory to read ~/.gemini from")->required();
  o->plan_cmd->add_option("--workspace", o->workspace, "open workspace directory");
  o->plan_cmd
      ->add_option("--event", o->event,
                   "PreToolUse|PostToolUse|PreInvocation|PostInvocation|Stop|SessionStart")
      ->required();
  o->plan_cmd->add_option("--tool", o->tool,
                          "tool name for PreToolUse/PostToolUse (e.g. run_command)");

  o->lint_cmd = ag->add_subcommand(
      "lint", "per profile: which hooks load, which never fire, what drops the file");
  o->lint_cmd->add_option("FILE", o->lint_file, "a hooks.json file")->required();

  ag->final_callback([o, &action] {
    action = [o]() -> int {
      auto& profiles_dir = o->profiles_dir;
      auto& profile = o->profile;
      auto& home = o->home;
      auto& workspace = o->workspace;
      auto& event = o->event;
      auto& tool = o->tool;
      auto& lint_file = o->lint_file;
      auto* profiles_cmd = o->profiles_cmd;
      auto* plan_cmd = o->plan_cmd;
      auto* lint_cmd = o->lint_cmd;
      auto profs = agy::load_profiles(profiles_dir);
      if (!profs) return usage_error(profs.error().message);

      if (*profiles_cmd) {
        nlohmann::json out;
        out["profiles"] = nlohmann::json::array();
        for (const auto& p : *profs)
          out["profiles"].push_back(
              {{"name", p.name}, {"description", p.description}, {"switches", p.switches}});
        std::cout << out.dump(2) << "\n";
        return 0;
      }
      if (*plan_cmd) {
        const agy::Profile* p = agy::find_profile(*profs, profile);
        if (!p) return usage_error("unknown profile '" + profile + "'");
        auto ev = agy::parse_event(event);
        if (!ev) return usage_error("unknown event '" + event + "'");
        if (!tool.empty() && !agy::is_tool_event(*ev))
          return usage_error("--tool only applies to PreToolUse/PostToolUse");
        std::error_code ec;
        if (!std::filesystem::is_directory(home, ec))
          return usage_error("--home " + home + " is not a directory");
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
    };
  });
}

}  // namespace pinta::hostemu
