#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Codex its deny carries one key more, a
# systemMessage inside hookSpecificOutput (for the user to see). Every Codex reply struct rejects
# unknown fields: the hook run is Failed and the command runs (shared/reference/real-hosts.md,
# "Codex 0.171.0 … hook rules": "same, plus any extra key: ran").
# Breaks: CODEX-0002, CODEX-0008, CODEX-0011, and GUARD-0001 under Codex (the deny shape and
# nothing else, contract CODEX-2)
# Catches: CODEX-0002 CODEX-0008 CODEX-0011 GUARD-0001
adapter="$1"; shift
case " $* " in *" codex "*) ;; *) exec "$adapter" "$@";; esac
"$adapter" "$@" | sed -E 's/^\{"hookSpecificOutput":\{(.*)\}\}$/{"hookSpecificOutput":{\1,"systemMessage":"blocked by the guard"}}/'
