#!/usr/bin/env bash
# Conformance verdicts under CPU contention: our adapter must pass every MUST case of
# `conformance run --host all --strict` (and no case outside conformance/known-failures.txt may
# fail) on a machine kept busy by K busy loops per core plus a compile loop (a parallel build's
# load), N runs out of N; and under the same load the zoo's slow and guard-ignoring adapters must
# still fail the cases they name (a calibrated budget or a rerun must never let them pass).
#
# usage: ci/stress-conformance.sh [--short] [--runs N] [--busy-per-core K] [--no-build-load]
#                                 [--bin DIR] [--budget SECONDS]
#   default: 10 runs, 4 busy loops per core, a compile loop, every case (the full figures in
#   docs/benchmarks-history.md, "Conformance under load").
#   --short: 1 run of the latency-sensitive areas (GUARD, DEEL, PERF) and two zoo members, 2 busy
#   loops per core, no compile loop (ctest conformance_stress_short; .ci/run through ci/test.sh).
# Bounded: every load process is started under `timeout BUDGET` (default 900 s; --short 240 s) and
# killed by its PID when the script ends; the whole script stops at BUDGET too. Exit 0 when every
# run passed and every zoo member was caught, 1 otherwise, 2 on a usage error.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs=10 per_core=4 build_load=1 bin=build/bin budget=900 short=0
while [ $# -gt 0 ]; do
  case "$1" in
    --short) short=1; runs=1; per_core=2; build_load=0; budget=240 ;;
    --runs) runs="$2"; shift ;;
    --busy-per-core) per_core="$2"; shift ;;
    --no-build-load) build_load=0 ;;
    --bin) bin="$2"; shift ;;
    --budget) budget="$2"; shift ;;
    *) echo "stress-conformance.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
conf="$bin/conformance" adapter="$bin/pinta-gemini"
for b in "$conf" "$adapter"; do
  [ -x "$b" ] || { echo "stress-conformance.sh: $b is not built" >&2; exit 2; }
done
end=$(( $(date +%s) + budget ))
tmp="$(mktemp -d /tmp/pinta-stress-XXXXXX)"
# Private copies: a build of the tree during the runs (they take many minutes) must not swap the
# binaries under them (an exec of a half-written file fails: "Permission denied").
mkdir -p "$tmp/bin"
cp "$conf" "$adapter" "$tmp/bin/"
conf="$tmp/bin/$(basename "$conf")" adapter="$tmp/bin/$(basename "$adapter")"
source ci/stress-load.sh
stop_load() { stress_load_stop; }
trap 'stop_load; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
stress_load_start "$per_core" "$build_load" "$budget" "$tmp"
echo "stress: $(stress_load_desc), $runs run(s), budget ${budget} s"
sleep 2

known=$(grep -vE '^\s*(#|$)' conformance/known-failures.txt | awk '{print $1}' | sort)
failed_runs=0
for i in $(seq "$runs"); do
  left=$(( end - $(date +%s) ))
  [ "$left" -gt 30 ] || { echo "stress: out of budget before run $i"; failed_runs=$((failed_runs + 1)); break; }
  areas=("")
  [ "$short" = 1 ] && areas=(GUARD- DEEL- PERF-)
  for area in "${areas[@]}"; do
    rep="$tmp/run$i${area}"
    args=(run --adapter "$adapter" --host all --strict --jobs 2 --report "$rep")
    [ -n "$area" ] && args+=(--filter "$area")
    t0=$(date +%s.%N)
    # In the background and waited for, so that a TERM reaches the traps (and the load stops) at once.
    timeout "$left" "$conf" "${args[@]}" >"$rep.out" 2>&1 &
    load_pids+=($!)
    wait $!
    rc=$?
    t1=$(date +%s.%N)
    load=$(cut -d' ' -f1 /proc/loadavg)
    python3 - "$rep/report.json" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" "$load" "$i" "${area:-all}" <<'PY' >"$rep.verdict"
import json, sys
path, rc, secs, load, i, area = sys.argv[1:]
try:
    r = json.load(open(path))
except Exception as e:
    print(f"run {i} {area}: no report (exit {rc}): {e}"); print("VERDICT fail"); sys.exit()
bad = ("FAIL", "XPASS", "UNRESOLVED", "DEADLINE")
must = [c["id"] for c in r["cases"] if c["state"] in bad and c["level"] == "must"]
strict = [c["id"] for c in r["cases"] if c["state"] in bad]
base = [h["runs"][-1].get("baseline_median_ms") for c in r["cases"] if c["area"] == "PERF"
        for h in c["hosts"] if h.get("runs") and isinstance(h["runs"][-1], dict)
        and "baseline_median_ms" in h["runs"][-1]]
base = sorted(b for b in base if b is not None)
rr = r.get("reran", {})
print(f"run {i} {area}: {float(secs):.1f} s, load {load}, {r['passed']} passed, {r['failed']} failed"
      f" (must: {len(must)}), reran alone {rr.get('units', 0)} (passed {rr.get('passed', 0)}),"
      f" no-op hook median {base[len(base)//2] if base else '-'} ms")
print("STRICT " + " ".join(strict))
print("MUST " + " ".join(must))
PY
    head -1 "$rep.verdict"
    must=$(sed -n 's/^MUST //p' "$rep.verdict")
    strict=$(sed -n 's/^STRICT //p' "$rep.verdict" | tr ' ' '\n' | grep . | sort)
    extra=$(comm -23 <(printf '%s\n' "$strict" | grep . || true) <(printf '%s\n' "$known") | tr '\n' ' ')
    if grep -q '^VERDICT fail' "$rep.verdict" || [ -n "$must" ] || [ -n "${extra// /}" ]; then
      echo "  FAILED: must [$must], outside known-failures [$extra]"
      grep -E '^(FAIL|DEADLINE|UNRESOLVED|XPASS): ' "$rep.out" | head -20 | sed 's/^/    /'
      failed_runs=$((failed_runs + 1))
    fi
  done
done

# The zoo under the same load: each must still fail what it names.
zoo_missed=0
zoo=("slow.sh PERF-0001" "ignore_guard.sh GUARD-0001")
[ "$short" = 1 ] || zoo+=("guard_no_budget.sh GUARD-0004" "hangs.sh EXIT-0001" "exit1.sh EXIT-0001"
                          "read_to_eof.sh INPUT-0007")
for z in "${zoo[@]}"; do
  set -- $z
  left=$(( end - $(date +%s) ))
  [ "$left" -gt 10 ] || { echo "stress: out of budget before zoo $1"; zoo_missed=$((zoo_missed + 1)); continue; }
  timeout "$left" "$conf" run --adapter "sh $PWD/conformance/zoo/$1 $adapter" --host all --strict \
    --jobs 2 --filter "$2" >"$tmp/zoo-$1.out" 2>&1 &
  load_pids+=($!)
  wait $!
  rc=$?
  if [ "$rc" = 1 ]; then echo "zoo $1: caught by $2 (exit 1) — $(grep -E 'run again alone' "$tmp/zoo-$1.out" | head -1)"
  else echo "zoo $1: NOT caught by $2 (exit $rc)"; tail -5 "$tmp/zoo-$1.out"; zoo_missed=$((zoo_missed + 1)); fi
done
stop_load
echo "stress: $(( runs - failed_runs )) of $runs run(s) passed, $(( ${#zoo[@]} - zoo_missed )) of ${#zoo[@]} zoo members caught"
[ "$failed_runs" = 0 ] && [ "$zoo_missed" = 0 ]
