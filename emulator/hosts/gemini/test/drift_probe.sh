#!/usr/bin/env bash
# ctest gemini_drift_probe (label real-host): `hostemu drift` for the CI-pinned older Gemini CLI
# versions (one per non-default profile: 0.26.0, 0.35.3, 0.40.1) must report 0 differences against
# their version profiles. 0.61.0 itself is covered by emulator_gemini_real_session_test; the other
# probed versions are recorded in docs/gemini-versions.md (each install is ~300-470 MB).
# Usage: drift_probe.sh HOSTEMU SOURCE_DIR VERSION...   Exit 77 (SKIPPED) when npm/Node or the
# registry is unreachable and nothing is cached.
set -uo pipefail
hostemu=$1 src=$2
shift 2
for v in "$@"; do
  bash "$src/ci/npm-hosts.sh" "$v" >/dev/null 2>"${TMPDIR:-/tmp}/drift-probe-$$.err"
  rc=$?
  if [[ $rc -eq 3 || $rc -eq 4 ]]; then
    echo "SKIPPED: @google/gemini-cli@$v unavailable: $(head -1 "${TMPDIR:-/tmp}/drift-probe-$$.err")"
    rm -f "${TMPDIR:-/tmp}/drift-probe-$$.err"
    exit 77
  fi
  rm -f "${TMPDIR:-/tmp}/drift-probe-$$.err"
done
status=0
for v in "$@"; do
  "$hostemu" drift --host gemini --version "$v" --jobs 2 || status=1
done
exit $status
