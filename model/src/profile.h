// SPDX-License-Identifier: GPL-2.0-or-later
// Chip profiles: identity, reset values, limits, and which quirks
// (quirks.h) and timing defaults (timing.h) each chip has.
// Everything that tells one chip from another lives in this table (PCI
// identity and capabilities, XID, PHY, FIFO sizes, jumbo limit, which side
// buses exist, quirks); the engines and the QEMU shim ask the profile
// (the shim through rtl8168_config_pci_identity) instead of hard-coding it.
#pragma once

#include <cstdint>
#include <string_view>

#include "quirks.h"
#include "timing.h"

namespace rtl8168sim {

// PCI identity and the capability layout the shim builds (lspci -vv of the
// real parts: PM 0x40, MSI 0x50, PCIe 0x70; MSI-X/VPD of the real 8168evl
// are not modelled, r8169 then uses MSI).
struct PciIdentity {
  uint16_t vendor_id, device_id;
  uint16_t subsystem_vendor_id, subsystem_id;
  uint8_t revision;
  uint8_t pm_offset, msi_offset, pcie_offset;
};

// The internal PHY as r8169 and Linux's realtek.c see it.
enum class PhyModel : uint8_t {
  // RTL8211B (realtek.c "RTL8211B Gigabit Ethernet"): page select in
  // register 0x1f, eight banked pages.
  Rtl8211b,
  // The RTL8168e/evl integrated PHY, ID 0x001cc800 (RTL_GENERIC_PHYID,
  // realtek.c "Generic FE-GE Realtek PHY"): 16-bit page select; pages 0-7
  // as vendor storage (r8169_phy_config.c rtl8168e_2_hw_phy_config writes
  // 0-3, 5, 7 and extension pages through page 7 register 0x1e) plus the
  // pages the generic driver reads: 0xa43 register 0x12 (PHYSR: link,
  // duplex, speed; rtlgen_read_status), 0xa5c/0xa5d (EEE, rtlgen_read_mmd),
  // 0xa61 register 0x13 (no 2.5G, rtlgen_supports_2_5gbps).
  Rtl8168eInternal,
};

struct ChipProfile {
  std::string_view id;            // "8168c": the value of the `chip` parameter
  std::string_view name;          // r8169 rtl_chip_infos name
  uint32_t txconfig_reset;        // carries the XID (read-only bits)
  PciIdentity pci;
  PhyModel phy_model;
  uint16_t phy_id1, phy_id2;      // MII registers 2/3
  uint32_t max_frame;             // largest frame the TX engine sends (jumbo limit)
  // ERI (ExGMAC), EPHY and CSI are real register spaces with completion
  // flags (side_bus.h); false: the flag completes at once, data stored.
  bool side_buses;
  // The unicast filter compares the ExGMAC copy of the station address in
  // ERI 0xe0/0xe4 (r8169 rtl_rar_exgmac_set), not IDR0-5.
  bool exgmac_filter;
  // TxConfig bit 11 TXCFG_EMPTY reads 1 while the TX path is idle (r8169
  // rtl_txcfg_empty_cond, polled by rtl8169_cleanup for VER_34..38).
  bool txcfg_empty;
  Quirks quirks;                  // defaults, each switchable
  TimingParams timing;            // defaults
};

// nullptr when unknown.
const ChipProfile* find_profile(std::string_view id);
// Comma-separated list of known ids, for error messages.
std::string_view profile_ids();

}  // namespace rtl8168sim
