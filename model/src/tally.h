// SPDX-License-Identifier: GPL-2.0-or-later
// DTCCR tally counters: the 64-byte block the chip DMAs to CounterAddr on
// CounterDump, zeroed on CounterReset (r8169 struct rtl8169_counters,
// rtl8169_do_counters / rtl8169_reset_counters). The RTL8125 appends 128
// bytes ("new since RTL8125") once the driver switches them on through a
// MAC OCP register (ChipProfile::tally_ext_ocp; 7.2 rtl_hw_start_8125 sets
// 0xea84 bits 1:0, "enable extended tally counter"): the model's hypothesis
// is that the chip writes the 192-byte block only then (6.1 and 6.12 never
// set the bits and read only the first 64 bytes).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

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

// What the extended block counts that TallyCounters does not. The octet
// counts are the model's byte counters (rtl8168_stats tx_bytes / rx_bytes:
// frames without FCS) since the last CounterReset or power-on. The MAC
// counts a received frame longer than RxMaxSize (rx_frame_too_long, which
// r8169 reports as FrameTooLongErrors on the 8125) and a runt (rx_runt)
// whether RxConfig then discards it or accepts it as an error frame.
struct TallyExt {
  uint64_t tx_unicast = 0, tx_broadcast = 0, tx_multicast = 0;
  uint64_t tx_octets_base = 0, rx_octets_base = 0;
  uint32_t rx_frame_too_long = 0, rx_runt = 0;
};

class Tally {
 public:
  static constexpr unsigned kBlock = 64, kExtBlock = 192;
  // Its events: handlers, longest delays, when each is pending (events.h).
  static std::span<const EventSpec> events();
  explicit Tally(Device& d) : d_(d) {}
  TallyCounters counters;
  TallyExt ext;
  // A frame leaves the wire: its destination class for the extended block.
  void count_tx(const std::vector<uint8_t>& frame);
  // A received frame the MAC found too long / short (profiles with the
  // extended block; the others have nowhere to count it).
  void count_rx_too_long();
  void count_rx_runt();

  void on_command_write();   // CounterAddrLow written
  void on_done();            // the command's latency elapsed
  // The 64-byte little-endian block (r8169 struct rtl8169_counters layout).
  std::array<uint8_t, 64> block() const;
  // The 192-byte block of the 8125 (the 64 bytes, then the extension).
  std::vector<uint8_t> ext_block() const;
  // Bytes a dump writes now: 192 when the extension is switched on.
  unsigned dump_size() const;

  // The component's state in the blob, for save and load alike (state_io.h).
  void visit(Archive& a);
  void visit_ext(Archive& a);  // profiles with the extended block

 private:
  Device& d_;
};

}  // namespace rtl8168sim
