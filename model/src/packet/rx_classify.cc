// SPDX-License-Identifier: GPL-2.0-or-later
// RX protocol classification and checksum verification (RX descriptor opts1
// PID 18:17 TCP=01 UDP=10, IPF 16, UDPF 15, TCPF 14; RTL8169 datasheet
// Rev 1.21 p.56). r8169 rtl8169_rx_csum marks CHECKSUM_UNNECESSARY only for
// PID TCP/UDP with the matching fail bit clear, so "not TCP/UDP" is always
// the safe answer for anything the parser does not fully understand.
#include <span>

#include "packet/bytes.h"
#include "packet/checksum.h"
#include "packet/packet.h"
#include "packet/parse.h"

namespace rtl8168sim::packet {

using detail::Headers;
using detail::kIpProtoTcp;
using detail::kIpProtoUdp;
using detail::kTcpMinHeaderLen;
using detail::kUdpChecksumOffset;
using detail::kUdpHeaderLen;
using detail::load_be16;

RxClass classify_rx(std::span<const uint8_t> frame) {
  RxClass c;
  Headers h;
  // A tag left in place (CPlusCmd RxVlan off) is parsed past.
  if (!detail::parse_ethernet(frame, h)) return c;
  // IPv6: only TCP/UDP directly after the fixed header is recognised.
  if (!detail::parse_ip(frame, h, /*walk_ipv6_ext=*/false)) return c;  // truncated: not IP
  c.is_ip = true;
  const uint8_t* ip = frame.data() + h.l3_offset;
  if (h.ipv4) {
    // IPF: the IPv4 header (incl. options, IHL) must sum to 0xffff.
    c.ip_csum_fail = !csum::verifies(csum::partial(std::span<const uint8_t>(ip, h.ip_header_len)));
  }
  // Truncated datagrams and fragments: PID 00, no L4 verdict.
  if (!h.ip_len_ok || h.fragment) return c;
  const size_t l4_len = h.ip_end - h.l4_offset;
  const std::span<const uint8_t> l4(frame.data() + h.l4_offset, l4_len);
  const uint8_t proto = h.l4_proto;
  if (proto == kIpProtoTcp) {
    if (l4_len < kTcpMinHeaderLen) return c;
    const size_t doff = static_cast<size_t>(l4[12] >> 4) * 4;
    if (doff < kTcpMinHeaderLen || doff > l4_len) return c;
    c.is_tcp = true;
  } else if (proto == kIpProtoUdp) {
    if (l4_len < kUdpHeaderLen) return c;
    c.is_udp = true;
    if (load_be16(l4.data() + kUdpChecksumOffset) == 0) {
      // RFC 768: 0 = no checksum over IPv4 (accepted); RFC 8200 8.1: invalid over IPv6.
      c.udp_csum_fail = h.ipv6;
      return c;
    }
  } else {
    return c;
  }
  const uint32_t pseudo = h.ipv4 ? csum::pseudo_ipv4(ip, proto, static_cast<uint32_t>(l4_len))
                                 : csum::pseudo_ipv6(ip, proto, static_cast<uint32_t>(l4_len));
  const bool ok = csum::verifies(csum::partial(l4, pseudo));
  if (c.is_tcp) c.tcp_csum_fail = !ok;
  if (c.is_udp) c.udp_csum_fail = !ok;
  return c;
}

}  // namespace rtl8168sim::packet
