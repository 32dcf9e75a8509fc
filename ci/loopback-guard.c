/* ci/loopback-guard.c: an independent guard on loopback for the gate bench (ci/bench.sh,
 * so that the gate event with an instant guard (<= 1.2x /bin/true) is measured against a C
 * loopback guard written apart from the bench's own).
 *
 * Written apart from the bench's inline guard (bench.sh's bench-guard.c) and from the adapter's
 * HTTP code, so that neither side's framing shortcuts can flatter the figure: it reads a whole
 * HTTP/1.1 request (header to its blank line, then exactly Content-Length body bytes), and answers
 * every POST with one fixed JSON verdict given on the command line, framed by Content-Length,
 * with "Connection: close"; anything but a POST gets 405. Requests are handled one after another
 * on one thread (one connection at a time, one request per connection), as an instant guard.
 *
 * Usage: loopback-guard [--idle-ms MS] [--max-requests N] VERDICT_JSON
 *   Listens on 127.0.0.1, port 0 (the kernel picks), and prints the port on stdout (one line).
 *   Exits 0 after MS milliseconds without a connection (default 60000) or after N answered
 *   requests (default 0: no limit). A connection that sends nothing for MS is dropped.
 *
 * Build: cc -O2 -o loopback-guard ci/loopback-guard.c (bench.sh compiles it into its work dir).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "loopback-listen.h"

enum { kMaxHeader = 65536 };

static int idle_ms = 60000;

/* Reads up to `cap` bytes into buf within idle_ms; <= 0 on end, error or silence. */
static ssize_t read_some(int fd, char *buf, size_t cap) {
  struct pollfd p = {fd, POLLIN, 0};
  for (;;) {
    int r = poll(&p, 1, idle_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    ssize_t n = read(fd, buf, cap);
    if (n < 0 && errno == EINTR) continue;
    return n;
  }
}

static int write_all(int fd, const char *buf, size_t len) {
  while (len > 0) {
    ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    buf += n;
    len -= (size_t)n;
  }
  return 0;
}

/* The Content-Length of the header block `head` (without its final blank line): 0 when absent,
 * -1 when malformed or given twice with different values. */
static long long content_length(const char *head, size_t len) {
  long long found = -2;
  const char *end = head + len;
  for (const char *line = head; line < end;) {
    const char *eol = memmem(line, (size_t)(end - line), "\r\n", 2);
    if (!eol) eol = end;
    static const char kName[] = "content-length:";
    if ((size_t)(eol - line) > sizeof kName - 1 && strncasecmp(line, kName, sizeof kName - 1) == 0) {
      const char *v = line + sizeof kName - 1;
      while (v < eol && (*v == ' ' || *v == '\t')) v++;
      long long n = 0;
      const char *d = v;
      while (d < eol && *d >= '0' && *d <= '9' && n < (1LL << 40)) n = n * 10 + (*d++ - '0');
      while (d < eol && (*d == ' ' || *d == '\t')) d++;
      if (d == v || d != eol || (found != -2 && found != n)) return -1;
      found = n;
    }
    line = eol + 2;
  }
  return found == -2 ? 0 : found;
}

/* One request on `fd`, answered; 1 when a POST got the verdict, 0 otherwise. */
static int serve(int fd, const char *verdict_reply, size_t verdict_len) {
  static char buf[kMaxHeader];
  size_t got = 0;
  char *blank = NULL;
  while (!blank) {
    if (got == sizeof buf) return 0; /* header too large: dropped */
    ssize_t n = read_some(fd, buf + got, sizeof buf - got);
    if (n <= 0) return 0;
    got += (size_t)n;
    blank = memmem(buf, got, "\r\n\r\n", 4);
  }
  size_t head_len = (size_t)(blank - buf);
  long long body = content_length(buf, head_len);
  static const char kBad[] =
      "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
  static const char kNotPost[] =
      "HTTP/1.1 405 Method Not Allowed\r\nAllow: POST\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
  if (body < 0) {
    write_all(fd, kBad, sizeof kBad - 1);
    return 0;
  }
  const int post = strncmp(buf, "POST ", 5) == 0;
  /* The body: the bytes already read after the header, then the rest, read and dropped (the
   * answer comes only after the whole request, as from a guard that reads what it judges). */
  long long left = body - (long long)(got - head_len - 4);
  while (left > 0) {
    ssize_t n = read_some(fd, buf, left < (long long)sizeof buf ? (size_t)left : sizeof buf);
    if (n <= 0) return 0;
    left -= n;
  }
  if (!post) {
    write_all(fd, kNotPost, sizeof kNotPost - 1);
    return 0;
  }
  return write_all(fd, verdict_reply, verdict_len) == 0;
}

int main(int argc, char **argv) {
  long max_requests = 0;
  const char *verdict = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--idle-ms") == 0 && i + 1 < argc) {
      idle_ms = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--max-requests") == 0 && i + 1 < argc) {
      max_requests = atol(argv[++i]);
    } else if (!verdict && argv[i][0] != '-') {
      verdict = argv[i];
    } else {
      fprintf(stderr, "loopback-guard: bad argument %s\n", argv[i]);
      return 2;
    }
  }
  if (!verdict || idle_ms <= 0 || max_requests < 0) {
    fprintf(stderr, "usage: loopback-guard [--idle-ms MS] [--max-requests N] VERDICT_JSON\n");
    return 2;
  }
  size_t vlen = strlen(verdict);
  char *reply = malloc(vlen + 256);
  if (!reply) return 1;
  int rlen = snprintf(reply, vlen + 256,
                      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
                      "Connection: close\r\n\r\n%s",
                      vlen, verdict);
  signal(SIGPIPE, SIG_IGN);

  int ls = listen_loopback("loopback-guard");
  if (ls < 0) return 1;

  long answered = 0;
  for (;;) {
    struct pollfd p = {ls, POLLIN, 0};
    int r = poll(&p, 1, idle_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break; /* idle: done */
    int fd = accept4(ls, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) continue;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    answered += serve(fd, reply, (size_t)rlen);
    close(fd);
    if (max_requests > 0 && answered >= max_requests) break;
  }
  close(ls);
  free(reply);
  return 0;
}
