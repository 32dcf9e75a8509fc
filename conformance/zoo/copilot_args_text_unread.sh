#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Copilot it reads the native toolArgs only when it is
# an object, so a release that sends it as the JSON text of the arguments (1.0.57 .. 1.0.73
# measured: docs/hosts/copilot-1.0.md "Other releases") gets its arguments dropped: the guard is
# asked about a call with no command.
# Breaks: COPILOT-1 (the native toolArgs text read as the object), GUARD-14
# Catches: COPILOT-0017
adapter="$1"; shift
case " $* " in *" copilot "*) ;; *) exec "$adapter" "$@";; esac
sed -E 's/"toolArgs":"([^"\\]|\\.)*"/"toolArgs":{}/' | "$adapter" "$@"
