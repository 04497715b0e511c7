// SPDX-License-Identifier: GPL-2.0-or-later
// RX hand-off order gate (model/include/rtl8168/rx_order.h): the state
// machine that was hw/net/rtl8168.c's "RX order" section, moved here
// unchanged so it is unit-tested without QEMU (model/tests/rx_order_test.cc)
// and the shim keeps only QEMU glue.
#include "rx_order.h"

namespace rtl8168sim {

// A drain never nests: the outer one repeats.
void RxOrder::drain() {
  if (busy_) {
    flush_pending_ = true;
    return;
  }
  busy_++;
  int round;
  for (round = 0; round < kDrainRounds && (backlog_ || flush_pending_); round++) {
    flush_pending_ = false;
    if (!ops_.ready(ops_.opaque)) {
      // The FIFO is full: the model owes us an rx_ready().
      backlog_ = true;
      break;
    }
    backlog_ = false;
    ops_.flush(ops_.opaque);  // may set backlog_ again
  }
  if (round == kDrainRounds && (backlog_ || flush_pending_)) {
    flush_pending_ = true;  // not done: again after the next call
  }
  busy_--;
}

void RxOrder::end() {
  busy_--;
  if (!busy_ && flush_pending_) drain();
}

void RxOrder::end_receive(size_t taken) {
  busy_--;
  if (taken == 0) backlog_ = true;
}

bool RxOrder::can_receive() {
  if (busy_) {
    // Offered from inside a model call or a drain: queue it behind what may
    // be waiting (a drain's hub flush lands here) and drain after.
    backlog_ = true;
    flush_pending_ = true;
    return false;
  }
  if (backlog_) {
    drain();
    if (backlog_) return false;
  }
  busy_++;
  bool ready = ops_.ready(ops_.opaque);
  busy_--;
  if (ready && backlog_) {
    // A frame was refused while the model ran: deliver it first.
    drain();
    ready = !backlog_;
  }
  if (!ready) backlog_ = true;
  return ready;
}

}  // namespace rtl8168sim

struct rtl8168_rx_order {
  explicit rtl8168_rx_order(const rtl8168_rx_order_ops& ops) : gate(ops) {}
  rtl8168sim::RxOrder gate;
};

extern "C" {

rtl8168_rx_order* rtl8168_rx_order_new(const rtl8168_rx_order_ops* ops) {
  return new rtl8168_rx_order(*ops);
}
void rtl8168_rx_order_free(rtl8168_rx_order* o) { delete o; }
void rtl8168_rx_order_begin(rtl8168_rx_order* o) { o->gate.begin(); }
void rtl8168_rx_order_end(rtl8168_rx_order* o) { o->gate.end(); }
void rtl8168_rx_order_end_receive(rtl8168_rx_order* o, size_t taken) { o->gate.end_receive(taken); }
void rtl8168_rx_order_rx_ready(rtl8168_rx_order* o) { o->gate.rx_ready(); }
bool rtl8168_rx_order_can_receive(rtl8168_rx_order* o) { return o->gate.can_receive(); }
bool rtl8168_rx_order_backlog(const rtl8168_rx_order* o) { return o->gate.backlog(); }
bool rtl8168_rx_order_flush_pending(const rtl8168_rx_order* o) { return o->gate.flush_pending(); }
unsigned rtl8168_rx_order_depth(const rtl8168_rx_order* o) { return o->gate.depth(); }

}  // extern "C"
