// SPDX-License-Identifier: GPL-2.0-or-later
// TCP segmentation offload (RTL8168 v2 descriptor: opts1 GTSENV4 26 /
// GTSENV6 25 with the transport offset in 24:18, opts2 MSS 28:18; r8169
// rtl8169_tso_csum_v2). The device cuts the payload after the Ethernet + IP +
// TCP header (incl. options) into MSS-sized pieces and fixes up each copy of
// the header the way Linux's software GSO does (tcp_gso_segment,
// inet_gso_segment, ipv6_gso_segment): IPv4 total length, ID + index and
// header checksum; IPv6 payload length; TCP sequence number, FIN/PSH on the
// last segment only, CWR on the first only, and the TCP checksum over the
// pseudo header. The template's own lengths and checksums are ignored (the
// driver leaves tcp_v6_gso_csum_prep's payload length 0 for IPv6).
#include <cstring>
#include <span>
#include <vector>

#include "packet/bytes.h"
#include "packet/checksum.h"
#include "packet/emit.h"
#include "packet/packet.h"
#include "packet/parse.h"

namespace rtl8168sim::packet {

using detail::Headers;
using detail::kIpProtoTcp;
using detail::kIpv4ChecksumOffset;
using detail::kIpv6HeaderLen;
using detail::kTcpChecksumOffset;
using detail::kTcpCwr;
using detail::kTcpFin;
using detail::kTcpPsh;
using detail::load_be16;
using detail::load_be32;
using detail::store_be16;
using detail::store_be32;

namespace {

TxStatus check_tso(std::span<const uint8_t> header, const TxOffload& off, L3L4Info& info,
                   Headers& h) {
  // MSS 0: the chip aborts the descriptor (TxErr) rather than loop forever.
  if (off.mss == 0) return TxStatus::bad_mss;
  return detail::parse_tx(header, off, /*tso=*/true, info, h);
}

}  // namespace

size_t tso_segment_count(std::span<const uint8_t> header, size_t payload_len, const TxOffload& off,
                         TxStatus& status) {
  L3L4Info info;
  Headers h;
  status = check_tso(header, off, info, h);
  if (status != TxStatus::ok) return 0;
  // A header-only request still goes out as one frame.
  if (payload_len == 0) return 1;
  return (payload_len + off.mss - 1) / off.mss;
}

TxStatus build_tso_segment(std::span<const uint8_t> header, std::span<const uint8_t> payload,
                           size_t index, size_t count, const TxOffload& off, size_t max_frame,
                           std::vector<uint8_t>& out) {
  L3L4Info info;
  Headers h;
  const TxStatus st = check_tso(header, off, info, h);
  if (st != TxStatus::ok) return st;
  if (count == 0 || index >= count) return TxStatus::malformed;
  const bool first = index == 0;
  const bool last = index + 1 == count;
  // Every segment but the last carries exactly MSS bytes (the sequence
  // number of segment i is seq + i*MSS).
  if (payload.size() > off.mss || (!last && payload.size() != off.mss)) {
    return TxStatus::malformed;
  }

  const size_t hlen = info.header_len;  // `header` may extend past it: ignored
  const size_t seg_len = hlen + payload.size();
  const size_t tag = detail::tag_len(off);
  if (seg_len + tag > max_frame) return TxStatus::too_long;
  const size_t ip_len = seg_len - h.l3_offset;
  if (ip_len > 0xffff + (h.ipv6 ? kIpv6HeaderLen : 0)) return TxStatus::too_long;

  uint8_t* base = detail::prepare_output(seg_len + tag, out);
  detail::copy_tagged(header.first(hlen), off, base);
  if (!payload.empty()) std::memcpy(base + hlen + tag, payload.data(), payload.size());

  uint8_t* ip = base + h.l3_offset + tag;
  uint8_t* th = base + h.l4_offset + tag;
  const uint32_t l4_len = static_cast<uint32_t>(seg_len - h.l4_offset);
  uint32_t pseudo;
  if (h.ipv4) {
    store_be16(ip + 2, static_cast<uint16_t>(ip_len));
    store_be16(ip + 4, static_cast<uint16_t>(load_be16(ip + 4) + index));
    store_be16(ip + kIpv4ChecksumOffset, 0);
    store_be16(ip + kIpv4ChecksumOffset,
               csum::internet_checksum(std::span<const uint8_t>(ip, h.ip_header_len)));
    pseudo = csum::pseudo_ipv4(ip, kIpProtoTcp, l4_len);
  } else {
    store_be16(ip + 4, static_cast<uint16_t>(ip_len - kIpv6HeaderLen));
    pseudo = csum::pseudo_ipv6(ip, kIpProtoTcp, l4_len);
  }

  store_be32(th + 4, static_cast<uint32_t>(load_be32(th + 4) + index * off.mss));
  uint8_t flags = th[13];
  if (!last) flags = static_cast<uint8_t>(flags & ~(kTcpFin | kTcpPsh));
  if (!first) flags = static_cast<uint8_t>(flags & ~kTcpCwr);
  th[13] = flags;
  store_be16(th + kTcpChecksumOffset, 0);
  store_be16(th + kTcpChecksumOffset,
             csum::finish(csum::partial(std::span<const uint8_t>(th, l4_len), pseudo)));
  return TxStatus::ok;
}

}  // namespace rtl8168sim::packet
