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

void Tally::on_command_write() {
  const uint32_t cmd = d_.regs.u32(reg::CounterAddrLow) & (reg::CounterDump | reg::CounterReset);
  if (!cmd) return;
  d_.cancel(EventKind::DtccrDone);
  // A dump is a DMA write: it may first wait for the link to leave ASPM L1.
  const Time dma = (cmd & reg::CounterDump) ? d_.link_wake() + dma_write_time(d_.timing(), 64) : 0;
  d_.schedule_in(d_.timing().dtccr_time + dma, EventKind::DtccrDone);
}

void Tally::on_done() {
  const uint32_t low = d_.regs.u32(reg::CounterAddrLow);
  const uint64_t addr = d_.regs.u64(reg::CounterAddrLow, reg::CounterAddrHigh) & ~uint64_t{0x3f};
  d_.trace.tally(low & 0x9, addr);
  if (low & reg::CounterDump) {
    const auto b = block();
    if (!d_.dma_write(addr, b.data(), b.size())) d_.irq.raise(reg::SYSErr);
  }
  if (low & reg::CounterReset) counters = TallyCounters{};
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

// A command in progress has its completion pending; the driver may clear
// the command bits meanwhile (a CounterAddrLow write), which leaves a
// completion that does nothing.
std::span<const EventSpec> Tally::events() {
  static constexpr EventSpec kEvents[] = {
      {.kind = EventKind::DtccrDone,
       .run = [](Device& d, uint64_t) { d.tally.on_done(); },
       .max_delay = [](const Device& d) -> Time {
         return d.timing().dtccr_time + d.timing().aspm_l1_exit_time + dma_write_time(d.timing(), 64);
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
