#!/usr/bin/env bash
# The protocol profile on real hooks: conformance/examples/hooks/ (14 hooks in the styles people
# publish: bash+jq, node, python; loggers, deny by exit 2, JSON deny, a context injector, and the
# usual mistakes) graded by `conformance run --profile protocol` from a Gemini CLI settings.json
# and a deel-local-cli hooks.json, then each verdict checked against the real host's own code on
# the same payload (conformance/test/protocol-judge.py): Gemini CLI 0.61.0's HookRunner from npm
# (ci/npm-hosts.sh) and deel-local-cli 1.17.1's hooks.js, extracted at test time from
# ../shared/seeds/004_*.txt and run under Node. Also: --format github annotates the config file.
# Claude Code's settings.json and its real-CLI judge: protocol-hooks-claude.sh beside this.
# usage: protocol-hooks.sh CONFORMANCE SOURCE_DIR SEEDS_DIR
# Exit 77 (SKIPPED, with the reason) when Node, jq, the npm registry or the seed is missing.
set -uo pipefail
conf="$1" src="$2" seeds="$3"
source "$(dirname "${BASH_SOURCE[0]}")/protocol-common.sh" "$src" pinta-proto-hooks

# 1. The profile, from the users' files. Mistakes among the hooks: exit 1 on both.
"$conf" run --profile protocol --config "$ex/gemini-settings.json" --jobs 4 --report "$T/gem" \
  >"$T/gem.out" 2>&1
rc=$?
[ "$rc" = 1 ] || { cat "$T/gem.out"; fail "gemini profile run: exit $rc, expected 1"; }
"$conf" run --profile protocol --host deel-1.17 --config "$ex/deel-hooks.json" --strict --jobs 4 \
  --report "$T/deel" >"$T/deel.out" 2>&1
rc=$?
[ "$rc" = 1 ] || { cat "$T/deel.out"; fail "deel profile run: exit $rc, expected 1"; }
grep -q 'PROTO-3' "$T/gem.out" || fail "the Gemini run names no PROTO-3 (deny by exit 1)"

# 2. --format github: annotations on the config file, a job summary.
( cd "$src" && GITHUB_STEP_SUMMARY="$T/summary.md" "$conf" run --profile protocol \
    --config conformance/examples/hooks/gemini-settings.json --filter HOOK-0002 --format github \
    >"$T/gh.out" 2>&1 )
grep -q '^::error file=conformance/examples/hooks/gemini-settings.json,line=[0-9][0-9]*,title=HOOK-0002 [^:]*::' "$T/gh.out" \
  || { cat "$T/gh.out"; fail "--format github: no ::error annotation on gemini-settings.json for HOOK-0002"; }
grep -q -- '--profile protocol' "$T/gh.out" || fail "--format github: the rerun command lacks --profile protocol"
grep -q 'HOOK-0002' "$T/summary.md" 2>/dev/null || fail "--format github: no job summary naming HOOK-0002"

# 3. The judges.
prefix="$(bash "$src/ci/npm-hosts.sh")"
case $? in
  0) python3 "$src/conformance/test/protocol-judge.py" gemini "$T/gem/report.json" "$ex" "$prefix" \
       "$src/emulator/hosts/gemini/real/hook_driver.mjs" "$T/gem-judge" || fail "Gemini CLI verdicts" ;;
  3|4) echo "SKIPPED (Gemini judge): npm or the registry is unavailable"; gem_skipped=1 ;;
  *) fail "ci/npm-hosts.sh failed" ;;
esac
j="$T/deel-judge"
bash "$src/conformance/test/deel-judge-setup.sh" "$seeds" "$src" "$j"
case $? in
  0) python3 "$src/conformance/test/protocol-judge.py" deel "$T/deel/report.json" "$ex" "$j" "$T/deel-work" \
       || fail "deel-local-cli verdicts" ;;
  3) echo "SKIPPED (deel judge): no seed $seeds/004_*.txt"; deel_skipped=1 ;;
  *) fail "cannot build the deel judge from the seed" ;;
esac
[ "$failures" = 0 ] || exit 1
[ -z "${gem_skipped:-}${deel_skipped:-}" ] || skip "a judge was unavailable (above)"
echo "protocol profile: every verdict agrees with the real hosts"
