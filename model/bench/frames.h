// SPDX-License-Identifier: GPL-2.0-or-later
// Frame builders for the bench's scripted traffic.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace bench {

inline constexpr std::array<uint8_t, 6> kNicMac{0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
inline constexpr std::array<uint8_t, 6> kPeerMac{0x52, 0x54, 0x00, 0xab, 0xcd, 0xef};

// TCP/IPv4 header with the timestamp option: 14 + 20 + 20 + 12 = 66 bytes,
// as Linux sends on a connection with timestamps (docs/HISTORY.md §3: MSS = MTU - 52).
inline constexpr uint32_t kTcpHeaderBytes = 66;
std::vector<uint8_t> tcp_ipv4_header(const std::array<uint8_t, 6>& dst,
                                     const std::array<uint8_t, 6>& src, uint32_t payload_len,
                                     uint32_t seq);

// A complete frame of `len` bytes (>= 66): TCP/IPv4 header + zero payload.
std::vector<uint8_t> tcp_frame(const std::array<uint8_t, 6>& dst, const std::array<uint8_t, 6>& src,
                               uint32_t len, uint32_t seq);

}  // namespace bench
