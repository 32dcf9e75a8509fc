#!/bin/bash
# Regression: a reply with bytes a JSON parser would skip (a UTF-8 BOM, a leading space) breaks
# the hosts' output contract (docs/contract.md OUT-1), and every path that judges replies says so,
# because they all ask the one reply check (hosts/include/pinta/hosts/reply_check.h):
#   1. conformance run (OUT-0001)      2. hostemu replay (its contract column)
#   3. the process fuzz campaign        4. the in-process fuzzers (fuzz_properties_test,
#                                          ReplyFraming.* — checked there, through host_table.h)
# Before the one check, replay and the campaign parsed with nlohmann, which skips both prefixes,
# and passed such an adapter.
# Usage: reply_framing_four_paths.sh BIN_DIR SOURCE_DIR
set -u
bin=$(cd "$1" && pwd); src=$(cd "$2" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail=0
for flaw in bom space; do
  a="$work/$flaw.sh"
  if [ "$flaw" = bom ]; then prefix='\357\273\277'; why="starts with a BOM"
  else prefix=' '; why="bytes around it"; fi
  printf '#!/bin/sh\nprintf "%s"\nexec "%s" "$@"\n' "$prefix" "$bin/pinta-gemini" > "$a"
  chmod +x "$a"

  out=$("$bin/conformance" --cases "$src/conformance/cases" --fixtures "$src/fixtures" run \
        --adapter "$a" --host gemini-0.61 --filter OUT-0001 2>&1); rc=$?
  if [ $rc -eq 0 ] || ! grep -q "OUT: stdout.*$why" <<<"$out"; then
    echo "FAIL [$flaw] conformance accepted the reply (exit $rc):"; echo "$out" | tail -5; fail=1
  fi

  out=$("$bin/hostemu" replay --host gemini-0.61 --adapter "$a" \
        "$src/fixtures/gemini/0.61.0/BeforeTool" 2>&1); rc=$?
  if [ $rc -eq 0 ] || ! grep -q "contract: stdout.*$why" <<<"$out"; then
    echo "FAIL [$flaw] hostemu replay accepted the reply (exit $rc):"; echo "$out" | tail -5; fail=1
  fi

  out=$("$bin/pinta-fuzz-campaign" --adapter "$a" --host gemini --runs 6 --seed 1 --jobs 1 \
        --no-misbehave --out "$work/campaign-$flaw" 2>&1); rc=$?
  if [ $rc -eq 0 ] || ! grep -q '"by_violation":{"not-one-line":6}' <<<"$out"; then
    echo "FAIL [$flaw] the fuzz campaign accepted the reply (exit $rc):"; echo "$out" | tail -5; fail=1
  fi
done
[ $fail -eq 0 ] && echo "BOM- and space-prefixed replies rejected by conformance, replay and the campaign"
exit $fail
