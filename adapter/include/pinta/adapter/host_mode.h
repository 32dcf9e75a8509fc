// File: pinta/adapter/host_mode.h
// Whether the host that spawned the adapter can answer a prompt. A family whose host program has a
// print mode where an `ask` fails every tool call states it in its descriptor (PrintMode, with the
// evidence), and PINTA_GUARD_REVIEW=ask is not applied under it (docs/contract.md GUARD-8). Read
// only on the REVIEW + ask path, never on the hot path.
#pragma once

#include <string_view>
#include <vector>

#include "pinta/hosts/family_types.h"

namespace pinta::adapter {

// Whether a command line (argv[1..]) of the mode's program selects print mode: one of its flags
// or its `=value` form, before a `--`. Other flags sharing a prefix (`--print-timeout`) do not.
bool args_select_print_mode(const hosts::PrintMode& mode,
                            const std::vector<std::string_view>& args) noexcept;

// Walks at most 8 ancestors up from `pid` under `proc_root` (Linux procfs: <pid>/cmdline and
// <pid>/stat) to the nearest process whose argv[0] base name is the mode's program, and reports
// whether it runs in print mode. false when there is none within reach or procfs cannot be read.
bool ancestor_in_print_mode(const hosts::PrintMode& mode, int pid,
                            const char* proc_root = "/proc") noexcept;

// The seam main installs (Services::host_cannot_prompt): ancestor_in_print_mode(mode, getppid()).
bool parent_cannot_prompt(const hosts::PrintMode& mode) noexcept;

}  // namespace pinta::adapter
