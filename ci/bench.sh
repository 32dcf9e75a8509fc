#!/usr/bin/env bash
# Whole-process wall-time benchmark of the adapter, as a host pays for it on every hook event.
#
# Usage: ci/bench.sh [--runs N] [--quick] [--markdown FILE] [--adapter PATH] [--only redaction]
# (ends with ci/bench-telemetry.sh: the collector scenarios and the queue drain,
# ci/bench-guard-bound.py: the guard request bound and the deny rate of model-sized inputs at 50 ms,
# and the conformance lane of ci/bench-conformance.sh: `conformance run --host all` of our adapter,
# <= 10 s)
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
# Then the gate event with a guard on loopback (a minimal C guard answering at once, over http and
# https: through the guard keeper as users run it, and, for information, with the keeper off
# (resumed session) and without a data dir (full handshake); pinta-fake-server; a guard that never
# answers) with a minimal
# C client as the network floor, and peers on the same payloads: a bash + curl + jq hook (the
# DefenseClaw style), a python3 -S floor, the Node floor; on the gate event and a telemetry event.
#
# The gate is also timed against an independent guard, ci/loopback-guard.c (written apart from the
# inline one and from the adapter's HTTP code: a whole request read, a fixed verdict framed by
# Content-Length), answering DENY and ALLOW to a realistic run_shell_command BeforeTool payload;
# the telemetry event against an independent collector, ci/loopback-collector.c (whole requests,
# Content-Length or chunked, keep-alive; counts the spans it receives), on an AfterTool payload
# with a 2 KB tool response.
#
# Redaction cost (build/bin/pinta-redact-bench: the redactor on its whole stdin, no cap, no
# deadline): 1 MB of prose and 1 MB of adversarial repeats (`curl -u a: ` x n, one 1 MB base64
# line, 1 MB of `=`, `a=` x n), each as a ratio to the prose in the same run, with peak RSS; 4 MB
# of the curl and base64 inputs against their 1 MB (linear: 4x).
#
# Prints medians (p90, p99 for the guard runs), ratios and the targets (adapter <= 1.2x /bin/true,
# gate with an instant guard <= 1.2x (every other registered family's gate too, allow and deny; the independent guard,
# deny and allow, with the p99 ratio beside), https gate <= 2x http gate, never-answering guard <= 50 ms +
# start-up, 1 MB and 10 MB inputs get the deny, bash+curl >= 10x ours, interpreter floors as information, peak RSS <= 4 MiB,
# telemetry with the independent collector <= 1.2x /bin/true and every span delivered, redaction of each adversarial
# 1 MB <= 10x prose, 4 MB <= 5x its 1 MB, peak RSS of 1 MB <= 16 MiB, the flusher's bound; the
# false-positive budget: <= 1 % of ordinary strings over 16 characters altered, no git SHA, UUID
# or path) with PASS/MISS. A MISS is reported, never fatal: the exit status
# is non-zero only when something could not run at all.
#
# --only redaction: the rows of the redaction work alone (the telemetry events, with the
# independent collector, the redaction cost and the false-positive rates): the gate, never-answers
# and 1/10 MB gate runs, the families' gates and the tail scripts are skipped.
set -euo pipefail

runs=200
markdown=""
only=""
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
    --only) only=${2:?--only needs a group}; shift 2 ;;
    --only=*) only=${1#--only=}; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$runs" in ''|*[!0-9]*) echo "bench: --runs wants a positive integer" >&2; exit 2 ;; esac
case "$only" in ''|redaction) ;; *) echo "bench: --only knows one group: redaction" >&2; exit 2 ;; esac
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
# The programs run as installed: copies. The file the linker wrote cost 10-20 % more CPU per
# exec than a cp of the same bytes (docs/benchmarks-history.md, 2026-12-07 "The gate event's
# cost after round 3"); a user's adapter is a copy. Every part of the bench (bench-telemetry,
# bench-guard-bound) is pointed at these.
built_adapter=$adapter
mkdir -p "$work/bin"
cp -- "$adapter" "$work/bin/pinta-gemini"
for helper in pinta-fake-server pinta-redact-bench; do  # the other programs looked for beside it
  [ -x "$(dirname "$adapter")/$helper" ] && cp -- "$(dirname "$adapter")/$helper" "$work/bin/$helper"
done
adapter="$work/bin/pinta-gemini"

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

# The timing helper. Spec file: one program per line, `stdin-file<TAB>[NAME=value<TAB>...]argv0<TAB>argv1...`
# (leading NAME=value fields are set in that program's environment only).
# Prints `program<TAB>round<TAB>wall_ns<TAB>status<TAB>maxrss_kib` per measured run.
cat >"$work/timer.c" <<'C'
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

struct prog { char *payload; size_t len; char **argv; char **envp; };

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
  struct prog progs[32]; int np = 0;  /* a spec line past 32 would be dropped */
  char *line = NULL; size_t cap = 0;
  while (np < 32 && getline(&line, &cap, spec) > 0) {
    line[strcspn(line, "\n")] = 0;
    char **av = calloc(64, sizeof *av); int ac = 0;
    char *in = strtok(strdup(line), "\t");
    for (char *t; ac < 63 && (t = strtok(NULL, "\t"));) av[ac++] = t;
    /* Leading NAME=value fields are added to (or replace in) this program's environment. */
    int ne = 0;
    while (ne < ac && strchr(av[ne], '=') && av[ne][0] != '/') ne++;
    if (!in || ac - ne == 0) continue;
    size_t nenv = 0;
    while (environ[nenv]) nenv++;
    char **envp = calloc(nenv + ne + 1, sizeof *envp);
    size_t k = 0;
    for (size_t e = 0; e < nenv; e++) {
      int replaced = 0;
      for (int j = 0; j < ne; j++) {
        size_t nl = strcspn(av[j], "=") + 1;
        if (strncmp(environ[e], av[j], nl) == 0) replaced = 1;
      }
      if (!replaced) envp[k++] = environ[e];
    }
    for (int j = 0; j < ne; j++) envp[k++] = av[j];
    progs[np].payload = slurp(in, &progs[np].len);
    progs[np].argv = av + ne; progs[np].envp = envp; np++;
  }
  fclose(spec);
  /* The timer ignores SIGPIPE (a program may stop reading a large payload); its programs start
     with the default disposition, as under a host. */
  signal(SIGPIPE, SIG_IGN);
  posix_spawnattr_t attr;
  sigset_t dfl;
  posix_spawnattr_init(&attr);
  sigemptyset(&dfl);
  sigaddset(&dfl, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &dfl);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  int devnull = open("/dev/null", O_WRONLY);
  if (devnull < 0) { perror("/dev/null"); return 1; }
  for (int r = -warmup; r < rounds; r++) {
    for (int k = 0; k < np; k++) {
      int i = (k + (r < 0 ? -r : r)) % np;   /* rotate who goes first each round */
      struct prog *p = &progs[i];
      int fds[2];
      if (pipe2(fds, O_CLOEXEC) != 0) { perror("pipe"); return 1; }
      /* A payload that fits the pipe buffer is written before the spawn; a larger one (the 1 MB
         gate event) is written after it, while the program reads, as a host does. */
      int early = p->len <= 16384;
      if (early) {
        if (write(fds[1], p->payload, p->len) != (ssize_t)p->len) { perror("write"); return 1; }
        close(fds[1]);
      }
      posix_spawn_file_actions_t fa;
      posix_spawn_file_actions_init(&fa);
      posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
      posix_spawn_file_actions_adddup2(&fa, devnull, 1);
      posix_spawn_file_actions_adddup2(&fa, devnull, 2);
      pid_t pid;
      long long t0 = now_ns();
      int err = posix_spawn(&pid, p->argv[0], &fa, &attr, p->argv, p->envp);
      if (err != 0) { fprintf(stderr, "spawn %s: %s\n", p->argv[0], strerror(err)); return 1; }
      close(fds[0]);  /* the program's copy only: a program that stops reading gives EPIPE */
      if (!early) {  /* the program may stop reading early (EPIPE): that is its answer, not ours */
        for (size_t off = 0; off < p->len;) {
          ssize_t w = write(fds[1], p->payload + off, p->len - off);
          if (w < 0 && errno == EINTR) continue;
          if (w <= 0) break;
          off += (size_t)w;
        }
        close(fds[1]);
      }
      int status; struct rusage ru;
      while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) { perror("wait4"); return 1; }
      }
      long long t1 = now_ns();
      posix_spawn_file_actions_destroy(&fa);
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
echo "bench: machine: $(nproc) CPUs, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown CPU), kernel $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
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
  n_ceil=$(ratio "${med[3]}" "${med[0]}")
