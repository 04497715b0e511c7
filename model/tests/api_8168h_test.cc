// SPDX-License-Identifier: GPL-2.0-or-later
// The RTL8168h profile (chip=8168h, r8169 RTL_GIGA_MAC_VER_46): identity from
// the chip list, bring-up the way r8169 drives the 8168g class (MAC OCP,
// PHY through GPHY_OCP, MCU polls, RXDV gate), a frame each way, the OCP
// ports' semantics and their bad inputs, and the state blob with the new
// spaces. docs/R8168H.md lists the driver traffic these follow.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <cstring>
#include <string>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

constexpr uint32_t kFlag = 0x80000000u;
constexpr uint64_t kGphyOcpTime = 3'000, kLlInitTime = 50'000;
const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};
const Mac kUs = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};

Params h(bool timing = true, const Params& extra = {}) {
  return with(with(default_params(timing), {{"chip", "8168h"},
                                            {"gphy-ocp-time", std::to_string(kGphyOcpTime)},
                                            {"ll-init-time", std::to_string(kLlInitTime)}}),
              extra);
}

const rtl8168_chip_info* find_chip(const char* id) {
  static rtl8168_chip_info c;
  for (size_t i = 0; rtl8168_chip_at(i, &c) == 0; i++) {
    if (std::strcmp(c.id, id) == 0) return &c;
  }
  return nullptr;
}

TEST(Api8168h, ChipListGivesItsIdentity) {
  ASSERT_EQ(rtl8168_chip_count(), 4u);
  rtl8168_chip_info past{};
  EXPECT_EQ(rtl8168_chip_at(rtl8168_chip_count(), &past), -1);
  EXPECT_EQ(rtl8168_chip_at(0, nullptr), -1);
  const rtl8168_chip_info* c = find_chip("8168h");
  ASSERT_NE(c, nullptr);
  EXPECT_STREQ(c->name, "RTL8168h/8111h");
  EXPECT_STREQ(c->r8169_version, "RTL_GIGA_MAC_VER_46");
  EXPECT_STREQ(c->firmware, "rtl_nic/rtl8168h-2.fw");
  EXPECT_EQ(c->xid, 0x541);  // r8169 { 0x7cf, 0x541, RTL_GIGA_MAC_VER_46 }
  EXPECT_EQ(c->phy_id, 0x001cc800u);
  EXPECT_EQ(c->phy_paths, unsigned{RTL8168_PHY_PATH_GPHY_OCP});
  EXPECT_TRUE(c->mac_ocp);
  EXPECT_EQ(c->pci.revision, 0x15);
  EXPECT_EQ(c->tx_queues, 2u);
  EXPECT_EQ(c->rx_queues, 1u);
  const rtl8168_chip_info* old = find_chip("8168c");
  ASSERT_NE(old, nullptr);
  EXPECT_EQ(old->xid, 0x3c4);
  EXPECT_EQ(old->phy_paths, unsigned{RTL8168_PHY_PATH_PHYAR});
  EXPECT_FALSE(old->mac_ocp);
}

TEST(Api8168h, UnknownChipNamesTheKnownOnes) {
  rtl8168_config* cfg = rtl8168_config_new();
  char err[256];
  EXPECT_EQ(rtl8168_config_set(cfg, "chip", "8168x", err, sizeof err), -1);
  EXPECT_NE(std::string(err).find("8168c, 8168evl, 8168h"), std::string::npos) << err;
  rtl8168_config_free(cfg);
}

TEST(Api8168h, R8169BringUpAndAFrameEachWay) {
  for (const bool timing : {true, false}) {
    SCOPED_TRACE(timing ? "timing" : "functional");
    Nic nic(h(timing), driver_8168h());
    ASSERT_UP(nic);
    EXPECT_STREQ(rtl8168_chip_name(nic.host.dev()), "RTL8168h/8111h");
    // PHYSR (page 0xa43 register 0x12 = OCP 0xa434): link, full duplex, 1000.
    EXPECT_EQ(nic.drv.phy_ocp_read(0xa434), 0x002c);
    // The 2.5G capability bit realtek.c's generic driver checks is clear.
    EXPECT_EQ(nic.drv.phy_ocp_read(0xa616), 0x0000);
    nic.drv.xmit(ipv4_udp(kDst, kUs, pattern(1000)));
    ASSERT_TRUE(nic.drv.wait_tx());
    ASSERT_EQ(nic.host.tx.size(), 1u);
    EXPECT_EQ(nic.host.receive(ipv4_udp(kUs, kDst, pattern(500))), 542u);
    nic.host.advance(1'000'000);
    EXPECT_EQ(nic.drv.rx_poll().size(), 1u);
    EXPECT_EQ(nic.host.stats().rx_frames, 1u);
  }
}

