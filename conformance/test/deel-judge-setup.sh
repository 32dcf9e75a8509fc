#!/usr/bin/env bash
# Builds the deel-local-cli judge in DIR: the seed's own hooks.js (deel-local-cli 1.17.1, the
# `@@ -0,0 +1,N @@` hunk after its header line in seed 004, each line without its '+'), the
# project's stand-ins for the modules the seed omits (emulator/hosts/deel/test/oracle/) and
# deel-judge.mjs as DIR/judge.mjs. Shared by protocol-hooks.sh and third_party_real.py.
# usage: deel-judge-setup.sh SEEDS_DIR SOURCE_DIR DIR
# Exit 0 ready; 3 no seed 004 in SEEDS_DIR (callers skip with that reason); 1 the seed has no
# hooks.js.
set -uo pipefail
seeds="$1" src="$2" j="$3"
seed="$(ls "$seeds"/004_*.txt 2>/dev/null | head -1)"
[ -n "$seed" ] || { echo "no seed $seeds/004_*.txt" >&2; exit 3; }
mkdir -p "$j/src/safety" "$j/src/tools"
awk 'h && /^@@ -0,0 \+1,[0-9]+ @@$/ { n = $0; sub(/^@@ -0,0 \+1,/, "", n); sub(/ @@$/, "", n); take = n + 0; next }
     take > 0 { print substr($0, 2); take--; if (take == 0) exit }
     $0 == "package/src/safety/hooks.js" { h = 1 }' "$seed" >"$j/src/safety/hooks.js"
grep -q 'export async function 자리돌리기' "$j/src/safety/hooks.js" ||
  { echo "cannot extract hooks.js from $seed" >&2; exit 1; }
oracle="$src/emulator/hosts/deel/test/oracle"
cp "$oracle/trust.js" "$j/src/safety/trust.js"
cp "$oracle/spawn.js" "$oracle/shell.js" "$j/src/tools/"
cp "$src/conformance/test/deel-judge.mjs" "$j/judge.mjs"
