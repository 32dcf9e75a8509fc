#!/usr/bin/env bash
# package.sh CMAKE CPACK BUILD_DIR SOURCE_DIR: builds the .deb from the existing build tree, checks
# its control fields, extracts it with dpkg-deb -x into a temp root (nothing is installed
# system-wide) and checks the extracted copy with the source tree hidden (check-installed.sh).
# `--target package` runs cpack after building `all`, and cpack's own install step builds `all`
# too; a test must not build (with PINTA_BUILD_TESTS that is every test and harness), so this one
# stages the same install rules with `cmake --install --strip` (what CPACK_STRIP_FILES does) and
# gives cpack, with the project's CPackConfig.cmake, the staged tree instead of the build tree.
set -u
cmake=$1
cpack=$2
build=$3
src=$4
for tool in dpkg-deb dpkg-shlibdeps readelf; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIPPED: $tool is not installed (apt-get install dpkg-dev binutils)"
    exit 77
  fi
done
tmp=$(mktemp -d /tmp/pinta-package.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
prefix=$(sed -n 's/^set(CPACK_PACKAGING_INSTALL_PREFIX "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
[ -n "$prefix" ] || { echo "FAIL: no CPACK_PACKAGING_INSTALL_PREFIX in $build/CPackConfig.cmake"; exit 1; }
if ! "$cmake" --install "$build" --prefix "$tmp/stage$prefix" --strip >"$tmp/install.log" 2>&1; then
  echo "FAIL: cmake --install --strip:"
  tail -20 "$tmp/install.log"
  exit 1
fi
if ! (cd "$build" && "$cpack" -G DEB -B "$tmp/out" -D CPACK_INSTALL_CMAKE_PROJECTS= \
        -D "CPACK_INSTALLED_DIRECTORIES=$tmp/stage;." -D CPACK_PACKAGING_INSTALL_PREFIX=/ \
        >"$tmp/cpack.log" 2>&1); then
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
dpkg-deb -c "$deb" >"$tmp/contents"
grep -q "\.$prefix/bin/pinta-gemini\$" "$tmp/contents" || say "no $prefix/bin/pinta-gemini in the package"
mkdir -p "$tmp/root"
dpkg-deb -x "$deb" "$tmp/root" || { echo "FAIL: dpkg-deb -x"; exit 1; }
# Depends (dpkg-shlibdeps) names the package of every shared library the executables load.
printf '%s' "$depends" | grep -q '^libc6\|, libc6' || say "Depends lacks libc6: '$depends'"
# (Direct NEEDED entries only: dpkg-shlibdeps leaves the libraries' own dependencies to them.)
# libssl3 is stated: the tools dlopen OpenSSL 3 for https (adapter/src/net/tls.cc).
printf '%s' "$depends" | grep -q 'libssl3' || say "Depends lacks libssl3: '$depends'"
for lib in $(for b in "$tmp/root$prefix"/bin/*; do
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
# Stripped executables: no .debug_info section.
if readelf -S "$tmp/root$prefix/bin/hostemu" | grep -q '\.debug_info'; then
  say "$prefix/bin/hostemu in the package is not stripped"
fi
echo "package: $(basename "$deb"), $(stat -c %s "$deb") bytes; Depends: $depends"
bash "$(dirname "$0")/check-installed.sh" "$tmp/root$prefix" "$src" || fail=1
exit "$fail"
