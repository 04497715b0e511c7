/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lab-tool - small, static traffic and clock helper for the closed-world lab (scripts/run-lab
 * builds it into the overlay as /usr/bin/lab-tool). Every time is CLOCK_MONOTONIC inside the
 * guest, i.e. virtual time under -icount. Every run is bounded in (virtual) time, so a stalled
 * device ends the run with partial figures instead of hanging it.
 *
 *   lab-tool now                                   print CLOCK_MONOTONIC in ns
 *   lab-tool rr-server PORT                        serve one rr connection until EOF
 *   lab-tool rr HOST PORT REQ RESP COUNT MAX_MS [SLOW_MS]
 *        request/response client: COUNT transactions of REQ bytes out, RESP bytes back, at
 *        most MAX_MS of virtual time (checked between transactions; a transaction still
 *        waiting at MAX_MS + 1000 ms is abandoned: stalled=1). SLOW_MS (default 20): a
 *        transaction slower than this counts in slow=.
 *   lab-tool send HOST PORT MAX_MS                 TCP sender: 64 KiB writes for MAX_MS
 *   lab-tool recv PORT MAX_MS                      accept one connection, count bytes until
 *                                                  EOF or MAX_MS + 2000 ms
 * Environment: LAB_CHUNK=N (rr-server writes each response in N-byte pieces), LAB_RCVBUF=N
 * (rr client: SO_RCVBUF before the transfer, i.e. a small receive window).
 * Servers write the port to READY_FILE when the environment variable LAB_READY names one.
 * Output: one line "RESULT tool=<mode> key=value ..." on stdout.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define MAX_SIZE (4u << 20)

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void die(const char *tool, const char *what) {
  printf("RESULT tool=%s status=error error=%s errno=%d\n", tool, what, errno);
  fflush(stdout);
  exit(4);
}

static volatile sig_atomic_t g_alarm;
static void on_alarm(int sig) {
  (void)sig;
  g_alarm = 1;
}

/* SIGALRM after ms (virtual) milliseconds, without SA_RESTART: blocked calls return EINTR */
static void arm_alarm(uint64_t ms) {
  struct sigaction sa;
  struct itimerval it;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, NULL);
  memset(&it, 0, sizeof(it));
  it.it_value.tv_sec = (time_t)(ms / 1000);
  it.it_value.tv_usec = (suseconds_t)(ms % 1000) * 1000;
  setitimer(ITIMER_REAL, &it, NULL);
}

static int connect_to(const char *tool, const char *host, int port) {
  struct sockaddr_in a;
  int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
  memset(&a, 0, sizeof(a));
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  if (fd < 0 || inet_pton(AF_INET, host, &a.sin_addr) != 1) die(tool, "socket");
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) die(tool, "connect");
  return fd;
}

static int accept_one(const char *tool, int port) {
  struct sockaddr_in a;
  int lfd = socket(AF_INET, SOCK_STREAM, 0), one = 1, fd;
  const char *ready = getenv("LAB_READY");
  memset(&a, 0, sizeof(a));
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(lfd, 4) != 0)
    die(tool, "listen");
  if (ready && *ready) {
    char tmp[512];
    FILE *f;
    snprintf(tmp, sizeof(tmp), "%s.tmp", ready);
    f = fopen(tmp, "w");
    if (!f) die(tool, "ready-file");
    fprintf(f, "%d\n", port);
    fclose(f);
    rename(tmp, ready);
  }
  do fd = accept(lfd, NULL, NULL);
  while (fd < 0 && errno == EINTR && !g_alarm);
  if (fd < 0) die(tool, "accept");
  close(lfd);
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  return fd;
}

/* 1 complete, 0 EOF before the first byte, -1 interrupted by the alarm / error */
static int read_full(int fd, uint8_t *p, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = read(fd, p + got, n - got);
    if (r < 0 && errno == EINTR && !g_alarm) continue;
    if (r < 0) return -1;
    if (r == 0) return got == 0 ? 0 : -1;
    got += (size_t)r;
  }
  return 1;
}

static int write_full(int fd, const uint8_t *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR && !g_alarm) continue;
    if (w <= 0) return -1;
    p += w, n -= (size_t)w;
  }
  return 1;
}

