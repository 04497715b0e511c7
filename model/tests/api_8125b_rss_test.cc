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
#include "rss.h"

namespace rtl8168_test {
namespace {

using rtl8168sim::rss::toeplitz;

// The Microsoft RSS verification key ("Verifying the RSS Hash
// Calculation", also Intel 82599 datasheet 7.1.2.8.3).
constexpr std::array<uint8_t, 40> kMsKey = {
    0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
    0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
    0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa};

struct V4Vector {
  std::array<uint8_t, 4> dst, src;
  uint16_t dport, sport;
  uint32_t ip_only, ip_tcp;
};
// The published IPv4 table: destination (port), source (port), IPv4 only,
// IPv4 with TCP.
constexpr V4Vector kV4[] = {
    {{161, 142, 100, 80}, {66, 9, 149, 187}, 1766, 2794, 0x323e8fc2, 0x51ccc178},
    {{65, 69, 140, 83}, {199, 92, 111, 2}, 4739, 14230, 0xd718262a, 0xc626b0ea},
    {{12, 22, 207, 184}, {24, 19, 198, 95}, 38024, 12898, 0xd2d0a5de, 0x5c2b394a},
    {{209, 142, 163, 6}, {38, 27, 205, 30}, 2217, 48228, 0x82989176, 0xafc7327f},
    {{202, 188, 127, 2}, {153, 39, 163, 191}, 1303, 44251, 0x5d1809c5, 0x10e828a2},
};

struct V6Vector {
  std::array<uint8_t, 16> dst, src;
  uint16_t dport, sport;
  uint32_t ip_only, ip_tcp;
};
// The published IPv6 table.
constexpr V6Vector kV6[] = {
    // 3ffe:2501:200:3::1 (1766), 3ffe:2501:200:1fff::7 (2794)
    {{0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00, 0x00, 0x03, 0, 0, 0, 0, 0, 0, 0, 0x01},
     {0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00, 0x1f, 0xff, 0, 0, 0, 0, 0, 0, 0, 0x07},
     1766, 2794, 0x2cc18cd5, 0x40207d3d},
    // ff02::1 (4739), 3ffe:501:8::260:97ff:fe40:efab (14230)
    {{0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01},
     {0x3f, 0xfe, 0x05, 0x01, 0x00, 0x08, 0, 0, 0x02, 0x60, 0x97, 0xff, 0xfe, 0x40, 0xef, 0xab},
     4739, 14230, 0x0f0c461c, 0xdde51bbf},
    // fe80::200:f8ff:fe21:67cf (38024), 3ffe:1900:4545:3:200:f8ff:fe21:67cf (44251)
    {{0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0xf8, 0xff, 0xfe, 0x21, 0x67, 0xcf},
     {0x3f, 0xfe, 0x19, 0x00, 0x45, 0x45, 0x00, 0x03, 0x02, 0x00, 0xf8, 0xff, 0xfe, 0x21, 0x67, 0xcf},
     38024, 44251, 0x4b61e985, 0x02d1feef},
};

const Mac kUs = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
const Mac kPeer = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};

// Ethernet(14) + IPv4: source address at 26, destination at 30; IPv6:
// source at 22, destination at 38.
Bytes v4_frame(const V4Vector& v, bool udp = false) {
  TcpOpts o;
  o.sport = v.sport;
  o.dport = v.dport;
  Bytes f = udp ? ipv4_udp(kUs, kPeer, pattern(64), v.sport, v.dport) : ipv4_tcp(kUs, kPeer, pattern(64), o);
  std::copy(v.src.begin(), v.src.end(), f.begin() + 26);
  std::copy(v.dst.begin(), v.dst.end(), f.begin() + 30);
  return f;
}

Bytes v6_frame(const V6Vector& v) {
  TcpOpts o;
  o.sport = v.sport;
  o.dport = v.dport;
  Bytes f = ipv6_tcp(kUs, kPeer, pattern(64), o);
  std::copy(v.src.begin(), v.src.end(), f.begin() + 22);
  std::copy(v.dst.begin(), v.dst.end(), f.begin() + 38);
  return f;
}

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
  EXPECT_EQ(rss::hash_input(eth_frame(kUs, kPeer, 0x88b5, pattern(60)), rss::kHashTypes).len, 0u);
  Bytes cut = v4_frame(kV4[0]);
  cut.resize(30);
  EXPECT_EQ(rss::hash_input(cut, rss::kHashTypes).len, 0u);
}