fi

# Gate event with a guard, and peers on the same payloads (docs/benchmarks-history.md "Guard path").
# Guards on loopback: bench-guard, a minimal C server compiled here that answers every POST with
# ALLOW in one write (plain http served inline, one connection at a time; https with a throw-away
# certificate, a thread per connection and keep-alive unless the client asks to close; or never
# answering), and pinta-fake-server (cpp-httplib, thread pool; the conformance suite's fake). A
# minimal static C client (connect, one send, read to EOF) against each server separates the
# server's cost from ours. Peers: a DefenseClaw-style hook (bash, `curl --max-time`, `jq`), a
# Python floor (`python3 -S`: read, json.loads, print {}) and the Node floor above, on the gate
# event (bash+curl asks the same guard) and on a telemetry event (gemini AfterTool; ours queues
# the span for its flusher, the bash hook POSTs the event with curl to the same loopback server).
fake="$(dirname "$adapter")/pinta-fake-server"
guard_rows=()
cat >"$work/gemini-beforetool.json" <<'JSON'
{"session_id":"7f3c2a4e-bench-4b1d-9a0e-000000000001","transcript_path":"/tmp/w/.gemini/tmp/chats/session-bench.json","cwd":"/tmp/w","hook_event_name":"BeforeTool","timestamp":"2026-12-02T10:10:11.342Z","tool_name":"run_shell_command","tool_input":{"command":"echo hi"}}
JSON
cat >"$work/bench-guard.c" <<'C'
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#ifdef WITH_TLS
#include <openssl/ssl.h>
#endif
static const char kReplyClose[] =
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 20\r\n"
    "Connection: close\r\n\r\n{\"decision\":\"ALLOW\"}";
static const char kReplyKeep[] =
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 20\r\n"
    "\r\n{\"decision\":\"ALLOW\"}";
static const char kDenyClose[] =
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 36\r\n"
    "Connection: close\r\n\r\n{\"decision\":\"DENY\",\"reason\":\"bench\"}";
static const char *stats;
static int deny;
static long requests, resumed, connections;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
#ifdef WITH_TLS
static SSL_CTX *ctx;
#endif
static void *serve(void *arg) {  /* one connection: requests until the client closes or asks to */
  int fd = (int)(long)arg, one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct timeval tv = {30, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
#ifdef WITH_TLS
  SSL *ssl = NULL;
  if (ctx) {
    ssl = SSL_new(ctx);
    SSL_set_fd(ssl, fd);
    if (SSL_accept(ssl) != 1) { SSL_free(ssl); close(fd); return NULL; }
  }
#define RD(b, n) (ssl ? SSL_read(ssl, b, (int)(n)) : (int)recv(fd, b, n, 0))
#define WR(b, n) (ssl ? SSL_write(ssl, b, (int)(n)) : (int)send(fd, b, n, MSG_NOSIGNAL))
#else
#define RD(b, n) ((int)recv(fd, b, n, 0))
#define WR(b, n) ((int)send(fd, b, n, MSG_NOSIGNAL))
#endif
  pthread_mutex_lock(&mu); connections++; pthread_mutex_unlock(&mu);
  char buf[65536];
  size_t got = 0;
  for (;;) {
    long want = -1;
    int keep = 0;
    /* The header is looked for after every read, a full buffer included: a request whose first
       read fills the buffer (a big body sent in one write) still gets its length. */
    for (;;) {
      if (want < 0) {
        char *end = memmem(buf, got, "\r\n\r\n", 4);
        if (end) {
          char *cl = memmem(buf, (size_t)(end - buf), "ontent-Length:", 14);
          if (!cl) cl = memmem(buf, (size_t)(end - buf), "ontent-length:", 14);
          want = (end - buf) + 4 + (cl ? atol(cl + 14) : 0);
          keep = !memmem(buf, (size_t)(end - buf), "onnection: close", 16);
        }
      }
      if (want >= 0 && (long)got >= want) break;
      if (got == sizeof buf) break;
      int n = RD(buf + got, sizeof buf - got);
      if (n <= 0) break;
      got += (size_t)n;
    }
    int big = 0;
    if (want > (long)sizeof buf && got == sizeof buf) {  /* a body over the buffer: drop the rest */
      char sink[65536];
      long left = want - (long)got;
      int n = 1;
      while (left > 0 && (n = RD(sink, left < (long)sizeof sink ? (size_t)left : sizeof sink)) > 0) left -= n;
      if (left > 0) break;
      big = 1;
    } else if (want < 0 || (long)got < want) {
      break;
    }
    pthread_mutex_lock(&mu);
    requests++;
#ifdef WITH_TLS
    if (ssl && SSL_session_reused(ssl)) resumed++;
#endif
    if (stats) {
      FILE *f = fopen(stats, "w");
      if (f) { fprintf(f, "%ld %ld %ld\n", requests, resumed, connections); fclose(f); }
    }
    pthread_mutex_unlock(&mu);
    if (deny) { WR(kDenyClose, sizeof kDenyClose - 1); break; }
    if (keep) WR(kReplyKeep, sizeof kReplyKeep - 1);
    else WR(kReplyClose, sizeof kReplyClose - 1);
    if (big) {
      got = 0;
    } else {
      memmove(buf, buf + want, got - (size_t)want);
      got -= (size_t)want;
    }
    if (!keep) break;
  }
#ifdef WITH_TLS
  if (ssl) SSL_free(ssl);
#endif
  close(fd);
  return NULL;
}
int main(int argc, char **argv) {
  const char *cert = NULL, *key = NULL, *port_file = NULL;
  int never = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--tls") && i + 2 < argc) { cert = argv[++i]; key = argv[++i]; }
    else if (!strcmp(argv[i], "--never")) never = 1;
    else if (!strcmp(argv[i], "--deny")) deny = 1;
    else if (!strcmp(argv[i], "--port-file") && i + 1 < argc) port_file = argv[++i];
    else if (!strcmp(argv[i], "--stats") && i + 1 < argc) stats = argv[++i];
    else { fprintf(stderr, "bench-guard: bad argument %s\n", argv[i]); return 2; }
  }
#ifdef WITH_TLS
  if (cert) {
    ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx || SSL_CTX_use_certificate_chain_file(ctx, cert) != 1 ||
        SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1) return 1;
  }
#else
  if (cert) { fprintf(stderr, "bench-guard: built without TLS\n"); return 2; }
#endif
  int ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t al = sizeof a;
  if (bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 128) ||
      getsockname(ls, (struct sockaddr *)&a, &al)) { perror("bench-guard"); return 1; }
  if (port_file) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", port_file);
    FILE *f = fopen(tmp, "w");
    if (!f) return 1;
    fprintf(f, "%d\n", ntohs(a.sin_port));
    fclose(f);
    rename(tmp, port_file);
  }
  int held[1024], nheld = 0;
  for (;;) {
    int fd = accept4(ls, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) continue;
    if (never) {
      if (nheld == 1024) { close(held[0]); memmove(held, held + 1, sizeof held - sizeof *held); nheld--; }
      held[nheld++] = fd;
      continue;
    }
#ifdef WITH_TLS
    if (ctx) {  /* a thread per connection: the guard keeper holds one open between requests */
      pthread_t t;
      if (pthread_create(&t, NULL, serve, (void *)(long)fd) == 0) pthread_detach(t);
      else close(fd);
      continue;
    }
#endif
    serve((void *)(long)fd);  /* plain http: served inline, one connection at a time */
  }
}
C
cat >"$work/mini-client.c" <<'C'
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
int main(int argc, char **argv) {  /* POST stdin to 127.0.0.1:argv[1], read to EOF, print {} */
  if (argc != 2) return 2;
  int port = atoi(argv[1]);
  char body[8192], req[9000], buf[16384];
  ssize_t bl = read(0, body, sizeof body);
  if (bl < 0) bl = 0;
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&a, sizeof a)) return 1;
  int n = snprintf(req, sizeof req, "POST /guard HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: "
                   "application/json\r\nContent-Length: %zd\r\nConnection: close\r\n\r\n", port, bl);
  memcpy(req + n, body, (size_t)bl);
  if (send(fd, req, (size_t)n + (size_t)bl, MSG_NOSIGNAL) < 0) return 1;
  while (recv(fd, buf, sizeof buf, 0) > 0) {}
  return write(1, "{}\n", 3) == 3 ? 0 : 1;
}
C
cat >"$work/curl-hook.sh" <<'SH'
#!/bin/bash
# A DefenseClaw-style hook: the event to a loopback service with curl (50 ms cap, fail-open),
# the decision read with jq, the host's reply printed.
payload=$(cat)
decision=$(curl -s --max-time 0.05 -H 'Content-Type: application/json' --data-binary "$payload" \
  "$PEER_URL" | jq -r '.decision // empty' 2>/dev/null)
