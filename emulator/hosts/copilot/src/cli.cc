// `hostemu copilot …`: the Copilot CLI 1.0.102 host emulator on the command line.
//   hostemu copilot run --home H --project P --event E [--tool T] [--policy-dir D] [--trusted]
//       [--version V | --profile NAME] < payload.json
//     runs the hooks Copilot would run for one event (pinta::hosts::copilot load_hooks + plan over
//     the policy folder, COPILOT_HOME (else H/.copilot), the project's sources when it is trusted)
//     with this process's environment as the CLI's, and prints {"loaded":[…],"results":[…],
//     "outcome":{…},"fired":B} (emulator/hosts/copilot). E is either spelling; the payload is in
//     E's format and is passed byte for byte to the hooks of that format. Under a release's
//     version profile (default: 1.0.102's rules) its rules apply: an event it does not fire runs
//     nothing ("fired": false), its sources, exit 2 and timeout readings.
//   hostemu copilot profiles [--version V] [--dir D]
//     lists the version profiles (name, releases, the switches that differ from 1.0.102's), or
//     prints the one profile covering release V (exit 3 when none does: a release past the newest
//     profile or one not probed yet, for the version radar).
//   hostemu copilot model-server --script turns.json [--port 0] [--log FILE]
//     the scripted OpenAI Responses API server (the one `hostemu codex model-server` runs:
//     add_responses_model_server, emulator/src/hostemu_cli.h); prints `port N` once listening,
//     runs until SIGINT/SIGTERM. Copilot reaches it with COPILOT_PROVIDER_BASE_URL=
//     http://127.0.0.1:N/v1 and COPILOT_PROVIDER_WIRE_API=responses (CP, "… Copilot CLI 1.0.102,
//     offline").
// One function per subcommand, each called from add_commands.
#include <iostream>
#include <iterator>
#include <memory>

#include "hostemu_cli.h"
#include "pinta/common/process.h"
#include "pinta/emulator/copilot/copilot.h"
#include "pinta/hosts/hosts.h"

