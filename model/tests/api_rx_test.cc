// SPDX-License-Identifier: GPL-2.0-or-later
// RX engine through the C API: accept rules, descriptor write-back, FCS,
// PID and checksum bits, VLAN strip, RxMaxSize, RxOverflow, back-pressure,
// and the rule that every offered frame is delivered or counted.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <optional>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

uint64_t rx_accounted(const rtl8168_stats& s) {
  return s.rx_frames + s.rx_dropped_filter + s.rx_dropped_no_desc + s.rx_dropped_disabled +
         s.rx_dropped_too_long + s.rx_dropped_dma + s.rx_dropped_runt;
}

Bytes fcs_le(const Bytes& f) {
  const uint32_t c = crc32_ieee(f);
  return {static_cast<uint8_t>(c), static_cast<uint8_t>(c >> 8), static_cast<uint8_t>(c >> 16),
          static_cast<uint8_t>(c >> 24)};
}

struct ApiRx : ::testing::Test {
  void SetUp() override { ASSERT_UP(nic); }
  // Offer one frame; return the descriptor it produced, if any.
  std::optional<RxFrame> offer(const Bytes& f) {
    EXPECT_EQ(nic.host.receive(f), f.size()) << "functional mode never applies back-pressure";
    nic.host.advance(100'000);
    auto got = nic.drv.rx_poll();
    EXPECT_LE(got.size(), 1u);
    if (got.empty()) return std::nullopt;
    return got[0];
  }
  void set_accept(uint32_t bits) {
    nic.host.w32(kRxConfig, (nic.host.r32(kRxConfig) & ~0x3fu) | bits);
  }
  Nic nic;
};

TEST_F(ApiRx, UnicastWriteBack) {
  const Bytes f = frame_to_us(100, 1);
  const auto before = nic.host.stats();
  const auto r = offer(f);
  ASSERT_TRUE(r.has_value()) << nic.host.trace_tail();
  EXPECT_EQ(r->index, 0u);
  EXPECT_EQ(r->opts1 & kDescOwn, 0u);
  EXPECT_EQ(r->opts1 & (kFirstFrag | kLastFrag), kFirstFrag | kLastFrag);
  EXPECT_EQ(r->opts1 & kRingEnd, 0u) << "descriptor 0 was not armed with EOR";
  EXPECT_EQ(r->opts1 & kRxLenMask, 104u) << "length includes the 4-byte FCS";
  EXPECT_NE(r->opts1 & kRxPAM, 0u) << "physical address match";
  EXPECT_EQ(r->opts1 & (kRxBAR | kRxMAR), 0u);
  EXPECT_EQ(r->opts1 & (kRxRWT | kRxRES | kRxRUNT | kRxCRC), 0u) << "no error bits";
  ASSERT_EQ(r->data.size(), 104u);
  EXPECT_EQ(Bytes(r->data.begin(), r->data.begin() + 100), f);
  EXPECT_EQ(Bytes(r->data.begin() + 100, r->data.end()), fcs_le(f)) << "FCS after the frame";
  EXPECT_NE(nic.host.r16(kIntrStatus) & kRxOK, 0);
  EXPECT_EQ(nic.host.stats().rx_frames, before.rx_frames + 1);
}

TEST_F(ApiRx, AcceptRules) {
  const Mac other = {0x52, 0x54, 0x00, 0x99, 0x99, 0x99};
  const Mac group = {0x01, 0x00, 0x5e, 0x00, 0x00, 0xfb};  // mDNS
  nic.drv.set_multicast({group});
  struct Case {
    const char* what;
    uint32_t accept;
    Mac dst;
    bool delivered;
    uint32_t status_bit;
  };
  const Case cases[] = {
      {"own unicast, APM", kAcceptMyPhys, test_mac(), true, kRxPAM},
      {"own unicast, no APM", kAcceptBroadcast | kAcceptMulticast, test_mac(), false, 0},
      {"other unicast", kAcceptMyPhys | kAcceptBroadcast | kAcceptMulticast, other, false, 0},
      {"other unicast, promiscuous", kAcceptAllPhys | kAcceptMyPhys, other, true, 0},
      {"broadcast, AB", kAcceptBroadcast, kBroadcast, true, kRxBAR},
      {"broadcast, no AB", kAcceptMyPhys | kAcceptMulticast, kBroadcast, false, 0},
      {"multicast in MAR, AM", kAcceptMulticast, group, true, kRxMAR},
      {"multicast in MAR, no AM", kAcceptMyPhys | kAcceptBroadcast, group, false, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    set_accept(c.accept);
    const auto before = nic.host.stats();
    const auto r = offer(frame_to(c.dst, 80));
    const auto after = nic.host.stats();
    EXPECT_EQ(r.has_value(), c.delivered);
    if (c.delivered) {
      EXPECT_EQ(after.rx_frames, before.rx_frames + 1);
      if (r && c.status_bit) {
        EXPECT_NE(r->opts1 & c.status_bit, 0u);
      }
    } else {
      EXPECT_EQ(after.rx_dropped_filter, before.rx_dropped_filter + 1);
      EXPECT_EQ(after.rx_frames, before.rx_frames);
    }
  }
}

TEST_F(ApiRx, MulticastHashFilter) {
  // Two joined groups; a third group whose hash bit is not set.
  const Mac g1 = {0x01, 0x00, 0x5e, 0x00, 0x00, 0x01};
  const Mac g2 = {0x33, 0x33, 0x00, 0x00, 0x00, 0x01};
  nic.drv.set_multicast({g1, g2});
  std::optional<Mac> miss;
  for (uint8_t last = 2; last < 255 && !miss; ++last) {
    const Mac h = {0x01, 0x00, 0x5e, 0x00, 0x01, last};
    if (mc_hash_bit(h) != mc_hash_bit(g1) && mc_hash_bit(h) != mc_hash_bit(g2)) miss = h;
  }
  ASSERT_TRUE(miss.has_value());
  set_accept(kAcceptMulticast | kAcceptMyPhys);
  EXPECT_TRUE(offer(frame_to(g1, 80)).has_value())
      << "joined group 1 (bit " << mc_hash_bit(g1) << ")";
  EXPECT_TRUE(offer(frame_to(g2, 80)).has_value())
      << "joined group 2 (bit " << mc_hash_bit(g2) << ")";
  EXPECT_FALSE(offer(frame_to(*miss, 80)).has_value())
      << "hash bit " << mc_hash_bit(*miss) << " clear";
  // The hash bit lives at MAR byte 7 - (n >> 3), bit n & 7 (docs/R8169.md §2).
  const unsigned n = mc_hash_bit(*miss);
  nic.host.w8(kMAR0 + 7 - (n >> 3),
              static_cast<uint8_t>(nic.host.r8(kMAR0 + 7 - (n >> 3)) | 1u << (n & 7)));
  EXPECT_TRUE(offer(frame_to(*miss, 80)).has_value()) << "after setting its bit by hand";
  // IFF_ALLMULTI: all ones.
  nic.host.w32(kMAR0, 0xffffffff);
  nic.host.w32(kMAR0 + 4, 0xffffffff);
  EXPECT_TRUE(offer(frame_to({0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e}, 80)).has_value());
}

TEST_F(ApiRx, RingWrapKeepsEor) {
  std::vector<RxFrame> all;
  for (unsigned i = 0; i < kRingSize + 3; ++i) {
    ASSERT_EQ(nic.host.receive(frame_to_us(64 + i % 50, static_cast<uint8_t>(i))), 64 + i % 50);
    nic.host.advance(10'000);
    for (auto& f : nic.drv.rx_poll()) all.push_back(std::move(f));
  }
  ASSERT_EQ(all.size(), kRingSize + 3);
  for (unsigned i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].index, i % kRingSize);
    EXPECT_EQ(all[i].opts1 & kRxLenMask, 64 + i % 50 + 4) << i;
  }
  EXPECT_NE(all[kRingSize - 1].opts1 & kRingEnd, 0u) << "EOR kept on write-back";
  EXPECT_EQ(all[kRingSize].opts1 & kRingEnd, 0u);
}

TEST_F(ApiRx, ProtocolIdAndChecksumFailBits) {
  const Mac me = test_mac();
  auto corrupt_l4 = [](Bytes f) {
    const Parsed p = parse(f);
    f[p.l4 + (p.tcp ? 16 : 6)] ^= 0x5a;
    return f;
  };
  auto corrupt_ip = [](Bytes f) {
    f[parse(f).l3 + 10] ^= 0x5a;
    return f;
  };
  struct Case {
    const char* what;
    Bytes frame;
    uint32_t pid, fail;
  };
  const Bytes pay = pattern(300, 11);
  const Case cases[] = {
      {"ipv4 tcp", ipv4_tcp(me, kPeerMac, pay), kRxProtoTCP, 0},
      {"ipv4 tcp bad csum", corrupt_l4(ipv4_tcp(me, kPeerMac, pay)), kRxProtoTCP, kRxTCPF},
      {"ipv4 udp", ipv4_udp(me, kPeerMac, pay), kRxProtoUDP, 0},
      {"ipv4 udp bad csum", corrupt_l4(ipv4_udp(me, kPeerMac, pay)), kRxProtoUDP, kRxUDPF},
      {"ipv4 bad header csum", corrupt_ip(ipv4_tcp(me, kPeerMac, pay)), kRxProtoTCP, kRxIPF},
      {"ipv6 tcp", ipv6_tcp(me, kPeerMac, pay), kRxProtoTCP, 0},
      {"ipv6 udp bad csum", corrupt_l4(ipv6_udp(me, kPeerMac, pay)), kRxProtoUDP, kRxUDPF},
      {"not ip", frame_to_us(200), 0, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const auto r = offer(c.frame);
    ASSERT_TRUE(r.has_value());
    if (c.fail == kRxIPF) {
      EXPECT_NE(r->opts1 & kRxIPF, 0u);  // PID not asserted when the IP header is bad
    } else {
      EXPECT_EQ(r->opts1 & kRxProtoMask, c.pid) << "PID bits";
      EXPECT_EQ(r->opts1 & (kRxIPF | kRxUDPF | kRxTCPF), c.fail) << "checksum fail bits";
    }
    // r8169 rtl8169_rx_csum: good only for TCP/UDP with no fail bit.
    const uint32_t st = r->opts1 & (kRxProtoMask | kRxIPF | kRxUDPF | kRxTCPF);
    EXPECT_EQ(st == kRxProtoTCP || st == kRxProtoUDP, c.pid != 0 && c.fail == 0);
  }
}

TEST_F(ApiRx, VlanStrip) {
  const uint16_t tci = 0xa00c;  // PCP 5, VID 12
  const Bytes plain = ipv4_tcp(test_mac(), kPeerMac, pattern(200, 12));
  const Bytes tagged = vlan_insert(plain, tci);
  // CPlusCmd.RxVlan on (driver default): tag removed, reported in opts2.
  auto r = offer(tagged);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->opts2 & (kRxVlanTagged | 0xffff), kRxVlanTagged | swab16(tci));
  EXPECT_EQ(r->opts1 & kRxLenMask, plain.size() + 4);
  ASSERT_GE(r->data.size(), plain.size());
  EXPECT_EQ(Bytes(r->data.begin(), r->data.begin() + static_cast<long>(plain.size())), plain);
  EXPECT_EQ(r->opts1 & kRxProtoMask, kRxProtoTCP) << "classified after the strip";
  EXPECT_EQ(r->opts1 & (kRxIPF | kRxTCPF | kRxUDPF), 0u);
  // RxVlan off: the tag stays in the frame.
  nic.host.w16(kCPlusCmd, kRxChkSum);
  r = offer(tagged);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->opts2 & kRxVlanTagged, 0u);
  EXPECT_EQ(r->opts1 & kRxLenMask, tagged.size() + 4);
  EXPECT_EQ(Bytes(r->data.begin(), r->data.begin() + static_cast<long>(tagged.size())), tagged);
  // Untagged frames never carry the tag flag.
  nic.host.w16(kCPlusCmd, kRxChkSum | kRxVlan);
  r = offer(plain);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->opts2 & kRxVlanTagged, 0u);
}

