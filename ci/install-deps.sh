#!/usr/bin/env bash
# Installs the Debian 12 packages pinta-gemini needs to build, test and benchmark.
#
# Idempotent: when every package is already present (installed, or provided by an installed
# package, e.g. NodeSource's nodejs provides npm) it does nothing, so repeat runs are fast.
# Otherwise it runs `apt-get update` once and installs only the missing packages, as root or
# through sudo. `--no-remove` makes apt abort rather than remove anything already installed.
# `--fuzz` adds what ci/fuzz-smoke.sh and ci/sanitize.sh need: clang-14 with its sanitizer and
# libFuzzer runtimes, and ninja.
set -euo pipefail

packages=(
  build-essential cmake pkg-config python3
  nlohmann-json3-dev libcpp-httplib-dev
  libboost1.81-dev libboost-filesystem1.81-dev
  libgtest-dev librapidcheck-dev libre2-dev libcli11-dev
  hyperfine nodejs npm ccache libssl-dev
  # conformance_report_browser renders matrix.html in headless chromium; conformance_action_local
  # reads action.yml with python3-yaml (each is skipped, saying so, without its package)
  chromium python3-yaml
  curl jq  # ci/bench.sh: the bash + curl + jq peer hook
)
case "${1:-}" in
  --fuzz) packages+=(clang-14 libclang-rt-14-dev ninja-build) ;;
  "") ;;
  *) echo "install-deps: unknown argument $1 (only --fuzz)" >&2; exit 2 ;;
esac

# Names that installed packages satisfy: their own names and everything they Provide.
have=" "
if command -v dpkg-query >/dev/null 2>&1; then
  while IFS=$'\t' read -r status name provides; do
    [ "$status" = "installed" ] || continue
    have+="$name "
    # Provides looks like "a (= 1), b, c"; keep the names only.
    for p in $(printf '%s' "$provides" | sed -e 's/([^)]*)//g' -e 's/[,|]/ /g'); do
      have+="$p "
    done
  done < <(dpkg-query -W -f='${db:Status-Status}\t${Package}\t${Provides}\n' 2>/dev/null || true)
fi

missing=()
for p in "${packages[@]}"; do
  case "$have" in
    *" $p "*) ;;
    *) missing+=("$p") ;;
  esac
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
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
