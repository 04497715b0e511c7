// SPDX-License-Identifier: GPL-2.0-or-later
// The device behind the protocol: register accesses reach the model, DMA
// reaches the client's memory (shared fd or DMA messages), a TX descriptor
// ring is transmitted out of the backend, interrupts arrive on the eventfds,
// reset restores power-on state.
#include <linux/pci_regs.h>
#include <poll.h>

#include <chrono>
#include <cstring>

#include "../../tests/harness/regs.h"
#include "client.h"

namespace vfio_user_test {
namespace {

namespace r = rtl8168_test;

uint64_t mac_of(Harness& h, uint32_t bar) {
  return h.read_region(bar, r::kMAC0, 4) | h.read_region(bar, r::kMAC4, 2) << 32;
}

TEST(VfioUserDevice, MacRegistersThroughBothBarsAndResetRestoresThem) {
  HarnessOptions o;
  o.params = {{"mac", "52:54:00:12:34:56"}};
  Harness h(o);
  h.negotiate();
  const uint64_t want = 0x563412005452ull;
  EXPECT_EQ(mac_of(h, VFIO_PCI_BAR0_REGION_INDEX), want);
  EXPECT_EQ(mac_of(h, VFIO_PCI_BAR2_REGION_INDEX), want);
  // r8169's rtl_rar_set: unlock Cfg9346, write MAC4 then MAC0.
  h.set_reg(r::kCfg9346, 1, r::kCfg9346Unlock);
  h.write_region(VFIO_PCI_BAR0_REGION_INDEX, r::kMAC4, 4, 0x0000bbaa);
  h.write_region(VFIO_PCI_BAR0_REGION_INDEX, r::kMAC0, 4, 0x44332211);
  h.set_reg(r::kCfg9346, 1, 0);
  EXPECT_EQ(mac_of(h, VFIO_PCI_BAR2_REGION_INDEX), 0xbbaa44332211ull);
  h.call_ok(Harness::request(kDeviceReset));
  EXPECT_EQ(mac_of(h, VFIO_PCI_BAR2_REGION_INDEX), want);
}

TEST(VfioUserDevice, TxRingInSharedMemoryLeavesThroughTheBackendWithMsi) {
  Harness h;
  h.negotiate();
  h.map_memory(kRam, kRamSize, /*with_fd=*/true);
  const int msi = h.irq_eventfd(VFIO_PCI_MSI_IRQ_INDEX);
  bring_up_tx(h, r::kTxOK);
  kick_one_frame(h, 0x5a);
  const auto frames = wait_frames(h, 1);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].size(), 60u);
  EXPECT_EQ(frames[0][14], 0x5a);
  EXPECT_EQ(std::memcmp(frames[0].data(), h.mem(kBuf), 60), 0);
  uint32_t opts1;
  std::memcpy(&opts1, h.mem(kRing), 4);
  EXPECT_EQ(opts1 & r::kDescOwn, 0u) << "the descriptor is handed back";
  EXPECT_TRUE(h.reg(r::kIntrStatus, 2) & r::kTxOK);
  ASSERT_TRUE(wait_eventfd(msi, 2000)) << "MSI eventfd signalled";
  EXPECT_GE(Harness::drain(msi), 1u);
  EXPECT_EQ(h.dma_requests(), 0u) << "shared memory needs no DMA messages";
}

TEST(VfioUserDevice, TxRingThroughDmaMessagesWhenNoFdIsShared) {
  Harness h;
  h.negotiate();
  h.map_memory(kRam, kRamSize, /*with_fd=*/false);
  bring_up_tx(h, r::kTxOK);
  kick_one_frame(h, 0xa5);
  const auto frames = wait_frames(h, 1);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0][14], 0xa5);
  uint32_t opts1;
  std::memcpy(&opts1, h.mem(kRing), 4);
  EXPECT_EQ(opts1 & r::kDescOwn, 0u) << "write-back through DMA_WRITE";
  EXPECT_GE(h.dma_requests(), 3u) << "descriptor read, buffer read, write-back";
}

