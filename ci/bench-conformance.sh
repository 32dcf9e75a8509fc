#!/usr/bin/env bash
# Wall time of `conformance run --host all --strict` (the full case set under every emulated
# host) for our adapter and for zoo members (our adapter plus one flaw each): by default the ones
# that were slow to judge before the run learned to stop once its verdict is settled: a child
# holding stdout (child_holds_stdout), a hang that ignores SIGTERM (hangs), 4 MiB of output
# (floods_output), stdin never read (ignores_stdin), a 300 ms sleep (slow), reading stdin to EOF
# (read_to_eof), waiting 5 s on the guard (guard_no_budget), a collector post that never ends
# (forged_spans, genai_execute_tool_everywhere), a deel reply after the guard's answer
# (deel_waits_for_guard); `--members all` grades every member of conformance/zoo/.
#
# Usage: ci/bench-conformance.sh [--runs N] [--members "a b ..."|all] [--markdown FILE]
#
# Builds nothing: expects build/bin/conformance and build/bin/pinta-gemini. Each program is graded
# N times (default 1), round robin; prints the median wall seconds and CPU seconds (user + system
# of the grader and every process it waited for), the load average range, the case counts, the
# stop or deadline line of the summary, and the targets (ours <= 10 s; a broken zoo member gets
# its verdict in <= 15 s: issues "Conformance for every hook author" item 2 and "Performance
# round 3" target 5) with PASS/MISS. A MISS is reported, never fatal: the exit status is non-zero
# only when something could not run at all, or a member was not judged a failure (exit 1).
set -euo pipefail

runs=1
markdown=""
members="child_holds_stdout hangs floods_output ignores_stdin slow read_to_eof guard_no_budget
forged_spans genai_execute_tool_everywhere deel_waits_for_guard"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=${2:?--runs needs a number}; shift 2 ;;
    --members) members=${2?--members needs a list}; shift 2 ;;
    --markdown) markdown=${2:?--markdown needs a file}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-conformance: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
conf="$root/build/bin/conformance"
adapter="$root/build/bin/pinta-gemini"
for f in "$conf" "$adapter"; do
  [ -x "$f" ] || { echo "bench-conformance: $f is missing (build it first)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "$members" = all ]; then
  members=$(cd "$root/conformance/zoo" && ls -- *.sh | sed 's/\.sh$//' | tr '\n' ' ')
fi
names=(ours)
cmds=("$adapter")
for m in $members; do
  [ -f "$root/conformance/zoo/$m.sh" ] || { echo "bench-conformance: no zoo member $m" >&2; exit 2; }
  names+=("$m")
  cmds+=("bash $root/conformance/zoo/$m.sh $adapter")
done

for ((r = 0; r < runs; r++)); do
  for i in "${!names[@]}"; do
    log="$tmp/${names[$i]}.$r.log"
    cut -d' ' -f1 /proc/loadavg >>"$tmp/loads"
    rc=0
    # bash's time: wall, and user + system CPU of the grader and every process it waited for.
    { TIMEFORMAT='%R %U %S'; time "$conf" run --adapter "${cmds[$i]}" --host all --strict \
      >"$log" 2>&1 || rc=$?; } 2>"$tmp/time"
    if [ "$rc" -gt 1 ]; then
      echo "bench-conformance: grading ${names[$i]} failed to run (exit $rc):" >&2
      tail -3 "$log" >&2
      exit 2
    fi
    if [ "${names[$i]}" != ours ] && [ "$rc" != 1 ]; then
      echo "bench-conformance: zoo member ${names[$i]} was not judged a failure (exit $rc)" >&2
      tail -3 "$log" >&2
      exit 2
    fi
    awk '{printf "%.2f\n", $1}' "$tmp/time" >>"$tmp/${names[$i]}.times"
    awk '{printf "%.2f\n", $2 + $3}' "$tmp/time" >>"$tmp/${names[$i]}.cpu"
  done
done

host=$(nproc)
out="| adapter | median wall s | median CPU s | target s | result | summary |
|---|---:|---:|---:|---|---|"
for i in "${!names[@]}"; do
  n=${names[$i]}
  med=$(sort -g "$tmp/$n.times" | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}')
  cpu=$(sort -g "$tmp/$n.cpu" | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}')
  target=15
  [ "$n" = ours ] && target=10
  res=$(awk -v m="$med" -v t="$target" 'BEGIN {print (m <= t) ? "PASS" : "MISS"}')
  last="$tmp/$n.$((runs - 1)).log"
  summary=$(grep -E '^[0-9]+ passed' "$last" | sed -E 's/ \(.*//')
  dl=$(grep -E '^[0-9]+ case\(s\) (hit a deadline|not run)' "$last" | sed -E 's/ unit\(s\)//g' | tr '\n' ' ' || true)
  out+="
| $n | $med | $cpu | $target | $res | $summary${dl:+; $dl} |"
done
loads=$(sort -g "$tmp/loads" | awk '{a[NR]=$1} END {print a[1] "-" a[NR]}')
echo "conformance run --host all --strict, $runs run(s) each, $host CPU(s), load average $loads at the runs' starts:"
echo "$out"
if [ -n "$markdown" ]; then
  { echo "$out"; echo; } >>"$markdown"
fi
