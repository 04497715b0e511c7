// SPDX-License-Identifier: GPL-2.0-or-later
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>
#include <optional>
#include "harness/nic.h"

namespace rtl8168_test {
namespace {
// QEMU's tap backend asks can_receive() and, on false, stops reading until
// qemu_flush_queued_packets() (our rx_ready); it never calls receive() to be
// refused. The device must still owe it an rx_ready once the FIFO drains.
TEST(ApiRxTiming, CanReceiveFalseAloneEarnsRxReady) {
  Nic nic(with(default_params(true), {{"rx-fifo-size", "4096"}}));
  ASSERT_UP(nic);
  unsigned sent = 0;
  while (nic.host.can_receive() && sent < 64) {
    const Bytes f = frame_to_us(1514, static_cast<uint8_t>(sent));
    ASSERT_EQ(nic.host.receive(f), f.size());
    ++sent;
  }
  ASSERT_LT(sent, 64u) << "a 4 KiB FIFO must fill at one instant";
  const uint64_t calls = nic.host.rx_ready_calls;
  ASSERT_TRUE(nic.drv.poll(
      [&] {
        nic.drv.rx_poll();
        return nic.host.rx_ready_calls > calls;
      },
      1'000, 100'000'000))
      << "can_receive() said no, and rx_ready never followed";
  EXPECT_TRUE(nic.host.can_receive());
}

}  // namespace
}  // namespace rtl8168_test
