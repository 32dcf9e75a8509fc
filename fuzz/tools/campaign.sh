#!/usr/bin/env bash
# In-process campaign: runs each libFuzzer harness of a PINTA_FUZZ=ON build for a fixed time,
# one worker each, niced, growing a scratch corpus, and prints one line per harness with total
# execs and exec rate (from -print_final_stats). docs/fuzzing.md records the measured runs.
# Usage: fuzz/tools/campaign.sh BUILD_DIR SECONDS_PER_HARNESS OUT_DIR [harness...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:?build dir}; seconds=${2:?seconds}; out=${3:?out dir}; shift 3
mkdir -p "$out"
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for d in "$root"/fuzz/*/; do names+=("$(basename "$d")"); done
fi
for name in "${names[@]}"; do
  bin="$build/bin/fuzz_$name"
  [ -x "$bin" ] || continue
  dir="$root/fuzz/$name"
  mkdir -p "$out/corpus-$name" "$out/artifacts"
  inputs=("$out/corpus-$name")
  for d in "$dir/corpus" "$dir/regressions" "$build/fuzz-corpus/$name"; do
    [ -d "$d" ] && inputs+=("$d")
  done
  dict=()
  [ -f "$dir/$name.dict" ] && dict=("-dict=$dir/$name.dict")
  nice -n 10 "$bin" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$out/artifacts/$name-" "${inputs[@]}" >"$out/$name.log" 2>&1 || true
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$name.log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out/$name.log" | tail -1)
  crashes=$(ls "$out/artifacts" 2>/dev/null | grep -c "^$name-" || true)
  echo "$name execs=${execs:-0} rate=${rate:-0}/s seconds=$seconds artifacts=$crashes"
done
