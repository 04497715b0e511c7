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
 *   lab-tool udp-send HOST PORT COUNT SIZE [BATCH] COUNT UDP datagrams of SIZE bytes (>= 8),
 *                                                  each carrying a sequence number 0..COUNT-1,
 *                                                  sent as fast as the socket takes them;
 *                                                  BATCH > 1: BATCH datagrams per sendmsg()
 *                                                  with UDP_SEGMENT (GSO, segmented by the
 *                                                  guest kernel: far less CPU per datagram)
 *   lab-tool udp-recv PORT COUNT MAX_MS            receive them until COUNT arrived, 500 ms
 *                                                  without one, or MAX_MS; checks the order:
 *                                                  ooo= datagrams that arrived after a higher
 *                                                  sequence number (a reordering NIC), dup=,
 *                                                  lost=, max_back= (largest distance behind
 *                                                  the highest number seen), first_ooo=SEQ@HIGH
 *   lab-tool qdisc-drops IFNAME                    print the packets every qdisc of IFNAME (in
 *                                                  this network namespace) dropped: the sum of
 *                                                  TCA_STATS2/TCA_STATS_QUEUE drops over its
 *                                                  qdiscs (rtnetlink RTM_GETQDISC dump). Debian
 *                                                  kernels default to fq_codel, whose CoDel
 *                                                  drops at dequeue an skb TCP already counts
 *                                                  as sent: a hole no NIC counter shows
 * Environment: LAB_CHUNK=N (rr-server writes each response in N-byte pieces), LAB_RCVBUF=N
 * (rr client: SO_RCVBUF before the transfer, i.e. a small receive window), LAB_SWEEP=STEP:SPAN
 * (rr client: before its k-th read() it busy-waits (k * STEP) mod SPAN ns of virtual time, so
 * the moments its window updates reach the server sweep across SPAN in STEP increments
 * instead of locking to one phase; see guest-tests/lab/txpoll.sh).
 * Servers write the port to READY_FILE when the environment variable LAB_READY names one.
 * Output: one line "RESULT tool=<mode> key=value ..." on stdout.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
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

#include "lab-util.h" /* now_ns, die, g_alarm/arm_alarm, UDP_MAGIC */

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
  LAB_WRITE_READY(tool, ready, port);
  do fd = accept(lfd, NULL, NULL);
  while (fd < 0 && errno == EINTR && !g_alarm);
  if (fd < 0) die(tool, "accept");
  close(lfd);
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  return fd;
}

/* LAB_SWEEP=STEP:SPAN: the phase sweep of read_full (0:0 = off) */
static uint64_t g_sweep_step, g_sweep_span, g_sweep_k;

static void sweep_from_env(void) {
  const char *s = getenv("LAB_SWEEP");
  char *end;
  if (!s || !*s) return;
  g_sweep_step = strtoull(s, &end, 10);
  if (*end != ':') die("rr", "LAB_SWEEP is STEP:SPAN (ns)");
  g_sweep_span = strtoull(end + 1, &end, 10);
  if (*end || g_sweep_span > 100000000u) die("rr", "LAB_SWEEP span: at most 100 ms");
}

/* busy-wait the next delay of the sweep (virtual time: deterministic under -icount) */
static void sweep_wait(void) {
  uint64_t d, t0;
  if (!g_sweep_span) return;
  d = (g_sweep_k++ * g_sweep_step) % g_sweep_span;
  t0 = now_ns();
  while (now_ns() - t0 < d) {
  }
}

