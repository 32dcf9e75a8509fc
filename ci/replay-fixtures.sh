#!/usr/bin/env bash
# Replays every recorded host payload through the adapter and says what the host would do.
#
# Usage: ci/replay-fixtures.sh ADAPTER [FIXTURES_DIR]
#
# Walks FIXTURES_DIR/<host>/<version>/<event>/*.json (default: the repository's fixtures/);
# <host> is `gemini` or `antigravity` (other top-level folders, e.g. golden/, are skipped) and
# <event> is the host's event name. Each file's bytes go to
# `ADAPTER --agent <host> --event <event>` on stdin, with a 5 s timeout, in a scratch HOME and
# GEMINI_PLUGIN_DATA with OTEL_*, PINTA_* and GEMINI_PLUGIN_OPTION_* unset, so a developer's
# own configuration cannot change the result or reach the network.
#
# A run passes when it exits 0, writes nothing on stderr and writes exactly one stdout line
# that parses as a JSON object: the adapter's contract with every host. The verdict column
# reads the reply as the host would (see verdict() below); it is informational, not a check.
# Exits 1 if any run fails or no fixture is found. JSON is checked with node.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 ADAPTER [FIXTURES_DIR]" >&2
  exit 2
fi
adapter=$(realpath -e -- "$1") || { echo "replay-fixtures: no adapter at $1" >&2; exit 1; }
[ -x "$adapter" ] || { echo "replay-fixtures: $adapter is not executable" >&2; exit 1; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fixtures=$(realpath -e -- "${2:-$root/fixtures}") || { echo "replay-fixtures: no fixtures dir" >&2; exit 1; }
command -v node >/dev/null || { echo "replay-fixtures: node is required (bash ci/install-deps.sh)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/pinta-replay.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
mkdir -p "$work/home" "$work/data" "$work/runs"

# Scrubbed environment for the adapter.
scrub=(env)
while IFS='=' read -r name _; do
  case "$name" in OTEL_*|PINTA_*|GEMINI_PLUGIN_OPTION_*) scrub+=(-u "$name") ;; esac
done < <(env)
scrub+=(HOME="$work/home" GEMINI_PLUGIN_DATA="$work/data")

manifest="$work/manifest.tsv"
: >"$manifest"
n=0
for host in gemini antigravity; do
  [ -d "$fixtures/$host" ] || continue
  while IFS= read -r -d '' file; do
    rel=${file#"$fixtures/$host/"}          # <version>/<event>/<name>.json
    case "$rel" in */*/*) ;; *) continue ;; esac
    event=$(basename -- "$(dirname -- "$file")")
    n=$((n + 1))
    rc=0
    (cd "$work" && "${scrub[@]}" timeout -k 1 5 "$adapter" --agent "$host" --event "$event" \
        <"$file" >"$work/runs/$n.out" 2>"$work/runs/$n.err") || rc=$?
    printf '%s\t%s\t%s\t%s\t%s\n' "$n" "$host" "$event" "$rc" "${file#"$root/"}" >>"$manifest"
  done < <(find "$fixtures/$host" -mindepth 3 -maxdepth 3 -type f -name '*.json' -print0 | sort -z)
done

if [ "$n" -eq 0 ]; then
  echo "replay-fixtures: no fixtures under $fixtures/{gemini,antigravity}/<version>/<event>/*.json" >&2
  echo "0 passed, 0 failed"
  exit 1
fi

node - "$work" <<'JS'
'use strict';
const fs = require('fs');
const path = require('path');
const work = process.argv[2];

// What the host does with a reply (shared/reference/gemini-cli-0.61-hooks.md,
// shared/reference/antigravity-hooks.md).
function verdict(host, event, reply) {
  const has = (k) => Object.prototype.hasOwnProperty.call(reply, k);
  const reason = has('reason') ? String(reply.reason) : '(no reason)';
  const keys = Object.keys(reply);
  if (host === 'gemini') {
    if (keys.length === 0) return 'allowed / no effect';
    if (reply.decision === 'deny' || reply.decision === 'block') return `blocked: ${reason}`;
    if (reply.continue === false) return `stops the agent: ${reply.stopReason ?? '(no reason)'}`;
    if (reply.decision === 'ask') return 'asks the user';
    return `allowed (keys: ${keys.join(',')})`;
  }
  if (event === 'PreToolUse') {
    if (!has('decision')) return 'DENIED (empty reply)';
    if (reply.decision === 'allow') return 'allowed';
    if (reply.decision === 'deny') return `denied: ${reason}`;
    return `decision ${JSON.stringify(reply.decision)}`;
  }
  if (has('decision')) return 'UNSAFE: decision key on lifecycle event';
  return keys.length === 0 ? 'no effect' : `no effect (keys: ${keys.join(',')})`;
}

const clip = (s, n) => (s.length > n ? s.slice(0, n - 1) + '\u2026' : s);
const rows = fs.readFileSync(path.join(work, 'manifest.tsv'), 'utf8').split('\n').filter(Boolean)
  .map((l) => l.split('\t'));
const width = Math.min(70, Math.max(7, ...rows.map((r) => r[4].length)));
let passed = 0, failed = 0;
console.log(`${'result'.padEnd(6)}  ${'fixture'.padEnd(width)}  ${'exit'.padStart(4)}  ${'stdout'.padEnd(48)}  verdict`);
for (const [id, host, event, rc, file] of rows) {
  const out = fs.readFileSync(path.join(work, 'runs', `${id}.out`), 'utf8');
  const err = fs.readFileSync(path.join(work, 'runs', `${id}.err`), 'utf8');
  const problems = [];
  if (rc !== '0') problems.push(rc === '124' || rc === '137' ? `timed out (exit ${rc})` : `exit ${rc}`);
  if (err.length) problems.push(`stderr: ${clip(JSON.stringify(err), 120)}`);
  const lines = out.endsWith('\n') ? out.slice(0, -1).split('\n') : out.split('\n');
  let reply = null;
  if (out.length === 0) problems.push('no stdout');
  else if (lines.length !== 1) problems.push(`${lines.length} stdout lines`);
  else {
    try { reply = JSON.parse(lines[0]); } catch (e) { problems.push('stdout is not JSON'); }
    if (reply !== null && (typeof reply !== 'object' || Array.isArray(reply))) {
      problems.push('stdout is not a JSON object');
      reply = null;
    }
  }
  const v = reply ? verdict(host, event, reply) : '-';
  const ok = problems.length === 0;
  ok ? passed++ : failed++;
  const shown = clip(out.replace(/\n$/, '').replace(/\n/g, '\\n'), 48);
  console.log(`${(ok ? 'PASS' : 'FAIL').padEnd(6)}  ${clip(file, width).padEnd(width)}  ${rc.padStart(4)}  ${shown.padEnd(48)}  ${v}`);
  if (!ok) console.log(`${''.padEnd(8)}^ ${problems.join('; ')}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
JS
