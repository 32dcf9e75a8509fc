# Shared by zoo members written in Python (python3 -c, with this folder on sys.path): how a hook
# reads one event and answers "allow" in the host's own protocol, so a member holds only its flaw.
import json
import os
import subprocess
import sys


def read_event(cap=None):
    """One JSON object from stdin, without waiting for EOF (Antigravity keeps the pipe open); with
    `cap`, no more than a little past cap bytes."""
    data = b""
    decoder = json.JSONDecoder()
    while cap is None or len(data) <= cap:
        chunk = os.read(0, 65536)
        if not chunk:
            break
        data += chunk
        try:
            decoder.raw_decode(data.decode("utf-8", "replace").lstrip())
            break
        except ValueError:
            pass
    return data


def allow(args):
    """The host's allow reply (Gemini {}, Antigravity's PreToolUse decision, silence elsewhere), exit 0."""
    agent = args[args.index("--agent") + 1] if "--agent" in args else ""
    event = args[args.index("--event") + 1] if "--event" in args else ""
    if agent in ("antigravity", "agy") and event == "PreToolUse":
        print(json.dumps({"decision": "allow"}))
    elif agent == "gemini":
        print("{}")
    sys.exit(0)


def delegate(adapter, args, data):
    """Our adapter answers the event, its exit status the member's."""
    sys.exit(subprocess.run([adapter] + args, input=data).returncode)
