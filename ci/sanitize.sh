#!/usr/bin/env bash
# Builds and runs the tests under sanitizers:
#   1. every test under ASan+UBSan with -fno-sanitize-recover=all (Debug, PINTA_SANITIZE=address,undefined);
#   2. the concurrent parts (queue, flusher, spawners, parallel runners: tests whose name matches
#      --tsan-regex) under TSan (RelWithDebInfo, PINTA_SANITIZE=thread).
# Usage: ci/sanitize.sh [--asan-only | --tsan-only] [--tsan-regex RE] [--jobs N] [--build-root DIR]
#                       [--ctest-args "..."] [--asan-tree DIR]
#   --asan-tree DIR   run the ASan stage in this build tree instead of configuring a Debug gcc one;
#                     a tree that does not exist yet is configured like ci/fuzz-smoke.sh's
#                     (clang-14, -DPINTA_FUZZ=ON: every target with ASan+UBSan and
#                     -fno-sanitize-recover=all), so CI builds the sanitized libraries once for
#                     the fuzzers and the tests
#   --tsan-build-all  build every target in the TSan tree (default: only what the tests matching
#                     --tsan-regex need: their executables and the programs they run)
#   --build-root DIR  where the two build trees go: DIR/asan and DIR/tsan (default build/sanitize;
#                     the CMake presets `dev`/`tsan` describe the same configurations)
#   --jobs N          build and test parallelism (default: nproc)
#   --ctest-args ARGS extra ctest arguments (e.g. "-L unit" or "-E real_host")
# Exits non-zero when a build fails or any sanitizer reports (halt_on_error everywhere).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

run_asan=1
run_tsan=1
jobs=$(nproc)
build_root=build/sanitize
ctest_args=""
asan_tree=""
tsan_build_all=0
# Not the process campaign (fuzz_campaign_*): under TSan it reports a race between two
# cpp-httplib pool threads inside Debian's prebuilt, uninstrumented libcpp-httplib.so, which TSan
# cannot see the synchronisation of; unresolved (docs/fuzzing.md "Sanitizers"). Nor the Gemini
# hook-runner differential (gemini_hookrunner_diff_*): it compares timings with the real Node host,
# which a TSan-slowed emulator would skew, and it runs in the normal test stage.
tsan_regex='queue|flush|telemetry|otlp|spawn|fire|process|parallel|guard|http|model_server|conformance|emulator_gemini_test'
while [ $# -gt 0 ]; do
  case "$1" in
    --asan-only) run_tsan=0; shift ;;
    --tsan-only) run_asan=0; shift ;;
    --tsan-regex) tsan_regex=${2:?--tsan-regex needs a pattern}; shift 2 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    --build-root) build_root=${2:?--build-root needs a directory}; shift 2 ;;
    --ctest-args) ctest_args=${2:-}; shift 2 ;;
    --asan-tree) asan_tree=${2:?--asan-tree needs a directory}; shift 2 ;;
    --tsan-build-all) tsan_build_all=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "sanitize: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$jobs" in ''|*[!0-9]*) echo "sanitize: --jobs wants a positive integer" >&2; exit 2 ;; esac

export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# TSan (gcc 12 / clang 14) cannot map its shadow with more than 28 bits of mmap randomisation
# ("FATAL: ThreadSanitizer: unexpected memory mapping"): run its tests without ASLR then.
tsan_wrap=()
if [ "$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 28)" -gt 28 ] && command -v setarch >/dev/null; then
  tsan_wrap=(setarch "$(uname -m)" -R)
fi

rc=0
if [ "$run_asan" = 1 ]; then
  if [ -n "$asan_tree" ]; then
    dir=$asan_tree
    echo "== ASan+UBSan: configure/build ($dir, clang-14 PINTA_FUZZ tree)"
    command -v clang++-14 >/dev/null || { echo "sanitize: --asan-tree needs clang++-14" >&2; exit 1; }
    cmake -S . -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPINTA_BUILD_TESTS=ON \
      -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DPINTA_FUZZ=ON
  else
    dir=$build_root/asan
    echo "== ASan+UBSan: configure/build ($dir)"
    cmake -S . -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Debug -DPINTA_BUILD_TESTS=ON \
      -DPINTA_SANITIZE=address,undefined
  fi
  cmake --build "$dir" -j"$jobs"
  echo "== ASan+UBSan: all tests"
  # shellcheck disable=SC2086
  ctest --test-dir "$dir" -j"$jobs" --output-on-failure --no-tests=error $ctest_args || rc=1
fi
if [ "$run_tsan" = 1 ]; then
  dir=$build_root/tsan
  echo "== TSan: configure/build ($dir)"
  cmake -S . -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPINTA_BUILD_TESTS=ON \
    -DPINTA_SANITIZE=thread
  if [ "$tsan_build_all" = 1 ]; then
    cmake --build "$dir" -j"$jobs"
  else
    # The test executables ctest would run (a ctest entry that is not a target of its own is a
    # script over the programs below), plus every program a test spawns.
    known=$(cmake --build "$dir" --target help | sed -E 's/^\.\.\. //; s/:.*$//')
    targets=(pinta-gemini pinta-gemini-admin conformance hostemu pinta-fake-server pinta-fuzz-campaign)
    while read -r t; do
      # fuzz_replay_NAME replays the corpus with the harness target fuzz_NAME.
      for c in "$t" "${t/#fuzz_replay_/fuzz_}"; do
        if grep -qx -- "$c" <<<"$known"; then targets+=("$c"); break; fi
      done
    done < <(ctest --test-dir "$dir" -N -R "$tsan_regex" | sed -n 's/^ *Test *#[0-9]*: \([^ ]*\).*/\1/p')
    cmake --build "$dir" -j"$jobs" --target "${targets[@]}"
  fi
  echo "== TSan: tests matching /$tsan_regex/"
  # shellcheck disable=SC2086
  ${tsan_wrap[@]+"${tsan_wrap[@]}"} ctest --test-dir "$dir" -j"$jobs" --output-on-failure --no-tests=error \
    -R "$tsan_regex" $ctest_args || rc=1
fi
exit "$rc"
