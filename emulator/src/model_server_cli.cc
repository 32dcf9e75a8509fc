// `hostemu model-server --script turns.json [--port 0] [--log FILE]`: the scripted Gemini API
// server (emulator/model_server). Prints `port N` on stdout once listening; runs until SIGINT or
// SIGTERM. Point Gemini CLI (or agy's API-key provider) at it with GOOGLE_GEMINI_BASE_URL.
#include <signal.h>

#include <iostream>
#include <memory>

#include "hostemu_cli.h"
#include "pinta/emulator/model_server.h"
#include "pinta/emulator/responses_server.h"

namespace pinta::hostemu {

void add_model_server_commands(CLI::App& app, Action& action) {
  auto* cmd =
      app.add_subcommand("model-server", "scripted Gemini streamGenerateContent?alt=sse server");
  auto script = std::make_shared<std::string>();
  auto log = std::make_shared<std::string>();
  auto api_key = std::make_shared<std::string>();
  auto port = std::make_shared<int>(0);
  cmd->add_option("--script", *script, "turns.json")->required();
  cmd->add_option("--port", *port, "port on 127.0.0.1 (0: any free port)");
  cmd->add_option("--log", *log, "append each request as a JSON line to FILE");
  cmd->add_option("--api-key", *api_key, "required x-goog-api-key (overrides the script's apiKey)");
  cmd->callback([=, &action] {
    action = [=]() -> int {
      auto s = pinta::emu::load_model_script(*script);
      if (!s) return usage_error("model-server: " + s.error().message);
      if (!api_key->empty()) s->api_key = *api_key;
      if (*port < 0 || *port > 65535) return usage_error("model-server: --port must be 0..65535");
      return serve_until_signal("model-server", [&] {
        return pinta::emu::ModelServer::start(std::move(*s), *port, *log);
      });
    };
  });
}

void add_responses_model_server(CLI::App* family, const std::string& who, Action& action) {
  auto* cmd = family->add_subcommand("model-server", "scripted OpenAI Responses API server");
  auto script = std::make_shared<std::string>();
  auto log = std::make_shared<std::string>();
  auto port = std::make_shared<int>(0);
  cmd->add_option("--script", *script, "turns.json")->required();
  cmd->add_option("--port", *port, "port on 127.0.0.1 (0: any free port)");
  cmd->add_option("--log", *log, "append each request as a JSON line to FILE");
  cmd->callback([=, &action] {
    action = [=]() -> int {
      return serve_until_signal(
          who, [&] { return pinta::emu::start_responses_script(*script, *port, *log); });
    };
  });
}

}  // namespace pinta::hostemu
