#!/usr/bin/env bash
# The protocol profile on Claude Code hooks, held to the real CLI: conformance/examples/hooks/
# claude-settings.json (18 registrations in the styles people publish: bash+jq, node, python;
# loggers, deny by exit 2 with the reason on stderr, JSON deny, context injectors, stdout loggers,
# no-stdin, crash-on-empty, and the usual mistakes) graded by `conformance run --profile protocol
# --host claude-code-2.1`; its verdicts checked against the ones these hooks must get, per hook;
# then every graded registration run again by the real Claude Code 2.1.332 (ci/npm-claude.sh) in
# offline print-mode sessions against `hostemu claude model-server`, the hook in the project's
# .claude/settings.json (conformance/test/protocol-judge.py claude): the profile's PASS must be
# exactly the registrations whose intent ("intent:" lines) the real CLI honoured.
# usage: protocol-hooks-claude.sh CONFORMANCE SOURCE_DIR HOSTEMU
# Exit 77 (SKIPPED, with the reason) when Node, jq or the CLI (npm, its registry) is missing.
set -uo pipefail
conf="$1" src="$2" hostemu="$3"
source "$(dirname "${BASH_SOURCE[0]}")/protocol-common.sh" "$src" pinta-proto-claude

# 1. The profile: the settings file read by Claude Code's own loader, each hook judged as Claude
# Code 2.1.332 reads it (the emulator, held to the real CLI by claude_real_diff_test).
"$conf" run --profile protocol --host claude-code-2.1 --config "$ex/claude-settings.json" --strict \
  --jobs 4 --report "$T/claude" >"$T/claude.out" 2>&1
rc=$?
[ "$rc" = 1 ] || { cat "$T/claude.out"; fail "claude profile run: exit $rc, expected 1"; }
python3 - "$T/claude/report.json" <<'PY' || fail "Claude Code verdicts"
import json, sys
want = {  # (event, command) -> the protocol checks it must fail ([]: it passes)
    ("PreToolUse", "bash protect-paths.sh"): ["PROTO-6"],     # exit 2, the reason on stdout
    ("PreToolUse", "bash deny-exit1.sh"): ["PROTO-3"],        # exit 1: a non-blocking error
    ("PreToolUse", "python3 policy-json.py"): ["PROTO-5"],    # Gemini's decision deny: rejected
    ("PreToolUse", "node claude-deny-write.js"): [],          # permissionDecision deny + reason
    ("PreToolUse", "bash claude-deny-json.sh"): [],           # `ls -la` is not a recursive delete
    ("PreToolUse", "python3 require-description.py"): [],     # exit 2, the reason on stderr
    ("PreToolUse", "bash log-allow.sh"): [],
    # A log line on PreToolUse or Stop is neither read nor given to the model (a note).
    ("PreToolUse", "bash stdout-logger.sh"): [],
    # Claude Code does not wait for a child holding the pipes (scenario pre-late-output).
    ("PreToolUse", "bash background-child.sh"): [],
    ("PreToolUse", "sh no-stdin.sh"): [],
    ("PreToolUse", "python3 crash-on-empty.py"): [],
    ("PreToolUse", "bash slow-hook.sh"): ["PROTO-1"],         # 5 s of work, a 1 s timeout
    ("UserPromptSubmit", "node context-inject.js"): [],
    ("Stop", "bash stdout-logger.sh"): [],
    # A deny after the tool ran: permissionDecision is read on PreToolUse only.
    ("PostToolUse", "printf '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\","
                    "\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"too late\"}}'"
                    " # intent: deny"): ["PROTO-5"],
    ("PostToolUse", "node context-inject.js"): [],
    # SessionStart cannot block: exit 2 only shows stderr.
    ("SessionStart", "echo 'not in this repo' >&2; exit 2 # intent: deny"): ["PROTO-5"],
    ("SessionStart", "bash session-context.sh"): [],           # plain text: context
}
rep = json.load(open(sys.argv[1]))
seen, bad = set(), 0
for c in rep["cases"]:
    h = c["hosts"][0]
    run = h["runs"][0] if h["runs"] else {}
    key = (run.get("event"), run.get("command"))
    seen.add(key)
    if key not in want:
        print("unexpected hook", key); bad += 1; continue
    got = sorted(set(h["failed_checks"]))
    if got != sorted(want[key]):
        print("%s %s: failed %s, expected %s" % (c["id"], key, got, want[key])); bad += 1
for k in set(want) - seen:
    print("hook not graded:", k); bad += 1
sys.exit(1 if bad else 0)
PY

# 2. The judge: the real Claude Code CLI.
claude="$(bash "$src/ci/npm-claude.sh")"
case $? in
  0) python3 "$src/conformance/test/protocol-judge.py" claude "$T/claude/report.json" "$ex" \
       "$claude" "$hostemu" "$T/claude-judge" || fail "Claude Code verdicts against the real CLI" ;;
  3|4) echo "SKIPPED (Claude Code judge): npm or the registry is unavailable"; skipped=1 ;;
  *) fail "ci/npm-claude.sh failed" ;;
esac
[ "$failures" = 0 ] || exit 1
[ -z "${skipped:-}" ] || skip "the real Claude Code CLI was unavailable (above)"
echo "protocol profile: every Claude Code verdict agrees with the real CLI"