if [ "$decision" = "DENY" ]; then echo '{"decision":"deny","reason":"guard"}'; else echo '{}'; fi
SH
chmod +x "$work/curl-hook.sh"

# The independent guard and collector: their own files, compiled here like the other helpers.
cc -O2 -o "$work/loopback-guard" "$root/ci/loopback-guard.c" ||
  { echo "bench: cannot compile ci/loopback-guard.c" >&2; exit 1; }
cc -O2 -o "$work/loopback-collector" "$root/ci/loopback-collector.c" ||
  { echo "bench: cannot compile ci/loopback-collector.c" >&2; exit 1; }
# An AfterTool read_file payload as Gemini CLI 0.61 sends it (fields as in
# fixtures/gemini/0.61.0/AfterTool), with a tool response of 2 KB of source text.
at2k="$work/gemini-aftertool-2k.json"
python3 - "$at2k" <<'PY'
import json, sys
lines = ["#include <stdio.h>", "", "/* Reads a configuration file and prints each key once. */",
         "static int parse_line(const char *line, char *key, size_t cap) {",
         "  size_t n = strcspn(line, \"=\");", "  if (n == 0 || n >= cap) return -1;",
         "  memcpy(key, line, n);", "  key[n] = 0;", "  return 0;", "}", ""]
