#!/usr/bin/env bash
# intent: allow
# Does slow work (a network scan, say) longer than the timeout its config gives it.
cat >/dev/null
sleep 5
exit 0
