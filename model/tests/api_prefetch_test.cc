// SPDX-License-Identifier: GPL-2.0-or-later
// Descriptor prefetch and outstanding reads (docs/TIMING.md "Descriptor
// prefetch and outstanding reads"): the TX prefetcher's reads overlap the
// data read in flight while a frame's data reads stay one at a time; guest
// memory is read when each prefetch read completes (the lossy-txpoll race
// stays real); the RX engine reads the next slot while it writes a frame,
// and a slot it found without Own is read again when a frame needs it.
// The expected intervals are computed here from the parameters the test
// sets (link 250 MB/s with 64-byte completions, no slower chip path).
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};
constexpr uint64_t kL = 4000;  // pcie-read-latency of these tests

// timing.h link_transfer_time for the parameters below.
uint64_t link_ns(uint64_t bytes) {
  const uint64_t wire = bytes + (bytes * 20 + 63) / 64;
  return (wire * 1000 + 249) / 250;
}
uint64_t read_ns(uint64_t bytes) { return kL + link_ns(bytes); }
uint64_t wire_ns(uint64_t frame) { return (frame + 24) * 8; }

Params prefetch_params(unsigned tx_depth, unsigned rx_depth) {
  return with(default_params(true), {{"pcie-read-latency", std::to_string(kL)},
                                     {"dma-read-rate", "0"},
                                     {"tx-desc-prefetch", std::to_string(tx_depth)},
                                     {"rx-desc-prefetch", std::to_string(rx_depth)}});
}

// Frames of `frags` (each queued as one frame) all queued before one doorbell;
// the intervals between consecutive frames on the wire from the third on.
std::vector<uint64_t> tx_intervals(unsigned depth, const std::vector<Bytes>& frags, unsigned n) {
  Nic nic(prefetch_params(depth, 1));
  EXPECT_TRUE(nic.up());
  for (unsigned i = 0; i < n; i++) {
    std::vector<Bytes> f = frags;
    f[0] = frame_to(kDst, frags[0].size(), static_cast<uint8_t>(i));
    nic.drv.queue_tx(f);
  }
  nic.drv.kick();
  EXPECT_TRUE(nic.drv.wait_tx(100'000'000));
  EXPECT_EQ(nic.host.tx.size(), n);
  std::vector<uint64_t> out;
  for (size_t i = 3; i < nic.host.tx.size(); i++)
    out.push_back(nic.host.tx[i].time - nic.host.tx[i - 1].time);
  return out;
}

TEST(ApiPrefetch, TxDescriptorReadsOverlapTheDataRead) {
  // One 1514-byte descriptor per frame, unlimited burst: with prefetch the
  // descriptor read hides behind the previous frame's data read, one data
  // read (L + 7.95 us) is shorter than the wire (12.3 us): wire-bound.
  for (const uint64_t dt : tx_intervals(4, {Bytes(1514)}, 8)) EXPECT_EQ(dt, wire_ns(1514));
  // Without prefetch every frame pays its descriptor round trip first.
  for (const uint64_t dt : tx_intervals(0, {Bytes(1514)}, 8))
    EXPECT_EQ(dt, read_ns(16) + read_ns(1514)) << "descriptor read, then data read";
}

TEST(ApiPrefetch, TxDataReadsOfOneFrameStayOneAtATime) {
  // Two 700-byte fragments per frame: the second descriptor is prefetched,
  // but the two data reads do not overlap (the 2012 sawtooth): each pays its
  // round trip, so the frame costs 2 L + data, more than the wire.
  const std::vector<uint64_t> two = tx_intervals(4, {Bytes(700), pattern(700, 3)}, 8);
  ASSERT_FALSE(two.empty());
  for (const uint64_t dt : two) EXPECT_EQ(dt, read_ns(700) + read_ns(700));
  // The same bytes in one descriptor: one round trip, wire-bound.
  for (const uint64_t dt : tx_intervals(4, {Bytes(1400)}, 8)) EXPECT_EQ(dt, wire_ns(1400));
}

// The prefetcher reads slot 1 as soon as slot 0 has arrived, at
// t0 + read(16), and that read completes at t0 + 2 read(16). A descriptor
// the driver hands over before then is seen; one handed over after is not:
// the walk ends on what the read saw, and with lossy-txpoll the doorbell
// that arrives while frame 0 is still being sent is lost.
TEST(ApiPrefetch, GuestMemoryIsReadWhenThePrefetchReadCompletes) {
  const uint64_t second_read_done = 2 * read_ns(16);
  {
    Nic nic(prefetch_params(4, 1));
    ASSERT_UP(nic);
    nic.drv.queue_frame(frame_to(kDst, 1514, 1));
    nic.drv.kick();
    nic.host.advance(second_read_done - 500);
    nic.drv.queue_frame(frame_to(kDst, 1514, 2));  // Own set, no doorbell
    EXPECT_TRUE(nic.drv.wait_tx(100'000'000));
    EXPECT_EQ(nic.host.tx.size(), 2u) << "handed over before the read completed: sent";
  }
  {
    Nic nic(prefetch_params(4, 1));
    ASSERT_UP(nic);
    nic.drv.queue_frame(frame_to(kDst, 1514, 1));
    nic.drv.kick();
    nic.host.advance(second_read_done + 500);
    nic.drv.queue_frame(frame_to(kDst, 1514, 2));
    nic.drv.kick();  // the engine is busy with frame 0: lost (lossy-txpoll)
    nic.host.run_until_idle(100'000'000);
    EXPECT_EQ(nic.host.tx.size(), 1u) << "handed over after the read: the walk ended without it";
    EXPECT_EQ(nic.host.stats().tx_doorbells_ignored, 1u);
    EXPECT_TRUE(nic.drv.tx_opts1(1) & kDescOwn) << "the frame waits, owned by the NIC";
    nic.drv.kick();  // idle now: accepted
    EXPECT_TRUE(nic.drv.wait_tx(100'000'000));
    EXPECT_EQ(nic.host.tx.size(), 2u);
  }
}

