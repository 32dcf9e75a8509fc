#!/usr/bin/env bash
# Telemetry benchmark: what OTLP telemetry costs the host, and how fast the queue drains.
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
# with each child's peak RSS (wait4), then: whether the collector-up runs' spans all arrived and
# how long after the last event; `pinta-gemini --pinta-flush` delivering 10,000 queued spans (time,
# its peak RSS) and a 2 GiB sparse queue file (peak RSS); 64 concurrent writers x
# PINTA_BENCH_PAR_EVENTS (10), PINTA_BENCH_PAR_ROUNDS (20) times in a rotating order, each mode in
# a data dir one event set up before (as after an install's first event), with the collector down and up (p99, max;
# /bin/true under the same load for reference, and the ratios; where each mode's time went: on a
# CPU, waiting for one, asleep, and page faults, from each event's /proc/PID/schedstat and rusage);
# for information, 64 writers whose first events set up a new data dir, against /bin/true; an outage of PINTA_BENCH_OUTAGE_S (20) s with 5 events, then the collector back and
# no further event (needs python3 for a collector on a fixed port).
# Targets: collector up <= 1.2x /bin/true, collector down <= 1.3x, every span delivered, last one within
# 1 s of the last event; never answers <= collector up (ratio <= 1.1 allowing noise); adapter peak
# RSS <= 4 MiB; drain of 10,000 spans <= 5 s; flusher peak RSS <= 16 MiB (drain, sparse file);
# 64 writers (collector down and up) p99 and max <= 1.5x /bin/true's under the same load, nothing
# lost; outage: all delivered <= 10 s after the return.
# A MISS is reported, never fatal.
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
# The adapter runs as installed, a copy: the linker's own file costs more per exec (bench.sh).
cp -- "$adapter" "$work/pinta-gemini-copy"
adapter="$work/pinta-gemini-copy"

start_fake() {  # $1 = name, $2 = script JSON; sets $port (no subshell: the pid must stay in pids)
  echo "$2" >"$work/$1.json"
  "$fake" --script "$work/$1.json" --port-file "$work/$1.port" >/dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do [ -s "$work/$1.port" ] && break; sleep 0.05; done
  port=$(cat "$work/$1.port")
}
start_fake up '{}'; up=$port
# The collector-up server logs every request: the bench checks that every span was delivered.
kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true
"$fake" --script "$work/up.json" --port-file "$work/up2.port" --log "$work/up.log" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/up2.port" ] && break; sleep 0.05; done
up=$(cat "$work/up2.port")
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
#include <sys/resource.h>
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
    int st; struct rusage ru; wait4(pid, &st, 0, &ru); long long t1 = now();
    posix_spawn_file_actions_destroy(&fa); close(fd);
    if (r >= 0) printf("%d\t%lld\t%ld\n", i, t1 - t0, ru.ru_maxrss);
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
declare -a m rss
for i in "${!names[@]}"; do
  m[i]=$(med "$i")
  rss[i]=$(awk -F'\t' -v p="$i" '$1 == p && $3 > x { x = $3 } END { print x + 0 }' "$work/runs.tsv")
done
# Collector up: every span delivered (distinct spanIds the collector logged), and how long after
# the last event the last one arrived. The runs above were runs + 3 warm-up events.
want_up=$((runs + 3))
up_count() { { grep -o '\\"spanId\\":\\"[0-9a-f]\{16\}\\"' "$work/up.log" 2>/dev/null || true; } | sort -u | wc -l; }
t_last=$(date +%s%N); got_up=$(up_count)
while [ "$got_up" -lt "$want_up" ] && [ $(( ($(date +%s%N) - t_last) / 1000000 )) -lt 30000 ]; do
  sleep 0.05; got_up=$(up_count)
done
lag_ms=$(( ($(date +%s%N) - t_last) / 1000000 ))
adapter_rss=0
for i in 1 2 3 4; do [ "${rss[i]}" -gt "$adapter_rss" ] && adapter_rss=${rss[i]}; done
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
drain_rss=$(printf '%s' "$drain_out" | sed -n 's/.*"peak_rss_kib":\([0-9]*\).*/\1/p')

