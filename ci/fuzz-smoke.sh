#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang-14, -DPINTA_FUZZ=ON, ASan+UBSan) and runs each one for a
# short smoke time from its committed corpus, dictionary and regressions and the seeds the build
# generates from fixtures (build-fuzz/fuzz-corpus/, fuzz/tools/seed_corpora.py).
# Usage: ci/fuzz-smoke.sh [--seconds S] [--runs N] [--build DIR] [--only NAME] [--artifacts DIR]
#   --seconds S    time per harness (default 30)
#   --runs N       stop each harness after N executions instead (a measured campaign; --seconds
#                  then only caps the time, default 3600)
#   --build DIR    build directory (default build-fuzz; not build/fuzz, which is the fuzz/
#                  subdirectory of the main tree: ctest there would pick up this tree's tests)
#   --only NAME    run only fuzz/NAME
#   --artifacts D  where crashing inputs are written (default: a temp dir, printed on a finding)
#   --rotate N     the time budget stays seconds x harnesses, but harness number R (R = rotation
#                  index mod count) gets N of it and the others share the rest equally (at least
#                  2 s each, which still replays corpus and regressions in full). Rotation index:
#                  PINTA_FUZZ_ROTATION, else the commit count, so successive CI runs give each
#                  harness a long slice in turn (0 or unset: equal slices; ignored with --runs
#                  or --only).
# The harnesses are built with -fsanitize=undefined (PINTA_FUZZ_FLAGS), which includes
# signed-integer-overflow and shift checks, and -fno-sanitize-recover=all; the script checks that
# the UBSan overflow handlers are linked in (a harness built without them would miss what a 15 s
# UBSan run found in otlp_span).
# New corpus entries go to a temporary directory, never into fuzz/*/corpus. Exits non-zero when
# the build fails or any harness finds a crash, leak, timeout or broken property.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

seconds=30
runs=""
build=build-fuzz
only=""
artifacts=""
rotate=0
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=${2:?--seconds needs a number}; seconds_set=1; shift 2 ;;
    --runs) runs=${2:?--runs needs a number}; shift 2 ;;
    --build) build=${2:?--build needs a directory}; shift 2 ;;
    --only) only=${2:?--only needs a harness name}; shift 2 ;;
    --artifacts) artifacts=${2:?--artifacts needs a directory}; shift 2 ;;
    --rotate) rotate=${2:?--rotate needs a number}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fuzz-smoke: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$seconds" in ''|*[!0-9]*) echo "fuzz-smoke: --seconds wants a positive integer" >&2; exit 2 ;; esac
case "$rotate" in ''|*[!0-9]*) echo "fuzz-smoke: --rotate wants a number of seconds" >&2; exit 2 ;; esac
case "$runs" in *[!0-9]*) echo "fuzz-smoke: --runs wants a positive integer" >&2; exit 2 ;; esac
limit=()
if [ -n "$runs" ]; then
  [ -n "${seconds_set:-}" ] || seconds=3600
  limit=(-runs="$runs")
fi
command -v clang++-14 >/dev/null || { echo "fuzz-smoke: clang++-14 is required" >&2; exit 1; }

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DPINTA_FUZZ=ON
cmake --build "$build" -j"$(nproc)" --target fuzzers

work=$(mktemp -d "${TMPDIR:-/tmp}/pinta-fuzz-smoke.XXXXXX")
[ -n "$artifacts" ] || artifacts="$work/artifacts"
mkdir -p "$artifacts"
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

# UBSan with signed-overflow checks must be in every harness.
for bin in "$build"/bin/fuzz_*; do
  [ -x "$bin" ] || continue
  # grep reads all of nm's output (grep -q would exit early and, with pipefail, fail the check).
  if ! nm "$bin" 2>/dev/null | grep '__ubsan_handle_add_overflow' >/dev/null; then
    echo "fuzz-smoke: $bin lacks UBSan signed-overflow checks (-fsanitize=undefined)" >&2
    exit 1
  fi
done

# Per-harness time: equal slices, or one long rotating slice within the same total.
names=()
for dir in fuzz/*/; do
  name=$(basename "$dir")
  [ -x "$build/bin/fuzz_$name" ] && names+=("$name")
done
count=${#names[@]}
long_name=""
short_seconds=$seconds
if [ "$rotate" -gt "$seconds" ] && [ -z "$runs" ] && [ -z "$only" ] && [ "$count" -gt 1 ]; then
  index=${PINTA_FUZZ_ROTATION:-$(git -C "$root" rev-list --count HEAD 2>/dev/null || date +%j)}
  long_name=${names[$((index % count))]}
  total=$((seconds * count))
  short_seconds=$(( (total - rotate) / (count - 1) ))
  [ "$short_seconds" -ge 2 ] || short_seconds=2
  echo "fuzz-smoke: rotation $index: $long_name gets ${rotate}s, the other $((count - 1)) ${short_seconds}s each"
fi

rc=0
for dir in fuzz/*/; do
  name=$(basename "$dir")
  bin="$build/bin/fuzz_$name"
  [ -x "$bin" ] || continue
  [ -z "$only" ] || [ "$only" = "$name" ] || continue
  scratch="$work/corpus-$name"
  mkdir -p "$scratch"
  inputs=("$scratch")
  for d in "$dir/corpus" "$dir/regressions" "$build/fuzz-corpus/$name"; do
    [ -d "$d" ] && inputs+=("$d")
  done
  dict=()
  [ -f "$dir/$name.dict" ] && dict=("-dict=$dir/$name.dict")
  log="$work/$name.log"
  slice=$seconds
  if [ -n "$long_name" ]; then
    slice=$short_seconds
    [ "$name" = "$long_name" ] && slice=$rotate
  fi
  if "$bin" "${dict[@]}" "${limit[@]}" -max_total_time="$slice" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$artifacts/$name-" "${inputs[@]}" >"$log" 2>&1; then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    echo "fuzz-smoke: $name ok (${execs:-?} execs, ${rate:-?}/s, limit ${runs:+$runs runs / }${slice}s)"
  else
    echo "fuzz-smoke: $name FAILED; log $log, reproducers in $artifacts:" >&2
    # The broken property (FUZZ_CHECK's message) comes before the stack, which fills the tail.
    grep -A1 'property violated' "$log" | head -4 >&2 || true
    tail -30 "$log" >&2
    rc=1
  fi
done
[ "$rc" = 0 ] && rm -rf -- "$work"
exit "$rc"
