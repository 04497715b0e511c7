// SPDX-License-Identifier: GPL-2.0-or-later
// Frames received with a wire error (docs/FAULTS.md rx-bad-fcs, rx-runt,
// rx-too-long; model/src/rx_wire_errors.cc), driven like r8169 would: with
// RxConfig AcceptErr/AcceptRunt clear (r8169 without NETIF_F_RXALL) the chip
// discards the frame, counts it in the tally's RxERR and in a model counter;
// with them set (rtl_set_rx_config_features under RXALL) the frame is
// written to the ring with RxRES and its error bit, as rtl_rx expects.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <string>
#include <vector>

#include "harness/net_ref.h"
#include "harness/nic.h"

namespace rtl8168_test {
namespace {

// RX descriptor opts1 status (r8169 enum rtl_rx_desc_bit).
constexpr uint32_t kRxRWT = 1u << 22, kRxRES = 1u << 21, kRxRUNT = 1u << 20, kRxCRC = 1u << 19;
constexpr uint32_t kLenMask = 0x3fff;
constexpr uint64_t kDropTooLong = 4, kDropBadFcs = 14, kDropShort = 15;  // RX_DROP reasons

void add(TestHost& h, const std::string& spec) {
  std::string err;
  ASSERT_EQ(h.add_fault(spec, &err), 0) << spec << ": " << err;
}

// r8169 rtl_set_rx_config_features: RXALL sets AcceptErr|AcceptRunt.
void set_rx_all(Nic& nic, bool on) {
  const uint32_t rcr = nic.host.r32(kRxConfig) & ~(kAcceptErr | kAcceptRunt);
  nic.host.w32(kRxConfig, rcr | (on ? kAcceptErr | kAcceptRunt : 0));
}

// Receives frames 0..n-1 (100 bytes, seed = number) and lets the chip finish.
void receive_n(Nic& nic, uint8_t n) {
  for (uint8_t i = 0; i < n; i++) EXPECT_EQ(nic.host.receive(frame_to_us(100, i)), 100u);
  nic.host.advance(1'000'000);
}

std::vector<uint64_t> drop_reasons(const TestHost& h) {
  std::vector<uint64_t> v;
  for (const TraceRecord& r : h.trace_events) {
    if (r.kind == RTL8168_TRACE_RX_DROP) v.push_back(r.args[0]);
  }
  return v;
}

Tally tally(Nic& nic) {
  Tally t;
  EXPECT_TRUE(nic.drv.dump_counters(t));
  return t;
}

uint32_t fcs_of(const Bytes& frame) {  // the 4 bytes after the data, little-endian
  const size_t n = frame.size();
  return frame[n - 4] | frame[n - 3] << 8 | frame[n - 2] << 16 | static_cast<uint32_t>(frame[n - 1]) << 24;
}

struct Case {
  const char* spec;
  uint64_t rtl8168_stats::*dropped;
  uint64_t reason;
  uint32_t bit;
};
const Case kCases[] = {
    {"rx-bad-fcs", &rtl8168_stats::rx_dropped_bad_fcs, kDropBadFcs, kRxCRC},
    {"rx-runt", &rtl8168_stats::rx_dropped_short, kDropShort, kRxRUNT},
    {"rx-too-long", &rtl8168_stats::rx_dropped_too_long, kDropTooLong, kRxRWT},
};

TEST(ApiWireError, WithoutAcceptBitsTheChipDiscardsAndCountsTheFrames) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.spec);
    Nic nic;
    ASSERT_UP(nic);
    set_rx_all(nic, false);
    add(nic.host, std::string(c.spec) + ":frame=2,count=2");
    receive_n(nic, 5);
    const rtl8168_stats s = nic.host.stats();
    EXPECT_EQ(s.*c.dropped, 2u);
    EXPECT_EQ(s.rx_frames, 3u);
    EXPECT_EQ(s.rx_error_frames, 0u);
    EXPECT_EQ(s.faults_fired, 2u);
    EXPECT_EQ(drop_reasons(nic.host), (std::vector<uint64_t>{c.reason, c.reason}));
    const Tally t = tally(nic);
    EXPECT_EQ(t.rx_errors, 2u) << "RxERR counts the discarded frames";
    EXPECT_EQ(t.rx_packets, 3u);
    // Frames 0, 3 and 4 reached the ring, in order and without error bits.
    const std::vector<RxFrame> got = nic.drv.rx_poll();
    ASSERT_EQ(got.size(), 3u);
    const uint8_t seeds[] = {0, 3, 4};
    for (size_t i = 0; i < got.size(); i++) {
      EXPECT_EQ(got[i].opts1 & (kRxRES | kRxCRC | kRxRUNT | kRxRWT), 0u);
      const Bytes want = frame_to_us(100, seeds[i]);
      EXPECT_TRUE(std::equal(want.begin(), want.end(), got[i].data.begin())) << i;
    }
  }
}

