// SPDX-License-Identifier: GPL-2.0-or-later
#include "packet/evl_quirks.h"

#include "packet/bytes.h"
#include "packet/checksum.h"
#include "packet/emit.h"

namespace rtl8168sim::packet {

using detail::kIpProtoTcp;
using detail::kIpProtoUdp;
using detail::kIpv4MinHeaderLen;
using detail::kMinFrameLen;
using detail::load_be16;
using detail::store_be16;

namespace {

constexpr size_t kIpv4CsumOffset = 10, kTcpCsumOffset = 16, kUdpCsumOffset = 6;
constexpr size_t kTcpMinHeaderLen = 20;
// rtl8168evl_fix_tso: rtl_last_frag_len(skb) <= 6.
constexpr uint32_t kShortLastFrag = 6;

// Parse a frame as it leaves the chip (an inserted VLAN tag is in-band now,
// so the descriptor's transport offset no longer applies).
bool parse_built(std::span<const uint8_t> frame, const TxOffload& off, L3L4Info& info) {
  TxOffload o = off;
  o.vlan = false;
  o.l4_offset = 0;
  o.ipv4_cs = false;
  return parse_tx_headers(frame, o, info) == TxStatus::ok;
}

}  // namespace

bool evl_short_frame_csum(size_t driver_len, const TxOffload& off, std::vector<uint8_t>& out) {
  if (!(off.tcp_cs || off.udp_cs)) return false;
  if (driver_len + detail::tag_len(off) >= kMinFrameLen || out.size() < kMinFrameLen) return false;
  L3L4Info info;
  if (!parse_built(out, off, info) || info.l4_offset >= out.size()) return false;
  uint8_t* ip = out.data() + info.l3_offset;
  uint8_t* l4 = out.data() + info.l4_offset;
  // The defect: the span runs to the end of the padded frame.
  const uint32_t padded_l4_len = static_cast<uint32_t>(out.size() - info.l4_offset);
  const size_t field = info.tcp ? kTcpCsumOffset : kUdpCsumOffset;
  if (field + 2 > padded_l4_len) return false;
  const uint8_t proto = info.tcp ? kIpProtoTcp : kIpProtoUdp;
  store_be16(l4 + field, 0);
  const uint32_t pseudo = info.ipv6 ? csum::pseudo_ipv6(ip, proto, padded_l4_len)
                                    : csum::pseudo_ipv4(ip, proto, padded_l4_len);
  uint16_t sum = csum::finish(csum::partial(std::span<const uint8_t>(l4, padded_l4_len), pseudo));
  if (info.udp && sum == 0) sum = 0xffff;
  store_be16(l4 + field, sum);
  return true;
}

unsigned evl_tso_conditions(std::span<const uint8_t> header, const TxOffload& off,
                            uint32_t last_frag_len) {
  L3L4Info info;
  TxOffload o = off;
  o.l4_offset = 0;
  if (parse_tx_headers(header, o, info) != TxStatus::ok || !info.tcp) return 0;
  unsigned c = 0;
  const size_t ip_len = info.l4_offset - info.l3_offset;
  if (!info.ipv6 && ip_len > kIpv4MinHeaderLen) c |= kEvlTsoIpOptions;
  else if (!info.ipv6 && info.header_len - info.l4_offset > kTcpMinHeaderLen) c |= kEvlTsoTcpOptions;
  else if (last_frag_len != 0 && last_frag_len <= kShortLastFrag) c |= kEvlTsoShortLastFrag;
  return c;
}

unsigned evl_tso_segment(const TxOffload& off, bool last_segment, uint32_t last_frag_len,
                         std::vector<uint8_t>& segment) {
  L3L4Info info;
  if (!parse_built(segment, off, info) || !info.tcp) return 0;
  uint8_t* base = segment.data();
  uint8_t* ip = base + info.l3_offset;
  uint8_t* th = base + info.l4_offset;
  const size_t ip_hdr = info.l4_offset - info.l3_offset;
  const size_t tcp_hdr = info.header_len - info.l4_offset;
  // The datagram's end (the segment may be padded to 60 bytes).
  const size_t ip_end =
      info.ipv6 ? info.l3_offset + 40 + load_be16(ip + 4) : info.l3_offset + load_be16(ip + 2);
  if (ip_end > segment.size() || ip_end < info.header_len) return 0;
  const uint32_t l4_len = static_cast<uint32_t>(ip_end - info.l4_offset);
  // The same precedence as rtl8168evl_fix_tso (else-if chain).
  unsigned what = 0;
  if (!info.ipv6 && ip_hdr > kIpv4MinHeaderLen) {
    store_be16(ip + kIpv4CsumOffset, 0);
    store_be16(ip + kIpv4CsumOffset,
               csum::internet_checksum(std::span<const uint8_t>(ip, kIpv4MinHeaderLen)));
    return kEvlTsoIpOptions;
  }
  uint32_t skip_from = l4_len, skip_len = 0;  // bytes of the L4 span left out of the sum
  if (!info.ipv6 && tcp_hdr > kTcpMinHeaderLen) {
    skip_from = kTcpMinHeaderLen;
    skip_len = static_cast<uint32_t>(tcp_hdr - kTcpMinHeaderLen);
    what = kEvlTsoTcpOptions;
  } else if (last_segment && last_frag_len != 0 && last_frag_len <= kShortLastFrag &&
             last_frag_len <= l4_len - tcp_hdr) {
    skip_from = l4_len - last_frag_len;
    skip_len = last_frag_len;
    what = kEvlTsoShortLastFrag;
  }
  if (!what) return 0;
  const uint32_t pseudo = info.ipv6 ? csum::pseudo_ipv6(ip, kIpProtoTcp, l4_len)
                                    : csum::pseudo_ipv4(ip, kIpProtoTcp, l4_len);
  store_be16(th + kTcpCsumOffset, 0);
  uint32_t sum = csum::partial(std::span<const uint8_t>(th, skip_from), pseudo);
  // Continue after the skipped bytes. partial() works on 16-bit words from
  // the span's start: an odd skip shifts the byte lanes, as the chip's
  // misaligned accumulator would.
  sum = csum::partial(
      std::span<const uint8_t>(th + skip_from + skip_len, l4_len - skip_from - skip_len), sum);
  store_be16(th + kTcpCsumOffset, csum::finish(sum));
  return what;
}

}  // namespace rtl8168sim::packet
