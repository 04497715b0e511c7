// SPDX-License-Identifier: GPL-2.0-or-later
// Hostile guests: DMA outside guest memory, bad lengths, rings without EOR,
// register fuzzing, early/late timer calls. Each case must produce the
// hardware's error behaviour plus a counter -- never a crash, a hang or an
// unbounded walk -- and the device must come back after a reset.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <random>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};

uint64_t rx_accounted(const rtl8168_stats& s) {
  return s.rx_frames + s.rx_dropped_filter + s.rx_dropped_no_desc + s.rx_dropped_disabled +
         s.rx_dropped_too_long + s.rx_dropped_dma + s.rx_dropped_runt;
}

struct ApiHostile : ::testing::Test {
  void SetUp() override { ASSERT_UP(nic); }
  // The driver's recovery path (rtl_reset_work), then one good frame each way.
  void expect_recovers() {
    ASSERT_TRUE(nic.drv.cleanup());
    nic.drv.hw_start();
    nic.host.w16(kIntrStatus, 0xffff);
    const Bytes f = frame_to(kDst, 200, 0x42);
    const size_t before = nic.host.tx.size();
    nic.drv.xmit(f);
    ASSERT_TRUE(nic.drv.wait_tx()) << "TX dead after recovery\n" << nic.host.trace_tail();
    ASSERT_EQ(nic.host.tx.size(), before + 1);
    EXPECT_EQ(nic.host.tx.back().frame, f);
    ASSERT_EQ(nic.host.receive(frame_to_us(150)), 150u);
    nic.host.advance(1'000'000);
    EXPECT_EQ(nic.drv.rx_poll().size(), 1u) << "RX dead after recovery";
    EXPECT_EQ(nic.host.callbacks_outside_calls, 0u);
  }
  Nic nic;
};

TEST_F(ApiHostile, TxBufferOutsideGuestMemory) {
  const unsigned idx = nic.drv.queue_frame(frame_to(kDst, 300));
  nic.host.mem().w64(nic.drv.tx_desc_addr(Queue::kNormal, idx) + 8, Driver::kBadAddr);
  const auto before = nic.host.stats();
  nic.drv.kick();
  ASSERT_TRUE(nic.host.advance(10'000'000));
  EXPECT_TRUE(nic.host.tx.empty());
  EXPECT_GT(nic.host.stats().tx_dma_errors, before.tx_dma_errors);
  EXPECT_NE(nic.host.r16(kIntrStatus) & (kTxErr | kSYSErr), 0) << "error reported to the driver";
  expect_recovers();
}

TEST_F(ApiHostile, TxRingOutsideGuestMemory) {
  nic.host.w32(kTxDescStartAddrHigh, static_cast<uint32_t>(Driver::kBadAddr >> 32));
  nic.host.w32(kTxDescStartAddrLow, 0);
  const auto before = nic.host.stats();
  nic.drv.kick();
  ASSERT_TRUE(nic.host.advance(10'000'000));
  EXPECT_TRUE(nic.host.tx.empty());
  EXPECT_GT(nic.host.stats().tx_dma_errors, before.tx_dma_errors);
  EXPECT_NE(nic.host.r16(kIntrStatus) & (kTxErr | kSYSErr), 0);
  expect_recovers();
}

TEST_F(ApiHostile, TxZeroLengthDescriptor) {
  const auto before = nic.host.stats();
  nic.drv.queue_frame(Bytes{});
  nic.drv.kick();
  ASSERT_TRUE(nic.host.advance(10'000'000));
  EXPECT_TRUE(nic.host.tx.empty()) << "a zero-length frame reached the wire";
  EXPECT_EQ(nic.host.stats().tx_bad_descriptors, before.tx_bad_descriptors + 1);
  expect_recovers();
}

TEST_F(ApiHostile, TxFrameBeyondJumboLimit) {
  // 16000 bytes in four fragments, no TSO: larger than any jumbo frame.
  const Bytes big = frame_to(kDst, 16000, 3);
  std::vector<Bytes> frags;
  for (size_t off = 0; off < big.size(); off += 4000)
    frags.emplace_back(big.begin() + static_cast<long>(off),
                       big.begin() + static_cast<long>(off + 4000));
  const auto before = nic.host.stats();
  nic.drv.queue_tx(frags);
  nic.drv.kick();
  ASSERT_TRUE(nic.host.advance(10'000'000));
  EXPECT_TRUE(nic.host.tx.empty()) << "a 16000-byte frame reached the wire";
  const auto after = nic.host.stats();
  EXPECT_GT(after.tx_bad_descriptors + after.tx_errors,
            before.tx_bad_descriptors + before.tx_errors);
  expect_recovers();
}

