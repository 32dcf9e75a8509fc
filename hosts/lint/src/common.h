// Internal helpers shared by the per-host linters and explain (not installed).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "pinta/common/fs.h"
#include "pinta/hostlint/lint.h"

namespace pinta::hostlint::detail {

using ojson = nlohmann::ordered_json;

// Collects findings for one file, positioned through the file's PositionIndex.
struct Sink {
  std::string file;
  const PositionIndex* index = nullptr;
  std::vector<Finding> out;

  void add(Severity sev, const std::string& rule, const std::string& pointer,
           const std::string& message, const std::string& hint) {
    out.push_back(
        {file, index ? index->locate(pointer) : Position{1, 1}, sev, rule, message, hint});
  }
  // Positioned at the member's key rather than its value (unknown keys / events).
  void add_at_key(Severity sev, const std::string& rule, const std::string& pointer,
                  const std::string& message, const std::string& hint) {
    auto k = index ? index->key(pointer) : std::nullopt;
    out.push_back({file, k ? *k : (index ? index->locate(pointer) : Position{1, 1}), sev, rule,
                   message, hint});
  }
};

// The value at a JSON pointer in `root` (nullptr when absent or malformed).
const ojson* at_pointer(const ojson& root, const std::string& pointer);
std::string parent_pointer(const std::string& pointer);

// Lexically normalized absolute path (no symlink resolution needed for comparisons of layouts).
std::string normalize(const std::string& path);
std::string dir_of(const std::string& path);
bool ends_with(const std::string& s, const std::string& suffix);

// ---- command checks ---------------------------------------------------------------------------

struct CommandContext {
  std::string cwd;                          // where the host runs the command (relative paths)
  std::string home;                         // ~ and $HOME
  std::map<std::string, std::string> vars;  // extra literal substitutions (e.g. ${extensionPath})
  std::string path_env;                     // PATH
};
// command-not-found / command-not-executable / empty-object-deny (when `empty_object_denies`).
// `blocks_why` non-empty: the host blocks when this command cannot start (a fail-closed point), so
// a missing or non-executable program is an error and the message says what is blocked.
// `script` non-null: receives the text of the script the command runs (the program itself, or an
// interpreter's script argument; the first 64 KiB), "" when none resolves or it is binary.
void check_command(Sink& sink, const std::string& pointer, const std::string& command,
                   const CommandContext& ctx, bool empty_object_denies,
                   const std::string& empty_object_why, const std::string& blocks_why = "",
                   std::string* script = nullptr);
// adapter-agent / adapter-event: our adapter (pinta-gemini) registered for `family` under `event`
// (the host's own name or an alias) with another family's --agent label, none, or another --event.
void check_adapter(Sink& sink, const std::string& pointer, pinta::hosts::Family family,
                   const std::string& event, const std::string& command);
// The program a command runs (first word after env assignments), "" when it cannot be told.
std::string first_word(const std::string& command);
// The command's leading words from its program on (env assignments, `env`, `exec` skipped).
std::vector<std::string> command_words(const std::string& command);

// ---- matcher checks ---------------------------------------------------------------------------

struct MatcherContext {
  std::string host;                                 // for messages
  bool searched = true;                             // unanchored search (false: the host anchors)
  bool backtracking = true;                         // a backtracking engine (JS); false: RE2
  std::vector<std::string> tools;                   // the host's tool names (case check)
  std::map<std::string, std::string> claude_names;  // Claude Code name → this host's name
};
void check_matcher_shape(Sink& sink, const std::string& pointer, const std::string& matcher,
                         const MatcherContext& ctx);
// Nested quantifier such as (a+)+, (a*)*, (.*){2,}: exponential backtracking in JS engines.
bool catastrophic_pattern(const std::string& pattern);

// The candidate nearest to `written` (case-insensitive edit distance, a swap of two neighbours
// counting as one), when it is near enough to be a typo of it; nullopt otherwise.
std::optional<std::string> closest_name(const std::string& written,
                                        const std::vector<std::string>& candidates);
// " (did you mean 'X'?)" or "".
std::string did_you_mean(const std::string& written, const std::vector<std::string>& candidates);

// Known event names of every host (to tell "wrong host's event" from a typo).
std::string suggest_event(const std::string& written, const std::vector<std::string>& valid,
                          const std::map<std::string, std::string>& foreign);

// The `timeout` sanity shared by hosts: a human-readable duration.
std::string human_duration_ms(double ms);

// ---- shared by the per-host lints (lint.cc) ----------------------------------------------------

// Where nlohmann's parser stops on a syntax error (position only; the verdict is the loader's).
void syntax_error(const std::string& text, bool comments, Position& pos, std::string& detail);
// Variable `k` of the lint's environment: LintOptions::env when given, else this process's.
std::string env_or(const LintOptions& o, const char* k);
// The home the hosts read (--home, else $HOME), normalized.
std::string home_of(const LintOptions& o);
bool same_file(const std::string& a, const std::string& b);
// RFC 6901 token back to the key: "~1" → "/", "~0" → "~".
std::string unescape_token(const std::string& t);
// Whether `k` is an event name of any host (case-insensitive).
bool any_host_event(const std::string& k);

// Positions of hooks in their files, each file indexed once.
class Locator {
 public:
  Position at(const std::string& file, const std::string& pointer) {
    auto it = idx_.find(file);
    if (it == idx_.end()) {
      auto t = pinta::fs::read_file(file);
      it = idx_.emplace(file, PositionIndex::build(t ? *t : std::string())).first;
    }
    return it->second.locate(pointer);
  }
  // "FILE:LINE:COL: ", the prefix of a dropped hook's line.
  std::string where(const std::string& file, const std::string& pointer) {
    Position pos = at(file, pointer);
    return file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.col) + ": ";
  }