TEST(ApiWireError, BadFcsRaisesRxErrEvenWhenDiscarded) {
  Nic nic;
  ASSERT_UP(nic);
  set_rx_all(nic, false);
  nic.host.w16(kIntrStatus, 0xffff);
  add(nic.host, "rx-bad-fcs:frame=1");
  receive_n(nic, 1);
  EXPECT_EQ(nic.host.r16(kIntrStatus) & kRxErr, kRxErr);
  EXPECT_EQ(nic.host.stats().rx_frames, 0u);
}

TEST(ApiWireError, WithRxAllTheFramesAreWrittenWithRxResAndTheirErrorBit) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.spec);
    Nic nic;
    ASSERT_UP(nic);
    set_rx_all(nic, true);
    add(nic.host, std::string(c.spec) + ":frame=2");
    receive_n(nic, 3);
    const rtl8168_stats s = nic.host.stats();
    EXPECT_EQ(s.*c.dropped, 0u);
    EXPECT_EQ(s.rx_frames, 3u);
    EXPECT_EQ(s.rx_error_frames, 1u);
    EXPECT_TRUE(drop_reasons(nic.host).empty());
    const Tally t = tally(nic);
    EXPECT_EQ(t.rx_errors, 1u);
    EXPECT_EQ(t.rx_packets, 2u) << "RxOK counts good frames only";
    const std::vector<RxFrame> got = nic.drv.rx_poll();
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0].opts1 & kRxRES, 0u);
    EXPECT_EQ(got[2].opts1 & kRxRES, 0u);
    EXPECT_EQ(got[1].opts1 & (kRxRES | kRxCRC | kRxRUNT | kRxRWT), kRxRES | c.bit);
    const Bytes& f = got[1].data;
    const size_t len = got[1].opts1 & kLenMask;
    ASSERT_EQ(f.size(), len);
    const Bytes want = frame_to_us(100, 1);
    if (c.bit == kRxRUNT) {
      EXPECT_EQ(len, 32u) << "a runt is cut below 64 bytes on the wire";
    } else {
      EXPECT_EQ(len, want.size() + 4);
    }
    EXPECT_TRUE(std::equal(f.begin(), f.end() - 4, want.begin())) << "the data is the frame's own";
    const uint32_t good = crc32_ieee(std::span<const uint8_t>(f.data(), f.size() - 4));
    if (c.bit == kRxCRC) {
      EXPECT_NE(fcs_of(f), good) << "the FCS the driver sees with RXFCS does not check";
    } else {
      EXPECT_EQ(fcs_of(f), good);
    }
  }
}

