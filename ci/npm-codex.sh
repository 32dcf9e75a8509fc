#!/usr/bin/env bash
# ci/npm-codex.sh — install the pinned real OpenAI Codex CLI for the `real-host` Codex lanes.
#
# Interface (the Codex differential and guard lanes depend on it; keep it stable, the same as
# ci/npm-claude.sh):
#   bash ci/npm-codex.sh             installs (once) and prints ONE line: the path of the native
#                                    binary (under the optional platform package, see below)
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
if [[ $# -gt 0 ]]; then
  echo "npm-codex: usage: npm-codex.sh (no arguments; the pinned version is $version)" >&2
  exit 2
fi
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 triple=x86_64-unknown-linux-musl ;;
  Linux-aarch64) platform=linux-arm64 triple=aarch64-unknown-linux-musl ;;
  *) echo "npm-codex: no native Codex package for $(uname -s)-$(uname -m)" >&2; exit 5 ;;
esac
npm_setup npm-codex "codex-$version"
bin="$prefix/node_modules/@openai/codex-$platform/vendor/$triple/bin/codex"
ready() { [[ -f "$marker" && -x "$bin" ]]; }
if ready; then echo "$bin"; exit 0; fi
npm_need_tools
npm_need_registry "@openai/codex@$version"
npm_lock
if ready; then echo "$bin"; exit 0; fi
npm_install pinta-real-codex "@openai/codex@$version"
[[ -x "$bin" ]] || npm_fail "the optional package @openai/codex-$platform left no native binary at $bin"
"$bin" --version 2>/dev/null | grep -q " $version\$" ||
  npm_fail "$bin --version does not report $version"
date -u +%FT%TZ >"$marker"
echo "$bin"
