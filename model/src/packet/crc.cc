// SPDX-License-Identifier: GPL-2.0-or-later
// Ethernet CRC-32: the FCS the RX engine appends after a frame (the driver
// subtracts 4 from the RX length, r8169 rtl_rx) and the MAR multicast hash
// (r8169 rtl_set_rx_mode: bit = ether_crc(ETH_ALEN, addr) >> 26).
#include <isa-l/crc.h>

#include <cstdint>
#include <span>

#include "packet/packet.h"

namespace rtl8168sim::packet {

namespace {

// zlib-compatible CRC-32 from Intel ISA-L (PCLMULQDQ folding): the RX FCS
// is on the per-frame path and zlib's table CRC was a quarter of the RX
// profile in `rtl8168-bench speed`. crc32_gzip_refl(0, ...) == zlib crc32(0, ...).
uint32_t zlib_crc32(std::span<const uint8_t> data) {
  if (data.empty()) return 0;
  return crc32_gzip_refl(0, data.data(), data.size());
}

uint32_t bitrev32(uint32_t v) {
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
  v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
  return (v >> 16) | (v << 16);
}

}  // namespace

// IEEE 802.3 CRC-32 (reflected, init ~0, final xor ~0) = zlib crc32(). The
// FCS goes on the wire least significant byte first.
uint32_t ethernet_fcs(std::span<const uint8_t> frame) { return zlib_crc32(frame); }

// Linux: ether_crc(len, p) = bitrev32(crc32_le(~0, p, len)), no final xor.
// zlib's crc32 is crc32_le with init ~0 and a final xor, so
// crc32_le(~0, p, len) == ~crc32(0, p, len).
unsigned multicast_hash_bit(std::span<const uint8_t, 6> da) {
  const uint32_t crc = bitrev32(~zlib_crc32(da));
  return crc >> 26;
}

}  // namespace rtl8168sim::packet
