// SPDX-License-Identifier: GPL-2.0-or-later
// One device plus its test driver, brought up the way r8169 does it.
#pragma once

#include <gtest/gtest.h>

#include "harness/driver.h"
#include "harness/test_host.h"

namespace rtl8168_test {

struct Nic {
  explicit Nic(const Params& params = default_params(false), DriverConfig c = {},
               uint64_t start_ns = 0, bool optional_callbacks = true)
      : host(params, start_ns, optional_callbacks), drv(host, c) {}
  // Host-side MSI enable as the guest would set it before open.
  bool up(bool msi = true) {
    host.msi = msi;
    if (!host.ok()) return false;
    return drv.probe() && drv.open();
  }
  TestHost host;
  Driver drv;
};

// gtest helper: fail the test (and stop it) when bring-up fails.
#define ASSERT_UP(nic, ...) ASSERT_TRUE((nic).up(__VA_ARGS__)) << (nic).host.trace_tail()

}  // namespace rtl8168_test
