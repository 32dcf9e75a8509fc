#!/usr/bin/env python3
# intent: deny
# Deny by exit 2 with the reason on stderr (python), Claude Code's exit-code way to refuse: every
# Bash call must say what it is for (the Bash tool's optional "description"); one without gets
# refused and the model is told why (`PreToolUse:Bash hook error: [<command>]: <stderr>`).
import json
import sys

event = json.load(sys.stdin)
args = event.get("tool_input") or {}
if event.get("tool_name") == "Bash" and not str(args.get("description") or "").strip():
    print("require-description: say what this command is for (description) before running: "
          + str(args.get("command", "")), file=sys.stderr)
    sys.exit(2)
sys.exit(0)
