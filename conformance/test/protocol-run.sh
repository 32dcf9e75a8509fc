#!/usr/bin/env bash
# The protocol profile runs each hook as its host would: where, with what, and what it makes of a
# hook that never ran. Each block is a class of wrong verdict the profile once gave:
#   1. an extension's ${extensionPath} and a plugin's ${CLAUDE_PLUGIN_ROOT} name the author's
#      folder (examples/gemini-extension, examples/claude-plugin): PASS, the hook ran;
#   2. --hook with a relative script path runs from the author's current folder;
#   3. a logger leaves the author's project byte-identical (it runs in a copy), --in-place writes;
#   4. a script its interpreter cannot open (python3, node, sh), a command not found, and a
#      plugin variable the host does not set: FAIL PROTO-0 "never ran" on every family, with what
#      the host does then (deel and Copilot block every call);
#   5. the hosts' readings: a Gemini AfterAgent deny is a retry (PASS, noted); deel shows stdout
#      and stderr as a block's reason and printing on a pass is a should; Claude Code's exit 2
#      with its reason on stdout tells the model `No stderr output` (a should); Gemini's plain
#      text on SessionStart is its system message (PASS), on AfterTool PROTO-4; Copilot's exit 2
#      on sessionEnd is a failed run (PROTO-3), on postToolUse a block it cannot honour (PROTO-5);
#   6. a session's events run in the host's order in the one copy, whatever the file's order and
#      --jobs: a sessionEnd hook reads what the sessionStart hook wrote;
#   7. --hook's project: a script in another work tree runs in a copy of that tree; a lone script
#      in an empty project of its own, from where it is.
# By default block 4 grades the gate event only (`--event gate`); with --sweep every event, under
# PINTA_REAL_HOST_FULL=1 (ci/real-hosts.sh; ctest label sweep), else SKIPPED (exit 77): the
# default run is the gate-event slice.
# usage: protocol-run.sh CONFORMANCE SOURCE_DIR [--sweep]
set -uo pipefail
conf="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" src="$(cd "$2" && pwd)"
events=(--event gate)
if [ "${3:-}" = --sweep ]; then
  [ "${PINTA_REAL_HOST_FULL:-}" = 1 ] || {
    echo "SKIPPED: every event under PINTA_REAL_HOST_FULL=1 (ci/real-hosts.sh); the gate event" \
      "runs in conformance_protocol_run"
    exit 77
  }
  events=()
fi
T="$(mktemp -d /tmp/pinta-proto-run-XXXXXX)"
trap 'rm -rf "$T"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# run NAME EXPECTED_RC ARGS...: the profile with ARGS (in the folder $in: --hook runs in a copy
# of it), output in $T/NAME.out, report in $T/NAME/.
mkdir -p "$T/empty"
in="$T/empty"
run() {
  local name="$1" want="$2"
  shift 2
  (cd "$in" && "$conf" run --profile protocol --report "$T/$name" "$@") >"$T/$name.out" 2>&1
  local rc=$?
  [ "$rc" = "$want" ] || { sed 's/^/    /' "$T/$name.out"; fail "$name: exit $rc, expected $want"; }
}
has() {
  grep -q -- "$2" "$T/$1.out" || { sed 's/^/    /' "$T/$1.out"; fail "$1: no '$2' in the output"; }
}
# The first run's stdout in report.json holds TEXT: the hook itself ran.
ran() {
  python3 - "$T/$1/report.json" "$2" <<'EOF' || fail "$1: no '$2' from the hook in the report"
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
runs = [r for c in cases for h in c["hosts"] for r in h.get("runs", [])]
out = [(r.get("stdout") or "") + (r.get("stderr") or "") for r in runs]
sys.exit(0 if any(sys.argv[2] in o for o in out) else 1)
EOF
}
tree_sum() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }

# 1. Folder variables.
run ext 0 --config "$src/conformance/examples/gemini-extension"
ran ext '"decision":"allow"'
run plugin 0 --host claude-code-2.1 --config "$src/conformance/examples/claude-plugin"
run plugin-file 0 --host claude-code-2.1 \
  --config "$src/conformance/examples/claude-plugin/hooks/hooks.json"
# A Codex plugin: ${PLUGIN_ROOT} in its command and its environment.
mkdir -p "$T/cxplug/.codex-plugin" "$T/cxplug/hooks"
echo '{"name": "cx-guard", "version": "1.0.0"}' >"$T/cxplug/.codex-plugin/plugin.json"
printf '#!/bin/sh\ncat >/dev/null\n[ -f "$PLUGIN_ROOT/hooks/ok.sh" ] && echo cx-ran >&2\n' \
  >"$T/cxplug/hooks/ok.sh"
cat >"$T/cxplug/hooks/hooks.json" <<'EOF'
{"hooks": {"PreToolUse": [{"matcher": "Bash",
  "hooks": [{"type": "command", "command": "sh \"${PLUGIN_ROOT}/hooks/ok.sh\""}]}]}}
