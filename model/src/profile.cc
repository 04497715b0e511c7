// SPDX-License-Identifier: GPL-2.0-or-later
#include "profile.h"

namespace rtl8168sim {
namespace {

// RTL8168c/8111c: r8169 RTL_GIGA_MAC_VER_22 (XID 0x3c4, mask 0x7c8), PHY
// RTL8211B (realtek.c), jumbo up to 6 KiB (r8169 rtl_jumbo_max), v2 TX
// descriptors, MSI, no firmware. Timing defaults: see docs/TIMING.md for
// where each value comes from.
constexpr ChipProfile k8168c{
    .id = "8168c",
    .name = "RTL8168c/8111c",
    .txconfig_reset = 0x3c400000,
    .pci = {.vendor_id = 0x10ec,
            .device_id = 0x8168,
            .subsystem_vendor_id = 0x10ec,
            .subsystem_id = 0x8168,
            .revision = 0x02,
            .pm_offset = 0x40,
            .msi_offset = 0x50,
            .pcie_offset = 0x70},
    .phy_model = PhyModel::Rtl8211b,
    .phy_id1 = 0x001c,
    .phy_id2 = 0xc912,
    .max_frame = 6 * 1024,
    .side_buses = false,
    .exgmac_filter = false,
    .txcfg_empty = false,
    .quirks = {.lossy_txpoll = true, .evl_short_csum = false, .evl_tso_defects = false},
    .timing = kPcie11x1,
};

// RTL8168evl/8111evl: r8169 RTL_GIGA_MAC_VER_34 (XID 0x2c8, mask 0x7c8),
// firmware rtl_nic/rtl8168e-3.fw (optional: r8169 logs its absence and
// carries on), PCI revision 0x06 (lspci "RTL8111/8168/8411 ... (rev 06)"),
// integrated PHY 0x001cc800 bound by realtek.c's generic driver, jumbo up
// to 9 KiB (rtl_jumbo_max default: JUMBO_9K), ERI/EPHY/CSI side buses
// (rtl_hw_start_8168e_2), the ExGMAC address copy (rtl_rar_exgmac_set),
// TXCFG_EMPTY (rtl8169_cleanup) and its TX defects (rtl_quirk_packet_padto,
// rtl8168evl_fix_tso) on by default as on silicon. It is also an 8111b/8168
// descendant, so the lost-TxPoll behaviour stays on (r8169 keeps the re-kick
// for every 8168).
constexpr ChipProfile k8168evl{
    .id = "8168evl",
    .name = "RTL8168evl/8111evl",
    .txconfig_reset = 0x2c800000,
    .pci = {.vendor_id = 0x10ec,
            .device_id = 0x8168,
            .subsystem_vendor_id = 0x10ec,
            .subsystem_id = 0x8168,
            .revision = 0x06,
            .pm_offset = 0x40,
            .msi_offset = 0x50,
            .pcie_offset = 0x70},
    .phy_model = PhyModel::Rtl8168eInternal,
    .phy_id1 = 0x001c,
    .phy_id2 = 0xc800,
    .max_frame = 9 * 1024,
    .side_buses = true,
    .exgmac_filter = true,
    .txcfg_empty = true,
    .quirks = {.lossy_txpoll = true, .evl_short_csum = true, .evl_tso_defects = true},
    .timing = kEvlTiming,
};

constexpr const ChipProfile* kProfiles[] = {&k8168c, &k8168evl};

}  // namespace

const ChipProfile* find_profile(std::string_view id) {
  for (const ChipProfile* p : kProfiles) {
    if (p->id == id) return p;
  }
  return nullptr;
}

std::string_view profile_ids() { return "8168c, 8168evl"; }

}  // namespace rtl8168sim
