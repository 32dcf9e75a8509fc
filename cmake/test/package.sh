#!/usr/bin/env bash
# package.sh CPACK BUILD_DIR SOURCE_DIR: builds the .deb from the existing build tree (cpack, as
# `cmake --build BUILD_DIR --target package` does after building), checks its control fields,
# extracts it with dpkg-deb -x into a temp root (nothing is installed system-wide) and checks the
# extracted copy with the source tree hidden (check-installed.sh).
set -u
cpack=$1
build=$2
src=$3
for tool in dpkg-deb dpkg-shlibdeps readelf; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIPPED: $tool is not installed (apt-get install dpkg-dev binutils)"
    exit 77
  fi
done
tmp=$(mktemp -d /tmp/pinta-package.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
if ! (cd "$build" && "$cpack" -G DEB -B "$tmp/out" >"$tmp/cpack.log" 2>&1); then
  echo "FAIL: cpack -G DEB:"
  tail -30 "$tmp/cpack.log"
  exit 1
fi
deb=$(ls "$tmp"/out/pinta-gemini_*.deb 2>/dev/null)
if [ "$(printf '%s\n' "$deb" | grep -c .)" != 1 ]; then
  echo "FAIL: expected one pinta-gemini_*.deb, found: $(ls "$tmp/out")"
  exit 1
fi
fail=0
say() { echo "FAIL: $*"; fail=1; }
version=$(sed -n 's/^project(pinta_gemini VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = pinta-gemini ] || say "Package: '$(field Package)'"
[ -n "$version" ] && [ "$(field Version)" = "$version" ] ||
  say "Version: '$(field Version)', project version '$version'"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || say "Architecture: '$(field Architecture)'"
[ "$(field Maintainer)" = "pinta-gemini project" ] || say "Maintainer: '$(field Maintainer)'"
field Description | grep -q 'hook adapter' || say "Description: '$(field Description)'"
depends=$(field Depends)
case "$(basename "$deb")" in
  "pinta-gemini_${version}_$(dpkg --print-architecture).deb") ;;
  *) say "file name $(basename "$deb")" ;;
esac
dpkg-deb -c "$deb" | grep -q '/usr/bin/pinta-gemini$' || say "no /usr/bin/pinta-gemini in the package"
mkdir -p "$tmp/root"
dpkg-deb -x "$deb" "$tmp/root" || { echo "FAIL: dpkg-deb -x"; exit 1; }
# Depends (dpkg-shlibdeps) names the package of every shared library the executables load.
printf '%s' "$depends" | grep -q '^libc6\|, libc6' || say "Depends lacks libc6: '$depends'"
# (Direct NEEDED entries only: dpkg-shlibdeps leaves the libraries' own dependencies to them.)
# libssl3 is stated: the tools dlopen OpenSSL 3 for https (adapter/src/tls.cc).
printf '%s' "$depends" | grep -q 'libssl3' || say "Depends lacks libssl3: '$depends'"
for lib in $(for b in "$tmp"/root/usr/bin/*; do
               for so in $(readelf -d "$b" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
                 ldd "$b" | awk -v so="$so" '$1 == so && $3 ~ /^\// {print $3}'
               done
             done | sort -u); do
  pkg=""
  for p in "$lib" "$(readlink -f "$lib")" "${lib#/usr}" "/usr$lib"; do
    pkg=$(dpkg -S "$p" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$pkg" ] && break
  done
  if [ -z "$pkg" ]; then
    say "no Debian package owns $lib (loaded by an installed program)"
  elif ! printf '%s' ", $depends" | grep -q ", $pkg\( \|,\|$\)"; then
    say "Depends lacks $pkg (for $lib): '$depends'"
  fi
done
# Stripped executables (CPACK_STRIP_FILES): no .debug_info section.
if readelf -S "$tmp/root/usr/bin/hostemu" | grep -q '\.debug_info'; then
  say "/usr/bin/hostemu in the package is not stripped"
fi
echo "package: $(basename "$deb"), $(stat -c %s "$deb") bytes; Depends: $depends"
bash "$(dirname "$0")/check-installed.sh" "$tmp/root/usr" "$src" || fail=1
exit "$fail"
