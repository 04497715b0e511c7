/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify-tool - traffic whose every byte the receiver checks, over IPv4 or IPv6, and a VLAN tag
 * capture: the conformance cases of the closed-world lab (ipv6.sh, vlan.sh) run it at both ends
 * (scripts/run-lab builds it into the overlay as /usr/bin/verify-tool). Times are CLOCK_MONOTONIC,
 * virtual under -icount; every mode is bounded in (virtual) time.
 *
 *   verify-tool tcp-send HOST PORT BYTES MAX_MS   connect to HOST (an IPv4 or IPv6 literal), write
 *                                                 BYTES of the pattern, close
 *   verify-tool tcp-recv PORT BYTES MAX_MS        accept one connection (IPv4 or IPv6), read until
 *                                                 EOF or MAX_MS, compare every byte with the
 *                                                 pattern: bytes= bad= (bytes that differ)
 *                                                 first_bad= (offset, -1: none) complete=0|1
 *   verify-tool udp-send HOST PORT COUNT SIZE     COUNT datagrams of SIZE (>= 8) bytes: sequence
 *                                                 number, then the pattern of that number; one
 *                                                 every 100 us (no socket buffer overflows)
 *   verify-tool udp-recv PORT COUNT MAX_MS        receive them until COUNT arrived, 500 ms without
 *                                                 one, or MAX_MS: got= bad= (payload or size
 *                                                 wrong) dup= lost=
 *   verify-tool tcp-send-frags HOST PORT BYTES PIECE MAX_MS
 *                                                 as tcp-send, but every write is a MSG_ZEROCOPY
 *                                                 sendmsg of 64 PIECE-byte pieces, each in a page
 *                                                 of its own: the stack cannot merge them, so
 *                                                 each TCP skb carries up to MAX_SKB_FRAGS small
 *                                                 fragments, one TX descriptor each (the
 *                                                 tx-ring-full case); sends= completed= (the
 *                                                 kernel's zerocopy notifications) copied= (sends
 *                                                 the kernel copied instead)
 *   verify-tool vlan-cap IFNAME PEER_MAC MAX_MS   every frame from PEER_MAC received on IFNAME
 *                                                 for MAX_MS (AF_PACKET): its 802.1Q TCI from
 *                                                 PACKET_AUXDATA (the tag the receiving driver
 *                                                 reported, or that the stack took out of the
 *                                                 frame) or from an in-band tag: tagged=
 *                                                 untagged= tcis=TCI:N,... (hex, first 8 seen)
 * Servers and the capture write their port (0 for the capture) to the file $LAB_READY names.
 * Output: one line "RESULT tool=<mode> key=value ..." on stdout.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/errqueue.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "lab-util.h" /* now_ns, die, g_alarm/arm_alarm, LAB_WRITE_READY */
#include "lab-packet.h" /* packet_open */

#define CHUNK (64u << 10)
#define MAX_DGRAM 9000u

/* the stream's byte at offset off: a shifted or reordered span differs (period 2^32) */
static uint8_t pattern(uint64_t off) { return (uint8_t)(off * 131u + (off >> 10) * 7u + 0x5du); }
/* byte i of datagram seq's payload after its 4-byte sequence number */
static uint8_t dgram_byte(uint32_t seq, uint32_t i) { return (uint8_t)(seq * 31u + i * 7u + 3u); }

/* HOST, an IPv4 or IPv6 literal -> sockaddr; returns its length */
static socklen_t parse_host(const char *tool, const char *host, int port,
                            struct sockaddr_storage *ss) {
  memset(ss, 0, sizeof(*ss));
  if (strchr(host, ':')) {
    struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
    a->sin6_family = AF_INET6;
    a->sin6_port = htons((uint16_t)port);
    if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1) die(tool, "address");
    return sizeof(*a);
  }
  struct sockaddr_in *a = (struct sockaddr_in *)ss;
  a->sin_family = AF_INET;
  a->sin_port = htons((uint16_t)port);
  if (inet_pton(AF_INET, host, &a->sin_addr) != 1) die(tool, "address");
  return sizeof(*a);
}