static uint32_t get32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static int rr_server(int port) {
  static uint8_t buf[MAX_SIZE];
  uint8_t hello[8];
  uint32_t req, resp;
  uint64_t served = 0;
  uint32_t chunk = getenv("LAB_CHUNK") ? (uint32_t)strtoul(getenv("LAB_CHUNK"), NULL, 10) : 0;
  int fd = accept_one("rr-server", port);
  if (read_full(fd, hello, 8) != 1) die("rr-server", "hello");
  req = get32(hello), resp = get32(hello + 4);
  if (!req || !resp || req > MAX_SIZE || resp > MAX_SIZE) die("rr-server", "sizes");
  memset(buf, 0x5a, sizeof(buf));
  while (read_full(fd, buf, req) == 1) {
    uint32_t off = 0;
    while (off < resp) { /* LAB_CHUNK: response written in pieces of this size */
      uint32_t n = chunk && chunk < resp - off ? chunk : resp - off;
      if (write_full(fd, buf + off, n) != 1) break;
      off += n;
    }
    if (off < resp) break;
    served++;
  }
  close(fd);
  printf("RESULT tool=rr-server status=ok transactions=%llu\n", (unsigned long long)served);
  return 0;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int rr_client(const char *host, int port, uint32_t req, uint32_t resp, uint64_t count,
                     uint64_t max_ms, uint64_t slow_ms) {
  static uint8_t buf[MAX_SIZE];
  uint8_t hello[8];
  uint64_t *lat = calloc(count ? count : 1, sizeof(*lat)), done = 0, slow = 0, t0, ns, sum = 0;
  int fd, stalled = 0;
  if (!lat || !req || !resp || req > MAX_SIZE || resp > MAX_SIZE) die("rr", "usage");
  fd = connect_to("rr", host, port);
  if (getenv("LAB_RCVBUF")) { /* a small receive window: the sender is window-clocked */
    int rb = atoi(getenv("LAB_RCVBUF"));
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rb, sizeof(rb));
  }
  put32(hello, req), put32(hello + 4, resp);
  if (write_full(fd, hello, 8) != 1) die("rr", "hello");
  arm_alarm(max_ms + 1000);
  t0 = now_ns();
  while (done < count && now_ns() - t0 < max_ms * 1000000u) {
    uint64_t a = now_ns();
    if (write_full(fd, buf, req) != 1 || read_full(fd, buf, resp) != 1) {
      stalled = 1;
      break;
    }
    lat[done] = now_ns() - a;
    sum += lat[done];
    if (lat[done] > slow_ms * 1000000u) slow++;
    done++;
  }
  ns = now_ns() - t0;
  arm_alarm(0);
  if (!stalled) shutdown(fd, SHUT_WR);
  close(fd);
  qsort(lat, done, sizeof(*lat), cmp_u64);
  printf("RESULT tool=rr status=%s transactions=%llu request=%u response=%u ns=%llu "
         "mbps=%.3f tps=%.1f mean_us=%.1f p50_us=%.1f p90_us=%.1f max_us=%.1f slow=%llu "
         "slow_ms=%llu stalled=%d\n",
         stalled ? "stalled" : (done == count ? "ok" : "time"), (unsigned long long)done, req, resp,
         (unsigned long long)ns, ns ? (double)done * (req + resp) * 8e3 / (double)ns : 0.0,
         ns ? (double)done * 1e9 / (double)ns : 0.0, done ? (double)sum / (double)done / 1e3 : 0.0,
         done ? (double)lat[(done - 1) / 2] / 1e3 : 0.0,
         done ? (double)lat[(done * 9 + 9) / 10 - 1] / 1e3 : 0.0,
         done ? (double)lat[done - 1] / 1e3 : 0.0, (unsigned long long)slow,
         (unsigned long long)slow_ms, stalled);
  return 0;
}

static int sender(const char *host, int port, uint64_t max_ms) {
  static uint8_t buf[65536];
  uint64_t sent = 0, t0, ns;
  int fd = connect_to("send", host, port), stalled = 0;
  memset(buf, 0xa5, sizeof(buf));
  arm_alarm(max_ms);
  t0 = now_ns();
  while (!g_alarm) {
    ssize_t w = write(fd, buf, sizeof(buf));
    if (w < 0 && errno == EINTR) break;
    if (w <= 0) {
      stalled = 1;
      break;
    }
    sent += (uint64_t)w;
  }
  ns = now_ns() - t0;
  close(fd);
  printf("RESULT tool=send status=%s bytes=%llu ns=%llu mbps=%.3f\n", stalled ? "error" : "ok",
         (unsigned long long)sent, (unsigned long long)ns, ns ? (double)sent * 8e3 / (double)ns : 0.0);
  return 0;
}

static int receiver(int port, uint64_t max_ms) {
  static uint8_t buf[262144];
  uint64_t got = 0, t0, ns;
  int fd, eof = 0;
  arm_alarm(max_ms + 2000);
  fd = accept_one("recv", port);
  t0 = now_ns();
  for (;;) {
    ssize_t r = read(fd, buf, sizeof(buf));
    if (r < 0 && errno == EINTR && !g_alarm) continue;
    if (r < 0) break;
    if (r == 0) {
      eof = 1;
      break;
    }
    got += (uint64_t)r;
  }
  ns = now_ns() - t0;
  close(fd);
  printf("RESULT tool=recv status=%s bytes=%llu ns=%llu mbps=%.3f\n", eof ? "ok" : "timeout",
         (unsigned long long)got, (unsigned long long)ns, ns ? (double)got * 8e3 / (double)ns : 0.0);
  return 0;
}

static uint64_t num(const char *s) {
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end == 'K') v <<= 10, end++;
  else if (*end == 'M') v <<= 20, end++;
  if (*end) {
    fprintf(stderr, "lab-tool: '%s' is not a number\n", s);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc == 2 && !strcmp(argv[1], "now")) {
    printf("%llu\n", (unsigned long long)now_ns());
    return 0;
  }
  if (argc == 3 && !strcmp(argv[1], "rr-server")) return rr_server((int)num(argv[2]));
  if ((argc == 8 || argc == 9) && !strcmp(argv[1], "rr"))
    return rr_client(argv[2], (int)num(argv[3]), (uint32_t)num(argv[4]), (uint32_t)num(argv[5]),
                     num(argv[6]), num(argv[7]), argc == 9 ? num(argv[8]) : 20);
  if (argc == 5 && !strcmp(argv[1], "send")) return sender(argv[2], (int)num(argv[3]), num(argv[4]));
  if (argc == 4 && !strcmp(argv[1], "recv")) return receiver((int)num(argv[2]), num(argv[3]));
  fprintf(stderr,
          "usage: lab-tool now | rr-server PORT | rr HOST PORT REQ RESP COUNT MAX_MS [SLOW_MS] |\n"
          "       send HOST PORT MAX_MS | recv PORT MAX_MS\n");
  return 2;
}
