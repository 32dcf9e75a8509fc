#!/usr/bin/env bash
# Whole-process wall-time benchmark of the adapter, as a host pays for it on every hook event.
#
# Usage: ci/bench.sh [--runs N] [--quick] [--markdown FILE] [--adapter PATH]
# (ends with ci/bench-telemetry.sh: the collector scenarios and the queue drain)
#
# Builds nothing: expects build/bin/pinta-gemini (or --adapter PATH). Runs, interleaved round
# robin (so drift in machine load hits every program alike), N times each (default 200,
# --quick = 60):
#   /bin/true                                     floor: the cost of any process at all
#   pinta-gemini --agent gemini --event AfterTool
#   pinta-gemini --agent antigravity --event PreToolUse
#   node hook.js                                  a minimal Node.js hook: read stdin, parse, print {}
# Each run gets its payload on a pipe, as hosts deliver it. A small C helper compiled on the fly
# does the spawning and timing (posix_spawn + wait4, CLOCK_MONOTONIC), so no shell overhead is
# measured; wait4 also gives each child's own peak RSS. HOME and GEMINI_PLUGIN_DATA point at a
# fresh temp dir and OTEL_*, PINTA_*, GEMINI_PLUGIN_OPTION_* are unset: no config, no network.
#
# Prints medians, ratios and the targets (adapter <= 1.3x /bin/true, node >= 30x adapter,
# adapter peak RSS <= 4 MiB) with PASS/MISS. A MISS is reported, never fatal: the exit status
# is non-zero only when something could not run at all.
set -euo pipefail

runs=200
markdown=""
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
adapter="$root/build/bin/pinta-gemini"
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=${2:?--runs needs a number}; shift 2 ;;
    --runs=*) runs=${1#--runs=}; shift ;;
    --quick) runs=60; shift ;;
    --markdown) markdown=${2:?--markdown needs a file}; shift 2 ;;
    --markdown=*) markdown=${1#--markdown=}; shift ;;
    --adapter) adapter=${2:?--adapter needs a path}; shift 2 ;;
    --adapter=*) adapter=${1#--adapter=}; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$runs" in ''|*[!0-9]*) echo "bench: --runs wants a positive integer" >&2; exit 2 ;; esac
[ "$runs" -ge 1 ] || { echo "bench: --runs wants a positive integer" >&2; exit 2; }
[ -n "$markdown" ] && markdown=$(realpath -m -- "$markdown")

if [ ! -x "$adapter" ]; then
  echo "bench: no adapter at $adapter (build first: bash ci/build.sh)" >&2
  exit 1
fi
adapter=$(realpath -- "$adapter")
command -v cc >/dev/null || { echo "bench: a C compiler (cc) is required" >&2; exit 1; }
node=$(command -v node || true)

work=$(mktemp -d "${TMPDIR:-/tmp}/pinta-bench.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
mkdir -p "$work/home" "$work/data"

cat >"$work/gemini-aftertool.json" <<'JSON'
{"session_id":"7f3c2a4e-bench-4b1d-9a0e-000000000001","transcript_path":"/tmp/w/.gemini/tmp/chats/session-bench.json","cwd":"/tmp/w","hook_event_name":"AfterTool","timestamp":"2026-12-02T10:10:11.342Z","tool_name":"read_file","tool_input":{"file_path":"a.txt"},"tool_response":{"llmContent":"hello","returnDisplay":"hello"}}
JSON
cat >"$work/agy-pretooluse.json" <<'JSON'
{"artifactDirectoryPath":"/h/.gemini/antigravity-cli/brain/c1","conversationId":"c1","modelName":"auto","stepIdx":3,"toolCall":{"name":"run_command","args":{"CommandLine":"echo hi","Cwd":"/tmp/w"}},"transcriptPath":"/h/.gemini/antigravity-cli/brain/c1/.system_generated/logs/transcript_full.jsonl","workspacePaths":["/tmp/w"]}
JSON
cat >"$work/hook.js" <<'JS'
let d = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => { d += c; });
process.stdin.on('end', () => { JSON.parse(d); process.stdout.write('{}\n'); });
JS

# The timing helper. Spec file: one program per line, `stdin-file<TAB>argv0<TAB>argv1...`.
# Prints `program<TAB>round<TAB>wall_ns<TAB>status<TAB>maxrss_kib` per measured run.
cat >"$work/timer.c" <<'C'
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct prog { char *payload; size_t len; char **argv; };

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(1); }
  size_t cap = 4096, n = 0; char *buf = malloc(cap);
  for (size_t r; (r = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += r;
    if (n == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f); *len = n; return buf;
}

static long long now_ns(void) {
  struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: timer SPEC ROUNDS WARMUP\n"); return 2; }
  int rounds = atoi(argv[2]), warmup = atoi(argv[3]);
  FILE *spec = fopen(argv[1], "r");
  if (!spec) { perror(argv[1]); return 1; }
  struct prog progs[16]; int np = 0;
  char *line = NULL; size_t cap = 0;
  while (np < 16 && getline(&line, &cap, spec) > 0) {
    line[strcspn(line, "\n")] = 0;
    char **av = calloc(64, sizeof *av); int ac = 0;
    char *in = strtok(strdup(line), "\t");
    for (char *t; ac < 63 && (t = strtok(NULL, "\t"));) av[ac++] = t;
    if (!in || ac == 0) continue;
    progs[np].payload = slurp(in, &progs[np].len);
    progs[np].argv = av; np++;
  }
  fclose(spec);
  int devnull = open("/dev/null", O_WRONLY);
  if (devnull < 0) { perror("/dev/null"); return 1; }
  for (int r = -warmup; r < rounds; r++) {
    for (int k = 0; k < np; k++) {
      int i = (k + (r < 0 ? -r : r)) % np;   /* rotate who goes first each round */
      struct prog *p = &progs[i];
      int fds[2];
      if (pipe2(fds, O_CLOEXEC) != 0) { perror("pipe"); return 1; }
      /* Payloads are far below the pipe buffer: write it all, close, then spawn. */
      if (write(fds[1], p->payload, p->len) != (ssize_t)p->len) { perror("write"); return 1; }
      close(fds[1]);
      posix_spawn_file_actions_t fa;
      posix_spawn_file_actions_init(&fa);
      posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
      posix_spawn_file_actions_adddup2(&fa, devnull, 1);
      posix_spawn_file_actions_adddup2(&fa, devnull, 2);
      pid_t pid;
      long long t0 = now_ns();
      int err = posix_spawn(&pid, p->argv[0], &fa, NULL, p->argv, environ);
      if (err != 0) { fprintf(stderr, "spawn %s: %s\n", p->argv[0], strerror(err)); return 1; }
      int status; struct rusage ru;
      while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) { perror("wait4"); return 1; }
      }
      long long t1 = now_ns();
      posix_spawn_file_actions_destroy(&fa);
      close(fds[0]);
      int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      if (r >= 0) printf("%d\t%d\t%lld\t%d\t%ld\n", i, r, t1 - t0, code, ru.ru_maxrss);
    }
  }
  return 0;
}
C
cc -O2 -std=c11 -o "$work/timer" "$work/timer.c" || { echo "bench: cannot compile the timing helper" >&2; exit 1; }

