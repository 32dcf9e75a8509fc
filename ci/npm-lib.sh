# ci/npm-lib.sh — the skeleton the ci/npm-*.sh installers share; sourced, never run.
# Each installer keeps a pinned npm install in a prefix under the cache root and prints that
# prefix on its one stdout line. Exit statuses, the same for every installer:
#   0 ready; 3 npm/node not installed; 4 the npm registry is unreachable (nothing cached):
#   callers report SKIPPED with the reason; 5 install failed for another reason (stderr).
# Environment: PINTA_NPM_CACHE (default $HOME/.cache/pinta-gemini); the prefix is
# $PINTA_NPM_CACHE/npm/<name>. A marker file in the prefix records a finished install.
#
# Use: npm_setup TAG NAME (sets npm_tag, prefix, marker), then
#   npm_ready_exit COND...   when the test command COND succeeds: print the prefix, exit 0;
#   npm_need_tools           exit 3 without npm and node;
#   npm_need_registry PKG    exit 4 when `npm view PKG version` fails;
#   npm_lock                 create the prefix and hold its lock (one installer at a time);
#   npm_install JSON_NAME PKG...  npm install into the prefix, exit 5 on failure;
#   npm_fail MESSAGE         one stderr line, exit 5;
#   npm_finish               write the marker, print the prefix.

npm_setup() {
  npm_tag="$1"
  local root="${PINTA_NPM_CACHE:-${HOME:-/tmp}/.cache/pinta-gemini}"
  prefix="$root/npm/$2"
  marker="$prefix/.pinta-installed"
}

npm_ready_exit() {
  if "$@"; then
    echo "$prefix"
    exit 0
  fi
}

npm_need_tools() {
  if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
    echo "$npm_tag: npm/node not installed" >&2
    exit 3
  fi
}

npm_need_registry() {
  if ! timeout 30 npm view "$1" version >/dev/null 2>&1; then
    echo "$npm_tag: npm registry unreachable (npm view $1 failed)" >&2
    exit 4
  fi
}

npm_lock() {
  mkdir -p "$prefix"
  exec 9>"$prefix/.lock"
  flock 9
}

npm_fail() {
  echo "$npm_tag: $1" >&2
  exit 5
}

npm_install() {
  local json_name="$1"
  shift
  [[ -f "$prefix/package.json" ]] ||
    echo "{\"name\":\"$json_name\",\"private\":true}" >"$prefix/package.json"
  if ! npm install --prefix "$prefix" --no-audit --no-fund --ignore-scripts --loglevel=error \
      "$@" >&2; then
    npm_fail "npm install of $1 failed"
  fi
}

npm_finish() {
  date -u +%FT%TZ >"$marker"
  echo "$prefix"
}
