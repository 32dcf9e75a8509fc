#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Codex a guard deny is exit 2 with nothing on stdout
# and an empty stderr (the exit-code hosts' block, the reason dropped). Codex blocks on exit 2
# only with a non-empty stderr: with an empty one the hook run is Failed and the command runs
# (shared/reference/real-hosts.md, "Codex 0.171.0 … hook rules": "exit 2, empty stderr: ran").
# Breaks: CODEX-0002, CODEX-0008, CODEX-0011, and GUARD-0001 under Codex (deny = the JSON line and
# exit 0, contract CODEX-2)
# Catches: CODEX-0002 CODEX-0008 CODEX-0011 GUARD-0001
adapter="$1"; shift
case " $* " in *" codex "*) ;; *) exec "$adapter" "$@";; esac
out="$("$adapter" "$@")"; rc=$?
case "$out" in *'"permissionDecision":"deny"'*) exit 2;; esac
[ -n "$out" ] && printf '%s\n' "$out"
exit "$rc"
