// SPDX-License-Identifier: GPL-2.0-or-later
// Big-endian (network order) field access for the packet functions. All
// accesses go through memcpy-free byte shifts so they are alignment-safe.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rtl8168sim::packet::detail {

inline uint16_t load_be16(const uint8_t* p) { return static_cast<uint16_t>((p[0] << 8) | p[1]); }
inline uint32_t load_be32(const uint8_t* p) {
  return (static_cast<uint32_t>(p[0]) << 24) | (static_cast<uint32_t>(p[1]) << 16) |
         (static_cast<uint32_t>(p[2]) << 8) | static_cast<uint32_t>(p[3]);
}
inline void store_be16(uint8_t* p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v >> 8);
  p[1] = static_cast<uint8_t>(v);
}
inline void store_be32(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}

// Ethernet / IP constants used by the parsers.
inline constexpr size_t kEthAddrLen = 6;
inline constexpr size_t kEthHeaderLen = 14;
inline constexpr size_t kVlanTagLen = 4;
inline constexpr size_t kMinFrameLen = 60;  // 64 on the wire minus the FCS
inline constexpr uint16_t kEtherTypeIpv4 = 0x0800;
inline constexpr uint16_t kEtherTypeIpv6 = 0x86dd;
inline constexpr uint16_t kEtherTypeVlan = 0x8100;  // 802.1Q C-tag
inline constexpr uint16_t kEtherTypeQinQ = 0x88a8;  // 802.1ad S-tag
inline constexpr uint8_t kIpProtoTcp = 6;
inline constexpr uint8_t kIpProtoUdp = 17;
inline constexpr size_t kIpv4MinHeaderLen = 20;
inline constexpr size_t kIpv6HeaderLen = 40;
inline constexpr size_t kTcpMinHeaderLen = 20;
inline constexpr size_t kUdpHeaderLen = 8;
inline constexpr size_t kTcpChecksumOffset = 16;
inline constexpr size_t kUdpChecksumOffset = 6;
inline constexpr size_t kIpv4ChecksumOffset = 10;

// TCP flag bits (byte 13 of the TCP header).
inline constexpr uint8_t kTcpFin = 0x01;
inline constexpr uint8_t kTcpPsh = 0x08;
inline constexpr uint8_t kTcpCwr = 0x80;

}  // namespace rtl8168sim::packet::detail
