#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: a tool call is judged only when its name arrived before
# the input cap (PINTA_MAX_INPUT_BYTES), as before issue "Guard integrity, round 3": a host that
# writes the name after the arguments (Antigravity's toolCall.args before toolCall.name) and a cut
# argument mean "no tool name", and the call is allowed without asking the guard.
# Breaks: GUARD-0025 (the tool name after cut arguments)
# Catches: GUARD-0025
adapter="$1"; shift
exec python3 -c '
import json, os, re, subprocess, sys
adapter, args = sys.argv[1], sys.argv[2:]
cap = int(os.environ.get("PINTA_MAX_INPUT_BYTES", str(32 << 20)))
data = b""
while len(data) <= cap:
    chunk = os.read(0, 65536)
    if not chunk:
        break
    data += chunk
    if data.rstrip().endswith(b"}") and data.count(b"{") == data.count(b"}"):
        break
if len(data) > cap and not re.search(rb"\"(tool_name|name|\xeb\x8f\x84\xea\xb5\xac)\"\s*:", data[:cap]):
    agent = args[args.index("--agent") + 1] if "--agent" in args else ""
    event = args[args.index("--event") + 1] if "--event" in args else ""
    if agent in ("antigravity", "agy") and event == "PreToolUse":
        print(json.dumps({"decision": "allow"}))
    elif agent == "gemini":
        print("{}")
    sys.exit(0)
p = subprocess.run([adapter] + args, input=data)
sys.exit(p.returncode)
' "$adapter" "$@"
