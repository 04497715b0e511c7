/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * filter-tool - the receive address filter seen from both ends: the lab case rx-filter.sh
 * (scripts/run-lab builds it into the overlay as /usr/bin/filter-tool). The partner sends UDP
 * over IPv4 to chosen destination MAC addresses through a raw socket; the DUT counts what its
 * driver handed to the stack (an AF_PACKET socket sees every frame the stack got, for this host
 * or not) and what reached a socket.
 *
 *   filter-tool send IFNAME DST_MAC DST_IP PORT TAG COUNT
 *       COUNT UDP datagrams from IFNAME's address and 10.9.0.2 to DST_MAC / DST_IP:PORT, 1 ms
 *       apart, payload "FILTER TAG i": sent=
 *   filter-tool capture IFNAME MAX_MS
 *       for MAX_MS, every received frame on IFNAME whose UDP payload starts "FILTER ": counts
 *       per TAG (<tag>=N, the first 16 tags)
 *   filter-tool sink PORT MAX_MS [GROUP...]
 *       a UDP socket on 0.0.0.0:PORT that joined the IPv4 multicast GROUPs on 10.9.0.1: the
 *       "FILTER" datagrams it got per TAG (<tag>=N)
 *   filter-tool mcast-free IFNAME
 *       an IPv4 group 239.1.2.N (N = 1..250) whose Ethernet address 01:00:5e:01:02:N falls on a
 *       bit of the 64-bit multicast hash filter (r8169 rtl_set_rx_mode: ether_crc(6, addr) >> 26)
 *       that no address IFNAME listens to (/proc/net/dev_mcast) sets: a frame to it must not
 *       pass the chip's filter. Prints "GROUP MAC BIT"
 * The capture and the sink write 0 / PORT to the file $LAB_READY names. Output: one line
 * "RESULT tool=<mode> key=value ..." on stdout (mcast-free: its one line).
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

#define MAX_TAGS 16
#define PAYLOAD 48u

struct tags {
  char name[MAX_TAGS][16];
  unsigned n[MAX_TAGS], count;
};

static void tag_add(struct tags *t, const char *name) {
  unsigned k = 0;
  while (k < t->count && strcmp(t->name[k], name)) k++;
  if (k == t->count) {
    if (k == MAX_TAGS) return;
    snprintf(t->name[k], sizeof(t->name[k]), "%s", name);
    t->n[k] = 0;
    t->count++;
  }
  t->n[k]++;
}

static void tag_print(const char *tool, const struct tags *t) {
  printf("RESULT tool=%s status=ok", tool);
  for (unsigned k = 0; k < t->count; k++) printf(" %s=%u", t->name[k], t->n[k]);
  printf("\n");
}

/* the tag of a "FILTER TAG i" payload at p (n bytes) into out; 0 when it is none */
static int payload_tag(const uint8_t *p, size_t n, char out[16]) {
  char buf[PAYLOAD + 1];
  unsigned i;
  if (n < 8 || memcmp(p, "FILTER ", 7) != 0) return 0;
  n = n < PAYLOAD ? n : PAYLOAD;
  memcpy(buf, p, n);
  buf[n] = 0;
  return sscanf(buf, "FILTER %15s %u", out, &i) == 2;
}

