// SPDX-License-Identifier: GPL-2.0-or-later
// TX engine through the C API: descriptors, SG, padding, checksum offload,
// VLAN insertion, the HPQ ring, ring wrap, wire timing.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};

struct ApiTx : ::testing::Test {
  void SetUp() override { ASSERT_UP(nic); }
  // Send one frame and return what reached the wire.
  Bytes send_one(const std::vector<Bytes>& frags, uint32_t opts1 = 0, uint32_t opts2 = 0) {
    const size_t before = nic.host.tx.size();
    nic.drv.queue_tx(frags, opts1, opts2);
    nic.drv.kick();
    EXPECT_TRUE(nic.drv.wait_tx()) << nic.host.trace_tail();
    EXPECT_EQ(nic.host.tx.size(), before + 1);
    return nic.host.tx.size() > before ? nic.host.tx.back().frame : Bytes{};
  }
  Bytes send_one(const Bytes& f, uint32_t opts1 = 0, uint32_t opts2 = 0) {
    return send_one(std::vector<Bytes>{f}, opts1, opts2);
  }
  Nic nic;
};

// Spoil the checksum fields the way a driver leaves them for offload
// (anything goes: the device zeroes the field and computes the full sum).
Bytes spoil_checksums(Bytes f) {
  const Parsed p = parse(f);
  if (!p.ipv6) put_be16(f, p.l3 + 10, 0);
  put_be16(f, p.l4 + (p.tcp ? 16 : 6), 0xbeef);
  return f;
}

// Everything except the checksum fields is unchanged.
void expect_same_but_checksums(const Bytes& want, Bytes got) {
  ASSERT_GE(got.size(), want.size());
  got.resize(want.size());
  const Parsed p = parse(want);
  Bytes w = want;
  for (Bytes* b : {&w, &got}) {
    if (!p.ipv6) put_be16(*b, p.l3 + 10, 0);
    put_be16(*b, p.l4 + (p.tcp ? 16 : 6), 0);
  }
  EXPECT_EQ(got, w);
}

TEST_F(ApiTx, SingleFrame) {
  const Bytes f = frame_to(kDst, 1514);
  const auto before = nic.host.stats();
  const unsigned idx = nic.drv.xmit(f);
  ASSERT_TRUE(nic.drv.wait_tx());
  ASSERT_EQ(nic.host.tx.size(), 1u);
  EXPECT_EQ(nic.host.tx[0].frame, f);
  EXPECT_EQ(nic.drv.tx_opts1(idx) & kDescOwn, 0u) << "completion = Own cleared";
  EXPECT_NE(nic.host.r16(kIntrStatus) & kTxOK, 0);
  const auto after = nic.host.stats();
  EXPECT_EQ(after.tx_frames, before.tx_frames + 1);
  EXPECT_EQ(after.tx_bytes, before.tx_bytes + 1514);
  EXPECT_EQ(after.tx_doorbells, before.tx_doorbells + 1);
}

TEST_F(ApiTx, ScatterGatherFrameIsConcatenated) {
  const Bytes f = frame_to(kDst, 1000, 3);
  std::vector<Bytes> frags = {
      Bytes(f.begin(), f.begin() + 14), Bytes(f.begin() + 14, f.begin() + 115),
      Bytes(f.begin() + 115, f.begin() + 116), Bytes(f.begin() + 116, f.end())};
  const unsigned first = nic.drv.cur_tx();
  EXPECT_EQ(send_one(frags), f);
  for (unsigned i = 0; i < frags.size(); ++i)
    EXPECT_EQ(nic.drv.tx_opts1(first + i) & kDescOwn, 0u) << "descriptor " << i;
}

TEST_F(ApiTx, ShortFramesArePaddedTo60) {
  const Bytes f = frame_to(kDst, 42, 5);  // an ARP-sized frame
  const Bytes got = send_one(f);
  ASSERT_EQ(got.size(), 60u);
  EXPECT_TRUE(std::equal(f.begin(), f.end(), got.begin()));
  for (size_t i = f.size(); i < got.size(); ++i) EXPECT_EQ(got[i], 0) << "pad byte " << i;
  // A padded SG frame too: 14 + 3 bytes in two descriptors.
  const Bytes g = frame_to(kDst, 17, 6);
  const Bytes got2 = send_one({Bytes(g.begin(), g.begin() + 14), Bytes(g.begin() + 14, g.end())});
  ASSERT_EQ(got2.size(), 60u);
  EXPECT_TRUE(std::equal(g.begin(), g.end(), got2.begin()));
}

