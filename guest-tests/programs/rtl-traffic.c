/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtl-traffic - netperf-style TCP traffic for rtl8168-sim guests (static, self-contained).
 *
 *   rtl-traffic [OPTIONS] stream-send HOST PORT BYTES     TCP_STREAM sender (client)
 *   rtl-traffic [OPTIONS] stream-recv PORT                TCP_STREAM receiver (server)
 *   rtl-traffic [OPTIONS] stream-recv HOST PORT           TCP_STREAM receiver (client)
 *   rtl-traffic [OPTIONS] rr HOST PORT REQ RESP COUNT     TCP_RR client: latency statistics
 *   rtl-traffic [OPTIONS] rr-server PORT                  TCP_RR server (one connection)
 *
 * Options: --no-sha (skip SHA-256), --no-verify (skip the pattern check), --timeout SEC,
 * --ready-file F (servers: written with the port once listening), --expect-bytes N
 * (stream-recv). HOST is a numeric IPv4/IPv6 address; sizes take K/M/G (binary) suffixes.
 * Measurement options (each adds fields to the RESULT line, nothing changes without them):
 *   --warmup N   stream-recv: also time the steady state, from the read that completes the
 *                first N bytes to the last data read (slow start and connection set-up
 *                excluded); bytes already queued in the socket when the window opens
 *                (FIONREAD) arrived before it and are not counted:
 *                warm_bytes= warm_ns= warm_mbps= warm_early_bytes=
 *   --cpu        stream-recv (with --warmup: over the same window) and stream-send: the
 *                guest's idle time from /proc/timer_list (idle_sleeptime summed over CPUs):
 *                idle_ns= busy_pct= (idle_ns=- busy_pct=- when the file is unreadable)
 *   --write-size N  stream-send: write() N bytes at a time (default 256 KiB, at most
 *                256 KiB) and report per-write() latency: writes= wmean_ns= wstddev_ns=
 *                wp50_ns= wp99_ns= wmax_ns= (the first --warmup N bytes excluded), the
 *                analogue of netperf omni send latency
 *   --skip N     rr: the first N transactions are run but left out of the latency
 *                statistics (slow start, connection set-up): skipped=N
 *
 * Output: exactly one line on stdout,
 *   RESULT tool=T status=ok|fail|error|timeout bytes=N ns=N mbps=X sha256=HEX|- [...]
 * Exit status (same as rtl8168-peer): 0 ok, 1 verification failed, 2 bad arguments,
 * 3 timeout, 4 network error.
 *
 * Cost per byte matters under -icount (docs/FACTS: "sender cost"): the sender write()s
 * 256 KiB at a time from one static buffer holding a full period of the pattern
 * (rtl-pattern.h) and never touches the data; the receiver read()s into 256 KiB and
 * checks the pattern with memcmp(). The sender's SHA-256 is computed after the clock stops.
 * SHA-256 is implemented here (FIPS 180-4, compact) because the program must link
 * statically with nothing but libc; the tests check it against OpenSSL and sha256sum.
 * Latency: CLOCK_MONOTONIC; population standard deviation; nearest-rank percentiles
 * (p-th = sorted[ceil(p*n/100)-1]), as rtl8168-peer computes them.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "rtl-pattern.h"

#define IO_SIZE RTL_PATTERN_PERIOD /* 256 KiB per write()/read() */

enum { EXIT_OK = 0, EXIT_VERIFY = 1, EXIT_USAGE = 2, EXIT_TIMEOUT = 3, EXIT_NET = 4 };

/* two periods of the stream pattern: a write() of up to one period may start anywhere */
static uint8_t g_pattern[2 * RTL_PATTERN_PERIOD];
static uint8_t g_rxbuf[IO_SIZE];
static const char *g_tool = "rtl-traffic";
static char g_timeout_line[128];

