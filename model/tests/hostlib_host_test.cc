// SPDX-License-Identifier: GPL-2.0-or-later
// The host library's host (model/hostlib/host.h), which the bench and the
// fuzz target share: each callback records on the device's own Port or the
// host and calls its hook, DMA hooks can fail an access, rx_ready and trace
// reach a device only when their hook is set, and with real devices two
// ports keep their timers apart while the host runs the primary one's.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "harness/regs.h"
#include "host.h"

namespace rtl8168_test {
namespace {

using rtl8168_host::Host;
using rtl8168_host::kNever;
using rtl8168_host::Port;

TEST(HostlibHost, CallbacksRecordOnTheirOwnPort) {
  Host h(4096);
  Port a(h), b(h);
  const rtl8168_host_ops oa = h.ops_for(a), ob = h.ops_for(b);
  EXPECT_EQ(oa.opaque, &a);
  EXPECT_EQ(ob.opaque, &b);
  oa.timer_arm(oa.opaque, 500);
  ob.set_intx(ob.opaque, 1);
  EXPECT_EQ(a.deadline, 500u);
  EXPECT_EQ(b.deadline, kNever);
  EXPECT_EQ(a.intx, 0);
  EXPECT_EQ(b.intx, 1);

  h.msi = false;
  EXPECT_FALSE(oa.msi_enabled(oa.opaque));
  h.msi = true;
  EXPECT_TRUE(ob.msi_enabled(ob.opaque));

  std::vector<Port*> msi_from;
  std::vector<unsigned> vectors;
  h.hooks.on_msi = [&](Port& p, unsigned vector) {
    EXPECT_EQ(h.msi_count, msi_from.size());  // called before it is counted
    msi_from.push_back(&p);
    vectors.push_back(vector);
  };
  ob.msi_notify(ob.opaque, 3);
  oa.msi_notify(oa.opaque, 0);
  EXPECT_EQ(h.msi_count, 2u);
  EXPECT_EQ(vectors, (std::vector<unsigned>{3, 0}));
  EXPECT_EQ(h.last_msi_vector, 0u);
  EXPECT_TRUE(h.msi_pending);
  ASSERT_EQ(msi_from.size(), 2u);
  EXPECT_EQ(msi_from[0], &b);
  EXPECT_EQ(msi_from[1], &a);

  int raw_level = -1;
  h.hooks.on_intx = [&](Port& p, int level) {
    EXPECT_EQ(&p, &a);
    EXPECT_EQ(a.intx, 0);  // before it is recorded
    raw_level = level;
  };
  oa.set_intx(oa.opaque, 1);
  EXPECT_EQ(raw_level, 1);
  EXPECT_EQ(a.intx, 1);

  const uint8_t frame[60] = {1, 2, 3};
  std::vector<size_t> lens;
  h.hooks.after_transmit = [&](Port& p, const uint8_t* f, size_t len) {
    EXPECT_EQ(&p, &b);
    EXPECT_EQ(f, frame);
    EXPECT_EQ(h.tx_frames, lens.size() + 1);  // counted before the hook
    lens.push_back(len);
  };
  ob.transmit(ob.opaque, frame, sizeof frame);
  EXPECT_EQ(h.tx_frames, 1u);
  EXPECT_EQ(lens, std::vector<size_t>{60});
}

TEST(HostlibHost, DmaHooksCanFailAnAccess) {
  Host h(256);
  Port p(h);
  const rtl8168_host_ops ops = h.ops_for(p);
  const uint8_t data[4] = {0xde, 0xad, 0xbe, 0xef};
  uint8_t buf[4] = {};

  std::vector<std::pair<uint64_t, size_t>> landed;
  h.hooks.after_dma_write = [&](Port& q, uint64_t addr, size_t len) {
    EXPECT_EQ(&q, &p);
    landed.emplace_back(addr, len);
  };
  EXPECT_EQ(ops.dma_write(ops.opaque, 16, data, 4), 0);
  EXPECT_EQ(ops.dma_write(ops.opaque, 254, data, 4), -1);  // past the end of RAM
  ASSERT_EQ(landed.size(), 1u);
  EXPECT_EQ(landed[0], std::make_pair(uint64_t{16}, size_t{4}));
  EXPECT_EQ(h.ram.r32(16), 0xefbeaddeu);

  bool allow = false;
  h.hooks.before_dma_read = [&](Port&, uint64_t addr, size_t len) {
    EXPECT_EQ(addr, 16u);
    EXPECT_EQ(len, 4u);
    return allow;
  };
  EXPECT_EQ(ops.dma_read(ops.opaque, 16, buf, 4), -1);
  EXPECT_EQ(buf[0], 0);  // nothing copied
  allow = true;
  EXPECT_EQ(ops.dma_read(ops.opaque, 16, buf, 4), 0);
  EXPECT_EQ(std::memcmp(buf, data, 4), 0);

  h.hooks.before_dma_write = [](Port&, uint64_t, size_t) { return false; };
  const uint8_t other[4] = {9, 9, 9, 9};
  EXPECT_EQ(ops.dma_write(ops.opaque, 16, other, 4), -1);
  EXPECT_EQ(h.ram.r32(16), 0xefbeaddeu);  // RAM unchanged
  EXPECT_EQ(landed.size(), 1u);           // and no after_dma_write
}

TEST(HostlibHost, OptionalCallbacksOnlyWithTheirHook) {
  Host h;
  Port p(h);
  rtl8168_host_ops ops = h.ops_for(p);
  EXPECT_EQ(ops.rx_ready, nullptr);
  EXPECT_EQ(ops.trace, nullptr);
  unsigned ready = 0;
  std::string traced;
  h.hooks.on_rx_ready = [&](Port& q) {
    EXPECT_EQ(&q, &p);
    ready++;
  };
  h.hooks.on_trace = [&](Port&, uint64_t now, const char* line) {
    traced = std::to_string(now) + " " + line;
  };
  ops = h.ops_for(p);
  ASSERT_NE(ops.rx_ready, nullptr);
  ASSERT_NE(ops.trace, nullptr);
  ops.rx_ready(ops.opaque);
  ops.trace(ops.opaque, 42, "x");
  EXPECT_EQ(ready, 1u);
  EXPECT_EQ(traced, "42 x");
}

struct Config {
  rtl8168_config* cfg = rtl8168_config_new();
  ~Config() { rtl8168_config_free(cfg); }
};

TEST(HostlibHost, RefusedConfigurationLeavesNoDevice) {
  Config c;
  char err[256] = "";
  ASSERT_EQ(rtl8168_config_set(c.cfg, "tx-fifo-size", "2048", err, sizeof err), 0) << err;
  Host h;
  Port p(h);
  EXPECT_EQ(h.create(c.cfg, p, err, sizeof err), nullptr);
  EXPECT_EQ(p.dev, nullptr);
  EXPECT_NE(std::string(err).find("tx-fifo-size"), std::string::npos) << err;
}

TEST(HostlibHost, TwoDevicesKeepTheirTimersApart) {
  Config c;
  char err[256] = "";
  Host h(64 * 1024);
  h.port = std::make_unique<Port>(h);
  ASSERT_NE(h.create(c.cfg, *h.port, err, sizeof err), nullptr) << err;
  Port scratch(h);
  ASSERT_NE(h.create(c.cfg, scratch, err, sizeof err), nullptr) << err;
  EXPECT_EQ(h.dev(), h.port->dev);

  // Link down then up restarts autonegotiation: the device's timer lands on
  // its own port, the other device's stays as it was.
  const uint64_t primary_deadline = h.port->deadline;
  rtl8168_set_link(scratch.dev, h.now, false);
  rtl8168_set_link(scratch.dev, h.now, true);
  ASSERT_NE(scratch.deadline, kNever);
  EXPECT_EQ(h.port->deadline, primary_deadline);
  const uint64_t scratch_deadline = scratch.deadline;
  rtl8168_set_link(h.dev(), h.now, false);
  rtl8168_set_link(h.dev(), h.now, true);
  ASSERT_NE(h.port->deadline, kNever);
  EXPECT_EQ(scratch.deadline, scratch_deadline);

  // step_until stops at the deadline and runs the timer there.
  const uint64_t due = h.port->deadline;
  EXPECT_EQ(h.step_until(due + 1'000'000'000), due);
  EXPECT_NE(h.port->deadline, due);
  // run_until reaches its time; autonegotiation completed: LinkChg raised.
  h.run_until(due + 5'000'000'000ull);
  EXPECT_EQ(h.now, due + 5'000'000'000ull);
  EXPECT_NE(h.r16(kIntrStatus) & kLinkChg, 0);
  EXPECT_EQ(scratch.deadline, scratch_deadline);  // never run by the host
  rtl8168_destroy(scratch.dev);
  h.close();
  EXPECT_EQ(h.dev(), nullptr);
}

}  // namespace
}  // namespace rtl8168_test
