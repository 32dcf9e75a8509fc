// `hostemu codex …`: the Codex CLI 0.171.0 host emulator on the command line.
//   hostemu codex run --codex-home H --project P --event E [--tool T] [--bypass-trust]
//       [--project-trusted] < payload.json
//     runs the hooks Codex would run for one event (pinta::hosts::codex load_hooks + plan) and
//     prints {"loaded":[…],"results":[…],"outcome":{…}} (emulator/hosts/codex).
//   hostemu codex model-server --script turns.json [--port 0] [--log FILE]
//     the scripted OpenAI Responses API server (emulator/model_server/responses_server.h, the
//     command shared with Copilot: add_responses_model_server, emulator/src/hostemu_cli.h);
//     prints `port N` once listening, runs until SIGINT/SIGTERM. Point a Codex provider's
//     base_url at http://127.0.0.1:N/v1 with wire_api = "responses".
// One function per subcommand, each called from add_commands.
#include <iostream>
#include <iterator>
#include <memory>

#include "hostemu_cli.h"
#include "pinta/common/process.h"
#include "pinta/emulator/codex/codex.h"

namespace pinta::hostemu {

namespace {

struct CodexRunArgs {
  std::string codex_home, project, event, tool;
  bool bypass_trust = false, project_trusted = false;
};

int run_codex(const CodexRunArgs& a) {
  namespace cx = pinta::hosts::codex;
  if (!cx::is_event(a.event)) return usage_error("codex run: unknown event " + a.event);
  std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  // Ordered: the objects the host passes through (the tool input) keep the given order.
  auto payload = nlohmann::ordered_json::parse(input, nullptr, false);
  if (payload.is_discarded() || !payload.is_object())
    return usage_error("codex run: stdin is not a JSON object");
  cx::Sources src;
  src.codex_home = a.codex_home;
  src.project = a.project;
  src.project_trusted = a.project_trusted;
  src.bypass_trust = a.bypass_trust;
  auto loaded = cx::load_hooks(src);
  if (!loaded) return usage_error("codex run: " + loaded.error().message);
  for (const auto& w : loaded->warnings) std::cerr << "codex run: warning: " << w << "\n";
  // The matcher target: the tool on tool events; SessionStart's source, the compact trigger and
  // the subagent's agent_type elsewhere (CXSRC dispatcher.rs select_handlers_for_matcher_inputs).
  std::string target = a.tool;
  auto field = [&](const char* k) {
    return payload.contains(k) && payload[k].is_string() ? payload[k].get<std::string>()
                                                         : std::string();
  };
  if (target.empty()) {
    if (a.event == "PreToolUse" || a.event == "PermissionRequest" || a.event == "PostToolUse")
      target = field("tool_name");
    else if (a.event == "SessionStart")
      target = field("source");
    else if (a.event == "PreCompact" || a.event == "PostCompact")
      target = field("trigger");
    else if (a.event == "SubagentStart" || a.event == "SubagentStop")
      target = field("agent_type");
  }
  auto plan = cx::plan(*loaded, a.event, target, a.bypass_trust);
  const std::string cwd = field("cwd").empty() ? a.project : field("cwd");
  auto run = pinta::emu::codex::run_plan(plan, a.event, payload, cwd,
                                         pinta::proc::current_environment());
  std::cout << pinta::emu::codex::report_json(plan, run).dump() << "\n";
  return 0;
}

}  // namespace

}  // namespace pinta::hostemu

namespace pinta::hostemu::codex {

namespace {

// `codex run`: kept in its own block.
void add_run_command(CLI::App* codex, Action& action) {
  auto a = std::make_shared<CodexRunArgs>();
  auto* run = codex->add_subcommand("run", "run the hooks of one event as Codex does");
  run->add_option("--codex-home", a->codex_home, "CODEX_HOME (hooks.json, config.toml)")
      ->required();
  run->add_option("--project", a->project, "project root (.codex/hooks.json, .codex/config.toml)")
      ->required();
  run->add_option("--event", a->event, "hook event name, e.g. PreToolUse")->required();
  run->add_option("--tool", a->tool, "matcher target (default: from the payload)");
  run->add_flag("--bypass-trust", a->bypass_trust,
                "run untrusted hooks too (--dangerously-bypass-hook-trust)");
  run->add_flag("--project-trusted", a->project_trusted,
                "read the project's .codex/ layer (a trusted project)");
  run->callback([a, &action] { action = [a] { return run_codex(*a); }; });
}

}  // namespace

// The family's `hostemu` subcommands (registered through families.def, hostemu_main.cc).
void add_commands(CLI::App& app, Action& action) {
  auto* codex = app.add_subcommand("codex", "Codex CLI 0.171.0 host emulator");
  codex->require_subcommand(1);
  add_run_command(codex, action);
  add_responses_model_server(codex, "codex model-server", action);
}

}  // namespace pinta::hostemu::codex
