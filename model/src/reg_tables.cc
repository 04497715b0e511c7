// SPDX-License-Identifier: GPL-2.0-or-later
#include "reg_tables.h"

#include "regs.h"

namespace rtl8168sim {
namespace {

using namespace reg;
constexpr uint32_t kAll = 0xffffffffu;

// The registers every RTL8168 this model knows shares. Sources: r8169_main.c
// register enums and the probe/open traffic (docs/R8169.md §2, §A); RTL8169
// datasheet Rev 1.21. Bytes not covered by a chip's tables are plain
// read/write storage.
constexpr RegSpec kCommon[] = {
    {MAC0, 4, "MAC0", 0, kAll, 0, true, Hook::None},
    {MAC4, 2, "MAC4", 0, 0xffff, 0, true, Hook::None},
    {MAR0, 4, "MAR0", 0, kAll, 0, false, Hook::None},
    {MAR4, 4, "MAR4", 0, kAll, 0, false, Hook::None},
    // Command bits self-clear when the dump/reset is done (r8169 rtl_counters_cond).
    {CounterAddrLow, 4, "CounterAddrLow", 0, 0xffffffc9u, 0, false, Hook::CounterAddrLow},
    {CounterAddrHigh, 4, "CounterAddrHigh", 0, kAll, 0, false, Hook::None},
    {LED_CTRL, 4, "LED_CTRL", 0, kAll, 0, false, Hook::None},
    // Descriptor rings are 256-byte aligned (datasheet): low bits read 0.
    {TxDescStartAddrLow, 4, "TxDescStartAddrLow", 0, 0xffffff00u, 0, false, Hook::None},
    {TxDescStartAddrHigh, 4, "TxDescStartAddrHigh", 0, kAll, 0, false, Hook::None},
    {TxHDescStartAddrLow, 4, "TxHDescStartAddrLow", 0, 0xffffff00u, 0, false, Hook::None},
    {TxHDescStartAddrHigh, 4, "TxHDescStartAddrHigh", 0, kAll, 0, false, Hook::None},
    // Bit 0 (RxBufEmpty) is status; reset self-clears (r8169 rtl_chipcmd_cond).
    {ChipCmd, 1, "ChipCmd", RxBufEmpty, CmdStopReq | CmdReset | CmdRxEnb | CmdTxEnb, 0, false, Hook::ChipCmd},
    {TxPoll, 1, "TxPoll", 0, 0, 0, false, Hook::TxPoll},
    {IntrMask, 2, "IntrMask", 0, 0xffff, 0, false, Hook::IntrMask},
    {IntrStatus, 2, "IntrStatus", 0, 0, 0xffff, false, Hook::IntrStatus},
    {TxConfig, 4, "TxConfig", 0 /* profile */, ~kTxConfigXidMask, 0, false, Hook::None},
    {RxConfig, 4, "RxConfig", 0, kAll, 0, false, Hook::None},
    // TCTR reads the live count (chip_timer.h); a write stores nothing and restarts it.
    {TCTR, 4, "TCTR", 0, 0, 0, false, Hook::TimerCount},
    {RxMissed, 4, "RxMissed", 0, kAll, 0, false, Hook::None},
    {Cfg9346, 1, "Cfg9346", 0, 0xcf, 0, false, Hook::None},
    {Config0, 1, "Config0", 0, 0xff, 0, true, Hook::None},
    {Config1, 1, "Config1", 0, 0xff, 0, true, Hook::None},
    {Config2, 1, "Config2", 0, 0xff, 0, true, Hook::None},
    {Config3, 1, "Config3", 0, 0xff, 0, true, Hook::None},
    {Config4, 1, "Config4", 0, 0xff, 0, true, Hook::None},
    {Config5, 1, "Config5", 0, 0xff, 0, true, Hook::None},
    {TimerInt, 4, "TimerInt", 0, kAll, 0, false, Hook::TimerCompare},
    {PHYAR, 4, "PHYAR", 0, kAll, 0, false, Hook::Phyar},
    {CSIDR, 4, "CSIDR", 0, kAll, 0, false, Hook::None},
    {CSIAR, 4, "CSIAR", 0, kAll, 0, false, Hook::Csiar},
    {PHYstatus, 1, "PHYstatus", 0, 0, 0, false, Hook::None},
    {ERIDR, 4, "ERIDR", 0, kAll, 0, false, Hook::None},
    {ERIAR, 4, "ERIAR", 0, kAll, 0, false, Hook::Eriar},
    {EPHYAR, 4, "EPHYAR", 0, kAll, 0, false, Hook::Ephyar},
    {RxMaxSize, 2, "RxMaxSize", 0, 0xffff, 0, false, Hook::None},
    {CPlusCmd, 2, "CPlusCmd", 0, 0xffff, 0, false, Hook::None},
    {IntrMitigate, 2, "IntrMitigate", 0, 0xffff, 0, false, Hook::IntrMitigate},
    {RxDescAddrLow, 4, "RxDescAddrLow", 0, 0xffffff00u, 0, false, Hook::None},
    {RxDescAddrHigh, 4, "RxDescAddrHigh", 0, kAll, 0, false, Hook::None},
};

// The 8168c/8168evl (before the 8168g): OCPDR/OCPAR/GPHY_OCP are command
// registers with a completion flag and nothing behind them (r8169 uses them
// from VER_40 on; docs/R8169.md §2 "S only"): the flag completes at once.
constexpr RegSpec kClassC[] = {
    {OCPDR, 4, "OCPDR", 0, kAll, 0, false, Hook::None},
    {OCPAR, 4, "OCPAR", 0, kAll, 0, false, Hook::Ocpar},
    {GPHY_OCP, 4, "GPHY_OCP", 0, kAll, 0, false, Hook::GphyOcp},
};

// The 8168g class (RTL8168g/h and later; r8169 VER_40..): the MAC's OCP
// window through OCPDR (r8168_mac_ocp_read/write: no completion flag, a
// read is a write of the address followed at once by a read of the data),
// the integrated PHY through GPHY_OCP (r8168_phy_ocp_read/write: bit-31
// handshake, polled), the MCU status byte (rtl_hw_init_8168g,
// rtl_wait_txrx_fifo_empty), MISC with the RXDV gate, and the power
// registers r8169 programs at open (plain storage here).
constexpr RegSpec kClassG[] = {
    {OCPDR, 4, "OCPDR", 0, kAll, 0, false, Hook::MacOcp},
    {OCPAR, 4, "OCPAR", 0, kAll, 0, false, Hook::Ocpar},
    {GPHY_OCP, 4, "GPHY_OCP", 0, kAll, 0, false, Hook::GphyOcpPhy},
    // EEE LED frequency (rtl8168_config_eee_mac clears bits 2:0).
    {EEE_LED, 1, "EEE_LED", 0, 0xff, 0, false, Hook::None},
    // PLL power (rtl_pll_power_up/down: bits 7:6).
    {PMCH, 1, "PMCH", 0, 0xff, 0, false, Hook::None},
    // PFM_EN, TX_10M_PS_EN (rtl_hw_start_8168h_1 clears both).
    {DLLPR, 1, "DLLPR", 0, 0xff, 0, false, Hook::None},
    // NOW_IS_OOB, EN_NDP, EN_OOB_RESET are written; TX_EMPTY, RX_EMPTY and
    // LINK_LIST_RDY are status the device computes at read time
    // (Device::live_read).
    {MCU, 1, "MCU", 0, McuNowIsOob | McuEnNdp | McuEnOobReset, 0, false, Hook::None},
    // RXDV_GATED_EN (bit 19): while set, received frames do not enter the
    // RX FIFO (rtl_enable_rxdvgate before a reset, rtl_disable_rxdvgate in
    // rtl_hw_start_8168h_1).
    {MISC, 4, "MISC", 0, kAll, 0, false, Hook::None},
    // PFM_D3COLD_EN (rtl_hw_start_8168h_1 clears it).
    {MISC_1, 1, "MISC_1", 0, 0xff, 0, false, Hook::None},
};

// The RTL8125 (r8169 VER_61 and later) in the 256-byte file: the 8168g
// class's rows plus these, which replace the 8168's where they overlap
// (IntrMask_8125 covers the 8168's TxPoll, IntrStatus_8125 its
// IntrMask/IntrStatus pair). Sources: r8169 enum rtl8125_registers and the
// VER_63 paths (rtl_hw_start_8125, rtl_irq_enable, rtl8169_doorbell,
// rtl_wait_txrx_fifo_empty); reset values are the model's (r8169 writes
// each before it relies on it; none is read back at probe).
constexpr RegSpec kClass8125[] = {
    // INT_CFG0: written 0 at open (rtl_hw_start_8125); CLKREQEN bit 3 on the
    // 8126; bit 0 (Realtek r8125 INT_CFG0_ENABLE_8125) selects ISR v2.
    {INT_CFG0_8125, 1, "INT_CFG0_8125", 0, 0xff, 0, false, Hook::IntCfg0},
    {IntrMask_8125, 4, "IntrMask_8125", 0, kAll, 0, false, Hook::IntrMask},
    {IntrStatus_8125, 4, "IntrStatus_8125", 0, 0, kAll, false, Hook::IntrStatus},
    // PHYstatus with the 8125's speed bits (_2500bpsF in bit 10): the device's.
    {PHYstatus, 2, "PHYstatus", 0, 0, 0, false, Hook::None},
    {INT_CFG1_8125, 2, "INT_CFG1_8125", 0, 0xffff, 0, false, Hook::None},
    // The doorbell: bit q rings TX queue q; stores nothing (tx_poll.h).
    {TxPoll_8125, 2, "TxPoll_8125", 0, 0, 0, false, Hook::TxPoll},
    // Not moderation on the 8125: a status the device computes at read time
    // (regs.h kFifoEmpty8125, Device::live_read); writes are dropped.
    {IntrMitigate, 2, "IntrMitigate", 0, 0, 0, false, Hook::None},
};

}  // namespace

constexpr RegLayout kRegLayout8168c{kCommon, kClassC};
constexpr RegLayout kRegLayout8168g{kCommon, kClassG};
constexpr RegLayout kRegLayout8125{kCommon, kClassG, kClass8125};

}  // namespace rtl8168sim
