// hostemu: host emulators on the command line. Each host's subcommands live in <host>_cli.cc.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

#include "pinta/common/fs.h"
#include "pinta/common/version.h"

#include "hostemu_cli.h"

namespace pinta::hostemu {

int print_or_check_docs(const std::string& host, const std::string& text,
                        const std::string& check_file) {
  if (check_file.empty()) {
    std::cout << text;
    return 0;
  }
  auto cur = pinta::fs::read_file(check_file);
  if (!cur) return usage_error(check_file + ": " + cur.error().message);
  if (*cur != text) {
    std::cerr << "hostemu: " << check_file << " is stale: regenerate with `hostemu " << host
              << " docs > " << check_file << "`\n";
    return 1;
  }
  return 0;
}

}  // namespace pinta::hostemu

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
  add_lint_commands(app, action);
  add_drift_commands(app, action);
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