# Scrubbed environment: nothing configured, nothing to reach.
scrub=(env)
while IFS='=' read -r name _; do
  case "$name" in OTEL_*|PINTA_*|GEMINI_PLUGIN_OPTION_*) scrub+=(-u "$name") ;; esac
done < <(env)
scrub+=(HOME="$work/home" GEMINI_PLUGIN_DATA="$work/data")

names=("/bin/true" "adapter gemini AfterTool" "adapter antigravity PreToolUse")
{
  printf '%s\t%s\n' "$work/gemini-aftertool.json" /bin/true
  printf '%s\t%s\t--agent\tgemini\t--event\tAfterTool\n' "$work/gemini-aftertool.json" "$adapter"
  printf '%s\t%s\t--agent\tantigravity\t--event\tPreToolUse\n' "$work/agy-pretooluse.json" "$adapter"
  if [ -n "$node" ]; then printf '%s\t%s\t%s\n' "$work/gemini-aftertool.json" "$node" "$work/hook.js"; fi
} >"$work/spec.tsv"
[ -n "$node" ] && names+=("node hook (read, JSON.parse, {})")

# One sanity run of each adapter mode: the numbers mean little if the reply is wrong.
warnings=()
for mode in "gemini AfterTool gemini-aftertool" "antigravity PreToolUse agy-pretooluse"; do
  read -r -a m <<<"$mode"; set -- "${m[@]}"
  rc=0
  (cd "$work" && "${scrub[@]}" timeout -k 1 5 "$adapter" --agent "$1" --event "$2" \
      <"$work/$3.json" >"$work/sanity.out" 2>"$work/sanity.err") || rc=$?
  lines=$(grep -c '' "$work/sanity.out" || true)
  if [ "$rc" -ne 0 ] || [ "$lines" -ne 1 ] || [ -s "$work/sanity.err" ]; then
    warnings+=("adapter --agent $1 --event $2: exit $rc, $lines stdout line(s), $(wc -c <"$work/sanity.err") stderr bytes")
  fi
done

warmup=5
[ "$runs" -lt 20 ] && warmup=1
echo "bench: ${#names[@]} programs x $runs runs, interleaved (+$warmup warm-up rounds)..."
(cd "$work" && "${scrub[@]}" "$work/timer" "$work/spec.tsv" "$runs" "$warmup") >"$work/runs.tsv" ||
  { echo "bench: the timing helper failed" >&2; exit 1; }