# A 2 GiB sparse queue file (a hole, then the real span): the flusher's memory must not follow it.
sparse_data="$work/sparse"; mkdir -p "$sparse_data"
truncate -s 2G "$sparse_data/failed-spans.jsonl"
{ echo; cat "$work/one-span.jsonl"; } >>"$sparse_data/failed-spans.jsonl"
sparse_out=$(env -i HOME="$work/home" GEMINI_PLUGIN_DATA="$sparse_data" \
  GEMINI_PLUGIN_OPTION_ENDPOINT="http://127.0.0.1:$up/v1/traces" "$adapter" --pinta-flush || true)
sparse_rss=$(printf '%s' "$sparse_out" | sed -n 's/.*"peak_rss_kib":\([0-9]*\).*/\1/p')
rm -f "$sparse_data/failed-spans.jsonl"

# 64 concurrent writers with the collector down: per-event latency percentiles.
cat >"$work/par.c" <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
extern char **environ;
static long long now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000000000LL + t.tv_nsec; }
/* par WORKERS EVENTS PAYLOAD ARGV...: WORKERS processes each run ARGV EVENTS times; prints, per
   event, its latency, then what the event's process was doing in it: its time on a CPU and its
   time runnable but waiting for one (/proc/PID/schedstat, read while it is a zombie, before it is
   reaped), and its page faults. The rest of the latency it was asleep (a lock, I/O, a child) or
   not yet or no longer running: the spawn before its exec, this worker's own wait for a CPU
   after the exit. All in ns but the faults. */
