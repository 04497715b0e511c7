// SPDX-License-Identifier: GPL-2.0-or-later
// The 16-byte descriptor both rings use (datasheet §descriptors; r8169
// struct TxDesc / RxDesc): opts1, opts2, buffer address, little-endian.
// The VLAN tag fields hold the TCI byte-swapped (r8169 swab16 in
// rtl8169_tx_vlan_tag / rtl8169_rx_vlan_tag).
#pragma once

#include <cstdint>

#include "regs.h"

namespace rtl8168sim {

struct RawDesc {
  uint32_t opts1 = 0, opts2 = 0;
  uint64_t addr = 0;
};

inline uint32_t load_le32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24);
}
inline void store_le32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

inline RawDesc decode_desc(const uint8_t (&raw)[desc::kSize]) {
  RawDesc d;
  d.opts1 = load_le32(raw);
  d.opts2 = load_le32(raw + 4);
  d.addr = static_cast<uint64_t>(load_le32(raw + 12)) << 32 | load_le32(raw + 8);
  return d;
}

inline uint16_t swab16(uint16_t v) { return static_cast<uint16_t>(v << 8 | v >> 8); }

}  // namespace rtl8168sim
