// `hostemu claude …`: the Claude Code 2.1.332 host emulator on the command line.
//   hostemu claude run --home H --project P --event E [--tool T] [--settings F]... < payload.json
//     runs the hooks Claude Code would run for one event and prints
//     {"loaded":[…],"results":[…],"outcome":{…}} (emulator/hosts/claude).
//   hostemu claude model-server --script turns.json [--port 0] [--log FILE]
//     the scripted Anthropic Messages API server (emulator/model_server/messages_server.h);
//     prints `port N` once listening, runs until SIGINT/SIGTERM.
#include <signal.h>

#include <iostream>
#include <iterator>
#include <memory>

#include "hostemu_cli.h"
#include "pinta/emulator/claude/claude.h"
#include "pinta/emulator/messages_server.h"

namespace pinta::hostemu {

namespace {

struct RunArgs {
  std::string home, project, event, tool;
  std::vector<std::string> settings;
};

int run_claude(const RunArgs& a) {
  namespace cl = pinta::hosts::claude;
  if (!cl::is_event(a.event)) return usage_error("claude run: unknown event " + a.event);
  std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  auto payload = nlohmann::json::parse(input, nullptr, false);
  if (payload.is_discarded() || !payload.is_object())
    return usage_error("claude run: stdin is not a JSON object");
  // The hooks read the host's bytes; nested objects the host does not order (tool_input) keep
  // the order given.
  const std::string bytes = cl::stdin_bytes(nlohmann::ordered_json::parse(input));
  cl::SettingsSources src;
  src.home = a.home;
  src.project = a.project;
  src.extra = a.settings;
  auto loaded = cl::load_settings(src);
  if (!loaded) return usage_error("claude run: " + loaded.error().message);
  auto plan = a.tool.empty() ? cl::plan_for(*loaded, a.event, payload)
                             : cl::plan(*loaded, a.event, a.tool);
  auto env = pinta::emu::claude::hook_environment(a.project, payload);
  auto run = pinta::emu::claude::run_plan(plan, a.event, payload, bytes, a.project, env);
  pinta::emu::claude::warn_once_per_session(run.outcome, a.project, payload);
  std::cout << pinta::emu::claude::report_json(plan, run).dump() << "\n";
  return 0;
}

}  // namespace

}  // namespace pinta::hostemu

namespace pinta::hostemu::claude {

// The family's `hostemu` subcommands (registered through families.def, hostemu_main.cc).
void add_commands(CLI::App& app, Action& action) {
  auto* claude = app.add_subcommand("claude", "Claude Code 2.1.332 host emulator");
  claude->require_subcommand(1);
  auto a = std::make_shared<RunArgs>();
  auto* run = claude->add_subcommand("run", "run the hooks of one event as Claude Code does");
  run->add_option("--home", a->home, "home directory (~/.claude/settings.json)")->required();
  run->add_option("--project", a->project, "project directory (.claude/settings*.json)")->required();
  run->add_option("--event", a->event, "hook event name, e.g. PreToolUse")->required();
  run->add_option("--tool", a->tool, "matcher target (tool name; default: from the payload)");
  run->add_option("--settings", a->settings, "extra settings file (--settings), repeatable");
  run->callback([a, &action] { action = [a] { return run_claude(*a); }; });

  auto* ms = claude->add_subcommand("model-server", "scripted Anthropic Messages API server");
  auto script = std::make_shared<std::string>();
  auto log = std::make_shared<std::string>();
  auto port = std::make_shared<int>(0);
  ms->add_option("--script", *script, "turns.json")->required();
  ms->add_option("--port", *port, "port on 127.0.0.1 (0: any free port)");
  ms->add_option("--log", *log, "append each request as a JSON line to FILE");
  ms->callback([=, &action] {
    action = [=]() -> int {
      auto s = pinta::emu::load_messages_script(*script);
      if (!s) return usage_error("claude model-server: " + s.error().message);
      if (*port < 0 || *port > 65535) return usage_error("claude model-server: --port must be 0..65535");
      return serve_until_signal("claude model-server", [&] {
        return pinta::emu::MessagesServer::start(std::move(*s), *port, *log);
      });
    };
  });
}

}  // namespace pinta::hostemu::claude
