// SPDX-License-Identifier: GPL-2.0-or-later
// Fault injection (docs/FAULTS.md, model/src/fault_injector.h) through the C
// API, driven like r8169 would: every fault class does what the chip does
// (and counts it), a power-on reset clears the schedule and re-installs the
// configured one, a ChipCmd reset keeps it, a schedule replayed gives the same
// trace hash, the schedule survives save/restore and hostile blobs and specs
// are refused without harm.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <string>
#include <vector>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};

// PHYstatus bits (r8169 enum rtl_register_content).
constexpr uint8_t kFullDup = 0x01, kLinkStatus = 0x02, k100bps = 0x08, k1000bpsF = 0x10;

// The fault_fired events recorded so far: (index, class, detail).
std::vector<std::array<uint64_t, 3>> fired(const TestHost& h) {
  std::vector<std::array<uint64_t, 3>> v;
  for (const TraceRecord& r : h.trace_events) {
    if (r.kind == RTL8168_TRACE_FAULT_FIRED) v.push_back(r.args);
  }
  return v;
}

void add(TestHost& h, const std::string& spec) {
  std::string err;
  ASSERT_EQ(h.add_fault(spec, &err), 0) << spec << ": " << err;
}

// One DMA fault of class `cls` on the 16 bytes of RX descriptor `slot`, once.
void fail_rx_desc_once(Nic& nic, const std::string& cls, unsigned slot) {
  const uint64_t a = nic.drv.rx_desc_addr(slot);
  add(nic.host, cls + ":addr=" + std::to_string(a) + "-" + std::to_string(a + 15) + ",count=1");
}

// r8169's recovery after SYSErr / a TX timeout (rtl_reset_work): stop,
// ChipCmd reset, rings cleared, hw_start.
void driver_reset(Driver& drv) {
  ASSERT_TRUE(drv.cleanup());
  drv.hw_start();
}

// ---- DMA ------------------------------------------------------------------

TEST(ApiFault, NthDmaReadFailsWithSysErrAndTxErrAndOnlyOnce) {
  Nic nic;
  ASSERT_UP(nic);
  add(nic.host, "dma-read:nth=1");
  const rtl8168_stats before = nic.host.stats();
  nic.drv.xmit(frame_to(kDst, 100));
  // The descriptor read failed: no frame, TxErr|SYSErr as for a bad address
  // (tx_engine.cc desc_fetched), the descriptor still owned.
  EXPECT_TRUE(nic.host.tx.empty());
  const uint16_t isr = nic.host.r16(kIntrStatus);
  EXPECT_EQ(isr & (kSYSErr | kTxErr), kSYSErr | kTxErr);
  const rtl8168_stats after = nic.host.stats();
  EXPECT_EQ(after.tx_dma_errors, before.tx_dma_errors + 1);
  EXPECT_EQ(after.sys_errors, before.sys_errors + 1);
  EXPECT_EQ(after.faults_fired, before.faults_fired + 1);
  ASSERT_EQ(fired(nic.host).size(), 1u);
  EXPECT_EQ(fired(nic.host)[0][1], 0u);  // class dma-read
  EXPECT_EQ(fired(nic.host)[0][2], Driver::kTxRing) << "detail: the failed address";
  // Fired once: the next doorbell sends the frame.
  nic.host.w16(kIntrStatus, 0xffff);
  nic.drv.kick();
  ASSERT_TRUE(nic.drv.wait_tx());
  EXPECT_EQ(nic.host.tx.size(), 1u);
  EXPECT_NE(nic.host.faults_json().find("\"state\": \"done\""), std::string::npos)
      << nic.host.faults_json();
}

TEST(ApiFault, DmaWriteWindowStopsTxUntilTheDriverResetsTheChip) {
  Nic nic;
  ASSERT_UP(nic);
  // Every write-back into the NPQ ring fails, once.
  add(nic.host, "dma-write:addr=0x10000-0x10fff,count=1");
  nic.drv.xmit(frame_to(kDst, 200, 1));
  ASSERT_EQ(nic.host.tx.size(), 1u) << "the frame left; its write-back failed";
  EXPECT_TRUE(nic.drv.tx_opts1(0) & kDescOwn) << "descriptor not handed back";
  EXPECT_EQ(nic.host.r16(kIntrStatus) & kSYSErr, kSYSErr);
  EXPECT_EQ(nic.host.stats().tx_writeback_errors, 1u);
  // The engine stays stopped (stop_on_error): a doorbell sends nothing.
  nic.drv.kick();
  EXPECT_EQ(nic.host.tx.size(), 1u);
  // r8169 resets the chip (rtl8169_pcierr_interrupt -> rtl_reset_work);
  // traffic resumes.
  driver_reset(nic.drv);
  nic.drv.xmit(frame_to(kDst, 200, 2));
  ASSERT_TRUE(nic.drv.wait_tx());
  EXPECT_EQ(nic.host.tx.size(), 2u);
}

