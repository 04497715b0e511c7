// SPDX-License-Identifier: GPL-2.0-or-later
// RTL8168 MAC register offsets and bit fields. Names follow the Linux r8169
// driver (drivers/net/ethernet/realtek/r8169_main.c, enum rtl_registers and
// enum rtl8168_8101_registers) so the model reads side by side with it.
#pragma once

#include <cstdint>

namespace rtl8168sim::reg {

inline constexpr unsigned kFileSize = 256;  // the register file behind BAR0 and BAR2

enum Offset : uint32_t {
  MAC0 = 0x00,              // IDR0-5, locked by Cfg9346
  MAC4 = 0x04,
  MAR0 = 0x08,              // multicast hash, 64 bits
  MAR4 = 0x0c,
  CounterAddrLow = 0x10,    // DTCCR: tally dump address + command bits
  CounterAddrHigh = 0x14,
  LED_CTRL = 0x18,          // read/written by 6.12's LED class devices
  EEE_LED = 0x1b,           // 8168g class
  TxDescStartAddrLow = 0x20,   // NPQ ring base
  TxDescStartAddrHigh = 0x24,
  TxHDescStartAddrLow = 0x28,  // HPQ ring base
  TxHDescStartAddrHigh = 0x2c,
  ChipCmd = 0x37,
  TxPoll = 0x38,
  IntrMask = 0x3c,
  IntrStatus = 0x3e,
  TxConfig = 0x40,
  RxConfig = 0x44,
  TCTR = 0x48,              // timer count (chip_timer.h)
  RxMissed = 0x4c,
  Cfg9346 = 0x50,
  Config0 = 0x51,
  Config1 = 0x52,
  Config2 = 0x53,
  Config3 = 0x54,
  Config4 = 0x55,
  Config5 = 0x56,
  TimerInt = 0x58,          // timer compare value, 0 = off (chip_timer.h)
  PHYAR = 0x60,
  CSIDR = 0x64,             // PCI config space indirect access (8168)
  CSIAR = 0x68,
  PHYstatus = 0x6c,
  PMCH = 0x6f,              // 8168g class: PLL power
  ERIDR = 0x70,
  ERIAR = 0x74,
  EPHYAR = 0x80,
  OCPDR = 0xb0,
  OCPAR = 0xb4,
  GPHY_OCP = 0xb8,
  DLLPR = 0xd0,             // 8168g class: PFM_EN, TX_10M_PS_EN
  MCU = 0xd3,               // 8168g class: MCU/FIFO status
  RxMaxSize = 0xda,
  CPlusCmd = 0xe0,
  IntrMitigate = 0xe2,
  RxDescAddrLow = 0xe4,
  RxDescAddrHigh = 0xe8,
  MaxTxPacketSize = 0xec,   // "EarlyTxThres" on 8169; the driver writes 0x3f
  MISC = 0xf0,
  MISC_1 = 0xf2,            // 8168g class
  // RTL8125 (r8169 enum rtl8125_registers; Realtek's r8125 for the names
  // r8169 leaves as numbers). In the 256-byte file:
  INT_CFG0_8125 = 0x34,     // interrupt configuration, written 0 by rtl_hw_start_8125
  IntrMask_8125 = 0x38,     // 32 bits (rtl_irq_enable / rtl_irq_disable)
  IntrStatus_8125 = 0x3c,   // 32 bits, write 1 to clear (rtl_get_events / rtl_ack_events)
  INT_CFG1_8125 = 0x7a,     // 16 bits, written 0 (rtl_hw_start_8125, VER_63)
  LEDSEL2 = 0x84,
  LEDSEL1 = 0x86,
  TxPoll_8125 = 0x90,       // 16 bits: bit q rings TX queue q (rtl8169_doorbell: BIT(0))
  LEDSEL3 = 0x96,
  // Above the file, in the 64 KiB window (wide_regs.h):
  PCIE_382_8125 = 0x382,    // r8169 rtl_hw_start_8125_common writes 0x221b (unnamed)
  INT_MITI_8125 = 0xa00,    // the interrupt moderation block (0xa00-0xa7f on the 8125B)
  MISC_1880_8125 = 0x1880,  // r8169 clears bits 5:4 (unnamed)
  MAC0_BKP = 0x19e0,        // the station address backup copy (rtl_read_mac_address)
  TNPDS_Q1_LOW_8125 = 0x2100,  // TX queue 1's ring base (r8125 rtl8125_init_tx_ring)
  TNPDS_Q1_HIGH_8125 = 0x2104,
  RDSAR_Q1_LOW_8125 = 0x4000,  // RX queue q's ring base at 0x4000 + 8 (q - 1), q = 1..3 (r8125)
  RSS_CTRL_8125 = 0x4500,   // r8169 writes 0 (8 bits) at open; r8125 _rtl8125_set_rss_hash_opt (rss.h)
  RSS_KEY_8125 = 0x4600,    // the 40-byte Toeplitz key (r8125 rtl8125_store_rss_key)
  RSS_INDIRECTION_TBL_8125_V2 = 0x4700,  // 128 one-byte entries (r8125 rtl8125_store_reta)
  Q_NUM_CTRL_8125 = 0x4800, // r8169 writes 0 (16 bits) at open
  EEE_TXIDLE_TIMER_8125 = 0x6048,
};

// The RTL8125's register window: BAR2 decodes 64 KiB (lspci of the
// RTL8125B: "Region 2: Memory ... [size=64K]").
inline constexpr unsigned kWindow8125 = 0x10000;
// RxConfig of the RTL8125 (r8169): RX VLAN tag removal is here, not in
// CPlusCmd (rtl_set_rx_config_features), and the RX descriptor fetch count
// (RX_FETCH_DFLT_8125, stored).
inline constexpr uint32_t RxVlanInner8125 = 1u << 22;
inline constexpr uint32_t RxVlanOuter8125 = 1u << 23;
inline constexpr uint32_t RxFetchDflt8125 = 8u << 27;
// IntrMitigate (0xe2) of the 8125B is a status register (r8169
// rtl_rxtx_empty_cond_2: "IntrMitigate has new functionality on RTL8125"):
// bits 0, 1 and 8 all read 1 once the FIFOs are empty after StopReq.
inline constexpr uint16_t kFifoEmpty8125 = 0x0103;
// PHYstatus of the 8125 is 32 bits; 2500 Mbit/s full duplex is bit 10
// (Realtek r8125 _2500bpsF; r8169 does not read PHYstatus).
inline constexpr uint32_t _2500bpsF = 0x400;

// MCU (0xd3, 8168g class; r8169 enum rtl8168_registers)
inline constexpr uint8_t McuNowIsOob = 0x80;
inline constexpr uint8_t McuTxEmpty = 0x20;
inline constexpr uint8_t McuRxEmpty = 0x10;
inline constexpr uint8_t McuEnNdp = 0x08;
inline constexpr uint8_t McuEnOobReset = 0x04;
inline constexpr uint8_t McuLinkListRdy = 0x02;
// Config5 (0x56) bit 0 ASPM_en: the chip may initiate ASPM (r8169
// rtl_hw_aspm_clkreq_enable; pcie_link.h).
inline constexpr uint8_t Cfg5AspmEn = 0x01;
// Wake-on-LAN (r8169 __rtl8169_set_wol; wake.h): Config3 (0x54) LinkUp and
// MagicPacket, Config5 (0x56) LanWake.
inline constexpr uint8_t Cfg3LinkUp = 0x10;
inline constexpr uint8_t Cfg3MagicPacket = 0x20;
inline constexpr uint8_t Cfg5LanWake = 0x02;

// MISC (0xf0): RXDV_GATED_EN (8168g class) gates received data off the RX FIFO.
inline constexpr uint32_t RxdvGatedEn = 1u << 19;

// ChipCmd (0x37)
inline constexpr uint8_t CmdStopReq = 0x80;
inline constexpr uint8_t CmdReset = 0x10;
inline constexpr uint8_t CmdRxEnb = 0x08;
inline constexpr uint8_t CmdTxEnb = 0x04;
inline constexpr uint8_t RxBufEmpty = 0x01;

// TxPoll (0x38)
inline constexpr uint8_t HPQ = 0x80;
inline constexpr uint8_t NPQ = 0x40;
inline constexpr uint8_t FSWInt = 0x01;

// IntrStatus / IntrMask (0x3e / 0x3c)
inline constexpr uint16_t SYSErr = 0x8000;
inline constexpr uint16_t PCSTimeout = 0x4000;
inline constexpr uint16_t SWInt = 0x0100;
inline constexpr uint16_t TxDescUnavail = 0x0080;
inline constexpr uint16_t RxFIFOOver = 0x0040;
inline constexpr uint16_t LinkChg = 0x0020;
inline constexpr uint16_t RxOverflow = 0x0010;
inline constexpr uint16_t TxErr = 0x0008;
inline constexpr uint16_t TxOK = 0x0004;
inline constexpr uint16_t RxErr = 0x0002;
inline constexpr uint16_t RxOK = 0x0001;

// TxConfig (0x40) / RxConfig (0x44): MXDMA burst in bits 10:8, 16 << n bytes, 7 = unlimited.
inline constexpr unsigned kMxdmaShift = 8;
inline constexpr uint32_t kMxdmaMask = 0x7u << kMxdmaShift;
// TxConfig bit 11 TXCFG_EMPTY (8111e-vl and later, read-only status), as
// seen in TxConfig's second byte.
inline constexpr uint8_t TxCfgEmptyByte1 = 0x08;
// XID bits of TxConfig (r8169 rtl8169_get_mac_version: (TxConfig >> 20) & 0xfcf) are read-only.
inline constexpr uint32_t kTxConfigXidMask = 0xfcfu << 20;

// RxConfig accept bits
inline constexpr uint32_t AcceptErr = 0x20;
inline constexpr uint32_t AcceptRunt = 0x10;
inline constexpr uint32_t AcceptBroadcast = 0x08;
inline constexpr uint32_t AcceptMulticast = 0x04;
inline constexpr uint32_t AcceptMyPhys = 0x02;
inline constexpr uint32_t AcceptAllPhys = 0x01;

// Cfg9346 (0x50)
inline constexpr uint8_t Cfg9346_Unlock = 0xc0;

// PHYAR / CSIAR / ERIAR / EPHYAR / OCPAR / GPHY_OCP: bit 31 is the flag.
inline constexpr uint32_t kAccessFlag = 0x80000000u;
// PHYAR: MII register address in bits 20:16, data in 15:0 (r8169 r8169_mdio_write).
inline constexpr uint32_t kPhyarRegMask = 0x001f0000u;
inline constexpr unsigned kPhyarRegShift = 16;

// OCPDR (MAC OCP) and GPHY_OCP (PHY OCP) of the 8168g class (r8169
// r8168_mac_ocp_write, r8168_phy_ocp_write): flag | reg << 15 | data. The
// OCP address is even; bits 30:16 carry it halved (bit 15 is data).
inline constexpr unsigned kOcpAddrShift = 15;
inline constexpr uint32_t kOcpAddrMask = 0xfffeu;
inline uint16_t ocp_addr(uint32_t v) { return static_cast<uint16_t>((v >> kOcpAddrShift) & kOcpAddrMask); }

// CounterAddrLow command bits (r8169 CounterReset / CounterDump)
inline constexpr uint32_t CounterReset = 0x1;
inline constexpr uint32_t CounterDump = 0x8;

// CPlusCmd (0xe0)
inline constexpr uint16_t RxVlan = 0x0040;
inline constexpr uint16_t RxChkSum = 0x0020;
inline constexpr uint16_t INTT_MASK = 0x0003;

// PHYstatus (0x6c)
inline constexpr uint8_t TBI_Enable = 0x80;
inline constexpr uint8_t TxFlowCtrl = 0x40;
inline constexpr uint8_t RxFlowCtrl = 0x20;
inline constexpr uint8_t _1000bpsF = 0x10;
inline constexpr uint8_t _100bps = 0x08;
inline constexpr uint8_t _10bps = 0x04;
inline constexpr uint8_t LinkStatus = 0x02;
inline constexpr uint8_t FullDup = 0x01;

}  // namespace rtl8168sim::reg