text = ""
i = 0
while len(text) < 2048:
    text += lines[i % len(lines)].replace("key", "key%d" % (i // len(lines))) + "\n"
    i += 1
payload = {"session_id": "1d28880c-4f6e-4b8a-9c1d-2e3f4a5b6c7d",
           "transcript_path": "/home/user/.gemini/tmp/project/chats/session-2026-12-02T10-10-1d28880c.jsonl",
           "cwd": "/home/user/project", "hook_event_name": "AfterTool", "timestamp": "2026-12-02T10:10:13.118Z",
           "tool_name": "read_file", "tool_input": {"absolute_path": "/home/user/project/src/config.c"},
           "tool_response": {"llmContent": text[:2048], "returnDisplay": ""}}
open(sys.argv[1], "w").write(json.dumps(payload, separators=(",", ":")))
PY
# A BeforeTool run_shell_command payload as Gemini CLI 0.61 sends it (fields as in
# fixtures/gemini/0.61.0/BeforeTool/y_run_shell_command.json), with a command of a realistic size.
bt_shell="$work/gemini-beforetool-shell.json"
cat >"$bt_shell" <<'JSON'
{"session_id":"1d28880c-4f6e-4b8a-9c1d-2e3f4a5b6c7d","transcript_path":"/home/user/.gemini/tmp/project/chats/session-2026-12-02T10-10-1d28880c.jsonl","cwd":"/home/user/project","hook_event_name":"BeforeTool","timestamp":"2026-12-02T10:10:12.004Z","tool_name":"run_shell_command","tool_input":{"command":"git fetch origin && git rebase origin/main && npm ci --no-audit && npm test -- --runInBand 2>&1 | tail -n 50","description":"Rebase on main, install dependencies and run the test suite","dir_path":"."}}
JSON

tls_ok=0
if cc -O2 -DWITH_TLS -o "$work/bench-guard" "$work/bench-guard.c" -lssl -lcrypto -pthread 2>/dev/null; then
  tls_ok=1
elif ! cc -O2 -o "$work/bench-guard" "$work/bench-guard.c" -pthread; then
  echo "bench: cannot compile the bench guard" >&2; exit 1
fi
cc -O2 -static -o "$work/mini-client" "$work/mini-client.c" 2>/dev/null ||
  cc -O2 -o "$work/mini-client" "$work/mini-client.c"
if [ "$tls_ok" = 1 ] && command -v openssl >/dev/null; then
  (cd "$work" && q() { "$@" >/dev/null 2>&1; } &&
    q openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key \
      -out ca.pem -days 2 -subj "/CN=bench CA" &&
    q openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout leaf.key \
      -out leaf.csr -subj "/CN=localhost" &&
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n' >leaf.ext &&
    q openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out leaf.pem \
      -days 2 -extfile leaf.ext) || tls_ok=0
else
  tls_ok=0
fi
python=$(command -v python3 >/dev/null && python3 -c 'import sys; print(sys.executable)' 2>/dev/null || true)
have_curl=0; command -v curl >/dev/null && command -v jq >/dev/null && have_curl=1

server_pids=()
trap 'kill ${server_pids[@]+"${server_pids[@]}"} 2>/dev/null || true; rm -rf -- "$work"' EXIT
start_server() {  # name, command...
  local name=$1; shift
  "$@" --port-file "$work/$name.port" >/dev/null 2>&1 &
  server_pids+=($!)
}
start_server cguard "$work/bench-guard"
start_server cnever "$work/bench-guard" --never
start_server cdeny "$work/bench-guard" --deny
# loopback-guard prints its port on stdout; it leaves by itself after 10 idle minutes.
"$work/loopback-guard" --idle-ms 600000 '{"decision":"DENY","reason":"blocked by the bench guard"}' \
  >"$work/lg-deny.port" 2>/dev/null &
server_pids+=($!)
"$work/loopback-guard" --idle-ms 600000 '{"decision":"ALLOW"}' >"$work/lg-allow.port" 2>/dev/null &
server_pids+=($!)
"$work/loopback-collector" --idle-ms 600000 --stats "$work/lc.stats" >"$work/lc.port" 2>/dev/null &
server_pids+=($!)
[ "$tls_ok" = 1 ] && start_server ctls "$work/bench-guard" --tls "$work/leaf.pem" "$work/leaf.key" --stats "$work/ctls.stats"
have_fake=0
if [ -x "$fake" ]; then
  echo '{"fallback":{"status":200,"body":{"decision":"ALLOW"}}}' >"$work/guard-allow.json"
  "$fake" --script "$work/guard-allow.json" --port-file "$work/fake.port" >/dev/null 2>&1 &
  server_pids+=($!)
  have_fake=1
fi
for _ in $(seq 200); do
  [ -s "$work/cguard.port" ] && [ -s "$work/cnever.port" ] && [ -s "$work/cdeny.port" ] &&
    [ -s "$work/lg-deny.port" ] && [ -s "$work/lg-allow.port" ] && [ -s "$work/lc.port" ] &&
    { [ "$tls_ok" = 0 ] || [ -s "$work/ctls.port" ]; } &&
    { [ "$have_fake" = 0 ] || [ -s "$work/fake.port" ]; } && break
  sleep 0.05
done
port() { cat "$work/$1.port"; }
mkdir -p "$work/d-tls" "$work/d-keep" "$work/d-tel" "$work/d-tel2k" "$work/d-shared"
chmod 700 "$work/d-tls" "$work/d-keep" "$work/d-tel" "$work/d-tel2k"
chmod 777 "$work/d-shared"  # refused as a data dir (ENV-9): no TLS session kept, every handshake full

bt="$work/gemini-beforetool.json"
gate=("$adapter" --agent gemini --event BeforeTool)
# The tool gate of every other registered family, from data, so that a new family gets its rows
# without an edit here. The families: hosts/include/pinta/hosts/families.def (the registry: folder
# and name; the name is the --agent label). Gemini's gate is the BeforeTool rows above. The
# payload: the family's newest fixtures/<folder>/<version>/<gate event>/, its first y_captured_
# file (what the real CLI sent), else its first y_ file. The gate event: the one the family's deny
# golden lists (fixtures/golden/deny/<folder>/default.txt: the events a deny-all guard changes);
# a family with no deny golden yet: the fixture event whose reply a deny-all guard changes.
# Each family's allow and deny replies are checked once (reply_of), the cost in the interleaved run.
reply_of() {  # payload, guard port ("" = none), agent, event → stdout and stderr, then "exit N"
  local env=(HOME="$work" PINTA_GUARD_TIMEOUT_MS=5000)  # a loaded machine must not fail open here
  [ -n "$2" ] && env+=(PINTA_GUARD_ENDPOINT="http://127.0.0.1:$2/guard")
  (cd "$work" && "${scrub[@]}" "${env[@]}" timeout -k 1 10 "$adapter" --agent "$3" --event "$4" <"$1" 2>&1; echo "exit $?")
}
fixture_of() {  # event dir → its first y_captured_ file, else its first y_ file
  local f
  f=$(find "$1" -maxdepth 1 -name 'y_captured_*.json' 2>/dev/null | LC_ALL=C sort | head -n 1)
  [ -n "$f" ] || f=$(find "$1" -maxdepth 1 -name 'y_*.json' 2>/dev/null | LC_ALL=C sort | head -n 1)
  printf '%s' "$f"
}
fam_gates=()   # name|event|payload|allow reply|deny reply, or name|-|why for a family not benched
while read -r folder name; do
  [ -n "$only" ] && break
  [ "$name" = gemini ] && continue
  vdir=$(find "$root/fixtures/$folder" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | sort -V | tail -n 1)
  [ -n "$vdir" ] || { fam_gates+=("$name|-|no fixtures/$folder/<version>/"); continue; }
  ev=""
  golden="$root/fixtures/golden/deny/$folder/default.txt"
  if [ -f "$golden" ]; then
    while read -r e _; do
      [ -n "$(fixture_of "$vdir/$e")" ] && { ev=$e; break; }
    done < <(grep -v '^#' "$golden")
  else
    for d in $(find "$vdir" -mindepth 1 -maxdepth 1 -type d | LC_ALL=C sort); do
      f=$(fixture_of "$d"); [ -n "$f" ] || continue
      e=$(basename "$d")
      [ "$(reply_of "$f" "" "$name" "$e")" != "$(reply_of "$f" "$(port cdeny)" "$name" "$e")" ] && { ev=$e; break; }
    done
  fi
  [ -n "$ev" ] || { fam_gates+=("$name|-|no gate event (no deny golden line with a fixture; no fixture event a deny guard changes)"); continue; }
  f=$(fixture_of "$vdir/$ev")
  cp -- "$f" "$work/gate-$folder.json"
  fam_gates+=("$name|$ev|$work/gate-$folder.json|$(reply_of "$f" "$(port cguard)" "$name" "$ev" | tr '\n|' '\r:')|$(reply_of "$f" "$(port cdeny)" "$name" "$ev" | tr '\n|' '\r:')|$(reply_of "$f" "" "$name" "$ev" | tr '\n|' '\r:')|${f#"$root/"}")
done < <(sed -n 's/^PINTA_FAMILY([A-Za-z0-9_]*, *\([A-Za-z0-9_]*\), *"\([^"]*\)").*/\1 \2/p' "$root/hosts/include/pinta/hosts/families.def")
declare -A gexit  # gate program name → the exit status its checked reply has (a deny may be exit 2)
# The host's own reading of each family's deny, where the emulator is built beside the adapter:
# `hostemu replay` of the same fixture under the deny guard, as the family's replay host (the one
# named `<family>-<version>` in hostemu's list) plays it: its effect must be denied or blocked with
# no contract failure. Goldens are not what is checked here (the bench guard's reason is its own).
hostemu="$(dirname "$built_adapter")/hostemu"
declare -A host_view  # family → "denied …" / "blocked …" as the host emulator read the deny
if [ -x "$hostemu" ]; then
  # Its list of replay hosts is in its answer to an unknown one (an error: exit 2).
  replay_hosts=$({ "$hostemu" replay --host '?' --adapter x x 2>&1 || true; } | sed -n 's/.*(\(.*\)).*/\1/p' | tr '|' '\n')
  for fg in ${fam_gates[@]+"${fam_gates[@]}"}; do
    IFS='|' read -r name ev _ _ _ _ src <<<"$fg"
    [ "$ev" = - ] && continue
    h=$(grep -m 1 "^$name-[0-9]" <<<"$replay_hosts" || true)
    [ -n "$h" ] || continue
    out=$(cd "$work" && "${scrub[@]}" HOME="$work" timeout -k 1 30 "$hostemu" replay --host "$h" \
      --adapter "$adapter" --deny-guard "http://127.0.0.1:$(port cdeny)" "$root/$src" 2>&1 || true)
    v=$(sed -n 's/.*  -> \(denied\|blocked\)\(.*\)/\1\2/p' <<<"$out" | head -n 1 | head -c 100)
    grep -q '[( ]0 contract' <<<"$out" || v=""
    host_view[$name]="$h: ${v:-not denied: $(tr '\n' ' ' <<<"$out" | head -c 100)}"
  done
fi
# Gate run: index → name; a program is only added when it can run here.
gnames=(); : >"$work/spec-gate.tsv"
add() {  # name, stdin, fields...
  gnames+=("$1"); local f=$2; shift 2
  (IFS=$'\t'; printf '%s\t%s\n' "$f" "$*") >>"$work/spec-$spec.tsv"
}
spec=gate
add "/bin/true" "$bt" /bin/true
add "adapter BeforeTool, no guard configured" "$bt" "${gate[@]}"
add "adapter BeforeTool, instant guard (C)" "$bt" "PINTA_GUARD_ENDPOINT=http://127.0.0.1:$(port cguard)/guard" "${gate[@]}"
add "minimal C client -> instant guard (C)" "$bt" "$work/mini-client" "$(port cguard)"
for fg in ${fam_gates[@]+"${fam_gates[@]}"}; do
  IFS='|' read -r name ev f allow deny _ <<<"$fg"
  [ "$ev" = - ] && continue
  add "adapter $name $ev, instant guard (C)" "$f" "PINTA_GUARD_ENDPOINT=http://127.0.0.1:$(port cguard)/guard" "$adapter" --agent "$name" --event "$ev"
  add "adapter $name $ev, deny guard (C)" "$f" "PINTA_GUARD_ENDPOINT=http://127.0.0.1:$(port cdeny)/guard" "$adapter" --agent "$name" --event "$ev"
  gexit["adapter $name $ev, instant guard (C)"]=${allow##*exit }
  gexit["adapter $name $ev, deny guard (C)"]=${deny##*exit }
done
add "adapter BeforeTool run_shell_command, independent guard DENY" "$bt_shell" "PINTA_GUARD_ENDPOINT=http://127.0.0.1:$(port lg-deny)/guard" "${gate[@]}"
add "adapter BeforeTool run_shell_command, independent guard ALLOW" "$bt_shell" "PINTA_GUARD_ENDPOINT=http://127.0.0.1:$(port lg-allow)/guard" "${gate[@]}"
lg_deny=$(PINTA_GUARD_ENDPOINT="http://127.0.0.1:$(port lg-deny)/guard" HOME="$work" "${gate[@]}" <"$bt_shell" 2>&1; echo "exit $?")
lg_allow=$(PINTA_GUARD_ENDPOINT="http://127.0.0.1:$(port lg-allow)/guard" HOME="$work" "${gate[@]}" <"$bt_shell" 2>&1; echo "exit $?")
if [ "$have_fake" = 1 ]; then
  add "adapter BeforeTool, pinta-fake-server guard" "$bt" "PINTA_GUARD_ENDPOINT=http://127.0.0.1:$(port fake)/guard" "${gate[@]}"
  add "minimal C client -> pinta-fake-server" "$bt" "$work/mini-client" "$(port fake)"
fi
if [ "$tls_ok" = 1 ]; then
  https="PINTA_GUARD_ENDPOINT=https://127.0.0.1:$(port ctls)/guard"
  add "adapter BeforeTool, https guard, keeper" "$bt" "SSL_CERT_FILE=$work/ca.pem" "GEMINI_PLUGIN_DATA=$work/d-keep" "$https" "${gate[@]}"
  add "adapter BeforeTool, https guard, resumed" "$bt" "SSL_CERT_FILE=$work/ca.pem" "GEMINI_PLUGIN_DATA=$work/d-tls" "PINTA_GUARD_KEEPER=0" "$https" "${gate[@]}"
  add "adapter BeforeTool, https guard, full handshake" "$bt" "SSL_CERT_FILE=$work/ca.pem" "GEMINI_PLUGIN_DATA=$work/d-shared" "$https" "${gate[@]}"
fi
[ "$have_curl" = 1 ] && add "bash+curl+jq hook -> instant guard (C)" "$bt" "PEER_URL=http://127.0.0.1:$(port cguard)/guard" "$work/curl-hook.sh"
[ -n "$python" ] && add "python3 -S floor (read, json.loads, {})" "$bt" "$python" -S -c 'import sys,json; json.loads(sys.stdin.read()); sys.stdout.write("{}\n")'
[ -n "$node" ] && add "node floor (read, JSON.parse, {})" "$bt" "$node" "$work/hook.js"

# Telemetry run: gemini AfterTool with a collector (the C server answers 200 to any POST).
tnames=("${gnames[@]}"); gnames=(); spec=tel; : >"$work/spec-tel.tsv"
at="$work/gemini-aftertool.json"
add "/bin/true" "$at" /bin/true
add "adapter AfterTool, collector up" "$at" "GEMINI_PLUGIN_DATA=$work/d-tel" "GEMINI_PLUGIN_OPTION_ENDPOINT=http://127.0.0.1:$(port cguard)/v1/traces" "$adapter" --agent gemini --event AfterTool
add "adapter AfterTool 2 KB response, independent collector" "$at2k" "GEMINI_PLUGIN_DATA=$work/d-tel2k" "GEMINI_PLUGIN_OPTION_ENDPOINT=http://127.0.0.1:$(port lc)/v1/traces" "$adapter" --agent gemini --event AfterTool
[ "$have_curl" = 1 ] && add "bash+curl+jq hook -> collector" "$at" "PEER_URL=http://127.0.0.1:$(port cguard)/v1/traces" "$work/curl-hook.sh"
[ -n "$python" ] && add "python3 -S floor (read, json.loads, {})" "$at" "$python" -S -c 'import sys,json; json.loads(sys.stdin.read()); sys.stdout.write("{}\n")'
[ -n "$node" ] && add "node floor (read, JSON.parse, {})" "$at" "$node" "$work/hook.js"
telnames=("${gnames[@]}"); gnames=("${tnames[@]}")

# Never-answering guard: the reply must come by the 50 ms budget plus start-up.
spec=never; : >"$work/spec-never.tsv"; tnames=("${gnames[@]}"); gnames=()
add "adapter BeforeTool, no guard configured" "$bt" "${gate[@]}"
add "adapter BeforeTool, guard never answers" "$bt" "PINTA_GUARD_ENDPOINT=http://127.0.0.1:$(port cnever)/guard" "${gate[@]}"
gnames=("${tnames[@]}")

# A 1 MB tool input (GUARD-14): the guard is shown a bounded view and its deny is the reply,
# within the budget plus the start-up of the same event without a guard.
spec=big; : >"$work/spec-big.tsv"; tnames=("${gnames[@]}"); gnames=()
bt_big="$work/gemini-beforetool-1mb.json"
python3 -c 'import json,sys; sys.stdout.write(json.dumps({"session_id":"s","cwd":"/tmp/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf ~ "+"a"*(1<<20)}},separators=(",",":")))' >"$bt_big"
add "adapter BeforeTool 1 MB, no guard configured" "$bt_big" "${gate[@]}"
add "adapter BeforeTool 1 MB, deny guard (C)" "$bt_big" "PINTA_GUARD_ENDPOINT=http://127.0.0.1:$(port cdeny)/guard" "${gate[@]}"
gnames=("${tnames[@]}")
big_verdict=$(PINTA_GUARD_ENDPOINT="http://127.0.0.1:$(port cdeny)/guard" HOME="$work" "${gate[@]}" <"$bt_big" 2>&1 || true)

# A 10 MB tool input: parsing it is most of the cost; the guard still judges a bounded view and
# its deny is the reply (information: no budget is stated for the parse of 10 MB).
spec=huge; : >"$work/spec-huge.tsv"; tnames=("${gnames[@]}"); gnames=()
bt_huge="$work/gemini-beforetool-10mb.json"
python3 -c 'import json,sys; sys.stdout.write(json.dumps({"session_id":"s","cwd":"/tmp/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf ~ "+"a"*(10<<20)}},separators=(",",":")))' >"$bt_huge"
add "adapter BeforeTool 10 MB, no guard configured" "$bt_huge" "${gate[@]}"
add "adapter BeforeTool 10 MB, deny guard (C)" "$bt_huge" "PINTA_GUARD_ENDPOINT=http://127.0.0.1:$(port cdeny)/guard" "${gate[@]}"
gnames=("${tnames[@]}")
huge_verdict=$(PINTA_GUARD_ENDPOINT="http://127.0.0.1:$(port cdeny)/guard" HOME="$work" "${gate[@]}" <"$bt_huge" 2>&1 || true)

# Redaction cost: pinta-redact-bench on 1 MB of prose and of adversarial repeats, and 4 MB of two
# of them (linearity). Prose: sentences of common English words (a fixed seed).
spec=redact; : >"$work/spec-redact.tsv"; tnames=("${gnames[@]}"); gnames=()
redact_bench="$(dirname "$adapter")/pinta-redact-bench"
have_rb=0
if [ -x "$redact_bench" ]; then
  have_rb=1
  python3 - "$work" <<'PY'
import base64, random, sys
w, N = sys.argv[1], 1 << 20
rnd = random.Random(7)
words = ("the of and to in is that for it as was with be by on not he this are or his from at which "
         "but have an they you were her she there been one all we their has would when if so no out up "
         "into do can more other about time some what only new them could these may first then any like "
         "now over also after did made many before must through back years where much your way well down "
         "should because each just those people how too little state good very make world still own see "
         "work long get here between both life being under never day same another know while last might "
         "great old year off come since against go came right used take three").split()
prose = []
size = 0
while size < N:
    s = " ".join(rnd.choice(words) for _ in range(rnd.randint(8, 20))).capitalize() + ". "
    if rnd.random() < 0.1: s += "\n\n"
    prose.append(s); size += len(s)
def fit(unit, n=N): return (unit * (n // len(unit) + 1))[:n]
files = {"prose": "".join(prose)[:N], "curl": fit("curl -u a: "), "curl4": fit("curl -u a: ", 4 * N),
         "b64": base64.b64encode(rnd.randbytes(N)).decode()[:N],
         "b644": base64.b64encode(rnd.randbytes(4 * N)).decode()[:4 * N],
         "eq": "=" * N, "assign": fit("a=")}
for name, text in files.items(): open(f"{w}/r-{name}.txt", "w").write(text)
PY
  add "redact 1 MB prose" "$work/r-prose.txt" "$redact_bench"
  add "redact 1 MB curl -u a: x n" "$work/r-curl.txt" "$redact_bench"
  add "redact 1 MB base64, one line" "$work/r-b64.txt" "$redact_bench"
  add "redact 1 MB of =" "$work/r-eq.txt" "$redact_bench"
  add "redact 1 MB a= x n" "$work/r-assign.txt" "$redact_bench"
  add "redact 4 MB curl -u a: x n" "$work/r-curl4.txt" "$redact_bench"
  add "redact 4 MB base64, one line" "$work/r-b644.txt" "$redact_bench"
fi
rnames=("${gnames[@]}"); gnames=("${tnames[@]}")

echo "bench: guard and peers: ${#gnames[@]} programs (gate), ${#telnames[@]} (telemetry) x $runs runs, interleaved..."
runs_for() { (cd "$work" && "${scrub[@]}" "$work/timer" "$work/spec-$1.tsv" "$2" 3) >"$work/runs-$1.tsv"; }
never_runs=$(( runs < 60 ? runs : 60 ))
huge_runs=$(( runs < 10 ? runs : 10 ))
if [ -z "$only" ]; then
  runs_for gate "$runs" || { echo "bench: the gate run failed" >&2; exit 1; }
  runs_for tel "$runs" || { echo "bench: the telemetry run failed" >&2; exit 1; }
  runs_for never "$never_runs" || { echo "bench: the never-answers run failed" >&2; exit 1; }
  runs_for big "$never_runs" || { echo "bench: the 1 MB gate run failed" >&2; exit 1; }
  runs_for huge "$huge_runs" || { echo "bench: the 10 MB gate run failed" >&2; exit 1; }
else
  runs_for tel "$runs" || { echo "bench: the telemetry run failed" >&2; exit 1; }
  for k in gate never big huge; do : >"$work/runs-$k.tsv"; done
fi
redact_runs=$(( runs < 20 ? runs : 20 ))
declare -A rrss
if [ "$have_rb" = 1 ]; then
  runs_for redact "$redact_runs" || { echo "bench: the redaction run failed" >&2; exit 1; }
  # Peak RSS: the program's own VmHWM, one run per input (wait4's figure for a spawned child
  # starts at the timer's own RSS, which holds every payload).
  i=0
  while IFS=$'\t' read -r f prog; do
    read -r _ "rrss[${rnames[i]}]" < <("$prog" <"$f")
    i=$((i + 1))
  done <"$work/spec-redact.tsv"
else
  : >"$work/runs-redact.tsv"
fi
# The independent collector's count: every telemetry event's span (runs + 3 warm-up rounds), the
# last ones delivered by a flusher after the run (waited for up to 10 s).
lc_want=$(( runs + 3 )); lc_spans=0
for _ in $(seq 200); do
  read -r _ lc_spans <"$work/lc.stats" 2>/dev/null || true
  [ "${lc_spans:-0}" -ge "$lc_want" ] && break
  sleep 0.05
done

qstats() {  # file, index → "median p90 p99" (ms)
  awk -F'\t' -v p="$2" '$1 == p { print $3 }' "$1" | sort -n | awk '
    { v[NR] = $1 }
    END {
      if (NR == 0) { print "nan nan nan"; exit }
      m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      q = v[int(NR * 0.9 + 0.999)]; r = v[int(NR * 0.99 + 0.999)]
      printf "%.3f %.3f %.3f\n", m / 1e6, q / 1e6, r / 1e6
    }'
}
declare -A gmed gp99
guard_table=()
for kind in gate tel never big huge redact; do
  case $kind in gate) n=("${gnames[@]}") ;; tel) n=("${telnames[@]}") ;; redact) n=(${rnames[@]+"${rnames[@]}"}) ;;
    never) n=("adapter BeforeTool, no guard configured (never run)" "adapter BeforeTool, guard never answers") ;;
    big) n=("adapter BeforeTool 1 MB, no guard configured" "adapter BeforeTool 1 MB, deny guard (C)") ;;
    huge) n=("adapter BeforeTool 10 MB, no guard configured" "adapter BeforeTool 10 MB, deny guard (C)") ;; esac
  for i in "${!n[@]}"; do
    read -r m q r < <(qstats "$work/runs-$kind.tsv" "$i")
    want=0; [ "$kind" = gate ] && want=${gexit["${n[i]}"]:-0}  # a family's deny may be exit 2
    bad=$(awk -F'\t' -v p="$i" -v w="$want" '$1 == p && $4 != w { c++ } END { print c + 0 }' "$work/runs-$kind.tsv")
    [ "$bad" -eq 0 ] || warnings+=("$kind: ${n[i]}: $bad runs exited non-zero")
    gmed["$kind:${n[i]}"]=$m; gp99["$kind:${n[i]}"]=$r
    guard_table+=("$kind|${n[i]}|$m|$q|$r")
  done
