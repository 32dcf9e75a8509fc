#!/usr/bin/env bash
# The real-CLI differential lanes in full: every ctest labelled sweep (each also labelled
# real-host), with PINTA_REAL_HOST_FULL=1 so each runs all its hand scenarios (the README's test
# command, ci/test.sh, runs a fixed slice of each: emulator/lanes/real_slice.py). Builds nothing:
# run it after ci/test.sh (or ci/build.sh) in the same tree. Extra arguments go to ctest (-R codex).
#
# The full sets together take longer than the CI stage that runs them (.ci/run gives it 12
# minutes; the third-party corpus's real re-measurement alone takes ~11), so the lanes run one
# after another in an order rotated by the day (days since 1970 modulo the number of lanes,
# PINTA_SWEEP_ROTATE=K overrides the day): the stage's budget cuts the tail, and a lane cut today
# is near the head on a later day, as ci/drift.sh rotates releases. Each lane prints its start,
# so a cut run says which lanes ran.
# Exit: 0 when every lane that ran passed (a lane whose CLI cannot be installed is SKIPPED by its
# own exit 77); otherwise ctest's status of the first failing lane, after the rest have run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ ! -f build/CTestTestfile.cmake ]; then
  echo "real-hosts: no build/ test tree; run ci/test.sh or ci/build.sh first" >&2
  exit 2
fi
mapfile -t lanes < <(ctest --test-dir build -N -L sweep "$@" | sed -n 's/^ *Test *#[0-9]*: //p')
n=${#lanes[@]}
if [ "$n" = 0 ]; then
  echo "real-hosts: no ctest labelled sweep${*:+ matches $*}" >&2
  exit 1
fi
rotate=${PINTA_SWEEP_ROTATE:-$(( $(date +%s) / 86400 ))}
case "$rotate" in ''|*[!0-9]*) echo "real-hosts: PINTA_SWEEP_ROTATE must be a number, not '$rotate'" >&2; exit 2 ;; esac
rc=0
for ((i = 0; i < n; i++)); do
  lane=${lanes[$(( (rotate + i) % n ))]}
  echo "real-hosts: lane $((i + 1)) of $n: $lane (started $(date -u +%H:%M:%S))"
  PINTA_REAL_HOST_FULL=1 ctest --test-dir build -R "^${lane}\$" --output-on-failure \
    --no-tests=error -j"$(nproc)" || { s=$?; [ "$rc" != 0 ] || rc=$s; }
done
exit "$rc"
