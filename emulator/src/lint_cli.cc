// `hostemu lint [--host H] PATH...` and `hostemu explain --host H --home D --event E …`: users'
// hook files checked through the hosts' loaders (hosts/lint, docs/lint.md).
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "hostemu_cli.h"
#include "pinta/hostlint/lint.h"

namespace hl = pinta::hostlint;

namespace pinta::hostemu {
namespace {

bool parse_yes_no(const std::string& v, std::optional<bool>& out) {
  if (v.empty()) return true;
  if (v == "yes" || v == "true")
    out = true;
  else if (v == "no" || v == "false")
    out = false;
  else
    return false;
  return true;
}

}  // namespace

void add_lint_commands(CLI::App& app, Action& action) {
  struct Opts {
    std::string host, format = "text", home, workspace, profiles_dir, deel_trusted;
    std::vector<std::string> paths, profiles;
    std::string event, tool, profile;
    std::string color = "auto";
  };
  auto o = std::make_shared<Opts>();
  auto* lint = app.add_subcommand(
      "lint", "check hook files the way each host reads them; exit 1 on any error (docs/lint.md)");
  lint->add_option("--host", o->host, hl::host_names() + " (default: from the path or shape)");
  lint->add_option("--format", o->format, "text|json|github")->capture_default_str();
  lint->add_option("--home", o->home,
                   "home directory for the user layer and trust files "
                   "(default $HOME)");
  lint->add_option("--workspace", o->workspace,
                   "workspace for a user file's duplicate check (a project file names its own)");
  lint->add_option("--profile", o->profiles,
                   "Antigravity profile to check (repeatable; "
                   "default every profile)");
  lint->add_option("--profiles-dir", o->profiles_dir, "Antigravity profile directory");
  lint->add_option("--deel-trusted", o->deel_trusted,
                   "yes|no: whether deel-local-cli trusts the project folder (default unknown)");
  lint->add_option("--color", o->color,
                   "auto|always|never: colour the text format (auto: only on a terminal, and not "
                   "with NO_COLOR set)")
      ->capture_default_str();
  lint->add_option("PATH", o->paths, "hook files (settings.json, settings.local.json, hooks.json)")
      ->required();
  lint->callback([o, &action] {
    action = [o]() -> int {
      hl::LintOptions lo;
      if (!o->host.empty()) {
        lo.host = hl::parse_host(o->host);
        if (!lo.host)
          return usage_error("unknown --host '" + o->host + "' (" + hl::host_names() + ")");
      }
      if (o->format != "text" && o->format != "json" && o->format != "github")
        return usage_error("unknown --format '" + o->format + "' (text|json|github)");
      if (!parse_yes_no(o->deel_trusted, lo.deel_trusted))
        return usage_error("--deel-trusted takes yes or no");
      lo.home = o->home;
      lo.workspace = o->workspace;
      lo.profiles = o->profiles;
      lo.profiles_dir = o->profiles_dir;
      auto findings = hl::lint_paths(o->paths, lo);
      if (!findings) return usage_error(findings.error().message);
      if (o->color != "auto" && o->color != "always" && o->color != "never")
        return usage_error("unknown --color '" + o->color + "' (auto|always|never)");
      const char* no_color = std::getenv("NO_COLOR");  // NOLINT(concurrency-mt-unsafe)
      const char* term = std::getenv("TERM");          // NOLINT(concurrency-mt-unsafe)
      const bool color =
          o->format == "text" &&
          (o->color == "always" ||
           (o->color == "auto" && ::isatty(STDOUT_FILENO) && !(no_color && *no_color) &&
            !(term && std::string(term) == "dumb")));
      std::cout << hl::format_findings(*findings, color ? "text-color" : o->format);
      return hl::any_error(*findings) ? 1 : 0;
    };
  });

  auto* ex = app.add_subcommand(
      "explain",
      "list the hooks a host runs for an event, in order, with layer, file:line, "
      "timeout and what a failure does");
  ex->add_option("--host", o->host, hl::host_names())->required();
  ex->add_option("--home", o->home, "home directory the host reads")->required();
  ex->add_option("--workspace", o->workspace, "workspace (the host's cwd / open folder)");
  ex->add_option("--event", o->event, "event name (the host's own spelling)")->required();
  ex->add_option("--tool", o->tool, "tool name for tool events");
  ex->add_option("--profile", o->profile, "Antigravity profile (default every profile)");
  ex->add_option("--profiles-dir", o->profiles_dir, "Antigravity profile directory");
  ex->add_option("--deel-trusted", o->deel_trusted,
                 "yes|no: deel-local-cli trusts the workspace (default no)");
  ex->add_option("--format", o->format, "text|json")->capture_default_str();
  ex->callback([o, &action] {
    action = [o]() -> int {
      hl::ExplainRequest rq;
      auto h = hl::parse_host(o->host);
      if (!h) return usage_error("unknown --host '" + o->host + "' (" + hl::host_names() + ")");
      if (o->format != "text" && o->format != "json")
        return usage_error("unknown --format '" + o->format + "' (text|json)");
      if (!parse_yes_no(o->deel_trusted, rq.deel_trusted))
        return usage_error("--deel-trusted takes yes or no");
      rq.host = *h;
      rq.home = o->home;
      rq.workspace = o->workspace;
      rq.event = o->event;
      rq.tool = o->tool;
      rq.profile = o->profile;
      hl::LintOptions lo;
      lo.profiles_dir = o->profiles_dir;
      auto r = hl::explain(rq, lo);
      if (!r) return usage_error(r.error().message);
      std::cout << hl::format_explain(*r, o->format);
      return 0;
    };
  });
}

}  // namespace pinta::hostemu
