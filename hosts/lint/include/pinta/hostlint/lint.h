// File: pinta/hostlint/lint.h
// Lint and explain for users' hook files, for every emulated host (Gemini CLI 0.61, Antigravity
// profiles, deel-local-cli 1.17). Every finding comes from the host's own emulator loader (what it
// drops, rejects or reads differently); this library adds positions (json_pos.h), the rule IDs and
// fix hints, and the checks a loader has no reason to make (timeout units, matcher shape, whether
// the command exists). Rules are documented one section each in docs/lint.md.
#pragma once

#include "pinta/common/text.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "pinta/common/result.h"
#include "pinta/hostlint/json_pos.h"
#include "pinta/hosts/family.h"

namespace pinta::hostlint {

// The host families are the registry's (pinta/hosts/family.h); the lint covers every one.
using Host = pinta::hosts::Family;
std::string host_name(Host h);  // the registry's name: "gemini", "antigravity", "claude-code", …
// A family by its registry name or any of its `--agent` labels ("agy", "claude"); none otherwise.
std::optional<Host> parse_host(const std::string& name);
// "gemini|antigravity|deel|claude-code": the --host values, for help and errors.
std::string host_names();

enum class Severity { kError, kWarning };
const char* severity_name(Severity s);  // "error" | "warning"

struct Finding {
  std::string file;
  Position pos;
  Severity severity = Severity::kWarning;
  std::string rule;  // stable ID, e.g. "timeout-unit"
  std::string message;
  std::string hint;  // how to fix it
};

// The stable rule IDs (docs/lint.md has a section per ID).
const std::vector<std::string>& rule_ids();

struct LintOptions {
  std::optional<Host> host;                // nullopt: detect_host per file
  std::string home;                        // the user's home (user layer, trust files); "" = $HOME
  std::string workspace;                   // "" = derived from a project file's path
  std::string profiles_dir;                // Antigravity profiles; "" = the emulator's default
  std::vector<std::string> profiles;       // Antigravity profile names to check; empty = all
  std::map<std::string, std::string> env;  // PATH for command lookup; empty = this process's
  std::optional<bool> deel_trusted;        // deel's trust store is not modelled: nullopt = unknown
};

// Which host reads `path`: from where it sits (.gemini/settings.json, .gemini/extensions/*/hooks/
// hooks.json → gemini; .gemini/config/hooks.json, .agents/hooks.json, plugin roots → antigravity;
// .deel/hooks.json → deel), else from the shape of `text`. Error (kInvalidArgument) when it
// cannot tell, saying what was looked at.
Result<Host> detect_host(const std::string& path, const std::string& text);

// Lints one file's text. Error only when the options are unusable (e.g. no Antigravity profiles).
Result<std::vector<Finding>> lint_text(const std::string& path, const std::string& text,
                                       const LintOptions& options);
// Reads and lints each path; error (kNotFound/kIo/kInvalidArgument) on the first unreadable file
// or undetectable host.
Result<std::vector<Finding>> lint_paths(const std::vector<std::string>& paths,
                                        const LintOptions& options);

// Output: "text" (file:line:col: severity: RULE: message, then "  fix: hint"), "json"
// ({"findings":[…],"errors":N,"warnings":N}), "github" (workflow commands, escaped), "text-color"
// (text with ANSI colours, for a terminal: the CLI picks it only when stdout is a TTY).
std::string format_findings(const std::vector<Finding>& findings, const std::string& format);
bool any_error(const std::vector<Finding>& findings);
// GitHub workflow-command escaping: data (message) and property (file, title) values.
using pinta::text::github_escape_data;
using pinta::text::github_escape_property;

// ---- explain --------------------------------------------------------------------------------

struct ExplainRequest {
  std::optional<Host> host;          // required: explain without one is a bad request
  std::string home;
  std::string workspace;
  std::string event;
  std::string tool;                  // tool events; "" = none
  std::string profile;               // Antigravity: one profile ("" = every profile)
  std::optional<bool> deel_trusted;  // deel: is the workspace trusted (default: no)
};

struct ExplainedHook {
  int order = 0;      // 1-based run order
  std::string layer;  // user | project | extension | system | system-defaults | plugin | legacy
  std::string file;
  Position pos;
  std::string command;
  std::string name;
  std::string matcher;
  std::string timeout;  // with its unit, e.g. "5 ms", "30 s"
  std::string on_failure;
};

struct ExplainSection {  // one per host build (Antigravity: per profile)
  std::string host;      // "gemini-cli 0.61.0", "antigravity agy-1.2", "deel-local-cli 1.17.1"
  std::vector<ExplainedHook> hooks;
  std::vector<std::string> notes;  // files not read, trust, hooks disabled, …
  // Handlers written for this event that the host loads but never runs, or drops while loading:
  // "file:line:col: why" (a matcher the engine rejects, enabled: false, no command, …).
  std::vector<std::string> dropped;
};

// Error (kInvalidArgument) on an unknown event/profile or a --tool on a non-tool event.
Result<std::vector<ExplainSection>> explain(const ExplainRequest& request,
                                            const LintOptions& options);
// "text" prints sections that say the same (Antigravity profiles that agree) once, under all
// their names; "json" keeps one entry per section.
std::string format_explain(const std::vector<ExplainSection>& sections, const std::string& format);

}  // namespace pinta::hostlint