TEST(ApiFault, DmaWindowOutsideTheTrafficNeverFiresAndLeavesTheHashAlone) {
  Nic a, b;
  ASSERT_UP(a);
  ASSERT_UP(b);
  add(b.host, "dma-read:addr=0xdead0000-0xdeadffff;dma-write:nth=1000000");
  for (Nic* n : {&a, &b}) {
    n->drv.xmit(frame_to(kDst, 300));
    n->host.receive(frame_to_us(200));
    n->drv.rx_poll();
  }
  EXPECT_EQ(b.host.stats().faults_fired, 0u);
  EXPECT_EQ(a.host.trace_hash(), b.host.trace_hash());
}

// ---- RX starvation and overflow -------------------------------------------

TEST(ApiFault, RxWithholdDropsFramesWithRxOverflowThenDelivers) {
  Nic nic;
  ASSERT_UP(nic);
  add(nic.host, "rx-withhold:count=3");
  for (uint8_t i = 0; i < 4; i++) nic.host.receive(frame_to_us(100, i));
  const rtl8168_stats s = nic.host.stats();
  EXPECT_EQ(s.rx_dropped_no_desc, 3u);
  EXPECT_EQ(s.rx_frames, 1u);
  EXPECT_EQ(nic.host.r16(kIntrStatus) & kRxOverflow, kRxOverflow) << "RDU";
  const std::vector<RxFrame> got = nic.drv.rx_poll();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].index, 0u) << "the withheld slot is the one used next";
  EXPECT_EQ(fired(nic.host).size(), 3u);
}

// A failed RX descriptor write-back (the frame's data already written) leaves
// the descriptor owned: the driver never sees the frame, so it is a counted
// loss with SYSErr|RxErr, and the next frame takes the same slot.
TEST(ApiFault, RxWriteBackFailureIsACountedLossAndTheSlotIsReused) {
  Nic nic;
  ASSERT_UP(nic);
  fail_rx_desc_once(nic, "dma-write", 0);
  nic.host.receive(frame_to_us(100, 1));
  rtl8168_stats s = nic.host.stats();
  EXPECT_EQ(s.rx_dropped_dma, 1u);
  EXPECT_EQ(s.rx_frames, 0u);
  EXPECT_EQ(nic.host.r16(kIntrStatus) & (kSYSErr | kRxErr), kSYSErr | kRxErr);
  EXPECT_TRUE(nic.drv.rx_poll().empty()) << "the descriptor is still the chip's";
  nic.host.receive(frame_to_us(100, 2));
  s = nic.host.stats();
  EXPECT_EQ(s.rx_frames, 1u);
  const std::vector<RxFrame> got = nic.drv.rx_poll();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].index, 0u) << "the slot whose write-back failed is the one used next";
  EXPECT_EQ(fired(nic.host).size(), 1u);
}

// A failed read-ahead of the next RX descriptor (rx-desc-prefetch) loses no
// frame, but the failed bus-master read is reported as every other one is:
// SYSErr and sys_errors; the slot is read again for the next frame.
TEST(ApiFault, RxReadAheadFailureRaisesSysErrAndLosesNothing) {
  Nic nic;
  ASSERT_UP(nic);
  fail_rx_desc_once(nic, "dma-read", 1);
  nic.host.receive(frame_to_us(100, 1));  // written to slot 0 while slot 1 is read ahead
  nic.host.advance(100'000);
  rtl8168_stats s = nic.host.stats();
  EXPECT_EQ(s.rx_frames, 1u);
  EXPECT_EQ(s.sys_errors, 1u);
  EXPECT_EQ(s.rx_dropped_dma, 0u);
  EXPECT_EQ(nic.host.r16(kIntrStatus) & kSYSErr, kSYSErr);
  EXPECT_EQ(fired(nic.host).size(), 1u);
  nic.host.receive(frame_to_us(100, 2));
  nic.host.advance(100'000);
  s = nic.host.stats();
  EXPECT_EQ(s.rx_frames, 2u);
  EXPECT_EQ(s.sys_errors, 1u) << "the second read of slot 1 succeeded";
  const std::vector<RxFrame> got = nic.drv.rx_poll();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1].index, 1u);
}

