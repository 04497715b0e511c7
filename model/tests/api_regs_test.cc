// SPDX-License-Identifier: GPL-2.0-or-later
// Register file through the C API: reset values, access widths, hostile
// accesses, side-effect-free reads, W1C, the Cfg9346 lock, ChipCmd reset.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <vector>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

uint64_t ones(unsigned size) { return size >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * size)) - 1; }

TEST(ApiRegs, PowerOnValues) {
  // Timing mode: at t=0 autonegotiation has not completed yet, so nothing is
  // latched. (In functional mode it completes at once and LinkChg latches.)
  TestHost h(default_params(true));
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h.r32(kTxConfig), kTxConfigReset) << "RTL8168c XID 0x3c4";
  EXPECT_EQ((h.r32(kTxConfig) >> 20) & 0xfcf, 0x3c4u);
  EXPECT_EQ(h.r16(kIntrMask), 0);
  EXPECT_EQ(h.r16(kIntrStatus), 0);
  EXPECT_EQ(h.r8(kChipCmd) & (kCmdTxEnb | kCmdRxEnb | kCmdReset), 0);
  EXPECT_EQ(h.r8(kCfg9346) & 0xc0, 0) << "config registers locked at power-on";
  for (unsigned i = 0; i < 6; ++i) EXPECT_EQ(h.r8(kMAC0 + i), kTestMacBytes[i]) << "MAC" << i;
  EXPECT_EQ(h.intx_level, 0);
  EXPECT_TRUE(h.msi_times.empty());
}

TEST(ApiRegs, PciResetRestoresPowerOnValues) {
  Nic nic;
  ASSERT_UP(nic);
  nic.drv.write_mac({0x02, 1, 2, 3, 4, 5});
  nic.host.reset();
  EXPECT_EQ(nic.host.r32(kTxConfig), kTxConfigReset);
  EXPECT_EQ(nic.host.r16(kIntrMask), 0);
  EXPECT_EQ(nic.host.r8(kChipCmd) & (kCmdTxEnb | kCmdRxEnb), 0);
  for (unsigned i = 0; i < 6; ++i)
    EXPECT_EQ(nic.host.r8(kMAC0 + i), kTestMacBytes[i]) << "MAC reloaded from the configuration";
}

TEST(ApiRegs, XidBitsAreReadOnly) {
  TestHost h(default_params(false));
  ASSERT_TRUE(h.ok());
  h.w32(kTxConfig, 0);
  EXPECT_EQ(h.r32(kTxConfig) & kTxConfigXidMask, kTxConfigReset);
  h.w32(kTxConfig, 0xffffffff);
  EXPECT_EQ(h.r32(kTxConfig) & kTxConfigXidMask, kTxConfigReset);
  h.w32(kTxConfig, kTxConfigDriver);
  EXPECT_EQ(h.r32(kTxConfig), kTxConfigReset | kTxConfigDriver) << "IFG and MXDMA are writable";
  h.w32(kTxConfig, 0x00000300);
  EXPECT_EQ(h.r32(kTxConfig) & 0x700u, 0x300u) << "MXDMA is bits 10:8";
}

TEST(ApiRegs, ByteWordDwordViewsAgree) {
  TestHost h(default_params(false));
  ASSERT_TRUE(h.ok());
  const uint8_t* m = kTestMacBytes;
  EXPECT_EQ(h.r32(kMAC0), static_cast<uint32_t>(m[0] | m[1] << 8 | m[2] << 16) |
                              static_cast<uint32_t>(m[3]) << 24);
  EXPECT_EQ(h.r16(kMAC0 + 4), m[4] | m[5] << 8);
  EXPECT_EQ(h.r16(kMAC0 + 2), m[2] | m[3] << 8);
  // IntrMask as a word, and its bytes.
  h.w16(kIntrMask, 0x0025);
  EXPECT_EQ(h.r16(kIntrMask), 0x0025);
  EXPECT_EQ(h.r8(kIntrMask), 0x25);
  EXPECT_EQ(h.r8(kIntrMask + 1), 0x00);
  // IntrMask + IntrStatus as one dword at 0x3c.
  EXPECT_EQ(h.r32(kIntrMask) & 0xffff, 0x0025u);
  h.w16(kIntrMask, 0);
  // MAR through bytes and dwords.
  h.w32(kMAR0, 0x44332211);
  h.w8(kMAR0 + 4, 0x55);
  h.w16(kMAR0 + 6, 0x8877);
  EXPECT_EQ(h.r8(kMAR0 + 1), 0x22);
  EXPECT_EQ(h.r32(kMAR0 + 4) & 0xffff00ffu, 0x88770055u);
  EXPECT_EQ(h.r16(kMAR0 + 2), 0x4433);
  // Ring base registers keep all 32 bits of each half.
  h.w32(kTxDescStartAddrHigh, 0x00000001);
  h.w32(kTxDescStartAddrLow, 0x89abcd00);
  EXPECT_EQ(h.r32(kTxDescStartAddrHigh), 1u);
  EXPECT_EQ(h.r32(kTxDescStartAddrLow), 0x89abcd00u);
  EXPECT_EQ(h.stats().bad_access, 0u) << "all of these are legal accesses";
}

