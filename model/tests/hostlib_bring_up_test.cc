// SPDX-License-Identifier: GPL-2.0-or-later
// The host library's open sequence (model/hostlib/bring_up.h), which the
// bench and the fuzz target run: the register traffic of each caller's order
// checked write by write against this harness's independent register copy
// (harness/regs.h, so a wrong offset in model/hostlib/driver_regs.h fails
// here), the poll bounds, and a bring-up of the model itself.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bring_up.h"
#include "harness/nic.h"

namespace rtl8168_test {
namespace {

using rtl8168_host::LinkWait;
using rtl8168_host::OpenSpec;
using rtl8168_host::Step;

struct Access {
  char kind;  // 'w' write, 'r' read, 'p' poll_wait, 's' step_until, 'R' init_rings, 'L' link_acked
  uint32_t off = 0;
  uint64_t value = 0;
  unsigned size = 0;
  bool operator==(const Access&) const = default;
};

std::string show(const std::vector<Access>& v) {
  std::string s;
  for (const Access& a : v) {
    char b[64];
    std::snprintf(b, sizeof b, "%c %#x=%#llx/%u\n", a.kind, a.off,
                  static_cast<unsigned long long>(a.value), a.size);
    s += b;
  }
  return s;
}

// Records every access; reads answer through `answer` (register, reads so far).
class RecordingBus final : public rtl8168_host::RegBus {
 public:
  std::vector<Access> log;
  std::function<uint64_t(uint32_t off, unsigned nth)> answer = [](uint32_t, unsigned) { return 0; };
  uint64_t t = 0;

  uint64_t read(uint32_t off, unsigned size) override {
    log.push_back({'r', off, 0, size});
    return answer(off, reads_[off]++);
  }
  void write(uint32_t off, uint64_t v, unsigned size) override {
    log.push_back({'w', off, v, size});
  }
  void poll_wait() override { log.push_back({'p'}); }
  uint64_t now() const override { return t; }
  void step_until(uint64_t limit) override {
    log.push_back({'s'});
    t = std::min(limit, t + 1'000'000);  // one event per millisecond
  }
  void init_rings() override { log.push_back({'R'}); }
  void link_acked() override { log.push_back({'L'}); }

