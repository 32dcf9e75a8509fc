#!/usr/bin/env bash
# Telemetry benchmark (issue 3): what OTLP telemetry costs the host, and how fast the queue drains.
#
# Usage: ci/bench-telemetry.sh [--runs N] [--markdown FILE]   (expects build/bin/pinta-gemini and
# build/bin/pinta-fake-server; PINTA_BUILD_DIR overrides build/)
#
# Measures, interleaved, N runs each (default 200), whole-process wall time (posix_spawn + wait4):
#   /bin/true
#   adapter gemini AfterTool, collector down (refused port), default back-off
#   adapter gemini AfterTool, collector down, back-off 0 (a flusher is forked on every event)
#   adapter gemini AfterTool, collector up (pinta-fake-server, 200)
#   adapter gemini AfterTool, collector never answers
# and the time `pinta-gemini --pinta-flush` takes to deliver 10,000 queued spans to a loopback
# collector. Targets: collector down <= 1.3x /bin/true; never answers <= collector up (ratio <= 1.1
# allowing noise); drain of 10,000 spans <= 5 s. A MISS is reported, never fatal.
set -euo pipefail
runs=200
markdown=""
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PINTA_BUILD_DIR:-$root/build}
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=${2:?}; shift 2 ;;
    --markdown) markdown=$(realpath -m -- "${2:?}"); shift 2 ;;
    *) echo "bench-telemetry: unknown argument $1" >&2; exit 2 ;;
  esac
done
adapter="$build/bin/pinta-gemini"
fake="$build/bin/pinta-fake-server"
for b in "$adapter" "$fake"; do [ -x "$b" ] || { echo "bench-telemetry: missing $b" >&2; exit 1; }; done
work=$(mktemp -d "${TMPDIR:-/tmp}/pinta-bench-tel.XXXXXX")
pids=()
cleanup() { for p in ${pids[@]+"${pids[@]}"}; do kill "$p" 2>/dev/null || true; done; rm -rf -- "$work"; }
trap cleanup EXIT

start_fake() {  # $1 = name, $2 = script JSON; sets $port (no subshell: the pid must stay in pids)
  echo "$2" >"$work/$1.json"
  "$fake" --script "$work/$1.json" --port-file "$work/$1.port" >/dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do [ -s "$work/$1.port" ] && break; sleep 0.05; done
  port=$(cat "$work/$1.port")
}
start_fake up '{}'; up=$port
start_fake hang '{"fallback":{"neverAnswer":true}}'; hang=$port
# A refused port: start and stop a server.
"$fake" --script "$work/hang.json" --port-file "$work/down.port" >/dev/null 2>&1 &
down_pid=$!
for _ in $(seq 100); do [ -s "$work/down.port" ] && break; sleep 0.05; done
down=$(cat "$work/down.port"); kill "$down_pid"; wait "$down_pid" 2>/dev/null || true

cat >"$work/p.json" <<'JSON'
{"session_id":"7f3c2a4e-bench-4b1d-9a0e-000000000001","transcript_path":"/tmp/w/t.json","cwd":"/tmp/w","hook_event_name":"AfterTool","timestamp":"2026-12-02T10:10:11.342Z","tool_name":"read_file","tool_input":{"file_path":"a.txt"},"tool_response":{"llmContent":"hello","returnDisplay":"hello"}}
JSON

