#!/usr/bin/env bash
# Configures and builds pinta-gemini (RelWithDebInfo) in build/; binaries land in build/bin/.
#   ci/build.sh          tests on (PINTA_BUILD_TESTS=ON), every target: what ci/test.sh runs.
#   ci/build.sh --main   only the programs of the main job (ci/main.sh): pinta-gemini, conformance
#                        (which `conformance run` needs: it plays every host in-process and links
#                        the fake guard/collector), hostemu and pinta-fake-server. A new build/ is
#                        configured with PINTA_BUILD_TESTS=OFF (no GoogleTest/rapidcheck needed);
#                        an existing one keeps its setting, so a test tree stays a test tree.
# ccache is used when installed (CMakeLists.txt). A new build/ uses Ninja when it is installed
# (ci/install-deps.sh installs ninja-build): it keeps both cores busy across the named targets,
# where the Makefile generator builds them one after another; an existing build/ keeps its
# generator. Tools are compiled with PINTA_TOOLS_FLAGS and precompiled headers
# (cmake/PintaBuildSpeed.cmake); the adapter keeps -O2 -g.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

generator=()
if [ ! -f build/CMakeCache.txt ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi

main_targets=(pinta-gemini conformance hostemu pinta-fake-server)
case "${1:-}" in
  --main)
    tests=()
    [ -f build/CMakeCache.txt ] || tests=(-DPINTA_BUILD_TESTS=OFF)
    cmake -S . -B build ${generator[@]+"${generator[@]}"} -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      ${tests[@]+"${tests[@]}"}
    cmake --build build -j"$(nproc)" --target "${main_targets[@]}"
    ;;
  "")
    cmake -S . -B build ${generator[@]+"${generator[@]}"} -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DPINTA_BUILD_TESTS=ON
    cmake --build build -j"$(nproc)"
    ;;
  *) echo "build: unknown argument $1 (only --main)" >&2; exit 2 ;;
esac