TEST_F(ApiRx, RxMaxSizeExceededIsDroppedAndCounted) {
  nic.host.w16(kRxMaxSize, 1000);
  const auto before = nic.host.stats();
  EXPECT_FALSE(offer(frame_to_us(1200)).has_value());
  EXPECT_EQ(nic.host.stats().rx_dropped_too_long, before.rx_dropped_too_long + 1);
  EXPECT_NE(nic.host.mem().r32(nic.drv.rx_desc_addr(0)) & kDescOwn, 0u)
      << "a dropped frame consumes no descriptor";
  const auto r = offer(frame_to_us(900));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->index, 0u);
  EXPECT_EQ(nic.host.stats().rx_frames, before.rx_frames + 1);
}

TEST_F(ApiRx, NoOwnedDescriptorRaisesRxOverflow) {
  for (unsigned i = 0; i < kRingSize; ++i) {
    ASSERT_EQ(nic.host.receive(frame_to_us(100, static_cast<uint8_t>(i))), 100u);
  }
  nic.host.advance(1'000'000);
  EXPECT_EQ(nic.host.r16(kIntrStatus) & kRxOverflow, 0) << "256 armed descriptors, 256 frames";
  const auto before = nic.host.stats();
  EXPECT_EQ(nic.host.receive(frame_to_us(100, 0xee)), 100u)
      << "a frame without descriptor is consumed";
  nic.host.advance(1'000'000);
  const auto after = nic.host.stats();
  EXPECT_NE(nic.host.r16(kIntrStatus) & kRxOverflow, 0);
  EXPECT_EQ(after.rx_dropped_no_desc, before.rx_dropped_no_desc + 1);
  EXPECT_EQ(after.rx_frames, before.rx_frames);
  // The driver refills; the next frame is delivered into descriptor 0.
  const auto got = nic.drv.rx_poll(true, kRingSize);
  ASSERT_EQ(got.size(), kRingSize);
  nic.host.w16(kIntrStatus, 0xffff);
  const Bytes f = frame_to_us(120, 0x77);
  const auto r = offer(f);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->index, 0u);
  EXPECT_EQ(Bytes(r->data.begin(), r->data.begin() + 120), f);
}

