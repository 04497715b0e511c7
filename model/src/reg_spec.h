// SPDX-License-Identifier: GPL-2.0-or-later
// What a chip's register table says about each register (QEMU e1000e/igb
// style decode): width, reset value, writable and write-1-to-clear bits,
// Cfg9346 locking and the hook the device runs after a guest write. A chip
// profile owns its table (reg_tables.cc); RegLayout is the table expanded
// byte by byte once, at compile time, for the register file's decode.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace rtl8168sim {

enum class Hook : uint8_t {
  None,
  ChipCmd,
  TxPoll,
  IntrMask,
  IntrStatus,
  Phyar,
  CounterAddrLow,
  Csiar,
  Eriar,
  Ephyar,
  Ocpar,
  GphyOcp,       // 8168c/evl: no PHY behind it, the flag completes at once
  IntrMitigate,
  TimerCount,    // TCTR: any write restarts the count
  TimerCompare,  // TimerInt
  MacOcp,        // OCPDR of the 8168g class: the MAC OCP window (mac_ocp.h)
  GphyOcpPhy,    // GPHY_OCP of the 8168g class: the PHY's OCP space (phy.h)
  IntCfg0,       // INT_CFG0 of the 8125: bit 0 switches to ISR v2 (irq_queues.h)
};

struct RegSpec {
  uint16_t offset;
  uint8_t width;       // bytes
  const char* name;
  uint32_t reset;
  uint32_t writable;   // bits a write changes
  uint32_t w1c;        // bits a write of 1 clears
  bool locked;         // writable only while Cfg9346 == 0xc0
  Hook hook;
};

// The decode of one table over the register window, byte by byte. Bytes no
// register covers are plain read/write storage.
struct RegLayout {
  static constexpr unsigned kMaxWindow = 256;
  std::array<uint8_t, kMaxWindow> wmask{};
  std::array<uint8_t, kMaxWindow> w1c{};
  std::array<bool, kMaxWindow> locked{};
  std::array<uint8_t, kMaxWindow> reg_start{};
  std::array<Hook, kMaxWindow> hook{};
  std::array<bool, kMaxWindow> known{};  // covered by the table
  std::array<uint8_t, kMaxWindow> reset{};
  // Later tables override earlier ones register by register (a chip class
  // adds to or replaces rows of the common table).
  constexpr explicit RegLayout(std::initializer_list<std::span<const RegSpec>> tables) {
    for (unsigned i = 0; i < kMaxWindow; i++) {
      wmask[i] = 0xff;
      reg_start[i] = static_cast<uint8_t>(i);
      hook[i] = Hook::None;
    }
    for (std::span<const RegSpec> table : tables) {
      for (const RegSpec& r : table) {
        for (unsigned b = 0; b < r.width; b++) {
          const unsigned i = r.offset + b;
          wmask[i] = static_cast<uint8_t>(r.writable >> (8 * b));
          w1c[i] = static_cast<uint8_t>(r.w1c >> (8 * b));
          locked[i] = r.locked;
          reg_start[i] = static_cast<uint8_t>(r.offset);
          hook[i] = r.hook;
          known[i] = true;
          reset[i] = static_cast<uint8_t>(r.reset >> (8 * b));
        }
      }
    }
  }
};

}  // namespace rtl8168sim
