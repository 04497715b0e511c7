// SPDX-License-Identifier: GPL-2.0-or-later
// The function's interrupts as vfio-pci presents them (VFIO_PCI_*_IRQ_INDEX):
// INTx (one, maskable, automasked: a trigger masks it until the client's
// UNMASK, which re-triggers while the line is still asserted: the level
// semantics of the kernel's vfio-pci, which QEMU's vfio client drives the
// same way: it asserts the pin on the eventfd, deasserts and unmasks at the
// next BAR access), MSI (one vector, eventfd), MSI-X (one eventfd per table
// entry, msix.h; count 0 for the profiles without it), and the error and
// request notifiers (one eventfd each, accepted so the client sets up AER
// and device request; this device never signals them). Eventfds are checked
// to be eventfds: a client passing a regular file must not get it written to.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "msix.h"
#include "protocol.h"
#include "unique_fd.h"

namespace vfio_user {

class Irqs {
 public:
  static constexpr uint32_t kCount = VFIO_PCI_NUM_IRQS;

  explicit Irqs(const rtl8168_pci_identity& id) : msix_(id) {}

  // VFIO_USER_DEVICE_GET_IRQ_INFO for index (false: no such index).
  bool info(uint32_t index, IrqInfo& out) const;

  // VFIO_USER_DEVICE_SET_IRQS: 0 or the errno of the error reply. `data` is
  // the payload after the struct, `fds` the descriptors that came with it.
  int set(const IrqSet& req, std::span<const uint8_t> data, std::vector<UniqueFd>& fds);

  // From the model.
  void set_intx_level(bool level);
  void msi_notify();
  // Whether MSI is in use: its trigger eventfd is set (QEMU sets it when the
  // guest enables MSI in the capability it emulates, and clears it again on
  // disable).
  bool msi_active() const { return msi_.valid(); }
  Msix& msix() { return msix_; }
  const Msix& msix() const { return msix_; }
  void reset_intx() { level_ = false; }

  // Drop every eventfd (client gone), keep the device state.
  void clear();

  // Counters for tests and the exit line.
  uint64_t intx_signals() const { return intx_signals_; }
  uint64_t msi_signals() const { return msi_signals_; }
  bool intx_masked() const { return masked_; }
  // The eventfd the client signals to unmask INTx (KVM's resample fd), or -1.
  int intx_unmask_fd() const { return unmask_fd_.get(); }
  void unmask_intx();

 private:
  void signal(const UniqueFd& fd, uint64_t& counter);
  int set_intx(const IrqSet& req, std::span<const uint8_t> data, std::vector<UniqueFd>& fds);

  UniqueFd intx_, unmask_fd_, msi_, err_, req_;
  Msix msix_;
  bool level_ = false, masked_ = false;
  uint64_t intx_signals_ = 0, msi_signals_ = 0;
};

}  // namespace vfio_user
