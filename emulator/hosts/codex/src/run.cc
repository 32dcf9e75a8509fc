// PINTA-PLACEHOLDER: replaced by the emulator helper.
#include "pinta/emulator/codex/codex.h"