TEST_F(ApiHostile, TxSingleDescriptorOfMaximumLength) {
  const auto before = nic.host.stats();
  nic.drv.queue_frame(frame_to(kDst, 0xffff, 4));
  nic.drv.kick();
  ASSERT_TRUE(nic.host.advance(10'000'000));
  EXPECT_TRUE(nic.host.tx.empty());
  const auto after = nic.host.stats();
  EXPECT_GT(after.tx_bad_descriptors + after.tx_errors,
            before.tx_bad_descriptors + before.tx_errors);
  expect_recovers();
}

TEST_F(ApiHostile, TxLastFragmentWithoutFirst) {
  const uint64_t buf = nic.drv.tx_buf_alloc(100);
  nic.host.mem().write(buf, frame_to(kDst, 100));
  const auto before = nic.host.stats();
  nic.drv.write_desc(nic.drv.tx_desc_addr(Queue::kNormal, 0), kDescOwn | kLastFrag | 100, 0, buf);
  nic.drv.kick();
  ASSERT_TRUE(nic.host.advance(10'000'000));
  EXPECT_TRUE(nic.host.tx.empty()) << "LS without FS is not a frame";
  EXPECT_GT(nic.host.stats().tx_bad_descriptors, before.tx_bad_descriptors);
  expect_recovers();
}

TEST_F(ApiHostile, TxRingWithoutEorIsBounded) {
  // 65536 owned descriptors (1 MiB) and no EOR anywhere.
  const uint64_t ring = Driver::kScratch;
  const unsigned n = 65536;
  const uint64_t buf = Driver::kScratch + n * kDescSize;
  nic.host.mem().write(buf, frame_to(kDst, 60));
  for (unsigned i = 0; i < n; ++i)
    nic.drv.write_desc(ring + i * kDescSize, kDescOwn | kFirstFrag | kLastFrag | 60, 0, buf);
  nic.host.w32(kTxDescStartAddrHigh, 0);
  nic.host.w32(kTxDescStartAddrLow, static_cast<uint32_t>(ring));
  const auto before = nic.host.stats();
  nic.drv.kick();  // must return
  nic.host.run_until_idle(100'000'000);
  const auto after = nic.host.stats();
  EXPECT_GT(after.ring_no_eor, before.ring_no_eor) << "the walk hit no bound";
  EXPECT_LE(after.tx_frames - before.tx_frames, n);
  expect_recovers();
}

