// SPDX-License-Identifier: GPL-2.0-or-later
// Per-test wall-clock watchdog: a model stuck in an unbounded loop inside an
// entry point (where run_until's event bound cannot help) kills the test
// binary with a message naming the test, instead of hanging CTest.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace {

constexpr unsigned kTestSeconds = 300;  // generous: sanitizer builds are slow
char g_current[512] = "(none)";

extern "C" void on_alarm(int) {
  static const char head[] = "\nwatchdog: test exceeded its time bound: ";
  (void)!write(2, head, sizeof head - 1);
  (void)!write(2, g_current, strlen(g_current));
  (void)!write(2, "\n", 1);
  _exit(3);
}

class Watchdog : public testing::EmptyTestEventListener {
  void OnTestStart(const testing::TestInfo& info) override {
    snprintf(g_current, sizeof g_current, "%s.%s", info.test_suite_name(), info.name());
    signal(SIGALRM, on_alarm);
    alarm(kTestSeconds);
  }
  void OnTestEnd(const testing::TestInfo&) override { alarm(0); }
};

const bool g_registered = [] {
  testing::UnitTest::GetInstance()->listeners().Append(new Watchdog);
  return true;
}();

}  // namespace