# Per program: median and p90 wall ms, max RSS KiB, non-zero exits.
stats() {  # $1 = program index
  awk -F'\t' -v p="$1" '$1 == p { print $3 }' "$work/runs.tsv" | sort -n | awk '
    { v[NR] = $1 }
    END {
      if (NR == 0) { print "nan nan"; exit }
      m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      q = v[int(NR * 0.9 + 0.999)]; if (q == "") q = v[NR]
      printf "%.3f %.3f\n", m / 1e6, q / 1e6
    }'
}
maxrss() { awk -F'\t' -v p="$1" '$1 == p && $5 > m { m = $5 } END { print m + 0 }' "$work/runs.tsv"; }
badexits() { awk -F'\t' -v p="$1" '$1 == p && $4 != 0 { n++ } END { print n + 0 }' "$work/runs.tsv"; }

declare -a med p90 rss bad
for i in "${!names[@]}"; do
  read -r "med[i]" "p90[i]" < <(stats "$i")
  rss[i]=$(maxrss "$i")
  bad[i]=$(badexits "$i")
  [ "${bad[i]}" -eq 0 ] || warnings+=("${names[i]}: ${bad[i]} of $runs runs exited non-zero")
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "nan" }'; }
verdict() { awk -v x="$1" -v op="$2" -v lim="$3" 'BEGIN {
  ok = (op == "<=") ? (x + 0 <= lim + 0) : (x + 0 >= lim + 0); print (x == "nan" ? "MISS" : (ok ? "PASS" : "MISS")) }'; }

g_true=$(ratio "${med[1]}" "${med[0]}")
a_true=$(ratio "${med[2]}" "${med[0]}")
adapter_rss=$(( rss[1] > rss[2] ? rss[1] : rss[2] ))
if [ -n "$node" ]; then
  n_g=$(ratio "${med[3]}" "${med[1]}")
  n_a=$(ratio "${med[3]}" "${med[2]}")
fi

# Gate event with a guard: an instant loopback guard (pinta-fake-server answering ALLOW),
# as a ratio to /bin/true in its own interleaved run, and a guard that never answers (the reply
# must come by the 50 ms guard budget). Skipped when pinta-fake-server is not built.
fake="$(dirname "$adapter")/pinta-fake-server"
guard_rows=()
if [ -x "$fake" ]; then
  cat >"$work/gemini-beforetool.json" <<'JSON'
{"session_id":"7f3c2a4e-bench-4b1d-9a0e-000000000001","transcript_path":"/tmp/w/.gemini/tmp/chats/session-bench.json","cwd":"/tmp/w","hook_event_name":"BeforeTool","timestamp":"2026-12-02T10:10:11.342Z","tool_name":"run_shell_command","tool_input":{"command":"echo hi"}}
JSON
  echo '{"fallback":{"status":200,"body":{"decision":"ALLOW"}}}' >"$work/guard-allow.json"
  echo '{"fallback":{"neverAnswer":true}}' >"$work/guard-never.json"
  fake_pids=()
  trap 'kill ${fake_pids[@]+"${fake_pids[@]}"} 2>/dev/null || true; rm -rf -- "$work"' EXIT
  for g in allow never; do
    "$fake" --script "$work/guard-$g.json" --port-file "$work/guard-$g.port" >/dev/null 2>&1 &
    fake_pids+=($!)
  done
  for _ in $(seq 200); do [ -s "$work/guard-allow.port" ] && [ -s "$work/guard-never.port" ] && break; sleep 0.05; done
  printf '%s\t%s\n' "$work/gemini-beforetool.json" /bin/true >"$work/spec-guard.tsv"
  printf '%s\t%s\t--agent\tgemini\t--event\tBeforeTool\n' "$work/gemini-beforetool.json" "$adapter" >>"$work/spec-guard.tsv"
  guard_med() {  # $1 = allow|never, $2 = runs → "true_median adapter_median"
    (cd "$work" && "${scrub[@]}" PINTA_GUARD_ENDPOINT="http://127.0.0.1:$(cat "$work/guard-$1.port")/guard" \
        "$work/timer" "$work/spec-guard.tsv" "$2" 2) >"$work/runs.tsv" || { echo "nan nan"; return; }
    echo "$(stats 0 | cut -d' ' -f1) $(stats 1 | cut -d' ' -f1)"
  }
  read -r gt_true gt_allow < <(guard_med allow "$runs")
  never_runs=$(( runs < 40 ? runs : 40 ))
  read -r _ gt_never < <(guard_med never "$never_runs")
  kill "${fake_pids[@]}" 2>/dev/null || true
  g_allow=$(ratio "$gt_allow" "$gt_true")
  guard_rows+=("adapter gemini BeforeTool, instant guard <= 10x /bin/true|${g_allow}x|$(verdict "$g_allow" '<=' 10)|($gt_allow ms vs $gt_true ms)")
  guard_rows+=("adapter gemini BeforeTool, guard never answers <= 60 ms|${gt_never} ms|$(verdict "$gt_never" '<=' 60)|(median of $never_runs)")