TEST(ApiRegs, UnsupportedAccessesReadAllOnesAndAreCounted) {
  TestHost h(default_params(false));
  ASSERT_TRUE(h.ok());
  const uint64_t before = h.stats().bad_access;
  struct Acc {
    uint32_t off;
    unsigned size;
  };
  const std::vector<Acc> bad = {
      {kIntrStatus + 1, 2},  // odd word
      {kMAC0 + 2, 4},        // unaligned dword
      {kTxConfig + 1, 4},
      {kMAC0, 8},  // 8-byte access
      {kMAR0, 8},
      {RTL8168_MMIO_SIZE, 1},  // beyond the window
      {RTL8168_MMIO_SIZE + 4, 4},
      {0xfffffffc, 4},
  };
  for (const Acc& a : bad) {
    EXPECT_EQ(h.read(a.off, a.size) & ones(a.size), ones(a.size))
        << "offset 0x" << std::hex << a.off << " size " << std::dec << a.size;
  }
  EXPECT_GE(h.stats().bad_access - before, bad.size());
  // Odd sizes must not crash either.
  h.read(kMAC0, 3);
  h.read(kMAC0, 0);
  EXPECT_EQ(h.callbacks_outside_calls, 0u);
}

TEST(ApiRegs, UnsupportedWritesAreIgnoredAndCounted) {
  TestHost h(default_params(false));
  ASSERT_TRUE(h.ok());
  h.w8(kCfg9346, kCfg9346Unlock);
  const uint64_t before = h.stats().bad_access;
  const uint32_t mac0 = h.r32(kMAC0);
  h.write(kMAC0 + 1, 0xbeef, 2);             // odd word
  h.write(kMAC0 + 2, 0xdeadbeef, 4);         // unaligned dword
  h.write(kMAC0, 0x1122334455667788ull, 8);  // 8-byte
  h.write(kIntrMask + 1, 0xffff, 2);         // odd word over IntrMask/Status
  h.write(RTL8168_MMIO_SIZE, 0xff, 1);       // beyond the window
  h.write(0xfffffff0, 0xffffffff, 4);
  EXPECT_EQ(h.r32(kMAC0), mac0);
  EXPECT_EQ(h.r16(kIntrMask), 0);
  EXPECT_GE(h.stats().bad_access - before, 6u);
}

TEST(ApiRegs, MmioAboveRegisterFileReadsZero) {
  // rtl8168.h: BAR2 is 4 KiB and mirrors nothing above 0xff.
  TestHost h(default_params(false));
  ASSERT_TRUE(h.ok());
  h.w32(0x100, 0xffffffff);
  h.w32(0x800 + kTxConfig, 0);
  EXPECT_EQ(h.r32(0x100), 0u);
  EXPECT_EQ(h.r8(0xfff), 0u);
  EXPECT_EQ(h.r32(0x100 + kTxConfig), 0u) << "no mirror of TxConfig at 0x140";
  EXPECT_EQ(h.r32(kTxConfig), kTxConfigReset) << "a write at 0x840 must not reach TxConfig";
}

TEST(ApiRegs, ReadsHaveNoSideEffects) {
  Nic nic;
  ASSERT_UP(nic);
  nic.drv.xmit(frame_to({1, 2, 3, 4, 5, 6}, 100));
  ASSERT_TRUE(nic.drv.wait_tx());
  const uint16_t s1 = nic.host.r16(kIntrStatus);
  const uint16_t s2 = nic.host.r16(kIntrStatus);
  EXPECT_NE(s1 & kTxOK, 0);
  EXPECT_EQ(s1, s2) << "reading IntrStatus must not acknowledge it";
  // ethtool -d: dump 0x00-0xff byte by byte, twice.
  std::vector<uint8_t> d1, d2;
  const auto stats_before = nic.host.stats();
  for (uint32_t off = 0; off < RTL8168_IO_SIZE; ++off) d1.push_back(nic.host.r8(off));
  for (uint32_t off = 0; off < RTL8168_IO_SIZE; ++off) d2.push_back(nic.host.r8(off));
  EXPECT_EQ(d1, d2);
  EXPECT_EQ(nic.host.r16(kIntrStatus), s1);
  const auto stats_after = nic.host.stats();
  EXPECT_EQ(stats_after.tx_frames, stats_before.tx_frames);
  EXPECT_EQ(stats_after.tx_doorbells, stats_before.tx_doorbells);
  EXPECT_EQ(nic.host.tx.size(), 1u);
}

