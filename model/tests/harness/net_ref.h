// SPDX-License-Identifier: GPL-2.0-or-later
// Reference network code for the tests, written independently of the model
// (model/src/packet/): frame builders, the Internet checksum, the Ethernet
// CRC-32 and the multicast hash, and parsers used to verify what the model
// put on the wire or into guest memory. Deliberately plain and slow.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace rtl8168_test {

using Bytes = std::vector<uint8_t>;
using Mac = std::array<uint8_t, 6>;

inline constexpr Mac kBroadcast = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
inline constexpr Mac kPeerMac = {0x52, 0x54, 0x00, 0xab, 0xcd, 0xef};

uint16_t be16(std::span<const uint8_t> b, size_t off);
uint32_t be32(std::span<const uint8_t> b, size_t off);
void put_be16(Bytes& b, size_t off, uint16_t v);
void put_be32(Bytes& b, size_t off, uint32_t v);

// RFC 1071 ones'-complement sum folded to 16 bits (not complemented).
uint32_t ones_sum(std::span<const uint8_t> data, uint32_t sum = 0);
uint16_t fold(uint32_t sum);
// Internet checksum of `data` (complemented).
uint16_t inet_checksum(std::span<const uint8_t> data);

// IEEE 802.3 CRC-32 (reflected, poly 0xEDB88320), bit by bit.
uint32_t crc32_ieee(std::span<const uint8_t> data);
// Linux ether_crc(): big-endian CRC-32 over the address bits LSB first.
uint32_t ether_crc_be(std::span<const uint8_t> data);
// r8169 multicast hash bit: ether_crc(6, da) >> 26.
unsigned mc_hash_bit(const Mac& da);

// ---- frame builders (correct checksums unless told otherwise) ----------
Bytes eth_frame(const Mac& dst, const Mac& src, uint16_t ethertype,
                std::span<const uint8_t> payload);
Bytes pattern(size_t len, uint8_t seed = 1);

struct TcpOpts {
  uint32_t seq = 0x01020304;
  uint32_t ack = 0x0a0b0c0d;
  uint8_t flags = 0x18;  // PSH|ACK
  uint16_t sport = 40000, dport = 5001;
  uint16_t ip_id = 0x1234;
  bool timestamps = false;  // 12-byte NOP,NOP,TS option (header 66 bytes with Eth+IPv4)
};
Bytes ipv4_tcp(const Mac& dst, const Mac& src, std::span<const uint8_t> payload,
               const TcpOpts& o = {});
Bytes ipv6_tcp(const Mac& dst, const Mac& src, std::span<const uint8_t> payload,
               const TcpOpts& o = {});
Bytes ipv4_udp(const Mac& dst, const Mac& src, std::span<const uint8_t> payload,
               uint16_t sport = 7000, uint16_t dport = 7001);
Bytes ipv6_udp(const Mac& dst, const Mac& src, std::span<const uint8_t> payload,
               uint16_t sport = 7000, uint16_t dport = 7001);
// Insert an 802.1Q tag after the MAC addresses.
Bytes vlan_insert(std::span<const uint8_t> frame, uint16_t tci);

// ---- verification ----------------------------------------------------------
struct Parsed {
  bool ok = false;
  bool vlan = false;
  uint16_t tci = 0;
  size_t l3 = 0, l4 = 0, payload = 0;  // offsets
  bool ipv6 = false, tcp = false, udp = false;
  size_t ip_total = 0;  // IPv4 total length / IPv6 40 + payload length
};
Parsed parse(std::span<const uint8_t> frame);
// IPv4 header checksum verifies.
bool ipv4_header_ok(std::span<const uint8_t> frame, const Parsed& p);
// TCP/UDP checksum (with pseudo header) verifies over the IP payload.
bool l4_checksum_ok(std::span<const uint8_t> frame, const Parsed& p);

}  // namespace rtl8168_test
