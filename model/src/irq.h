// SPDX-License-Identifier: GPL-2.0-or-later
// The interrupt controller: IntrStatus (W1C) and IntrMask live in the
// register file; INT = (IntrStatus & IntrMask) != 0. INTx follows INT as a
// level. An MSI message is sent on every 0->1 edge of INT, including an
// edge caused by an IntrMask write while status bits are latched, and only
// then: a handler that leaves any enabled bit set never gets another MSI
// (docs/HISTORY.md §2; docs/R8169.md §4). RxOK/TxOK pass through IntrMitigate.
//
// The RTL8125B adds per-queue registers (irq_queues.h). With INT_CFG0 bit 0
// (ISR v2) INT is ISR_V2 & IMR_V2 instead, and each of its bits is its own
// message: a 0->1 edge of bit n sends MSI-X entry n (with MSI the host
// sends its one message for every edge). In ISR v1, RX queues 1-3 report in
// ISR1-ISR3, which count in INT beside IntrStatus; every message is vector 0.
#pragma once

#include <array>
#include <cstdint>

#include "events.h"
#include "irq_queues.h"
#include "state_io.h"

namespace rtl8168sim {

class Device;

class Irq {
 public:
  // Its events: handlers, longest delays, when each is pending (events.h).
  static std::span<const EventSpec> events();
  Irq(Device& d, const ChipProfile& p) : queues(p), d_(d) {}
  void reset();
  // Latch IntrStatus bits now and re-evaluate INT. In ISR v2 mode the ones
  // with a v2 bit (RxOK, TxOK, LinkChg: queue 0's) latch in ISR_V2 instead.
  void raise(uint32_t bits);
  // RX queue `queue` found no descriptor: RxDescUnavail | RxFIFOOver for
  // queue 0; for queues 1-3, RxDU1 in that queue's ISR and RxFIFOOver.
  void raise_rx_unavailable(unsigned queue);
  // IntrStatus as the device holds it (the profile's offset and width).
  uint32_t status() const;
  // The events IntrMitigate holds back, numbered as its fields' index
  // (which = 0 RX, 1 TX: mod_, mitigate_field, the MitigationTimer argument).
  enum class Moderated : unsigned { RxOK = 0, TxOK = 1 };
  // RxOK / TxOK of RX / TX queue `queue` through interrupt mitigation (which
  // only the 8168s have: the 8125 drops IntrMitigate writes, and their
  // single queues are queue 0, which a held-back event is raised for).
  void raise_moderated(Moderated event, unsigned queue = 0);
  // Re-evaluate INT after IntrStatus/IntrMask changed.
  void update();
  // The driver read IntrStatus / wrote it (the W1C ack, already applied):
  // the point where an event that races the handler lands (irq-race fault).
  void on_status_read();
  void on_status_ack();
  void on_mitigate_write();
  // INT_CFG0 was written: re-evaluate INT if bit 0 switched the registers.
  void on_int_cfg0_write();
  // The RTL8125B's per-queue registers (irq_queues.h); Device routes guest
  // accesses to them and calls on_queue_write() after a write.
  IrqQueues queues;
  void on_queue_write() { update(); }
  void on_mitigation_timer(uint64_t arg);
  bool level() const { return int_level_; }
  bool intx_asserted() const { return intx_asserted_; }

  // The component's state in the blob, for save and load alike (state_io.h).
  void visit(Archive& a);
  // The per-queue part (profiles with IrqQueues only: the others' blobs are
  // unchanged).
  void visit_queues(Archive& a);
  const char* check() const;  // nullptr when the loaded state is consistent
  // The argument of the pending IntrMitigate timer event of RX (0) / TX (1).
  uint64_t mitigation_timer_arg(unsigned which) const;
  bool mitigation_timer_armed(unsigned which) const { return mod_[which].timer_armed; }

 private:
  // IntrMitigate fields (r8169 rtl_set_coalesce): [15:12] TX timer,
  // [11:8] TX frames/4, [7:4] RX timer, [3:0] RX frames/4.
  struct Moderation {
    uint32_t pending = 0;  // events held back
    uint32_t gen = 0;      // timer generation (stale timers are ignored)
    bool timer_armed = false;
  };
  // RX (0) / TX (1) byte of IntrMitigate: [7:4] timer, [3:0] frames/4; 0 = moderation off.
  unsigned mitigate_field(unsigned which) const;
  uint32_t reg_value(uint16_t off) const;
  bool asserted() const;  // INT in the current mode
  bool v2_mode() const;   // INT_CFG0 bit 0 on a profile with ISR v2
  void update_v2();       // update() in ISR v2 mode: one message per bit edge
  // INT is `level` now: INTx follows it while MSI is off (isr/imr traced).
  void set_level(bool level, bool msi, uint32_t isr, uint32_t imr);
  // An RxOK / TxOK event of one queue, unmoderated (which: 0 RX, 1 TX).
  void raise_event(unsigned which, unsigned queue);
  void flush(unsigned which);
  uint64_t timer_unit_ns() const;
  // IntrMitigate timer units by CPlusCmd INTT at 1000 Mbit/s (x 1/2 at 100, x 8 at 10).
  static constexpr std::array<uint64_t, 4> kTimerUnit1000 = {5120, 40960, 81920, 163840};

 public:
  // The longest delay of an armed mitigation timer: the 4-bit field's largest
  // value in the largest unit (state load bounds the loaded event by it).
  static constexpr uint64_t kMaxTimerDelay = 15 * kTimerUnit1000[3] * 8;

 private:

  Device& d_;
  bool int_level_ = false;
  bool intx_asserted_ = false;
  // ISR v2: the mode INT was last evaluated in, and the per-message levels
  // (ISR_V2 & IMR_V2) of that evaluation, whose 0->1 edges send messages.
  bool v2_ = false;
  uint32_t vec_level_ = 0;
  std::array<Moderation, 2> mod_{};
};

}  // namespace rtl8168sim
