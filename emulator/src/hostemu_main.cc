// hostemu: host emulators on the command line. Each host's subcommands live in <host>_cli.cc.
#include <CLI/CLI.hpp>

#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

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

namespace {

// What CLI11 would check during parsing, checked afterwards instead, so that a word or option
// nobody knows is what a bad command line is told about ("unknown subcommand frob", "unknown
// option --bogus") rather than "A subcommand is required" or "--adapter is required".
struct Deferred {
  std::map<const CLI::App*, size_t> needs_subcommand;  // app → its minimum (≥ 1)
  std::vector<std::pair<const CLI::App*, const CLI::Option*>> required;
};

void defer_checks(CLI::App* app, Deferred& d) {
  app->allow_extras();
  if (app->get_require_subcommand_min() > 0) {
    d.needs_subcommand[app] = app->get_require_subcommand_min();
    app->require_subcommand(0, app->get_require_subcommand_max());
  }
  for (CLI::Option* o : app->get_options([](const CLI::Option* x) { return x->get_required(); })) {
    o->required(false);
    d.required.emplace_back(app, o);
  }
  for (CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; })) defer_checks(sub, d);
}

// The names of an app's subcommands, for a message ("run, docs").
std::string subcommand_names(CLI::App* app) {
  std::string out;
  for (CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; }))
    out += (out.empty() ? "" : ", ") + sub->get_name();
  return out;
}

// "" when the parsed command line is complete, else the one line to print.
std::string deferred_error(CLI::App* app, const Deferred& d) {
  std::string path = "hostemu";
  for (CLI::App* at = app;;) {
    if (at != app) path += " " + at->get_name();
    const auto extras = at->remaining();
    const auto chosen = at->get_subcommands();
    const bool needs = d.needs_subcommand.count(at) > 0;
    if (!extras.empty()) {
      const std::string& w = extras.front();
      if (!w.empty() && w[0] == '-') return "unknown option " + w + " for " + path;
      if (needs && chosen.empty())
        return "unknown subcommand " + w + " for " + path + " (" + subcommand_names(at) + ")";
      return "unexpected argument " + w + " for " + path;
    }
    for (const auto& [owner, opt] : d.required)
      if (owner == at && opt->count() == 0) return path + ": " + opt->get_name() + " is required";
    if (chosen.empty()) {
      if (needs)
        return (at == app ? std::string("a subcommand is required")
                          : "`" + path + "` needs a subcommand") +
               " (" + subcommand_names(at) + "; --help for more)";
      return "";
    }
    at = chosen.front();
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace pinta::hostemu;
  if (argc == 2 && std::string(argv[1]) == "--version") {
    std::cout << pinta::version_line("hostemu");
    return 0;
  }
  CLI::App app{"hostemu: run hooks the way a host does", "hostemu"};
  app.require_subcommand(1);
  Action action;
#define PINTA_FAMILY(Id, folder, name) pinta::hostemu::folder::add_commands(app, action);
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY
  add_model_server_commands(app, action);
  add_replay_commands(app, action);
  add_lint_commands(app, action);
  Deferred deferred;
  defer_checks(&app, deferred);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }
  if (auto why = deferred_error(&app, deferred); !why.empty()) return usage_error(why);
  if (!action) return usage_error("no command");
  try {
    return action();
  } catch (const std::exception& e) {
    return usage_error(std::string("internal error: ") + e.what());
  }
}
