// `hostemu antigravity …`: the Antigravity (agy) host emulator on the command line.
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hostemu_cli.h"
#include "pinta/common/fs.h"
#include "pinta/common/process.h"
#include "pinta/emulator/antigravity/antigravity.h"
#include "pinta/hostlint/lint.h"

namespace agy = pinta::emu::agy;

namespace pinta::hostemu {

namespace {

const char* const kEvents = "PreToolUse|PostToolUse|PreInvocation|PostInvocation|Stop|SessionStart";

// Option storage outlives parsing: it is owned by the action closure.
struct AgyOpts {
  std::string profiles_dir = agy::default_profile_dir();
  std::string profile, home, workspace, event, tool, lint_file;
  // fire / payload / docs / lint
  std::string payload_file, check_file, lint_format;
  bool all_profiles = false, headless = false, prior_grant = false, tool_call_null = false,
       permission_review = false;
  int stop_continuations = 0;
  CLI::App *profiles_cmd = nullptr, *plan_cmd = nullptr, *lint_cmd = nullptr,
           *fire_cmd = nullptr, *payload_cmd = nullptr, *docs_cmd = nullptr;
};

void add_plan_command(CLI::App* ag, AgyOpts& o) {
  o.plan_cmd =
      ag->add_subcommand("plan", "print which hooks.json files are read and which commands run");
  o.plan_cmd
      ->add_option("--profile", o.profile, "profile name (see `hostemu antigravity profiles`)")
      ->required();
  o.plan_cmd->add_option("--home", o.home, "home directory to read ~/.gemini from")->required();
  o.plan_cmd->add_option("--workspace", o.workspace, "open workspace directory");
  o.plan_cmd->add_option("--event", o.event, kEvents)->required();
  o.plan_cmd->add_option("--tool", o.tool,
                         "tool name for PreToolUse/PostToolUse (e.g. run_command)");
}

void add_lint_command(CLI::App* ag, AgyOpts& o) {
  o.lint_cmd = ag->add_subcommand(
      "lint", "per profile: which hooks load, which never fire, what drops the file");
  o.lint_cmd->add_option("FILE", o.lint_file, "a hooks.json file")->required();
  o.lint_cmd->add_option("--format", o.lint_format,
                         "text|json|github: the findings of `hostemu lint --host antigravity` "
                         "instead of the per-profile report");
}

void add_fire_command(CLI::App* ag, AgyOpts& o) {
  o.fire_cmd = ag->add_subcommand(
      "fire", "run the planned hooks with a payload and print, per profile, the host's effect");
  auto* fp = o.fire_cmd->add_option("--profile", o.profile, "profile name");
  auto* fa = o.fire_cmd->add_flag("--all-profiles", o.all_profiles, "every profile");
  fp->excludes(fa);
  o.fire_cmd
      ->add_option("--home", o.home, "home directory to read ~/.gemini from (also the hooks' HOME)")
      ->required();
  o.fire_cmd->add_option("--workspace", o.workspace, "open workspace directory");
  o.fire_cmd->add_option("--event", o.event, kEvents)->required();
  o.fire_cmd->add_option(
      "--payload", o.payload_file,
      "file holding the stdin JSON object (default: the profile's generated payload)");
  o.fire_cmd->add_option("--tool", o.tool, "tool name (default: the payload's toolCall.name)");
  o.fire_cmd->add_flag("--headless", o.headless, "agy -p: prompts cannot be answered");
  o.fire_cmd->add_flag("--prior-grant", o.prior_grant,
                       "deny_unless_prior_grant: the resource was granted before");
  o.fire_cmd->add_flag("--permission-review", o.permission_review,
                       "toolPermission=request-review: agy reviews every tool call");
  o.fire_cmd->add_option("--stop-continuations", o.stop_continuations,
                         "consecutive Stop continuations so far");
}

void add_payload_command(CLI::App* ag, AgyOpts& o) {
  o.payload_cmd =
      ag->add_subcommand("payload", "print the stdin payload a profile sends for an event");
  o.payload_cmd->add_option("--profile", o.profile, "profile name")->required();
  o.payload_cmd->add_option("--event", o.event, kEvents)->required();
  o.payload_cmd->add_option("--tool", o.tool, "tool name (tool events; default run_command)");
  o.payload_cmd->add_option("--home", o.home, "home directory in the paths");
  o.payload_cmd->add_option("--workspace", o.workspace, "workspace path (workspacePaths)");
  o.payload_cmd->add_flag("--tool-call-null", o.tool_call_null,
                          "PostToolUse on a non-tool step (toolCall: null)");
}

// --home must be a directory, --workspace one when given: 0, or the usage error's exit status.
int check_dirs(const AgyOpts& o) {
  std::error_code ec;
  if (!std::filesystem::is_directory(o.home, ec))
    return usage_error("--home " + o.home + " is not a directory");
  if (!o.workspace.empty() && !std::filesystem::is_directory(o.workspace, ec))
    return usage_error("--workspace " + o.workspace + " is not a directory");
  return 0;
}

// --profile, --event and --tool as `plan` and `payload` take them: 0, or the usage error's exit
// status (the message is printed).
int resolve(const std::vector<agy::Profile>& profs, const AgyOpts& o, const agy::Profile** p,
            std::optional<agy::Event>* ev) {
  *p = agy::find_profile(profs, o.profile);
  if (!*p) return usage_error("unknown profile '" + o.profile + "'");
  *ev = agy::parse_event(o.event);
  if (!*ev) return usage_error("unknown event '" + o.event + "'");
  if (!o.tool.empty() && !agy::is_tool_event(**ev))
    return usage_error("--tool only applies to PreToolUse/PostToolUse");
  return 0;
}

int print_profiles(const std::vector<agy::Profile>& profs) {
  nlohmann::json out;
  out["profiles"] = nlohmann::json::array();
  for (const auto& p : profs)
    out["profiles"].push_back(
        {{"name", p.name}, {"description", p.description}, {"switches", p.switches}});
  std::cout << out.dump(2) << "\n";
  return 0;
}

int print_plan(const std::vector<agy::Profile>& profs, const AgyOpts& o) {
  const agy::Profile* p = nullptr;
  std::optional<agy::Event> ev;
  if (int rc = resolve(profs, o, &p, &ev)) return rc;
  if (int rc = check_dirs(o)) return rc;
  std::error_code ec;
  agy::PlanRequest rq;
  rq.home = o.home;
  rq.workspace = o.workspace;
  rq.event = *ev;
  rq.tool = o.tool;
  rq.launch_dir = std::filesystem::current_path(ec).string();
  std::cout << agy::plan_to_json(agy::plan(*p, rq)).dump() << "\n";
  return 0;
}

int run_lint(const std::vector<agy::Profile>& profs, const AgyOpts& o) {
  if (o.lint_format.empty()) {
    auto text = pinta::fs::read_file(o.lint_file);
    if (!text) return usage_error(o.lint_file + ": " + text.error().message);
    std::cout << agy::lint(profs, *text, o.lint_file).dump(2) << "\n";
    return 0;
  }
  if (o.lint_format != "text" && o.lint_format != "json" && o.lint_format != "github")
    return usage_error("unknown --format '" + o.lint_format + "' (text|json|github)");
  pinta::hostlint::LintOptions lo;
  lo.host = pinta::hostlint::Host::kAntigravity;
  lo.profiles_dir = o.profiles_dir;
  auto findings = pinta::hostlint::lint_paths({o.lint_file}, lo);
  if (!findings) return usage_error(findings.error().message);
  std::cout << pinta::hostlint::format_findings(*findings, o.lint_format);
  return pinta::hostlint::any_error(*findings) ? 1 : 0;
}

int print_payload(const std::vector<agy::Profile>& profs, const AgyOpts& o) {
  const agy::Profile* p = nullptr;
  std::optional<agy::Event> ev;
  if (int rc = resolve(profs, o, &p, &ev)) return rc;
  agy::PayloadOptions po;
  if (!o.home.empty()) po.home = o.home;
  if (!o.workspace.empty()) po.workspace_paths = {o.workspace};
  if (!o.tool.empty()) po.tool = o.tool;
  po.tool_call_null = o.tool_call_null;
  std::cout << agy::make_payload(*p, *ev, po).dump() << "\n";
  return 0;
}

// The tool a fire request names: --tool, else the payload's toolCall.name, else run_command for a
// generated tool-event payload.
std::string fire_tool(const AgyOpts& o, agy::Event ev, const nlohmann::json& payload) {
  std::string use_tool = o.tool;
  if (use_tool.empty() && agy::is_tool_event(ev) && payload.is_object() &&
      payload.contains("toolCall") && payload["toolCall"].is_object() &&
      payload["toolCall"].contains("name") && payload["toolCall"]["name"].is_string())
    use_tool = payload["toolCall"]["name"].get<std::string>();
  if (use_tool.empty() && agy::is_tool_event(ev) && payload.is_null()) use_tool = "run_command";
  return use_tool;
}

int run_fire(const std::vector<agy::Profile>& profs, const AgyOpts& o) {
  std::vector<const agy::Profile*> chosen;
  if (o.all_profiles) {
    for (const auto& each : profs) chosen.push_back(&each);
  } else {
    if (o.profile.empty()) return usage_error("fire needs --profile P or --all-profiles");
    const agy::Profile* p = agy::find_profile(profs, o.profile);
    if (!p) return usage_error("unknown profile '" + o.profile + "'");
    chosen.push_back(p);
  }
  std::optional<agy::Event> ev = agy::parse_event(o.event);
  if (!ev) return usage_error("unknown event '" + o.event + "'");
  if (int rc = check_dirs(o)) return rc;
  nlohmann::json payload;  // null: each profile's generated payload
  if (!o.payload_file.empty()) {
    auto text = pinta::fs::read_file(o.payload_file);
    if (!text) return usage_error(o.payload_file + ": " + text.error().message);
    payload = nlohmann::json::parse(*text, nullptr, false);
    if (payload.is_discarded() || !payload.is_object())
      return usage_error(o.payload_file + ": not a JSON object");
  }
  const std::string use_tool = fire_tool(o, *ev, payload);
  if (!use_tool.empty() && !agy::is_tool_event(*ev))
    return usage_error("--tool only applies to PreToolUse/PostToolUse");
  // Hooks inherit the host's environment (§5.3); HOME is the emulated home.
  auto env = pinta::proc::current_environment();
  env["HOME"] = o.home;
  auto spawner = pinta::proc::make_spawner();
  std::error_code ec;
  nlohmann::json out;
  out["event"] = o.event;
  out["results"] = nlohmann::json::array();
  for (const agy::Profile* prof : chosen) {
    agy::FireRequest fr;
    fr.plan.home = o.home;
    fr.plan.workspace = o.workspace;
    fr.plan.event = *ev;
    fr.plan.tool = use_tool;
    fr.plan.launch_dir = std::filesystem::current_path(ec).string();
    if (payload.is_null()) {
      agy::PayloadOptions po;
      po.home = o.home;
      if (!o.workspace.empty()) po.workspace_paths = {o.workspace};
      if (!use_tool.empty()) po.tool = use_tool;
      fr.payload = agy::make_payload(*prof, *ev, po);
    } else {
      fr.payload = payload;
    }
    fr.context.tool = use_tool;
    fr.context.headless = o.headless;
    fr.context.prior_grant = o.prior_grant;
    fr.context.permission_review = o.permission_review;
    fr.context.stop_continuations = o.stop_continuations;
    fr.env = env;
    out["results"].push_back(agy::fire_result_to_json(agy::fire(*prof, fr, *spawner)));
  }
  std::cout << out.dump(2) << "\n";
  return 0;
}

}  // namespace

}  // namespace pinta::hostemu

