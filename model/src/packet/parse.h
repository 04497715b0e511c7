// SPDX-License-Identifier: GPL-2.0-or-later
// Bounds-checked Ethernet / IPv4 / IPv6 header parsing shared by the TX
// offload, TSO and RX classification code. Nothing here reads outside the
// span it is given; a header that does not fit is reported, never read.
#pragma once

#include <cstdint>
#include <span>

#include "packet/packet.h"

namespace rtl8168sim::packet::detail {

struct Headers {
  uint16_t ethertype = 0;  // after any in-band 802.1Q / 802.1ad tags
  uint32_t l3_offset = 0;
  bool ipv4 = false, ipv6 = false;
  uint32_t ip_header_len = 0;  // IPv4 IHL*4, IPv6 40 (extension headers not included)
  uint32_t l4_offset = 0;      // after the IPv4 options / IPv6 extension headers
  uint8_t l4_proto = 0;        // IPv4 protocol or the final IPv6 next header
  bool ip_len_ok = false;      // IP total/payload length is consistent and within the frame
  uint32_t ip_end = 0;         // l3_offset + IP datagram length (valid if ip_len_ok)
  bool fragment = false;       // IPv4 MF/offset, or an IPv6 fragment header
};

// Skip the Ethernet header and up to two in-band VLAN tags (the frame as the
// driver built it when the stack did not use TxVlanTag, or an RX frame with
// stripping off). False if the frame is shorter than the headers.
bool parse_ethernet(std::span<const uint8_t> f, Headers& h);

// Parse the IPv4/IPv6 header at h.l3_offset (per h.ethertype). With
// `walk_ipv6_ext`, IPv6 hop-by-hop / routing / destination-options headers
// are skipped (TX side; the RX classifier only accepts TCP/UDP directly after
// the fixed header). False if there is no complete IP header.
bool parse_ip(std::span<const uint8_t> f, Headers& h, bool walk_ipv6_ext);

// TX: parse the frame and check it against the offload request: TSO needs
// TCP over the IP version named by GTSENV4/6 with a complete TCP header; a
// TCP/UDP checksum request needs that protocol, a complete L4 header and a
// consistent IP length; IPv4_CS needs IPv4. If off.l4_offset is non-zero it
// must equal the parsed transport offset (r8169 rtl8169_tso_csum_v2 puts
// skb_transport_offset() there). `tso` selects the TSO rules.
TxStatus parse_tx(std::span<const uint8_t> f, const TxOffload& off, bool tso, L3L4Info& info,
                  Headers& h);

}  // namespace rtl8168sim::packet::detail