TEST(VfioUserDevice, NoBusMasterNoDma) {
  Harness h;
  h.negotiate();
  h.map_memory(kRam, kRamSize, true);
  bring_up_tx(h, r::kTxOK);
  h.write_region(VFIO_PCI_CONFIG_REGION_INDEX, PCI_COMMAND, 2, PCI_COMMAND_MEMORY);
  kick_one_frame(h, 1);
  EXPECT_TRUE(wait_frames(h, 1).empty());
  uint32_t opts1;
  std::memcpy(&opts1, h.mem(kRing), 4);
  EXPECT_TRUE(opts1 & r::kDescOwn);
}

// INTx as vfio-pci does it: a trigger masks the line until UNMASK; an
// UNMASK while the device still asserts it triggers again; after the guest
// acknowledged IntrStatus an UNMASK stays quiet.
TEST(VfioUserDevice, IntxIsAutomaskedAndRetriggersWhileAsserted) {
  Harness h;
  h.negotiate();
  h.map_memory(kRam, kRamSize, true);
  const int intx = h.irq_eventfd(VFIO_PCI_INTX_IRQ_INDEX);
  bring_up_tx(h, r::kTxOK);
  kick_one_frame(h, 2);
  ASSERT_TRUE(wait_eventfd(intx, 2000));
  EXPECT_EQ(Harness::drain(intx), 1u);
  auto unmask = [] {
    Message m = Harness::request(kDeviceSetIrqs);
    put(m, IrqSet{sizeof(IrqSet), VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_UNMASK,
                  VFIO_PCI_INTX_IRQ_INDEX, 0, 1});
    return m;
  };
  h.call_ok(unmask());
  ASSERT_TRUE(wait_eventfd(intx, 2000)) << "still asserted: signalled again";
  EXPECT_EQ(Harness::drain(intx), 1u);
  h.set_reg(r::kIntrStatus, 2, r::kTxOK);  // acknowledge: the line drops
  h.call_ok(unmask());
  EXPECT_FALSE(wait_eventfd(intx, 100));
  // MSI takes over once its eventfd is set; INTx stays quiet.
  const int msi = h.irq_eventfd(VFIO_PCI_MSI_IRQ_INDEX);
  kick_one_frame(h, 3);
  ASSERT_TRUE(wait_eventfd(msi, 2000));
  EXPECT_FALSE(wait_eventfd(intx, 50));
}

TEST(VfioUserDevice, WriteMultiAppliesEveryWrite) {
  Harness h;
  h.negotiate();
  Message m = Harness::request(kRegionWriteMulti);
  m.hdr.flags |= kNoReply;
  const uint64_t cnt = 3;
  put(m, cnt);
  WriteOne w[3] = {{r::kCfg9346, VFIO_PCI_BAR2_REGION_INDEX, 1, {r::kCfg9346Unlock}},
                   {r::kMAC0, VFIO_PCI_BAR2_REGION_INDEX, 4, {0x10, 0x20, 0x30, 0x40}},
                   {r::kCfg9346, VFIO_PCI_BAR2_REGION_INDEX, 1, {0}}};
  for (const auto& x : w) put(m, x);
  ASSERT_TRUE(send_message(h.sock(), m, {}, 1000));
  EXPECT_EQ(h.reg(r::kMAC0, 4), 0x40302010u);  // processed in order before this read
}

TEST(VfioUserDevice, UnresponsiveClientFailsTheDmaNotTheServer) {
  Harness h;
  h.negotiate();
  h.map_memory(kRam, kRamSize, false);
  bring_up_tx(h, r::kTxOK);
  h.ignore_dma(true);
  const auto t0 = std::chrono::steady_clock::now();
  kick_one_frame(h, 4);  // the reply comes after the DMA wait gives up
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));
  h.ignore_dma(false);
  EXPECT_TRUE(wait_frames(h, 1).empty());
  // The server still answers (its stale DMA requests were answered or dropped).
  EXPECT_NE(h.reg(r::kMAC0, 4), 0xffffffffu);
}

}  // namespace
}  // namespace vfio_user_test
