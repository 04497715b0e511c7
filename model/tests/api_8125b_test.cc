// SPDX-License-Identifier: GPL-2.0-or-later
// The RTL8125B profile (chip=8125b, r8169 RTL_GIGA_MAC_VER_63): identity
// from the chip list, bring-up the way r8169 drives the 8125 (32-bit
// interrupt registers at 0x38/0x3c, the doorbell at 0x90, MAC0_BKP,
// rtl_hw_init_8125, the VER_63 FIFO-empty wait), the registers above the
// 256-byte file, the 2.5G PHY as realtek.c sees it (ID, 2.5G ability and
// advertisement, MMD over C22, PHYSR, resolution, forced modes), 2.5G wire
// timing, jumbo to 16 KiB, RX VLAN in RxConfig, the extended tally block and
// the state blob. docs/R8125.md lists the driver traffic these follow.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <cstring>
#include <string>
#include <utility>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

constexpr uint32_t kFlag = 0x80000000u;
const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};
const Mac kUs = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
constexpr uint32_t kPhyStatus = 0x6c;
constexpr uint32_t kTnpdsQ1 = 0x2100;

Params b(bool timing = true, const Params& extra = {}) {
  return with(with(default_params(timing), {{"chip", "8125b"}}), extra);
}

const rtl8168_chip_info* find_chip(const char* id) {
  static rtl8168_chip_info c;
  for (size_t i = 0; rtl8168_chip_at(i, &c) == 0; i++) {
    if (std::strcmp(c.id, id) == 0) return &c;
  }
  return nullptr;
}

// realtek.c's view of the PHY through r8169's paged access (page 0 = 0xa400).
uint16_t phy_paged(Nic& nic, uint16_t page, unsigned reg) {
  EXPECT_TRUE(nic.drv.mdio_write(kMiiPage, page));
  const auto v = nic.drv.mdio_read(reg);
  EXPECT_TRUE(nic.drv.mdio_write(kMiiPage, 0));
  return v.value_or(0xdead);
}

TEST(Api8125b, ChipListGivesItsIdentity) {
  ASSERT_EQ(rtl8168_chip_count(), 4u);
  const rtl8168_chip_info* c = find_chip("8125b");
  ASSERT_NE(c, nullptr);
  EXPECT_STREQ(c->name, "RTL8125B");
  EXPECT_STREQ(c->r8169_version, "RTL_GIGA_MAC_VER_63");
  EXPECT_STREQ(c->firmware, "rtl_nic/rtl8125b-2.fw");
  EXPECT_EQ(c->xid, 0x641);  // r8169 { 0x7cf, 0x641, RTL_GIGA_MAC_VER_63 }
  EXPECT_EQ(c->phy_id, 0x001cc840u);
  EXPECT_EQ(c->phy_paths, unsigned{RTL8168_PHY_PATH_GPHY_OCP});
  EXPECT_TRUE(c->mac_ocp);
  EXPECT_EQ(c->pci.vendor_id, 0x10ec);
  EXPECT_EQ(c->pci.device_id, 0x8125);
  EXPECT_EQ(c->pci.mmio_size, 0x10000u);
  EXPECT_EQ(c->reg_window, 0x10000u);
  EXPECT_EQ(c->max_frame, 16384u);
  EXPECT_EQ(c->tx_queues, 2u);
  EXPECT_EQ(c->rx_queues, 4u);  // RX queues 0-3 (r8125 R8125_MAX_RX_QUEUES; rss.h)
  EXPECT_EQ(c->link_mbps, 2500u);  // its 2.5G PHY's best mode, as the bring-up below links
  EXPECT_EQ(find_chip("8168h")->link_mbps, 1000u);
  // The 8168s keep their 4 KiB BAR.
  EXPECT_EQ(find_chip("8168h")->pci.mmio_size, unsigned{RTL8168_MMIO_SIZE});
}

