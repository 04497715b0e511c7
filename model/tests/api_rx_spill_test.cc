// SPDX-License-Identifier: GPL-2.0-or-later
// RX spill (model/src/rx_spill.cc, docs/R8169.md §3 "Frames longer than the
// buffer"): a frame longer than its descriptor's buffer but within RxMaxSize
// continues in the next descriptors, FS on the first, LS on the last, each
// buffer filled no further than its size; the CVE-2009-1389/-4537 setting
// (1536-byte buffers, RxMaxSize 16383) and its fixes (RxMaxSize = buffer
// size: the frame is dropped and counted; 16383-byte buffers: one descriptor).
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

constexpr uint32_t kOldBuf = 1536;  // the 2009 driver's rx_buf_sz at MTU 1500

uint64_t rx_accounted(const rtl8168_stats& s) {
  return s.rx_frames + s.rx_dropped_filter + s.rx_dropped_no_desc + s.rx_dropped_disabled +
         s.rx_dropped_too_long + s.rx_dropped_dma + s.rx_dropped_runt;
}

struct ApiRxSpill : ::testing::Test {
  void SetUp() override { ASSERT_UP(nic); }
  // Re-arm every descriptor with `size`-byte buffers (the 2009 driver's ring).
  void arm(uint32_t size, unsigned owned = kRingSize) {
    for (unsigned i = 0; i < kRingSize; ++i) {
      const uint32_t eor = i == kRingSize - 1 ? kRingEnd : 0;
      const uint32_t own = i < owned ? kDescOwn : 0;
      nic.drv.write_desc(nic.drv.rx_desc_addr(i), own | eor | size, 0, nic.drv.rx_buf_addr(i));
      nic.host.mem().fill(nic.drv.rx_buf_addr(i), Driver::kRxBufStride, 0xa5);
    }
    nic.drv.cfg.rx_buf_size = size;
  }
  uint32_t opts1(unsigned i) { return nic.host.mem().r32(nic.drv.rx_desc_addr(i)); }
  Nic nic;
};

TEST_F(ApiRxSpill, OverLengthFrameSpillsOverDescriptorsFsToLs) {
  arm(kOldBuf);
  nic.host.w16(kRxMaxSize, 0x3fff);  // the pre-2009 setting: the hardware limit
  const Bytes f = frame_to_us(4000, 0x31);
  Bytes wire = f;
  const uint32_t crc = crc32_ieee(f);
  for (int i = 0; i < 4; ++i) wire.push_back(static_cast<uint8_t>(crc >> (8 * i)));
  const auto before = nic.host.stats();
  ASSERT_EQ(nic.host.receive(f), f.size());
  nic.host.advance(1'000'000);
  const auto after = nic.host.stats();
  // 4004 bytes with the FCS: 1536 + 1536 + 932.
  EXPECT_EQ(opts1(0) & (kDescOwn | kFirstFrag | kLastFrag), kFirstFrag);
  EXPECT_EQ(opts1(0) & kRxLenMask, kOldBuf) << "a descriptor without LS: its buffer's bytes";
  EXPECT_EQ(opts1(1) & (kDescOwn | kFirstFrag | kLastFrag), 0u);
  EXPECT_EQ(opts1(1) & kRxLenMask, kOldBuf);
  EXPECT_EQ(opts1(2) & (kDescOwn | kFirstFrag | kLastFrag), kLastFrag);
  EXPECT_EQ(opts1(2) & kRxLenMask, wire.size()) << "LS: the whole frame, FCS included";
  EXPECT_NE(opts1(3) & kDescOwn, 0u) << "the spill takes exactly the descriptors it needs";
  for (unsigned i = 0; i < 3; ++i) {
    const size_t off = i * kOldBuf, len = std::min<size_t>(kOldBuf, wire.size() - off);
    EXPECT_EQ(nic.host.mem().read(nic.drv.rx_buf_addr(i), len),
              Bytes(wire.begin() + static_cast<long>(off), wire.begin() + static_cast<long>(off + len)))
        << "fragment " << i;
    EXPECT_EQ(nic.host.mem().read(nic.drv.rx_buf_addr(i) + len, 64), Bytes(64, 0xa5))
        << "written beyond the buffer size of descriptor " << i;
  }
  EXPECT_EQ(after.rx_frames, before.rx_frames + 1);
  EXPECT_EQ(rx_accounted(after), rx_accounted(before) + 1);
  EXPECT_NE(nic.host.r16(kIntrStatus) & kRxOK, 0);
  // The next frame lands after the spill.
  nic.host.w16(kIntrStatus, 0xffff);
  ASSERT_EQ(nic.host.receive(frame_to_us(100, 0x55)), 100u);
  nic.host.advance(1'000'000);
  EXPECT_EQ(opts1(3) & (kDescOwn | kFirstFrag | kLastFrag), kFirstFrag | kLastFrag);
  EXPECT_EQ(opts1(3) & kRxLenMask, 104u);
}

