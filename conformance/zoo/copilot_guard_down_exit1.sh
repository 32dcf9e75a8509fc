#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Copilot it reports a guard it could not ask
# (refused, HTTP 500, not JSON: the debug log's "guard":"unavailable") by exiting 1, silently, as a
# hook that "fails open" on most hosts might. Copilot's preToolUse is fail-closed: exit 1 denies
# the call (`hook errored`, CPM scenario c-pre-exit1), so a guard outage blocks every tool call
# (contract COPILOT-2: a guard that is down stays an allow, exit 0).
# Breaks: COPILOT-0004, and GUARD-0005..0007 under Copilot
# Catches: COPILOT-0004 GUARD-0005 GUARD-0006 GUARD-0007
adapter="$1"; shift
case " $* " in *" copilot "*|*" copilot-claude "*) ;; *) exec "$adapter" "$@";; esac
d="$(mktemp -d)" || exit 1
out="$(GEMINI_PLUGIN_DATA="$d" PINTA_GEMINI_DEBUG=1 "$adapter" "$@")"; rc=$?
grep -q '"guard":"unavailable"' "$d/invocations.jsonl" 2>/dev/null && rc=1
rm -rf "$d"
[ -n "$out" ] && printf '%s\n' "$out"
exit "$rc"
