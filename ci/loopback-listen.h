/* ci/loopback-listen.h — the listening socket the bench's independent loopback servers share
 * (ci/loopback-guard.c, ci/loopback-collector.c): 127.0.0.1, a port the kernel picks, printed on
 * stdout as the first line. Header only: each server stays one `cc` command. */
#ifndef PINTA_CI_LOOPBACK_LISTEN_H
#define PINTA_CI_LOOPBACK_LISTEN_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

/* The listening socket, its port printed; -1 after perror(who). */
static int listen_loopback(const char *who) {
  int ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t alen = sizeof a;
  if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof a) != 0 || listen(ls, 128) != 0 ||
      getsockname(ls, (struct sockaddr *)&a, &alen) != 0) {
    perror(who);
    return -1;
  }
  printf("%d\n", ntohs(a.sin_port));
  fflush(stdout);
  return ls;
}

#endif
