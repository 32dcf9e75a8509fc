#!/usr/bin/env bash
# ci/npm-hosts.sh — install the pinned real Gemini CLI packages for the `real-host` test lane.
#
# Interface (other lanes depend on it; keep it stable):
#   bash ci/npm-hosts.sh            installs (once) and prints ONE line: the prefix directory P.
#                                   P/node_modules/@google/gemini-cli/bundle/gemini.js  (the real CLI)
#                                   P/node_modules/@google/gemini-cli-core/dist/src/... (the real core)
#   exit 0   ready (already cached or just installed)
#   exit 3   npm / node not installed
#   exit 4   the npm registry is unreachable (nothing cached) — callers report SKIPPED
#   exit 5   npm install failed for another reason (see stderr)
# Environment: PINTA_NPM_CACHE (default $HOME/.cache/pinta-gemini) — the cache root; the prefix is
#   $PINTA_NPM_CACHE/npm/gemini-0.61.0. Idempotent: a marker file records a finished install.
# Pinned versions: @google/gemini-cli@0.61.0, @google/gemini-cli-core@0.61.0.
set -uo pipefail

version=0.61.0
root="${PINTA_NPM_CACHE:-${HOME:-/tmp}/.cache/pinta-gemini}"
prefix="$root/npm/gemini-$version"
marker="$prefix/.pinta-installed"

if [[ -f "$marker" && -f "$prefix/node_modules/@google/gemini-cli/bundle/gemini.js" &&
      -f "$prefix/node_modules/@google/gemini-cli-core/dist/src/hooks/hookRunner.js" ]]; then
  echo "$prefix"
  exit 0
fi

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  echo "npm-hosts: npm/node not installed" >&2
  exit 3
fi

if ! timeout 30 npm view "@google/gemini-cli@$version" version >/dev/null 2>&1; then
  echo "npm-hosts: npm registry unreachable (npm view @google/gemini-cli@$version failed)" >&2
  exit 4
fi

mkdir -p "$prefix"
lock="$prefix/.lock"
exec 9>"$lock"
flock 9
if [[ -f "$marker" ]]; then
  echo "$prefix"
  exit 0
fi
[[ -f "$prefix/package.json" ]] || echo '{"name":"pinta-real-hosts","private":true}' >"$prefix/package.json"
if ! npm install --prefix "$prefix" --no-audit --no-fund --ignore-scripts --loglevel=error \
    "@google/gemini-cli@$version" "@google/gemini-cli-core@$version" >&2; then
  echo "npm-hosts: npm install of @google/gemini-cli@$version failed" >&2
  exit 5
fi
date -u +%FT%TZ >"$marker"
echo "$prefix"