struct CsumCase {
  const char* name;
  bool ipv6, tcp;
  size_t payload;
};
// GoogleTest prints a parameter without a PrintTo as its raw bytes, padding included, which
// Valgrind (model.memcheck) rightly reports as a read of uninitialised memory.
void PrintTo(const CsumCase& c, std::ostream* os) { *os << c.name; }

class ApiTxCsum : public ApiTx, public ::testing::WithParamInterface<CsumCase> {};

TEST_P(ApiTxCsum, ChecksumOffloadProducesValidChecksums) {
  const CsumCase& c = GetParam();
  const Bytes payload = pattern(c.payload, 9);
  Bytes f =
      c.ipv6 ? (c.tcp ? ipv6_tcp(kDst, test_mac(), payload) : ipv6_udp(kDst, test_mac(), payload))
             : (c.tcp ? ipv4_tcp(kDst, test_mac(), payload) : ipv4_udp(kDst, test_mac(), payload));
  const Parsed p = parse(f);
  ASSERT_TRUE(p.ok);
  // rtl8169_tso_csum_v2, CHECKSUM_PARTIAL branch.
  uint32_t opts2 = c.ipv6 ? kTd1Ipv6Cs : kTd1Ipv4Cs;
  opts2 |= c.tcp ? kTd1TcpCs : kTd1UdpCs;
  opts2 |= static_cast<uint32_t>(p.l4) << kTcphoShift;
  const Bytes got = send_one(spoil_checksums(f), 0, opts2);
  const Parsed q = parse(got);
  ASSERT_TRUE(q.ok) << "frame on the wire does not parse";
  if (!c.ipv6) {
    EXPECT_TRUE(ipv4_header_ok(got, q)) << "IPv4 header checksum";
  }
  EXPECT_TRUE(l4_checksum_ok(got, q)) << (c.tcp ? "TCP" : "UDP") << " checksum";
  expect_same_but_checksums(f, got);
}

INSTANTIATE_TEST_SUITE_P(
    Api, ApiTxCsum,
    ::testing::Values(CsumCase{"v4tcp", false, true, 200}, CsumCase{"v4tcp_odd", false, true, 1001},
                      CsumCase{"v4udp", false, false, 333}, CsumCase{"v4udp_tiny", false, false, 1},
                      CsumCase{"v6tcp", true, true, 1220}, CsumCase{"v6udp", true, false, 77}),
    [](const ::testing::TestParamInfo<CsumCase>& pi) { return std::string(pi.param.name); });

TEST_F(ApiTx, Ipv4HeaderChecksumOnlyWhenAskedFor) {
  // Without any checksum bit the device must not touch the frame.
  Bytes f = spoil_checksums(ipv4_tcp(kDst, test_mac(), pattern(100)));
  EXPECT_EQ(send_one(f), f);
}

TEST_F(ApiTx, VlanTagInsertion) {
  const Bytes f = frame_to(kDst, 200, 4);
  const uint16_t tci = 0x2005;  // PCP 1, VID 5
  const Bytes got = send_one(f, 0, kTxVlanTag | swab16(tci));
  EXPECT_EQ(got, vlan_insert(f, tci));
}

TEST_F(ApiTx, VlanInsertionWithChecksumOffload) {
  const Bytes f = ipv4_udp(kDst, test_mac(), pattern(100));
  const Parsed p = parse(f);
  const uint16_t tci = 0x0123;
  const Bytes got = send_one(spoil_checksums(f), 0,
                             kTxVlanTag | swab16(tci) | kTd1Ipv4Cs | kTd1UdpCs |
                                 static_cast<uint32_t>(p.l4) << kTcphoShift);
  const Parsed q = parse(got);
  ASSERT_TRUE(q.ok);
  EXPECT_TRUE(q.vlan);
  EXPECT_EQ(q.tci, tci);
  EXPECT_TRUE(ipv4_header_ok(got, q));
  EXPECT_TRUE(l4_checksum_ok(got, q));
}

