#!/usr/bin/env bash
# Differential fuzz of the JavaScript RegExp engine (hosts/node/js_regex.h) against Node's RegExp.
#   fuzz/js_regex/run.sh JS_REGEX_DIFF [SEED [PATTERNS [SUBJECTS_PER_PATTERN]]]
# Node generates the patterns and subjects and answers them (oracle.mjs); js_regex_diff answers
# the same batch with the engine and prints every difference (one JSON line each) and a summary.
# Exit 0: no difference the engine's documented limits (docs/fuzzing.md) do not explain.
# The ctest smoke slice is 2000 patterns x 5 subjects; the full run (docs/fuzzing.md) is
#   fuzz/js_regex/run.sh build/bin/js_regex_diff 1 20000 5     (100,000 pairs)
# Without node: "[  SKIPPED ]" with the reason, exit 0.
set -euo pipefail
tool=${1:?usage: run.sh JS_REGEX_DIFF [SEED [PATTERNS [PER]]]}
seed=${2:-1} patterns=${3:-2000} per=${4:-5}
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v node >/dev/null 2>&1; then
  echo "[  SKIPPED ] js_regex node diff: node is not installed (Node's RegExp is the oracle)"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
node "$here/oracle.mjs" "$seed" "$patterns" "$per" >"$work/cases.jsonl"
echo "node $(node --version): $(wc -l <"$work/cases.jsonl") patterns, seed $seed"
set +e
"$tool" <"$work/cases.jsonl" >"$work/diff.jsonl"
rc=$?
set -e
grep -c UNEXPLAINED "$work/diff.jsonl" >/dev/null && grep UNEXPLAINED "$work/diff.jsonl" | head -40
tail -n 1 "$work/diff.jsonl"
exit $rc
