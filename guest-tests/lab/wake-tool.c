/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wake-tool - Wake-on-LAN frames for the lab case runtime-pm.sh (scripts/run-lab builds it into
 * the overlay as /usr/bin/wake-tool). A program of its own, so that the other cases' programs
 * stay byte-identical.
 *
 *   wake-tool magic IFNAME DST_MAC STATION_MAC
 *       one magic packet (AMD "Magic Packet Technology": six bytes 0xff, then STATION_MAC
 *       sixteen times) in an Ethernet frame of EtherType 0x0842 to DST_MAC from IFNAME's
 *       address, sent through an AF_PACKET socket (what `ether-wake` sends). DST_MAC and
 *       STATION_MAC differ when a case sends another station's pattern on purpose.
 * Output: one line "RESULT tool=magic status=ok bytes=N" on stdout.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define ETH_P_WOL 0x0842

static void die(const char *what) {
  printf("RESULT tool=magic status=error error=%s errno=%d\n", what, errno);
  fflush(stdout);
  exit(4);
}

static int parse_mac(const char *s, uint8_t mac[6]) {
  unsigned v[6];
  if (sscanf(s, "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6) return -1;
  for (int i = 0; i < 6; i++) {
    if (v[i] > 0xff) return -1;
    mac[i] = (uint8_t)v[i];
  }
  return 0;
}

static int magic(const char *ifname, const char *dst_s, const char *station_s) {
  uint8_t dst[6], station[6], frame[14 + 6 + 16 * 6];
  if (parse_mac(dst_s, dst) || parse_mac(station_s, station)) {
    fprintf(stderr, "wake-tool: bad MAC address\n");
    return 2;
  }
  int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_WOL));
  if (fd < 0) die("socket");
  struct ifreq ifr;
  memset(&ifr, 0, sizeof(ifr));
  snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
  if (ioctl(fd, SIOCGIFHWADDR, &ifr) != 0) die("SIOCGIFHWADDR");
  memcpy(frame, dst, 6);
  memcpy(frame + 6, ifr.ifr_hwaddr.sa_data, 6);
  frame[12] = ETH_P_WOL >> 8;
  frame[13] = ETH_P_WOL & 0xff;
  memset(frame + 14, 0xff, 6);
  for (int i = 0; i < 16; i++) memcpy(frame + 20 + 6 * i, station, 6);
  struct sockaddr_ll sll;
  memset(&sll, 0, sizeof(sll));
  sll.sll_family = AF_PACKET;
  sll.sll_protocol = htons(ETH_P_WOL);
  sll.sll_ifindex = (int)if_nametoindex(ifname);
  sll.sll_halen = 6;
  memcpy(sll.sll_addr, dst, 6);
  if (sll.sll_ifindex == 0) die("if_nametoindex");
  ssize_t n = sendto(fd, frame, sizeof(frame), 0, (struct sockaddr *)&sll, sizeof(sll));
  if (n != (ssize_t)sizeof(frame)) die("sendto");
  close(fd);
  printf("RESULT tool=magic status=ok bytes=%zd\n", n);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 5 && !strcmp(argv[1], "magic")) return magic(argv[2], argv[3], argv[4]);
  fprintf(stderr, "usage: wake-tool magic IFNAME DST_MAC STATION_MAC\n");
  return 2;
}
