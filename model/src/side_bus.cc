// SPDX-License-Identifier: GPL-2.0-or-later
#include "side_bus.h"

#include "device.h"

namespace rtl8168sim {

namespace {
// ERIAR / CSIAR fields (r8169 ERIAR_* / CSIAR_*).
constexpr uint32_t kAddrMask = 0x0fff;
constexpr unsigned kMaskShift = 12;
constexpr unsigned kEriTypeShift = 16;
constexpr uint32_t kEriTypeExgmac = 0;
// EPHYAR fields (r8169 EPHYAR_*).
constexpr unsigned kEphyRegShift = 16;
constexpr uint32_t kEphyRegMask = 0x1f;

uint32_t byte_mask(uint32_t cmd) {
  const uint32_t be = (cmd >> kMaskShift) & 0xf;
  uint32_t m = 0;
  for (unsigned i = 0; i < 4; i++) {
    if (be & (1u << i)) m |= 0xffu << (8 * i);
  }
  return m;
}
}  // namespace

void SideBus::power_on(std::span<const uint8_t, 6> mac) {
  eri_.fill(0);
  ephy_.fill(0);
  csi_.fill(0);
  busy_.fill(false);
  // The layout r8169 rtl_rar_exgmac_set writes: le32(mac[0..3]),
  // le16(mac[4..5]), le16(mac[0..1]) << 16, le32(mac[2..5]).
  eri_[kExgmacMac0 / 4] = uint32_t{mac[0]} | uint32_t{mac[1]} << 8 | uint32_t{mac[2]} << 16 |
                          uint32_t{mac[3]} << 24;
  eri_[kExgmacMac4 / 4] = uint32_t{mac[4]} | uint32_t{mac[5]} << 8;
  eri_[kExgmacMacF0 / 4] = (uint32_t{mac[0]} | uint32_t{mac[1]} << 8) << 16;
  eri_[kExgmacMacF4 / 4] = uint32_t{mac[2]} | uint32_t{mac[3]} << 8 | uint32_t{mac[4]} << 16 |
                           uint32_t{mac[5]} << 24;
}

uint32_t SideBus::command_reg(Bus b) {
  switch (b) {
    case Eri: return reg::ERIAR;
    case Ephy: return reg::EPHYAR;
    default: return reg::CSIAR;
  }
}

void SideBus::on_command(Bus b) {
  const Time t = b == Eri ? d_.timing().eri_time : b == Ephy ? d_.timing().ephy_time
                                                             : d_.timing().csi_time;
  d_.cancel(EventKind::SideBusDone, b);
  busy_[b] = true;
  d_.schedule_in(t, EventKind::SideBusDone, b);
}

void SideBus::on_done(Bus b) {
  if (b >= kBuses || !busy_[b]) return;
  busy_[b] = false;
  const uint32_t ar = command_reg(b);
  const uint32_t cmd = d_.regs.u32(ar);
  const bool write = cmd & reg::kAccessFlag;
  switch (b) {
    case Eri: {
      const uint32_t addr = cmd & kAddrMask & ~3u;
      const bool exgmac = ((cmd >> kEriTypeShift) & 3) == kEriTypeExgmac;
      if (write) {
        if (exgmac) {
          const uint32_t m = byte_mask(cmd);
          uint32_t& w = eri_[addr / 4];
          w = (w & ~m) | (d_.regs.u32(reg::ERIDR) & m);
        }
      } else {
        d_.regs.set32(reg::ERIDR, exgmac ? eri_[addr / 4] : 0);
      }
      break;
    }
    case Ephy: {
      const unsigned r = (cmd >> kEphyRegShift) & kEphyRegMask;
      if (write) {
        ephy_[r] = static_cast<uint16_t>(cmd);
      } else {
        d_.regs.set32(reg::EPHYAR, (cmd & 0x7fff0000u) | ephy_[r]);
      }
      break;
    }
    default: {
      const uint32_t addr = cmd & kAddrMask & ~3u;
      if (write) {
        const uint32_t m = byte_mask(cmd);
        uint32_t& w = csi_[addr / 4];
        w = (w & ~m) | (d_.regs.u32(reg::CSIDR) & m);
        // r8169 rtl_set_aspm_entry_latency's fallback without extended
        // config access: the ASPM entrance latency in bits 31:24.
        if (addr == PcieLink::kCsiEntryLatencyDword && (m & 0xff000000u)) {
          d_.link.csi_entry_latency(static_cast<uint8_t>(w >> 24));
        }
      } else {
        d_.regs.set32(reg::CSIDR, csi_[addr / 4]);
      }
      break;
    }
  }
  // Completion: a write clears the flag, a read sets it.
  const uint32_t now_cmd = d_.regs.u32(ar);
  d_.regs.set32(ar, write ? now_cmd & ~reg::kAccessFlag : now_cmd | reg::kAccessFlag);
}

bool SideBus::exgmac_match(std::span<const uint8_t> da) const {
  if (da.size() < 6) return false;
  const uint32_t lo = eri_[kExgmacMac0 / 4], hi = eri_[kExgmacMac4 / 4];
  for (unsigned i = 0; i < 4; i++) {
    if (da[i] != static_cast<uint8_t>(lo >> (8 * i))) return false;
  }
  return da[4] == static_cast<uint8_t>(hi) && da[5] == static_cast<uint8_t>(hi >> 8);
}

void SideBus::visit(Archive& a) {
  a.io_array(eri_);
  a.io_array(ephy_);
  a.io_array(csi_);
  for (bool& b : busy_) a.io(b);
}

// Every register value is legal in these spaces; what can be inconsistent
// is a bus marked busy without its completion event (or the reverse), which
// Device::check_events compares.
const char* SideBus::check() const { return nullptr; }

// One completion per busy bus, its argument the bus.
std::span<const EventSpec> SideBus::events() {
  static constexpr EventSpec kEvents[] = {
      {.kind = EventKind::SideBusDone,
       .run = [](Device& d, uint64_t arg) { d.side.on_done(static_cast<Bus>(arg)); },
       .max_delay = [](const Device& d) -> Time {
         const TimingParams& t = d.timing();
         return std::max({t.eri_time, t.ephy_time, t.csi_time});
       },
       .pending = [](const Device& d, unsigned bus) { return pending_if(d.side.busy(static_cast<Bus>(bus))); },
       .mismatch = "side-bus access does not match its completion event",
       .instances = kBuses,
       .instance_arg = [](const Device&, unsigned bus) -> uint64_t { return bus; }},
  };
  return kEvents;
}

}  // namespace rtl8168sim
