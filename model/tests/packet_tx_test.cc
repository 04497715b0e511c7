// SPDX-License-Identifier: GPL-2.0-or-later
// finish_tx_frame(): v2 TX descriptor checksum offloads (r8169
// rtl8169_tso_csum_v2), VLAN insertion, padding and the length limit. Every
// checksum the model writes is re-verified with the naive reference.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "packet/packet.h"
#include "packet_test_util.h"

namespace rtl8168sim::packet_test {
namespace {

using packet::finish_tx_frame;
using packet::TxOffload;
using packet::TxStatus;

constexpr size_t kMax = 1514;

TxOffload csum_request(const Spec& s) {
  TxOffload o;
  o.ipv4_cs = !s.ipv6;
  o.ipv6_cs = s.ipv6;
  o.tcp_cs = s.proto == 6;
  o.udp_cs = s.proto == 17;
  o.l4_offset = static_cast<uint32_t>(l4_offset(s));
  return o;
}

// Scramble the checksum fields the way the stack leaves them (the seed).
Bytes scramble(Bytes f, const Spec& s) {
  const size_t l3 = l3_offset(s), l4 = l4_offset(s);
  if (!s.ipv6) wr16(f, l3 + 10, 0xdead);
  if (s.proto == 6) wr16(f, l4 + 16, 0xbeef);
  if (s.proto == 17) wr16(f, l4 + 6, 0xbeef);
  return f;
}

void expect_checksums_ok(const Bytes& out, const Spec& s, size_t shift) {
  const size_t l3 = l3_offset(s) + shift, l4 = l4_offset(s) + shift;
  if (!s.ipv6) {
    EXPECT_TRUE(ref_ipv4_ok(out, l3, ip_header_len(s)));
  }
  EXPECT_TRUE(ref_l4_ok(out, l3, s.ipv6, s.proto, l4, l4_header_len(s) + s.payload));
}

struct Variant {
  bool ipv6;
  uint8_t proto;
  size_t ip_opts, tcp_opts;
  bool inband_vlan;
};

TEST(PacketTx, ChecksumOffloadMatchesReference) {
  const Variant variants[] = {
      {false, 6, 0, 0, false},  {false, 6, 0, 12, false}, {false, 6, 8, 12, false},
      {false, 17, 0, 0, false}, {false, 17, 4, 0, false}, {true, 6, 0, 0, false},
      {true, 6, 0, 12, false},  {true, 17, 0, 0, false},  {false, 6, 0, 0, true},
      {true, 17, 0, 0, true},
  };
  for (const auto& v : variants) {
    for (size_t payload : {0u, 1u, 2u, 3u, 17u, 100u, 1000u, 1400u}) {
      Spec s;
      s.ipv6 = v.ipv6;
      s.proto = v.proto;
      s.ip_opts = v.ip_opts;
      s.tcp_opts = v.tcp_opts;
      s.inband_vlan = v.inband_vlan;
      s.payload = payload;
      s.seed = static_cast<uint8_t>(payload);
      const Bytes good = build(s);
      if (good.size() > kMax) continue;
      std::vector<uint8_t> out;
      ASSERT_EQ(finish_tx_frame(scramble(good, s), csum_request(s), kMax, out), TxStatus::ok)
          << v.ipv6 << int(v.proto) << " " << payload;
      expect_checksums_ok(out, s, 0);
      // Identical to the reference-built frame (plus zero padding).
      Bytes expect = good;
      expect.resize(std::max<size_t>(expect.size(), 60), 0);
      EXPECT_EQ(out, expect) << v.ipv6 << int(v.proto) << " " << payload;
    }
  }
}

TEST(PacketTx, KnownTcpSynVector) {
  // IPv4 header 0xb1e6 (a widely quoted example) with a 40-byte-header SYN;
  // TCP checksum 0x8690 computed independently offline.
  Bytes f = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56, 0x52, 0x54, 0x00, 0xab, 0xcd, 0xef, 0x08, 0x00,
             // IPv4
             0x45, 0x00, 0x00, 0x3c, 0x1c, 0x46, 0x40, 0x00, 0x40, 0x06, 0x00, 0x00, 0xac, 0x10,
             0x0a, 0x63, 0xac, 0x10, 0x0a, 0x0c,
             // TCP SYN, MSS 1460, SACK-perm, TS, NOP, WS 7
             0xb4, 0x2c, 0x00, 0x50, 0x12, 0x34, 0x56, 0x78, 0x00, 0x00, 0x00, 0x00, 0xa0, 0x02,
             0xfa, 0xf0, 0x00, 0x00, 0x00, 0x00, 0x02, 0x04, 0x05, 0xb4, 0x04, 0x02, 0x08, 0x0a,
             0x00, 0x9d, 0x3c, 0x29, 0x00, 0x00, 0x00, 0x00, 0x01, 0x03, 0x03, 0x07};
  TxOffload o;
  o.ipv4_cs = o.tcp_cs = true;
  o.l4_offset = 34;
  std::vector<uint8_t> out;
  ASSERT_EQ(finish_tx_frame(f, o, kMax, out), TxStatus::ok);
  EXPECT_EQ(rd16(out, 24), 0xb1e6);
  EXPECT_EQ(rd16(out, 50), 0x8690);
  EXPECT_EQ(out.size(), f.size());
}

TEST(PacketTx, KnownIpv6UdpVector) {
  // fe80::1 -> ff02::fb UDP 5353 -> 5353 (an mDNS query for "local");
  // checksum 0xff21 computed independently offline.
  Bytes f = {0x33, 0x33, 0x00, 0x00, 0x00, 0xfb, 0x52, 0x54, 0x00, 0xab, 0xcd,
             0xef, 0x86, 0xdd, 0x60, 0x00, 0x00, 0x00, 0x00, 0x1f, 0x11, 0xff};
  const uint8_t src[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  const uint8_t dst[16] = {0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xfb};
  f.insert(f.end(), src, src + 16);
  f.insert(f.end(), dst, dst + 16);
  const Bytes udp = {0x14, 0xe9, 0x14, 0xe9, 0x00, 0x1f, 0x00, 0x00, 0,    0,    0, 0, 0, 1, 0, 0,
                     0,    0,    0,    0,    0x05, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0, 0, 1, 0, 1};
  f.insert(f.end(), udp.begin(), udp.end());
  TxOffload o;
  o.ipv6_cs = o.udp_cs = true;
  o.l4_offset = 54;
  std::vector<uint8_t> out;
  ASSERT_EQ(finish_tx_frame(f, o, kMax, out), TxStatus::ok);
  EXPECT_EQ(rd16(out, 54 + 6), 0xff21);
}

TEST(PacketTx, UdpZeroChecksumIsSentAsAllOnes) {
  for (bool v6 : {false, true}) {
    Spec s;
    s.ipv6 = v6;
    s.proto = 17;
    s.payload = 40;
    Bytes f = build(s);
    // Choose the first payload word so that the data sums to 0xffff, i.e. the
    // computed checksum is 0 (RFC 768: transmit it as 0xffff).
    const size_t l3 = 14, l4 = l4_offset(s), w = l4 + 8;
    wr16(f, l4 + 6, 0);
    wr16(f, w, 0);
    const uint16_t rest = ref_sum(pseudo_and_l4(f, l3, v6, 17, l4, 8 + s.payload));
    wr16(f, w, static_cast<uint16_t>(0xffff - rest));
    ASSERT_EQ(ref_sum(pseudo_and_l4(f, l3, v6, 17, l4, 8 + s.payload)), 0xffff);
    std::vector<uint8_t> out;
    ASSERT_EQ(finish_tx_frame(f, csum_request(s), kMax, out), TxStatus::ok);
    EXPECT_EQ(rd16(out, l4 + 6), 0xffff) << v6;
    EXPECT_TRUE(ref_l4_ok(out, l3, v6, 17, l4, 8 + s.payload));
  }
}

TEST(PacketTx, IpHeaderChecksumOnly) {
  Spec s;
  s.proto = 1;  // ICMP: r8169 sets IPv4_CS only (and warns)
  s.payload = 30;
  Bytes f = build(s);
  wr16(f, 24, 0x1111);
  TxOffload o;
  o.ipv4_cs = true;
  std::vector<uint8_t> out;
  ASSERT_EQ(finish_tx_frame(f, o, kMax, out), TxStatus::ok);
  EXPECT_TRUE(ref_ipv4_ok(out, 14, 20));
}

TEST(PacketTx, ChecksumCoversIpLengthNotEthernetTrailer) {
  // A datagram followed by trailer bytes in the same frame: the L4 sum covers
  // the IP length only and the trailer goes out unchanged.
  Spec s;
  s.proto = 17;
  s.payload = 4;
  const Bytes good = build(s);
  Bytes f = scramble(good, s);
  const Bytes trailer = {0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x11, 0x22, 0x33, 0x44,
                         0x55, 0x66, 0x77, 0x88, 0x99, 0x10, 0x20, 0x30, 0x40, 0x50};
  f.insert(f.end(), trailer.begin(), trailer.end());
  std::vector<uint8_t> out;
  ASSERT_EQ(finish_tx_frame(f, csum_request(s), kMax, out), TxStatus::ok);
  expect_checksums_ok(out, s, 0);
  ASSERT_EQ(out.size(), good.size() + trailer.size());
  EXPECT_TRUE(std::equal(trailer.begin(), trailer.end(), out.begin() + good.size()));
}

TEST(PacketTx, VlanInsertionAfterMacs) {
  Spec s;
  s.payload = 200;
  const Bytes good = build(s);
  TxOffload o = csum_request(s);
  o.vlan = true;
  o.vlan_tci = 0xa07b;  // PCP 5, VID 0x07b
  std::vector<uint8_t> out;
  ASSERT_EQ(finish_tx_frame(scramble(good, s), o, kMax + 4, out), TxStatus::ok);
  ASSERT_EQ(out.size(), good.size() + 4);
  EXPECT_TRUE(std::equal(good.begin(), good.begin() + 12, out.begin()));
  EXPECT_EQ(rd16(out, 12), 0x8100);
  EXPECT_EQ(rd16(out, 14), 0xa07b);
  EXPECT_TRUE(std::equal(good.begin() + 12, good.end(), out.begin() + 16));
  expect_checksums_ok(out, s, 4);
}

TEST(PacketTx, PadsTo60AfterTagging) {
  // 42-byte frame (ARP size): padded to 60 with zeros; with a tag, 46 -> 60.
  const Bytes arp = pattern(42, 3);
  for (bool tag : {false, true}) {
    TxOffload o;
    o.vlan = tag;
    o.vlan_tci = 7;
    std::vector<uint8_t> out(100, 0xee);  // stale contents must not leak into the pad
    ASSERT_EQ(finish_tx_frame(arp, o, kMax, out), TxStatus::ok);
    ASSERT_EQ(out.size(), 60u);
    const size_t used = arp.size() + (tag ? 4 : 0);
    for (size_t i = used; i < 60; ++i) EXPECT_EQ(out[i], 0) << i;
    EXPECT_EQ(out[used - 1], arp.back());
  }
  // 58 bytes + tag = 62: no padding.
  TxOffload o;
  o.vlan = true;
  std::vector<uint8_t> out;
  ASSERT_EQ(finish_tx_frame(pattern(58, 4), o, kMax, out), TxStatus::ok);
  EXPECT_EQ(out.size(), 62u);
  // Short UDP datagram with checksum offload: padded, checksum over the datagram only.
  Spec s;
  s.proto = 17;
  s.payload = 2;
  std::vector<uint8_t> out2(80, 0xee);
  ASSERT_EQ(finish_tx_frame(scramble(build(s), s), csum_request(s), kMax, out2), TxStatus::ok);
  ASSERT_EQ(out2.size(), 60u);
  expect_checksums_ok(out2, s, 0);
  for (size_t i = 44; i < 60; ++i) EXPECT_EQ(out2[i], 0);
}

TEST(PacketTx, MaxFrameEnforced) {
  const Bytes f = pattern(1514, 5);
  TxOffload o;
  std::vector<uint8_t> out;
  EXPECT_EQ(finish_tx_frame(f, o, 1514, out), TxStatus::ok);
  EXPECT_EQ(finish_tx_frame(f, o, 1513, out), TxStatus::too_long);
  o.vlan = true;
  EXPECT_EQ(finish_tx_frame(f, o, 1514, out), TxStatus::too_long);
  EXPECT_EQ(finish_tx_frame(f, o, 1518, out), TxStatus::ok);
}

TEST(PacketTx, MalformedRequests) {
  Spec tcp4;
  tcp4.payload = 50;
  Spec udp6;
  udp6.ipv6 = true;
  udp6.proto = 17;
  const Bytes f4 = build(tcp4), f6 = build(udp6);
  std::vector<uint8_t> out;
  auto run = [&](const Bytes& f, TxOffload o) { return finish_tx_frame(f, o, kMax, out); };

  TxOffload o = csum_request(tcp4);
  o.tcp_cs = false;
  o.udp_cs = true;  // UDP_CS on a TCP segment
  EXPECT_EQ(run(f4, o), TxStatus::malformed);
  o = csum_request(tcp4);
  o.l4_offset = 38;  // TCPHO inconsistent with the header
  EXPECT_EQ(run(f4, o), TxStatus::malformed);
  o = csum_request(tcp4);
  o.udp_cs = true;  // both
  EXPECT_EQ(run(f4, o), TxStatus::malformed);
  o = csum_request(udp6);
  o.ipv6_cs = false;
  o.ipv4_cs = true;  // IPv4_CS on IPv6
  EXPECT_EQ(run(f6, o), TxStatus::malformed);
  o = csum_request(tcp4);
  o.ipv4_cs = false;
  o.ipv6_cs = true;  // IPv6_CS on IPv4
  EXPECT_EQ(run(f4, o), TxStatus::malformed);
  // Truncated inside the TCP header.
  EXPECT_EQ(run(Bytes(f4.begin(), f4.begin() + 40), csum_request(tcp4)), TxStatus::malformed);
  // IP total length beyond the frame.
  Bytes longer = f4;
  wr16(longer, 16, static_cast<uint16_t>(f4.size()));
  EXPECT_EQ(run(longer, csum_request(tcp4)), TxStatus::malformed);
  // Not IP at all (ARP ethertype).
  Bytes arp = f4;
  wr16(arp, 12, 0x0806);
  EXPECT_EQ(run(arp, csum_request(tcp4)), TxStatus::malformed);
  // TCP data offset below 5.
  Bytes doff = f4;
  doff[34 + 12] = 0x40;
  EXPECT_EQ(run(doff, csum_request(tcp4)), TxStatus::malformed);
  // TCPHO 0 means "not given": the parsed header is used.
  o = csum_request(tcp4);
  o.l4_offset = 0;
  EXPECT_EQ(run(f4, o), TxStatus::ok);
  // VLAN insertion into something shorter than the MAC addresses.
  TxOffload v;
  v.vlan = true;
  EXPECT_EQ(run(Bytes(11, 0), v), TxStatus::malformed);
}

TEST(PacketTx, Ipv6ExtensionHeadersAreSkipped) {
  // Hop-by-hop (8 bytes) + destination options (16 bytes) before UDP: the
  // transport offset the driver passes (TCPHO) is after both.
  Spec s;
  s.ipv6 = true;
  s.proto = 17;
  s.payload = 30;
  Bytes f = build(s);
  const Bytes ext = {60, 0, 1, 4,  0, 0, 0, 0,                           // HBH -> DstOpts
                     17, 1, 1, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};  // DstOpts -> UDP
  f.insert(f.begin() + 54, ext.begin(), ext.end());
  f[14 + 6] = 0;  // next header: hop-by-hop
  wr16(f, 14 + 4, static_cast<uint16_t>(rd16(f, 14 + 4) + ext.size()));
  wr16(f, 78 + 6, 0x5555);
  TxOffload o;
  o.ipv6_cs = o.udp_cs = true;
  o.l4_offset = 78;
  std::vector<uint8_t> out;
  ASSERT_EQ(finish_tx_frame(f, o, kMax, out), TxStatus::ok);
  EXPECT_TRUE(ref_l4_ok(out, 14, true, 17, 78, 8 + s.payload));
  o.l4_offset = 54;  // pointing at the extension header: inconsistent
  EXPECT_EQ(finish_tx_frame(f, o, kMax, out), TxStatus::malformed);
  // A fragment header in the chain: no transport header to offload.
  f[62] = 44;
  o.l4_offset = 0;
  EXPECT_EQ(finish_tx_frame(f, o, kMax, out), TxStatus::malformed);
}

TEST(PacketTx, ParseTxHeaders) {
  Spec s;
  s.tcp_opts = 12;
  s.payload = 100;
  packet::L3L4Info info;
  TxOffload o;
  o.gtsenv4 = true;
  o.mss = 1448;
  o.l4_offset = 34;
  ASSERT_EQ(packet::parse_tx_headers(build(s), o, info), TxStatus::ok);
  EXPECT_FALSE(info.ipv6);
  EXPECT_TRUE(info.tcp);
  EXPECT_EQ(info.l3_offset, 14u);
  EXPECT_EQ(info.l4_offset, 34u);
  EXPECT_EQ(info.header_len, 66u);
  s.ipv6 = true;
  o = TxOffload{};
  o.gtsenv6 = true;
  o.mss = 1000;
  ASSERT_EQ(packet::parse_tx_headers(build(s), o, info), TxStatus::ok);
  EXPECT_TRUE(info.ipv6);
  EXPECT_EQ(info.header_len, 86u);
  s.proto = 17;
  o = TxOffload{};
  o.udp_cs = o.ipv6_cs = true;
  ASSERT_EQ(packet::parse_tx_headers(build(s), o, info), TxStatus::ok);
  EXPECT_TRUE(info.udp);
  EXPECT_EQ(info.header_len, 62u);
}

}  // namespace
}  // namespace rtl8168sim::packet_test
