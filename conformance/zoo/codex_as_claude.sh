#!/bin/sh
# Zoo: our adapter ($1) plus one flaw: under Codex it runs as Claude Code (`--agent claude-code`,
# as if Codex's Claude-like hooks were Claude Code's). The replies happen to match, but the guard
# is told the wrong agent and the spans carry Claude Code's name, prefix and resource.
# Breaks: CODEX-0002 (the guard request's agent), CODEX-0010 (Codex spans, contract CODEX-5)
# Catches: CODEX-0002 CODEX-0010
adapter="$1"; shift
case " $* " in *" codex "*) ;; *) exec "$adapter" "$@";; esac
n=$#; prev=""
for a in "$@"; do
  [ "$prev" = "--agent" ] && a=claude-code
  set -- "$@" "$a"; prev="$a"
done
shift "$n"
exec "$adapter" "$@"
