/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * craft-tool - frames with wrong checksums, sent through a raw socket, and the receiving end's
 * socket that must never see them: the lab case rx-bad.sh (scripts/run-lab builds it into the
 * overlay as /usr/bin/craft-tool). The partner sends; the DUT's stack must drop every bad frame
 * and deliver every good one interleaved with them.
 *
 *   craft-tool send IFNAME DST_MAC CLASS COUNT PORT WAIT_MS
 *       COUNT pairs of frames to DST_MAC from IFNAME's address, a good one then a bad one, 1 ms
 *       apart, from 10.9.0.2 to 10.9.0.1 (IPv4) or fd00:9::2 to fd00:9::1 (IPv6). CLASS:
 *         ip4-hdr  UDP over IPv4, the IPv4 header checksum wrong (the UDP checksum right)
 *         udp4     UDP over IPv4, the UDP checksum wrong (never 0: that means "none")
 *         udp6     UDP over IPv6, the UDP checksum wrong
 *         tcp4     a TCP SYN over IPv4, the TCP checksum wrong
 *         tcp6     a TCP SYN over IPv6, the TCP checksum wrong
 *       The good frame of pair i comes from source port 40000 + i, the bad one from 50000 + i; a
 *       UDP payload says "CONFORM G|B CLASS i". Then, for WAIT_MS, counts the TCP segments from
 *       DST_MAC that answer a SYN (SYN-ACK or RST, by the port they go to): answered_good=
 *       answered_bad= (distinct pairs). A stack that took a bad SYN answers it.
 *   craft-tool sink PORT MAX_MS
 *       a UDP socket and a listening TCP socket on [::]:PORT (IPv4 and IPv6) for MAX_MS: the
 *       "CONFORM" datagrams it receives, per class: <class>_good= <class>_bad=, other=
 *   craft-tool wire-send IFNAME DST_MAC KIND LEN COUNT
 *       COUNT frames of exactly LEN bytes (60..1514, no FCS) to DST_MAC, 1 ms apart, EtherType
 *       0x88b5 (IEEE 802 local experimental), the payload starting "WIRE" KIND and the frame's
 *       number. KIND is one letter naming what the receiving chip turns the frame into (F bad
 *       FCS, R runt, L too long: the DUT's faults select frames by length, docs/FAULTS.md len=),
 *       so that a runt's 28 bytes still say what it was.
 *   craft-tool wire-count IFNAME MAX_MS
 *       an AF_PACKET socket on IFNAME for MAX_MS: the "WIRE" frames it receives per kind
 *       (wire_F= wire_R= wire_L=) and their lengths (len_F= ...: the last one seen, 0 if none)
 * The sink and wire-count write to the file $LAB_READY names once listening. Output: one line
 * "RESULT tool=<mode> key=value ..." on stdout.
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

#include "lab-util.h" /* now_ns, die, g_alarm/arm_alarm, LAB_WRITE_READY */
#include "lab-csum.h" /* put16, sum16, fold */
#include "lab-packet.h" /* packet_open, packet_recv_incoming */

#define GOOD_PORT 40000u
#define BAD_PORT 50000u
#define MAX_PAIRS 1000u
#define PAYLOAD 64u

static const char *const kClasses[] = {"ip4-hdr", "udp4", "udp6", "tcp4", "tcp6"};
enum { kIp4Hdr, kUdp4, kUdp6, kTcp4, kTcp6, kNumClasses };

static void put32(uint8_t *p, uint32_t v) { put16(p, v >> 16), put16(p + 2, v); }

/* the frame of pair i of class cls (good or bad) into f; returns its length */
static size_t build(uint8_t *f, const uint8_t dst[6], const uint8_t src[6], int cls, uint32_t i,
                    int bad, uint32_t port) {
  const int v6 = cls == kUdp6 || cls == kTcp6, tcp = cls == kTcp4 || cls == kTcp6;
  const uint32_t sport = (bad ? BAD_PORT : GOOD_PORT) + i;
  uint8_t *ip = f + 14, *l4 = ip + (v6 ? 40 : 20);
  size_t l4len = tcp ? 20 : 8 + PAYLOAD;
  uint32_t s = 0;
  memset(f, 0, 14 + 40 + 8 + PAYLOAD + 20);
  memcpy(f, dst, 6), memcpy(f + 6, src, 6);
  put16(f + 12, v6 ? 0x86dd : 0x0800);
  if (v6) {
    static const uint8_t a[16] = {0xfd, 0, 0, 9, [15] = 2}, b[16] = {0xfd, 0, 0, 9, [15] = 1};
    ip[0] = 0x60;
    put16(ip + 4, (uint32_t)l4len);
    ip[6] = tcp ? 6 : 17, ip[7] = 64;
    memcpy(ip + 8, a, 16), memcpy(ip + 24, b, 16);
    s = sum16(ip + 8, 32, 0) + (uint32_t)l4len + ip[6];
  } else {
    ip[0] = 0x45;
    put16(ip + 2, (uint32_t)(20 + l4len));
    put16(ip + 4, 0x4000 + i * 2 + (uint32_t)bad);
    put16(ip + 6, 0x4000); /* DF */
    ip[8] = 64, ip[9] = tcp ? 6 : 17;
    put32(ip + 12, 0x0a090002), put32(ip + 16, 0x0a090001);
    put16(ip + 10, fold(sum16(ip, 20, 0)));
    if (bad && cls == kIp4Hdr) put16(ip + 10, (uint32_t)(fold(sum16(ip, 20, 0)) ^ 0x1234));
    s = sum16(ip + 12, 8, 0) + (uint32_t)l4len + ip[9];
  }
  put16(l4, sport), put16(l4 + 2, port);
  if (tcp) {
    put32(l4 + 4, 0x10000000u + i);
    l4[12] = 5 << 4, l4[13] = 0x02; /* SYN */
    put16(l4 + 14, 65535);
    put16(l4 + 16, fold(sum16(l4, l4len, s)));
  } else {
    put16(l4 + 4, (uint32_t)l4len);
    snprintf((char *)l4 + 8, PAYLOAD, "CONFORM %c %s %u", bad ? 'B' : 'G', kClasses[cls], i);
    uint16_t c = fold(sum16(l4, l4len, s));
    put16(l4 + 6, c ? c : 0xffff);
  }
  if (bad && cls != kIp4Hdr) { /* a wrong L4 checksum, never 0 (UDP: "no checksum") */
    const size_t at = tcp ? 16 : 6;
    uint32_t c = ((uint32_t)l4[at] << 8 | l4[at + 1]) ^ 0x0f0f;
    put16(l4 + at, c ? c : 0x0f0f);
  }
  return 14 + (size_t)(l4 - ip) + l4len;
}

static int parse_mac(const char *s, uint8_t mac[6]) {
  unsigned v[6];
  if (sscanf(s, "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6) return -1;
  for (int i = 0; i < 6; i++) mac[i] = (uint8_t)v[i];
  return 0;
}

#define WIRE_TYPE 0x88b5u
static const char kWireKinds[] = "FRL";

static int send_class(const char *ifname, const char *dst_s, const char *cls_s, uint32_t count,
                      uint32_t port, uint64_t wait_ms) {
  static uint8_t f[2048], answered[2][MAX_PAIRS];
  uint8_t dst[6], src[6];
  uint32_t sent = 0, ans[2] = {0, 0};
  uint64_t t0 = now_ns();
  int cls = -1;
  for (int c = 0; c < kNumClasses; c++)
    if (!strcmp(cls_s, kClasses[c])) cls = c;
  if (cls < 0 || count > MAX_PAIRS || parse_mac(dst_s, dst) != 0) die("send", "usage");
  const int fd = packet_open("send", ifname, src);
  for (uint32_t i = 0; i < count; i++) {
    for (int bad = 0; bad < 2; bad++) {
      size_t n = build(f, dst, src, cls, i, bad, port);
      if (send(fd, f, n, 0) == (ssize_t)n) sent++;
      usleep(1000);
    }
  }
  const uint64_t send_ms = (now_ns() - t0) / 1000000u;
  arm_alarm(wait_ms);
  for (ssize_t r; (r = packet_recv_incoming("send", fd, f, sizeof(f))) >= 0;) {
    if (r < 54 || memcmp(f + 6, dst, 6) != 0) continue;
    const uint32_t type = (uint32_t)f[12] << 8 | f[13];
    const uint8_t *l4;
    if (type == 0x0800 && f[23] == 6) l4 = f + 14 + (f[14] & 15) * 4;
    else if (type == 0x86dd && f[20] == 6 && r >= 74) l4 = f + 54;
    else continue;
    if (l4 + 14 > f + r || !(l4[13] & 0x06)) continue; /* SYN-ACK (SYN 0x02) or RST (0x04) */
    const uint32_t dport = (uint32_t)l4[2] << 8 | l4[3];
    for (int bad = 0; bad < 2; bad++) {
      const uint32_t base = bad ? BAD_PORT : GOOD_PORT;
      if (dport >= base && dport < base + count && !answered[bad][dport - base]) {
        answered[bad][dport - base] = 1;
        ans[bad]++;
      }
    }
  }
  printf("RESULT tool=craft class=%s status=ok sent=%u send_ms=%llu answered_good=%u "
         "answered_bad=%u\n", kClasses[cls], sent, (unsigned long long)send_ms, ans[0], ans[1]);
  return 0;
}

static int wire_send(const char *ifname, const char *dst_s, const char *kind, uint32_t len,
                     uint32_t count) {
  static uint8_t f[1514];
  uint8_t dst[6], src[6];
  uint32_t sent = 0;
  if (strlen(kind) != 1 || !strchr(kWireKinds, kind[0]) || len < 60 || len > sizeof(f) ||
      count > MAX_PAIRS || parse_mac(dst_s, dst) != 0)
    die("wire-send", "usage");
  const int fd = packet_open("wire-send", ifname, src);
  for (uint32_t i = 0; i < count; i++) {
    memset(f, 0, len);
    memcpy(f, dst, 6), memcpy(f + 6, src, 6);
    put16(f + 12, WIRE_TYPE);
    memcpy(f + 14, "WIRE", 4);
    f[18] = (uint8_t)kind[0];
    put16(f + 19, i);
    for (uint32_t k = 21; k < len; k++) f[k] = (uint8_t)(k + i);
    if (send(fd, f, len, 0) == (ssize_t)len) sent++;
    usleep(1000);
  }
  printf("RESULT tool=wire-send kind=%c len=%u status=ok sent=%u\n", kind[0], len, sent);
  return 0;
}

static int wire_count(const char *ifname, uint64_t max_ms) {
  static uint8_t f[16384];
  uint32_t got[sizeof(kWireKinds) - 1] = {0}, last_len[sizeof(kWireKinds) - 1] = {0}, other = 0;
  const int fd = packet_open("wire-count", ifname, NULL);
  LAB_WRITE_READY("wire-count", getenv("LAB_READY"), 0);
  arm_alarm(max_ms);
  for (ssize_t r; (r = packet_recv_incoming("wire-count", fd, f, sizeof(f))) >= 0;) {
    if (r < 19) continue;
    if (((uint32_t)f[12] << 8 | f[13]) != WIRE_TYPE || memcmp(f + 14, "WIRE", 4) != 0) continue;
    const char *k = f[18] ? strchr(kWireKinds, f[18]) : NULL;
    if (!k) {
      other++;
      continue;
    }
    got[k - kWireKinds]++;
    last_len[k - kWireKinds] = (uint32_t)r;
  }
  printf("RESULT tool=wire-count status=ok");
  for (size_t k = 0; k < sizeof(kWireKinds) - 1; k++)
    printf(" wire_%c=%u len_%c=%u", kWireKinds[k], got[k], kWireKinds[k], last_len[k]);
  printf(" other=%u\n", other);
  return 0;
}

static int sink(int port, uint64_t max_ms) {
  struct sockaddr_in6 a;
  uint32_t got[kNumClasses][2] = {{0}}, other = 0;
  char buf[2048];
  int u = socket(AF_INET6, SOCK_DGRAM, 0), t = socket(AF_INET6, SOCK_STREAM, 0), zero = 0, one = 1;
  memset(&a, 0, sizeof(a));
  a.sin6_family = AF_INET6;
  a.sin6_port = htons((uint16_t)port);
  a.sin6_addr = in6addr_any;
  if (u < 0 || t < 0) die("sink", "socket");
  setsockopt(u, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
  setsockopt(t, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
  setsockopt(t, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (bind(u, (struct sockaddr *)&a, sizeof(a)) != 0 || bind(t, (struct sockaddr *)&a, sizeof(a)) != 0 ||
      listen(t, 128) != 0)
    die("sink", "bind");
  LAB_WRITE_READY("sink", getenv("LAB_READY"), port);
  arm_alarm(max_ms);
  while (!g_alarm) {
    ssize_t r = recv(u, buf, sizeof(buf) - 1, 0);
    char gb, cls[16];
    unsigned i;
    int c = -1;
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) die("sink", "recv");
    buf[r] = 0;
    if (sscanf(buf, "CONFORM %c %15s %u", &gb, cls, &i) == 3 && (gb == 'G' || gb == 'B'))
      for (int k = 0; k < kNumClasses; k++)
        if (!strcmp(cls, kClasses[k])) c = k;
    if (c < 0) other++;
    else got[c][gb == 'B']++;
  }
  printf("RESULT tool=sink status=ok");
  for (int k = 0; k < kTcp4; k++) /* the UDP classes (a SYN never reaches recv()) */
    printf(" %s_good=%u %s_bad=%u", kClasses[k], got[k][0], kClasses[k], got[k][1]);
  printf(" other=%u\n", other);
  return 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc == 8 && !strcmp(argv[1], "send"))
    return send_class(argv[2], argv[3], argv[4], (uint32_t)strtoul(argv[5], NULL, 10),
                      (uint32_t)strtoul(argv[6], NULL, 10), strtoull(argv[7], NULL, 10));
  if (argc == 4 && !strcmp(argv[1], "sink")) return sink(atoi(argv[2]), strtoull(argv[3], NULL, 10));
  if (argc == 7 && !strcmp(argv[1], "wire-send"))
    return wire_send(argv[2], argv[3], argv[4], (uint32_t)strtoul(argv[5], NULL, 10),
                     (uint32_t)strtoul(argv[6], NULL, 10));
  if (argc == 4 && !strcmp(argv[1], "wire-count"))
    return wire_count(argv[2], strtoull(argv[3], NULL, 10));
  fprintf(stderr, "usage: craft-tool send IFNAME DST_MAC CLASS COUNT PORT WAIT_MS | sink PORT MAX_MS |\n"
                  "       wire-send IFNAME DST_MAC F|R|L LEN COUNT | wire-count IFNAME MAX_MS\n");
  return 2;
}
