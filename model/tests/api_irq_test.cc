// SPDX-License-Identifier: GPL-2.0-or-later
// Interrupt semantics: INT = IntrStatus & IntrMask, level-triggered INTx,
// one MSI per 0->1 edge of INT (including edges made by IntrMask writes),
// and the 2009 lost-MSI race with the old and the fixed r8169 handler.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};

struct ApiIrq : ::testing::Test {
  void up(bool msi) {
    ASSERT_TRUE(nic.up(msi)) << nic.host.trace_tail();
    nic.host.w16(kIntrStatus, 0xffff);
    ASSERT_EQ(nic.host.r16(kIntrStatus), 0);
  }
  // One TX completion (TxOK), synchronously in functional mode.
  void tx_event() {
    nic.drv.xmit(frame_to(kDst, 100, seed++));
    ASSERT_TRUE(nic.drv.wait_tx());
  }
  // One RX completion (RxOK); the driver refills the ring.
  void rx_event() {
    ASSERT_EQ(nic.host.receive(frame_to_us(100, seed++)), 100u);
    nic.host.advance(10'000);
    nic.drv.rx_poll();
  }
  size_t msis() const { return nic.host.msi_times.size(); }
  Nic nic;
  uint8_t seed = 1;
};

TEST_F(ApiIrq, IntxLevelFollowsStatusAndMask) {
  up(false);
  ASSERT_EQ(nic.host.intx_level, 0);
  nic.host.w16(kIntrMask, 0);
  tx_event();
  EXPECT_EQ(nic.host.intx_level, 0) << "masked status must not assert INTx";
  nic.host.w16(kIntrMask, kTxOK);
  EXPECT_EQ(nic.host.intx_level, 1) << "unmasking a latched bit asserts INTx";
  nic.host.w16(kIntrMask, kRxOK);
  EXPECT_EQ(nic.host.intx_level, 0) << "INT = status & mask";
  nic.host.w16(kIntrMask, kDriverIrqMask);
  EXPECT_EQ(nic.host.intx_level, 1);
  tx_event();
  EXPECT_EQ(nic.host.intx_level, 1);
  nic.host.w16(kIntrStatus, kTxOK);
  EXPECT_EQ(nic.host.intx_level, 0) << "acking deasserts INTx";
  EXPECT_TRUE(nic.host.msi_times.empty()) << "MSI disabled: no messages";
}

TEST_F(ApiIrq, OneMsiPerRisingEdge) {
  up(true);
  const size_t m0 = msis();
  tx_event();
  EXPECT_EQ(msis(), m0 + 1);
  tx_event();
  rx_event();  // a different source while INT is still high
  EXPECT_EQ(msis(), m0 + 1) << "no new edge while IntrStatus & IntrMask != 0";
  nic.host.w16(kIntrStatus, 0xffff);
  EXPECT_EQ(msis(), m0 + 1) << "acking is a falling edge";
  rx_event();
  EXPECT_EQ(msis(), m0 + 2);
  EXPECT_EQ(nic.host.intx_level, 0) << "MSI in use: INTx stays deasserted";
}

TEST_F(ApiIrq, IntrMaskWriteMakesAnEdge) {
  up(true);
  nic.host.w16(kIntrMask, 0);
  const size_t m0 = msis();
  tx_event();
  EXPECT_EQ(msis(), m0) << "masked";
  nic.host.w16(kIntrMask, kRxOK);
  EXPECT_EQ(msis(), m0) << "mask without the latched bit: INT stays 0";
  nic.host.w16(kIntrMask, kDriverIrqMask);
  EXPECT_EQ(msis(), m0 + 1) << "IntrMask 0 -> non-zero with status latched is an edge";
  nic.host.w16(kIntrMask, kDriverIrqMask);
  EXPECT_EQ(msis(), m0 + 1) << "rewriting the same mask is not an edge";
  nic.host.w16(kIntrMask, 0);
  nic.host.w16(kIntrMask, kDriverIrqMask);
  EXPECT_EQ(msis(), m0 + 2) << "NAPI: mask off, then restore while still latched";
}

TEST_F(ApiIrq, OnlyUnmaskedSourcesInterrupt) {
  up(true);
  nic.host.w16(kIntrMask, kRxOK);
  const size_t m0 = msis();
  tx_event();
  EXPECT_EQ(msis(), m0);
  EXPECT_NE(nic.host.r16(kIntrStatus) & kTxOK, 0) << "status latches even when masked";
  rx_event();
  EXPECT_EQ(msis(), m0 + 1);
}

TEST_F(ApiIrq, SwitchingFromIntxToMsi) {
  up(false);
  tx_event();
  EXPECT_EQ(nic.host.intx_level, 1);
  nic.host.w16(kIntrStatus, 0xffff);
  EXPECT_EQ(nic.host.intx_level, 0);
  nic.host.msi = true;  // the guest enables MSI
  const size_t m0 = msis();
  tx_event();
  EXPECT_EQ(msis(), m0 + 1);
  EXPECT_EQ(nic.host.intx_level, 0);
}

// 2009: the old handler reads IntrStatus, an event arrives, it acks only
// what it read. INT never returns to 0, so no further MSI is ever sent.
TEST_F(ApiIrq, Race2009OldHandlerLosesMsi) {
  up(true);
  const size_t m0 = msis();
  rx_event();
  ASSERT_EQ(msis(), m0 + 1);
  const uint16_t seen = nic.drv.irq_old([&] { tx_event(); });  // TxOK races the handler
  EXPECT_EQ(seen & kRxOK, kRxOK);
  EXPECT_EQ(seen & kTxOK, 0);
  EXPECT_NE(nic.host.r16(kIntrStatus) & kTxOK, 0) << "the racing event is still latched";
  EXPECT_EQ(msis(), m0 + 1);
  // Traffic continues; the driver never hears about it.
  for (int i = 0; i < 5; ++i) {
    rx_event();
    tx_event();
  }
  EXPECT_EQ(msis(), m0 + 1) << "MSI must stay lost: INT never went back to 0";
  // The fixed handler (loop until 0) recovers the device.
  nic.drv.irq_fixed();
  EXPECT_EQ(nic.host.r16(kIntrStatus), 0);
  rx_event();
  EXPECT_EQ(msis(), m0 + 2);
}

TEST_F(ApiIrq, Race2009FixedHandlerLosesNothing) {
  up(true);
  const size_t m0 = msis();
  rx_event();
  ASSERT_EQ(msis(), m0 + 1);
  // Fixed handler: ack what it saw, re-read, the racing TxOK is seen and acked.
  nic.drv.irq_old([&] { tx_event(); });
  EXPECT_GE(nic.drv.irq_fixed(), 1u);
  EXPECT_EQ(nic.host.r16(kIntrStatus), 0);
  for (int i = 0; i < 5; ++i) {
    const size_t before = msis();
    tx_event();
    EXPECT_EQ(msis(), before + 1) << "round " << i;
    nic.drv.irq_fixed();
  }
}

TEST_F(ApiIrq, Race2009IntxSurvives) {
  up(false);
  rx_event();
  ASSERT_EQ(nic.host.intx_level, 1);
  nic.drv.irq_old([&] { tx_event(); });
  EXPECT_EQ(nic.host.intx_level, 1) << "level-triggered: still asserted, the handler runs again";
  nic.drv.irq_old();
  EXPECT_EQ(nic.host.intx_level, 0);
  tx_event();
  EXPECT_EQ(nic.host.intx_level, 1);
}

}  // namespace
}  // namespace rtl8168_test