/* a socket of type on [::]:port that takes IPv4 (mapped) and IPv6 */
static int bind_any(const char *tool, int type, int port) {
  struct sockaddr_in6 a;
  int fd = socket(AF_INET6, type, 0), one = 1, zero = 0;
  memset(&a, 0, sizeof(a));
  a.sin6_family = AF_INET6;
  a.sin6_port = htons((uint16_t)port);
  a.sin6_addr = in6addr_any;
  if (fd < 0) die(tool, "socket");
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
  if (bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0) die(tool, "bind");
  return fd;
}

static int tcp_send(const char *host, int port, uint64_t bytes, uint64_t max_ms) {
  static uint8_t buf[CHUNK];
  struct sockaddr_storage ss;
  socklen_t len = parse_host("tcp-send", host, port, &ss);
  uint64_t sent = 0;
  int fd = socket(ss.ss_family, SOCK_STREAM, 0);
  if (fd < 0) die("tcp-send", "socket");
  arm_alarm(max_ms);
  if (connect(fd, (struct sockaddr *)&ss, len) != 0) die("tcp-send", "connect");
  while (sent < bytes && !g_alarm) {
    size_t n = bytes - sent < CHUNK ? (size_t)(bytes - sent) : CHUNK, done = 0;
    for (size_t i = 0; i < n; i++) buf[i] = pattern(sent + i);
    while (done < n) {
      ssize_t w = write(fd, buf + done, n - done);
      if (w < 0 && errno == EINTR && !g_alarm) continue;
      if (w <= 0) break;
      done += (size_t)w;
    }
    sent += done;
    if (done < n) break;
  }
  close(fd);
  printf("RESULT tool=tcp-send status=%s bytes=%llu\n", sent == bytes ? "ok" : "short",
         (unsigned long long)sent);
  return sent == bytes ? 0 : 1;
}

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY 0x4000000
#endif
#define ZC_PAGE 4096u
#define ZC_PIECES 64u /* pieces per sendmsg: more than MAX_SKB_FRAGS (17), a page each */
#define ZC_AREAS 8u   /* sendmsg calls in flight before their pages are written again */

/* Collect MSG_ZEROCOPY completions from the socket's error queue (waiting up to wait_ms for the
 * first): *done counts the sendmsg calls whose pages the kernel released, *copied those it had
 * copied instead (SO_EE_CODE_ZEROCOPY_COPIED). Each notification covers calls ee_info..ee_data. */
