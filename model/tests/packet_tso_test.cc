// SPDX-License-Identifier: GPL-2.0-or-later
// TSO (v2 descriptor GTSENV4/GTSENV6 + MSS, r8169 rtl8169_tso_csum_v2):
// segment counts, per-segment header fix-ups checked field by field, checksums
// re-verified by the naive reference, and the payload reassembled.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "packet/packet.h"
#include "packet_test_util.h"

namespace rtl8168sim::packet_test {
namespace {

using packet::build_tso_segment;
using packet::tso_segment_count;
using packet::TxOffload;
using packet::TxStatus;

constexpr uint8_t kFin = 0x01, kPsh = 0x08, kAck = 0x10, kCwr = 0x80, kEce = 0x40;

struct Segmented {
  std::vector<Bytes> frames;
  TxStatus status = TxStatus::ok;
};

// Drive the functions the way the TX engine does: count, then build each
// segment from the header and an MSS-sized slice of the payload.
Segmented segment(const Bytes& frame, size_t hlen, const TxOffload& o, size_t max_frame) {
  Segmented r;
  const std::span<const uint8_t> all(frame);
  const auto header = all.first(hlen);
  const auto payload = all.subspan(hlen);
  const size_t n = tso_segment_count(header, payload.size(), o, r.status);
  if (r.status != TxStatus::ok) return r;
  for (size_t i = 0; i < n; ++i) {
    const size_t off = i * o.mss;
    const size_t len = std::min<size_t>(o.mss, payload.size() - off);
    std::vector<uint8_t> out;
    r.status = build_tso_segment(header, payload.subspan(off, len), i, n, o, max_frame, out);
    if (r.status != TxStatus::ok) return r;
    r.frames.push_back(std::move(out));
  }
  return r;
}

// Check every segment against the original super-frame.
void check_segments(const Bytes& orig, const Spec& s, const TxOffload& o,
                    const std::vector<Bytes>& segs, size_t shift) {
  const size_t l3 = l3_offset(s), l4 = l4_offset(s);
  const size_t hlen = l4 + l4_header_len(s);
  const size_t total_payload = orig.size() - hlen;
  Bytes reassembled;
  for (size_t i = 0; i < segs.size(); ++i) {
    SCOPED_TRACE(i);
    const Bytes& f = segs[i];
    const size_t pay = std::min<size_t>(o.mss, total_payload - i * o.mss);
    ASSERT_EQ(f.size(), std::max<size_t>(hlen + shift + pay, 60));
    // MACs and the parts of the header TSO does not touch are copied verbatim.
    EXPECT_TRUE(std::equal(orig.begin(), orig.begin() + 12, f.begin()));
    if (shift) {
      EXPECT_EQ(rd16(f, 12), 0x8100);
      EXPECT_EQ(rd16(f, 14), o.vlan_tci);
    }
    const size_t L3 = l3 + shift, L4 = l4 + shift;
    if (s.ipv6) {
      EXPECT_EQ(rd16(f, L3 + 4), l4_header_len(s) + pay);
      EXPECT_TRUE(std::equal(orig.begin() + l3 + 6, orig.begin() + l3 + 40, f.begin() + L3 + 6));
    } else {
      EXPECT_EQ(rd16(f, L3 + 2), ip_header_len(s) + l4_header_len(s) + pay);
      EXPECT_EQ(rd16(f, L3 + 4), static_cast<uint16_t>(rd16(orig, l3 + 4) + i));
      EXPECT_TRUE(ref_ipv4_ok(f, L3, ip_header_len(s)));
      EXPECT_TRUE(std::equal(orig.begin() + l3 + 12, orig.begin() + l4, f.begin() + L3 + 12));
    }
    EXPECT_EQ(rd32(f, L4 + 4), static_cast<uint32_t>(rd32(orig, l4 + 4) + i * o.mss));
    EXPECT_EQ(rd32(f, L4 + 8), rd32(orig, l4 + 8));  // ack unchanged
    uint8_t flags = orig[l4 + 13];
    if (i + 1 != segs.size()) flags = static_cast<uint8_t>(flags & ~(kFin | kPsh));
    if (i != 0) flags = static_cast<uint8_t>(flags & ~kCwr);
    EXPECT_EQ(f[L4 + 13], flags);
    // TCP options copied verbatim.
    EXPECT_TRUE(std::equal(orig.begin() + l4 + 20, orig.begin() + hlen, f.begin() + L4 + 20));
    EXPECT_TRUE(ref_l4_ok(f, L3, s.ipv6, 6, L4, l4_header_len(s) + pay));
    reassembled.insert(reassembled.end(), f.begin() + hlen + shift, f.begin() + hlen + shift + pay);
    for (size_t k = hlen + shift + pay; k < f.size(); ++k) EXPECT_EQ(f[k], 0);
  }
  EXPECT_TRUE(std::equal(reassembled.begin(), reassembled.end(), orig.begin() + hlen, orig.end()));
  EXPECT_EQ(reassembled.size(), total_payload);
}

Spec super_v4() {
  Spec s;
  s.tcp_opts = 12;              // NOP,NOP,TS: 14+20+32 = 66-byte header
  s.payload = 65535 - 20 - 32;  // IPv4 total length 65535
  s.tcp_flags = kFin | kPsh | kAck | kCwr | kEce;
  s.ip_id = 0xfff0;    // the ID wraps during the burst
  s.seq = 0xfffe0000;  // and so does the sequence number
  return s;
}

TxOffload tso_v4(uint32_t mss) {
  TxOffload o;
  o.gtsenv4 = true;
  o.mss = mss;
  o.l4_offset = 34;
  return o;
}

TEST(PacketTso, Ipv4SuperPacket64K) {
  const Spec s = super_v4();
  const Bytes f = build(s);
  ASSERT_EQ(l4_offset(s) + l4_header_len(s), 66u);
  const TxOffload o = tso_v4(1448);
  const Segmented r = segment(f, 66, o, 1514);
  ASSERT_EQ(r.status, TxStatus::ok);
  ASSERT_EQ(r.frames.size(), 46u);  // ceil(65483 / 1448)
  EXPECT_EQ(r.frames.front().size(), 1514u);
  EXPECT_EQ(r.frames.back().size(), 66u + 65483 % 1448);
  check_segments(f, s, o, r.frames, 0);
}

TEST(PacketTso, Ipv4WithIpOptionsAndVlan) {
  Spec s = super_v4();
  s.ip_opts = 8;
  s.payload = 10000;
  const Bytes f = build(s);
  TxOffload o = tso_v4(1000);
  o.l4_offset = 42;
  o.vlan = true;
  o.vlan_tci = 0x3fff;
  const size_t hlen = 14 + 28 + 32;
  EXPECT_EQ(segment(f, hlen, o, hlen + 1000 + 3).status, TxStatus::too_long);
  const Segmented r = segment(f, hlen, o, hlen + 1000 + 4);
  ASSERT_EQ(r.status, TxStatus::ok);
  ASSERT_EQ(r.frames.size(), 10u);
  check_segments(f, s, o, r.frames, 4);
}

TEST(PacketTso, Ipv6SuperPacket) {
  Spec s;
  s.ipv6 = true;
  s.tcp_opts = 12;  // 14+40+32 = 86
  s.payload = 64000;
  s.tcp_flags = kPsh | kAck | kCwr;
  Bytes f = build(s);
  // tcp_v6_gso_csum_prep: payload length 0, checksum = ~pseudo header seed.
  wr16(f, 14 + 4, 0);
  wr16(f, 54 + 16, 0x1234);
  TxOffload o;
  o.gtsenv6 = true;
  o.mss = 1428;
  o.l4_offset = 54;
  const Segmented r = segment(f, 86, o, 1514);
  ASSERT_EQ(r.status, TxStatus::ok);
  ASSERT_EQ(r.frames.size(), (64000u + 1427) / 1428);
  EXPECT_EQ(r.frames.front().size(), 1514u);
  check_segments(f, s, o, r.frames, 0);
}

TEST(PacketTso, MssZeroIsBadMss) {
  const Bytes f = build(super_v4());
  TxStatus st = TxStatus::ok;
  const std::span<const uint8_t> all(f);
  EXPECT_EQ(tso_segment_count(all.first(66), f.size() - 66, tso_v4(0), st), 0u);
  EXPECT_EQ(st, TxStatus::bad_mss);
  std::vector<uint8_t> out;
  EXPECT_EQ(build_tso_segment(all.first(66), all.subspan(66, 100), 0, 1, tso_v4(0), 1514, out),
            TxStatus::bad_mss);
}

TEST(PacketTso, MssLargerThanPayloadIsOneSegment) {
  Spec s = super_v4();
  s.payload = 300;
  const Bytes f = build(s);
  const TxOffload o = tso_v4(1448);
  const Segmented r = segment(f, 66, o, 1514);
  ASSERT_EQ(r.status, TxStatus::ok);
  ASSERT_EQ(r.frames.size(), 1u);
  // Single segment: first and last, so FIN/PSH and CWR all survive.
  EXPECT_EQ(r.frames[0][34 + 13], kFin | kPsh | kAck | kCwr | kEce);
  check_segments(f, s, o, r.frames, 0);
}

TEST(PacketTso, ExactMultipleAndTinyLastSegment) {
  for (size_t payload : {2896u, 2897u}) {
    Spec s = super_v4();
    s.payload = payload;
    const Bytes f = build(s);
    const TxOffload o = tso_v4(1448);
    const Segmented r = segment(f, 66, o, 1514);
    ASSERT_EQ(r.status, TxStatus::ok);
    ASSERT_EQ(r.frames.size(), payload == 2896 ? 2u : 3u);
    check_segments(f, s, o, r.frames, 0);  // 1-byte last segment is padded to 60+
  }
  // Small MSS: segments shorter than 60 bytes are zero padded.
  Spec s;
  s.payload = 7;
  const Bytes f = build(s);  // 54-byte header
  const TxOffload o = tso_v4(2);
  const Segmented r = segment(f, 54, o, 1514);
  ASSERT_EQ(r.status, TxStatus::ok);
  ASSERT_EQ(r.frames.size(), 4u);
  check_segments(f, s, o, r.frames, 0);
}

TEST(PacketTso, HeaderSpanMayBeTheWholeFrame) {
  // The TX engine may pass the whole super-frame as `header`: only the parsed
  // header length is used.
  Spec s = super_v4();
  s.payload = 3000;
  const Bytes f = build(s);
  const TxOffload o = tso_v4(1448);
  packet::L3L4Info info;
  ASSERT_EQ(packet::parse_tx_headers(f, o, info), TxStatus::ok);
  ASSERT_EQ(info.header_len, 66u);
  TxStatus st;
  const size_t n = tso_segment_count(f, f.size() - info.header_len, o, st);
  ASSERT_EQ(st, TxStatus::ok);
  ASSERT_EQ(n, 3u);
  std::vector<Bytes> segs;
  const std::span<const uint8_t> all(f);
  for (size_t i = 0; i < n; ++i) {
    std::vector<uint8_t> out;
    const size_t off = 66 + i * 1448;
    ASSERT_EQ(build_tso_segment(f, all.subspan(off, std::min<size_t>(1448, f.size() - off)), i, n,
                                o, 1514, out),
              TxStatus::ok);
    segs.push_back(out);
  }
  check_segments(f, s, o, segs, 0);
}

TEST(PacketTso, MalformedRequests) {
  Spec s = super_v4();
  s.payload = 5000;
  const Bytes f = build(s);
  const std::span<const uint8_t> all(f);
  auto count = [&](std::span<const uint8_t> h, const TxOffload& o) {
    TxStatus st = TxStatus::ok;
    const size_t n = tso_segment_count(h, 5000, o, st);
    if (st != TxStatus::ok) {
      EXPECT_EQ(n, 0u);
    }
    return st;
  };
  EXPECT_EQ(count(all.first(66), tso_v4(1448)), TxStatus::ok);
  // Truncated header: inside the TCP options, inside IPv4, inside Ethernet.
  for (size_t cut : {0u, 5u, 13u, 14u, 30u, 34u, 53u, 54u, 65u}) {
    EXPECT_EQ(count(all.first(cut), tso_v4(1448)), TxStatus::malformed) << cut;
  }
  TxOffload o = tso_v4(1448);
  o.l4_offset = 30;  // descriptor transport offset disagrees with IHL
  EXPECT_EQ(count(all.first(66), o), TxStatus::malformed);
  o = tso_v4(1448);
  o.gtsenv6 = true;  // both
  EXPECT_EQ(count(all.first(66), o), TxStatus::malformed);
  o = tso_v4(1448);
  o.gtsenv4 = false;
  o.gtsenv6 = true;  // GTSENV6 on IPv4
  EXPECT_EQ(count(all.first(66), o), TxStatus::malformed);
  o.gtsenv6 = false;  // neither
  EXPECT_EQ(count(all.first(66), o), TxStatus::malformed);
  Spec u = s;
  u.proto = 17;
  const Bytes fu = build(u);  // TSO of UDP
  EXPECT_EQ(count(std::span<const uint8_t>(fu).first(42), tso_v4(1448)), TxStatus::malformed);
  Bytes bad_doff = f;
  bad_doff[34 + 12] = 0x30;  // data offset 3
  EXPECT_EQ(count(bad_doff, tso_v4(1448)), TxStatus::malformed);
  Bytes huge_doff = f;
  huge_doff[34 + 12] = 0xf0;  // 60-byte TCP header does not fit in 66
  EXPECT_EQ(count(std::span<const uint8_t>(huge_doff).first(66), tso_v4(1448)),
            TxStatus::malformed);

  std::vector<uint8_t> out;
  const auto hdr = all.first(66);
  // Segment index out of range, payload not MSS-sized on a middle segment, or over MSS.
  EXPECT_EQ(build_tso_segment(hdr, all.subspan(66, 1448), 4, 4, tso_v4(1448), 1514, out),
            TxStatus::malformed);
  EXPECT_EQ(build_tso_segment(hdr, all.subspan(66, 1000), 0, 4, tso_v4(1448), 1514, out),
            TxStatus::malformed);
  EXPECT_EQ(build_tso_segment(hdr, all.subspan(66, 1449), 3, 4, tso_v4(1448), 1514, out),
            TxStatus::malformed);
  EXPECT_EQ(build_tso_segment(hdr, all.subspan(66, 1448), 0, 0, tso_v4(1448), 1514, out),
            TxStatus::malformed);
  // Segment larger than max_frame.
  EXPECT_EQ(build_tso_segment(hdr, all.subspan(66, 1448), 0, 4, tso_v4(1448), 1513, out),
            TxStatus::too_long);
}

TEST(PacketTso, Ipv4TotalLengthOverflowIsTooLong) {
  Bytes f(14 + 40 + 70000);  // more than fits one IPv4 datagram
  const Bytes small = build(Spec{});
  std::copy(small.begin(), small.begin() + 54, f.begin());
  TxOffload o = tso_v4(66000);
  std::vector<uint8_t> out;
  const std::span<const uint8_t> all(f);
  EXPECT_EQ(build_tso_segment(all.first(54), all.subspan(54, 66000), 0, 2, o, 1u << 20, out),
            TxStatus::too_long);
}

}  // namespace
}  // namespace rtl8168sim::packet_test
