// File: pinta/hosts/node/node_spawn.h
// What Node.js 20's child_process.spawn does with a hook's environment and working directory, for
// the hosts written in JavaScript (Gemini CLI, deel-local-cli). Measured with Node v20.20 here:
//  - process.env reads environ in its order; a repeated name keeps its first place and first
//    value; an entry without '=' or with an empty name is not there; a name that is an array
//    index ("0" … "4294967294") enumerates but reads undefined, so neither `{...process.env}` nor
//    spawn's own copy passes it on; names and values are decoded as UTF-8 (bad bytes → U+FFFD).
//  - `{...process.env, K: v, ...}` keeps each existing name in its place with the new value and
//    appends new names in order, array-index names first in numeric order (ordinary object key
//    order); a property whose value is undefined is dropped by spawn. spawn passes the pairs in
//    that order (no sorting on POSIX).
//  - A cwd the child cannot enter: uv_spawn fails. For EACCES, EAGAIN, EMFILE, ENFILE and ENOENT
//    Node emits an 'error' event "spawn <file> <CODE>" (e.g. `spawn bash ENOENT`); any other code
//    (ENOTDIR, ENAMETOOLONG, ELOOP, …) is thrown from spawn() itself as "spawn <CODE>".
//    (lib/internal/child_process.js, ChildProcess.prototype.spawn.)
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pinta::hosts::node {

using EnvPairs = std::vector<std::pair<std::string, std::string>>;

// An environ-ordered list as process.env reads it, then as spawn passes it on (rules above).
EnvPairs process_env(const EnvPairs& environ_entries);
// This process's environ, read the same way.
EnvPairs current_process_env();

// `{...base, ...props}` as spawn's env: props in order; nullopt = undefined (dropped, though
// the name keeps its place in the object).
EnvPairs spread_env(const EnvPairs& base,
                    const std::vector<std::pair<std::string, std::optional<std::string>>>& props);

// Is `name` an array index (canonical decimal 0 … 2^32-2)?
bool is_array_index(const std::string& name);

struct SpawnFailure {
  bool thrown = false;   // thrown by spawn() (else the 'error' event)
  std::string message;   // Error.message
};

// The failure spawn(file, args, {cwd}) reports for this cwd, or nullopt when the child would
// start there. An empty cwd means the parent's (no check). A cwd holding a NUL byte is Node's
// argument TypeError (thrown).
std::optional<SpawnFailure> cwd_failure(const std::string& file, const std::string& cwd);

// The message for a uv_spawn failure with this errno (ENOENT of the program included).
SpawnFailure spawn_failure(const std::string& file, int err);

}  // namespace pinta::hosts::node