static int zc_reap(int fd, uint32_t *done, uint64_t *copied, int wait_ms) {
  struct pollfd p = {fd, 0, 0}; /* POLLERR is reported whatever the events */
  if (wait_ms && poll(&p, 1, wait_ms) < 0 && errno != EINTR) return -1;
  for (;;) {
    char ctl[256];
    struct msghdr m;
    memset(&m, 0, sizeof(m));
    m.msg_control = ctl;
    m.msg_controllen = sizeof(ctl);
    if (recvmsg(fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
      return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
      struct sock_extended_err e;
      if (!(c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVERR) &&
          !(c->cmsg_level == SOL_IPV6 && c->cmsg_type == IPV6_RECVERR))
        continue;
      memcpy(&e, CMSG_DATA(c), sizeof(e));
      if (e.ee_origin != SO_EE_ORIGIN_ZEROCOPY) continue;
      *done += e.ee_data - e.ee_info + 1;
      if (e.ee_code & SO_EE_CODE_ZEROCOPY_COPIED) *copied += e.ee_data - e.ee_info + 1;
    }
  }
}

static int tcp_send_frags(const char *host, int port, uint64_t bytes, uint32_t piece,
                          uint64_t max_ms) {
  struct sockaddr_storage ss;
  socklen_t len = parse_host("tcp-send-frags", host, port, &ss);
  const size_t area = (size_t)ZC_PIECES * ZC_PAGE;
  uint8_t *mem = aligned_alloc(ZC_PAGE, ZC_AREAS * area);
  uint64_t sent = 0, copied = 0;
  uint32_t calls = 0, done = 0;
  int fd = socket(ss.ss_family, SOCK_STREAM, 0), one = 1, err = 0;
  if (!mem || piece == 0 || piece > ZC_PAGE) die("tcp-send-frags", "usage");
  if (fd < 0) die("tcp-send-frags", "socket");
  if (setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)) != 0) die("tcp-send-frags", "SO_ZEROCOPY");
  arm_alarm(max_ms);
  if (connect(fd, (struct sockaddr *)&ss, len) != 0) die("tcp-send-frags", "connect");
  while (sent < bytes && !g_alarm && !err) {
    /* the pages of call `calls` were last given to call calls - ZC_AREAS: wait until the
       kernel has released that one (completions arrive in order for TCP) */
    while (calls >= done + ZC_AREAS && !g_alarm && !err) err = zc_reap(fd, &done, &copied, 100) < 0;
    if (g_alarm || err) break;
    uint8_t *a = mem + (size_t)(calls % ZC_AREAS) * area;
    struct iovec iov[ZC_PIECES];
    struct msghdr m;
    size_t n = 0, k = 0;
    for (; k < ZC_PIECES && sent + n < bytes; k++) {
      size_t l = bytes - sent - n < piece ? (size_t)(bytes - sent - n) : piece;
      for (size_t i = 0; i < l; i++) a[k * ZC_PAGE + i] = pattern(sent + n + i);
      iov[k].iov_base = a + k * ZC_PAGE;
      iov[k].iov_len = l;
      n += l;
    }
    memset(&m, 0, sizeof(m));
    m.msg_iov = iov;
    m.msg_iovlen = k;
    ssize_t w = sendmsg(fd, &m, MSG_ZEROCOPY);
    if (w < 0 && (errno == ENOBUFS || errno == EINTR) && !g_alarm) {
      /* ENOBUFS: the notifications' socket memory is full until they are read */
      err = zc_reap(fd, &done, &copied, 10) < 0;
      continue;
    }
    if (w <= 0) break;
    calls++;
    sent += (uint64_t)w; /* a short write: the rest is written again from the next area */
    err = zc_reap(fd, &done, &copied, 0) < 0;
  }
  for (int i = 0; i < 50 && done < calls && !err; i++) err = zc_reap(fd, &done, &copied, 100) < 0;
  close(fd);
  printf("RESULT tool=tcp-send-frags status=%s bytes=%llu piece=%u sends=%u completed=%u "
         "copied=%llu\n",
         sent == bytes ? "ok" : "short", (unsigned long long)sent, piece, calls, done,
         (unsigned long long)copied);
  free(mem);
  return sent == bytes ? 0 : 1;
}

static int tcp_recv(int port, uint64_t bytes, uint64_t max_ms) {
  static uint8_t buf[CHUNK];
  uint64_t got = 0, bad = 0, t0;
  long long first_bad = -1;
  int lfd = bind_any("tcp-recv", SOCK_STREAM, port), fd;
  if (listen(lfd, 4) != 0) die("tcp-recv", "listen");
  LAB_WRITE_READY("tcp-recv", getenv("LAB_READY"), port);
  arm_alarm(max_ms);
  do fd = accept(lfd, NULL, NULL);
  while (fd < 0 && errno == EINTR && !g_alarm);
  if (fd < 0) die("tcp-recv", "accept");
  t0 = now_ns();
  for (;;) {
    ssize_t r = read(fd, buf, sizeof(buf));
    if (r < 0 && errno == EINTR && !g_alarm) continue;
    if (r <= 0) break;
    for (ssize_t i = 0; i < r; i++) {
      if (buf[i] != pattern(got + (uint64_t)i)) {
        if (first_bad < 0) first_bad = (long long)(got + (uint64_t)i);
        bad++;
      }
    }
    got += (uint64_t)r;
  }
  printf("RESULT tool=tcp-recv status=ok bytes=%llu bad=%llu first_bad=%lld complete=%d ms=%llu\n",
         (unsigned long long)got, (unsigned long long)bad, first_bad, got == bytes && !bad,
         (unsigned long long)((now_ns() - t0) / 1000000u));
  return 0;
}