// The time at which the RX engine has written `n` frames delivered at once.
uint64_t rx_done_time(unsigned depth, unsigned n, size_t len) {
  Nic nic(prefetch_params(4, depth));
  EXPECT_TRUE(nic.up());
  const uint64_t t0 = nic.host.now();
  for (unsigned i = 0; i < n; i++)
    EXPECT_EQ(nic.host.receive(frame_to_us(len, static_cast<uint8_t>(i))), len);
  while (nic.host.stats().rx_frames < n && nic.host.now() < t0 + 10'000'000) nic.host.advance(4);
  EXPECT_EQ(nic.host.stats().rx_frames, n);
  EXPECT_EQ(nic.drv.rx_poll().size(), n);
  return nic.host.now() - t0;
}

TEST(ApiPrefetch, RxReadsTheNextDescriptorWhileWritingAFrame) {
  // 600-byte frames: writing one (data + FCS, then the 8-byte write-back)
  // takes less than a descriptor read, so with the read-ahead the
  // descriptor reads set the pace; without it each frame pays both.
  const uint64_t write = link_ns(604) + link_ns(8);
  ASSERT_LT(write, read_ns(16));
  const uint64_t ahead = rx_done_time(1, 6, 600), serial = rx_done_time(0, 6, 600);
  EXPECT_NEAR(static_cast<double>(serial), 6.0 * static_cast<double>(read_ns(16) + write), 8.0);
  EXPECT_NEAR(static_cast<double>(ahead),
              6.0 * static_cast<double>(read_ns(16)) + static_cast<double>(write), 8.0);
}

TEST(ApiPrefetch, RxSlotPrefetchedWithoutOwnIsReadAgain) {
  Nic nic(prefetch_params(4, 1));
  ASSERT_UP(nic);
  // Slot 1 is not the NIC's when frame 0 is written (and slot 1 read ahead).
  nic.drv.write_desc(nic.drv.rx_desc_addr(1), kRxBufSize, 0, nic.drv.rx_buf_addr(1));
  EXPECT_EQ(nic.host.receive(frame_to_us(300, 1)), 300u);
  nic.host.advance(100'000);
  EXPECT_EQ(nic.host.stats().rx_frames, 1u);
  // The driver hands slot 1 over; the next frame must land there, not be dropped.
  nic.drv.write_desc(nic.drv.rx_desc_addr(1), kDescOwn | kRxBufSize, 0, nic.drv.rx_buf_addr(1));
  EXPECT_EQ(nic.host.receive(frame_to_us(300, 2)), 300u);
  nic.host.advance(100'000);
  EXPECT_EQ(nic.host.stats().rx_frames, 2u);
  EXPECT_EQ(nic.host.stats().rx_dropped_no_desc, 0u);
  const std::vector<RxFrame> got = nic.drv.rx_poll();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1].index, 1u);
}

TEST(ApiPrefetch, OneSlotRxRingIsNotReadAhead) {
  // A one-slot ring (EOR on slot 0): its next slot is the one being written,
  // which must not be handed to the next frame before the driver returns it.
  // (1400-byte frames: the write outlasts a descriptor read, so a read-ahead
  // of slot 0 would still find it owned.)
  ASSERT_GT(link_ns(1404), read_ns(16));
  Nic nic(prefetch_params(4, 1));
  ASSERT_UP(nic);
  nic.drv.write_desc(nic.drv.rx_desc_addr(0), kDescOwn | kRingEnd | kRxBufSize, 0,
                     nic.drv.rx_buf_addr(0));
  EXPECT_EQ(nic.host.receive(frame_to_us(1400, 1)), 1400u);
  EXPECT_EQ(nic.host.receive(frame_to_us(1400, 2)), 1400u);
  nic.host.advance(1'000'000);
  EXPECT_EQ(nic.host.stats().rx_frames, 1u);
  EXPECT_EQ(nic.host.stats().rx_dropped_no_desc, 1u)
      << "the second frame found slot 0 still the driver's";
}

}  // namespace
}  // namespace rtl8168_test