static struct {
  int no_sha, no_verify;
  unsigned timeout;
  const char *ready_file;
  int have_expect;
  uint64_t expect_bytes;
  int have_warmup, cpu;
  uint64_t warmup;
  size_t write_size; /* 0: IO_SIZE, no per-write statistics */
  uint64_t skip;     /* rr: transactions left out of the statistics */
} opt;

/* ---- SHA-256 (FIPS 180-4) ---------------------------------------------------------- */

typedef struct {
  uint32_t h[8];
  uint64_t len;
  uint8_t buf[64];
  size_t fill;
} sha256_ctx;

static const uint32_t sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#define ROR32(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(uint32_t h[8], const uint8_t *p) {
  uint32_t w[64], a, b, c, d, e, f, g, hh, t1, t2;
  int i;
  for (i = 0; i < 16; i++) w[i] = rtl_get_be32(p + 4 * i);
  for (i = 16; i < 64; i++) {
    uint32_t s0 = ROR32(w[i - 15], 7) ^ ROR32(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = ROR32(w[i - 2], 17) ^ ROR32(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (i = 0; i < 64; i++) {
    t1 = hh + (ROR32(e, 6) ^ ROR32(e, 11) ^ ROR32(e, 25)) + ((e & f) ^ (~e & g)) + sha256_k[i] +
         w[i];
    t2 = (ROR32(a, 2) ^ ROR32(a, 13) ^ ROR32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
  }
  h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

static void sha256_init(sha256_ctx *s) {
  static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy(s->h, iv, sizeof(iv));
  s->len = 0;
  s->fill = 0;
}

static void sha256_update(sha256_ctx *s, const uint8_t *p, size_t n) {
  s->len += n;
  if (s->fill) {
    size_t take = 64 - s->fill < n ? 64 - s->fill : n;
    memcpy(s->buf + s->fill, p, take);
    s->fill += take, p += take, n -= take;
    if (s->fill < 64) return;
    sha256_block(s->h, s->buf);
    s->fill = 0;
  }
  for (; n >= 64; p += 64, n -= 64) sha256_block(s->h, p);
  memcpy(s->buf, p, n);
  s->fill = n;
}

static void sha256_final_hex(sha256_ctx *s, char out[65]) {
  uint64_t bits = s->len * 8;
  uint8_t pad[72] = {0x80};
  size_t padlen = (s->fill < 56 ? 56 : 120) - s->fill;
  int i;
  for (i = 0; i < 8; i++) pad[padlen + (size_t)i] = (uint8_t)(bits >> (56 - 8 * i));
  sha256_update(s, pad, padlen + 8);
  for (i = 0; i < 32; i++)
    snprintf(out + 2 * i, 3, "%02x", (unsigned)(uint8_t)(s->h[i / 4] >> (24 - 8 * (i % 4))));
}

/* ---- helpers ------------------------------------------------------------------------- */

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Print the failure RESULT line (error is one word) and exit. */
static void fail(int code, const char *error, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: ", g_tool);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  printf("RESULT tool=%s status=%s error=%s\n", g_tool, code == EXIT_USAGE ? "usage" : "error",
         error);
  fflush(stdout);
  exit(code);
}

static void on_alarm(int sig) {
  ssize_t ignored = write(STDOUT_FILENO, g_timeout_line, strlen(g_timeout_line));
  (void)sig;
  (void)ignored;
  _exit(EXIT_TIMEOUT);
}

static uint64_t parse_u64(const char *text, const char *what) {
  char *end;
  unsigned long long v;
  unsigned shift = 0;
  errno = 0;
  if (text[0] < '0' || text[0] > '9')
    fail(EXIT_USAGE, "usage", "%s: '%s' is not a number", what, text);
  v = strtoull(text, &end, 10);
  if (*end == 'K' || *end == 'M' || *end == 'G')
    shift = *end == 'K' ? 10 : *end == 'M' ? 20 : 30, end++;
  if (errno || *end || (shift && v > (~0ull >> shift)))
    fail(EXIT_USAGE, "usage", "%s: '%s' is not an unsigned number (suffix K, M or G)", what, text);
  return (uint64_t)v << shift;
}

/* PORT 0 is allowed for servers: the kernel picks one, --ready-file tells which. */
static uint16_t parse_port(const char *text, int allow_zero) {
  uint64_t v = parse_u64(text, "PORT");
  if ((v == 0 && !allow_zero) || v > 65535)
    fail(EXIT_USAGE, "usage", "PORT '%s' out of range", text);
  return (uint16_t)v;
}

static int tcp_socket(int family) {
  int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) fail(EXIT_NET, "socket", "socket: %s", strerror(errno));
  return fd;
}

static int tcp_connect(const char *host, uint16_t port) {
  struct sockaddr_in6 a6;
  struct sockaddr_in a4;
  int fd;
  memset(&a4, 0, sizeof(a4));
  memset(&a6, 0, sizeof(a6));
  if (inet_pton(AF_INET, host, &a4.sin_addr) == 1) {
    a4.sin_family = AF_INET;
    a4.sin_port = htons(port);
    fd = tcp_socket(AF_INET);
    if (connect(fd, (struct sockaddr *)&a4, sizeof(a4)) == 0) return fd;
  } else if (inet_pton(AF_INET6, host, &a6.sin6_addr) == 1) {
    a6.sin6_family = AF_INET6;
    a6.sin6_port = htons(port);
    fd = tcp_socket(AF_INET6);
    if (connect(fd, (struct sockaddr *)&a6, sizeof(a6)) == 0) return fd;
  } else {
    fail(EXIT_USAGE, "usage", "HOST '%s' is not a numeric IPv4/IPv6 address", host);
  }
  fail(EXIT_NET, "connect", "connect to %s port %u: %s", host, port, strerror(errno));
  return -1;
}

static void write_ready_file(uint16_t port) {
  char tmp[4096];
  FILE *f;
  if (!opt.ready_file) return;
  snprintf(tmp, sizeof(tmp), "%s.tmp", opt.ready_file);
  f = fopen(tmp, "w");
  if (!f || fprintf(f, "%u\n", port) < 0 || fclose(f) != 0 || rename(tmp, opt.ready_file) != 0)
    fail(EXIT_NET, "ready-file", "cannot write %s: %s", opt.ready_file, strerror(errno));
}

/* Listen on all addresses (IPv4) and accept exactly one connection. */
static int tcp_accept_one(uint16_t port) {
  struct sockaddr_in a;
  socklen_t alen = sizeof(a);
  int one = 1, lfd = tcp_socket(AF_INET), fd;
  memset(&a, 0, sizeof(a));
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_ANY);
  setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (bind(lfd, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(lfd, 1) != 0)
    fail(EXIT_NET, "bind", "listen on port %u: %s", port, strerror(errno));
  if (getsockname(lfd, (struct sockaddr *)&a, &alen) != 0)
    fail(EXIT_NET, "getsockname", "getsockname: %s", strerror(errno));
  write_ready_file(ntohs(a.sin_port));
  do fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) fail(EXIT_NET, "accept", "accept: %s", strerror(errno));
  close(lfd);
  return fd;
}

static void write_all(int fd, const uint8_t *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) fail(EXIT_NET, "write", "write: %s", w < 0 ? strerror(errno) : "no progress");
    p += w, n -= (size_t)w;
  }
}

