#!/usr/bin/env bash
# Runs the conformance suite against every zoo member (conformance/zoo/*.sh: our adapter plus one
# flaw) and checks that each fails (exit status exactly 1) — with --strict for members whose flaw
# only breaks SHOULD cases (listed in STRICT). Usage: run-zoo.sh CONFORMANCE ADAPTER [MEMBER...]
set -u
conf="$1"; adapter="$2"; shift 2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
STRICT=" slow "
members=("$@")
if [ ${#members[@]} -eq 0 ]; then
  for f in "$here"/*.sh; do n=$(basename "$f" .sh); [ "$n" = run-zoo ] || members+=("$n"); done
fi
bad=0
for m in "${members[@]}"; do
  flags=()
  case "$STRICT" in *" $m "*) flags=(--strict);; esac
  out=$("$conf" run --adapter "sh $here/$m.sh $adapter" --host all --jobs 2 "${flags[@]}" 2>&1)
  rc=$?
  failed=$(printf '%s\n' "$out" | grep -E '^(FAIL|XPASS|UNRESOLVED): ' | sed 's/ (.*//' | tr '\n' ' ')
  if [ $rc -eq 1 ]; then
    echo "zoo $m: caught by ${failed}"
  else
    echo "zoo $m: NOT caught (exit $rc)"; printf '%s\n' "$out" | tail -3; bad=1
  fi
done
exit $bad
