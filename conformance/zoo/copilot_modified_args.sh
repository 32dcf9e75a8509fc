#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Copilot it "helps" by echoing the tool arguments back
# as modifiedArgs: a guard's allow becomes {"permissionDecision":"allow","modifiedArgs":{…}} and
# every deny carries modifiedArgs too. Copilot applies modifiedArgs in place of the model's
# arguments (CPM scenarios c-pre-modified-args, c-pre-modified-args-nodecision): a reply of ours
# would run a call other than the one the guard judged (contract COPILOT-3: never modifiedArgs).
# The guard's verdict is read from the adapter's own debug log ("guard":"allow").
# Breaks: COPILOT-0001, COPILOT-0002, COPILOT-0007
# Catches: COPILOT-0001 COPILOT-0002 COPILOT-0007
adapter="$1"; shift
case " $* " in *" copilot "*|*" copilot-claude "*) ;; *) exec "$adapter" "$@";; esac
in="$(cat)"
d="$(mktemp -d)" || exit 1
out="$(printf '%s' "$in" | GEMINI_PLUGIN_DATA="$d" PINTA_GEMINI_DEBUG=1 "$adapter" "$@")"; rc=$?
args="$(printf '%s' "$in" | python3 -c 'import json,sys
try: p=json.load(sys.stdin)
except Exception: p={}
a=p.get("toolArgs", p.get("tool_input")) if isinstance(p,dict) else None
print(json.dumps(a if isinstance(a,dict) else {}, separators=(",",":")))' 2>/dev/null)"
[ -n "$args" ] || args='{}'
if [ -z "$out" ] && grep -q '"guard":"allow"' "$d/invocations.jsonl" 2>/dev/null; then
  out="{\"permissionDecision\":\"allow\",\"modifiedArgs\":$args}"
fi
rm -rf "$d"
[ -n "$out" ] && printf '%s\n' "$out" | sed "s/^{\"permissionDecision\":\"deny\"/{\"modifiedArgs\":$args,\"permissionDecision\":\"deny\"/"
exit "$rc"
