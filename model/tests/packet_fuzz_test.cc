// SPDX-License-Identifier: GPL-2.0-or-later
// Deterministic robustness loop: every packet function is fed random bytes and
// mutated/truncated valid frames with random offload requests. The functions
// must return (no crash, no out-of-bounds read: CI runs this under
// ASan+UBSan) and their outputs must satisfy basic invariants.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "packet/packet.h"
#include "packet_test_util.h"

namespace rtl8168sim::packet_test {
namespace {

using packet::TxOffload;
using packet::TxStatus;

uint32_t R(std::mt19937& rng) { return static_cast<uint32_t>(rng()); }

Bytes random_input(std::mt19937& rng, Spec& s, bool& built) {
  std::uniform_int_distribution<int> kind(0, 3);
  const int k = kind(rng);
  Bytes f;
  built = k != 0;
  if (k == 0) {  // pure noise, often short
    f.resize(R(rng) % 130);
    for (auto& v : f) v = static_cast<uint8_t>(R(rng));
    return f;
  }
  s = Spec{};
  s.ipv6 = R(rng) & 1;
  const uint32_t p = R(rng) % 3;
  s.proto = p == 0 ? 6 : p == 1 ? 17 : 1;
  s.payload = R(rng) % 200;
  s.ip_opts = s.ipv6 ? 0 : 4 * (R(rng) % 4);
  s.tcp_opts = 4 * (R(rng) % 5);
  s.inband_vlan = (R(rng) % 4) == 0;
  s.seed = static_cast<uint8_t>(R(rng));
  f = build(s);
  // Mutate a few bytes, biased towards the headers.
  const int mutations = (R(rng) & 1) ? 0 : static_cast<int>(R(rng) % 6);
  for (int i = 0; i < mutations && !f.empty(); ++i) {
    const size_t at = (R(rng) & 1) ? R(rng) % std::min<size_t>(f.size(), 80) : R(rng) % f.size();
    f[at] = static_cast<uint8_t>(R(rng));
  }
  if (k == 2 && !f.empty()) f.resize(R(rng) % (f.size() + 1));  // truncate
  return f;
}

TxOffload random_offload(std::mt19937& rng, const Spec& s, bool built) {
  TxOffload o;
  if (built && (R(rng) & 1)) {
    // A request that matches the frame (what the driver would send).
    const bool tso = (R(rng) & 1) && s.proto == 6;
    o.gtsenv4 = tso && !s.ipv6;
    o.gtsenv6 = tso && s.ipv6;
    o.ipv4_cs = !tso && !s.ipv6;
    o.ipv6_cs = !tso && s.ipv6;
    o.tcp_cs = !tso && s.proto == 6;
    o.udp_cs = !tso && s.proto == 17;
    o.mss = 1 + R(rng) % 200;
    o.l4_offset = static_cast<uint32_t>(l4_offset(s));
    o.vlan = R(rng) & 1;
    o.vlan_tci = static_cast<uint16_t>(R(rng));
    return o;
  }
  const uint32_t bits = R(rng);
  o.gtsenv4 = bits & 1;
  o.gtsenv6 = bits & 2;
  o.ipv4_cs = bits & 4;
  o.tcp_cs = bits & 8;
  o.udp_cs = bits & 16;
  o.ipv6_cs = bits & 32;
  o.vlan = bits & 64;
  o.vlan_tci = static_cast<uint16_t>(R(rng));
  o.mss = (bits & 128) ? 0 : 1 + R(rng) % 300;
  const uint32_t l4 = R(rng) % 4;
  o.l4_offset = l4 == 0 ? 0 : l4 == 1 ? 34 : l4 == 2 ? 54 : R(rng) % 128;
  return o;
}

TEST(PacketFuzz, RandomFramesNeverMisbehave) {
  std::mt19937 rng(0x8168);
  std::vector<uint8_t> out;
  size_t ok_frames = 0, ok_segments = 0, tcp = 0;
  for (int iter = 0; iter < 40000; ++iter) {
    Spec spec;
    bool built = false;
    const Bytes f = random_input(rng, spec, built);
    const TxOffload o = random_offload(rng, spec, built);
    const size_t max_frame = (R(rng) & 1) ? 1514 : 60 + R(rng) % 200;

    const TxStatus st = packet::finish_tx_frame(f, o, max_frame, out);
    if (st == TxStatus::ok) {
      ++ok_frames;
      ASSERT_GE(out.size(), 60u);
      ASSERT_EQ(out.size(), std::max<size_t>(f.size() + (o.vlan ? 4 : 0), 60));
    }
    ASSERT_NE(st, TxStatus::bad_mss);

    packet::L3L4Info info;
    const TxStatus ps = packet::parse_tx_headers(f, o, info);
    if (ps == TxStatus::ok) {
      ASSERT_LE(info.header_len, f.size());
    }

    // TSO: split at a random point (sometimes the real header length).
    const std::span<const uint8_t> all(f);
    const size_t hlen =
        (ps == TxStatus::ok && (R(rng) & 1)) ? info.header_len : R(rng) % (f.size() + 1);
    TxStatus ts = TxStatus::ok;
    const size_t n = packet::tso_segment_count(all.first(hlen), f.size() - hlen, o, ts);
    if (ts != TxStatus::ok) {
      ASSERT_EQ(n, 0u);
    } else {
      ASSERT_GE(n, 1u);
      const auto payload = all.subspan(hlen);
      for (size_t i = 0; i < n; ++i) {
        const size_t off = i * o.mss;
        const size_t len = std::min<size_t>(o.mss, payload.size() - off);
        const TxStatus bs = packet::build_tso_segment(all.first(hlen), payload.subspan(off, len), i,
                                                      n, o, max_frame, out);
        ASSERT_TRUE(bs == TxStatus::ok || bs == TxStatus::too_long);
        if (bs == TxStatus::ok) {
          ++ok_segments;
          ASSERT_LE(out.size(), std::max<size_t>(max_frame, 60));
        }
      }
      // Random (wrong) indices and payload sizes must be rejected, not crash.
      packet::build_tso_segment(all.first(hlen), payload.first(R(rng) % (payload.size() + 1)),
                                R(rng) % (n + 2), n, o, max_frame, out);
    }

    const packet::RxClass c = packet::classify_rx(f);
    if (c.is_tcp || c.is_udp) {
      ASSERT_TRUE(c.is_ip);
      ++tcp;
    }
    ASSERT_FALSE(c.is_tcp && c.is_udp);
    ASSERT_FALSE(c.tcp_csum_fail && !c.is_tcp);
    ASSERT_FALSE(c.udp_csum_fail && !c.is_udp);

    Bytes copy = f;
    uint16_t tci = 0;
    const bool stripped = packet::strip_vlan(copy, tci);
    ASSERT_EQ(copy.size(), f.size() - (stripped ? 4 : 0));
  }
  // The generator must reach the interesting paths, not just the early exits.
  EXPECT_GT(ok_frames, 8000u);
  EXPECT_GT(ok_segments, 2000u);
  EXPECT_GT(tcp, 9000u);
}

}  // namespace
}  // namespace rtl8168sim::packet_test
