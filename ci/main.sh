#!/usr/bin/env bash
# Sets up, builds, and runs the project's main job: the conformance suite against the adapter
# when the conformance runner is built, otherwise a replay of the recorded host fixtures.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash ci/install-deps.sh
bash ci/build.sh

adapter=build/bin/pinta-gemini
if [ -x build/bin/conformance ]; then
  exec build/bin/conformance run --adapter "$adapter" --host all
else
  exec bash ci/replay-fixtures.sh "$adapter"
fi