static int parse_mac(const char *s, uint8_t mac[6]) {
  unsigned v[6];
  if (sscanf(s, "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6) return -1;
  for (int i = 0; i < 6; i++) mac[i] = (uint8_t)v[i];
  return 0;
}


static int send_frames(const char *ifname, const char *dst_s, const char *ip_s, int port,
                       const char *tag, uint32_t count) {
  uint8_t f[14 + 20 + 8 + PAYLOAD], dst[6], src[6];
  struct in_addr dip;
  uint32_t sent = 0;
  const uint64_t t0 = now_ns();
  const int fd = packet_open("send", ifname, src);
  if (parse_mac(dst_s, dst) != 0 || inet_pton(AF_INET, ip_s, &dip) != 1 || strlen(tag) > 15)
    die("send", "usage");
  for (uint32_t i = 0; i < count; i++) {
    uint8_t *ip = f + 14, *udp = ip + 20;
    memset(f, 0, sizeof(f));
    memcpy(f, dst, 6), memcpy(f + 6, src, 6);
    put16(f + 12, 0x0800);
    ip[0] = 0x45, ip[8] = 64, ip[9] = 17;
    put16(ip + 2, 20 + 8 + PAYLOAD);
    put16(ip + 4, 0x6000 + i);
    put16(ip + 6, 0x4000);
    ip[12] = 10, ip[13] = 9, ip[14] = 0, ip[15] = 2;
    memcpy(ip + 16, &dip, 4);
    put16(ip + 10, fold(sum16(ip, 20, 0)));
    put16(udp, 45000 + i), put16(udp + 2, (uint32_t)port), put16(udp + 4, 8 + PAYLOAD);
    snprintf((char *)udp + 8, PAYLOAD, "FILTER %s %u", tag, i);
    uint16_t c = fold(sum16(udp, 8 + PAYLOAD, sum16(ip + 12, 8, 0) + 17 + 8 + PAYLOAD));
    put16(udp + 6, c ? c : 0xffff);
    if (send(fd, f, sizeof(f), 0) == (ssize_t)sizeof(f)) sent++;
    usleep(1000);
  }
  printf("RESULT tool=send status=ok tag=%s sent=%u ms=%llu\n", tag, sent,
         (unsigned long long)((now_ns() - t0) / 1000000u));
  return 0;
}

static int capture(const char *ifname, uint64_t max_ms) {
  static uint8_t f[16384];
  struct tags t = {.count = 0};
  char tag[16];
  int fd = packet_open("capture", ifname, NULL);
  LAB_WRITE_READY("capture", getenv("LAB_READY"), 0);
  arm_alarm(max_ms);
  for (ssize_t r; (r = packet_recv_incoming("capture", fd, f, sizeof(f))) >= 0;) {
    if (r < 42 || f[12] != 0x08 || f[13] != 0 || f[23] != 17)
      continue;
    const size_t l4 = 14 + (size_t)(f[14] & 15) * 4;
    if (l4 + 8 < (size_t)r && payload_tag(f + l4 + 8, (size_t)r - l4 - 8, tag)) tag_add(&t, tag);
  }
  tag_print("capture", &t);
  return 0;
}

static int sink(int port, uint64_t max_ms, char **groups, int ngroups) {
  struct sockaddr_in a;
  struct tags t = {.count = 0};
  char buf[256], tag[16];
  int fd = socket(AF_INET, SOCK_DGRAM, 0), one = 1;
  memset(&a, 0, sizeof(a));
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0) die("sink", "bind");
  for (int g = 0; g < ngroups; g++) {
    struct ip_mreq m;
    memset(&m, 0, sizeof(m));
    if (inet_pton(AF_INET, groups[g], &m.imr_multiaddr) != 1) die("sink", "group");
    inet_pton(AF_INET, "10.9.0.1", &m.imr_interface);
    if (setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &m, sizeof(m)) != 0) die("sink", "join");
  }
  LAB_WRITE_READY("sink", getenv("LAB_READY"), port);
  arm_alarm(max_ms);
  while (!g_alarm) {
    ssize_t r = recv(fd, buf, sizeof(buf), 0);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) die("sink", "recv");
    if (payload_tag((const uint8_t *)buf, (size_t)r, tag)) tag_add(&t, tag);
  }
  tag_print("sink", &t);
  return 0;
}

/* Linux ether_crc(6, addr): CRC-32 (0x04c11db7) MSB-first over the bits LSB-first */
static uint32_t ether_crc(const uint8_t a[6]) {
  int32_t crc = -1;
  for (int i = 0; i < 6; i++) {
    uint8_t o = a[i];
    for (int b = 0; b < 8; b++, o >>= 1)
      crc = (int32_t)(((uint32_t)crc << 1) ^ (((crc < 0) ^ (o & 1)) ? 0x04c11db7u : 0));
  }
  return (uint32_t)crc;
}

static int mcast_free(const char *ifname) {
  uint64_t used = 0;
  char line[256];
  FILE *f = fopen("/proc/net/dev_mcast", "r");
  if (!f) die("mcast-free", "dev_mcast");
  while (fgets(line, sizeof(line), f)) {
    char ifn[32], hex[64];
    unsigned idx, users, global;
    uint8_t a[6];
    if (sscanf(line, "%u %31s %u %u %63s", &idx, ifn, &users, &global, hex) != 5) continue;
    if (strcmp(ifn, ifname) || strlen(hex) != 12) continue;
    for (int i = 0; i < 6; i++) {
      unsigned v;
      sscanf(hex + 2 * i, "%2x", &v);
      a[i] = (uint8_t)v;
    }
    used |= 1ull << (ether_crc(a) >> 26);
  }
  fclose(f);
  for (unsigned n = 1; n <= 250; n++) {
    const uint8_t a[6] = {0x01, 0x00, 0x5e, 0x01, 0x02, (uint8_t)n};
    const unsigned bit = ether_crc(a) >> 26;
    if (!(used >> bit & 1)) {
      printf("239.1.2.%u 01:00:5e:01:02:%02x %u\n", n, n, bit);
      return 0;
    }
  }
  die("mcast-free", "every hash bit in use");
  return 1;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc == 8 && !strcmp(argv[1], "send"))
    return send_frames(argv[2], argv[3], argv[4], atoi(argv[5]), argv[6],
                       (uint32_t)strtoul(argv[7], NULL, 10));
  if (argc == 4 && !strcmp(argv[1], "capture")) return capture(argv[2], strtoull(argv[3], NULL, 10));
  if (argc >= 4 && !strcmp(argv[1], "sink"))
    return sink(atoi(argv[2]), strtoull(argv[3], NULL, 10), argv + 4, argc - 4);
  if (argc == 3 && !strcmp(argv[1], "mcast-free")) return mcast_free(argv[2]);
  fprintf(stderr, "usage: filter-tool send IFNAME DST_MAC DST_IP PORT TAG COUNT | capture IFNAME "
                  "MAX_MS | sink PORT MAX_MS [GROUP...] | mcast-free IFNAME\n");
  return 2;
}
