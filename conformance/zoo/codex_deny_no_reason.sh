#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Codex its deny leaves out permissionDecisionReason
# (the reason "goes to the log instead"). Codex needs a non-empty reason on a deny: without one the
# hook run is Failed and the command runs (shared/reference/real-hosts.md, "Codex 0.171.0 … hook
# rules": "deny without a reason: ran").
# Breaks: CODEX-0002, CODEX-0008, CODEX-0011, and GUARD-0001 under Codex (contract CODEX-2)
# Catches: CODEX-0002 CODEX-0008 CODEX-0011 GUARD-0001
adapter="$1"; shift
case " $* " in *" codex "*) ;; *) exec "$adapter" "$@";; esac
"$adapter" "$@" | sed -E 's/,"permissionDecisionReason":.*\}\}$/}}/'
