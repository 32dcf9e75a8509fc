#!/usr/bin/env bash
# The Gemini CLI version radar: `hostemu drift` plays the session scenarios
# (emulator/hosts/gemini/test/sessions/, 62 of them) through published real Gemini CLI releases
# from npm and through the emulator under each release's version profile, and fails on any
# difference (docs/gemini-versions.md). The releases are installed and cached by ci/npm-hosts.sh
# (~300-470 MB and 20-45 s each the first time).
#
#   ci/drift.sh [VERSION...]   the full sweep: every scenario on each VERSION (default: the
#                              CI-pinned older releases, one per non-default profile, below, in an
#                              order rotated by the day of the year; which
#                              profile a release gets: `hostemu gemini profiles`; 0.61.0
#                              is ctest emulator_gemini_real_session_test's). 50 s (0.36 and
#                              later, bundled) to 6 min (0.26-0.35) per release on 2 cores: its own
#                              .ci/run stage, not ctest's. Payloads are counted
#                              (PINTA_DRIFT_PAYLOADS=report prints them without counting).
#   ci/drift.sh --all          every stable release on npm that a profile covers (`npm view
#                              @google/gemini-cli versions`, nightlies and previews left out; the
#                              range is `hostemu gemini profiles`'), payloads counted: the whole radar.
#   ci/drift.sh --smoke        the slice that ctest gemini_drift_probe runs in the default test
#                              run: the oldest profiled release (0.26.0, whose profile gemini-0.26
#                              sets most switches that differ from 0.61) on the scenarios that
#                              showed each switch (the switch table of docs/gemini-versions.md):
#                              s04 headless folder trust, s13 stop request logged + bare tool error,
#                              s15 tool_input merged, s23/s25 single log stream, s25 lifecycle hook
#                              output reading, s27 extension loading lines + invalid enablement,
#                              u02/u27 exit-code/stderr reading, u05 tail tool calls, u28 nested
#                              AfterAgent continuation, s33 a start-up warning without its newline
#                              (SessionEnd twice and the registry line show
#                              in every scenario). hook_env has no lane scenario (source evidence).
# Options:
#   --hostemu PATH      the hostemu to use (default: build/bin/hostemu, built here when missing)
#   --jobs N            scenarios in parallel per release (default 2)
#   --record DIR        keep each release's record: DIR/V.json (`hostemu drift --json`), DIR/V.log
#                       (its output) and a line in DIR/runs.tsv (version, profile, exit, seconds,
#                       start time, load average, source revision); ci/gemini-sweep-table.py turns a
#                       DIR into the table of docs/gemini-versions.md
#   --resume            with --record: skip releases whose DIR/V.json already shows 0 differences,
#                       or that docs/gemini-sweep.json holds with 0 differences, payloads counted
#   --pause-while FILE  before each release, wait while FILE exists (a benchmark can have the machine)
#   --skip-status N     exit status when npm/Node or the registry is unavailable and nothing is
#                       cached (default 77, ctest's SKIPPED; .ci/run passes 0: reported, not failed)
# Every run but --smoke first runs the other families' release radars (ci/*-radar.sh: a release
# no profile covers fails the run like a difference).
# Exit: 0 no difference, 1 differences (or a release that cannot be probed), 2 usage.
set -uo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

full_versions=(0.26.0 0.27.4 0.28.1 0.29.0 0.30.0 0.33.2 0.35.3 0.36.0 0.37.2 0.38.2 0.39.0 0.40.1 0.42.0 0.44.0
  0.45.2 0.60.0)
smoke_version=0.26.0
smoke_scenarios=(s04 s13 s15 s23 s25 s27 s33 u02 u05 u27 u28)

