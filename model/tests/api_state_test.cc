// SPDX-License-Identifier: GPL-2.0-or-later
// Save/restore and determinism: a device restored mid-transfer continues
// exactly like the original (same frames at the same times, same trace
// hash), two runs with the same inputs are bit-identical, and bad blobs are
// refused without harming the device.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <memory>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};
constexpr unsigned kSteps = 120;
constexpr uint64_t kStepNs = 7'000;

// A deterministic mix of guest and wire activity. Step k happens at
// base + k * kStepNs.
void step(TestHost& h, Driver& d, uint64_t base, unsigned k) {
  h.run_until(base + k * kStepNs);
  const auto seed = static_cast<uint8_t>(k);
  switch (k % 4) {
    case 0:  // a burst of TX, some with offloads
      for (unsigned i = 0; i < 1 + k % 3; ++i) {
        if ((d.cur_tx() - d.dirty_tx()) + 2 > kRingSize) break;
        if (i == 1) {
          const Bytes f = ipv4_tcp(kDst, test_mac(), pattern(100 + k * 7, seed));
          d.queue_frame(f, 0, kTd1Ipv4Cs | kTd1TcpCs | 34u << kTcphoShift);
        } else {
          d.queue_frame(frame_to(kDst, 60 + (k * 37) % 1455, seed));
        }
      }
      d.kick();
      break;
    case 1:
      h.receive(frame_to_us(60 + (k * 53) % 1455, seed));
      break;
    case 2:
      h.receive(ipv4_udp(test_mac(), kPeerMac, pattern(k * 3, seed)));
      h.receive(frame_to(kBroadcast, 80, seed));
      break;
    default:  // the driver's NAPI poll
      d.irq_fixed();
      d.rx_poll();
      d.reclaim();
      break;
  }
}

Params state_params() { return with(default_params(true), {{"pcie-read-latency", "800"}}); }

struct Scenario {
  Scenario() : nic(state_params()) {}
  Nic nic;
  uint64_t base = 0;
};

TEST(ApiState, SaveRestoreMidTransferContinuesIdentically) {
  Scenario a;
  ASSERT_UP(a.nic);
  a.base = a.nic.host.now() + 1000;
  const unsigned save_at = 61;  // right after a TX burst (61 % 4 == 1: RX after TX at 60)
  for (unsigned k = 0; k < save_at; ++k) step(a.nic.host, a.nic.drv, a.base, k);
  // Make sure something is in flight at the save point.
  a.nic.drv.queue_frame(frame_to(kDst, 1514, 0xab));
  a.nic.drv.kick();
  a.nic.host.receive(frame_to_us(1000, 0xcd));
  a.nic.host.run_until(a.nic.host.now() + 500);
  ASSERT_NE(a.nic.host.deadline(), RTL8168_NO_DEADLINE) << "nothing in flight at the save point";

  const std::vector<uint8_t> blob = a.nic.host.save();
  ASSERT_FALSE(blob.empty());
  const uint64_t t_save = a.nic.host.now();
  const size_t tx_before = a.nic.host.tx.size();
  const size_t msi_before = a.nic.host.msi_times.size();

  TestHost b(state_params(), a.nic.host.mem(), t_save);
  ASSERT_TRUE(b.ok());
  b.msi = a.nic.host.msi;
  std::string err;
  ASSERT_EQ(b.load(blob, &err), 0) << err;
  EXPECT_TRUE(b.tx.empty()) << "state_load must not transmit";
  EXPECT_TRUE(b.msi_times.empty()) << "state_load must not raise an interrupt";
  EXPECT_EQ(b.deadline(), a.nic.host.deadline()) << "state_load re-arms the pending event";
  EXPECT_EQ(b.trace_hash(), a.nic.host.trace_hash()) << "the trace hash survives save/restore";
  Driver db(b, a.nic.drv);

  for (unsigned k = save_at; k < kSteps; ++k) {
    step(a.nic.host, a.nic.drv, a.base, k);
    step(b, db, a.base, k);
  }
  const uint64_t end = a.base + kSteps * kStepNs + 5'000'000;
  a.nic.host.run_until(end);
  b.run_until(end);

  ASSERT_EQ(b.tx.size(), a.nic.host.tx.size() - tx_before);
  for (size_t i = 0; i < b.tx.size(); ++i) {
    EXPECT_EQ(b.tx[i].time, a.nic.host.tx[tx_before + i].time) << "frame " << i;
    EXPECT_EQ(b.tx[i].frame, a.nic.host.tx[tx_before + i].frame) << "frame " << i;
  }
  EXPECT_EQ(std::vector<uint64_t>(a.nic.host.msi_times.begin() + static_cast<long>(msi_before),
                                  a.nic.host.msi_times.end()),
            b.msi_times);
  EXPECT_EQ(b.trace_hash(), a.nic.host.trace_hash());
  EXPECT_EQ(rtl8168_trace_events(b.dev()), rtl8168_trace_events(a.nic.host.dev()));
  EXPECT_TRUE(b.mem().bytes() == a.nic.host.mem().bytes()) << "guest memory diverged";
  for (uint32_t off = 0; off < RTL8168_IO_SIZE; off += 4)
    EXPECT_EQ(b.r32(off), a.nic.host.r32(off)) << "register 0x" << std::hex << off;
  Tally ta, tb;
  ASSERT_TRUE(a.nic.drv.dump_counters(ta));
  ASSERT_TRUE(db.dump_counters(tb));
  EXPECT_EQ(ta.tx_packets, tb.tx_packets);
  EXPECT_EQ(ta.rx_packets, tb.rx_packets);
  EXPECT_GT(b.tx.size(), 10u) << "the scenario should keep transmitting after the restore";
}

