// PINTA-PLACEHOLDER: replaced by the emulator helper.
#include "pinta/emulator/copilot/copilot.h"
