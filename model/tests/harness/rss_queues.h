// SPDX-License-Identifier: GPL-2.0-or-later
// The RTL8125B's RX queues and RSS as Realtek's r8125 programs them, for the
// tests of RSS (api_8125b_rss_test.cc) and of the per-queue interrupts
// (api_8125b_msix_test.cc): the Microsoft RSS verification suite (key and
// published hashes: external data), frames carrying its tuples, rings for
// RX queues 1-3 and r8125's rtl8125_config_rss sequence.
#pragma once

#include <array>
#include <cstdint>

#include "harness/nic.h"

namespace rtl8168_test {

// The Microsoft RSS verification key ("Verifying the RSS Hash
// Calculation", also Intel 82599 datasheet 7.1.2.8.3).
inline constexpr std::array<uint8_t, 40> kMsKey = {
    0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
    0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
    0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa};

struct V4Vector {
  std::array<uint8_t, 4> dst, src;
  uint16_t dport, sport;
  uint32_t ip_only, ip_tcp;
};
// The published IPv4 table: destination (port), source (port), IPv4 only,
// IPv4 with TCP.
inline constexpr V4Vector kV4[] = {
    {{161, 142, 100, 80}, {66, 9, 149, 187}, 1766, 2794, 0x323e8fc2, 0x51ccc178},
    {{65, 69, 140, 83}, {199, 92, 111, 2}, 4739, 14230, 0xd718262a, 0xc626b0ea},
    {{12, 22, 207, 184}, {24, 19, 198, 95}, 38024, 12898, 0xd2d0a5de, 0x5c2b394a},
    {{209, 142, 163, 6}, {38, 27, 205, 30}, 2217, 48228, 0x82989176, 0xafc7327f},
    {{202, 188, 127, 2}, {153, 39, 163, 191}, 1303, 44251, 0x5d1809c5, 0x10e828a2},
};

struct V6Vector {
  std::array<uint8_t, 16> dst, src;
  uint16_t dport, sport;
  uint32_t ip_only, ip_tcp;
};
// The published IPv6 table.
inline constexpr V6Vector kV6[] = {
    // 3ffe:2501:200:3::1 (1766), 3ffe:2501:200:1fff::7 (2794)
    {{0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00, 0x00, 0x03, 0, 0, 0, 0, 0, 0, 0, 0x01},
     {0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00, 0x1f, 0xff, 0, 0, 0, 0, 0, 0, 0, 0x07},
     1766, 2794, 0x2cc18cd5, 0x40207d3d},
    // ff02::1 (4739), 3ffe:501:8::260:97ff:fe40:efab (14230)
    {{0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01},
     {0x3f, 0xfe, 0x05, 0x01, 0x00, 0x08, 0, 0, 0x02, 0x60, 0x97, 0xff, 0xfe, 0x40, 0xef, 0xab},
     4739, 14230, 0x0f0c461c, 0xdde51bbf},
    // fe80::200:f8ff:fe21:67cf (38024), 3ffe:1900:4545:3:200:f8ff:fe21:67cf (44251)
    {{0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0xf8, 0xff, 0xfe, 0x21, 0x67, 0xcf},
     {0x3f, 0xfe, 0x19, 0x00, 0x45, 0x45, 0x00, 0x03, 0x02, 0x00, 0xf8, 0xff, 0xfe, 0x21, 0x67, 0xcf},
     38024, 44251, 0x4b61e985, 0x02d1feef},
};

inline const Mac kRssUs = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
inline const Mac kRssPeer = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};

// A TCP (or UDP) frame to us carrying the vector's addresses and ports
// (Ethernet(14) + IPv4: source address at 26, destination at 30; IPv6:
// source at 22, destination at 38).
Bytes v4_frame(const V4Vector& v, bool udp = false);
Bytes v6_frame(const V6Vector& v);

inline constexpr uint32_t kRssKey8125 = 0x4600;
inline constexpr uint32_t kRssIndir8125 = 0x4700;
inline constexpr uint32_t kRdsarQ1 = 0x4000;
// RSS_CTRL as r8125 _rtl8125_set_rss_hash_opt writes it for 4 rings and 128
// entries: the four TCP/IP types, UDP off, mask bits 7, ilog2(4) << 16.
inline constexpr uint32_t kCtrl4Queues = 0x0f | 7u << 8 | 2u << 16;

Params chip_8125b(bool timing);

// RX queues 1-3: rings of kQueueSlots owned 16-byte descriptors (the last
// with EOR) in the test's scratch memory, 2 KiB buffers.
inline constexpr uint64_t kQueueRings = Driver::kScratch;
inline constexpr uint64_t kQueueBufs = Driver::kScratch + 0x1000;
inline constexpr unsigned kQueueSlots = 4;
inline uint64_t q_desc(unsigned q, unsigned slot) { return kQueueRings + (q - 1) * 0x100 + slot * 16; }
void arm_queues(Nic& nic);

// r8125's rtl8125_config_rss: the hash options, the table, the key.
void program_rss(Nic& nic, const std::array<uint8_t, 128>& table, uint32_t ctrl = kCtrl4Queues);
// ethtool_rxfh_indir_default(i, 4): i % 4.
std::array<uint8_t, 128> default_table();
// How many descriptors of queue q's ring the chip has handed back.
unsigned done_on(Nic& nic, unsigned q);

}  // namespace rtl8168_test
