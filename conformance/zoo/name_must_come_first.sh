#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: a tool call is judged only when its name arrived before
# the input cap (PINTA_MAX_INPUT_BYTES), as the adapter once did: a host that
# writes the name after the arguments (Antigravity's toolCall.args before toolCall.name) and a cut
# argument mean "no tool name", and the call is allowed without asking the guard.
# Breaks: GUARD-0025 (the tool name after cut arguments)
# Catches: GUARD-0025
adapter="$1"; shift
exec python3 -c '
import os, re, sys
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, sys.argv[1])
from hook import allow, delegate, read_event
adapter, args = sys.argv[2], sys.argv[3:]
cap = int(os.environ.get("PINTA_MAX_INPUT_BYTES", str(32 << 20)))
data = read_event(cap)
if len(data) > cap and not re.search(rb"\"(tool_name|name|\xeb\x8f\x84\xea\xb5\xac)\"\s*:", data[:cap]):
    allow(args)
delegate(adapter, args, data)
' "$(dirname "$0")/lib" "$adapter" "$@"
