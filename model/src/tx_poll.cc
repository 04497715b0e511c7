// SPDX-License-Identifier: GPL-2.0-or-later
#include "tx_poll.h"

#include "device.h"

namespace rtl8168sim {

namespace {
// A loaded deadline further ahead than the longest txpoll-ack-time
// (config.cc: 0..1'000'000 ns) is not one a doorbell could have set.
constexpr Time kMaxAckTime = 1'000'000;
}  // namespace

void TxPoll::reset() { npq_until_ = hpq_until_ = 0; }

// The doorbell bits of the profile's TX rows (ring_spec.h), the higher
// queue first: HPQ before NPQ, so a write of both starts an idle, enabled
// engine on the high priority ring, and the NPQ doorbell then finds it busy
// (lost under lossy-txpoll, latched otherwise; TxEngine::doorbell).
//
// Under aspm-l1-txpoll-lost (quirks.h), a write that found the link in L1
// reads back like any doorbell but never reaches the TX engine.
void TxPoll::on_write(uint8_t written, bool link_was_l1) {
  const Time ack = d_.timing().txpoll_ack_time;
  const bool lost = link_was_l1 && d_.config().quirks.aspm_l1_txpoll_lost;
  for (unsigned q = d_.tx.queues(); q-- > 0;) {
    if (!(written & d_.tx.ring_spec(q).doorbell)) continue;
    (q == static_cast<unsigned>(TxQueue::Hpq) ? hpq_until_ : npq_until_) = d_.now() + ack;
    if (lost) {
      d_.stats.tx_doorbells++;
      d_.stats.tx_doorbells_lost_l1++;
      d_.trace.doorbell_lost_l1(q);
      continue;
    }
    d_.tx.doorbell(static_cast<TxQueue>(q));
  }
  const uint8_t sw_int = d_.config().profile->txpoll.sw_int;
  if (written & sw_int) d_.irq.raise(reg::SWInt);
}

// The rings' doorbell bits read back for txpoll-ack-time (the 8168's NPQ
// 0x40 / HPQ 0x80; the 8125's queue bits 0 / 1 of 0x90).
uint8_t TxPoll::read() const {
  const Time now = d_.now();
  const unsigned poll = (now < npq_until_ ? d_.tx.ring_spec(0).doorbell : 0u) |
                        (now < hpq_until_ ? d_.tx.ring_spec(1).doorbell : 0u);
  return static_cast<uint8_t>(d_.regs.u8(d_.config().profile->txpoll.offset) | poll);
}

// Blob position: after the trace hash and count, before the pending events
// (device_state.cc); NPQ first, 8 bytes each.
void TxPoll::visit(Archive& a) {
  a.io(npq_until_);
  a.io(hpq_until_);
}

const char* TxPoll::check(Time now) const {
  if (npq_until_ > now + kMaxAckTime || hpq_until_ > now + kMaxAckTime) {
    return "TxPoll read-back too far ahead";
  }
  return nullptr;
}

}  // namespace rtl8168sim
