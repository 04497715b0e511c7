// SPDX-License-Identifier: GPL-2.0-or-later
#include "pcie_link.h"

#include <algorithm>

#include "device.h"

namespace rtl8168sim {

namespace {
constexpr uint32_t kLnkctl = 0x10;       // Link Control, from the PCIe capability
constexpr uint32_t kConfigSize = 4096;   // PCIe extended configuration space
// An exit in progress further ahead than the longest aspm-l1-exit-time
// (config.cc: 0..1'000'000 ns) was never started by the model.
constexpr Time kMaxExitTime = 1'000'000;
}  // namespace

void PcieLink::power_on() {
  aspm_ctl_ = 0;
  entry_latency_ = kEntryLatencyReset;
  l1_ = false;
  exit_until_ = 0;
  last_tlp_ = d_.now();
  d_.cancel(EventKind::AspmIdle);
}

// r8169 rtl_set_aspm_entry_latency: "bit 3..5: L1: 0 = 1us, 1 = 2us .. 6 =
// 64us, 7 = 64us".
Time PcieLink::entry_latency() const {
  const unsigned code = (entry_latency_ >> 3) & 7;
  return code >= 6 ? kMaxEntryLatency : Time{1000} << code;
}

bool PcieLink::l1_allowed() const {
  return modelled() && (aspm_ctl_ & kLnkctlAspmL1) && (d_.regs.u8(reg::Config5) & reg::Cfg5AspmEn);
}

// Reads the chip has issued and not yet seen complete: their completions are
// TLPs on the link still to come.
bool PcieLink::dma_outstanding() const {
  return d_.pending(EventKind::TxDmaDone) || d_.pending(EventKind::TxDescDone) ||
         d_.pending(EventKind::RxDescDone) || d_.pending(EventKind::RxWriteDone) ||
         d_.pending(EventKind::RxPrefetchDone) || d_.pending(EventKind::DtccrDone);
}

// One entrance timer: armed from the last TLP (or the end of an exit), and
// when it runs out early (a TLP came meanwhile) it re-arms for the rest.
void PcieLink::arm() {
  if (l1_ || !l1_allowed() || d_.pending(EventKind::AspmIdle)) return;
  const Time due = std::max(last_tlp_, exit_until_) + entry_latency();
  d_.schedule_in(due > d_.now() ? due - d_.now() : 0, EventKind::AspmIdle);
}

void PcieLink::wake(Time exit_time) {
  l1_ = false;
  exit_until_ = d_.now() + exit_time;
}

bool PcieLink::tlp_from_host() {
  const bool was_l1 = l1_;
  if (was_l1) {
    // The root port starts the exit; the chip's own TLPs wait for it too.
    wake(d_.timing().aspm_l1_exit_time);
    d_.trace.aspm_l1(0, 0);
  }
  last_tlp_ = d_.now();
  arm();
  return was_l1;
}

Time PcieLink::tlp_from_chip() {
  if (l1_) {
    wake(d_.timing().aspm_l1_exit_time);
    d_.trace.aspm_l1(0, 1);
  }
  const Time now = d_.now();
  const Time delay = exit_until_ > now ? exit_until_ - now : 0;
  last_tlp_ = now + delay;
  arm();
  return delay;
}

void PcieLink::config_write(uint32_t addr, uint32_t value, unsigned len) {
  if (!modelled() || (len != 1 && len != 2 && len != 4) || addr >= kConfigSize ||
      len > kConfigSize - addr) {
    return;
  }
  (void)host_access();
  const uint32_t lnkctl = uint32_t{d_.config().profile->pci.pcie_offset} + kLnkctl;
  for (unsigned i = 0; i < len; i++) {
    const uint8_t byte = static_cast<uint8_t>(value >> (8 * i));
    if (addr + i == lnkctl) aspm_ctl_ = byte & 3;
    if (addr + i == kEntryLatencyOffset) entry_latency_ = byte;
  }
  if (!l1_allowed()) d_.cancel(EventKind::AspmIdle);
  arm();
}

void PcieLink::csi_entry_latency(uint8_t value) {
  if (!modelled()) return;
  entry_latency_ = value;
}

void PcieLink::on_idle_timer() {
  if (l1_ || !l1_allowed()) return;
  const Time now = d_.now();
  if (dma_outstanding()) last_tlp_ = now;  // completions still to come
  const Time due = std::max(last_tlp_, exit_until_) + entry_latency();
  if (due > now) {
    d_.schedule_in(due - now, EventKind::AspmIdle);
    return;
  }
  l1_ = true;
  d_.stats.aspm_l1_entries++;
  d_.trace.aspm_l1(1, 1);
}

// Blob position: the end, after the fault injection (device_state.cc), only
// for profiles that model the link.
void PcieLink::visit(Archive& a) {
  a.io(aspm_ctl_);
  a.io(entry_latency_);
  a.io(l1_);
  a.io(exit_until_);
  a.io(last_tlp_);
}

const char* PcieLink::check(Time now) const {
  if (aspm_ctl_ > 3) return "Link Control ASPM field out of range";
  if (exit_until_ > now + kMaxExitTime) return "ASPM L1 exit too far ahead";
  if (last_tlp_ > now + kMaxExitTime) return "last TLP in the future";
  if (l1_ && exit_until_ > now) return "link in L1 while an L1 exit is in progress";
  if (l1_ && !l1_allowed()) return "link in L1 although L1 is not enabled";
  return nullptr;
}

std::span<const EventSpec> PcieLink::events() {
  static constexpr EventSpec kEvents[] = {
      {.kind = EventKind::AspmIdle,
       .run = [](Device& d, uint64_t) { d.link.on_idle_timer(); },
       // Armed at most the longest entrance latency after the later of the
       // last TLP and the end of an exit.
       .max_delay = [](const Device& d) -> Time {
         return PcieLink::kMaxEntryLatency + std::max<Time>(d.timing().aspm_l1_exit_time, kMaxExitTime);
       },
       // A timer that finds L1 no longer allowed or already entered does nothing.
       .pending = [](const Device&, unsigned) { return Pending::May; },
       .mismatch = "ASPM idle timer"},
  };
  return kEvents;
}

}  // namespace rtl8168sim