TEST_F(ApiTx, HighPriorityQueue) {
  nic.host.w32(kTxHDescStartAddrHigh, static_cast<uint32_t>(Driver::kTxHRing >> 32));
  nic.host.w32(kTxHDescStartAddrLow, static_cast<uint32_t>(Driver::kTxHRing));
  const Bytes f = frame_to(kDst, 300, 8);
  const unsigned idx = nic.drv.queue_frame(f, 0, 0, Queue::kHigh);
  nic.drv.kick(Queue::kNormal);  // the NPQ doorbell does not poll the HPQ ring
  nic.host.advance(1'000'000);
  EXPECT_TRUE(nic.host.tx.empty()) << "NPQ doorbell sent a high-priority frame";
  nic.drv.kick(Queue::kHigh);
  ASSERT_TRUE(nic.drv.wait_tx(100'000'000, Queue::kHigh));
  ASSERT_EQ(nic.host.tx.size(), 1u);
  EXPECT_EQ(nic.host.tx[0].frame, f);
  EXPECT_EQ(nic.drv.tx_opts1(idx, Queue::kHigh) & kDescOwn, 0u);
  EXPECT_NE(nic.host.r16(kIntrStatus) & kTxOK, 0);
  // And the normal ring still works independently.
  const Bytes g = frame_to(kDst, 400, 9);
  EXPECT_EQ(send_one(g), g);
}

TEST_F(ApiTx, RingWrapsAtEor) {
  // 300 frames through a 256-entry ring, a few at a time.
  std::vector<Bytes> sent;
  for (unsigned i = 0; i < 300; i += 4) {
    for (unsigned k = 0; k < 4 && i + k < 300; ++k) {
      sent.push_back(frame_to(kDst, 60 + (i + k) % 200, static_cast<uint8_t>(i + k)));
      nic.drv.queue_frame(sent.back());
    }
    nic.drv.kick();
    ASSERT_TRUE(nic.drv.wait_tx()) << "stalled at frame " << i;
  }
  ASSERT_EQ(nic.host.tx.size(), sent.size());
  for (size_t i = 0; i < sent.size(); ++i) EXPECT_EQ(nic.host.tx[i].frame, sent[i]) << i;
  EXPECT_EQ(nic.drv.tx_opts1(kRingSize - 1) & kRingEnd, kRingEnd);
}

TEST_F(ApiTx, DoorbellWithEmptyRingSendsNothing) {
  nic.drv.kick();
  nic.host.advance(1'000'000);
  EXPECT_TRUE(nic.host.tx.empty());
  EXPECT_EQ(nic.host.r16(kIntrStatus) & kTxOK, 0);
}

// Timing mode: frames leave no faster than 1 Gbit/s line rate.
TEST(ApiTxTiming, BackToBackFramesRespectLineRate) {
  Nic nic(default_params(true));
  ASSERT_UP(nic);
  const size_t n = 10, len = 1514;
  for (size_t i = 0; i < n; ++i) nic.drv.queue_frame(frame_to(kDst, len, static_cast<uint8_t>(i)));
  const uint64_t t0 = nic.host.now();
  nic.drv.kick();
  ASSERT_TRUE(nic.drv.wait_tx(50'000'000));
  ASSERT_EQ(nic.host.tx.size(), n);
  // (frame + FCS + preamble/SFD + IFG) * 8 ns at 1000 Mbit/s.
  const uint64_t wire_ns = (len + 4 + 8 + 12) * 8;
  EXPECT_GE(nic.host.tx[0].time, t0) << "frame left before the doorbell";
  for (size_t i = 1; i < n; ++i)
    EXPECT_GE(nic.host.tx[i].time - nic.host.tx[i - 1].time, wire_ns) << "faster than line rate";
  EXPECT_LE(nic.host.tx.back().time - t0, 2 * n * wire_ns + 1'000'000) << "implausibly slow";
}

TEST(ApiTxTiming, FunctionalModeTransmitsInsideTheDoorbell) {
  Nic nic(default_params(false));
  ASSERT_UP(nic);
  nic.drv.queue_frame(frame_to(kDst, 100));
  nic.drv.kick();
  EXPECT_EQ(nic.host.tx.size(), 1u) << "timing=off: all work done inside the entry point";
}

}  // namespace
}  // namespace rtl8168_test