static int udp_send(const char *host, int port, uint32_t count, uint32_t size) {
  static uint8_t buf[MAX_DGRAM];
  struct sockaddr_storage ss;
  socklen_t len = parse_host("udp-send", host, port, &ss);
  uint32_t sent = 0;
  int fd = socket(ss.ss_family, SOCK_DGRAM, 0);
  if (fd < 0 || size < 8 || size > MAX_DGRAM) die("udp-send", "usage");
  for (uint32_t seq = 0; seq < count; seq++) {
    buf[0] = (uint8_t)(seq >> 24), buf[1] = (uint8_t)(seq >> 16), buf[2] = (uint8_t)(seq >> 8);
    buf[3] = (uint8_t)seq;
    for (uint32_t i = 4; i < size; i++) buf[i] = dgram_byte(seq, i);
    if (sendto(fd, buf, size, 0, (struct sockaddr *)&ss, len) == (ssize_t)size) sent++;
    usleep(100);
  }
  printf("RESULT tool=udp-send status=ok sent=%u\n", sent);
  return 0;
}

static int udp_recv(int port, uint32_t count, uint64_t max_ms) {
  static uint8_t buf[MAX_DGRAM + 1];
  uint8_t *seen = calloc(count ? count : 1, 1);
  uint32_t got = 0, bad = 0, dup = 0;
  int fd = bind_any("udp-recv", SOCK_DGRAM, port), big = 8 << 20;
  struct timeval tv = {0, 500000};
  if (!seen) die("udp-recv", "memory");
  setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big));
  LAB_WRITE_READY("udp-recv", getenv("LAB_READY"), port);
  arm_alarm(max_ms);
  for (int first = 1; got + bad < count && !g_alarm; first = 0) {
    ssize_t r;
    if (!first) setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    r = recv(fd, buf, sizeof(buf), 0);
    if (r < 0 && errno == EINTR && !g_alarm) continue;
    if (r < 0) break;
    uint32_t seq = r >= 4 ? (uint32_t)buf[0] << 24 | (uint32_t)buf[1] << 16 |
                                (uint32_t)buf[2] << 8 | buf[3]
                          : UINT32_MAX;
    int ok = seq < count;
    for (ssize_t i = 4; ok && i < r; i++) ok = buf[i] == dgram_byte(seq, (uint32_t)i);
    if (!ok) {
      bad++;
    } else if (seen[seq]) {
      dup++;
    } else {
      seen[seq] = 1;
      got++;
    }
  }
  printf("RESULT tool=udp-recv status=ok got=%u bad=%u dup=%u lost=%u\n", got, bad, dup,
         count - got);
  return 0;
}

