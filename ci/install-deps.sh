#!/usr/bin/env bash
# Installs the Debian 12 packages pinta-gemini needs, by profile:
#   --main   the main job (ci/main.sh): compiler, CMake, the libraries the programs link
#            (nlohmann-json, cpp-httplib, Boost, RE2, PCRE2, CLI11, OpenSSL for the static adapter) and
#            ccache and ninja-build. No test framework, Node.js, browser or benchmark tool: ci/main.sh
#            configures with PINTA_BUILD_TESTS=OFF and builds only its four programs.
#   (none)   everything ci/test.sh and ci/bench.sh need: --main plus python3, GoogleTest,
#            rapidcheck, Node.js/npm (real-host lanes), chromium, its CJK and emoji fonts and
#            python3-yaml (conformance report and action tests), hyperfine, curl and jq (the
#            benchmark's peers).
#   --fuzz   the default set plus what ci/fuzz-smoke.sh and ci/sanitize.sh need: clang-14 with
#            its sanitizer and libFuzzer runtimes.
#   --list   print the chosen set (after the profile argument, e.g. `--main --list`) and exit.
#
# Idempotent: when every package is already present (installed, or provided by an installed
# package, e.g. NodeSource's nodejs provides npm) it does nothing, so repeat runs are fast.
# Otherwise it runs `apt-get update` once and installs only the missing packages, as root or
# through sudo. `--no-remove` makes apt abort rather than remove anything already installed.
set -euo pipefail

# The main job: what configuring with PINTA_BUILD_TESTS=OFF and building pinta-gemini, hostemu,
# conformance and pinta-fake-server require (cmake/PintaDeps.cmake; libssl-dev: the static
# adapter links libssl.a/libcrypto.a, adapter/CMakeLists.txt; libpcre2-dev: the JavaScript RegExp
# engine of the Node host emulators, hosts/node, linked by hostemu and conformance).
main_packages=(
  build-essential cmake pkg-config
  nlohmann-json3-dev libcpp-httplib-dev
  libboost1.81-dev libboost-filesystem1.81-dev
  libre2-dev libpcre2-dev libcli11-dev libssl-dev ccache
  libtomlplusplus-dev  # toml++ 3.3: hosts that keep hooks in a TOML config (host libraries only)
  ninja-build  # ci/build.sh: both cores busy across the named targets (Make runs them in turn)
)
# Tests and benchmarks on top of it.
test_packages=(
  python3 libgtest-dev librapidcheck-dev
  nodejs npm  # real-host lanes (ci/npm-hosts.sh), otlp_proto_process_test, ci/drift.sh
  # conformance_report_browser renders matrix.html in headless chromium; conformance_action_local
  # reads action.yml with python3-yaml (each is skipped, saying so, without its package)
  chromium python3-yaml
  # the fonts that report's text needs (Korean event names and hook output, emoji): without them
  # Chromium draws boxes, and conformance_report_browser fails on it
  fonts-noto-cjk fonts-noto-color-emoji
  hyperfine curl jq  # ci/bench.sh: hyperfine, and the bash + curl + jq peer hook
)
fuzz_packages=(clang-14 libclang-rt-14-dev)

profile=full list=0
for a in "$@"; do
  case "$a" in
    --main) profile=main ;;
    --fuzz) profile=fuzz ;;
    --full) profile=full ;;
    --list) list=1 ;;
    *) echo "install-deps: unknown argument $a (--main, --full (default), --fuzz, --list)" >&2; exit 2 ;;
  esac
done
packages=("${main_packages[@]}")
case "$profile" in
  full) packages+=("${test_packages[@]}") ;;
  fuzz) packages+=("${test_packages[@]}" "${fuzz_packages[@]}") ;;
esac
if [ "$list" = 1 ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

# Names that installed packages satisfy: their own names and everything they Provide. One pipeline
# over dpkg's list (a fork per installed package took 2.5 min on a loaded 2-core machine).
have=" "
if command -v dpkg-query >/dev/null 2>&1; then
  # Provides looks like "a (= 1), b, c"; keep the names only.
  have+=$(dpkg-query -W -f='${db:Status-Status} ${Package} ${Provides}\n' 2>/dev/null |
    sed -e '/^installed /!d' -e 's/^installed //' -e 's/([^)]*)//g' -e 's/[,|]/ /g' |
    tr -s ' \n' '  ' || true)
  have+=" "
fi

missing=()
for p in "${packages[@]}"; do
  case "$have" in
    *" $p "*) ;;
    *) missing+=("$p") ;;
  esac
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages of the $profile set already installed"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: missing packages (${missing[*]}) and neither root nor sudo" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends --no-remove "${missing[@]}"
