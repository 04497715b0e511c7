// SPDX-License-Identifier: GPL-2.0-or-later
// Header parsing for the packet functions (see parse.h).
#include "packet/parse.h"

#include "packet/bytes.h"

namespace rtl8168sim::packet {
namespace detail {

namespace {
constexpr uint8_t kIpv6HopByHop = 0;
constexpr uint8_t kIpv6Routing = 43;
constexpr uint8_t kIpv6Fragment = 44;
constexpr uint8_t kIpv6DestOpts = 60;
constexpr uint8_t kIpv6NoNext = 59;
constexpr int kMaxIpv6ExtHeaders = 8;
}  // namespace

bool parse_ethernet(std::span<const uint8_t> f, Headers& h) {
  size_t off = 2 * kEthAddrLen;
  if (f.size() < off + 2) return false;
  uint16_t type = load_be16(f.data() + off);
  for (int tags = 0; tags < 2 && (type == kEtherTypeVlan || type == kEtherTypeQinQ); ++tags) {
    off += kVlanTagLen;
    if (f.size() < off + 2) return false;
    type = load_be16(f.data() + off);
  }
  h.ethertype = type;
  h.l3_offset = static_cast<uint32_t>(off + 2);
  return true;
}

namespace {

bool parse_ipv4(std::span<const uint8_t> f, Headers& h) {
  const size_t off = h.l3_offset;
  if (f.size() < off + kIpv4MinHeaderLen) return false;
  const uint8_t* ip = f.data() + off;
  if ((ip[0] >> 4) != 4) return false;
  const uint32_t ihl = (ip[0] & 0x0fu) * 4u;
  if (ihl < kIpv4MinHeaderLen || f.size() < off + ihl) return false;
  h.ipv4 = true;
  h.ip_header_len = ihl;
  h.l4_offset = static_cast<uint32_t>(off + ihl);
  h.l4_proto = ip[9];
  const uint32_t total = load_be16(ip + 2);
  h.ip_len_ok = total >= ihl && off + total <= f.size();
  h.ip_end = h.ip_len_ok ? static_cast<uint32_t>(off + total) : 0;
  h.fragment = (load_be16(ip + 6) & 0x3fffu) != 0;  // MF or fragment offset
  return true;
}

bool parse_ipv6(std::span<const uint8_t> f, Headers& h, bool walk_ext) {
  const size_t off = h.l3_offset;
  if (f.size() < off + kIpv6HeaderLen) return false;
  const uint8_t* ip = f.data() + off;
  if ((ip[0] >> 4) != 6) return false;
  h.ipv6 = true;
  h.ip_header_len = kIpv6HeaderLen;
  const uint32_t plen = load_be16(ip + 4);
  // Payload length 0 is a jumbogram (or the TSO template, tcp_v6_gso_csum_prep).
  h.ip_len_ok = plen != 0 && off + kIpv6HeaderLen + plen <= f.size();
  h.ip_end = h.ip_len_ok ? static_cast<uint32_t>(off + kIpv6HeaderLen + plen) : 0;
  size_t l4 = off + kIpv6HeaderLen;
  uint8_t nh = ip[6];
  if (walk_ext) {
    for (int i = 0; i < kMaxIpv6ExtHeaders; ++i) {
      if (nh == kIpv6Fragment) {
        h.fragment = true;
        break;
      }
      if (nh != kIpv6HopByHop && nh != kIpv6Routing && nh != kIpv6DestOpts) break;
      if (f.size() < l4 + 8) {
        nh = kIpv6NoNext;  // truncated extension header: no transport header
        break;
      }
      const size_t len = (static_cast<size_t>(f[l4 + 1]) + 1) * 8;
      nh = f[l4];
      l4 += len;
      if (l4 > f.size()) {
        l4 = f.size();
        nh = kIpv6NoNext;
        break;
      }
    }
  }
  h.l4_offset = static_cast<uint32_t>(l4);
  h.l4_proto = nh;
  if (h.ip_len_ok && h.l4_offset > h.ip_end) {
    h.l4_proto = kIpv6NoNext;
  }
  return true;
}

}  // namespace

bool parse_ip(std::span<const uint8_t> f, Headers& h, bool walk_ipv6_ext) {
  if (h.ethertype == kEtherTypeIpv4) return parse_ipv4(f, h);
  if (h.ethertype == kEtherTypeIpv6) return parse_ipv6(f, h, walk_ipv6_ext);
  return false;
}

TxStatus parse_tx(std::span<const uint8_t> f, const TxOffload& off, bool tso, L3L4Info& info,
                  Headers& h) {
  h = Headers{};
  info = L3L4Info{};
  if (!parse_ethernet(f, h) || !parse_ip(f, h, /*walk_ipv6_ext=*/true)) {
    return TxStatus::malformed;
  }
  info.ipv6 = h.ipv6;
  info.l3_offset = h.l3_offset;
  info.l4_offset = h.l4_offset;
  info.header_len = h.l4_offset;

  const bool want_tcp = tso || off.tcp_cs;
  const bool want_udp = !tso && off.udp_cs;
  if (want_tcp && want_udp) return TxStatus::malformed;
  if (tso) {
    // rtl8169_tso_csum_v2: GTSENV4 for SKB_GSO_TCPV4, GTSENV6 for SKB_GSO_TCPV6.
    if (off.gtsenv4 == off.gtsenv6) return TxStatus::malformed;
    if (off.gtsenv4 && !h.ipv4) return TxStatus::malformed;
    if (off.gtsenv6 && !h.ipv6) return TxStatus::malformed;
  } else {
    // IPv4_CS / IPv6_CS name the L3 protocol (vlan_get_protocol() in the driver).
    if (off.ipv4_cs && !h.ipv4) return TxStatus::malformed;
    if (off.ipv6_cs && !h.ipv6) return TxStatus::malformed;
  }
  if (!want_tcp && !want_udp) {
    // Only an IPv4 header checksum (or nothing at L4): the transport header
    // is not needed and may legitimately be absent (a later IPv4 fragment).
    info.tcp = h.l4_proto == kIpProtoTcp;
    info.udp = h.l4_proto == kIpProtoUdp;
    return TxStatus::ok;
  }

  // TCPHO (csum) / the GTSENV L4 offset (TSO) must point at the header we parsed.
  if (off.l4_offset != 0 && off.l4_offset != h.l4_offset) return TxStatus::malformed;
  const size_t l4 = h.l4_offset;
  if (want_tcp) {
    if (h.l4_proto != kIpProtoTcp || f.size() < l4 + kTcpMinHeaderLen) return TxStatus::malformed;
    const size_t doff = static_cast<size_t>(f[l4 + 12] >> 4) * 4;  // TCP data offset
    if (doff < kTcpMinHeaderLen || f.size() < l4 + doff) return TxStatus::malformed;
    info.tcp = true;
    info.header_len = static_cast<uint32_t>(l4 + doff);
  } else {
    if (h.l4_proto != kIpProtoUdp || f.size() < l4 + kUdpHeaderLen) return TxStatus::malformed;
    info.udp = true;
    info.header_len = static_cast<uint32_t>(l4 + kUdpHeaderLen);
  }
  // A plain checksum offload sums the datagram as the IP length describes it;
  // the TSO template's IP length is rewritten per segment, so it is not checked.
  if (!tso && (!h.ip_len_ok || info.header_len > h.ip_end)) return TxStatus::malformed;
  return TxStatus::ok;
}

}  // namespace detail

TxStatus parse_tx_headers(std::span<const uint8_t> frame, const TxOffload& off, L3L4Info& info) {
  detail::Headers h;
  return detail::parse_tx(frame, off, off.gtsenv4 || off.gtsenv6, info, h);
}

}  // namespace rtl8168sim::packet
