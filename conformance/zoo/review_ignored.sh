#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: ignores PINTA_GUARD_REVIEW=ask, so a REVIEW verdict is a
# silent allow.
# Breaks: GUARD-0003, CLAUDE-0003 (REVIEW mapped to ask is not a silent allow)
# Catches: GUARD-0003 CLAUDE-0003
# Strict: yes
adapter="$1"; shift
exec env -u PINTA_GUARD_REVIEW "$adapter" "$@"
