// SPDX-License-Identifier: GPL-2.0-or-later
#include "tally.h"

#include <algorithm>

#include "device.h"

namespace rtl8168sim {

// struct rtl8169_counters, field by field, little-endian: 64 bytes. The
// same description serves the DMA block and the state blob.
template <typename Counters>
static void visit_counters(Archive& a, Counters& c) {
  a.io(c.tx_packets);
  a.io(c.rx_packets);
  a.io(c.tx_errors);
  a.io(c.rx_errors);
  a.io(c.rx_missed);
  a.io(c.align_errors);
  a.io(c.tx_one_collision);
  a.io(c.tx_multi_collision);
  a.io(c.rx_unicast);
  a.io(c.rx_broadcast);
  a.io(c.rx_multicast);
  a.io(c.tx_aborted);
  a.io(c.tx_underrun);
}

std::array<uint8_t, 64> Tally::block() const {
  std::vector<uint8_t> out;
  Archive a(out);
  TallyCounters copy = counters;
  visit_counters(a, copy);
  std::array<uint8_t, 64> b{};
  std::copy_n(out.begin(), std::min(out.size(), b.size()), b.begin());
  return b;
}

// Bytes 64-191, r8169 struct rtl8169_counters after "new since RTL8125",
// little-endian. What the model has no source for reads 0: pause frames
// (the emulated partner sends none), collisions and deferrals (full
// duplex only), MAC errors, unknown opcodes and TCAM drops, and the
// descriptor-unavailable counts (tdu, rdu). The 32-bit copies of the
// 16-bit counters hold the same counts.
std::vector<uint8_t> Tally::ext_block() const {
  std::vector<uint8_t> out;
  Archive a(out);
  TallyCounters c = counters;
  visit_counters(a, c);
  uint64_t tx_octets = d_.stats.tx_bytes - ext.tx_octets_base;
  uint64_t rx_octets = d_.stats.rx_bytes - ext.rx_octets_base;
  uint64_t rx_multicast64 = c.rx_multicast, tx_unicast = ext.tx_unicast, tx_broadcast = ext.tx_broadcast,
           tx_multicast = ext.tx_multicast;
  a.io(tx_octets);
  a.io(rx_octets);
  a.io(rx_multicast64);
  a.io(tx_unicast);
  a.io(tx_broadcast);
  a.io(tx_multicast);
  uint32_t zero = 0, tx_aborted32 = c.tx_aborted, align_errors32 = c.align_errors,
           tx_underrun32 = c.tx_underrun, rx_mac_missed = c.rx_missed;
  for (int i = 0; i < 6; i++) a.io(zero);  // tx_pause_on/off/all, tx_deferred, tx_late/all_collision
  a.io(tx_aborted32);
  a.io(align_errors32);
  uint32_t rx_frame_too_long = ext.rx_frame_too_long, rx_runt = ext.rx_runt;
  a.io(rx_frame_too_long);
  a.io(rx_runt);
  for (int i = 0; i < 5; i++) a.io(zero);  // rx_pause_on/off/all, rx_unknown_opcode, rx_mac_error
  a.io(tx_underrun32);
  a.io(rx_mac_missed);
  for (int i = 0; i < 3; i++) a.io(zero);  // rx_tcam_dropped, tdu, rdu
  return out;
}

unsigned Tally::dump_size() const {
  const uint16_t ocp = d_.config().profile->tally_ext_ocp;
  return ocp && (d_.mac_ocp.read(ocp) & 0x3) == 0x3 ? kExtBlock : kBlock;
}

// Destination class as the RX side counts it (group bit, all-ones).
void Tally::count_tx(const std::vector<uint8_t>& frame) {
  if (!d_.config().profile->tally_ext_ocp || frame.size() < 6) return;
  // The group bit first: a unicast destination (most frames) is not the
  // broadcast address either.
  if (!(frame[0] & 1)) {
    ext.tx_unicast++;
  } else if (std::all_of(frame.begin(), frame.begin() + 6, [](uint8_t b) { return b == 0xff; })) {
    ext.tx_broadcast++;
  } else {
    ext.tx_multicast++;
  }
}

void Tally::count_rx_too_long() {
  if (d_.config().profile->tally_ext_ocp) ext.rx_frame_too_long++;
}

void Tally::count_rx_runt() {
  if (d_.config().profile->tally_ext_ocp) ext.rx_runt++;
}

void Tally::on_command_write() {
  const uint32_t cmd = d_.regs.u32(reg::CounterAddrLow) & (reg::CounterDump | reg::CounterReset);
  if (!cmd) return;
  d_.cancel(EventKind::DtccrDone);
  // A dump is a DMA write: it may first wait for the link to leave ASPM L1.
  const Time dma = (cmd & reg::CounterDump) ? d_.link_wake() + dma_write_time(d_.timing(), dump_size()) : 0;
  d_.schedule_in(d_.timing().dtccr_time + dma, EventKind::DtccrDone);
}

void Tally::on_done() {
  const uint32_t low = d_.regs.u32(reg::CounterAddrLow);
  const uint64_t addr = d_.regs.u64(reg::CounterAddrLow, reg::CounterAddrHigh) & ~uint64_t{0x3f};
  d_.trace.tally(low & 0x9, addr);
  if (low & reg::CounterDump) {
    if (dump_size() == kExtBlock) {
      const std::vector<uint8_t> b = ext_block();
      if (!d_.dma_write(addr, b.data(), b.size())) d_.irq.raise(reg::SYSErr);
    } else {
      const auto b = block();
      if (!d_.dma_write(addr, b.data(), b.size())) d_.irq.raise(reg::SYSErr);
    }
  }
  if (low & reg::CounterReset) {
    counters = TallyCounters{};
    // The extended block's octet counts restart here (profiles that have it:
    // on the others the state blob does not carry it, so it stays zero).
    if (d_.config().profile->tally_ext_ocp) {
      ext = TallyExt{.tx_octets_base = d_.stats.tx_bytes, .rx_octets_base = d_.stats.rx_bytes};
    }
  }
  d_.regs.set32(reg::CounterAddrLow, low & ~(reg::CounterDump | reg::CounterReset));
}


// The 64-byte block with its length prefix, field by field in the layout of
// struct rtl8169_counters.
// The 64-byte block with its length prefix (the layout of a byte string).
void Tally::visit(Archive& a) {
  uint32_t len = 64;
  a.io(len);
  if (len != 64) a.fail();
  visit_counters(a, counters);
}

// The extended block's counts and bases, 8 bytes each. A base above the
// model's byte counter is no state a reset could have left.
void Tally::visit_ext(Archive& a) {
  a.io(ext.tx_unicast);
  a.io(ext.tx_broadcast);
  a.io(ext.tx_multicast);
  a.io(ext.tx_octets_base);
  a.io(ext.rx_octets_base);
  a.io(ext.rx_frame_too_long);
  a.io(ext.rx_runt);
}

// A command in progress has its completion pending; the driver may clear
// the command bits meanwhile (a CounterAddrLow write), which leaves a
// completion that does nothing.
std::span<const EventSpec> Tally::events() {
  static constexpr EventSpec kEvents[] = {
      {.kind = EventKind::DtccrDone,
       .run = [](Device& d, uint64_t) { d.tally.on_done(); },
       .max_delay = [](const Device& d) -> Time {
         return d.timing().dtccr_time + d.timing().aspm_l1_exit_time +
                dma_write_time(d.timing(), d.config().profile->tally_ext_ocp ? kExtBlock : kBlock);
       },
       .pending = [](const Device& d, unsigned) {
         const bool cmd = d.regs.u32(reg::CounterAddrLow) & (reg::CounterDump | reg::CounterReset);
         return cmd ? Pending::Yes : Pending::May;
       },
       .mismatch = "tally command without its completion event"},
  };
  return kEvents;
}

}  // namespace rtl8168sim
