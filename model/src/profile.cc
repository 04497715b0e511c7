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

// The RTL8125B's queues: TX queues 0 and 1 (the doorbell 0x90 bits 0 and
// 1; queue 0's ring at the 8168's NPQ registers, queue 1's at 0x2100,
// Realtek r8125 TNPDS_Q1_LOW_8125) and RX queues 0-3 (queue 0 at the
// 8168's RX ring registers, queue q > 0 at r8125 RDSAR_Q1_LOW_8125 0x4000 +
// 8 (q - 1), rtl8125_init_rx_ring; four RX queues on the 8125B, r8125
// R8125_MAX_RX_QUEUES). r8169 uses queue 0 of each; RSS (rss.h) spreads
// frames over the RX queues. 16-byte descriptors: r8169 clears MAC OCP
// 0xeb58 bit 0, "disable new tx descriptor format".
constexpr RingSpec k8125Rings[] = {
    {RingId::Npq, "TX0", RingDir::Tx, reg::TxDescStartAddrLow, reg::TxDescStartAddrHigh, 0x01, desc::kSize},
    {RingId::Hpq, "TX1", RingDir::Tx, reg::TNPDS_Q1_LOW_8125, reg::TNPDS_Q1_HIGH_8125, 0x02, desc::kSize},
    {RingId::Rx, "RX0", RingDir::Rx, reg::RxDescAddrLow, reg::RxDescAddrHigh, 0, desc::kSize},
    {RingId::Rx1, "RX1", RingDir::Rx, reg::RDSAR_Q1_LOW_8125, reg::RDSAR_Q1_LOW_8125 + 4, 0, desc::kSize},
    {RingId::Rx2, "RX2", RingDir::Rx, reg::RDSAR_Q1_LOW_8125 + 8, reg::RDSAR_Q1_LOW_8125 + 12, 0, desc::kSize},
    {RingId::Rx3, "RX3", RingDir::Rx, reg::RDSAR_Q1_LOW_8125 + 16, reg::RDSAR_Q1_LOW_8125 + 20, 0, desc::kSize},
};
// IntrStatus_8125 0x3c / IntrMask_8125 0x38, 32 bits.
constexpr IrqRegs k8125Irq{.status = reg::IntrStatus_8125, .mask = reg::IntrMask_8125, .width = 4};

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
    .magic_packet = {.space = WakeBit::Space::Eri, .addr = 0x0dc, .mask = 1u << 16},
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
    .magic_packet = {.space = WakeBit::Space::Eri, .addr = 0x0dc, .mask = 1u << 16},
};

