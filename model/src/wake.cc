// SPDX-License-Identifier: GPL-2.0-or-later
// The Wake-on-LAN detector (wake.h).
#include "wake.h"

#include <algorithm>
#include <array>

#include "device.h"

namespace rtl8168sim::wake {

namespace {

constexpr size_t kEthHeader = 14;
constexpr size_t kSync = 6, kRepeats = 16;

bool lan_wake(const Device& d) { return d.regs.u8(reg::Config5) & reg::Cfg5LanWake; }

bool magic_armed(const Device& d) {
  const WakeBit& b = d.config().profile->magic_packet;
  switch (b.space) {
    case WakeBit::Space::Config3: return d.regs.u8(reg::Config3) & b.mask;
    case WakeBit::Space::Eri: return d.side.eri_dword(b.addr) & b.mask;
    case WakeBit::Space::MacOcp: return d.mac_ocp.read(b.addr) & b.mask;
  }
  return false;
}

void signal(Device& d, Event e) { d.wake_event(e); }

}  // namespace

bool is_magic_packet(std::span<const uint8_t> f, std::span<const uint8_t, 6> mac) {
  if (f.size() < kEthHeader + kSync + kRepeats * 6) return false;
  const bool to_us = std::equal(mac.begin(), mac.end(), f.begin());
  const bool bcast = std::all_of(f.begin(), f.begin() + 6, [](uint8_t b) { return b == 0xff; });
  if (!to_us && !bcast) return false;
  // Each candidate start is checked once, with at most 6 + 96 compares.
  for (size_t i = kEthHeader; i + kSync + kRepeats * 6 <= f.size(); i++) {
    if (!std::all_of(f.begin() + i, f.begin() + i + kSync, [](uint8_t b) { return b == 0xff; })) {
      continue;
    }
    bool all = true;
    for (size_t r = 0; r < kRepeats && all; r++) {
      all = std::equal(mac.begin(), mac.end(), f.begin() + i + kSync + r * 6);
    }
    if (all) return true;
  }
  return false;
}

void on_link_up(Device& d) {
  if (lan_wake(d) && (d.regs.u8(reg::Config3) & reg::Cfg3LinkUp)) signal(d, kLinkUp);
}

void on_frame(Device& d, std::span<const uint8_t> frame) {
  if (!lan_wake(d) || !magic_armed(d)) return;
  std::array<uint8_t, 6> mac{};
  for (unsigned i = 0; i < 6; i++) mac[i] = d.regs.u8(reg::MAC0 + i);
  if (is_magic_packet(frame, mac)) signal(d, kMagicPacket);
}

}  // namespace rtl8168sim::wake
