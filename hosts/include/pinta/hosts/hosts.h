// The host registry: the concrete hosts the project emulates and grades, by name, derived from
// the host data under hosts/<family>/ (docs/architecture.md). The conformance suite, `hostemu
// replay`, the host runner, the fuzz tables and the CLIs' help all ask it, so adding a version
// profile to a family is one data file and adding a family is one folder plus its registration
// in hosts/src/hosts.cc.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pinta/hosts/reply_check.h"

namespace pinta::hosts {

// One concrete host.
struct HostInfo {
  std::string name;      // "gemini-0.61", "agy-1.2", "deel-1.17", "claude-code-2.1", …
  Family family;
  std::string profile;   // the version profile file it comes from ("" for a family without any)
  bool graded = true;    // false: a profile the emulator runs but the conformance suite does not
                         // grade (the Antigravity "docs" profile, the public guide as written)
  // A profile whose hook rules (how one hook runs and how its reply is read) are another graded
  // host's: the suite grades that host for it (the profile's "graded_as"; graded is then false).
  // Gemini releases whose differences are all session-level share one column.
  std::string graded_as;
};

// Where a family's version profiles are (its descriptor's HostSource through
// pinta::data::find_dir: the env var when set, the installed share dir, the source tree); "" for
// a family with one fixed host.
std::string profile_dir(Family f);
// profile_dir() of every family, indexed by Family.
std::vector<std::string> profile_dirs();

// Every host of every registered family, in report order: families in registration order
// (pinta/hosts/family.h), each family's profiles (from dirs[Family], as profile_dirs()) in file
// name order, or its one fixed host. Unreadable dirs or files contribute no host (the suite then
// reports the host as unknown); a profile file is a host named by its "name" field.
std::vector<HostInfo> read_registry(const std::vector<std::string>& dirs);
// read_registry() of the default dirs, read once per process.
const std::vector<HostInfo>& registry();
// The graded hosts' names, in report order.
const std::vector<std::string>& all_hosts();
// The registry entry named `host` (graded or not), or null.
const HostInfo* find_host(const std::string& host);
// `host`'s family, or nullopt when the registry has no host of that name: there is no default
// family, so a caller names the unknown host in its error instead of running it as some family.
std::optional<Family> host_family(const std::string& host);
// The host answers by exit status (its family's ReplyReading is kExitStatus: deel-local-cli).
bool is_exit_code_host(const std::string& host);
// The host reads exactly one JSON line on stdout (kJsonStdout): the hosts of contract OUT-1.
bool is_json_line_host(const std::string& host);
// The family's name (pinta/hosts/family.h); "" for a host the registry does not know.
std::string family_of(const std::string& host);
// The graded hosts of one family, in report order.
std::vector<std::string> hosts_of(Family f);
// "gemini-0.61|agy-1.0|…": the host list for help strings and error messages.
std::string host_list(const char* sep = "|");

}  // namespace pinta::hosts
