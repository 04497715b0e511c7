// SPDX-License-Identifier: GPL-2.0-or-later
// TxPoll (0x38), the transmit doorbell register (r8169 names; where it sits,
// its width and its SWInt bit are the profile's DoorbellReg: the 8125's is
// 0x90, 16 bits, bit q ringing TX queue q, no SWInt bit):
//   write  HPQ (0x80) / NPQ (0x40) ring the TX engine for the high / normal
//          priority ring; FSWInt (0x01) raises SWInt (IntrStatus 0x0100).
//          The register stores nothing (reg_file.cc: not writable).
//   read   HPQ / NPQ read back set for `txpoll-ack-time` after their
//          doorbell, then clear.
// The read-back is what a driver polling TxPoll after its doorbell sees.
// Measured on the RTL8111b/8168 in the 2007 lost-doorbell episode
// (docs/HISTORY.md §1): NPQ cleared within about 90 ns (at most 9 reads
// 10 ns apart), not "set until the queue is empty" as the datasheet
// suggests, so the bit says nothing about whether the frame was sent.
// Whether the engine took the doorbell at all (the lossy-txpoll quirk the
// r8169 "8168 hack" re-kick works around, docs/R8169.md §5) is the TX
// engine's decision (tx_engine.cc), not this register's.
//
// The read-back deadlines survive a ChipCmd reset; only power-on clears
// them.
#pragma once

#include <cstdint>

#include "state_io.h"
#include "timing.h"

namespace rtl8168sim {

class Device;

class TxPoll {
 public:
  explicit TxPoll(Device& d) : d_(d) {}
  void reset();                    // power-on: nothing reads back set
  // The byte as written (TxPoll stores nothing); link_was_l1: the write
  // found the PCIe link in ASPM L1 (the aspm-l1-txpoll-lost quirk).
  void on_write(uint8_t written, bool link_was_l1 = false);
  uint8_t read() const;            // the register byte at the device's now

  // The component's state in the blob, for save and load alike (state_io.h).
  void visit(Archive& a);
  // nullptr when the loaded deadlines are consistent with `now`.
  const char* check(Time now) const;

 private:
  Device& d_;
  Time npq_until_ = 0, hpq_until_ = 0;  // the bit reads back set until then
};

}  // namespace rtl8168sim
