#!/usr/bin/env bash
# Configures and builds pinta-gemini (RelWithDebInfo, tests on); binaries land in build/bin/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPINTA_BUILD_TESTS=ON
cmake --build build -j"$(nproc)"
