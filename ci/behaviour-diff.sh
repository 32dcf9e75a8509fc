#!/usr/bin/env bash
# ci/behaviour-diff.sh — shows that two builds of the suite behave the same, for refactorings
# that must not change behaviour (moves, splits, folded duplicates).
#
# Usage: ci/behaviour-diff.sh OLD_BIN_DIR NEW_BIN_DIR
#   Each BIN_DIR is a build's bin/ with pinta-gemini, conformance and hostemu. For each build:
#   * `conformance run --host all` of that build's conformance against that build's adapter (its
#     built-in cases), as report.json with everything that measures time stripped (seconds,
#     *_ms timings, medians, "N ms" in failure lines) and the build's own paths replaced (bin dir,
#     the per-case temp dirs), plus the run's exit status;
#   * `hostemu replay` of the fixtures under every host that build's hostemu knows (both builds
#     replay the same FIXTURES_DIR), with each run's exit status: each build writes its goldens into
#     a fresh directory of its own (--update-golden --golden-dir), so what is compared is every
#     fixture's line (the reply, what the host does with it, contract and fail-safe checks) whatever
#     the golden layout of either build; the checked-in goldens are the fixtures_replay_* ctests'.
#     When both builds know `--deny-guard`, the deny pass too, under each build's pinta-fake-server
#     answering FIXTURES_DIR/golden/deny/guard.json.
#   Prints "no differences" (exit 0) or a unified diff old -> new (exit 1). 2: bad usage or a build
#   without one of the programs.
#   Do not rebuild either BIN_DIR while it runs. Guard cases answer within the adapter's 50 ms
#   guard budget: on a heavily loaded machine one can fall back to the fail-safe in one run and
#   not the other; rerun before reading such a lone GUARD- difference as a change.
# Environment:
#   FIXTURES_DIR   fixtures (and goldens) to replay; default: this checkout's fixtures/
#   BEHAVIOUR_DIFF_EXCLUDE  case id prefixes left out of the conformance runs, space-separated;
#                  default "PERF-": latency budgets decide on a loaded machine, not on behaviour
#   BEHAVIOUR_DIFF_JOBS     conformance -j (default 2)
#   BEHAVIOUR_DIFF_CASES    a cases dir both conformance runs read (--cases), instead of each
#                  build's built-in cases: e.g. an older checkout's cases, with two bin dirs that
#                  share that build's conformance and hostemu and differ in pinta-gemini only, to
#                  compare adapters alone
#   KEEP=DIR       keep the normalized outputs in DIR (old/ and new/) instead of a temp dir
set -uo pipefail

