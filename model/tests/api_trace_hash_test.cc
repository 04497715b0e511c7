// SPDX-License-Identifier: GPL-2.0-or-later
// The trace hash of a fixed scenario, pinned. The lab's recorded hashes
// (docs/REPRODUCE.md, scripts/check-replay) depend on the model hashing the
// same words for the same behaviour; the value below was computed at commit
// 0bb8696, before the trace became typed (rtl8168/trace_events.def), and must
// survive changes to how events are recorded. Only a deliberate behaviour
// change may update it.
#include <gtest/gtest.h>
#include <rtl8168/rtl8168.h>

#include "harness/nic.h"

namespace rtl8168_test {
namespace {

const Mac kDst = {0x52, 0x54, 0x00, 0x00, 0x00, 0x02};

struct Outcome {
  uint64_t hash, events;
};

// Functional mode (no timing parameters involved): bring-up, traffic both
// ways, then every kind of bad access the trace distinguishes.
Outcome run_scenario() {
  Nic nic;
  EXPECT_TRUE(nic.up()) << nic.host.trace_tail();
  for (uint8_t i = 0; i < 3; i++) nic.drv.xmit(frame_to(kDst, 100 + 200 * i, i));
  EXPECT_TRUE(nic.drv.wait_tx());
  EXPECT_EQ(nic.host.receive(frame_to_us(150)), 150u);
  EXPECT_EQ(nic.host.receive(frame_to_us(1000)), 1000u);
  nic.host.advance(1'000'000);
  EXPECT_EQ(nic.drv.rx_poll().size(), 2u);
  nic.host.read(0x02, 4);          // unaligned
  nic.host.write(0x00, 0, 8);      // 8-byte
  nic.host.read(0x100, 4);         // BAR2 above the register file
  nic.host.write(0x200, 0x55, 2);  // same, write
  nic.host.w8(0xf0, 0x5a);         // a register the model does not implement (MISC)
  nic.host.r8(0xf0);
  rtl8168_receive(nic.host.dev(), nic.host.now(), nullptr, 60);   // API misuse
  const unsigned idx = nic.drv.queue_frame(frame_to(kDst, 300));  // buffer outside RAM
  nic.host.mem().w64(nic.drv.tx_desc_addr(Queue::kNormal, idx) + 8, Driver::kBadAddr);
  nic.drv.kick();
  nic.host.advance(10'000'000);
  return {nic.host.trace_hash(), rtl8168_trace_events(nic.host.dev())};
}

TEST(ApiTraceHash, FixedScenarioHashIsUnchanged) {
  const Outcome o = run_scenario();
  EXPECT_EQ(o.hash, 0x78a1ecc551030c74ull) << std::hex << "hash 0x" << o.hash;
  EXPECT_EQ(o.events, 220u);
}

}  // namespace
}  // namespace rtl8168_test
