// File: pinta/emulator/copilot/copilot.h
// PINTA-PLACEHOLDER: replaced by the emulator helper (running Copilot CLI 1.0 hooks: spawning,
// the fail-closed gate, both formats' readings, what the model reads).
#pragma once

#include "pinta/hosts/copilot/copilot.h"