done
g() { echo "${gmed["gate:$1"]:-nan}"; }
t() { echo "${gmed["tel:$1"]:-nan}"; }
row() { guard_rows+=("$1|$2|$3|$4"); }  # target, measured, verdict, note
r=$(ratio "$(g "adapter BeforeTool, instant guard (C)")" "$(g /bin/true)")
fl=$(ratio "$(g "minimal C client -> instant guard (C)")" "$(g /bin/true)")
row "gate, instant guard (C) <= 1.2x /bin/true" "${r}x" "$(verdict "$r" '<=' 1.2)" "(minimal C client: ${fl}x)"
# The independent guard (ci/loopback-guard.c) on a run_shell_command payload: the median ratio is
# the target; the p99 ratio (ours against /bin/true's own p99, same run) is printed beside it. The
# reply is checked once: the guard's deny reason as Gemini's deny, and an allow that is not a deny.
lg_row() {  # verdict word, program name, reply pattern (a case pattern: quotes in it are literal), reply
  local r p v n
  r=$(ratio "$(g "$2")" "$(g /bin/true)")
  p=$(ratio "${gp99["gate:$2"]:-nan}" "${gp99["gate:/bin/true"]:-nan}")
  case "$4" in
    $3) v=$(verdict "$r" '<=' 1.2); n="(p99 ${p}x /bin/true's p99; $(g "$2") ms vs $(g /bin/true) ms; reply checked)" ;;
    *) v=MISS; n="(unexpected reply: $(printf '%s' "$4" | tr '\n' ' ' | head -c 120))" ;;
  esac
  row "gate run_shell_command, independent C guard $1 <= 1.2x /bin/true" "${r}x" "$v" "$n"
}
lg_row DENY "adapter BeforeTool run_shell_command, independent guard DENY" \
  '*"decision":"deny"*"blocked by the bench guard"*exit 0' "$lg_deny"