// The RX ring is bounded like the TX rings (one ring type, desc_ring.h):
// without EOR the walk wraps to slot 0 after 1024 slots, counts the wrap once
// in ring_no_eor and traces ring_no_eor with queue 2 (RX) and the ring base.
TEST_F(ApiHostile, RxRingWithoutEorWrapsAtTheBound) {
  const uint64_t ring = Driver::kScratch;
  const unsigned n = 1024;
  const uint64_t buf = ring + n * kDescSize;  // one 2 KiB buffer behind every slot
  for (unsigned i = 0; i < n; ++i)
    nic.drv.write_desc(ring + i * kDescSize, kDescOwn | 2048, 0, buf);
  nic.host.w32(kRxDescAddrHigh, 0);
  nic.host.w32(kRxDescAddrLow, static_cast<uint32_t>(ring));
  const auto before = nic.host.stats();
  nic.host.trace_events.clear();
  // Whatever slot the walk stands at, 1024 frames take every slot once and
  // cross from slot 1023 to slot 0 once.
  for (unsigned i = 0; i < n; ++i) {
    ASSERT_EQ(nic.host.receive(frame_to_us(60, static_cast<uint8_t>(i))), 60u) << "frame " << i;
    ASSERT_TRUE(nic.host.advance(100'000));
  }
  const auto after = nic.host.stats();
  EXPECT_EQ(after.rx_frames, before.rx_frames + n);
  EXPECT_EQ(after.ring_no_eor, before.ring_no_eor + 1);
  ASSERT_LT(nic.host.trace_events.size(), TestHost::kMaxTraceLines) << "trace capped";
  unsigned wraps = 0;
  for (const TraceRecord& t : nic.host.trace_events) {
    if (t.kind != RTL8168_TRACE_RING_NO_EOR) continue;
    wraps++;
    EXPECT_EQ(t.args[0], 2u) << "queue: 0 NPQ, 1 HPQ, 2 RX";
    EXPECT_EQ(t.args[1], ring) << "the RX ring's base";
  }
  EXPECT_EQ(wraps, 1u);
  expect_recovers();
}

TEST_F(ApiHostile, RxBufferOutsideGuestMemory) {
  nic.host.mem().w64(nic.drv.rx_desc_addr(0) + 8, Driver::kBadAddr);
  const auto before = nic.host.stats();
  ASSERT_EQ(nic.host.receive(frame_to_us(300)), 300u);
  ASSERT_TRUE(nic.host.advance(1'000'000));
  const auto after = nic.host.stats();
  EXPECT_EQ(after.rx_dropped_dma, before.rx_dropped_dma + 1);
  EXPECT_EQ(after.rx_frames, before.rx_frames);
  EXPECT_EQ(rx_accounted(after), rx_accounted(before) + 1);
  expect_recovers();
}

TEST_F(ApiHostile, RxRingOutsideGuestMemory) {
  nic.host.w32(kRxDescAddrHigh, static_cast<uint32_t>(Driver::kBadAddr >> 32));
  nic.host.w32(kRxDescAddrLow, 0);
  const auto before = nic.host.stats();
  ASSERT_EQ(nic.host.receive(frame_to_us(300)), 300u);
  ASSERT_TRUE(nic.host.advance(1'000'000));
  const auto after = nic.host.stats();
  EXPECT_EQ(after.rx_dropped_dma, before.rx_dropped_dma + 1);
  EXPECT_EQ(rx_accounted(after), rx_accounted(before) + 1);
  expect_recovers();
}

TEST_F(ApiHostile, RxBufferTooSmallIsCounted) {
  // A descriptor armed with a 64-byte buffer cannot hold a 1000-byte frame: it spills over
  // 16 descriptors (rx_spill.cc), none written beyond its 64 bytes.
  for (unsigned i = 0; i < kRingSize; ++i) {
    const uint32_t eor = i == kRingSize - 1 ? kRingEnd : 0;
    nic.drv.write_desc(nic.drv.rx_desc_addr(i), kDescOwn | eor | 64, 0, nic.drv.rx_buf_addr(i));
  }
  nic.host.mem().fill(nic.drv.rx_buf_addr(0) + 64, 64, 0x5c);
  const auto before = nic.host.stats();
  ASSERT_EQ(nic.host.receive(frame_to_us(1000)), 1000u);
  ASSERT_TRUE(nic.host.advance(1'000'000));
  EXPECT_EQ(rx_accounted(nic.host.stats()), rx_accounted(before) + 1);
  EXPECT_EQ(nic.host.mem().read(nic.drv.rx_buf_addr(0) + 64, 64), Bytes(64, 0x5c))
      << "the device wrote beyond the buffer size in the descriptor";
  nic.drv.cfg.rx_buf_size = kRxBufSize;
  expect_recovers();
}

TEST_F(ApiHostile, EarlyAndLateTimerCallsAreHarmless) {
  // Same traffic twice; the second time the host also fires the timer at
  // arbitrary moments. The wire must see the same frames at the same times.
  auto run = [](bool spurious) {
    Nic n(default_params(true));
    EXPECT_TRUE(n.up());
    std::vector<TxRecord> out;
    for (int i = 0; i < 10; ++i) n.drv.queue_frame(frame_to(kDst, 1000, static_cast<uint8_t>(i)));
    n.drv.kick();
    const uint64_t t0 = n.host.now();
    for (uint64_t t = t0; t < t0 + 300'000; t += 3'331) {
      n.host.run_until(t);
      if (spurious) rtl8168_timer_expired(n.host.dev(), n.host.now());
    }
    n.host.run_until(t0 + 1'000'000);
    return n.host.tx;
  };
  const auto a = run(false), b = run(true);
  ASSERT_EQ(a.size(), 10u);
  ASSERT_EQ(b.size(), a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].time, b[i].time) << i;
    EXPECT_EQ(a[i].frame, b[i].frame) << i;
  }
}

TEST(ApiHostileFuzz, RandomRegisterWritesThenReset) {
  Nic nic(default_params(true));
  ASSERT_UP(nic);
  std::mt19937_64 rng(20091);
  for (int i = 0; i < 20000; ++i) {
    const unsigned sizes[] = {1, 2, 4, 8, 3};
    const unsigned size = sizes[rng() % 5];
    const auto off = static_cast<uint32_t>(rng() % 0x110);
    if (rng() % 3 == 0) {
      nic.host.read(off, size);
    } else {
      nic.host.write(off, rng(), size);
    }
    if (i % 16 == 0) nic.host.receive(frame_to_us(60 + rng() % 1500, static_cast<uint8_t>(i)));
    ASSERT_TRUE(nic.host.advance(rng() % 20'000)) << "at op " << i;
  }
  nic.host.advance(100'000'000);
  EXPECT_EQ(nic.host.callbacks_outside_calls, 0u);
  // A PCI function reset, then the driver's probe/open, must give a working NIC.
  nic.host.reset();
  EXPECT_EQ(nic.host.r32(kTxConfig), kTxConfigReset);
  EXPECT_EQ(nic.host.intx_level, 0);
  nic.host.mem().fill(0, nic.host.mem().size(), 0);
  ASSERT_TRUE(nic.drv.probe());
  ASSERT_TRUE(nic.drv.open()) << nic.host.trace_tail();
  const size_t before = nic.host.tx.size();
  const Bytes f = frame_to(kDst, 500);
  nic.drv.xmit(f);
  ASSERT_TRUE(nic.drv.wait_tx());
  ASSERT_EQ(nic.host.tx.size(), before + 1);
  EXPECT_EQ(nic.host.tx.back().frame, f);
}

}  // namespace
}  // namespace rtl8168_test
