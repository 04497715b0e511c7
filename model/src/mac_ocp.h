// SPDX-License-Identifier: GPL-2.0-or-later
// The MAC OCP space of the 8168g class (ChipProfile::mac_ocp; RTL8168g/h):
// the MCU's 16-bit registers r8169 reaches through OCPDR (0xb0),
// r8168_mac_ocp_write/read:
//
//   write  OCPDR = OCPAR_FLAG | reg << 15 | data: stored at once
//   read   OCPDR = reg << 15, then OCPDR read at once (r8169 does not
//          poll): the write latches the register's value into OCPDR 15:0
//
// The address is even (regs.h ocp_addr): every 32-bit value names a word,
// so no access is out of bounds. The space modelled is 0xc000-0xfffe (the
// MCU registers r8169 uses: 0xc0b2, 0xd412-0xdd02, 0xe040-0xe8de), each
// word plain storage with the reset values below; below 0xc000 reads 0 and
// writes are dropped (traced). Behaviour behind two addresses:
//
//   0xe8de  bit 14 cleared or bit 15 set (rtl_hw_init_8168g) re-initialises
//           the MCU's link list: MCU (0xd3) LINK_LIST_RDY reads 0 for
//           ll-init-time, then 1 (r8168g_wait_ll_share_fifo_ready polls it)
//   0xc0b2  bits 3:0: the platform says ASPM L1 is safe (rtl_aspm_is_safe);
//           0 at power-on: the BIOS of a board that enables it sets them
//
// Reset values (the model's, from what r8169 reads and modifies: a field it
// only modifies keeps the model's 0 elsewhere): 0xe8de 0x4000 (bit 14 set,
// which rtl_hw_init_8168g clears). docs/R8168H.md lists the traffic.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "events.h"
#include "state_io.h"

namespace rtl8168sim {

class Device;

class MacOcp {
 public:
  static std::span<const EventSpec> events();
  static constexpr uint16_t kBase = 0xc000;
  static constexpr unsigned kWords = (0x10000 - kBase) / 2;
  static constexpr uint16_t kLinkList = 0xe8de;
  static constexpr uint16_t kLinkListReinit = 0x8000, kLinkListKeep = 0x4000;

  explicit MacOcp(Device& d) : d_(d) {}
  void power_on();
  void on_ocpdr_write();          // OCPDR written (Hook::MacOcp)
  uint16_t read(uint16_t addr) const;
  void write(uint16_t addr, uint16_t value);
  bool link_list_ready() const { return !ll_busy_; }
  void on_link_list_ready();      // EventKind::LinkListReady

  void visit(Archive& a);

 private:
  uint16_t* word(uint16_t addr);
  Device& d_;
  std::array<uint16_t, kWords> words_{};
  bool ll_busy_ = false;
};

}  // namespace rtl8168sim