// RTL8125B: r8169 RTL_GIGA_MAC_VER_63 (XID 0x641, mask 0x7cf; "RTL8125B"),
// firmware rtl_nic/rtl8125b-2.fw (optional, as on the 8168h), PCI ID
// 10ec:8125 revision 0x05 (lspci "RTL8125 2.5GbE Controller (rev 05)"),
// the 64 KiB MMIO window (kWindow8125) with the 8125's registers
// (reg_tables.h kRegLayout8125, kWideRegs8125), 32-bit IntrStatus/IntrMask
// at 0x3c/0x38, the doorbell 0x90, the 8168g class's MAC OCP, MCU and RXDV
// gate (rtl_hw_init_8125 polls LINK_LIST_RDY, rtl_hw_start_8125_common MAC
// OCP 0xe00e bit 13 low), the integrated 2.5G PHY (ID 0x001cc840: realtek.c
// binds "RTL8226B_RTL8221B 2.5Gbps PHY" on 6.1 and "Realtek Internal
// NBASE-T PHY" from 6.12 on, phy.h) through GPHY_OCP, EPHY (rtl_ephy_init)
// and the other side buses as on the 8168h. The station address is in
// MAC0_BKP (rtl_read_mac_address). Jumbo to 16 KiB (7.2 rtl_jumbo_max
// JUMBO_16K; 6.x caps the MTU at JUMBO_9K). RX VLAN by RxConfig, the
// extended tally behind MAC OCP 0xea84, IntrMitigate as FIFO status. Its
// short-UDP TX hang (quirks.h short_udp_hang: r8169 pads those frames on
// VER_61..63, rtl8125_quirk_udp_padto) on by default as on silicon. RX queues
// 0-3 with RSS (rss.h) and MSI-X; ASPM is not modelled (docs/R8125.md).
constexpr ChipProfile k8125b{
    .id = "8125b",
    .name = "RTL8125B",
    .r8169_version = "RTL_GIGA_MAC_VER_63",
    .firmware = "rtl_nic/rtl8125b-2.fw",
    .txconfig_reset = 0x64100000,
    .pci = {.vendor_id = 0x10ec,
            .device_id = 0x8125,
            .subsystem_vendor_id = 0x10ec,
            .subsystem_id = 0x0123,
            .revision = 0x05,
            .pm_offset = 0x40,
            .msi_offset = 0x50,
            .pcie_offset = 0x70,
            .mmio_size = reg::kWindow8125,
            // lspci -vv of an RTL8125 (rev 05): "Region 4: Memory ... (64-bit,
            // non-prefetchable) [size=16K]", "Capabilities: [b0] MSI-X: Count=32,
            // Vector table: BAR=4 offset=00000000, PBA: BAR=4 offset=00000800";
            // Realtek r8125 R8125_MAX_MSIX_VEC_8125B 32.
            .msix = {.offset = 0xb0, .vectors = 32, .bar = 4, .bar_size = 16384,
                     .table_offset = 0, .pba_offset = 0x800}},
    .regs = &kRegLayout8125,
    .reg_window = reg::kWindow8125,
    .irq = k8125Irq,
    .rings = k8125Rings,
    .phy_paths = kGphyOcp,
    .phy_model = PhyModel::Rtl8125Internal,
    .phy_id1 = 0x001c,
    .phy_id2 = 0xc840,
    .max_frame = 16 * 1024,
    .side_buses = true,
    .exgmac_filter = false,
    .txcfg_empty = true,
    .mac_ocp = true,
    .quirks = {.lossy_txpoll = false,
               .evl_short_csum = false,
               .evl_tso_defects = false,
               .aspm_l1_txpoll_lost = false,
               .short_udp_hang = true},
    .timing = k8125bTiming,
    .txpoll = {reg::TxPoll_8125, 2, 0},
    .wide_regs = kWideRegs8125,
    .phystatus_width = 2,
    .rx_vlan_rxconfig = true,
    .mitigate_fifo_status = true,
    .tally_ext_ocp = 0xea84,
    .magic_packet = {.space = WakeBit::Space::MacOcp, .addr = 0xc0b6, .mask = 1u << 0},
};

constexpr const ChipProfile* kProfiles[] = {&k8168c, &k8168evl, &k8168h, &k8125b};

// What the engines assume of every row today: two TX queues (NPQ, HPQ) and
// one to kMaxRxQueues RX rings (numbered Rx, Rx1, ... in order) of 16-byte
// descriptors, more than one only with the registers above the file (their
// bases, RSS), the interrupt and doorbell registers and RX queue 0's base in
// the 256-byte file, the window inside 64 KiB and the MMIO BAR. A profile
// that breaks it fails the build here.
constexpr bool rings_fit_engines(const ChipProfile& p) {
  unsigned tx = 0, rx = 0;
  for (const RingSpec& r : p.rings) {
    if (r.desc_size != desc::kSize) return false;
    if (r.dir == RingDir::Tx && static_cast<unsigned>(r.id) != tx++) return false;
    if (r.dir == RingDir::Rx && static_cast<unsigned>(r.id) != static_cast<unsigned>(RingId::Rx) + rx++)
      return false;
    if (r.dir == RingDir::Rx && r.id == RingId::Rx && unsigned{r.base_hi} + 4 > reg::kFileSize) return false;
  }
  return tx == 2 && rx >= 1 && rx <= kMaxRxQueues && (rx == 1 || !p.wide_regs.empty()) &&
         p.irq.status + p.irq.width <= reg::kFileSize && p.irq.mask + p.irq.width <= reg::kFileSize &&
         p.txpoll.offset + p.txpoll.width <= reg::kFileSize && p.reg_window <= 0x10000 &&
         p.reg_window <= p.pci.mmio_size && (p.reg_window <= reg::kFileSize || !p.wide_regs.empty());
}
static_assert(rings_fit_engines(k8168c) && rings_fit_engines(k8168evl) && rings_fit_engines(k8168h) &&
              rings_fit_engines(k8125b));

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
