#!/usr/bin/env bash
# ci/npm-copilot.sh — install the pinned real GitHub Copilot CLI for the `real-host` Copilot lanes.
#
# Interface (the Copilot differential and guard lanes depend on it; keep it stable, the same as
# ci/npm-codex.sh):
#   bash ci/npm-copilot.sh [VERSION] installs (once) and prints ONE line: the path of a launcher,
#                                    P/copilot, that runs the native binary with its unpacked
#                                    package kept in the prefix (see below); run it as
#                                    `P/copilot -p PROMPT --allow-all-tools --no-auto-update`
#                                    with HOME (or COPILOT_HOME) set to a temp home of the run's own
#   exit 0 ready; 3 npm/node missing; 4 npm registry unreachable (callers report SKIPPED);
#   5 install failed for another reason, or no native package for this platform (stderr).
# Pinned: @github/copilot@1.0.102; VERSION installs another release the same way (the version
# bisection, ci/copilot-bisect.py: only releases with a native package for this platform, the
# first is 0.0.371; a release without one exits 5). Its `npm-loader.js` is only a Node launcher; the native binary
# ships in an optional per-platform package (`@github/copilot-linux-x64`, a single executable).
# That executable unpacks its JavaScript and native modules (~235 MB) on its first run into
# `$COPILOT_PKG_CACHE_HOME/pkg/<platform>/<version>/`, by default under ~/.cache/copilot/
# (measured: the loader reads COPILOT_PKG_CACHE_HOME, then COPILOT_CACHE_HOME, then XDG_CACHE_HOME).
# The launcher pins COPILOT_PKG_CACHE_HOME to P/cache, and this script runs the unpacking once,
# under a HOME inside the prefix, so neither the real home nor a lane's temp home ever holds the
# 235 MB and no lane pays for it per run. The unpacked tree also holds the package's
# changelog.json (P/cache/pkg/<platform>/1.0.102/changelog.json). No postinstall is needed:
# --ignore-scripts (shared/reference/real-hosts.md, "… GitHub Copilot CLI 1.0.102, offline").
# Environment: PINTA_NPM_CACHE (default $HOME/.cache/pinta-gemini); prefix $PINTA_NPM_CACHE/npm/copilot-VERSION.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/npm-lib.sh"

version=1.0.102
if [[ $# -gt 1 || ( $# = 1 && ! $1 =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ) ]]; then
  echo "npm-copilot: usage: npm-copilot.sh [VERSION] (a release X.Y.Z; the pinned version is $version)" >&2
  exit 2
fi
[[ $# = 1 ]] && version=$1
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  *) echo "npm-copilot: no native Copilot package for $(uname -s)-$(uname -m)" >&2; exit 5 ;;
esac
# musl systems get the linuxmusl package (what npm-loader.js picks); the unpacked tree keeps the
# plain platform name.
pkg_platform=$platform
if ldd --version 2>&1 | grep -qi musl; then pkg_platform=linuxmusl-${platform#linux-}; fi
npm_setup npm-copilot "copilot-$version"
native="$prefix/node_modules/@github/copilot-$pkg_platform/copilot"
launcher="$prefix/copilot"
unpacked="$prefix/cache/pkg/$platform/$version"
# Releases before the loader read COPILOT_PKG_CACHE_HOME (1.0.57, measured) unpack under
# $XDG_CACHE_HOME/copilot/pkg/ instead; their launcher pins XDG_CACHE_HOME to P/xdg.
unpacked_xdg="$prefix/xdg/copilot/pkg/$platform/$version"
ready() {
  [[ -f "$marker" && -x "$native" && -x "$launcher" ]] &&
    [[ -f "$unpacked/.extraction-complete" || -f "$unpacked_xdg/.extraction-complete" ]]
}
if ready; then echo "$launcher"; exit 0; fi
npm_need_tools
npm_need_registry "@github/copilot@$version"
npm_lock
if ready; then echo "$launcher"; exit 0; fi
npm_install pinta-real-copilot "@github/copilot@$version"
[[ -x "$native" ]] || npm_fail "the optional package @github/copilot-$pkg_platform left no native binary at $native"
# The first run unpacks; --version then proves the unpacked CLI starts. HOME is a scratch folder in
# the prefix (nothing of the real home is read or written).
mkdir -p "$prefix/home"
out=$(env -u COPILOT_HOME -u XDG_CONFIG_HOME -u XDG_STATE_HOME \
  HOME="$prefix/home" COPILOT_AUTO_UPDATE=false COPILOT_PKG_CACHE_HOME="$prefix/cache" \
  XDG_CACHE_HOME="$prefix/xdg" timeout 300 "$native" --version 2>&1)
grep -Fq "Copilot CLI $version." <<<"$out" ||
  npm_fail "$native --version does not report $version: $(head -c 300 <<<"$out")"
# The launcher: the unpacked package stays in the prefix whatever HOME the caller runs under. A
# caller's own COPILOT_PKG_CACHE_HOME (XDG_CACHE_HOME for the older releases) wins.
if [[ -f "$unpacked/.extraction-complete" ]]; then
  pin=COPILOT_PKG_CACHE_HOME pin_dir="$prefix/cache"
elif [[ -f "$unpacked_xdg/.extraction-complete" ]]; then
  pin=XDG_CACHE_HOME pin_dir="$prefix/xdg"
else
  npm_fail "the first run left no unpacked package at $unpacked (nor $unpacked_xdg)"
fi
cat >"$launcher.tmp" <<EOF
#!/bin/sh
# Runs the Copilot CLI $version (written by ci/npm-copilot.sh).
: "\${$pin:=$pin_dir}"
export $pin
exec "$native" "\$@"
EOF
chmod +x "$launcher.tmp" && mv "$launcher.tmp" "$launcher" || npm_fail "cannot write $launcher"
date -u +%FT%TZ >"$marker"
echo "$launcher"
