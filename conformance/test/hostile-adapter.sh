#!/bin/sh
# For the report test: a broken adapter whose output is hostile to a report. On Antigravity's gate
# event it is the zoo member two_lines (a second JSON line); on Gemini's it is our adapter followed
# by markup, a closing script tag, terminal escapes, a NUL, invalid UTF-8 and a bidi override on
# stdout and stderr; on every other event it is our adapter (cases without those events pass).
# Usage: hostile-adapter.sh ADAPTER ZOO-DIR ADAPTER-ARGS...
adapter="$1" zoo="$2"; shift 2
case " $* " in
  *" --event PreToolUse "*) exec sh "$zoo/two_lines.sh" "$adapter" "$@" ;;
  *" --event BeforeTool "*)
    "$adapter" "$@"
    printf '</script><script>console.error("injected")</script><img src=x onerror=alert(1)>\033[31m\000\377\376\342\200\256evil\n'
    printf '</textarea></pre><b>stderr</b>\033[2J\377\n' >&2
    ;;
  *) exec "$adapter" "$@" ;;
esac
