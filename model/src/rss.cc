// SPDX-License-Identifier: GPL-2.0-or-later
#include "rss.h"

#include <algorithm>

#include "device.h"
#include "packet/parse.h"

namespace rtl8168sim::rss {

namespace {
constexpr uint8_t kProtoTcp = 6, kProtoUdp = 17;
constexpr size_t kIpv4SrcOffset = 12, kIpv6SrcOffset = 8;
}  // namespace

uint32_t toeplitz(std::span<const uint8_t> key, std::span<const uint8_t> input) {
  if (key.size() < input.size() + 4) return 0;  // callers pass the 40-byte key
  uint32_t result = 0;
  // The 32 key bits starting at the current input bit, shifted left one
  // bit per input bit with the next key bit entering at the bottom.
  uint32_t window = static_cast<uint32_t>(key[0]) << 24 | static_cast<uint32_t>(key[1]) << 16 |
                    static_cast<uint32_t>(key[2]) << 8 | key[3];
  for (size_t i = 0; i < input.size(); i++) {
    const uint8_t next = key[i + 4];
    for (int b = 7; b >= 0; b--) {
      if (input[i] & (1u << b)) result ^= window;
      window = window << 1 | ((next >> b) & 1u);
    }
  }
  return result;
}

// The types in the order a frame takes them: the L4 type of its protocol
// first, then the plain IP type (r8125's RSS_CTRL types; the 2-tuple is
// what hashes a frame whose L4 type is off).
Input hash_input(std::span<const uint8_t> frame, uint32_t ctrl) {
  Input in;
  packet::detail::Headers h;
  if (!packet::detail::parse_ethernet(frame, h) || !packet::detail::parse_ip(frame, h, false)) return in;
  const bool v4 = h.ipv4;
  const size_t addr_len = v4 ? 4 : 16;
  const size_t src = h.l3_offset + (v4 ? kIpv4SrcOffset : kIpv6SrcOffset);
  if (src + 2 * addr_len > frame.size()) return in;
  const bool tcp = h.l4_proto == kProtoTcp, udp = h.l4_proto == kProtoUdp;
  const bool ports = !h.fragment && h.l4_offset + 4 <= frame.size();
  const uint32_t l4_type = tcp ? (v4 ? kTcpIpv4 : kTcpIpv6) : udp ? (v4 ? kUdpIpv4 : kUdpIpv6) : 0;
  const bool use_l4 = ports && l4_type != 0 && (ctrl & l4_type);
  if (!use_l4 && !(ctrl & (v4 ? kIpv4 : kIpv6))) return in;
  std::copy_n(frame.data() + src, 2 * addr_len, in.bytes);
  in.len = 2 * addr_len;
  if (use_l4) {
    std::copy_n(frame.data() + h.l4_offset, 4, in.bytes + in.len);  // source port, destination port
    in.len += 4;
    in.l4 = true;
    in.udp = udp;
  }
  return in;
}

Choice pick(const Device& d, std::span<const uint8_t> frame, unsigned queues) {
  Choice c;
  const uint32_t ctrl = d.wide.u32(reg::RSS_CTRL_8125);
  if (!(ctrl & kHashTypes)) return c;  // RSS off (r8169, r8125 rtl8125_disable_rss)
  const Input in = hash_input(frame, ctrl);
  if (in.len == 0) return c;  // not covered by an enabled type: queue 0
  uint8_t key[kKeySize];
  for (unsigned i = 0; i < kKeySize; i++) key[i] = static_cast<uint8_t>(d.wide.read(reg::RSS_KEY_8125 + i, 1));
  c.hash = toeplitz(key, std::span<const uint8_t>(in.bytes, in.len));
  const bool v6 = in.len >= 32;  // two IPv6 addresses
  c.type = v6 ? desc_v3::kInfoIpv6 : desc_v3::kInfoIpv4;
  if (in.l4) c.type |= in.udp ? desc_v3::kInfoUdp : desc_v3::kInfoTcp;
  const unsigned mask_bits = (ctrl >> kMaskBitsShift) & 7;  // at most 7: 128 entries
  const unsigned index = c.hash & ((1u << mask_bits) - 1);
  const unsigned entry = static_cast<unsigned>(d.wide.read(reg::RSS_INDIRECTION_TBL_8125_V2 + index, 1));
  c.queue = entry;
  c.drop = entry >= queues;
  return c;
}

}  // namespace rtl8168sim::rss
