// `hostemu copilot …`: the Copilot CLI 1.0.102 host emulator on the command line.
//   hostemu copilot run --home H --project P --event E [--tool T] [--policy-dir D] [--trusted]
//       < payload.json
//     runs the hooks Copilot would run for one event (pinta::hosts::copilot load_hooks + plan over
//     the policy folder, COPILOT_HOME (else H/.copilot), the project's sources when it is trusted)
//     with this process's environment as the CLI's, and prints {"loaded":[…],"results":[…],
//     "outcome":{…}} (emulator/hosts/copilot). E is either spelling; the payload is in E's format
//     and is passed byte for byte to the hooks of that format.
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

namespace pinta::hostemu {

namespace {

struct CopilotRunArgs {
  std::string home, project, event, tool, policy_dir;
  bool policy_dir_set = false, trusted = false;
};

int run_copilot(const CopilotRunArgs& a) {
  namespace cp = pinta::hosts::copilot;
  const auto format = cp::event_format(a.event);
  if (!format) return usage_error("copilot run: unknown event " + a.event);
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
  auto plan = cp::plan(*loaded, a.event, tool);
  auto run = pinta::emu::copilot::run_plan(plan, a.event, payload, *format, raw, a.project, env);
  std::cout << pinta::emu::copilot::report_json(plan, run).dump() << "\n";
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
  run->callback([a, &action] { action = [a] { return run_copilot(*a); }; });
}

}  // namespace

// The family's `hostemu` subcommands (registered through families.def, hostemu_main.cc).
void add_commands(CLI::App& app, Action& action) {
  auto* copilot = app.add_subcommand("copilot", "Copilot CLI 1.0.102 host emulator");
  copilot->require_subcommand(1);
  add_run_command(copilot, action);
  add_responses_model_server(copilot, "copilot model-server", action);
}

}  // namespace pinta::hostemu::copilot