// A runt needs AcceptRunt, an FCS error or a watchdog cut AcceptErr: with
// only one of the bits the other kind is still discarded.
TEST(ApiWireError, EachAcceptBitTakesOnlyItsOwnErrors) {
  Nic nic;
  ASSERT_UP(nic);
  nic.host.w32(kRxConfig, (nic.host.r32(kRxConfig) & ~(kAcceptErr | kAcceptRunt)) | kAcceptRunt);
  add(nic.host, "rx-bad-fcs:frame=1;rx-runt:frame=2");
  receive_n(nic, 2);
  rtl8168_stats s = nic.host.stats();
  EXPECT_EQ(s.rx_dropped_bad_fcs, 1u);
  EXPECT_EQ(s.rx_error_frames, 1u);
  std::vector<RxFrame> got = nic.drv.rx_poll();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].opts1 & (kRxRES | kRxRUNT | kRxCRC), kRxRES | kRxRUNT);

  nic.host.w32(kRxConfig, (nic.host.r32(kRxConfig) & ~(kAcceptErr | kAcceptRunt)) | kAcceptErr);
  add(nic.host, "rx-bad-fcs:frame=1;rx-runt:frame=2");
  receive_n(nic, 2);
  s = nic.host.stats();
  EXPECT_EQ(s.rx_dropped_short, 1u);
  EXPECT_EQ(s.rx_error_frames, 2u);
  got = nic.drv.rx_poll();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].opts1 & (kRxRES | kRxRUNT | kRxCRC), kRxRES | kRxCRC);
}

// A collision fragment: both faults on one frame give RUNT and CRC; it
// needs both accept bits, and without them is counted once (as a bad FCS).
TEST(ApiWireError, ACollisionFragmentCarriesRuntAndCrcAndIsCountedOnce) {
  Nic nic;
  ASSERT_UP(nic);
  set_rx_all(nic, true);
  add(nic.host, "rx-bad-fcs:frame=1;rx-runt:frame=1");
  receive_n(nic, 1);
  std::vector<RxFrame> got = nic.drv.rx_poll();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].opts1 & (kRxRES | kRxRUNT | kRxCRC), kRxRES | kRxRUNT | kRxCRC);
  EXPECT_EQ(got[0].opts1 & kLenMask, 32u);

  set_rx_all(nic, false);
  add(nic.host, "rx-bad-fcs:frame=1;rx-runt:frame=1");
  receive_n(nic, 1);
  const rtl8168_stats s = nic.host.stats();
  EXPECT_EQ(s.rx_dropped_bad_fcs, 1u);
  EXPECT_EQ(s.rx_dropped_short, 0u);
  EXPECT_EQ(tally(nic).rx_errors, 2u);
}

// A frame with a wire error still waiting in the FIFO survives a state
// save and load (its status bits pass the loader's checks).
TEST(ApiWireError, ErrorFramesInTheFifoSurviveSaveAndLoad) {
  Nic nic(default_params(true));  // with timing, the frame waits for its descriptor read
  ASSERT_UP(nic);
  set_rx_all(nic, true);
  add(nic.host, "rx-runt:frame=1");
  EXPECT_EQ(nic.host.receive(frame_to_us(100, 7)), 100u);
  ASSERT_EQ(nic.host.stats().rx_frames, 0u) << "the runt waits in the FIFO";
  const std::vector<uint8_t> blob = nic.host.save();
  ASSERT_FALSE(blob.empty());
  std::string err;
  ASSERT_EQ(nic.host.load(blob, &err), 0) << err;
  nic.host.advance(1'000'000);
  const std::vector<RxFrame> got = nic.drv.rx_poll();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].opts1 & (kRxRES | kRxRUNT), kRxRES | kRxRUNT);
  EXPECT_EQ(got[0].opts1 & kLenMask, 32u);
}


// ---- len=: aiming the classes at frames of one length (docs/FAULTS.md) ----

// Receives one frame per length (seed = its position) and lets the chip finish.
void receive_lengths(Nic& nic, const std::vector<size_t>& lens) {
  for (size_t i = 0; i < lens.size(); i++) {
    EXPECT_EQ(nic.host.receive(frame_to_us(lens[i], static_cast<uint8_t>(i))), lens[i]);
  }
  nic.host.advance(1'000'000);
}

