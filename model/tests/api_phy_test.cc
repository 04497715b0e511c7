// SPDX-License-Identifier: GPL-2.0-or-later
// The internal PHY behind PHYAR: handshake timing, ID, BMCR self-clearing
// bits, autonegotiation, latched-low link status, LinkChg, paging, host link.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

// A probed (not opened) device in timing mode.
struct ApiPhy : ::testing::Test {
  ApiPhy() : host(default_params(true)), drv(host) {}
  void SetUp() override {
    ASSERT_TRUE(host.ok());
    ASSERT_TRUE(drv.probe());
  }
  uint16_t rd(unsigned reg) {
    const auto v = drv.mdio_read(reg);
    EXPECT_TRUE(v.has_value()) << "PHYAR read of reg " << reg << " timed out";
    return v.value_or(0xffff);
  }
  bool link_chg() { return (host.r16(kIntrStatus) & kLinkChg) != 0; }
  // Bring the link up through autonegotiation and leave status clean.
  void link_up() {
    ASSERT_TRUE(drv.phy_start());
    ASSERT_TRUE(drv.wait_link(kPhyAnTime * 20)) << host.trace_tail();
    rd(kMiiBmsr);
    host.w16(kIntrStatus, 0xffff);
  }
  TestHost host;
  Driver drv;
};

TEST_F(ApiPhy, IdentifiesAsRtl8211B) {
  EXPECT_EQ(rd(kMiiPhysid1), 0x001c);
  EXPECT_EQ(rd(kMiiPhysid2), 0xc912);
}

TEST_F(ApiPhy, PhyarReadHandshakeTakesPhyarTime) {
  const uint64_t t0 = host.now();
  host.w32(kPHYAR, kMiiPhysid1 << 16);
  EXPECT_EQ(host.r32(kPHYAR) & kPHYARFlag, 0u) << "read completed instantly";
  host.run_until(t0 + kPhyarTime / 2);
  EXPECT_EQ(host.r32(kPHYAR) & kPHYARFlag, 0u) << "read completed before phyar-time";
  host.run_until(t0 + kPhyarTime);
  const uint32_t v = host.r32(kPHYAR);
  EXPECT_NE(v & kPHYARFlag, 0u) << "read not complete after phyar-time";
  EXPECT_EQ(v & 0xffff, 0x001cu);
}

TEST_F(ApiPhy, PhyarWriteHandshakeTakesPhyarTime) {
  const uint64_t t0 = host.now();
  host.w32(kPHYAR, kPHYARFlag | kMiiAdvertise << 16 | 0x0061);
  EXPECT_NE(host.r32(kPHYAR) & kPHYARFlag, 0u) << "write completed instantly";
  host.run_until(t0 + kPhyarTime / 2);
  EXPECT_NE(host.r32(kPHYAR) & kPHYARFlag, 0u) << "write completed before phyar-time";
  host.run_until(t0 + kPhyarTime);
  EXPECT_EQ(host.r32(kPHYAR) & kPHYARFlag, 0u) << "write not complete after phyar-time";
  EXPECT_EQ(rd(kMiiAdvertise) & 0x0fff, 0x0061) << "the write reached the PHY";
}

TEST_F(ApiPhy, BmcrResetSelfClearsAfterPhyResetTime) {
  const uint16_t bmcr = rd(kMiiBmcr);
  const uint64_t t0 = host.now();
  ASSERT_TRUE(drv.mdio_write(kMiiBmcr, static_cast<uint16_t>(bmcr | kBmcrReset)));
  ASSERT_LT(host.now() - t0, kPhyResetTime / 2) << "test assumption: MDIO much faster than reset";
  EXPECT_NE(rd(kMiiBmcr) & kBmcrReset, 0) << "BMCR.RESET cleared too early";
  host.run_until(t0 + kPhyResetTime + kPhyarTime);
  const uint16_t after = rd(kMiiBmcr);
  EXPECT_EQ(after & kBmcrReset, 0) << "BMCR.RESET did not self-clear";
  EXPECT_EQ(after & ~kBmcrAnRestart, 0x1140) << "BMCR reset value: ANENABLE|DUPLEX|SPEED1000";
}

