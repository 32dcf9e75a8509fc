#!/usr/bin/env bash
# intent: context
# A SessionStart context injector (bash + jq) in plain text: Claude Code gives what a SessionStart
# or UserPromptSubmit hook prints on exit 0 to the model as context
# (`SessionStart:startup hook success: <stdout>`).
set -euo pipefail
dir="$(jq -r '.cwd // "."' | xargs basename)"
echo "Project $dir: run the tests with ctest before saying a change works."