case "$lg_allow" in *'"decision":"deny"'*) lg_allow="deny: $lg_allow" ;; esac
lg_row ALLOW "adapter BeforeTool run_shell_command, independent guard ALLOW" '{*}?exit 0' "$lg_allow"
# Every other family's gate (CLAUDE-1, CLAUDE-2; each family's own rule in docs/contract.md): the
# allow under an instant ALLOW guard is the family's reply without a guard (for the silent
# families: exit 0, no output); the deny under a DENY guard differs from it and carries the guard's
# reason ("bench"): a JSON deny with exit 0, or an exit-code family's block status.
for fg in ${fam_gates[@]+"${fam_gates[@]}"}; do
  IFS='|' read -r name ev f allow deny none src <<<"$fg"
  if [ "$ev" = - ]; then row "$name gate" "-" "MISS" "($f)"; continue; fi
  flat() { printf '%s' "$1" | tr '\r' ' ' | head -c 120; }
  r=$(ratio "$(g "adapter $name $ev, instant guard (C)")" "$(g /bin/true)")
  if [ "$allow" = "$none" ]; then v=$(verdict "$r" '<=' 1.2); n="(reply: the allow, as without a guard: $(flat "$allow"); $ev, ${src})"
  else v=MISS; n="(reply not the allow without a guard: $(flat "$allow") vs $(flat "$none"))"; fi
  row "$name gate, instant guard (C) <= 1.2x /bin/true" "${r}x" "$v" "$n"
  r=$(ratio "$(g "adapter $name $ev, deny guard (C)")" "$(g /bin/true)")
  hv=${host_view[$name]:-no replay host}
  if [ "$deny" != "$none" ] && [[ "$deny" == *bench* ]] && [[ "$hv" != *"not denied"* ]]; then
    v=$(verdict "$r" '<=' 1.2); n="(reply: the guard's deny: $(flat "$deny"); $hv)"
  else v=MISS; n="(no deny reply: $(flat "$deny"); $hv)"; fi
  row "$name gate, deny guard (C) <= 1.2x /bin/true" "${r}x" "$v" "$n"