TEST_F(ApiRx, RuntsAndGiantsAreCounted) {
  const auto before = nic.host.stats();
  const Bytes runt = frame_to_us(10);
  EXPECT_EQ(nic.host.receive(runt), runt.size());
  nic.host.receive(Bytes{});  // zero length: must not crash
  const Bytes giant = frame_to_us(70000);
  EXPECT_EQ(nic.host.receive(giant), giant.size());
  nic.host.advance(1'000'000);
  const auto after = nic.host.stats();
  EXPECT_GE(after.rx_dropped_runt, before.rx_dropped_runt + 1);
  EXPECT_EQ(after.rx_dropped_too_long, before.rx_dropped_too_long + 1);
  EXPECT_EQ(after.rx_frames, before.rx_frames);
  EXPECT_TRUE(nic.drv.rx_poll().empty());
}

TEST_F(ApiRx, EveryOfferedFrameIsDeliveredOrCounted) {
  const Mac other = {0x52, 0x54, 0x00, 0x99, 0x99, 0x99};
  const auto before = nic.host.stats();
  uint64_t offered = 0, delivered = 0;
  for (unsigned i = 0; i < 600; ++i) {
    Bytes f;
    switch (i % 6) {
      case 0:
        f = frame_to_us(60 + i);
        break;
      case 1:
        f = frame_to(other, 80);
        break;
      case 2:
        f = frame_to(kBroadcast, 90);
        break;
      case 3:
        f = frame_to_us(8);
        break;
      case 4:
        f = frame_to_us(20000);
        break;
      default:
        f = ipv4_udp(test_mac(), kPeerMac, pattern(i));
        break;
    }
    ASSERT_EQ(nic.host.receive(f), f.size());
    ++offered;
    if (i == 550) delivered += nic.drv.rx_poll().size();  // ~275 deliverable before: overflow
  }
  nic.host.advance(1'000'000);
  delivered += nic.drv.rx_poll().size();
  const auto after = nic.host.stats();
  EXPECT_EQ(rx_accounted(after) - rx_accounted(before), offered);
  EXPECT_EQ(after.rx_frames - before.rx_frames, delivered);
  EXPECT_GT(after.rx_dropped_no_desc, before.rx_dropped_no_desc) << "test meant to overflow";
}

