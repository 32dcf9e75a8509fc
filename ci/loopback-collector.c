/* ci/loopback-collector.c: an independent OTLP/HTTP collector on loopback for the telemetry rows
 * of ci/bench.sh, so that the telemetry event (<= 1.2x /bin/true) is also measured against a
 * collector written apart from the bench's inline C server (bench-guard.c, which answers any POST
 * at once without reading the body) and from the adapter's HTTP code.
 *
 * It reads each HTTP/1.1 request whole: the header to its blank line, then the body framed by
 * Content-Length or by chunked transfer coding (chunks decoded, trailers read); answers a POST
 * with 200 and the OTLP/HTTP JSON success body `{}` (ExportTraceServiceResponse without
 * partial_success), framed by Content-Length; anything else gets 405. A connection is served until
 * the client closes it or asks to (keep-alive otherwise), one connection at a time. Every body is
 * searched for `"spanId"` so the bench can check that each event's span was delivered.
 *
 * Usage: loopback-collector [--idle-ms MS] [--stats FILE]
 *   Listens on 127.0.0.1, port 0 (the kernel picks), and prints the port on stdout (one line).
 *   --stats FILE: after every request, FILE holds "<requests> <spans>\n" (written to FILE.tmp,
 *   then renamed). Exits 0 after MS milliseconds without a connection (default 60000); a
 *   connection silent for MS is dropped.
 *
 * Build: cc -O2 -o loopback-collector ci/loopback-collector.c (bench.sh compiles it).
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

enum { kBuf = 1 << 16 };

static int idle_ms = 60000;
static const char *stats_path;
static long requests, spans;

/* A connection's read buffer: bytes [pos, len) are unread. */
struct conn {
  int fd;
  char buf[kBuf];
  size_t pos, len;
};

