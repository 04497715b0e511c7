// SPDX-License-Identifier: GPL-2.0-or-later
// Frames that left the wire during an entry point, handed to the host's
// transmit() only once the entry point has finished its work (rtl8168.h,
// "Re-entrancy").
//
// Why: a host's network back end may answer a frame synchronously from
// inside transmit() -- QEMU's slirp ACKs a TCP segment by delivering a frame
// straight back into rtl8168_receive(). Called in the middle of the event
// loop, that nested entry point advanced `now` past the outer loop's bound:
// the outer loop then stopped, the engine's next events waited for the host
// timer, and every frame after the first of a doorbell left one host timer
// round trip later (functional-mode TX throughput fell to a third). Here the
// state machine has completed everything due at `now` before the first frame
// leaves, so a nested call sees a consistent device.
//
// Frames keep their order: a drain that a nested entry point starts while an
// outer drain is running returns at once, and the outer loop sends what the
// nested one queued. Buffers are swapped in and out, never copied, and keep
// their capacity. The outbox is empty between entry points, so it is not part
// of the saved state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace rtl8168sim {

class TxOutbox {
 public:
  // Takes the frame's bytes (the caller's vector gets a spare buffer back).
  void push(std::vector<uint8_t>& frame) {
    if (count_ == frames_.size()) frames_.emplace_back();
    std::swap(frames_[count_], frame);
    count_++;
  }
  bool empty() const { return count_ == next_; }
  size_t pending() const { return count_ - next_; }

  // send(const uint8_t*, size_t) for every queued frame, oldest first. A
  // nested drain (send() re-entered the device) leaves the rest to this loop.
  template <class Send>
  void drain(Send&& send) {
    if (draining_) return;
    draining_ = true;
    while (next_ < count_) {
      // Index, not reference: a nested push may grow frames_ (moving a
      // vector keeps its buffer, so the pointer passed on stays valid).
      const size_t i = next_++;
      send(frames_[i].data(), frames_[i].size());
    }
    count_ = next_ = 0;
    draining_ = false;
  }

  void clear() {
    if (!draining_) count_ = next_ = 0;
  }

 private:
  std::vector<std::vector<uint8_t>> frames_;
  size_t count_ = 0;  // frames queued (slots 0..count_-1)
  size_t next_ = 0;   // next to send
  bool draining_ = false;
};

}  // namespace rtl8168sim
