// SPDX-License-Identifier: GPL-2.0-or-later
// DTCCR: the 64-byte tally block DMA (CounterAddrLow bit 3) and the counter
// reset (bit 0), both self-clearing (r8169 rtl8169_do_counters).
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};

void traffic(Nic& nic, unsigned tx, unsigned rx_unicast, unsigned rx_broadcast) {
  for (unsigned i = 0; i < tx; ++i) nic.drv.xmit(frame_to(kDst, 100 + i, static_cast<uint8_t>(i)));
  ASSERT_TRUE(nic.drv.wait_tx());
  for (unsigned i = 0; i < rx_unicast; ++i) nic.host.receive(frame_to_us(100 + i));
  for (unsigned i = 0; i < rx_broadcast; ++i) nic.host.receive(frame_to(kBroadcast, 90));
  size_t got = 0;
  EXPECT_TRUE(nic.drv.poll(
      [&] {
        got += nic.drv.rx_poll().size();
        return got >= rx_unicast + rx_broadcast;
      },
      10'000, 10'000'000));
  EXPECT_EQ(got, rx_unicast + rx_broadcast);
}

TEST(ApiDtccr, DumpCountsFramesSentAndReceived) {
  Nic nic;
  ASSERT_UP(nic);
  traffic(nic, 5, 3, 2);
  nic.host.mem().fill(Driver::kTally, 64, 0xa5);
  Tally t;
  ASSERT_TRUE(nic.drv.dump_counters(t)) << "dump bit never self-cleared";
  EXPECT_EQ(t.tx_packets, 5u);
  EXPECT_EQ(t.rx_packets, 5u);
  EXPECT_EQ(t.rx_broadcast, 2u);
  EXPECT_EQ(t.rx_unicast, 3u);
  EXPECT_EQ(t.tx_errors, 0u);
  EXPECT_EQ(t.rx_errors, 0u);
  EXPECT_EQ(t.tx_aborted, 0u);
  EXPECT_EQ(t.tx_underrun, 0u);
  // Counters keep counting.
  traffic(nic, 2, 1, 0);
  ASSERT_TRUE(nic.drv.dump_counters(t));
  EXPECT_EQ(t.tx_packets, 7u);
  EXPECT_EQ(t.rx_packets, 6u);
}

TEST(ApiDtccr, DumpGoesToTheProgrammedAddress) {
  Nic nic;
  ASSERT_UP(nic);
  traffic(nic, 3, 0, 0);
  const uint64_t addr = Driver::kScratch + 0x1000;
  nic.host.mem().fill(Driver::kTally, 64, 0xa5);
  Tally t;
  ASSERT_TRUE(nic.drv.dump_counters(t, addr));
  EXPECT_EQ(t.tx_packets, 3u);
  EXPECT_EQ(nic.host.mem().read(Driver::kTally, 64), Bytes(64, 0xa5))
      << "the dump went to the old address";
}

TEST(ApiDtccr, CounterResetZeroesTally) {
  Nic nic;
  ASSERT_UP(nic);
  traffic(nic, 4, 2, 0);
  ASSERT_TRUE(nic.drv.reset_counters()) << "reset bit never self-cleared";
  Tally t;
  ASSERT_TRUE(nic.drv.dump_counters(t));
  EXPECT_EQ(t.tx_packets, 0u);
  EXPECT_EQ(t.rx_packets, 0u);
  traffic(nic, 2, 1, 0);
  ASSERT_TRUE(nic.drv.dump_counters(t));
  EXPECT_EQ(t.tx_packets, 2u);
  EXPECT_EQ(t.rx_packets, 1u);
}

TEST(ApiDtccr, DumpBitSelfClearsAfterDtccrTime) {
  Nic nic(default_params(true));
  ASSERT_UP(nic);
  traffic(nic, 1, 0, 0);
  nic.host.w32(kCounterAddrHigh, 0);
  nic.host.w32(kCounterAddrLow, static_cast<uint32_t>(Driver::kTally));
  const uint64_t t0 = nic.host.now();
  nic.host.w32(kCounterAddrLow, static_cast<uint32_t>(Driver::kTally) | kCounterDump);
  EXPECT_NE(nic.host.r32(kCounterAddrLow) & kCounterDump, 0u) << "dump finished instantly";
  nic.host.run_until(t0 + kDtccrTime / 2);
  EXPECT_NE(nic.host.r32(kCounterAddrLow) & kCounterDump, 0u) << "dump finished before dtccr-time";
  // dtccr-time plus the 64-byte DMA write itself (a few hundred ns of PCIe).
  nic.host.run_until(t0 + kDtccrTime + 5'000);
  EXPECT_EQ(nic.host.r32(kCounterAddrLow) & kCounterDump, 0u) << "dump not done at dtccr-time";
  EXPECT_EQ(Driver::parse_tally(nic.host.mem().read(Driver::kTally, 64)).tx_packets, 1u);
  EXPECT_EQ(nic.host.r32(kCounterAddrLow) & ~0xfu, static_cast<uint32_t>(Driver::kTally))
      << "the address bits read back";
}

TEST(ApiDtccr, DumpToUnmappedAddressDoesNotHang) {
  Nic nic;
  ASSERT_UP(nic);
  const auto faults = nic.host.mem().faults;
  nic.drv.counters_cmd(kCounterDump, Driver::kBadAddr);
  nic.host.advance(20'000'000);
  EXPECT_GT(nic.host.mem().faults, faults) << "the dump was attempted";
  // The device keeps working and a later dump to a good address succeeds.
  traffic(nic, 1, 0, 0);
  Tally t;
  ASSERT_TRUE(nic.drv.dump_counters(t));
  EXPECT_EQ(t.tx_packets, 1u);
}

}  // namespace
}  // namespace rtl8168_test