 private:
  std::map<uint32_t, unsigned> reads_;
};

// Accesses of one kind (at `off` for reads).
unsigned count(const std::vector<Access>& log, char kind, uint32_t off = 0) {
  return static_cast<unsigned>(std::count_if(log.begin(), log.end(), [&](const Access& a) {
    return a.kind == kind && (kind != 'r' || a.off == off);
  }));
}

std::vector<Access> writes_and_marks(const std::vector<Access>& log) {
  std::vector<Access> out;
  for (const Access& a : log) {
    if (a.kind != 'r' && a.kind != 'p' && a.kind != 's') out.push_back(a);
  }
  return out;
}

TEST(HostlibBringUp, BenchOrderIsR8169Open) {
  // rtl_init_one + rtl_open (docs/R8169.md §A): mask and ack, reset, the
  // ring bases while Cfg9346 is unlocked, enable, RxConfig 0xC700 | accept,
  // TxConfig, MAR, IntrMask, then phy_start's BMCR write and the LinkChg wait.
  RecordingBus bus;
  bus.answer = [](uint32_t off, unsigned nth) -> uint64_t {
    if (off == kChipCmd) return nth < 2 ? kCmdReset : 0;  // clears on the third read
    if (off == kIntrStatus) return nth < 3 ? 0 : kLinkChg;
    if (off == kPHYstatus) return 0x02;  // LinkStatus
    return 0;
  };
  OpenSpec spec;
  spec.tx_ring = 0x10000;
  spec.rx_ring = 0x11000;
  spec.rx_config = rtl8168_host::rx_config(kRxConfigDriver, 7,
                                           kAcceptBroadcast | kAcceptMulticast | kAcceptMyPhys);
  spec.tx_config = rtl8168_host::tx_config(7);
  spec.irq_mask = kDriverIrqMask;
  spec.link_wait = LinkWait::LinkChg;
  EXPECT_TRUE(rtl8168_host::bring_up(bus, spec, rtl8168_host::kBenchOrder));
  const std::vector<Access> want = {
      {'w', kIntrMask, 0, 2},
      {'w', kIntrStatus, 0xffff, 2},
      {'w', kChipCmd, kCmdReset, 1},
      {'w', kCfg9346, kCfg9346Unlock, 1},
      {'w', kCPlusCmd, kRxVlan | kRxChkSum, 2},
      {'w', kIntrMitigate, 0, 2},
      {'w', kRxMaxSize, 0x4000, 2},
      {'w', kTxDescStartAddrHigh, 0, 4},
      {'w', kTxDescStartAddrLow, 0x10000, 4},
      {'w', kRxDescAddrHigh, 0, 4},
      {'w', kRxDescAddrLow, 0x11000, 4},
      {'w', kCfg9346, kCfg9346Lock, 1},
      {'R'},
      {'w', kChipCmd, kCmdTxEnb | kCmdRxEnb, 1},
      {'w', kRxConfig, kRxConfigDriver | 0x0e, 4},
      {'w', kTxConfig, kTxConfigDriver, 4},
      {'w', kMAR0 + 4, 0xffffffff, 4},
      {'w', kMAR0, 0xffffffff, 4},
      {'w', kIntrMask, kDriverIrqMask, 2},
      // BMCR: ANENABLE | ANRESTART | FULLDPLX | SPEED1000 (0x0140).
      {'w', kPHYAR, kPHYARFlag | kMiiBmcr << 16 | kBmcrAnEnable | kBmcrAnRestart | 0x0140, 4},
      {'w', kIntrStatus, kLinkChg, 2},
      {'L'},
  };
  EXPECT_EQ(show(writes_and_marks(bus.log)), show(want));
  // Three ChipCmd reads with two waits between them; four steps of time
  // until LinkChg shows, then PHYstatus.
  EXPECT_EQ(count(bus.log, 'r', kChipCmd), 3u);
  EXPECT_EQ(count(bus.log, 'p'), 2u);
  EXPECT_EQ(count(bus.log, 's'), 4u);
  EXPECT_EQ(count(bus.log, 'r', kIntrStatus), 4u);
  EXPECT_EQ(bus.log.back().kind, 'r');
  EXPECT_EQ(bus.log.back().off, kPHYstatus);
}

TEST(HostlibBringUp, FuzzOrderWritesMacAndHighPriorityRing) {
  RecordingBus bus;
  bus.answer = [](uint32_t off, unsigned nth) -> uint64_t {
    return off == kPHYstatus && nth == 2 ? 0x02 : 0;  // link on the third poll
  };
  OpenSpec spec;
  spec.reset_polls = 8;
  spec.mac = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
  spec.mitigate = 0x5151;
  spec.tx_ring = 0x0000;
  spec.txh_ring = 0x0400;
  spec.rx_ring = 0x0800;
  spec.rx_max_size = 0;
  spec.cplus = kRxChkSum;
  spec.tx_config = rtl8168_host::tx_config(6);
  spec.rx_config = rtl8168_host::rx_config(0, 6, 0x3f);
  spec.mar = 0;
  spec.irq_mask = 0x80ff;
  spec.link_wait = LinkWait::PhyStatus;
  EXPECT_TRUE(rtl8168_host::bring_up(bus, spec, rtl8168_host::kFuzzOrder));
  const std::vector<Access> want = {
      {'w', kChipCmd, kCmdReset, 1},
      {'w', kCfg9346, kCfg9346Unlock, 1},
      {'w', kMAC4, 0x5634, 4},
      {'w', kMAC0, 0x12005452, 4},
      {'w', kCfg9346, kCfg9346Lock, 1},
      {'w', kIntrMitigate, 0x5151, 2},
      {'R'},
      {'w', kTxDescStartAddrHigh, 0, 4},
      {'w', kTxDescStartAddrLow, 0x0000, 4},
      {'w', kTxHDescStartAddrHigh, 0, 4},
      {'w', kTxHDescStartAddrLow, 0x0400, 4},
      {'w', kRxDescAddrHigh, 0, 4},
      {'w', kRxDescAddrLow, 0x0800, 4},
      {'w', kRxMaxSize, 0, 2},
      {'w', kCPlusCmd, kRxChkSum, 2},
      {'w', kChipCmd, kCmdTxEnb | kCmdRxEnb, 1},
      {'w', kTxConfig, 0x03000600, 4},
      {'w', kRxConfig, 0x0000063f, 4},
      {'w', kMAR0 + 4, 0, 4},
      {'w', kMAR0, 0, 4},
      {'w', kIntrMask, 0x80ff, 2},
  };
  EXPECT_EQ(show(writes_and_marks(bus.log)), show(want));
  EXPECT_EQ(count(bus.log, 'r', kPHYstatus), 3u);
  EXPECT_EQ(count(bus.log, 'p'), 2u)
      << "ChipCmd reads clear at once; two waits between the PHYstatus reads";
}

TEST(HostlibBringUp, PollsAreBounded) {
  // A reset bit that never clears and a link that never comes up: the
  // sequence gives up after its bounds and reports no link.
  RecordingBus bus;
  bus.answer = [](uint32_t off, unsigned) -> uint64_t { return off == kChipCmd ? kCmdReset : 0; };
  OpenSpec spec;
  spec.reset_polls = 5;
  spec.link_polls = 7;
  spec.link_wait = LinkWait::PhyStatus;
  const Step order[] = {Step::ChipReset, Step::WaitLink};
  EXPECT_FALSE(rtl8168_host::bring_up(bus, spec, order));
  EXPECT_EQ(count(bus.log, 'r', kChipCmd), 5u);
  EXPECT_EQ(count(bus.log, 'r', kPHYstatus), 7u);
  EXPECT_EQ(count(bus.log, 'p'), 12u);

  // LinkChg never latched: the wait ends at the timeout without an ack.
  RecordingBus quiet;
  spec.link_wait = LinkWait::LinkChg;
  spec.link_timeout_ns = 10'000'000;
  const Step wait[] = {Step::WaitLink};
  EXPECT_FALSE(rtl8168_host::bring_up(quiet, spec, wait));
  EXPECT_EQ(quiet.t, 10'000'000u);
  EXPECT_EQ(count(quiet.log, 'w'), 0u) << "no LinkChg to ack";
}

// The bench's order on the model itself: the device ends up enabled with
// the link up and the values written.
class HostBus final : public rtl8168_host::RegBus {
 public:
  explicit HostBus(TestHost& h) : h_(h) {}
  uint64_t read(uint32_t off, unsigned size) override { return h_.read(off, size); }
  void write(uint32_t off, uint64_t v, unsigned size) override { h_.write(off, v, size); }
  void poll_wait() override { EXPECT_TRUE(h_.advance(100'000)); }
  uint64_t now() const override { return h_.now(); }
  void step_until(uint64_t t) override {  // the next event, or to t when none is due by then
    if (!h_.step_one(t)) {
      EXPECT_TRUE(h_.run_until(t));
    }
  }
  void init_rings() override {}

 private:
  TestHost& h_;
};

TEST(HostlibBringUp, BenchOrderBringsTheModelUp) {
  TestHost h(default_params(true));
  ASSERT_TRUE(h.ok());
  HostBus bus(h);
  OpenSpec spec;
  spec.tx_ring = Driver::kTxRing;
  spec.rx_ring = Driver::kRxRing;
  spec.rx_config = rtl8168_host::rx_config(kRxConfigDriver, 7, kAcceptBroadcast | kAcceptMyPhys);
  spec.tx_config = rtl8168_host::tx_config(7);
  spec.irq_mask = kDriverIrqMask;
  spec.link_wait = LinkWait::LinkChg;
  ASSERT_TRUE(rtl8168_host::bring_up(bus, spec, rtl8168_host::kBenchOrder)) << h.trace_tail();
  EXPECT_EQ(h.r8(kChipCmd) & (kCmdTxEnb | kCmdRxEnb | kCmdReset), kCmdTxEnb | kCmdRxEnb);
  EXPECT_EQ(h.r32(kTxDescStartAddrLow), Driver::kTxRing);
  EXPECT_EQ(h.r32(kRxDescAddrLow), Driver::kRxRing);
  EXPECT_EQ(h.r32(kRxConfig) & 0x3f, kAcceptBroadcast | kAcceptMyPhys);
  EXPECT_EQ(h.r16(kIntrMask), kDriverIrqMask);
  EXPECT_EQ(h.r16(kIntrStatus) & kLinkChg, 0) << "the LinkChg was acked";
  EXPECT_EQ(h.r8(kCfg9346) & 0xc0, 0) << "locked again";
}

}  // namespace
}  // namespace rtl8168_test
