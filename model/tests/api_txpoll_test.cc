// SPDX-License-Identifier: GPL-2.0-or-later
// The lossy-txpoll quirk (docs/HISTORY.md episode 1): an NPQ doorbell that
// arrives while the TX engine is busy is ignored, and the "ring empty"
// decision comes from a descriptor read taken before the current frame
// completes, so a frame queued in that window stays owned by the NIC until
// the next doorbell. With lossy-txpoll=off the same sequence sends it.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};
constexpr uint64_t kSettle = 2'000'000;  // 2 ms: hundreds of frame times

Params txpoll_params(bool lossy) {
  return with(default_params(true), {{"lossy-txpoll", lossy ? "on" : "off"},
                                     {"pcie-read-latency", "1000"},
                                     {"tx-mxdma", "auto"}});
}

// How long frame A (1514 bytes) takes from doorbell to the wire, alone.
uint64_t frame_a_latency(bool lossy) {
  Nic nic(txpoll_params(lossy));
  EXPECT_TRUE(nic.up());
  nic.drv.queue_frame(frame_to(kDst, 1514, 1));
  const uint64_t t0 = nic.host.now();
  nic.drv.kick();
  EXPECT_TRUE(nic.drv.wait_tx(kSettle));
  EXPECT_EQ(nic.host.tx.size(), 1u);
  return nic.host.tx.empty() ? 0 : nic.host.tx[0].time - t0;
}

struct Outcome {
  bool in_window = false;  // A not yet on the wire when B was queued
  bool stranded = false;   // B still owned by the NIC after kSettle
  bool sent_after_rekick = false;
  uint64_t ignored = 0;  // stats.tx_doorbells_ignored
};

// Queue A, ring; at `delay` after the doorbell queue B and ring again.
Outcome race(bool lossy, uint64_t delay) {
  Outcome o;
  Nic nic(txpoll_params(lossy));
  EXPECT_TRUE(nic.up());
  const Bytes a = frame_to(kDst, 1514, 1), b = frame_to(kDst, 200, 2);
  nic.drv.queue_frame(a);
  const uint64_t t0 = nic.host.now();
  nic.drv.kick();
  nic.host.run_until(t0 + delay);
  o.in_window = nic.host.tx.empty();
  const unsigned ib = nic.drv.queue_frame(b);
  nic.drv.kick();
  nic.host.run_until(nic.host.now() + kSettle);
  EXPECT_GE(nic.host.tx.size(), 1u);
  if (!nic.host.tx.empty()) {
    EXPECT_EQ(nic.host.tx[0].frame, a);
  }
  o.stranded = nic.host.tx.size() == 1 && (nic.drv.tx_opts1(ib) & kDescOwn) != 0;
  o.ignored = nic.host.stats().tx_doorbells_ignored;
  if (o.stranded) {
    nic.drv.kick();  // the "8168 hack" re-kick
    nic.host.run_until(nic.host.now() + kSettle);
    o.sent_after_rekick = nic.host.tx.size() == 2 && nic.host.tx[1].frame == b;
  } else if (nic.host.tx.size() == 2) {
    EXPECT_EQ(nic.host.tx[1].frame, b);
  }
  return o;
}

TEST(ApiTxPoll, LossyDoorbellStrandsFrameUntilNextDoorbell) {
  const uint64_t la = frame_a_latency(true);
  ASSERT_GT(la, 8u) << "timing mode: frame A must take time";
  int stranded = 0, in_window = 0;
  for (uint64_t k = 1; k < 8; ++k) {
    SCOPED_TRACE("B queued at " + std::to_string(k) + "/8 of A's latency");
    const Outcome o = race(true, la * k / 8);
    if (!o.in_window) continue;
    ++in_window;
    if (o.stranded) {
      ++stranded;
      EXPECT_GE(o.ignored, 1u) << "an ignored doorbell is counted";
      EXPECT_TRUE(o.sent_after_rekick) << "a later doorbell must send the stranded frame";
    }
  }
  ASSERT_GT(in_window, 0) << "no point of the sweep was inside A's transmission";
  EXPECT_GT(stranded, 0) << "lossy-txpoll=on never stranded a frame queued while A was in flight";
}

TEST(ApiTxPoll, ReliableDoorbellSendsEveryFrame) {
  const uint64_t la = frame_a_latency(false);
  ASSERT_GT(la, 8u);
  for (uint64_t k = 1; k < 8; ++k) {
    SCOPED_TRACE("B queued at " + std::to_string(k) + "/8 of A's latency");
    const Outcome o = race(false, la * k / 8);
    EXPECT_FALSE(o.stranded) << "lossy-txpoll=off must not strand frames";
    EXPECT_EQ(o.ignored, 0u);
  }
}

TEST(ApiTxPoll, IdleDoorbellIsNeverLost) {
  // A doorbell on an idle engine always works, quirk or not.
  Nic nic(txpoll_params(true));
  ASSERT_UP(nic);
  for (int i = 0; i < 20; ++i) {
    nic.drv.xmit(frame_to(kDst, 100 + i, static_cast<uint8_t>(i)));
    ASSERT_TRUE(nic.drv.wait_tx(kSettle)) << "frame " << i;
    nic.host.advance(100'000);
  }
  EXPECT_EQ(nic.host.tx.size(), 20u);
  EXPECT_EQ(nic.host.stats().tx_doorbells_ignored, 0u);
}

TEST(ApiTxPoll, FramesQueuedBeforeTheDoorbellAllGo) {
  // Many frames queued with one doorbell: the engine drains the ring.
  Nic nic(txpoll_params(true));
  ASSERT_UP(nic);
  for (int i = 0; i < 50; ++i) nic.drv.queue_frame(frame_to(kDst, 1514, static_cast<uint8_t>(i)));
  nic.drv.kick();
  ASSERT_TRUE(nic.drv.wait_tx(50'000'000));
  EXPECT_EQ(nic.host.tx.size(), 50u);
}

}  // namespace
}  // namespace rtl8168_test
