// SPDX-License-Identifier: GPL-2.0-or-later
#include "msix.h"

#include <linux/vfio.h>

#include <cerrno>

#include "eventfd.h"

namespace vfio_user {

Msix::Msix(const rtl8168_pci_identity& id)
    : entries_(id.msix_vectors),
      table_offset_(id.msix_table_offset),
      pba_offset_(id.msix_pba_offset) {
  for (Entry& e : entries_) e.bytes[kVectorControl] = kMaskBit;
}

bool Msix::masked(unsigned vector) const {
  return function_mask_ || (entries_[vector].bytes[kVectorControl] & kMaskBit);
}

void Msix::deliver(Entry& e) {
  if (masked(unsigned(&e - entries_.data()))) {
    e.pending = true;
  } else if (signal_eventfd(e.trigger)) {
    signals_++;
  } else if (!e.trigger.valid()) {
    lost_++;
  }
}

// Clearing a mask sends what it held back and clears the Pending bit (Vector
// Control, 6.8.2.9).
void Msix::set_mask(Entry& e, bool mask) {
  e.bytes[kVectorControl] = mask ? kMaskBit : 0;
  if (!mask && e.pending && !masked(unsigned(&e - entries_.data()))) {
    e.pending = false;
    deliver(e);
  }
}

int Msix::set(uint32_t action, uint32_t dtype, uint32_t start, uint32_t count,
              std::span<const uint8_t> data, std::vector<UniqueFd>& fds) {
  const auto chosen = [&](uint32_t i) { return dtype != VFIO_IRQ_SET_DATA_BOOL || data[i]; };
  switch (action) {
    case VFIO_IRQ_SET_ACTION_TRIGGER:
      if (dtype == VFIO_IRQ_SET_DATA_EVENTFD) {
        // No fds: the client's -1 for each vector of the range (QEMU sends
        // runs of unused vectors that way): their triggers go.
        enabled_ = true;
        for (uint32_t i = 0; i < count; i++) {
          Entry& e = entries_[start + i];
          e.trigger = fds.empty() ? UniqueFd() : std::move(fds[i]);
          set_mask(e, !e.trigger.valid());
        }
        return 0;
      }
      // The client triggers the vectors itself (loopback through the eventfds).
      for (uint32_t i = 0; i < count; i++)
        if (chosen(i) && signal_eventfd(entries_[start + i].trigger)) signals_++;
      return 0;
    case VFIO_IRQ_SET_ACTION_MASK:
    case VFIO_IRQ_SET_ACTION_UNMASK:
      if (dtype == VFIO_IRQ_SET_DATA_EVENTFD) return EINVAL;  // no mask notifiers
      for (uint32_t i = 0; i < count; i++)
        if (chosen(i)) set_mask(entries_[start + i], action == VFIO_IRQ_SET_ACTION_MASK);
      return 0;
    default:
      return EINVAL;
  }
}

void Msix::disable() {
  enabled_ = false;
  for (Entry& e : entries_) {
    e.trigger.reset();
    e.bytes[kVectorControl] = kMaskBit;
    e.pending = false;
  }
}

void Msix::notify(unsigned vector) {
  if (vector < entries_.size()) deliver(entries_[vector]);
}

// The PBA: one bit per vector in QWORDs (Pending Bits, 6.8.2.10).
uint8_t Msix::pba_byte(uint64_t off) const {
  uint8_t v = 0;
  for (unsigned bit = 0; bit < 8; bit++) {
    const uint64_t vector = off * 8 + bit;
    if (vector < entries_.size() && entries_[vector].pending) v |= uint8_t(1u << bit);
  }
  return v;
}

void Msix::read(uint64_t off, uint32_t count, uint8_t* out) const {
  const uint64_t table_end = table_offset_ + entries_.size() * kEntrySize;
  const uint64_t pba_end = pba_offset_ + (entries_.size() + 63) / 64 * 8;
  for (uint32_t i = 0; i < count; i++) {
    const uint64_t a = off + i;
    if (a >= table_offset_ && a < table_end)
      out[i] = entries_[(a - table_offset_) / kEntrySize].bytes[(a - table_offset_) % kEntrySize];
    else if (a >= pba_offset_ && a < pba_end)
      out[i] = pba_byte(a - pba_offset_);
    else
      out[i] = 0;
  }
}

// Table writes store Address, Upper Address and Data as written and the Mask
// bit of Vector Control (its reserved bits stay 0); the PBA is read-only and
// the rest of the BAR reserved.
void Msix::write(uint64_t off, uint32_t count, const uint8_t* data) {
  const uint64_t table_end = table_offset_ + entries_.size() * kEntrySize;
  for (uint32_t i = 0; i < count; i++) {
    const uint64_t a = off + i;
    if (a < table_offset_ || a >= table_end) continue;
    Entry& e = entries_[(a - table_offset_) / kEntrySize];
    const uint64_t b = (a - table_offset_) % kEntrySize;
    if (b < kVectorControl)
      e.bytes[b] = data[i];
    else if (b == kVectorControl)
      set_mask(e, data[i] & kMaskBit);
  }
}

void Msix::set_function_mask(bool masked_all) {
  function_mask_ = masked_all;
  if (masked_all) return;
  for (Entry& e : entries_) set_mask(e, e.bytes[kVectorControl] & kMaskBit);
}

void Msix::reset() {
  for (Entry& e : entries_) {
    for (uint8_t& b : e.bytes) b = 0;
    e.bytes[kVectorControl] = e.trigger.valid() ? 0 : kMaskBit;
    e.pending = false;
  }
}

void Msix::clear() {
  enabled_ = false;
  for (Entry& e : entries_) {
    e.trigger.reset();
    e.bytes[kVectorControl] = kMaskBit;
  }
}

}  // namespace vfio_user
