// PINTA-PLACEHOLDER: replaced by the emulator helper.
#pragma once
#include "pinta/hosts/codex/codex.h"