done
if [ "$have_fake" = 1 ]; then
  r=$(ratio "$(g "adapter BeforeTool, pinta-fake-server guard")" "$(g /bin/true)")
  fl=$(ratio "$(g "minimal C client -> pinta-fake-server")" "$(g /bin/true)")
  # Not a target: the target's "guard answering instantly" is the C guard above. pinta-fake-server
  # (cpp-httplib, a worker-thread hand-off per request) is itself slower than that: the row shows
  # what a client pays against it, beside the minimal C client's figure.
  row "gate, pinta-fake-server guard (information)" "${r}x" "INFO" "(minimal C client against it: ${fl}x /bin/true)"
fi
if [ "$tls_ok" = 1 ]; then
  http_gate=$(g "adapter BeforeTool, instant guard (C)")
  # The target row: a gate event as users run it (data dir usable, the guard keeper on, GUARD-13).
  # The event that starts a keeper asks the guard itself; every later one goes over the keeper's
  # kept connection. The other two rows show what an event pays when it connects itself.
  read -r s_req s_res s_conn <"$work/ctls.stats" 2>/dev/null || true
  r=$(ratio "$(g "adapter BeforeTool, https guard, keeper")" "$http_gate")
  row "https gate (guard keeper) <= 2x http gate" "${r}x" "$(verdict "$r" '<=' 2)" "($(g "adapter BeforeTool, https guard, keeper") ms; server saw ${s_req:-?} requests on ${s_conn:-?} connections, ${s_res:-?} resumed)"
  r=$(ratio "$(g "adapter BeforeTool, https guard, resumed")" "$http_gate")
  row "https gate, keeper off, resumed session (information)" "${r}x" "INFO" "($(g "adapter BeforeTool, https guard, resumed") ms)"
  r=$(ratio "$(g "adapter BeforeTool, https guard, full handshake")" "$http_gate")
  row "https gate, no data dir, full handshake (information)" "${r}x" "INFO" "($(g "adapter BeforeTool, https guard, full handshake") ms)"
else
  row "https gate" "-" "SKIP" "(no libssl-dev or openssl CLI)"
fi
startup=${gmed["never:adapter BeforeTool, no guard configured (never run)"]}
startup99=${gp99["never:adapter BeforeTool, no guard configured (never run)"]}
nm=${gmed["never:adapter BeforeTool, guard never answers"]}; n99=${gp99["never:adapter BeforeTool, guard never answers"]}
lim=$(awk -v s="$startup" 'BEGIN { printf "%.3f", 50 + s }'); lim99=$(awk -v s="$startup99" 'BEGIN { printf "%.3f", 50 + s }')
row "guard never answers, median <= 50 ms + start-up ($lim)" "$nm ms" "$(verdict "$nm" '<=' "$lim")" "(start-up = no-guard median $startup ms; $never_runs runs)"
row "guard never answers, p99 <= 50 ms + start-up p99 ($lim99)" "$n99 ms" "$(verdict "$n99" '<=' "$lim99")" "(no-guard p99 $startup99 ms)"
bstart=${gmed["big:adapter BeforeTool 1 MB, no guard configured"]}; bm=${gmed["big:adapter BeforeTool 1 MB, deny guard (C)"]}
blim=$(awk -v s="$bstart" 'BEGIN { printf "%.3f", 50 + s }')
case "$big_verdict" in
  *'"decision":"deny"'*) bv=$(verdict "$bm" '<=' "$blim"); bnote="(reply: the guard's deny; start-up = the same 1 MB event without a guard, $bstart ms)" ;;
  *) bv=MISS; bnote="(no deny in the reply: $(printf '%s' "$big_verdict" | head -c 120))" ;;
esac
row "gate, 1 MB tool input, deny guard: median <= 50 ms + start-up ($blim)" "$bm ms" "$bv" "$bnote"
hstart=${gmed["huge:adapter BeforeTool 10 MB, no guard configured"]}; hm=${gmed["huge:adapter BeforeTool 10 MB, deny guard (C)"]}
case "$huge_verdict" in
  *'"decision":"deny"'*) hv=INFO; hnote="(reply: the guard's deny; the same event without a guard: $hstart ms; $huge_runs runs)" ;;
  *) hv=MISS; hnote="(no deny in the reply: $(printf '%s' "$huge_verdict" | head -c 120))" ;;
esac
row "gate, 10 MB tool input, deny guard (verdict; time for information)" "$hm ms" "$hv" "$hnote"
ours_g=$(g "adapter BeforeTool, instant guard (C)"); ours_t=$(t "adapter AfterTool, collector up")
peer_rows() {  # label, peer name, limit
  local pg pt
  pg=$(g "$2"); pt=$(t "${3:-$2}")
  # The ceiling: no hook, however fast, is cheaper than /bin/true, so peer / /bin/true bounds the
  # ratio a hook can reach; it is printed beside each row.
  local cg ct
  cg=$(ratio "$pg" "$(g /bin/true)"); ct=$(ratio "$pt" "$(t /bin/true)")
  if [ "$4" = info ]; then
    # An interpreter floor is information: its ratio to ours can never pass its own ceiling; the
    # target it stood for is "ours <= 1.2x /bin/true" on both events (rows above).
    r=$(ratio "$pg" "$ours_g"); row "$1 / ours, gate event (information)" "${r}x" "INFO" "($pg ms vs $ours_g ms; ceiling ${cg}x)"
    r=$(ratio "$pt" "$ours_t"); row "$1 / ours, telemetry event (information)" "${r}x" "INFO" "($pt ms vs $ours_t ms; ceiling ${ct}x)"
    return
  fi
  r=$(ratio "$pg" "$ours_g"); row "$1 >= ${4}x ours, gate event" "${r}x" "$(verdict "$r" '>=' "$4")" "($pg ms vs $ours_g ms; ceiling ${cg}x)"
  r=$(ratio "$pt" "$ours_t"); row "$1 >= ${4}x ours, telemetry event" "${r}x" "$(verdict "$r" '>=' "$4")" "($pt ms vs $ours_t ms; ceiling ${ct}x)"
}
r=$(ratio "$ours_t" "$(t /bin/true)")
row "telemetry, collector up <= 1.2x /bin/true" "${r}x" "$(verdict "$r" '<=' 1.2)" "($ours_t ms vs $(t /bin/true) ms)"
lc_t=$(t "adapter AfterTool 2 KB response, independent collector")
r=$(ratio "$lc_t" "$(t /bin/true)")
p=$(ratio "${gp99["tel:adapter AfterTool 2 KB response, independent collector"]:-nan}" "${gp99["tel:/bin/true"]:-nan}")
v=$(verdict "$r" '<=' 1.2); [ "${lc_spans:-0}" -ge "$lc_want" ] || v=MISS
row "telemetry AfterTool 2 KB response, independent C collector <= 1.2x /bin/true" "${r}x" "$v" "(p99 ${p}x /bin/true's p99; $lc_t ms vs $(t /bin/true) ms; the collector received ${lc_spans:-0} of $lc_want spans)"
if [ "$have_rb" = 1 ]; then
  rd() { echo "${gmed["redact:$1"]:-nan}"; }
  prose=$(rd "redact 1 MB prose")
  for name in "curl -u a: x n" "base64, one line" "of =" "a= x n"; do
    r=$(ratio "$(rd "redact 1 MB $name")" "$prose")
    row "redaction, 1 MB $name <= 10x 1 MB prose" "${r}x" "$(verdict "$r" '<=' 10)" "($(rd "redact 1 MB $name") ms vs $prose ms; peak RSS ${rrss["redact 1 MB $name"]} KiB; $redact_runs runs)"
  done
  for name in "curl -u a: x n" "base64, one line"; do
    r=$(ratio "$(rd "redact 4 MB $name")" "$(rd "redact 1 MB $name")")
    row "redaction, 4 MB $name <= 5x its 1 MB (linear: 4x)" "${r}x" "$(verdict "$r" '<=' 5)" "($(rd "redact 4 MB $name") ms; peak RSS ${rrss["redact 4 MB $name"]} KiB)"
  done
  rmax=0
  for name in "prose" "curl -u a: x n" "base64, one line" "of =" "a= x n"; do
    x=${rrss["redact 1 MB $name"]:-0}; [ "$x" -gt "$rmax" ] && rmax=$x
  done
  row "redaction peak RSS, 1 MB inputs <= 16384 KiB (the flusher's bound)" "$rmax KiB" "$(verdict "$rmax" '<=' 16384)" "(prose ${rrss["redact 1 MB prose"]} KiB, VmHWM; a span attribute redacts at most 100 KiB + 64 KiB of a value)"
  # The false-positive budget (docs/contract.md REDACT-4): the strings of fixtures/ (the hosts'
  # captures) and the benign corpora of adapter/test/benign_corpus.h.
  if read -r fa fn sa sn < <("$redact_bench" --false-positives "$root/fixtures"); then
    r=$(awk -v a="$fa" -v n="$fn" 'BEGIN { printf "%.3f", 100 * a / n }')
    row "redaction false positives, ordinary strings > 16 chars <= 1 %" "$r %" "$(verdict "$r" '<=' 1)" "($fa of $fn altered; fixtures/ and benign corpora)"
    row "redaction false positives, git SHAs, UUIDs, paths = 0" "$sa of $sn" "$(verdict "$sa" '<=' 0)" "(benign::must_stay)"
  else
    row "redaction false positives" "-" "MISS" "($redact_bench --false-positives failed)"
  fi
