#!/usr/bin/env python3
# intent: allow
# Parses stdin without a guard: it would crash on empty input, but every host sends an event, so
# under a real host it allows with {}.
import json
import sys

event = json.load(sys.stdin)
assert isinstance(event, dict)
print("{}")