/* 1 complete, 0 EOF before the first byte, -1 interrupted by the alarm / error */
static int read_full(int fd, uint8_t *p, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r;
    sweep_wait();
    r = read(fd, p + got, n - got);
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
  sweep_from_env();
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

/* ---- UDP sequence stream: order check ---------------------------------------------------- */


static int udp_socket(const char *tool) {
  int fd = socket(AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) die(tool, "socket");
  return fd;
}

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103 /* linux/udp.h */
#endif

static int udp_send(const char *host, int port, uint64_t count, uint32_t size, uint32_t batch) {
  static uint8_t buf[65536];
  struct sockaddr_in a;
  uint64_t seq, retries = 0, t0, ns;
  int fd = udp_socket("udp-send");
  if (size < 8 || size > 1472) die("udp-send", "size"); /* one frame each at MTU 1500 */
  if (!batch || batch > 64 || (uint64_t)batch * size > 65000) die("udp-send", "batch");
  memset(&a, 0, sizeof(a));
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  if (inet_pton(AF_INET, host, &a.sin_addr) != 1) die("udp-send", "address");
  { /* IP_RECVERR: a datagram the qdisc drops fails sendto() with ENOBUFS (instead of
       vanishing silently), so it is sent again below */
    int one = 1;
    setsockopt(fd, IPPROTO_IP, IP_RECVERR, &one, sizeof(one));
  }
  if (batch > 1) {
    int gso = (int)size;
    if (setsockopt(fd, IPPROTO_UDP, UDP_SEGMENT, &gso, sizeof(gso)) != 0) die("udp-send", "UDP_SEGMENT");
  }
  memset(buf, 0x3c, sizeof(buf));
  t0 = now_ns();
  for (seq = 0; seq < count;) {
    uint32_t n = count - seq < batch ? (uint32_t)(count - seq) : batch, i;
    for (i = 0; i < n; i++) {
      put32(buf + i * size, UDP_MAGIC);
      put32(buf + i * size + 4, (uint32_t)(seq + i));
    }
    /* the qdisc or the device queue may be full: wait a little and send the same numbers
       again, so every number leaves exactly once and in order */
    while (sendto(fd, buf, (size_t)n * size, 0, (struct sockaddr *)&a, sizeof(a)) !=
           (ssize_t)((size_t)n * size)) {
      if (errno != ENOBUFS && errno != EAGAIN && errno != EINTR) die("udp-send", "sendto");
      retries++;
      usleep(100);
    }
    seq += n;
  }
  ns = now_ns() - t0;
  close(fd);
  printf("RESULT tool=udp-send status=ok sent=%llu size=%u batch=%u retries=%llu ns=%llu\n",
         (unsigned long long)count, size, batch, (unsigned long long)retries,
         (unsigned long long)ns);
  return 0;
}

static int udp_recv(int port, uint64_t count, uint64_t max_ms) {
  static uint8_t buf[65536];
  struct sockaddr_in a;
  struct timeval tv = {0, 500000};
  const char *ready = getenv("LAB_READY");
  uint8_t *seen = calloc(count ? count : 1, 1);
  uint64_t got = 0, unique = 0, ooo = 0, dup = 0, bad = 0, max_back = 0, t0 = 0, ns = 0;
  int64_t high = -1, first_seq = -1, first_high = -1, first_lost;
  int fd = udp_socket("udp-recv"), rb = 8 << 20, timed_out = 0;
  if (!seen) die("udp-recv", "memory");
  memset(&a, 0, sizeof(a));
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  /* root: a receive buffer large enough that the socket never drops (loss is not the
     question here, order is) */
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rb, sizeof(rb)) != 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rb, sizeof(rb));
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  if (bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0) die("udp-recv", "bind");
  LAB_WRITE_READY("udp-recv", ready, port);
  arm_alarm(max_ms);
  while (unique < count && !g_alarm) {
    ssize_t r = recv(fd, buf, sizeof(buf), 0);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (got) { /* 500 ms without a datagram after the stream started: the rest is lost */
        timed_out = 1;
        break;
      }
      continue;
    }
    if (r < 0) die("udp-recv", "recv");
    if (!got) t0 = now_ns();
    got++;
    ns = now_ns() - t0;
    if (r < 8 || get32(buf) != UDP_MAGIC || get32(buf + 4) >= count) {
      bad++;
      continue;
    }
    int64_t seq = get32(buf + 4);
    if (seen[seq]) {
      dup++;
      continue;
    }
    seen[seq] = 1;
    unique++;
    if (seq < high) {
      ooo++;
      if ((uint64_t)(high - seq) > max_back) max_back = (uint64_t)(high - seq);
      if (first_seq < 0) first_seq = seq, first_high = high;
    } else {
      high = seq;
    }
  }
  arm_alarm(0);
  close(fd);
  for (first_lost = 0; first_lost < (int64_t)count && seen[first_lost]; first_lost++) {
  }
  printf("RESULT tool=udp-recv status=%s expected=%llu received=%llu unique=%llu ooo=%llu "
         "dup=%llu bad=%llu lost=%llu first_lost=%lld max_back=%llu first_ooo=%lld@%lld "
         "ns=%llu\n",
         unique == count ? "ok" : (timed_out ? "incomplete" : "time"), (unsigned long long)count,
         (unsigned long long)got, (unsigned long long)unique, (unsigned long long)ooo,
         (unsigned long long)dup, (unsigned long long)bad, (unsigned long long)(count - unique),
         (long long)(first_lost < (int64_t)count ? first_lost : -1), (unsigned long long)max_back, (long long)first_seq, (long long)first_high,
         (unsigned long long)ns);
  free(seen);
  return 0;
}