# Timer: spec lines `stdin<TAB>ENV=V;ENV=V<TAB>argv...`; prints `prog<TAB>ns`.
cat >"$work/timer.c" <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static long long now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000000000LL + t.tv_nsec; }
int main(int argc, char **argv) {
  int rounds = atoi(argv[2]); FILE *f = fopen(argv[1], "r"); char *line = NULL; size_t cap = 0;
  char **av[16], **ev[16], *in[16]; int np = 0;
  while (np < 16 && getline(&line, &cap, f) > 0) {
    line[strcspn(line, "\n")] = 0; char *s = strdup(line);
    in[np] = strsep(&s, "\t"); char *envs = strsep(&s, "\t");
    ev[np] = calloc(64, sizeof(char *)); int ne = 0;
    for (char *e; envs && (e = strsep(&envs, ";")) && ne < 63;) if (*e) ev[np][ne++] = e;
    av[np] = calloc(64, sizeof(char *)); int na = 0;
    for (char *a; s && (a = strsep(&s, "\t")) && na < 63;) av[np][na++] = a;
    np++;
  }
  int devnull = open("/dev/null", O_WRONLY);
  for (int r = -3; r < rounds; r++) for (int k = 0; k < np; k++) {
    int i = (k + (r < 0 ? 0 : r)) % np;
    int fd = open(in[i], O_RDONLY);
    posix_spawn_file_actions_t fa; posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd, 0); posix_spawn_file_actions_adddup2(&fa, devnull, 1);
    posix_spawn_file_actions_adddup2(&fa, devnull, 2);
    pid_t pid; long long t0 = now();
    if (posix_spawn(&pid, av[i][0], &fa, NULL, av[i], ev[i]) != 0) { perror("spawn"); return 1; }
    int st; waitpid(pid, &st, 0); long long t1 = now();
    posix_spawn_file_actions_destroy(&fa); close(fd);
    if (r >= 0) printf("%d\t%lld\n", i, t1 - t0);
  }
  return 0;
}
C
cc -O2 -o "$work/timer" "$work/timer.c"
mkdir -p "$work/home"
common="HOME=$work/home;PATH=/usr/bin:/bin;PINTA_OTLP_TIMEOUT_MS=5000"
adapter_args=$(printf '%s\t--agent\tgemini\t--event\tAfterTool' "$adapter")
names=("/bin/true" "collector down (default back-off)" "collector down (back-off 0: flusher per event)" "collector up" "collector never answers")
{
  printf '%s\t%s\t%s\n' "$work/p.json" "$common" /bin/true
  printf '%s\t%s\t%s\n' "$work/p.json" "$common;GEMINI_PLUGIN_DATA=$work/d1;GEMINI_PLUGIN_OPTION_ENDPOINT=http://127.0.0.1:$down/v1/traces;PINTA_QUEUE_MAX_SPANS=1000" "$adapter_args"
  printf '%s\t%s\t%s\n' "$work/p.json" "$common;GEMINI_PLUGIN_DATA=$work/d2;GEMINI_PLUGIN_OPTION_ENDPOINT=http://127.0.0.1:$down/v1/traces;PINTA_OTLP_BACKOFF_MAX_MS=0" "$adapter_args"
  printf '%s\t%s\t%s\n' "$work/p.json" "$common;GEMINI_PLUGIN_DATA=$work/d3;GEMINI_PLUGIN_OPTION_ENDPOINT=http://127.0.0.1:$up/v1/traces" "$adapter_args"
  printf '%s\t%s\t%s\n' "$work/p.json" "$common;GEMINI_PLUGIN_DATA=$work/d4;GEMINI_PLUGIN_OPTION_ENDPOINT=http://127.0.0.1:$hang/v1/traces;PINTA_OTLP_TIMEOUT_MS=60000" "$adapter_args"
} >"$work/spec.tsv"
echo "bench-telemetry: ${#names[@]} programs x $runs runs..."
"$work/timer" "$work/spec.tsv" "$runs" >"$work/runs.tsv"
med() { awk -F'\t' -v p="$1" '$1 == p { print $2 }' "$work/runs.tsv" | sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f", m / 1e6 }'; }
declare -a m
for i in "${!names[@]}"; do m[i]=$(med "$i"); done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
verdict() { awk -v x="$1" -v lim="$2" 'BEGIN { print (x + 0 <= lim + 0) ? "PASS" : "MISS" }'; }

# Drain: 10,000 queued spans (one real span line, copied with distinct spanIds).
drain_data="$work/drain"
env -i HOME="$work/home" GEMINI_PLUGIN_DATA="$drain_data" GEMINI_PLUGIN_OPTION_ENDPOINT="http://127.0.0.1:$down/v1/traces" \
  PINTA_OTLP_BACKOFF_MAX_MS=0 "$adapter" --agent gemini --event AfterTool <"$work/p.json" >/dev/null
sleep 0.5
# perl (Debian's essential perl-base), not awk: mawk has no {16} intervals and `awk -v` would
# unescape the JSON line's backslashes.
head -n 1 "$drain_data/failed-spans.jsonl" >"$work/one-span.jsonl"
perl -ne 'for my $i (1 .. 10000) { (my $s = $_) =~ s/"spanId":"[0-9a-f]{16}"/sprintf("\"spanId\":\"%016x\"", $i)/ge; print $s }' \
  "$work/one-span.jsonl" >"$drain_data/failed-spans.jsonl"
t0=$(date +%s%N)
drain_out=$(env -i HOME="$work/home" GEMINI_PLUGIN_DATA="$drain_data" PINTA_QUEUE_MAX_SPANS=20000 \
  GEMINI_PLUGIN_OPTION_ENDPOINT="http://127.0.0.1:$up/v1/traces" "$adapter" --pinta-flush || true)
t1=$(date +%s%N)
drain_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')

down_r=$(ratio "${m[1]}" "${m[0]}"); down0_r=$(ratio "${m[2]}" "${m[0]}"); hang_r=$(ratio "${m[4]}" "${m[3]}")
report=$(
  for i in "${!names[@]}"; do printf '%-52s %10s ms\n' "${names[i]}" "${m[i]}"; done
  echo
  printf '%-60s %8s  %s\n' "collector down <= 1.3x /bin/true" "${down_r}x" "$(verdict "$down_r" 1.3)"
  printf '%-60s %8s  %s\n' "collector down, back-off 0 (informative)" "${down0_r}x" "-"
  printf '%-60s %8s  %s\n' "never answers / collector up <= 1.1" "${hang_r}x" "$(verdict "$hang_r" 1.1)"
  delivered=$(printf '%s' "$drain_out" | sed -n 's/.*"delivered":\([0-9]*\).*/\1/p')
  if [ "${delivered:-0}" -eq 10000 ]; then drain_v=$(verdict "$drain_s" 5); else drain_v="MISS (delivered ${delivered:-?} of 10000)"; fi
  printf '%-60s %7ss  %s\n' "drain 10,000 queued spans <= 5 s" "$drain_s" "$drain_v"
  echo "flush summary: $drain_out"
)
echo "$report"
if [ -n "$markdown" ]; then
  {
    echo
    echo "### $(date -u '+%Y-%m-%d %H:%M UTC') — ci/bench-telemetry.sh, $runs runs each, interleaved"
    echo
    echo "Machine: $(nproc) CPUs, kernel $(uname -r)."
    echo
    echo '```'
    echo "$report"
    echo '```'
  } >>"$markdown"
fi
