#!/usr/bin/env bash
# Replays every recorded host payload through the adapter under every emulated host and says what
# the host would do with each reply: a thin wrapper over `hostemu replay` (emulator/src/replay_cli.cc),
# which the ctests fixtures_replay_<host> and fixtures_replay_deny_<host> also run (the latter
# through this script, for its guard).
#
# Usage: ci/replay-fixtures.sh [--update-golden] [--pass allow|deny|both] [--host H] [--quiet]
#                              ADAPTER [FIXTURES_DIR]
#
# Runs, for every registered family (hosts/include/pinta/hosts/families.def) in order, the hosts its
# FIXTURES_DIR/<folder>/family.json lists (replay_hosts: hosts of the registry that
# `hostemu replay --help` lists), each on the family's fixtures; or only H. Two passes
# (default both): `allow` without a guard, `deny` under a guard that denies every request
# (pinta-fake-server on 127.0.0.1, port 0, answering with FIXTURES_DIR/golden/deny/guard.json),
# each against its golden sets FIXTURES_DIR/golden/<pass>/<family folder>/ (fixtures/README.md;
# rewritten only with --update-golden). hostemu and pinta-fake-server are taken from the adapter's
# directory (build/bin) unless HOSTEMU / FAKE_SERVER are set. Exits 1 if any host run fails, 2 on
# usage errors.
set -uo pipefail

update=() quiet=() pass=both only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --update-golden) update=(--update-golden); shift ;;
    --quiet) quiet=(--quiet); shift ;;
    --pass) pass="${2:-}"; shift 2 || break ;;
    --host) only="${2:-}"; shift 2 || break ;;
    --) shift; break ;;
    -*) echo "replay-fixtures: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
case "$pass" in allow|deny|both) ;; *) echo "replay-fixtures: --pass allow|deny|both" >&2; exit 2 ;; esac
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 [--update-golden] [--pass allow|deny|both] [--host H] [--quiet] ADAPTER [FIXTURES_DIR]" >&2
  exit 2
fi
adapter=$(realpath -e -- "$1") || { echo "replay-fixtures: no adapter at $1" >&2; exit 2; }
[ -x "$adapter" ] || { echo "replay-fixtures: $adapter is not executable" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fixtures=$(realpath -e -- "${2:-$root/fixtures}") || { echo "replay-fixtures: no fixtures dir" >&2; exit 2; }
hostemu="${HOSTEMU:-$(dirname "$adapter")/hostemu}"
[ -x "$hostemu" ] || { echo "replay-fixtures: no hostemu at $hostemu (build the hostemu target or set HOSTEMU)" >&2; exit 2; }

hosts=()
if [ -n "$only" ]; then
  hosts=("$only")
else
  # The family folders in registration order, then each one's replay hosts (jq).
  command -v jq >/dev/null || { echo "replay-fixtures: jq is needed to read family.json (ci/install-deps.sh)" >&2; exit 2; }
  folders=$(sed -n 's/^PINTA_FAMILY([A-Za-z0-9]*, *\([a-z0-9_]*\),.*/\1/p' "$root/hosts/include/pinta/hosts/families.def")
  [ -n "$folders" ] || { echo "replay-fixtures: no family in families.def" >&2; exit 2; }
  for folder in $folders; do
    [ -d "$fixtures/$folder" ] || continue
    spec="$fixtures/$folder/family.json"
    listed=$(jq -er '.replay_hosts | if length > 0 then .[] else error("empty") end' "$spec") ||
      { echo "replay-fixtures: $spec lists no replay_hosts" >&2; exit 2; }
    while read -r h; do hosts+=("$h"); done <<<"$listed"
  done
  [ ${#hosts[@]} -gt 0 ] || { echo "replay-fixtures: no family.json with replay_hosts under $fixtures" >&2; exit 2; }
fi

# The scripted DENY guard: started once, on a port the kernel picks, stopped on exit.
guard=()
if [ "$pass" != allow ]; then
  server="${FAKE_SERVER:-$(dirname "$adapter")/pinta-fake-server}"
  [ -x "$server" ] || { echo "replay-fixtures: no pinta-fake-server at $server (build it or set FAKE_SERVER)" >&2; exit 2; }
  script="$fixtures/golden/deny/guard.json"
  [ -r "$script" ] || { echo "replay-fixtures: no $script" >&2; exit 2; }
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/replay-guard-XXXXXX") || exit 2
  "$server" --script "$script" --port-file "$tmp/port" >/dev/null 2>"$tmp/err" &
  server_pid=$!
  trap 'kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
  for _ in $(seq 100); do [ -s "$tmp/port" ] && break; kill -0 "$server_pid" 2>/dev/null || break; sleep 0.05; done
  [ -s "$tmp/port" ] || { echo "replay-fixtures: the fake guard did not start: $(head -c 300 "$tmp/err")" >&2; exit 2; }
  guard=(--deny-guard "http://127.0.0.1:$(cat "$tmp/port")/")
fi

failed=0
run() {  # HOST [GUARD ARGS]
  local host="$1"; shift
  "$hostemu" replay --host "$host" --adapter "$adapter" "$@" ${update[@]+"${update[@]}"} \
    ${quiet[@]+"${quiet[@]}"} "$fixtures"
  local rc=$?
  [ "$rc" -eq 2 ] && exit 2
  [ "$rc" -ne 0 ] && failed=$((failed + 1))
}
for host in "${hosts[@]}"; do
  if [ "$pass" != deny ]; then echo "== $host"; run "$host"; fi
  if [ "$pass" != allow ]; then echo "== $host (deny guard)"; run "$host" "${guard[@]}"; fi
done
if [ "$failed" -ne 0 ]; then echo "replay-fixtures: $failed host run(s) failed"; exit 1; fi
echo "replay-fixtures: all hosts passed"