TEST(ApiFault, RxFifoOverDropsTheNthFrameWithRxFifoOver) {
  Nic nic;
  ASSERT_UP(nic);
  add(nic.host, "rx-fifo-over:frame=2");
  for (uint8_t i = 0; i < 3; i++) EXPECT_EQ(nic.host.receive(frame_to_us(100, i)), 100u);
  const rtl8168_stats s = nic.host.stats();
  EXPECT_EQ(s.rx_dropped_fifo_over, 1u);
  EXPECT_EQ(s.rx_frames, 2u);
  EXPECT_EQ(nic.host.r16(kIntrStatus) & kRxFIFOOver, kRxFIFOOver);
  Tally t;
  ASSERT_TRUE(nic.drv.dump_counters(t));
  EXPECT_EQ(t.rx_missed, 1u);
  const auto f = fired(nic.host);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0][1], 3u);
  EXPECT_EQ(f[0][2], 2u) << "detail: the occurrence";
}

// ---- link -------------------------------------------------------------------

TEST(ApiFault, LinkDownThenUpOnSchedule) {
  Nic nic(default_params(true));
  ASSERT_UP(nic);
  const uint64_t t0 = nic.host.now();
  add(nic.host, "link:at=+1ms,down;link:at=+2ms,up");
  nic.host.run_until(t0 + 999'000);
  EXPECT_TRUE(nic.host.r8(kPHYstatus) & kLinkStatus);
  nic.host.run_until(t0 + 1'000'000);
  EXPECT_FALSE(nic.host.r8(kPHYstatus) & kLinkStatus);
  EXPECT_TRUE(nic.host.r16(kIntrStatus) & kLinkChg);
  nic.host.w16(kIntrStatus, 0xffff);
  // Frames sent meanwhile are lost on the wire, and counted.
  nic.drv.xmit(frame_to(kDst, 100));
  nic.host.advance(500'000);  // 10 Mbit/s wire time without a link
  EXPECT_EQ(nic.host.stats().tx_dropped_link_down, 1u);
  // Up at 2 ms, then a full autonegotiation.
  nic.host.run_until(t0 + 2'000'000 + kPhyAnTime - 1);
  EXPECT_FALSE(nic.host.r8(kPHYstatus) & kLinkStatus);
  nic.host.run_until(t0 + 2'000'000 + kPhyAnTime);
  EXPECT_TRUE(nic.host.r8(kPHYstatus) & kLinkStatus);
  EXPECT_TRUE(nic.host.r16(kIntrStatus) & kLinkChg);
}

TEST(ApiFault, HostLinkAndFaultCarrierCompose) {
  Nic nic;  // functional: autonegotiation completes at once
  ASSERT_UP(nic);
  add(nic.host, "link:down");
  EXPECT_FALSE(nic.host.r8(kPHYstatus) & kLinkStatus);
  nic.host.set_link(false);
  nic.host.set_link(true);  // the host's carrier is back, the fault's is not
  EXPECT_FALSE(nic.host.r8(kPHYstatus) & kLinkStatus);
  add(nic.host, "link:up");
  EXPECT_TRUE(nic.host.r8(kPHYstatus) & kLinkStatus);
}

TEST(ApiFault, SpeedAndDuplexChangeRenegotiatesAndTheLpaSaysSo) {
  Nic nic(default_params(true));
  ASSERT_UP(nic);
  EXPECT_EQ(nic.host.r8(kPHYstatus) & (k1000bpsF | kFullDup), k1000bpsF | kFullDup);
  const uint64_t t0 = nic.host.now();
  add(nic.host, "link:at=+1ms,speed=100,duplex=half");
  nic.host.run_until(t0 + 1'000'000);
  EXPECT_FALSE(nic.host.r8(kPHYstatus) & kLinkStatus) << "a speed change drops the link";
  nic.host.run_until(t0 + 1'000'000 + kPhyAnTime);
  const uint8_t st = nic.host.r8(kPHYstatus);
  EXPECT_TRUE(st & kLinkStatus);
  EXPECT_TRUE(st & k100bps);
  EXPECT_FALSE(st & kFullDup);
  // phylib resolves from LPA / STAT1000 (genphy_read_lpa): only 100 half.
  EXPECT_EQ(nic.drv.mdio_read(kMiiLpa).value_or(0) & 0x01e0, 0x0080);
  EXPECT_EQ(nic.drv.mdio_read(kMiiStat1000).value_or(0) & 0x0c00, 0);
}

TEST(ApiFault, A2500OnlyPartnerLeavesA1000PhyWithoutALinkUntilItComesBack) {
  Nic nic;  // the 8168c: its PHY has no 2.5GBASE-T, nothing in common with the partner
  ASSERT_UP(nic);
  add(nic.host, "link:speed=2500");
  EXPECT_FALSE(nic.host.r8(kPHYstatus) & kLinkStatus);
  nic.host.advance(10'000'000);
  EXPECT_FALSE(nic.host.r8(kPHYstatus) & kLinkStatus) << "no common mode, no link";
  add(nic.host, "link:speed=1000");
  EXPECT_EQ(nic.host.r8(kPHYstatus) & (kLinkStatus | k1000bpsF | kFullDup),
            kLinkStatus | k1000bpsF | kFullDup);
}

TEST(ApiFault, FlapTogglesTheCarrierEachPeriod) {
  Nic nic;
  ASSERT_UP(nic);
  const uint64_t t0 = nic.host.now();
  add(nic.host, "link:at=+1ms,flap,every=1ms,count=4");
  std::vector<bool> seen;
  for (int i = 1; i <= 5; i++) {
    nic.host.run_until(t0 + i * 1'000'000);
    seen.push_back(nic.host.r8(kPHYstatus) & kLinkStatus);
  }
  EXPECT_EQ(seen, (std::vector<bool>{false, true, false, true, true}));
  EXPECT_EQ(fired(nic.host).size(), 4u);
}

TEST(ApiFault, AutonegSlowDelaysTheNextNegotiation) {
  Nic nic(default_params(true));
  ASSERT_UP(nic);
  add(nic.host, "autoneg-slow:delay=5ms");
  nic.host.set_link(false);
  nic.host.set_link(true);
  const uint64_t t0 = nic.host.now();
  nic.host.run_until(t0 + kPhyAnTime + 4'999'999);
  EXPECT_FALSE(nic.host.r8(kPHYstatus) & kLinkStatus);
  nic.host.run_until(t0 + kPhyAnTime + 5'000'000);
  EXPECT_TRUE(nic.host.r8(kPHYstatus) & kLinkStatus);
  // Only once (count=1): the next negotiation takes phy-an-time.
  nic.host.set_link(false);
  nic.host.set_link(true);
  nic.host.advance(kPhyAnTime);
  EXPECT_TRUE(nic.host.r8(kPHYstatus) & kLinkStatus);
}

// ---- interrupts ---------------------------------------------------------------

TEST(ApiFault, SpuriousIrqRaisesUnsolicitedBitsOnSchedule) {
  Nic nic;
  ASSERT_UP(nic);
  const uint64_t t0 = nic.host.now();
  const size_t msi0 = nic.host.msi_times.size();
  add(nic.host, "spurious-irq:at=+100us,bits=0x8001,every=1ms,count=3");
  nic.host.run_until(t0 + 99'999);
  EXPECT_EQ(nic.host.r16(kIntrStatus), 0);
  nic.host.run_until(t0 + 100'000);
  EXPECT_EQ(nic.host.r16(kIntrStatus), kSYSErr | kRxOK) << "SYSErr with RxOK";
  EXPECT_EQ(nic.host.msi_times.size(), msi0 + 1);
  nic.host.w16(kIntrStatus, 0xffff);
  nic.host.run_until(t0 + 10'000'000);
  EXPECT_EQ(fired(nic.host).size(), 3u);
  EXPECT_EQ(nic.host.stats().faults_fired, 3u);
  EXPECT_EQ(nic.host.deadline(), RTL8168_NO_DEADLINE) << "nothing left to fire";
}

TEST(ApiFault, IrqRaceAfterReadLatchesAnEventTheOldHandlerLoses) {
  Nic nic;
  ASSERT_UP(nic);
  add(nic.host, "irq-race:after=read,bits=0x0004,count=1");
  nic.host.w16(kIntrMask, kDriverIrqMask);
  // The pre-2009 handler reads, then acks what it read: the TxOK raised
  // right after the read stays latched, INT stays high, no new MSI edge.
  nic.host.receive(frame_to_us(100));
  const size_t msi = nic.host.msi_times.size();
  const uint16_t read = nic.drv.irq_old();
  EXPECT_EQ(read & kRxOK, kRxOK);
  EXPECT_EQ(nic.host.r16(kIntrStatus), kTxOK) << "an event landed between read and ack";
  EXPECT_EQ(nic.host.msi_times.size(), msi);
  EXPECT_EQ(fired(nic.host).size(), 1u);
}

TEST(ApiFault, IrqRacePullsThePendingCompletionForward) {
  Nic nic(default_params(true));
  ASSERT_UP(nic);
  add(nic.host, "irq-race:after=ack");
  nic.drv.queue_frame(frame_to(kDst, 1500));
  nic.drv.kick();
  nic.host.advance(100);  // the engine works on the frame
  ASSERT_TRUE(nic.host.tx.empty());
  // Each ack brings the next pending completion to now: descriptor fetch,
  // data, wire, in as many acks, without time passing.
  for (int i = 0; i < 20 && nic.host.tx.empty(); i++) nic.host.w16(kIntrStatus, 0);
  EXPECT_EQ(nic.host.tx.size(), 1u) << nic.host.trace_tail();
  EXPECT_GE(fired(nic.host).size(), 2u);
}

TEST(ApiFault, IrqRaceAfterReadWithNothingPendingDoesNotFire) {
  Nic nic(default_params(true));
  ASSERT_UP(nic);
  add(nic.host, "irq-race:after=read,count=3");
  for (int i = 0; i < 5; i++)
    nic.host.r16(kIntrStatus);  // an idle device: nothing to bring forward
  EXPECT_TRUE(fired(nic.host).empty());
  EXPECT_NE(nic.host.faults_json().find("\"seen\": 5, \"fired\": 0"), std::string::npos)
      << nic.host.faults_json();
  // With a frame in flight each read brings its next step forward, three times.
  nic.drv.queue_frame(frame_to(kDst, 1500));
  nic.drv.kick();
  const uint64_t t = nic.host.now();
  for (int i = 0; i < 6; i++) nic.host.r16(kIntrStatus);
  EXPECT_EQ(nic.host.now(), t) << "no time passed";
  EXPECT_EQ(fired(nic.host).size(), 3u);
  nic.host.advance(1'000'000);
  EXPECT_EQ(nic.host.tx.size(), 1u);
}

// ---- TX stall ----------------------------------------------------------------

TEST(ApiFault, TxStopFetchHoldsFramesUntilTheDriverResetsTheChip) {
  Nic nic;
  ASSERT_UP(nic);
  add(nic.host, "tx-stop-fetch:frame=3");
  for (uint8_t i = 0; i < 4; i++) nic.drv.xmit(frame_to(kDst, 100, i));
  EXPECT_EQ(nic.host.tx.size(), 2u) << "frames 1 and 2 left, then fetching stopped";
  EXPECT_TRUE(nic.drv.tx_opts1(2) & kDescOwn);
  nic.drv.kick();  // doorbells do not help (r8169: the TX watchdog fires)
  nic.host.advance(1'000'000);
  EXPECT_EQ(nic.host.tx.size(), 2u);
  EXPECT_NE(nic.host.faults_json().find("\"tx_stalled\": true"), std::string::npos);
  // rtl8169_tx_timeout -> rtl_reset_work: the chip works again, the fault
  // has fired (once).
  driver_reset(nic.drv);
  nic.drv.xmit(frame_to(kDst, 100, 9));
  ASSERT_TRUE(nic.drv.wait_tx());
  EXPECT_EQ(nic.host.tx.size(), 3u);
  EXPECT_EQ(fired(nic.host).size(), 1u);
}

TEST(ApiFault, TxEnbOffOnRestartsAStalledEngine) {
  Nic nic;
  ASSERT_UP(nic);
  add(nic.host, "tx-stop-fetch");
  nic.drv.xmit(frame_to(kDst, 100));
  EXPECT_TRUE(nic.host.tx.empty());
  nic.host.w8(kChipCmd, kCmdRxEnb);
  nic.host.w8(kChipCmd, kCmdRxEnb | kCmdTxEnb);
  nic.drv.kick();
  EXPECT_EQ(nic.host.tx.size(), 1u);
}

// ---- reset, configuration, listing -----------------------------------------

TEST(ApiFault, PowerOnResetDropsAddedFaultsAndReinstallsTheConfiguredOnes) {
  Nic nic(with(default_params(false), {{"faults", "rx-withhold:count=2"}}));
  ASSERT_UP(nic);
  EXPECT_NE(nic.host.faults_json().find("rx-withhold:count=2"), std::string::npos);
  add(nic.host, "spurious-irq:at=+1ms,bits=0x4000");
  nic.host.receive(frame_to_us(100));
  EXPECT_EQ(nic.host.stats().rx_dropped_no_desc, 1u);
  nic.host.reset();
  const std::string json = nic.host.faults_json();
  EXPECT_EQ(json.find("spurious-irq"), std::string::npos) << json;
  EXPECT_NE(json.find("\"seen\": 0, \"fired\": 0"), std::string::npos) << json;
  EXPECT_EQ(nic.host.deadline(), RTL8168_NO_DEADLINE);
}

TEST(ApiFault, ChipCmdResetKeepsTheSchedule) {
  Nic nic;
  ASSERT_UP(nic);
  add(nic.host, "rx-withhold:count=2");
  nic.host.receive(frame_to_us(100));
  driver_reset(nic.drv);
  nic.host.receive(frame_to_us(100));
  nic.host.receive(frame_to_us(100));
  EXPECT_EQ(nic.host.stats().rx_dropped_no_desc, 2u);
  EXPECT_EQ(nic.host.stats().rx_frames, 1u);
}

TEST(ApiFault, ClearDropsEveryFaultAndItsTimer) {
  Nic nic;
  ASSERT_UP(nic);
  add(nic.host, "link:at=+1ms,down;dma-read:nth=1");
  EXPECT_NE(nic.host.deadline(), RTL8168_NO_DEADLINE);
  nic.host.clear_faults();
  EXPECT_EQ(nic.host.deadline(), RTL8168_NO_DEADLINE);
  EXPECT_EQ(nic.host.faults_json(), "{\"faults\": [], \"tx_stalled\": false, \"fired_total\": 0}");
  nic.host.advance(2'000'000);
  nic.drv.xmit(frame_to(kDst, 100));
  EXPECT_EQ(nic.host.tx.size(), 1u);
}

TEST(ApiFault, ListingShowsStateSeenFiredAndNext) {
  Nic nic;
  ASSERT_UP(nic);
  const uint64_t t = nic.host.now() + 5'000'000;
  add(nic.host, "link:at=" + std::to_string(t) + ",down;dma-read:nth=2");
  nic.drv.xmit(frame_to(kDst, 100));  // descriptor read, data read (fails), ...
  const std::string json = nic.host.faults_json();
  EXPECT_NE(json.find("{\"index\": 0, \"spec\": \"link:down,at=" + std::to_string(t) +
                      ",count=1\", \"class\": \"link\", \"state\": \"waiting\", \"seen\": 0, "
                      "\"fired\": 0, \"next\": " +
                      std::to_string(t) + "}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"spec\": \"dma-read:nth=2,count=1\", \"class\": \"dma-read\", \"state\": "
                      "\"done\", \"seen\": 2, \"fired\": 1, \"next\": null"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"fired_total\": 1"), std::string::npos);
  // snprintf semantics: a short buffer gets a terminated prefix and the full length.
  char small[8];
  EXPECT_EQ(rtl8168_fault_list(nic.host.dev(), small, sizeof small), json.size());
  EXPECT_EQ(std::string(small), json.substr(0, 7));
}

TEST(ApiFault, FaultsParameterIsCanonicalAndRefusesBadSpecs) {
  rtl8168_config* cfg = rtl8168_config_new();
  char err[256] = "", buf[512] = "";
  EXPECT_EQ(rtl8168_config_set(cfg, "faults", " dma-read:frame=5 ", err, sizeof err), -1)
      << "frame= is for frame-counting classes";
  EXPECT_NE(std::string(err).find("dma-read takes no 'frame'"), std::string::npos) << err;
  EXPECT_EQ(
      rtl8168_config_set(cfg, "faults", "link:at=+5ms,down ; irq-race:after=ack", err, sizeof err),
      0)
      << err;
  ASSERT_EQ(rtl8168_config_get(cfg, "faults", buf, sizeof buf), 0);
  EXPECT_EQ(std::string(buf), "link:down,at=+5000000,count=1;irq-race:after=ack,count=all");
  EXPECT_EQ(rtl8168_config_set(cfg, "faults", "", err, sizeof err), 0);
  EXPECT_EQ(rtl8168_config_get(cfg, "faults", buf, sizeof buf), 0);
  EXPECT_EQ(std::string(buf), "");
  rtl8168_config_free(cfg);
}

// ---- hostile specs --------------------------------------------------------------

TEST(ApiFault, HostileSpecsGetErrorsAndAddNothing) {
  Nic nic;
  ASSERT_UP(nic);
  const std::string empty = nic.host.faults_json();
  const std::vector<std::string> bad = {
      "",
      "   ",
      ";;;",
      "garbage",
      "dma-read:",
      "dma-read:,",
      "dma-read:nth=0",
      "dma-read:nth=-1",
      "dma-read:nth=18446744073709551616",
      "dma-read:nth=99999999999999999999999999999999",
      "dma-read:nth=1099511627777",  // 2^40 + 1
      "dma-read:count=0",
      "dma-read:count=4294967297",
      "dma-read:nth=5,nth=6",
      "dma-read:at=1,from=2",
      "dma-read:addr=0x2000-0x1000",
      "dma-read:addr=0x1000",
      "dma-read:addr=0x-0x",
      "dma-read:at=4611686018427387905",  // 2^62 + 1 ns
      "dma-read:at=99999999999s",
      "dma-read:at=5parsecs",
      "dma-read:down",
      "link",
      "link:at=1",
      "link:down,count=5",
      "link:flap,every=1",
      "link:speed=42",
      "link:down,duplex=half",
      "link:speed=100,duplex=quarter",
      "link:speed=2500,duplex=half",  // 2.5GBASE-T is full duplex only
      "link:speed=10000",
      "link:up=1",
      "spurious-irq:at=1",
      "spurious-irq:bits=0",
      "spurious-irq:bits=0x10000",
      "irq-race",
      "irq-race:after=write",
      "autoneg-slow",
      "autoneg-slow:delay=61s",
      "tx-stop-fetch:count=2",
      "rx-fifo-over:frame=0",
      "dma-read:nth=1;garbage",  // nothing of a bad list is added
      std::string(300, 'a'),
      "dma-read:nth=" + std::string(250, '9'),
      std::string("dma-read:nth=1\xff"),
  };
  for (const std::string& spec : bad) {
    std::string err;
    EXPECT_EQ(nic.host.add_fault(spec, &err), -1) << "'" << spec << "' accepted";
    EXPECT_FALSE(err.empty()) << spec;
  }
  EXPECT_EQ(nic.host.faults_json(), empty);
  // The schedule is bounded: 32 faults, then an error.
  std::string many;
  for (int i = 0; i < 32; i++) many += "dma-read:nth=" + std::to_string(i + 1) + ";";
  add(nic.host, many);
  std::string err;
  EXPECT_EQ(nic.host.add_fault("dma-write:nth=1", &err), -1);
  EXPECT_NE(err.find("at most 32"), std::string::npos) << err;
  // A huge input is scanned once and refused.
  nic.host.clear_faults();
  EXPECT_EQ(nic.host.add_fault(std::string(1 << 20, ';') + "x", &err), -1);
  EXPECT_EQ(rtl8168_fault_add(nic.host.dev(), nic.host.now(), nullptr, nullptr, 0), -1);
}

TEST(ApiFault, AbsurdButValidNumbersStayBounded) {
  Nic nic;
  ASSERT_UP(nic);
  // Far in the future, every 10 us forever, a window over all of memory:
  // accepted, and none of them loops.
  add(nic.host, "spurious-irq:at=4611686018427387904,bits=0xffff,every=10us,count=all");
  add(nic.host, "dma-read:addr=0x0-0xffffffffffffffff,at=4611686018427387904");
  add(nic.host, "link:at=+0,flap,every=10us,count=4294967296");
  ASSERT_TRUE(nic.host.advance(1'000'000));
  EXPECT_EQ(fired(nic.host).size(), 101u) << "a flap every 10 us for 1 ms";
  nic.drv.xmit(frame_to(kDst, 64));
}

// ---- determinism and state --------------------------------------------------------

uint64_t run_schedule(const std::string& schedule) {
  Nic nic(with(default_params(true), {{"faults", schedule}}));
  EXPECT_TRUE(nic.up());
  add(nic.host, "rx-withhold:at=+50us,count=2;irq-race:after=read,count=5;dma-read:nth=40");
  for (uint8_t i = 0; i < 20; i++) {
    nic.drv.xmit(frame_to(kDst, 200 + 50 * i, i));
    nic.host.receive(frame_to_us(100 + 10 * i, i));
    nic.host.advance(20'000);
    nic.drv.irq_fixed();
    nic.drv.rx_poll();
  }
  nic.host.advance(10'000'000);
  EXPECT_GE(nic.host.stats().faults_fired, 5u);
  return nic.host.trace_hash();
}

TEST(ApiFault, ScheduleReplayedTwiceGivesTheSameTraceHash) {
  const std::string schedule =
      "spurious-irq:at=+100us,bits=0x8001,every=200us,count=3;"
      "link:at=+300us,speed=100,duplex=full;autoneg-slow:delay=1ms";
  const uint64_t a = run_schedule(schedule);
  const uint64_t b = run_schedule(schedule);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, run_schedule("")) << "the faults changed nothing";
}

TEST(ApiFault, ScheduleSurvivesSaveAndRestore) {
  const Params p = with(default_params(true), {{"faults", "spurious-irq:at=+2ms,bits=0x0100"}});
  Nic nic(p);
  ASSERT_UP(nic);
  add(nic.host, "link:at=+1ms,down;rx-withhold:count=2;tx-stop-fetch:frame=2");
  nic.host.receive(frame_to_us(100));
  nic.drv.xmit(frame_to(kDst, 100));
  nic.host.advance(50'000);
  const std::vector<uint8_t> blob = nic.host.save();
  TestHost other(p, nic.host.mem(), nic.host.now());
  std::string err;
  ASSERT_EQ(other.load(blob, &err), 0) << err;
  EXPECT_EQ(other.faults_json(), nic.host.faults_json());
  EXPECT_EQ(other.save(), blob);
  for (TestHost* h : {&nic.host, &other}) {
    h->receive(frame_to_us(100, 2));
    h->receive(frame_to_us(100, 3));
    h->advance(5'000'000);
  }
  EXPECT_EQ(other.trace_hash(), nic.host.trace_hash());
  EXPECT_EQ(other.faults_json(), nic.host.faults_json());
  EXPECT_FALSE(other.r8(kPHYstatus) & kLinkStatus);
  EXPECT_EQ(other.stats().faults_fired, 4u) << other.faults_json();
}

// The blob's fault section (the fault-injection part, last in an 8168c
// blob): [u32 n, per fault {u32 len, text, u64 seen, fired, base}, u8
// stalled], at the very end of the blob.
struct FaultTail {
  size_t count_at = 0;
  std::vector<size_t> text_at;  // each fault's length field
};
FaultTail locate(const std::vector<uint8_t>& blob, const std::vector<std::string>& texts) {
  FaultTail t;
  size_t tail = 4 + 1;  // count + stalled
  for (const std::string& s : texts) tail += 4 + s.size() + 24;
  t.count_at = blob.size() - tail;
  size_t p = t.count_at + 4;
  for (const std::string& s : texts) {
    t.text_at.push_back(p);
    p += 4 + s.size() + 24;
  }
  return t;
}

TEST(ApiFault, HostileFaultSectionsAreRefused) {
  Nic nic;
  ASSERT_UP(nic);
  add(nic.host, "rx-withhold:count=2;spurious-irq:at=+1ms,bits=0x8000");
  nic.host.receive(frame_to_us(100));
  const std::vector<uint8_t> blob = nic.host.save();
  const std::vector<std::string> texts = {
      "rx-withhold:count=2",
      "spurious-irq:bits=0x8000,at=" + std::to_string(nic.host.now() + 1'000'000) + ",count=1"};
  const FaultTail t = locate(blob, texts);
  ASSERT_EQ(blob.at(t.count_at), 2);
  ASSERT_EQ(std::string(blob.begin() + t.text_at[0] + 4, blob.begin() + t.text_at[0] + 4 + 19),
            texts[0]);
  auto refused = [&](std::vector<uint8_t> b, const char* what) {
    TestHost fresh(default_params(false), nic.host.mem(), nic.host.now());
    std::string err;
    EXPECT_NE(fresh.load(b, &err), 0) << what;
    EXPECT_FALSE(err.empty());
    EXPECT_EQ(fresh.faults_json(), "{\"faults\": [], \"tx_stalled\": false, \"fired_total\": 0}")
        << what << ": a refused load changed the schedule";
  };
  const size_t seen0 = t.text_at[0] + 4 + texts[0].size(), fired0 = seen0 + 8;
  std::vector<uint8_t> b = blob;
  b[t.text_at[0] + 4] = 'X';  // class name garbage
  refused(b, "garbage spec");
  b = blob;
  b[fired0] = 3;  // count=2
  b[seen0] = 3;
  refused(b, "fired more than count");
  b = blob;
  b[fired0] = 2;  // fired 2 of 1 seen
  refused(b, "fired before seen");
  b = blob;
  b.back() = 1;  // TX stalled without a tx-stop-fetch fault
  refused(b, "stalled");
  b = blob;
  b[t.count_at] = 200;  // more faults than the schedule holds
  refused(b, "count");
  b = blob;
  b[t.text_at[1] + 4 + texts[1].size() + 8] = 1;  // the timed fault fired: its timer is wrong
  b[t.text_at[1] + 4 + texts[1].size()] = 1;
  refused(b, "timer");
  // The PHY's link-fault state sits just before the schedule: carrier, partner.
  ASSERT_EQ(blob.at(t.count_at - 2), 0) << "fault carrier up";
  ASSERT_EQ(blob.at(t.count_at - 1), 63) << "partner: every mode";
  b = blob;
  b[t.count_at - 2] = 1;  // the fault holds the carrier down, yet the link is up
  refused(b, "carrier");
  b = blob;
  b[t.count_at - 1] = 0;  // a partner with no ability
  refused(b, "partner none");
  b = blob;
  b[t.count_at - 1] = 3;  // two modes: set_partner() keeps exactly one
  refused(b, "partner two modes");
  // The untouched blob loads.
  TestHost fresh(default_params(false), nic.host.mem(), nic.host.now());
  std::string err;
  EXPECT_EQ(fresh.load(blob, &err), 0) << err;
}

}  // namespace
}  // namespace rtl8168_test
