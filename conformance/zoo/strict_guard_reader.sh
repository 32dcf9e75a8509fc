#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: it reads the guard as the prototype did — one request sized
# like the tool call, and a verdict only from HTTP 200 with a body a strict JSON parser takes
# whole. A 413 from a body limit, a 403 with a DENY, a DENY with NaN or bytes after it: "guard
# unavailable", so the call is allowed (the host's allow reply, exit 0). Otherwise our adapter
# answers.
# Breaks: GUARD-0016 (a DENY at 403), GUARD-0023 (a guard behind a body limit), GUARD-0024 (a
# decorated DENY)
# Catches: GUARD-0016 GUARD-0023 GUARD-0024
adapter="$1"; shift
exec python3 -c '
import json, os, subprocess, sys, urllib.error, urllib.request
adapter, args = sys.argv[1], sys.argv[2:]
# One JSON object from stdin without waiting for EOF (Antigravity keeps the pipe open).
data = b""
decoder = json.JSONDecoder()
while True:
    chunk = os.read(0, 65536)
    if not chunk:
        break
    data += chunk
    try:
        decoder.raw_decode(data.decode("utf-8", "replace").lstrip())
        break
    except ValueError:
        pass
def allow():
    agent = args[args.index("--agent") + 1] if "--agent" in args else ""
    event = args[args.index("--event") + 1] if "--event" in args else ""
    if agent in ("antigravity", "agy") and event == "PreToolUse":
        print(json.dumps({"decision": "allow"}))
    elif agent == "gemini":
        print("{}")
    sys.exit(0)
endpoint = os.environ.get("PINTA_GUARD_ENDPOINT", "")
if endpoint:
    body = json.dumps({"input": {"toolName": "", "rawTextFields": {"toolInput": data.decode("utf-8", "replace")}}}).encode()
    req = urllib.request.Request(endpoint, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            if r.status != 200:
                allow()
            verdict = json.loads(r.read().decode("utf-8"), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
            if not isinstance(verdict, dict) or "decision" not in verdict:
                allow()
    except (urllib.error.URLError, ValueError, OSError):
        allow()
p = subprocess.run([adapter] + args, input=data)
sys.exit(p.returncode)
' "$adapter" "$@"
