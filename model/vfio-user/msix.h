// SPDX-License-Identifier: GPL-2.0-or-later
// The function's MSI-X (PCI Local Bus 3.0 section 6.8.2) for the profiles
// that have it (the RTL8125B: 32 entries, table and PBA in BAR 4), as the
// server side of vfio-user sees it. The client delivers the messages: one
// eventfd per vector, installed with SET_IRQS on VFIO_PCI_MSIX_IRQ_INDEX
// (QEMU's vfio_enable_vectors), and QEMU's client emulates the guest's view
// of the table itself (msix_init over the BAR) and forwards only PBA reads
// to the server (hw/vfio-user/pci.c vfio_user_pba_read: the server keeps the
// device's pending interrupts). The server keeps the device's own table and
// PBA behind the BAR:
// - an entry's Mask bit holds its vector back: a message while masked sets
//   the vector's Pending bit, and unmasking sends it and clears the bit
//   (6.8.2.9); the Function Mask of Message Control holds back every vector
//   the same way.
// - entries are masked at power-on and reset. The host side programs them:
//   installing a vector's trigger eventfd unmasks its entry, removing the
//   trigger masks it again (what the host kernel's vfio-pci does to a
//   physical function's table when it requests and frees the vector's IRQ);
//   SET_IRQS MASK / UNMASK and writes to the table through the BAR set and
//   clear the bit directly (a client that does not emulate the table).
// - Address and Data are kept and read back; the eventfd is the message.
// The index is enabled from the first eventfd SET_IRQS (even with no fds:
// QEMU enables MSI-X with vector 0's fd -1 before any vector is in use)
// until a count-0 disable, as vfio-pci's interrupt type.
#pragma once

#include <rtl8168/rtl8168.h>

#include <cstdint>
#include <span>
#include <vector>

#include "unique_fd.h"

namespace vfio_user {

class Msix {
 public:
  static constexpr uint32_t kEntrySize = 16;  // Address, Upper Address, Data, Vector Control
  static constexpr uint32_t kVectorControl = 12;
  static constexpr uint32_t kMaskBit = 1;  // Vector Control bit 0; 31:1 reserved

  // id.msix_vectors 0: the function has no MSI-X.
  explicit Msix(const rtl8168_pci_identity& id);

  uint16_t vectors() const { return uint16_t(entries_.size()); }
  bool enabled() const { return enabled_; }

  // SET_IRQS on vectors [start, start + count) (the caller checked the
  // range, the flags, the data's length and the fds' kind and number):
  // 0 or the errno of the error reply.
  int set(uint32_t action, uint32_t dtype, uint32_t start, uint32_t count,
          std::span<const uint8_t> data, std::vector<UniqueFd>& fds);
  // SET_IRQS count 0: the index is off, every trigger dropped.
  void disable();

  // The model sends vector `vector` (below vectors()).
  void notify(unsigned vector);

  // BAR accesses at `off` inside the BAR (the caller checked the range):
  // the table and the PBA where the profile puts them, zeros elsewhere.
  void read(uint64_t off, uint32_t count, uint8_t* out) const;
  void write(uint64_t off, uint32_t count, const uint8_t* data);

  // Message Control's Function Mask, as the configuration space holds it.
  void set_function_mask(bool masked);
  // Device reset: the table at power-on (entries with a trigger stay
  // unmasked: the host side keeps them programmed), nothing pending.
  void reset();
  // The client went away: its eventfds are dropped (their entries masked),
  // what is pending stays.
  void clear();

  bool masked(unsigned vector) const;
  bool pending(unsigned vector) const { return entries_[vector].pending; }
  uint64_t signals() const { return signals_; }
  // Messages of unmasked vectors without a trigger (no one to deliver to).
  uint64_t lost() const { return lost_; }

 private:
  struct Entry {
    uint8_t bytes[kEntrySize] = {};
    UniqueFd trigger;
    bool pending = false;
  };
  void set_mask(Entry& e, bool masked);
  void deliver(Entry& e);  // send now, or pend while masked
  uint8_t pba_byte(uint64_t off) const;

  std::vector<Entry> entries_;
  uint64_t table_offset_, pba_offset_;
  bool enabled_ = false, function_mask_ = false;
  uint64_t signals_ = 0, lost_ = 0;
};

}  // namespace vfio_user