TEST(ApiRegs, IntrStatusIsWriteOneToClear) {
  Nic nic;
  ASSERT_UP(nic);
  nic.drv.xmit(frame_to({1, 2, 3, 4, 5, 6}, 100));
  ASSERT_TRUE(nic.drv.wait_tx());
  nic.host.receive(frame_to_us(100));
  const uint16_t s = nic.host.r16(kIntrStatus);
  ASSERT_EQ(s & (kTxOK | kRxOK), kTxOK | kRxOK);
  nic.host.w16(kIntrStatus, 0);
  EXPECT_EQ(nic.host.r16(kIntrStatus), s) << "writing 0 changes nothing";
  nic.host.w16(kIntrStatus, kTxOK);
  EXPECT_EQ(nic.host.r16(kIntrStatus), s & ~kTxOK) << "only the written 1 bits clear";
  nic.host.w16(kIntrStatus, 0xffff);
  EXPECT_EQ(nic.host.r16(kIntrStatus), 0);
  nic.host.w16(kIntrStatus, 0xffff);
  EXPECT_EQ(nic.host.r16(kIntrStatus), 0) << "software cannot set status bits";
}

TEST(ApiRegs, Cfg9346LockGuardsMacRegisters) {
  TestHost h(default_params(false));
  ASSERT_TRUE(h.ok());
  Driver d(h);
  const Mac other = {0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee};
  const auto orig = d.read_mac();
  d.write_mac(other, /*unlock=*/false);
  EXPECT_EQ(d.read_mac(), orig) << "MAC writes ignored while locked";
  h.w8(kCfg9346, 0x80);  // EEPROM programming mode, not config-write enable
  d.write_mac(other, false);
  h.w8(kMAC0, 0x77);
  EXPECT_EQ(d.read_mac(), orig) << "only 0xC0 unlocks";
  h.w8(kCfg9346, kCfg9346Unlock);
  d.write_mac(other, false);
  EXPECT_EQ(d.read_mac(), (std::array<uint8_t, 6>{0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee}));
  h.w8(kMAC0 + 5, 0x11);  // byte writes work too when unlocked
  EXPECT_EQ(h.r8(kMAC0 + 5), 0x11);
  h.w8(kCfg9346, kCfg9346Lock);
  h.w8(kMAC0 + 5, 0x22);
  h.w32(kMAC0, 0);
  EXPECT_EQ(h.r8(kMAC0 + 5), 0x11);
  EXPECT_EQ(h.r8(kMAC0), 0x02);
}

TEST(ApiRegs, ChipResetSelfClearsAfterChipResetTime) {
  TestHost h(default_params(true));
  ASSERT_TRUE(h.ok());
  const uint64_t t0 = h.now();
  h.w8(kChipCmd, kCmdReset);
  EXPECT_NE(h.r8(kChipCmd) & kCmdReset, 0) << "reset in progress";
  h.run_until(t0 + kChipResetTime / 2);
  EXPECT_NE(h.r8(kChipCmd) & kCmdReset, 0) << "cleared before chip-reset-time";
  h.run_until(t0 + kChipResetTime);
  EXPECT_EQ(h.r8(kChipCmd) & kCmdReset, 0) << "not cleared at chip-reset-time";
}