int main(int argc, char **argv) {
  int workers = atoi(argv[1]), events = atoi(argv[2]);
  int devnull = open("/dev/null", O_WRONLY);
  for (int w = 0; w < workers; w++) {
    if (fork() != 0) continue;
    for (int e = 0; e < events; e++) {
      int fd = open(argv[3], O_RDONLY);
      posix_spawn_file_actions_t fa; posix_spawn_file_actions_init(&fa);
      posix_spawn_file_actions_adddup2(&fa, fd, 0); posix_spawn_file_actions_adddup2(&fa, devnull, 1);
      posix_spawn_file_actions_adddup2(&fa, devnull, 2);
      pid_t pid; long long t0 = now();
      if (posix_spawn(&pid, argv[4], &fa, NULL, argv + 4, environ) != 0) _exit(1);
      siginfo_t si; waitid(P_PID, pid, &si, WEXITED | WNOWAIT);
      long long t1 = now(), oncpu = -1, runq = -1;
      char path[64]; snprintf(path, sizeof path, "/proc/%d/schedstat", (int)pid);
      FILE *f = fopen(path, "r");
      if (f) { if (fscanf(f, "%lld %lld", &oncpu, &runq) != 2) oncpu = runq = -1; fclose(f); }
      int st; struct rusage ru; wait4(pid, &st, 0, &ru);
      printf("%lld\t%lld\t%lld\t%ld\n", t1 - t0, oncpu, runq, ru.ru_minflt); fflush(stdout);
      posix_spawn_file_actions_destroy(&fa); close(fd);
    }
    _exit(0);
  }
  while (wait(NULL) > 0) {}
  return 0;
}
C
cc -O2 -o "$work/par" "$work/par.c"
par_events=${PINTA_BENCH_PAR_EVENTS:-10}
# PINTA_BENCH_PAR_ROUNDS (20) rounds, pooled, each adapter mode in a data dir of its own that one
# event, alone, has set up just before: the state every event after a user's first meets (the
# files exist; a flusher runs: delivering, or in back-off with the collector down). A round of the
# three modes takes about half a second, so the tails rest on 12,800 events per mode: with 3
# rounds (1,920 events) the p99 was a round's 7th-slowest event and the ratio swung 1.2-3.5x from
# run to run on this 2-core machine. The three modes run in a rotating order (down, /bin/true, up;
# then /bin/true, up, down; ...), so none always follows another: what a mode leaves running (a
# collector-down flusher in back-off, a collector-up flusher delivering) falls on each of the
# others alike.
# Until 2026-12-07 each round's 64 writers set up a brand-new data dir themselves, all at once:
# 640 of a mode's 12,800 events were such first events, and they were its whole tail (64 processes
# creating the same new files in one new directory wait on the directory's lock behind whichever
# of them the scheduler preempted: docs/benchmarks-history.md, 2026-12-07). A user's data dir is
# new once per install, so that case is measured apart below, as information: PINTA_BENCH_FIRST_ROUNDS
# (20) rounds of 64 writers into a data dir their first events create, against /bin/true.
par_rounds=${PINTA_BENCH_PAR_ROUNDS:-20}
first_rounds=${PINTA_BENCH_FIRST_ROUNDS:-20}
: >"$work/par.txt"; : >"$work/par-true.txt"; : >"$work/par-up.txt"; : >"$work/first.txt"; : >"$work/first-true.txt"
par_lines=0; par_unwritten=0; par_up_queued=0; first_lines=0
# Collector up for the 64 writers: a logging collector of its own, so its spans are counted apart.
"$fake" --script "$work/up.json" --port-file "$work/upw.port" --log "$work/upw.log" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/upw.port" ] && break; sleep 0.05; done
upw=$(cat "$work/upw.port")
in_data_dir() {  # in_data_dir DATA_DIR PORT CMD...: CMD with the adapter's telemetry settings
  local dir=$1 port=$2
  shift 2
  env -i HOME="$work/home" PATH=/usr/bin:/bin GEMINI_PLUGIN_DATA="$dir" \
    GEMINI_PLUGIN_OPTION_ENDPOINT="http://127.0.0.1:$port/v1/traces" PINTA_QUEUE_MAX_SPANS=100000 "$@"
}
writers() {  # writers DATA_DIR PORT EVENTS OUT: 64 adapters x EVENTS events, latencies to OUT
  in_data_dir "$1" "$2" "$work/par" 64 "$3" "$work/p.json" "$adapter" --agent gemini --event AfterTool >>"$4"
}
setup_event() {  # setup_event DATA_DIR PORT: the install's first event, alone
  in_data_dir "$1" "$2" "$adapter" --agent gemini --event AfterTool <"$work/p.json" >/dev/null
}
queued() {  # queued DATA_DIR: the spans its queue holds (the file, overflow slots, side files)
  cat "$1"/failed-spans.jsonl "$1"/failed-spans.slot.* "$1"/failed-spans.side.* 2>/dev/null | grep -c '' || true
}
par_mode() {  # par_mode down|true|up ROUND
  case "$1" in
    down) setup_event "$work/par-data-$2" "$down"
          writers "$work/par-data-$2" "$down" "$par_events" "$work/par.txt" ;;
    # The same 64-way load with /bin/true: what the machine alone makes of 64 concurrent processes.
    true) "$work/par" 64 "$par_events" "$work/p.json" /bin/true >>"$work/par-true.txt" ;;
    up) setup_event "$work/par-up-$2" "$upw"
        writers "$work/par-up-$2" "$upw" "$par_events" "$work/par-up.txt" ;;
  esac
}
modes=(down true up)
for r in $(seq "$par_rounds"); do
  for k in 0 1 2; do par_mode "${modes[$(( (r + k) % 3 ))]}" "$r"; done
  # Queued = the queue file, its overflow slots and side files (folded in by the next pass).
  n=$(queued "$work/par-data-$r")
  par_lines=$((par_lines + n))
  u=$(stat -c %s "$work/par-data-$r/failed-spans.unwritten" 2>/dev/null || echo 0)
  par_unwritten=$((par_unwritten + u))
done
# 64 writers whose first events set up a new data dir, all at once (collector down), against the
# same 64-way load of /bin/true: the measure of the rounds above until 2026-12-07.
for r in $(seq "$first_rounds"); do
  if [ $((r % 2)) = 1 ]; then
    writers "$work/first-$r" "$down" "$par_events" "$work/first.txt"
    "$work/par" 64 "$par_events" "$work/p.json" /bin/true >>"$work/first-true.txt"
  else
    "$work/par" 64 "$par_events" "$work/p.json" /bin/true >>"$work/first-true.txt"
    writers "$work/first-$r" "$down" "$par_events" "$work/first.txt"
  fi
  n=$(queued "$work/first-$r")
  first_lines=$((first_lines + n))
