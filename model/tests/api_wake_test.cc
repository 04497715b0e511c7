// SPDX-License-Identifier: GPL-2.0-or-later
// The Wake-on-LAN detector (model/src/wake.h): a link-up with Config3 LinkUp
// and a magic packet where the profile keeps its enable, each only with
// Config5 LanWake, reach the host's PME callback and the `wake` trace; what
// is not armed, and what is not a magic packet for this chip, does not.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <algorithm>
#include <vector>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

constexpr uint32_t kConfig5Reg = 0x56;
constexpr uint8_t kLinkUp = 0x10, kMagicPacket = 0x20, kLanWake = 0x02;
constexpr uint32_t kEridr = 0x70, kEriar = 0x74, kEriFlag = 0x80000000u, kEriMask1111 = 0xfu << 12;

// r8169 __rtl8169_set_wol's register writes: unlock, Config3/Config5, lock.
void arm(TestHost& h, uint8_t config3, uint8_t config5) {
  h.w8(kCfg9346, kCfg9346Unlock);
  h.w8(kConfig3, config3);
  h.w8(kConfig5Reg, config5);
  h.w8(kCfg9346, kCfg9346Lock);
}

std::vector<uint8_t> magic_frame(const uint8_t* dst, const uint8_t* station, unsigned repeats = 16,
                                 size_t offset = 0) {
  std::vector<uint8_t> f(dst, dst + 6);
  const uint8_t src[6] = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};
  f.insert(f.end(), src, src + 6);
  f.push_back(0x08);  // EtherType 0x0842 (Wake-on-LAN)
  f.push_back(0x42);
  f.insert(f.end(), offset, 0x00);
  f.insert(f.end(), 6, 0xff);
  for (unsigned i = 0; i < repeats; i++) f.insert(f.end(), station, station + 6);
  return f;
}

uint64_t wake_traces(const TestHost& h, uint64_t event) {
  return std::count_if(h.trace_events.begin(), h.trace_events.end(), [&](const TraceRecord& r) {
    return r.kind == RTL8168_TRACE_WAKE && r.args[0] == event;
  });
}

struct ApiWake : ::testing::Test {
  void SetUp() override { ASSERT_UP(nic); }
  // Cable out and back in; the link comes up after autonegotiation.
  void replug() {
    nic.host.set_link(false);
    nic.host.advance(1'000'000);
    nic.host.set_link(true);
    nic.host.advance(kPhyAnTime * 4);
  }
  Nic nic{default_params(true)};
};

TEST_F(ApiWake, LinkUpWakesWhenArmedWithLanWake) {
  arm(nic.host, kLinkUp, kLanWake);
  replug();
  EXPECT_EQ(nic.host.pme_calls, 1u) << nic.host.trace_tail();
  EXPECT_EQ(wake_traces(nic.host, 1), 1u);
}

TEST_F(ApiWake, LinkUpWithoutLinkUpOrLanWakeDoesNotWake) {
  arm(nic.host, 0, kLanWake);
  replug();
  arm(nic.host, kLinkUp, 0);
  replug();
  EXPECT_EQ(nic.host.pme_calls, 0u);
  EXPECT_EQ(wake_traces(nic.host, 1), 0u);
}

TEST_F(ApiWake, LinkDownDoesNotWake) {
  arm(nic.host, kLinkUp, kLanWake);
  nic.host.set_link(false);
  nic.host.advance(1'000'000);
  EXPECT_EQ(nic.host.pme_calls, 0u);
}

TEST_F(ApiWake, MagicPacketWakesWithTheReceiverOff) {
  arm(nic.host, kMagicPacket, kLanWake);
  nic.host.w8(kChipCmd, 0);  // the receiver off: the detector still sees the wire
  const auto f = magic_frame(kTestMacBytes, kTestMacBytes, 16, 3);
  nic.host.receive(f);
  EXPECT_EQ(nic.host.pme_calls, 1u);
  EXPECT_EQ(wake_traces(nic.host, 2), 1u);
  const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  nic.host.receive(magic_frame(bcast, kTestMacBytes));
  EXPECT_EQ(nic.host.pme_calls, 2u) << "a broadcast magic packet wakes too";
}

TEST_F(ApiWake, NotAMagicPacketForThisChipDoesNotWake) {
  arm(nic.host, kMagicPacket, kLanWake);
  const uint8_t other[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x57};
  nic.host.receive(magic_frame(other, kTestMacBytes));         // addressed to another station
  nic.host.receive(magic_frame(kTestMacBytes, other));         // another station's pattern
  nic.host.receive(magic_frame(kTestMacBytes, kTestMacBytes, 15));  // 15 repetitions
  auto cut = magic_frame(kTestMacBytes, kTestMacBytes);
  cut.pop_back();  // the last repetition short by one byte
  nic.host.receive(cut);
  EXPECT_EQ(nic.host.pme_calls, 0u);
}

TEST_F(ApiWake, MagicPacketNeedsMagicPacketAndLanWake) {
  arm(nic.host, kLinkUp, kLanWake);   // r8169 runtime suspend: WAKE_PHY only
  nic.host.receive(magic_frame(kTestMacBytes, kTestMacBytes));
  arm(nic.host, kMagicPacket, 0);
  nic.host.receive(magic_frame(kTestMacBytes, kTestMacBytes));
  arm(nic.host, 0, kLanWake | kMagicPacket);  // the bit in the wrong register
  nic.host.receive(magic_frame(kTestMacBytes, kTestMacBytes));
  EXPECT_EQ(nic.host.pme_calls, 0u);
}

TEST(ApiWakeHost, WithoutAPmeCallbackAWakeIsTracedOnly) {
  Nic nic(default_params(true), {}, 0, /*optional_callbacks=*/false);
  ASSERT_UP(nic);
  arm(nic.host, kMagicPacket, kLanWake);
  nic.host.receive(magic_frame(kTestMacBytes, kTestMacBytes));
  EXPECT_EQ(nic.host.pme_calls, 0u);
  EXPECT_TRUE(nic.host.ok());
}

// From the 8168evl on r8169 arms the magic packet in ERI 0xdc bit 16
// (MagicPacket_v2), not in Config3.
TEST(ApiWakeEvl, MagicPacketIsArmedInEri) {
  Nic nic(with(default_params(true), {{"chip", "8168evl"}}), driver_8168evl());
  ASSERT_UP(nic);
  TestHost& h = nic.host;
  arm(h, kMagicPacket, kLanWake);
  h.receive(magic_frame(kTestMacBytes, kTestMacBytes));
  EXPECT_EQ(h.pme_calls, 0u) << "Config3 MagicPacket does not arm the 8168evl";
  h.w32(kEridr, 1u << 16);
  h.w32(kEriar, kEriFlag | kEriMask1111 | 0x0dc);
  for (int i = 0; i < 100 && (h.r32(kEriar) & kEriFlag); i++) h.advance(1'000);
  arm(h, 0, kLanWake);
  h.receive(magic_frame(kTestMacBytes, kTestMacBytes));
  EXPECT_EQ(h.pme_calls, 1u) << h.trace_tail();
}

}  // namespace
}  // namespace rtl8168_test
