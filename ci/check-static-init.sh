#!/usr/bin/env bash
# The adapter runs on every hook event, so nothing of ours may run before main: a namespace-scope
# object with a dynamic initializer costs every event its work, whatever the event needs (a
# redaction table built that way cost ~78,000 instructions per process, docs/benchmarks.md).
# Lists the binary's static-initializer functions (GCC names them _GLOBAL__sub_I_<first global's
# mangled name or source file>) and fails on any of the project's: a pinta:: symbol or a source
# file of this repository. libstdc++'s own (locale_inst.cc, eh_alloc.cc, ...) are not ours.
# Usage: ci/check-static-init.sh BINARY [SOURCE_ROOT]. Exit 0 clean, 1 found, 77 no nm (skip).
#        ci/check-static-init.sh --self-test CXX: builds two programs with such an initializer (a
#        pinta:: global; a file-scope one in a file of pinta:: functions, which GCC names after the
#        file's first function) and passes only when the check fails on both, so the check is
#        shown able to fail.
set -euo pipefail
if [ "${1:-}" = "--self-test" ]; then
  cxx=${2:?--self-test needs a C++ compiler}
  self=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  printf '#include <string>\nnamespace pinta { std::string table = std::string("a") + "b"; }\nint main() { return static_cast<int>(pinta::table.size()) - 2; }\n' >"$tmp/a.cc"
  mkdir -p "$tmp/src"
  printf '#include <vector>\nnamespace pinta { int rule_count(); }\nstatic std::vector<int> rules{1, 2, 3};\nint pinta::rule_count() { return static_cast<int>(rules.size()); }\nint main() { return pinta::rule_count() - 3; }\n' >"$tmp/src/guard.cc"
  "$cxx" -O2 -o "$tmp/a" "$tmp/a.cc"
  "$cxx" -O2 -o "$tmp/b" "$tmp/src/guard.cc"
  rc=0
  for b in "$tmp/a" "$tmp/b"; do
    if bash "$self" "$b" >/dev/null; then echo "check-static-init: self-test: $b not caught"; rc=1; fi
  done
  [ "$rc" = 0 ] && echo "check-static-init: self-test: both caught"
  exit "$rc"
fi
bin=${1:?usage: check-static-init.sh BINARY [SOURCE_ROOT]}
root=${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
command -v nm >/dev/null || { echo "check-static-init: SKIPPED: no nm (binutils)"; exit 77; }
[ -f "$bin" ] || { echo "check-static-init: no binary $bin" >&2; exit 2; }
ours=$(cd "$root" && find adapter common hosts -name '*.cc' -printf '%f\n' | sort -u)
found=0
while read -r sym; do
  name=${sym#_GLOBAL__sub_I_}
  # _GLOBAL__sub_I_00099_…: a priority constructor the compiler adds for a sanitizer's own
  # registration (GCC -fsanitize=…), not code of ours (the project uses no init_priority).
  [[ $name =~ ^[0-9]{5}_ ]] && continue
  if [[ $name == *_ZN5pinta* ]] || grep -qxF "$name" <<<"$ours"; then
    echo "check-static-init: $bin runs $sym before main (a namespace-scope object with a dynamic initializer: make it constexpr or build it on first use)"
    found=1
  fi
done < <(nm "$bin" | awk '{print $NF}' | grep '^_GLOBAL__sub_I_' | sort -u)
[ "$found" = 0 ] && echo "check-static-init: $bin: no static initializer of ours"
exit "$found"
