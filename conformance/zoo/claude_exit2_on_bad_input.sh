#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Claude Code, stdin that is not a JSON object is
# rejected with exit 2 and a message on stderr. Claude Code reads exit 2 as a blocking error: a
# tool call or a prompt is blocked because of a hook's own trouble (fail-closed by accident).
# Breaks: CLAUDE-0006 (bad input is silence and exit 0)
# Catches: CLAUDE-0006
adapter="$1"; shift
case " $* " in *" claude-code "*) ;; *) exec "$adapter" "$@";; esac
in="$(cat)"
case "$in" in
  "{"*) printf '%s' "$in" | "$adapter" "$@";;
  *) echo "pinta-gemini: hook input is not a JSON object" >&2; exit 2;;
esac
