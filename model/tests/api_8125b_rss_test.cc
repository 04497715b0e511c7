// SPDX-License-Identifier: GPL-2.0-or-later
// The RTL8125B's RX queues and RSS (model/src/rss.h, docs/R8125.md "RX
// queues and RSS"): the Toeplitz hash against the Microsoft RSS
// verification suite (the standard key and the published IPv4/IPv6 hashes,
// with and without the TCP ports), the hash input a frame gives under the
// RSS_CTRL types, frames spread over RX queues 0-3 by the indirection
// table the way r8125 programs it, an entry naming a queue without a ring
// (dropped and counted), and the queues in the state blob.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "harness/nic.h"
#include "harness/rss_queues.h"
#include "rss.h"

namespace rtl8168_test {
namespace {

using rtl8168sim::rss::toeplitz;

uint32_t hash_of(std::span<const uint8_t> frame, uint32_t ctrl) {
  const rtl8168sim::rss::Input in = rtl8168sim::rss::hash_input(frame, ctrl);
  return toeplitz(kMsKey, std::span<const uint8_t>(in.bytes, in.len));
}

// The hash over source then destination address (the 2-tuple), then with the
// source and destination ports appended (the 4-tuple), against the suite's values.
template <typename Vectors>
void expect_suite(const Vectors& vectors) {
  for (const auto& v : vectors) {
    std::vector<uint8_t> in(v.src.begin(), v.src.end());
    in.insert(in.end(), v.dst.begin(), v.dst.end());
    EXPECT_EQ(toeplitz(kMsKey, in), v.ip_only);
    for (const uint16_t port : {v.sport, v.dport}) {
      in.push_back(static_cast<uint8_t>(port >> 8));
      in.push_back(static_cast<uint8_t>(port));
    }
    EXPECT_EQ(toeplitz(kMsKey, in), v.ip_tcp);
  }
}

TEST(Rss8125b, ToeplitzMatchesTheMicrosoftVerificationSuite) {
  expect_suite(kV4);
  expect_suite(kV6);
}

// The frame's tuple under the RSS_CTRL types: the 4-tuple where its L4
// type is on, the 2-tuple where only the IP type is, nothing otherwise.
TEST(Rss8125b, HashInputFollowsTheEnabledTypes) {
  namespace rss = rtl8168sim::rss;
  for (const V4Vector& v : kV4) {
    EXPECT_EQ(hash_of(v4_frame(v), rss::kTcpIpv4 | rss::kIpv4), v.ip_tcp);
    EXPECT_EQ(hash_of(v4_frame(v), rss::kIpv4), v.ip_only);
    EXPECT_EQ(rss::hash_input(v4_frame(v), rss::kTcpIpv4).len, 12u);
    EXPECT_EQ(rss::hash_input(v4_frame(v), rss::kIpv6 | rss::kTcpIpv6).len, 0u);
    // UDP hashes its ports only with the UDP type (r8125's rss_flags).
    EXPECT_EQ(hash_of(v4_frame(v, true), rss::kTcpIpv4 | rss::kIpv4), v.ip_only);
    EXPECT_EQ(hash_of(v4_frame(v, true), rss::kUdpIpv4), v.ip_tcp);
    // The same frame behind an 802.1Q tag hashes the same.
    EXPECT_EQ(hash_of(vlan_insert(v4_frame(v), 5), rss::kTcpIpv4), v.ip_tcp);
  }
  for (const V6Vector& v : kV6) {
    EXPECT_EQ(hash_of(v6_frame(v), rss::kTcpIpv6 | rss::kIpv6), v.ip_tcp);
    EXPECT_EQ(hash_of(v6_frame(v), rss::kIpv6), v.ip_only);
    EXPECT_EQ(rss::hash_input(v6_frame(v), rss::kTcpIpv4 | rss::kIpv4).len, 0u);
  }
  // Not IP, or cut inside the addresses: no input.
  EXPECT_EQ(rss::hash_input(eth_frame(kRssUs, kRssPeer, 0x88b5, pattern(60)), rss::kHashTypes).len, 0u);
  Bytes cut = v4_frame(kV4[0]);
  cut.resize(30);
  EXPECT_EQ(rss::hash_input(cut, rss::kHashTypes).len, 0u);
}

TEST(Rss8125b, ChipListHasFourRxQueues) {
  rtl8168_chip_info c;
  for (size_t i = 0; rtl8168_chip_at(i, &c) == 0; i++) {
    EXPECT_EQ(c.rx_queues, std::string(c.id) == "8125b" ? 4u : 1u) << c.id;
  }
}

TEST(Rss8125b, FramesSpreadOverTheQueuesTheTableNames) {
  for (const bool timing : {true, false}) {
    SCOPED_TRACE(timing ? "timing" : "functional");
    Nic nic(chip_8125b(timing), driver_8125b());
    ASSERT_UP(nic);
    arm_queues(nic);
    program_rss(nic, default_table());
    // Each vector's frame goes to table[hash & 127] = hash % 4; queue 0's
    // frames reach the driver's own ring.
    std::array<unsigned, 4> want{};
    for (const V4Vector& v : kV4) {
      want[v.ip_tcp % 4]++;
      ASSERT_GT(nic.host.receive(v4_frame(v)), 0u);
      nic.host.advance(1'000'000);
    }
    for (const V6Vector& v : kV6) {
      want[v.ip_tcp % 4]++;
      ASSERT_GT(nic.host.receive(v6_frame(v)), 0u);
      nic.host.advance(1'000'000);
    }
    EXPECT_EQ(nic.drv.rx_poll().size(), want[0]);
    for (unsigned q = 1; q < 4; q++) EXPECT_EQ(done_on(nic, q), want[q]) << "queue " << q;
    EXPECT_EQ(nic.host.stats().rx_frames, 8u);
    // The vectors reach more than one queue (else the test shows nothing).
    EXPECT_GT(std::count_if(want.begin(), want.end(), [](unsigned n) { return n != 0; }), 1);
    // A written-back descriptor of queue q > 0: FS | LS and the length of
    // one of the frames sent (with its FCS).
    const uint32_t v4_len = static_cast<uint32_t>(v4_frame(kV4[0]).size()) + 4;
    const uint32_t v6_len = static_cast<uint32_t>(v6_frame(kV6[0]).size()) + 4;
    for (unsigned q = 1; q < 4; q++) {
      if (want[q] == 0) continue;
      const uint32_t opts1 = nic.host.mem().r32(q_desc(q, 0));
      EXPECT_EQ(opts1 & (kFirstFrag | kLastFrag), kFirstFrag | kLastFrag);
      EXPECT_TRUE((opts1 & 0x3fff) == v4_len || (opts1 & 0x3fff) == v6_len) << (opts1 & 0x3fff);
    }
  }
}

TEST(Rss8125b, RssOffKeepsEveryFrameOnQueue0) {
  Nic nic(chip_8125b(true), driver_8125b());
  ASSERT_UP(nic);
  arm_queues(nic);
  program_rss(nic, default_table(), 0);  // r8169: RSS_CTRL 0
  for (const V4Vector& v : kV4) nic.host.receive(v4_frame(v));
  nic.host.advance(5'000'000);
  EXPECT_EQ(nic.drv.rx_poll().size(), 5u);
  for (unsigned q = 1; q < 4; q++) EXPECT_EQ(done_on(nic, q), 0u);
}

TEST(Rss8125b, AnEntryNamingAQueueWithoutARingDropsTheFrameCounted) {
  Nic nic(chip_8125b(true), driver_8125b());
  ASSERT_UP(nic);
  arm_queues(nic);
  std::array<uint8_t, 128> table{};
  table.fill(0xff);  // no queue 255: every hashed frame is dropped
  program_rss(nic, table);
  const uint64_t filtered = nic.host.stats().rx_dropped_filter;
  EXPECT_GT(nic.host.receive(v4_frame(kV4[0])), 0u);
  nic.host.advance(1'000'000);
  EXPECT_EQ(nic.host.stats().rx_dropped_filter, filtered + 1);
  EXPECT_EQ(nic.host.stats().rx_frames, 0u);
  bool traced = false;
  for (const TraceRecord& r : nic.host.trace_events) traced |= r.kind == RTL8168_TRACE_RX_DROP && r.args[0] == 13;
  EXPECT_TRUE(traced);
  // A frame no type covers still goes to queue 0.
  nic.host.receive(eth_frame(kRssUs, kRssPeer, 0x88b5, pattern(100)));
  nic.host.advance(1'000'000);
  EXPECT_EQ(nic.drv.rx_poll().size(), 1u);
}

// Frames of several queues waiting in the FIFO (timing on, saved before
// their writes completed) survive a save and load, and a blob whose frame
// names a queue without a ring is refused.
TEST(Rss8125b, QueuedFramesOfEveryQueueRoundTripThroughTheBlob) {
  Nic a(chip_8125b(true), driver_8125b());
  ASSERT_UP(a);
  arm_queues(a);
  program_rss(a, default_table());
  for (const V4Vector& v : kV4) a.host.receive(v4_frame(v));
  const std::vector<uint8_t> blob = a.host.save();
  Nic c(chip_8125b(true), driver_8125b(), a.host.now());
  const FakeMemory ram = a.host.mem();
  c.host.mem() = ram;  // the same guest memory
  std::string err;
  ASSERT_EQ(c.host.load(blob, &err), 0) << err;
  EXPECT_EQ(c.host.save(), blob);
  // Both finish the same way: the same descriptors handed back per queue.
  a.host.advance(5'000'000);
  c.host.advance(5'000'000);
  EXPECT_EQ(c.host.stats().rx_frames, a.host.stats().rx_frames);
  EXPECT_EQ(a.host.stats().rx_frames, 5u);
  for (unsigned q = 1; q < 4; q++) EXPECT_EQ(done_on(c, q), done_on(a, q)) << "queue " << q;
  // Every byte flipped in turn: the load succeeds or refuses, never
  // crashes (the blob's checks: active queue and each frame's queue in
  // range, only the active ring reading ahead); a refused load keeps the
  // device usable.
  size_t refused = 0;
  for (size_t i = 0; i < blob.size(); i++) {
    std::vector<uint8_t> bad = blob;
    bad[i] ^= 0x5a;
    refused += c.host.load(bad) != 0;
  }
  EXPECT_GT(refused, 0u);
  c.host.mem() = ram;
  ASSERT_EQ(c.host.load(blob, &err), 0) << err;
  c.host.advance(5'000'000);
  EXPECT_EQ(c.host.stats().rx_frames, 5u);
}

}  // namespace
}  // namespace rtl8168_test
