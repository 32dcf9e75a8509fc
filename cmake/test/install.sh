#!/usr/bin/env bash
# install.sh CMAKE BUILD_DIR SOURCE_DIR: `cmake --install BUILD_DIR --prefix <temp>`, then the
# installed copy is checked with the source tree hidden (check-installed.sh).
set -u
cmake=$1
build=$2
src=$3
tmp=$(mktemp -d /tmp/pinta-install-prefix.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
if ! "$cmake" --install "$build" --prefix "$tmp/p" >"$tmp/install.log" 2>&1; then
  echo "FAIL: cmake --install $build --prefix $tmp/p:"
  tail -20 "$tmp/install.log"
  exit 1
fi
bash "$(dirname "$0")/check-installed.sh" "$tmp/p" "$src"