TEST(Api8125b, R8169BringUpLinksAt2500AndMovesAFrameEachWay) {
  for (const bool timing : {true, false}) {
    SCOPED_TRACE(timing ? "timing" : "functional");
    Nic nic(b(timing), driver_8125b());
    ASSERT_UP(nic);
    EXPECT_STREQ(rtl8168_chip_name(nic.host.dev()), "RTL8125B");
    // PHYSR (0xa434: page 0xa43 register 0x12, C22 register 0x1a): link,
    // full duplex, speed 0x0210 = 2500 (realtek.c rtlgen_decode_physr).
    EXPECT_EQ(*nic.drv.phy_ocp_read(0xa434), 0x021c);
    // PHYstatus: LinkStatus | FullDup | flow control | _2500bpsF.
    EXPECT_EQ(nic.host.r16(kPhyStatus), 0x0463);
    nic.drv.xmit(ipv4_udp(kDst, kUs, pattern(1000)));
    ASSERT_TRUE(nic.drv.wait_tx());
    ASSERT_EQ(nic.host.tx.size(), 1u);
    EXPECT_EQ(nic.host.receive(ipv4_udp(kUs, kDst, pattern(500))), 542u);
    nic.host.advance(1'000'000);
    EXPECT_EQ(nic.drv.rx_poll().size(), 1u);
    EXPECT_EQ(nic.host.stats().rx_frames, 1u);
  }
}

TEST(Api8125b, InterruptRegistersAre32BitsAt0x38And0x3c) {
  Nic nic(b(), driver_8125b());
  ASSERT_UP(nic);
  const size_t msis = nic.host.msi_times.size();
  nic.host.receive(ipv4_udp(kUs, kDst, pattern(100)));
  nic.host.advance(1'000'000);
  EXPECT_EQ(nic.host.r32(kIntrStatus8125) & 0x1u, 0x1u);  // RxOK
  EXPECT_EQ(nic.host.msi_times.size(), msis + 1);
  // Write 1 to clear, all 32 bits; the mask reads back as written.
  nic.host.w32(kIntrStatus8125, 0xffffffffu);
  EXPECT_EQ(nic.host.r32(kIntrStatus8125), 0u);
  nic.host.w32(kIntrMask8125, 0x1234003fu);
  EXPECT_EQ(nic.host.r32(kIntrMask8125), 0x1234003fu);
  // Writing the 8168's TxPoll offset (now IntrMask's low byte) rings nothing.
  nic.drv.queue_frame(ipv4_udp(kDst, kUs, pattern(60)));
  nic.host.w8(kTxPoll, kTxPollNPQ);
  nic.host.advance(1'000'000);
  EXPECT_EQ(nic.host.tx.size(), 0u);
  EXPECT_EQ(nic.host.r8(kIntrMask8125), kTxPollNPQ);
  nic.host.w32(kIntrMask8125, 0x3f);
  // The 8125's doorbell sends it, reads back for txpoll-ack-time, and its
  // bit 0 is not the 8168's FSWInt.
  nic.host.w16(kTxPoll8125, 0x0001);
  EXPECT_EQ(nic.host.r16(kTxPoll8125), 0x0001);
  ASSERT_TRUE(nic.drv.wait_tx());
  EXPECT_EQ(nic.host.tx.size(), 1u);
  EXPECT_EQ(nic.host.r16(kTxPoll8125), 0x0000);
  EXPECT_FALSE(nic.host.r32(kIntrStatus8125) & 0x0100u);  // no SWInt
  EXPECT_EQ(nic.host.stats().bad_access, 0u);
}

TEST(Api8125b, TxQueue1HasItsRingAt0x2100AndDoorbellBit1) {
  Nic nic(b(), driver_8125b());
  ASSERT_UP(nic);
  nic.host.w32(kTnpdsQ1 + 4, static_cast<uint32_t>(Driver::kTxHRing >> 32));
  nic.host.w32(kTnpdsQ1, static_cast<uint32_t>(Driver::kTxHRing) | 0xff);  // low bits read 0
  EXPECT_EQ(nic.host.r32(kTnpdsQ1), static_cast<uint32_t>(Driver::kTxHRing));
  nic.drv.queue_frame(ipv4_udp(kDst, kUs, pattern(300)), 0, 0, Queue::kHigh);
  nic.drv.kick(Queue::kHigh);
  ASSERT_TRUE(nic.drv.wait_tx(100'000'000, Queue::kHigh));
  ASSERT_EQ(nic.host.tx.size(), 1u);
  EXPECT_EQ(nic.host.tx[0].frame.size(), 342u);
}

