// File: pinta/admin/install.h
// `pinta-gemini install | uninstall` (seed SPEC §3.3): what the installer writes for each
// host, how it merges into files the user already has, and how it takes its changes back out.
// Lives in pinta-gemini-admin, never in the hook process: nothing here is on the hot path.
//
// Every operation is planned first (a list of file changes, each with the text before and after)
// and applied second, so `--dry-run` prints exactly what `apply` would do.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pinta/common/result.h"
#include "pinta/hosts/family.h"

namespace pinta::admin {

// The host families are the registry's (pinta/hosts/family.h): install knows every one.
using Host = pinta::hosts::Family;
// A family by its registry name (pinta/hosts/family.h); kInvalidArgument naming the registry's
// names otherwise.
Result<Host> parse_host(const std::string& name);
// "gemini, antigravity, deel or claude-code": the --host values, for help and errors.
std::string host_choices();

// Two fields are one family's own: gemini_home and deel_home, the homes those hosts read from an
// environment variable of their own (filled by admin_main from the environment, so that install
// itself reads none); a family's file reads them, the shared code only defaults gemini_home.
struct InstallOptions {
  // Required: plan_install and plan_uninstall refuse an unset host (no family is the default).
  std::optional<Host> host;
  std::string home;          // $HOME
  std::string gemini_home;   // Gemini CLI's homedir(): $GEMINI_CLI_HOME, else home
  std::string workspace;     // --workspace DIR: a family's project file (empty: the user file)
  std::string deel_home;     // deel-local-cli's $DEEL_HOME, absolute (empty: ~/.deel)
  std::string adapter_path;  // absolute path of pinta-gemini
  std::string profile_dir;   // Antigravity emulator profiles (verification)
  std::string version;       // the extension manifest's; empty: this build's (pinta::version)
};

// One file the operation creates, rewrites or removes. before/after nullopt = absent.
struct FileChange {
  std::string path;
  std::optional<std::string> before;
  std::optional<std::string> after;
  unsigned mode = 0644;
  bool backup = false;         // copy `before` to path + ".pinta-bak" first (only when none exists)
  bool remove_backup = false;  // uninstall: the backup equals what is restored; drop it
};

struct Plan {
  std::vector<FileChange> changes;       // only files whose content changes
  std::vector<std::string> remove_dirs;  // uninstall: our directories, deepest first (if empty)
  std::vector<std::string> warnings;     // one line each
};

// Errors: kParse (an existing file is not valid JSON / not the shape we can merge into — the file
// is named and left alone), kInvalidArgument (options), kProtocol (the merged file would not load
// under some Antigravity profile while the original did).
Result<Plan> plan_install(const InstallOptions& options);
Result<Plan> plan_uninstall(const InstallOptions& options);

// Writes the plan: backup once, atomic write per file, removals. Stops at the first failure.
Status apply(const Plan& plan);

// Line diff (unified style, whole file as one hunk with context) of every change.
std::string render_diff(const Plan& plan);

// The shell command hosts run for one event (exposed for tests and doctor; each defined in its
// family's src/<folder>.cc, as are the paths below).
std::string gemini_command(const std::string& adapter_path, const std::string& event);
std::string antigravity_command(const std::string& adapter_path, const std::string& event,
                                bool* path_has_space = nullptr);
std::string deel_command(const std::string& adapter_path, const std::string& event);

// Event lists (seed SPEC §3.3; antigravity adds SessionStart where supported).
const std::vector<std::string>& installed_events(Host host);

// Where each host's file lives for `options`.
std::string gemini_extension_dir(const InstallOptions& options);
std::string antigravity_hooks_path(const InstallOptions& options);
// deel-local-cli: <workspace>/.deel/hooks.json, else $DEEL_HOME/hooks.json, else ~/.deel/hooks.json
// (seed 004 hooks.js 프로젝트자리 l.223, 이PC자리 l.231-233).
std::string deel_hooks_path(const InstallOptions& options);

inline constexpr const char* kHookName = "pinta-gemini";

// A word for a POSIX shell command line: single-quoted, quotes inside escaped.
std::string shell_quote(const std::string& s);
// The first word of a hook command with one level of single/double quotes removed, and the rest
// of the command (how install recognises its own hooks and doctor finds the program to check).
std::pair<std::string, std::string> split_command_program(const std::string& cmd);

}  // namespace pinta::admin
