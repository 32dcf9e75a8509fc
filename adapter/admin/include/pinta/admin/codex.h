// File: pinta/admin/codex.h
// `pinta-gemini install | uninstall | doctor --host codex`: our command hooks in Codex CLI 0.171's
// hooks.json, merged among the user's own hooks by minimal edits (json_edit.h), and their trust
// recorded in Codex's config.toml by minimal edits too (the file is never re-serialised).
//
// Evidence. CX = shared reference real-hosts.md "OpenAI Codex CLI 0.171.0" and "Codex 0.171.0 …
// hook rules" (measured); CXSRC = openai/codex codex-rs/hooks/src (engine/discovery.rs,
// config_rules.rs, events/common.rs):
// - Hooks come from `$CODEX_HOME/hooks.json` (CODEX_HOME, else ~/.codex; a set CODEX_HOME is
//   canonicalised) and `<project>/.codex/hooks.json` (trusted projects only), shape
//   {"hooks":{"<Event>":[{"matcher":…,"hooks":[{"type":"command","command":…,"timeout":N}]}]}},
//   timeout in seconds (`timeoutSec` is not honoured, CX). `[hooks]` in the layer's config.toml
//   is a second representation (`[[hooks.<Event>]]` tables, the same fields and trust hash; CX,
//   scenarios layers-json-and-toml, layers-toml-deny): install writes there where ours already
//   is, or where the user keeps their hooks in config.toml and hooks.json has none; else
//   hooks.json. It says so when both files of the layer define hooks (Codex runs both and warns on
//   every start, scenario layers-json-and-toml). Trust works alike for both: the key names the
//   file the hook is in (`<config.toml>:<event>:<group>:<handler>`, CXSRC discovery.rs).
// - A non-managed hook runs only when trusted (CX: an untrusted or stale one is skipped without a
//   word): `[hooks.state."<hooks.json path>:<event>:<group>:<handler>"] trusted_hash = "sha256:…"`,
//   read from the user layer only (CXSRC config_rules.rs: a project cannot trust its own hooks),
//   so the trust of a --workspace install goes to $CODEX_HOME/config.toml as well. The key is
//   positional: a group the user inserts before ours moves it, and doctor says so.
// - matcher: "*" on every event. CXSRC: "" / "*" / none all match every input on the events whose
//   matcher is read (tools, SessionStart, Subagent*, *Compact) and the matcher is dropped before
//   hashing on the others (UserPromptSubmit, Stop), so "*" runs everywhere and keeps the trust
//   hash independent of how an absent matcher is normalised.
//
// Defined in src/codex.cc, Codex's part of the admin tool (its FamilyAdmin, admin_internal.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pinta/admin/doctor.h"
#include "pinta/admin/install.h"
#include "pinta/common/result.h"

namespace pinta::admin {

// $CODEX_HOME (absolute, canonicalised as far as it exists), else <home>/.codex.
std::string codex_home_dir(const std::string& home);
// <workspace>/.codex/hooks.json, else <codex home>/hooks.json.
std::string codex_hooks_path(const InstallOptions& options);
// <codex home>/config.toml: where trust is recorded for either layer.
std::string codex_config_path(const InstallOptions& options);

// '<adapter>' --agent codex --event <event> (Codex runs it with /bin/bash -c, CX).
std::string codex_command(const std::string& adapter_path, const std::string& event);
// Whether `command` is one of ours (any adapter path).
bool codex_is_ours(const std::string& command);

// The hooks.json text with our hook for every installed event spliced in (stale ones of ours
// replaced). Error kParse "line:col: what" when it is not a JSON object with an object "hooks".
Result<std::string> codex_add_ours(const std::string& text, const std::string& adapter_path);
// config.toml text (nullopt: no file) with our group for every installed event as a
// `[[hooks.<Event>]]` table marked `# pinta-gemini`: one of ours rewritten in place (its place in
// the event's list, and so its trust key, kept), new ones appended in our marked block after every
// group of the user's; every other byte stays. Error kParse "<line>: what" when [hooks] or an
// event's list is written as an inline value or a plain table (no element can be added to it).
Result<std::string> codex_add_toml_hooks(const std::optional<std::string>& toml,
                                         const std::string& adapter_path);
// The hooks.json text without our hooks (groups, events and "hooks" we emptied go too).
Result<std::string> codex_remove_ours(const std::string& text, bool* only_ours_left);

// One `[hooks.state."<key>"] trusted_hash = "<hash>"` entry.
struct CodexTrust {
  std::string key, hash, event;
};
// The trust entries of our handlers in hooks file text `hooks_text` read from `hooks_path` (a
// hooks.json, or a config.toml whose [hooks] holds ours): the hosts/codex loader's handlers over a
// temp copy (its hash, its group and handler index), keyed with pinta::hosts::codex::trust_key on
// the real path. Error when the text does not parse, or when the loader would not load every hook
// of ours from it (Codex would never run those).
Result<std::vector<CodexTrust>> codex_trust_entries(const std::string& hooks_path,
                                                    const std::string& hooks_text);

// config.toml with our trust for the hooks file `hooks_path` set to exactly `entries`: one table
// per entry, its header marked `# pinta-gemini`, in place of this file's former tables of ours, or
// after our mark line (a comment saying what uninstall takes back), or appended with the mark; a
// table the user already has for one of these keys gets its trusted_hash value replaced in place.
// Our tables for the other hooks file (user or project) and every other byte stay. nullopt in = no
// file. Error kParse "<line>: what" on text that is not TOML this scanner reads, on `hooks` or
// `hooks.state` written as an inline value or an array of tables (no table can be added to it),
// and on the trust of our key written in another form.
Result<std::string> codex_set_trust(const std::optional<std::string>& toml,
                                    const std::string& hooks_path,
                                    const std::vector<CodexTrust>& entries);
// config.toml without our trust for `hooks_path` (the mark goes with our last table, with the
// line break it added at the end; the file, nullopt, when install created it and nothing else is
// left). A table of the user's that install only updated stays.
Result<std::optional<std::string>> codex_remove_trust(const std::string& toml,
                                                      const std::string& hooks_path);

// Doctor: each layer Codex reads hooks from (hooks.json and [hooks] in config.toml: ours may be in
// either), ours registered for every installed event once and trusted with the current hash (the
// hosts/codex loader's trust status: untrusted, stale or disabled is broken, the guard never runs
// there), the project trusted, other hooks that run beside ours, hooks in both files of a layer.
//
// install (FamilyAdmin, src/codex.cc): the layer's hooks file edited (hooks.json, or config.toml
// in the TOML form, whose uninstall takes out exactly our marked tables), the trust set, and the
// plan checked with the hosts/codex loader over copies of the planned files before anything is
// written (config.toml loads, every hook of ours comes out trusted); it says "trusted N hooks in
// <config.toml>": the user's running install is their consent to the trust, uninstall takes it
// back.
void check_codex(const DoctorOptions& options, DoctorReport& report);

}  // namespace pinta::admin
