#!/usr/bin/env bash
# ci/npm-secretlint.sh — install the pinned independent secret scanner for the redaction check
# (adapter/test/secret_scanner_process_test.cc): secretlint with its recommended preset.
#   bash ci/npm-secretlint.sh   installs (once) and prints ONE line: the prefix directory P;
#                               P/node_modules/.bin/secretlint is the scanner.
#   exit 0 ready; 3 npm/node not installed; 4 the npm registry is unreachable (nothing cached):
#   callers report SKIPPED with the reason; 5 npm install failed for another reason (stderr).
# Environment: PINTA_NPM_CACHE (default $HOME/.cache/pinta-gemini), as ci/npm-hosts.sh.
set -uo pipefail

version=13.0.6  # secretlint and @secretlint/secretlint-rule-preset-recommend, pinned together
root="${PINTA_NPM_CACHE:-${HOME:-/tmp}/.cache/pinta-gemini}"
prefix="$root/npm/secretlint-$version"
marker="$prefix/.pinta-installed"

if [[ -f "$marker" && -x "$prefix/node_modules/.bin/secretlint" ]]; then
  echo "$prefix"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  echo "npm-secretlint: npm/node not installed" >&2
  exit 3
fi
if ! timeout 30 npm view "secretlint@$version" version >/dev/null 2>&1; then
  echo "npm-secretlint: npm registry unreachable (npm view secretlint@$version failed)" >&2
  exit 4
fi
mkdir -p "$prefix"
exec 9>"$prefix/.lock"
flock 9
if [[ -f "$marker" ]]; then
  echo "$prefix"
  exit 0
fi
[[ -f "$prefix/package.json" ]] || echo '{"name":"pinta-secretlint","private":true}' >"$prefix/package.json"
if ! npm install --prefix "$prefix" --no-audit --no-fund --ignore-scripts --loglevel=error \
    "secretlint@$version" "@secretlint/secretlint-rule-preset-recommend@$version" >&2; then
  echo "npm-secretlint: npm install of secretlint@$version failed" >&2
  exit 5
fi
date -u +%FT%TZ >"$marker"
echo "$prefix"