namespace pinta::hostemu {

namespace {

struct CopilotRunArgs {
  std::string home, project, event, tool, policy_dir, version, profile;
  bool policy_dir_set = false, trusted = false;
};

namespace cp = pinta::hosts::copilot;

// The profile of --version V or --profile NAME (a name or a file), from `dir` (default: the
// installed or source folder); no selector: none (1.0.102's rules, cp::Rules{}).
pinta::Result<std::optional<cp::Profile>> copilot_profile(const std::string& version,
                                                          const std::string& name,
                                                          std::string dir = {}) {
  if (dir.empty()) dir = pinta::hosts::profile_dir(pinta::hosts::Family::kCopilot);
  if (version.empty() && name.empty()) return std::optional<cp::Profile>();
  auto p = version.empty() ? cp::profile_named(dir, name) : cp::profile_for_version(dir, version);
  if (!p) return p.error();
  return std::optional<cp::Profile>(std::move(*p));
}

int run_copilot(const CopilotRunArgs& a) {
  const auto format = cp::event_format(a.event);
  if (!format) return usage_error("copilot run: unknown event " + a.event);
  auto profile = copilot_profile(a.version, a.profile);
  if (!profile) return usage_error("copilot run: " + profile.error().message);
  const cp::Rules rules = *profile ? (*profile)->rules : cp::Rules{};
  std::string raw((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  auto payload = nlohmann::json::parse(raw, nullptr, false);
  if (payload.is_discarded() || !payload.is_object())
    return usage_error("copilot run: stdin is not a JSON object");
  const auto env = pinta::proc::current_environment();
  cp::Sources src;
  src.policy_dir = a.policy_dir_set ? a.policy_dir : cp::default_policy_dir(env);
  src.copilot_home = cp::default_copilot_home(env, a.home);
  src.repo = a.project;
  src.repo_trusted = a.trusted || cp::repo_trusted(src.copilot_home, a.project, env);
  src.claude_settings = rules.claude_settings;
  auto loaded = cp::load_hooks(src);
  if (!loaded) return usage_error("copilot run: " + loaded.error().message);
  for (const auto& w : loaded->warnings) std::cerr << "copilot run: warning: " << w << "\n";
  const std::string ev = cp::canonical_event(a.event);
  // The matcher target: the runtime tool of the tool events (a Claude-style payload names the
  // Claude tool); none elsewhere.
  std::string tool = a.tool;
  if (tool.empty()) {
    auto field = [&](const char* k) {
      return payload.contains(k) && payload[k].is_string() ? payload[k].get<std::string>()
                                                           : std::string();
    };
    if (ev == "preToolUse" || ev == "postToolUse" || ev == "postToolUseFailure" ||
        ev == "permissionRequest")
      tool = !field("toolName").empty() ? field("toolName")
                                        : cp::runtime_tool_name(field("tool_name"));
  }
  const bool fired = cp::fires(rules, a.event);
  auto plan = fired ? cp::plan(*loaded, a.event, tool) : std::vector<cp::HookHandler>{};
  auto run = pinta::emu::copilot::run_plan(plan, a.event, payload, *format, raw, a.project, env,
                                           nullptr, rules);
  auto report = pinta::emu::copilot::report_json(plan, run);
  report["fired"] = fired;
  std::cout << report.dump() << "\n";
  return 0;
}

// Each profile as `name<TAB>from .. through<TAB>switches that differ from 1.0.102's`; with a
// version, the covering profile's name (exit 3: none covers it).
int copilot_profiles(const std::string& version, const std::string& dir_opt) {
  const std::string dir =
      dir_opt.empty() ? pinta::hosts::profile_dir(pinta::hosts::Family::kCopilot) : dir_opt;
  if (!version.empty()) {
    auto p = copilot_profile(version, "", dir);
    if (!p) {
      std::cerr << "copilot profiles: " << p.error().message << "\n";
      return p.error().code == pinta::ErrorCode::kNotFound ? 3 : 2;
    }
    std::cout << (*p)->name << "\n";
    return 0;
  }
  auto all = cp::read_profiles(dir);
  if (!all) return usage_error("copilot profiles: " + all.error().message);
  const auto now = cp::switch_values(cp::Rules{});
  for (const auto& p : *all) {
    std::string diff;
    const auto mine = cp::switch_values(p.rules);
    for (size_t i = 0; i < mine.size(); ++i)
      if (mine[i].second != now[i].second)
        diff += (diff.empty() ? "" : " ") + mine[i].first + "=" + (mine[i].second ? "true" : "false");
    std::cout << p.name << "\t" << p.applies_from << " .. " << p.applies_through << "\t"
              << (diff.empty() ? "as 1.0.102" : diff) << "\n";
  }
  return 0;
}

}  // namespace

}  // namespace pinta::hostemu

namespace pinta::hostemu::copilot {

namespace {

// `copilot run`: kept in its own block.
void add_run_command(CLI::App* copilot, Action& action) {
  auto a = std::make_shared<CopilotRunArgs>();
  auto* run = copilot->add_subcommand("run", "run the hooks of one event as Copilot CLI does");
  run->add_option("--home", a->home, "HOME (~/.copilot unless COPILOT_HOME is set)")->required();
  run->add_option("--project", a->project, "project root (.github/hooks, .claude/settings*.json)")
      ->required();
  run->add_option("--event", a->event, "hook event, either spelling (preToolUse, PreToolUse)")
      ->required();
  run->add_option("--tool", a->tool, "runtime tool name for matchers (default: from the payload)");
  run->add_option("--policy-dir", a->policy_dir,
                  "system policy folder (default /etc/github-copilot/policy.d)")
      ->each([a](const std::string&) { a->policy_dir_set = true; });
  run->add_flag("--trusted", a->trusted, "treat the project as a trusted folder");
  auto* ver = run->add_option("--version", a->version,
                              "run under the version profile covering this release (e.g. 1.0.73)");
  run->add_option("--profile", a->profile, "run under this version profile (e.g. copilot-1.0.57)")
      ->excludes(ver);
  run->callback([a, &action] { action = [a] { return run_copilot(*a); }; });
}

void add_profiles_command(CLI::App* copilot, Action& action) {
  auto version = std::make_shared<std::string>();
  auto dir = std::make_shared<std::string>();
  auto* cmd = copilot->add_subcommand("profiles", "the version profiles, or the one of a release");
  cmd->add_option("--version", *version, "print the profile covering this release (exit 3: none)");
  cmd->add_option("--dir", *dir, "profile folder (default: the installed or source one)");
  cmd->callback([version, dir, &action] {
    action = [version, dir] { return copilot_profiles(*version, *dir); };
  });
}

}  // namespace

// The family's `hostemu` subcommands (registered through families.def, hostemu_main.cc).
void add_commands(CLI::App& app, Action& action) {
  auto* copilot =
      app.add_subcommand("copilot", "Copilot CLI host emulator (1.0.57 .. 1.0.102 by profile)");
  copilot->require_subcommand(1);
  add_run_command(copilot, action);
  add_profiles_command(copilot, action);
  add_responses_model_server(copilot, "copilot model-server", action);
}

}  // namespace pinta::hostemu::copilot
