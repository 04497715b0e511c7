// SPDX-License-Identifier: GPL-2.0-or-later
// The chip timer (datasheet TCTR/TimerInt): TCTR is a
// free-running 32-bit counter at the timer clock (parameter timer-clock,
// 125 MHz by default) that any write restarts from 0; a non-zero TimerInt
// latches PCSTimeout (IntrStatus bit 14) each time the count reaches it and
// the count starts again, so a driver that moderates interrupts with the
// timer (all sources masked but PCSTimeout) is woken once per period.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

class ApiTimer : public ::testing::TestWithParam<bool> {
 protected:
  ApiTimer() : nic(default_params(GetParam())) {}
  void SetUp() override { ASSERT_UP(nic); }
  Nic nic;
};

TEST_P(ApiTimer, CounterRunsAtTheTimerClockAndWriteRestartsIt) {
  TestHost& h = nic.host;
  h.w32(kTCTR, 0xdeadbeef);  // any value restarts the count
  EXPECT_EQ(h.r32(kTCTR), 0u);
  h.advance(1'000);
  EXPECT_EQ(h.r32(kTCTR), 125u) << "125 MHz: 125 counts per microsecond";
  h.advance(7'000);
  EXPECT_EQ(h.r32(kTCTR), 1000u);
  h.w32(kTCTR, 0);
  h.advance(8);
  EXPECT_EQ(h.r32(kTCTR), 1u);
}

TEST_P(ApiTimer, TimerIntLatchesPcsTimeoutOncePerPeriod) {
  TestHost& h = nic.host;
  // Timer-driven moderation: every source masked but PCSTimeout.
  h.w16(kIntrMask, kPCSTimeout);
  h.w16(kIntrStatus, 0xffff);
  const size_t msi0 = h.msi_times.size();
  h.w32(kTCTR, 0);
  const uint64_t t0 = h.now();
  h.w32(kTimerInt, 1250);  // 10 us at 125 MHz
  h.run_until(t0 + 9'990);
  EXPECT_FALSE(h.r16(kIntrStatus) & kPCSTimeout) << "fired early";
  h.run_until(t0 + 10'000);
  EXPECT_TRUE(h.r16(kIntrStatus) & kPCSTimeout);
  EXPECT_EQ(h.msi_times.size(), msi0 + 1);
  EXPECT_EQ(h.msi_times.back(), t0 + 10'000);
  h.w16(kIntrStatus, kPCSTimeout);  // ack
  h.run_until(t0 + 19'990);
  EXPECT_FALSE(h.r16(kIntrStatus) & kPCSTimeout);
  h.run_until(t0 + 20'000);
  EXPECT_TRUE(h.r16(kIntrStatus) & kPCSTimeout) << "the timer is periodic";
  h.w16(kIntrStatus, kPCSTimeout);
  EXPECT_EQ(h.msi_times.size(), msi0 + 2);
  // Ten more periods: ten more interrupts when the handler acks each one.
  for (int i = 3; i <= 12; i++) {
    h.run_until(t0 + 10'000u * static_cast<uint64_t>(i));
    EXPECT_TRUE(h.r16(kIntrStatus) & kPCSTimeout) << "period " << i;
    h.w16(kIntrStatus, kPCSTimeout);
  }
  EXPECT_EQ(h.msi_times.size(), msi0 + 12);
  // TimerInt = 0 turns it off.
  h.w32(kTimerInt, 0);
  h.advance(1'000'000);
  EXPECT_FALSE(h.r16(kIntrStatus) & kPCSTimeout);
  EXPECT_EQ(h.msi_times.size(), msi0 + 12);
  EXPECT_EQ(h.deadline(), RTL8168_NO_DEADLINE) << "no timer event left armed";
}

TEST_P(ApiTimer, TimerIntBelowTheCountWaitsForTheWrap) {
  TestHost& h = nic.host;
  h.w32(kTCTR, 0);
  h.advance(10'000);  // count 1250
  h.w16(kIntrStatus, 0xffff);
  h.w32(kTimerInt, 125);  // already passed: matches after the 32-bit wrap
  h.advance(1'000'000);
  EXPECT_FALSE(h.r16(kIntrStatus) & kPCSTimeout);
  // Restarting the count makes it match 1 us later.
  h.w32(kTCTR, 0);
  h.advance(1'000);
  EXPECT_TRUE(h.r16(kIntrStatus) & kPCSTimeout);
}

TEST_P(ApiTimer, TimerSurvivesSaveRestoreAndResetClearsIt) {
  TestHost& h = nic.host;
  h.w32(kTCTR, 0);
  h.w32(kTimerInt, 2500);  // 20 us
  h.advance(5'000);
  const std::vector<uint8_t> blob = h.save();
  TestHost b(default_params(GetParam()), h.mem(), h.now());
  ASSERT_EQ(b.load(blob), 0);
  EXPECT_EQ(b.r32(kTCTR), h.r32(kTCTR));
  b.w16(kIntrStatus, 0xffff);
  b.run_until(b.now() + 15'000);
  EXPECT_TRUE(b.r16(kIntrStatus) & kPCSTimeout) << "the restored timer fires on schedule";
  h.reset();
  EXPECT_EQ(h.r32(kTimerInt), 0u);
  h.advance(1'000'000);
  EXPECT_FALSE(h.r16(kIntrStatus) & kPCSTimeout);
}

// TimerInt = 1 (a match every 8 ns) and a host that calls 10 ms later: the
// call must not run a million events; the latched bit is all the guest can
// see, and the period stays exact afterwards.
TEST_P(ApiTimer, TinyPeriodAndALateHostCostOneEventPerCall) {
  TestHost& h = nic.host;
  h.w16(kIntrStatus, 0xffff);
  h.w32(kTCTR, 0);
  h.w32(kTimerInt, 1);
  const uint64_t before = rtl8168_trace_events(h.dev());
  h.tick(10'000'000);
  rtl8168_timer_expired(h.dev(), h.now());
  EXPECT_LT(rtl8168_trace_events(h.dev()) - before, 10u);
  EXPECT_TRUE(h.r16(kIntrStatus) & kPCSTimeout);
  EXPECT_GT(h.deadline(), h.now());
  EXPECT_LE(h.deadline(), h.now() + 8);
  h.w16(kIntrStatus, kPCSTimeout);
  h.w32(kTimerInt, 0);
}

INSTANTIATE_TEST_SUITE_P(Modes, ApiTimer, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& p) { return p.param ? "timed" : "functional"; });

}  // namespace
}  // namespace rtl8168_test
