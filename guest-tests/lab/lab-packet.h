/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lab-packet.h - the AF_PACKET socket the capturing and frame-crafting tools (craft-tool,
 * filter-tool, verify-tool) share: one bound to an interface for every protocol (packet(7):
 * ETH_P_ALL sees what the stack received, the frames this host sends as PACKET_OUTGOING), and
 * the receive loop that skips this host's own frames and ends when the SIGALRM bound of
 * lab-util.h fires. Include it after lab-util.h (die, g_alarm). `static inline`, so a tool that
 * uses one of the two gets no unused-function warning for the other.
 */
#ifndef LAB_PACKET_H
#define LAB_PACKET_H

#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <sys/ioctl.h>

/* An AF_PACKET raw socket bound to ifname for every protocol; the interface's MAC into src if
 * src is non-NULL. Any failure is the tool's error line (die). */
static inline int packet_open(const char *tool, const char *ifname, uint8_t src[6]) {
  struct sockaddr_ll sll;
  int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
  if (fd < 0) die(tool, "socket");
  if (src) {
    struct ifreq ifr;
    memset(&ifr, 0, sizeof(ifr));
    snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
    if (ioctl(fd, SIOCGIFHWADDR, &ifr) != 0) die(tool, "hwaddr");
    memcpy(src, ifr.ifr_hwaddr.sa_data, 6);
  }
  memset(&sll, 0, sizeof(sll));
  sll.sll_family = AF_PACKET;
  sll.sll_protocol = htons(ETH_P_ALL);
  sll.sll_ifindex = (int)if_nametoindex(ifname);
  if (!sll.sll_ifindex || bind(fd, (struct sockaddr *)&sll, sizeof(sll)) != 0) die(tool, "bind");
  return fd;
}

/* The next frame the interface received (not one this host sent) into buf: its length, or -1
 * once the alarm (arm_alarm) has fired. A failed recvfrom other than EINTR is the tool's error
 * line (die). */
static inline ssize_t packet_recv_incoming(const char *tool, int fd, uint8_t *buf, size_t len) {
  while (!g_alarm) {
    struct sockaddr_ll from;
    socklen_t fl = sizeof(from);
    const ssize_t r = recvfrom(fd, buf, len, 0, (struct sockaddr *)&from, &fl);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) die(tool, "recv");
    if (from.sll_pkttype != PACKET_OUTGOING) return r;
  }
  return -1;
}

#endif
