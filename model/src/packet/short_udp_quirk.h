// SPDX-License-Identifier: GPL-2.0-or-later
// The RTL8125's short-UDP TX defect (Quirks::short_udp_hang): which frames
// the chip cannot transmit. A pure function of the bytes the chip fetched.
//
// Source: r8169 rtl8125_quirk_udp_padto (8d520b4de3ed, "r8169: work around
// RTL8125 UDP hw bug", applied to RTL_GIGA_MAC_VER_61..63), modelled on
// Realtek's r8125 rtl8125_get_patch_pad_len. The workaround pads, in
// software, a frame shorter than 128 + RTL_MIN_PATCH_LEN (175) bytes whose
// IP protocol (IPv4) or next header (IPv6, no extension header) is UDP when
//   - fewer than 8 bytes follow the IP header (less than a UDP header), or
//   - at least 4 and fewer than RTL_MIN_PATCH_LEN (47) bytes follow it and
//     the UDP destination port is 319 or 320 (PTP event / general).
// The model's hypothesis is that exactly those frames, reaching the chip
// unpadded, trip it: the workaround names no other condition, and the chip
// cannot tell the driver's pad bytes from data, so a padded frame is safe.
// IPv4 fragments are not told apart (rtl_skb_is_udp looks at the protocol
// field only), and the chip's own padding to 60 bytes comes after the
// check (Realtek's workaround pads to ETH_ZLEN itself).
#pragma once

#include <cstdint>
#include <span>

namespace rtl8168sim::packet {

inline constexpr uint32_t kShortUdpFrameBound = 128 + 47;  // frames shorter than this only
inline constexpr uint32_t kShortUdpPtpMin = 47;            // RTL_MIN_PATCH_LEN

enum class ShortUdp : uint8_t {
  none = 0,
  truncated_header = 1,  // fewer than 8 bytes after the IP header
  short_ptp = 2,         // PTP port 319/320, fewer than 47 bytes after the IP header
};

// `frame`: the frame as the driver handed it over (descriptor bytes, any
// in-band VLAN tag included, before the chip pads it to 60 bytes).
ShortUdp short_udp_trigger(std::span<const uint8_t> frame);

}  // namespace rtl8168sim::packet
