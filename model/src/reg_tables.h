// SPDX-License-Identifier: GPL-2.0-or-later
// The register tables of the chip classes the profiles use (reg_tables.cc):
// the registers every RTL8168 shares, plus each class's own rows. A profile
// names its layout (profile.cc); the register file decodes through it.
#pragma once

#include "reg_spec.h"
#include "regs.h"
#include "wide_regs.h"

namespace rtl8168sim {

// RTL8168c and RTL8168evl: the common table; OCP/GPHY_OCP flags only.
extern const RegLayout kRegLayout8168c;
// The 8168g class (8168g/h): MAC OCP, PHY OCP, MCU, MISC and power registers.
extern const RegLayout kRegLayout8168g;
// The RTL8125: the 8168g class plus its own rows (32-bit interrupt
// registers at 0x38/0x3c, the doorbell at 0x90, INT_CFG0/1, PHYstatus).
extern const RegLayout kRegLayout8125;

// The RTL8125's registers above the 256-byte file (wide_regs.h). Sources:
// r8169 rtl_hw_start_8125_common / rtl_hw_start_8125 / rtl_read_mac_address
// (what it writes and reads), Realtek's r8125 for the register names and
// the second TX queue's ring base. The rest of the 64 KiB window reads 0.
inline constexpr WideRegSpec kWideRegs8125[] = {
    // Written 0x221b at open (unnamed in r8169).
    {reg::PCIE_382_8125, 2, "0x382", 0xffff, 0, WideReset::Value},
    // The interrupt moderation block, zeroed at open (0xa00-0xa7f on the
    // 8125B, VER_63); stored: the model moderates nothing on this chip.
    {reg::INT_MITI_8125, 0x80, "INT_MITI", 0xffffffffu, 0, WideReset::Value},
    // r8169 clears bits 5:4 at open (unnamed).
    {reg::MISC_1880_8125, 2, "0x1880", 0xffff, 0, WideReset::Value},
    // The station address as the chip loaded it (MAC0_BKP/MAC4_BKP): r8169
    // reads it at probe and never writes it; read-only here.
    {reg::MAC0_BKP, 8, "MAC0_BKP", 0, 0, WideReset::StationAddress},
    // TX queue 1's ring (Realtek r8125 TNPDS_Q1_LOW_8125), 256-byte aligned
    // like the 8168's rings.
    {reg::TNPDS_Q1_LOW_8125, 4, "TNPDS_Q1_LOW_8125", 0xffffff00u, 0, WideReset::Value},
    {reg::TNPDS_Q1_HIGH_8125, 4, "TNPDS_Q1_HIGH_8125", 0xffffffffu, 0, WideReset::Value},
    // RX queues 1-3's rings (Realtek r8125 RDSAR_Q1_LOW_8125 + 8 (q - 1),
    // rtl8125_init_rx_ring), 256-byte aligned like queue 0's.
    {reg::RDSAR_Q1_LOW_8125, 4, "RDSAR_Q1_LOW_8125", 0xffffff00u, 0, WideReset::Value},
    {reg::RDSAR_Q1_LOW_8125 + 4, 4, "RDSAR_Q1_HIGH_8125", 0xffffffffu, 0, WideReset::Value},
    {reg::RDSAR_Q1_LOW_8125 + 8, 4, "RDSAR_Q2_LOW_8125", 0xffffff00u, 0, WideReset::Value},
    {reg::RDSAR_Q1_LOW_8125 + 12, 4, "RDSAR_Q2_HIGH_8125", 0xffffffffu, 0, WideReset::Value},
    {reg::RDSAR_Q1_LOW_8125 + 16, 4, "RDSAR_Q3_LOW_8125", 0xffffff00u, 0, WideReset::Value},
    {reg::RDSAR_Q1_LOW_8125 + 20, 4, "RDSAR_Q3_HIGH_8125", 0xffffffffu, 0, WideReset::Value},
    // RSS (rss.h): control, the Toeplitz key and the indirection table;
    // r8169 writes RSS_CTRL and Q_NUM_CTRL 0 (one queue, no RSS).
    {reg::RSS_CTRL_8125, 4, "RSS_CTRL_8125", 0xffffffffu, 0, WideReset::Value},
    {reg::RSS_KEY_8125, 40, "RSS_KEY_8125", 0xffffffffu, 0, WideReset::Value},
    {reg::RSS_INDIRECTION_TBL_8125_V2, 128, "RSS_INDIRECTION_TBL_8125_V2", 0xffffffffu, 0,
     WideReset::Value},
    {reg::Q_NUM_CTRL_8125, 2, "Q_NUM_CTRL_8125", 0xffff, 0, WideReset::Value},
    // EEE TX idle timer (rtl_set_eee_txidle_timer): stored.
    {reg::EEE_TXIDLE_TIMER_8125, 2, "EEE_TXIDLE_TIMER_8125", 0xffff, 0, WideReset::Value},
};
static_assert(rows_disjoint(kWideRegs8125));

}  // namespace rtl8168sim
