#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Copilot, stdin that is not a JSON object is rejected
# with exit 1 and a message on stderr, the habit of many hook scripts. Copilot's preToolUse is
# fail-closed: exit 1 denies the call (`hook errored`), so every malformed payload blocks a tool
# call the guard never saw (contract COPILOT-2: the fail-safe reply is silence and exit 0).
# Breaks: COPILOT-0005, COPILOT-0006 (bad and hostile input: silence, exit 0, under both labels)
# Catches: COPILOT-0005 COPILOT-0006
adapter="$1"; shift
case " $* " in *" copilot "*|*" copilot-claude "*) ;; *) exec "$adapter" "$@";; esac
in="$(cat)"
case "$in" in
  "{"*) printf '%s' "$in" | "$adapter" "$@";;
  *) echo "pinta-gemini: hook input is not a JSON object" >&2; exit 1;;
esac