TEST(ApiState, TwoRunsAreBitIdentical) {
  auto run = [](Scenario& r) {
    if (!r.nic.up()) return false;
    r.base = r.nic.host.now() + 1000;
    for (unsigned k = 0; k < kSteps; ++k) step(r.nic.host, r.nic.drv, r.base, k);
    return r.nic.host.run_until(r.base + kSteps * kStepNs + 5'000'000);
  };
  Scenario a, b;
  ASSERT_TRUE(run(a));
  ASSERT_TRUE(run(b));
  EXPECT_NE(a.nic.host.trace_hash(), 0u);
  EXPECT_GT(rtl8168_trace_events(a.nic.host.dev()), 100u);
  EXPECT_EQ(a.nic.host.trace_hash(), b.nic.host.trace_hash());
  EXPECT_EQ(rtl8168_trace_events(a.nic.host.dev()), rtl8168_trace_events(b.nic.host.dev()));
  ASSERT_EQ(a.nic.host.tx.size(), b.nic.host.tx.size());
  for (size_t i = 0; i < a.nic.host.tx.size(); ++i) {
    EXPECT_EQ(a.nic.host.tx[i].time, b.nic.host.tx[i].time);
    EXPECT_EQ(a.nic.host.tx[i].frame, b.nic.host.tx[i].frame);
  }
  EXPECT_EQ(a.nic.host.msi_times, b.nic.host.msi_times);
  EXPECT_TRUE(a.nic.host.trace == b.nic.host.trace) << "trace lines differ";
  EXPECT_TRUE(a.nic.host.mem().bytes() == b.nic.host.mem().bytes());
}

TEST(ApiState, TraceHashDependsOnInputs) {
  Nic a(state_params()), b(state_params());
  ASSERT_UP(a);
  ASSERT_UP(b);
  ASSERT_EQ(a.host.trace_hash(), b.host.trace_hash());
  a.drv.xmit(frame_to(kDst, 100, 1));
  b.drv.xmit(frame_to(kDst, 101, 1));
  a.host.advance(1'000'000);
  b.host.advance(1'000'000);
  EXPECT_NE(a.host.trace_hash(), b.host.trace_hash());
}

