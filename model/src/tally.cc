// SPDX-License-Identifier: GPL-2.0-or-later
#include "tally.h"

#include "device.h"

namespace rtl8168sim {

namespace {
template <typename T>
void put_le(std::array<uint8_t, 64>& b, size_t& at, T v) {
  for (size_t i = 0; i < sizeof(T); i++) b[at++] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i));
}
}  // namespace

std::array<uint8_t, 64> Tally::block() const {
  std::array<uint8_t, 64> b{};
  size_t at = 0;
  put_le(b, at, counters.tx_packets);
  put_le(b, at, counters.rx_packets);
  put_le(b, at, counters.tx_errors);
  put_le(b, at, counters.rx_errors);
  put_le(b, at, counters.rx_missed);
  put_le(b, at, counters.align_errors);
  put_le(b, at, counters.tx_one_collision);
  put_le(b, at, counters.tx_multi_collision);
  put_le(b, at, counters.rx_unicast);
  put_le(b, at, counters.rx_broadcast);
  put_le(b, at, counters.rx_multicast);
  put_le(b, at, counters.tx_aborted);
  put_le(b, at, counters.tx_underrun);
  return b;
}

void Tally::on_command_write() {
  const uint32_t cmd = d_.regs.u32(reg::CounterAddrLow) & (reg::CounterDump | reg::CounterReset);
  if (!cmd) return;
  d_.cancel(EventKind::DtccrDone);
  const Time dma = (cmd & reg::CounterDump) ? dma_write_time(d_.timing(), 64) : 0;
  d_.schedule_in(d_.timing().dtccr_time + dma, EventKind::DtccrDone);
}

void Tally::on_done() {
  const uint32_t low = d_.regs.u32(reg::CounterAddrLow);
  const uint64_t addr = d_.regs.u64(reg::CounterAddrLow, reg::CounterAddrHigh) & ~uint64_t{0x3f};
  d_.trace(Tr::Tally, low & 0x9, addr);
  if (low & reg::CounterDump) {
    const auto b = block();
    if (!d_.dma_write(addr, b.data(), b.size())) d_.irq.raise(reg::SYSErr);
  }
  if (low & reg::CounterReset) counters = TallyCounters{};
  d_.regs.set32(reg::CounterAddrLow, low & ~(reg::CounterDump | reg::CounterReset));
}


// The 64-byte block with its length prefix, field by field in the layout of
// struct rtl8169_counters.
void Tally::visit(Archive& a) {
  uint32_t len = 64;
  a.io(len);
  if (len != 64) a.fail();
  a.io(counters.tx_packets);
  a.io(counters.rx_packets);
  a.io(counters.tx_errors);
  a.io(counters.rx_errors);
  a.io(counters.rx_missed);
  a.io(counters.align_errors);
  a.io(counters.tx_one_collision);
  a.io(counters.tx_multi_collision);
  a.io(counters.rx_unicast);
  a.io(counters.rx_broadcast);
  a.io(counters.rx_multicast);
  a.io(counters.tx_aborted);
  a.io(counters.tx_underrun);
}

}  // namespace rtl8168sim
