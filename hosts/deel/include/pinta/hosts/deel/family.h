// File: pinta/hosts/deel/family.h
// deel-local-cli 1.17 as a registered family: its descriptor (pinta/hosts/family_types.h), every
// fact with its evidence. DEEL l.n = shared/seeds/004_10d55d7627512262.txt line n
// (deel-local-cli 1.17.1 package/src/safety/hooks.js); SPEC§n = seed 000 section n.
#pragma once

#include "pinta/hosts/family_types.h"

namespace pinta::hosts::deel {

// DEEL l.213-218 (도구전, 도구후, 말전, 턴끝) under their Claude-style names.
inline constexpr std::array<std::string_view, 4> kEvents = {"PreToolUse", "PostToolUse",
                                                            "UserPromptSubmit", "Stop"};
inline constexpr std::array<std::string_view, 4> kInstalled = kEvents;
// DEEL l.213-218 (자리표): the Korean names deel-local-cli itself uses.
inline constexpr std::array<EventAlias, 4> kAliases = {{{"도구전", "PreToolUse"},
                                                        {"도구후", "PostToolUse"},
                                                        {"말전", "UserPromptSubmit"},
                                                        {"턴끝", "Stop"}}};
inline constexpr std::array<std::string_view, 2> kTools = {"PreToolUse", "PostToolUse"};
// DEEL l.221: the blocking points are 도구전 and 말전.
inline constexpr std::array<std::string_view, 2> kBlocking = {"PreToolUse", "UserPromptSubmit"};
// DEEL l.596-605 (확인인자): its rules read Bash's `command`, the file tools' `file_path`,
// WebFetch's `url`, Grep's `pattern`.
inline constexpr std::array<std::string_view, 5> kCommandArgs = {"command", "file_path", "url",
                                                                 "pattern", "content"};

// Exit-code protocol. Allow = no output + exit 0: exit 0 passes (DEEL l.444) but stdout+stderr
// are still shown to the user as a note (DEEL l.431-434; repl.js hook_note), so even `{}` would be
// noise.
inline constexpr EventReply kReplies[] = {
    {"PreToolUse", true, "",
     "DEEL l.213-221: 도구전 is a blocking point; exit 2 blocks with stdout as the message "
     "(l.452, 막힘말 l.504-511); exit 0 passes (l.444)."},
    {"PostToolUse", false, "",
     "DEEL l.221: 도구후 is not a blocking point; exit 2 cannot block there (l.452)."},
    {"UserPromptSubmit", false, "",
     "DEEL l.221: 말전 is a blocking point, but the guard judges tool calls only (SPEC §7.2); "
     "never blocks here."},
    {"Stop", false, "", "DEEL l.221: 턴끝 is not a blocking point."},
};

inline constexpr FamilyDescriptor kDescriptor = {
    Family::kDeel, "deel", "deel-local-cli", {"deel", "", "", ""}, "deel", "deel-local-cli", "deel",
    // DEEL l.427: the payload names no model.
    "", kEvents, kInstalled, kAliases, kTools, "PreToolUse", kBlocking,
    // DEEL l.427, 자리돌리기 l.480: JSON.stringify({자리, 도구, ...rest}); no session, no cwd.
    {.event_key = "자리", .tool_name = "도구", .turn_start_event = "UserPromptSubmit",
     .command_args = kCommandArgs},
    // DEEL l.444-457: exit 0 passes, exit 2 blocks at a blocking point with stdout (+stderr)
    // as the message; any output at all is shown to the user (l.431-434).
    ReplyReading::kExitStatus, 2, MessageStream::kStdoutAndStderr, /*ask_on_gate=*/false,
    {"~/.deel/hooks.json (이 PC)", "<project>/.deel/hooks.json", "DEEL_HOME, DEEL_HOOKS",
     // Hooks are read once per session (seed 004 repl.js l.72-79).
     "restart deel-local-cli to load the hooks"},
    "shared/seeds/004_10d55d7627512262.txt (package/src/safety/hooks.js)",
    10000,  // DEEL l.279-284: seconds, default 15, capped at 120
    kReplies,
    // DEEL l.452 + 막힘말 l.504-511: the host quotes stdout verbatim in the block message, so the
    // deny is the reason as plain text. No native ask (DEEL l.444-457: pass or block only). Any
    // output on an unknown event would be shown to the user (l.431-434): nothing.
    {"{T}", "", "guard_deny", ""},
    // One version, no profiles (emulator/hosts/deel).
    HostSource{"deel-1.17"},
};

}  // namespace pinta::hosts::deel
