// SPDX-License-Identifier: GPL-2.0-or-later
// TSO (GTSENV4/GTSENV6 + MSS, v2 descriptors): the segments on the wire are
// checked field by field with the tests' own reference code.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};

struct ApiTso : ::testing::Test {
  void SetUp() override { ASSERT_UP(nic); }

  // Queue a TSO super-frame the way the bench's ideal driver does (header
  // in its own descriptor, the payload in a second one) and return the
  // frames that reached the wire.
  std::vector<Bytes> send_tso(const Bytes& super, size_t mss, bool ipv6, uint32_t extra_opts2 = 0) {
    const Parsed p = parse(super);
    EXPECT_TRUE(p.ok);
    const Bytes hdr(super.begin(), super.begin() + static_cast<long>(p.payload));
    const Bytes pay(super.begin() + static_cast<long>(p.payload), super.end());
    const uint32_t opts1 = (ipv6 ? kTd1GtsEnv6 : kTd1GtsEnv4) | static_cast<uint32_t>(p.l4)
                                                                    << kGttcphoShift;
    const uint32_t opts2 = static_cast<uint32_t>(mss) << kTd1MssShift | extra_opts2;
    const size_t before = nic.host.tx.size();
    nic.drv.queue_tx({hdr, pay}, opts1, opts2);
    nic.drv.kick();
    EXPECT_TRUE(nic.drv.wait_tx()) << nic.host.trace_tail();
    std::vector<Bytes> out;
    for (size_t i = before; i < nic.host.tx.size(); ++i) out.push_back(nic.host.tx[i].frame);
    return out;
  }
  Nic nic;
};

// Check every segment against the super-frame, independently of the model.
void verify_segments(const Bytes& super, size_t mss, const std::vector<Bytes>& segs,
                     bool vlan = false, uint16_t tci = 0) {
  const Parsed sp = parse(super);
  ASSERT_TRUE(sp.ok);
  const size_t hlen = sp.payload;
  const size_t total = super.size() - hlen;
  const size_t want = total == 0 ? 1 : (total + mss - 1) / mss;
  ASSERT_EQ(segs.size(), want) << "segment count for payload " << total << " / mss " << mss;
  const uint32_t seq0 = be32(super, sp.l4 + 4);
  const uint8_t flags0 = super[sp.l4 + 13];
  Bytes joined;
  for (size_t i = 0; i < segs.size(); ++i) {
    SCOPED_TRACE("segment " + std::to_string(i));
    const Bytes& s = segs[i];
    const Parsed p = parse(s);
    ASSERT_TRUE(p.ok);
    EXPECT_EQ(p.vlan, vlan);
    if (vlan) {
      EXPECT_EQ(p.tci, tci);
    }
    const size_t seg_payload = std::min(mss, total - i * mss);
    const size_t vl = vlan ? 4 : 0;
    EXPECT_EQ(s.size(), std::max<size_t>(60, hlen + vl + seg_payload));
    EXPECT_TRUE(std::equal(super.begin(), super.begin() + 12, s.begin())) << "MAC addresses";
    EXPECT_EQ(p.ip_total - (p.l4 - p.l3), hlen - sp.l4 + seg_payload) << "IP length field";
    if (!sp.ipv6) {
      EXPECT_TRUE(ipv4_header_ok(s, p)) << "IPv4 header checksum";
      EXPECT_EQ(be16(s, p.l3 + 4), static_cast<uint16_t>(be16(super, sp.l3 + 4) + i)) << "IP ID";
    }
    EXPECT_TRUE(l4_checksum_ok(s, p)) << "TCP checksum";
    EXPECT_EQ(be32(s, p.l4 + 4), seq0 + static_cast<uint32_t>(i * mss)) << "sequence number";
    EXPECT_EQ(be32(s, p.l4 + 8), be32(super, sp.l4 + 8)) << "ack number";
    const bool last = i + 1 == segs.size();
    const uint8_t want_flags = last ? flags0 : static_cast<uint8_t>(flags0 & ~0x09);  // FIN|PSH
    EXPECT_EQ(s[p.l4 + 13] & 0x3f, want_flags & 0x3f) << "TCP flags";
    // TCP options (e.g. timestamps) copied unchanged.
    EXPECT_TRUE(std::equal(super.begin() + static_cast<long>(sp.l4 + 20),
                           super.begin() + static_cast<long>(hlen),
                           s.begin() + static_cast<long>(p.l4 + 20)))
        << "TCP options";
    joined.insert(joined.end(), s.begin() + static_cast<long>(p.payload),
                  s.begin() + static_cast<long>(p.payload + seg_payload));
  }
  EXPECT_TRUE(std::equal(super.begin() + static_cast<long>(hlen), super.end(), joined.begin(),
                         joined.end()))
      << "concatenated payloads differ from the super-frame payload";
}