TEST_F(ApiRxSpill, RxMaxSizeAtTheBufferSizeDropsInstead) {
  // fdd7b4c3302c: RxMaxSize = rx_buf_sz, so the chip refuses the frame whole.
  arm(kOldBuf);
  nic.host.w16(kRxMaxSize, kOldBuf);
  const auto before = nic.host.stats();
  ASSERT_EQ(nic.host.receive(frame_to_us(4000)), 4000u);
  nic.host.advance(1'000'000);
  const auto after = nic.host.stats();
  EXPECT_EQ(after.rx_dropped_too_long, before.rx_dropped_too_long + 1);
  EXPECT_EQ(after.rx_frames, before.rx_frames);
  EXPECT_NE(opts1(0) & kDescOwn, 0u) << "no descriptor used";
}

TEST_F(ApiRxSpill, LargeBuffersTakeTheFrameInOneDescriptor) {
  // c0cd884af045 and today's r8169: 16383-byte buffers, RxMaxSize 16384.
  nic.host.w16(kRxMaxSize, 0x4000);
  const Bytes f = frame_to_us(9000, 0x21);
  ASSERT_EQ(nic.host.receive(f), f.size());
  nic.host.advance(1'000'000);
  const auto got = nic.drv.rx_poll();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].opts1 & (kFirstFrag | kLastFrag), kFirstFrag | kLastFrag);
  EXPECT_EQ(got[0].opts1 & kRxLenMask, f.size() + 4);
}

TEST_F(ApiRxSpill, RunningOutOfDescriptorsMidFrameIsCounted) {
  arm(kOldBuf, 2);  // two owned descriptors for a frame that needs three
  nic.host.w16(kRxMaxSize, 0x3fff);
  const auto before = nic.host.stats();
  ASSERT_EQ(nic.host.receive(frame_to_us(4000)), 4000u);
  nic.host.advance(1'000'000);
  const auto after = nic.host.stats();
  EXPECT_EQ(opts1(0) & (kDescOwn | kFirstFrag | kLastFrag), kFirstFrag);
  EXPECT_EQ(opts1(1) & (kDescOwn | kFirstFrag | kLastFrag), 0u);
  EXPECT_EQ(after.rx_dropped_no_desc, before.rx_dropped_no_desc + 1);
  EXPECT_EQ(after.rx_frames, before.rx_frames);
  EXPECT_EQ(rx_accounted(after), rx_accounted(before) + 1);
  EXPECT_NE(nic.host.r16(kIntrStatus) & kRxOverflow, 0);
}

TEST_F(ApiRxSpill, ZeroByteBufferMidFrameIsCountedNotLooped) {
  arm(kOldBuf);
  // descriptor 1 owned with a 0-byte buffer (hostile)
  nic.drv.write_desc(nic.drv.rx_desc_addr(1), kDescOwn, 0, nic.drv.rx_buf_addr(1));
  nic.host.w16(kRxMaxSize, 0x3fff);
  const auto before = nic.host.stats();
  ASSERT_EQ(nic.host.receive(frame_to_us(4000)), 4000u);
  ASSERT_TRUE(nic.host.advance(1'000'000));
  const auto after = nic.host.stats();
  EXPECT_EQ(after.rx_dropped_too_long, before.rx_dropped_too_long + 1);
  EXPECT_EQ(rx_accounted(after), rx_accounted(before) + 1);
  EXPECT_NE(opts1(1) & kDescOwn, 0u) << "the 0-byte descriptor stays owned";
}

TEST_F(ApiRxSpill, SpillIsDeterministic) {
  auto run = [] {
    Nic n;
    EXPECT_TRUE(n.up());
    for (unsigned i = 0; i < kRingSize; ++i) {
      const uint32_t eor = i == kRingSize - 1 ? kRingEnd : 0;
      n.drv.write_desc(n.drv.rx_desc_addr(i), kDescOwn | eor | kOldBuf, 0, n.drv.rx_buf_addr(i));
    }
    n.host.w16(kRxMaxSize, 0x3fff);
    for (int i = 0; i < 20; ++i) n.host.receive(frame_to_us(1000 + 300 * i, static_cast<uint8_t>(i)));
    n.host.advance(10'000'000);
    return rtl8168_trace_hash(n.host.dev());
  };
  EXPECT_EQ(run(), run());
}

}  // namespace
}  // namespace rtl8168_test
