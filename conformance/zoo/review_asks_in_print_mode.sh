#!/bin/bash
# Zoo: our adapter ($1) plus one flaw: it asks on a guard REVIEW (PINTA_GUARD_REVIEW=ask) even
# when Antigravity runs in print mode (`agy -p`), where an ask fails every tool call. Done by
# starting the adapter under a nearer process named agy without -p, so the adapter's walk up its
# ancestors (adapter/src/core/host_mode.cc stops at the first agy) finds an interactive agy.
# Breaks: GUARD-8 print-mode gate (ask under agy -p)
# Catches: GUARD-0019
# Strict: yes
adapter="$1"; shift
exec -a agy bash -c '"$@"; exit $?' agy "$adapter" "$@"
