// SPDX-License-Identifier: GPL-2.0-or-later
#include "packet/short_udp_quirk.h"

#include "packet/bytes.h"
#include "packet/parse.h"

namespace rtl8168sim::packet {

ShortUdp short_udp_trigger(std::span<const uint8_t> frame) {
  if (frame.size() >= kShortUdpFrameBound) return ShortUdp::none;
  detail::Headers h;
  if (!detail::parse_ethernet(frame, h)) return ShortUdp::none;
  // Only UDP trips the chip: a frame whose IPv4 protocol byte or IPv6 next
  // header is something else (most short frames are TCP ACKs) needs no
  // parse of its IP header (which would find that protocol, or none).
  const size_t proto_at = h.l3_offset + (h.ethertype == detail::kEtherTypeIpv4 ? 9 : 6);
  if (proto_at >= frame.size() || frame[proto_at] != detail::kIpProtoUdp) return ShortUdp::none;
  // IPv6: the next header of the fixed header only, as rtl_skb_is_udp reads it.
  if (!detail::parse_ip(frame, h, false)) return ShortUdp::none;
  if (h.l4_proto != detail::kIpProtoUdp || h.l4_offset > frame.size()) return ShortUdp::none;
  const uint32_t trans = static_cast<uint32_t>(frame.size()) - h.l4_offset;
  if (trans < detail::kUdpHeaderLen) return ShortUdp::truncated_header;
  if (trans < kShortUdpPtpMin) {
    const uint16_t dest = detail::load_be16(frame.data() + h.l4_offset + 2);
    if (dest == 319 || dest == 320) return ShortUdp::short_ptp;
  }
  return ShortUdp::none;
}

}  // namespace rtl8168sim::packet