smoke=0 all=0 record="" resume=0 pause_file="" hostemu="" jobs=2 skip_status=77 versions=()
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) smoke=1; shift ;;
    --all) all=1; shift ;;
    --record) record=${2:?--record needs a directory}; shift 2 ;;
    --resume) resume=1; shift ;;
    --pause-while) pause_file=${2:?--pause-while needs a file}; shift 2 ;;
    --hostemu) hostemu=${2:?--hostemu needs a path}; shift 2 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    --skip-status) skip_status=${2:?--skip-status needs a number}; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "drift: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) versions+=("$1"); shift ;;
  esac
done
if [ $((smoke + all)) -gt 1 ] || { [ $((smoke + all)) = 1 ] && [ ${#versions[@]} -gt 0 ]; }; then
  echo "drift: --smoke, --all and VERSION... exclude each other" >&2; exit 2
fi
if [ "$resume" = 1 ] && [ -z "$record" ]; then
  echo "drift: --resume needs --record DIR" >&2; exit 2
fi
if [ -n "$record" ]; then
  mkdir -p "$record" && record=$(cd "$record" && pwd) || { echo "drift: cannot create $record" >&2; exit 2; }
fi
[ "$smoke" = 1 ] && versions=("$smoke_version")
if [ ${#versions[@]} -eq 0 ] && [ "$all" = 0 ]; then
  # The default list rotates by the day of the year (PINTA_DRIFT_ROTATE=0: as listed), so that a
  # CI stage cut by its budget probes different releases first on different days instead of the
  # same oldest ones every time.
  n=${#full_versions[@]} off=0
  [ "${PINTA_DRIFT_ROTATE:-1}" = 0 ] || off=$(( 10#$(date +%j) % n ))
  for ((i = 0; i < n; i++)); do versions+=("${full_versions[$(( (i + off) % n ))]}"); done
  echo "drift: releases in today's order (rotation $off of $n): ${versions[*]}"
fi

if [ -z "$hostemu" ]; then
  hostemu=$src/build/bin/hostemu
  if [ ! -x "$hostemu" ]; then
    echo "drift: building hostemu in build/"
    [ -f "$src/build/CMakeCache.txt" ] ||
      cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPINTA_BUILD_TESTS=OFF || exit 1
    cmake --build "$src/build" -j"$(nproc)" --target hostemu || exit 1
  fi
fi

if [ "$all" = 1 ]; then
  # Every stable release a profile covers; the registry is the list (a cached install is not).
  listing=$(npm view @google/gemini-cli versions --json 2>/dev/null) || {
    echo "drift: SKIPPED: npm view @google/gemini-cli versions failed (registry unreachable?)"
    exit "$skip_status"
  }
  for v in $(printf '%s' "$listing" | python3 -c 'import json, re, sys
vs = [v for v in json.load(sys.stdin) if re.fullmatch(r"\d+\.\d+\.\d+", v)]
print(" ".join(sorted(vs, key=lambda v: tuple(map(int, v.split("."))))))'); do
    "$hostemu" gemini profiles --version "$v" >/dev/null 2>&1 && versions+=("$v")
  done
  [ ${#versions[@]} -gt 0 ] || { echo "drift: no release on npm falls in a profile's range" >&2; exit 1; }
  echo "drift: --all: ${#versions[@]} releases: ${versions[*]}"
  # The whole list, so the sweep table can show the releases not swept yet.
  [ -z "$record" ] || printf '%s\n' "${versions[@]}" >"$record/releases.txt"
fi

# The other families' release radars (ci/*-radar.sh, each a family's own): their npm releases
# with the profile each maps to, failing on a release past the newest profile. They list releases
# and download nothing; not in the --smoke slice (no registry call in the default tests).
radar_status=0
if [ "$smoke" = 0 ]; then
  for r in "$src"/ci/*-radar.sh; do
    [ -e "$r" ] || continue
    echo "drift: radar $(basename "$r")"
    bash "$r" --hostemu "$hostemu" --skip-status 0 || radar_status=1
  done
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pinta-drift.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
scen_args=()
if [ "$smoke" = 1 ]; then
  # The slice as its own scenarios directory; a listed id that no longer exists is an error, not a
  # silently smaller slice.
  for id in "${smoke_scenarios[@]}"; do
    f=$(compgen -G "$src/emulator/hosts/gemini/test/sessions/$id-*.json" | head -1)
    if [ -z "$f" ]; then
      echo "drift: smoke scenario $id not found in emulator/hosts/gemini/test/sessions/" >&2
      exit 2
    fi
    ln -s "$f" "$tmp/"
  done
  scen_args=(--scenarios "$tmp")
fi

# Install (or find cached) every release first: an unavailable registry is a skip, not a failure.
for v in "${versions[@]}"; do
  bash "$src/ci/npm-hosts.sh" "$v" >/dev/null 2>"$tmp/npm.err"
  rc=$?
  if [ $rc -eq 3 ] || [ $rc -eq 4 ]; then
    echo "drift: SKIPPED: @google/gemini-cli@$v unavailable: $(head -1 "$tmp/npm.err")"
    exit "$skip_status"
  fi
done

rev=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git -C "$src" status --porcelain --untracked-files=no 2>/dev/null)" ] || rev="$rev+dirty"
status=0
for v in "${versions[@]}"; do
  if [ "$resume" = 1 ] && python3 - "$record/$v.json" "$src/docs/gemini-sweep.json" "$v" <<'PY'; then
import json, os, sys
rec, summary, v = sys.argv[1:]
def clean(r):
    return bool(r.get("scenarios")) and not any(s["differences"] for s in r["scenarios"])
if os.path.exists(rec) and clean(json.load(open(rec))):
    sys.exit(0)
# A release the committed summary already holds clean, payloads counted (a sweep continued on
# another machine or after its record directory was lost).
try:
    runs = json.load(open(summary))["runs"]
except (OSError, ValueError, KeyError, TypeError):
    sys.exit(1)
e = next((r for r in runs if r.get("version") == v), None)
sys.exit(0 if e and e.get("scenarios") and not e.get("differences") and e.get("payloads") == "compare" else 1)
PY
    echo "drift: $v already recorded with 0 differences (--resume)"; continue
  fi
  if [ -n "$pause_file" ]; then
    while [ -e "$pause_file" ]; do sleep 5; done
  fi
  t0=$(date +%s)
  start=$(date -u +%Y-%m-%dT%H:%M:%SZ) load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
  if [ -n "$record" ]; then
    rec=("--json" "$record/$v.json.part")
    "$hostemu" drift --host gemini --version "$v" --jobs "$jobs" --payloads "${PINTA_DRIFT_PAYLOADS:-compare}" \
      ${scen_args[@]+"${scen_args[@]}"} "${rec[@]}" >"$record/$v.log" 2>&1
    rc=$?
    cat "$record/$v.log"
    [ -f "$record/$v.json.part" ] && mv "$record/$v.json.part" "$record/$v.json"
    [ $rc -eq 0 ] || status=1
    profile=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1])).get("profile", "?"))' "$record/$v.json" 2>/dev/null || echo "?")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "$profile" "$rc" "$(( $(date +%s) - t0 ))" "$start" \
      "$load" "$rev" >>"$record/runs.tsv"
    echo "drift: $v took $(( $(date +%s) - t0 )) s"
    continue
  fi
  # Payloads are compared field by field and counted like any other difference: the full sweep of
  # 2026-12-06 held every release to them (docs/gemini-versions.md, "The full sweep").
  "$hostemu" drift --host gemini --version "$v" --jobs "$jobs" --payloads "${PINTA_DRIFT_PAYLOADS:-compare}" \
    ${scen_args[@]+"${scen_args[@]}"} || status=1
  echo "drift: $v took $(( $(date +%s) - t0 )) s"
done
[ "$radar_status" = 0 ] || status=1
exit $status
