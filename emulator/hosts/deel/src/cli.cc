// `hostemu deel …`: the deel-local-cli 1.17.1 hook host emulator on the command line.
//   run  --home H --workspace W --event E [--tool T] [--trusted] [--no-hooks] [--env K=V]...
//        < payload.json   — load, pick and run hooks as deel does; prints one JSON object
//   docs [--check FILE]   — docs/hosts/deel-local-cli-1.17.md
#include <filesystem>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "hostemu_cli.h"
#include "pinta/common/fs.h"
#include "pinta/common/process.h"
#include "pinta/emulator/deel/deel.h"

extern char** environ;  // NOLINT

namespace demu = pinta::emu::deel;

namespace pinta::hostemu {

}  // namespace pinta::hostemu

namespace pinta::hostemu::deel {

// The family's `hostemu` subcommands (registered through families.def, hostemu_main.cc).
void add_commands(CLI::App& app, Action& action) {
  struct Opts {
    std::string home, workspace, event, tool, check_file;
    bool tool_set = false, trusted = false, no_hooks = false;
    std::vector<std::string> env;
    CLI::App* run_cmd = nullptr;
    CLI::App* docs_cmd = nullptr;
    CLI::Option* tool_opt = nullptr;
  };
  auto o = std::make_shared<Opts>();
  auto* d = app.add_subcommand("deel", "deel-local-cli 1.17 host emulator");
  d->require_subcommand(1);
  o->run_cmd = d->add_subcommand("run", "load hooks.json files and run one event's hooks");
  o->run_cmd->add_option("--home", o->home, "home directory (homedir(), ~/.deel)")->required();
  o->run_cmd->add_option("--workspace", o->workspace, "workspace (root and cwd)")->required();
  o->run_cmd
      ->add_option("--event", o->event,
                   "PreToolUse|PostToolUse|UserPromptSubmit|Stop or 도구전|도구후|말전|턴끝")
      ->required();
  o->tool_opt = o->run_cmd->add_option("--tool", o->tool, "tool name (도구)");
  o->run_cmd->add_flag("--trusted", o->trusted, "the workspace is a trusted folder");
  o->run_cmd->add_flag("--no-hooks", o->no_hooks, "deel --no-hooks");
  o->run_cmd->add_option("--env", o->env, "K=V seen by the loader only (DEEL_HOME, DEEL_HOOKS)");
  o->docs_cmd = d->add_subcommand("docs", "print docs/hosts/deel-local-cli-1.17.md");
  o->docs_cmd->add_option("--check", o->check_file, "compare with FILE; exit 1 when stale");

  d->final_callback([o, &action] {
    action = [o]() -> int {
      if (*o->docs_cmd) {
        return print_or_check_docs("deel", demu::render_docs(), o->check_file);
      }
      static const std::vector<std::pair<std::string, std::string>> events = {
          {"PreToolUse", "도구전"},
          {"PostToolUse", "도구후"},
          {"UserPromptSubmit", "말전"},
          {"Stop", "턴끝"}};
      std::string korean;
      for (const auto& [en, ko] : events)
        if (o->event == en || o->event == ko) korean = ko;
      if (korean.empty()) return usage_error("unknown event '" + o->event + "'");
      demu::LoadRequest rq;
      for (const auto& kv : o->env) {
        auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0)
          return usage_error("--env wants K=V, got '" + kv + "'");
        rq.env[kv.substr(0, eq)] = kv.substr(eq + 1);
      }
      std::error_code ec;
      if (!std::filesystem::is_directory(o->workspace, ec))
        return usage_error("--workspace " + o->workspace + " is not a directory");
      std::string input((std::istreambuf_iterator<char>(std::cin)),
                        std::istreambuf_iterator<char>());
      demu::ojson payload = demu::ojson::object();
      if (input.find_first_not_of(" \t\r\n") != std::string::npos) {
        payload = demu::ojson::parse(input, nullptr, false);
        if (payload.is_discarded()) return usage_error("stdin: the payload is not JSON");
      }
      // deel runs in the workspace: root = W, process.cwd() = W.
      std::filesystem::current_path(o->workspace, ec);
      if (ec) return usage_error("cannot enter --workspace " + o->workspace + ": " + ec.message());
      rq.cwd = std::filesystem::current_path(ec).string();
      rq.workspace = o->workspace;
      rq.home = o->home;
      rq.trusted = o->trusted;
      rq.no_hooks = o->no_hooks;
      auto loaded = demu::load(rq);
      // Hooks inherit the host's environment; the host's home is H.
      // process.env.HOME = H: replaced in place (or appended), the parent's order kept.
      demu::EnvPairs env;
      bool home_set = false;
      for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        std::string kv(*e);
        auto eq = kv.find('=');
        if (eq == std::string::npos) continue;
        std::string k = kv.substr(0, eq);
        if (k == "HOME") {
          if (home_set) continue;
          home_set = true;
          env.emplace_back(k, o->home);
        } else {
          env.emplace_back(k, kv.substr(eq + 1));
        }
      }
      if (!home_set) env.emplace_back("HOME", o->home);
      auto spawner = pinta::proc::make_spawner();
      std::optional<std::string> tool;
      if (o->tool_opt->count()) tool = o->tool;
      auto outcome = demu::run_event(loaded.hooks, korean, tool, payload, *spawner, env);
      std::cout << demu::report_json(loaded, &outcome) << "\n";
      return 0;
    };
  });
}

}  // namespace pinta::hostemu::deel