TEST(ApiState, BadBlobsAreRefusedAndTheDeviceStillWorks) {
  Nic nic(state_params());
  ASSERT_UP(nic);
  nic.drv.xmit(frame_to(kDst, 300, 1));
  ASSERT_TRUE(nic.drv.wait_tx());
  const std::vector<uint8_t> good = nic.host.save();
  ASSERT_GT(good.size(), 16u);
  const uint16_t mask = nic.host.r16(kIntrMask);

  std::vector<std::vector<uint8_t>> bad;
  bad.emplace_back();                                                                 // empty
  bad.emplace_back(good.begin(), good.begin() + static_cast<long>(good.size() / 2));  // truncated
  bad.emplace_back(good.begin(), good.end() - 1);  // one byte short
  bad.push_back(pattern(good.size(), 99));         // garbage
  bad.push_back(pattern(7, 98));                   // short garbage
  {
    auto b = good;
    b[0] ^= 0xff;  // bad magic
    bad.push_back(b);
  }
  for (size_t i = 0; i < bad.size(); ++i) {
    std::string err;
    EXPECT_EQ(nic.host.load(bad[i], &err), -1) << "bad blob " << i << " accepted";
    EXPECT_FALSE(err.empty()) << "no message for bad blob " << i;
  }
  EXPECT_EQ(nic.host.r16(kIntrMask), mask) << "a refused load changed the device";
  const Bytes f = frame_to(kDst, 400, 2);
  nic.drv.xmit(f);
  ASSERT_TRUE(nic.drv.wait_tx()) << "device unusable after refused loads";
  EXPECT_EQ(nic.host.tx.back().frame, f);
  nic.host.receive(frame_to_us(200));
  nic.host.advance(100'000);
  EXPECT_EQ(nic.drv.rx_poll().size(), 1u);
}

TEST(ApiState, SaveIntoSmallBufferFails) {
  Nic nic(state_params());
  ASSERT_UP(nic);
  const size_t size = rtl8168_state_size(nic.host.dev());
  ASSERT_GT(size, 0u);
  std::vector<uint8_t> small(size - 1);
  EXPECT_EQ(rtl8168_state_save(nic.host.dev(), small.data(), small.size()), 0u);
  EXPECT_EQ(rtl8168_state_save(nic.host.dev(), nullptr, 0), 0u);
}

TEST(ApiState, LoadRedrivesIntxLevelOnly) {
  Nic nic(state_params());
  ASSERT_UP(nic, false);  // INTx
  nic.drv.xmit(frame_to(kDst, 100));
  ASSERT_TRUE(nic.drv.wait_tx());
  ASSERT_EQ(nic.host.intx_level, 1);
  const auto blob = nic.host.save();
  TestHost b(state_params(), nic.host.mem(), nic.host.now());
  b.msi = false;
  ASSERT_EQ(b.load(blob), 0);
  EXPECT_EQ(b.intx_level, 1) << "the restored device drives its INTx level";
  EXPECT_TRUE(b.msi_times.empty());
  EXPECT_TRUE(b.tx.empty());
  b.w16(kIntrStatus, 0xffff);
  EXPECT_EQ(b.intx_level, 0);
}

TEST(ApiState, TraceHashDoesNotDependOnTheTraceSink) {
  // rtl8168.h: the trace hash is kept whether or not the trace callback is set.
  auto run = [](bool sink) {
    Nic n(state_params(), {}, 0, sink);
    EXPECT_TRUE(n.up());
    const uint64_t base = n.host.now() + 1000;
    for (unsigned k = 0; k < 40; ++k) step(n.host, n.drv, base, k);
    n.host.run_until(base + 40 * kStepNs + 1'000'000);
    return std::make_pair(n.host.trace_hash(), rtl8168_trace_events(n.host.dev()));
  };
  const auto with_sink = run(true), without_sink = run(false);
  EXPECT_EQ(with_sink, without_sink);
}

TEST(ApiState, OneTraceLinePerTraceEvent) {
  Nic nic(state_params());
  ASSERT_UP(nic);
  const uint64_t base = nic.host.now() + 1000;
  for (unsigned k = 0; k < 20; ++k) step(nic.host, nic.drv, base, k);
  nic.host.run_until(base + 20 * kStepNs + 1'000'000);
  EXPECT_GT(nic.host.trace_lines, 0u);
  EXPECT_EQ(nic.host.trace_lines, rtl8168_trace_events(nic.host.dev()));
}

TEST(ApiState, OptionalCallbacksMayBeNull) {
  // No trace sink, no rx_ready: back-pressure still works and nothing crashes.
  Nic nic(with(state_params(), {{"rx-fifo-size", "8192"}}), {}, 0, false);
  ASSERT_UP(nic);
  unsigned delivered = 0;
  for (unsigned i = 0; i < 50; ++i) {
    const Bytes f = frame_to_us(1514, static_cast<uint8_t>(i));
    ASSERT_TRUE(nic.drv.poll(
        [&] {
          delivered += static_cast<unsigned>(nic.drv.rx_poll().size());
          return nic.host.receive(f) == f.size();
        },
        1'000, 10'000'000))
        << "frame " << i << " never accepted";
  }
  ASSERT_TRUE(nic.drv.poll(
      [&] {
        delivered += static_cast<unsigned>(nic.drv.rx_poll().size());
        return delivered == 50;
      },
      1'000, 10'000'000));
  EXPECT_EQ(nic.host.rx_ready_calls, 0u);
  EXPECT_EQ(nic.host.trace_lines, 0u);
}

}  // namespace
}  // namespace rtl8168_test
