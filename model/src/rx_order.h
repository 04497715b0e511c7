// SPDX-License-Identifier: GPL-2.0-or-later
// RX hand-off order gate: see model/include/rtl8168/rx_order.h for the
// contract with the host. Independent of Device: it sees the model only
// through ops.ready (rtl8168_can_receive) and the host through ops.flush.
#pragma once

#include <rtl8168/rx_order.h>

#include <cstddef>

namespace rtl8168sim {

class RxOrder {
 public:
  // Drain rounds per drain; a drain not done by then is retried after the
  // next model call (a host that refuses forever cannot loop us).
  static constexpr int kDrainRounds = 4;

  explicit RxOrder(const rtl8168_rx_order_ops& ops) : ops_(ops) {}

  void begin() { busy_++; }
  void end();
  void end_receive(size_t taken);
  void rx_ready() { flush_pending_ = true; }
  bool can_receive();

  bool backlog() const { return backlog_; }
  bool flush_pending() const { return flush_pending_; }
  unsigned depth() const { return busy_; }

 private:
  void drain();

  rtl8168_rx_order_ops ops_;
  unsigned busy_ = 0;           // inside a model call or a drain
  bool flush_pending_ = false;  // drain once the current call returns
  bool backlog_ = false;        // a frame may be waiting in a host queue for us
};

}  // namespace rtl8168sim
