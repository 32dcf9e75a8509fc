#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: answers late — 300 ms after the adapter's reply, plus four
# times the adapter's own run, so it stays over PERF's calibrated budget (50 ms + 3 x a no-op
# hook's median in the same run) however loaded the machine is: a fixed 300 ms was no longer
# caught once the no-op's median passed 83 ms (seen at load 16 with the zoo's members in parallel).
# Breaks: PERF (SHOULD, --strict)
# Catches: PERF-0001
# Strict: yes
adapter="$1"; shift
out=$(mktemp) || exit 1
t0=$(date +%s%N)
"$adapter" "$@" >"$out"
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 * 4 + 300 ))
sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
cat "$out"; rm -f "$out"
exit "$rc"
