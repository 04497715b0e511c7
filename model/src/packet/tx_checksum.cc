// SPDX-License-Identifier: GPL-2.0-or-later
// TX checksum offload for non-TSO frames, as requested by the RTL8168 v2 TX
// descriptor (opts2 IPv4_CS 29, TCP_CS 30, UDP_CS 31, IPv6_CS 28, TCPHO 27:18;
// r8169 rtl8169_tso_csum_v2). The driver leaves CHECKSUM_PARTIAL's seed in
// the L4 field; the device zeroes the field and computes the full sum
// including the pseudo header (docs/R8169.md §3 "Offloads"). IPv6
// extension headers are skipped; the pseudo header uses the fixed header's
// destination (a routing header's final destination is not looked up).
#include <span>
#include <vector>

#include "packet/bytes.h"
#include "packet/checksum.h"
#include "packet/emit.h"
#include "packet/packet.h"
#include "packet/parse.h"

namespace rtl8168sim::packet {

using detail::Headers;
using detail::kEthAddrLen;
using detail::kIpProtoTcp;
using detail::kIpProtoUdp;
using detail::kIpv4ChecksumOffset;
using detail::kTcpChecksumOffset;
using detail::kUdpChecksumOffset;
using detail::store_be16;

TxStatus finish_tx_frame(std::span<const uint8_t> frame, const TxOffload& off, size_t max_frame,
                         std::vector<uint8_t>& out) {
  const size_t tag = detail::tag_len(off);
  if (frame.size() + tag > max_frame) return TxStatus::too_long;
  if (off.vlan && frame.size() < 2 * kEthAddrLen) return TxStatus::malformed;

  const bool l4_cs = off.tcp_cs || off.udp_cs;
  const bool any_cs = l4_cs || off.ipv4_cs || off.ipv6_cs;
  L3L4Info info;
  Headers h;
  if (any_cs) {
    // GTSENV4/6 are the TSO path's business (the TX engine routes those
    // frames to tso_segment_count/build_tso_segment); ignored here.
    const TxStatus st = detail::parse_tx(frame, off, /*tso=*/false, info, h);
    if (st != TxStatus::ok) return st;
  }

  uint8_t* base = detail::prepare_output(frame.size() + tag, out);
  detail::copy_tagged(frame, off, base);
  if (!any_cs) return TxStatus::ok;

  // Offsets into the driver's (untagged) frame shift by the inserted tag.
  uint8_t* ip = base + h.l3_offset + tag;
  if (off.ipv4_cs) {
    store_be16(ip + kIpv4ChecksumOffset, 0);
    store_be16(ip + kIpv4ChecksumOffset,
               csum::internet_checksum(std::span<const uint8_t>(ip, h.ip_header_len)));
  }
  if (l4_cs) {
    uint8_t* l4 = base + h.l4_offset + tag;
    const uint32_t l4_len = h.ip_end - h.l4_offset;
    const size_t field = info.tcp ? kTcpChecksumOffset : kUdpChecksumOffset;
    const uint8_t proto = info.tcp ? kIpProtoTcp : kIpProtoUdp;
    store_be16(l4 + field, 0);
    const uint32_t pseudo =
        h.ipv4 ? csum::pseudo_ipv4(ip, proto, l4_len) : csum::pseudo_ipv6(ip, proto, l4_len);
    uint16_t sum = csum::finish(csum::partial(std::span<const uint8_t>(l4, l4_len), pseudo));
    // RFC 768: a computed UDP checksum of 0 is sent as all ones (0 means
    // "no checksum" over IPv4 and is invalid over IPv6, RFC 8200 8.1).
    if (info.udp && sum == 0) sum = 0xffff;
    store_be16(l4 + field, sum);
  }
  return TxStatus::ok;
}

}  // namespace rtl8168sim::packet