done
# Collector up: every event's span delivered, or still queued for the next flush (nothing lost);
# the flushers get up to 30 s to deliver.
par_events_n=$(( 64 * par_events * par_rounds ))  # measured events per mode
par_want=$(( par_events_n + par_rounds ))  # spans per mode: those and each round's setup event
upw_count() { { grep -o '\\"spanId\\":\\"[0-9a-f]\{16\}\\"' "$work/upw.log" 2>/dev/null || true; } | sort -u | wc -l; }
t_w=$(date +%s%N); par_up_got=$(upw_count)
while [ "$par_up_got" -lt "$par_want" ] && [ $(( ($(date +%s%N) - t_w) / 1000000 )) -lt 30000 ]; do
  sleep 0.1; par_up_got=$(upw_count)
done
for r in $(seq "$par_rounds"); do
  n=$(queued "$work/par-up-$r")
  par_up_queued=$((par_up_queued + n))
done
pct() { sort -n "${2:-$work/par.txt}" | awk -v q="$1" '{ v[NR] = $1 } END { i = int(NR * q + 0.999999); if (i < 1) i = 1; printf "%.1f", v[i] / 1e6 }'; }
par_n=$(wc -l <"$work/par.txt"); par_p50=$(pct 0.5); par_p99=$(pct 0.99); par_max=$(pct 1)
true_p50=$(pct 0.5 "$work/par-true.txt"); true_p99=$(pct 0.99 "$work/par-true.txt"); true_max=$(pct 1 "$work/par-true.txt")
up_p50=$(pct 0.5 "$work/par-up.txt"); up_p99=$(pct 0.99 "$work/par-up.txt"); up_max=$(pct 1 "$work/par-up.txt")
first_p99=$(pct 0.99 "$work/first.txt"); first_max=$(pct 1 "$work/first.txt")
first_true_p99=$(pct 0.99 "$work/first-true.txt"); first_true_max=$(pct 1 "$work/first-true.txt")
# Where an event's time went under the 64-way load (par's columns): over every event, its mean time
# on a CPU and its page faults; over the slowest 1 %, their latency split into time on a CPU, time
# runnable and waiting for one (the scheduler), and the rest ("asleep": a lock, I/O, a child, or
# the spawning worker's own wait for a CPU around the process's life).
anatomy() {
  sort -t"$(printf '\t')" -k1,1n "$1" | awk -F'\t' '
    { lat[NR] = $1; cpu[NR] = $2; rq[NR] = $3; flt[NR] = $4; c += $2; f += $4; if ($2 < 0) none = 1 }
    END {
      if (NR == 0 || none) { print "not measured (no /proc/PID/schedstat: a kernel without CONFIG_SCHED_INFO)"; exit }
      k = int(NR / 100); if (k < 1) k = 1
      for (i = NR - k + 1; i <= NR; i++) { l += lat[i]; tc += cpu[i]; tq += rq[i] }
      printf "on-CPU %.2f ms, %d faults an event; slowest 1 %%: %.1f ms = on-CPU %.2f + waiting for a CPU %.1f + asleep %.1f",
        c / NR / 1e6, f / NR, l / k / 1e6, tc / k / 1e6, tq / k / 1e6, (l - tc - tq) / k / 1e6
    }'
}

# Outage then recovery (default back-off settings): the collector (a fixed port: python3's
# http.server) is down while 5 events queue spans, stays down PINTA_BENCH_OUTAGE_S seconds
# (default 20), comes back; no further event. Target: all 5 delivered within 10 s of its return.
outage_s=${PINTA_BENCH_OUTAGE_S:-20}
outage_line="outage ${outage_s} s then recovery, no further event: delivered <= 10 s after return"
if command -v python3 >/dev/null; then
  cat >"$work/collector.py" <<'PY'
