// `hostemu antigravity …`: the Antigravity (agy) host emulator on the command line.
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "hostemu_cli.h"
#include "pinta/common/fs.h"
#include "pinta/common/process.h"
#include "pinta/emulator/antigravity/antigravity.h"
#include "pinta/hostlint/lint.h"

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
    // fire / payload / docs
    std::string payload_file, check_file, lint_format;
    bool all_profiles = false, headless = false, prior_grant = false, tool_call_null = false,
         permission_review = false;
    int stop_continuations = 0;
    CLI::App* fire_cmd = nullptr;
    CLI::App* payload_cmd = nullptr;
    CLI::App* docs_cmd = nullptr;
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
  o->lint_cmd->add_option("--format", o->lint_format,
                          "text|json|github: the findings of `hostemu lint --host antigravity` "
                          "instead of the per-profile report");

  o->fire_cmd = ag->add_subcommand(
      "fire", "run the planned hooks with a payload and print, per profile, the host's effect");
  auto* fp = o->fire_cmd->add_option("--profile", o->profile, "profile name");
  auto* fa = o->fire_cmd->add_flag("--all-profiles", o->all_profiles, "every profile");
  fp->excludes(fa);
  o->fire_cmd
      ->add_option("--home", o->home,
                   "home directory to read ~/.gemini from (also the hooks' HOME)")
      ->required();
  o->fire_cmd->add_option("--workspace", o->workspace, "open workspace directory");
  o->fire_cmd
      ->add_option("--event", o->event,
                   "PreToolUse|PostToolUse|PreInvocation|PostInvocation|Stop|SessionStart")
      ->required();
  o->fire_cmd->add_option(
      "--payload", o->payload_file,
      "file holding the stdin JSON object (default: the profile's generated payload)");
  o->fire_cmd->add_option("--tool", o->tool, "tool name (default: the payload's toolCall.name)");
  o->fire_cmd->add_flag("--headless", o->headless, "agy -p: prompts cannot be answered");
  o->fire_cmd->add_flag("--prior-grant", o->prior_grant,
                        "deny_unless_prior_grant: the resource was granted before");
  o->fire_cmd->add_flag("--permission-review", o->permission_review,
                        "toolPermission=request-review: agy reviews every tool call");
  o->fire_cmd->add_option("--stop-continuations", o->stop_continuations,
                          "consecutive Stop continuations so far");

  o->payload_cmd =
      ag->add_subcommand("payload", "print the stdin payload a profile sends for an event");
  o->payload_cmd->add_option("--profile", o->profile, "profile name")->required();
  o->payload_cmd
      ->add_option("--event", o->event,
                   "PreToolUse|PostToolUse|PreInvocation|PostInvocation|Stop|SessionStart")
      ->required();
  o->payload_cmd->add_option("--tool", o->tool, "tool name (tool events; default run_command)");
  o->payload_cmd->add_option("--home", o->home, "home directory in the paths");
  o->payload_cmd->add_option("--workspace", o->workspace, "workspace path (workspacePaths)");
  o->payload_cmd->add_flag("--tool-call-null", o->tool_call_null,
                           "PostToolUse on a non-tool step (toolCall: null)");

  o->docs_cmd = ag->add_subcommand("docs", "print docs/hosts/antigravity.md from the profile data");
  o->docs_cmd->add_option("--check", o->check_file,
                          "compare with this file instead of printing; exit 1 when it is stale");

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
      // --profile, --event and --tool as `plan` and `payload` take them: 0, or the usage error's
      // exit status (the message is printed).
      const agy::Profile* p = nullptr;
      std::optional<agy::Event> ev;
      auto resolve = [&]() -> int {
        p = agy::find_profile(*profs, profile);
        if (!p) return usage_error("unknown profile '" + profile + "'");
        ev = agy::parse_event(event);
        if (!ev) return usage_error("unknown event '" + event + "'");
        if (!tool.empty() && !agy::is_tool_event(*ev))
          return usage_error("--tool only applies to PreToolUse/PostToolUse");
        return 0;
      };
      if (*plan_cmd) {
        if (int rc = resolve()) return rc;
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
      if (*lint_cmd && !o->lint_format.empty()) {
        if (o->lint_format != "text" && o->lint_format != "json" && o->lint_format != "github")
          return usage_error("unknown --format '" + o->lint_format + "' (text|json|github)");
        pinta::hostlint::LintOptions lo;
        lo.host = pinta::hostlint::Host::kAntigravity;
        lo.profiles_dir = profiles_dir;
        auto findings = pinta::hostlint::lint_paths({lint_file}, lo);
        if (!findings) return usage_error(findings.error().message);
        std::cout << pinta::hostlint::format_findings(*findings, o->lint_format);
        return pinta::hostlint::any_error(*findings) ? 1 : 0;
      }
      if (*lint_cmd) {
        auto text = pinta::fs::read_file(lint_file);
        if (!text) return usage_error(lint_file + ": " + text.error().message);
        std::cout << agy::lint(*profs, *text, lint_file).dump(2) << "\n";
        return 0;
      }
      if (*o->docs_cmd) {
        return print_or_check_docs("antigravity", agy::render_docs(*profs), o->check_file);
      }
      if (*o->payload_cmd) {
        if (int rc = resolve()) return rc;
        agy::PayloadOptions po;
        if (!home.empty()) po.home = home;
        if (!workspace.empty()) po.workspace_paths = {workspace};
        if (!tool.empty()) po.tool = tool;
        po.tool_call_null = o->tool_call_null;
        std::cout << agy::make_payload(*p, *ev, po).dump() << "\n";
        return 0;
      }
      if (*o->fire_cmd) {
        std::vector<const agy::Profile*> chosen;
        if (o->all_profiles) {
          for (const auto& each : *profs) chosen.push_back(&each);
        } else {
          if (profile.empty()) return usage_error("fire needs --profile P or --all-profiles");
          p = agy::find_profile(*profs, profile);
          if (!p) return usage_error("unknown profile '" + profile + "'");
          chosen.push_back(p);
        }
        ev = agy::parse_event(event);
        if (!ev) return usage_error("unknown event '" + event + "'");
        std::error_code ec;
        if (!std::filesystem::is_directory(home, ec))
          return usage_error("--home " + home + " is not a directory");
        if (!workspace.empty() && !std::filesystem::is_directory(workspace, ec))
          return usage_error("--workspace " + workspace + " is not a directory");
        nlohmann::json payload;  // null: each profile's generated payload
        if (!o->payload_file.empty()) {
          auto text = pinta::fs::read_file(o->payload_file);
          if (!text) return usage_error(o->payload_file + ": " + text.error().message);
          payload = nlohmann::json::parse(*text, nullptr, false);
          if (payload.is_discarded() || !payload.is_object())
            return usage_error(o->payload_file + ": not a JSON object");
        }
        std::string use_tool = tool;
        if (use_tool.empty() && agy::is_tool_event(*ev) && payload.is_object() &&
            payload.contains("toolCall") && payload["toolCall"].is_object() &&
            payload["toolCall"].contains("name") && payload["toolCall"]["name"].is_string())
          use_tool = payload["toolCall"]["name"].get<std::string>();
        if (use_tool.empty() && agy::is_tool_event(*ev) && payload.is_null())
          use_tool = "run_command";
        if (!use_tool.empty() && !agy::is_tool_event(*ev))
          return usage_error("--tool only applies to PreToolUse/PostToolUse");
        // Hooks inherit the host's environment (§5.3); HOME is the emulated home.
        auto env = pinta::proc::current_environment();
        env["HOME"] = home;
        auto spawner = pinta::proc::make_spawner();
        nlohmann::json out;
        out["event"] = event;
        out["results"] = nlohmann::json::array();
        for (const agy::Profile* prof : chosen) {
          agy::FireRequest fr;
          fr.plan.home = home;
          fr.plan.workspace = workspace;
          fr.plan.event = *ev;
          fr.plan.tool = use_tool;
          fr.plan.launch_dir = std::filesystem::current_path(ec).string();
          if (payload.is_null()) {
            agy::PayloadOptions po;
            po.home = home;
            if (!workspace.empty()) po.workspace_paths = {workspace};
            if (!use_tool.empty()) po.tool = use_tool;
            fr.payload = agy::make_payload(*prof, *ev, po);
          } else {
            fr.payload = payload;
          }
          fr.context.tool = use_tool;
          fr.context.headless = o->headless;
          fr.context.prior_grant = o->prior_grant;
          fr.context.permission_review = o->permission_review;
          fr.context.stop_continuations = o->stop_continuations;
          fr.env = env;
          out["results"].push_back(agy::fire_result_to_json(agy::fire(*prof, fr, *spawner)));
        }
        std::cout << out.dump(2) << "\n";
        return 0;
      }
      return usage_error("no command");
    };
  });
}

}  // namespace pinta::hostemu
