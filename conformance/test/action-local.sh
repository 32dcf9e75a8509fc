#!/usr/bin/env bash
# The composite action (action.yml at the repository root), its steps run here the way a GitHub
# runner would run them (bash, GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files, inputs through env):
#  - no `${{ }}` expression inside a script (inputs reach the scripts only through env, so an
#    adapter command line cannot inject shell);
#  - "Install build dependencies" on this Debian 12 machine runs ci/install-deps.sh;
#  - "Build conformance" with a prebuilt binary uses it and outputs its path;
#  - "Run the conformance suite": a broken adapter fails the step with ::error annotations, a job
#    summary and the reports; our adapter passes it; `strict`, `filter` and `args` reach the run.
# Needs python3-yaml (to read action.yml); SKIPPED (77) without it.
# Usage: action-local.sh CONFORMANCE ADAPTER ZOO-DIR SOURCE-DIR
set -u
conf=$(realpath "$1") adapter=$(realpath "$2") zoo=$(realpath "$3") src=$(realpath "$4")
python3 -c 'import yaml' 2>/dev/null || { echo "SKIPPED: python3-yaml is not installed (it reads action.yml)"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/pinta-action.XXXXXX")
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# Each step's script into a file, and the expression check.
python3 - "$src/action.yml" "$work" <<'PY' || fail "action.yml is not what the runner expects"
import sys, yaml
a = yaml.safe_load(open(sys.argv[1]))
assert a["runs"]["using"] == "composite"
assert a["inputs"]["adapter"]["required"] is False  # the protocol profile has no adapter
for k in ("hosts", "strict", "report-dir", "filter", "args", "conformance", "profile", "config",
          "hook"):
    assert k in a["inputs"], k
names = {"Install build dependencies": "install", "Build conformance": "build",
         "Run the conformance suite": "run"}
for step in a["runs"]["steps"]:
    assert step["shell"] == "bash", step["name"]
    assert "${{" not in step["run"], "expression inside the script of: " + step["name"]
    open(sys.argv[2] + "/" + names[step["name"]] + ".sh", "w").write(step["run"])
PY

export GITHUB_ACTION_PATH="$src" GITHUB_WORKSPACE="$work" RUNNER_TEMP="$work"
step() {  # step NAME ENV...: runs one step's script; its outputs land in $work/NAME.out
  local name=$1; shift
  : >"$work/$name.out"
  (cd "$work" && env GITHUB_OUTPUT="$work/$name.out" GITHUB_STEP_SUMMARY="$work/summary.md" "$@" \
    bash --noprofile --norc -eo pipefail "$work/$name.sh") >"$work/$name.log" 2>&1
}

rc=0; step install || rc=$?
if grep -q 'ID=debian' /etc/os-release && grep -q 'VERSION_ID="12"' /etc/os-release; then
  [ "$rc" = 0 ] || { fail "install step: exit $rc"; tail -3 "$work/install.log"; }
fi

rc=0; step build PREBUILT="$conf" || rc=$?
[ "$rc" = 0 ] && grep -qx "bin=$conf" "$work/build.out" || { fail "build step with a prebuilt binary (rc $rc)"; cat "$work/build.log"; }

rc=0
step run CONFORMANCE="$conf" ADAPTER="sh $zoo/two_lines.sh $adapter" HOSTS=gemini-0.61,agy-1.2 \
  STRICT=false REPORT_DIR=rep FILTER=OUT-000 ARGS="--jobs 2 --exclude OUT-0002" || rc=$?
[ "$rc" = 1 ] || fail "run step with a broken adapter: exit $rc, expected 1"
grep -qx "report-dir=$work/rep" "$work/run.out" || fail "no report-dir output"
grep -q '^::error file=.*OUT-0001.case.json,title=OUT-0001::' "$work/run.log" || fail "no ::error for OUT-0001"
grep -q 'title=OUT-0002' "$work/run.log" && fail "args (--exclude OUT-0002) did not reach the run"
grep -q '| agy\\-1\\.2 |' "$work/summary.md" && grep -q '| gemini\\-0\\.61 |' "$work/summary.md" &&
  ! grep -q '| agy\\-1\\.0 |' "$work/summary.md" || fail "the hosts list did not reach the run"
for f in matrix.html report.json junit.xml; do [ -s "$work/rep/$f" ] || fail "no rep/$f"; done
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["strict"] is False' "$work/rep/report.json" ||
  fail "strict=false did not reach the run"

rc=0
step run CONFORMANCE="$conf" ADAPTER="$adapter" HOSTS=all STRICT=true REPORT_DIR=rep2 \
  FILTER=OUT-0001 ARGS="" || rc=$?
[ "$rc" = 0 ] || { fail "run step with our adapter: exit $rc"; tail -5 "$work/run.log"; }
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["strict"] is True' "$work/rep2/report.json" ||
  fail "strict=true did not reach the run"

# The protocol profile: a hook repository's settings.json, annotated on that file.
rc=0
mkdir -p "$work/hookrepo"
cp "$src"/conformance/examples/hooks/{deny-exit1.sh,log-allow.sh} "$work/hookrepo/"
printf '%s\n' '{"hooksConfig":{"enabled":true},"hooks":{"BeforeTool":[{"matcher":"write_file","hooks":[{"type":"command","name":"deny-exit1","command":"bash deny-exit1.sh"},{"type":"command","name":"log-allow","command":"bash log-allow.sh"}]}]}}' \
  >"$work/hookrepo/settings.json"
step run CONFORMANCE="$conf" ADAPTER="" PROFILE=protocol CONFIG=hookrepo/settings.json HOOK="" \
  HOSTS=all STRICT=false REPORT_DIR=rep3 FILTER="" ARGS="" || rc=$?
[ "$rc" = 1 ] || { fail "protocol run step with an exit-1 deny hook: exit $rc, expected 1"; tail -5 "$work/run.log"; }
grep -q '^::error file=hookrepo/settings.json,line=[0-9][0-9]*,title=HOOK-0001 [^:]*::.*PROTO-3' "$work/run.log" ||
  { fail "protocol: no ::error on hookrepo/settings.json naming PROTO-3"; grep '::' "$work/run.log" | head -3; }
grep -q 'title=HOOK-0002' "$work/run.log" && fail "protocol: the allow logger was annotated"
[ -s "$work/rep3/report.json" ] || fail "protocol: no rep3/report.json"

[ "$fails" = 0 ] && echo "action-local: all checks passed"
exit $((fails > 0))
