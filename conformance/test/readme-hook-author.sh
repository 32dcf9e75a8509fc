#!/usr/bin/env bash
# The README's hook-author walk-through, exactly as the README shows it: its ```sh block under
# "**Hook authors**" is run line by line in bash, with `conformance` on PATH and the clone's URL
# pointing at a git repository made from a corpus hook (conformance/examples/third-party/: a
# Claude Code plugin and a Gemini CLI extension, as their authors publish them). The run must end
# with the verdict expected.json gives the hook, say which host it read the repository as, and
# leave the clone as it was.
# usage: readme-hook-author.sh CONFORMANCE SOURCE_DIR
set -uo pipefail
conf="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" src="$(cd "$2" && pwd)"
T="$(mktemp -d /tmp/pinta-readme-author-XXXXXX)"
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
command -v git >/dev/null || { echo "SKIPPED: git is not on PATH"; exit 77; }

# The block: the first ```sh fence after the "**Hook authors**" paragraph's start.
python3 - "$src/README.md" >"$T/block.sh" <<'EOF' || { echo "FAIL: no sh block under the README's hook authors"; exit 1; }
import sys
text = open(sys.argv[1], encoding="utf-8").read()
at = text.index("**Hook authors**")
start = text.index("```sh\n", at) + len("```sh\n")
block = text[start:text.index("```", start)]
if not block.strip():
    sys.exit(1)
sys.stdout.write(block)
EOF
sed 's/^/  README: /' "$T/block.sh"
url=$(grep -o 'https://github.com/[^ ]*' "$T/block.sh" | head -1)
name=${url##*/}
[ -n "$url" ] || { echo "FAIL: the README's block clones no https://github.com/... repository"; exit 1; }

# hook VERDICT: the block on a repository made from corpus hook HOOK, its verdicts on the host
# read from expected.json.
try() {
  local hook="$1" host="$2"
  local repo="$T/$hook/remote/$name" work="$T/$hook/work"
  mkdir -p "$repo" "$work"
  cp -R "$src/conformance/examples/third-party/$hook/." "$repo/"
  git -C "$repo" init -q && git -C "$repo" add -A &&
    git -C "$repo" -c user.name=t -c user.email=t@example.invalid commit -qm hook ||
    { fail "$hook: cannot make its repository"; return; }
  # Exactly the README's lines; only the URL is the local repository's.
  sed "s|$url|$repo|g" "$T/block.sh" >"$T/$hook/block.sh"
  (cd "$work" && PATH="$(dirname "$conf"):$PATH" bash -e "$T/$hook/block.sh") >"$T/$hook/out" 2>&1
  local rc=$?
  local want
  want=$(python3 - "$src/conformance/examples/third-party/expected.json" "$hook" "$host" <<'EOF'
import json, sys
v = json.load(open(sys.argv[1]))["verdicts"][sys.argv[2]][sys.argv[3]]
sys.stdout.write("PASS" if all(not r["fail"] for r in v.values()) else "FAIL")
EOF
)
  local want_rc=1
  [ "$want" = PASS ] && want_rc=0
  if [ "$rc" != "$want_rc" ]; then
    sed 's/^/    /' "$T/$hook/out"
    fail "$hook: the README's commands exited $rc, expected $want_rc ($want on $host, expected.json)"
  fi
  grep -q "read as $host" "$T/$hook/out" || { sed 's/^/    /' "$T/$hook/out"; fail "$hook: not read as $host"; }
  [ -z "$(git -C "$work/$name" status --porcelain)" ] || fail "$hook: grading changed the clone"
}
try cc-hooks-git-safety claude-code-2.1
try gemini-hooks-example gemini-0.61

[ "$failures" = 0 ] || exit 1
echo "readme hook author: the README's commands give the expected verdict on a fresh clone"
