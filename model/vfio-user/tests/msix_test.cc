// SPDX-License-Identifier: GPL-2.0-or-later
// MSI-X on the profile that has it (the RTL8125B): the IRQ index's count is
// the table size, SET_IRQS installs one eventfd per vector (QEMU's
// vfio_enable_vectors, its runs of -1 as messages without fds), the model's
// messages reach the eventfd of their vector, the table and PBA in BAR 4
// hold a masked vector pending until it is unmasked (through the table,
// SET_IRQS UNMASK or Message Control's Function Mask), and bad requests get
// errors. The 8168 profiles keep an MSI-X index of count 0.
#include <linux/pci_regs.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "../../tests/harness/regs.h"
#include "client.h"

namespace vfio_user_test {
namespace {

namespace r = rtl8168_test;
constexpr uint32_t kMsix = VFIO_PCI_MSIX_IRQ_INDEX;
constexpr uint32_t kTrigger = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER;

HarnessOptions rtl8125b() {
  HarnessOptions o;
  o.chip = "8125b";
  return o;
}

// SET_IRQS on the MSI-X index: `fds` for vectors [start, start + fds.size())
// or, with count and no fds, the client's -1 for each.
Message set_irqs(uint32_t flags, uint32_t start, uint32_t count,
                 const std::vector<uint8_t>& data = {}) {
  Message m = Harness::request(kDeviceSetIrqs);
  put(m, IrqSet{uint32_t(sizeof(IrqSet) + data.size()), flags, kMsix, start, count});
  if (!data.empty()) put_bytes(m, data.data(), data.size());
  return m;
}

struct Eventfds {
  explicit Eventfds(size_t n) {
    for (size_t i = 0; i < n; i++) fds.push_back(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  }
  ~Eventfds() {
    for (int fd : fds) close(fd);
  }
  std::vector<int> fds;
};

uint32_t bar4(Harness& h, uint64_t off) {
  return uint32_t(h.read_region(VFIO_PCI_BAR4_REGION_INDEX, off, 4));
}
uint64_t pba(Harness& h) {
  return h.read_region(VFIO_PCI_BAR4_REGION_INDEX, h.identity().msix_pba_offset, 8);
}
uint64_t vector_control(const Harness& h, unsigned v) {
  return h.identity().msix_table_offset + 16ull * v + 12;
}

TEST(VfioUserMsix, IrqInfoCountIsTheTableSize) {
  Harness h(rtl8125b());
  h.negotiate();
  ASSERT_EQ(h.identity().msix_vectors, 32);
  Message q = Harness::request(kDeviceGetIrqInfo);
  put(q, IrqInfo{sizeof(IrqInfo), 0, kMsix, 0});
  const auto ii = h.call_ok(std::move(q)).get<IrqInfo>();
  ASSERT_TRUE(ii);
  EXPECT_EQ(ii->count, 32u);
  EXPECT_EQ(ii->flags,
            uint32_t(VFIO_IRQ_INFO_EVENTFD | VFIO_IRQ_INFO_NORESIZE | VFIO_IRQ_INFO_MASKABLE));
  // BAR 4 is the table's BAR, 16 KiB.
  Message ri = Harness::request(kDeviceGetRegionInfo);
  put(ri, RegionInfo{sizeof(RegionInfo), 0, VFIO_PCI_BAR4_REGION_INDEX, 0, 0, 0});
  EXPECT_EQ(h.call_ok(std::move(ri)).get<RegionInfo>()->size, 16384u);
}

TEST(VfioUserMsix, EventfdsForSeveralVectorsAndTheirLoopbackTrigger) {
  Harness h(rtl8125b());
  h.negotiate();
  Eventfds e(4);
  h.call_ok(set_irqs(kTrigger, 2, 4), e.fds);  // vectors 2..5
  for (unsigned v = 0; v < 8; v++)
    EXPECT_EQ(bar4(h, vector_control(h, v)), (v >= 2 && v <= 5) ? 0u : 1u)
        << "a trigger unmasks its entry; the others stay masked (power-on) " << v;
  // The client triggers vectors 3 and 5 itself (DATA_BOOL over 2..5).
  h.call_ok(set_irqs(VFIO_IRQ_SET_DATA_BOOL | VFIO_IRQ_SET_ACTION_TRIGGER, 2, 4, {0, 1, 0, 1}));
  EXPECT_EQ(Harness::drain(e.fds[0]), 0u);
  EXPECT_EQ(Harness::drain(e.fds[1]), 1u);
  EXPECT_EQ(Harness::drain(e.fds[2]), 0u);
  EXPECT_EQ(Harness::drain(e.fds[3]), 1u);
  // QEMU's -1 entries: a message without fds removes the triggers (masked again).
  h.call_ok(set_irqs(kTrigger, 3, 2));
  EXPECT_EQ(bar4(h, vector_control(h, 3)), 1u);
  EXPECT_EQ(bar4(h, vector_control(h, 2)), 0u);
  h.call_ok(set_irqs(VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_TRIGGER, 2, 2));
  EXPECT_EQ(Harness::drain(e.fds[0]), 1u);
  EXPECT_EQ(Harness::drain(e.fds[1]), 0u) << "its trigger is gone";
}

// r8169 on the RTL8125 with MSI-X: the TX interrupt arrives as the model's
// vector (0 for the TX queue today) on that vector's eventfd, not on MSI's.
TEST(VfioUserMsix, TxFrameSignalsItsVectorsEventfd) {
  Harness h(rtl8125b());
  h.negotiate();
  h.map_memory(kRam, kRamSize, true);
  const int msi = h.irq_eventfd(VFIO_PCI_MSI_IRQ_INDEX);
  Eventfds e(3);
  h.call_ok(set_irqs(kTrigger, 0, 3), e.fds);
  bring_up_tx(h, r::kTxOK);
  kick_one_frame(h, 0x25);
  const auto frames = wait_frames(h, 1);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0][14], 0x25);
  ASSERT_TRUE(wait_eventfd(e.fds[0], 2000)) << "vector 0 signalled";
  EXPECT_EQ(Harness::drain(e.fds[0]), 1u);
  EXPECT_EQ(Harness::drain(e.fds[1]), 0u);
  EXPECT_EQ(Harness::drain(e.fds[2]), 0u);
  EXPECT_EQ(Harness::drain(msi), 0u) << "MSI-X, not MSI";
  EXPECT_EQ(pba(h), 0u);
  // With MSI-X disabled again (count 0), the next one is the MSI.
  h.call_ok(set_irqs(VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_TRIGGER, 0, 0));
  h.set_reg(r::kIntrStatus8125, 4, r::kTxOK);
  kick_one_frame(h, 0x26);
  ASSERT_TRUE(wait_eventfd(msi, 2000));
  EXPECT_EQ(Harness::drain(e.fds[0]), 0u);
}

// A masked vector's message pends (its PBA bit) and is sent at unmask; one
// unmasked in the meantime by each of the three ways.
TEST(VfioUserMsix, MaskedVectorPendsAndFiresOnUnmask) {
  Harness h(rtl8125b());
  h.negotiate();
  h.map_memory(kRam, kRamSize, true);
  Eventfds e(1);
  h.call_ok(set_irqs(kTrigger, 0, 1), e.fds);
  bring_up_tx(h, r::kTxOK);
  const uint64_t ctl = h.identity().msix_offset + PCI_MSIX_FLAGS;
  enum Way { kTable, kSetIrqs, kFunctionMask };
  uint8_t tag = 0x30;
  for (const Way way : {kTable, kSetIrqs, kFunctionMask}) {
    SCOPED_TRACE(int(way));
    if (way == kTable) h.write_region(VFIO_PCI_BAR4_REGION_INDEX, vector_control(h, 0), 4, 1);
    if (way == kSetIrqs)
      h.call_ok(set_irqs(VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_MASK, 0, 1));
    if (way == kFunctionMask)
      h.write_region(VFIO_PCI_CONFIG_REGION_INDEX, ctl, 2,
                     PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL);
    kick_one_frame(h, tag++);
    ASSERT_EQ(wait_frames(h, 1).size(), 1u);
    EXPECT_FALSE(wait_eventfd(e.fds[0], 100)) << "masked: held back";
    EXPECT_EQ(pba(h), 1u) << "vector 0 pending";
    if (way == kTable) h.write_region(VFIO_PCI_BAR4_REGION_INDEX, vector_control(h, 0), 4, 0);
    if (way == kSetIrqs)
      h.call_ok(set_irqs(VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_UNMASK, 0, 1));
    if (way == kFunctionMask)
      h.write_region(VFIO_PCI_CONFIG_REGION_INDEX, ctl, 2, PCI_MSIX_FLAGS_ENABLE);
    ASSERT_TRUE(wait_eventfd(e.fds[0], 2000)) << "sent at unmask";
    EXPECT_EQ(Harness::drain(e.fds[0]), 1u);
    EXPECT_EQ(pba(h), 0u);
    h.set_reg(r::kIntrStatus8125, 4, r::kTxOK);  // acknowledge: the next edge is a new message
  }
}

// Address and Data are kept; Vector Control's reserved bits and the PBA are
// read-only; DEVICE_RESET masks the entries without a trigger and clears
// what is pending.
TEST(VfioUserMsix, TableAndPbaThroughTheBar) {
  Harness h(rtl8125b());
  h.negotiate();
  const uint64_t t = h.identity().msix_table_offset + 16 * 7;
  h.write_region(VFIO_PCI_BAR4_REGION_INDEX, t, 8, 0x00000001fee01000ull);
  h.write_region(VFIO_PCI_BAR4_REGION_INDEX, t + 8, 4, 0x4041);
  h.write_region(VFIO_PCI_BAR4_REGION_INDEX, t + 12, 4, 0xfffffffe);
  EXPECT_EQ(h.read_region(VFIO_PCI_BAR4_REGION_INDEX, t, 8), 0x00000001fee01000ull);
  EXPECT_EQ(bar4(h, t + 8), 0x4041u);
  EXPECT_EQ(bar4(h, t + 12), 0u) << "reserved bits stay 0; the mask bit was written 0";
  h.write_region(VFIO_PCI_BAR4_REGION_INDEX, h.identity().msix_pba_offset, 8, ~0ull);
  EXPECT_EQ(pba(h), 0u) << "the PBA is read-only";
  EXPECT_EQ(bar4(h, 0x3000), 0u) << "outside the table and PBA";
  h.call_ok(Harness::request(kDeviceReset));
  EXPECT_EQ(bar4(h, t + 12), 1u) << "masked again at reset";
  EXPECT_EQ(h.read_region(VFIO_PCI_BAR4_REGION_INDEX, t, 8), 0u);
}

// A client that enables the index before it has an eventfd (QEMU enables
// MSI-X with vector 0's fd -1): the model's message pends and arrives when
// the trigger is installed.
TEST(VfioUserMsix, MessageBeforeTheTriggerArrivesWhenItIsInstalled) {
  Harness h(rtl8125b());
  h.negotiate();
  h.map_memory(kRam, kRamSize, true);
  h.call_ok(set_irqs(kTrigger, 0, 1));  // enabled, no fd
  bring_up_tx(h, r::kTxOK);
  kick_one_frame(h, 0x40);
  ASSERT_EQ(wait_frames(h, 1).size(), 1u);
  EXPECT_EQ(pba(h), 1u);
  Eventfds e(1);
  h.call_ok(set_irqs(kTrigger, 0, 1), e.fds);
  ASSERT_TRUE(wait_eventfd(e.fds[0], 2000));
  EXPECT_EQ(pba(h), 0u);
}

// An entry a client unmasked through the table while it has no eventfd for
// it: the message has nowhere to go; it is counted, not kept pending.
TEST(VfioUserMsix, UnmaskedVectorWithoutEventfdIsCountedLost) {
  Harness h(rtl8125b());
  h.negotiate();
  h.map_memory(kRam, kRamSize, true);
  h.call_ok(set_irqs(kTrigger, 0, 1));  // enabled, no fd
  h.write_region(VFIO_PCI_BAR4_REGION_INDEX, vector_control(h, 0), 4, 0);
  bring_up_tx(h, r::kTxOK);
  kick_one_frame(h, 0x41);
  ASSERT_EQ(wait_frames(h, 1).size(), 1u);
  // TxOK in IntrStatus: the interrupt was raised, its message sent with it.
  for (int i = 0; i < 200 && !(h.reg(r::kIntrStatus8125, 4) & r::kTxOK); i++)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(pba(h), 0u);
  h.stop();
  EXPECT_EQ(h.server().device().irqs().msix().lost(), 1u);
  EXPECT_EQ(h.server().device().irqs().msix().signals(), 0u);
}

TEST(VfioUserMsix, BadSetIrqsGetErrors) {
  Harness h(rtl8125b());
  h.negotiate();
  Eventfds e(3);
  EXPECT_EQ(h.call_err(set_irqs(kTrigger, 30, 3), e.fds), EINVAL) << "beyond the table";
  EXPECT_EQ(h.call_err(set_irqs(kTrigger, 32, 1), {e.fds[0]}), EINVAL);
  EXPECT_EQ(h.call_err(set_irqs(kTrigger, 0xffffffffu, 2), {e.fds[0], e.fds[1]}), EINVAL)
      << "start + count wraps";
  EXPECT_EQ(h.call_err(set_irqs(kTrigger, 0, 3), {e.fds[0], e.fds[1]}), EINVAL)
      << "fewer fds than vectors";
  const int file = memfd_create("not-an-eventfd", MFD_CLOEXEC);
  EXPECT_EQ(h.call_err(set_irqs(kTrigger, 0, 2), {e.fds[0], file}), EINVAL) << "a regular file";
  close(file);
  EXPECT_EQ(
      h.call_err(set_irqs(VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_MASK, 0, 1), {e.fds[0]}),
      EINVAL)
      << "no mask notifier";
  EXPECT_EQ(h.call_err(set_irqs(VFIO_IRQ_SET_DATA_BOOL | VFIO_IRQ_SET_ACTION_UNMASK, 0, 4, {1})),
            EINVAL)
      << "BOOL data shorter than count";
  EXPECT_EQ(h.call_err(set_irqs(VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_TRIGGER, 1, 0)),
            EINVAL)
      << "a disable starts at 0";
  // Nothing was installed by the refused requests.
  EXPECT_EQ(bar4(h, vector_control(h, 0)), 1u);
  // The 8168 profiles have no MSI-X vectors.
  Harness c;
  c.negotiate();
  EXPECT_EQ(c.call_err(set_irqs(kTrigger, 0, 1), {e.fds[0]}), EINVAL);
  Message ri = Harness::request(kDeviceGetRegionInfo);
  put(ri, RegionInfo{sizeof(RegionInfo), 0, VFIO_PCI_BAR4_REGION_INDEX, 0, 0, 0});
  EXPECT_EQ(c.call_ok(std::move(ri)).get<RegionInfo>()->size, 0u);
}

}  // namespace
}  // namespace vfio_user_test