EOF
run codex-plugin 0 --host codex --config "$T/cxplug/hooks/hooks.json"
ran codex-plugin cx-ran
# The plugin's hooks.json copied out of its plugin: ${CLAUDE_PLUGIN_ROOT} is unset there.
mkdir -p "$T/loose/.claude"
cp "$src/conformance/examples/claude-plugin/hooks/hooks.json" "$T/loose/.claude/settings.json"
run unset-root 1 --host claude-code-2.1 --config "$T/loose/.claude/settings.json" --strict
has unset-root 'PROTO-0'
has unset-root 'CLAUDE_PLUGIN_ROOT'

# 2. A relative --hook path: the author's current folder.
mkdir -p "$T/proj/hooks" "$T/proj/.gemini/hooks"
cat >"$T/proj/hooks/ok.sh" <<'EOF'
#!/bin/sh
cat >/dev/null
echo '{"decision":"allow","x":"rel-ran"}'
EOF
in="$T/proj" run rel 0 --hook "sh hooks/ok.sh" --event BeforeTool
ran rel 'rel-ran'

# 3. The author's tree is left as it is; --in-place writes to it.
cat >"$T/proj/.gemini/hooks/log.sh" <<'EOF'
#!/bin/sh
cat >>"$GEMINI_PROJECT_DIR/.gemini/tool-log.txt"
mkdir -p logs && echo seen >>logs/run.txt
echo seen >>gemini-dir/through-link.txt
EOF
# A link by absolute path into the project: the copy's points into the copy.
ln -s "$T/proj/.gemini" "$T/proj/gemini-dir"
cat >"$T/proj/.gemini/settings.json" <<'EOF'
{"hooks": {"BeforeTool": [{"matcher": "*",
  "hooks": [{"type": "command", "command": "sh .gemini/hooks/log.sh"}]}]}}
EOF
# A .git file (a worktree's pointer to its repository) is not copied: git in the copy would
# write to that repository.
echo "gitdir: $T/elsewhere/.git/worktrees/proj" >"$T/proj/.git"
before="$(tree_sum "$T/proj")"
run copy 0 --config "$T/proj/.gemini/settings.json"
has copy "hooks run in a copy of $T/proj"
has copy 'it points at a repository elsewhere'
[ "$(tree_sum "$T/proj")" = "$before" ] || fail "copy: grading changed the project ($T/proj)"
rm "$T/proj/.git"
run inplace 0 --config "$T/proj/.gemini/settings.json" --in-place
has inplace 'itself (--in-place)'
[ -s "$T/proj/.gemini/tool-log.txt" ] && [ -s "$T/proj/logs/run.txt" ] \
  || fail "--in-place: the logger wrote nothing to the project"

# 4. Never ran, on every event of every registered family (the one list, families.def): what the
# host does then.
hosts=$(sed -n 's/^PINTA_FAMILY([^,]*,[^,]*, *"\([^"]*\)")$/\1/p' "$src/hosts/include/pinta/hosts/families.def")
[ -n "$hosts" ] || fail "no family read from families.def"
# python3 on every family (the false PASS: exit 2 read as a block), sh and node on one. The
# interpreter's own folder first on PATH: a version manager's shim (pyenv) costs a second a call.
PATH="$(dirname "$(python3 -c 'import sys; print(sys.executable)')"):$PATH"
for host in $hosts; do
  interps="python3:py"
  [ "$host" = gemini ] && interps="$interps sh:sh"
  [ "$host" = gemini ] && command -v node >/dev/null && interps="$interps node:js"
  for i in $interps; do
    name="never-$host-${i%%:*}"
    in="$T/proj" run "$name" 1 --host "$host" --jobs 4 "${events[@]}" \
      --hook "${i%%:*} hooks/missing.${i#*:}"
    has "$name" 'PROTO-0'
    has "$name" 'never ran'
  done
  in="$T/proj" run "never-$host-cmd" 1 --host "$host" --jobs 4 "${events[@]}" \
    --hook "no-such-program-x --check"
  has "never-$host-cmd" 'its program was not found'
done
# What each host does then is its own reading of the run: fail-closed gates block every call;
# exit 2 with the interpreter's stderr reads as a block on Gemini CLI, Claude Code and Codex; a
# command not found is a warning on Claude Code and Codex, a deny on Gemini CLI (its text).
for host in deel copilot gemini claude-code codex; do
  has "never-$host-python3" 'blocks every tool call'
done
for host in deel copilot gemini; do has "never-$host-cmd" 'blocks every tool call'; done
for host in claude-code codex; do has "never-$host-cmd" 'runs every tool call'; done

# 5. The hosts' readings.
run afteragent 0 \
  --hook 'cat >/dev/null; echo "{\"decision\":\"deny\",\"reason\":\"check the tests again\"}"' \
  --event AfterAgent --strict
python3 - "$T/afteragent/report.json" <<'EOF' || fail "afteragent: no retry note on the run"
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
notes = [n for c in cases for h in c["hosts"] for r in h["runs"] for n in r.get("notes", [])]
sys.exit(0 if any("retry" in n for n in notes) else 1)
EOF
run deel-reason 0 --host deel-1.17 --event PreToolUse --strict \
  --hook 'cat >/dev/null; echo "not in main" >&2; exit 2'
