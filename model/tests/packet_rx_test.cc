// SPDX-License-Identifier: GPL-2.0-or-later
// classify_rx() (RX opts1 PID/IPF/UDPF/TCPF, RTL8169 datasheet p.56) and
// strip_vlan() (CPlusCmd RxVlan), including the TX-insert/RX-strip round trip.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "packet/packet.h"
#include "packet_test_util.h"

namespace rtl8168sim::packet_test {
namespace {

using packet::classify_rx;
using packet::RxClass;

void expect_class(const RxClass& c, bool ip, bool tcp, bool udp, bool ipf, bool tcpf, bool udpf) {
  EXPECT_EQ(c.is_ip, ip);
  EXPECT_EQ(c.is_tcp, tcp);
  EXPECT_EQ(c.is_udp, udp);
  EXPECT_EQ(c.ip_csum_fail, ipf);
  EXPECT_EQ(c.tcp_csum_fail, tcpf);
  EXPECT_EQ(c.udp_csum_fail, udpf);
}

TEST(PacketRx, GoodFramesOfEveryKind) {
  for (bool v6 : {false, true}) {
    for (uint8_t proto : {uint8_t{6}, uint8_t{17}}) {
      for (bool tagged : {false, true}) {
        for (size_t payload : {0u, 1u, 6u, 333u, 1400u}) {
          Spec s;
          s.ipv6 = v6;
          s.proto = proto;
          s.payload = payload;
          s.inband_vlan = tagged;
          s.tcp_opts = 12;
          SCOPED_TRACE(testing::Message() << v6 << int(proto) << tagged << payload);
          expect_class(classify_rx(build(s)), true, proto == 6, proto == 17, false, false, false);
        }
      }
    }
  }
}

TEST(PacketRx, KnownTcpSynVector) {
  const Bytes f = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56, 0x52, 0x54, 0x00, 0xab, 0xcd, 0xef, 0x08,
                   0x00, 0x45, 0x00, 0x00, 0x3c, 0x1c, 0x46, 0x40, 0x00, 0x40, 0x06, 0xb1, 0xe6,
                   0xac, 0x10, 0x0a, 0x63, 0xac, 0x10, 0x0a, 0x0c, 0xb4, 0x2c, 0x00, 0x50, 0x12,
                   0x34, 0x56, 0x78, 0x00, 0x00, 0x00, 0x00, 0xa0, 0x02, 0xfa, 0xf0, 0x86, 0x90,
                   0x00, 0x00, 0x02, 0x04, 0x05, 0xb4, 0x04, 0x02, 0x08, 0x0a, 0x00, 0x9d, 0x3c,
                   0x29, 0x00, 0x00, 0x00, 0x00, 0x01, 0x03, 0x03, 0x07};
  expect_class(classify_rx(f), true, true, false, false, false, false);
  Bytes bad = f;
  bad[51] ^= 1;  // TCP checksum low byte
  expect_class(classify_rx(bad), true, true, false, false, true, false);
}

TEST(PacketRx, ChecksumFailures) {
  Spec s;
  s.payload = 100;
  Bytes f = build(s);
  f[14 + 8] ^= 0x01;  // TTL: IPv4 header checksum now wrong
  expect_class(classify_rx(f), true, true, false, true, false, false);
  f = build(s);
  f.back() ^= 0x80;  // payload
  expect_class(classify_rx(f), true, true, false, false, true, false);
  s.proto = 17;
  f = build(s);
  f[50] ^= 0x10;
  expect_class(classify_rx(f), true, false, true, false, false, true);
  s.ipv6 = true;
  f = build(s);
  f[80] ^= 0x10;
  expect_class(classify_rx(f), true, false, true, false, false, true);
  s.proto = 6;
  f = build(s);
  f[14 + 8] ^= 0x01;  // source address byte: pseudo header changes
  expect_class(classify_rx(f), true, true, false, false, true, false);
}

TEST(PacketRx, UdpZeroChecksum) {
  Spec s;
  s.proto = 17;
  s.payload = 20;
  Bytes f = build(s);
  wr16(f, 34 + 6, 0);  // IPv4: no checksum, accepted (RFC 768)
  expect_class(classify_rx(f), true, false, true, false, false, false);
  s.ipv6 = true;
  f = build(s);
  wr16(f, 54 + 6, 0);  // IPv6: mandatory, 0 is a failure (RFC 8200 8.1)
  expect_class(classify_rx(f), true, false, true, false, false, true);
}

TEST(PacketRx, Ipv4OptionsUseIhl) {
  Spec s;
  s.ip_opts = 12;
  s.payload = 64;
  expect_class(classify_rx(build(s)), true, true, false, false, false, false);
  s.proto = 17;
  expect_class(classify_rx(build(s)), true, false, true, false, false, false);
}

TEST(PacketRx, FragmentsAreNotTcpUdp) {
  Spec s;
  s.payload = 64;
  for (uint16_t frag : {uint16_t{0x2000}, uint16_t{0x0001}, uint16_t{0x20ff}}) {
    Bytes f = build(s);
    wr16(f, 14 + 6, frag);
    ref_fill_checksums(f, s);  // valid IPv4 header checksum
    expect_class(classify_rx(f), true, false, false, false, false, false);
  }
}

TEST(PacketRx, PaddedShortDatagram) {
  // A 2-byte UDP datagram padded to 60 bytes with non-zero junk: the sum
  // covers the IP length only.
  Spec s;
  s.proto = 17;
  s.payload = 2;
  Bytes f = build(s);
  f.resize(60, 0x5a);
  expect_class(classify_rx(f), true, false, true, false, false, false);
  // With a 4-byte FCS still attached the verdict is the same.
  f.insert(f.end(), {1, 2, 3, 4});
  expect_class(classify_rx(f), true, false, true, false, false, false);
}

TEST(PacketRx, Ipv6ExtensionHeaderIsNotTcpUdp) {
  Spec s;
  s.ipv6 = true;
  s.payload = 40;
  Bytes f = build(s);
  // Insert an 8-byte hop-by-hop header (next header TCP) after the fixed header.
  const Bytes hbh = {6, 0, 1, 4, 0, 0, 0, 0};  // PadN
  f.insert(f.begin() + 54, hbh.begin(), hbh.end());
  f[14 + 6] = 0;
  wr16(f, 14 + 4, static_cast<uint16_t>(rd16(f, 14 + 4) + 8));
  expect_class(classify_rx(f), true, false, false, false, false, false);
}

TEST(PacketRx, TruncatedAndNonIp) {
  Spec s;
  s.payload = 100;
  const Bytes f = build(s);
  // IP header incomplete: not IP.
  for (size_t cut : {0u, 6u, 12u, 14u, 20u, 33u}) {
    expect_class(classify_rx(std::span<const uint8_t>(f).first(cut)), false, false, false, false,
                 false, false);
  }
  // IP header complete, datagram truncated: IP, no L4 verdict.
  for (size_t cut : {size_t{34}, size_t{40}, size_t{54}, size_t{100}, f.size() - 1}) {
    expect_class(classify_rx(std::span<const uint8_t>(f).first(cut)), true, false, false, false,
                 false, false);
  }
  Bytes arp = f;
  wr16(arp, 12, 0x0806);
  expect_class(classify_rx(arp), false, false, false, false, false, false);
  Bytes v = f;
  v[14] = 0x55;  // version 5
  expect_class(classify_rx(v), false, false, false, false, false, false);
  v[14] = 0x44;  // IHL 4
  expect_class(classify_rx(v), false, false, false, false, false, false);
  Bytes tl = f;
  wr16(tl, 16, 19);  // total length shorter than the header
  ref_fill_checksums(tl, s);
  EXPECT_FALSE(classify_rx(tl).is_tcp);
  Spec v6;
  v6.ipv6 = true;
  const Bytes s6 = build(v6);
  expect_class(classify_rx(std::span<const uint8_t>(s6).first(53)), false, false, false, false,
               false, false);
}

// ---- VLAN -----------------------------------------------------------------

TEST(PacketVlan, StripRemovesTagAndReportsTci) {
  Spec s;
  s.inband_vlan = true;
  s.payload = 64;
  Bytes f = build(s);
  uint16_t tci = 0;
  ASSERT_TRUE(packet::strip_vlan(f, tci));
  EXPECT_EQ(tci, 0x2005);
  s.inband_vlan = false;
  EXPECT_EQ(f, build(s));
  // Untagged: untouched.
  const Bytes before = f;
  tci = 0x7777;
  EXPECT_FALSE(packet::strip_vlan(f, tci));
  EXPECT_EQ(f, before);
  EXPECT_EQ(tci, 0x7777);
  // Too short to hold a tag.
  Bytes tiny = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0x81, 0x00, 0};
  EXPECT_FALSE(packet::strip_vlan(tiny, tci));
  EXPECT_EQ(tiny.size(), 15u);
  // 802.1ad S-tag is not an 802.1Q tag.
  Bytes qinq = build(Spec{});
  wr16(qinq, 12, 0x88a8);
  EXPECT_FALSE(packet::strip_vlan(qinq, tci));
}

TEST(PacketVlan, InsertStripRoundTrip) {
  for (uint16_t tci : {uint16_t{0}, uint16_t{1}, uint16_t{0x0fff}, uint16_t{0xe123}}) {
    Spec s;
    s.payload = 100;
    const Bytes f = build(s);
    packet::TxOffload o;
    o.vlan = true;
    o.vlan_tci = tci;
    std::vector<uint8_t> out;
    ASSERT_EQ(packet::finish_tx_frame(f, o, 1518, out), packet::TxStatus::ok);
    // RX with stripping off: the tagged frame still classifies.
    expect_class(classify_rx(out), true, true, false, false, false, false);
    uint16_t got = 0xffff;
    ASSERT_TRUE(packet::strip_vlan(out, got));
    EXPECT_EQ(got, tci);
    EXPECT_EQ(out, f);
  }
}

}  // namespace
}  // namespace rtl8168sim::packet_test