else
  guard_rows+=("guard measurements|-|SKIP (no $fake)|")
fi

report=$(
  printf '%-36s %10s %10s %12s\n' "program" "median ms" "p90 ms" "peak RSS KiB"
  for i in "${!names[@]}"; do
    printf '%-36s %10s %10s %12s\n' "${names[i]}" "${med[i]}" "${p90[i]}" "${rss[i]}"
  done
  echo
  printf '%-52s %8s  %s\n' "target" "measured" "result"
  printf '%-52s %7sx  %s\n' "adapter gemini AfterTool <= 1.3x /bin/true" "$g_true" "$(verdict "$g_true" '<=' 1.3)"
  printf '%-52s %7sx  %s\n' "adapter antigravity PreToolUse <= 1.3x /bin/true" "$a_true" "$(verdict "$a_true" '<=' 1.3)"
  if [ -n "$node" ]; then
    printf '%-52s %7sx  %s\n' "node hook >= 30x adapter gemini AfterTool" "$n_g" "$(verdict "$n_g" '>=' 30)"
    printf '%-52s %7sx  %s\n' "node hook >= 30x adapter antigravity PreToolUse" "$n_a" "$(verdict "$n_a" '>=' 30)"
  else
    printf '%-52s %8s  %s\n' "node hook >= 30x adapter" "-" "SKIP (node not installed)"
  fi
  printf '%-52s %5s KiB  %s\n' "adapter peak RSS <= 4096 KiB" "$adapter_rss" "$(verdict "$adapter_rss" '<=' 4096)"
  for row in "${guard_rows[@]}"; do
    IFS='|' read -r t m v n <<<"$row"
    printf '%-52s %8s  %s %s\n' "$t" "$m" "$v" "$n"
  done
)
echo
echo "$report"
for w in ${warnings[@]+"${warnings[@]}"}; do echo "bench: warning: $w" >&2; done

if [ -n "$markdown" ]; then
  cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
  {
    echo
    echo "## $(date -u '+%Y-%m-%d %H:%M UTC') — ci/bench.sh, $runs runs each, interleaved"
    echo
    echo "Machine: $(nproc) CPUs, ${cpu:-unknown CPU}, kernel $(uname -r)."
    echo "Adapter: \`${adapter#"$root/"}\`$(cd "$root" && git rev-parse --short HEAD 2>/dev/null | sed 's/^/ at commit /')."
    echo
    echo "| program | median ms | p90 ms | peak RSS KiB |"
    echo "|---|---:|---:|---:|"
    for i in "${!names[@]}"; do echo "| ${names[i]} | ${med[i]} | ${p90[i]} | ${rss[i]} |"; done
    echo
    echo "| target | measured | result |"
    echo "|---|---:|---|"
    echo "| adapter gemini AfterTool ≤ 1.3× /bin/true | ${g_true}× | $(verdict "$g_true" '<=' 1.3) |"
    echo "| adapter antigravity PreToolUse ≤ 1.3× /bin/true | ${a_true}× | $(verdict "$a_true" '<=' 1.3) |"
    if [ -n "$node" ]; then
      echo "| node hook ≥ 30× adapter gemini AfterTool | ${n_g}× | $(verdict "$n_g" '>=' 30) |"
      echo "| node hook ≥ 30× adapter antigravity PreToolUse | ${n_a}× | $(verdict "$n_a" '>=' 30) |"
    fi
    echo "| adapter peak RSS ≤ 4096 KiB | ${adapter_rss} KiB | $(verdict "$adapter_rss" '<=' 4096) |"
    for row in "${guard_rows[@]}"; do
      IFS='|' read -r t m v n <<<"$row"
      echo "| $t $n | $m | $v |"
    done
    for w in ${warnings[@]+"${warnings[@]}"}; do echo; echo "Warning: $w"; done
  } >>"$markdown"
  echo "bench: appended results to $markdown"
fi
# Telemetry: collector down / up / never answering against /bin/true, and the 10,000-span drain.
echo
tel_args=(--runs "$runs")
[ -n "$markdown" ] && tel_args+=(--markdown "$markdown")
PINTA_BUILD_DIR="$(dirname "$(dirname "$adapter")")" bash "$root/ci/bench-telemetry.sh" "${tel_args[@]}" ||
  echo "bench: telemetry benchmark could not run" >&2
exit 0