TEST(Api8125b, RegistersAboveTheFile) {
  Nic nic(b(), driver_8125b());
  ASSERT_UP(nic);
  // MAC0_BKP: the station address, read-only (r8169 only reads it).
  for (unsigned i = 0; i < 6; i++) EXPECT_EQ(nic.host.r8(kMac0Bkp + i), kUs[i]);
  nic.host.w32(kMac0Bkp, 0);
  EXPECT_EQ(nic.host.r8(kMac0Bkp), kUs[0]);
  // RSS_CTRL, Q_NUM_CTRL, the moderation block and 0x382 are storage.
  nic.host.w32(kRssCtrl8125, 0x00310001u);
  EXPECT_EQ(nic.host.r32(kRssCtrl8125), 0x00310001u);
  nic.host.w16(kQNumCtrl8125, 0x0002);
  EXPECT_EQ(nic.host.r16(kQNumCtrl8125), 0x0002);
  nic.host.w32(0xa7c, 0xdeadbeefu);
  EXPECT_EQ(nic.host.r32(0xa7c), 0xdeadbeefu);
  nic.host.w16(0x382, 0x221b);
  EXPECT_EQ(nic.host.r16(0x382), 0x221b);
  // Unimplemented addresses of the window read 0 and keep nothing; none is
  // a bad access. Past the 64 KiB BAR, and unaligned, they are.
  for (const uint32_t off : {0x100u, 0xa80u, 0x8000u, 0xfffcu}) {
    nic.host.w32(off, 0xffffffffu);
    EXPECT_EQ(nic.host.r32(off), 0u) << off;
  }
  EXPECT_EQ(nic.host.stats().bad_access, 0u);
  nic.host.r32(0x10000);
  nic.host.r32(0x4501);
  EXPECT_EQ(nic.host.stats().bad_access, 2u);
  // On the 8168h the same offsets are past its 4 KiB BAR (bad accesses,
  // reading all-ones); inside it, above the file, nothing decodes.
  Nic h(with(default_params(true), {{"chip", "8168h"}}));
  EXPECT_EQ(h.host.r8(kMac0Bkp), 0xffu);
  h.host.r32(0x4500);
  EXPECT_EQ(h.host.stats().bad_access, 2u);
  h.host.w32(0x800, 0xffffffffu);
  EXPECT_EQ(h.host.r32(0x800), 0u);
  EXPECT_EQ(h.host.stats().bad_access, 2u);
}