TEST_F(ApiPhy, AutonegotiationCompletesAfterPhyAnTime) {
  ASSERT_TRUE(drv.phy_start());  // BMCR |= ANENABLE|ANRESTART
  const uint64_t t0 = host.now();
  host.w16(kIntrStatus, 0xffff);  // a link-down LinkChg from the restart, if any
  host.run_until(t0 + kPhyAnTime / 2);
  EXPECT_FALSE(link_chg()) << "LinkChg before autonegotiation could complete";
  rd(kMiiBmsr);
  EXPECT_EQ(rd(kMiiBmsr) & kBmsrLStatus, 0) << "link up before phy-an-time";
  host.run_until(t0 + kPhyAnTime + kPhyarTime);
  EXPECT_TRUE(link_chg()) << "no LinkChg when autonegotiation completed";
  rd(kMiiBmsr);  // the latched-low read
  const uint16_t bmsr = rd(kMiiBmsr);
  EXPECT_NE(bmsr & kBmsrLStatus, 0) << "BMSR link";
  EXPECT_NE(bmsr & kBmsrAnComplete, 0) << "BMSR AN complete";
  EXPECT_EQ(rd(kMiiBmcr) & kBmcrAnRestart, 0) << "ANRESTART self-clears";
  EXPECT_NE(rd(kMiiLpa) & kLpa100Full, 0) << "partner advertises 100/full";
  EXPECT_NE(rd(kMiiStat1000) & kLpa1000Full, 0) << "partner advertises 1000/full";
}

TEST_F(ApiPhy, LinkChgRaisesMsiWhenUnmasked) {
  host.msi = true;
  host.w16(kIntrMask, kLinkChg);
  const size_t msis = host.msi_times.size();
  link_up();
  EXPECT_GT(host.msi_times.size(), msis) << "LinkChg is an interrupt source";
}

TEST_F(ApiPhy, BmsrLinkBitIsLatchedLow) {
  link_up();
  ASSERT_NE(rd(kMiiBmsr) & kBmsrLStatus, 0);
  host.set_link(false);
  EXPECT_TRUE(link_chg()) << "link down raises LinkChg immediately";
  host.w16(kIntrStatus, kLinkChg);
  host.set_link(true);  // restarts autonegotiation; BMSR not read while down
  ASSERT_TRUE(drv.poll([&] { return link_chg(); }, 100'000, kPhyAnTime * 20))
      << "no LinkChg after the link came back";
  EXPECT_EQ(rd(kMiiBmsr) & kBmsrLStatus, 0) << "first read after a drop must show the drop";
  EXPECT_NE(rd(kMiiBmsr) & kBmsrLStatus, 0) << "second read shows the current (up) state";
}

TEST_F(ApiPhy, HostLinkDownIsImmediate) {
  link_up();
  host.w16(kIntrMask, kLinkChg);
  host.msi = true;
  const size_t msis = host.msi_times.size();
  host.set_link(false);
  EXPECT_TRUE(link_chg());
  EXPECT_EQ(host.msi_times.size(), msis + 1) << "one MSI for the LinkChg edge";
  EXPECT_EQ(rd(kMiiBmsr) & kBmsrLStatus, 0);
  EXPECT_EQ(rd(kMiiBmsr) & kBmsrLStatus, 0) << "still down";
  // No link: nothing comes back on its own.
  host.w16(kIntrStatus, 0xffff);
  host.advance(kPhyAnTime * 10);
  EXPECT_FALSE(link_chg());
  EXPECT_EQ(rd(kMiiBmsr) & kBmsrLStatus, 0);
}

TEST_F(ApiPhy, PageSelectBanksRegisters) {
  ASSERT_TRUE(drv.mdio_write(kMiiPage, 0));
  const uint16_t p0 = rd(0x12);
  ASSERT_TRUE(drv.mdio_write(kMiiPage, 1));
  ASSERT_TRUE(drv.mdio_write(0x12, static_cast<uint16_t>(p0 ^ 0x2300)));
  ASSERT_TRUE(drv.mdio_write(kMiiPage, 2));
  ASSERT_TRUE(drv.mdio_write(0x12, static_cast<uint16_t>(p0 ^ 0x0a0a)));
  ASSERT_TRUE(drv.mdio_write(kMiiPage, 0));
  EXPECT_EQ(rd(0x12), p0) << "a write on page 1 or 2 changed page 0";
  ASSERT_TRUE(drv.mdio_write(kMiiPage, 1));
  EXPECT_EQ(rd(0x12), static_cast<uint16_t>(p0 ^ 0x2300));
  ASSERT_TRUE(drv.mdio_write(kMiiPage, 2));
  EXPECT_EQ(rd(0x12), static_cast<uint16_t>(p0 ^ 0x0a0a));
  ASSERT_TRUE(drv.mdio_write(kMiiPage, 0));
  EXPECT_EQ(rd(kMiiPhysid1), 0x001c) << "page 0 restored";
}

TEST_F(ApiPhy, OpenBringsLinkUpAt1000Full) {
  ASSERT_TRUE(drv.open()) << host.trace_tail();
  EXPECT_NE(rd(kMiiBmsr) & kBmsrLStatus, 0);
  EXPECT_NE(rd(kMiiStat1000) & kLpa1000Full, 0);
}

}  // namespace
}  // namespace rtl8168_test
