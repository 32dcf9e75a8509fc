#!/usr/bin/env bash
# Sets up, builds, and runs the project's main job: the conformance suite (conformance/cases) against
# the built adapter under every emulated host, with reports in build/conformance-report/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash ci/install-deps.sh
bash ci/build.sh

exec build/bin/conformance run --adapter build/bin/pinta-gemini --host all --report build/conformance-report