run deel-print 0 --host deel-1.17 --event PreToolUse --hook 'cat >/dev/null; echo checked'
run deel-print-strict 1 --host deel-1.17 --event PreToolUse --strict \
  --hook 'cat >/dev/null; echo checked'
run claude-stdout 0 --host claude-code-2.1 --event PreToolUse \
  --hook 'cat >/dev/null; echo "not here"; exit 2'
run claude-stdout-strict 1 --host claude-code-2.1 --event PreToolUse --strict \
  --hook 'cat >/dev/null; echo "not here"; exit 2'
has claude-stdout-strict 'No stderr output'
has claude-stdout-strict 'reason on stdout'

# Gemini CLI: plain text on exit 0 is the system message; on SessionStart that is all the reply
# does (PASS, noted), on AfterTool it is a message after every call (PROTO-4).
run gem-ss-text 0 --event SessionStart --strict --hook 'cat >/dev/null; echo "Session Started!"'
run gem-at-text 1 --event AfterTool --hook 'cat >/dev/null; echo "Logged: tool"'
has gem-at-text 'PROTO-4'
# Copilot: exit 2 means something on preToolUse, postToolUse and userPromptSubmitted only.
run cp-end-exit2 1 --host copilot --event sessionEnd --hook 'cat >/dev/null; echo jq >&2; exit 2'
has cp-end-exit2 'PROTO-3'
grep -q 'PROTO-5' "$T/cp-end-exit2.out" && fail "cp-end-exit2: exit 2 on sessionEnd read as a block"
run cp-post-exit2 1 --host copilot --event postToolUse \
  --hook 'cat >/dev/null; echo no >&2; exit 2'
has cp-post-exit2 'PROTO-5'

# 6. A session's events in the host's order: the file registers sessionEnd first; its hook fails
# unless the sessionStart hook's log (written after a pause) is there.
mkdir -p "$T/sess/.github/hooks"
cat >"$T/sess/.github/hooks/order.json" <<'EOF'
{"version": 1, "hooks": {
  "sessionEnd": [{"type": "command", "bash": "cat >/dev/null; grep -q start logs/s.log"}],
  "sessionStart": [{"type": "command",
    "bash": "cat >/dev/null; sleep 0.3; mkdir -p logs; echo start >>logs/s.log"}]}}
EOF
for j in 1 4; do
  run "session-order-$j" 0 --config "$T/sess/.github/hooks/order.json" --jobs "$j"
done
[ -e "$T/sess/logs" ] && fail "session-order: the hooks wrote into the project"

# Each host of --matrix in its own copy: a hook that fails once its mark is there gets the same
# cells as one that never looks (a failed run blocks on deel and Copilot).
run matrix-mark 1 --event gate --matrix --hook 'cat >/dev/null; [ -e mark ] && exit 1; touch mark'
run matrix-nomark 0 --event gate --matrix --hook 'cat >/dev/null; touch mark'
# A row's cells: its last fields, one per host column of the header.
cells() {
  grep -A2 '^Cross-host matrix' "$T/$1.out" | tail -2 |
    awk 'NR == 1 { n = NF - 1 } NR == 2 { for (i = NF - n + 1; i <= NF; i++) printf "%s ", $i }'
}
[ -n "$(cells matrix-nomark)" ] && [ "$(cells matrix-mark)" = "$(cells matrix-nomark)" ] \
  || fail "matrix: one host saw another's mark: '$(cells matrix-mark)' vs '$(cells matrix-nomark)'"

# 7. --hook's project. A script in another git work tree runs in a copy of that tree: it sees
# the tree's files, and the tree is left as it is.
mkdir -p "$T/repo/.git" "$T/repo/hooks" "$T/lone"
echo here >"$T/repo/marker"
cat >"$T/repo/hooks/where.sh" <<'EOF'
#!/bin/sh
cat >/dev/null
[ -f marker ] && m=has-marker || m=no-marker
echo x >>written.txt
echo "{\"decision\":\"allow\",\"x\":\"$m\"}"
EOF
before="$(tree_sum "$T/repo")"
run other-tree 0 --event BeforeTool --hook "sh $T/repo/hooks/where.sh"
has other-tree "hooks run in a copy of $T/repo"
ran other-tree has-marker
[ "$(tree_sum "$T/repo")" = "$before" ] || fail "other-tree: grading changed $T/repo"
# A lone script (in no work tree): an empty project of its own, nothing copied; it still runs.
cp "$T/repo/hooks/where.sh" "$T/lone/hook.sh"
in="$T/proj" run lone 0 --event BeforeTool --hook "sh $T/lone/hook.sh"
has lone 'an empty project of their own'
ran lone no-marker
[ -e "$T/lone/written.txt" ] && fail "lone: the hook wrote next to its script"
[ -e "$T/proj/written.txt" ] && fail "lone: the hook wrote into the current folder"

[ "$failures" = 0 ] || exit 1
echo "protocol run: every hook ran as its host runs it"
