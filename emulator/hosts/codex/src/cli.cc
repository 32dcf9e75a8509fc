// `hostemu codex …`: the Codex CLI 0.171.0 host emulator on the command line.
//   hostemu codex model-server --script turns.json [--port 0] [--log FILE]
//     the scripted OpenAI Responses API server (emulator/model_server/responses_server.h);
//     prints `port N` once listening, runs until SIGINT/SIGTERM. Point a Codex provider's
//     base_url at http://127.0.0.1:N/v1 with wire_api = "responses".
// (The `run` subcommand, the hook engine emulator, is added beside it in add_commands.)
#include <memory>

#include "hostemu_cli.h"
#include "pinta/emulator/responses_server.h"

namespace pinta::hostemu::codex {

namespace {

// `codex model-server`: kept in its own block, apart from `run`.
void add_model_server_command(CLI::App* codex, Action& action) {
  auto* ms = codex->add_subcommand("model-server", "scripted OpenAI Responses API server");
  auto script = std::make_shared<std::string>();
  auto log = std::make_shared<std::string>();
  auto port = std::make_shared<int>(0);
  ms->add_option("--script", *script, "turns.json")->required();
  ms->add_option("--port", *port, "port on 127.0.0.1 (0: any free port)");
  ms->add_option("--log", *log, "append each request as a JSON line to FILE");
  ms->callback([=, &action] {
    action = [=]() -> int {
      auto s = pinta::emu::load_responses_script(*script);
      if (!s) return usage_error("codex model-server: " + s.error().message);
      if (*port < 0 || *port > 65535) return usage_error("codex model-server: --port must be 0..65535");
      return serve_until_signal("codex model-server", [&] {
        return pinta::emu::ResponsesServer::start(std::move(*s), *port, *log);
      });
    };
  });
}

}  // namespace

// The family's `hostemu` subcommands (registered through families.def, hostemu_main.cc).
void add_commands(CLI::App& app, Action& action) {
  auto* codex = app.add_subcommand("codex", "Codex CLI 0.171.0 host emulator");
  codex->require_subcommand(1);
  add_model_server_command(codex, action);
}

}  // namespace pinta::hostemu::codex
