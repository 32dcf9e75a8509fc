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
import json, os, sys, urllib.error, urllib.request
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, sys.argv[1])
from hook import allow, delegate, read_event
adapter, args = sys.argv[2], sys.argv[3:]
data = read_event()
endpoint = os.environ.get("PINTA_GUARD_ENDPOINT", "")
if endpoint:
    body = json.dumps({"input": {"toolName": "", "rawTextFields": {"toolInput": data.decode("utf-8", "replace")}}}).encode()
    req = urllib.request.Request(endpoint, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            if r.status != 200:
                allow(args)
            verdict = json.loads(r.read().decode("utf-8"), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
            if not isinstance(verdict, dict) or "decision" not in verdict:
                allow(args)
    except (urllib.error.URLError, ValueError, OSError):
        allow(args)
delegate(adapter, args, data)
' "$(dirname "$0")/lib" "$adapter" "$@"