else
  row "redaction cost" "-" "SKIP" "(no $redact_bench: cmake --build build --target pinta-redact-bench)"
fi
if [ "$have_curl" = 1 ]; then peer_rows "bash+curl+jq hook" "bash+curl+jq hook -> instant guard (C)" "bash+curl+jq hook -> collector" 10
else row "bash+curl+jq hook" "-" "SKIP" "(curl or jq missing: bash ci/install-deps.sh)"; fi
if [ -n "$python" ]; then peer_rows "python3 -S floor" "python3 -S floor (read, json.loads, {})" "" info
else row "python3 floor" "-" "SKIP" "(no python3)"; fi
if [ -n "$node" ]; then peer_rows "node floor" "node floor (read, JSON.parse, {})" "" info
else row "node floor" "-" "SKIP" "(no node)"; fi
kill "${server_pids[@]}" 2>/dev/null || true

# With --only, the rows of that group alone.
only_row() { [ -z "$only" ] || [[ "$1" == telemetry* || "$1" == redaction* ]]; }
report=$(
  printf '%-36s %10s %10s %12s\n' "program" "median ms" "p90 ms" "peak RSS KiB"
  for i in "${!names[@]}"; do
    printf '%-36s %10s %10s %12s\n' "${names[i]}" "${med[i]}" "${p90[i]}" "${rss[i]}"
  done
  echo
  printf '%-52s %8s  %s\n' "target" "measured" "result"
  printf '%-52s %7sx  %s\n' "adapter gemini AfterTool <= 1.2x /bin/true" "$g_true" "$(verdict "$g_true" '<=' 1.2)"
  printf '%-52s %7sx  %s\n' "adapter antigravity PreToolUse <= 1.2x /bin/true" "$a_true" "$(verdict "$a_true" '<=' 1.2)"
  if [ -n "$node" ]; then
    printf '%-52s %7sx  %s\n' "node hook / adapter gemini AfterTool" "$n_g" "INFO (ceiling: node / /bin/true ${n_ceil}x)"
    printf '%-52s %7sx  %s\n' "node hook / adapter antigravity PreToolUse" "$n_a" "INFO"
  else
    printf '%-52s %8s  %s\n' "node hook / adapter" "-" "SKIP (node not installed)"
  fi
  printf '%-52s %5s KiB  %s\n' "adapter peak RSS <= 4096 KiB" "$adapter_rss" "$(verdict "$adapter_rss" '<=' 4096)"
  for row in "${guard_rows[@]}"; do
    IFS='|' read -r t m v n <<<"$row"
    only_row "$t" || continue
    printf '%-60s %9s  %s %s\n' "$t" "$m" "$v" "$n"
  done
  echo
  printf '%-6s %-52s %10s %10s %10s\n' "run" "program (guard and peers)" "median ms" "p90 ms" "p99 ms"
  for row in "${guard_table[@]}"; do
    IFS='|' read -r k p m q r <<<"$row"
    [ -z "$only" ] || [ "$k" = tel ] || [ "$k" = redact ] || continue
    printf '%-6s %-52s %10s %10s %10s\n' "$k" "$p" "$m" "$q" "$r"
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
    echo "Machine: $(nproc) CPUs, ${cpu:-unknown CPU}, kernel $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) at the end of the run."
    echo "Adapter: \`${adapter#"$root/"}\`$(cd "$root" && git rev-parse --short HEAD 2>/dev/null | sed 's/^/ at commit /')."
    echo
    echo "| program | median ms | p90 ms | peak RSS KiB |"
    echo "|---|---:|---:|---:|"
    for i in "${!names[@]}"; do echo "| ${names[i]} | ${med[i]} | ${p90[i]} | ${rss[i]} |"; done
    echo
    echo "| target | measured | result |"
    echo "|---|---:|---|"
    echo "| adapter gemini AfterTool ≤ 1.2× /bin/true | ${g_true}× | $(verdict "$g_true" '<=' 1.2) |"
    echo "| adapter antigravity PreToolUse ≤ 1.2× /bin/true | ${a_true}× | $(verdict "$a_true" '<=' 1.2) |"
    if [ -n "$node" ]; then
      echo "| node hook / adapter gemini AfterTool (ceiling: node / /bin/true ${n_ceil}×) | ${n_g}× | INFO |"
      echo "| node hook / adapter antigravity PreToolUse | ${n_a}× | INFO |"
    fi
    echo "| adapter peak RSS ≤ 4096 KiB | ${adapter_rss} KiB | $(verdict "$adapter_rss" '<=' 4096) |"
    for row in "${guard_rows[@]}"; do
      IFS='|' read -r t m v n <<<"$row"
      only_row "$t" || continue
      echo "| $t $n | $m | $v |"
    done
    echo
    echo "| run | program (guard and peers) | median ms | p90 ms | p99 ms |"
    echo "|---|---|---:|---:|---:|"
    for row in "${guard_table[@]}"; do
      IFS='|' read -r k p m q r <<<"$row"
      [ -z "$only" ] || [ "$k" = tel ] || [ "$k" = redact ] || continue
      echo "| $k | $p | $m | $q | $r |"
    done
    for w in ${warnings[@]+"${warnings[@]}"}; do echo; echo "Warning: $w"; done
  } >>"$markdown"
  echo "bench: appended results to $markdown"
fi
[ -n "$only" ] && exit 0
# Telemetry: collector down / up / never answering against /bin/true, and the 10,000-span drain.
echo
tel_args=(--runs "$runs")
[ -n "$markdown" ] && tel_args+=(--markdown "$markdown")
PINTA_BUILD_DIR="$(dirname "$(dirname "$adapter")")" bash "$root/ci/bench-telemetry.sh" "${tel_args[@]}" ||
  echo "bench: telemetry benchmark could not run" >&2
# The guard request bound (GUARD-15, GUARD-16): inputs whose request size the model chooses, at the
# default 50 ms budget, against deny-all guards (plain and behind a 100 kB body limit): the deny
# rate and the largest request either guard received.
echo
gb_runs=10
[ "$runs" -le 60 ] && gb_runs=3
gb_args=(--runs "$gb_runs" --bin "$(dirname "$adapter")")
[ -n "$markdown" ] && gb_args+=(--markdown "$markdown")
python3 "$root/ci/bench-guard-bound.py" "${gb_args[@]}" || echo "bench: guard request bound benchmark could not run" >&2
# Conformance lane: wall time of `conformance run --host all --strict` for our adapter (median of 3
# runs with --quick, else 5; target <= 10 s on 2 cores). The slow zoo members: ci/bench-conformance.sh.
echo
conf_runs=5
[ "$runs" -le 60 ] && conf_runs=3
conf_args=(--runs "$conf_runs" --members "")
[ -n "$markdown" ] && conf_args+=(--markdown "$markdown")
if [ "$built_adapter" = "$root/build/bin/pinta-gemini" ]; then
  bash "$root/ci/bench-conformance.sh" "${conf_args[@]}" ||
    echo "bench: conformance benchmark could not run" >&2
else
  echo "bench: conformance lane skipped (it grades build/bin/pinta-gemini, not --adapter $built_adapter)"
fi
exit 0