static int parse_mac(const char *s, uint8_t mac[6]) {
  unsigned v[6];
  if (sscanf(s, "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6) return -1;
  for (int i = 0; i < 6; i++) mac[i] = (uint8_t)v[i];
  return 0;
}

static int vlan_cap(const char *ifname, const char *peer, uint64_t max_ms) {
  static uint8_t buf[16384];
  uint8_t mac[6];
  uint16_t tci[8];
  uint64_t n[8], tagged = 0, untagged = 0;
  unsigned kinds = 0;
  int one = 1;
  if (parse_mac(peer, mac) != 0) die("vlan-cap", "usage");
  const int fd = packet_open("vlan-cap", ifname, NULL);
  if (setsockopt(fd, SOL_PACKET, PACKET_AUXDATA, &one, sizeof(one)) != 0) die("vlan-cap", "auxdata");
  LAB_WRITE_READY("vlan-cap", getenv("LAB_READY"), 0);
  arm_alarm(max_ms);
  while (!g_alarm) {
    union {
      struct cmsghdr h;
      char b[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
    } ctl;
    struct sockaddr_ll from;
    struct iovec iov = {buf, sizeof(buf)};
    struct msghdr m = {&from, sizeof(from), &iov, 1, &ctl, sizeof(ctl), 0};
    ssize_t r = recvmsg(fd, &m, 0);
    int have = 0;
    uint16_t t = 0;
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) die("vlan-cap", "recv");
    if (from.sll_pkttype == PACKET_OUTGOING || r < 14 || memcmp(buf + 6, mac, 6) != 0) continue;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
      if (c->cmsg_level != SOL_PACKET || c->cmsg_type != PACKET_AUXDATA) continue;
      struct tpacket_auxdata aux;
      memcpy(&aux, CMSG_DATA(c), sizeof(aux));
      if (aux.tp_status & TP_STATUS_VLAN_VALID) have = 1, t = aux.tp_vlan_tci;
    }
    if (!have && r >= 18 && buf[12] == 0x81 && buf[13] == 0x00)
      have = 1, t = (uint16_t)(buf[14] << 8 | buf[15]);
    if (!have) {
      untagged++;
      continue;
    }
    tagged++;
    unsigned k = 0;
    while (k < kinds && tci[k] != t) k++;
    if (k == kinds && kinds < 8) tci[kinds] = t, n[kinds++] = 0;
    if (k < kinds) n[k]++;
  }
  printf("RESULT tool=vlan-cap status=ok tagged=%llu untagged=%llu tcis=", (unsigned long long)tagged,
         (unsigned long long)untagged);
  for (unsigned k = 0; k < kinds; k++)
    printf("%s0x%04x:%llu", k ? "," : "", tci[k], (unsigned long long)n[k]);
  printf("%s\n", kinds ? "" : "none");
  return 0;
}

static void usage(void) {
  fprintf(stderr,
          "usage: verify-tool tcp-send HOST PORT BYTES MAX_MS | tcp-recv PORT BYTES MAX_MS |\n"
          "       tcp-send-frags HOST PORT BYTES PIECE MAX_MS |\n"
          "       udp-send HOST PORT COUNT SIZE | udp-recv PORT COUNT MAX_MS |\n"
          "       vlan-cap IFNAME PEER_MAC MAX_MS\n");
  exit(2);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc < 2) usage();
  const char *m = argv[1];
  if (!strcmp(m, "tcp-send") && argc == 6)
    return tcp_send(argv[2], atoi(argv[3]), strtoull(argv[4], NULL, 10), strtoull(argv[5], NULL, 10));
  if (!strcmp(m, "tcp-send-frags") && argc == 7)
    return tcp_send_frags(argv[2], atoi(argv[3]), strtoull(argv[4], NULL, 10),
                          (uint32_t)strtoul(argv[5], NULL, 10), strtoull(argv[6], NULL, 10));
  if (!strcmp(m, "tcp-recv") && argc == 5)
    return tcp_recv(atoi(argv[2]), strtoull(argv[3], NULL, 10), strtoull(argv[4], NULL, 10));
  if (!strcmp(m, "udp-send") && argc == 6)
    return udp_send(argv[2], atoi(argv[3]), (uint32_t)strtoul(argv[4], NULL, 10),
                    (uint32_t)strtoul(argv[5], NULL, 10));
  if (!strcmp(m, "udp-recv") && argc == 5)
    return udp_recv(atoi(argv[2]), (uint32_t)strtoul(argv[3], NULL, 10), strtoull(argv[4], NULL, 10));
  if (!strcmp(m, "vlan-cap") && argc == 5)
    return vlan_cap(argv[2], argv[3], strtoull(argv[4], NULL, 10));
  usage();
  return 2;
}
