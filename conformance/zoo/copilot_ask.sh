#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Copilot it turns every guard REVIEW into
# permissionDecision ask (as if PINTA_GUARD_REVIEW=ask were the default). In `copilot -p` no one
# can answer: Copilot denies the call (`… (unable to ask user for confirmation): R`, CPM scenario
# c-pre-ask), so every review becomes a block (contract COPILOT-4: REVIEW is allow by default).
# The guard's verdict is read from the adapter's own debug log ("guard":"review").
# Breaks: COPILOT-0008
# Catches: COPILOT-0008
adapter="$1"; shift
case " $* " in *" copilot "*|*" copilot-claude "*) ;; *) exec "$adapter" "$@";; esac
d="$(mktemp -d)" || exit 1
out="$(GEMINI_PLUGIN_DATA="$d" PINTA_GEMINI_DEBUG=1 "$adapter" "$@")"; rc=$?
if [ -z "$out" ] && grep -q '"guard":"review"' "$d/invocations.jsonl" 2>/dev/null; then
  out='{"permissionDecision":"ask","permissionDecisionReason":"needs review"}'
fi
rm -rf "$d"
[ -n "$out" ] && printf '%s\n' "$out"
exit "$rc"
