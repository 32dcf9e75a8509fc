// PINTA-PLACEHOLDER: replaced by the emulator helper (`hostemu copilot …`).
#include "hostemu_cli.h"

namespace pinta::hostemu::copilot {
void add_commands(CLI::App&, Action&) {}
}  // namespace pinta::hostemu::copilot