TEST(ApiWireError, LenTurnsEveryFrameOfThatLengthAndNoOther) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.spec);
    Nic nic;
    ASSERT_UP(nic);
    set_rx_all(nic, false);
    add(nic.host, std::string(c.spec) + ":len=1111,count=all");
    receive_lengths(nic, {100, 1111, 1110, 1111, 1112, 60, 1111});
    const rtl8168_stats s = nic.host.stats();
    EXPECT_EQ(s.*c.dropped, 3u);
    EXPECT_EQ(s.faults_fired, 3u);
    EXPECT_EQ(s.rx_frames, 4u);
    EXPECT_EQ(drop_reasons(nic.host), (std::vector<uint64_t>{c.reason, c.reason, c.reason}));
    EXPECT_EQ(tally(nic).rx_errors, 3u);
    const std::vector<RxFrame> got = nic.drv.rx_poll();
    ASSERT_EQ(got.size(), 4u);
    const size_t lens[] = {100, 1110, 1112, 60};
    for (size_t i = 0; i < got.size(); i++) {
      EXPECT_EQ(got[i].opts1 & kRxRES, 0u) << i;
      EXPECT_EQ(got[i].opts1 & kLenMask, lens[i] + 4) << i;
    }
    EXPECT_NE(nic.host.faults_json().find("\"seen\": 3, \"fired\": 3"), std::string::npos)
        << nic.host.faults_json();
  }
}

// frame= and count= count the frames of that length only: the 2nd and 3rd
// of 120 bytes are cut to runts, the 1st and 4th and every other length not.
TEST(ApiWireError, LenWithFrameAndCountCountsOnlyFramesOfThatLength) {
  Nic nic;
  ASSERT_UP(nic);
  set_rx_all(nic, true);
  add(nic.host, "rx-runt:len=120,frame=2,count=2");
  receive_lengths(nic, {120, 100, 120, 100, 120, 120});
  const std::vector<RxFrame> got = nic.drv.rx_poll();
  ASSERT_EQ(got.size(), 6u);
  const bool runt[] = {false, false, true, false, true, false};
  for (size_t i = 0; i < got.size(); i++) {
    EXPECT_EQ(got[i].opts1 & (kRxRES | kRxRUNT), runt[i] ? kRxRES | kRxRUNT : 0u) << i;
    if (runt[i]) {
      EXPECT_EQ(got[i].opts1 & kLenMask, 32u) << i;
    }
  }
  const rtl8168_stats s = nic.host.stats();
  EXPECT_EQ(s.rx_error_frames, 2u);
  EXPECT_EQ(s.faults_fired, 2u);
}

// The three classes each on a length of their own, as the lab's rx-bad case
// sets them on the DUT (guest-tests/lab/rx-bad.sh), with RXALL off then on.
TEST(ApiWireError, ThreeLengthsThreeClassesCountedApartWithRxAllOffThenOn) {
  const Params p = with(default_params(true),
                        {{"faults", "rx-bad-fcs:len=1111,count=all;rx-runt:len=1112,count=all;"
                                    "rx-too-long:len=1113,count=all"}});
  Nic nic(p);
  ASSERT_UP(nic);
  set_rx_all(nic, false);
  receive_lengths(nic, {1111, 1112, 1113, 1114, 1111, 1112, 1113});
  rtl8168_stats s = nic.host.stats();
  EXPECT_EQ(s.rx_dropped_bad_fcs, 2u);
  EXPECT_EQ(s.rx_dropped_short, 2u);
  EXPECT_EQ(s.rx_dropped_too_long, 2u);
  EXPECT_EQ(s.rx_frames, 1u);
  ASSERT_EQ(nic.drv.rx_poll().size(), 1u);

  set_rx_all(nic, true);
  receive_lengths(nic, {1111, 1112, 1113});
  s = nic.host.stats();
  EXPECT_EQ(s.rx_error_frames, 3u);
  EXPECT_EQ(s.faults_fired, 9u);
  const std::vector<RxFrame> got = nic.drv.rx_poll();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].opts1 & (kRxRES | kRxCRC | kRxRUNT | kRxRWT), kRxRES | kRxCRC);
  EXPECT_EQ(got[1].opts1 & (kRxRES | kRxCRC | kRxRUNT | kRxRWT), kRxRES | kRxRUNT);
  EXPECT_EQ(got[2].opts1 & (kRxRES | kRxCRC | kRxRUNT | kRxRWT), kRxRES | kRxRWT);
  EXPECT_EQ(tally(nic).rx_errors, 9u) << "RxERR: every wire error, taken or discarded";
}

