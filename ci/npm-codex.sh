#!/usr/bin/env bash
# ci/npm-codex.sh — install the pinned real OpenAI Codex CLI for the `real-host` Codex lanes.
#
# Interface (the Codex differential and guard lanes depend on it; keep it stable, the same as
# ci/npm-claude.sh):
#   bash ci/npm-codex.sh [VERSION]   installs (once) and prints ONE line: the path of the native
#                                    binary (under the optional platform package, see below);
#                                    VERSION (default: the pinned one) is another published
#                                    release, for the version lanes (ci/codex-bisect.py)
#   exit 0 ready; 3 npm/node missing; 4 npm registry unreachable (callers report SKIPPED);
#   5 install failed for another reason, or no native package for this platform (stderr).
# Pinned: @openai/codex@0.171.0. Its `bin/codex.js` is only a Node launcher; the native binary
# ships in an optional dependency aliased per platform (`@openai/codex-linux-x64` =
# `npm:@openai/codex@0.171.0-linux-x64`), unpacked at
# node_modules/@openai/codex-linux-x64/vendor/<target triple>/bin/codex. No postinstall is
# needed, so the install runs with --ignore-scripts (shared/reference/real-hosts.md, "OpenAI
# Codex CLI 0.171.0 … offline"). The lanes run the native binary directly: no Node per run.
# Environment: PINTA_NPM_CACHE (default $HOME/.cache/pinta-gemini); prefix $PINTA_NPM_CACHE/npm/codex-VERSION.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/npm-lib.sh"

version=0.171.0
if [[ $# -gt 1 || ( $# -eq 1 && ! $1 =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ) ]]; then
  echo "npm-codex: usage: npm-codex.sh [VERSION] (a release such as 0.145.0; default $version)" >&2
  exit 2
fi
[[ $# -eq 1 ]] && version=$1
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 triple=x86_64-unknown-linux-musl ;;
  Linux-aarch64) platform=linux-arm64 triple=aarch64-unknown-linux-musl ;;
  *) echo "npm-codex: no native Codex package for $(uname -s)-$(uname -m)" >&2; exit 5 ;;
esac
npm_setup npm-codex "codex-$version"
# The binary's place in the package: vendor/<triple>/bin/codex (0.171.0); older releases (0.124.0)
# have vendor/<triple>/codex/codex.
vendor="$prefix/node_modules/@openai/codex-$platform/vendor/$triple"
find_bin() {
  bin="$vendor/bin/codex"
  [[ -x "$bin" ]] || [[ ! -x "$vendor/codex/codex" ]] || bin="$vendor/codex/codex"
}
find_bin
ready() { [[ -f "$marker" && -x "$bin" ]]; }
if ready; then echo "$bin"; exit 0; fi
npm_need_tools
npm_need_registry "@openai/codex@$version"
npm_lock
if ready; then echo "$bin"; exit 0; fi
# Only the platform package (the native binary; the launcher package is not run): one download
# of tens of MB per release, each release in its own prefix.
npm_install pinta-real-codex "@openai/codex-$platform@npm:@openai/codex@$version-$platform"
find_bin
[[ -x "$bin" ]] || npm_fail "the optional package @openai/codex-$platform left no native binary at $bin"
"$bin" --version 2>/dev/null | grep -q " $version\$" ||
  npm_fail "$bin --version does not report $version"
date -u +%FT%TZ >"$marker"
echo "$bin"
