// SPDX-License-Identifier: GPL-2.0-or-later
// Internet checksum helpers (model/src/packet/checksum.h) and the Ethernet
// CRC-32 / multicast hash (crc.cc), checked against fixed published vectors
// and against the naive references in packet_test_util.h.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <string_view>

#include "packet/checksum.h"
#include "packet/packet.h"
#include "packet_test_util.h"

namespace rtl8168sim::packet_test {
namespace {

namespace csum = rtl8168sim::packet::csum;

TEST(PacketChecksum, Rfc1071Example) {
  // RFC 1071 section 3: bytes 00 01 f2 03 f4 f5 f6 f7 sum to 0xddf2.
  const Bytes d = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
  EXPECT_EQ(ref_sum(d), 0xddf2);
  EXPECT_EQ(csum::fold(csum::partial(d)), 0xddf2);
  EXPECT_EQ(csum::internet_checksum(d), 0x220d);
}

TEST(PacketChecksum, KnownIpv4Headers) {
  // Widely quoted example headers with their checksums (0xb861, 0xb1e6).
  Bytes a = {0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
             0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7};
  EXPECT_EQ(csum::internet_checksum(a), 0xb861);
  EXPECT_EQ(ref_checksum(a), 0xb861);
  Bytes b = {0x45, 0x00, 0x00, 0x3c, 0x1c, 0x46, 0x40, 0x00, 0x40, 0x06,
             0x00, 0x00, 0xac, 0x10, 0x0a, 0x63, 0xac, 0x10, 0x0a, 0x0c};
  EXPECT_EQ(csum::internet_checksum(b), 0xb1e6);
  wr16(b, 10, 0xb1e6);
  EXPECT_TRUE(csum::verifies(csum::partial(b)));
  EXPECT_EQ(ref_sum(b), 0xffff);
}

TEST(PacketChecksum, MatchesReferenceForAllLengthsAndAlignments) {
  std::mt19937 rng(1071);
  Bytes buf(2100);
  for (auto& v : buf) v = static_cast<uint8_t>(rng());
  // Every length 0..300, at several (odd and even) start addresses: the
  // implementation reads 8 bytes at a time and must not care about alignment.
  for (size_t start = 0; start < 9; ++start) {
    for (size_t len = 0; len <= 300; ++len) {
      const std::span<const uint8_t> d(buf.data() + start, len);
      ASSERT_EQ(csum::fold(csum::partial(d)), ref_sum(d)) << start << " " << len;
    }
  }
  for (size_t len : {1499u, 1500u, 1514u, 2048u, 2099u}) {
    const std::span<const uint8_t> d(buf.data() + 1, len);
    EXPECT_EQ(csum::internet_checksum(d), ref_checksum(d));
  }
}

TEST(PacketChecksum, AllOnesAndCarryHeavyData) {
  // 0xff.. data exercises the carries (64 KiB of 0xffff words sums to 0xffff).
  const Bytes ones(65536, 0xff);
  EXPECT_EQ(csum::fold(csum::partial(ones)), ref_sum(ones));
  EXPECT_EQ(csum::fold(csum::partial(ones)), 0xffff);
  const Bytes zeros(1000, 0);
  EXPECT_EQ(csum::fold(csum::partial(zeros)), 0);
  EXPECT_EQ(csum::internet_checksum(zeros), 0xffff);
}

TEST(PacketChecksum, PartialsCombineAtEvenSplits) {
  const Bytes d = pattern(777, 9);
  const std::span<const uint8_t> s(d);
  for (size_t split = 0; split <= d.size(); split += 2) {
    const uint32_t p = csum::partial(s.subspan(split), csum::partial(s.first(split)));
    ASSERT_EQ(csum::fold(p), ref_sum(d)) << split;
  }
}

TEST(PacketChecksum, PseudoHeaders) {
  Spec s;
  s.payload = 99;
  for (bool v6 : {false, true}) {
    s.ipv6 = v6;
    const Bytes f = build(s);
    const size_t l3 = 14, l4 = l4_offset(s), len = f.size() - l4;
    const uint32_t ph = v6 ? csum::pseudo_ipv6(f.data() + l3, 6, static_cast<uint32_t>(len))
                           : csum::pseudo_ipv4(f.data() + l3, 6, static_cast<uint32_t>(len));
    const uint32_t sum = csum::partial(std::span<const uint8_t>(f).subspan(l4), ph);
    EXPECT_TRUE(csum::verifies(sum)) << v6;
    EXPECT_TRUE(ref_l4_ok(f, l3, v6, 6, l4, len));
  }
}

// ---- CRC ------------------------------------------------------------------

TEST(PacketCrc, CheckValue) {
  // The CRC-32 "check" value: crc32("123456789") = 0xcbf43926.
  constexpr std::string_view kCheck = "123456789";
  const Bytes d(kCheck.begin(), kCheck.end());
  EXPECT_EQ(ref_crc32(d), 0xcbf43926u);
  EXPECT_EQ(packet::ethernet_fcs(d), 0xcbf43926u);
  EXPECT_EQ(packet::ethernet_fcs({}), 0u);
}

TEST(PacketCrc, FcsMatchesBitwiseReferenceAndResidue) {
  std::mt19937 rng(8023);
  for (size_t len : {14u, 60u, 61u, 64u, 1514u, 1518u, 9000u}) {
    Bytes f(len);
    for (auto& v : f) v = static_cast<uint8_t>(rng());
    const uint32_t fcs = packet::ethernet_fcs(f);
    EXPECT_EQ(fcs, ref_crc32(f)) << len;
    // Appended least significant byte first, the CRC over frame+FCS is the
    // IEEE 802.3 residue 0x2144df1c (bit-reversed and inverted 0xc704dd7b).
    for (int i = 0; i < 4; ++i) f.push_back(static_cast<uint8_t>(fcs >> (8 * i)));
    EXPECT_EQ(ref_crc32(f), 0x2144df1cu);
  }
}

TEST(PacketCrc, MulticastHashBit) {
  struct Case {
    std::array<uint8_t, 6> da;
    unsigned bit;  // computed offline with the historical bitwise ether_crc
  };
  const Case cases[] = {
      {{0x01, 0x00, 0x5e, 0x00, 0x00, 0x01}, 31},  // 224.0.0.1 all-hosts
      {{0x33, 0x33, 0x00, 0x00, 0x00, 0x01}, 62},  // ff02::1
      {{0x01, 0x80, 0xc2, 0x00, 0x00, 0x00}, 25},  // STP
      {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 63},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(ref_ether_crc(c.da) >> 26, c.bit);
    EXPECT_EQ(packet::multicast_hash_bit(std::span<const uint8_t, 6>(c.da)), c.bit);
  }
  std::mt19937 rng(5);
  for (int i = 0; i < 1000; ++i) {
    std::array<uint8_t, 6> da;
    for (auto& v : da) v = static_cast<uint8_t>(rng());
    ASSERT_EQ(packet::multicast_hash_bit(std::span<const uint8_t, 6>(da)), ref_ether_crc(da) >> 26);
  }
}

}  // namespace
}  // namespace rtl8168sim::packet_test
