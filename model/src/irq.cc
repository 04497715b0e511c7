// SPDX-License-Identifier: GPL-2.0-or-later
#include "irq.h"

#include <bit>

#include "device.h"

namespace rtl8168sim {

void Irq::reset() {
  int_level_ = false;
  v2_ = false;
  vec_level_ = 0;
  queues.reset();
  if (intx_asserted_) d_.set_intx(0);
  intx_asserted_ = false;
  d_.cancel(EventKind::MitigationTimer);
  for (Moderation& m : mod_) {
    m.pending = 0;
    m.gen++;
    m.timer_armed = false;
  }
}

uint64_t Irq::mitigation_timer_arg(unsigned which) const {
  return which | static_cast<uint64_t>(mod_[which].gen) << 1;
}

// IntrStatus / IntrMask where the profile puts them (profile.h IrqRegs).
uint32_t Irq::reg_value(uint16_t off) const {
  return d_.config().profile->irq.width == 4 ? d_.regs.u32(off) : d_.regs.u16(off);
}

uint32_t Irq::status() const { return reg_value(d_.config().profile->irq.status); }

void Irq::raise(uint32_t bits) {
  const IrqRegs& r = d_.config().profile->irq;
  if (v2_mode()) {
    // Queue 0's events that have a message of their own (irq_queues.h).
    uint32_t v2 = 0;
    if (bits & reg::RxOK) v2 |= IrqQueues::kRxOk0;
    if (bits & reg::TxOK) v2 |= IrqQueues::kTxOk0;
    if (bits & reg::LinkChg) v2 |= IrqQueues::kLinkChg;
    queues.latch_v2(v2);
    bits &= ~uint32_t{reg::RxOK | reg::TxOK | reg::LinkChg};
  }
  if (r.width == 4) {
    d_.regs.set32(r.status, status() | bits);
  } else {
    d_.regs.set16(r.status, static_cast<uint16_t>(status() | bits));
  }
  update();
}

bool Irq::v2_mode() const {
  return queues.modelled() && (d_.regs.u8(reg::INT_CFG0_8125) & reg::IntCfg0Enable8125);
}

bool Irq::asserted() const {
  if (v2_mode()) return queues.v2_active() != 0;
  return (status() & reg_value(d_.config().profile->irq.mask)) != 0 || queues.v1_active();
}

void Irq::raise_rx_unavailable(unsigned queue) {
  if (queue == 0) {
    raise(reg::RxOverflow | reg::RxFIFOOver);
    return;
  }
  queues.latch_queue(queue, IrqQueues::kRxDu1);
  raise(reg::RxFIFOOver);
}

void Irq::update() {
  if (v2_mode()) {
    update_v2();
    return;
  }
  v2_ = false;
  vec_level_ = 0;
  const uint32_t isr = status(), imr = reg_value(d_.config().profile->irq.mask);
  const bool level = (isr & imr) != 0 || queues.v1_active();
  const bool msi = d_.msi_enabled();
  if (level && !int_level_ && msi) {
    // One message per 0->1 edge of INT, never while INT stays high.
    d_.stats.msi_sent++;
    d_.trace.irq_msi(isr, imr);
    d_.msi_notify();
  }
  set_level(level, msi, isr, imr);
}

// INTx follows INT while no MSI is enabled.
void Irq::set_level(bool level, bool msi, uint32_t isr, uint32_t imr) {
  int_level_ = level;
  const bool want_intx = level && !msi;
  if (want_intx != intx_asserted_) {
    intx_asserted_ = want_intx;
    if (want_intx) d_.stats.intx_edges++;
    d_.trace.irq_level(want_intx, isr, imr);
    d_.set_intx(want_intx ? 1 : 0);
  }
}

// Each message has its own INT: a 0->1 edge of ISR_V2 & IMR_V2 bit n sends
// message n (MSI-X entry n; r8125 rtl8125_interrupt_msix), lowest first.
// INTx, when no MSI is enabled, is the OR of them all.
void Irq::update_v2() {
  v2_ = true;
  const uint32_t isr = queues.isr_v2(), imr = queues.imr_v2();
  const uint32_t active = isr & imr;
  const bool msi = d_.msi_enabled();
  if (msi) {
    for (uint32_t rising = active & ~vec_level_; rising != 0; rising &= rising - 1) {
      const auto vector = static_cast<unsigned>(std::countr_zero(rising));
      d_.stats.msi_sent++;
      d_.trace.irq_msix(vector, isr, imr);
      d_.msi_notify(vector);
    }
  }
  vec_level_ = active;
  set_level(active != 0, msi, isr, imr);
}

void Irq::on_int_cfg0_write() {
  if (v2_mode() != v2_) update();
}

// r8169's handler reads IntrStatus, handles what it read and acks exactly
// that (rtl8169_interrupt: rtl_get_events ... rtl_ack_events(tp, status));
// an event the chip latches between the read and the ack, or right after the
// ack, is the race the pre-2009 handler lost (docs/HISTORY.md §2). The
// irq-race fault makes one happen at each read or ack.
void Irq::on_status_read() { d_.faults.irq_race(false); }

void Irq::on_status_ack() {
  update();
  d_.faults.irq_race(true);
}

// Timer unit per INTT (CPlusCmd 1:0), r8169 rtl_coalesce_info_8168_8136:
// COALESCE_DELAY(5120) at 1000 Mbit/s = {5120, 40960, 81920, 163840} ns;
// 100 Mbit/s uses half of that and 10 Mbit/s eight times it.
uint64_t Irq::timer_unit_ns() const {
  const unsigned intt = d_.regs.u16(reg::CPlusCmd) & reg::INTT_MASK;
  const uint64_t unit = kTimerUnit1000[intt];
  return d_.phy.speed_mbps() == 100 ? unit / 2 : d_.phy.speed_mbps() == 10 ? unit * 8 : unit;
}

unsigned Irq::mitigate_field(unsigned which) const {
  return (d_.regs.u16(reg::IntrMitigate) >> (which == 0 ? 0 : 8)) & 0xff;
}

// Queue 0's event is RxOK / TxOK (raise() moves it to ISR_V2 in v2 mode).
// RX queues 1-3 report RxOK1 in their ISR (v1) or their own ISR_V2 bit (v2);
// TX queue 1 reports TxOK (v1: r8169's HPQ, the 8168's high queue, does the
// same) or ISR_V2 bit 18 (v2).
void Irq::raise_event(unsigned which, unsigned queue) {
  if (queue == 0) {
    raise(which == 0 ? reg::RxOK : reg::TxOK);
  } else if (v2_mode()) {
    queues.latch_v2(which == 0 ? IrqQueues::kRxOk0 << queue : IrqQueues::kTxOk1);
    update();
  } else if (which == 0 && queues.modelled()) {
    queues.latch_queue(queue, IrqQueues::kRxOk1);
    update();
  } else {
    raise(which == 0 ? reg::RxOK : reg::TxOK);
  }
}

void Irq::raise_moderated(Moderated event, unsigned queue) {
  const auto which = static_cast<unsigned>(event);
  const unsigned field = mitigate_field(which);
  const unsigned frames = (field & 0xf) * 4;
  const unsigned timer = field >> 4;
  Moderation& m = mod_[which];
  if (field == 0) {
    raise_event(which, queue);
    return;
  }
  m.pending++;
  if (frames != 0 && m.pending >= frames) {
    flush(which);
    return;
  }
  if (timer != 0 && !m.timer_armed) {
    m.timer_armed = true;
    d_.schedule_in(timer * timer_unit_ns(), EventKind::MitigationTimer, mitigation_timer_arg(which));
  }
}

void Irq::flush(unsigned which) {
  Moderation& m = mod_[which];
  if (m.timer_armed) d_.cancel(EventKind::MitigationTimer, mitigation_timer_arg(which));
  m.pending = 0;
  m.gen++;
  m.timer_armed = false;
  raise(which == 0 ? reg::RxOK : reg::TxOK);
}

void Irq::on_mitigation_timer(uint64_t arg) {
  const unsigned which = arg & 1;
  if (static_cast<uint32_t>(arg >> 1) != mod_[which].gen) return;  // stale
  mod_[which].timer_armed = false;
  if (mod_[which].pending) flush(which);
}

void Irq::on_mitigate_write() {
  // Releasing held events when moderation is turned off keeps none stranded.
  for (unsigned which = 0; which < 2; which++) {
    if (mitigate_field(which) == 0 && mod_[which].pending) flush(which);
  }
}


void Irq::visit(Archive& a) {
  a.io(int_level_);
  a.io(intx_asserted_);
  for (Moderation& m : mod_) {
    a.io(m.pending);
    a.io(m.gen);
    a.io(m.timer_armed);
  }
}

void Irq::visit_queues(Archive& a) {
  a.io(v2_);
  a.io(vec_level_);
  queues.visit(a);
}

// INT is a function of the registers; the blob's copy must agree, and the
// INTx line can only be asserted while INT is high. Events are held back
// only while that direction's IntrMitigate field is non-zero
// (raise_moderated), and clearing it releases them (on_mitigate_write).
// In ISR v2 mode the per-message levels are ISR_V2 & IMR_V2 (every change
// of either, and every INT_CFG0 switch, re-evaluates them), and INT is
// their OR; in v1 mode there are none.
const char* Irq::check() const {
  if (const char* why = queues.check()) return why;
  if (v2_ != v2_mode()) return "ISR version disagrees with INT_CFG0";
  if (v2_ ? vec_level_ != queues.v2_active() : vec_level_ != 0)
    return "per-message interrupt levels disagree with ISR_V2 & IMR_V2";
  const bool level = asserted();
  if (level != int_level_) return "INT level disagrees with IntrStatus & IntrMask";
  if (intx_asserted_ && !int_level_) return "INTx asserted while INT is low";
  for (unsigned which = 0; which < 2; which++) {
    if (mitigate_field(which) == 0 && mod_[which].pending)
      return "interrupt events held back with moderation off";
  }
  return nullptr;
}

// One timer per direction while armed; its argument carries the direction
// and the generation (mitigation_timer_arg).
std::span<const EventSpec> Irq::events() {
  static constexpr EventSpec kEvents[] = {
      {.kind = EventKind::MitigationTimer,
       .run = [](Device& d, uint64_t arg) { d.irq.on_mitigation_timer(arg); },
       .max_delay = [](const Device&) -> Time { return kMaxTimerDelay; },
       .pending = [](const Device& d, unsigned which) { return pending_if(d.irq.mitigation_timer_armed(which)); },
       .mismatch = "mitigation timer state inconsistent",
       .instances = 2,
       .instance_arg = [](const Device& d, unsigned which) { return d.irq.mitigation_timer_arg(which); },
       .pullable = true},
  };
  return kEvents;
}

}  // namespace rtl8168sim
