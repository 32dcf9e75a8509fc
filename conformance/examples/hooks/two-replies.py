#!/usr/bin/env python3
# intent: allow
# Prints a reply per check it ran: two JSON objects, two lines. A JSON-line host wants one.
import json
import sys

json.load(sys.stdin)
print(json.dumps({"decision": "allow", "check": "secrets"}))
print(json.dumps({"decision": "allow", "check": "paths"}))