TEST(Api8168h, StationAddressIsInEri) {
  Nic nic(h(), driver_8168h());
  // rtl_read_mac_address (VER_35..52): ERI 0xe0 / 0xe4 hold the address.
  nic.host.w32(0x74, 0xf000 | 0xe0);
  nic.host.advance(100'000);
  ASSERT_TRUE(nic.host.r32(0x74) & kFlag);
  EXPECT_EQ(nic.host.r32(0x70), 0x12005452u);
}

TEST(Api8168h, MacOcpReadIsLatchedAtOnce) {
  Nic nic(h(), driver_8168h());
  nic.drv.mac_ocp_write(0xd412, 0x03e8);
  EXPECT_EQ(nic.drv.mac_ocp_read(0xd412), 0x03e8);  // no advance: r8169 does not poll
  EXPECT_EQ(nic.drv.mac_ocp_read(0xc0b2), 0x0000);  // ASPM not declared safe
  EXPECT_EQ(nic.drv.mac_ocp_read(0xe8de), 0x4000);
  // Below the modelled space: reads 0, writes dropped.
  nic.drv.mac_ocp_write(0x1000, 0xbeef);
  EXPECT_EQ(nic.drv.mac_ocp_read(0x1000), 0x0000);
  // Every 32-bit value decodes to an even word address: no access is out of range.
  for (const uint32_t v : {0xffffffffu, 0x7fff8001u, 0x00000001u, 0x80000000u}) {
    nic.host.w32(0xb0, v);
    nic.host.r32(0xb0);
  }
  EXPECT_EQ(nic.host.stats().bad_access, 0u);
}

TEST(Api8168h, LinkListReinitHoldsLinkListReadyLow) {
  Nic nic(h(), driver_8168h());
  EXPECT_TRUE(nic.host.r8(kMcu) & kMcuLinkListRdy);
  nic.drv.mac_ocp_write(0xe8de, 0x0000);  // bit 14 cleared
  EXPECT_FALSE(nic.host.r8(kMcu) & kMcuLinkListRdy);
  nic.host.advance(kLlInitTime - 1);
  EXPECT_FALSE(nic.host.r8(kMcu) & kMcuLinkListRdy);
  nic.host.advance(1);
  EXPECT_TRUE(nic.host.r8(kMcu) & kMcuLinkListRdy);
  nic.drv.mac_ocp_write(0xe8de, 0x8000);  // bit 15 set
  EXPECT_FALSE(nic.host.r8(kMcu) & kMcuLinkListRdy);
  nic.host.advance(kLlInitTime);
  EXPECT_TRUE(nic.host.r8(kMcu) & kMcuLinkListRdy);
  // Status bits are not writable: NOW_IS_OOB is, LINK_LIST_RDY is not.
  nic.host.w8(kMcu, 0xff);
  EXPECT_EQ(nic.host.r8(kMcu) & 0x8c, 0x8c);
  nic.host.w8(kMcu, 0x00);
  EXPECT_EQ(nic.host.r8(kMcu) & (kMcuLinkListRdy | kMcuRxTxEmpty), kMcuLinkListRdy | kMcuRxTxEmpty);
}

TEST(Api8168h, GphyOcpFlagCompletesAfterTheAccessTime) {
  Nic nic(h(), driver_8168h());
  // Read of PHYSID2 (0xa406): flag set with the data after gphy-ocp-time.
  nic.host.w32(kGphyOcp, 0xa406u << 15);
  EXPECT_FALSE(nic.host.r32(kGphyOcp) & kFlag);
  nic.host.advance(kGphyOcpTime);
  EXPECT_EQ(nic.host.r32(kGphyOcp), kFlag | (0xa406u << 15 & 0x7fff0000u) | 0xc800u);
  // Write: flag clears when done.
  nic.host.w32(kGphyOcp, kFlag | 0xa5d0u << 15 | 0x0006);
  EXPECT_TRUE(nic.host.r32(kGphyOcp) & kFlag);
  nic.host.advance(kGphyOcpTime);
  EXPECT_FALSE(nic.host.r32(kGphyOcp) & kFlag);
  EXPECT_EQ(nic.drv.phy_ocp_read(0xa5d0), 0x0006);
  // A command replaces one in flight (only the last one completes).
  nic.host.w32(kGphyOcp, kFlag | 0xa5d0u << 15 | 0x1111);
  nic.host.w32(kGphyOcp, kFlag | 0xa5d0u << 15 | 0x2222);
  nic.host.advance(kGphyOcpTime);
  EXPECT_EQ(nic.drv.phy_ocp_read(0xa5d0), 0x2222);
  // Outside the PHY's OCP space: reads 0, writes dropped; odd values decode to even words.
  EXPECT_TRUE(nic.drv.phy_ocp_write(0x1234, 0x5555));
  EXPECT_EQ(nic.drv.phy_ocp_read(0x1234), 0x0000);
  nic.host.w32(kGphyOcp, 0xffffffffu);
  nic.host.advance(kGphyOcpTime);
  EXPECT_EQ(nic.host.stats().bad_access, 0u);
}

TEST(Api8168h, PhyParameterPortAndFirmwarePatchHandshake) {
  Nic nic(h(), driver_8168h());
  // r8168g_phy_param: address at 0xa436, data at 0xa438.
  ASSERT_TRUE(nic.drv.phy_ocp_write(0xa436, 0x808a));
  ASSERT_TRUE(nic.drv.phy_ocp_write(0xa438, 0x000a));
  ASSERT_TRUE(nic.drv.phy_ocp_write(0xa436, 0x0811));
  EXPECT_EQ(nic.drv.phy_ocp_read(0xa438), 0x0000);
  ASSERT_TRUE(nic.drv.phy_ocp_write(0xa436, 0x808a));
  EXPECT_EQ(nic.drv.phy_ocp_read(0xa438), 0x000a);
  // The firmware's PHY patch: request (0xb820 bit 4) -> ready (0xb800 bit 6).
  EXPECT_FALSE(*nic.drv.phy_ocp_read(0xb800) & 0x40);
  ASSERT_TRUE(nic.drv.phy_ocp_write(0xb820, 0x0010));
  EXPECT_TRUE(*nic.drv.phy_ocp_read(0xb800) & 0x40);
  ASSERT_TRUE(nic.drv.phy_ocp_write(0xb820, 0x0000));
  EXPECT_FALSE(*nic.drv.phy_ocp_read(0xb800) & 0x40);
  // BMCR reset through OCP 0xa400 self-clears (r8169_apply_firmware polls it).
  ASSERT_TRUE(nic.drv.phy_ocp_write(0xa400, 0x9140));
  nic.host.advance(2'000'000);
  EXPECT_FALSE(*nic.drv.phy_ocp_read(0xa400) & 0x8000);
}

TEST(Api8168h, RxdvGateDropsAndCountsFrames) {
  Nic nic(h(), driver_8168h());
  ASSERT_UP(nic);
  nic.host.w32(kMisc, nic.host.r32(kMisc) | kRxdvGatedEn);  // rtl_enable_rxdvgate
  EXPECT_EQ(nic.host.receive(ipv4_udp(kUs, kDst, pattern(200))), 242u);
  nic.host.advance(1'000'000);
  EXPECT_EQ(nic.drv.rx_poll().size(), 0u);
  EXPECT_EQ(nic.host.stats().rx_dropped_disabled, 1u);
  nic.host.w32(kMisc, nic.host.r32(kMisc) & ~kRxdvGatedEn);
  nic.host.receive(ipv4_udp(kUs, kDst, pattern(200)));
  nic.host.advance(1'000'000);
  EXPECT_EQ(nic.drv.rx_poll().size(), 1u);
}

TEST(Api8168h, McuTxEmptyFollowsTheTxPath) {
  Nic nic(h(), driver_8168h());
  ASSERT_UP(nic);
  EXPECT_EQ(nic.host.r8(kMcu) & kMcuRxTxEmpty, kMcuRxTxEmpty);
  nic.drv.xmit(ipv4_udp(kDst, kUs, pattern(1400)));
  nic.host.advance(100);
  EXPECT_FALSE(nic.host.r8(kMcu) & 0x20);
  ASSERT_TRUE(nic.drv.wait_tx());
  nic.host.advance(100'000);
  EXPECT_EQ(nic.host.r8(kMcu) & kMcuRxTxEmpty, kMcuRxTxEmpty);
}

TEST(Api8168h, StateRoundTripKeepsTheOcpSpaces) {
  Nic a(h(), driver_8168h());
  ASSERT_UP(a);
  a.drv.mac_ocp_write(0xe056, 0x0070);
  ASSERT_TRUE(a.drv.phy_ocp_write(0xbcd2, 0x1234));
  ASSERT_TRUE(a.drv.phy_ocp_write(0xa436, 0x8011));
  ASSERT_TRUE(a.drv.phy_ocp_write(0xa438, 0x0800));
  a.drv.mac_ocp_write(0xe8de, 0x0000);
  a.drv.mac_ocp_write(0xe8de, 0x8000);  // bit 15 set: link list busy, its event in the blob
  ASSERT_FALSE(a.host.r8(kMcu) & kMcuLinkListRdy);
  const std::vector<uint8_t> blob = a.host.save();
  Nic b(h(), driver_8168h(), a.host.now());  // the host's clock where the blob's is
  std::string err;
  ASSERT_EQ(b.host.load(blob, &err), 0) << err;
  EXPECT_EQ(b.host.save(), blob);
  EXPECT_EQ(b.drv.mac_ocp_read(0xe056), 0x0070);
  EXPECT_FALSE(b.host.r8(kMcu) & kMcuLinkListRdy);
  b.host.advance(kLlInitTime);
  EXPECT_TRUE(b.host.r8(kMcu) & kMcuLinkListRdy);
  EXPECT_EQ(b.drv.phy_ocp_read(0xbcd2), 0x1234);
  ASSERT_TRUE(b.drv.phy_ocp_write(0xa436, 0x8011));
  EXPECT_EQ(b.drv.phy_ocp_read(0xa438), 0x0800);
  // An 8168h blob is refused by an 8168evl device, and the reverse.
  Nic evl(with(default_params(true), {{"chip", "8168evl"}}));
  EXPECT_NE(evl.host.load(blob), 0);
  EXPECT_NE(b.host.load(evl.host.save()), 0);
}

}  // namespace
}  // namespace rtl8168_test