TEST_F(ApiTso, Ipv4SegmentsWithTimestamps) {
  TcpOpts o;
  o.timestamps = true;  // 66-byte header, as in the bench's MTU sweep
  const size_t mss = 1448;
  const Bytes super = ipv4_tcp(kDst, test_mac(), pattern(10000, 2), o);
  ASSERT_EQ(parse(super).payload, 66u);
  const auto before = nic.host.stats();
  const auto segs = send_tso(super, mss, false);
  verify_segments(super, mss, segs);
  EXPECT_EQ(nic.host.stats().tx_frames, before.tx_frames + segs.size());
}

TEST_F(ApiTso, Ipv4FinAndPshOnlyOnLastSegment) {
  TcpOpts o;
  o.flags = 0x19;  // FIN|PSH|ACK
  const auto super = ipv4_tcp(kDst, test_mac(), pattern(3000, 3), o);
  verify_segments(super, 1000, send_tso(super, 1000, false));
}

TEST_F(ApiTso, Ipv6Segments) {
  TcpOpts o;
  o.timestamps = true;
  const Bytes super = ipv6_tcp(kDst, test_mac(), pattern(7777, 4), o);
  verify_segments(super, 1428, send_tso(super, 1428, true));
}

TEST_F(ApiTso, LargestSuperFrame) {
  const Bytes super = ipv4_tcp(kDst, test_mac(), pattern(64000, 5));
  verify_segments(super, 1460, send_tso(super, 1460, false));
}

TEST_F(ApiTso, MssLargerThanPayloadGivesOneSegment) {
  const Bytes super = ipv4_tcp(kDst, test_mac(), pattern(500, 6));
  const auto segs = send_tso(super, 1448, false);
  verify_segments(super, 1448, segs);
  ASSERT_EQ(segs.size(), 1u);
  EXPECT_EQ(segs[0], super) << "one segment = the frame with correct checksums";
}

TEST_F(ApiTso, SegmentsCarryTheVlanTag) {
  const Bytes super = ipv4_tcp(kDst, test_mac(), pattern(4000, 7));
  const uint16_t tci = 0x6064;
  verify_segments(super, 1448, send_tso(super, 1448, false, kTxVlanTag | swab16(tci)), true, tci);
}

TEST_F(ApiTso, MssZeroIsRejectedAndCounted) {
  const Bytes super = ipv4_tcp(kDst, test_mac(), pattern(3000, 8));
  const Parsed p = parse(super);
  const auto before = nic.host.stats();
  nic.drv.queue_tx({Bytes(super.begin(), super.begin() + static_cast<long>(p.payload)),
                    Bytes(super.begin() + static_cast<long>(p.payload), super.end())},
                   kTd1GtsEnv4 | static_cast<uint32_t>(p.l4) << kGttcphoShift, 0);
  nic.drv.kick();
  ASSERT_TRUE(nic.host.run_until(nic.host.now() + 10'000'000));
  EXPECT_TRUE(nic.host.tx.empty()) << "MSS 0 must not put anything on the wire";
  const auto after = nic.host.stats();
  EXPECT_EQ(after.tx_bad_descriptors, before.tx_bad_descriptors + 1);
  // Whatever state the TX engine is left in, the driver's reset path
  // (rtl_reset_work: cleanup + hw_start) brings the device back.
  ASSERT_TRUE(nic.drv.cleanup());
  nic.drv.hw_start();
  const Bytes f = frame_to(kDst, 100);
  nic.drv.xmit(f);
  ASSERT_TRUE(nic.drv.wait_tx());
  ASSERT_FALSE(nic.host.tx.empty());
  EXPECT_EQ(nic.host.tx.back().frame, f);
}

}  // namespace
}  // namespace rtl8168_test