usage() { echo "usage: $0 OLD_BIN_DIR NEW_BIN_DIR" >&2; exit 2; }
[[ $# -eq 2 ]] || usage
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fixtures="${FIXTURES_DIR:-$root/fixtures}"
[[ -d "$fixtures" ]] || { echo "behaviour-diff: no fixtures dir $fixtures" >&2; exit 2; }
jobs="${BEHAVIOUR_DIFF_JOBS:-2}"
read -r -a exclude_prefixes <<<"${BEHAVIOUR_DIFF_EXCLUDE-PERF-}"
exclude=()
for p in "${exclude_prefixes[@]}"; do exclude+=(--exclude "$p"); done

bins=()
for d in "$1" "$2"; do
  b=$(realpath -e -- "$d" 2>/dev/null) || { echo "behaviour-diff: no directory $d" >&2; exit 2; }
  for prog in pinta-gemini conformance hostemu; do
    [[ -x "$b/$prog" ]] || { echo "behaviour-diff: $b has no $prog" >&2; exit 2; }
  done
  bins+=("$b")
done

# Both builds get the same temp base: a conformance that picks its own (/dev/shm when usable)
# would otherwise change every path, and the byte count of every payload holding one.
export TMPDIR="${TMPDIR:-/tmp}"

if [[ -n "${KEEP:-}" ]]; then
  work="$KEEP"
  mkdir -p "$work"
  trap 'stop_guard' EXIT
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/behaviour-diff-XXXXXX")
  trap 'stop_guard; rm -rf "$work"' EXIT
fi

# report.json without time and without the build's own paths; sorted keys, one value per line.
normalize_report() {  # REPORT BIN_DIR
  python3 - "$1" "$2" <<'EOF'
import json, re, sys
path, bindir = sys.argv[1], sys.argv[2]
TIME_KEYS = {"seconds", "first_stdout_ms", "exited_ms", "closed_ms", "median_ms", "samples"}
tmp = re.compile(r"pinta-conf-[A-Za-z0-9]{6}")
ms = re.compile(r"\b[0-9]+(\.[0-9]+)? ms\b")
def text(s):
    s = s.replace(bindir, "<BIN>")
    s = tmp.sub("pinta-conf-<TMP>", s)
    return ms.sub("<N> ms", s)
def walk(v):
    if isinstance(v, dict):
        return {k: walk(x) for k, x in v.items() if k not in TIME_KEYS}
    if isinstance(v, list):
        return [walk(x) for x in v]
    if isinstance(v, str):
        return text(v)
    return v
with open(path, encoding="utf-8", errors="replace") as f:
    rep = json.load(f)
print(json.dumps(walk(rep), indent=1, sort_keys=True, ensure_ascii=False))
EOF
}

# A fake guard that denies every request, for the deny pass: sets guard_url (empty: none started)
# and guard_pid (stopped by stop_guard, and on exit).
guard_pid="" guard_url=""
stop_guard() {
  if [[ -n "$guard_pid" ]]; then kill "$guard_pid" 2>/dev/null; wait "$guard_pid" 2>/dev/null; fi
  guard_pid=""
}
start_guard() {  # BIN_DIR OUT_DIR
  local server="$1/pinta-fake-server" script="$fixtures/golden/deny/guard.json"
  guard_url=""
  [[ -x "$server" && -r "$script" ]] || return 0
  "$server" --script "$script" --port-file "$2/guard.port" >/dev/null 2>&1 &
  guard_pid=$!
  for _ in $(seq 100); do [[ -s "$2/guard.port" ]] && break; sleep 0.05; done
  [[ -s "$2/guard.port" ]] && guard_url="http://127.0.0.1:$(cat "$2/guard.port")/"
}

replay_hosts() {  # HOSTEMU: the hosts its `replay --host` accepts ("--host TEXT [REQUIRED] a|b|…")
  "$1" replay --help 2>/dev/null | sed -n 's/^ *--host TEXT\( REQUIRED\)\{0,1\} *//p' | tr '|' ' '
}

run_build() {  # BIN_DIR OUT_DIR
  local bin="$1" out="$2" rc host
  mkdir -p "$out"
  # Every case graded: a build whose runner stops once its verdict is settled is told not to
  # (--complete), so that both reports hold the same cases; an older build has no such stop.
  local complete=()
  "$bin/conformance" run --help 2>/dev/null | grep -q -- '--complete' && complete=(--complete)
  local cases=()
  [[ -n "${BEHAVIOUR_DIFF_CASES:-}" ]] && cases=(--cases "$BEHAVIOUR_DIFF_CASES" --fixtures "$fixtures")
  "$bin/conformance" ${cases[@]+"${cases[@]}"} run --adapter "$bin/pinta-gemini" --host all -j "$jobs" --quiet \
    --run-deadline 0 "${exclude[@]}" ${complete[@]+"${complete[@]}"} --report "$out/conformance" \
    >"$out/conformance.log" 2>&1
  rc=$?
  {
    echo "conformance run: exit $rc"
    if [[ -f "$out/conformance/report.json" ]]; then
      normalize_report "$out/conformance/report.json" "$bin"
    else
      echo "(no report.json)"
      sed "s|$bin|<BIN>|g" "$out/conformance.log"
    fi
  } >"$out/conformance.txt"
  : >"$out/replay.txt"
  local hosts
  hosts=$(replay_hosts "$bin/hostemu")
  # No host read from the help: the replay half would compare nothing and report no difference.
  [[ -n "$hosts" ]] || { echo "behaviour-diff: no replay hosts in '$bin/hostemu replay --help'" >&2; exit 2; }
  local passes=(allow) url=""
  if [[ $deny_pass -eq 1 ]]; then
    start_guard "$bin" "$out"
    url="$guard_url"
    [[ -n "$url" ]] || { echo "behaviour-diff: no fake guard from $bin/pinta-fake-server" >&2; exit 2; }
    passes+=(deny)
  fi
  for pass in "${passes[@]}"; do
    local guard=()
    [[ "$pass" == deny ]] && guard=(--deny-guard "$url")
    for host in $hosts; do
      [[ "$host" == all ]] && continue
      {
        echo "== hostemu replay --host $host ($pass)"
        "$bin/hostemu" replay --host "$host" --adapter "$bin/pinta-gemini" ${guard[@]+"${guard[@]}"} \
          --update-golden --golden-dir "$out/golden" "$fixtures" 2>&1 |
          sed -e "s|$bin|<BIN>|g" -e 's/, [0-9]* goldens written//'
        echo "exit ${PIPESTATUS[0]}"
      } >>"$out/replay.txt"
    done
  done
  stop_guard
}

# The deny pass only when both builds have it (a build before it would differ on every line).
deny_pass=1
for b in "${bins[@]}"; do
  "$b/hostemu" replay --help 2>/dev/null | grep -q -- '--deny-guard' || deny_pass=0
done
[[ $deny_pass -eq 1 ]] || echo "behaviour-diff: a build without replay --deny-guard: the deny pass is left out" >&2

run_build "${bins[0]}" "$work/old"
run_build "${bins[1]}" "$work/new"

differ=0
for f in conformance.txt replay.txt; do
  if ! diff -u --label "old/$f" --label "new/$f" "$work/old/$f" "$work/new/$f"; then differ=1; fi
done
if [[ $differ -eq 0 ]]; then
  echo "no differences (conformance: $(grep -c '"id"' "$work/new/conformance.txt") cases; replay: $(grep -c '^== ' "$work/new/replay.txt") hosts)"
  exit 0
fi
exit 1
