// File: emulator/src/hostemu_cli.h
// Each host registers its `hostemu <host> …` subcommands here; the chosen subcommand leaves its
// work in `action`, which main() runs after parsing. One file per host keeps hosts independent.
#pragma once

#include <CLI/CLI.hpp>
#include <pthread.h>
#include <signal.h>

#include <functional>
#include <iostream>
#include <string>

namespace pinta::hostemu {

using Action = std::function<int()>;

// One line on stderr naming the problem, exit status 2 (usage or input error).
inline int usage_error(const std::string& msg) {
  std::string line = msg;
  for (auto& c : line)
    if (c == '\n') c = ' ';
  std::cerr << "hostemu: " << line << "\n";
  return 2;
}

// `hostemu <host> docs [--check FILE]`: print the generated host document, or compare FILE with
// it (exit 1 and one line saying how to regenerate when stale). Defined in hostemu_main.cc.
int print_or_check_docs(const std::string& host, const std::string& text,
                        const std::string& check_file);

// A scripted model server in the foreground (`hostemu model-server`, `hostemu claude
// model-server`): blocks SIGINT and SIGTERM in every thread, starts the server with `start()` (a
// Result of a server with port() and stop()), prints "port N" and serves until one of them
// arrives. `who` prefixes an error line.
template <typename Start>
int serve_until_signal(const std::string& who, Start start) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  auto server = start();
  if (!server) return usage_error(who + ": " + server.error().message);
  std::cout << "port " << (*server)->port() << std::endl;
  int sig = 0;
  sigwait(&set, &sig);
  (*server)->stop();
  return 0;
}

// `hostemu <family> model-server --script turns.json [--port 0] [--log FILE]` for a family whose
// CLI speaks the OpenAI Responses API: one command for every such family (the server and its
// checks are pinta::emu::start_responses_script, emulator/model_server). `who` prefixes errors.
void add_responses_model_server(CLI::App* family, const std::string& who, Action& action);

void add_model_server_commands(CLI::App& app, Action& action);
// `hostemu replay`: fixtures through an adapter as one host would run it (replay_cli.cc).
void add_replay_commands(CLI::App& app, Action& action);
// `hostemu lint` and `hostemu explain`: every host's hook files (lint_cli.cc).
void add_lint_commands(CLI::App& app, Action& action);

// A family's own subcommands (emulator/hosts/<folder>/src/cli.cc), registered through
// families.def: a family without them does not link.
#define PINTA_FAMILY(Id, folder, name) \
  namespace folder {                   \
  void add_commands(CLI::App& app, Action& action); \
  }
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY

}  // namespace pinta::hostemu