namespace rtl8168sim::desc {
// Descriptor layout (16 bytes: opts1, opts2, addr lo, addr hi), docs/R8169.md §3.
inline constexpr unsigned kSize = 16;
inline constexpr uint32_t DescOwn = 1u << 31;
inline constexpr uint32_t RingEnd = 1u << 30;
inline constexpr uint32_t FirstFrag = 1u << 29;
inline constexpr uint32_t LastFrag = 1u << 28;
// TX v2 opts1
inline constexpr uint32_t GTSENV4 = 1u << 26;
inline constexpr uint32_t GTSENV6 = 1u << 25;
inline constexpr unsigned kTxL4OffShift = 18;  // 24:18 transport offset (TSO)
inline constexpr uint32_t kTxLenMask = 0xffff;
// TX v2 opts2
inline constexpr uint32_t UDP_CS = 1u << 31;
inline constexpr uint32_t TCP_CS = 1u << 30;
inline constexpr uint32_t IPv4_CS = 1u << 29;
inline constexpr uint32_t IPv6_CS = 1u << 28;
inline constexpr unsigned kMssShift = 18;      // 28:18 MSS (TSO)
inline constexpr uint32_t kMssMask = 0x7ff;
inline constexpr unsigned kTcphoShift = 18;    // 27:18 transport offset (csum)
inline constexpr uint32_t kTcphoMask = 0x3ff;
inline constexpr uint32_t TxVlanTag = 1u << 17;
// RX opts1 status (RTL8169 datasheet p.56)
inline constexpr uint32_t RxMAR = 1u << 27;
inline constexpr uint32_t RxPAM = 1u << 26;
inline constexpr uint32_t RxBAR = 1u << 25;
inline constexpr uint32_t RxRWT = 1u << 22;
inline constexpr uint32_t RxRES = 1u << 21;
inline constexpr uint32_t RxRUNT = 1u << 20;
inline constexpr uint32_t RxCRC = 1u << 19;
inline constexpr uint32_t RxProtoUDP = 2u << 17;
inline constexpr uint32_t RxProtoTCP = 1u << 17;
inline constexpr uint32_t IPFail = 1u << 16;
inline constexpr uint32_t UDPFail = 1u << 15;
inline constexpr uint32_t TCPFail = 1u << 14;
inline constexpr uint32_t kRxBufSizeMask = 0x3fff;
// RX opts2
inline constexpr uint32_t RxVlanTag = 1u << 16;
}  // namespace rtl8168sim::desc