TEST(ApiRxTiming, BackPressureAndRxReady) {
  Nic nic(with(default_params(true), {{"rx-fifo-size", "16384"}}));
  ASSERT_UP(nic);
  ASSERT_TRUE(nic.host.can_receive());
  const unsigned n = 100;
  unsigned sent = 0, refusals = 0;
  std::vector<Bytes> frames;
  std::vector<RxFrame> got;
  for (unsigned guard = 0; sent < n && guard < 100000; ++guard) {
    frames.push_back(frame_to_us(1514, static_cast<uint8_t>(sent)));
    const size_t r = nic.host.receive(frames.back());
    if (r == frames.back().size()) {
      ++sent;
      continue;
    }
    frames.pop_back();
    ASSERT_EQ(r, 0u);
    ++refusals;
    EXPECT_FALSE(nic.host.can_receive()) << "receive() refused but can_receive() says yes";
    // Wait (bounded) for rx_ready, draining the ring meanwhile.
    const uint64_t calls = nic.host.rx_ready_calls;
    ASSERT_TRUE(nic.drv.poll(
        [&] {
          for (auto& f : nic.drv.rx_poll()) got.push_back(std::move(f));
          return nic.host.rx_ready_calls > calls;
        },
        1'000, 100'000'000))
        << "rx_ready never called after back-pressure";
    EXPECT_TRUE(nic.host.can_receive());
  }
  ASSERT_EQ(sent, n);
  EXPECT_GT(refusals, 0u) << "100 x 1514 bytes at one instant must overflow a 16 KiB FIFO";
  ASSERT_TRUE(nic.drv.poll(
      [&] {
        for (auto& f : nic.drv.rx_poll()) got.push_back(std::move(f));
        return got.size() >= n;
      },
      10'000, 100'000'000));
  ASSERT_EQ(got.size(), n);
  for (unsigned i = 0; i < n; ++i)
    EXPECT_EQ(Bytes(got[i].data.begin(), got[i].data.begin() + 1514), frames[i]) << i;
}

TEST(ApiRxTiming, DeliveryTakesTime) {
  Nic nic(default_params(true));
  ASSERT_UP(nic);
  ASSERT_EQ(nic.host.receive(frame_to_us(1514)), 1514u);
  // A 1514-byte frame cannot be in guest memory before it has been DMA'd;
  // at least check it is complete and signalled after a while, in order.
  ASSERT_TRUE(
      nic.drv.poll([&] { return (nic.host.r16(kIntrStatus) & kRxOK) != 0; }, 100, 10'000'000));
  const auto r = nic.drv.rx_poll();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].opts1 & kRxLenMask, 1518u);
}

}  // namespace
}  // namespace rtl8168_test
