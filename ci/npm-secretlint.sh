#!/usr/bin/env bash
# ci/npm-secretlint.sh — install the pinned independent secret scanner for the redaction check
# (adapter/test/secret_scanner_process_test.cc): secretlint with its recommended preset.
#   bash ci/npm-secretlint.sh   installs (once) and prints ONE line: the prefix directory P;
#                               P/node_modules/.bin/secretlint is the scanner.
#   exit 0 ready; 3 npm/node not installed; 4 the npm registry is unreachable (nothing cached):
#   callers report SKIPPED with the reason; 5 npm install failed for another reason (stderr).
# Environment: PINTA_NPM_CACHE (default $HOME/.cache/pinta-gemini), as ci/npm-hosts.sh.
# The shared skeleton (cache, lock, exit statuses): ci/npm-lib.sh.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/npm-lib.sh"

version=13.0.6  # secretlint and @secretlint/secretlint-rule-preset-recommend, pinned together
npm_setup npm-secretlint "secretlint-$version"

installed() { [[ -f "$marker" && -x "$prefix/node_modules/.bin/secretlint" ]]; }
npm_ready_exit installed
npm_need_tools
npm_need_registry "secretlint@$version"
npm_lock
npm_ready_exit test -f "$marker"
npm_install pinta-secretlint "secretlint@$version" \
  "@secretlint/secretlint-rule-preset-recommend@$version"
npm_finish
