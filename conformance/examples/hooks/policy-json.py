#!/usr/bin/env python3
# intent: deny when tool_input.file_path|file_path matches \.txt$; else allow
# A JSON decision (python): refuses writes of .txt files with {"decision": "deny", "reason": ...}
# on stdout and exit 0, Gemini CLI's structured way to block.
import json
import sys

event = json.load(sys.stdin)
args = event.get("tool_input") or {}
path = args.get("file_path") or event.get("file_path") or ""
if path.endswith(".txt"):
    print(json.dumps({"decision": "deny", "reason": f"policy: no .txt files ({path})"}))
else:
    print(json.dumps({"decision": "allow"}))
