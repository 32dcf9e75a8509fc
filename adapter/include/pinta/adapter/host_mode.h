// File: pinta/adapter/host_mode.h
// Whether the host that spawned the adapter can answer a prompt. Antigravity's `agy -p`/`--print`
// cannot: an `ask` there fails every tool call (Emanuele-web04/synara PR #1096), so
// PINTA_GUARD_REVIEW=ask is not applied under it (docs/contract.md GUARD-8). Read only on the
// REVIEW + ask path, never on the hot path.
#pragma once

#include <string_view>
#include <vector>

namespace pinta::adapter {

// Whether an agy command line (argv[1..]) selects print mode: `-p`, `--print`, `--prompt` or their
// `=value` forms, before a `--`. `--print-timeout` and `-i`/`--prompt-interactive` do not.
bool agy_args_print_mode(const std::vector<std::string_view>& args) noexcept;

// Walks at most 8 ancestors up from `pid` under `proc_root` (Linux procfs: <pid>/cmdline and
// <pid>/stat) to the nearest process whose argv[0] base name is `agy`, and reports whether it runs
// in print mode. false when there is none within reach or procfs cannot be read.
bool agy_ancestor_in_print_mode(int pid, const char* proc_root = "/proc") noexcept;

// The seam main installs (Services::host_cannot_prompt): agy_ancestor_in_print_mode(getppid()).
bool agy_parent_cannot_prompt() noexcept;

}  // namespace pinta::adapter
