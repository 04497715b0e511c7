// SPDX-License-Identifier: GPL-2.0-or-later
// RX VLAN stripping (CPlusCmd RxVlan 0x40): the chip removes the 802.1Q tag
// and reports it in RX opts2 (bit 16 TAVA + swab16(TCI), r8169 rtl8169_rx_vlan_tag).
#include <cstdint>
#include <vector>

#include "packet/bytes.h"
#include "packet/packet.h"

namespace rtl8168sim::packet {

bool strip_vlan(std::vector<uint8_t>& frame, uint16_t& tci) {
  constexpr size_t kTypeOffset = 2 * detail::kEthAddrLen;
  if (frame.size() < kTypeOffset + detail::kVlanTagLen) return false;
  if (detail::load_be16(frame.data() + kTypeOffset) != detail::kEtherTypeVlan) return false;
  tci = detail::load_be16(frame.data() + kTypeOffset + 2);
  const auto at = frame.begin() + static_cast<std::ptrdiff_t>(kTypeOffset);
  frame.erase(at, at + static_cast<std::ptrdiff_t>(detail::kVlanTagLen));
  return true;
}

}  // namespace rtl8168sim::packet