import http.server, re, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with open(sys.argv[2], "a") as f:
            for m in re.findall(rb'"spanId":"([0-9a-f]{16})"', body): f.write(m.decode() + "\n")
        self.send_response(200); self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"{}")
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
  # A port of its own, refused now (no other flusher of this bench points at it); the collector
  # comes back on it.
  "$fake" --script "$work/hang.json" --port-file "$work/outage.port" >/dev/null 2>&1 &
  o_pid=$!
  for _ in $(seq 100); do [ -s "$work/outage.port" ] && break; sleep 0.05; done
  oport=$(cat "$work/outage.port"); kill "$o_pid"; wait "$o_pid" 2>/dev/null || true
  for _ in 1 2 3 4 5; do
    env -i HOME="$work/home" PATH=/usr/bin:/bin GEMINI_PLUGIN_DATA="$work/outage" \
      GEMINI_PLUGIN_OPTION_ENDPOINT="http://127.0.0.1:$oport/v1/traces" "$adapter" --agent gemini --event AfterTool <"$work/p.json" >/dev/null
  done
  { grep -o '^{"spanId":"[0-9a-f]\{16\}"' "$work/outage/failed-spans.jsonl" 2>/dev/null || true; } |
    cut -d'"' -f4 | sort -u >"$work/outage.want"
  sleep "$outage_s"
  python3 "$work/collector.py" "$oport" "$work/outage.ids" &
  pids+=($!)
  t_back=$(date +%s%N)
  outage_count() { { sort -u "$work/outage.ids" 2>/dev/null || true; } | comm -12 - "$work/outage.want" | wc -l; }
  while [ "$(outage_count)" -lt 5 ] && [ $(( ($(date +%s%N) - t_back) / 1000000 )) -lt 30000 ]; do sleep 0.05; done
  outage_got=$(outage_count)
  outage_ms=$(( ($(date +%s%N) - t_back) / 1000000 ))
else
  outage_got=-1
fi

