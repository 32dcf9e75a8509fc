#!/usr/bin/env bash
# The adversarial mode (contract GUARD-14) can fail: against zoo member ignore_guard.sh (our
# adapter that never asks the guard) a short campaign must exit 1 and count its runs as
# guard-not-asked. Usage: adversarial_catches.sh CAMPAIGN ADAPTER SOURCE_DIR OUT_DIR
set -euo pipefail
campaign=$1 adapter=$2 src=$3 out=$4
rm -rf "$out"
rc=0
summary=$("$campaign" --adversarial --adapter "bash $src/conformance/zoo/ignore_guard.sh $adapter" \
  --host gemini --runs 3 --seed 5 --jobs 2 --quiet --out "$out" 2>/dev/null) || rc=$?
if [ "$rc" -ne 1 ]; then
  echo "FAIL: the campaign exited $rc against an adapter that skips the guard (want 1)"; exit 1
fi
n=$(printf '%s' "$summary" | python3 -c 'import json,sys; print(json.load(sys.stdin)["by_violation"].get("guard-not-asked", 0))')
if [ "$n" -lt 1 ]; then
  echo "FAIL: no guard-not-asked finding: $summary"; exit 1
fi
echo "PASS: $n runs reported guard-not-asked"
