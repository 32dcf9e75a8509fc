#!/usr/bin/env bash
# Builds and runs the tests under sanitizers (issue 8):
#   1. every test under ASan+UBSan with -fno-sanitize-recover=all (CMake preset `dev`, build/dev);
#   2. the concurrent parts (queue, flusher, spawners, parallel runners: tests whose name matches
#      --tsan-regex) under TSan (preset `tsan`, build/tsan).
# Usage: ci/sanitize.sh [--asan-only | --tsan-only] [--tsan-regex RE] [--jobs N]
# Exits non-zero when a build fails or any sanitizer reports (halt_on_error everywhere).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

run_asan=1
run_tsan=1
jobs=$(nproc)
tsan_regex='queue|flush|telemetry|otlp|spawn|fire|process|runner|parallel|guard|http|model_server|conformance'
while [ $# -gt 0 ]; do
  case "$1" in
    --asan-only) run_tsan=0; shift ;;
    --tsan-only) run_asan=0; shift ;;
    --tsan-regex) tsan_regex=${2:?--tsan-regex needs a pattern}; shift 2 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "sanitize: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}

rc=0
if [ "$run_asan" = 1 ]; then
  echo "== ASan+UBSan: configure/build (preset dev)"
  cmake --preset dev
  cmake --build --preset dev -j"$jobs"
  echo "== ASan+UBSan: all tests"
  ctest --preset dev -j"$jobs" || rc=1
fi
if [ "$run_tsan" = 1 ]; then
  echo "== TSan: configure/build (preset tsan)"
  cmake --preset tsan
  cmake --build --preset tsan -j"$jobs"
  echo "== TSan: tests matching /$tsan_regex/"
  ctest --preset tsan -j"$jobs" -R "$tsan_regex" || rc=1
fi
exit "$rc"
