// File: pinta/admin/copilot.h
// `pinta-gemini install | uninstall | doctor --host copilot`: our command hooks for GitHub Copilot
// CLI 1.0 in a hook file of our own, pinta-gemini.json, in the native (camelCase) format.
//
// Evidence. CP = shared/reference/real-hosts.md (Copilot 1.0.102, measured); CPDOC = github/docs
// content/copilot/reference/hooks-reference.md; CPM = docs/hosts/copilot-1.0.md "Measured on
// 1.0.102" (the scenario named):
// - Where: `$COPILOT_HOME/hooks/*.json` (COPILOT_HOME, else ~/.copilot) load in `-p` with no trust
//   step (CPM c-baseline); `<repo>/.github/hooks/*.json` load only in a trusted folder
//   (`trustedFolders` in ~/.copilot/config.json; CPM src-repo-untrusted, src-repo-trusted-config)
//   or under GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true / COPILOT_ALLOW_ALL=true (CPM
//   src-repo-env-optin, src-repo-allow-all-env). So a user install writes
//   ~/.copilot/hooks/pinta-gemini.json and `--workspace DIR` writes DIR/.github/hooks/
//   pinta-gemini.json (doctor says when DIR is not trusted). A file of its own: the user's hook
//   files are never opened for writing; ours is still edited by splices, so anything a user adds
//   to it stays.
// - What: {"version":1,"hooks":{"<event>":[{"type":"command","bash":CMD,"timeoutSec":N}]}}, one
//   flat entry per installed event, no matcher (native matchers are anchored regexes where `*`
//   matches nothing, CPM c-matcher-star; none matches every tool, CPDOC). `"version": 2` drops a
//   file silently (CPM src-version-2), so 1 is written. camelCase events select the native
//   payload, so the command says `--agent copilot` (the label of the format written).
// - The Claude-settings overlap: Copilot also runs the repository's .claude/settings(.local).json
//   hooks in a trusted folder (CPM src-claude-trusted, src-claude-local-trusted), so an install
//   for Claude Code there runs under Copilot too, as `--agent claude-code` on the Claude-style
//   payload. install says so and doctor warns (docs/contract.md, COPILOT, "The Claude Code
//   registration under Copilot").
//
// Defined in src/copilot.cc, Copilot's part of the admin tool (its FamilyAdmin, admin_internal.h).
#pragma once

#include <string>

#include "pinta/admin/install.h"
#include "pinta/common/result.h"

namespace pinta::admin {

// $COPILOT_HOME (made absolute), else <home>/.copilot.
std::string copilot_home_dir(const std::string& home);
// <workspace>/.github/hooks/pinta-gemini.json, else <copilot home>/hooks/pinta-gemini.json.
std::string copilot_hooks_path(const InstallOptions& options);

// '<adapter>' --agent copilot --event <event> (Copilot runs `bash` entries with bash -c).
std::string copilot_command(const std::string& adapter_path, const std::string& event);
// Whether `command` is ours under either Copilot label (any adapter path).
bool copilot_is_ours(const std::string& command);

// Our hook file's text with our entry for every installed event spliced in (stale ones of ours
// replaced, everything else kept byte for byte). Error kParse "line:col: what" when it is not a
// JSON object whose "hooks" is an object of arrays.
Result<std::string> copilot_add_ours(const std::string& text, const std::string& adapter_path);
// The text without our entries (events and "hooks" we emptied go too); `only_ours_left`: nothing
// but the "version" we wrote remains.
Result<std::string> copilot_remove_ours(const std::string& text, bool* only_ours_left);

}  // namespace pinta::admin
