// SPDX-License-Identifier: GPL-2.0-or-later
#include "profile.h"

#include "reg_tables.h"
#include "regs.h"

namespace rtl8168sim {
namespace {

// The 8168's queues: TX normal and high priority (TxPoll NPQ 0x40, HPQ
// 0x80), one RX ring; 16-byte descriptors (docs/R8169.md §3).
constexpr RingSpec k8168Rings[] = {
    {RingId::Npq, "NPQ", RingDir::Tx, reg::TxDescStartAddrLow, reg::TxDescStartAddrHigh, reg::NPQ, desc::kSize},
    {RingId::Hpq, "HPQ", RingDir::Tx, reg::TxHDescStartAddrLow, reg::TxHDescStartAddrHigh, reg::HPQ, desc::kSize},
    {RingId::Rx, "RX", RingDir::Rx, reg::RxDescAddrLow, reg::RxDescAddrHigh, 0, desc::kSize},
};
// IntrStatus 0x3e / IntrMask 0x3c, 16 bits.
constexpr IrqRegs k8168Irq{.status = reg::IntrStatus, .mask = reg::IntrMask, .width = 2};

// RTL8168c/8111c: r8169 RTL_GIGA_MAC_VER_22 (XID 0x3c4, mask 0x7c8), PHY
// RTL8211B (realtek.c), jumbo up to 6 KiB (r8169 rtl_jumbo_max), v2 TX
// descriptors, MSI, no firmware. Timing defaults: see docs/TIMING.md for
// where each value comes from.
constexpr ChipProfile k8168c{
    .id = "8168c",
    .name = "RTL8168c/8111c",
    .r8169_version = "RTL_GIGA_MAC_VER_22",
    .firmware = "",
    .txconfig_reset = 0x3c400000,
    .pci = {.vendor_id = 0x10ec,
            .device_id = 0x8168,
            .subsystem_vendor_id = 0x10ec,
            .subsystem_id = 0x8168,
            .revision = 0x02,
            .pm_offset = 0x40,
            .msi_offset = 0x50,
            .pcie_offset = 0x70},
    .regs = &kRegLayout8168c,
    .reg_window = reg::kFileSize,
    .irq = k8168Irq,
    .rings = k8168Rings,
    .phy_paths = kPhyar,
    .phy_model = PhyModel::Rtl8211b,
    .phy_id1 = 0x001c,
    .phy_id2 = 0xc912,
    .max_frame = 6 * 1024,
    .side_buses = false,
    .exgmac_filter = false,
    .txcfg_empty = false,
    .mac_ocp = false,
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
    .r8169_version = "RTL_GIGA_MAC_VER_34",
    .firmware = "rtl_nic/rtl8168e-3.fw",
    .txconfig_reset = 0x2c800000,
    .pci = {.vendor_id = 0x10ec,
            .device_id = 0x8168,
            .subsystem_vendor_id = 0x10ec,
            .subsystem_id = 0x8168,
            .revision = 0x06,
            .pm_offset = 0x40,
            .msi_offset = 0x50,
            .pcie_offset = 0x70},
    .regs = &kRegLayout8168c,
    .reg_window = reg::kFileSize,
    .irq = k8168Irq,
    .rings = k8168Rings,
    .phy_paths = kPhyar,
    .phy_model = PhyModel::Rtl8168eInternal,
    .phy_id1 = 0x001c,
    .phy_id2 = 0xc800,
    .max_frame = 9 * 1024,
    .side_buses = true,
    .exgmac_filter = true,
    .txcfg_empty = true,
    .mac_ocp = false,
    .quirks = {.lossy_txpoll = true, .evl_short_csum = true, .evl_tso_defects = true},
    .timing = kEvlTiming,
};

// RTL8168h/8111h: r8169 RTL_GIGA_MAC_VER_46 (XID 0x541, mask 0x7cf),
// firmware rtl_nic/rtl8168h-2.fw (optional: r8169 logs its absence and
// carries on), PCI revision 0x15 (lspci "RTL8111/8168/8411 ... (rev 15)"),
// the 8168g-class register set (reg_tables.cc kClassG): the MAC OCP space
// through OCPDR, the integrated PHY (ID 0x001cc800, realtek.c's generic
// driver) through GPHY_OCP only, MCU status, the RXDV gate; ERI/EPHY/CSI
// as on the 8168evl (rtl_hw_start_8168h_1), with the station address in
// ERI 0xe0/0xe4 where r8169 reads it at probe (rtl_read_mac_address); the
// unicast filter compares IDR0-5 (r8169 writes the ExGMAC copy only for
// VER_34). TXCFG_EMPTY as on the 8168evl (rtl_hw_init_8168g polls it).
// Jumbo to 9 KiB (rtl_jumbo_max). Quirks: no lost-TxPoll (no report of it
// on this part; r8169's re-kick is unconditional and tells nothing), none
// of the 8168evl's TX defects (r8169 applies rtl8168evl_fix_tso and the
// short-frame padding only to VER_34). Timing: docs/TIMING.md "RTL8168h".
constexpr ChipProfile k8168h{
    .id = "8168h",
    .name = "RTL8168h/8111h",
    .r8169_version = "RTL_GIGA_MAC_VER_46",
    .firmware = "rtl_nic/rtl8168h-2.fw",
    .txconfig_reset = 0x54100000,
    .pci = {.vendor_id = 0x10ec,
            .device_id = 0x8168,
            .subsystem_vendor_id = 0x10ec,
            .subsystem_id = 0x8168,
            .revision = 0x15,
            .pm_offset = 0x40,
            .msi_offset = 0x50,
            .pcie_offset = 0x70,
            // As lspci -vv reports the RTL8111H: "LnkCap: ... ASPM L0s L1, Exit
            // Latency L0s unlimited, L1 <64us", "DevCap: ... Latency L0s <512ns,
            // L1 <64us". Linux then never enables L0s on it (the exit latency
            // exceeds any acceptable one, aspm.c pcie_aspm_check_latency), and
            // L1 only behind a port that advertises it (pcie_link.h).
            .aspm = {.l1 = true, .l0s_exit = 7, .l1_exit = 6, .l0s_accept = 3, .l1_accept = 6}},
    .regs = &kRegLayout8168g,
    .reg_window = reg::kFileSize,
    .irq = k8168Irq,
    .rings = k8168Rings,
    .phy_paths = kGphyOcp,
    .phy_model = PhyModel::Rtl8168gInternal,
    .phy_id1 = 0x001c,
    .phy_id2 = 0xc800,
    .max_frame = 9 * 1024,
    .side_buses = true,
    .exgmac_filter = false,
    .txcfg_empty = true,
    .mac_ocp = true,
    .quirks = {.lossy_txpoll = false,
               .evl_short_csum = false,
               .evl_tso_defects = false,
               .aspm_l1_txpoll_lost = true},
    .timing = k8168hTiming,
};

constexpr const ChipProfile* kProfiles[] = {&k8168c, &k8168evl, &k8168h};

// What the engines assume of every row today: two TX queues (NPQ, HPQ) and
// one RX ring of 16-byte descriptors, the interrupt registers inside the
// window. A profile that breaks it fails the build here.
constexpr bool rings_fit_engines(const ChipProfile& p) {
  unsigned tx = 0, rx = 0;
  for (const RingSpec& r : p.rings) {
    if (r.desc_size != desc::kSize) return false;
    if (r.dir == RingDir::Tx && static_cast<unsigned>(r.id) != tx++) return false;
    if (r.dir == RingDir::Rx) rx++;
  }
  return tx == 2 && rx == 1 && p.irq.status + p.irq.width <= p.reg_window &&
         p.irq.mask + p.irq.width <= p.reg_window && p.reg_window <= RegLayout::kMaxWindow;
}
static_assert(rings_fit_engines(k8168c) && rings_fit_engines(k8168evl) && rings_fit_engines(k8168h));

}  // namespace

const RingSpec* profile_ring(const ChipProfile& p, RingDir dir, unsigned index) {
  for (const RingSpec& r : p.rings) {
    if (r.dir == dir && index-- == 0) return &r;
  }
  return nullptr;
}

std::span<const ChipProfile* const> profiles() { return kProfiles; }

const ChipProfile* find_profile(std::string_view id) {
  for (const ChipProfile* p : kProfiles) {
    if (p->id == id) return p;
  }
  return nullptr;
}

std::string profile_ids() {
  std::string ids;
  for (const ChipProfile* p : kProfiles) ids += (ids.empty() ? "" : ", ") + std::string(p->id);
  return ids;
}

}  // namespace rtl8168sim
