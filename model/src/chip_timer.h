// SPDX-License-Identifier: GPL-2.0-or-later
// The chip's general-purpose timer (datasheet "TCTR" / "TimerInt"):
//   TCTR (0x48)     a 32-bit counter at the timer clock; reads return the
//                   count, any write restarts it from 0;
//   TimerInt (0x58) 0 = off; otherwise PCSTimeout (IntrStatus bit 14) is
//                   latched each time the count reaches it, and the count
//                   starts again from 0 (one interrupt per period while the
//                   value is non-zero).
// A driver that moderates interrupts with it masks every source but
// PCSTimeout and services the rings once per period (r8169's later
// rtl8125 timer moderation; Realtek's vendor r8168 driver).
//
// The RTL8169 datasheet counts TCTR at the PCI clock; PCIe parts have no
// PCI clock and the count rate is a parameter (`timer-clock`, MHz, default
// 125: the 8168's core clock, the PCIe PIPE / GMII 125 MHz domain). The
// timer runs in both timing modes: it is a clock, not a latency.
#pragma once

#include <cstdint>

#include "events.h"
#include "state_io.h"
#include "timing.h"

namespace rtl8168sim {

class Device;

class ChipTimer {
 public:
  // Its events: handlers, longest delays, when each is pending (events.h).
  static std::span<const EventSpec> events();
  explicit ChipTimer(Device& d) : d_(d) {}
  void reset();              // count from now, compare event dropped
  uint32_t count() const;    // TCTR at the device's now
  void on_count_write();     // TCTR written: restart from 0, re-arm
  void on_compare_write();   // TimerInt written: re-arm (0 = off)
  void on_match();           // the compare event fired

  // The component's state in the blob, for save and load alike (state_io.h).
  void visit(Archive& a);
  // Empty when the loaded state is consistent with `now` and the registers.
  const char* check(Time now) const;

 private:
  uint64_t counts_since_start(Time t) const;
  void arm();
  Time next_match() const;  // kNever when TimerInt is 0

  Device& d_;
  Time start_ = 0;  // virtual time at which the count was 0
};

}  // namespace rtl8168sim