TEST(Api8125b, IntrMitigateReadsTheFifoEmptyStatus) {
  Nic nic(b(), driver_8125b());
  ASSERT_UP(nic);
  EXPECT_EQ(nic.host.r16(kIntrMitigate), 0x0103);
  nic.host.w16(kIntrMitigate, 0x5151);  // not moderation: dropped
  EXPECT_EQ(nic.host.r16(kIntrMitigate), 0x0103);
  nic.drv.xmit(ipv4_udp(kDst, kUs, pattern(1400)));
  nic.host.advance(100);
  EXPECT_EQ(nic.host.r16(kIntrMitigate), 0x0000);  // the TX path holds a frame
  ASSERT_TRUE(nic.drv.wait_tx());
  nic.host.advance(100'000);
  EXPECT_EQ(nic.host.r16(kIntrMitigate), 0x0103);
}

TEST(Api8125b, PhyIdentityAndAbilitiesAsRealtekReadsThem) {
  Nic nic(b(), driver_8125b());
  ASSERT_UP(nic);
  // rtlgen_supports_2_5gbps: page 0xa61 register 0x13 bit 13.
  EXPECT_EQ(phy_paged(nic, 0xa61, 0x13) & 0x2000, 0x2000);
  // The same register as 7.2's MDIO_MMD_VEND2 0xa616 (r8169 read_c45 -> OCP).
  EXPECT_EQ(*nic.drv.phy_ocp_read(0xa616) & 0x2000, 0x2000);
  // rtlgen_supports_mmd: MMD over C22 reads 0 on this PHY, so 6.12/7.2
  // bind "Realtek Internal NBASE-T PHY", not the RTL8221B driver.
  ASSERT_TRUE(nic.drv.mdio_write(0x0d, 0x0003));
  ASSERT_TRUE(nic.drv.mdio_write(0x0e, 0x0014));
  ASSERT_TRUE(nic.drv.mdio_write(0x0d, 0x4003));
  EXPECT_EQ(*nic.drv.mdio_read(0x0e), 0x0000);
  EXPECT_EQ(*nic.drv.mdio_read(0x0d), 0x0000);
  // 2.5G advertised, and the partner's 2.5G page after autonegotiation.
  EXPECT_EQ(phy_paged(nic, 0xa5d, 0x12) & 0x0080, 0x0080);
  EXPECT_EQ(phy_paged(nic, 0xa5d, 0x13) & 0x0020, 0x0020);
  // On the 8168h the ability bit is clear and MMD registers are plain storage.
  Nic h(with(default_params(true), {{"chip", "8168h"}}), [] {
    DriverConfig c;
    c.expect_xid = 0x541;
    c.expect_phy_id2 = 0xc800;
    c.g_class = true;
    return c;
  }());
  ASSERT_UP(h);
  EXPECT_EQ(*h.drv.phy_ocp_read(0xa616), 0x0000);
  EXPECT_EQ(h.host.r16(kPhyStatus) & 0x00ff, 0x0073);  // 1000/full, and 0x6d untouched
}

TEST(Api8125b, AdvertisementAndForcedModesChooseTheSpeed) {
  Nic nic(b(), driver_8125b());
  ASSERT_UP(nic);
  // rtl822x_config_aneg without 2500baseT: 0xa5d4 bit 7 cleared, AN restarted.
  ASSERT_TRUE(nic.drv.phy_ocp_write(0xa5d4, 0x0000));
  ASSERT_TRUE(nic.drv.mdio_write(kMiiBmcr, kBmcrAnEnable | kBmcrAnRestart));
  ASSERT_TRUE(nic.drv.wait_link(3'000'000'000));
  EXPECT_EQ(*nic.drv.phy_ocp_read(0xa434), 0x002c);  // 1000/full
  EXPECT_EQ(nic.host.r16(kPhyStatus), 0x0073);
  // ethtool -s speed 100 duplex full autoneg off: BMCR forced.
  ASSERT_TRUE(nic.drv.mdio_write(kMiiBmcr, 0x2100));
  ASSERT_TRUE(nic.drv.wait_link(3'000'000'000));
  EXPECT_EQ(*nic.drv.phy_ocp_read(0xa434), 0x001c);
  EXPECT_EQ(nic.host.r16(kPhyStatus), 0x006b);
  // ... and 10/half.
  ASSERT_TRUE(nic.drv.mdio_write(kMiiBmcr, 0x0000));
  ASSERT_TRUE(nic.drv.wait_link(3'000'000'000));
  EXPECT_EQ(*nic.drv.phy_ocp_read(0xa434), 0x0004);
  // Back to autonegotiation with 2.5G advertised: 2500 again.
  ASSERT_TRUE(nic.drv.phy_ocp_write(0xa5d4, 0x0080));
  ASSERT_TRUE(nic.drv.mdio_write(kMiiBmcr, kBmcrAnEnable | kBmcrAnRestart));
  ASSERT_TRUE(nic.drv.wait_link(3'000'000'000));
  EXPECT_EQ(*nic.drv.phy_ocp_read(0xa434), 0x021c);
}

// 7000-byte frames back to back are wire-bound at both speeds once the DMA
// path is made fast (no read round trip, 4 GB/s): their spacing on the wire
// is then the serialization time of the frame plus preamble, FCS and gap at
// the link speed, (7000 + 24) * 8 bits at 2.5 and at 1 Gbit/s (0.4 ns and
// 1 ns a bit). What is measured is the wire alone.
TEST(Api8125b, LinkFaultMovesThePartnerTo1000AndBackTo2500) {
  Nic nic(b(false), driver_8125b());  // functional: autonegotiation completes at once
  ASSERT_UP(nic);
  constexpr uint16_t k2500F = 0x0400, k1000F = 0x0010, kLinkUp = 0x0002;
  std::string err;
  ASSERT_EQ(nic.host.add_fault("link:speed=1000", &err), 0) << err;
  EXPECT_EQ(nic.host.r16(kPhyStatus) & (kLinkUp | k1000F | k2500F), kLinkUp | k1000F);
  // The partner's 2.5G ability again (a scenario restoring the chip's own speed).
  ASSERT_EQ(nic.host.add_fault("link:speed=2500", &err), 0) << err;
  EXPECT_EQ(nic.host.r16(kPhyStatus) & (kLinkUp | k1000F | k2500F), kLinkUp | k2500F);
  EXPECT_EQ(*nic.drv.phy_ocp_read(0xa434), 0x021c);  // PHYSR: link, full, 2500
}

TEST(Api8125b, WireTimingFollowsTheLinkSpeed) {
  for (const bool gig : {false, true}) {
    SCOPED_TRACE(gig ? "1000" : "2500");
    Nic nic(b(true, {{"pcie-read-latency", "0"}, {"pcie-bandwidth", "4000"}}), driver_8125b());
    ASSERT_UP(nic);
    if (gig) {
      ASSERT_TRUE(nic.drv.phy_ocp_write(0xa5d4, 0x0000));
      ASSERT_TRUE(nic.drv.mdio_write(kMiiBmcr, kBmcrAnEnable | kBmcrAnRestart));
      ASSERT_TRUE(nic.drv.wait_link(3'000'000'000));
    }
    for (int i = 0; i < 4; i++) nic.drv.queue_frame(ipv4_udp(kDst, kUs, pattern(7000 - 42)));
    nic.drv.kick();
    ASSERT_TRUE(nic.drv.wait_tx());
    ASSERT_EQ(nic.host.tx.size(), 4u);
    const uint64_t bits = (7000 + 24) * 8;
    const uint64_t expect = gig ? bits : (bits * 1000 + 2499) / 2500;
    for (size_t i = 2; i < 4; i++) EXPECT_EQ(nic.host.tx[i].time - nic.host.tx[i - 1].time, expect) << i;
  }
}

TEST(Api8125b, JumboTo16KiB) {
  Nic nic(b(), driver_8125b());
  ASSERT_UP(nic);
  nic.drv.xmit(ipv4_udp(kDst, kUs, pattern(16384 - 42)));
  ASSERT_TRUE(nic.drv.wait_tx());
  ASSERT_EQ(nic.host.tx.size(), 1u);
  EXPECT_EQ(nic.host.tx[0].frame.size(), 16384u);
  // One byte more is refused (TxErr), as the 8168h refuses past 9 KiB.
  nic.drv.xmit(ipv4_udp(kDst, kUs, pattern(16385 - 42)));
  nic.drv.wait_tx();
  EXPECT_EQ(nic.host.tx.size(), 1u);
  EXPECT_EQ(nic.host.r32(kIntrStatus8125) & 0x8u, 0x8u);
}

TEST(Api8125b, RxVlanRemovalFollowsRxConfigNotCPlusCmd) {
  const Bytes tagged = vlan_insert(ipv4_udp(kUs, kDst, pattern(200)), 0x0123);
  // CPlusCmd RxVlan set, RxConfig's VLAN bits clear: the tag stays.
  DriverConfig c = driver_8125b();
  c.cplus = kRxChkSum | kRxVlan;
  Nic nic(b(), c);
  ASSERT_UP(nic);
  nic.host.w32(kRxConfig, nic.host.r32(kRxConfig) & ~kRxVlan8125);
  nic.host.receive(tagged);
  nic.host.advance(1'000'000);
  auto rx = nic.drv.rx_poll();
  ASSERT_EQ(rx.size(), 1u);
  EXPECT_EQ(rx[0].opts2, 0u);
  EXPECT_EQ(rx[0].data.size(), tagged.size() + 4);
  // RxConfig bits 22/23 set (rtl_set_rx_config_features): removed, in opts2.
  nic.host.w32(kRxConfig, nic.host.r32(kRxConfig) | kRxVlan8125);
  nic.host.receive(tagged);
  nic.host.advance(1'000'000);
  rx = nic.drv.rx_poll();
  ASSERT_EQ(rx.size(), 1u);
  EXPECT_EQ(rx[0].opts2, 0x00010000u | 0x2301u);
  EXPECT_EQ(rx[0].data.size(), tagged.size());
}

TEST(Api8125b, ExtendedTallyOnlyOnceSwitchedOn) {
  Nic nic(b(), driver_8125b());
  ASSERT_UP(nic);  // hw_start set MAC OCP 0xea84 bits 1:0, as 7.2 does
  nic.drv.xmit(ipv4_udp(kDst, kUs, pattern(958)));  // 1000 bytes, unicast
  ASSERT_TRUE(nic.drv.wait_tx());
  const Mac bcast = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  nic.drv.xmit(ipv4_udp(bcast, kUs, pattern(58)));  // 100 bytes, broadcast
  ASSERT_TRUE(nic.drv.wait_tx());
  nic.host.receive(ipv4_udp(kUs, kDst, pattern(458)));  // 500 bytes
  nic.host.advance(1'000'000);
  nic.drv.rx_poll();
  nic.host.mem().fill(Driver::kTally, 256, 0xaa);
  ASSERT_TRUE(nic.drv.counters_cmd(kCounterDump));
  const Bytes raw = nic.host.mem().read(Driver::kTally, 256);
  auto le = [&](size_t off, unsigned size) {
    uint64_t v = 0;
    for (unsigned i = 0; i < size; ++i) v |= static_cast<uint64_t>(raw[off + i]) << (8 * i);
    return v;
  };
  EXPECT_EQ(le(0, 8), 2u);     // tx_packets
  EXPECT_EQ(le(64, 8), 1100u);  // tx_octets (frames without FCS)
  EXPECT_EQ(le(72, 8), 500u);   // rx_octets
  EXPECT_EQ(le(88, 8), 1u);     // tx_unicast64
  EXPECT_EQ(le(96, 8), 1u);     // tx_broadcast64
  EXPECT_EQ(le(104, 8), 0u);    // tx_multicast64
  EXPECT_EQ(le(188, 4), 0u);    // rdu, the last field
  EXPECT_EQ(raw[192], 0xaa);    // 192 bytes, not more
  // CounterReset zeroes the extension too.
  ASSERT_TRUE(nic.drv.counters_cmd(kCounterReset));
  ASSERT_TRUE(nic.drv.counters_cmd(kCounterDump));
  const Bytes after = nic.host.mem().read(Driver::kTally, 192);
  for (size_t i = 0; i < 192; i++) EXPECT_EQ(after[i], 0u) << i;
  // 0xea84 clear (6.1, 6.12): the 64-byte block only.
  nic.drv.mac_ocp_write(0xea84, 0x0000);
  nic.host.mem().fill(Driver::kTally, 256, 0xaa);
  ASSERT_TRUE(nic.drv.counters_cmd(kCounterDump));
  EXPECT_EQ(nic.host.mem().read(Driver::kTally, 65)[64], 0xaa);
  EXPECT_EQ(nic.host.mem().read(Driver::kTally, 1)[0], 0x00);
}

// The MAC's own RX error counts in the extended block (r8169 7.2 reports
// rx_frame_too_long as FrameTooLongErrors): a frame longer than RxMaxSize and
// a runt are counted whether RxConfig discards them or takes them as error
// frames; the counts survive save/load and CounterReset zeroes them.
TEST(Api8125b, ExtendedTallyCountsTooLongFramesAndRunts) {
  Nic a(b(), driver_8125b());
  ASSERT_UP(a);
  std::string err;
  // Frames 1 and 3 arrive as runts, frame 2 too long (the wire-error fault
  // classes, docs/FAULTS.md); frame 3 with AcceptRunt set is taken.
  ASSERT_EQ(a.host.add_fault("rx-runt:frame=1;rx-too-long:frame=2;rx-runt:frame=3", &err), 0) << err;
  for (uint8_t i = 0; i < 2; i++) EXPECT_EQ(a.host.receive(frame_to_us(100, i)), 100u);
  a.host.advance(1'000'000);
  a.host.w32(kRxConfig, a.host.r32(kRxConfig) | kAcceptRunt);
  EXPECT_EQ(a.host.receive(frame_to_us(100, 2)), 100u);
  a.host.advance(1'000'000);
  a.drv.rx_poll();
  // A real frame above RxMaxSize, and one too short to hold an Ethernet header.
  a.host.w16(kRxMaxSize, 200);
  a.host.receive(frame_to_us(500, 3));
  const uint8_t tiny[10] = {};
  a.host.receive(tiny);
  a.host.advance(1'000'000);
  EXPECT_EQ(a.host.stats().rx_dropped_too_long, 2u);

  auto dump = [](Nic& nic) {
    EXPECT_TRUE(nic.drv.counters_cmd(kCounterDump));
    const Bytes raw = nic.host.mem().read(Driver::kTally, 192);
    auto le32 = [&](size_t off) {
      return raw[off] | raw[off + 1] << 8 | raw[off + 2] << 16 | static_cast<uint32_t>(raw[off + 3]) << 24;
    };
    return std::pair{le32(144), le32(148)};  // rx_frame_too_long, rx_runt
  };
  EXPECT_EQ(dump(a), (std::pair{2u, 3u}));
  Nic c(b(), driver_8125b(), a.host.now());
  ASSERT_EQ(c.host.load(a.host.save(), &err), 0) << err;
  EXPECT_EQ(dump(c), (std::pair{2u, 3u}));
  ASSERT_TRUE(c.drv.counters_cmd(kCounterReset));
  EXPECT_EQ(dump(c), (std::pair{0u, 0u}));
}

TEST(Api8125b, StateRoundTripKeepsTheWideRegistersAndThePhy) {
  Nic a(b(), driver_8125b());
  ASSERT_UP(a);
  a.host.w32(kRssCtrl8125, 0x00000042u);
  a.host.w32(0xa40, 0x00c0ffeeu);
  a.drv.xmit(ipv4_udp(kDst, kUs, pattern(200)));
  ASSERT_TRUE(a.drv.wait_tx());
  const std::vector<uint8_t> blob = a.host.save();
  Nic c(b(), driver_8125b(), a.host.now());
  std::string err;
  ASSERT_EQ(c.host.load(blob, &err), 0) << err;
  EXPECT_EQ(c.host.save(), blob);
  EXPECT_EQ(c.host.r32(kRssCtrl8125), 0x00000042u);
  EXPECT_EQ(c.host.r32(0xa40), 0x00c0ffeeu);
  EXPECT_EQ(*c.drv.phy_ocp_read(0xa434), 0x021c);
  EXPECT_EQ(c.host.r16(kPhyStatus), 0x0463);
  // An 8125b blob is refused by an 8168h device, and the reverse.
  Nic h(with(default_params(true), {{"chip", "8168h"}}));
  EXPECT_NE(h.host.load(blob), 0);
  EXPECT_NE(c.host.load(h.host.save()), 0);
}

}  // namespace
}  // namespace rtl8168_test
