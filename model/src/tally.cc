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
  put_le(b, at, c.tx_packets);
  put_le(b, at, c.rx_packets);
  put_le(b, at, c.tx_errors);
  put_le(b, at, c.rx_errors);
  put_le(b, at, c.rx_missed);
  put_le(b, at, c.align_errors);
  put_le(b, at, c.tx_one_collision);
  put_le(b, at, c.tx_multi_collision);
  put_le(b, at, c.rx_unicast);
  put_le(b, at, c.rx_broadcast);
  put_le(b, at, c.rx_multicast);
  put_le(b, at, c.tx_aborted);
  put_le(b, at, c.tx_underrun);
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
  if (low & reg::CounterReset) c = TallyCounters{};
  d_.regs.set32(reg::CounterAddrLow, low & ~(reg::CounterDump | reg::CounterReset));
}

void Tally::save(StateWriter& w) const {
  const auto b = block();
  w.put_bytes(b);
}

void Tally::load(StateReader& r) {
  auto b = r.get_bytes(64);
  if (b.size() != 64) {
    r.fail();
    return;
  }
  auto get = [&](size_t& at, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) v |= static_cast<uint64_t>(b[at + i]) << (8 * i);
    at += n;
    return v;
  };
  size_t at = 0;
  c.tx_packets = get(at, 8);
  c.rx_packets = get(at, 8);
  c.tx_errors = get(at, 8);
  c.rx_errors = static_cast<uint32_t>(get(at, 4));
  c.rx_missed = static_cast<uint16_t>(get(at, 2));
  c.align_errors = static_cast<uint16_t>(get(at, 2));
  c.tx_one_collision = static_cast<uint32_t>(get(at, 4));
  c.tx_multi_collision = static_cast<uint32_t>(get(at, 4));
  c.rx_unicast = get(at, 8);
  c.rx_broadcast = get(at, 8);
  c.rx_multicast = static_cast<uint32_t>(get(at, 4));
  c.tx_aborted = static_cast<uint16_t>(get(at, 2));
  c.tx_underrun = static_cast<uint16_t>(get(at, 2));
}

}  // namespace rtl8168sim
