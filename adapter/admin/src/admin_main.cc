// pinta-gemini-admin: install | uninstall | doctor. `pinta-gemini install …` execs this program
// (adapter/src/core/main.cc) so the hook process never links or initialises any of it.
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "pinta/admin/doctor.h"
#include "pinta/admin/install.h"
#include "pinta/common/fs.h"
#include "pinta/common/version.h"

namespace {

int usage(const std::string& msg) {
  std::cerr << "pinta-gemini: " << msg << "\n";
  return 2;
}

std::string help() {
  return "usage: pinta-gemini install   --host HOST [--workspace DIR] [--dry-run]\n"
         "       pinta-gemini uninstall --host HOST [--workspace DIR] [--dry-run]\n"
         "       pinta-gemini doctor [--host HOST] [--json] [--workspace DIR] [--no-network]\n"
         "HOST: " + pinta::admin::host_choices() + "\n"
         "       pinta-gemini install|uninstall|doctor --help\n";
}

// `pinta-gemini CMD --help`: what CMD does and its options.
std::string command_help(const std::string& cmd) {
  if (cmd == "doctor")
    return "usage: pinta-gemini doctor [--host HOST] [--json] [--workspace DIR] [--no-network]\n"
           "Checks that each host would run the hook and that its endpoints answer.\n"
           "  --host HOST     check only this host (" + pinta::admin::host_choices() + ")\n"
           "  --json          print the report as JSON\n"
           "  --workspace DIR the project whose hook files are read (default: the current "
           "directory)\n"
           "  --no-network    do not probe the guard and collector endpoints\n"
           "Exit status: 0 nothing broken, 1 something broken, 2 usage error.\n";
  const bool in = cmd == "install";
  return "usage: pinta-gemini " + cmd +
         " --host HOST [--workspace DIR] [--dry-run] [--adapter PATH]\n" +
         (in ? "Adds the pinta-gemini hooks to the host's hook files (a backup is kept).\n"
             : "Removes exactly the hooks install added.\n") +
         "  --host HOST     " + pinta::admin::host_choices() + "\n"
         "  --workspace DIR the project's hook file instead of the user's\n"
         "  --dry-run       print the change as a diff and write nothing\n"
         "  --adapter PATH  the hook program (default: pinta-gemini next to this program)\n"
         "Exit status: 0 done, 2 usage or file error.\n";
}

std::string self_dir() {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  buf[n] = 0;
  return pinta::fs::dirname(buf);
}

std::string env(const char* n) {
  const char* v = std::getenv(n);
  return v ? v : "";
}

std::string absolute(const std::string& p) {
  char buf[PATH_MAX];
  if (::realpath(p.c_str(), buf)) return buf;
  return p;
}

// The options of install, uninstall and doctor.
struct Options {
  std::string host, workspace, adapter;
  bool dry_run = false, as_json = false, network = true;
};

// Reads args[1…] into `o`; "" or what is wrong with them.
std::string parse_options(const std::string& cmd, const std::vector<std::string>& args, Options& o) {
  using pinta::admin::host_choices;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= args.size()) return false;
      out = args[++i];
      return true;
    };
    if (a == "--host") {
      if (!value(o.host))
        return "--host needs a value (" + host_choices() + ")";
    } else if (a == "--workspace") {
      if (!value(o.workspace)) return "--workspace needs a directory";
    } else if (a == "--adapter") {
      if (!value(o.adapter)) return "--adapter needs a path";
    } else if (a == "--dry-run") {
      o.dry_run = true;
    } else if (a == "--json") {
      o.as_json = true;
    } else if (a == "--no-network") {
      o.network = false;
    } else {
      return "unknown option " + a + " for " + cmd;
    }
  }
  return "";
}