down_r=$(ratio "${m[1]}" "${m[0]}"); down0_r=$(ratio "${m[2]}" "${m[0]}"); hang_r=$(ratio "${m[4]}" "${m[3]}")
up_r=$(ratio "${m[3]}" "${m[0]}")
report=$(
  for i in "${!names[@]}"; do printf '%-52s %10s ms  peak RSS %6s KiB\n' "${names[i]}" "${m[i]}" "${rss[i]}"; done
  echo
  printf '%-60s %8s  %s\n' "collector up, steady state <= 1.2x /bin/true" "${up_r}x" "$(verdict "$up_r" 1.2)"
  if [ "$got_up" -eq "$want_up" ]; then up_v=PASS; else up_v=MISS; fi
  printf '%-60s %8s  %s\n' "collector up: every span delivered ($want_up events)" "$got_up" "$up_v"
  printf '%-60s %7sms  %s\n' "collector up: last span delivered <= 1000 ms after last event" "$lag_ms" "$(verdict "$lag_ms" 1000)"
  printf '%-60s %5sKiB  %s\n' "adapter peak RSS <= 4096 KiB (every telemetry path)" "$adapter_rss" "$(verdict "$adapter_rss" 4096)"
  printf '%-60s %8s  %s\n' "collector down <= 1.3x /bin/true" "${down_r}x" "$(verdict "$down_r" 1.3)"
  printf '%-60s %8s  %s\n' "collector down, back-off 0 (informative)" "${down0_r}x" "-"
  printf '%-60s %8s  %s\n' "never answers / collector up <= 1.1" "${hang_r}x" "$(verdict "$hang_r" 1.1)"
  delivered=$(printf '%s' "$drain_out" | sed -n 's/.*"delivered":\([0-9]*\).*/\1/p')
  if [ "${delivered:-0}" -eq 10000 ]; then drain_v=$(verdict "$drain_s" 5); else drain_v="MISS (delivered ${delivered:-?} of 10000)"; fi
  printf '%-60s %7ss  %s\n' "drain 10,000 queued spans <= 5 s" "$drain_s" "$drain_v"
  printf '%-60s %5sKiB  %s\n' "flusher peak RSS, 10,000-span drain <= 16384 KiB" "${drain_rss:-?}" "$(verdict "${drain_rss:-999999}" 16384)"
  printf '%-60s %5sKiB  %s\n' "flusher peak RSS, 2 GiB sparse queue file <= 16384 KiB" "${sparse_rss:-?}" "$(verdict "${sparse_rss:-999999}" 16384)"
  # Ratios to /bin/true's own tail under the same 64-way load (the issue's restated target: an
  # absolute 20 ms p99 was below what /bin/true itself gets on 2 cores).
  rel() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
  par_rel=$(rel "$par_p99" "$true_p99"); par_relmax=$(rel "$par_max" "$true_max")
  up_rel=$(rel "$up_p99" "$true_p99"); up_relmax=$(rel "$up_max" "$true_max")
  printf '%-60s %8s  %s\n' "64 writers, collector down: p99 <= 1.5x /bin/true p99" "${par_rel}x" "$(verdict "$par_rel" 1.5) ($par_p99 vs $true_p99 ms)"
  printf '%-60s %8s  %s\n' "64 writers, collector down: max <= 1.5x /bin/true max" "${par_relmax}x" "$(verdict "$par_relmax" 1.5) ($par_max vs $true_max ms)"
  printf '%-60s %8s  %s\n' "64 writers, collector up: p99 <= 1.5x /bin/true p99" "${up_rel}x" "$(verdict "$up_rel" 1.5) ($up_p99 vs $true_p99 ms)"
  printf '%-60s %8s  %s\n' "64 writers, collector up: max <= 1.5x /bin/true max" "${up_relmax}x" "$(verdict "$up_relmax" 1.5) ($up_max vs $true_max ms)"
  if [ "$par_lines" -eq "$par_want" ] && [ "$par_unwritten" -eq 0 ]; then lost_v=PASS; else lost_v=MISS; fi
  printf '%-60s %8s  %s\n' "64 writers, collector down: every span queued ($par_want)" "$par_lines" "$lost_v (unwritten bytes $par_unwritten; $par_events_n events + $par_rounds setup events)"
  if [ $((par_up_got + par_up_queued)) -ge "$par_want" ]; then lost_v=PASS; else lost_v=MISS; fi
  printf '%-60s %8s  %s\n' "64 writers, collector up: delivered + queued = $par_want" "$((par_up_got + par_up_queued))" "$lost_v ($par_up_got delivered, $par_up_queued queued)"
  echo "  (64 writers: $par_rounds rounds, $par_n events per mode; p50 collector down $par_p50 ms, up $up_p50 ms;"
  echo "   /bin/true under the same 64-way load: p50 $true_p50 ms, p99 $true_p99 ms, max $true_max ms)"
  first_want=$(( 64 * par_events * first_rounds ))
  if [ "$first_lines" -eq "$first_want" ]; then lost_v=PASS; else lost_v=MISS; fi
  printf '%-60s %8s  %s\n' "64 writers setting up a new data dir: every span queued" "$first_lines" "$lost_v (of $first_want)"
  printf '%-60s %8s  %s\n' "64 writers setting up a new data dir: p99 / /bin/true p99" "$(rel "$first_p99" "$first_true_p99")x" "INFO ($first_p99 vs $first_true_p99 ms; $first_rounds rounds)"
  printf '%-60s %8s  %s\n' "64 writers setting up a new data dir: max / /bin/true max" "$(rel "$first_max" "$first_true_max")x" "INFO ($first_max vs $first_true_max ms)"
  echo "  where the time went (each event's own process; the flusher and the collector are apart):"
  echo "    /bin/true:      $(anatomy "$work/par-true.txt")"
  echo "    collector down: $(anatomy "$work/par.txt")"
  echo "    collector up:   $(anatomy "$work/par-up.txt")"
  echo "    /bin/true beside the new-dir rounds: $(anatomy "$work/first-true.txt")"
  echo "    writers setting up a new data dir:  $(anatomy "$work/first.txt")"
  if [ "$outage_got" -lt 0 ]; then
    printf '%-60s %8s  %s\n' "$outage_line" "-" "SKIP (no python3 for the fixed-port collector)"
  elif [ "$outage_got" -eq 5 ]; then
    printf '%-60s %7sms  %s\n' "$outage_line" "$outage_ms" "$(verdict "$outage_ms" 10000)"
  else
    printf '%-60s %8s  %s\n' "$outage_line" "$outage_got/5" "MISS"
  fi
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