/* Makes at least one more byte available; 0 on end, error or silence. */
static int fill(struct conn *c) {
  if (c->pos == c->len) c->pos = c->len = 0;
  if (c->len == sizeof c->buf) {
    if (c->pos == 0) return 0; /* a line longer than the buffer */
    memmove(c->buf, c->buf + c->pos, c->len - c->pos);
    c->len -= c->pos;
    c->pos = 0;
  }
  struct pollfd p = {c->fd, POLLIN, 0};
  for (;;) {
    int r = poll(&p, 1, idle_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return 0;
    ssize_t n = read(c->fd, c->buf + c->len, sizeof c->buf - c->len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return 0;
    c->len += (size_t)n;
    return 1;
  }
}

/* One line (without CRLF) into out (NUL-terminated, cut at cap - 1); 0 on failure. */
static int read_line(struct conn *c, char *out, size_t cap) {
  for (;;) {
    char *eol = memmem(c->buf + c->pos, c->len - c->pos, "\r\n", 2);
    if (eol) {
      size_t n = (size_t)(eol - (c->buf + c->pos));
      size_t k = n < cap - 1 ? n : cap - 1;
      memcpy(out, c->buf + c->pos, k);
      out[k] = 0;
      c->pos += n + 2;
      return 1;
    }
    if (!fill(c)) return 0;
  }
}

/* Counts `"spanId"` across the body as it streams by (a match may straddle two pieces). */
struct counter {
  char tail[8];
  size_t tail_len;
};
static void count_spans(struct counter *k, const char *p, size_t n) {
  static const char kNeedle[] = "\"spanId\"";
  const size_t m = sizeof kNeedle - 1;
  char joined[kBuf + 16];
  memcpy(joined, k->tail, k->tail_len);
  memcpy(joined + k->tail_len, p, n);
  size_t total = k->tail_len + n;
  for (char *at = joined; (at = memmem(at, (size_t)(joined + total - at), kNeedle, m)); at += m) spans++;
  k->tail_len = total < m - 1 ? total : m - 1;
  memcpy(k->tail, joined + total - k->tail_len, k->tail_len);
}

/* Reads `n` body bytes; 0 on failure. */
static int read_body(struct conn *c, long long n, struct counter *k) {
  while (n > 0) {
    if (c->pos == c->len && !fill(c)) return 0;
    size_t avail = c->len - c->pos;
    size_t take = (long long)avail < n ? avail : (size_t)n;
    count_spans(k, c->buf + c->pos, take);
    c->pos += take;
    n -= (long long)take;
  }
  return 1;
}

static int write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

static void write_stats(void) {
  if (!stats_path) return;
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", stats_path);
  FILE *f = fopen(tmp, "w");
  if (!f) return;
  fprintf(f, "%ld %ld\n", requests, spans);
  fclose(f);
  rename(tmp, stats_path);
}

/* One request; 1 when the connection may carry another. */
static int serve_one(struct conn *c) {
  char line[8192];
  if (!read_line(c, line, sizeof line)) return 0;
  const int post = strncmp(line, "POST ", 5) == 0;
  const int http10 = strstr(line, "HTTP/1.0") != NULL;
  long long length = -1;
  int chunked = 0, close_asked = http10;
  for (;;) {
    if (!read_line(c, line, sizeof line)) return 0;
    if (line[0] == 0) break;
    if (strncasecmp(line, "content-length:", 15) == 0) {
      char *end;
      long long v = strtoll(line + 15, &end, 10);
      if (v < 0 || (length >= 0 && v != length)) return 0;
      length = v;
    } else if (strncasecmp(line, "transfer-encoding:", 18) == 0) {
      chunked = strcasestr(line + 18, "chunked") != NULL;
    } else if (strncasecmp(line, "connection:", 11) == 0) {
      if (strcasestr(line + 11, "close")) close_asked = 1;
      if (strcasestr(line + 11, "keep-alive")) close_asked = 0;
    }
  }
  struct counter k = {{0}, 0};
  if (chunked) {
    for (;;) {
      if (!read_line(c, line, sizeof line)) return 0;
      char *end;
      long long size = strtoll(line, &end, 16);
      if (end == line || size < 0) return 0;
      if (size == 0) break;
      if (!read_body(c, size, &k) || !read_line(c, line, sizeof line) || line[0] != 0) return 0;
    }
    for (;;) { /* trailers, to the blank line */
      if (!read_line(c, line, sizeof line)) return 0;
      if (line[0] == 0) break;
    }
  } else if (length > 0 && !read_body(c, length, &k)) {
    return 0;
  }
  static const char kOk[] =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";
  static const char kOkClose[] =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
      "Connection: close\r\n\r\n{}";
  static const char kNotPost[] =
      "HTTP/1.1 405 Method Not Allowed\r\nAllow: POST\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
  if (!post) {
    write_all(c->fd, kNotPost, sizeof kNotPost - 1);
    return 0;
  }
  requests++;
  write_stats();
  if (close_asked) {
    write_all(c->fd, kOkClose, sizeof kOkClose - 1);
    return 0;
  }
  return write_all(c->fd, kOk, sizeof kOk - 1) == 0;
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--idle-ms") == 0 && i + 1 < argc) {
      idle_ms = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--stats") == 0 && i + 1 < argc) {
      stats_path = argv[++i];
    } else {
      fprintf(stderr, "usage: loopback-collector [--idle-ms MS] [--stats FILE]\n");
      return 2;
    }
  }
  if (idle_ms <= 0) return 2;
  signal(SIGPIPE, SIG_IGN);
  int ls = listen_loopback("loopback-collector");
  if (ls < 0) return 1;
  write_stats();
  static struct conn c;
  for (;;) {
    struct pollfd p = {ls, POLLIN, 0};
    int r = poll(&p, 1, idle_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break; /* idle: done */
    int fd = accept4(ls, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) continue;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    c.fd = fd;
    c.pos = c.len = 0;
    while (serve_one(&c)) {
    }
    close(fd);
  }
  close(ls);
  return 0;
}
