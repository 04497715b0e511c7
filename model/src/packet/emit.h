// SPDX-License-Identifier: GPL-2.0-or-later
// Output-frame assembly shared by the TX checksum path and TSO: VLAN tag
// insertion (opts2 TxVlanTag, r8169 rtl8169_tx_vlan_tag) and padding to the
// 60-byte Ethernet minimum (the 8168 pads short frames in hardware; the
// driver only pads them itself on chips with the padto quirk).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "packet/bytes.h"
#include "packet/packet.h"

namespace rtl8168sim::packet::detail {

inline size_t tag_len(const TxOffload& off) { return off.vlan ? kVlanTagLen : 0; }

// Size `out` for a frame of `len` bytes (before padding), zero the pad bytes,
// and return the start of the buffer. Reuses out's capacity (no allocation in
// the steady state).
inline uint8_t* prepare_output(size_t len, std::vector<uint8_t>& out) {
  const size_t total = std::max(len, kMinFrameLen);
  out.resize(total);
  std::fill(out.begin() + static_cast<std::ptrdiff_t>(len), out.end(), uint8_t{0});
  return out.data();
}

// Copy `src` to `dst`, inserting the 802.1Q tag (TPID 0x8100 + TCI) after the
// two MAC addresses when TxVlanTag is requested. `src` must hold at least the
// MAC addresses if a tag is inserted. Returns the number of bytes written.
inline size_t copy_tagged(std::span<const uint8_t> src, const TxOffload& off, uint8_t* dst) {
  if (src.empty()) return 0;
  if (!off.vlan) {
    std::memcpy(dst, src.data(), src.size());
    return src.size();
  }
  constexpr size_t kMacs = 2 * kEthAddrLen;
  std::memcpy(dst, src.data(), kMacs);
  store_be16(dst + kMacs, kEtherTypeVlan);
  store_be16(dst + kMacs + 2, off.vlan_tci);
  std::memcpy(dst + kMacs + kVlanTagLen, src.data() + kMacs, src.size() - kMacs);
  return src.size() + kVlanTagLen;
}

}  // namespace rtl8168sim::packet::detail
