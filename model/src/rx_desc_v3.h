// SPDX-License-Identifier: GPL-2.0-or-later
// The RTL8125's 32-byte RX descriptor, struct RxDescV3 of Realtek's r8125
// (r8125.h), which the chip writes when RxConfig bit 24 (EnableRxDescV3) is
// set: r8125 sets it with its RX descriptor type 3 (RX_DESC_RING_TYPE_3,
// the 8125B's HwSuppRxDescType) when RSS is enabled (tp->EnableRss), and
// reads the RSS hash only from it (r8125_rss.c rtl8125_rx_hash). r8169
// never sets the bit: its rings hold the 16-byte RxDesc (descriptor.h).
//
//   bytes  0-7   reserved
//          8-11  RSSResult: the Toeplitz hash (rtl8125_get_rx_desc_hash)
//         12-13  HeaderBufferLen (0: no header split)
//         14-15  HeaderInfo: the hash's type (rtl8125_rx_hash: bit 9 UDP
//                (RXS_8125B_RSS_UDP), 10 IPv4, 12 IPv6, 13 TCP; no L3 bit:
//                the driver sets no hash)
//         16-23  buffer address (written by the driver)
//         24-27  opts2 (RxDescNormalDDWord4.opts2)
//         28-31  opts1 (RxDescNormalDDWord4.opts1): Own 31 and EOR 30 and
//                the length in 13:0 as in RxDesc (rtl8125_mark_to_asic
//                writes Own | EOR | buffer size there; rtl8125_rx_interrupt
//                takes status & 0x3fff), FirstFrag 25 and LastFrag 24
//                (FirstFrag_V3 / LastFrag_V3), error bits 17-20
//
// opts2 carries the checksum result (rtl8125_rx_v3_csum; the DPDK r8125
// PMD's rtl_rx_ip_csum / rtl_rx_l4_csum): TCP 28 (RxTCPT_v3), UDP 29
// (RxUDPT_v3), IP checksum failed 26, UDP 25, TCP 24 (RxIPF/UDPF/TCPF_v3),
// and the VLAN tag as RxDesc's opts2 (RxVlanTag bit 16, the tag byte-swapped
// in 15:0).
//
// The model's choices (docs/R8125.md "The RSS hash in the RX descriptor"):
// the descriptor is read as its upper 16 bytes (address, opts2, opts1: what
// the chip needs to fill it) with the timing of a 16-byte read; RxDesc's
// address-class bits (RxMAR/RxPAM/RxBAR, opts1 27-25) have no place in
// opts1 here and are not written, nor are RxV4F/RxV6F (opts2 30/31, which
// r8125 does not read); the hash and its type are written (bytes 8-15)
// before opts2 and opts1, so Own is released last.
#pragma once

#include <cstdint>

#include "regs.h"

namespace rtl8168sim::desc_v3 {

inline constexpr unsigned kSize = 32;
inline constexpr unsigned kRss = 8;     // RSSResult, HeaderBufferLen, HeaderInfo
inline constexpr unsigned kFetch = 16;  // address, opts2, opts1: the part the chip reads
inline constexpr unsigned kOpts2 = 24;
inline constexpr unsigned kOpts1 = 28;

inline constexpr uint32_t FirstFrag = 1u << 25;
inline constexpr uint32_t LastFrag = 1u << 24;
inline constexpr uint32_t RxTCPT = 1u << 28;
inline constexpr uint32_t RxUDPT = 1u << 29;
inline constexpr uint32_t RxIPF = 1u << 26;
inline constexpr uint32_t RxUDPF = 1u << 25;
inline constexpr uint32_t RxTCPF = 1u << 24;

inline constexpr uint16_t kInfoUdp = 1u << 9;
inline constexpr uint16_t kInfoIpv4 = 1u << 10;
inline constexpr uint16_t kInfoIpv6 = 1u << 12;
inline constexpr uint16_t kInfoTcp = 1u << 13;
inline constexpr uint16_t kInfoBits = kInfoUdp | kInfoIpv4 | kInfoIpv6 | kInfoTcp;

// What bytes 8-15 report for one frame: the hash and its type (HeaderInfo's
// bits; 0 when RSS computed no hash for the frame).
struct RssResult {
  uint32_t hash = 0;
  uint16_t info = 0;
};

inline constexpr uint32_t kProtoMask = desc::RxProtoUDP | desc::RxProtoTCP;  // RxDesc PID 18:17

// opts1 / opts2 of the V3 write-back from the RxDesc ones the RX engine
// builds (regs.h desc::).
inline uint32_t opts1_from(uint32_t opts1) {
  return (opts1 & (desc::RingEnd | desc::kRxBufSizeMask)) | ((opts1 & desc::FirstFrag) ? FirstFrag : 0) |
         ((opts1 & desc::LastFrag) ? LastFrag : 0);
}
inline uint32_t opts2_from(uint32_t opts1, uint32_t opts2) {
  uint32_t v = opts2 & (desc::RxVlanTag | 0xffffu);
  if ((opts1 & kProtoMask) == desc::RxProtoTCP) v |= RxTCPT;
  if ((opts1 & kProtoMask) == desc::RxProtoUDP) v |= RxUDPT;
  if (opts1 & desc::IPFail) v |= RxIPF;
  if (opts1 & desc::UDPFail) v |= RxUDPF;
  if (opts1 & desc::TCPFail) v |= RxTCPF;
  return v;
}

}  // namespace rtl8168sim::desc_v3
