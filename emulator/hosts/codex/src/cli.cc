// PINTA-PLACEHOLDER: replaced by the emulator helper.
#include "hostemu_cli.h"

namespace pinta::hostemu::codex {
void add_commands(CLI::App&, Action&) {}
}  // namespace pinta::hostemu::codex
