// pinta-fake-server --script FILE.json [--port-file F] [--log FILE]
// Serves a FakeServer script on 127.0.0.1 (port 0) until SIGTERM/SIGINT, for shell benchmarks and
// the conformance suite. The port goes to --port-file (written atomically: tmp + rename) and to
// stdout as "port N"; every request is appended to --log as one JSON line when it arrives.
#include <signal.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>

#include "pinta/common/version.h"
#include "pinta/fakes/fake_server.h"

namespace {

int fail(const std::string& message) {
  std::fprintf(stderr, "pinta-fake-server: %s\n", message.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--version") {
    std::cout << pinta::version_line("pinta-fake-server");
    return 0;
  }
  std::string script_path, port_file, log_path;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << "usage: pinta-fake-server --script FILE.json [--port-file F] [--log FILE]\n"
                   "Serves a scripted fake guard or OTLP collector on 127.0.0.1 (port 0) until\n"
                   "SIGTERM/SIGINT. The script is {\"replies\":[REPLY...],\"fallback\":REPLY}; a REPLY\n"
                   "is {\"status\",\"body\",\"contentType\",\"headers\",\"delayMs\",\"neverAnswer\",\n"
                   "\"closeWithoutReply\",\"raw\"}. Prints \"port N\" (also to --port-file) and logs\n"
                   "each request as one JSON line to --log.\n";
      return 0;
    }
    std::string* target = arg == "--script"      ? &script_path
                          : arg == "--port-file" ? &port_file
                          : arg == "--log"       ? &log_path
                                                 : nullptr;
    if (target == nullptr)
      return fail("unknown argument '" + arg +
                  "' (usage: --script FILE.json [--port-file F] [--log FILE])");
    if (i + 1 >= argc) return fail(arg + " needs a value");
    *target = argv[++i];
  }
  if (script_path.empty()) return fail("--script FILE.json is required");

  std::ifstream in(script_path, std::ios::binary);
  if (!in) return fail("cannot read script '" + script_path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, false);
  if (j.is_discarded()) return fail("script '" + script_path + "' is not valid JSON");
  std::vector<pinta::fakes::Reply> replies;
  pinta::fakes::Reply fallback;
  std::string error;
  if (!pinta::fakes::script_from_json(j, replies, fallback, error))
    return fail(script_path + ": " + error);

  std::FILE* log = nullptr;
  if (!log_path.empty()) {
    log = std::fopen(log_path.c_str(), "a");
    if (log == nullptr) return fail("cannot open log '" + log_path + "'");
  }

  // Block the stop signals before any server thread exists, so only sigwait below receives them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  pinta::fakes::FakeServer server(std::move(replies), std::move(fallback));
  if (server.port() <= 0) return fail("cannot listen on 127.0.0.1");
  std::mutex log_mu;
  if (log != nullptr) {
    server.set_observer([&](const pinta::fakes::Recorded& r, size_t index) {
      std::string line = pinta::fakes::recorded_to_json(r, index).dump() + "\n";
      std::lock_guard<std::mutex> lock(log_mu);
      std::fwrite(line.data(), 1, line.size(), log);
      std::fflush(log);
    });
  }
  if (!port_file.empty()) {
    std::string tmp = port_file + ".tmp";
    {
      std::ofstream out(tmp, std::ios::trunc);
      out << server.port() << "\n";
      if (!out) return fail("cannot write port file '" + tmp + "'");
    }
    if (std::rename(tmp.c_str(), port_file.c_str()) != 0)
      return fail("cannot write port file '" + port_file + "'");
  }
  std::printf("port %d\n", server.port());
  std::fflush(stdout);

  int sig = 0;
  sigwait(&stop_signals, &sig);
  server.stop();
  if (log != nullptr) {
    std::lock_guard<std::mutex> lock(log_mu);
    std::fclose(log);
  }
  return 0;
}
