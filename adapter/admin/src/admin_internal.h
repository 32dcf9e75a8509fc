// adapter/admin/src/admin_internal.h — private to pinta::admin: what the shared installer
// (install.cc) and doctor (doctor.cc) lend each host family's admin code, and the part every
// family provides (src/<folder>.cc, built per family by pinta_family_sources).
//
// A family's part is `pinta::admin::<folder>::kAdmin` (FamilyAdmin), declared below from the one
// list (pinta/hosts/families.def): a family without it does not link, an entry that leaves a field
// out does not compile (hosts::Required). install, uninstall and doctor reach a family only
// through it, so no shared admin file names one.
#pragma once

#include <cstddef>
#include <functional>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pinta/admin/doctor.h"
#include "pinta/admin/install.h"
#include "pinta/admin/json_edit.h"
#include "pinta/common/result.h"
#include "pinta/hosts/family.h"

namespace pinta::admin {

using ojson = nlohmann::ordered_json;

// ---- Installer helpers (install.cc) -------------------------------------------------------------

// Existing file → its text; absent → nullopt; unreadable → error.
Result<std::optional<std::string>> read_optional(const std::string& path);
// Strict JSON object (agy rejects comments and trailing commas, reference antigravity §2.3;
// Gemini's extension loader uses plain JSON.parse, gemini reference §1.6). Errors name `path`.
Result<ojson> parse_object(const std::string& path, const std::string& text);
// Two-space indented JSON and a final newline: the files install writes whole.
std::string dump(const ojson& j);
// `text` with the root object's member `key` set to `value`, spliced in place (json_edit.h): the
// rest of the user's bytes stay as they were.
Result<std::string> set_root_member(const std::string& text, const std::string& key,
                                    const ojson& value);
// `text` without the root object's members named `key` (every duplicate).
Result<std::string> remove_root_member(std::string text, const std::string& key);
// In a Claude-style event list `groups` ([{"matcher", "hooks": [handler...]}]) of the scanned
// document `d`: the text with one handler for which `ours` holds taken out (skipping `keep`, the
// one we want); a group left empty goes with it. nullopt when there is none. Used by the families
// whose hook files have that shape.
std::optional<std::string> remove_one_nested(const jsonedit::Doc& d, const jsonedit::Node& groups,
                                             const ojson* keep, bool (*ours)(const ojson&));
// Whether a Claude-style group {"matcher", "hooks": [handler...]} holds `handler`.
bool group_holds(const ojson& group, const ojson& handler);

// A hook file whose "hooks" object maps each event to a list (Claude Code's settings, Codex's
// hooks.json, Copilot's hook files): how a family reads and writes its lists.
struct HooksFile {
  // The family's reader of its file: an error unless the root is an object whose "hooks", when
  // there is one, is an object.
  Result<jsonedit::Doc> (*scan)(const std::string& text);
  // One element of ours out of an event's `list` (skipping `keep`, the one we want); nullopt when
  // there is none.
  std::optional<std::string> (*remove_one)(const jsonedit::Doc& d, const jsonedit::Node& list,
                                           const ojson* keep);
  // What install registers for an event: our handler, and the list element that holds it.
  ojson (*handler)(const std::string& adapter_path, const std::string& event);
  ojson (*element)(const std::string& adapter_path, const std::string& event);
  // Whether a list element holds the handler.
  bool (*holds)(const ojson& element, const ojson& handler);
};
// `text` without ours under every event for which `drop(event)` holds; an event we emptied goes
// too (one the user has refilled since stays). `touched`: whether anything of ours went.
Result<std::string> remove_ours_where(const HooksFile& f, std::string text,
                                      const std::function<bool(const std::string&)>& drop,
                                      bool* touched);
// `original` with ours registered once under each of `events` (stale ones of ours there, with
// another adapter path or timeout, go) and under no other event; "hooks" is added when missing.
Result<std::string> add_ours(const HooksFile& f, const std::string& original,
                             const std::string& adapter_path,
                             const std::vector<std::string>& events);
// `original` without any of ours, and without "hooks" when that emptied it.
Result<std::string> remove_all_ours(const HooksFile& f, const std::string& original);
// Whether `s` needs no quoting in a shell command line (letters, digits, /._-+@%:,=).
bool shell_safe(const std::string& s);
// Adds the change of `path` from `before` to `after` unless they are equal; `backup`: keep the
// original as path + ".pinta-bak" (only when there was one).
void add_change(Plan& plan, std::string path, std::optional<std::string> before,
                std::optional<std::string> after, bool backup);

// What install created, so uninstall can take exactly that back (the state file in the data dir).
struct State {
  std::vector<std::string> created_dirs;  // shallowest first
  bool created_file = false;              // the host file did not exist before
  std::string file_hash;                  // text_hash of the host file as install left it
};

// Records the state of the install `plan` makes: the directories on the way to `target_dirs` (and
// the data dir) it creates, whether it creates the host file, and `host_file`'s text after the
// plan (the user's file install edits; empty when every file is ours), so uninstall can tell
// whether anything else changed it since.
void add_state(const InstallOptions& o, Plan& plan, const std::vector<std::string>& target_dirs,
               bool created_file, const std::string& host_file = "");

// The uninstall change of a user's file: `after` is `before` with our entries spliced out. When
// the file is still exactly what install left, the backup (the user's original bytes) is put back
// instead; a file install created goes when nothing but ours was left in it (`only_ours_left`).
void add_uninstall_change(Plan& plan, const State& s, const std::string& path,
                          const std::string& before, std::optional<std::string> after,
                          bool only_ours_left);

// ---- Doctor helpers (doctor.cc) -----------------------------------------------------------------

// One finding of `area` (a family's name, or env | endpoint | guard | data | lint | telemetry).
void add(DoctorReport& r, std::string area, std::string level, std::string message,
         std::string fix = "", nlohmann::json detail = nlohmann::json::object());
bool contains(const std::string& hay, const std::string& needle);
// Whether `path` names a file this user may execute.
bool executable(const std::string& path);
// Whether hook command `cmd` is ours for `agent`: it names pinta-gemini and `--agent <agent>`.
bool is_ours(const std::string& cmd, const char* agent);

// ---- A family's part ----------------------------------------------------------------------------

// One hook file the doctor lints for a family (`hostemu lint`), with the home its loader reads.
struct LintFile {
  std::string path;
  std::string home;
};

struct FamilyAdmin {
  // install: the family's hook file(s) with our hooks merged in, and the state (add_state) that
  // lets uninstall undo exactly that. `options` are checked (home, adapter path, workspace).
  hosts::Required<Result<Plan> (*)(const InstallOptions& options)> plan_install;
  // uninstall: the family's part of the undo, added to `plan` (the state file and the directories
  // install created are the shared code's).
  hosts::Required<Status (*)(const InstallOptions& options, const State& state, Plan& plan)>
      plan_uninstall;
  // doctor: where the family's hosts read hooks, whether ours is registered and would fire (the
  // family's own loader and planner from hosts/), findings under the family's name.
  hosts::Required<void (*)(const DoctorOptions& options, DoctorReport& report)> check;
  // doctor: the family's hook files `hostemu lint` runs on (user, then project), absent ones too.
  hosts::Required<std::vector<LintFile> (*)(const DoctorOptions& options)> lint_files;
  // The error `install --workspace` gets when the family has no project file; "" = it takes one
  // (the project's file instead of the user's, one install state per workspace).
  hosts::Required<std::string_view> workspace_refused;
  // The family's hosts keep their files under ~/.gemini: the install state goes beside them
  // ($GEMINI_PLUGIN_DATA, else ~/.gemini/pinta-gemini-data). Otherwise nothing of ours may appear
  // under ~/.gemini (the user may have no Gemini at all): the XDG state directory.
  hosts::Required<bool> state_under_dot_gemini;
};

#define PINTA_FAMILY(Id, folder, name) \
  namespace folder {                   \
  extern const FamilyAdmin kAdmin;     \
  }
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY

// The family's part, by its registry id (the same list, the same order).
inline const FamilyAdmin& family_admin(Host host) {
  static const FamilyAdmin* const kAll[] = {
#define PINTA_FAMILY(Id, folder, name) &folder::kAdmin,
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY
  };
  static_assert(std::size(kAll) == hosts::kFamilyCount);
  return *kAll[static_cast<std::size_t>(host)];
}

}  // namespace pinta::admin
