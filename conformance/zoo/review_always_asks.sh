#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: maps every guard REVIEW to the host's ask, even when not
# configured to (a headless Gemini CLI then hangs on the prompt; contract GUARD-6).
# Breaks: GUARD-0018, CLAUDE-0004 (REVIEW allows by default)
# Catches: GUARD-0018 CLAUDE-0004
# (Not GUARD-0019: under `agy -p` our adapter overrides the configured ask; see
# review_asks_in_print_mode.sh.)
# Strict: yes
adapter="$1"; shift
PINTA_GUARD_REVIEW=ask; export PINTA_GUARD_REVIEW
exec "$adapter" "$@"
