// File: pinta/hosts/family.h
// The host family registry: one descriptor per family (Gemini CLI, Antigravity, deel-local-cli,
// Claude Code) holding what the rest of the project needs to know about a family as data: its
// names and `--agent` labels, its events in every spelling, the shape of its payload, where its
// hook files are, and how the host reads what a hook leaves behind (JSON on stdout, an exit status
// with a message stream, or both), per event. Everything else asks this registry (by Family or by
// label) and does not switch on a family; help strings and error messages are built from it.
//
// Header only and constexpr: the adapter's hot path uses it at compile time (its reply table
// static_asserts against the event lists) and reads nothing at start-up. Adding a family is one
// descriptor here, its event list in events.h and its folders (docs/architecture.md, "A host
// family").
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "pinta/hosts/events.h"

namespace pinta::hosts {

// The registered families, in registration (report) order. The value indexes kFamilies.
enum class Family : unsigned char { kGemini, kAntigravity, kDeel, kClaude };

// How the host reads a hook's reply.
enum class ReplyReading : unsigned char {
  kJsonStdout,  // exactly one JSON object on stdout (exit 0); other exits are failures
  kExitStatus,  // the exit status decides (0 passes, block_status blocks); the message is text
  kBoth,        // exit 0 + optional JSON on stdout, or block_status with the message stream
};
// Which stream carries the message of a blocking exit status.
enum class MessageStream : unsigned char { kNone, kStdout, kStderr, kStdoutAndStderr };

// Another spelling of an event the host accepts in its hook file (deel-local-cli: Korean).
struct EventAlias {
  std::string_view alias;
  std::string_view event;
};

// Where the payload's common fields are. "" = the host does not send it.
struct PayloadShape {
  std::string_view event_key;        // the event name inside the payload (never used to decide)
  std::string_view session_id;
  std::string_view cwd;
  bool cwd_first_of_array = false;   // cwd is the first string of an array (workspacePaths)
  std::string_view transcript_path;
  std::string_view tool_object;      // the member holding the tool call; "" = top level
  std::string_view tool_name;
  std::string_view tool_input;       // "" = every member but event_key and tool_name (deel)
  std::string_view tool_call_id;     // the host's id of the tool call
  std::string_view turn_start_event; // the event that opens a user turn (a new trace)
  // The tool arguments that say what runs or what is touched (a command, a path, written text,
  // a URL): the guard request gives them its byte budget first, whatever the key order
  // (docs/contract.md GUARD-15).
  std::span<const std::string_view> command_args;
};

// Where the host finds hook files (documentation and the doctor's wording; the loaders in
// hosts/<folder>/ implement it).
struct ConfigFiles {
  std::string_view user;      // the user's file
  std::string_view project;   // the project's / workspace's file(s)
  std::string_view override_env;  // environment variable that moves them ("" none)
};

struct FamilyDescriptor {
  Family id;
  std::string_view name;          // "gemini": --host in install, reports, family keys
  std::string_view display_name;  // the product (gen_ai.agent.name)
  // The `--agent` labels the adapter answers as this family, the first is the one `install`
  // writes. Exact and case-sensitive.
  std::array<std::string_view, 4> agent_labels;
  std::string_view folder;        // hosts/<folder>, emulator/hosts/<folder>
  std::string_view service_name;  // OTel resource service.name
  std::string_view prefix;        // span attribute prefix, ingest.type, guard `agent`
  std::string_view provider;      // gen_ai.provider.name when the host's provider is fixed
  std::span<const std::string_view> events;     // every event the host sends (events.h)
  std::span<const std::string_view> installed;  // the events `install` registers
  std::span<const EventAlias> aliases;          // other spellings of the events
  std::span<const std::string_view> tool_events;  // events that carry a tool call
  std::string_view gate_event;    // the tool gate: before the tool runs, the guard decides
  std::span<const std::string_view> blocking_events;  // where the host honours a block
  PayloadShape payload;
  ReplyReading reads;
  int block_status;               // the exit status that blocks (0: none)
  MessageStream block_message;    // which stream carries the block message
  bool ask_on_gate;               // the host has a native "ask" on its gate event
  ConfigFiles config;
  std::string_view evidence;
  // The hook timeout `install` registers for our adapter, in ms (each host file states it in its
  // own unit); also what `hostemu replay` gives the adapter by default. It only bounds a hung
  // process: the adapter answers within its own budget.
  int install_timeout_ms;
};

namespace family_data {

namespace el = event_lists;

// ---- Gemini CLI 0.61.0 (shared/reference/gemini-cli-0.61-hooks.md, GEM) ---------------------
inline constexpr std::array<std::string_view, 2> kGeminiTools = {"BeforeTool", "AfterTool"};
// GEM§6: a deny blocks on BeforeTool, AfterTool and BeforeAgent.
inline constexpr std::array<std::string_view, 3> kGeminiBlocking = {"BeforeTool", "AfterTool",
                                                                    "BeforeAgent"};
// GEM§7 tool_input of the built-in tools: run_shell_command {command, dir_path}, write_file and
// replace {file_path, content | old_string, new_string}, read_file {absolute_path | file_path},
// web_fetch {prompt}, google_web_search {query}.
inline constexpr std::array<std::string_view, 9> kGeminiCommandArgs = {
    "command", "file_path", "absolute_path", "dir_path", "content", "new_string", "url", "prompt",
    "query"};
// ---- Antigravity (shared/reference/antigravity-hooks.md, AGY) ------------------------------
inline constexpr std::array<std::string_view, 2> kAgyTools = {"PreToolUse", "PostToolUse"};
inline constexpr std::array<std::string_view, 1> kAgyBlocking = {"PreToolUse"};  // AGY§7.1
// AGY§8 "Args keys seen": run_command CommandLine, Cwd; view_file AbsolutePath; write_to_file /
// edit_file TargetFile (+ the written text, CodeContent / ReplacementContent); list_dir
// DirectoryPath; call_mcp_tool ToolName.
inline constexpr std::array<std::string_view, 8> kAgyCommandArgs = {
    "CommandLine", "TargetFile", "AbsolutePath", "Cwd", "CodeContent", "ReplacementContent",
    "DirectoryPath", "ToolName"};
// ---- deel-local-cli 1.17.1 (seed 004 package/src/safety/hooks.js, DEEL l.n) ------------------
// DEEL l.213-218 (자리표): the Korean names deel-local-cli itself uses.
inline constexpr std::array<EventAlias, 4> kDeelAliases = {{{"도구전", "PreToolUse"},
                                                            {"도구후", "PostToolUse"},
                                                            {"말전", "UserPromptSubmit"},
                                                            {"턴끝", "Stop"}}};
inline constexpr std::array<std::string_view, 2> kDeelTools = {"PreToolUse", "PostToolUse"};
// DEEL l.221: the blocking points are 도구전 and 말전.
inline constexpr std::array<std::string_view, 2> kDeelBlocking = {"PreToolUse",
                                                                  "UserPromptSubmit"};
// DEEL l.596-605 (확인인자): its rules read Bash's `command`, the file tools' `file_path`,
// WebFetch's `url`, Grep's `pattern`.
inline constexpr std::array<std::string_view, 5> kDeelCommandArgs = {"command", "file_path", "url",
                                                                     "pattern", "content"};
// ---- Claude Code 2.1.x (shared/reference/real-hosts.md "Claude Code 2.1.332", CC; the public
// hooks reference https://code.claude.com/docs/en/hooks, CCDOC) --------------------------------
inline constexpr std::array<std::string_view, 3> kClaudeTools = {"PreToolUse", "PostToolUse",
                                                                 "PostToolUseFailure"};
// CCDOC "exit code 2 behavior": blocks PreToolUse (CC: measured, stderr reaches the model),
// PermissionRequest, UserPromptSubmit, Stop, SubagentStop; elsewhere stderr is only shown.
inline constexpr std::array<std::string_view, 5> kClaudeBlocking = {
    "PreToolUse", "PermissionRequest", "UserPromptSubmit", "Stop", "SubagentStop"};
// CCDOC "PreToolUse input": Bash {command}, Write {file_path, content}, Edit {file_path,
// old_string, new_string}, Read {file_path}, WebFetch {url, prompt}.
inline constexpr std::array<std::string_view, 6> kClaudeCommandArgs = {
    "command", "file_path", "content", "new_string", "url", "prompt"};

}  // namespace family_data

// The registry, in Family order.
inline constexpr FamilyDescriptor kFamilies[] = {
    {Family::kGemini, "gemini", "Gemini CLI", {"gemini", "", "", ""}, "gemini", "gemini-cli", "gemini",
     // GEM: Gemini CLI talks to the Gemini API, Vertex AI or Code Assist; `gcp.gen_ai` is the
     // semconv value for a Google endpoint whose backend is unknown.
     "gcp.gen_ai", event_lists::kGemini, event_lists::kGeminiInstalled, {},
     family_data::kGeminiTools, "BeforeTool", family_data::kGeminiBlocking,
     // GEM§7 base input: session_id, transcript_path, cwd, hook_event_name, timestamp.
     {"hook_event_name", "session_id", "cwd", false, "transcript_path", "", "tool_name",
      "tool_input", "", "BeforeAgent", family_data::kGeminiCommandArgs},
     // GEM§4.5: stdout.trim()||stderr.trim() is parsed as JSON whatever the exit status; plain
     // text with exit 2 is a deny with that text (so the block message is stdout, else stderr).
     ReplyReading::kJsonStdout, 2, MessageStream::kStdoutAndStderr, /*ask_on_gate=*/true,
     {"~/.gemini/settings.json (and /etc/gemini-cli/settings.json)",
      "<project>/.gemini/settings.json, extension hooks.json", "GEMINI_CLI_HOME, GEMINI_CLI_SYSTEM_SETTINGS_PATH"},
     "shared/reference/gemini-cli-0.61-hooks.md",
     10000},  // GEM§2.2: milliseconds
    {Family::kAntigravity, "antigravity", "Antigravity",
     // SPEC§5: the labels Antigravity installs use (agy CLI, the 2.0 app); `agy` is the CLI.
     {"antigravity", "agy", "antigravity1", "antigravity2"}, "antigravity", "antigravity",
     "antigravity",
     // AGY§8: Antigravity also serves other vendors' models; the provider comes from modelName.
     "", event_lists::kAntigravity, event_lists::kAntigravityInstalled, {},
     family_data::kAgyTools, "PreToolUse", family_data::kAgyBlocking,
     // AGY§8 common fields: conversationId, workspacePaths[], transcriptPath; toolCall {name,args}.
     {"", "conversationId", "workspacePaths", true, "transcriptPath", "toolCall", "name", "args",
      "", "PreInvocation", family_data::kAgyCommandArgs},
     // AGY§6.2: protojson-decoded JSON on stdout; a non-zero exit is a failed hook.
     ReplyReading::kJsonStdout, 0, MessageStream::kNone, /*ask_on_gate=*/true,
     {"~/.gemini/config/hooks.json", "<workspace>/.agents/hooks.json (trusted workspaces)", ""},
     "shared/reference/antigravity-hooks.md",
     30000},  // AGY§2.3, seed 000 §3.3: 30 (seconds)
    {Family::kDeel, "deel", "deel-local-cli", {"deel", "", "", ""}, "deel", "deel-local-cli", "deel",
     // DEEL l.427: the payload names no model.
     "", event_lists::kDeel, event_lists::kDeelInstalled, family_data::kDeelAliases,
     family_data::kDeelTools, "PreToolUse", family_data::kDeelBlocking,
     // DEEL l.427, 자리돌리기 l.480: JSON.stringify({자리, 도구, ...rest}); no session, no cwd.
     {"자리", "", "", false, "", "", "도구", "", "", "UserPromptSubmit", family_data::kDeelCommandArgs},
     // DEEL l.444-457: exit 0 passes, exit 2 blocks at a blocking point with stdout (+stderr)
     // as the message; any output at all is shown to the user (l.431-434).
     ReplyReading::kExitStatus, 2, MessageStream::kStdoutAndStderr, /*ask_on_gate=*/false,
     {"~/.deel/hooks.json (이 PC)", "<project>/.deel/hooks.json", "DEEL_HOME, DEEL_HOOKS"},
     "shared/seeds/004_10d55d7627512262.txt (package/src/safety/hooks.js)",
     10000},  // DEEL l.279-284: seconds, default 15, capped at 120
    {Family::kClaude, "claude-code", "Claude Code", {"claude-code", "claude", "", ""}, "claude",
     "claude-code", "claude_code",
     // CC: Claude Code also runs against Bedrock and Vertex; the payload names no provider.
     "", event_lists::kClaude, event_lists::kClaudeInstalled, {}, family_data::kClaudeTools,
     "PreToolUse", family_data::kClaudeBlocking,
     // CC hook stdin: session_id, transcript_path, cwd, hook_event_name; tool_name, tool_input,
     // tool_use_id on the tool events.
     {"hook_event_name", "session_id", "cwd", false, "transcript_path", "", "tool_name",
      "tool_input", "tool_use_id", "UserPromptSubmit", family_data::kClaudeCommandArgs},
     // CC (measured): exit 0 + hookSpecificOutput JSON on stdout decides; exit 2 blocks with
     // stderr as the message (`PreToolUse:Bash hook error: … <stderr>`).
     ReplyReading::kBoth, 2, MessageStream::kStderr, /*ask_on_gate=*/true,
     {"~/.claude/settings.json",
      "<project>/.claude/settings.json, <project>/.claude/settings.local.json", "--settings FILE"},
     "shared/reference/real-hosts.md (Claude Code 2.1.332); https://code.claude.com/docs/en/hooks",
     10000},  // seconds in the file (CCDOC "timeout"); far below its 600 s default
};
inline constexpr std::size_t kFamilyCount = sizeof kFamilies / sizeof kFamilies[0];

// The descriptor of f.
constexpr const FamilyDescriptor& descriptor(Family f) {
  return kFamilies[static_cast<std::size_t>(f)];
}
// Every family, in registration order (for loops over the registry).
constexpr std::span<const FamilyDescriptor> families() { return kFamilies; }

// The family whose `--agent` labels hold `label` (exact), or none: an unknown label has no
// family (the adapter answers it with the fail-safe reply).
constexpr std::optional<Family> family_for_label(std::string_view label) {
  for (const auto& d : kFamilies)
    for (auto l : d.agent_labels)
      if (!l.empty() && l == label) return d.id;
  return std::nullopt;
}
// The family named `name` (its name or any of its labels), or none.
constexpr std::optional<Family> family_by_name(std::string_view name) {
  for (const auto& d : kFamilies)
    if (d.name == name) return d.id;
  return family_for_label(name);
}

// The host's own event name for an alias the host also accepts; other names are returned as
// given (the view stays valid: either `event` or a literal).
constexpr std::string_view canonical_event_name(Family f, std::string_view event) {
  for (const auto& a : descriptor(f).aliases)
    if (a.alias == event) return a.event;
  return event;
}

constexpr bool in_list(std::span<const std::string_view> list, std::string_view e) {
  for (auto x : list)
    if (x == e) return true;
  return false;
}
constexpr bool sends_event(Family f, std::string_view event) {
  return in_list(descriptor(f).events, canonical_event_name(f, event));
}
constexpr bool is_tool_event(Family f, std::string_view event) {
  return in_list(descriptor(f).tool_events, canonical_event_name(f, event));
}
constexpr bool is_gate_event(Family f, std::string_view event) {
  return descriptor(f).gate_event == canonical_event_name(f, event);
}
constexpr bool blocks_on(Family f, std::string_view event) {
  return in_list(descriptor(f).blocking_events, canonical_event_name(f, event));
}
// An exit-code host: the adapter answers by exit status, and an allow is no output at all.
constexpr bool answers_by_exit_status(Family f) {
  return descriptor(f).reads == ReplyReading::kExitStatus;
}

// "gemini|antigravity|deel|claude-code": the family names for help strings and errors.
inline std::string family_names(std::string_view sep = "|") {
  std::string s;
  for (const auto& d : kFamilies) {
    if (!s.empty()) s += sep;
    s += d.name;
  }
  return s;
}

// "gemini, antigravity, agy, …": every --agent label, for the adapter's note on an unknown label.
inline std::string agent_label_list(std::string_view sep = ", ") {
  std::string s;
  for (const auto& d : kFamilies)
    for (auto l : d.agent_labels) {
      if (l.empty()) continue;
      if (!s.empty()) s += sep;
      s += l;
    }
  return s;
}

// The registry is consistent (checked at compile time).
namespace family_data {
constexpr bool registry_ok() {
  for (std::size_t i = 0; i < kFamilyCount; ++i) {
    const auto& d = kFamilies[i];
    if (static_cast<std::size_t>(d.id) != i) return false;          // Family indexes kFamilies
    if (d.agent_labels[0].empty()) return false;                     // a label to install
    if (!in_list(d.events, d.gate_event)) return false;              // the gate is an event
    for (auto e : d.installed) if (!in_list(d.events, e)) return false;
    for (auto e : d.tool_events) if (!in_list(d.events, e)) return false;
    for (auto e : d.blocking_events) if (!in_list(d.events, e)) return false;
    for (const auto& a : d.aliases) if (!in_list(d.events, a.event)) return false;
    if (d.reads != ReplyReading::kJsonStdout && d.block_status == 0) return false;
    for (std::size_t j = 0; j < kFamilyCount; ++j)                  // labels are unique
      for (std::size_t a = 0; a < d.agent_labels.size(); ++a)
        for (std::size_t b = 0; b < kFamilies[j].agent_labels.size(); ++b)
          if (i != j && !d.agent_labels[a].empty() &&
              d.agent_labels[a] == kFamilies[j].agent_labels[b])
            return false;
  }
  return true;
}
static_assert(registry_ok(), "host family registry is inconsistent (pinta/hosts/family.h)");
}  // namespace family_data

}  // namespace pinta::hosts
