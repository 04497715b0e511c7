// SPDX-License-Identifier: GPL-2.0-or-later
// The side buses of chips that have them (ChipProfile::side_buses; the
// RTL8168evl): three small register spaces behind an address/command
// register with a completion flag in bit 31, as r8169 drives them.
//
//   ERI  (ERIAR 0x74 / ERIDR 0x70; r8169 _rtl_eri_read/_rtl_eri_write):
//        address 11:0 (dword aligned), byte mask 15:12, type 17:16
//        (ERIAR_EXGMAC = 0; MSIX/OOB are not modelled: reads 0, writes
//        dropped). 4 KiB ExGMAC space; the station-address copy lives at
//        0xe0/0xe4 and 0xf0/0xf4 (rtl_rar_exgmac_set) and is what the
//        unicast filter compares on this chip (rx_engine.cc).
//   EPHY (EPHYAR 0x80; rtl_ephy_read/rtl_ephy_write): register 20:16,
//        data 15:0; 32 16-bit registers of the PCIe SerDes PHY.
//   CSI  (CSIAR 0x68 / CSIDR 0x64; rtl_csi_read/rtl_csi_write): address
//        11:0, byte enable 15:12, function 18:16. The model does not see
//        the host's configuration space: CSI is its own 4 KiB shadow (r8169
//        uses CSI only without native extended config access, which a PCIe
//        root port provides).
//
// Handshake (all three): writing the command register with bit 31 set
// starts a write, which clears bit 31 when done; with bit 31 clear it
// starts a read, which sets bit 31 when the data is valid (in ERIDR /
// EPHYAR 15:0 / CSIDR). Each access takes eri-time / ephy-time / csi-time.
// A new command on a busy bus replaces the one in flight.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "events.h"
#include "state_io.h"

namespace rtl8168sim {

class Device;

class SideBus {
 public:
  // Its events: handlers, longest delays, when each is pending (events.h).
  static std::span<const EventSpec> events();
  enum Bus : uint8_t { Eri = 0, Ephy = 1, Csi = 2, kBuses = 3 };
  static constexpr uint32_t kEriSize = 4096, kCsiSize = 4096, kEphyRegs = 32;
  // ExGMAC station-address copies (r8169 rtl_rar_exgmac_set).
  static constexpr uint32_t kExgmacMac0 = 0xe0, kExgmacMac4 = 0xe4;
  static constexpr uint32_t kExgmacMacF0 = 0xf0, kExgmacMacF4 = 0xf4;

  explicit SideBus(Device& d) : d_(d) {}
  // Power-on: the spaces to their reset values; the ExGMAC address copy is
  // loaded with the station address like IDR0-5. A ChipCmd reset keeps them
  // (r8169 writes the copy once at probe, then resets the chip in open).
  void power_on(std::span<const uint8_t, 6> mac);
  void on_command(Bus b);  // ERIAR / EPHYAR / CSIAR written
  void on_done(Bus b);
  bool busy(Bus b) const { return busy_[b]; }
  uint32_t eri_dword(uint32_t addr) const { return eri_[(addr % kEriSize) / 4]; }
  uint16_t ephy(unsigned reg) const { return ephy_[reg % kEphyRegs]; }
  // The unicast filter of an ExGMAC chip: DA == the copy at 0xe0/0xe4.
  bool exgmac_match(std::span<const uint8_t> da) const;

  // The component's state in the blob, for save and load alike (state_io.h).
  void visit(Archive& a);
  const char* check() const;

 private:
  static uint32_t command_reg(Bus b);
  Device& d_;
  std::array<uint32_t, kEriSize / 4> eri_{};
  std::array<uint16_t, kEphyRegs> ephy_{};
  std::array<uint32_t, kCsiSize / 4> csi_{};
  std::array<bool, kBuses> busy_{};
};

}  // namespace rtl8168sim
