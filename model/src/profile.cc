// SPDX-License-Identifier: GPL-2.0-or-later
#include "profile.h"

namespace rtl8168sim {
namespace {

// The PCIe link and DMA path of both parts: PCIe 1.1 x1 (docs/TIMING.md).
// The 2012 burst/MTU report was measured on an RTL8168evl, so the read
// round trip and completion rate solved from its two DMA-bound points
// (842 Mbit/s at MTU 1500, 908 at MTU 1076, burst 1024) are that chip's as
// much as the 8168c's. Descriptor prefetch depth and the RX read-ahead are
// assumptions (no register or document gives them for these parts; later
// Realtek parts program a TX fetch count, r8169 TDFNR): docs/TIMING.md
// "Descriptor prefetch and outstanding reads".
constexpr TimingParams kPcie11x1{
    .pcie_read_latency = 2100,
    .pcie_bandwidth = 250,
    .pcie_completion_size = 64,
    .pcie_tlp_overhead = 20,
    .pcie_mrrs = 4096,
    .dma_read_rate = 150,
    .tx_desc_prefetch = 4,
    .rx_desc_prefetch = 1,
    .tx_fifo_size = 8192,
    .rx_fifo_size = 8192,
    .phy_an_time = 500'000'000,
    .phy_reset_time = 1'000'000,
    .phyar_time = 25'600,
    .chip_reset_time = 10'000,
    .dtccr_time = 2'000,
    .txpoll_ack_time = 90,
    .timer_clock_mhz = 125,
};

constexpr TimingParams evl_timing() {
  TimingParams t = kPcie11x1;
  // Jumbo frames up to 9 KiB must fit the store-and-forward FIFOs.
  t.tx_fifo_size = 10 * 1024;
  t.rx_fifo_size = 10 * 1024;
  // Side-bus accesses (docs/TIMING.md): a few core-clock (125 MHz) cycles
  // on the internal bus plus the serial EPHY management frame; r8169 polls
  // ERI 100 x 100 us, EPHY and CSI 100 x 10 us, so any of these completes
  // within the driver's first sleep.
  t.eri_time = 1'000;
  t.ephy_time = 2'000;
  t.csi_time = 1'000;
  return t;
}

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
    .timing = evl_timing(),
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