/* Sum of the drops of every qdisc attached to ifname (root and children), from an rtnetlink
 * RTM_GETQDISC dump: TCA_STATS2 -> TCA_STATS_QUEUE (struct gnet_stats_queue), else the
 * legacy TCA_STATS (struct tc_stats). Prints "<drops>"; exit 1 on any netlink error. */
static int qdisc_drops(const char *ifname) {
  unsigned ifindex = if_nametoindex(ifname);
  if (!ifindex) die("qdisc-drops", "no such interface");
  int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
  if (fd < 0) die("qdisc-drops", "socket(AF_NETLINK)");
  struct {
    struct nlmsghdr nh;
    struct tcmsg tc;
  } req;
  memset(&req, 0, sizeof(req));
  req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
  req.nh.nlmsg_type = RTM_GETQDISC;
  req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
  req.nh.nlmsg_seq = 1;
  req.tc.tcm_family = AF_UNSPEC;
  if (send(fd, &req, req.nh.nlmsg_len, 0) < 0) die("qdisc-drops", "send(RTM_GETQDISC)");
  static uint8_t buf[1 << 16];
  uint64_t drops = 0;
  for (;;) {
    ssize_t n = recv(fd, buf, sizeof(buf), 0);
    if (n < 0) die("qdisc-drops", "recv");
    for (struct nlmsghdr *nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, (size_t)n); nh = NLMSG_NEXT(nh, n)) {
      if (nh->nlmsg_type == NLMSG_DONE) {
        close(fd);
        printf("%llu\n", (unsigned long long)drops);
        return 0;
      }
      if (nh->nlmsg_type == NLMSG_ERROR) die("qdisc-drops", "netlink error");
      if (nh->nlmsg_type != RTM_NEWQDISC) continue;
      struct tcmsg *tc = NLMSG_DATA(nh);
      if ((unsigned)tc->tcm_ifindex != ifindex) continue;
      int len = (int)nh->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*tc));
      uint64_t legacy = 0, queue = 0;
      int have_queue = 0;
      for (struct rtattr *a = (struct rtattr *)((uint8_t *)tc + NLMSG_ALIGN(sizeof(*tc)));
           RTA_OK(a, len); a = RTA_NEXT(a, len)) {
        if (a->rta_type == TCA_STATS && RTA_PAYLOAD(a) >= sizeof(struct tc_stats)) {
          struct tc_stats st;
          memcpy(&st, RTA_DATA(a), sizeof(st));
          legacy = st.drops;
        } else if (a->rta_type == TCA_STATS2) {
          int l2 = (int)RTA_PAYLOAD(a);
          for (struct rtattr *b = RTA_DATA(a); RTA_OK(b, l2); b = RTA_NEXT(b, l2)) {
            if (b->rta_type == TCA_STATS_QUEUE && RTA_PAYLOAD(b) >= sizeof(struct gnet_stats_queue)) {
              struct gnet_stats_queue q;
              memcpy(&q, RTA_DATA(b), sizeof(q));
              queue = q.drops;
              have_queue = 1;
            }
          }
        }
      }
      drops += have_queue ? queue : legacy;
    }
  }
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
  if ((argc == 6 || argc == 7) && !strcmp(argv[1], "udp-send"))
    return udp_send(argv[2], (int)num(argv[3]), num(argv[4]), (uint32_t)num(argv[5]),
                    argc == 7 ? (uint32_t)num(argv[6]) : 1);
  if (argc == 5 && !strcmp(argv[1], "udp-recv"))
    return udp_recv((int)num(argv[2]), num(argv[3]), num(argv[4]));
  if (argc == 3 && !strcmp(argv[1], "qdisc-drops")) return qdisc_drops(argv[2]);
  fprintf(stderr,
          "usage: lab-tool now | rr-server PORT | rr HOST PORT REQ RESP COUNT MAX_MS [SLOW_MS] |\n"
          "       send HOST PORT MAX_MS | recv PORT MAX_MS |\n"
          "       udp-send HOST PORT COUNT SIZE [BATCH] | udp-recv PORT COUNT MAX_MS |\n"
          "       qdisc-drops IFNAME\n");
  return 2;
}
