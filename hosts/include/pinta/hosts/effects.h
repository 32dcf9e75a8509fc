// What a host does with a hook's reply, in words: each family's effect vocabulary (the effect kinds
// its emulator reports) and how `hostemu replay` words them. Pure text, no spawning.
#pragma once

#include <string>
#include <string_view>

#include "pinta/hosts/reply_check.h"

namespace pinta::hosts {

// One line saying what the host does (Gemini: shared/reference/gemini-cli-0.61-hooks.md §4.5-§6;
// Antigravity: shared/reference/antigravity-hooks.md §6-§7; deel-local-cli: seed 004 hooks.js
// 훅돌리기 l.438-457, 막힘말 l.504-511; Claude Code: docs/hosts/claude-code-2.1.md). kind: the
// emulator's effect kind; message: its message; error: Gemini's hook error text ("" when none).
std::string describe_effect(Family f, std::string_view event, const std::string& kind,
                            const std::string& message, const std::string& error);

// Whether effect `got` is the same fail-safe outcome as `want` on this family. Gemini: `{}` and an
// explicit allow both leave the tool to run (GEM§5: the aggregator's default is allow).
bool same_failsafe(Family f, const std::string& got, const std::string& want);

}  // namespace pinta::hosts
