#!/usr/bin/env bash
# Adding a version profile to a family is one data file: a copy of a shipped Antigravity profile
# and of a shipped Gemini profile, under new names in a temp data dir ($PINTA_AGY_PROFILES,
# $PINTA_GEMINI_PROFILES: pinta::data::find_dir's override), become hosts that `conformance run`
# accepts, lists in its help and grades (the case passes on the new host with our adapter, and an
# adapter that prints nothing fails it there).
# Usage: new_profile_test.sh BIN_DIR SOURCE_DIR
set -euo pipefail
bin=$1 src=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cp -r "$src/hosts/antigravity/profiles" "$t/agy"
cp -r "$src/hosts/gemini/profiles" "$t/gemini"
sed 's/"name": "antigravity-2.0"/"name": "antigravity-2.1"/' \
  "$t/agy/antigravity-2.0.json" >"$t/agy/antigravity-2.1.json"
sed 's/"name": "gemini-0.61"/"name": "gemini-0.70"/' \
  "$t/gemini/gemini-0.61.json" >"$t/gemini/gemini-0.70.json"
export PINTA_AGY_PROFILES=$t/agy PINTA_GEMINI_PROFILES=$t/gemini HOME=$t
fail() { echo "FAIL: $*"; exit 1; }

help=$("$bin/conformance" run --help 2>&1 || true)
for h in antigravity-2.1 gemini-0.70; do
  grep -q -- "$h" <<<"$help" || fail "conformance run --help does not name $h: $help"
done
for h in antigravity-2.1 gemini-0.70; do
  out=$("$bin/conformance" run --adapter "$bin/pinta-gemini" --host "$h" --filter OUT-0001 \
    --report "$t/report-$h" 2>&1) || fail "OUT-0001 on $h with our adapter: $out"
  grep -q -- "| $h |" "$t/report-$h/matrix.md" ||
    fail "the matrix does not have a $h column: $(cat "$t/report-$h/matrix.md")"
  # Graded, not merely accepted: an adapter that answers nothing fails the case on the new host.
  if bad=$("$bin/conformance" run --adapter /bin/true --host "$h" --filter OUT-0001 2>&1); then
    fail "an adapter printing nothing passed OUT-0001 on $h: $bad"
  fi
done
# Without the override the new names are unknown hosts.
unset PINTA_AGY_PROFILES PINTA_GEMINI_PROFILES
if "$bin/conformance" run --adapter "$bin/pinta-gemini" --host antigravity-2.1 --filter OUT-0001 \
  >/dev/null 2>&1; then
  fail "antigravity-2.1 known without its profile file"
fi
echo "ok: antigravity-2.1 and gemini-0.70 became graded hosts from one profile file each"
