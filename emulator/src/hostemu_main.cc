// hostemu: host emulators on the command line. Each host's subcommands live in <host>_cli.cc.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

#include "pinta/common/version.h"

#include "hostemu_cli.h"

int main(int argc, char** argv) {
  using namespace pinta::hostemu;
  if (argc == 2 && std::string(argv[1]) == "--version") {
    std::cout << pinta::version_line("hostemu");
    return 0;
  }
  CLI::App app{"hostemu: run hooks the way a host does", "hostemu"};
  app.require_subcommand(1);
  Action action;
  add_antigravity_commands(app, action);
  add_gemini_commands(app, action);
  add_deel_commands(app, action);
  add_model_server_commands(app, action);
  add_replay_commands(app, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }
  if (!action) return usage_error("no command");
  try {
    return action();
  } catch (const std::exception& e) {
    return usage_error(std::string("internal error: ") + e.what());
  }
}
