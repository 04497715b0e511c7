// SPDX-License-Identifier: GPL-2.0-or-later
// Per-test CPU-time watchdog: a model stuck in an unbounded loop inside an
// entry point (where run_until's event bound cannot help) kills the test
// binary with a message naming the test, instead of hanging CTest. The bound
// is on the process's CPU time (ITIMER_PROF), not the wall clock: a loop
// burns CPU, while a loaded machine only stretches the wall time (a wall
// bound killed a correct test under valgrind at load 20).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace {

constexpr long kTestCpuSeconds = 300;  // generous: valgrind and sanitizer builds are slow
char g_current[512] = "(none)";

extern "C" void on_cpu_bound(int) {
  static const char head[] = "\nwatchdog: test exceeded its CPU-time bound: ";
  (void)!write(2, head, sizeof head - 1);
  (void)!write(2, g_current, strlen(g_current));
  (void)!write(2, "\n", 1);
  _exit(3);
}

class Watchdog : public testing::EmptyTestEventListener {
  void OnTestStart(const testing::TestInfo& info) override {
    snprintf(g_current, sizeof g_current, "%s.%s", info.test_suite_name(), info.name());
    signal(SIGPROF, on_cpu_bound);
    arm(kTestCpuSeconds);
  }
  void OnTestEnd(const testing::TestInfo&) override { arm(0); }
  static void arm(long seconds) {
    itimerval t{};
    t.it_value.tv_sec = seconds;
    setitimer(ITIMER_PROF, &t, nullptr);
  }
};

const bool g_registered = [] {
  testing::UnitTest::GetInstance()->listeners().Append(new Watchdog);
  return true;
}();

}  // namespace
