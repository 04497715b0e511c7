// SPDX-License-Identifier: GPL-2.0-or-later
// DTCCR tally counters: the 64-byte block the chip DMAs to CounterAddr on
// CounterDump, zeroed on CounterReset (r8169 struct rtl8169_counters,
// rtl8169_do_counters / rtl8169_reset_counters).
#pragma once

#include <array>
#include <cstdint>

#include "events.h"
#include "state_io.h"

namespace rtl8168sim {

class Device;

struct TallyCounters {
  uint64_t tx_packets = 0;
  uint64_t rx_packets = 0;
  uint64_t tx_errors = 0;
  uint32_t rx_errors = 0;
  uint16_t rx_missed = 0;
  uint16_t align_errors = 0;
  uint32_t tx_one_collision = 0;
  uint32_t tx_multi_collision = 0;
  uint64_t rx_unicast = 0;
  uint64_t rx_broadcast = 0;
  uint32_t rx_multicast = 0;
  uint16_t tx_aborted = 0;
  uint16_t tx_underrun = 0;
};

class Tally {
 public:
  // Its events: handlers, longest delays, when each is pending (events.h).
  static std::span<const EventSpec> events();
  explicit Tally(Device& d) : d_(d) {}
  TallyCounters counters;

  void on_command_write();   // CounterAddrLow written
  void on_done();            // the command's latency elapsed
  // The 64-byte little-endian block (r8169 struct rtl8169_counters layout).
  std::array<uint8_t, 64> block() const;

  // The component's state in the blob, for save and load alike (state_io.h).
  void visit(Archive& a);

 private:
  Device& d_;
};

}  // namespace rtl8168sim
