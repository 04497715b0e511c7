// SPDX-License-Identifier: GPL-2.0-or-later
// The interrupt controller: IntrStatus (W1C) and IntrMask live in the
// register file; INT = (IntrStatus & IntrMask) != 0. INTx follows INT as a
// level. An MSI message is sent on every 0->1 edge of INT, including an
// edge caused by an IntrMask write while status bits are latched, and only
// then: a handler that leaves any enabled bit set never gets another MSI
// (docs/HISTORY.md §2; docs/R8169.md §4). RxOK/TxOK pass through IntrMitigate.
#pragma once

#include <array>
#include <cstdint>

#include "events.h"
#include "state_io.h"

namespace rtl8168sim {

class Device;

class Irq {
 public:
  // Its events: handlers, longest delays, when each is pending (events.h).
  static std::span<const EventSpec> events();
  explicit Irq(Device& d) : d_(d) {}
  void reset();
  // Latch status bits now and re-evaluate INT.
  void raise(uint32_t bits);
  // IntrStatus as the device holds it (the profile's offset and width).
  uint32_t status() const;
  // The events IntrMitigate holds back, numbered as its fields' index
  // (which = 0 RX, 1 TX: mod_, mitigate_field, the MitigationTimer argument).
  enum class Moderated : unsigned { RxOK = 0, TxOK = 1 };
  // RxOK / TxOK through interrupt mitigation.
  void raise_moderated(Moderated event);
  // Re-evaluate INT after IntrStatus/IntrMask changed.
  void update();
  // The driver read IntrStatus / wrote it (the W1C ack, already applied):
  // the point where an event that races the handler lands (irq-race fault).
  void on_status_read();
  void on_status_ack();
  void on_mitigate_write();
  void on_mitigation_timer(uint64_t arg);
  bool level() const { return int_level_; }
  bool intx_asserted() const { return intx_asserted_; }

  // The component's state in the blob, for save and load alike (state_io.h).
  void visit(Archive& a);
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
  bool asserted() const;  // IntrStatus & IntrMask != 0
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
  std::array<Moderation, 2> mod_{};
};

}  // namespace rtl8168sim