/* Read exactly n bytes; returns 0 on EOF before the first byte, 1 when complete. */
static int read_all(int fd, uint8_t *p, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = read(fd, p + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) fail(EXIT_NET, "read", "read: %s", strerror(errno));
    if (r == 0) {
      if (got == 0) return 0;
      fail(EXIT_NET, "truncated", "EOF after %zu of %zu bytes", got, n);
    }
    got += (size_t)r;
  }
  return 1;
}

/* Read until EOF, discarding; returns the byte count. */
static uint64_t drain(int fd) {
  uint64_t total = 0;
  for (;;) {
    ssize_t r = read(fd, g_rxbuf, sizeof(g_rxbuf));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) fail(EXIT_NET, "read", "read: %s", strerror(errno));
    if (r == 0) return total;
    total += (uint64_t)r;
  }
}

static double mbps(uint64_t bytes, uint64_t ns) {
  return ns ? (double)bytes * 8e3 / (double)ns : 0.0;
}

/* Idle time so far (ns) averaged over the CPUs: the .idle_sleeptime lines of
 * /proc/timer_list (NO_HZ kernels; updated when a CPU leaves idle, so exact for the CPU
 * this process runs on). -1 when the file cannot be read or has no such line. */
static int64_t idle_ns_now(void) {
  static char buf[65536];
  const char *key = ".idle_sleeptime", *p;
  int64_t sum = -1, cpus = 0;
  size_t n = 0;
  ssize_t r;
  int fd = open("/proc/timer_list", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  while (n < sizeof(buf) - 1 && (r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0) n += (size_t)r;
  close(fd);
  buf[n] = 0;
  for (p = strstr(buf, key); p; p = strstr(p + 1, key)) {
    const char *q = strchr(p, ':');
    if (!q) break;
    if (sum < 0) sum = 0;
    sum += (int64_t)strtoll(q + 1, NULL, 10);
    cpus++;
  }
  return cpus ? sum / cpus : -1;
}

/* " idle_ns=N busy_pct=X" for a window of ns nanoseconds that started at idle0. */
static void print_cpu(int64_t idle0, uint64_t ns) {
  int64_t idle1 = idle0 < 0 ? -1 : idle_ns_now();
  if (idle0 < 0 || idle1 < 0 || ns == 0) {
    printf(" idle_ns=- busy_pct=-");
    return;
  }
  printf(" idle_ns=%lld busy_pct=%.1f", (long long)(idle1 - idle0),
         100.0 * (1.0 - (double)(idle1 - idle0) / (double)ns));
}

static void pattern_sha256(uint64_t bytes, char hex[65]) {
  sha256_ctx s;
  sha256_init(&s);
  while (bytes) {
    size_t n = bytes < RTL_PATTERN_PERIOD ? (size_t)bytes : RTL_PATTERN_PERIOD;
    sha256_update(&s, g_pattern, n);
    bytes -= n;
  }
  sha256_final_hex(&s, hex);
}

/* sqrt() without libm: the guest build links with plain `gcc -static`. */
static double sqrt_nr(double x) {
  double r = x > 1 ? x / 2 : 1;
  int k;
  if (x <= 0) return 0;
  for (k = 0; k < 200; k++) {
    double next = (r + x / r) / 2;
    if (next == r) break;
    r = next;
  }
  return r;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static uint64_t nearest_rank(const uint64_t *sorted, uint64_t n, unsigned percent) {
  uint64_t rank = (percent * n + 99) / 100;
  return sorted[(rank ? rank : 1) - 1];
}

/* ---- modes --------------------------------------------------------------------------- */

static int stream_send(const char *host, uint16_t port, uint64_t bytes) {
  uint64_t sent = 0, t0, ns, *lat = NULL, nlat = 0, i;
  size_t io = opt.write_size ? opt.write_size : IO_SIZE;
  int64_t idle0 = -1;
  char hex[65] = "-";
  int fd = tcp_connect(host, port);
  if (opt.write_size) {
    lat = malloc((size_t)(bytes / io + 1) * sizeof(*lat));
    if (!lat) fail(EXIT_NET, "memory", "out of memory");
  }
  if (opt.cpu) idle0 = idle_ns_now();
  t0 = now_ns();
  while (sent < bytes) {
    uint64_t left = bytes - sent, a = lat ? now_ns() : 0;
    size_t n = left < io ? (size_t)left : io;
    write_all(fd, g_pattern + sent % RTL_PATTERN_PERIOD, n);
    if (lat && sent >= (opt.have_warmup ? opt.warmup : 0)) lat[nlat++] = now_ns() - a;
    sent += n;
  }
  shutdown(fd, SHUT_WR);
  drain(fd); /* the receiver closes once it has everything */
  ns = now_ns() - t0;
  close(fd);
  if (!opt.no_sha) pattern_sha256(bytes, hex);
  printf("RESULT tool=stream-send status=ok bytes=%llu ns=%llu mbps=%.3f sha256=%s",
         (unsigned long long)sent, (unsigned long long)ns, mbps(sent, ns), hex);
  if (opt.cpu) print_cpu(idle0, ns);
  if (lat && nlat) {
    double sum = 0, sq = 0, mean;
    for (i = 0; i < nlat; i++) sum += (double)lat[i];
    mean = sum / (double)nlat;
    for (i = 0; i < nlat; i++) sq += ((double)lat[i] - mean) * ((double)lat[i] - mean);
    qsort(lat, nlat, sizeof(*lat), cmp_u64);
    printf(" write_size=%zu writes=%llu wmean_ns=%.1f wstddev_ns=%.1f wmin_ns=%llu wp50_ns=%llu "
           "wp99_ns=%llu wmax_ns=%llu",
           io, (unsigned long long)nlat, mean, sqrt_nr(sq / (double)nlat),
           (unsigned long long)lat[0], (unsigned long long)nearest_rank(lat, nlat, 50),
           (unsigned long long)nearest_rank(lat, nlat, 99), (unsigned long long)lat[nlat - 1]);
  }
  printf("\n");
  free(lat);
  return EXIT_OK;
}

static int stream_recv(int fd) {
  uint64_t got = 0, t0 = now_ns(), ns, mismatch = 0, tw = 0, wbytes = 0, tlast = t0;
  uint64_t wbytes_early = 0; /* already queued in the socket when the window started */
  int64_t idle0 = opt.cpu && !opt.have_warmup ? idle_ns_now() : -1;
  int bad = 0, ok, warm = 0;
  sha256_ctx s;
  char hex[65] = "-", pattern[48] = "-";
  sha256_init(&s);
  for (;;) {
    ssize_t r = read(fd, g_rxbuf, sizeof(g_rxbuf));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0)
      fail(EXIT_NET, "read", "read after %llu bytes: %s", (unsigned long long)got, strerror(errno));
    if (r == 0) break;
    if (opt.have_warmup) {
      tlast = now_ns();
      if (warm) {
        wbytes += (uint64_t)r;
      } else if (got + (uint64_t)r >= opt.warmup) {
        int inq = 0;
        warm = 1; /* the window starts after this read */
        tw = tlast;
        if (opt.cpu) idle0 = idle_ns_now();
        /* Bytes already waiting in the socket arrived before the window: they will be read
         * inside it, so count them out (otherwise a backlog at the start inflates the rate
         * above what the wire carried during the window). */
        if (ioctl(fd, FIONREAD, &inq) == 0 && inq > 0) wbytes_early = (uint64_t)inq;
      }
    }
    if (!opt.no_sha) sha256_update(&s, g_rxbuf, (size_t)r);
    if (!opt.no_verify && !bad) {
      size_t done = 0;
      while (done < (size_t)r && !bad) {
        size_t at = (size_t)((got + done) % RTL_PATTERN_PERIOD);
        size_t n =
            (size_t)r - done < RTL_PATTERN_PERIOD - at ? (size_t)r - done : RTL_PATTERN_PERIOD - at;
        if (memcmp(g_rxbuf + done, g_pattern + at, n) != 0) {
          size_t k = 0;
          while (g_rxbuf[done + k] == g_pattern[at + k]) k++;
          mismatch = got + done + k;
          bad = 1;
        }
        done += n;
      }
    }
    got += (uint64_t)r;
  }
  ns = now_ns() - t0;
  close(fd);
  if (!opt.no_sha) sha256_final_hex(&s, hex);
  if (!opt.no_verify) {
    if (bad)
      snprintf(pattern, sizeof(pattern), "mismatch@%llu", (unsigned long long)mismatch);
    else
      snprintf(pattern, sizeof(pattern), "ok");
  }
  ok = !bad && (!opt.have_expect || got == opt.expect_bytes);
  printf("RESULT tool=stream-recv status=%s bytes=%llu ns=%llu mbps=%.3f sha256=%s pattern=%s",
         ok ? "ok" : "fail", (unsigned long long)got, (unsigned long long)ns, mbps(got, ns), hex,
         pattern);
  if (opt.have_expect) printf(" expect_bytes=%llu", (unsigned long long)opt.expect_bytes);
  if (opt.have_warmup) {
    if (wbytes_early > wbytes) wbytes_early = wbytes;
    wbytes -= wbytes_early;
    printf(" warm_bytes=%llu warm_ns=%llu warm_mbps=%.3f warm_early_bytes=%llu",
           (unsigned long long)wbytes, (unsigned long long)(warm ? tlast - tw : 0),
           warm ? mbps(wbytes, tlast - tw) : 0.0, (unsigned long long)wbytes_early);
  }
  if (opt.cpu) print_cpu(idle0, opt.have_warmup ? (warm ? tlast - tw : 0) : ns);
  printf("\n");
  return ok ? EXIT_OK : EXIT_VERIFY;
}

static int rr_client(const char *host, uint16_t port, uint64_t req, uint64_t resp, uint64_t count) {
  uint8_t hello[RTL_RR_HELLO_SIZE], *reqbuf, *respbuf, *expect;
  uint64_t *lat, *st, i, n, t0, ns, bad = 0;
  double sum = 0, sq = 0, mean;
  int one = 1, fd;
  if (req == 0 || resp == 0 || req > RTL_RR_MAX_SIZE || resp > RTL_RR_MAX_SIZE)
    fail(EXIT_USAGE, "usage", "REQ and RESP must be in [1, %u]", RTL_RR_MAX_SIZE);
  if (count == 0 || count > 0xffffffffu) fail(EXIT_USAGE, "usage", "COUNT must be in [1, 2^32-1]");
  if (opt.skip >= count) fail(EXIT_USAGE, "usage", "--skip must be below COUNT");
  reqbuf = malloc(req);
  respbuf = malloc(resp);
  expect = malloc(resp);
  lat = malloc(count * sizeof(*lat));
  if (!reqbuf || !respbuf || !expect || !lat) fail(EXIT_NET, "memory", "out of memory");
  rtl_pattern_fill(reqbuf, req, 0);
  rtl_pattern_fill(expect, resp, 0);
  fd = tcp_connect(host, port);
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  rtl_put_be32(hello, RTL_RR_MAGIC);
  rtl_put_be32(hello + 4, (uint32_t)req);
  rtl_put_be32(hello + 8, (uint32_t)resp);
  rtl_put_be32(hello + 12, (uint32_t)count);
  write_all(fd, hello, sizeof(hello));
  t0 = now_ns();
  for (i = 0; i < count; i++) {
    uint64_t a = now_ns();
    write_all(fd, reqbuf, req);
    if (!read_all(fd, respbuf, resp))
      fail(EXIT_NET, "eof", "server closed after %llu", (unsigned long long)i);
    lat[i] = now_ns() - a;
    if (memcmp(respbuf, expect, resp) != 0) bad++;
  }
  ns = now_ns() - t0;
  shutdown(fd, SHUT_WR);
  drain(fd);
  close(fd);
  n = count - opt.skip; /* statistics over lat[skip..count) */
  st = lat + opt.skip;
  for (i = 0; i < n; i++) sum += (double)st[i];
  mean = sum / (double)n;
  for (i = 0; i < n; i++) sq += ((double)st[i] - mean) * ((double)st[i] - mean);
  qsort(st, n, sizeof(*st), cmp_u64);
  printf(
      "RESULT tool=rr status=%s bytes=%llu ns=%llu mbps=%.3f sha256=- transactions=%llu "
      "request=%llu response=%llu tps=%.1f mean_ns=%.1f stddev_ns=%.1f min_ns=%llu "
      "p50_ns=%llu p90_ns=%llu p99_ns=%llu max_ns=%llu bad_responses=%llu",
      bad ? "fail" : "ok", (unsigned long long)(count * (req + resp)), (unsigned long long)ns,
      mbps(count * (req + resp), ns), (unsigned long long)count, (unsigned long long)req,
      (unsigned long long)resp, ns ? (double)count * 1e9 / (double)ns : 0.0, mean,
      sqrt_nr(sq / (double)n), (unsigned long long)st[0],
      (unsigned long long)nearest_rank(st, n, 50), (unsigned long long)nearest_rank(st, n, 90),
      (unsigned long long)nearest_rank(st, n, 99), (unsigned long long)st[n - 1],
      (unsigned long long)bad);
  if (opt.skip) printf(" skipped=%llu", (unsigned long long)opt.skip);
  printf("\n");
  free(reqbuf), free(respbuf), free(expect), free(lat);
  return bad ? EXIT_VERIFY : EXIT_OK;
}

static int rr_server(uint16_t port) {
  uint8_t hello[RTL_RR_HELLO_SIZE], *reqbuf, *respbuf;
  uint32_t req, resp, announced;
  uint64_t served = 0, t0, ns;
  int one = 1, fd = tcp_accept_one(port);
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  if (!read_all(fd, hello, sizeof(hello)) || rtl_get_be32(hello) != RTL_RR_MAGIC)
    fail(EXIT_NET, "hello", "bad or missing rr hello");
  req = rtl_get_be32(hello + 4);
  resp = rtl_get_be32(hello + 8);
  announced = rtl_get_be32(hello + 12);
  if (req == 0 || resp == 0 || req > RTL_RR_MAX_SIZE || resp > RTL_RR_MAX_SIZE)
    fail(EXIT_NET, "hello", "rr hello sizes out of range (%u, %u)", req, resp);
  reqbuf = malloc(req);
  respbuf = malloc(resp);
  if (!reqbuf || !respbuf) fail(EXIT_NET, "memory", "out of memory");
  rtl_pattern_fill(respbuf, resp, 0);
  t0 = now_ns();
  while (read_all(fd, reqbuf, req)) {
    write_all(fd, respbuf, resp);
    served++;
  }
  ns = now_ns() - t0;
  close(fd);
  printf(
      "RESULT tool=rr-server status=%s bytes=%llu ns=%llu mbps=%.3f sha256=- "
      "transactions=%llu announced=%u request=%u response=%u\n",
      served == announced ? "ok" : "fail", (unsigned long long)(served * ((uint64_t)req + resp)),
      (unsigned long long)ns, mbps(served * ((uint64_t)req + resp), ns), (unsigned long long)served,
      announced, req, resp);
  free(reqbuf), free(respbuf);
  return served == announced ? EXIT_OK : EXIT_VERIFY;
}

static void usage(FILE *to) {
  fprintf(to,
          "Usage: rtl-traffic [OPTIONS] MODE ARGS\n"
          "  stream-send HOST PORT BYTES    send BYTES of the pattern, half-close, wait for EOF\n"
          "  stream-recv PORT               accept one connection and receive to EOF\n"
          "  stream-recv HOST PORT          connect and receive to EOF\n"
          "  rr HOST PORT REQ RESP COUNT    request/response latency (TCP_RR)\n"
          "  rr-server PORT                 serve one rr connection until EOF\n"
          "Options: --no-sha --no-verify --timeout SEC --ready-file F --expect-bytes N\n"
          "         --warmup N --cpu --write-size N --skip N (see the source header)\n"
          "Prints one line: RESULT tool=... status=... bytes=... ns=... mbps=... sha256=...\n");
}

int main(int argc, char **argv) {
  int i = 1;
  const char *mode;
  signal(SIGPIPE, SIG_IGN);
  for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
    if (!strcmp(argv[i], "--help")) {
      usage(stdout);
      return EXIT_OK;
    } else if (!strcmp(argv[i], "--no-sha")) {
      opt.no_sha = 1;
    } else if (!strcmp(argv[i], "--no-verify")) {
      opt.no_verify = 1;
    } else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
      uint64_t t = parse_u64(argv[++i], "--timeout");
      if (t == 0 || t > 86400) fail(EXIT_USAGE, "usage", "--timeout must be 1..86400 seconds");
      opt.timeout = (unsigned)t;
    } else if (!strcmp(argv[i], "--ready-file") && i + 1 < argc) {
      opt.ready_file = argv[++i];
    } else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) {
      opt.warmup = parse_u64(argv[++i], "--warmup");
      opt.have_warmup = 1;
    } else if (!strcmp(argv[i], "--skip") && i + 1 < argc) {
      opt.skip = parse_u64(argv[++i], "--skip");
    } else if (!strcmp(argv[i], "--cpu")) {
      opt.cpu = 1;
    } else if (!strcmp(argv[i], "--write-size") && i + 1 < argc) {
      uint64_t w = parse_u64(argv[++i], "--write-size");
      if (w == 0 || w > IO_SIZE) fail(EXIT_USAGE, "usage", "--write-size must be 1..%u", IO_SIZE);
      opt.write_size = (size_t)w;
    } else if (!strcmp(argv[i], "--expect-bytes") && i + 1 < argc) {
      opt.expect_bytes = parse_u64(argv[++i], "--expect-bytes");
      opt.have_expect = 1;
    } else {
      usage(stderr);
      fail(EXIT_USAGE, "usage", "unknown option or missing value: %s", argv[i]);
    }
  }
  if (i >= argc) {
    usage(stderr);
    fail(EXIT_USAGE, "usage", "no mode given");
  }
  mode = argv[i++];
  argc -= i, argv += i; /* argv now holds the mode's arguments */
  g_tool = mode;
  rtl_pattern_fill(g_pattern, RTL_PATTERN_PERIOD, 0);
  memcpy(g_pattern + RTL_PATTERN_PERIOD, g_pattern, RTL_PATTERN_PERIOD);
  snprintf(g_timeout_line, sizeof(g_timeout_line), "RESULT tool=%s status=timeout\n", mode);
  if (opt.timeout) {
    signal(SIGALRM, on_alarm);
    alarm(opt.timeout);
  }
  if (!strcmp(mode, "stream-send") && argc == 3)
    return stream_send(argv[0], parse_port(argv[1], 0), parse_u64(argv[2], "BYTES"));
  if (!strcmp(mode, "stream-recv") && argc == 1)
    return stream_recv(tcp_accept_one(parse_port(argv[0], 1)));
  if (!strcmp(mode, "stream-recv") && argc == 2)
    return stream_recv(tcp_connect(argv[0], parse_port(argv[1], 0)));
  if (!strcmp(mode, "rr") && argc == 5)
    return rr_client(argv[0], parse_port(argv[1], 0), parse_u64(argv[2], "REQ"),
                     parse_u64(argv[3], "RESP"), parse_u64(argv[4], "COUNT"));
  if (!strcmp(mode, "rr-server") && argc == 1) return rr_server(parse_port(argv[0], 1));
  g_tool = "rtl-traffic";
  usage(stderr);
  fail(EXIT_USAGE, "usage", "unknown mode or wrong number of arguments: %s", mode);
  return EXIT_USAGE;
}