TEST(ApiWireError, LenIsCanonicalBoundedAndOnlyForFrameClassesThatSeeAFrame) {
  rtl8168_config* cfg = rtl8168_config_new();
  char err[256] = "", buf[512] = "";
  ASSERT_EQ(rtl8168_config_set(cfg, "faults", "rx-too-long: count=all , len=0x459", err,
                               sizeof err),
            0)
      << err;
  ASSERT_EQ(rtl8168_config_get(cfg, "faults", buf, sizeof buf), 0);
  EXPECT_EQ(std::string(buf), "rx-too-long:len=1113,count=all");
  rtl8168_config_free(cfg);

  Nic nic;
  ASSERT_UP(nic);
  const std::string empty = nic.host.faults_json();
  for (const char* spec :
       {"rx-bad-fcs:len=0", "rx-bad-fcs:len=13", "rx-bad-fcs:len=16384", "rx-runt:len=",
        "rx-runt:len=12a", "rx-runt:len=100,len=101", "dma-read:len=100", "rx-withhold:len=100",
        "tx-stop-fetch:len=100", "link:down,len=100"}) {
    std::string e;
    EXPECT_EQ(nic.host.add_fault(spec, &e), -1) << "'" << spec << "' accepted";
    EXPECT_FALSE(e.empty()) << spec;
  }
  EXPECT_EQ(nic.host.faults_json(), empty);
  add(nic.host, "rx-fifo-over:len=14;rx-bad-fcs:len=16383");
}

// The blob carries a fault's canonical text, len= with it: a restored
// schedule goes on counting frames of that length only.
TEST(ApiWireError, LenSurvivesSaveAndRestore) {
  Nic nic;
  ASSERT_UP(nic);
  set_rx_all(nic, false);
  add(nic.host, "rx-bad-fcs:len=200,count=3");
  receive_lengths(nic, {200, 100});
  const std::vector<uint8_t> blob = nic.host.save();
  // The same parameters as the Nic's (timing off): a blob carries state, not the host's
  // configuration, and a device loaded into another timing mode runs differently.
  TestHost other(default_params(false), nic.host.mem(), nic.host.now());
  std::string err;
  ASSERT_EQ(other.load(blob, &err), 0) << err;
  EXPECT_EQ(other.faults_json(), nic.host.faults_json());
  for (TestHost* h : {&nic.host, &other}) {
    for (uint8_t i = 0; i < 4; i++) h->receive(frame_to_us(i % 2 ? 100 : 200, i));
    h->advance(1'000'000);
  }
  EXPECT_EQ(other.stats().rx_dropped_bad_fcs, 3u) << "1 before the save, 2 after: count=3";
  EXPECT_EQ(other.stats().rx_frames, 3u) << "the 100-byte frames are never counted";
  EXPECT_EQ(other.stats().rx_dropped_bad_fcs, nic.host.stats().rx_dropped_bad_fcs);
  EXPECT_EQ(other.stats().rx_frames, nic.host.stats().rx_frames);
  EXPECT_EQ(other.faults_json(), nic.host.faults_json());
  EXPECT_EQ(other.trace_hash(), nic.host.trace_hash()) << "the restored device ran as the original";
}

}  // namespace
}  // namespace rtl8168_test
