#!/usr/bin/env bash
# Replays every recorded host payload through the adapter under every emulated host and says what
# the host would do with each reply: a thin wrapper over `hostemu replay` (emulator/src/replay_cli.cc),
# which the ctests fixtures_replay_<host> also run.
#
# Usage: ci/replay-fixtures.sh [--update-golden] ADAPTER [FIXTURES_DIR]
#
# Runs every host listed in FIXTURES_DIR/golden/hosts.txt (hosts of the registry that
# `hostemu replay --help` lists): Gemini fixtures under the gemini-* hosts, deel fixtures under
# deel-1.17, Antigravity fixtures under each Antigravity profile. hostemu is taken from the
# adapter's directory (build/bin) unless HOSTEMU is set. Each run checks the hook contract, the
# fail-safe effect on n_ files and the goldens in FIXTURES_DIR/golden/: shared/<fixture path>, or
# <host>/<fixture path> where that host's effect differs (rewritten only with --update-golden). Exits 1 if any host run fails, 2 on usage errors.
set -uo pipefail

update=()
if [[ "${1:-}" == --update-golden ]]; then update=(--update-golden); shift; fi
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 [--update-golden] ADAPTER [FIXTURES_DIR]" >&2
  exit 2
fi
adapter=$(realpath -e -- "$1") || { echo "replay-fixtures: no adapter at $1" >&2; exit 2; }
[ -x "$adapter" ] || { echo "replay-fixtures: $adapter is not executable" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fixtures=$(realpath -e -- "${2:-$root/fixtures}") || { echo "replay-fixtures: no fixtures dir" >&2; exit 2; }
hostemu="${HOSTEMU:-$(dirname "$adapter")/hostemu}"
[ -x "$hostemu" ] || { echo "replay-fixtures: no hostemu at $hostemu (build the hostemu target or set HOSTEMU)" >&2; exit 2; }

failed=0
hosts=()
[ -r "$fixtures/golden/hosts.txt" ] || { echo "replay-fixtures: no $fixtures/golden/hosts.txt" >&2; exit 2; }
while read -r h _; do case "$h" in ''|'#'*) ;; *) hosts+=("$h") ;; esac; done <"$fixtures/golden/hosts.txt"
[ ${#hosts[@]} -gt 0 ] || { echo "replay-fixtures: no host in $fixtures/golden/hosts.txt" >&2; exit 2; }
for host in "${hosts[@]}"; do
  echo "== $host"
  "$hostemu" replay --host "$host" --adapter "$adapter" "${update[@]}" "$fixtures"
  rc=$?
  [ "$rc" -eq 2 ] && exit 2
  [ "$rc" -ne 0 ] && failed=$((failed + 1))
done
if [ "$failed" -ne 0 ]; then echo "replay-fixtures: $failed host run(s) failed"; exit 1; fi
echo "replay-fixtures: all hosts passed"