 private:
  std::map<std::string, PositionIndex> idx_;
};

// ---- explain helpers (common.cc) and each family's explain_<folder> (lint_<folder>.cc) ---------

std::string fmt_ms(double ms);
Result<std::vector<ExplainSection>> bad_request(const std::string& m);

// Hook files a family recognises by their path (a normalized absolute path), for detect_host: a
// family's lint_<folder>.cc registers one with a namespace-scope PathDetector object. They are
// asked in families.def order.
using PathDetectorFn = bool (*)(const std::string& path);
const std::vector<std::pair<Host, PathDetectorFn>>& path_detectors();
struct PathDetector {
  PathDetector(Host host, PathDetectorFn fn);
};

// A hook file at no known path, told by its root: kYes, the root is a shape only this family
// reads; kSome, it is not, but some of its event names are this family's (detect_host then calls
// the file mixed). Asked by rank, then families.def order: a root marker only one family writes
// (rank 0) before a family's structure (1) before a family's catch-all shape (2). A detector
// answers kNo for any root it does not read, arrays and scalars included.
enum class ShapeMatch { kNo, kSome, kYes };
using ShapeDetectorFn = ShapeMatch (*)(const ojson& root);
struct ShapeDetectorEntry {
  Host host;
  int rank;
  ShapeDetectorFn fn;
};
const std::vector<ShapeDetectorEntry>& shape_detectors();
struct ShapeDetector {
  ShapeDetector(Host host, int rank, ShapeDetectorFn fn);
};

// Each family's lint and explain (lint_<folder>.cc), declared through families.def.
#define PINTA_FAMILY(Id, folder, name)                                                        \
  Status lint_##folder(const std::string& path, const std::string& text, const LintOptions& o, \
                       Sink& sink);                                                            \
  Result<std::vector<ExplainSection>> explain_##folder(const ExplainRequest& rq,               \
                                                       const LintOptions& options, Locator& loc);
#include "pinta/hosts/families.def"
#undef PINTA_FAMILY

}  // namespace pinta::hostlint::detail
