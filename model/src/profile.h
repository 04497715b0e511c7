// SPDX-License-Identifier: GPL-2.0-or-later
// Chip profiles: a chip is data. Everything that tells one chip from
// another lives in its row of this table: PCI identity and capabilities,
// XID, the register table and window, the interrupt registers, the ring
// table, the PHY and how it is reached (PHYAR, GPHY_OCP), the MAC OCP
// space, side buses, limits, quirks (quirks.h) and timing defaults
// (timing.h). The engines, the QEMU shim (rtl8168_config_pci_identity) and
// every tool outside the model (rtl8168_chip_at, `rtl8168-bench chips`) ask
// the profile instead of copying it. docs/ARCHITECTURE.md "Adding a chip"
// lists what a new chip touches.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "quirks.h"
#include "reg_spec.h"
#include "regs.h"
#include "ring_spec.h"
#include "timing.h"
#include "wide_regs.h"

namespace rtl8168sim {

// PCI identity and the capability layout the shim builds (lspci -vv of the
// real parts: PM 0x40, MSI 0x50, PCIe 0x70; the RTL8125B adds MSI-X at 0xb0
// (MsixCap). MSI-X/VPD of the real 8168evl
// are not modelled, r8169 then uses MSI).
//
// ASPM: what the PCI Express capability advertises beyond QEMU's defaults
// (pcie_cap_v1_fill: L0s support, every latency 0) and whether the model
// runs the link's power states (pcie_link.h). All zero: QEMU's defaults,
// the link never leaves L0 (the 8168c and 8168evl profiles).
struct PcieAspm {
  bool l1;             // Link Capabilities ASPM support L0s and L1; L1 modelled
  uint8_t l0s_exit;    // Link Capabilities 14:12, L0s exit latency (7: > 4 us)
  uint8_t l1_exit;     // Link Capabilities 17:15, L1 exit latency (6: 32-64 us)
  uint8_t l0s_accept;  // Device Capabilities 8:6, endpoint L0s acceptable latency (3: 512 ns)
  uint8_t l1_accept;   // Device Capabilities 11:9, endpoint L1 acceptable latency (6: 64 us)
};

// The MSI-X capability as lspci -vv shows the part's: where it sits, its
// table size, the BAR holding table and PBA. The model sends message
// `vector` < `vectors` (irq.h); the host emulates table, masking and PBA.
struct MsixCap {
  uint8_t offset = 0;
  uint16_t vectors = 0;  // 0: no MSI-X
  uint8_t bar = 0;
  uint32_t bar_size = 0, table_offset = 0, pba_offset = 0;
};

struct PciIdentity {
  uint16_t vendor_id, device_id;
  uint16_t subsystem_vendor_id, subsystem_id;
  uint8_t revision;
  uint8_t pm_offset, msi_offset, pcie_offset;
  PcieAspm aspm{};
  // Size of the MMIO BAR (BAR2). The 8168s: 4 KiB, of which the first 256
  // bytes decode (RTL8168_MMIO_SIZE); the 8125: 64 KiB, all of it the
  // register window.
  uint32_t mmio_size = 4096;
  // MSI-X (irq.h): none on the 8168 profiles (vectors 0).
  MsixCap msix{};
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
  // The RTL8168g/h integrated PHY (same ID, 0x001cc800, bound by the same
  // generic driver), reached through GPHY_OCP: its registers are an OCP
  // space where C22 register r sits at 0xa400 + 2r and page p's registers
  // 0x10-0x17 at (p << 4) + 2 (r - 0x10) (r8169 r8168g_mdio_read/write).
  Rtl8168gInternal,
  // The RTL8125B's integrated 2.5GBASE-T PHY, ID 0x001cc840: the 8168g
  // PHY's OCP space and access path, plus 2500BASE-T (phy.h phy2g5): the
  // ability bit in 0xa616 (page 0xa61 register 0x13, bit 13
  // MDIO_PMA_SPEED_2_5G), the advertisement in 0xa5d4 (bit 7
  // MDIO_AN_10GBT_CTRL_ADV2_5G), the partner's in 0xa5d6 (bit 5
  // MDIO_AN_10GBT_STAT_LP2_5G), PHYSR speed 0x0210; MMD access over C22
  // (registers 13/14) reads 0, as realtek.c rtlgen_supports_mmd says of the
  // internal PHYs, which is how 6.12 and later tell it from an external
  // RTL8221B with the same ID.
  Rtl8125Internal,
};

// The PHY's fastest mode (Mbit/s), what it resolves to against a partner
// with every mode (Phy::resolve: 2500BASE-T first where the PHY has it).
constexpr uint32_t phy_best_mbps(PhyModel m) {
  return m == PhyModel::Rtl8125Internal ? 2500 : 1000;
}

// How the driver reaches the PHY (bit set): PHYAR (MDIO frames, r8169
// r8169_mdio_read/write for VER_02..VER_39), GPHY_OCP (r8168_phy_ocp_*, the
// 8168g class and later).
enum PhyPath : uint8_t { kPhyar = 1, kGphyOcp = 2 };

// IntrStatus / IntrMask: where they sit and how wide (16 bits on the 8168).
struct IrqRegs {
  uint16_t status, mask;
  uint8_t width;  // bytes
};

// The TX doorbell register (tx_poll.h): where it sits, how wide, and the bit
// that raises SWInt instead of ringing a queue (0: none). The rings' bits
// are their rows' `doorbell` (ring_spec.h).
struct DoorbellReg {
  uint16_t offset;
  uint8_t width;   // bytes
  uint8_t sw_int;
};

// A wake enable bit in one of the chip's register spaces (wake.h).
struct WakeBit {
  enum class Space : uint8_t { Config3, Eri, MacOcp };
  Space space = Space::Config3;
  uint16_t addr = 0;   // ERI dword / MAC OCP word address (Config3: unused)
  uint32_t mask = reg::Cfg3MagicPacket;
};

struct ChipProfile {
  std::string_view id;            // "8168c": the value of the `chip` parameter
  std::string_view name;          // r8169 rtl_chip_infos name
  std::string_view r8169_version; // the RTL_GIGA_MAC_VER_* r8169 maps the XID to
  std::string_view firmware;      // the rtl_nic/ file r8169 asks for ("" when none)
  uint32_t txconfig_reset;        // carries the XID (read-only bits)
  PciIdentity pci;
  const RegLayout* regs;          // the register table (reg_tables.h)
  uint32_t reg_window;            // bytes of registers behind the MMIO/IO BARs
  IrqRegs irq;
  std::span<const RingSpec> rings;  // one row per descriptor queue
  uint8_t phy_paths;              // PhyPath bits
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
  // The 8168g class: the MAC OCP space behind OCPDR (mac_ocp.h), the MCU
  // status byte (0xd3) and MISC's RXDV gate.
  bool mac_ocp;
  Quirks quirks;                  // defaults, each switchable
  TimingParams timing;            // defaults
  // ---- Later parts (the RTL8125); the defaults are the 8168s' ----
  // TxPoll 0x38, 8 bits: HPQ/NPQ ring, FSWInt raises SWInt.
  DoorbellReg txpoll{reg::TxPoll, 1, reg::FSWInt};
  // The registers above the 256-byte file (wide_regs.h), in a window of
  // `reg_window` bytes.
  std::span<const WideRegSpec> wide_regs{};
  // PHYstatus (0x6c): 1 byte, or 4 on the 8125 (_2500bpsF in bit 10).
  uint8_t phystatus_width = 1;
  // RX VLAN tag removal switched by RxConfig bits 22/23 (the 8125,
  // r8169 rtl_set_rx_config_features), not CPlusCmd RxVlan.
  bool rx_vlan_rxconfig = false;
  // IntrMitigate (0xe2) is not interrupt moderation but reads the FIFO-empty
  // status (regs.h kFifoEmpty8125); writes are dropped.
  bool mitigate_fifo_status = false;
  // The extended tally block (r8169 struct rtl8169_counters "new since
  // RTL8125"): the MAC OCP register whose bits 1:0 switch it on (7.2's
  // rtl_hw_start_8125: 0xea84), 0 when the chip has none.
  uint16_t tally_ext_ocp = 0;
  // Where the driver arms the magic-packet wake (wake.h): Config3
  // MagicPacket up to the 8168c; ERI dword 0xdc bit 16 (MagicPacket_v2) on
  // the 8168evl and later 8168s; MAC OCP 0xc0b6 bit 0 on the RTL8125
  // (r8169 __rtl8169_set_wol).
  WakeBit magic_packet{};
  // The per-queue interrupt registers: ISR v2 behind INT_CFG0 bit 0, one
  // MSI-X message per event, and ISR1-ISR3 of RX queues 1-3 (irq_queues.h).
  bool queue_irqs = false;
};

// XID as r8169 rtl8169_get_mac_version reads it: (TxConfig >> 20) & 0xfcf.
constexpr uint16_t profile_xid(const ChipProfile& p) { return (p.txconfig_reset >> 20) & 0xfcf; }
// The rows of one direction, in table order (TX: NPQ, HPQ).
const RingSpec* profile_ring(const ChipProfile& p, RingDir dir, unsigned index);

// nullptr when unknown.
const ChipProfile* find_profile(std::string_view id);
// Every profile, in the order `rtl8168_chip_at` lists them.
std::span<const ChipProfile* const> profiles();
// Comma-separated list of known ids, for error messages.
std::string profile_ids();

}  // namespace rtl8168sim
