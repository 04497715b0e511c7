// SPDX-License-Identifier: GPL-2.0-or-later
// The on-chip FIFOs' frame queue, shared by the TX and RX engines: a ring
// of entries in arrival order that grows (keeping order) when full and
// whose entries keep their buffers' capacity when recycled, so the steady
// state allocates nothing per frame. Byte occupancy (the FIFO's size limit)
// is the engines' business; this is only the ordered queue.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rtl8168sim {

template <typename Entry>
class FifoRing {
 public:
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  // i-th entry from the head (0 = oldest).
  Entry& at(size_t i) { return slots_[(head_ + i) % slots_.size()]; }
  const Entry& at(size_t i) const { return slots_[(head_ + i) % slots_.size()]; }
  Entry& front() { return at(0); }
  const Entry& front() const { return at(0); }
  // A slot at the tail; the caller fills every field (the slot may hold a
  // recycled entry's old values).
  Entry& push_back() {
    if (count_ == slots_.size()) grow();
    Entry& e = slots_[(head_ + count_) % slots_.size()];
    count_++;
    return e;
  }
  void pop_back() { count_--; }  // undo the last push_back()
  void pop_front() {
    head_ = (head_ + 1) % slots_.size();
    count_--;
  }
  void clear() { head_ = count_ = 0; }
  // Empty, with room for n entries without growing (state load).
  void reset(size_t n) {
    slots_.assign(std::max<size_t>(kMinSlots, n), Entry{});
    head_ = count_ = 0;
  }

 private:
  static constexpr size_t kMinSlots = 8;
  void grow() {
    std::vector<Entry> bigger(std::max(kMinSlots, slots_.size() * 2));
    for (size_t i = 0; i < count_; i++) bigger[i] = std::move(at(i));
    slots_ = std::move(bigger);
    head_ = 0;
  }
  std::vector<Entry> slots_;
  size_t head_ = 0, count_ = 0;
};

}  // namespace rtl8168sim
