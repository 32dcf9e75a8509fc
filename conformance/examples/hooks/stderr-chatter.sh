#!/usr/bin/env bash
# intent: allow
# Reports progress on stderr and allows with nothing on stdout.
cat >/dev/null
echo "scanning... done, nothing found" >&2
exit 0