int doctor_command(const Options& opts, const std::string& home) {
  using namespace pinta::admin;
  DoctorOptions o;
  o.home = home;
  o.gemini_home = env("GEMINI_CLI_HOME").empty() ? home : env("GEMINI_CLI_HOME");
  char cwd[PATH_MAX];
  o.workspace =
      !opts.workspace.empty() ? absolute(opts.workspace) : (::getcwd(cwd, sizeof cwd) ? cwd : home);
  o.probe_network = opts.network;
  if (!opts.host.empty()) {
    auto h = parse_host(opts.host);
    if (!h) return usage(h.error().message);
    o.host = std::string(pinta::hosts::descriptor(*h).name);
  }
  DoctorReport r = run_doctor(o);
  if (opts.as_json)
    std::cout << r.to_json().dump(2) << "\n";
  else
    std::cout << r.to_text();
  return r.broken() ? 1 : 0;
}

// install or uninstall: the plan, shown (--dry-run) or applied.
int install_command(const std::string& cmd, const Options& opts, const std::string& home) {
  using namespace pinta::admin;
  if (opts.host.empty()) return usage(cmd + " needs --host " + pinta::hosts::family_names("|"));
  auto h = parse_host(opts.host);
  if (!h) return usage(h.error().message);
  std::string adapter = opts.adapter;
  if (adapter.empty()) adapter = pinta::fs::join(self_dir(), "pinta-gemini");
  adapter = absolute(adapter);
  if (::access(adapter.c_str(), X_OK) != 0)
    return usage("adapter " + adapter + " is not an executable");

  InstallOptions o;
  o.host = *h;
  o.home = home;
  o.gemini_home = env("GEMINI_CLI_HOME").empty() ? home : env("GEMINI_CLI_HOME");
  o.workspace = opts.workspace.empty() ? "" : absolute(opts.workspace);
  // deel-local-cli resolves DEEL_HOME against its working directory (seed 004 l.232); so do we.
  o.deel_home = env("DEEL_HOME");
  if (!o.deel_home.empty() && o.deel_home[0] != '/') {
    char cwd[PATH_MAX];
    if (::getcwd(cwd, sizeof cwd)) o.deel_home = pinta::fs::join(cwd, o.deel_home);
  }
  o.adapter_path = adapter;
  auto plan = cmd == "install" ? plan_install(o) : plan_uninstall(o);
  if (!plan) return usage(plan.error().message);
  for (const auto& w : plan->warnings) std::cerr << "pinta-gemini: warning: " << w << "\n";
  if (opts.dry_run) {
    std::cout << render_diff(*plan);
    if (plan->changes.empty()) std::cout << "(no changes)\n";
    return 0;
  }
  if (auto s = apply(*plan); !s) return usage(s.error().message);
  if (plan->changes.empty())
    std::cout << cmd << ": nothing to change\n";
  else
    for (const auto& c : plan->changes)
      std::cout << (c.after ? (c.before ? "updated " : "created ") : "removed ") << c.path << "\n";
  // When the host reads its hook files (the family's ConfigFiles::after_install).
  if (const std::string_view next = pinta::hosts::descriptor(*h).config.after_install;
      cmd == "install" && !next.empty())
    std::cout << next << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && args[0] == "--version") {
    std::cout << pinta::version_line("pinta-gemini-admin");
    return 0;
  }
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << help();
    return args.empty() ? 2 : 0;
  }
  const std::string cmd = args[0];
  if (cmd != "install" && cmd != "uninstall" && cmd != "doctor")
    return usage("unknown subcommand " + cmd + " (install, uninstall, doctor; --help for more)");
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::cout << command_help(cmd);
      return 0;
    }
    // An option's value is not an option ("--workspace --help" names a directory).
    if (args[i] == "--host" || args[i] == "--workspace" || args[i] == "--adapter") ++i;
  }
  Options opts;
  if (std::string bad = parse_options(cmd, args, opts); !bad.empty()) return usage(bad);
  std::string home = env("HOME");
  if (home.empty()) return usage("HOME is not set");
  return cmd == "doctor" ? doctor_command(opts, home) : install_command(cmd, opts, home);
}
