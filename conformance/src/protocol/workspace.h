// Where the protocol profile runs a hook (internal to pinta::conformance): the folder its host runs
// it in and what the host resolves in it. A grade must not change the author's tree, so by default
// the hooks run in a copy of the project (ProtocolOptions::in_place: in the project itself); a
// plugin's or extension's folder variables name the author's real folder at load time and the
// copy at run time (map()), the way the host names the folder it installed.
//
// The project a config belongs to (project_root): the parent of a host's project folder
// (.gemini/settings.json, .claude/settings.json, .github/hooks/x.json; the current directory for
// one in the user's home), the root of a Gemini extension or a plugin (gemini-extension.json,
// .claude-plugin/plugin.json, .codex-plugin/plugin.json beside its hooks/), else the config's own
// folder. For --hook, hook_project(): the folder the author runs it from when the command's
// script is there (a relative path as typed resolves, as in the project a host is started in);
// the git work tree holding a script that lies elsewhere; for a lone script (in no work tree) or
// an inline command outside any project, no copy at all: an empty scratch project, the script
// run where it is.
//
// The copy is bounded: dependency folders (node_modules, .venv, venv) are linked, not copied
// (hooks load code from them; they are the bulk of a project); the rest counts against
// kCopyBytes / kCopyEntries and a project over it is an error naming --in-place. The top-level
// .git is copied when it fits in what is left, else left out (said in line()).
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "pinta/common/result.h"
#include "pinta/conformance/protocol.h"

namespace pinta::conformance::protocol {

class Workspace {
 public:
  static constexpr unsigned long long kCopyBytes = 256ull << 20;
  static constexpr size_t kCopyEntries = 50000;

  // The project at `real` (absolute), copied unless `in_place`.
  static Result<std::shared_ptr<Workspace>> make(const std::string& real, bool in_place);
  // An empty project of its own (nothing copied; `why`: what the output says of it).
  static Result<std::shared_ptr<Workspace>> scratch(const std::string& why);
  ~Workspace();
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  const std::string& real() const { return real_; }
  // Where the hooks run: the copy, or real() in place.
  const std::string& dir() const { return dir_; }
  // `text` with each path under real() (a command, a variable's value) pointing into dir().
  std::string map(const std::string& text) const;
  // The other way: what a hook printed about dir() told in the author's paths.
  std::string unmap(const std::string& text) const;
  // One line for the output: where the hooks run and what the copy left out.
  std::string line() const;

 private:
  Workspace() = default;
  std::string real_, dir_, scratch_;
  std::vector<std::string> linked_;  // relative paths linked to the author's
  std::string git_left_out_;         // why .git was not copied ("" copied or none)
  std::string scratch_why_;          // an empty project: why ("" a copy or in place)
  bool in_place_ = false;
};

// The project root of the hooks read from `hooks` (their origin), or the current directory.
std::string project_root(const std::vector<ProtocolHook>& hooks);

// Where a --hook command runs (the rules at the top): `root` its project ("" none: an empty
// scratch project), `command` the command with a script outside the current directory named by
// its absolute path, `why` a clause for the output when there is no project.
struct HookProject {
  std::string root, command, why;
};
HookProject hook_project(const std::string& command, const std::string& cwd);

// The folder of a plugin or extension holding `file` (its hooks/hooks.json or manifest), or "".
std::string package_root(const std::string& file);

// `text` with `from` replaced by `to` wherever it is a whole path (followed by '/' or by a
// character no file name here takes).
std::string replace_path(const std::string& text, const std::string& from, const std::string& to);

// Replaces every `${NAME}` (and bare `$NAME` when `bare`) of `vars` in `command` by its value.
std::string substitute(const std::string& command, const std::map<std::string, std::string>& vars,
                       bool bare);

// The variables `command` expands in a shell ($NAME and ${NAME...} outside single quotes).
std::set<std::string> shell_variables(const std::string& command);

}  // namespace pinta::conformance::protocol