TEST(ApiRegs, ChipResetKeepsMacAndStopsTxRx) {
  Nic nic;
  ASSERT_UP(nic);
  const Mac custom = {0x02, 0x10, 0x20, 0x30, 0x40, 0x50};
  nic.drv.write_mac(custom);
  ASSERT_TRUE(nic.drv.chip_reset());
  EXPECT_EQ(nic.drv.read_mac(), (std::array<uint8_t, 6>{0x02, 0x10, 0x20, 0x30, 0x40, 0x50}))
      << "CmdReset keeps the programmed MAC (docs/R8169.md §2: survives CmdReset)";
  EXPECT_EQ(nic.host.r8(kChipCmd) & (kCmdTxEnb | kCmdRxEnb), 0) << "reset stops TX and RX";
  // RX is off: a frame is never delivered; if consumed it is counted as
  // dropped (or the host is told to hold it: receive() returns 0).
  const auto before = nic.host.stats();
  const size_t taken = nic.host.receive(frame_to(custom, 100));
  nic.host.advance(1'000'000);
  const auto after = nic.host.stats();
  EXPECT_EQ(after.rx_frames, before.rx_frames);
  if (taken != 0) {
    EXPECT_EQ(taken, 100u);
    EXPECT_EQ(after.rx_dropped_disabled, before.rx_dropped_disabled + 1);
  }
  // TX is off: a queued frame and a doorbell send nothing.
  nic.drv.xmit(frame_to({1, 2, 3, 4, 5, 6}, 80));
  nic.host.advance(1'000'000);
  EXPECT_TRUE(nic.host.tx.empty());
}

TEST(ApiRegs, ChipResetRewindsRingPositions) {
  Nic nic;
  ASSERT_UP(nic);
  for (int i = 0; i < 3; ++i)
    nic.drv.xmit(frame_to({1, 2, 3, 4, 5, 6}, 100, static_cast<uint8_t>(i)));
  ASSERT_TRUE(nic.drv.wait_tx());
  for (int i = 0; i < 2; ++i) nic.host.receive(frame_to_us(100, static_cast<uint8_t>(i)));
  ASSERT_EQ(nic.drv.rx_poll().size(), 2u);
  ASSERT_EQ(nic.host.tx.size(), 3u);
  // rtl8169_cleanup + rtl_hw_start: the driver restarts both rings at entry 0.
  ASSERT_TRUE(nic.drv.cleanup());
  nic.drv.hw_start();
  const Bytes f = frame_to({1, 2, 3, 4, 5, 6}, 200, 42);
  EXPECT_EQ(nic.drv.xmit(f), 0u);
  ASSERT_TRUE(nic.drv.wait_tx()) << "TX did not restart at the ring base";
  ASSERT_EQ(nic.host.tx.size(), 4u);
  EXPECT_EQ(nic.host.tx.back().frame, f);
  nic.host.receive(frame_to_us(150, 9));
  const auto rx = nic.drv.rx_poll();
  ASSERT_EQ(rx.size(), 1u) << "RX did not restart at the ring base";
  EXPECT_EQ(rx[0].index, 0u);
}

TEST(ApiRegsTiming, ChipResetMidTransferStopsDma) {
  Nic nic(default_params(true));
  ASSERT_UP(nic);
  for (int i = 0; i < 30; ++i)
    nic.drv.queue_frame(frame_to({1, 2, 3, 4, 5, 6}, 1514, static_cast<uint8_t>(i)));
  nic.drv.kick();
  for (int i = 0; i < 30; ++i) nic.host.receive(frame_to_us(1514, static_cast<uint8_t>(i)));
  ASSERT_TRUE(nic.drv.poll([&] { return nic.host.tx.size() >= 3; }, 1'000, 10'000'000));
  ASSERT_LT(nic.host.tx.size(), 30u) << "test needs TX still in flight";
  ASSERT_TRUE(nic.drv.chip_reset());
  nic.host.advance(1'000);  // let a write-back already on the bus land
  const size_t sent = nic.host.tx.size();
  const uint64_t writes = nic.host.mem().writes, reads = nic.host.mem().reads;
  nic.host.advance(10'000'000);
  EXPECT_EQ(nic.host.tx.size(), sent) << "frames left after the reset completed";
  EXPECT_EQ(nic.host.mem().writes, writes) << "DMA writes after the reset completed";
  EXPECT_EQ(nic.host.mem().reads, reads) << "DMA reads after the reset completed";
  // Re-open: both rings start again at entry 0 and work.
  nic.drv.hw_start();
  nic.host.w16(kIntrStatus, 0xffff);
  const Bytes f = frame_to({1, 2, 3, 4, 5, 6}, 300, 0x99);
  EXPECT_EQ(nic.drv.xmit(f), 0u);
  ASSERT_TRUE(nic.drv.wait_tx());
  EXPECT_EQ(nic.host.tx.back().frame, f);
  nic.host.receive(frame_to_us(100));
  ASSERT_TRUE(
      nic.drv.poll([&] { return (nic.host.r16(kIntrStatus) & kRxOK) != 0; }, 1'000, 10'000'000));
  const auto rx = nic.drv.rx_poll();
  ASSERT_EQ(rx.size(), 1u);
  EXPECT_EQ(rx[0].index, 0u);
}

}  // namespace
}  // namespace rtl8168_test