constexpr uint32_t kRssKey8125 = 0x4600;
constexpr uint32_t kRssIndir8125 = 0x4700;
constexpr uint32_t kRdsarQ1 = 0x4000;
// RSS_CTRL as r8125 _rtl8125_set_rss_hash_opt writes it for 4 rings and 128
// entries: the four TCP/IP types, UDP off, mask bits 7, ilog2(4) << 16.
constexpr uint32_t kCtrl4Queues = 0x0f | 7u << 8 | 2u << 16;

Params b(bool timing) { return with(default_params(timing), {{"chip", "8125b"}}); }

// RX queues 1-3: rings of 4 owned descriptors (the last with EOR) in the
// test's scratch memory, 2 KiB buffers.
constexpr uint64_t kQueueRings = Driver::kScratch;
constexpr uint64_t kQueueBufs = Driver::kScratch + 0x1000;
constexpr unsigned kSlots = 4;

uint64_t q_desc(unsigned q, unsigned slot) { return kQueueRings + (q - 1) * 0x100 + slot * 16; }

void arm_queues(Nic& nic) {
  for (unsigned q = 1; q < 4; q++) {
    for (unsigned s = 0; s < kSlots; s++) {
      const uint64_t buf = kQueueBufs + ((q - 1) * kSlots + s) * 0x800;
      nic.host.mem().w32(q_desc(q, s), kDescOwn | (s == kSlots - 1 ? kRingEnd : 0) | 0x800);
      nic.host.mem().w32(q_desc(q, s) + 4, 0);
      nic.host.mem().w64(q_desc(q, s) + 8, buf);
    }
    const uint64_t base = q_desc(q, 0);
    nic.host.w32(kRdsarQ1 + 8 * (q - 1), static_cast<uint32_t>(base));
    nic.host.w32(kRdsarQ1 + 8 * (q - 1) + 4, static_cast<uint32_t>(base >> 32));
  }
}

// r8125's rtl8125_config_rss: the hash options, the table, the key.
void program_rss(Nic& nic, const std::array<uint8_t, 128>& table, uint32_t ctrl = kCtrl4Queues) {
  nic.host.w32(kRssCtrl8125, ctrl);
  for (unsigned i = 0; i < 128; i += 4) {
    nic.host.w32(kRssIndir8125 + i, static_cast<uint32_t>(table[i] | table[i + 1] << 8 |
                                                          table[i + 2] << 16 | table[i + 3] << 24));
  }
  for (unsigned i = 0; i < 40; i += 4) {
    nic.host.w32(kRssKey8125 + i, static_cast<uint32_t>(kMsKey[i] | kMsKey[i + 1] << 8 |
                                                        kMsKey[i + 2] << 16 | kMsKey[i + 3] << 24));
  }
}

// ethtool_rxfh_indir_default(i, 4): i % 4.
std::array<uint8_t, 128> default_table() {
  std::array<uint8_t, 128> t{};
  for (unsigned i = 0; i < 128; i++) t[i] = static_cast<uint8_t>(i % 4);
  return t;
}

// How many descriptors of queue q's ring the chip has handed back.
unsigned done_on(Nic& nic, unsigned q) {
  unsigned n = 0;
  for (unsigned s = 0; s < kSlots; s++) n += !(nic.host.mem().r32(q_desc(q, s)) & kDescOwn);
  return n;
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
    Nic nic(b(timing), driver_8125b());
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
  Nic nic(b(true), driver_8125b());
  ASSERT_UP(nic);
  arm_queues(nic);
  program_rss(nic, default_table(), 0);  // r8169: RSS_CTRL 0
  for (const V4Vector& v : kV4) nic.host.receive(v4_frame(v));
  nic.host.advance(5'000'000);
  EXPECT_EQ(nic.drv.rx_poll().size(), 5u);
  for (unsigned q = 1; q < 4; q++) EXPECT_EQ(done_on(nic, q), 0u);
}

TEST(Rss8125b, AnEntryNamingAQueueWithoutARingDropsTheFrameCounted) {
  Nic nic(b(true), driver_8125b());
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
  nic.host.receive(eth_frame(kUs, kPeer, 0x88b5, pattern(100)));
  nic.host.advance(1'000'000);
  EXPECT_EQ(nic.drv.rx_poll().size(), 1u);
}

// Frames of several queues waiting in the FIFO (timing on, saved before
// their writes completed) survive a save and load, and a blob whose frame
// names a queue without a ring is refused.
TEST(Rss8125b, QueuedFramesOfEveryQueueRoundTripThroughTheBlob) {
  Nic a(b(true), driver_8125b());
  ASSERT_UP(a);
  arm_queues(a);
  program_rss(a, default_table());
  for (const V4Vector& v : kV4) a.host.receive(v4_frame(v));
  const std::vector<uint8_t> blob = a.host.save();
  Nic c(b(true), driver_8125b(), a.host.now());
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
