#!/usr/bin/env bash
# ci/npm-hosts.sh — install the pinned real Gemini CLI packages for the `real-host` test lane.
#
# Interface (other lanes depend on it; keep it stable):
#   bash ci/npm-hosts.sh [VERSION]  installs (once) and prints ONE line: the prefix directory P.
#                                   VERSION (default 0.61.0, the pinned one) is an exact npm version
#                                   of @google/gemini-cli, e.g. 0.40.0 (the drift probe,
#                                   `hostemu drift`, installs older releases through it).
#                                   P/node_modules/@google/gemini-cli/bundle/gemini.js  (the real CLI;
#                                     its package.json "bin" names the entry: dist/index.js < 0.3x)
#                                   P/node_modules/@google/gemini-cli-core/dist/src/... (the real core,
#                                     pinned version only)
#   exit 0   ready (already cached or just installed)
#   exit 3   npm / node not installed
#   exit 4   the npm registry is unreachable (nothing cached) — callers report SKIPPED
#   exit 5   npm install failed for another reason (see stderr)
# Environment: PINTA_NPM_CACHE (default $HOME/.cache/pinta-gemini) — the cache root; the prefix is
#   $PINTA_NPM_CACHE/npm/gemini-VERSION. Idempotent: a marker file records a finished install.
# Pinned versions: @google/gemini-cli@0.61.0, @google/gemini-cli-core@0.61.0.
# The shared skeleton (cache, lock, exit statuses): ci/npm-lib.sh.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/npm-lib.sh"

version="${1:-0.61.0}"
if [[ $# -gt 1 || ! "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]]; then
  echo "npm-hosts: usage: npm-hosts.sh [VERSION] (an exact version such as 0.61.0)" >&2
  exit 2
fi
npm_setup npm-hosts "gemini-$version"

# The pinned version also gets the matching core package (the hook-runner lane imports it); other
# versions get the CLI alone (npm has no gemini-cli-core for some releases, e.g. 0.40.1, 0.45.2,
# 0.51.0; the CLI brings the core it needs).
pkgs=("@google/gemini-cli@$version")
[[ "$version" == 0.61.0 ]] && pkgs+=("@google/gemini-cli-core@$version")
installed() {
  [[ -f "$marker" && -f "$prefix/node_modules/@google/gemini-cli/package.json" &&
     ( "$version" != 0.61.0 || -f "$prefix/node_modules/@google/gemini-cli-core/package.json" ) ]]
}
npm_ready_exit installed
npm_need_tools

if ! timeout 30 npm view "@google/gemini-cli@$version" version 2>/dev/null | grep -q .; then
  if timeout 30 npm view @google/gemini-cli name >/dev/null 2>&1; then
    echo "npm-hosts: @google/gemini-cli has no version $version on the npm registry" >&2
    exit 5
  fi
  echo "npm-hosts: npm registry unreachable (npm view @google/gemini-cli@$version failed)" >&2
  exit 4
fi

npm_lock
npm_ready_exit test -f "$marker"
npm_install pinta-real-hosts "${pkgs[@]}"
npm_finish
