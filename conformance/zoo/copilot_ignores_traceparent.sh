#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Copilot it drops the trace context the host hands
# its hooks (COPILOT_TRACEPARENT, and the payload's traceparent member), so every span starts a
# trace of its own instead of joining the host's invoke_agent span.
# Breaks: TRACE-4 (the span's parent is the host's span, in the host's trace)
# Catches: TRACE-0006
adapter="$1"; shift
case " $* " in *" copilot "*|*" copilot-claude "*) ;; *) exec "$adapter" "$@";; esac
unset COPILOT_TRACEPARENT
sed -e 's/,"traceparent":"[^"]*"//' -e 's/"traceparent":"[^"]*",\{0,1\}//' | "$adapter" "$@"
