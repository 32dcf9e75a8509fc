#!/usr/bin/env bash
# ci/npm-claude.sh — install the pinned real Claude Code CLI for the `real-host` Claude lane.
#
# Interface (the Claude differential lane depends on it; keep it stable):
#   bash ci/npm-claude.sh            installs (once) and prints ONE line: the path of the native
#                                    binary P/node_modules/@anthropic-ai/claude-code/bin/claude.exe
#   exit 0 ready; 3 npm/node missing; 4 npm registry unreachable (callers report SKIPPED);
#   5 install failed for another reason (stderr).
# Pinned: @anthropic-ai/claude-code@2.1.332. Unlike the other installers this one must run the
# package's postinstall: it copies the ~400 MB native binary out of the optional platform package
# (@anthropic-ai/claude-code-linux-x64); `--ignore-scripts` leaves no binary
# (shared/reference/real-hosts.md, "Claude Code 2.1.332").
# Environment: PINTA_NPM_CACHE (default $HOME/.cache/pinta-gemini); prefix $PINTA_NPM_CACHE/npm/claude-VERSION.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/npm-lib.sh"

version=2.1.332
if [[ $# -gt 0 ]]; then
  echo "npm-claude: usage: npm-claude.sh (no arguments; the pinned version is $version)" >&2
  exit 2
fi
npm_setup npm-claude "claude-$version"
bin="$prefix/node_modules/@anthropic-ai/claude-code/bin/claude.exe"
ready() { [[ -f "$marker" && -x "$bin" ]]; }
if ready; then echo "$bin"; exit 0; fi
npm_need_tools
npm_need_registry "@anthropic-ai/claude-code@$version"
npm_lock
if ready; then echo "$bin"; exit 0; fi
[[ -f "$prefix/package.json" ]] ||
  echo '{"name":"pinta-real-claude","private":true}' >"$prefix/package.json"
if ! npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error \
    "@anthropic-ai/claude-code@$version" >&2; then
  npm_fail "npm install of @anthropic-ai/claude-code@$version failed"
fi
[[ -x "$bin" ]] || npm_fail "postinstall left no native binary at $bin"
"$bin" --version 2>/dev/null | grep -q "^$version " ||
  npm_fail "$bin --version does not report $version"
date -u +%FT%TZ >"$marker"
echo "$bin"
