// SPDX-License-Identifier: GPL-2.0-or-later
// Receive-side scaling of the RTL8125B: which RX queue a received frame goes
// to. Sources: Realtek's r8125 driver (r8125_rss.c, r8125.h), the only
// public description of these registers (r8169 writes RSS_CTRL_8125 0 and
// uses queue 0):
//
// - RSS_CTRL_8125 (0x4500, 32 bits), _rtl8125_set_rss_hash_opt: the hash
//   types (bit 0 TCP/IPv4, 1 IPv4, 2 TCP/IPv6, 3 IPv6, 11 UDP/IPv4, 12
//   UDP/IPv6), bits 10:8 ilog2 of the indirection entries in use
//   ("RSS_MASK_BITS_OFFSET" 8), bits 18:16 ilog2 of the RX queues in use
//   ("RSS_CPU_NUM_OFFSET" 16).
// - The 40-byte Toeplitz key at RSS_KEY_8125 0x4600 (rtl8125_store_rss_key:
//   the key's bytes in order, 32-bit writes), hfunc ETH_RSS_HASH_TOP.
// - The indirection table at RSS_INDIRECTION_TBL_8125_V2 0x4700: one byte
//   per entry, entry i at 0x4700 + i (rtl8125_store_reta packs four a
//   32-bit write, entry i in byte i & 3), 128 entries on the 8125B
//   (RTL8125_MAX_INDIRECTION_TABLE_ENTRIES).
//
// The hash is the Microsoft RSS Toeplitz hash over source address,
// destination address and, for the L4 types, source port and destination
// port (the 2- and 4-tuples of the Microsoft "RSS hashing functions" page,
// whose verification vectors the unit tests use).
//
// The model's choices where r8125 says nothing (docs/R8125.md "RSS"):
// no hash-type bit set is RSS off (queue 0; r8169's RSS_CTRL 0); a frame no
// enabled type covers (not IP, an IPv4 fragment for the L4 types, IPv6
// extension headers before TCP/UDP) hashes by the next type that covers it
// or goes to queue 0; the entry indexes with the low `mask bits` of the hash;
// an entry naming a queue the chip has no ring for (4 and above) drops the
// frame (counted in rx_dropped_filter, traced as rx_drop reason 13). Bits
// 18:16 are stored, not used to drop: r8125 writes ilog2 of its ring count,
// which need not be a power of two (3 rings: 1), so its own entries may
// name a queue at or beyond 1 << bits 18:16. A queue whose ring base was
// never written reads its descriptors at base 0, as any ring does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "rx_desc_v3.h"

namespace rtl8168sim {

class Device;

namespace rss {

// RSS_CTRL_8125 (Realtek r8125 enum rtl8125_rss_register_content).
inline constexpr uint32_t kTcpIpv4 = 1u << 0;
inline constexpr uint32_t kIpv4 = 1u << 1;
inline constexpr uint32_t kTcpIpv6 = 1u << 2;
inline constexpr uint32_t kIpv6 = 1u << 3;
inline constexpr uint32_t kUdpIpv4 = 1u << 11;
inline constexpr uint32_t kUdpIpv6 = 1u << 12;
inline constexpr uint32_t kHashTypes = kTcpIpv4 | kIpv4 | kTcpIpv6 | kIpv6 | kUdpIpv4 | kUdpIpv6;
inline constexpr unsigned kMaskBitsShift = 8;  // 10:8 ilog2(indirection entries)
inline constexpr unsigned kQueueBitsShift = 16;  // 18:16 ilog2(RX queues)
inline constexpr unsigned kKeySize = 40;        // RTL8125_RSS_KEY_SIZE
inline constexpr unsigned kIndirEntries = 128;  // RTL8125_MAX_INDIRECTION_TABLE_ENTRIES

// The longest hash input: IPv6 source and destination, two ports.
inline constexpr size_t kMaxInput = 36;

// Toeplitz hash of `input` under `key` (Microsoft RSS): for every set bit
// of the input, from the first byte's most significant bit on, XOR in the
// 32 key bits starting at that bit position. The key must be at least
// input.size() + 4 bytes long.
uint32_t toeplitz(std::span<const uint8_t> key, std::span<const uint8_t> input);

// What the hash covers for one frame under the RSS_CTRL hash types: the
// input bytes (length 0: no enabled type covers the frame) and whether the
// ports are in it.
struct Input {
  uint8_t bytes[kMaxInput] = {};
  size_t len = 0;
  bool l4 = false;
  bool udp = false;  // the ports are UDP's (l4 only)
};
Input hash_input(std::span<const uint8_t> frame, uint32_t ctrl);

// The RX queue of a frame on the device's RSS registers. `queues`: the
// profile's RX rings.
struct Choice {
  unsigned queue = 0;
  bool drop = false;  // the entry names a queue that cannot take the frame
  uint32_t hash = 0;
  // The hash's type as RxDescV3 reports it (rx_desc_v3.h HeaderInfo: the
  // frame's IP version, and TCP or UDP when the ports are in the input);
  // 0 when no hash was computed.
  uint16_t type = 0;
};
Choice pick(const Device& d, std::span<const uint8_t> frame, unsigned queues);

}  // namespace rss
}  // namespace rtl8168sim