namespace pinta::hostemu::antigravity {

// The family's `hostemu` subcommands (registered through families.def, hostemu_main.cc).
void add_commands(CLI::App& app, Action& action) {
  auto o = std::make_shared<AgyOpts>();
  auto* ag = app.add_subcommand("antigravity", "Antigravity (agy) host emulator");
  ag->require_subcommand(1);
  ag->add_option("--profiles-dir", o->profiles_dir, "directory of profile *.json files")
      ->capture_default_str();
  o->profiles_cmd =
      ag->add_subcommand("profiles", "list profiles and their switches (with evidence)");
  add_plan_command(ag, *o);
  add_lint_command(ag, *o);
  add_fire_command(ag, *o);
  add_payload_command(ag, *o);
  o->docs_cmd = ag->add_subcommand("docs", "print docs/hosts/antigravity.md from the profile data");
  o->docs_cmd->add_option("--check", o->check_file,
                          "compare with this file instead of printing; exit 1 when it is stale");

  ag->final_callback([o, &action] {
    action = [o]() -> int {
      auto profs = agy::load_profiles(o->profiles_dir);
      if (!profs) return usage_error(profs.error().message);
      if (*o->profiles_cmd) return print_profiles(*profs);
      if (*o->plan_cmd) return print_plan(*profs, *o);
      if (*o->lint_cmd) return run_lint(*profs, *o);
      if (*o->docs_cmd)
        return print_or_check_docs("antigravity", agy::render_docs(*profs), o->check_file);
      if (*o->payload_cmd) return print_payload(*profs, *o);
      if (*o->fire_cmd) return run_fire(*profs, *o);
      return usage_error("no command");
    };
  });
}

}  // namespace pinta::hostemu::antigravity
