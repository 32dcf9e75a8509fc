# Sourced by protocol-hooks.sh and protocol-hooks-claude.sh: what both lanes start with.
# Sets $ex (the example hooks), $T (a temp dir removed at exit) and $failures; fail() counts a
# failure, skip() ends the lane as SKIPPED (exit 77, ctest's skip status) with its reason; both
# lanes need node and jq (the example hooks are node and bash+jq scripts).
# usage: source protocol-common.sh SOURCE_DIR TEMP_PREFIX
ex="$1/conformance/examples/hooks"
T="$(mktemp -d "/tmp/$2-XXXXXX")"
trap 'rm -rf "$T"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
skip() { echo "SKIPPED: $*"; exit 77; }
command -v node >/dev/null || skip "node is not on PATH (the node hooks and the judges need it)"
command -v jq >/dev/null || skip "jq is not on PATH (the bash+jq hooks need it)"
