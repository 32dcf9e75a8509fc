#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Codex, stdin that is not a JSON object is rejected
# with exit 1 and a message on stderr. Codex reports every such run as a Failed hook (a warning on
# every call) and a crash must not look like it (contract CODEX-1: the fail-safe reply is silence
# and exit 0).
# Breaks: CODEX-0006, CODEX-0009 (bad and hostile input: silence, exit 0)
# Catches: CODEX-0006 CODEX-0009
adapter="$1"; shift
case " $* " in *" codex "*) ;; *) exec "$adapter" "$@";; esac
in="$(cat)"
case "$in" in
  "{"*) printf '%s' "$in" | "$adapter" "$@";;
  *) echo "pinta-gemini: hook input is not a JSON object" >&2; exit 1;;
esac
